/* bench_interp.c - times ttc's CPU interpreter on the vector add of the
 * examples (2^24 f32 elements by default): the median wall time of a few
 * launches between host-clock events, and the elements per second.
 *
 * usage: bench_interp [-r REPS] [-n N] [kernel.py]
 * prints: "interp vector_add size=N ms=T melem_per_s=R". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/ttc.h"

#ifndef TTC_EXAMPLES_DIR
#define TTC_EXAMPLES_DIR "examples"
#endif

#define BLOCK_SIZE 1024
#define MAX_REPS 64

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

static int fail(const ttc_device *dev, ttc_status st, const char *what) {
  fprintf(stderr, "bench_interp: %s failed: %s: %s\n", what, ttc_status_string(st),
          dev ? ttc_device_error(dev) : "");
  return 1;
}

int main(int argc, char **argv) {
  const char *path = TTC_EXAMPLES_DIR "/vector_add/vector_add.py";
  int reps = 5;
  long n = 1L << 24;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
      n = strtol(argv[++i], NULL, 10);
    else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: bench_interp [-r REPS] [-n N] [kernel.py]\n");
      return 1;
    } else
      path = argv[i];
  }
  if (reps < 1 || reps > MAX_REPS || n < 1 || n > INT32_MAX) {
    fprintf(stderr, "bench_interp: -r wants 1..%d and -n 1..2^31-1\n", MAX_REPS);
    return 1;
  }
  char err[512];
  ttc_device *dev = NULL;
  ttc_status st = ttc_device_open_interpreter(&dev, err, sizeof err);
  if (st != TTC_OK) {
    fprintf(stderr, "bench_interp: %s\n", err);
    return 1;
  }
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = TTC_LEVEL_TTIR;
  ttc_kernel *k = NULL;
  st = ttc_compile_file(path, "add_kernel",
                        n % 16 ? "*fp32:16,*fp32:16,*fp32:16,i32,1024"
                               : "*fp32:16,*fp32:16,*fp32:16,i32:16,1024",
                        &o, &k);
  if (st != TTC_OK) {
    fprintf(stderr, "bench_interp: compile failed\n%s", k ? ttc_kernel_diagnostics(k) : "");
    ttc_kernel_destroy(k);
    ttc_device_destroy(dev);
    return 1;
  }
  ttc_module *m = NULL;
  st = ttc_module_load(dev, k, &m);
  ttc_kernel_destroy(k);
  if (st != TTC_OK) {
    ttc_device_destroy(dev);
    return fail(NULL, st, "module load");
  }
  size_t bytes = (size_t)n * sizeof(float);
  uint64_t x = 0, y = 0, out = 0;
  int rc = 1;
  if ((st = ttc_device_alloc(dev, bytes, &x)) != TTC_OK ||
      (st = ttc_device_alloc(dev, bytes, &y)) != TTC_OK ||
      (st = ttc_device_alloc(dev, bytes, &out)) != TTC_OK) {
    rc = fail(dev, st, "allocation");
    goto done;
  }
  const unsigned grid[3] = {(unsigned)((n + BLOCK_SIZE - 1) / BLOCK_SIZE), 1, 1};
  const ttc_arg args[4] = {ttc_arg_ptr(x), ttc_arg_ptr(y), ttc_arg_ptr(out),
                           ttc_arg_i32((int32_t)n)};
  ttc_event *a = NULL, *b = NULL;
  float times[MAX_REPS];
  st = ttc_event_create(dev, &a);
  if (st == TTC_OK) st = ttc_event_create(dev, &b);
  for (int r = 0; st == TTC_OK && r < reps; r++) {
    st = ttc_event_record(dev, a, NULL);
    if (st == TTC_OK) st = ttc_module_launch(m, grid, NULL, args, 4);
    if (st == TTC_OK) st = ttc_event_record(dev, b, NULL);
    if (st == TTC_OK) st = ttc_event_elapsed(dev, a, b, &times[r]);
  }
  ttc_event_destroy(dev, a);
  ttc_event_destroy(dev, b);
  if (st != TTC_OK) {
    rc = fail(dev, st, "launch");
    goto done;
  }
  qsort(times, (size_t)reps, sizeof times[0], cmp_float);
  float ms = times[reps / 2];
  printf("interp vector_add size=%ld ms=%.2f melem_per_s=%.1f\n", n, (double)ms,
         (double)n / (ms * 1e-3) / 1e6);
  rc = 0;
done:
  ttc_device_free(dev, x);
  ttc_device_free(dev, y);
  ttc_device_free(dev, out);
  ttc_module_destroy(m);
  ttc_device_destroy(dev);
  return rc;
}
