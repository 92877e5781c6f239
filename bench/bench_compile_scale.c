// SPDX-License-Identifier: MIT
/* bench_compile_scale.c - compile time against kernel length, the linearity
 * DESIGN.md asks for (Triton grows quadratically: 5.5 s for 1k, 65 s for 5k
 * straight-line statements). Generates straight-line kernels of N tensor
 * statements (x{i} = x{i-1} * 2.0 + i.0 on a 128-element tile) and ttir of N
 * independent ops, compiles each in this process without the disk cache, and
 * prints the wall time per size and the ratio to the 10k size.
 *
 * usage: bench_compile_scale [-l LEVEL] [N ...]   (LEVEL: ttir, ttgir, ptx;
 *        default ptx; sizes default to 5000 10000 20000 100000)
 * prints: "kernel statements=N level=ptx s=T ratio_to_10k=R" and
 *         "ttir ops=N s=T ratio_to_10k=R" lines. No GPU needed. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

/* A growable text buffer for the generated inputs. */
typedef struct text {
  char *s;
  size_t len, cap;
} text;

static void put(text *t, const char *fmt, long a, long b) {
  char line[160];
  int n = snprintf(line, sizeof line, fmt, a, b);
  if (t->len + (size_t)n + 1 > t->cap) {
    t->cap = (t->len + (size_t)n + 1) * 2;
    t->s = realloc(t->s, t->cap);
    if (!t->s) exit(1);
  }
  memcpy(t->s + t->len, line, (size_t)n + 1);
  t->len += (size_t)n;
}

static text kernel_source(long n) {
  text t = {0};
  put(&t, "import triton\nimport triton.language as tl\n\n@triton.jit\n", 0, 0);
  put(&t, "def k(x_ptr, y_ptr):\n    offs = tl.arange(0, 128)\n", 0, 0);
  put(&t, "    x0 = tl.load(x_ptr + offs)\n", 0, 0);
  for (long i = 1; i < n; i++)
    put(&t, "    x%ld = x%ld * 2.0 + ", i, i - 1), put(&t, "%ld.0\n", i, 0);
  put(&t, "    tl.store(y_ptr + offs, x%ld)\n", n - 1, 0);
  return t;
}

/* n independent adds of distinct constants to an argument (2n ops), the
 * last one stored. */
static text ttir_source(long n) {
  text t = {0};
  put(&t, "module {\n  tt.func public @k(%%a: i32, %%p: !tt.ptr<i32>) {\n", 0, 0);
  for (long i = 1; i <= n; i++) { /* distinct constants: nothing for CSE to merge */
    put(&t, "    %%c%ld = arith.constant %ld : i32\n", i, i);
    put(&t, "    %%v%ld = arith.addi %%a, %%c%ld : i32\n", i, i);
  }
  put(&t, "    tt.store %%p, %%v%ld : !tt.ptr<i32>\n    tt.return\n  }\n}\n", n, 0);
  return t;
}

static double time_kernel(long n, ttc_level level) {
  text src = kernel_source(n);
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = level;
  o.cache = 0;
  ttc_kernel *k = NULL;
  double t0 = bench_now_ms();
  ttc_status st = ttc_compile(src.s, src.len, "scale.py", "k", "*fp32:16,*fp32:16", &o, &k);
  double ms = bench_now_ms() - t0;
  if (st != TTC_OK)
    fprintf(stderr, "compile of %ld statements failed: %s\n", n, ttc_kernel_diagnostics(k));
  ttc_kernel_destroy(k);
  free(src.s);
  return st == TTC_OK ? ms / 1e3 : -1;
}

static double time_ttir(long n) {
  text src = ttir_source(n);
  ttc_ir_options o;
  ttc_ir_options_init(&o);
  o.passes = "canonicalize,cse";
  ttc_ir_result *r = NULL;
  double t0 = bench_now_ms();
  ttc_status st = ttc_ir_run(src.s, src.len, "scale.ttir", &o, &r);
  double ms = bench_now_ms() - t0;
  if (st != TTC_OK)
    fprintf(stderr, "ttir of %ld ops failed: %s\n", n, ttc_ir_result_diagnostics(r));
  ttc_ir_result_destroy(r);
  free(src.s);
  return st == TTC_OK ? ms / 1e3 : -1;
}

int main(int argc, char **argv) {
  ttc_level level = TTC_LEVEL_PTX;
  long sizes[16];
  int nsizes = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-l") == 0 && i + 1 < argc) {
      const char *l = argv[++i];
      level = strcmp(l, "ttir") == 0    ? TTC_LEVEL_TTIR
              : strcmp(l, "ttgir") == 0 ? TTC_LEVEL_TTGIR
                                        : TTC_LEVEL_PTX;
    } else if (nsizes < 16) {
      sizes[nsizes++] = atol(argv[i]);
    }
  }
  if (!nsizes) {
    static const long def[] = {5000, 10000, 20000, 100000};
    for (int i = 0; i < 4; i++)
      sizes[nsizes++] = def[i];
  }
  double base = time_kernel(10000, level); /* the reference for the ratios */
  for (int i = 0; i < nsizes; i++) {
    double s = sizes[i] == 10000 ? base : time_kernel(sizes[i], level);
    printf("kernel statements=%ld level=%s s=%.3f ratio_to_10k=%.2f\n", sizes[i],
           ttc_level_name(level), s, base > 0 ? s / base : 0);
    fflush(stdout);
  }
  double tbase = time_ttir(10000);
  for (int i = 0; i < nsizes; i++) {
    double s = sizes[i] == 10000 ? tbase : time_ttir(sizes[i]);
    printf("ttir ops=%ld s=%.3f ratio_to_10k=%.2f\n", sizes[i], s, tbase > 0 ? s / tbase : 0);
    fflush(stdout);
  }
  return 0;
}
