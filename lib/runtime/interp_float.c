// SPDX-License-Identifier: MIT
/* interp_float.c - float elementwise ops of the interpreter: arithmetic,
 * math functions, compares and every int/float conversion.
 *
 * f32 add/sub/mul/div run as native float loops (the vector-add hot path).
 * Everything else widens its operands to double, computes there and rounds
 * once to the result type (round to nearest even): exact ops are then
 * correctly rounded for f16, bf16 and f32 (double has more than 2p+2 bits),
 * and math functions are at least as accurate as the GPU's. */
#include <math.h>
#include <string.h>

#include "runtime/interp_impl.h"

/* ---- element conversions ---------------------------------------------------- */

/* x rounded to nearest even in a binary format with `eb` exponent and `mb`
 * fraction bits (f16: 5, 10; bf16: 8, 7), from the double's bits. */
static uint16_t dbl_to_half(double x, int eb, int mb) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  const uint16_t sign = (uint16_t)((u >> 63) << (eb + mb));
  const uint64_t au = u & 0x7fffffffffffffffull;
  const int bias = (1 << (eb - 1)) - 1;
  const uint64_t inf = (uint64_t)((1u << eb) - 1u) << mb;
  if (au >= 0x7ff0000000000000ull) /* inf, or NaN made quiet */
    return (uint16_t)(sign | inf | (au > 0x7ff0000000000000ull ? 1u << (mb - 1) : 0u));
  int e = (int)(au >> 52) - 1023;
  if (e < 1 - bias) {
    /* Subnormal or zero in the target: scaling by a power of two is exact,
     * after which one target ulp is 1.0 and rint rounds to nearest even
     * (2^mb, the smallest normal, encodes itself). */
    return (uint16_t)(sign | (uint16_t)rint(ldexp(fabs(x), bias - 1 + mb)));
  }
  const int shift = 52 - mb;
  uint64_t m = au + ((1ull << (shift - 1)) - 1) + ((au >> shift) & 1);
  m -= (uint64_t)(1023 - bias) << 52;
  uint64_t r = m >> shift;
  return (uint16_t)(sign | (r >= inf ? inf : r));
}

float rt_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0) {
    float v = (float)mant * 5.9604644775390625e-8f; /* mant * 2^-24, exact */
    return sign ? -v : v;
  }
  if (exp == 31)
    bits = sign | 0x7f800000u | mant << 13;
  else
    bits = sign | (exp + 112u) << 23 | mant << 13;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

float rt_bf16_to_f32(uint16_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

uint16_t rt_f32_to_f16(float f) { return dbl_to_half(f, 5, 10); }

uint16_t rt_f32_to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u); /* quiet NaN */
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

double rt_float_get(const ir_type *elem, const void *p, size_t i) {
  if (elem->width == 64) return ((const double *)p)[i];
  if (elem->width == 32) return ((const float *)p)[i];
  if (elem->width == 8) return ir_fp8_value(((const uint8_t *)p)[i], elem->is_e5m2);
  uint16_t h = ((const uint16_t *)p)[i];
  return elem->is_bf16 ? rt_bf16_to_f32(h) : rt_f16_to_f32(h);
}

void rt_float_set(const ir_type *elem, void *p, size_t i, double x) {
  if (elem->width == 64)
    ((double *)p)[i] = x;
  else if (elem->width == 32)
    ((float *)p)[i] = (float)x;
  else if (elem->width == 8)
    ((uint8_t *)p)[i] = ir_fp8_bits(x, elem->is_e5m2);
  else
    ((uint16_t *)p)[i] = elem->is_bf16 ? dbl_to_half(x, 8, 7) : dbl_to_half(x, 5, 10);
}

/* Widens n elements of a float buffer into doubles. */
static double *widen(const ir_type *elem, const void *p, double *out, size_t n) {
  if (elem->width == 64) {
    memcpy(out, p, n * sizeof *out);
  } else if (elem->width == 32) {
    const float *f = p;
    for (size_t i = 0; i < n; i++)
      out[i] = f[i];
  } else if (elem->width == 8) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
      out[i] = ir_fp8_value(b[i], elem->is_e5m2);
  } else if (elem->is_bf16) {
    const uint16_t *h = p;
    for (size_t i = 0; i < n; i++)
      out[i] = rt_bf16_to_f32(h[i]);
  } else {
    const uint16_t *h = p;
    for (size_t i = 0; i < n; i++)
      out[i] = rt_f16_to_f32(h[i]);
  }
  return out;
}

/* Rounds n doubles into a float buffer of type elem. */
static void narrow(const ir_type *elem, void *p, const double *x, size_t n) {
  if (elem->width == 64) {
    memcpy(p, x, n * sizeof *x);
  } else if (elem->width == 32) {
    float *f = p;
    for (size_t i = 0; i < n; i++)
      f[i] = (float)x[i];
  } else if (elem->width == 8) { /* fp8 saturates as cvt.rn.satfinite */
    uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
      b[i] = ir_fp8_bits(x[i], elem->is_e5m2);
  } else {
    uint16_t *h = p;
    int eb = elem->is_bf16 ? 8 : 5, mb = elem->is_bf16 ? 7 : 10;
    for (size_t i = 0; i < n; i++)
      h[i] = dbl_to_half(x[i], eb, mb);
  }
}

/* ---- arithmetic and math ----------------------------------------------------- */

/* IEEE maximum/minimum: NaN wins, and -0 < +0. */
static inline double ieee_maximum(double x, double y) {
  if (isnan(x) || isnan(y)) return NAN;
  if (x == y) return signbit(x) ? y : x;
  return x > y ? x : y;
}
static inline double ieee_minimum(double x, double y) {
  if (isnan(x) || isnan(y)) return NAN;
  if (x == y) return signbit(x) ? x : y;
  return x < y ? x : y;
}

#define F_LOOP(EXPR)                                                                               \
  for (size_t i = 0; i < n; i++) {                                                                 \
    double x = a[i], y = b ? b[i] : 0.0, z = c ? c[i] : 0.0;                                       \
    (void)y;                                                                                       \
    (void)z;                                                                                       \
    o[i] = (EXPR);                                                                                 \
  }

/* One op over doubles; b and c are NULL for unary ops. */
static void float_compute(rt_fop k, double *o, const double *a, const double *b, const double *c,
                          size_t n, bool clamp_nan) {
  switch (k) {
  case RT_F_ADD: F_LOOP(x + y); return;
  case RT_F_SUB: F_LOOP(x - y); return;
  case RT_F_MUL: F_LOOP(x * y); return;
  case RT_F_DIV: F_LOOP(x / y); return;
  case RT_F_REM: F_LOOP(fmod(x, y)); return;
  case RT_F_MAXNUM: F_LOOP(fmax(x, y)); return;
  case RT_F_MINNUM: F_LOOP(fmin(x, y)); return;
  case RT_F_MAXIMUM: F_LOOP(ieee_maximum(x, y)); return;
  case RT_F_MINIMUM: F_LOOP(ieee_minimum(x, y)); return;
  case RT_F_NEG: F_LOOP(-x); return;
  case RT_F_EXP: F_LOOP(exp(x)); return;
  case RT_F_EXP2: F_LOOP(exp2(x)); return;
  case RT_F_LOG: F_LOOP(log(x)); return;
  case RT_F_LOG2: F_LOOP(log2(x)); return;
  case RT_F_SQRT: F_LOOP(sqrt(x)); return;
  case RT_F_RSQRT: F_LOOP(1.0 / sqrt(x)); return;
  case RT_F_ABS: F_LOOP(fabs(x)); return;
  case RT_F_SIN: F_LOOP(sin(x)); return;
  case RT_F_COS: F_LOOP(cos(x)); return;
  case RT_F_ERF: F_LOOP(erf(x)); return;
  case RT_F_FLOOR: F_LOOP(floor(x)); return;
  case RT_F_CEIL: F_LOOP(ceil(x)); return;
  case RT_F_FMA: F_LOOP(fma(x, y, z)); return;
  case RT_F_CLAMP: F_LOOP(clamp_nan && isnan(x) ? x : fmin(fmax(x, y), z)); return;
  }
}

/* The native f32 loops of the four basic ops. */
static bool float_f32_fast(rt_fop k, float *o, const float *a, const float *b, size_t n) {
  switch (k) {
  case RT_F_ADD:
    for (size_t i = 0; i < n; i++)
      o[i] = a[i] + b[i];
    return true;
  case RT_F_SUB:
    for (size_t i = 0; i < n; i++)
      o[i] = a[i] - b[i];
    return true;
  case RT_F_MUL:
    for (size_t i = 0; i < n; i++)
      o[i] = a[i] * b[i];
    return true;
  case RT_F_DIV:
    for (size_t i = 0; i < n; i++)
      o[i] = a[i] / b[i];
    return true;
  case RT_F_REM:
  case RT_F_MAXNUM:
  case RT_F_MINNUM:
  case RT_F_MAXIMUM:
  case RT_F_MINIMUM:
  case RT_F_NEG:
  case RT_F_EXP:
  case RT_F_EXP2:
  case RT_F_LOG:
  case RT_F_LOG2:
  case RT_F_SQRT:
  case RT_F_RSQRT:
  case RT_F_ABS:
  case RT_F_SIN:
  case RT_F_COS:
  case RT_F_ERF:
  case RT_F_FLOOR:
  case RT_F_CEIL:
  case RT_F_FMA:
  case RT_F_CLAMP: return false;
  }
  return false;
}

bool rt_interp_float_op(rt_iexec *ex, const rt_ins *ins, rt_fop kind) {
  size_t n = rt_ins_n(ex, ins);
  const ir_type *elem = rt_slot(ex, ins->out[0])->elem;
  void *o = ex->v[ins->out[0]];
  if (elem->width == 32 && ins->nin == 2 &&
      float_f32_fast(kind, o, ex->v[ins->in[0]], ex->v[ins->in[1]], n))
    return true;
  double *w[3] = {NULL, NULL, NULL};
  for (int i = 0; i < ins->nin && i < 3; i++)
    w[i] = widen(rt_slot(ex, ins->in[i])->elem, ex->v[ins->in[i]], ex->scratch[i], n);
  bool clamp_nan = false;
  if (kind == RT_F_CLAMP) {
    const ir_attr *a = ir_op_get_attr(ins->op, "propagateNan");
    clamp_nan = a && a->s && strcmp(a->s, "all") == 0;
  }
  float_compute(kind, ex->scratch[3], w[0], w[1], w[2], n, clamp_nan);
  narrow(elem, o, ex->scratch[3], n);
  return true;
}

bool rt_interp_cmpf(rt_iexec *ex, const rt_ins *ins) {
  size_t n = rt_ins_n(ex, ins);
  const ir_type *elem = rt_slot(ex, ins->in[0])->elem;
  const double *a = widen(elem, ex->v[ins->in[0]], ex->scratch[0], n);
  const double *b = widen(elem, ex->v[ins->in[1]], ex->scratch[1], n);
  uint8_t *o = ex->v[ins->out[0]];
  int64_t pred = ir_op_get_int(ins->op, "predicate", 0);
#define CMPF(EXPR)                                                                                 \
  for (size_t i = 0; i < n; i++) {                                                                 \
    double x = a[i], y = b[i];                                                                     \
    bool uno = isnan(x) || isnan(y);                                                               \
    (void)uno;                                                                                     \
    o[i] = (uint8_t)(EXPR);                                                                        \
  }                                                                                                \
  return true
  switch ((ir_cmpf_pred)pred) {
  case IR_CMPF_FALSE: CMPF(0);
  case IR_CMPF_OEQ: CMPF(!uno && x == y);
  case IR_CMPF_OGT: CMPF(!uno && x > y);
  case IR_CMPF_OGE: CMPF(!uno && x >= y);
  case IR_CMPF_OLT: CMPF(!uno && x < y);
  case IR_CMPF_OLE: CMPF(!uno && x <= y);
  case IR_CMPF_ONE: CMPF(!uno && x != y);
  case IR_CMPF_ORD: CMPF(!uno);
  case IR_CMPF_UEQ: CMPF(uno || x == y);
  case IR_CMPF_UGT: CMPF(uno || x > y);
  case IR_CMPF_UGE: CMPF(uno || x >= y);
  case IR_CMPF_ULT: CMPF(uno || x < y);
  case IR_CMPF_ULE: CMPF(uno || x <= y);
  case IR_CMPF_UNE: CMPF(uno || x != y);
  case IR_CMPF_UNO: CMPF(uno);
  case IR_CMPF_TRUE: CMPF(1);
  }
#undef CMPF
  return rt_iexec_fail(ex, ins->op, TTC_ERROR_INPUT, "arith.cmpf", "bad predicate %d", (int)pred);
}

/* ---- conversions -------------------------------------------------------------- */

/* Element i of an integer buffer, sign- or zero-extended. */
static int64_t int_elem(const rt_islot *s, const void *p, size_t i, bool is_signed) {
  uint64_t u;
  switch (s->esize) {
  case 1:
    u = ((const uint8_t *)p)[i];
    if (s->elem->width == 1) return is_signed ? -(int64_t)(u & 1) : (int64_t)(u & 1);
    return is_signed ? (int8_t)u : (int64_t)u;
  case 2: u = ((const uint16_t *)p)[i]; return is_signed ? (int16_t)u : (int64_t)u;
  case 4: u = ((const uint32_t *)p)[i]; return is_signed ? (int32_t)u : (int64_t)u;
  default: return ((const int64_t *)p)[i];
  }
}

/* fptosi / fptoui of one value: truncation toward zero, saturating at the
 * target's range and NaN -> 0, as the GPU's cvt.rzi does. */
static uint64_t float_to_int(double x, unsigned width, bool is_signed) {
  if (isnan(x)) return 0;
  x = trunc(x);
  if (is_signed) {
    double hi = ldexp(1.0, (int)width - 1); /* 2^(w-1): first value out of range */
    if (x >= hi) return width == 64 ? (uint64_t)INT64_MAX : (uint64_t)(hi - 1);
    if (x < -hi) return (uint64_t)(width == 64 ? INT64_MIN : -(int64_t)hi);
    return (uint64_t)(int64_t)x;
  }
  double hi = ldexp(1.0, (int)width);
  if (x <= 0) return 0;
  if (x >= hi) return width == 64 ? UINT64_MAX : (uint64_t)(hi - 1);
  return (uint64_t)x;
}

static void put_int(const rt_islot *s, void *p, size_t i, uint64_t x) {
  switch (s->esize) {
  case 1: ((uint8_t *)p)[i] = (uint8_t)(s->elem->width == 1 ? (x & 1) : x); return;
  case 2: ((uint16_t *)p)[i] = (uint16_t)x; return;
  case 4: ((uint32_t *)p)[i] = (uint32_t)x; return;
  default: ((uint64_t *)p)[i] = x; return;
  }
}

/* Rounds toward zero where round-to-nearest went away from it: the bit
 * pattern of a 16-bit float steps down by one ulp in magnitude. */
static void round_toward_zero(const ir_type *elem, void *o, const double *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    double r = rt_float_get(elem, o, i);
    if (isnan(x[i]) || !(fabs(r) > fabs(x[i]))) continue;
    if (elem->width == 32) {
      float *f = o;
      f[i] = nextafterf(f[i], 0.0f);
    } else if (elem->width == 8) {
      ((uint8_t *)o)[i]--;
    } else {
      ((uint16_t *)o)[i]--;
    }
  }
}

bool rt_interp_convert(rt_iexec *ex, const rt_ins *ins) {
  size_t n = rt_ins_n(ex, ins);
  const rt_islot *si = rt_slot(ex, ins->in[0]), *so = rt_slot(ex, ins->out[0]);
  const void *a = ex->v[ins->in[0]];
  void *o = ex->v[ins->out[0]];
  double *w = ex->scratch[0];
  ir_op_kind k = ins->op->kind;
  if (k == IR_OP_ARITH_SITOFP || k == IR_OP_ARITH_UITOFP) {
    bool is_signed = ins->op->kind == IR_OP_ARITH_SITOFP;
    if (so->elem->width == 32) { /* int64 -> float rounds once, correctly */
      float *f = o;
      for (size_t i = 0; i < n; i++) {
        int64_t v = int_elem(si, a, i, is_signed);
        f[i] = is_signed || si->esize < 8 ? (float)v : (float)(uint64_t)v;
      }
      return true;
    }
    for (size_t i = 0; i < n; i++) {
      int64_t v = int_elem(si, a, i, is_signed);
      w[i] = is_signed || si->esize < 8 ? (double)v : (double)(uint64_t)v;
    }
    narrow(so->elem, o, w, n);
    return true;
  }
  if (k == IR_OP_ARITH_FPTOSI || k == IR_OP_ARITH_FPTOUI) {
    bool is_signed = ins->op->kind == IR_OP_ARITH_FPTOSI;
    widen(si->elem, a, w, n);
    for (size_t i = 0; i < n; i++)
      put_int(so, o, i, float_to_int(w[i], so->elem->width, is_signed));
    return true;
  }
  if (k == IR_OP_ARITH_EXTF || k == IR_OP_ARITH_TRUNCF || k == IR_OP_TT_FP_TO_FP) {
    if (si->elem->width == 32 && so->elem->width == 16 && so->elem->is_bf16 &&
        ins->op->kind != IR_OP_TT_FP_TO_FP) {
      const float *f = a;
      uint16_t *h = o;
      for (size_t i = 0; i < n; i++)
        h[i] = rt_f32_to_bf16(f[i]);
      return true;
    }
    widen(si->elem, a, w, n);
    narrow(so->elem, o, w, n);
    const ir_attr *r = ir_op_get_attr(ins->op, "rounding");
    if (r && r->s && strcmp(r->s, "rtz") == 0 && so->elem->width < si->elem->width)
      round_toward_zero(so->elem, o, w, n);
    return true;
  }
  return rt_iexec_fail(ex, ins->op, TTC_ERROR_INTERNAL, "internal error",
                       "'%s' is not a conversion", ir_op_name(ins->op));
}
