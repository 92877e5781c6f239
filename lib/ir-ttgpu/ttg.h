// SPDX-License-Identifier: MIT
/* ttg.h - the internal header of lib/ir-ttgpu: GPU layouts and the passes
 * that turn ttir into ttgir. Sections follow the defining files. */
#ifndef TTC_TTG_H
#define TTC_TTG_H

#include "ir-tt/ir.h"

/* ---- linear_layout.c: what a layout means ------------------------------- */

/* A layout as a linear map over GF(2), as Triton's LinearLayout: input dim
 * `in` bit `b` selects basis[in][b] (a coordinate vector over the nout
 * output dims) and an input maps to the XOR of the bases of its set bits.
 * Distributed layouts have inputs (register, lane, warp) and the tensor's
 * dims as outputs; shared layouts have one input, the element offset. A
 * zero basis is a broadcast (that lane or warp holds a copy). */
enum { TTG_LL_MAX_IN = 4, TTG_LL_MAX_BITS = 26 };
enum { TTG_IN_REG = 0, TTG_IN_LANE = 1, TTG_IN_WARP = 2 };

typedef struct ttg_ll {
  int nin, nout;
  int nbits[TTG_LL_MAX_IN];
  int32_t out_size[IR_MAX_RANK]; /* a power of two per output dim */
  int32_t basis[TTG_LL_MAX_IN][TTG_LL_MAX_BITS][IR_MAX_RANK];
} ttg_ll;

/* An empty map (no bases) with nin inputs and nout outputs of the given
 * sizes (NULL: 1 each). */
void ttg_ll_init(ttg_ll *l, int nin, int nout, const int32_t *out_size);
/* The distributed layout `enc` (blocked, slice, nvidia_mma, dot_op) over a
 * tensor shape, built as Triton builds it: no two registers of a thread hold
 * the same element. False for other encodings, non-power-of-two shapes or
 * malformed parameters. */
bool ttg_ll_of_tensor(const ir_attr *enc, int rank, const int64_t *shape, ttg_ll *out);
bool ttg_ll_of_type(const ir_type *t, ttg_ll *out); /* a tensor type's layout */
/* A shared encoding (swizzled_shared, nvmma_shared) over a buffer shape:
 * element offset -> coordinates. elem_bits: the element size. */
bool ttg_ll_of_shared(const ir_attr *enc, int rank, const int64_t *shape, int elem_bits,
                      ttg_ll *out);
int64_t ttg_ll_num_regs(const ttg_ll *l); /* 2^nbits[TTG_IN_REG] */
/* Coordinates of one input value of dim `in` (the others 0), and of a full
 * input vector in[0..nin). */
void ttg_ll_apply1(const ttg_ll *l, int in, uint32_t x, int32_t *out);
void ttg_ll_apply(const ttg_ll *l, const uint32_t *in, int32_t *out);
bool ttg_ll_equal(const ttg_ll *a, const ttg_ll *b);
bool ttg_ll_basis_is_zero(const ttg_ll *l, int in, int bit);
/* The inverse of a bijective one-input map (a shared layout): inputs are
 * the coordinates (one input dim per output dim of l), output the offset. */
bool ttg_ll_invert(const ttg_ll *l, ttg_ll *inv);
/* b after a: a's outputs must be b's inputs (one input dim per output dim,
 * log2(size) bits each). */
bool ttg_ll_compose(const ttg_ll *a, const ttg_ll *b, ttg_ll *out);
/* Which value of input dim `in` maps to given coordinates (the other
 * inputs 0): Gaussian elimination once, then O(bits) per query. */
typedef struct ttg_ll_solver {
  int n, nout;
  int32_t out_size[IR_MAX_RANK];
  uint32_t row[TTG_LL_MAX_BITS], src[TTG_LL_MAX_BITS];
  int pivot[TTG_LL_MAX_BITS];
} ttg_ll_solver;
void ttg_ll_solver_init(ttg_ll_solver *s, const ttg_ll *l, int in);
/* False when no input maps there. */
bool ttg_ll_solve(const ttg_ll_solver *s, const int32_t *coords, uint32_t *x);
/* When every thread already holds, under src, each element its dst
 * registers need (proj[d]: the src dim of dst dim d, -1 to drop it), fills
 * src_reg[j] for every dst register j and returns true; false when data
 * must move between threads. dst may have fewer registers than src. */
bool ttg_ll_reg_map(const ttg_ll *src, const ttg_ll *dst, const int *proj, int64_t *src_reg);
/* The map from (register, lane, warp) of tensor type t to element offsets
 * in a buffer of `shape` laid out by shared encoding `enc`. */
bool ttg_shared_map(const ir_type *t, const ir_attr *enc, const int64_t *shape, ttg_ll *map);
/* The same with the buffer's element size given (t may be a tensor of
 * pointers to the buffer's elements). */
bool ttg_shared_map_bits(const ir_type *t, const ir_attr *enc, const int64_t *shape, int elem_bits,
                         ttg_ll *map);
/* Registers per vector access through such a map: the leading register
 * bases step the offset by 1, 2, 4... and no other basis touches those low
 * bits; at most 16 bytes. */
int ttg_ll_vector_regs(const ttg_ll *map, unsigned elem_bytes);
/* `register = [[0, 1], [8, 0]], lane = [...], warp = [...]` */
void ttg_ll_print(const ttg_ll *l, ir_strbuf *out);

/* ---- layout.c: blocked layouts ----------------------------------------- */

/* Triton's blocked layout for a shape with the given sizePerThread and
 * order (order[0] fastest): lanes then warps from the fastest dim outwards,
 * as far as each dim has room, leftovers on the slowest dim. */
const ir_attr *ttg_blocked_layout(ir_context *ctx, int rank, const int64_t *shape,
                                  const unsigned *size_per_thread, const unsigned *order,
                                  int num_warps, int threads_per_warp);
/* The default: row-major order, `size_per_thread_fast` elements per thread
 * along the last dim, 1 along the others. */
const ir_attr *ttg_default_blocked(ir_context *ctx, int rank, const int64_t *shape,
                                   unsigned size_per_thread_fast, int num_warps,
                                   int threads_per_warp);

/* ---- convert.c: ttir -> ttgir -------------------------------------------- */

typedef struct ttg_options {
  int num_warps;          /* power of two, 1..32 */
  int threads_per_warp;   /* 32 */
  int num_ctas;           /* 1 */
  int compute_capability; /* 80, 90, ... -> ttg.target = "cuda:90" */
  int num_stages;         /* software pipelining depth (tritongpu-pipeline); 0: 3 */
  bool remarks;           /* tritongpu-pipeline reports what it did (remarks) */
} ttg_options;

/* Gives every tensor type in the module a default blocked layout and sets the
 * module attributes ttg.num-warps, ttg.threads-per-warp, ttg.num-ctas and
 * ttg.target. In place; false (diagnosed) on tensors ttgir cannot lay out. */
bool ttg_convert_to_ttgir(ir_module *m, const ttg_options *opts);

/* Reads the options back from a ttgir module's attributes (defaults if absent). */
ttg_options ttg_module_options(const ir_module *m);

/* The most elements one thread may hold of a tensor spread over all the
 * module's threads (convert-triton-to-tritongpu checks every result). */
#define TTG_MAX_ELEMS_PER_THREAD 16384

/* True when the options describe a launch ttc can lay out: num_warps a power
 * of two in 1..32, 32 threads per warp, at least one CTA, and a ttg.target
 * (when the module has one) that names a target ttc compiles for. Otherwise
 * reports an error at the module's location and returns false. */
bool ttg_options_check(const ir_module *m, const ttg_options *opts);
/* Whether ttc compiles for compute capability cc: 80, 86, 87, 88, 89, 90,
 * 100, 101, 103, 110, 120, 121 (what LLVM 22's NVPTX knows; ptxas 13 has
 * no sm_101, which CUDA 13 calls sm_110, so its cubins fail in ptxas). */
bool ttg_cc_known(int cc);

/* ---- fixup.c: keeping operand layouts consistent ------------------------------ */

/* t with another layout (t itself for non-tensors or a NULL layout). */
const ir_type *ttg_retype(ir_context *ctx, const ir_type *t, const ir_attr *layout);
/* Re-lays out v in place (a splat constant's value attribute follows). */
void ttg_set_value_layout(ir_module *m, ir_value *v, const ir_attr *layout);
/* v converted to `layout` by a ttg.convert_layout inserted before anchor
 * (v itself when it already has it). */
ir_value *ttg_convert_before(ir_module *m, ir_op *anchor, ir_value *v, const ir_attr *layout);
/* Inserts a ttg.convert_layout wherever an operand's layout differs from
 * the one its op needs given the op's result layouts (elementwise ops:
 * theirs; expand_dims: a slice of it; reductions: the parent of their
 * slice; stores: the pointer's; scf ops: the carried types). */
void ttg_fix_operand_layouts(ir_module *m);

/* ---- accelerate_matmul.c, reduce_data_duplication.c: shared encodings ------- */

/* Triton's nvmma_shared layout for a tile kept in `order` (fastest first):
 * the widest swizzle (128/64/32 bytes) its contiguous dim fills. */
const ir_attr *ttg_nvmma_shared_for(ir_context *ctx, int rank, const int64_t *shape,
                                    const unsigned *order, int ebits);
/* Triton's swizzled_shared layout for an mma.sync operand of kWidth k_width
 * stored in `order`: 16-byte vectors, conflict-free ldmatrix rows. */
const ir_attr *ttg_swizzled_for_dot_operand(ir_context *ctx, const ir_type *t,
                                            const unsigned *order, unsigned k_width);

/* ---- pipeliner.c, membar.c: ring slots ----------------------------------------- */

/* tritongpu-pipeline marks each view of a ring inside a pipelined loop
 * with a wgmma with this i32 attribute: the slot the iteration reads, or the slot it
 * fills with the copies of a later iteration. Within one iteration the two
 * are different slots (fill = read + S-1 mod S); tritongpu-membar relies
 * on that, and only within one iteration. */
#define TTG_RING_SLOT_ATTR "ttg.ring_slot"
enum { TTG_RING_READ = 0, TTG_RING_FILL = 1 };

/* ---- scratch.c, allocate_shared_memory.c: shared memory ------------------------ */

/* Whether converting src to dst (proj as in ttg_ll_reg_map) moves elements
 * between threads, so that it needs shared memory. */
bool ttg_moves_between_threads(const ir_type *src, const ir_type *dst, const int *proj);
/* Bytes of shared memory op needs while it runs (0: none): the buffer codegen
 * uses to move elements between threads. */
uint64_t ttg_scratch_bytes(const ir_op *op);
/* The most shared memory a block may have on a compute capability. */
int ttg_shared_limit(int compute_capability);
/* Bytes of shared memory the ops of a block need, nested ones too (a
 * loop body's buffers and scratch: the pipeliner sizes its rings beside
 * them). */
uint64_t ttg_shared_bytes_in(const ir_block *body);

/* A layout conversion through shared memory in passes, as Triton does it
 * for large tiles: each pass moves the elements whose coordinates have
 * given values at `n` tensor bits that registers alone select in both
 * layouts (no lane or warp touches them), so every thread takes part in
 * every pass and the buffer holds 1 / 2^n of the tensor. */
enum {
  TTG_CVT_PASS_BYTES = 32 * 1024,      /* split a conversion above this */
  TTG_CVT_PASS_BYTES_RINGS = 16 * 1024 /* ... inside a loop that reads rings made before it */
};
typedef struct ttg_cvt_split {
  int n;                                                  /* split bits: 2^n passes (0: one pass) */
  int dim[TTG_LL_MAX_BITS];                               /* tensor dim of split bit i */
  int bit[TTG_LL_MAX_BITS];                               /* its bit within the dim's coordinate */
  int src_reg[TTG_LL_MAX_BITS], dst_reg[TTG_LL_MAX_BITS]; /* the register bases selecting it */
} ttg_cvt_split;
/* The bound on the buffer of the conversion op: TTG_CVT_PASS_BYTES, or
 * TTG_CVT_PASS_BYTES_RINGS when op runs inside a loop that reads shared
 * buffers allocated before it (a pipelined loop's rings; a flattened
 * persistent matmul's epilogue): those are live there, so the conversion's
 * buffer adds to them instead of reusing them, and a smaller one keeps two
 * programs of a 128x128x64 tile on a multiprocessor (96 KB + 16 KB). */
uint64_t ttg_convert_pass_bytes(const ir_op *op);
/* The split of converting a tensor from type src to type dst (same shape)
 * whose buffer would exceed max_bytes: qualifying bits taken greedily, the
 * slowest dims' highest bits first and never the last dim's, until the
 * buffer fits or none is left (it may stay above the bound; n = 0 when it
 * fits at once or no bit qualifies). */
void ttg_convert_split(const ir_type *src, const ir_type *dst, uint64_t max_bytes,
                       ttg_cvt_split *out);
/* The maps of one pass, from (register, lane, warp) of src (wmap) and of
 * dst (rmap) to element offsets in the pass's buffer: the tensor without
 * the split bits, laid out by shared encoding enc. */
bool ttg_convert_pass_maps(const ir_type *src, const ir_type *dst, const ir_attr *enc,
                           const ttg_cvt_split *sp, ttg_ll *wmap, ttg_ll *rmap);
/* Register index, in a layout of nbits register bits, whose split bases
 * (regs: src_reg or dst_reg) hold the bits of pass r and whose other bases,
 * in order, the bits of jr (a register index of the pass's map). */
int64_t ttg_cvt_pass_reg(const ttg_cvt_split *sp, const int *regs, int nbits, int64_t jr, int r);

/* ---- verify.c ---------------------------------------------------------------- */

/* ir_verify, then in a ttgir module the layout rules: every tensor laid out
 * over the module's warps and 32 lanes, every buffer's encoding valid, dot
 * operands of the accumulator's mma. Located errors; false if any. */
bool ttg_verify(const ir_module *m);

/* ---- the ttgir passes (passes.def), one file each ------------------------- */

#define TTG_PASS(ID, NAME, SUMMARY, OPTIONS)                                                       \
  bool ttg_pass_##ID(ir_module *m, ir_arena *scratch, const ir_pass_args *args);
#include "ir-ttgpu/passes.def"
extern const char *const ttg_convert_options[];
extern const char *const ttg_pipeline_options[];
extern const char *const ttg_fuse_nested_loops_options[];
/* Puts back the original nest of a loop that tritongpu-fuse-nested-loops
 * fused (marked ttg.fused): the scf.if around both versions becomes its
 * else branch. */
void ttg_unfuse(ir_op *fused);
/* Whether v is an arith.constant +0 (or a splat of it). */
bool ttg_is_zero_const(const ir_value *v);

/* ---- async_copy.c ------------------------------------------------------------ */

/* Elements per cp.async when a thread copies its part of pointer tensor
 * ptr_ty into a buffer of buf_ty (memdesc): consecutive in the buffer and
 * along one tensor dim, within the pointers' contiguity and alignment and
 * the mask's constancy (mask NULL: none), at most 16 bytes; a power of two. */
int ttg_async_copy_vec(const ir_type *ptr_ty, const ir_type *buf_ty, const ir_axis_info *ptr,
                       const ir_axis_info *mask);
/* The tensor dim along which a thread's consecutive registers of ptr_ty
 * lie (the dim of a copy's vectors), or -1. */
int ttg_async_copy_dim(const ir_type *ptr_ty);
/* A bounded copy's mask: the terms constant along each vector of `vec`
 * elements of dim td (into terms, at most max) and one `index < bound`
 * (arith.cmpi slt) whose index runs contiguously along the vector and whose
 * bound does not change along it. Element j of a vector is then in bounds
 * exactly when j < bound - index at the vector's first element, which a
 * cp.async's source size expresses (TMA's bounds do the same in hardware).
 * False when the mask is not of that form. */
bool ttg_copy_bounds(const ir_axis_analysis *ax, ir_value *mask, int td, int vec, ir_value **terms,
                     int max, int *nterms, ir_value **index, ir_value **bound);

/* ---- pipeline.c: the registry and the default pipeline --------------------- */

/* Every pass, ttir then ttgir, in pipeline order (i in [0, ttg_pass_count())). */
int ttg_pass_count(void);
const ir_pass *ttg_pass_at(int i);
/* Any pass by name; an ir_pass_lookup_fn for ir_pipeline_parse. */
const ir_pass *ttg_pass_lookup(const char *name, size_t len);
/* The pipeline from ttir to optimized ttgir for these options, as text for
 * ir_pipeline_parse; false if buf is too small (512 bytes suffice). */
bool ttg_pipeline_text(const ttg_options *o, char *buf, size_t n);
/* The passes that prepare ttgir for codegen (Triton runs them in make_llir):
 * shared-memory allocation, then barriers. */
#define TTG_CODEGEN_PREP_PIPELINE "allocate-shared-memory,tritongpu-membar"

#endif
