// SPDX-License-Identifier: MIT
/* ir.h - the internal header of lib/ir-tt: the IR core shared by every layer.
 *
 * MLIR-style IR: an op has a kind (ops.def), operands, results, named
 * attributes and regions; a region holds blocks with arguments; a block holds
 * a doubly linked list of ops. Types and attributes are uniqued in the
 * context (pointer equality is equality) and live as long as it. Ops, values,
 * blocks and regions live in their module's arena and die with the module.
 * Sections follow the defining files. Everything here is hidden from the
 * shared library's exports (-fvisibility=hidden). */
#ifndef TTC_IR_H
#define TTC_IR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- util.c: internal errors, string buffers -------------------------- */

/* Internal bugs only (never bad input): prints "internal error: file:line: msg"
 * to stderr and aborts. */
_Noreturn void ir_internal_error(const char *file, int line, const char *fmt, ...);
#define IR_UNREACHABLE(...) ir_internal_error(__FILE__, __LINE__, __VA_ARGS__)
#define IR_ASSERT(cond)                                                                            \
  do {                                                                                             \
    if (!(cond)) ir_internal_error(__FILE__, __LINE__, "assertion '%s' failed", #cond);            \
  } while (0)

/* A growable NUL-terminated byte buffer; malloc-backed, owned by whoever made it.
 * Allocation failure sets `failed` and later appends are dropped. */
typedef struct ir_strbuf {
  char *data; /* NUL-terminated when len > 0 or after any append; may be NULL */
  size_t len, cap;
  bool failed;
} ir_strbuf;

void ir_sb_init(ir_strbuf *sb);
void ir_sb_free(ir_strbuf *sb);
void ir_sb_append(ir_strbuf *sb, const char *s, size_t n);
void ir_sb_puts(ir_strbuf *sb, const char *s);
void ir_sb_putc(ir_strbuf *sb, char c);
void ir_sb_printf(ir_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ir_sb_vprintf(ir_strbuf *sb, const char *fmt, va_list ap);
/* Hands the buffer (never NULL: "" when empty) to the caller, who frees it. */
char *ir_sb_take(ir_strbuf *sb);

/* ---- deep.c: deep work on a thread with a sized stack ------------------- */

/* The stack the library gives its deep work: the documented limits (expression
 * depth, nesting, inlining, IR region depth) need well under this, sanitizer
 * builds included. Reserved address space; only touched pages are committed. */
#define IR_DEEP_STACK_BYTES ((size_t)64 << 20)

/* Runs fn(arg) to completion on a new thread with IR_DEEP_STACK_BYTES of
 * stack and waits for it; true if it ran there, false if no thread could be
 * made and it ran on the caller's thread instead. */
bool ir_run_deep(void (*fn)(void *), void *arg);

/* The slot of pointer p in an open-addressing table of `cap` slots (a power
 * of two): a 64-bit finalizer mix, shared by the pointer tables. */
static inline size_t ir_ptr_slot(const void *p, size_t cap) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return (size_t)x & (cap - 1);
}

/* ---- arena.c: bump allocation ----------------------------------------- */

/* Chunks of memory freed all at once. Allocations are zeroed and aligned to 16. */
typedef struct ir_arena {
  struct ir_arena_chunk *head;
  size_t total; /* bytes handed out, for statistics */
} ir_arena;

void ir_arena_init(ir_arena *a);
void ir_arena_free(ir_arena *a);                /* frees every chunk; the arena can be reused */
void *ir_arena_alloc(ir_arena *a, size_t size); /* NULL only when malloc fails */
char *ir_arena_strdup(ir_arena *a, const char *s, size_t n); /* copies n bytes + NUL */

/* ---- diag.c: sources, locations, diagnostics -------------------------- */

/* A source file registered with the context; its text is copied so that
 * diagnostics can show the offending line. */
typedef struct ir_source {
  const char *name; /* as given ("examples/vector_add/vector_add.py") */
  const char *text;
  size_t len;
} ir_source;

/* A position in a source: 1-based line and column. src NULL means unknown. */
typedef struct ir_loc {
  const ir_source *src;
  uint32_t line, col;
} ir_loc;

typedef enum ir_severity { IR_SEV_ERROR, IR_SEV_WARNING, IR_SEV_NOTE, IR_SEV_REMARK } ir_severity;

typedef struct ir_diag {
  ir_severity sev;
  ir_loc loc;
  char *msg; /* lowercase, no final period; owned by the context */
} ir_diag;

typedef struct ir_context ir_context;

/* Registers a source; the context copies name and text. NULL on OOM. */
const ir_source *ir_context_add_source(ir_context *ctx, const char *name, const char *text,
                                       size_t len);
/* Records a diagnostic. Never prints. The first 100 are kept, then one note
 * saying the rest are not shown; every error is still counted. */
void ir_emit(ir_context *ctx, ir_severity sev, ir_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void ir_vemit(ir_context *ctx, ir_severity sev, ir_loc loc, const char *fmt, va_list ap);
#define ir_error(ctx, loc, ...) ir_emit((ctx), IR_SEV_ERROR, (loc), __VA_ARGS__)
#define ir_note(ctx, loc, ...) ir_emit((ctx), IR_SEV_NOTE, (loc), __VA_ARGS__)

size_t ir_context_num_errors(const ir_context *ctx);
size_t ir_context_num_diags(const ir_context *ctx);
const ir_diag *ir_context_diag(const ir_context *ctx, size_t i);
/* Renders every diagnostic, in order, as
 *   file:line:col: error: msg\n<source line>\n<spaces>^\n
 * (no source line or caret when the location is unknown or out of range). */
void ir_render_diags(const ir_context *ctx, ir_strbuf *out);
/* Renders one diagnostic the same way. */
void ir_render_diag(const ir_diag *d, ir_strbuf *out);

/* ---- context.c: the context, interned strings ------------------------- */

/* Creates a context (types, attributes, strings, sources, diagnostics).
 * NULL on OOM. Destroy after every module made in it. */
ir_context *ir_context_create(void);
void ir_context_destroy(ir_context *ctx);
/* Interned string: equal contents give the same pointer. Lives as the context. */
const char *ir_intern(ir_context *ctx, const char *s, size_t n);
const char *ir_intern_cstr(ir_context *ctx, const char *s);
/* A copy that lives as the context, not uniqued: for strings compared by
 * content only (value name hints), whose number grows with the input, so
 * that they stay out of the uniquing table. */
const char *ir_ctx_strdup(ir_context *ctx, const char *s, size_t n);
/* Bytes the context has allocated for uniqued objects (strings, types,
 * attributes) and ir_ctx_strdup copies so far: the frontend bounds what one
 * kernel adds. */
size_t ir_context_arena_bytes(const ir_context *ctx);
/* The op limit inputs are held to in this context: IR_MAX_OPS, unless a
 * test lowered it (ir_context_set_max_ops; 0 restores the default). */
int64_t ir_context_max_ops(const ir_context *ctx);
void ir_context_set_max_ops(ir_context *ctx, int64_t max_ops);
/* "more than the limit of N (2^K) operations" for the context's limit into
 * buf (the "(2^K)" only for a power of two): the op-limit errors' text. */
void ir_format_op_limit(const ir_context *ctx, char *buf, size_t cap);

/* ---- types.c: uniqued types ------------------------------------------- */

#define IR_MAX_RANK 4
/* The most elements a tensor may hold, in any input (the verifier checks). */
#define IR_MAX_TILE_ELEMS ((int64_t)1 << 20)
/* The most ops one input may build: IR text (the parser checks each op) or
 * a kernel's lowering (the frontend checks before each statement). Ops are
 * counted as created (ir_module.nops), so this bounds the input's memory
 * and time, not what passes leave. 2^20 is about 1.7 times what the 100k-
 * statement compile benchmark builds (600k); at 2^22 a kernel took 20 s and
 * 3 GB to get as far as codegen, whose limit on scalar operations per
 * thread (2^18, codegen-llvm/emit.c) it then exceeded. */
#define IR_MAX_OPS ((int64_t)1 << 20)
/* IR text limits the parser checks, each far above what Triton writes: one
 * function's arguments (the frontend's parameter limit), the entries of one
 * attribute dictionary, the `#name = ...` layout aliases of a module, and
 * the result names one op binds one by one (`%a, %b, ... = scf.for`). */
#define IR_MAX_PARAMS 128
#define IR_MAX_DICT_ENTRIES 1024
#define IR_MAX_ALIASES 4096
#define IR_MAX_RESULT_NAMES 4096

typedef enum ir_type_kind {
  IR_TY_INT,     /* signless integer of `width` bits: 1, 8, 16, 32, 64 */
  IR_TY_FLOAT,   /* f8E4M3FN (width 8), f8E5M2 (width 8, is_e5m2), f16 (width 16), bf16
                    (width 16, is_bf16), f32, f64 */
  IR_TY_PTR,     /* !tt.ptr<elem> in address space `addrspace` (1 = global) */
  IR_TY_TENSOR,  /* tensor<shape x elem [, layout]>; elem is scalar or ptr */
  IR_TY_MEMDESC, /* !ttg.memdesc<shape x elem, #shared-layout, #smem [, mutable]>: a view of
                    a shared-memory buffer (ttgir only) */
  IR_TY_TOKEN    /* !ttg.async.token: orders asynchronous copies (ttgir only) */
} ir_type_kind;

typedef struct ir_attr ir_attr;

typedef struct ir_type {
  ir_type_kind kind;
  unsigned width;             /* INT, FLOAT: bits */
  bool is_bf16;               /* FLOAT: bf16 rather than f16 */
  bool is_e5m2;               /* FLOAT: f8E5M2 rather than f8E4M3FN */
  int addrspace;              /* PTR */
  const struct ir_type *elem; /* PTR: pointee; TENSOR: element type */
  int rank;                   /* TENSOR */
  int64_t shape[IR_MAX_RANK]; /* TENSOR */
  const ir_attr *layout;      /* TENSOR: encoding (NULL in ttir); MEMDESC: shared encoding */
  bool is_mutable;            /* MEMDESC: may be written (local_alloc without a value) */
  const ir_attr *memspace;    /* MEMDESC: #ttg.shared_memory */
} ir_type;

const ir_type *ir_type_int(ir_context *ctx, unsigned width);
const ir_type *ir_type_i1(ir_context *ctx);
const ir_type *ir_type_i32(ir_context *ctx);
const ir_type *ir_type_i64(ir_context *ctx);
const ir_type *ir_type_f16(ir_context *ctx);
const ir_type *ir_type_bf16(ir_context *ctx);
/* fp8: Triton's tl.float8e4nv (f8E4M3FN: no infinities, NaN 0x7F) and
 * tl.float8e5 (f8E5M2: IEEE-like, as f16 with 8 fewer mantissa bits). */
const ir_type *ir_type_f8e4m3(ir_context *ctx);
const ir_type *ir_type_f8e5m2(ir_context *ctx);
const ir_type *ir_type_f32(ir_context *ctx);
const ir_type *ir_type_f64(ir_context *ctx);
const ir_type *ir_type_ptr(ir_context *ctx, const ir_type *pointee, int addrspace);
const ir_type *ir_type_tensor(ir_context *ctx, int rank, const int64_t *shape, const ir_type *elem,
                              const ir_attr *layout);
/* A shared-memory view: shape, element type, a shared encoding
 * (#ttg.swizzled_shared or #ttg.nvmma_shared), always in #ttg.shared_memory. */
const ir_type *ir_type_memdesc(ir_context *ctx, int rank, const int64_t *shape, const ir_type *elem,
                               const ir_attr *encoding, bool is_mutable);
const ir_type *ir_type_token(ir_context *ctx);
/* The same tensor type with another element type / layout. */
const ir_type *ir_type_with_elem(ir_context *ctx, const ir_type *t, const ir_type *elem);
const ir_type *ir_type_with_layout(ir_context *ctx, const ir_type *t, const ir_attr *layout);

/* Element type of a tensor or memdesc, or the type itself for scalars. */
const ir_type *ir_type_scalar(const ir_type *t);
bool ir_type_is_tensor(const ir_type *t);
bool ir_type_is_memdesc(const ir_type *t);
bool ir_type_is_int(const ir_type *t); /* scalar kind test on ir_type_scalar(t) */
bool ir_type_is_float(const ir_type *t);
bool ir_type_is_fp8(const ir_type *t); /* scalar kind test on ir_type_scalar(t) */
bool ir_type_is_ptr(const ir_type *t);
int64_t ir_type_numel(const ir_type *t); /* 1 for scalars; memdescs: their elements */
/* Size in bytes of a scalar element (pointers: 8, i1: 1). */
unsigned ir_type_bytes(const ir_type *scalar);
/* MLIR spelling: "i32", "f16", "!tt.ptr<f32>", "tensor<1024xi32, #blocked>" is
 * printed by the printer; this prints the type without layout aliases, with
 * layouts written inline. */
void ir_type_print(const ir_type *t, ir_strbuf *out);

/* ---- attrs.c: uniqued attributes -------------------------------------- */

typedef enum ir_attr_kind {
  IR_ATTR_INT,     /* integer with type: `16 : i32`; i1 values print as true/false */
  IR_ATTR_FLOAT,   /* float with type: `1.000000e+00 : f32` */
  IR_ATTR_STRING,  /* "text" */
  IR_ATTR_UNIT,    /* present-only flag */
  IR_ATTR_ARRAY,   /* array<i32: 1, 0> */
  IR_ATTR_DENSE,   /* dense<splat> : tensor<...>: a splat constant; `elem` holds the scalar attr */
  IR_ATTR_ENUM,    /* a bare keyword: cmpi predicate (slt), cache modifier, ... */
  IR_ATTR_BLOCKED, /* #ttg.blocked<{sizePerThread, threadsPerWarp, warpsPerCTA, order}> */
  IR_ATTR_SLICE,   /* #ttg.slice<{dim, parent}> */
  IR_ATTR_NVIDIA_MMA, /* #ttg.nvidia_mma<{versionMajor, versionMinor, warpsPerCTA, instrShape}> */
  IR_ATTR_DOT_OP,     /* #ttg.dot_op<{opIdx, parent, kWidth}> */
  IR_ATTR_SWIZZLED_SHARED, /* #ttg.swizzled_shared<{vec, perPhase, maxPhase, order}> */
  IR_ATTR_NVMMA_SHARED, /* #ttg.nvmma_shared<{swizzlingByteWidth, transposed, elementBitWidth}> */
  IR_ATTR_SHARED_MEMORY /* #ttg.shared_memory: the memory space of memdescs */
} ir_attr_kind;

struct ir_attr {
  ir_attr_kind kind;
  const ir_type *type; /* INT, FLOAT, DENSE: the value's type */
  int64_t i;           /* INT; ENUM: the enum value */
  double f;            /* FLOAT */
  const char *s;       /* STRING: interned text; ENUM: keyword */
  int n;               /* ARRAY: count */
  const int64_t *ints; /* ARRAY */
  const ir_attr *elem; /* DENSE: the splat scalar */
  int rank;            /* BLOCKED */
  unsigned size_per_thread[IR_MAX_RANK], threads_per_warp[IR_MAX_RANK], warps_per_cta[IR_MAX_RANK],
      order[IR_MAX_RANK];                /* BLOCKED (NVIDIA_MMA: warps_per_cta;
                                            SWIZZLED_SHARED: order); order[0]
                                            fastest */
  int dim;                               /* SLICE: the dimension removed from parent */
  const ir_attr *parent;                 /* SLICE, DOT_OP */
  unsigned version_major, version_minor; /* NVIDIA_MMA: 2 (mma.sync) or 3 (wgmma) */
  int ninstr;                         /* NVIDIA_MMA: entries of instr_shape (2 for v2, 3 for v3) */
  unsigned instr_shape[3];            /* NVIDIA_MMA: [16, 8] or [16, N, K] */
  int op_idx;                         /* DOT_OP: 0 (A) or 1 (B) */
  unsigned k_width;                   /* DOT_OP: consecutive K elements a thread holds */
  unsigned vec, per_phase, max_phase; /* SWIZZLED_SHARED */
  unsigned swizzle_bytes, elem_bits;  /* NVMMA_SHARED: 0/32/64/128; element bits */
  bool transposed;                    /* NVMMA_SHARED: dim 0 contiguous rather than dim 1 */
};

const ir_attr *ir_attr_int(ir_context *ctx, const ir_type *ty, int64_t v);
const ir_attr *ir_attr_bool(ir_context *ctx, bool v);
const ir_attr *ir_attr_float(ir_context *ctx, const ir_type *ty, double v);
const ir_attr *ir_attr_string(ir_context *ctx, const char *s);
const ir_attr *ir_attr_unit(ir_context *ctx);
const ir_attr *ir_attr_array(ir_context *ctx, int n, const int64_t *ints);
const ir_attr *ir_attr_dense(ir_context *ctx, const ir_type *tensor_ty, const ir_attr *splat);
const ir_attr *ir_attr_enum(ir_context *ctx, const char *keyword, int64_t value);
const ir_attr *ir_attr_blocked(ir_context *ctx, int rank, const unsigned *size_per_thread,
                               const unsigned *threads_per_warp, const unsigned *warps_per_cta,
                               const unsigned *order);
const ir_attr *ir_attr_slice(ir_context *ctx, int dim, const ir_attr *parent);
const ir_attr *ir_attr_nvidia_mma(ir_context *ctx, unsigned version_major, unsigned version_minor,
                                  int rank, const unsigned *warps_per_cta, int ninstr,
                                  const unsigned *instr_shape);
const ir_attr *ir_attr_dot_op(ir_context *ctx, int op_idx, const ir_attr *parent, unsigned k_width);
const ir_attr *ir_attr_swizzled_shared(ir_context *ctx, unsigned vec, unsigned per_phase,
                                       unsigned max_phase, int rank, const unsigned *order);
const ir_attr *ir_attr_nvmma_shared(ir_context *ctx, unsigned swizzle_bytes, bool transposed,
                                    unsigned elem_bits);
const ir_attr *ir_attr_shared_memory(ir_context *ctx);
/* Whether a layout attribute is a shared-memory encoding (swizzled or nvmma). */
bool ir_attr_is_shared_layout(const ir_attr *a);

/* cmpi / cmpf predicates, with MLIR's numbering (the ENUM attr's value). */
typedef enum ir_cmpi_pred {
  IR_CMPI_EQ = 0,
  IR_CMPI_NE,
  IR_CMPI_SLT,
  IR_CMPI_SLE,
  IR_CMPI_SGT,
  IR_CMPI_SGE,
  IR_CMPI_ULT,
  IR_CMPI_ULE,
  IR_CMPI_UGT,
  IR_CMPI_UGE
} ir_cmpi_pred;
typedef enum ir_cmpf_pred {
  IR_CMPF_FALSE = 0,
  IR_CMPF_OEQ,
  IR_CMPF_OGT,
  IR_CMPF_OGE,
  IR_CMPF_OLT,
  IR_CMPF_OLE,
  IR_CMPF_ONE,
  IR_CMPF_ORD,
  IR_CMPF_UEQ,
  IR_CMPF_UGT,
  IR_CMPF_UGE,
  IR_CMPF_ULT,
  IR_CMPF_ULE,
  IR_CMPF_UNE,
  IR_CMPF_UNO,
  IR_CMPF_TRUE
} ir_cmpf_pred;
const char *ir_cmpi_name(ir_cmpi_pred p); /* "slt" */
const char *ir_cmpf_name(ir_cmpf_pred p); /* "olt" */
const ir_attr *ir_attr_cmpi(ir_context *ctx, ir_cmpi_pred p);
const ir_attr *ir_attr_cmpf(ir_context *ctx, ir_cmpf_pred p);

/* ---- ops.c: ops, values, blocks, regions, modules --------------------- */

typedef enum ir_op_kind {
#define IR_OP(E, NAME, MINOPS, MAXOPS, NRES, TRAITS, FORM, RULE, EFFECTS) IR_OP_##E,
#include "ops.def"
  IR_NUM_OPS
} ir_op_kind;

/* A bounded ttg.async_copy_global_to_local (ttc's, from tritongpu-pipeline):
 * its fourth operand, an integer tensor in the pointers' shape, is the
 * elements left before a bound, which falls by one along each vector of
 * `contiguity` elements: element j of a vector is copied when the mask
 * holds and j < that count at the vector's first element (one cp.async
 * with that many bytes of source, the rest zero-filled). Without the
 * attribute a fourth operand is Triton's `other`. */
#define IR_BOUNDED_ATTR "ttg.bounded"

enum { IR_T_ELEMENTWISE = 2, IR_T_TERMINATOR = 4, IR_T_COMMUTATIVE = 8 };

/* The custom assembly forms (print_ops.c / parser_ops.c), one per shape of
 * syntax: `SAME` is `name %a, %b {attrs} : T`, `CONV_TO` / `CONV_ARROW` are
 * `name %a {attrs} : T to R` / `-> R`, `OPERANDS` is `name %a, %b {attrs} :
 * T1, T2` (its results, if any, of the operands' types), `FUNC_TYPE` is
 * `name %a {attrs} : (T) -> R`; the others belong to one or two ops each. */
typedef enum ir_form {
  IR_FORM_GENERIC,
  IR_FORM_SAME,
  IR_FORM_CONV_TO,
  IR_FORM_CONV_ARROW,
  IR_FORM_OPERANDS,
  IR_FORM_CMP,
  IR_FORM_SELECT,
  IR_FORM_CONSTANT,
  IR_FORM_FUNC,
  IR_FORM_PROGRAM_ID,
  IR_FORM_RESULT_TYPED,
  IR_FORM_FP_TO_FP,
  IR_FORM_ADDPTR,
  IR_FORM_LOAD_STORE,
  IR_FORM_DOT,
  IR_FORM_ATOMIC,
  IR_FORM_ASSERT,
  IR_FORM_CLAMPF,
  IR_FORM_FOR,
  IR_FORM_WHILE,
  IR_FORM_IF,
  IR_FORM_CONDITION,
  IR_FORM_FUNC_TYPE,
  IR_FORM_INDEX,
  IR_FORM_ASYNC_COPY,
  IR_FORM_COMMIT,
  IR_FORM_WAIT
} ir_form;

/* The verifier's typing rules (verifier.c), beyond arity and traits. */
typedef enum ir_rule {
  IR_RULE_NONE,
  IR_RULE_INT_SAME,
  IR_RULE_FLOAT_SAME,
  IR_RULE_CMP,
  IR_RULE_SELECT,
  IR_RULE_CONSTANT,
  IR_RULE_FUNC,
  IR_RULE_MAKE_RANGE,
  IR_RULE_SPLAT,
  IR_RULE_BROADCAST,
  IR_RULE_EXPAND_DIMS,
  IR_RULE_RESHAPE,
  IR_RULE_TRANS,
  IR_RULE_ADDPTR,
  IR_RULE_MEM,
  IR_RULE_BITCAST,
  IR_RULE_REDUCE,
  IR_RULE_SCAN,
  IR_RULE_DOT,
  IR_RULE_ASSERT,
  IR_RULE_FOR,
  IR_RULE_WHILE,
  IR_RULE_IF,
  IR_RULE_CONVERT,
  IR_RULE_LOCAL_ALLOC,
  IR_RULE_LOCAL_LOAD,
  IR_RULE_LOCAL_STORE,
  IR_RULE_MEMDESC_TRANS,
  IR_RULE_MEMDESC_INDEX,
  IR_RULE_ASYNC_COPY,
  IR_RULE_TOKENS,
  IR_RULE_SAME_AS_OPERANDS,
  IR_RULE_EXTERN,
  IR_RULE_CAST,       /* arith casts: the element kinds and widths their names say */
  IR_RULE_PROGRAM_ID, /* an i32 result */
  IR_RULE_PTR_INT,    /* tt.ptr_to_int / tt.int_to_ptr: pointers and i64 */
  IR_RULE_FP_TO_FP,   /* floats to floats */
  IR_RULE_JOIN,       /* two operands of one type; the result adds a minor axis of 2 */
  IR_RULE_SPLIT
} ir_rule;

/* Memory effects: reads and writes of global and shared memory, other side
 * effects (printing, barriers, waits), and "those of the regions". */
enum {
  IR_E_GREAD = 1,
  IR_E_GWRITE = 2,
  IR_E_SREAD = 4,
  IR_E_SWRITE = 8,
  IR_E_SIDE = 16,
  IR_E_REGIONS = 32
};

typedef struct ir_op_info {
  const char *name;
  int min_operands, max_operands, nresults; /* -1: variadic / variable */
  unsigned traits;
  ir_form form;
  ir_rule rule;
  unsigned effects;
} ir_op_info;
const ir_op_info *ir_op_kind_info(ir_op_kind kind);
/* Op kind by printed name; returns false if unknown. */
bool ir_op_kind_lookup(const char *name, size_t len, ir_op_kind *out);

typedef struct ir_op ir_op;
typedef struct ir_block ir_block;
typedef struct ir_region ir_region;

typedef struct ir_value {
  const ir_type *type;
  ir_op *def;       /* defining op, or NULL for a block argument */
  ir_block *owner;  /* block of a block argument */
  int index;        /* result number, or argument number */
  const char *name; /* name hint for printing ("pid"), or NULL; compare by content */
  int divisibility; /* function arguments: tt.divisibility (0: none) */
} ir_value;

typedef struct ir_named_attr {
  const char *name; /* interned */
  const ir_attr *value;
} ir_named_attr;

struct ir_op {
  ir_op_kind kind;
  ir_loc loc;
  int noperands;
  ir_value **operands;
  int nresults;
  ir_value *results; /* array of nresults values */
  int nattrs;
  ir_named_attr *attrs;
  int nregions;
  ir_region *regions; /* array of nregions regions */
  ir_block *parent;
  ir_op *prev, *next;
};

struct ir_block {
  ir_region *parent;
  int nargs;
  ir_value **args;
  ir_op *first, *last;
  ir_block *prev, *next;
};

struct ir_region {
  ir_op *parent;
  ir_block *first, *last;
};

typedef struct ir_module {
  ir_context *ctx;
  ir_arena arena; /* the ops, blocks, regions and values (ir_module_compact replaces it) */
  ir_arena side;  /* other data that lives as the module (the frontend's parameter table) */
  ir_op *op;      /* the builtin module op: one region, one block; module attributes */
  int64_t nops;   /* ops created in the module (erased ones too): IR_MAX_OPS counts these */
} ir_module;

ir_module *ir_module_create(ir_context *ctx, ir_loc loc); /* NULL on OOM */
void ir_module_destroy(ir_module *m);
/* Copies the module's live ops, in program order, into a fresh arena and
 * frees the old one, with its erased ops and the passes' leftovers. Walks
 * then read memory in order: after the frontend and the ttir passes, a
 * 100k-statement kernel's arena is half garbage and the ttgir passes run
 * 3 to 10 times faster on the copy. Every pointer into the module's ops,
 * blocks and values is invalid afterwards (m->op is the copy); names,
 * types, attributes and locations live in the context and are shared.
 * False, with the module unchanged, when the value map cannot grow, and
 * with an internal error on the context when an operand is no value of the
 * module (an erased op's result that a pass left in use): the copy would
 * point into freed memory. Running out of arena memory aborts, as any
 * allocation of an op does. */
bool ir_module_compact(ir_module *m);
ir_block *ir_module_body(const ir_module *m);
/* The tt.func named `name` in the module, or NULL. */
ir_op *ir_module_lookup_func(const ir_module *m, const char *name);

/* Creates a detached op with results of the given types and empty regions
 * (each region has no block yet). Operands may be set later. Never NULL:
 * an arena failure is an internal error. */
ir_op *ir_op_create(ir_module *m, ir_op_kind kind, ir_loc loc, int nresults,
                    const ir_type *const *result_types, int noperands, ir_value *const *operands,
                    int nregions);
void ir_op_set_operand(ir_op *op, int i, ir_value *v);
/* Replaces the whole operand list (the op may grow). */
void ir_op_set_operands(ir_module *m, ir_op *op, int n, ir_value *const *vals);
ir_value *ir_op_result(const ir_op *op, int i);
/* Attributes: set replaces an existing one of the same name. */
void ir_op_set_attr(ir_module *m, ir_op *op, const char *name, const ir_attr *value);
const ir_attr *ir_op_get_attr(const ir_op *op, const char *name);
int64_t ir_op_get_int(const ir_op *op, const char *name, int64_t dflt);
void ir_op_remove_attr(ir_op *op, const char *name);

/* Blocks and regions. */
ir_block *ir_block_create(ir_module *m, int nargs, const ir_type *const *arg_types);
ir_value *ir_block_add_arg(ir_module *m, ir_block *b, const ir_type *ty);
void ir_region_append_block(ir_region *r, ir_block *b);
ir_block *ir_region_new_block(ir_module *m, ir_region *r); /* empty, appended to r */
ir_block *ir_region_entry(const ir_region *r);             /* first block or NULL */
/* Linking ops into blocks. */
void ir_block_append(ir_block *b, ir_op *op);
void ir_op_insert_before(ir_op *anchor, ir_op *op);
void ir_op_insert_after(ir_op *anchor, ir_op *op);
void ir_op_unlink(ir_op *op);
/* Unlinks the op; it must have no remaining uses (not checked). */
void ir_op_erase(ir_op *op);
ir_block *ir_op_block(const ir_op *op);
/* Nearest enclosing op of the given kind, or NULL. */
ir_op *ir_op_parent_of_kind(const ir_op *op, ir_op_kind kind);
/* Whether op is nested in a region of ancestor, at any depth. */
bool ir_op_is_inside(const ir_op *op, const ir_op *ancestor);
const ir_op_info *ir_op_info_of(const ir_op *op);
/* No memory or other side effects, no regions, not a terminator: may be
 * merged (cse), erased when unused (dce) or recomputed. */
bool ir_op_is_pure(const ir_op *op);
const char *ir_op_name(const ir_op *op);

/* Walks every op nested under `root` (root excluded), pre-order, in program
 * order. The callback may not erase ops; collect them instead. */
typedef void (*ir_walk_fn)(ir_op *op, void *user);
void ir_walk(ir_op *root, ir_walk_fn fn, void *user);
/* Replaces every use of `from` by `to` among ops nested under `root`. */
void ir_replace_all_uses(ir_op *root, const ir_value *from, ir_value *to);
/* Number of uses of v among ops nested under root. */
int ir_count_uses(ir_op *root, const ir_value *v);

/* Batched replacement for passes that replace many values: a walk per
 * ir_replace_all_uses made them quadratic. A pass records from -> to and
 * rewrites each op's operands as it reaches it (SSA: in program order
 * every use comes after its definition), then applies the map once to the
 * whole module for anything it did not visit. Chains (a -> b -> c) resolve
 * to the last value. malloc-backed; `oom` is set when memory ran out. */
typedef struct ir_subst {
  const ir_value **from;
  ir_value **to;
  size_t cap, n;
  bool oom;
  size_t unmapped; /* ir_op_clone: operands copied as they were (not in the map yet) */
} ir_subst;
void ir_subst_add(ir_subst *s, const ir_value *from, ir_value *to);
/* v's replacement (after chains), or v itself. */
ir_value *ir_subst_get(const ir_subst *s, ir_value *v);
/* Rewrites op's operands; the number that changed. */
int ir_subst_apply_op(const ir_subst *s, ir_op *op);
/* Rewrites every operand under root, in one walk. */
void ir_subst_apply(const ir_subst *s, ir_op *root);
void ir_subst_free(ir_subst *s);
/* A detached copy of op and its regions, operands renamed through map;
 * the copy's results (and its blocks' arguments) are added to map, and an
 * operand the map does not hold yet is copied as it is and counted in
 * map->unmapped. */
ir_op *ir_op_clone(ir_module *m, const ir_op *op, ir_subst *map);

/* ---- builder.c: insertion point and op constructors ------------------- */

typedef struct ir_builder {
  ir_module *m;
  ir_context *ctx;
  ir_block *block; /* insertion block */
  ir_op *before;   /* insert before this op; NULL: at the end of block */
  ir_loc loc;      /* location given to new ops */
} ir_builder;

void ir_builder_init(ir_builder *b, ir_module *m);
void ir_builder_set_end(ir_builder *b, ir_block *block);
void ir_builder_set_before(ir_builder *b, ir_op *op);
/* Creates and inserts an op at the insertion point. */
ir_op *ir_build(ir_builder *b, ir_op_kind kind, int nresults, const ir_type *const *result_types,
                int noperands, ir_value *const *operands, int nregions);
/* Single-result shorthands (the result value is returned). */
ir_value *ir_build1(ir_builder *b, ir_op_kind kind, const ir_type *result_type, int noperands,
                    ir_value *const *operands);
ir_value *ir_build_binary(ir_builder *b, ir_op_kind kind, ir_value *lhs, ir_value *rhs);
ir_value *ir_build_unary(ir_builder *b, ir_op_kind kind, const ir_type *result_type, ir_value *x);
ir_value *ir_build_const_int(ir_builder *b, const ir_type *ty, int64_t v);  /* scalar or splat */
ir_value *ir_build_const_float(ir_builder *b, const ir_type *ty, double v); /* scalar or splat */
ir_value *ir_build_cmpi(ir_builder *b, ir_cmpi_pred p, ir_value *lhs, ir_value *rhs);
ir_value *ir_build_cmpf(ir_builder *b, ir_cmpf_pred p, ir_value *lhs, ir_value *rhs);
ir_value *ir_build_splat(ir_builder *b, ir_value *scalar, const ir_type *tensor_ty);
ir_value *ir_build_make_range(ir_builder *b, int32_t start, int32_t end);
ir_value *ir_build_program_id(ir_builder *b, int axis);
/* tt.func with the given argument types; returns the op; its entry block
 * (region 0) holds one argument per type. */
ir_op *ir_build_func(ir_builder *b, const char *name, int nargs, const ir_type *const *arg_types);

/* ---- printer.c: MLIR textual form ------------------------------------- */

typedef struct ir_print_options {
  bool locations; /* print loc("file":line:col) after each op */
  /* With locations: also the same text without them, from the same print
   * (borrowed, appended to; NULL: not wanted). One print instead of two. */
  ir_strbuf *without_locations;
} ir_print_options;

/* Prints the module as Triton does: layout aliases (#blocked, #blocked1, ...)
 * first, then `module attributes {...} { ... }`. Value names come from the
 * name hints, made unique with _0, _1 suffixes; others are %0, %1, ...
 * Deterministic: the same module prints byte-identically. */
void ir_print_module(const ir_module *m, const ir_print_options *opts, ir_strbuf *out);
void ir_print_op(const ir_op *op, const ir_print_options *opts, ir_strbuf *out); /* debugging */
void ir_attr_print(const ir_attr *a, ir_strbuf *out);

/* ---- verifier.c -------------------------------------------------------- */

/* Checks structure (arity from ops.def, terminators, operand types where the
 * op defines them, dominance within a block, tensor shape agreement of
 * elementwise ops). Emits located errors; returns false if any. */
bool ir_verify(const ir_module *m);

/* ---- pass.c: passes, pipelines, the pass manager ---------------------- */

/* A pass's options, `name{key=value ...}`: keys and values borrowed from the
 * pipeline step that holds them. */
enum { IR_PASS_MAX_ARGS = 8 };
typedef struct ir_pass_args {
  int n;
  const char *key[IR_PASS_MAX_ARGS];
  const char *value[IR_PASS_MAX_ARGS];
} ir_pass_args;
/* The option's value (NULL when absent), or as an integer ("cuda:90" reads
 * as 90): false when absent or not a number. */
const char *ir_pass_arg(const ir_pass_args *a, const char *key);
bool ir_pass_arg_int(const ir_pass_args *a, const char *key, int64_t *out);
/* CLOCK_MONOTONIC in seconds (pass timings, time bounds). */
double ir_now_seconds(void);
/* An integer option in [lo, hi]: dflt when absent; a value that is no such
 * integer is an error at the module naming the option and pass (false). */
bool ir_pass_int_option(ir_module *m, const ir_pass_args *a, const char *pass, const char *key,
                        int64_t lo, int64_t hi, int64_t dflt, int64_t *out);

/* false: failed, and the pass has emitted a diagnostic. */
typedef bool (*ir_pass_fn)(ir_module *m, ir_arena *scratch, const ir_pass_args *args);

typedef struct ir_pass {
  const char *name;           /* "canonicalize", "tritongpu-coalesce" */
  const char *summary;        /* one line */
  const char *const *options; /* option keys it accepts, NULL-terminated; NULL: none */
  ir_pass_fn run;
} ir_pass;

/* A pass by name (len bytes), from a registry; NULL if unknown. */
typedef const ir_pass *(*ir_pass_lookup_fn)(const char *name, size_t len);

typedef struct ir_pipeline_step {
  const ir_pass *pass;
  ir_pass_args args;
  char *spec;   /* the step as written, options included (malloc'd) */
  char *argbuf; /* storage of args (malloc'd) */
} ir_pipeline_step;

typedef struct ir_pipeline {
  ir_pipeline_step *steps; /* malloc'd */
  int n;
} ir_pipeline;

/* Parses "cse,convert-triton-to-tritongpu{num-warps=8 target=cuda:80}" with
 * names resolved by `lookup`. Errors (unknown pass or option, malformed
 * braces) go to ctx without a location; false then. The caller frees *out
 * with ir_pipeline_free, also after a failure. */
bool ir_pipeline_parse(ir_context *ctx, const char *text, ir_pass_lookup_fn lookup,
                       ir_pipeline *out);
void ir_pipeline_free(ir_pipeline *pl);

typedef struct ir_pass_options {
  const char *print_before; /* pass name or "all"; NULL: none */
  const char *print_after;
  bool print_locations; /* in those dumps */
  bool verify_each;
  /* The verifier run after each pass with verify_each (NULL: ir_verify);
   * lib/ir-ttgpu's adds the ttgir rules. */
  bool (*verify)(const ir_module *m);
  ir_strbuf *dump; /* receives the printed IR; may be NULL */
  /* When non-NULL and *reproducer is NULL: on a failure, *reproducer gets
   * the IR the failing pass received (malloc'd, with locations) and
   * *reproducer_spec that pass as written (borrowed from the pipeline). */
  char **reproducer;
  const char **reproducer_spec;
  /* When non-NULL, each pass run appends its spec (copied, truncated to 95
   * bytes) and time, up to 64 in all, for ir_time_report. */
  struct ir_pass_timing *timing;
} ir_pass_options;

typedef struct ir_pass_timing {
  int n;
  char names[64][96];
  double times[64];
} ir_pass_timing;

/* Runs the steps in order; returns false at the first failure. */
bool ir_run_pipeline(ir_module *m, const ir_pipeline *pl, const ir_pass_options *opts);

/* Appends MLIR's "Execution time report" for n passes (names[i] took
 * times[i] seconds; `total` is the whole run) to out. */
void ir_time_report(ir_strbuf *out, int n, const char *const *names, const double *times,
                    double total);

/* ---- axis_info.c: contiguity / divisibility / constancy ---------------- */

/* Per-value facts along each dimension, as Triton's AxisInfo:
 * contiguity[d]: length of runs of consecutive values (+1 steps) along d;
 * divisibility[d]: largest power of two dividing the first element of each run;
 * constancy[d]: length of runs of equal values along d. Scalars use d = 0. */
typedef struct ir_axis_info {
  int rank;
  int64_t contiguity[IR_MAX_RANK];
  int64_t divisibility[IR_MAX_RANK];
  int64_t constancy[IR_MAX_RANK];
} ir_axis_info;

typedef struct ir_axis_analysis ir_axis_analysis;
/* Analyses every value in `func` (a tt.func). Allocated in `arena`. */
ir_axis_analysis *ir_axis_analyze(const ir_op *func, ir_arena *arena);
/* Facts about v; a conservative default (1, 1, 1) for values not seen. */
ir_axis_info ir_axis_get(const ir_axis_analysis *a, const ir_value *v);
/* Splits a mask m (an arith.andi tree, through tt.broadcast) into terms
 * constant along runs of `vec` elements of dim d (appended to terms, at
 * most max) and at most one other term (*other, NULL when none). False
 * when there are more: a second other term, or more than max. */
bool ir_axis_split_mask(const ir_axis_analysis *a, ir_value *m, int d, int64_t vec,
                        ir_value **terms, int max, int *nterms, ir_value **other);

/* ---- additions (appended by ir-tt) ------------------------------------ */

/* attrs.c: v rounded to the precision of float type `ty` (f16, bf16, f32,
 * f64; a tensor's element type), as ir_attr_float stores it. */
double ir_float_round(const ir_type *ty, double v);
/* fp8 (e5m2: f8E5M2, else f8E4M3FN), as PTX's cvt.rn.satfinite converts:
 * to nearest even, saturating at the largest finite value (infinities
 * too); NaN stays NaN (bits 0x7F). */
double ir_fp8_round(double v, bool e5m2);
uint8_t ir_fp8_bits(double v, bool e5m2);
double ir_fp8_value(uint8_t bits, bool e5m2);

/* The ttir passes (one file each), declared through passes.def:
 * IR_PASS(ident, "name", "summary", options) in pipeline order; each defines
 * bool ir_pass_<ident>(ir_module *m, ir_arena *scratch, const ir_pass_args *a). */
#define IR_PASS(ID, NAME, SUMMARY, OPTIONS)                                                        \
  bool ir_pass_##ID(ir_module *m, ir_arena *scratch, const ir_pass_args *args);
#include "passes.def"
/* pass.c: the passes.def pass named name[0..len), or NULL. Borrowed, static. */
const ir_pass *ir_pass_lookup(const char *name, size_t len);
/* pass.c: the passes.def passes, in pipeline order. */
int ir_pass_count(void);
const ir_pass *ir_pass_at(int i);
/* The ttir pipeline the compiler runs after the frontend. */
#define IR_TTIR_PIPELINE "canonicalize,cse,dce,version-bounded-stores"

/* ---- parser*.c: the textual IR (appended by the IR tool) ---------------- */

/* Parses the text of `src` (registered in ctx) as a module, in exactly the
 * form ir_print_module prints at either level: layout aliases, `module
 * attributes {...} {...}` (or bare top-level ops), custom and generic op
 * forms, regions, block arguments, loc(...). Ops without loc(...) are
 * located in `src`. Does not verify. Returns a new module the caller
 * destroys, or NULL after emitting one located error on ctx. */
ir_module *ir_parse_module(ir_context *ctx, const ir_source *src);
/* Parses the whole text of `src` as one type; NULL after a located error.
 * The type is uniqued in ctx. */
const ir_type *ir_parse_type(ir_context *ctx, const ir_source *src);

#endif
