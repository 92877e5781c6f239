// SPDX-License-Identifier: MIT
/* main.c - the softmax example: compiles examples/softmax/softmax.py through
 * libttc at run time, takes the softmax of every row of a random matrix on
 * the GPU (or on the CPU interpreter), checks every element against a
 * double-precision C reference, and reports bandwidth.
 *
 * usage: softmax [-r ROWS] [-c COLS] [kernel.py]
 * Exit status: 0 verified, 1 failure or mismatch, 2 no GPU (and no interpreter). */
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

#define MAX_BLOCK (1 << 16) /* the largest row one program holds in registers */

/* Every output element must satisfy |out - ref| <= REL_TOL * ref. The GPU
 * computes in fp32: x - max and its product with log2(e) (|arg| < 12 for
 * inputs in [-4, 4): about 1e-6 relative after exp2), ex2.approx (2 ulp), a
 * tree sum (at most 16 levels of 2^-24 roundings) and div.full (2 ulp): about
 * 2e-6 together; the H100 run measured 7.2e-7. 1e-5 leaves room and still
 * catches any wrong element, lane or row (those are off by far more). */
#define REL_TOL 1e-5

static const char prog[] = "softmax"; /* the prefix of every message */
/* The interpreter is timed once: one launch is all it can afford. */
static const ex_timing timing = {.warmup = 5, .timed = 50, .interp_timed = 1};

/* The tutorial's launch shape: the whole row in one block, and more warps
 * as the row grows so that each thread keeps at most 16 elements or so. */
static int32_t block_for(int32_t cols) {
  int32_t b = 1;
  while (b < cols)
    b *= 2;
  return b;
}

static int warps_for(int32_t block) { return block <= 2048 ? 4 : block <= 4096 ? 8 : 16; }

/* One row of the reference, in double precision. */
static void softmax_row_ref(const float *x, double *out, int32_t cols) {
  double mx = -INFINITY, sum = 0;
  for (int32_t j = 0; j < cols; j++)
    mx = x[j] > mx ? x[j] : mx;
  for (int32_t j = 0; j < cols; j++)
    sum += out[j] = exp((double)x[j] - mx);
  for (int32_t j = 0; j < cols; j++)
    out[j] /= sum;
}

/* Compares every element with the reference; returns the number wrong. */
static int64_t check(const float *x, const float *out, int32_t rows, int32_t cols,
                     double *max_rel) {
  double *ref = malloc((size_t)cols * sizeof *ref);
  int64_t bad = 0;
  *max_rel = 0;
  if (!ref) {
    fprintf(stderr, "softmax: out of host memory for the reference\n");
    return 1;
  }
  for (int32_t i = 0; i < rows; i++) {
    softmax_row_ref(x + (size_t)i * cols, ref, cols);
    for (int32_t j = 0; j < cols; j++) {
      double got = out[(size_t)i * cols + j], rel = fabs(got - ref[j]) / ref[j];
      if (rel <= REL_TOL) { /* false for NaN: a skipped element fails */
        if (rel > *max_rel) *max_rel = rel;
        continue;
      }
      if (bad++ < 5)
        fprintf(stderr, "softmax: mismatch at row %d col %d: got %.9g, expected %.9g\n", (int)i,
                (int)j, got, ref[j]);
    }
  }
  free(ref);
  return bad;
}

/* Runs, checks and times the kernel on a rows x cols matrix; returns the
 * exit status. Rows are packed: both strides are cols. */
static int run(ttc_device *dev, ttc_module *mod, int32_t rows, int32_t cols) {
  size_t n = (size_t)rows * (size_t)cols, bytes = n * sizeof(float);
  float *x = malloc(bytes), *out = malloc(bytes);
  uint64_t dx = 0, dout = 0;
  int rc = 1;
  ttc_status st = TTC_OK;
  if (!x || !out) {
    fprintf(stderr, "softmax: out of host memory for %d x %d\n", (int)rows, (int)cols);
    goto done;
  }
  uint64_t seed = EX_SEED;
  for (size_t i = 0; i < n; i++) {
    x[i] = 4.0f * ex_next_float(&seed); /* [-4, 4): exp spans e^8 within a row */
    out[i] = NAN;                       /* poison: an element the kernel skips cannot pass */
  }
  if ((st = ttc_device_alloc(dev, bytes, &dx)) != TTC_OK ||
      (st = ttc_device_alloc(dev, bytes, &dout)) != TTC_OK) {
    rc = ex_fail(prog, dev, st, "allocation");
    goto done;
  }
  if ((st = ttc_device_copy_to(dev, dx, x, bytes)) != TTC_OK ||
      (st = ttc_device_copy_to(dev, dout, out, bytes)) != TTC_OK) {
    rc = ex_fail(prog, dev, st, "copy to device");
    goto done;
  }
  /* One program per row; parameters as in softmax.py (BLOCK_SIZE is constexpr). */
  const unsigned grid[3] = {(unsigned)rows, 1, 1};
  const ttc_arg args[5] = {ttc_arg_ptr(dout), ttc_arg_ptr(dx), ttc_arg_i32(cols), ttc_arg_i32(cols),
                           ttc_arg_i32(cols)};
  if (ex_launch_once(prog, dev, mod, grid, args, 5) != 0) goto done;
  if ((st = ttc_device_copy_from(dev, out, dout, bytes)) != TTC_OK) {
    rc = ex_fail(prog, dev, st, "copy from device");
    goto done;
  }
  double max_rel = 0;
  int64_t bad = check(x, out, rows, cols, &max_rel);
  if (bad) {
    fprintf(stderr, "softmax: %lld of %lld elements wrong (bound: relative error %g)\n",
            (long long)bad, (long long)n, REL_TOL);
    goto done;
  }
  printf("softmax: %d x %d verified on %s (%s), max relative error %.3g (bound %g)\n", (int)rows,
         (int)cols, ttc_device_name(dev), ttc_device_arch(dev), max_rel, REL_TOL);
  float ms = 0;
  int timed = 0;
  if (ex_time_launches(prog, dev, mod, grid, args, 5, &timing, &ms, &timed) != 0) goto done;
  /* Each element is read once and written once. */
  double gbps = 2.0 * sizeof(float) * (double)n / (ms * 1e-3) / 1e9;
  printf("softmax: median %.4f ms over %d launches, %.1f GB/s\n", (double)ms, timed, gbps);
  rc = 0;
done:
  ttc_device_free(dev, dx);
  ttc_device_free(dev, dout);
  free(x);
  free(out);
  return rc;
}

int main(int argc, char **argv) {
  const char *path = TTC_EXAMPLES_DIR "/softmax/softmax.py";
  long rows = 1823, cols = 781; /* the tutorial's shape: not a power of two */
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
      if ((rows = ex_parse_count(prog, "-r", argv[++i], INT32_MAX, "a count", NULL)) < 0) return 1;
    } else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) {
      if ((cols = ex_parse_count(prog, "-c", argv[++i], MAX_BLOCK, "a count", NULL)) < 0) return 1;
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: softmax [-r ROWS] [-c COLS] [kernel.py]\n");
      return 1;
    } else {
      path = argv[i];
    }
  }
  if ((double)rows * (double)cols > (double)(1u << 30)) {
    fprintf(stderr, "softmax: %ld x %ld is more than 2^30 elements\n", rows, cols);
    return 1;
  }

  ttc_device *dev = NULL;
  int rc = ex_open_device(prog, EX_OPEN_DETAILED, &dev);
  if (rc != 0) return rc;

  int32_t block = block_for((int32_t)cols);
  char sig[128];
  snprintf(sig, sizeof sig, "*fp32:16,*fp32:16,%s,%s,%s,%d", ex_i32_sig((int32_t)cols),
           ex_i32_sig((int32_t)cols), ex_i32_sig((int32_t)cols), (int)block);
  int warps = warps_for(block);
  ttc_module *mod = NULL;
  rc = ex_compile_load(prog, dev, path, "softmax_kernel", sig, warps, &mod);
  if (rc == 0) {
    printf("softmax: BLOCK_SIZE %d, %d warps, signature %s\n", (int)block, warps, sig);
    rc = run(dev, mod, (int32_t)rows, (int32_t)cols);
  }
  ttc_module_destroy(mod);
  ttc_device_destroy(dev);
  return rc;
}
