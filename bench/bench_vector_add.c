/* bench_vector_add.c - times ttc's vector-add kernel the way Triton's
 * triton.testing.do_bench times Triton's, so that bench/run.sh can compare.
 *
 * Before each timed launch the L2 cache is flushed by a launch of the same
 * kernel over 3 x 256 MiB of scratch; that launch also keeps the GPU busy, so
 * the start event is stamped when the previous work ends, not when the host
 * gets round to the launch (as with do_bench's cache.zero_()). Each launch
 * runs between its own event pair; the median is reported.
 *
 * usage: bench_vector_add [-r REPS] [-s LOG2,LOG2,...] [kernel.py]
 * prints: "ttc vector_add size=N ms=T gbps=G" per size. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/ttc.h"

#ifndef TTC_EXAMPLES_DIR
#define TTC_EXAMPLES_DIR "examples"
#endif

#define BLOCK_SIZE 1024
#define FLUSH_ELEMS (1u << 26) /* 256 MiB per array, 5x an H100/H200 L2 */
#define WARMUP 10
#define MAX_SIZES 8

typedef struct bench {
  ttc_device *dev;
  ttc_module *mod;
  uint64_t flush[3]; /* scratch arrays for the cache flush */
} bench;

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

static int fail(const bench *b, ttc_status st, const char *what) {
  fprintf(stderr, "bench_vector_add: %s failed: %s: %s\n", what, ttc_status_string(st),
          ttc_device_error(b->dev));
  return 1;
}

static ttc_status launch_add(bench *b, uint64_t x, uint64_t y, uint64_t out, uint32_t n) {
  const unsigned grid[3] = {(n + BLOCK_SIZE - 1) / BLOCK_SIZE, 1, 1};
  const ttc_arg args[4] = {ttc_arg_ptr(x), ttc_arg_ptr(y), ttc_arg_ptr(out),
                           ttc_arg_i32((int32_t)n)};
  return ttc_module_launch(b->mod, grid, NULL, args, 4);
}

static ttc_status flush_cache(bench *b) {
  return launch_add(b, b->flush[0], b->flush[1], b->flush[2], FLUSH_ELEMS);
}

/* Times `reps` launches on n elements; the buffers' contents do not matter
 * for timing (device memory is whatever cuMemAlloc returned). */
static int bench_size(bench *b, uint32_t n, int reps, float *median_ms) {
  size_t bytes = (size_t)n * sizeof(float);
  uint64_t buf[3] = {0, 0, 0};
  ttc_event **ev = calloc((size_t)reps * 2, sizeof *ev);
  float *times = calloc((size_t)reps, sizeof *times);
  ttc_status st = ev && times ? TTC_OK : TTC_ERROR_OUT_OF_MEMORY;
  for (int i = 0; st == TTC_OK && i < 3; i++)
    st = ttc_device_alloc(b->dev, bytes, &buf[i]);
  for (int i = 0; st == TTC_OK && i < reps * 2; i++)
    st = ttc_event_create(b->dev, &ev[i]);
  for (int i = 0; st == TTC_OK && i < WARMUP; i++)
    st = launch_add(b, buf[0], buf[1], buf[2], n);
  for (int i = 0; st == TTC_OK && i < reps; i++) {
    st = flush_cache(b);
    if (st == TTC_OK) st = ttc_event_record(b->dev, ev[2 * i], NULL);
    if (st == TTC_OK) st = launch_add(b, buf[0], buf[1], buf[2], n);
    if (st == TTC_OK) st = ttc_event_record(b->dev, ev[2 * i + 1], NULL);
  }
  if (st == TTC_OK) st = ttc_device_synchronize(b->dev);
  for (int i = 0; st == TTC_OK && i < reps; i++)
    st = ttc_event_elapsed(b->dev, ev[2 * i], ev[2 * i + 1], &times[i]);
  int rc = st == TTC_OK ? 0 : fail(b, st, "timing");
  if (rc == 0) {
    qsort(times, (size_t)reps, sizeof *times, cmp_float);
    *median_ms = reps % 2 ? times[reps / 2] : (times[reps / 2 - 1] + times[reps / 2]) / 2;
  }
  for (int i = 0; ev && i < reps * 2; i++)
    ttc_event_destroy(b->dev, ev[i]);
  for (int i = 0; i < 3; i++)
    ttc_device_free(b->dev, buf[i]);
  free(ev);
  free(times);
  return rc;
}

/* Compiles with the divisibility hint on n that Triton's JIT gives a size
 * divisible by 16 (every benchmarked size is). */
static ttc_status compile_kernel(const char *path, const char *arch, ttc_kernel **out) {
  ttc_compile_options opts;
  ttc_compile_options_init(&opts);
  opts.arch = arch;
  return ttc_compile_file(path, "add_kernel", "*fp32:16,*fp32:16,*fp32:16,i32:16,1024", &opts, out);
}

int main(int argc, char **argv) {
  const char *path = TTC_EXAMPLES_DIR "/vector_add/vector_add.py";
  int reps = 200;
  int log2_sizes[MAX_SIZES] = {20, 24, 28};
  int nsizes = 3;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
      reps = atoi(argv[++i]);
      if (reps < 1) reps = 1;
    } else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
      nsizes = 0;
      for (char *tok = strtok(argv[++i], ","); tok && nsizes < MAX_SIZES; tok = strtok(NULL, ","))
        log2_sizes[nsizes++] = atoi(tok);
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: bench_vector_add [-r REPS] [-s LOG2,LOG2,...] [kernel.py]\n");
      return 1;
    } else {
      path = argv[i];
    }
  }
  for (int i = 0; i < nsizes; i++) {
    if (log2_sizes[i] < 4 || log2_sizes[i] > 30) {
      fprintf(stderr, "bench_vector_add: sizes are log2 values in 4..30, got %d\n", log2_sizes[i]);
      return 1;
    }
  }

  bench b = {0};
  char err[512] = "";
  ttc_status st = ttc_device_open(0, &b.dev, err, sizeof err);
  if (st != TTC_OK) {
    fprintf(stderr, "bench_vector_add: no GPU: %s\n", err);
    return st == TTC_ERROR_NO_DEVICE ? 2 : 1;
  }
  ttc_kernel *kernel = NULL;
  st = compile_kernel(path, ttc_device_arch(b.dev), &kernel);
  if (st != TTC_OK) {
    fprintf(stderr, "bench_vector_add: compiling %s failed: %s\n%s", path, ttc_status_string(st),
            kernel ? ttc_kernel_diagnostics(kernel) : "");
    ttc_kernel_destroy(kernel);
    ttc_device_destroy(b.dev);
    return 1;
  }
  st = ttc_module_load(b.dev, kernel, &b.mod);
  ttc_kernel_destroy(kernel);
  int rc = st == TTC_OK ? 0 : fail(&b, st, "module load");
  for (int i = 0; rc == 0 && i < 3; i++) {
    st = ttc_device_alloc(b.dev, (size_t)FLUSH_ELEMS * sizeof(float), &b.flush[i]);
    if (st != TTC_OK) rc = fail(&b, st, "flush buffer allocation");
  }
  printf("# ttc vector_add on %s (%s), median of %d launches, L2 flushed before each\n",
         ttc_device_name(b.dev), ttc_device_arch(b.dev), reps);
  for (int i = 0; rc == 0 && i < nsizes; i++) {
    uint32_t n = 1u << log2_sizes[i];
    float ms = 0;
    rc = bench_size(&b, n, reps, &ms);
    if (rc == 0)
      printf("ttc vector_add size=%u ms=%.6f gbps=%.1f\n", n, (double)ms,
             3.0 * sizeof(float) * n / (ms * 1e-3) / 1e9);
    fflush(stdout);
  }
  for (int i = 0; i < 3; i++)
    ttc_device_free(b.dev, b.flush[i]);
  ttc_module_destroy(b.mod);
  ttc_device_destroy(b.dev);
  return rc;
}
