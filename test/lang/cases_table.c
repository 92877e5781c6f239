// SPDX-License-Identifier: MIT
/* cases_table.c - table-driven language cases in the manner of Triton's
 * test_core.py (kernels in table.py, control.py): elementwise binary ops over
 * every integer and float type x BLOCK x num_warps; reductions (sum, max,
 * min, argmax, argmin) over f32 / i32, 1-D and 2-D along each axis; cumsum;
 * where / maximum / minimum / clamp with NaNs; dot f16 -> f32; and casts
 * from every type to every type. Signatures are generated here from the
 * case's types and constexprs. Exact results are compared bitwise; float
 * sums (reductions, cumsum, dot) within the tolerance stated at the case. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lang.h"

static const ttc_type all_types[] = {TTC_TYPE_I8,  TTC_TYPE_I16,  TTC_TYPE_I32, TTC_TYPE_I64,
                                     TTC_TYPE_U8,  TTC_TYPE_U16,  TTC_TYPE_U32, TTC_TYPE_U64,
                                     TTC_TYPE_F16, TTC_TYPE_BF16, TTC_TYPE_F32, TTC_TYPE_F64};
#define NTYPES (sizeof all_types / sizeof all_types[0])
static const int warp_counts[] = {1, 4, 8};

/* Largest and smallest value of an integer type, as doubles. */
static double int_max(ttc_type t) {
  unsigned w = (unsigned)lang_type_size(t) * 8;
  return lang_is_signed(t) ? ldexp(1, (int)w - 1) - 1 : ldexp(1, (int)w) - 1;
}
static double int_min(ttc_type t) {
  return lang_is_signed(t) ? -ldexp(1, (int)lang_type_size(t) * 8 - 1) : 0;
}

/* ---- binop_kernel: + - * max min where, then / (floats) or // % & | ^ ---------- */

static int64_t binop_int(int op, ttc_type t, int64_t x, int64_t y) {
  uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
  bool is_u64 = t == TTC_TYPE_U64, is_s = lang_is_signed(t);
  bool ge = is_u64 ? ux >= uy : x >= y; /* get_i extends narrow types by their signedness */
  switch (op) {
  case 0: return (int64_t)(ux + uy);
  case 1: return (int64_t)(ux - uy);
  case 2: return (int64_t)(ux * uy);
  case 3: return ge ? x : y;
  case 4: return ge ? y : x;
  case 5: return ge ? (int64_t)(ux - uy) : (int64_t)(uy - ux);
  case 6: return is_s ? x / y : (int64_t)(ux / uy);
  case 7: return is_s ? x % y : (int64_t)(ux % uy);
  case 8: return x & y;
  case 9: return x | y;
  default: return x ^ y;
  }
}

static double binop_float(int op, ttc_type t, double x, double y) {
  if (t == TTC_TYPE_F32) { /* float arithmetic, as C does it: one rounding */
    float a = (float)x, b = (float)y;
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return fmaxf(a, b);
    case 4: return fminf(a, b);
    case 5: return a >= b ? a - b : b - a;
    default: return a / b;
    }
  }
  switch (op) { /* exact in double, rounded once when stored */
  case 0: return x + y;
  case 1: return x - y;
  case 2: return x * y;
  case 3: return fmax(x, y);
  case 4: return fmin(x, y);
  case 5: return x >= y ? x - y : y - x;
  default: return x / y;
  }
}

static void case_binop(lctx *c, const lparams *p) {
  ttc_type t = p->t;
  size_t n = (size_t)(2 * p->block + p->block / 2 + 3); /* the last program is masked */
  bool fl = lang_is_float(t);
  int rows = fl ? 7 : 11;
  buf *x = fl ? lang_input(c, t, n, -8, 8) : lang_input(c, t, n, 0, 0);
  buf *y = fl ? lang_input(c, t, n, -8, 8) : lang_input(c, t, n, 0, 0);
  buf *o = lang_output(c, t, (size_t)rows * n, 0);
  for (size_t i = 0; i < n; i++) {
    int64_t yi = lang_get_i(y, y->host, i);
    if (!fl && (yi == 0 || (lang_is_signed(t) && yi == -1))) lang_set_i(y, y->host, i, 3);
  }
  for (int op = 0; op < rows; op++)
    for (size_t i = 0; i < n; i++) {
      if (fl)
        lang_set_f(o, o->ref, op * n + i,
                   binop_float(op, t, lang_get_f(x, x->host, i), lang_get_f(y, y->host, i)));
      else
        lang_set_i(o, o->ref, op * n + i,
                   binop_int(op, t, lang_get_i(x, x->host, i), lang_get_i(y, y->host, i)));
    }
  if (!lang_upload(c)) return;
  char sig[128];
  snprintf(sig, sizeof sig, "*%s,*%s,*%s,i32,%d", lang_tn(t), lang_tn(t), lang_tn(t), p->block);
  ttc_arg a[] = {lang_arg(x), lang_arg(y), lang_arg(o), ttc_arg_i32((int32_t)n)};
  unsigned grid = (unsigned)((n + (size_t)p->block - 1) / (size_t)p->block);
  if (lang_run(c, "table.py", "binop_kernel", sig, grid, 1, 1, a, 4)) lang_check(c);
}

/* ---- minmax_kernel: NaN handling of where / maximum / minimum / clamp ------------ */

static void case_minmax(lctx *c, const lparams *p) {
  ttc_type t = p->t;
  size_t n = 1000;
  buf *x = lang_input(c, t, n, -2, 2), *y = lang_input(c, t, n, -2, 2);
  buf *o = lang_output(c, t, 6 * n, 0);
  for (size_t i = 0; i < n; i += 7)
    lang_set_f(x, x->host, i, NAN);
  for (size_t i = 0; i < n; i++) {
    double a = lang_get_f(x, x->host, i), b = lang_get_f(y, y->host, i);
    double r[6] = {a < b ? a : b,
                   fmax(a, b),
                   fmin(b, a),
                   isnan(a) ? a : fmax(a, b),
                   isnan(a) ? a : fmin(b, a),
                   fmin(fmax(b, -0.5), 0.25)};
    for (int k = 0; k < 6; k++)
      lang_set_f(o, o->ref, (size_t)k * n + i, r[k]);
  }
  if (!lang_upload(c)) return;
  char sig[128];
  snprintf(sig, sizeof sig, "*%s,*%s,*%s,i32,128", lang_tn(t), lang_tn(t), lang_tn(t));
  ttc_arg a[] = {lang_arg(x), lang_arg(y), lang_arg(o), ttc_arg_i32((int32_t)n)};
  if (lang_run(c, "table.py", "minmax_kernel", sig, (unsigned)(n + 127) / 128, 1, 1, a, 4))
    lang_check(c);
}

/* ---- reductions ---------------------------------------------------------------- */

/* f32 sums: pairwise on the GPU, in another order on the interpreter. */
#define SUM_ATOL 2e-3
#define SUM_RTOL 1e-5

/* sum / max / min / argmax / argmin of x[base + i * step], i < len. */
static void reduce_ref(const buf *x, size_t base, size_t step, size_t len, double r[3],
                       int32_t idx[2]) {
  double s = 0, mx = -INFINITY, mn = INFINITY;
  int32_t amx = 0, amn = 0;
  for (size_t i = 0; i < len; i++) {
    double v = lang_get_f(x, x->host, base + i * step);
    s += v;
    if (v > mx) mx = v, amx = (int32_t)i; /* strict: the first index wins ties */
    if (v < mn) mn = v, amn = (int32_t)i;
  }
  r[0] = s, r[1] = mx, r[2] = mn;
  idx[0] = amx, idx[1] = amn;
}

static buf *reduce_input(lctx *c, ttc_type t, size_t n) {
  /* i32 values in a small range: ties exercise the argmax / argmin tie-break */
  return t == TTC_TYPE_F32 ? lang_input(c, t, n, -4, 4) : lang_input(c, t, n, -50, 50);
}

static buf *reduce_output(lctx *c, ttc_type t, size_t n) {
  return t == TTC_TYPE_F32 ? lang_output_tol(c, t, n, SUM_ATOL, SUM_RTOL) : lang_output(c, t, n, 0);
}

static void case_reduce1d(lctx *c, const lparams *p) {
  enum { P = 3 };
  ttc_type t = p->t;
  size_t B = (size_t)p->block;
  buf *x = reduce_input(c, t, P * B);
  buf *o = reduce_output(c, t, 3 * P), *idx = lang_output(c, TTC_TYPE_I32, 2 * P, 0);
  for (size_t q = 0; q < P; q++) {
    double r[3];
    int32_t ix[2];
    reduce_ref(x, q * B, 1, B, r, ix);
    for (int k = 0; k < 3; k++)
      lang_set_f(o, o->ref, 3 * q + (size_t)k, r[k]);
    ((int32_t *)idx->ref)[2 * q] = ix[0];
    ((int32_t *)idx->ref)[2 * q + 1] = ix[1];
  }
  if (!lang_upload(c)) return;
  char sig[128];
  snprintf(sig, sizeof sig, "*%s,*%s,*i32,%d", lang_tn(t), lang_tn(t), p->block);
  ttc_arg a[] = {lang_arg(x), lang_arg(o), lang_arg(idx)};
  if (lang_run(c, "table.py", "reduce1d_kernel", sig, P, 1, 1, a, 3)) lang_check(c);
}

static void case_reduce2d(lctx *c, const lparams *p) {
  enum { P = 2 };
  ttc_type t = p->t;
  size_t M = (size_t)p->m, N = (size_t)p->n, L = p->axis == 0 ? N : M;
  buf *x = reduce_input(c, t, P * M * N);
  buf *o = reduce_output(c, t, 3 * P * L), *idx = lang_output(c, TTC_TYPE_I32, 2 * P * L, 0);
  for (size_t q = 0; q < P; q++)
    for (size_t i = 0; i < L; i++) {
      double r[3];
      int32_t ix[2];
      if (p->axis == 0)
        reduce_ref(x, q * M * N + i, N, M, r, ix); /* column i */
      else
        reduce_ref(x, q * M * N + i * N, 1, N, r, ix); /* row i */
      for (size_t k = 0; k < 3; k++)
        lang_set_f(o, o->ref, (3 * q + k) * L + i, r[k]);
      ((int32_t *)idx->ref)[(2 * q) * L + i] = ix[0];
      ((int32_t *)idx->ref)[(2 * q + 1) * L + i] = ix[1];
    }
  if (!lang_upload(c)) return;
  char sig[128];
  snprintf(sig, sizeof sig, "*%s,*%s,*i32,%d,%d,%d", lang_tn(t), lang_tn(t), p->m, p->n, p->axis);
  ttc_arg a[] = {lang_arg(x), lang_arg(o), lang_arg(idx)};
  if (lang_run(c, "table.py", "reduce2d_kernel", sig, P, 1, 1, a, 3)) lang_check(c);
}

/* ---- cumsum: 2-D along each axis (m > 0) or 1-D (m == 0) ---------------------- */

static void case_cumsum(lctx *c, const lparams *p) {
  ttc_type t = p->t;
  bool is_1d = p->m == 0;
  size_t M = is_1d ? 1 : (size_t)p->m, N = (size_t)p->n;
  /* along the axis: `len` elements `step` apart; `lines` such lines */
  size_t len = p->axis == 0 && !is_1d ? M : N, step = p->axis == 0 && !is_1d ? N : 1;
  size_t lines = M * N / len;
  buf *x =
      t == TTC_TYPE_F32 ? lang_input(c, t, M * N, -1, 1) : lang_input(c, t, M * N, -1000, 1000);
  buf *f =
      t == TTC_TYPE_F32 ? lang_output_tol(c, t, M * N, 1e-4, 1e-5) : lang_output(c, t, M * N, 0);
  buf *r =
      t == TTC_TYPE_F32 ? lang_output_tol(c, t, M * N, 1e-4, 1e-5) : lang_output(c, t, M * N, 0);
  for (size_t l = 0; l < lines; l++) {
    size_t base = step == 1 ? l * N : l; /* row l, or column l */
    double s = 0, u = 0;
    for (size_t k = 0; k < len; k++) {
      size_t i = base + k * step, j = base + (len - 1 - k) * step;
      s += lang_get_f(x, x->host, i);
      u += lang_get_f(x, x->host, j);
      lang_set_f(f, f->ref, i, s);
      lang_set_f(r, r->ref, j, u);
    }
  }
  if (!lang_upload(c)) return;
  char sig[128];
  const char *tn = lang_tn(t);
  ttc_arg a[] = {lang_arg(x), lang_arg(f), lang_arg(r)};
  if (is_1d) {
    snprintf(sig, sizeof sig, "*%s,*%s,*%s,%d", tn, tn, tn, p->n);
    if (lang_run(c, "table.py", "cumsum1d_kernel", sig, 1, 1, 1, a, 3)) lang_check(c);
  } else {
    snprintf(sig, sizeof sig, "*%s,*%s,*%s,%d,%d,%d", tn, tn, tn, p->m, p->n, p->axis);
    if (lang_run(c, "table.py", "cumsum_kernel", sig, 1, 1, 1, a, 3)) lang_check(c);
  }
}

/* ---- dot A x B + f32 -> f32 (control.py dot_kernel) ----------------------------- */

/* A in p->t, B in p->t2: f16 x f16, or any two fp8 types. Products are exact
 * in f32; K sums of |terms| <= 4 round to ~K * 4 * 2^-24 in f32, and the
 * tensor cores add fp8 products with fewer bits than f32 keeps. */
static void case_dot(lctx *c, const lparams *p) {
  size_t M = (size_t)p->m, N = (size_t)p->n, K = (size_t)p->k;
  buf *a = lang_input(c, p->t, M * K, -2, 2), *b = lang_input(c, p->t2, K * N, -2, 2);
  buf *c0 = lang_input(c, TTC_TYPE_F32, M * N, -1, 1);
  bool fp8 = lang_type_size(p->t) == 1;
  buf *o =
      lang_output_tol(c, TTC_TYPE_F32, M * N, fp8 ? 1e-3 * (double)K : 2e-4, fp8 ? 1e-3 : 1e-5);
  for (size_t i = 0; i < M; i++)
    for (size_t j = 0; j < N; j++) {
      double s = ((float *)c0->host)[i * N + j];
      for (size_t k = 0; k < K; k++)
        s += lang_get_f(a, a->host, i * K + k) * lang_get_f(b, b->host, k * N + j);
      ((float *)o->ref)[i * N + j] = (float)s;
    }
  if (!lang_upload(c)) return;
  char sig[128];
  snprintf(sig, sizeof sig, "*%s,*%s,*fp32,*fp32,%d,%d,%d", lang_tn(p->t), lang_tn(p->t2), p->m,
           p->n, p->k);
  ttc_arg args[] = {lang_arg(a), lang_arg(b), lang_arg(c0), lang_arg(o)};
  if (lang_run(c, "control.py", "dot_kernel", sig, 1, 1, 1, args, 4)) lang_check(c);
}

/* ---- dot f64 x f64 + f64 -> f64 (control.py ddot_kernel) ----------------------- */

/* Triton's dot of f64 operands gives f64 (FMA, in any order of K): the
 * reference sums in double too, so only the order of the K sums differs. */
static void case_ddot(lctx *c, const lparams *p) {
  size_t M = (size_t)p->m, N = (size_t)p->n, K = (size_t)p->k;
  buf *a = lang_input(c, TTC_TYPE_F64, M * K, -2, 2),
      *b = lang_input(c, TTC_TYPE_F64, K * N, -2, 2);
  buf *c0 = lang_input(c, TTC_TYPE_F64, M * N, -1, 1);
  buf *o = lang_output_tol(c, TTC_TYPE_F64, M * N, 1e-13 * (double)K, 1e-13);
  for (size_t i = 0; i < M; i++)
    for (size_t j = 0; j < N; j++) {
      double s = ((double *)c0->host)[i * N + j];
      for (size_t k = 0; k < K; k++)
        s += ((double *)a->host)[i * K + k] * ((double *)b->host)[k * N + j];
      ((double *)o->ref)[i * N + j] = s;
    }
  if (!lang_upload(c)) return;
  char sig[128];
  snprintf(sig, sizeof sig, "*fp64,*fp64,*fp64,*fp64,%d,%d,%d", p->m, p->n, p->k);
  ttc_arg args[] = {lang_arg(a), lang_arg(b), lang_arg(c0), lang_arg(o)};
  if (lang_run(c, "control.py", "ddot_kernel", sig, 1, 1, 1, args, 4)) lang_check(c);
}

/* ---- dot i8 x i8 -> i32, plus C (control.py idot_kernel), exact ------------------ */

static void case_idot(lctx *c, const lparams *p) {
  size_t M = (size_t)p->m, N = (size_t)p->n, K = (size_t)p->k;
  buf *a = lang_input(c, TTC_TYPE_I8, M * K, 0, 0), *b = lang_input(c, TTC_TYPE_I8, K * N, 0, 0);
  buf *c0 = lang_input(c, TTC_TYPE_I32, M * N, -1000, 1000);
  buf *o = lang_output(c, TTC_TYPE_I32, M * N, 0);
  for (size_t i = 0; i < M; i++)
    for (size_t j = 0; j < N; j++) {
      int64_t s = lang_get_i(c0, c0->host, i * N + j);
      for (size_t k = 0; k < K; k++)
        s += lang_get_i(a, a->host, i * K + k) * lang_get_i(b, b->host, k * N + j);
      ((int32_t *)o->ref)[i * N + j] = (int32_t)s;
    }
  if (!lang_upload(c)) return;
  char sig[128];
  snprintf(sig, sizeof sig, "*i8,*i8,*i32,*i32,%d,%d,%d", p->m, p->n, p->k);
  ttc_arg args[] = {lang_arg(a), lang_arg(b), lang_arg(c0), lang_arg(o)};
  if (lang_run(c, "control.py", "idot_kernel", sig, 1, 1, 1, args, 4)) lang_check(c);
}

/* ---- f32 -> fp8e4nv, fp8e5 and back (control.py f8cvt_kernel) ------------------ */

/* Rounding to nearest even, saturation at the largest finite value (448,
 * 57344; infinities too), subnormals, signed zeros, against an oracle that
 * searches every fp8 code. */
static void case_f8cvt(lctx *c, const lparams *p) {
  enum { N = 256 };
  static const double special[] = {0.0,
                                   -0.0,
                                   448.0,
                                   464.0,
                                   465.0,
                                   480.0,
                                   1e6,
                                   -1e6,
                                   57344.0,
                                   61440.0,
                                   1e30,
                                   INFINITY,
                                   -INFINITY,
                                   0.001953125,
                                   0.0009765625,
                                   0.0029296875,
                                   1.0625,
                                   1.1875,
                                   -1.0625,
                                   3.0517578125e-05,
                                   1.52587890625e-05,
                                   2.288818359375e-05,
                                   1.125,
                                   1.375};
  buf *x = lang_input(c, TTC_TYPE_F32, N, -600, 600);
  for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
    ((float *)x->host)[i] = (float)special[i];
  for (size_t i = 64; i < 128; i++) /* small magnitudes: subnormals and ties */
    ((float *)x->host)[i] = (float)(ldexp(lang_rnd_unit(c) - 0.5, -(int)(i % 16)));
  buf *e4 = lang_output(c, TTC_TYPE_FP8E4NV, N, 0), *e5 = lang_output(c, TTC_TYPE_FP8E5, N, 0);
  buf *back = lang_output(c, TTC_TYPE_F32, N, 0);
  for (size_t i = 0; i < N; i++) {
    double v = ((float *)x->host)[i];
    uint8_t b4 = lang_fp8_encode(v, false), b5 = lang_fp8_encode(v, true);
    ((uint8_t *)e4->ref)[i] = b4;
    ((uint8_t *)e5->ref)[i] = b5;
    ((float *)back->ref)[i] =
        (float)(lang_fp8_decode(b4, false) + lang_fp8_decode(b5, true) * 1024.0);
  }
  if (!lang_upload(c)) return;
  char sig[64];
  snprintf(sig, sizeof sig, "*fp32,*fp8e4nv,*fp8e5,*fp32,%d", N);
  ttc_arg args[] = {lang_arg(x), lang_arg(e4), lang_arg(e5), lang_arg(back)};
  if (lang_run(c, "control.py", "f8cvt_kernel", sig, 1, 1, 1, args, 4)) lang_check(c);
  (void)p;
}

/* ---- f32 -> f16, bf16 toward zero (control.py rtz_kernel) --------------------- */

/* The value rounded to nearest even, stepped one code toward zero when that
 * rounded away from it (so large values stop at the largest finite). */
static uint16_t rtz_encode(double x, int eb, int mb) {
  uint16_t h = lang_half_encode(x, eb, mb);
  double r = lang_half_decode(h, eb, mb);
  return !isnan(x) && fabs(r) > fabs(x) ? (uint16_t)(h - 1) : h;
}

static void case_rtz(lctx *c, const lparams *p) {
  enum { N = 256 };
  static const float special[] = {
      0.0f,     -0.0f,     1.0f,  -1.0f,  65504.0f, 65519.0f,       1e6f,          -1e6f,
      INFINITY, -INFINITY, 1e-8f, -1e-8f, 3.4e38f,  1.00048828125f, 1.0009765625f, -1.00048828125f};
  buf *x = lang_input(c, TTC_TYPE_F32, N, -100, 100);
  for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
    ((float *)x->host)[i] = special[i];
  for (size_t i = 64; i < 128; i++) /* small magnitudes, f16 subnormals among them */
    ((float *)x->host)[i] = (float)ldexp(lang_rnd_unit(c) - 0.5, -(int)(i % 24));
  buf *h = lang_output(c, TTC_TYPE_F16, N, 0), *b = lang_output(c, TTC_TYPE_BF16, N, 0);
  for (size_t i = 0; i < N; i++) {
    double v = ((float *)x->host)[i];
    ((uint16_t *)h->ref)[i] = rtz_encode(v, 5, 10);
    ((uint16_t *)b->ref)[i] = rtz_encode(v, 8, 7);
  }
  if (!lang_upload(c)) return;
  char sig[64];
  snprintf(sig, sizeof sig, "*fp32,*fp16,*bf16,%d", N);
  ttc_arg args[] = {lang_arg(x), lang_arg(h), lang_arg(b)};
  if (lang_run(c, "control.py", "rtz_kernel", sig, 1, 1, 1, args, 3)) lang_check(c);
  (void)p;
}

/* ---- casts from p->t to all twelve types (table.py cast_all_kernel) ------------- */

/* The exact value of element i of an integer buffer as a double rounded to
 * the float type dst once (64-bit sources: through C's own conversion). */
static double int_to_float(const buf *x, size_t i, ttc_type dst) {
  int64_t v = lang_get_i(x, x->host, i);
  if (dst == TTC_TYPE_F32)
    return x->type == TTC_TYPE_U64 ? (double)(float)(uint64_t)v : (double)(float)v;
  double d = x->type == TTC_TYPE_U64 ? (double)(uint64_t)v : (double)v;
  return lang_round_to(dst, d);
}

static void case_cast(lctx *c, const lparams *p) {
  ttc_type t = p->t;
  size_t n = 1000;
  bool fl = lang_is_float(t);
  buf *x8, *x16, *x32;
  if (fl) { /* in range of the integer targets they feed (bf16 rounds up to 2^(w-8) away) */
    x8 = lang_input(c, t, n, -120, 120);
    x16 = lang_input(c, t, n, -32000, 32000);
    double big = t == TTC_TYPE_F16 ? 65000 : 2e9;
    x32 = lang_input(c, t, n, -big, big);
  } else {
    x8 = lang_input(c, t, n, 0, 0);
    x16 = lang_input(c, t, n, fmax(int_min(t), -65503), fmin(int_max(t) + 1, 65504));
    x32 = lang_input(c, t, n, 0, 0);
  }
  buf *o[NTYPES];
  for (size_t k = 0; k < NTYPES; k++)
    o[k] = lang_output(c, all_types[k], n, 0);
  for (size_t k = 0; k < NTYPES; k++) {
    ttc_type d = all_types[k];
    unsigned w = (unsigned)lang_type_size(d) * 8;
    /* as the kernel reads them: 8- and 16-bit integer targets and fp16 from x8 / x16 */
    const buf *src = lang_is_float(d) ? (d == TTC_TYPE_F16 ? x16 : x32)
                     : w == 8         ? x8
                     : w == 16        ? x16
                                      : x32;
    for (size_t i = 0; i < n; i++) {
      if (!fl && lang_is_float(d))
        lang_set_f(o[k], o[k]->ref, i, int_to_float(src, i, d));
      else if (!fl)
        lang_set_i(o[k], o[k]->ref, i, lang_get_i(src, src->host, i));
      else if (lang_is_float(d))
        lang_set_f(o[k], o[k]->ref, i, lang_get_f(src, src->host, i));
      else {
        double v = lang_get_f(src, src->host, i);
        if (!lang_is_signed(d)) v = fabs(v);
        lang_set_i(o[k], o[k]->ref, i, (int64_t)trunc(v));
      }
    }
  }
  if (!lang_upload(c)) return;
  char sig[256];
  const char *tn = lang_tn(t);
  int len = snprintf(sig, sizeof sig, "*%s,*%s,*%s", tn, tn, tn);
  for (size_t k = 0; k < NTYPES; k++)
    len += snprintf(sig + len, sizeof sig - (size_t)len, ",*%s", lang_tn(all_types[k]));
  snprintf(sig + len, sizeof sig - (size_t)len, ",i32,128");
  ttc_arg a[3 + NTYPES + 1];
  a[0] = lang_arg(x8), a[1] = lang_arg(x16), a[2] = lang_arg(x32);
  for (size_t k = 0; k < NTYPES; k++)
    a[3 + k] = lang_arg(o[k]);
  a[3 + NTYPES] = ttc_arg_i32((int32_t)n);
  if (lang_run(c, "table.py", "cast_all_kernel", sig, (unsigned)(n + 127) / 128, 1, 1, a,
               3 + NTYPES + 1))
    lang_check(c);
}

/* ---- math2_kernel: more f32 math against libm in double ------------------------- */

static void case_math2(lctx *c, const lparams *lp) {
  size_t n = 1000;
  buf *x = lang_input(c, TTC_TYPE_F32, n, -1.5, 1.5), *y = lang_input(c, TTC_TYPE_F32, n, 0.5, 2);
  /* ex2 / lg2 / rsqrt approximations and div.full: a few ulp (2^-22 relative) */
  buf *o = lang_output(c, TTC_TYPE_F32, 8 * n, 2e-6);
  for (size_t i = 0; i < n; i++) {
    float v = ((float *)x->host)[i], w = ((float *)y->host)[i];
    float v2 = v + 2.0f; /* the kernel adds in f32 first */
    double r[8] = {exp2(v),
                   log2(v2),
                   1 / sqrt(v2),
                   sqrtf(v2),
                   erf(v),
                   ceil((double)(v * 4.0f)),
                   1 / (1 + exp(-(double)v)),
                   (double)v / w};
    for (size_t k = 0; k < 8; k++)
      lang_set_f(o, o->ref, k * n + i, r[k]);
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(y), lang_arg(o), ttc_arg_i32((int32_t)n)};
  if (lang_run(c, "table.py", "math2_kernel", "*fp32,*fp32,*fp32,i32,128", 8, 1, 1, a, 4))
    lang_check(c);
}

/* f64 math through libdevice (elementwise.py math_ops on fp64 pointers). */
static void case_math_f64(lctx *c, const lparams *lp) {
  size_t n = 1000;
  buf *x = lang_input(c, TTC_TYPE_F64, n, -1.5, 1.5);
  buf *o = lang_output(c, TTC_TYPE_F64, 8 * n, 1e-14); /* libdevice: within 2 ulp */
  for (size_t i = 0; i < n; i++) {
    double v = ((double *)x->host)[i];
    double r[8] = {exp(v), log(v + 2),        sqrt(v + 2),  sin(v),
                   cos(v), 1 / (1 + exp(-v)), floor(v * 4), fma(v, v, v)};
    for (size_t k = 0; k < 8; k++)
      lang_set_f(o, o->ref, k * n + i, r[k]);
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(o), ttc_arg_i32((int32_t)n)};
  if (lang_run(c, "elementwise.py", "math_ops", "*fp64,*fp64,i32,128", 8, 1, 1, a, 3))
    lang_check(c);
}

/* ---- random_kernel: Philox 4x32-10 as Triton's random.py ------------------------- */

static void philox(uint64_t seed, uint32_t ctr[4]) {
  uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
  for (int r = 0; r < 10; r++) {
    uint32_t c0 = ctr[0], c2 = ctr[2];
    ctr[0] = (uint32_t)(((uint64_t)0xCD9E8D57u * c2) >> 32) ^ ctr[1] ^ k0;
    ctr[2] = (uint32_t)(((uint64_t)0xD2511F53u * c0) >> 32) ^ ctr[3] ^ k1;
    ctr[1] = 0xCD9E8D57u * c2;
    ctr[3] = 0xD2511F53u * c0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
}

/* uint_to_uniform_float: |x| as int32 (x < 0: -x - 1), to f32, times 2^-31. */
static float to_uniform(uint32_t u) {
  int32_t x = (int32_t)u;
  if (x < 0) x = (int32_t) ~(uint32_t)x;
  return (float)x * 4.6566127342e-10f;
}

/* lp->variant 0: an i32 seed; 1: an i64 seed (both halves of the key used). */
static void case_random(lctx *c, const lparams *lp) {
  size_t n = 1000;
  int64_t seed = lp->variant ? 0x123456789abll : 12345;
  buf *ri = lang_output(c, TTC_TYPE_U32, n, 0), *ru = lang_output(c, TTC_TYPE_F32, n, 0);
  /* r = sqrt(-2 log u1) <= 5.7 times an approximate cos: 1e-6 absolute each */
  buf *rn = lang_output_tol(c, TTC_TYPE_F32, n, 5e-5, 1e-4);
  for (size_t i = 0; i < n; i++) {
    uint32_t ctr[4] = {(uint32_t)i, 0, 0, 0};
    philox((uint64_t)seed, ctr);
    ((uint32_t *)ri->ref)[i] = ctr[0];
    ((float *)ru->ref)[i] = to_uniform(ctr[0]);
    float u1 = fmaxf(1.0e-7f, to_uniform(ctr[0])),
          th = (float)6.283185307179586 * to_uniform(ctr[1]);
    ((float *)rn->ref)[i] = (float)(sqrt(-2.0 * log((double)u1)) * cos((double)th));
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(ri), lang_arg(ru), lang_arg(rn),
                 lp->variant ? ttc_arg_i64(seed) : ttc_arg_i32((int32_t)seed),
                 ttc_arg_i32((int32_t)n)};
  const char *sig = lp->variant ? "*u32,*fp32,*fp32,i64,i32,128" : "*u32,*fp32,*fp32,i32,i32,128";
  if (lang_run(c, "table.py", "random_kernel", sig, 8, 1, 1, a, 5)) lang_check(c);
}

/* ---- the table ------------------------------------------------------------------ */

void lang_cases_table(lcase_list *l) {
  lparams p;
  static const int blocks[] = {32, 128, 1024};
  for (size_t ti = 0; ti < NTYPES; ti++)
    for (size_t bi = 0; bi < 3; bi++)
      for (size_t wi = 0; wi < 3; wi++) {
        memset(&p, 0, sizeof p);
        p.t = all_types[ti], p.block = blocks[bi];
        lang_add(l, case_binop, &p, warp_counts[wi], "binop_%s_b%d_w%d", lang_tn(p.t), p.block,
                 warp_counts[wi]);
      }
  static const ttc_type floats[] = {TTC_TYPE_F16, TTC_TYPE_BF16, TTC_TYPE_F32, TTC_TYPE_F64};
  for (size_t ti = 0; ti < 4; ti++)
    for (size_t wi = 0; wi < 3; wi += 2) {
      memset(&p, 0, sizeof p);
      p.t = floats[ti];
      lang_add(l, case_minmax, &p, warp_counts[wi], "minmax_nan_%s_w%d", lang_tn(p.t),
               warp_counts[wi]);
    }
  static const ttc_type red_types[] = {TTC_TYPE_F32, TTC_TYPE_I32};
  static const int red_blocks[] = {32, 256, 1024};
  static const int shapes2d[][2] = {{4, 64}, {32, 32}, {64, 8}};
  for (size_t ti = 0; ti < 2; ti++)
    for (size_t wi = 0; wi < 3; wi++) {
      int w = warp_counts[wi];
      memset(&p, 0, sizeof p);
      p.t = red_types[ti];
      for (size_t bi = 0; bi < 3; bi++) {
        p.block = red_blocks[bi];
        lang_add(l, case_reduce1d, &p, w, "reduce1d_%s_%d_w%d", lang_tn(p.t), p.block, w);
      }
      for (size_t si = 0; si < 3; si++)
        for (int axis = 0; axis < 2; axis++) {
          p.m = shapes2d[si][0], p.n = shapes2d[si][1], p.axis = axis;
          lang_add(l, case_reduce2d, &p, w, "reduce2d_%s_%dx%d_axis%d_w%d", lang_tn(p.t), p.m, p.n,
                   axis, w);
        }
      static const int scan2d[][2] = {{8, 32}, {32, 8}};
      for (size_t si = 0; si < 2; si++)
        for (int axis = 0; axis < 2; axis++) {
          p.m = scan2d[si][0], p.n = scan2d[si][1], p.axis = axis;
          lang_add(l, case_cumsum, &p, w, "cumsum_%s_%dx%d_axis%d_w%d", lang_tn(p.t), p.m, p.n,
                   axis, w);
        }
      static const int scan1d[] = {32, 1024};
      for (size_t si = 0; si < 2; si++) {
        p.m = 0, p.n = scan1d[si], p.axis = 0;
        lang_add(l, case_cumsum, &p, w, "cumsum1d_%s_%d_w%d", lang_tn(p.t), p.n, w);
      }
    }
  static const int dots[][3] = {{16, 16, 16}, {32, 32, 32}, {64, 64, 32}};
  for (size_t di = 0; di < 3; di++)
    for (size_t wi = 0; wi < 3; wi++) {
      memset(&p, 0, sizeof p);
      p.m = dots[di][0], p.n = dots[di][1], p.k = dots[di][2];
      p.t = p.t2 = TTC_TYPE_F16;
      lang_add(l, case_dot, &p, warp_counts[wi], "dot_f16_%dx%dx%d_w%d", p.m, p.n, p.k,
               warp_counts[wi]);
    }
  static const int ddots[][3] = {{16, 16, 16}, {32, 64, 16}};
  for (size_t di = 0; di < 2; di++) {
    memset(&p, 0, sizeof p);
    p.m = ddots[di][0], p.n = ddots[di][1], p.k = ddots[di][2];
    lang_add(l, case_ddot, &p, 4, "dot_f64_%dx%dx%d_w4", p.m, p.n, p.k);
  }
  static const int idots[][3] = {{32, 32, 32}, {64, 64, 64}};
  for (size_t di = 0; di < 2; di++) {
    memset(&p, 0, sizeof p);
    p.m = idots[di][0], p.n = idots[di][1], p.k = idots[di][2];
    lang_add(l, case_idot, &p, 4, "dot_i8_%dx%dx%d_w4", p.m, p.n, p.k);
  }
  static const int f8dots[][4] = {{32, 32, 32, 4}, {64, 64, 64, 4}, {128, 128, 64, 8}};
  static const ttc_type f8[2] = {TTC_TYPE_FP8E4NV, TTC_TYPE_FP8E5};
  for (size_t di = 0; di < 3; di++)
    for (int ta = 0; ta < 2; ta++)
      for (int tb = 0; tb < 2; tb++) {
        memset(&p, 0, sizeof p);
        p.m = f8dots[di][0], p.n = f8dots[di][1], p.k = f8dots[di][2];
        p.t = f8[ta], p.t2 = f8[tb];
        lang_add(l, case_dot, &p, f8dots[di][3], "dot_%s_%s_%dx%dx%d_w%d", lang_tn(p.t),
                 lang_tn(p.t2), p.m, p.n, p.k, f8dots[di][3]);
      }
  memset(&p, 0, sizeof p);
  lang_add(l, case_f8cvt, &p, 4, "cvt_f32_fp8");
  lang_add(l, case_rtz, &p, 4, "cvt_f32_rtz");
  for (size_t ti = 0; ti < NTYPES; ti++) {
    memset(&p, 0, sizeof p);
    p.t = all_types[ti];
    lang_add(l, case_cast, &p, 0, "cast_from_%s", lang_tn(p.t));
  }
  lang_add(l, case_math2, NULL, 0, "math2_f32");
  lang_add(l, case_math_f64, NULL, 0, "math_f64");
  memset(&p, 0, sizeof p);
  lang_add(l, case_random, &p, 0, "random_seed_i32");
  p.variant = 1;
  lang_add(l, case_random, &p, 0, "random_seed_i64");
}
