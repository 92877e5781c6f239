// SPDX-License-Identifier: MIT
/* cg.h - the internal header of lib/codegen-llvm: ttgir to LLVM IR through
 * the LLVM C API, LLVM O3, NVPTX to PTX, ptxas to cubin, kernel metadata.
 *
 * Each tensor value lowers to a C array of LLVMValueRef, one per element the
 * calling thread holds (the "registers" of its layout); a scalar is an array
 * of one. Sections follow the defining files. Hidden from the shared library. */
#ifndef TTC_CG_H
#define TTC_CG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir-tt/ir.h"
#include "ir-ttgpu/ttg.h"

/* LLVM's opaque handles, spelled as llvm-c/Types.h does (C11 allows the
 * repeated typedef), so that users of this header, such as the unit tests,
 * need no LLVM include path. The .c files include llvm-c themselves. */
typedef struct LLVMOpaqueContext *LLVMContextRef;
typedef struct LLVMOpaqueModule *LLVMModuleRef;
typedef struct LLVMOpaqueType *LLVMTypeRef;
typedef struct LLVMOpaqueValue *LLVMValueRef;
typedef struct LLVMOpaqueBuilder *LLVMBuilderRef;
typedef struct LLVMOpaqueBasicBlock *LLVMBasicBlockRef;

/* ---- driver interface (emit.c, ptxas.c) -------------------------------- */

typedef struct cg_options {
  const char *arch;      /* "sm_90a", "sm_90", "sm_80"; NULL: "sm_90" */
  int num_warps;         /* used only when the module lacks "ttg.num-warps"; 0: 4 */
  int opt_level;         /* LLVM default<ON> pipeline, 0..3; 3 is Triton's (0 really means O0) */
  int ptx_version;       /* PTX ISA as 87 for 8.7; 0: what the target needs, 87 at least */
  const char *libdevice; /* libdevice.10.bc; NULL: $TTC_LIBDEVICE, then the CUDA home's */
  /* Outputs, when non-NULL: set true when the module needed libdevice and
   * it could not be read (a missing tool, not the input's fault); the wall
   * milliseconds of building the LLVM IR and of ttc's own fixups ([0]),
   * of LLVM's work on it (libdevice link, verifier, optimizer, printing
   * the IR: [1]) and of NVPTX code generation ([2]). */
  bool *libdevice_missing;
  double *stage_ms;
  bool line_info; /* .file/.loc line tables from the ops' source positions */
} cg_options;

/* ttgir -> optimized LLVM IR text and PTX text (both NUL-terminated, caller
 * frees with free()). Returns false after emitting a located diagnostic on
 * the module's context (then *llir and *ptx are NULL). Deterministic: the
 * same module and options give byte-identical outputs. */
bool cg_emit_ptx(const ir_module *ttgir, const cg_options *opts, char **llir, char **ptx);

/* PTX -> cubin bytes (caller frees with free()). `ptxas` may be NULL: then
 * $TTC_PTXAS, `ptxas` on PATH, TTC_DEFAULT_CUDA_HOME/bin/ptxas in that order.
 * On failure emits "ptxas failed: <its stderr>" (or why it could not run) on
 * ctx with an unknown location and returns false. Prints nothing itself. */
bool cg_run_ptxas(ir_context *ctx, const char *ptx, const char *arch, const char *ptxas,
                  void **cubin, size_t *cubin_size);

/* What ptxas -v reports about the entry function; -1 where it said nothing. */
typedef struct cg_ptxas_info {
  int num_regs;          /* registers per thread */
  int spill_store_bytes; /* bytes stored to local memory by spills */
  int spill_load_bytes;  /* bytes loaded back */
  int shared_static;     /* static shared memory ("bytes smem"); 0 when absent */
  int local;             /* local memory per thread: "bytes lmem", else the stack frame */
} cg_ptxas_info;

/* cg_run_ptxas with ptxas -v, whose report fills *info (which may be NULL). */
bool cg_run_ptxas_info(ir_context *ctx, const char *ptx, const char *arch, const char *ptxas,
                       void **cubin, size_t *cubin_size, cg_ptxas_info *info);

/* Parses ptxas -v output ("Used 40 registers", "8 bytes spill stores", ...)
 * for the first entry function into *info; false when it names no register
 * count. */
bool cg_parse_ptxas_info(const char *log, cg_ptxas_info *info);

/* The ptxas cg_run_ptxas would run, written to buf: `explicit_path` when
 * given, else $TTC_PTXAS, `ptxas` on PATH, TTC_DEFAULT_CUDA_HOME/bin/ptxas.
 * False when that is not an executable file. (The driver keys its cache on
 * the file found.) */
bool cg_find_ptxas(const char *explicit_path, char *buf, size_t cap);

/* The libdevice bitcode the codegen links: `path` when given, then
 * $TTC_LIBDEVICE, then the CUDA home's (written to buf). Not checked. */
const char *cg_libdevice_path(const char *path, char *buf, size_t cap);

/* The targets ttc compiles for (sm_80 and newer that LLVM knows), in
 * order; cg_target_name gives NULL out of range. Static storage. */
int cg_num_targets(void);
const char *cg_target_name(int index);

/* The version ptxas reports ("13.0.88" from "Cuda compilation tools,
 * release 13.0, V13.0.88"), into buf; false when ptxas is not found or
 * says no version. `ptxas` as for cg_run_ptxas. */
bool cg_ptxas_version(const char *ptxas, char *buf, size_t cap);

/* ---- metadata.c: kernel metadata JSON ----------------------------------- */

typedef struct cg_param_info {
  const char *name; /* parameter name ("x_ptr") */
  const char *type; /* Triton signature spelling ("*fp32:16", "i32", "fp32");
                       a ":N" suffix becomes "divisibility": N */
} cg_param_info;

typedef struct cg_constexpr_info {
  const char *name;  /* "BLOCK_SIZE" */
  const char *value; /* the value's text ("1024", "1.5", "true"), written as a
                        JSON string */
} cg_constexpr_info;

typedef struct cg_metadata {
  const char *name; /* entry name */
  int num_warps, num_stages;
  int shared;         /* dynamic shared bytes the launch must pass (0: static only) */
  const char *target; /* "cuda:90" */
  const char *arch;   /* "sm_90a" */
  int nparams;
  const cg_param_info *params;
  int nconstexprs;
  const cg_constexpr_info *constexprs;
  const char *version; /* compiler version ("0.1.0") */
  const char *ptx;     /* hashed with FNV-1a 64 into "hash"; may be NULL (hash of "") */
  /* What ptxas reported, NULL when it did not run: the keys num_regs,
   * spills_store_bytes, spills_load_bytes, shared_static and local are then null. */
  const cg_ptxas_info *ptxas;
  /* Milliseconds spent producing each level (TTC_NUM_LEVELS entries, a
   * negative one for a level not produced), or NULL: "times_ms" is {}. */
  const double *times_ms;
} cg_metadata;

/* One JSON object, keys in the fixed order name, num_warps, num_stages, shared,
 * num_regs, spills_store_bytes, spills_load_bytes, shared_static, local,
 * target ({"backend": "cuda", "arch": 90, "name": "sm_90a"} from target and
 * arch), params, constexprs, version, hash, times_ms ({"ttir": 1.25, ...}).
 * Caller frees; NULL on OOM. */
char *cg_metadata_json(const cg_metadata *md);
/* FNV-1a 64 of n bytes. */
uint64_t cg_fnv1a64(const void *data, size_t n);

/* ---- layout.c: index math from linear layouts -------------------------- */

typedef struct cg cg; /* the lowering context (lower.c) */

/* A thread-dependent i32 term and the bits it may set (so that combining
 * terms can use add/or when no bit is shared, xor otherwise). */
typedef struct cg_part {
  LLVMValueRef v; /* NULL: zero */
  int32_t mask;
} cg_part;

/* Contribution of input `in` (value x, i32) to output dim d of l. */
cg_part cg_input_part(cg *c, const ttg_ll *l, int in, LLVMValueRef x, int d);
/* The calling thread's (lane and warp) contribution to output dim d. */
cg_part cg_thread_part(cg *c, const ttg_ll *l, int d);
cg_part cg_part_xor(cg *c, cg_part a, cg_part b);
LLVMValueRef cg_part_xor_const(cg *c, cg_part p, int32_t k);
/* p ^ k split as (p ^ (k's bits p may have)) + *rest, *rest the other bits
 * of k: for addresses whose constant goes into an immediate. */
LLVMValueRef cg_part_xor_split(cg *c, cg_part p, int32_t k, int32_t *rest);
/* Registers 0..n-1 holding consecutive elements along one dim (*dim), as
 * many as the layout's leading register bases give (1: none, *dim -1). */
int cg_contig_regs(const ttg_ll *l, int *dim);

/* ---- lower.c: the lowering context and op dispatch ---------------------- */

typedef struct cg_vals {
  int n;           /* registers (1 for scalars) */
  LLVMValueRef *v; /* arena-owned */
} cg_vals;

typedef struct cg_map_entry {
  const ir_value *key;
  cg_vals vals;
} cg_map_entry;

struct cg {
  ir_context *ictx;
  const ir_module *im;
  ir_arena arena;      /* value arrays and scratch; freed at the end */
  ir_arena axis_arena; /* the axis analysis */
  const ir_axis_analysis *axis;
  LLVMContextRef lc;
  LLVMModuleRef mod;
  LLVMBuilderRef b;
  LLVMValueRef fn;
  int num_warps;
  LLVMValueRef tid, lane, warp; /* i32, computed in the entry block */
  LLVMValueRef smem;            /* global_smem, the dynamic shared memory (shared.c) */
  bool needs_libdevice;         /* a __nv_* function was declared */
  cg_map_entry *map;            /* open addressing, malloc-owned */
  size_t map_cap, map_len;
  bool failed;
  bool reading_libdevice; /* LLVM's complaints about the file: cg_link_libdevice reports them */
  struct cg_debug *dbg;   /* line tables (debuginfo.c); NULL: none */
  /* cg_op_cost's cache: registers a thread holds of a type (types are
   * interned, so the pointer is the key). */
  const ir_type *regs_key[64];
  int64_t regs_val[64];
};

/* ---- debuginfo.c: line tables (.file/.loc) ------------------------------ */

typedef struct cg_debug cg_debug;
/* Starts line tables in c->mod (a compile unit naming main_file); c->dbg
 * stays NULL when memory runs out. */
void cg_debug_begin(cg *c, const char *main_file);
/* The kernel's DISubprogram on c->fn, at func's position. */
void cg_debug_function(cg *c, const ir_op *func, const char *name);
/* Instructions built from now on carry loc (line 0 when unknown). */
void cg_debug_loc(cg *c, ir_loc loc);
/* Finalizes the debug info and frees c->dbg. All no-ops without c->dbg. */
void cg_debug_finish(cg *c);

/* Value map: set replaces; get returns NULL-v vals when absent. */
void cg_map_set(cg *c, const ir_value *v, cg_vals vals);
cg_vals cg_map_get(const cg *c, const ir_value *v);
/* Looks up an operand; emits an internal error diagnostic when missing. */
bool cg_get(cg *c, const ir_op *op, int i, cg_vals *out);
cg_vals cg_vals_new(cg *c, int n);
/* LLVM type of a scalar IR type (tensor: its element). */
LLVMTypeRef cg_type(cg *c, const ir_type *t);
/* Registers a value of type t holds in this thread (1 for scalars); -1 with a
 * located diagnostic when the layout is unsupported. */
int64_t cg_num_regs(cg *c, const ir_type *t, ir_loc loc);
/* The linear layout of a tensor type; false with a located diagnostic. */
bool cg_ll_of(cg *c, const ir_type *t, ir_loc loc, ttg_ll *l);
/* An estimate of the LLVM code an op lowers to, in scalar operations per
 * thread: the elements a thread holds of the largest tile it takes or makes
 * (1 for scalars, 0 for constants), times what one element costs: the
 * combiner's ops for a reduction or scan, the inner dimension for a dot (a
 * sixteenth with tensor cores), more for transcendental and libdevice
 * functions and for moves through shared memory. Nested ops are not
 * included (cg_emit_ptx bounds the sum over a kernel). */
int64_t cg_op_cost(cg *c, const ir_op *op);
/* Builds the LLVM module for the kernel into c->mod (c->lc, c->b set up by
 * cg_emit_ptx); false after a diagnostic. */
bool cg_build_module(cg *c, const ir_module *m);
/* Lowers every op of a block but its terminator, which is returned (NULL if
 * the block has none). False when an op failed (diagnosed). */
bool cg_lower_block(cg *c, ir_block *blk, ir_op **term);
bool cg_unsupported(cg *c, const ir_op *op);
/* Calls an intrinsic by name with overload types. */
LLVMValueRef cg_intrinsic(cg *c, const char *name, LLVMTypeRef *otys, unsigned notys,
                          LLVMValueRef *args, unsigned nargs);
LLVMValueRef cg_i32(cg *c, int64_t v);
/* Inline PTX: `code` with $N operands, LLVM constraint string `cons`. */
LLVMValueRef cg_asm(cg *c, LLVMTypeRef ret, const char *code, const char *cons, LLVMValueRef *args,
                    unsigned nargs, bool side_effects);
void cg_barrier(cg *c);

/* ---- gep_split.c: constant GEP offsets split out after O3 ----------------- */

/* Rewrites each GEP at ext(X + C) into a constant byte offset from one
 * shared GEP at ext(X), so that NVPTX's strength reduction stays linear on
 * huge straight-line blocks. Leaves the module unchanged on OOM. */
void cg_split_gep_offsets(cg *c);
/* Rewrites LLVM IR that known ptxas bugs miscompile (ptxas_fixup.c). */
void cg_ptxas_fixups(cg *c);
/* Hides the widening of 32-bit GEP indices whose addresses leave their
 * block from NVPTX's wide multiplies (wide_index.c). */
void cg_keep_wide_indices(cg *c);

/* ---- shared.c: shared memory --------------------------------------------- */

/* The kernel's dynamic shared memory (global_smem) and a byte offset in it. */
LLVMValueRef cg_shared_base(cg *c);
LLVMValueRef cg_shared_at(cg *c, LLVMValueRef byte_offset);
/* The buffer allocate-shared-memory gave op (its allocation.offset); a
 * located internal error when it has none. */
LLVMValueRef cg_scratch(cg *c, const ir_op *op);
/* A distributed tensor to / from the buffer at `base` (ptr addrspace(3)),
 * vectorized where the map allows. */
bool cg_shared_store(cg *c, LLVMValueRef base, const ir_type *t, const ttg_ll *map, cg_vals v);
cg_vals cg_shared_load(cg *c, LLVMValueRef base, const ir_type *t, const ttg_ll *map);
/* The same load as ldmatrix.x4 (.trans for 16-bit data stored the other way),
 * when the map has the 8x8-matrix structure dot operands have; false when
 * it does not (the caller falls back to cg_shared_load). */
bool cg_ldmatrix(cg *c, LLVMValueRef base, const ir_type *t, const ttg_ll *map, cg_vals *out);
/* The inverse for 16-bit data on sm_90: v written with stmatrix.x4 (.trans
 * for the other orientation); false, having emitted nothing, when the map
 * lacks that structure. */
bool cg_stmatrix(cg *c, LLVMValueRef base, const ir_type *t, const ttg_ll *map, cg_vals v);

/* ---- lower_shared.c: ttg.local_*, memdesc views, fences, barriers ------- */

bool cg_lower_shared_op(cg *c, ir_op *op);

/* ---- lower_async.c: cp.async copies, commit groups, waits --------------- */

bool cg_lower_async(cg *c, ir_op *op);

/* ---- lower_mma.c: tt.dot on mma.sync; lower_wgmma.c: warp_group_dot ----- */

bool cg_lower_mma(cg *c, ir_op *op);
bool cg_lower_wgmma(cg *c, ir_op *op);
bool cg_lower_wgmma_wait(cg *c, ir_op *op);
/* wgmma.wait_group `pendings` (-1: none, only the ordering) with every
 * register of v's lowered value tied to it. */
bool cg_wgmma_wait_vals(cg *c, int pendings, const ir_value *v);

/* ---- lower_tensor.c: program id, make_range, splat, broadcast, expand_dims,
 *      constants, convert_layout ----------------------------------------- */

/* Emits, per tensor dim, the i32 index of each register (idx[d][j]). */
bool cg_emit_indices(cg *c, const ir_type *t, ir_loc loc, LLVMValueRef **idx);
/* i1 "this thread holds the first copy of its elements" for a value of type t
 * (scalars: tid == 0), or NULL when every thread holds distinct elements.
 * A thread's registers never repeat an element (ttg_ll_of_tensor). */
LLVMValueRef cg_owner_pred(cg *c, const ir_type *t, ir_loc loc);
bool cg_lower_tensor_op(cg *c, ir_op *op);

/* ---- lower_arith.c: elementwise arith, math, casts --------------------- */

bool cg_lower_elementwise(cg *c, ir_op *op);
/* One scalar instance of an elementwise op on LLVM values (used by
 * cg_lower_elementwise and by reduce combiners). */
LLVMValueRef cg_scalar_op(cg *c, const ir_op *op, LLVMValueRef *args);

/* ---- lower_memory.c: addptr, load, store ------------------------------- */

bool cg_lower_memory_op(cg *c, ir_op *op);

/* ---- lower_atomic.c: tt.atomic_rmw, tt.atomic_cas ---------------------- */

bool cg_lower_atomic(cg *c, ir_op *op);

/* ---- lower_dot.c: tt.dot through shared memory and FMAs ---------------- */

bool cg_lower_dot(cg *c, ir_op *op);

/* ---- lower_scf.c: scf.for, scf.if, scf.while --------------------------- */

bool cg_lower_scf_op(cg *c, ir_op *op);

/* ---- lower_reduce.c: tt.reduce ------------------------------------------ */

bool cg_lower_reduce(cg *c, ir_op *op);
/* Emits the combiner region `blk` of a tt.reduce / tt.scan on (acc, x) for
 * each of the nop operands (acc is the left operand); results replace acc.
 * False after a diagnostic. */
bool cg_combine(cg *c, const ir_op *op, ir_block *blk, int nop, LLVMValueRef *acc, LLVMValueRef *x);

/* ---- lower_scan.c: tt.scan ---------------------------------------------- */

bool cg_lower_scan(cg *c, ir_op *op);

/* ---- lower_relayout.c: tt.trans, tt.reshape, tt.join, tt.split ---------- */

/* Ops that move elements between threads, through shared memory. */
bool cg_lower_relayout(cg *c, ir_op *op);
/* tt.broadcast / tt.expand_dims whose layouts share no root, through shared
 * memory (lower_tensor.c falls back to it). */
bool cg_relayout_broadcast(cg *c, ir_op *op);

/* ---- lower_debug.c: tt.print, tt.assert --------------------------------- */

bool cg_lower_debug(cg *c, ir_op *op);

/* ---- libdevice.c: libdevice functions, linked on demand ----------------- */

/* A call of libdevice function `name` (e.g. "__nv_erff") with one or two
 * arguments of LLVM type `ty` returning `ty`; declares it and marks the
 * module as needing libdevice. */
LLVMValueRef cg_libdevice_call(cg *c, const char *name, LLVMTypeRef ty, LLVMValueRef *args,
                               unsigned nargs);
/* The same with explicit result and parameter types (tt.extern_elementwise). */
LLVMValueRef cg_libdevice_call_typed(cg *c, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                                     LLVMValueRef *args, unsigned nargs);
/* Links libdevice into c->mod when a __nv_ function was used, then
 * internalizes everything but the kernel so that O3 drops what is unused.
 * `path` NULL: $TTC_LIBDEVICE, then TTC_DEFAULT_CUDA_HOME/nvvm/libdevice/
 * libdevice.10.bc. False after a diagnostic. */
bool cg_link_libdevice(cg *c, const char *path);

#endif
