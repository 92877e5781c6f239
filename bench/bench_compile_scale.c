// SPDX-License-Identifier: MIT
/* bench_compile_scale.c - compile time against kernel length, the linearity
 * DESIGN.md asks for (Triton grows quadratically: 5.5 s for 1k, 65 s for 5k
 * straight-line statements), and the checks of issue 13 as numbers:
 *   - a 100k-statement kernel compiles to PTX in under 10 s, and the 100k /
 *     10k time ratio is at most 12 (near linear);
 *   - vector add at BLOCK 2^20 compiles in at most 10x the time of 2^17.
 * Generates straight-line kernels of N tensor statements (x{i} = x{i-1} *
 * 2.0 + i.0 on a 128-element tile) and ttir of N independent ops, compiles
 * each in this process without the disk cache, REPS times, and prints the
 * medians of the wall and the process CPU time (the CPU time moves less when
 * other work shares the machine) and the ratios.
 *
 * usage: bench_compile_scale [-r REPS] [-l LEVEL] [--cubin] [--no-vector-add] [N ...]
 *   LEVEL: ttir, ttgir, ptx (default) for the statement kernels; sizes
 *   default to 1000 10000 100000 (10000 is always measured: the ratios'
 *   base); REPS defaults to 3. --cubin also times vector add to the cubin
 *   (ptxas: about 20 minutes at 2^20 on a 2-core machine, so run it with
 *   TTC_PTXAS_TIMEOUT=0: by default ptxas is stopped after 120 s).
 * prints: "kernel statements=N level=L s=T cpu_s=C ratio_to_10k=R" (at
 *   ptx also ttc_s/ttc_ratio and llvm_s/llvm_ratio: the time inside LLVM,
 *   ttc_kernel_stats.llvm_ms, and the rest),
 *   "ttir ops=N s=T cpu_s=C ratio_to_10k=R", "ttir_chain ops=N ..." (a chain of
 *   commutative ops: canonicalize and cse),
 *   "vector_add block=N level=L s=T cpu_s=C ttc_s=T1 llvm_s=T2", then "check
 *   ..." lines with the ratios and their targets, and "split ..." lines with
 *   the ratios of ttc's own time and LLVM's. No GPU needed. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
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

/* A chain x{i} = x{i-1} * 2 + i of n op pairs, each constant made right
 * before the multiply whose result the add takes with it: commutative
 * operands that the parser allocates a fixed distance apart (a hash of
 * their XOR put 100k such adds in 253 of cse's 65536 buckets). */
static text ttir_chain_source(long n) {
  text t = {0};
  put(&t, "module {\n  tt.func public @k(%%a: i32, %%p: !tt.ptr<i32>) {\n", 0, 0);
  put(&t, "    %%two = arith.constant 2 : i32\n    %%x0 = arith.addi %%a, %%a : i32\n", 0, 0);
  for (long i = 1; i <= n; i++) {
    put(&t, "    %%c%ld = arith.constant %ld : i32\n", i, i);
    put(&t, "    %%m%ld = arith.muli %%x%ld, %%two : i32\n", i, i - 1);
    put(&t, "    %%x%ld = arith.addi %%m%ld, ", i, i), put(&t, "%%c%ld : i32\n", i, 0);
  }
  put(&t, "    tt.store %%p, %%x%ld : !tt.ptr<i32>\n    tt.return\n  }\n}\n", n, 0);
  return t;
}

/* The process's CPU time (every thread: the compile runs on its own). */
static double cpu_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Medians of REPS measurements, in seconds; negative when a run failed.
 * llvm: the part of wall spent inside LLVM (ttc_kernel_stats.llvm_ms), own:
 * the rest but ptxas (ttc's frontend, passes and LLVM IR building); both
 * negative for the ttir jobs, which never reach LLVM. */
typedef struct timing {
  double wall, cpu, llvm, own;
} timing;

/* What one measurement compiles. */
typedef enum job_kind { JOB_STATEMENTS, JOB_TTIR, JOB_TTIR_CHAIN, JOB_VECTOR_ADD } job_kind;

typedef struct job {
  job_kind kind;
  long n; /* statements, ttir op pairs, or BLOCK */
  ttc_level level;
} job;

/* One compile; false (with a message) when it fails. *llvm_ms: the
 * milliseconds inside LLVM, -1 when the job does not reach it; *ptxas_ms:
 * ptxas's, 0 below the cubin level. */
static bool run_job(const job *j, const text *src, double *llvm_ms, double *ptxas_ms) {
  *llvm_ms = -1;
  *ptxas_ms = 0;
  if (j->kind == JOB_TTIR || j->kind == JOB_TTIR_CHAIN) {
    ttc_ir_options o;
    ttc_ir_options_init(&o);
    o.passes = "canonicalize,cse";
    ttc_ir_result *r = NULL;
    ttc_status st = ttc_ir_run(src->s, src->len, "scale.ttir", &o, &r);
    if (st != TTC_OK)
      fprintf(stderr, "ttir of %ld ops failed: %s\n", j->n, ttc_ir_result_diagnostics(r));
    ttc_ir_result_destroy(r);
    return st == TTC_OK;
  }
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = j->level;
  o.cache = 0;
  ttc_kernel *k = NULL;
  ttc_status st;
  if (j->kind == JOB_STATEMENTS) {
    st = ttc_compile(src->s, src->len, "scale.py", "k", "*fp32:16,*fp32:16", &o, &k);
  } else {
    char path[4096], sig[128];
    snprintf(path, sizeof path, "%s/vector_add/vector_add.py", TTC_EXAMPLES_DIR);
    snprintf(sig, sizeof sig, "*fp32:16,*fp32:16,*fp32:16,i32:16,%ld", j->n);
    st = ttc_compile_file(path, "add_kernel", sig, &o, &k);
  }
  if (st != TTC_OK)
    fprintf(stderr, "compile (%ld) failed: %s\n", j->n, k ? ttc_kernel_diagnostics(k) : "");
  ttc_kernel_stats stats = TTC_KERNEL_STATS_INIT;
  if (st == TTC_OK && ttc_kernel_get_stats(k, &stats) == TTC_OK) {
    *llvm_ms = stats.llvm_ms;
    if (stats.time_ms[TTC_LEVEL_CUBIN] > 0) *ptxas_ms = stats.time_ms[TTC_LEVEL_CUBIN];
  }
  ttc_kernel_destroy(k);
  return st == TTC_OK;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
  return v[n / 2];
}

static timing measure(const job *j, int reps) {
  timing t = {-1, -1, -1, -1};
  text src = {0};
  if (j->kind == JOB_STATEMENTS) src = kernel_source(j->n);
  if (j->kind == JOB_TTIR) src = ttir_source(j->n);
  if (j->kind == JOB_TTIR_CHAIN) src = ttir_chain_source(j->n);
  double *v = calloc(4 * (size_t)reps, sizeof *v);
  if (!v) exit(1);
  double *wall = v, *cpu = v + reps, *llvm = v + 2 * reps, *own = v + 3 * reps;
  int i = 0;
  for (; i < reps; i++) {
    double w0 = bench_now_ms(), c0 = cpu_now_ms(), llvm_ms, ptxas_ms;
    if (!run_job(j, &src, &llvm_ms, &ptxas_ms)) break;
    wall[i] = (bench_now_ms() - w0) / 1e3;
    cpu[i] = (cpu_now_ms() - c0) / 1e3;
    llvm[i] = llvm_ms / 1e3;
    own[i] = llvm_ms < 0 ? -1 : wall[i] - llvm[i] - ptxas_ms / 1e3;
  }
  if (i == reps) {
    t.wall = median(wall, reps);
    t.cpu = median(cpu, reps);
    t.llvm = median(llvm, reps);
    t.own = median(own, reps);
  }
  free(v);
  free(src.s);
  return t;
}

static double ratio(double a, double b) { return a > 0 && b > 0 ? a / b : 0; }

/* Measures one kind at every size (10k is the ratios' base, measured
 * once) and prints a line each: "kernel statements=N level=L ...",
 * "ttir ops=N ..." or "ttir_chain ops=N ...". *base: 10k; *big: 100k (or
 * -1 when not among the sizes). */
static void series(job_kind kind, ttc_level level, const long *sizes, int nsizes, int reps,
                   timing *base, timing *big) {
  job base_job = {kind, 10000, level};
  *base = measure(&base_job, reps);
  *big = (timing){-1, -1, -1, -1};
  for (int i = 0; i < nsizes; i++) {
    job j = {kind, sizes[i], level};
    timing t = sizes[i] == 10000 ? *base : measure(&j, reps);
    if (sizes[i] == 100000) *big = t;
    if (kind == JOB_STATEMENTS)
      printf("kernel statements=%ld level=%s", sizes[i], ttc_level_name(level));
    else
      printf("%s ops=%ld", kind == JOB_TTIR ? "ttir" : "ttir_chain", sizes[i]);
    printf(" s=%.3f cpu_s=%.3f ratio_to_10k=%.2f", t.wall, t.cpu, ratio(t.wall, base->wall));
    if (t.llvm >= 0)
      printf(" ttc_s=%.3f ttc_ratio=%.2f llvm_s=%.3f llvm_ratio=%.2f", t.own,
             ratio(t.own, base->own), t.llvm, ratio(t.llvm, base->llvm));
    printf("\n");
    fflush(stdout);
  }
}

/* "check NAME: wall R1, cpu R2 (target <= T) ok|FAIL": the wall ratio
 * decides, as the issue states it. */
static bool check_ratio(const char *name, timing num, timing den, double target) {
  double rw = ratio(num.wall, den.wall), rc = ratio(num.cpu, den.cpu);
  bool ok = rw > 0 && rw <= target;
  printf("check %s: ratio wall %.2f cpu %.2f (target <= %g) %s\n", name, rw, rc, target,
         ok ? "ok" : "FAIL");
  return ok;
}

/* "split NAME: ttc R1, llvm R2": the same ratio for ttc's own stages and
 * for the time inside LLVM, to tell which side grows (no target: the
 * issue's target is on the whole compile). */
static void print_split(const char *name, timing num, timing den) {
  if (num.llvm < 0 || den.llvm < 0) return;
  printf("split %s: ttc's own stages %.2f, inside LLVM %.2f\n", name, ratio(num.own, den.own),
         ratio(num.llvm, den.llvm));
}

int main(int argc, char **argv) {
  ttc_level level = TTC_LEVEL_PTX;
  int reps = 3;
  bool cubin = false, vector_add = true;
  long sizes[16];
  int nsizes = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-l") == 0 && i + 1 < argc) {
      const char *l = argv[++i];
      level = strcmp(l, "ttir") == 0    ? TTC_LEVEL_TTIR
              : strcmp(l, "ttgir") == 0 ? TTC_LEVEL_TTGIR
                                        : TTC_LEVEL_PTX;
    } else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
      reps = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--cubin") == 0) {
      cubin = true;
    } else if (strcmp(argv[i], "--no-vector-add") == 0) {
      vector_add = false;
    } else if (argv[i][0] != '-' && nsizes < 16) {
      sizes[nsizes++] = atol(argv[i]);
    } else {
      fprintf(stderr, "usage: bench_compile_scale [-r REPS] [-l LEVEL] [--cubin] "
                      "[--no-vector-add] [N ...]\n");
      return 2;
    }
  }
  if (reps < 1) reps = 1;
  if (!nsizes) {
    static const long def[] = {1000, 10000, 100000};
    for (int i = 0; i < 3; i++)
      sizes[nsizes++] = def[i];
  }
  printf("# ttc %s compile time against kernel length, in process, no cache, median of %d\n",
         ttc_version(), reps);
  fflush(stdout);

  timing base, big, tbase, tbig, cbase, cbig;
  series(JOB_STATEMENTS, level, sizes, nsizes, reps, &base, &big);
  series(JOB_TTIR, TTC_LEVEL_TTIR, sizes, nsizes, reps, &tbase, &tbig);
  series(JOB_TTIR_CHAIN, TTC_LEVEL_TTIR, sizes, nsizes, reps, &cbase, &cbig);

  timing va[2][2]; /* [level][2^17, 2^20] */
  for (int l = 0; l < 2; l++)
    va[l][0] = va[l][1] = (timing){-1, -1, -1, -1};
  const ttc_level va_levels[2] = {TTC_LEVEL_PTX, TTC_LEVEL_CUBIN};
  for (int l = 0; vector_add && l < (cubin ? 2 : 1); l++) {
    for (int b = 0; b < 2; b++) {
      job j = {JOB_VECTOR_ADD, b ? 1L << 20 : 1L << 17, va_levels[l]};
      va[l][b] = measure(&j, reps);
      printf("vector_add block=%ld level=%s s=%.3f cpu_s=%.3f ttc_s=%.3f llvm_s=%.3f\n", j.n,
             ttc_level_name(va_levels[l]), va[l][b].wall, va[l][b].cpu, va[l][b].own,
             va[l][b].llvm);
      fflush(stdout);
    }
  }

  /* The issue's acceptance points, as numbers. */
  bool ok = true;
  if (level == TTC_LEVEL_PTX && big.wall > 0) {
    bool fast = big.wall < 10;
    printf("check statements=100000 to ptx: s=%.3f (target < 10) %s\n", big.wall,
           fast ? "ok" : "FAIL");
    ok = fast && ok;
    ok = check_ratio("statements 100k/10k", big, base, 12) && ok;
    print_split("statements 100k/10k", big, base);
  }
  if (tbig.wall > 0) ok = check_ratio("ttir ops 100k/10k", tbig, tbase, 12) && ok;
  if (cbig.wall > 0) ok = check_ratio("ttir chain ops 100k/10k", cbig, cbase, 12) && ok;
  for (int l = 0; vector_add && l < (cubin ? 2 : 1); l++) {
    char name[64];
    snprintf(name, sizeof name, "vector_add 2^20/2^17 to %s", ttc_level_name(va_levels[l]));
    ok = check_ratio(name, va[l][1], va[l][0], 10) && ok;
    print_split(name, va[l][1], va[l][0]);
  }
  return ok ? 0 : 1;
}
