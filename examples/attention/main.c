// SPDX-License-Identifier: MIT
/* main.c - the attention example: compiles examples/attention/attention.py
 * through libttc at run time, runs the flash-attention forward on random
 * fp16 Q, K, V on the GPU (or on the CPU interpreter), checks the output
 * against a double-precision softmax(Q K^T / sqrt(D)) V computed here (every
 * row, or evenly spaced rows when that would take too long), and reports
 * TFLOP/s.
 *
 * Blocks: BLOCK_M 128, BLOCK_N 64; 4 warps at head dim 64, 8 at 128 (as
 * Triton's tutorial on Hopper). tl.dot runs on the tensor cores.
 *
 * usage: attention [-b HEADS] [-n N_CTX] [-d 64|128] [-c] [kernel.py]
 *   HEADS: batch x heads (default 16), N_CTX a multiple of 128 (default
 *   1024), -c: causal. Exit status: 0 verified, 1 failure or mismatch, 2 no
 *   GPU (and no interpreter). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/example.h"
#include "ttc/ttc.h"

#ifndef TTC_EXAMPLES_DIR
#define TTC_EXAMPLES_DIR "examples"
#endif

#define BLOCK_M 128
#define BLOCK_N 64

/* Largest |out - ref| allowed: the output is rounded to fp16 (2^-11
 * relative on values below 1 in magnitude) and P is rounded to fp16 before
 * the second product (2^-11 relative per term): 1e-2 is 20x the first. */
#define ABS_TOL 1e-2

static const char prog[] = "attention";
static const ex_timing timing = {.warmup = 3, .timed = 20, .interp_timed = 1};

typedef struct shape {
  int32_t heads, n, d;
  int causal;
} shape;

/* Reference work at most this many multiply-adds: larger problems check an
 * evenly spaced sample of rows (every `step`-th row of every head). */
#define REF_BUDGET (1ll << 29)

/* The largest |o - ref| over the checked rows, ref in double from the fp16
 * inputs; non-finite outputs are counted in *nonfinite. */
static double max_error(const uint16_t *q, const uint16_t *k, const uint16_t *v, const uint16_t *o,
                        shape s, int32_t step, int64_t *nonfinite) {
  double *w = malloc((size_t)s.n * sizeof *w), worst = 0;
  *nonfinite = 0;
  if (!w) return INFINITY;
  double scale = 1.0 / sqrt((double)s.d);
  for (int32_t h = 0; h < s.heads; h++) {
    size_t base = (size_t)h * (size_t)s.n * (size_t)s.d;
    for (int32_t i = 0; i < s.n; i += step) {
      int32_t end = s.causal ? i + 1 : s.n;
      double mx = -INFINITY, sum = 0;
      for (int32_t j = 0; j < end; j++) {
        double dotp = 0;
        for (int32_t t = 0; t < s.d; t++)
          dotp += (double)ex_f16_to_f32(q[base + (size_t)i * s.d + t]) *
                  (double)ex_f16_to_f32(k[base + (size_t)j * s.d + t]);
        w[j] = dotp * scale;
        if (w[j] > mx) mx = w[j];
      }
      for (int32_t j = 0; j < end; j++)
        sum += (w[j] = exp(w[j] - mx));
      for (int32_t t = 0; t < s.d; t++) {
        double ref = 0;
        for (int32_t j = 0; j < end; j++)
          ref += w[j] * (double)ex_f16_to_f32(v[base + (size_t)j * s.d + t]);
        ref /= sum;
        double got = ex_f16_to_f32(o[base + (size_t)i * s.d + t]);
        if (!isfinite(got)) {
          (*nonfinite)++;
          continue;
        }
        if (fabs(got - ref) > worst) worst = fabs(got - ref);
      }
    }
  }
  free(w);
  return worst;
}

static int run(ttc_device *dev, ttc_module *mod, shape s) {
  size_t n = (size_t)s.heads * (size_t)s.n * (size_t)s.d;
  uint16_t *h[4] = {malloc(n * 2), malloc(n * 2), malloc(n * 2), malloc(n * 2)};
  uint64_t d[4] = {0, 0, 0, 0};
  int rc = 1;
  ttc_status st = TTC_OK;
  if (!h[0] || !h[1] || !h[2] || !h[3]) {
    fprintf(stderr, "attention: out of host memory\n");
    goto done;
  }
  uint64_t seed = EX_SEED;
  for (int b = 0; b < 3; b++)
    for (size_t i = 0; i < n; i++)
      h[b][i] = ex_f32_to_f16(2.0f * ex_next_float(&seed));
  for (size_t i = 0; i < n; i++)
    h[3][i] = 0x7e00u; /* NaN poison: unwritten rows fail */
  for (int b = 0; b < 4; b++) {
    if ((st = ttc_device_alloc(dev, n * 2, &d[b])) != TTC_OK) {
      rc = ex_fail(prog, dev, st, "allocation");
      goto done;
    }
    if ((st = ttc_device_copy_to(dev, d[b], h[b], n * 2)) != TTC_OK) {
      rc = ex_fail(prog, dev, st, "copy to device");
      goto done;
    }
  }
  const unsigned grid[3] = {(unsigned)(s.n / BLOCK_M), (unsigned)s.heads, 1};
  const int32_t sh = s.n * s.d, sm = s.d; /* head and row strides, the same for all four */
  /* q, k, v, o, sm_scale, (head, row) strides of q, k, v, o, N_CTX. */
  const ttc_arg args[14] = {ttc_arg_ptr(d[0]),
                            ttc_arg_ptr(d[1]),
                            ttc_arg_ptr(d[2]),
                            ttc_arg_ptr(d[3]),
                            ttc_arg_f32((float)(1.0 / sqrt((double)s.d))),
                            ttc_arg_i32(sh),
                            ttc_arg_i32(sm),
                            ttc_arg_i32(sh),
                            ttc_arg_i32(sm),
                            ttc_arg_i32(sh),
                            ttc_arg_i32(sm),
                            ttc_arg_i32(sh),
                            ttc_arg_i32(sm),
                            ttc_arg_i32(s.n)};
  if (ex_launch_once(prog, dev, mod, grid, args, 14) != 0) goto done;
  if ((st = ttc_device_copy_from(dev, h[3], d[3], n * 2)) != TTC_OK) {
    rc = ex_fail(prog, dev, st, "copy from device");
    goto done;
  }
  int64_t nonfinite = 0, work = 2ll * s.heads * s.n * s.n * s.d;
  int32_t step = (int32_t)((work + REF_BUDGET - 1) / REF_BUDGET);
  double err = max_error(h[0], h[1], h[2], h[3], s, step, &nonfinite);
  if (nonfinite || !(err <= ABS_TOL)) {
    fprintf(stderr, "attention: %lld non-finite outputs, max abs error %.3g (bound %g)\n",
            (long long)nonfinite, err, ABS_TOL);
    goto done;
  }
  printf("attention: %d heads x %d x %d%s verified on %s (%s) (%s), max abs error %.3g "
         "(bound %g)\n",
         (int)s.heads, (int)s.n, (int)s.d, s.causal ? " causal" : "", ttc_device_name(dev),
         ttc_device_arch(dev), step == 1 ? "every row" : "a sample of rows", err, ABS_TOL);
  float ms = 0;
  int timed = 0;
  if (ex_time_launches(prog, dev, mod, grid, args, 14, &timing, &ms, &timed) != 0) goto done;
  double flops = 4.0 * s.heads * (double)s.n * s.n * s.d * (s.causal ? 0.5 : 1.0);
  printf("attention: median %.4f ms over %d launches, %.2f TFLOP/s\n", (double)ms, timed,
         flops / (ms * 1e-3) / 1e12);
  rc = 0;
done:
  for (int b = 0; b < 4; b++) {
    ttc_device_free(dev, d[b]);
    free(h[b]);
  }
  return rc;
}

int main(int argc, char **argv) {
  const char *path = TTC_EXAMPLES_DIR "/attention/attention.py";
  shape s = {16, 1024, 64, 0};
  for (int i = 1; i < argc; i++) {
    int32_t *dim = strcmp(argv[i], "-b") == 0   ? &s.heads
                   : strcmp(argv[i], "-n") == 0 ? &s.n
                   : strcmp(argv[i], "-d") == 0 ? &s.d
                                                : NULL;
    if (dim && i + 1 < argc) {
      long v = ex_parse_count(prog, argv[i], argv[i + 1], 65536, "a size", NULL);
      if (v < 0) return 1;
      *dim = (int32_t)v;
      i++;
    } else if (strcmp(argv[i], "-c") == 0) {
      s.causal = 1;
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: attention [-b HEADS] [-n N_CTX] [-d 64|128] [-c] [kernel.py]\n");
      return 1;
    } else {
      path = argv[i];
    }
  }
  if (s.n % BLOCK_M != 0 || (s.d != 64 && s.d != 128) ||
      (int64_t)s.heads * s.n * s.d > ((int64_t)1 << 30)) {
    fprintf(stderr,
            "attention: N_CTX must be a multiple of %d, the head dim 64 or 128, and "
            "HEADS x N_CTX x D at most 2^30\n",
            BLOCK_M);
    return 1;
  }
  int num_warps = s.d == 64 ? 4 : 8;

  ttc_device *dev = NULL;
  int rc = ex_open_device(prog, EX_OPEN_DETAILED, &dev);
  if (rc != 0) return rc;
  /* Triton's JIT specialization of these arguments: every stride and N_CTX
   * divisible by 16. */
  char sig[256];
  const char *hs = ex_i32_sig(s.n * s.d), *rs = ex_i32_sig(s.d);
  snprintf(sig, sizeof sig,
           "*fp16:16,*fp16:16,*fp16:16,*fp16:16,fp32,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d,%d,%d,%d", hs,
           rs, hs, rs, hs, rs, hs, rs, ex_i32_sig(s.n), (int)s.d, BLOCK_M, BLOCK_N, s.causal);
  ttc_module *mod = NULL;
  rc = ex_compile_load(prog, dev, path, "attention_kernel", sig, num_warps, &mod);
  if (rc == 0) {
    printf("attention: blocks %dx%d, %d warps, signature %s\n", BLOCK_M, BLOCK_N, num_warps, sig);
    rc = run(dev, mod, s);
  }
  ttc_module_destroy(mod);
  ttc_device_destroy(dev);
  return rc;
}
