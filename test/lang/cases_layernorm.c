/* cases_layernorm.c - the tutorial kernels as language cases: layer norm
 * forward and backward (layernorm.py; fp32 and fp16 inputs) against
 * double-precision references, and the examples' vector add, row softmax
 * and grouped matmul over shapes and num_warps. Tolerances are stated at
 * each case: the kernels sum in fp32 in an order of their own. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lang.h"

#define LN_EPS 1e-5f

/* Row means and 1 / sqrt(var + eps) of an M x N matrix, in double. */
static void ln_stats(const buf *x, size_t M, size_t N, double *mean, double *rstd) {
  for (size_t r = 0; r < M; r++) {
    double s = 0, v = 0;
    for (size_t j = 0; j < N; j++)
      s += lang_get_f(x, x->host, r * N + j);
    s /= (double)N;
    for (size_t j = 0; j < N; j++) {
      double d = lang_get_f(x, x->host, r * N + j) - s;
      v += d * d;
    }
    mean[r] = s;
    rstd[r] = 1 / sqrt(v / (double)N + (double)LN_EPS);
  }
}

/* Forward: p->t inputs and output, M = p->m rows of N = p->n, BLOCK_SIZE = p->block. */
static void case_ln_fwd(lctx *c, const lparams *p) {
  ttc_type t = p->t;
  size_t M = (size_t)p->m, N = (size_t)p->n;
  bool half = t == TTC_TYPE_F16;
  buf *x = lang_input(c, t, M * N, -3, 1), *w = lang_input(c, t, N, 0.5, 1.5);
  buf *b = lang_input(c, t, N, -0.5, 0.5);
  /* y: fp32 sums of up to 3000 terms (~1e-6 relative); fp16: one rounding (4.9e-4) more */
  buf *y =
      half ? lang_output_tol(c, t, M * N, 2e-3, 2e-3) : lang_output_tol(c, t, M * N, 5e-5, 5e-5);
  buf *mo = lang_output_tol(c, TTC_TYPE_F32, M, 1e-5, 1e-5);
  buf *ro = lang_output_tol(c, TTC_TYPE_F32, M, 1e-5, 1e-4);
  double mean[64], rstd[64];
  if (M > 64) {
    lang_fail(c, "test bug: too many rows");
    return;
  }
  ln_stats(x, M, N, mean, rstd);
  for (size_t r = 0; r < M; r++) {
    lang_set_f(mo, mo->ref, r, mean[r]);
    lang_set_f(ro, ro->ref, r, rstd[r]);
    for (size_t j = 0; j < N; j++)
      lang_set_f(y, y->ref, r * N + j,
                 (lang_get_f(x, x->host, r * N + j) - mean[r]) * rstd[r] *
                         lang_get_f(w, w->host, j) +
                     lang_get_f(b, b->host, j));
  }
  if (!lang_upload(c)) return;
  char sig[160];
  const char *tn = lang_tn(t);
  snprintf(sig, sizeof sig, "*%s,*%s,*%s,*%s,*fp32,*fp32,i32,i32,fp32,%d", tn, tn, tn, tn,
           p->block);
  ttc_arg a[] = {lang_arg(x),
                 lang_arg(y),
                 lang_arg(w),
                 lang_arg(b),
                 lang_arg(mo),
                 lang_arg(ro),
                 ttc_arg_i32((int32_t)N),
                 ttc_arg_i32((int32_t)N),
                 ttc_arg_f32(LN_EPS)};
  if (lang_run(c, "layernorm.py", "_layer_norm_fwd_fused", sig, (unsigned)M, 1, 1, a, 9))
    lang_check(c);
}

/* Backward. p->variant 0: the tutorial's locked accumulation of GROUP_SIZE_M
 * = p->k partial rows; 1: one fp32 partial row per input row, checked too.
 * Then _layer_norm_bwd_dwdb sums the partial rows. BLOCK_SIZE_N = p->block. */
static void case_ln_bwd(lctx *c, const lparams *p) {
  ttc_type t = p->t;
  size_t M = (size_t)p->m, N = (size_t)p->n, G = p->variant ? M : (size_t)p->k;
  bool half = t == TTC_TYPE_F16, locked = p->variant == 0;
  const char *tn = lang_tn(t);
  buf *x = lang_input(c, t, M * N, -3, 1), *dy = lang_input(c, t, M * N, -1, 1);
  buf *w = lang_input(c, t, N, 0.5, 1.5);
  buf *mb = lang_buf(c, TTC_TYPE_F32, M), *rb = lang_buf(c, TTC_TYPE_F32, M);
  /* dx: fp32 row sums (~1e-6 relative); fp16: one rounding more */
  buf *dx =
      half ? lang_output_tol(c, t, M * N, 2e-3, 2e-3) : lang_output_tol(c, t, M * N, 1e-4, 1e-4);
  /* partial rows: the lock's order makes them order-dependent, so they are
   * checked only in the lock-free variant (fp32, one product per element) */
  ttc_type pt = locked ? t : TTC_TYPE_F32;
  buf *pdw = locked ? lang_buf(c, pt, G * N) : lang_output_tol(c, pt, G * N, 1e-5, 1e-5);
  buf *pdb = locked ? lang_buf(c, pt, G * N) : lang_output(c, pt, G * N, 0);
  buf *lock = lang_buf(c, TTC_TYPE_I32, 2 * G);
  /* dw, db: sums over M rows; fp16 partials add up in fp16 under the lock */
  buf *dw = half ? lang_output_tol(c, t, N, 2e-2, 1e-2) : lang_output_tol(c, t, N, 1e-4, 1e-4);
  buf *db = half ? lang_output_tol(c, t, N, 2e-2, 1e-2) : lang_output_tol(c, t, N, 1e-4, 1e-4);
  double mean[64], rstd[64];
  if (M > 64) {
    lang_fail(c, "test bug: too many rows");
    return;
  }
  ln_stats(x, M, N, mean, rstd);
  for (size_t r = 0; r < M; r++) { /* the kernel reads fp32 mean / rstd: use those */
    ((float *)mb->host)[r] = (float)mean[r];
    ((float *)rb->host)[r] = (float)rstd[r];
  }
  double sdw[4096] = {0}, sdb[4096] = {0};
  if (N > 4096) {
    lang_fail(c, "test bug: too many columns");
    return;
  }
  for (size_t r = 0; r < M; r++) {
    double mu = ((float *)mb->host)[r], rs = ((float *)rb->host)[r], c1 = 0, c2 = 0;
    for (size_t j = 0; j < N; j++) {
      double xh = (lang_get_f(x, x->host, r * N + j) - mu) * rs;
      double wdy = lang_get_f(w, w->host, j) * lang_get_f(dy, dy->host, r * N + j);
      c1 += xh * wdy;
      c2 += wdy;
    }
    c1 /= (double)N, c2 /= (double)N;
    for (size_t j = 0; j < N; j++) {
      double g = lang_get_f(dy, dy->host, r * N + j);
      double xh = (lang_get_f(x, x->host, r * N + j) - mu) * rs,
             wdy = lang_get_f(w, w->host, j) * g;
      lang_set_f(dx, dx->ref, r * N + j, (wdy - (xh * c1 + c2)) * rs);
      if (!locked) {
        lang_set_f(pdw, pdw->ref, r * N + j, g * xh);
        lang_set_f(pdb, pdb->ref, r * N + j, g);
      }
      sdw[j] += g * xh;
      sdb[j] += g;
    }
  }
  for (size_t j = 0; j < N; j++) {
    lang_set_f(dw, dw->ref, j, sdw[j]);
    lang_set_f(db, db->ref, j, sdb[j]);
  }
  if (!lang_upload(c)) return;
  char sig[200];
  bool ran;
  if (locked) {
    snprintf(sig, sizeof sig, "*%s,*%s,*%s,*%s,*%s,*%s,*fp32,*fp32,*i32,i32,i32,%d,%d", tn, tn, tn,
             tn, tn, tn, (int)G, p->block);
    ttc_arg a[] = {lang_arg(dx),
                   lang_arg(dy),
                   lang_arg(pdw),
                   lang_arg(pdb),
                   lang_arg(x),
                   lang_arg(w),
                   lang_arg(mb),
                   lang_arg(rb),
                   lang_arg(lock),
                   ttc_arg_i32((int32_t)N),
                   ttc_arg_i32((int32_t)N)};
    ran = lang_run(c, "layernorm.py", "_layer_norm_bwd_dx_fused", sig, (unsigned)M, 1, 1, a, 11);
  } else {
    snprintf(sig, sizeof sig, "*%s,*%s,*fp32,*fp32,*%s,*%s,*fp32,*fp32,i32,i32,%d", tn, tn, tn, tn,
             p->block);
    ttc_arg a[] = {lang_arg(dx),           lang_arg(dy), lang_arg(pdw),
                   lang_arg(pdb),          lang_arg(x),  lang_arg(w),
                   lang_arg(mb),           lang_arg(rb), ttc_arg_i32((int32_t)N),
                   ttc_arg_i32((int32_t)N)};
    ran = lang_run(c, "layernorm.py", "_layer_norm_bwd_dx_rows", sig, (unsigned)M, 1, 1, a, 10);
  }
  if (!ran) return;
  snprintf(sig, sizeof sig, "*%s,*%s,*%s,*%s,i32,i32,32,128", lang_tn(pt), lang_tn(pt), tn, tn);
  ttc_arg a2[] = {lang_arg(pdw), lang_arg(pdb),           lang_arg(dw),
                  lang_arg(db),  ttc_arg_i32((int32_t)G), ttc_arg_i32((int32_t)N)};
  if (lang_run(c, "layernorm.py", "_layer_norm_bwd_dwdb", sig, (unsigned)(N + 127) / 128, 1, 1, a2,
               6))
    lang_check(c);
}

/* ---- the examples' kernels ------------------------------------------------------ */

#define EXAMPLES "../../examples/"

static void case_vector_add(lctx *c, const lparams *p) {
  size_t n = (size_t)p->n;
  buf *x = lang_input(c, TTC_TYPE_F32, n, -1, 1), *y = lang_input(c, TTC_TYPE_F32, n, -1, 1);
  buf *o = lang_output(c, TTC_TYPE_F32, n, 0);
  for (size_t i = 0; i < n; i++)
    ((float *)o->ref)[i] = ((float *)x->host)[i] + ((float *)y->host)[i];
  if (!lang_upload(c)) return;
  char sig[64];
  snprintf(sig, sizeof sig, "*fp32,*fp32,*fp32,i32,%d", p->block);
  ttc_arg a[] = {lang_arg(x), lang_arg(y), lang_arg(o), ttc_arg_i32((int32_t)n)};
  if (lang_run(c, EXAMPLES "vector_add/vector_add.py", "add_kernel", sig,
               (unsigned)((n + (size_t)p->block - 1) / (size_t)p->block), 1, 1, a, 4))
    lang_check(c);
}

/* Row softmax of m x n (BLOCK_SIZE = p->block >= n). exp is ex2.approx on
 * the GPU and the division div.full: a few ulp, so rtol 1e-5. */
static void case_softmax(lctx *c, const lparams *p) {
  size_t R = (size_t)p->m, C = (size_t)p->n;
  buf *x = lang_input(c, TTC_TYPE_F32, R * C, -4, 4);
  buf *o = lang_output_tol(c, TTC_TYPE_F32, R * C, 1e-9, 1e-5);
  for (size_t r = 0; r < R; r++) {
    const float *v = (const float *)x->host + r * C;
    double mx = -INFINITY, s = 0;
    for (size_t j = 0; j < C; j++)
      mx = fmax(mx, v[j]);
    for (size_t j = 0; j < C; j++)
      s += exp(v[j] - mx);
    for (size_t j = 0; j < C; j++)
      ((float *)o->ref)[r * C + j] = (float)(exp(v[j] - mx) / s);
  }
  if (!lang_upload(c)) return;
  char sig[64];
  snprintf(sig, sizeof sig, "*fp32,*fp32,i32,i32,i32,%d", p->block);
  ttc_arg a[] = {lang_arg(o), lang_arg(x), ttc_arg_i32((int32_t)C), ttc_arg_i32((int32_t)C),
                 ttc_arg_i32((int32_t)C)};
  if (lang_run(c, EXAMPLES "softmax/softmax.py", "softmax_kernel", sig, (unsigned)R, 1, 1, a, 5))
    lang_check(c);
}

/* Grouped matmul, fp16 in, fp32 accumulation, fp16 out. m, n, k; block
 * sizes in lparams.block (BLOCK_M = BLOCK_N), axis (BLOCK_K), variant (GROUP_M). */
static void case_matmul(lctx *c, const lparams *p) {
  size_t M = (size_t)p->m, N = (size_t)p->n, K = (size_t)p->k;
  int bm = p->block, bn = p->block, bk = p->axis, g = p->variant;
  buf *a = lang_input(c, TTC_TYPE_F16, M * K, -1, 1),
      *b = lang_input(c, TTC_TYPE_F16, K * N, -1, 1);
  /* one fp16 rounding of an fp32 sum of K exact products: 2^-11 relative */
  buf *o = lang_output_tol(c, TTC_TYPE_F16, M * N, 1e-3, 2e-3);
  for (size_t i = 0; i < M; i++)
    for (size_t j = 0; j < N; j++) {
      double s = 0;
      for (size_t k = 0; k < K; k++)
        s += lang_get_f(a, a->host, i * K + k) * lang_get_f(b, b->host, k * N + j);
      lang_set_f(o, o->ref, i * N + j, s);
    }
  if (!lang_upload(c)) return;
  char sig[128];
  snprintf(sig, sizeof sig, "*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32,%d,%d,%d,%d", bm,
           bn, bk, g);
  ttc_arg args[] = {lang_arg(a),
                    lang_arg(b),
                    lang_arg(o),
                    ttc_arg_i32((int32_t)M),
                    ttc_arg_i32((int32_t)N),
                    ttc_arg_i32((int32_t)K),
                    ttc_arg_i32((int32_t)K),
                    ttc_arg_i32(1),
                    ttc_arg_i32((int32_t)N),
                    ttc_arg_i32(1),
                    ttc_arg_i32((int32_t)N),
                    ttc_arg_i32(1)};
  unsigned grid =
      (unsigned)(((M + (size_t)bm - 1) / (size_t)bm) * ((N + (size_t)bn - 1) / (size_t)bn));
  if (lang_run(c, EXAMPLES "matmul/matmul.py", "matmul_kernel", sig, grid, 1, 1, args, 12))
    lang_check(c);
}

/* The examples first; the spin-lock kernels last (a hang on a GPU then
 * still leaves every other result printed). */
void lang_cases_layernorm(lcase_list *l) {
  lparams p;
  memset(&p, 0, sizeof p);
  p.n = 98432, p.block = 1024;
  lang_add(l, case_vector_add, &p, 4, "example_vector_add_98432");
  static const int sm[][3] = {{16, 32, 32}, {8, 100, 128}, {4, 1000, 1024}, {3, 1823, 2048}};
  static const int warps[] = {1, 4, 8};
  for (size_t i = 0; i < 4; i++)
    for (size_t w = 0; w < 3; w++) {
      memset(&p, 0, sizeof p);
      p.m = sm[i][0], p.n = sm[i][1], p.block = sm[i][2];
      lang_add(l, case_softmax, &p, warps[w], "example_softmax_%dx%d_w%d", p.m, p.n, warps[w]);
    }
  static const int mm[][8] = {
      {64, 64, 64, 32, 32, 1, 4}, {100, 72, 40, 32, 16, 2, 4}, {128, 96, 64, 64, 32, 4, 8}};
  for (size_t i = 0; i < 3; i++) {
    memset(&p, 0, sizeof p);
    p.m = mm[i][0], p.n = mm[i][1], p.k = mm[i][2], p.block = mm[i][3], p.axis = mm[i][4];
    p.variant = mm[i][5];
    lang_add(l, case_matmul, &p, mm[i][6], "example_matmul_%dx%dx%d_w%d", p.m, p.n, p.k, mm[i][6]);
  }
  static const struct {
    ttc_type t;
    int m, n, block, warps;
  } fwd[] = {{TTC_TYPE_F32, 32, 1000, 1024, 4},
             {TTC_TYPE_F32, 16, 3000, 1024, 8},
             {TTC_TYPE_F32, 8, 100, 128, 1},
             {TTC_TYPE_F16, 32, 1000, 1024, 4},
             {TTC_TYPE_F16, 16, 777, 256, 2}};
  for (size_t i = 0; i < sizeof fwd / sizeof fwd[0]; i++) {
    memset(&p, 0, sizeof p);
    p.t = fwd[i].t, p.m = fwd[i].m, p.n = fwd[i].n, p.block = fwd[i].block;
    lang_add(l, case_ln_fwd, &p, fwd[i].warps, "layernorm_fwd_%s_%dx%d_b%d_w%d", lang_tn(p.t), p.m,
             p.n, p.block, fwd[i].warps);
  }
  static const struct {
    ttc_type t;
    int m, n, group, block, warps, rows;
  } bwd[] = {{TTC_TYPE_F32, 64, 1000, 0, 1024, 4, 1},
             {TTC_TYPE_F16, 48, 777, 0, 1024, 8, 1},
             {TTC_TYPE_F32, 64, 1000, 16, 1024, 4, 0},
             {TTC_TYPE_F16, 64, 777, 8, 1024, 8, 0},
             {TTC_TYPE_F32, 37, 100, 4, 128, 1, 0}};
  for (size_t i = 0; i < sizeof bwd / sizeof bwd[0]; i++) {
    memset(&p, 0, sizeof p);
    p.t = bwd[i].t, p.m = bwd[i].m, p.n = bwd[i].n, p.k = bwd[i].group, p.block = bwd[i].block;
    p.variant = bwd[i].rows;
    if (bwd[i].rows)
      lang_add(l, case_ln_bwd, &p, bwd[i].warps, "layernorm_bwd_rows_%s_%dx%d_w%d", lang_tn(p.t),
               p.m, p.n, bwd[i].warps);
    else
      lang_add(l, case_ln_bwd, &p, bwd[i].warps, "layernorm_bwd_lock_%s_%dx%d_g%d_w%d",
               lang_tn(p.t), p.m, p.n, p.k, bwd[i].warps);
  }
}
