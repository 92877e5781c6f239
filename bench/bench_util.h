// SPDX-License-Identifier: MIT
/* bench_util.h - what the benchmark programs share: a host clock, sorting
 * helpers for medians, and (bench_softmax.c, bench_matmul.c) the L2 flush
 * of triton.testing.do_bench (zeroing a 256 MiB buffer before each timed
 * launch, with a kernel compiled from the source below) and the timing loop
 * (each launch between its own event pair; the median is reported).
 *
 * Header-only: every function is static, one copy per benchmark program. */
#ifndef TTC_BENCH_UTIL_H
#define TTC_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ttc/ttc.h"

/* Host time in milliseconds: the monotonic clock where POSIX is visible (the
 * program defines _POSIX_C_SOURCE before its includes), else C11's clock. */
static inline double bench_now_ms(void) {
  struct timespec ts;
#ifdef CLOCK_MONOTONIC
  clock_gettime(CLOCK_MONOTONIC, &ts);
#else
  timespec_get(&ts, TIME_UTC);
#endif
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static inline int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#define BENCH_FLUSH_BYTES (256u << 20) /* do_bench's cache size; 5x an H100/H200 L2 */
#define BENCH_FLUSH_BLOCK 1024

/* do_bench's cache.zero_(), as a Triton kernel compiled by ttc at run time. */
static const char bench_zero_source[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "\n"
    "@triton.jit\n"
    "def zero_kernel(ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(ptr + offs, tl.zeros((BLOCK,), dtype=tl.float32), mask=offs < n)\n";

/* A benchmark's device, the flush kernel and its buffer. */
typedef struct bench_ctx {
  const char *prog; /* program name for messages */
  ttc_device *dev;
  ttc_module *zero;
  uint64_t flush;
} bench_ctx;

/* A launch of the kernel under test: fn(user) launches it once. */
typedef ttc_status (*bench_launch_fn)(void *user);

static inline int bench_fail(const bench_ctx *b, ttc_status st, const char *what) {
  fprintf(stderr, "%s: %s failed: %s: %s\n", b->prog, what, ttc_status_string(st),
          ttc_device_error(b->dev));
  return 1;
}

static inline int bench_cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* Compiles `name` from `path` with `sig`, `num_warps` for the device and
 * loads it. Prints the diagnostics on failure. Returns 0 or 1. */
static inline int bench_load_staged(bench_ctx *b, const char *path, const char *source,
                                    const char *name, const char *sig, int num_warps,
                                    int num_stages, ttc_module **mod) {
  ttc_compile_options opts;
  ttc_compile_options_init(&opts);
  opts.arch = ttc_device_arch(b->dev);
  opts.num_warps = num_warps;
  if (num_stages > 0) opts.num_stages = num_stages;
  ttc_kernel *kernel = NULL;
  ttc_status st = source ? ttc_compile(source, strlen(source), path, name, sig, &opts, &kernel)
                         : ttc_compile_file(path, name, sig, &opts, &kernel);
  if (st != TTC_OK) {
    fprintf(stderr, "%s: compiling %s (%s, %d warps) failed: %s\n%s", b->prog, path, sig, num_warps,
            ttc_status_string(st), kernel ? ttc_kernel_diagnostics(kernel) : "");
    ttc_kernel_destroy(kernel);
    return 1;
  }
  st = ttc_module_load(b->dev, kernel, mod);
  ttc_kernel_destroy(kernel);
  return st == TTC_OK ? 0 : bench_fail(b, st, "module load");
}

static inline int bench_load(bench_ctx *b, const char *path, const char *source, const char *name,
                             const char *sig, int num_warps, ttc_module **mod) {
  return bench_load_staged(b, path, source, name, sig, num_warps, 0, mod);
}

/* Opens GPU 0 and prepares the flush. Returns 0, 1 on error, 2 without a GPU
 * (timing on the interpreter would mean nothing). */
static inline int bench_open(bench_ctx *b, const char *prog) {
  char err[512] = "";
  memset(b, 0, sizeof *b);
  b->prog = prog;
  ttc_status st = ttc_device_open(0, &b->dev, err, sizeof err);
  if (st != TTC_OK) {
    fprintf(stderr, "%s: no GPU: %s\n", prog, err);
    return st == TTC_ERROR_NO_DEVICE ? 2 : 1;
  }
  if (bench_load(b, "<bench_zero>", bench_zero_source, "zero_kernel", "*fp32:16,i32:16,1024", 4,
                 &b->zero) != 0)
    return 1;
  st = ttc_device_alloc(b->dev, BENCH_FLUSH_BYTES, &b->flush);
  return st == TTC_OK ? 0 : bench_fail(b, st, "flush buffer allocation");
}

static inline void bench_close(bench_ctx *b) {
  ttc_device_free(b->dev, b->flush);
  ttc_module_destroy(b->zero);
  ttc_device_destroy(b->dev);
}

/* Zeroes the flush buffer on the default stream. It also keeps the GPU busy,
 * so that the next start event is stamped when it ends, not when the host
 * gets round to the launch. */
static inline ttc_status bench_flush(bench_ctx *b) {
  const uint32_t n = BENCH_FLUSH_BYTES / sizeof(float);
  const unsigned grid[3] = {n / BENCH_FLUSH_BLOCK, 1, 1};
  const ttc_arg args[2] = {ttc_arg_ptr(b->flush), ttc_arg_i32((int32_t)n)};
  return ttc_module_launch(b->zero, grid, NULL, args, 2);
}

/* Times `reps` launches of fn(user) after `warmup` untimed ones, the L2
 * flushed before each; *median_ms receives the median. Returns 0 or 1. */
static inline int bench_time(bench_ctx *b, bench_launch_fn fn, void *user, int warmup, int reps,
                             float *median_ms) {
  ttc_event **ev = calloc((size_t)reps * 2, sizeof *ev);
  float *times = calloc((size_t)reps, sizeof *times);
  ttc_status st = ev && times ? TTC_OK : TTC_ERROR_OUT_OF_MEMORY;
  for (int i = 0; st == TTC_OK && i < reps * 2; i++)
    st = ttc_event_create(b->dev, &ev[i]);
  for (int i = 0; st == TTC_OK && i < warmup; i++)
    st = fn(user);
  for (int i = 0; st == TTC_OK && i < reps; i++) {
    st = bench_flush(b);
    if (st == TTC_OK) st = ttc_event_record(b->dev, ev[2 * i], NULL);
    if (st == TTC_OK) st = fn(user);
    if (st == TTC_OK) st = ttc_event_record(b->dev, ev[2 * i + 1], NULL);
  }
  if (st == TTC_OK) st = ttc_device_synchronize(b->dev);
  for (int i = 0; st == TTC_OK && i < reps; i++)
    st = ttc_event_elapsed(b->dev, ev[2 * i], ev[2 * i + 1], &times[i]);
  int rc = st == TTC_OK ? 0 : bench_fail(b, st, "timing");
  if (rc == 0) {
    qsort(times, (size_t)reps, sizeof *times, bench_cmp_float);
    *median_ms = reps % 2 ? times[reps / 2] : (times[reps / 2 - 1] + times[reps / 2]) / 2;
  }
  for (int i = 0; ev && i < reps * 2; i++)
    ttc_event_destroy(b->dev, ev[i]);
  free(ev);
  free(times);
  return rc;
}

/* Parses "a,b,c" into at most `max` positive integers; returns the count, or
 * -1 when an entry is not a number in 1..limit. */
static inline int bench_parse_list(char *s, long *out, int max, long limit) {
  int n = 0;
  for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
    char *end = NULL;
    long v = strtol(tok, &end, 10);
    if (n == max || !end || *end || v < 1 || v > limit) return -1;
    out[n++] = v;
  }
  return n;
}

#endif
