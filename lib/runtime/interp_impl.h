// SPDX-License-Identifier: MIT
/* interp_impl.h - private to the interp*.c files of lib/runtime: the
 * prepared form of a kernel (instructions over numbered value slots) and the
 * per-launch execution state the op handlers work on.
 *
 * Every SSA value of the function gets a slot with a fixed byte size (ttir
 * shapes are static); slots whose values are never live at once share an
 * offset (interp.c, share_storage). A launch allocates one block for all
 * slots and reuses it for every program: each op overwrites its result
 * slots, so nothing needs resetting between programs. Constants and make_range are computed
 * once at prepare time into a pool shared by all launches. */
#ifndef TTC_INTERP_IMPL_H
#define TTC_INTERP_IMPL_H

#include "runtime/rt.h"

/* One value slot. cap >= numel: slots of a reduce/scan combine region are
 * scalars in the IR but run over many lanes at once (see rt_iexec.lanes). */
typedef struct rt_islot {
  const ir_type *type;
  const ir_type *elem; /* scalar element type */
  unsigned esize;      /* bytes per element (pointers 8, i1 1) */
  size_t numel, cap;
  size_t offset; /* in the launch storage, or in the constant pool */
  bool is_const; /* lives in the pool (arith.constant, make_range) */
} rt_islot;

typedef struct rt_ins rt_ins;

/* A compiled block: its argument slots and its ops; the last op is the
 * block's terminator (yield, condition, return ...). */
typedef struct rt_iblock {
  int nargs;
  int *args;
  int nins;
  rt_ins *ins;
} rt_iblock;

struct rt_ins {
  const ir_op *op;
  int nin, nout;
  int *in, *out; /* operand and result slots */
  int nregions;
  rt_iblock *regions; /* region i's entry block (nargs 0, nins 0 when empty) */
  size_t n;           /* element count the op works on (result 0, else operand 0) */
  /* Memory ops: the slot of the kernel argument the pointer operand was
   * derived from (through addptr, splat, broadcast, expand_dims, reshape
   * and loop-carried values), or -1 when it is not known. An access must
   * stay inside that argument's allocation: its provenance. */
  int origin;
  const char *origin_name; /* the argument's name, or NULL */
};

struct rt_interp {
  ir_arena arena; /* instructions and slot tables */
  const ir_op *func;
  int nslots;
  rt_islot *slots;
  rt_iblock body;
  int nparams;
  size_t storage_bytes; /* per-launch block for every non-constant slot */
  unsigned char *pool;  /* constants (malloc'd) */
  size_t max_numel;     /* largest element count of any slot: sizes scratch */
};

/* The state of one launch. Handlers read operands through v[slot] and
 * write results there; on a failure they call rt_iexec_fail and return false. */
typedef struct rt_iexec {
  const rt_interp *ip;
  void **v; /* data pointer of every slot */
  rt_heap *heap;
  unsigned pid[3], grid[3];
  size_t lanes;     /* > 0 while running a combine region over many lanes */
  void *scratch[4]; /* each max_numel * 8 bytes */
  ir_strbuf *print;
  char *err;
  size_t errlen;
  ttc_status st;
  long timeout_s;  /* TTC_INTERP_TIMEOUT: 0, none */
  double deadline; /* CLOCK_MONOTONIC seconds, when timeout_s > 0 */
  unsigned ticks;  /* loop iterations and programs since the clock was read */
} rt_iexec;

/* Element count an instruction works on now (its lanes in a combine region). */
static inline size_t rt_ins_n(const rt_iexec *ex, const rt_ins *ins) {
  return ex->lanes ? ex->lanes : ins->n;
}
static inline const rt_islot *rt_slot(const rt_iexec *ex, int s) { return &ex->ip->slots[s]; }

/* ---- interp.c ------------------------------------------------------------- */

/* Records "<what> at file:line:col in program (x, y, z): <message>" and the
 * status; returns false so handlers can `return rt_iexec_fail(...)`. */
bool rt_iexec_fail(rt_iexec *ex, const ir_op *op, ttc_status st, const char *what, const char *fmt,
                   ...) __attribute__((format(printf, 5, 6)));
/* Runs a block's ops except its terminator, which it returns. NULL on failure. */
const rt_ins *rt_iexec_block(rt_iexec *ex, const rt_iblock *b);
/* "file:line:col" of an op ("<unknown>" without a location). */
void rt_interp_loc(const ir_op *op, char *out, size_t cap);

/* ---- interp_int.c: integer elementwise ops, selects, copies --------------- */

typedef enum rt_ibin {
  RT_IB_ADD,
  RT_IB_SUB,
  RT_IB_MUL,
  RT_IB_DIVS,
  RT_IB_DIVU,
  RT_IB_REMS,
  RT_IB_REMU,
  RT_IB_AND,
  RT_IB_OR,
  RT_IB_XOR,
  RT_IB_SHL,
  RT_IB_SHRS,
  RT_IB_SHRU,
  RT_IB_MAXS,
  RT_IB_MINS,
  RT_IB_MAXU,
  RT_IB_MINU,
  RT_IB_MULHIU
} rt_ibin;

bool rt_interp_int_binary(rt_iexec *ex, const rt_ins *ins, rt_ibin kind);
bool rt_interp_cmpi(rt_iexec *ex, const rt_ins *ins);
/* extsi / extui / trunci (is_signed picks the extension). */
bool rt_interp_int_cast(rt_iexec *ex, const rt_ins *ins, bool is_signed);
bool rt_interp_absi(rt_iexec *ex, const rt_ins *ins);
bool rt_interp_select(rt_iexec *ex, const rt_ins *ins);
/* Result 0 gets operand 0's bytes (bitcasts, reshape, expand_dims, ptr<->int). */
bool rt_interp_copy(rt_iexec *ex, const rt_ins *ins);

/* ---- interp_float.c: float elementwise ops, math, conversions ------------- */

typedef enum rt_fop {
  RT_F_ADD,
  RT_F_SUB,
  RT_F_MUL,
  RT_F_DIV,
  RT_F_REM,
  RT_F_MAXNUM,
  RT_F_MINNUM,
  RT_F_MAXIMUM,
  RT_F_MINIMUM,
  RT_F_NEG,
  RT_F_EXP,
  RT_F_EXP2,
  RT_F_LOG,
  RT_F_LOG2,
  RT_F_SQRT,
  RT_F_RSQRT,
  RT_F_ABS,
  RT_F_SIN,
  RT_F_COS,
  RT_F_ERF,
  RT_F_FLOOR,
  RT_F_CEIL,
  RT_F_FMA,
  RT_F_CLAMP
} rt_fop;

bool rt_interp_float_op(rt_iexec *ex, const rt_ins *ins, rt_fop kind);
bool rt_interp_cmpf(rt_iexec *ex, const rt_ins *ins);
/* tt.extern_elementwise: libdevice functions by symbol, computed with libm
 * in double (a failure names symbols it does not know). */
bool rt_interp_extern(rt_iexec *ex, const rt_ins *ins);
/* extf, truncf, fp_to_fp (rounding attr), sitofp, uitofp, fptosi, fptoui. */
bool rt_interp_convert(rt_iexec *ex, const rt_ins *ins);

/* Element conversions shared with loads, dots and constants. */
float rt_f16_to_f32(uint16_t h);
float rt_bf16_to_f32(uint16_t h);
uint16_t rt_f32_to_bf16(float f); /* round to nearest even */
uint16_t rt_f32_to_f16(float f);  /* round to nearest even */
/* Element i of a float buffer of type `elem`, widened to double; and the
 * reverse, rounded to nearest even. */
double rt_float_get(const ir_type *elem, const void *p, size_t i);
void rt_float_set(const ir_type *elem, void *p, size_t i, double x);

/* ---- interp_tensor.c: shapes, reductions, scans, dot ---------------------- */

bool rt_interp_splat(rt_iexec *ex, const rt_ins *ins);
bool rt_interp_broadcast(rt_iexec *ex, const rt_ins *ins);
bool rt_interp_trans(rt_iexec *ex, const rt_ins *ins);
bool rt_interp_join(rt_iexec *ex, const rt_ins *ins);
bool rt_interp_split(rt_iexec *ex, const rt_ins *ins);
bool rt_interp_reduce(rt_iexec *ex, const rt_ins *ins);
bool rt_interp_scan(rt_iexec *ex, const rt_ins *ins);
bool rt_interp_dot(rt_iexec *ex, const rt_ins *ins);
/* Writes the value of an arith.constant attribute, `n` elements, into p. */
bool rt_interp_fill_constant(const ir_attr *a, const rt_islot *s, void *p, size_t n);
/* Copies element src_i of src to element dst_i of dst, esize bytes. */
static inline void rt_copy_elem(void *dst, size_t dst_i, const void *src, size_t src_i,
                                unsigned esize) {
  switch (esize) {
  case 1: ((uint8_t *)dst)[dst_i] = ((const uint8_t *)src)[src_i]; return;
  case 2: ((uint16_t *)dst)[dst_i] = ((const uint16_t *)src)[src_i]; return;
  case 4: ((uint32_t *)dst)[dst_i] = ((const uint32_t *)src)[src_i]; return;
  case 8: ((uint64_t *)dst)[dst_i] = ((const uint64_t *)src)[src_i]; return;
  }
  IR_UNREACHABLE("element size %u", esize);
}

/* ---- interp_memory.c: pointers, loads, stores, atomics -------------------- */

bool rt_interp_addptr(rt_iexec *ex, const rt_ins *ins);
bool rt_interp_load(rt_iexec *ex, const rt_ins *ins);
bool rt_interp_store(rt_iexec *ex, const rt_ins *ins);
bool rt_interp_atomic_rmw(rt_iexec *ex, const rt_ins *ins);
bool rt_interp_atomic_cas(rt_iexec *ex, const rt_ins *ins);

#endif
