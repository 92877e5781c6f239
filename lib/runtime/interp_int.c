/* interp_int.c - integer elementwise ops of the interpreter, one tight loop
 * per (op, width): wraparound arithmetic, the GPU's answers where C has
 * undefined behaviour (division by zero gives all ones, like PTX div.u;
 * shifts by the width or more give 0 or the sign), compares, extensions and
 * truncations, selects and plain copies. i1 is stored one byte per element
 * (0 or 1); signed ops see it sign-extended, and results are masked to 1 bit. */
#include <string.h>

#include "runtime/interp_impl.h"

/* The body of one elementwise op over typed arrays a, b -> o (elements of
 * type OT), n elements. x and y are the unsigned operands, sx and sy the
 * signed views. Binary ops write U, compares write one byte per element. */
#define PAIR_LOOP(OT, U, S, EXPR)                                                                  \
  do {                                                                                             \
    OT *o_ = o;                                                                                    \
    const U *a_ = a, *b_ = b;                                                                      \
    for (size_t i = 0; i < n; i++) {                                                               \
      U x = a_[i], y = b_[i];                                                                      \
      S sx = (S)x, sy = (S)y;                                                                      \
      (void)sx;                                                                                    \
      (void)sy;                                                                                    \
      o_[i] = (OT)(EXPR);                                                                          \
    }                                                                                              \
  } while (0)
#define BIN_LOOP(U, S, W, EXPR) PAIR_LOOP(U, U, S, EXPR) /* W: the width */
#define CMP_LOOP(U, S, EXPR) PAIR_LOOP(uint8_t, U, S, EXPR)

/* High half of the unsigned product, for mulhiui. */
static inline uint64_t mulhi_u64(uint64_t x, uint64_t y) {
  return (uint64_t)(((unsigned __int128)x * y) >> 64);
}

/* All binary ops at one width. Division by zero and the signed overflow
 * case INT_MIN / -1 follow PTX (all ones; INT_MIN) instead of trapping. */
#define BIN_ALL(U, S, W, SMIN)                                                                     \
  switch (kind) {                                                                                  \
  case RT_IB_ADD: BIN_LOOP(U, S, W, (uint64_t)x + y); return;                                      \
  case RT_IB_SUB: BIN_LOOP(U, S, W, (uint64_t)x - y); return;                                      \
  case RT_IB_MUL: BIN_LOOP(U, S, W, (uint64_t)x *y); return;                                       \
  case RT_IB_DIVS:                                                                                 \
    BIN_LOOP(U, S, W, y == 0 ? (U) ~(U)0 : (sx == SMIN && sy == -1) ? (U)sx : (U)(sx / sy));       \
    return;                                                                                        \
  case RT_IB_DIVU: BIN_LOOP(U, S, W, y == 0 ? (U) ~(U)0 : x / y); return;                          \
  case RT_IB_REMS:                                                                                 \
    BIN_LOOP(U, S, W, y == 0 ? x : (sx == SMIN && sy == -1) ? 0 : (U)(sx % sy));                   \
    return;                                                                                        \
  case RT_IB_REMU: BIN_LOOP(U, S, W, y == 0 ? x : x % y); return;                                  \
  case RT_IB_AND: BIN_LOOP(U, S, W, x &y); return;                                                 \
  case RT_IB_OR: BIN_LOOP(U, S, W, x | y); return;                                                 \
  case RT_IB_XOR: BIN_LOOP(U, S, W, x ^ y); return;                                                \
  case RT_IB_SHL: BIN_LOOP(U, S, W, y >= W ? 0 : (uint64_t)x << y); return;                        \
  case RT_IB_SHRS: BIN_LOOP(U, S, W, y >= W ? (sx < 0 ? (U) ~(U)0 : 0) : (U)(sx >> y)); return;    \
  case RT_IB_SHRU: BIN_LOOP(U, S, W, y >= W ? 0 : x >> y); return;                                 \
  case RT_IB_MAXS: BIN_LOOP(U, S, W, sx > sy ? x : y); return;                                     \
  case RT_IB_MINS: BIN_LOOP(U, S, W, sx < sy ? x : y); return;                                     \
  case RT_IB_MAXU: BIN_LOOP(U, S, W, x > y ? x : y); return;                                       \
  case RT_IB_MINU: BIN_LOOP(U, S, W, x < y ? x : y); return;                                       \
  case RT_IB_MULHIU:                                                                               \
    BIN_LOOP(U, S, W, W == 64 ? mulhi_u64(x, y) : ((uint64_t)x * y) >> (W % 64));                  \
    return;                                                                                        \
  }

static void int_binary(rt_ibin kind, unsigned esize, void *o, const void *a, const void *b,
                       size_t n) {
  switch (esize) {
  case 1: BIN_ALL(uint8_t, int8_t, 8, INT8_MIN); return;
  case 2: BIN_ALL(uint16_t, int16_t, 16, INT16_MIN); return;
  case 4: BIN_ALL(uint32_t, int32_t, 32, INT32_MIN); return;
  case 8: BIN_ALL(uint64_t, int64_t, 64, INT64_MIN); return;
  }
}

/* i1 operands as bytes 0x00 / 0xff (sign-extended), so that the 8-bit
 * loops give i1's signed and unsigned answers once masked back to 1 bit. */
static const void *widen_i1(const void *src, void *dst, size_t n) {
  const uint8_t *s = src;
  uint8_t *d = dst;
  for (size_t i = 0; i < n; i++)
    d[i] = (uint8_t) - (s[i] & 1);
  return dst;
}

static void mask_i1(void *p, size_t n) {
  uint8_t *d = p;
  for (size_t i = 0; i < n; i++)
    d[i] &= 1;
}

bool rt_interp_int_binary(rt_iexec *ex, const rt_ins *ins, rt_ibin kind) {
  size_t n = rt_ins_n(ex, ins);
  const rt_islot *s = rt_slot(ex, ins->out[0]);
  const void *a = ex->v[ins->in[0]], *b = ex->v[ins->in[1]];
  void *o = ex->v[ins->out[0]];
  bool is_i1 = s->elem->kind == IR_TY_INT && s->elem->width == 1;
  if (is_i1) {
    a = widen_i1(a, ex->scratch[0], n);
    b = widen_i1(b, ex->scratch[1], n);
  }
  int_binary(kind, s->esize, o, a, b, n);
  if (is_i1) mask_i1(o, n);
  return true;
}

#define CMP_ALL(U, S)                                                                              \
  switch (pred) {                                                                                  \
  case IR_CMPI_EQ: CMP_LOOP(U, S, x == y); return;                                                 \
  case IR_CMPI_NE: CMP_LOOP(U, S, x != y); return;                                                 \
  case IR_CMPI_SLT: CMP_LOOP(U, S, sx < sy); return;                                               \
  case IR_CMPI_SLE: CMP_LOOP(U, S, sx <= sy); return;                                              \
  case IR_CMPI_SGT: CMP_LOOP(U, S, sx > sy); return;                                               \
  case IR_CMPI_SGE: CMP_LOOP(U, S, sx >= sy); return;                                              \
  case IR_CMPI_ULT: CMP_LOOP(U, S, x < y); return;                                                 \
  case IR_CMPI_ULE: CMP_LOOP(U, S, x <= y); return;                                                \
  case IR_CMPI_UGT: CMP_LOOP(U, S, x > y); return;                                                 \
  case IR_CMPI_UGE: CMP_LOOP(U, S, x >= y); return;                                                \
  }

static void int_compare(ir_cmpi_pred pred, unsigned esize, uint8_t *o, const void *a, const void *b,
                        size_t n) {
  switch (esize) {
  case 1: CMP_ALL(uint8_t, int8_t); return;
  case 2: CMP_ALL(uint16_t, int16_t); return;
  case 4: CMP_ALL(uint32_t, int32_t); return;
  case 8: CMP_ALL(uint64_t, int64_t); return;
  }
}

bool rt_interp_cmpi(rt_iexec *ex, const rt_ins *ins) {
  size_t n = rt_ins_n(ex, ins);
  const rt_islot *s = rt_slot(ex, ins->in[0]);
  const void *a = ex->v[ins->in[0]], *b = ex->v[ins->in[1]];
  if (s->elem->kind == IR_TY_INT && s->elem->width == 1) {
    a = widen_i1(a, ex->scratch[0], n);
    b = widen_i1(b, ex->scratch[1], n);
  }
  int64_t pred = ir_op_get_int(ins->op, "predicate", 0);
  if (pred < IR_CMPI_EQ || pred > IR_CMPI_UGE)
    return rt_iexec_fail(ex, ins->op, TTC_ERROR_INPUT, "arith.cmpi", "bad predicate %d", (int)pred);
  int_compare((ir_cmpi_pred)pred, s->esize, ex->v[ins->out[0]], a, b, n);
  return true;
}

/* Element i of an integer buffer of `esize` bytes, sign- or zero-extended
 * (width 1 reads bit 0). */
static inline uint64_t int_get(const void *p, size_t i, unsigned esize, unsigned width,
                               bool is_signed) {
  switch (esize) {
  case 1: {
    uint8_t x = ((const uint8_t *)p)[i];
    if (width == 1) return is_signed ? (uint64_t) - (int64_t)(x & 1) : (x & 1u);
    return is_signed ? (uint64_t)(int64_t)(int8_t)x : x;
  }
  case 2: {
    uint16_t x = ((const uint16_t *)p)[i];
    return is_signed ? (uint64_t)(int64_t)(int16_t)x : x;
  }
  case 4: {
    uint32_t x = ((const uint32_t *)p)[i];
    return is_signed ? (uint64_t)(int64_t)(int32_t)x : x;
  }
  default: return ((const uint64_t *)p)[i];
  }
}

static inline void int_put(void *p, size_t i, unsigned esize, unsigned width, uint64_t x) {
  switch (esize) {
  case 1: ((uint8_t *)p)[i] = (uint8_t)(width == 1 ? (x & 1) : x); return;
  case 2: ((uint16_t *)p)[i] = (uint16_t)x; return;
  case 4: ((uint32_t *)p)[i] = (uint32_t)x; return;
  default: ((uint64_t *)p)[i] = x; return;
  }
}

bool rt_interp_int_cast(rt_iexec *ex, const rt_ins *ins, bool is_signed) {
  size_t n = rt_ins_n(ex, ins);
  const rt_islot *si = rt_slot(ex, ins->in[0]), *so = rt_slot(ex, ins->out[0]);
  const void *a = ex->v[ins->in[0]];
  void *o = ex->v[ins->out[0]];
  /* The common widenings get their own loops; the rest goes through u64. */
  if (si->esize == 4 && so->esize == 8 && is_signed) {
    const int32_t *a_ = a;
    int64_t *o_ = o;
    for (size_t i = 0; i < n; i++)
      o_[i] = a_[i];
    return true;
  }
  if (si->esize == 8 && so->esize == 4) {
    const uint64_t *a_ = a;
    uint32_t *o_ = o;
    for (size_t i = 0; i < n; i++)
      o_[i] = (uint32_t)a_[i];
    return true;
  }
  for (size_t i = 0; i < n; i++)
    int_put(o, i, so->esize, so->elem->width, int_get(a, i, si->esize, si->elem->width, is_signed));
  return true;
}

bool rt_interp_absi(rt_iexec *ex, const rt_ins *ins) {
  size_t n = rt_ins_n(ex, ins);
  const rt_islot *s = rt_slot(ex, ins->out[0]);
  const void *a = ex->v[ins->in[0]];
  void *o = ex->v[ins->out[0]];
  for (size_t i = 0; i < n; i++) {
    int64_t x = (int64_t)int_get(a, i, s->esize, s->elem->width, true);
    int_put(o, i, s->esize, s->elem->width, x < 0 ? 0 - (uint64_t)x : (uint64_t)x);
  }
  return true;
}

#define SELECT_LOOP(T)                                                                             \
  do {                                                                                             \
    const T *a_ = a, *b_ = b;                                                                      \
    T *o_ = o;                                                                                     \
    if (cn == 1) {                                                                                 \
      const T *src = (c[0] & 1) ? a_ : b_;                                                         \
      if (o_ != src) memcpy(o_, src, n * sizeof(T));                                               \
    } else {                                                                                       \
      for (size_t i = 0; i < n; i++)                                                               \
        o_[i] = (c[i] & 1) ? a_[i] : b_[i];                                                        \
    }                                                                                              \
  } while (0)

bool rt_interp_select(rt_iexec *ex, const rt_ins *ins) {
  size_t n = rt_ins_n(ex, ins);
  const uint8_t *c = ex->v[ins->in[0]];
  /* A scalar condition may pick between whole tensors. */
  size_t cn = ex->lanes ? ex->lanes : rt_slot(ex, ins->in[0])->numel;
  const void *a = ex->v[ins->in[1]], *b = ex->v[ins->in[2]];
  void *o = ex->v[ins->out[0]];
  switch (rt_slot(ex, ins->out[0])->esize) {
  case 1: SELECT_LOOP(uint8_t); break;
  case 2: SELECT_LOOP(uint16_t); break;
  case 4: SELECT_LOOP(uint32_t); break;
  default: SELECT_LOOP(uint64_t); break;
  }
  return true;
}

bool rt_interp_copy(rt_iexec *ex, const rt_ins *ins) {
  size_t n = rt_ins_n(ex, ins);
  const rt_islot *so = rt_slot(ex, ins->out[0]);
  memcpy(ex->v[ins->out[0]], ex->v[ins->in[0]], n * so->esize);
  return true;
}
