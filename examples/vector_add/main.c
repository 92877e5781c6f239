/* main.c - the vector_add example: compiles examples/vector_add/vector_add.py
 * through libttc at run time, adds two random vectors on the GPU (or, when
 * there is none or TTC_INTERPRET=1, on ttc's CPU interpreter), checks every
 * element against the same float addition on the CPU, and reports timing.
 * The host code is the same on both paths; only the device differs.
 *
 * usage: vector_add [-n N] [kernel.py]
 * Exit status: 0 verified, 1 failure or mismatch. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/ttc.h"

#ifndef TTC_EXAMPLES_DIR
#define TTC_EXAMPLES_DIR "examples"
#endif

#define BLOCK_SIZE 1024
#define TIMED_LAUNCHES 50
#define WARMUP_LAUNCHES 5

/* Fixed-seed xorshift64: floats in [-1, 1) with 24 significant bits. */
static float next_float(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (float)((double)(*s >> 40) * (2.0 / 16777216.0) - 1.0);
}

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* Prints a failed runtime call with the device's message; returns 1. */
static int fail(const ttc_device *dev, ttc_status st, const char *what) {
  fprintf(stderr, "vector_add: %s failed: %s: %s\n", what, ttc_status_string(st),
          ttc_device_error(dev));
  return 1;
}

/* Median time of `timed` launches (at most TIMED_LAUNCHES), each between
 * its own event pair, after `warmup` launches. */
static int time_launches(ttc_device *dev, ttc_module *mod, const unsigned grid[3],
                         const ttc_arg *args, int warmup, int timed, float *median_ms) {
  ttc_event *start = NULL, *end = NULL;
  float times[TIMED_LAUNCHES];
  ttc_status st = ttc_event_create(dev, &start);
  if (st == TTC_OK) st = ttc_event_create(dev, &end);
  for (int i = 0; st == TTC_OK && i < warmup; i++)
    st = ttc_module_launch(mod, grid, NULL, args, 4);
  for (int i = 0; st == TTC_OK && i < timed; i++) {
    st = ttc_event_record(dev, start, NULL);
    if (st == TTC_OK) st = ttc_module_launch(mod, grid, NULL, args, 4);
    if (st == TTC_OK) st = ttc_event_record(dev, end, NULL);
    if (st == TTC_OK) st = ttc_event_elapsed(dev, start, end, &times[i]);
  }
  ttc_event_destroy(dev, start);
  ttc_event_destroy(dev, end);
  if (st != TTC_OK) return fail(dev, st, "timing");
  qsort(times, (size_t)timed, sizeof times[0], cmp_float);
  *median_ms = times[timed / 2];
  return 0;
}

/* Runs, checks and times the kernel on n elements; returns the exit status. */
static int run(ttc_device *dev, ttc_module *mod, int32_t n) {
  size_t bytes = (size_t)n * sizeof(float);
  float *x = malloc(bytes), *y = malloc(bytes), *out = malloc(bytes);
  uint64_t dx = 0, dy = 0, dout = 0;
  int rc = 1;
  ttc_status st = TTC_OK;
  if (!x || !y || !out) {
    fprintf(stderr, "vector_add: out of host memory for %d elements\n", (int)n);
    goto done;
  }
  uint64_t seed = 0x2545f4914f6cdd1dull;
  for (int32_t i = 0; i < n; i++) {
    x[i] = next_float(&seed);
    y[i] = next_float(&seed);
    out[i] = NAN; /* poison: an element the kernel skips cannot pass */
  }
  if ((st = ttc_device_alloc(dev, bytes, &dx)) != TTC_OK ||
      (st = ttc_device_alloc(dev, bytes, &dy)) != TTC_OK ||
      (st = ttc_device_alloc(dev, bytes, &dout)) != TTC_OK) {
    rc = fail(dev, st, "allocation");
    goto done;
  }
  if ((st = ttc_device_copy_to(dev, dx, x, bytes)) != TTC_OK ||
      (st = ttc_device_copy_to(dev, dy, y, bytes)) != TTC_OK ||
      (st = ttc_device_copy_to(dev, dout, out, bytes)) != TTC_OK) {
    rc = fail(dev, st, "copy to device");
    goto done;
  }
  const unsigned grid[3] = {(unsigned)((n + BLOCK_SIZE - 1) / BLOCK_SIZE), 1, 1};
  const ttc_arg args[4] = {ttc_arg_ptr(dx), ttc_arg_ptr(dy), ttc_arg_ptr(dout), ttc_arg_i32(n)};
  if ((st = ttc_module_launch(mod, grid, NULL, args, 4)) != TTC_OK ||
      (st = ttc_device_synchronize(dev)) != TTC_OK) {
    rc = fail(dev, st, "launch");
    goto done;
  }
  if ((st = ttc_device_copy_from(dev, out, dout, bytes)) != TTC_OK) {
    rc = fail(dev, st, "copy from device");
    goto done;
  }
  int64_t bad = 0;
  for (int32_t i = 0; i < n; i++) {
    float want = x[i] + y[i];
    if (out[i] == want) continue;
    if (bad++ < 5)
      fprintf(stderr, "vector_add: mismatch at %d: got %.9g, expected %.9g\n", (int)i,
              (double)out[i], (double)want);
  }
  if (bad) {
    fprintf(stderr, "vector_add: %lld of %d elements wrong\n", (long long)bad, (int)n);
    goto done;
  }
  bool on_cpu = ttc_device_is_interpreter(dev);
  if (on_cpu)
    printf("vector_add: %d elements verified on the CPU interpreter (%s)\n", (int)n,
           ttc_device_name(dev));
  else
    printf("vector_add: %d elements verified on %s (%s)\n", (int)n, ttc_device_name(dev),
           ttc_device_arch(dev));
  /* The interpreter takes a good fraction of a second per launch at the
   * default size: a few launches are enough to time it. */
  int timed = on_cpu ? 3 : TIMED_LAUNCHES;
  float ms = 0;
  if (time_launches(dev, mod, grid, args, on_cpu ? 0 : WARMUP_LAUNCHES, timed, &ms) != 0)
    goto done;
  double gbps = 3.0 * sizeof(float) * (double)n / (ms * 1e-3) / 1e9;
  printf("vector_add: median %.4f ms over %d launches, %.1f GB/s\n", (double)ms, timed, gbps);
  rc = 0;
done:
  ttc_device_free(dev, dx);
  ttc_device_free(dev, dy);
  ttc_device_free(dev, dout);
  free(x);
  free(y);
  free(out);
  return rc;
}

int main(int argc, char **argv) {
  const char *path = TTC_EXAMPLES_DIR "/vector_add/vector_add.py";
  long n = 1L << 24;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
      char *end = NULL;
      n = strtol(argv[++i], &end, 10);
      if (!end || *end || n < 1 || n > INT32_MAX) {
        fprintf(stderr, "vector_add: -n wants an element count in 1..2^31-1, got '%s'\n",
                argv[i]);
        return 1;
      }
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: vector_add [-n N] [kernel.py]\n");
      return 1;
    } else {
      path = argv[i];
    }
  }

  /* The device first, so that the kernel is compiled for its architecture.
   * ttc_device_open gives the CPU interpreter when TTC_INTERPRET=1; without
   * a GPU we ask for the interpreter ourselves. */
  char err[512] = "";
  ttc_device *dev = NULL;
  ttc_status dev_st = ttc_device_open(0, &dev, err, sizeof err);
  if (dev_st == TTC_ERROR_NO_DEVICE) {
    fprintf(stderr, "vector_add: no GPU (%s); running on the CPU interpreter\n", err);
    dev_st = ttc_device_open_interpreter(&dev, err, sizeof err);
  }
  if (dev_st != TTC_OK) {
    fprintf(stderr, "vector_add: opening a device failed: %s\n", err);
    return 1;
  }

  ttc_compile_options opts;
  ttc_compile_options_init(&opts);
  /* The interpreter runs the ttir: the GPU levels are not needed. */
  if (ttc_device_is_interpreter(dev)) opts.stop_after = TTC_LEVEL_TTIR;
  else opts.arch = ttc_device_arch(dev);
  /* Specialize as Triton's JIT does: an integer divisible by 16 gets the
   * hint, which lets the masked accesses be 128 bits wide. */
  const char *sig = n % 16 == 0 ? "*fp32:16,*fp32:16,*fp32:16,i32:16,1024"
                                : "*fp32:16,*fp32:16,*fp32:16,i32,1024";
  ttc_kernel *kernel = NULL;
  ttc_status st = ttc_compile_file(path, "add_kernel", sig, &opts, &kernel);
  if (st != TTC_OK) {
    fprintf(stderr, "vector_add: compiling %s failed: %s\n%s", path, ttc_status_string(st),
            kernel ? ttc_kernel_diagnostics(kernel) : "");
    ttc_kernel_destroy(kernel);
    ttc_device_destroy(dev);
    return 1;
  }
  ttc_module *mod = NULL;
  st = ttc_module_load(dev, kernel, &mod);
  ttc_kernel_destroy(kernel); /* the module keeps what it needs */
  int rc = st == TTC_OK ? run(dev, mod, (int32_t)n) : fail(dev, st, "module load");
  ttc_module_destroy(mod);
  ttc_device_destroy(dev);
  return rc;
}
