// SPDX-License-Identifier: MIT
/* main.c - the matmul example: compiles examples/matmul/matmul.py through
 * libttc at run time, multiplies two random fp16 matrices on the GPU (or on
 * the CPU interpreter), checks the fp16 product against a double-precision C
 * reference by relative Frobenius error, and reports TFLOP/s.
 *
 * Tiles: -c BMxBNxBKwW (default 64x64x32w4), GROUP_SIZE_M 8; -t f16 or bf16
 * inputs (default f16; the kernel stores its fp16-rounded product in C's
 * type). tl.dot runs on the tensor cores (wgmma on sm_90, mma.sync on sm_80).
 * -p runs matmul_kernel_persistent instead: as many programs as the GPU runs
 * at once (ttc_device_num_sms times ttc_module_programs_per_sm, the kernel's
 * NUM_SMS), each walking its tiles; -p1 launches one program per
 * multiprocessor, as Triton's persistent-matmul tutorial does.
 *
 * usage: matmul [-m M] [-n N] [-k K] [-c BMxBNxBKwW] [-t f16|bf16] [-p|-p1] [kernel.py]
 *   (sizes default to 512 each)
 * Exit status: 0 verified, 1 failure or mismatch, 2 no GPU (and no interpreter). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/example.h"
#include "ttc/ttc.h"

#ifndef TTC_EXAMPLES_DIR
#define TTC_EXAMPLES_DIR "examples"
#endif

#define GROUP_M 8
#define MAX_DIM 16384

/* ||out - ref|| / ||ref|| (Frobenius) must not exceed this. The fp32
 * accumulation adds ~K * 2^-24 relative error; the rounding of the output
 * to fp16 adds up to 2^-11 (~4.9e-4) per element: 1e-2 is 20x that. */
#define REL_TOL 1e-2

static const char prog[] = "matmul"; /* the prefix of every message */
/* The interpreter is timed once: one launch is all it can afford. */
static const ex_timing timing = {.warmup = 3, .timed = 20, .interp_timed = 1};

typedef struct shape {
  int32_t m, n, k;
  int bm, bn, bk, warps; /* the tiling */
  bool bf16;             /* bf16 inputs and output instead of f16 */
  int programs;          /* > 0: the persistent kernel with this many programs (NUM_SMS) */
  int per_sm;            /* the persistent kernel's programs per multiprocessor */
} shape;

/* bf16 <-> float: round to nearest even (NaN kept quiet); bf16 is the top
 * half of an f32. */
static uint16_t f32_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u);
  return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

static float bf16_to_f32(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  memcpy(&f, &x, sizeof f);
  return f;
}

static float to_f32(uint16_t h, bool bf16) { return bf16 ? bf16_to_f32(h) : ex_f16_to_f32(h); }

/* ||c - a@b|| / ||a@b|| with the reference in double from the fp16 inputs
 * (their products are exact in double). Counts NaN/inf outputs in *nonfinite. */
static double rel_error(const uint16_t *a, const uint16_t *b, const uint16_t *c, shape s,
                        int64_t *nonfinite) {
  double *row = malloc((size_t)s.n * sizeof *row), num = 0, den = 0;
  float *bf = malloc((size_t)s.k * (size_t)s.n * sizeof *bf);
  *nonfinite = 0;
  if (!row || !bf) {
    free(row);
    free(bf);
    fprintf(stderr, "matmul: out of host memory for the reference\n");
    return INFINITY;
  }
  for (size_t i = 0; i < (size_t)s.k * (size_t)s.n; i++)
    bf[i] = to_f32(b[i], s.bf16);
  for (int32_t i = 0; i < s.m; i++) {
    for (int32_t j = 0; j < s.n; j++)
      row[j] = 0;
    for (int32_t p = 0; p < s.k; p++) {
      double av = to_f32(a[(size_t)i * s.k + p], s.bf16);
      const float *brow = bf + (size_t)p * s.n;
      for (int32_t j = 0; j < s.n; j++)
        row[j] += av * brow[j];
    }
    for (int32_t j = 0; j < s.n; j++) {
      double got = to_f32(c[(size_t)i * s.n + j], s.bf16);
      if (!isfinite(got)) {
        if ((*nonfinite)++ < 5)
          fprintf(stderr, "matmul: non-finite output at (%d, %d): %g, expected %.6g\n", (int)i,
                  (int)j, got, row[j]);
        continue;
      }
      num += (got - row[j]) * (got - row[j]);
      den += row[j] * row[j];
    }
  }
  free(row);
  free(bf);
  return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* Runs, checks and times the kernel; returns the exit status. All three
 * matrices are row-major and packed. */
static int run(ttc_device *dev, ttc_module *mod, shape s) {
  size_t na = (size_t)s.m * s.k, nb = (size_t)s.k * s.n, nc = (size_t)s.m * s.n;
  uint16_t *a = malloc(na * 2), *b = malloc(nb * 2), *c = malloc(nc * 2);
  uint64_t da = 0, db = 0, dc = 0;
  int rc = 1;
  ttc_status st = TTC_OK;
  if (!a || !b || !c) {
    fprintf(stderr, "matmul: out of host memory\n");
    goto done;
  }
  uint64_t seed = EX_SEED;
  for (size_t i = 0; i < na; i++) {
    float v = ex_next_float(&seed);
    a[i] = s.bf16 ? f32_to_bf16(v) : ex_f32_to_f16(v);
  }
  for (size_t i = 0; i < nb; i++) {
    float v = ex_next_float(&seed);
    b[i] = s.bf16 ? f32_to_bf16(v) : ex_f32_to_f16(v);
  }
  for (size_t i = 0; i < nc; i++)
    c[i] = s.bf16 ? 0x7fc0u : 0x7e00u; /* NaN poison: skipped tiles fail */
  if ((st = ttc_device_alloc(dev, na * 2, &da)) != TTC_OK ||
      (st = ttc_device_alloc(dev, nb * 2, &db)) != TTC_OK ||
      (st = ttc_device_alloc(dev, nc * 2, &dc)) != TTC_OK) {
    rc = ex_fail(prog, dev, st, "allocation");
    goto done;
  }
  if ((st = ttc_device_copy_to(dev, da, a, na * 2)) != TTC_OK ||
      (st = ttc_device_copy_to(dev, db, b, nb * 2)) != TTC_OK ||
      (st = ttc_device_copy_to(dev, dc, c, nc * 2)) != TTC_OK) {
    rc = ex_fail(prog, dev, st, "copy to device");
    goto done;
  }
  unsigned tiles = (unsigned)((s.m + s.bm - 1) / s.bm) * (unsigned)((s.n + s.bn - 1) / s.bn);
  const unsigned grid[3] = {
      s.programs > 0 && (unsigned)s.programs < tiles ? (unsigned)s.programs : tiles, 1, 1};
  if (s.programs > 0)
    printf("matmul: NUM_SMS %d (%d per multiprocessor), %u tiles on %u programs\n", s.programs,
           s.per_sm, tiles, grid[0]);
  /* a, b, c, M, N, K, then (row, column) strides of A, B and C. */
  /* The unit strides were specialized in the signature: no arguments. */
  const ttc_arg args[9] = {ttc_arg_ptr(da),  ttc_arg_ptr(db),  ttc_arg_ptr(dc),
                           ttc_arg_i32(s.m), ttc_arg_i32(s.n), ttc_arg_i32(s.k),
                           ttc_arg_i32(s.k), ttc_arg_i32(s.n), ttc_arg_i32(s.n)};
  if (ex_launch_once(prog, dev, mod, grid, args, 9) != 0) goto done;
  if ((st = ttc_device_copy_from(dev, c, dc, nc * 2)) != TTC_OK) {
    rc = ex_fail(prog, dev, st, "copy from device");
    goto done;
  }
  int64_t nonfinite = 0;
  double err = rel_error(a, b, c, s, &nonfinite);
  if (nonfinite || !(err <= REL_TOL)) {
    fprintf(stderr, "matmul: %lld non-finite outputs, relative error %.3g (bound %g)\n",
            (long long)nonfinite, err, REL_TOL);
    goto done;
  }
  printf("matmul: %d x %d x %d verified on %s (%s), relative error %.3g (bound %g)\n", (int)s.m,
         (int)s.n, (int)s.k, ttc_device_name(dev), ttc_device_arch(dev), err, REL_TOL);
  float ms = 0;
  int timed = 0;
  if (ex_time_launches(prog, dev, mod, grid, args, 9, &timing, &ms, &timed) != 0) goto done;
  double tflops = 2.0 * s.m * s.n * (double)s.k / (ms * 1e-3) / 1e12;
  printf("matmul: median %.4f ms over %d launches, %.2f TFLOP/s\n", (double)ms, timed, tflops);
  rc = 0;
done:
  ttc_device_free(dev, da);
  ttc_device_free(dev, db);
  ttc_device_free(dev, dc);
  free(a);
  free(b);
  free(c);
  return rc;
}

int main(int argc, char **argv) {
  const char *path = TTC_EXAMPLES_DIR "/matmul/matmul.py";
  shape s = {512, 512, 512, 64, 64, 32, 4, false, 0, 1};
  bool persistent = false, one_per_sm = false;
  static const char usage[] =
      "usage: matmul [-m M] [-n N] [-k K] [-c BMxBNxBKwW] [-t f16|bf16] [-p|-p1] [kernel.py]\n";
  for (int i = 1; i < argc; i++) {
    int32_t *dim = strcmp(argv[i], "-m") == 0   ? &s.m
                   : strcmp(argv[i], "-n") == 0 ? &s.n
                   : strcmp(argv[i], "-k") == 0 ? &s.k
                                                : NULL;
    if (dim && i + 1 < argc) {
      long v = ex_parse_count(prog, argv[i], argv[i + 1], MAX_DIM, "a size", NULL);
      if (v < 0) return 1;
      *dim = (int32_t)v;
      i++;
    } else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) {
      int n = 0;
      if (sscanf(argv[++i], "%dx%dx%dw%d%n", &s.bm, &s.bn, &s.bk, &s.warps, &n) != 4 ||
          argv[i][n] || s.bm < 16 || s.bn < 16 || s.bk < 16 || s.bm > 256 || s.bn > 256 ||
          s.bk > 256 || s.warps < 1 || s.warps > 32) {
        fprintf(stderr, "matmul: -c wants BMxBNxBKwW with blocks in 16..256, got '%s'\n", argv[i]);
        return 1;
      }
    } else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
      i++;
      if (strcmp(argv[i], "f16") != 0 && strcmp(argv[i], "bf16") != 0) {
        fprintf(stderr, "matmul: -t wants f16 or bf16, got '%s'\n", argv[i]);
        return 1;
      }
      s.bf16 = strcmp(argv[i], "bf16") == 0;
    } else if (strcmp(argv[i], "-p") == 0 || strcmp(argv[i], "-p1") == 0) {
      persistent = true;
      one_per_sm = argv[i][2] == '1';
    } else if (argv[i][0] == '-') {
      fputs(usage, stderr);
      return 1;
    } else {
      path = argv[i];
    }
  }

  ttc_device *dev = NULL;
  int rc = ex_open_device(prog, EX_OPEN_DETAILED, &dev);
  if (rc != 0) return rc;

  /* Triton's JIT specialization: ":16" on integers divisible by 16, and the
   * unit strides given as the value 1, which bakes them in (they leave the
   * kernel's parameters) and lets the loads along them vectorize. */
  char sig[256];
  const char *pt = s.bf16 ? "*bf16:16" : "*fp16:16";
  int n = snprintf(sig, sizeof sig, "%s,%s,%s,%s,%s,%s,%s,1,%s,1,%s,1,%d,%d,%d,%d", pt, pt, pt,
                   ex_i32_sig(s.m), ex_i32_sig(s.n), ex_i32_sig(s.k), ex_i32_sig(s.k),
                   ex_i32_sig(s.n), ex_i32_sig(s.n), s.bm, s.bn, s.bk, GROUP_M);
  if (persistent) { /* NUM_SMS, a constexpr */
    s.programs = ttc_device_num_sms(dev);
    snprintf(sig + n, sizeof sig - (size_t)n, ",%d", s.programs);
  }
  ttc_module *mod = NULL;
  const char *kernel = persistent ? "matmul_kernel_persistent" : "matmul_kernel";
  rc = ex_compile_load(prog, dev, path, kernel, sig, s.warps, &mod);
  /* The program count depends on the compiled kernel (its registers and
   * shared memory), and is the kernel's NUM_SMS: when more than one program
   * fits on a multiprocessor, compile again with that many. */
  if (rc == 0 && persistent && !one_per_sm) {
    ttc_status st = ttc_module_programs_per_sm(mod, &s.per_sm);
    if (st != TTC_OK) {
      rc = ex_fail(prog, dev, st, "occupancy query");
    } else if (s.per_sm > 1) {
      s.programs *= s.per_sm;
      snprintf(sig + n, sizeof sig - (size_t)n, ",%d", s.programs);
      ttc_module_destroy(mod);
      mod = NULL;
      rc = ex_compile_load(prog, dev, path, kernel, sig, s.warps, &mod);
    }
  }
  if (rc == 0) {
    printf("matmul: %s, %s, blocks %dx%dx%d, GROUP_SIZE_M %d, %d warps, signature %s\n", kernel,
           s.bf16 ? "bf16" : "f16", s.bm, s.bn, s.bk, GROUP_M, s.warps, sig);
    rc = run(dev, mod, s);
  }
  ttc_module_destroy(mod);
  ttc_device_destroy(dev);
  return rc;
}
