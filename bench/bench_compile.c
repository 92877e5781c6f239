// SPDX-License-Identifier: MIT
/* bench_compile.c - in-process compile times of the three examples, the
 * number DESIGN.md sets a target for (source to PTX at most 0.1x Triton's
 * first-call compile: about 2 ms for vector add, 35 ms for matmul). Each
 * kernel is compiled REPS times in this process; the median of the wall times
 * is printed for source -> ttir (the front end's cost), source -> PTX and
 * source -> cubin (which adds ptxas).
 *
 * bench/triton_compile.py times Triton's cold compile of the same kernels
 * (matmul 128x128x64 and attention) on the GPU machine.
 *
 * usage: bench_compile [-r REPS] [-l LEVEL]   (LEVEL: only that level)
 * prints: "compile KERNEL level=ptx ms=T" lines. No GPU needed. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

typedef struct bench_kernel {
  const char *label, *file, *name, *signature;
  int num_warps;
} bench_kernel;

/* The signatures the examples compile with (Triton's JIT specialization). */
static const bench_kernel kernels[] = {
    {"vector_add", "vector_add/vector_add.py", "add_kernel",
     "*fp32:16,*fp32:16,*fp32:16,i32:16,1024", 4},
    {"softmax", "softmax/softmax.py", "softmax_kernel",
     "*fp32:16,*fp32:16,i32:16,i32:16,i32:16,1024", 4},
    {"matmul", "matmul/matmul.py", "matmul_kernel",
     "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,1,i32:16,1,64,64,32,8", 4},
    {"matmul_128x128x64", "matmul/matmul.py", "matmul_kernel",
     "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,1,i32:16,1,128,128,64,8", 4},
    {"attention_d128", "attention/attention.py", "attention_kernel",
     "*fp16:16,*fp16:16,*fp16:16,*fp16:16,fp32,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,"
     "i32:16,i32:16,128,128,64,0",
     8},
};

/* Median wall time of `reps` compiles to `level`; -1 on a failed compile. */
static double time_compile(const bench_kernel *bk, ttc_level level, int reps) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", TTC_EXAMPLES_DIR, bk->file);
  double *t = calloc((size_t)reps, sizeof *t);
  if (!t) return -1;
  double med = -1;
  for (int i = 0; i < reps; i++) {
    ttc_compile_options o;
    ttc_compile_options_init(&o);
    o.num_warps = bk->num_warps;
    o.arch = "sm_90a";
    o.stop_after = level;
    ttc_kernel *k = NULL;
    double t0 = bench_now_ms();
    ttc_status st = ttc_compile_file(path, bk->name, bk->signature, &o, &k);
    t[i] = bench_now_ms() - t0;
    if (st != TTC_OK) {
      fprintf(stderr, "bench_compile: %s failed: %s\n%s", bk->label, ttc_status_string(st),
              k ? ttc_kernel_diagnostics(k) : "");
      ttc_kernel_destroy(k);
      goto done;
    }
    ttc_kernel_destroy(k);
  }
  qsort(t, (size_t)reps, sizeof *t, bench_cmp_double);
  med = t[reps / 2];
done:
  free(t);
  return med;
}

int main(int argc, char **argv) {
  int reps = 21;
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
      reps = atoi(argv[++i]);
    } else if (strcmp(argv[i], "-l") == 0 && i + 1 < argc) {
      only = argv[++i];
    } else {
      fprintf(stderr, "usage: bench_compile [-r REPS] [-l LEVEL]\n");
      return 2;
    }
  }
  if (reps < 1) reps = 1;
  printf("# ttc %s in-process compile times, median of %d, sm_90a\n", ttc_version(), reps);
  int rc = 0;
  for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
    const ttc_level levels[3] = {TTC_LEVEL_TTIR, TTC_LEVEL_PTX, TTC_LEVEL_CUBIN};
    for (int l = 0; l < 3; l++) {
      if (only && strcmp(only, ttc_level_name(levels[l])) != 0) continue;
      double ms = time_compile(&kernels[i], levels[l], reps);
      if (ms < 0) {
        rc = 1;
        continue;
      }
      printf("compile %s level=%s ms=%.2f\n", kernels[i].label, ttc_level_name(levels[l]), ms);
    }
  }
  return rc;
}
