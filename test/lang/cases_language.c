// SPDX-License-Identifier: MIT
/* cases_language.c - the language surface of whole-module kernel files
 * (language.py): sort / topk / flip / gather / histogram / cat, block
 * pointers and tensor descriptors, libdevice by name and debug_barrier,
 * imports from a sibling module and a package, string / dtype / None
 * constexprs with @triton.constexpr_function, and pointers passed as
 * integers. References in plain C; random inputs with duplicates and
 * negative numbers where order matters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"

static int cmp_f32(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return x < y ? -1 : x > y;
}
static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return x < y ? -1 : x > y;
}

/* Rows of 16 (or 32) floats sorted up or down, one row per program. */
static void case_sort(lctx *c, const lparams *p) {
  int n = p->n, rows = 5;
  bool desc = p->variant;
  buf *x = lang_input(c, TTC_TYPE_F32, (size_t)(rows * n), -4, 4);
  for (int i = 0; i < rows * n; i += 7)
    ((float *)x->host)[i] = -0.5f; /* ties */
  buf *o = lang_output(c, TTC_TYPE_F32, (size_t)(rows * n), 0);
  float *r = o->ref;
  memcpy(r, x->host, sizeof(float) * (size_t)(rows * n));
  for (int i = 0; i < rows; i++) {
    qsort(r + i * n, (size_t)n, sizeof(float), cmp_f32);
    for (int k = 0; desc && k < n / 2; k++) {
      float t = r[i * n + k];
      r[i * n + k] = r[i * n + n - 1 - k];
      r[i * n + n - 1 - k] = t;
    }
  }
  if (!lang_upload(c)) return;
  char sig[64];
  snprintf(sig, sizeof sig, "*fp32,*fp32,%d,%s", n, desc ? "True" : "False");
  ttc_arg a[] = {lang_arg(x), lang_arg(o)};
  if (lang_run(c, "language.py", "sort_kernel", sig, (unsigned)rows, 1, 1, a, 2)) lang_check(c);
}

/* A 4 x 16 int tile: rows sorted, then each row's 4 largest. */
static void case_sort2d_topk(lctx *c, const lparams *p) {
  enum { R = 4, N = 16 };
  buf *x = lang_input(c, TTC_TYPE_I32, R * N, -50, 50);
  buf *o = lang_output(c, TTC_TYPE_I32, R * N + R * 4, 0);
  int32_t *r = o->ref;
  memcpy(r, x->host, sizeof(int32_t) * R * N);
  for (int i = 0; i < R; i++) {
    qsort(r + i * N, N, sizeof(int32_t), cmp_i32);
    for (int k = 0; k < 4; k++)
      r[R * N + i * 4 + k] = r[i * N + N - 1 - k];
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(o)};
  if (lang_run(c, "language.py", "sort2d_kernel", "*i32,*i32,4,16", 1, 1, 1, a, 2)) lang_check(c);
}

static void case_flip(lctx *c, const lparams *p) {
  enum { R = 4, N = 16 };
  buf *x = lang_input(c, TTC_TYPE_F32, R * N, -1, 1);
  buf *o = lang_output(c, TTC_TYPE_F32, 2 * R * N, 0);
  const float *xs = x->host;
  float *r = o->ref;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < N; j++) {
      r[i * N + j] = xs[i * N + N - 1 - j];
      r[R * N + i * N + j] = xs[(R - 1 - i) * N + j];
    }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(o)};
  if (lang_run(c, "language.py", "flip_kernel", "*fp32,*fp32,4,16", 1, 1, 1, a, 2)) lang_check(c);
}

static void case_gather(lctx *c, const lparams *p) {
  enum { R = 4, N = 16 };
  buf *x = lang_input(c, TTC_TYPE_F32, R * N, -1, 1);
  buf *col = lang_input(c, TTC_TYPE_I32, R * N, 0, N);
  buf *row = lang_input(c, TTC_TYPE_I32, R * N, 0, R);
  buf *o = lang_output(c, TTC_TYPE_F32, 2 * R * N, 0);
  const float *xs = x->host;
  const int32_t *cs = col->host, *rs = row->host;
  float *r = o->ref;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < N; j++) {
      r[i * N + j] = xs[i * N + cs[i * N + j]];
      r[R * N + i * N + j] = xs[rs[i * N + j] * N + j];
    }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(col), lang_arg(row), lang_arg(o)};
  if (lang_run(c, "language.py", "gather_kernel", "*fp32,*i32,*i32,*fp32,4,16", 1, 1, 1, a, 4))
    lang_check(c);
}

/* Values in [-2, 20): the negative ones and those past B are not counted. */
static void case_histogram(lctx *c, const lparams *p) {
  enum { N = 64, B = 16 };
  buf *x = lang_input(c, TTC_TYPE_I32, N, -2, 20);
  buf *o = lang_output(c, TTC_TYPE_I32, B, 0);
  for (int i = 0; i < N; i++) {
    int32_t v = ((int32_t *)x->host)[i];
    if (v >= 0 && v < B) ((int32_t *)o->ref)[v]++;
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(o)};
  if (lang_run(c, "language.py", "histogram_kernel", "*i32,*i32,64,16", 1, 1, 1, a, 2))
    lang_check(c);
}

static void case_cat(lctx *c, const lparams *p) {
  enum { N = 16 };
  buf *x = lang_input(c, TTC_TYPE_F32, N, -8, 8);
  for (int i = 0; i < N; i++) /* exact sums: multiples of 1/4 */
    ((float *)x->host)[i] = roundf(((float *)x->host)[i] * 4) / 4;
  buf *o = lang_output(c, TTC_TYPE_F32, 2, 0);
  float sum = 0, mx = -INFINITY;
  for (int i = 0; i < N; i++) {
    float v = ((float *)x->host)[i];
    sum += v + 2 * v;
    mx = fmaxf(mx, fmaxf(v, 2 * v));
  }
  ((float *)o->ref)[0] = sum;
  ((float *)o->ref)[1] = mx;
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(o)};
  if (lang_run(c, "language.py", "cat_kernel", "*fp32,*fp32,16", 1, 1, 1, a, 2)) lang_check(c);
}

/* A 37 x 45 matrix (row stride 48): neither dimension a multiple of 16. */
static void case_block_ptr(lctx *c, const lparams *p) {
  enum { M = 37, N = 45, S = 48, B = 16 };
  buf *x = lang_input(c, TTC_TYPE_F32, M * S, -1, 1);
  for (int i = 0; i < M * S; i++) /* exact sums */
    ((float *)x->host)[i] = roundf(((float *)x->host)[i] * 8) / 8;
  buf *o = lang_output(c, TTC_TYPE_F32, M, 0);
  for (int i = 0; i < M; i++) {
    float s = 0;
    for (int j = 0; j < N; j++)
      s += ((float *)x->host)[i * S + j];
    ((float *)o->ref)[i] = s;
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(o), ttc_arg_i32(M), ttc_arg_i32(N), ttc_arg_i32(S)};
  if (lang_run(c, "language.py", "block_ptr_kernel", "*fp32,*fp32,i32,i32,i32,16,16",
               (M + B - 1) / B, 1, 1, a, 5))
    lang_check(c);
}

static void case_descriptor(lctx *c, const lparams *p) {
  enum { M = 37, N = 45, B = 16 };
  buf *x = lang_input(c, TTC_TYPE_F32, M * N, -1, 1);
  buf *o = lang_output(c, TTC_TYPE_F32, M * N, 0);
  for (int i = 0; i < M * N; i++)
    ((float *)o->ref)[i] = 2 * ((float *)x->host)[i];
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(o), ttc_arg_i32(M), ttc_arg_i32(N)};
  if (lang_run(c, "language.py", "descriptor_kernel", "*fp32,*fp32,i32,i32,16,16", (M + B - 1) / B,
               (N + B - 1) / B, 1, a, 4))
    lang_check(c);
}

/* The same through descriptors passed as arguments (base, shape, strides):
 * rows of N = 45 in a pitch of P = 48 (a descriptor's strides are 16-byte
 * multiples); the output descriptor spans the whole pitch, so its last three
 * columns read the input's zero padding. */
static void case_descriptor_arg(lctx *c, const lparams *p) {
  enum { M = 37, N = 45, P = 48, B = 16 };
  buf *x = lang_input(c, TTC_TYPE_F32, M * P, -1, 1);
  buf *o = lang_output(c, TTC_TYPE_F32, M * P, 0);
  for (int i = 0; i < M * P; i++)
    ((float *)o->ref)[i] = i % P < N ? ((float *)x->host)[i] + 1 : 1;
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), ttc_arg_i32(M), ttc_arg_i32(N), ttc_arg_i64(P), ttc_arg_i64(1),
                 lang_arg(o), ttc_arg_i32(M), ttc_arg_i32(P), ttc_arg_i64(P), ttc_arg_i64(1)};
  if (lang_run(c, "language.py", "descriptor_arg_kernel",
               "tensordesc<fp32[16, 16]>,tensordesc<fp32[16,16]>,16,16", (M + B - 1) / B,
               (P + B - 1) / B, 1, a, 10))
    lang_check(c);
}

static void case_libdevice(lctx *c, const lparams *p) {
  enum { N = 1000, B = 128 };
  buf *x = lang_input(c, TTC_TYPE_F32, N, -3, 3);
  ((float *)x->host)[5] = NAN;
  buf *o = lang_output_tol(c, TTC_TYPE_F32, 4 * N, 1e-6, 4e-6);
  for (int i = 0; i < N; i++) {
    double v = ((float *)x->host)[i];
    float *r = o->ref;
    r[i] = (float)tanh(v);
    r[N + i] = (float)pow(v, 3.0);
    r[2 * N + i] = (float)erfc(v);
    r[3 * N + i] = isnan(v) ? 1.0f : 0.0f;
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), lang_arg(o), ttc_arg_i32(N)};
  if (lang_run(c, "language.py", "libdevice_kernel", "*fp32,*fp32,i32,128", (N + B - 1) / B, 1, 1,
               a, 3))
    lang_check(c);
}

/* ACT 'relu' with BIAS 1.5 into fp32, or 'scaled' with BIAS None into fp16. */
static void case_module(lctx *c, const lparams *p) {
  enum { N = 300, B = 128, G = (N + B - 1) / B };
  bool scaled = p->variant;
  ttc_type ot = scaled ? TTC_TYPE_F16 : TTC_TYPE_F32;
  buf *x = lang_input(c, TTC_TYPE_F32, N, -4, 4);
  buf *o = lang_output(c, ot, N + G, 0);
  for (int i = 0; i < N + G; i++) {
    double v = i < N ? ((float *)x->host)[i] : 0;
    double y = i >= N ? B / 2 : scaled ? 2 * (v * 0.5 + 1.0) : 2 * (fmax(v, 0) + 1.5);
    lang_set_f(o, o->ref, (size_t)i, lang_round_to(ot, (float)y));
  }
  if (!lang_upload(c)) return;
  const char *sig = scaled ? "*fp32,*fp16,i32,'scaled',tl.float16,None,128"
                           : "*fp32,*fp32,i32,\"relu\",fp32,1.5,128";
  ttc_arg a[] = {lang_arg(x), lang_arg(o), ttc_arg_i32(N)};
  if (lang_run(c, "language.py", "module_kernel", sig, G, 1, 1, a, 3)) lang_check(c);
}

static void case_int_pointer(lctx *c, const lparams *p) {
  enum { N = 300, B = 128 };
  buf *x = lang_input(c, TTC_TYPE_F32, N, -4, 4);
  buf *o = lang_output(c, TTC_TYPE_F32, N, 0);
  for (int i = 0; i < N; i++)
    ((float *)o->ref)[i] = ((float *)x->host)[i] + 2;
  if (!lang_upload(c)) return;
  ttc_arg a[] = {ttc_arg_i64((int64_t)x->dev), lang_arg(o), ttc_arg_i32(N)};
  if (lang_run(c, "language.py", "int_pointer_kernel", "i64,*fp32,i32,128", (N + B - 1) / B, 1, 1,
               a, 3))
    lang_check(c);
}

/* out = 6x (x times w when w is given) where that is positive, else -1e8. */
static void case_idioms(lctx *c, const lparams *p) {
  enum { N = 300, B = 128 };
  bool weighted = p->variant;
  buf *x = lang_input(c, TTC_TYPE_F32, N, -4, 4);
  buf *w = lang_input(c, TTC_TYPE_F32, N, -1, 1);
  buf *o = lang_output(c, TTC_TYPE_F32, N, 0);
  for (int i = 0; i < N; i++) {
    float v = ((float *)x->host)[i] * (weighted ? ((float *)w->host)[i] : 1.0f);
    ((float *)o->ref)[i] = v > 0 ? 3 * v + 3 * v : -1e8f;
  }
  if (!lang_upload(c)) return;
  ttc_arg a[] = {lang_arg(x), weighted ? lang_arg(w) : ttc_arg_ptr(0), lang_arg(o), ttc_arg_i32(N)};
  if (lang_run(c, "language.py", "idioms_kernel", "*fp32,*fp32,*fp32,i32,128,False",
               (N + B - 1) / B, 1, 1, a, 4))
    lang_check(c);
}

void lang_cases_language(lcase_list *l) {
  lparams p;
  memset(&p, 0, sizeof p);
  for (int n = 16; n <= 32; n *= 2)
    for (int desc = 0; desc < 2; desc++) {
      p.n = n;
      p.variant = desc;
      lang_add(l, case_sort, &p, 0, "sort_f32_%d%s", n, desc ? "_desc" : "");
    }
  lang_add(l, case_sort2d_topk, NULL, 0, "sort2d_topk_i32");
  lang_add(l, case_flip, NULL, 0, "flip_2d");
  lang_add(l, case_gather, NULL, 0, "gather_2d");
  lang_add(l, case_histogram, NULL, 0, "histogram");
  lang_add(l, case_cat, NULL, 0, "cat");
  lang_add(l, case_block_ptr, NULL, 0, "block_ptr_advance");
  lang_add(l, case_descriptor, NULL, 0, "tensor_descriptor");
  lang_add(l, case_descriptor_arg, NULL, 0, "tensor_descriptor_argument");
  lang_add(l, case_libdevice, NULL, 0, "libdevice_barrier");
  p.variant = 0;
  lang_add(l, case_module, &p, 0, "module_imports_relu");
  p.variant = 1;
  lang_add(l, case_module, &p, 0, "module_imports_scaled");
  lang_add(l, case_int_pointer, NULL, 0, "int_pointer");
  p.variant = 0;
  lang_add(l, case_idioms, &p, 0, "idioms_null_weight");
  p.variant = 1;
  lang_add(l, case_idioms, &p, 0, "idioms_weighted");
}
