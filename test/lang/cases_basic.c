// SPDX-License-Identifier: MIT
/* cases_basic.c - one language test case per feature: elementwise ops of
 * every type, math, masks, casts, program ids, loops, reductions, scans,
 * transposes, dot and atomics, each against a plain C reference; a
 * deliberately wrong kernel that must be caught; and the interpreter's
 * out-of-bounds report. Kernels: elementwise.py, control.py, atomics.py. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lang.h"

#define N_ELEMS 1000 /* not a multiple of BLOCK: the last program is masked */
#define BLOCK 128
#define GRID ((N_ELEMS + BLOCK - 1) / BLOCK)

static void case_add(lctx *c, const char *kernel) {
  buf *x = lang_input(c, TTC_TYPE_F32, N_ELEMS, -1, 1),
      *y = lang_input(c, TTC_TYPE_F32, N_ELEMS, -1, 1);
  buf *o = lang_output(c, TTC_TYPE_F32, N_ELEMS, 0);
  for (size_t i = 0; i < N_ELEMS; i++)
    ((float *)o->ref)[i] = ((float *)x->host)[i] + ((float *)y->host)[i];
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(y), lang_arg(o), ttc_arg_i32(N_ELEMS)};
  if (lang_run(c, "elementwise.py", kernel, "*fp32,*fp32,*fp32,i32,128", GRID, 1, 1, a, 4))
    lang_check(c);
}
static void case_add_f32(lctx *c, const lparams *lp) {
  case_add(c, lp->variant ? "wrong_add_kernel" : "add_kernel");
}

/* x op y at the type's width: wraparound, truncating division. */
static int64_t int_ref(int op, ttc_type t, int64_t x, int64_t y, int64_t s) {
  unsigned w = (unsigned)lang_type_size(t) * 8;
  uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
  switch (op) {
  case 0: return (int64_t)(ux + uy);
  case 1: return (int64_t)(ux - uy);
  case 2: return (int64_t)(ux * uy);
  case 3: return lang_is_signed(t) ? x / y : (int64_t)(ux / uy);
  case 4: return lang_is_signed(t) ? x % y : (int64_t)(ux % uy);
  case 5: return x & y;
  case 6: return x | y;
  case 7: return x ^ y;
  case 8: return lang_is_signed(t) ? (x > y ? x : y) : (ux > uy ? x : y);
  case 9: return lang_is_signed(t) ? (x < y ? x : y) : (ux < uy ? x : y);
  case 10: return (lang_is_signed(t) ? x < y : ux < uy) ? x : (int64_t)(uy + uy);
  case 11: return (int64_t)(ux << s);
  default: /* >> : arithmetic for signed (x is sign-extended), logical for unsigned */
    if (lang_is_signed(t)) return x >> s;
    return (int64_t)((w == 64 ? ux : ux & ((1ull << w) - 1)) >> s);
  }
}

/* -|x| compared with constants and stored (a ptxas folding bug's shape). */
static void case_neg_abs(lctx *c, const lparams *lp) {
  (void)lp;
  size_t n = N_ELEMS;
  buf *x = lang_input(c, TTC_TYPE_I32, n, -40, 40);
  buf *o = lang_output(c, TTC_TYPE_I32, 4 * n, 0);
  int32_t *xs = x->host, *ref = o->ref;
  xs[0] = INT32_MIN; /* -|INT_MIN| wraps to INT_MIN */
  for (size_t i = 0; i < n; i++) {
    int32_t y = (int32_t)(0u - (uint32_t)(xs[i] < 0 ? 0u - (uint32_t)xs[i] : (uint32_t)xs[i]));
    ref[i] = y > -17;
    ref[n + i] = y == -5;
    ref[2 * n + i] = y < -30;
    ref[3 * n + i] = y;
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(o), ttc_arg_i32((int32_t)n)};
  if (lang_run(c, "elementwise.py", "neg_abs_kernel", "*i32,*i32,i32,128", GRID, 1, 1, a, 3))
    lang_check(c);
}

static void case_int_ops(lctx *c, const lparams *lp) {
  ttc_type t = lp->t;
  size_t n = N_ELEMS;
  buf *x = lang_input(c, t, n, 0, 0), *y = lang_input(c, t, n, 0, 0);
  unsigned w = (unsigned)lang_type_size(t) * 8;
  buf *s = lang_input(c, t, n, 0, w);
  for (size_t i = 0; i < n; i++) { /* no division by 0, no MIN / -1 */
    int64_t yi = lang_get_i(y, y->host, i);
    if (yi == 0 || yi == -1) lang_set_i(y, y->host, i, 3);
  }
  buf *o = lang_output(c, t, 13 * n, 0);
  for (int op = 0; op < 13; op++)
    for (size_t i = 0; i < n; i++)
      lang_set_i(o, o->ref, op * n + i,
                 int_ref(op, t, lang_get_i(x, x->host, i), lang_get_i(y, y->host, i),
                         lang_get_i(s, s->host, i)));
  if (!lang_upload(c)) return;
  char sig[128];
  const char *tn = ttc_type_name(t);
  snprintf(sig, sizeof sig, "*%s,*%s,*%s,*%s,i32,128", tn, tn, tn, tn);
  ttc_arg a[] = {lang_arg(x), lang_arg(y), lang_arg(s), lang_arg(o), ttc_arg_i32((int32_t)n)};
  if (lang_run(c, "elementwise.py", "int_ops", sig, GRID, 1, 1, a, 5)) lang_check(c);
}

/* Exactly rounded float ops: the reference rounds the double result once. */
static void case_float_ops(lctx *c, const lparams *lp) {
  ttc_type t = lp->t;
  size_t n = N_ELEMS;
  buf *x = lang_input(c, t, n, -8, 8), *y = lang_input(c, t, n, 0.25, 8);
  buf *o = lang_output(c, t, 7 * n, 0);
  for (size_t i = 0; i < n; i++) {
    double a = lang_get_f(x, x->host, i), b = lang_get_f(y, y->host, i);
    if (t == TTC_TYPE_F32) { /* float arithmetic, as C does it */
      float fa = (float)a, fb = (float)b;
      lang_set_f(o, o->ref, i, fa + fb);
      lang_set_f(o, o->ref, n + i, fa - fb);
      lang_set_f(o, o->ref, 2 * n + i, fa * fb);
      lang_set_f(o, o->ref, 3 * n + i, fa / fb);
    } else {
      lang_set_f(o, o->ref, i, a + b);
      lang_set_f(o, o->ref, n + i, a - b);
      lang_set_f(o, o->ref, 2 * n + i, a * b);
      lang_set_f(o, o->ref, 3 * n + i, a / b);
    }
    lang_set_f(o, o->ref, 4 * n + i, fmax(a, b));
    lang_set_f(o, o->ref, 5 * n + i, a < b ? -a : b);
    lang_set_f(o, o->ref, 6 * n + i, fabs(a));
  }
  if (!lang_upload(c)) return;
  char sig[128];
  const char *tn = ttc_type_name(t);
  snprintf(sig, sizeof sig, "*%s,*%s,*%s,i32,128", tn, tn, tn);
  ttc_arg a[] = {lang_arg(x), lang_arg(y), lang_arg(o), ttc_arg_i32((int32_t)n)};
  if (lang_run(c, "elementwise.py", "float_ops", sig, GRID, 1, 1, a, 4)) lang_check(c);
}

static void case_math(lctx *c, const lparams *lp) {
  size_t n = N_ELEMS;
  buf *x = lang_input(c, TTC_TYPE_F32, n, -1.5, 1.5);
  buf *o = lang_output(c, TTC_TYPE_F32, 8 * n, 2e-6);
  for (size_t i = 0; i < n; i++) {
    double v = ((float *)x->host)[i];
    double r[8] = {exp(v),
                   log(v + 2),
                   sqrt(v + 2),
                   sin(v),
                   cos(v),
                   1 / (1 + exp(-v)),
                   floor((double)(float)(v * 4)),
                   fma(v, v, v)};
    for (int k = 0; k < 8; k++)
      lang_set_f(o, o->ref, k * n + i, r[k]);
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(o), ttc_arg_i32((int32_t)n)};
  if (lang_run(c, "elementwise.py", "math_ops", "*fp32,*fp32,i32,128", GRID, 1, 1, a, 3))
    lang_check(c);
}

static void case_other(lctx *c, const lparams *lp) {
  buf *x = lang_input(c, TTC_TYPE_F32, N_ELEMS, -4, 4);
  buf *o = lang_output(c, TTC_TYPE_F32, GRID * BLOCK, 0);
  for (size_t i = 0; i < GRID * BLOCK; i++)
    ((float *)o->ref)[i] = i < N_ELEMS ? ((float *)x->host)[i] * 2.0f : -14.0f;
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(o), ttc_arg_i32(N_ELEMS)};
  if (lang_run(c, "elementwise.py", "other_kernel", "*fp32,*fp32,i32,128", GRID, 1, 1, a, 3))
    lang_check(c);
}

static void case_casts(lctx *c, const lparams *lp) {
  size_t n = N_ELEMS;
  buf *x = lang_input(c, TTC_TYPE_F32, n, -70000, 70000),
      *iv = lang_input(c, TTC_TYPE_I32, n, 0, 0);
  buf *h = lang_output(c, TTC_TYPE_F16, n, 0), *bf = lang_output(c, TTC_TYPE_BF16, n, 0);
  buf *xi = lang_output(c, TTC_TYPE_I32, n, 0), *fi = lang_output(c, TTC_TYPE_F32, n, 0);
  for (size_t i = 0; i < n; i++) {
    float v = ((float *)x->host)[i];
    lang_set_f(h, h->ref, i, v);
    lang_set_f(bf, bf->ref, i, v);
    ((int32_t *)xi->ref)[i] = (int32_t)v;
    ((float *)fi->ref)[i] = (float)((int32_t *)iv->host)[i];
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x),  lang_arg(iv),           lang_arg(h), lang_arg(bf), lang_arg(xi),
                 lang_arg(fi), ttc_arg_i32((int32_t)n)};
  if (lang_run(c, "elementwise.py", "cast_kernel", "*fp32,*i32,*fp16,*bf16,*i32,*fp32,i32,128",
               GRID, 1, 1, a, 7))
    lang_check(c);
}

static void case_program_ids(lctx *c, const lparams *lp) {
  buf *o = lang_output(c, TTC_TYPE_I32, 4 * 3 * 2, 0);
  for (int z = 0; z < 2; z++)
    for (int y = 0; y < 3; y++)
      for (int x = 0; x < 4; x++)
        ((int32_t *)o->ref)[(z * 3 + y) * 4 + x] = x + 10 * y + 100 * z + 1000 * 9;
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(o)};
  if (lang_run(c, "control.py", "pid_kernel", "*i32", 4, 3, 2, a, 1)) lang_check(c);
}

static void case_loops(lctx *c, const lparams *lp) {
  size_t n = 500;
  int K = 5;
  buf *x = lang_input(c, TTC_TYPE_F32, n * (size_t)K, -2, 2);
  buf *o = lang_output(c, TTC_TYPE_F32, n, 0);
  for (size_t i = 0; i < n; i++) {
    float acc = 0;
    for (int k = 0; k < K; k++)
      acc += ((float *)x->host)[(size_t)k * n + i];
    ((float *)o->ref)[i] = acc * 2.0f * 2.0f * 2.0f + 1.0f;
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(o), ttc_arg_i32((int32_t)n), ttc_arg_i32(K)};
  if (lang_run(c, "control.py", "loop_kernel", "*fp32,*fp32,i32,i32,128", 4, 1, 1, a, 4))
    lang_check(c);
}

static void case_reduce(lctx *c, const lparams *lp) {
  enum { R = 16, C = 32, P = 3 };
  buf *x = lang_input(c, TTC_TYPE_F32, P * R * C, -4, 4);
  buf *rs = lang_output(c, TTC_TYPE_F32, P * R, 1e-5), *rm = lang_output(c, TTC_TYPE_F32, P * R, 0);
  buf *cs = lang_output(c, TTC_TYPE_F32, P * C, 1e-5);
  const float *v = x->host;
  for (int p = 0; p < P; p++) {
    for (int r = 0; r < R; r++) {
      double s = 0, m = -INFINITY;
      for (int k = 0; k < C; k++)
        s += v[(p * R + r) * C + k], m = fmax(m, v[(p * R + r) * C + k]);
      ((float *)rs->ref)[p * R + r] = (float)s;
      ((float *)rm->ref)[p * R + r] = (float)m;
    }
    for (int k = 0; k < C; k++) {
      double s = 0;
      for (int r = 0; r < R; r++)
        s += v[(p * R + r) * C + k];
      ((float *)cs->ref)[p * C + k] = (float)s;
    }
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(rs), lang_arg(rm), lang_arg(cs)};
  if (lang_run(c, "control.py", "reduce_kernel", "*fp32,*fp32,*fp32,*fp32,16,32", P, 1, 1, a, 4))
    lang_check(c);
}

static void case_int_reduce(lctx *c, const lparams *lp) {
  enum { B = 256, P = 4 };
  buf *x = lang_input(c, TTC_TYPE_I32, B * P, 0, 0), *o = lang_output(c, TTC_TYPE_I32, 2 * P, 0);
  for (int p = 0; p < P; p++) {
    uint32_t s = 0;
    int32_t m = INT32_MAX;
    for (int i = 0; i < B; i++) {
      int32_t v = ((int32_t *)x->host)[p * B + i];
      s += (uint32_t)v;
      m = v < m ? v : m;
    }
    ((int32_t *)o->ref)[2 * p] = (int32_t)s;
    ((int32_t *)o->ref)[2 * p + 1] = m;
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(o)};
  if (lang_run(c, "control.py", "ireduce_kernel", "*i32,*i32,256", P, 1, 1, a, 2)) lang_check(c);
}

static void case_scan(lctx *c, const lparams *lp) {
  enum { R = 8, C = 32 };
  buf *x = lang_input(c, TTC_TYPE_I32, R * C, -1000, 1000);
  buf *f = lang_output(c, TTC_TYPE_I32, R * C, 0), *b = lang_output(c, TTC_TYPE_I32, R * C, 0);
  for (int r = 0; r < R; r++) {
    int32_t s = 0, t = 0;
    for (int k = 0; k < C; k++) {
      s += ((int32_t *)x->host)[r * C + k];
      ((int32_t *)f->ref)[r * C + k] = s;
      t += ((int32_t *)x->host)[r * C + C - 1 - k];
      ((int32_t *)b->ref)[r * C + C - 1 - k] = t;
    }
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(f), lang_arg(b)};
  if (lang_run(c, "control.py", "scan_kernel", "*i32,*i32,*i32,8,32", 1, 1, 1, a, 3)) lang_check(c);
}

static void case_trans(lctx *c, const lparams *lp) {
  enum { M = 16, N = 32 };
  buf *x = lang_input(c, TTC_TYPE_F32, M * N, -4, 4), *o = lang_output(c, TTC_TYPE_F32, M * N, 0);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      ((float *)o->ref)[j * M + i] = ((float *)x->host)[i * N + j];
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(o)};
  if (lang_run(c, "control.py", "trans_kernel", "*fp32,*fp32,16,32", 1, 1, 1, a, 2)) lang_check(c);
}

static void case_dot(lctx *c, const lparams *lp) {
  enum { M = 16, N = 32, K = 16 };
  buf *a = lang_input(c, TTC_TYPE_F16, M * K, -2, 2),
      *b = lang_input(c, TTC_TYPE_F16, K * N, -2, 2);
  buf *c0 = lang_input(c, TTC_TYPE_F32, M * N, -1, 1),
      *o = lang_output(c, TTC_TYPE_F32, M * N, 1e-5);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double s = ((float *)c0->host)[i * N + j];
      for (int k = 0; k < K; k++)
        s += lang_get_f(a, a->host, i * K + k) * lang_get_f(b, b->host, k * N + j);
      ((float *)o->ref)[i * N + j] = (float)s;
    }
  if (!lang_upload(c)) return;
  ttc_arg args[] = {lang_arg(a), lang_arg(b), lang_arg(c0), lang_arg(o)};
  if (lang_run(c, "control.py", "dot_kernel", "*fp16,*fp16,*fp32,*fp32,16,32,16", 1, 1, 1, args, 4))
    lang_check(c);
}

static void case_atomics(lctx *c, const lparams *lp) {
  size_t n = N_ELEMS;
  buf *x = lang_input(c, TTC_TYPE_I32, n, -100000, 100000),
      *f = lang_input(c, TTC_TYPE_F32, n, -1, 1);
  buf *s = lang_output(c, TTC_TYPE_I32, 4, 0), *m = lang_output(c, TTC_TYPE_I32, 1, 0);
  buf *fs = lang_output(c, TTC_TYPE_F32, 4, 1e-5);
  memset(s->host, 0, 16); /* accumulators start at 0 (and INT_MIN for max) */
  memset(fs->host, 0, 16);
  ((int32_t *)m->host)[0] = INT32_MIN;
  double fsum[4] = {0, 0, 0, 0};
  int32_t mx = INT32_MIN;
  for (size_t i = 0; i < n; i++) {
    int32_t v = ((int32_t *)x->host)[i];
    ((int32_t *)s->ref)[i % 4] += v;
    mx = v > mx ? v : mx;
    fsum[i % 4] += ((float *)f->host)[i];
  }
  ((int32_t *)m->ref)[0] = mx;
  for (int k = 0; k < 4; k++)
    ((float *)fs->ref)[k] = (float)fsum[k];
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(f),  lang_arg(s),
                 lang_arg(m), lang_arg(fs), ttc_arg_i32((int32_t)n)};
  if (lang_run(c, "atomics.py", "atomic_kernel", "*i32,*fp32,*i32,*i32,*fp32,i32,128", GRID, 1, 1,
               a, 6))
    lang_check(c);
}

static void case_cas(lctx *c, const lparams *lp) {
  enum { P = 16 };
  buf *slot = lang_output(c, TTC_TYPE_I32, P, 0), *old = lang_output(c, TTC_TYPE_I32, P, 0);
  for (int p = 0; p < P; p++) {
    ((int32_t *)slot->host)[p] = p % 3; /* 0: swapped to 7; else kept */
    ((int32_t *)slot->ref)[p] = p % 3 ? p % 3 : 7;
    ((int32_t *)old->ref)[p] = p % 3;
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(slot), lang_arg(old)};
  if (lang_run(c, "atomics.py", "cas_kernel", "*i32,*i32", P, 1, 1, a, 2)) lang_check(c);
}

/* Interpreter only: program 3 stores 16 KiB past the buffer. */
static void case_out_of_bounds(lctx *c, const lparams *lp) {
  buf *o = lang_output(c, TTC_TYPE_I32, 4 * BLOCK, 0);
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(o)};
  ttc_status st = lang_launch(c, "elementwise.py", "oob_kernel", "*i32,128", 4, 1, 1, a, 1);
  char want[128];
  snprintf(want, sizeof want, "elementwise.py:%d:5 in program (3, 0, 0)",
           lang_line_of(c, "elementwise.py", "(pid == 3) * 4096"));
  const char *msg = ttc_device_error(c->dev);
  if (st != TTC_ERROR_OUT_OF_BOUNDS)
    lang_fail(c, "status %s, expected out-of-bounds", ttc_status_string(st));
  else if (!strstr(msg, "out-of-bounds store at ") || !strstr(msg, want))
    lang_fail(c, "message lacks '%s': %s", want, msg);
  else if (!strstr(msg, "bytes past the end of a 2048-byte allocation"))
    lang_fail(c, "message lacks the offset: %s", msg);
}

void lang_cases_basic(lcase_list *l) {
  lparams p;
  memset(&p, 0, sizeof p);
  lang_add(l, case_add_f32, &p, 0, "add_f32");
  p.variant = 1;
  lcase *w = lang_add(l, case_add_f32, &p, 0, "wrong_kernel_is_caught");
  if (w) w->expect_mismatch = true;
  p.variant = 0;
  static const ttc_type ints[] = {TTC_TYPE_I8, TTC_TYPE_I16, TTC_TYPE_I32, TTC_TYPE_I64,
                                  TTC_TYPE_U8, TTC_TYPE_U16, TTC_TYPE_U32, TTC_TYPE_U64};
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
    p.t = ints[i];
    lang_add(l, case_int_ops, &p, 0, "int_ops_%s", lang_tn(ints[i]));
  }
  static const ttc_type floats[] = {TTC_TYPE_F16, TTC_TYPE_BF16, TTC_TYPE_F32, TTC_TYPE_F64};
  for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++) {
    p.t = floats[i];
    lang_add(l, case_float_ops, &p, 0, "float_ops_%s", lang_tn(floats[i]));
  }
  lang_add(l, case_neg_abs, NULL, 0, "neg_abs_cmp");
  lang_add(l, case_math, NULL, 0, "math_f32");
  lang_add(l, case_other, NULL, 0, "mask_other");
  lang_add(l, case_casts, NULL, 0, "casts");
  lang_add(l, case_program_ids, NULL, 0, "program_ids_3d");
  lang_add(l, case_loops, NULL, 0, "loops_while_if");
  lang_add(l, case_reduce, NULL, 0, "reduce_f32");
  lang_add(l, case_int_reduce, NULL, 0, "reduce_i32");
  lang_add(l, case_scan, NULL, 0, "scan_i32");
  lang_add(l, case_trans, NULL, 0, "trans_reshape");
  lang_add(l, case_dot, NULL, 0, "dot_f16");
  lang_add(l, case_atomics, NULL, 0, "atomics");
  lang_add(l, case_cas, NULL, 0, "atomic_cas");
  lcase *o = lang_add(l, case_out_of_bounds, NULL, 0, "out_of_bounds_report");
  if (o) o->interp_only = true;
}
