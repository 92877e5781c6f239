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

#include "common/example.h"
#include "ttc/ttc.h"

#ifndef TTC_EXAMPLES_DIR
#define TTC_EXAMPLES_DIR "examples"
#endif

#define BLOCK_SIZE 1024

static const char prog[] = "vector_add"; /* the prefix of every message */
/* The interpreter takes a good fraction of a second per launch at the
 * default size: a few launches are enough to time it. */
static const ex_timing timing = {.warmup = 5, .timed = 50, .interp_timed = 3};

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
  uint64_t seed = EX_SEED;
  for (int32_t i = 0; i < n; i++) {
    x[i] = ex_next_float(&seed);
    y[i] = ex_next_float(&seed);
    out[i] = NAN; /* poison: an element the kernel skips cannot pass */
  }
  if ((st = ttc_device_alloc(dev, bytes, &dx)) != TTC_OK ||
      (st = ttc_device_alloc(dev, bytes, &dy)) != TTC_OK ||
      (st = ttc_device_alloc(dev, bytes, &dout)) != TTC_OK) {
    rc = ex_fail(prog, dev, st, "allocation");
    goto done;
  }
  if ((st = ttc_device_copy_to(dev, dx, x, bytes)) != TTC_OK ||
      (st = ttc_device_copy_to(dev, dy, y, bytes)) != TTC_OK ||
      (st = ttc_device_copy_to(dev, dout, out, bytes)) != TTC_OK) {
    rc = ex_fail(prog, dev, st, "copy to device");
    goto done;
  }
  const unsigned grid[3] = {(unsigned)((n + BLOCK_SIZE - 1) / BLOCK_SIZE), 1, 1};
  const ttc_arg args[4] = {ttc_arg_ptr(dx), ttc_arg_ptr(dy), ttc_arg_ptr(dout), ttc_arg_i32(n)};
  if (ex_launch_once(prog, dev, mod, grid, args, 4) != 0) goto done;
  if ((st = ttc_device_copy_from(dev, out, dout, bytes)) != TTC_OK) {
    rc = ex_fail(prog, dev, st, "copy from device");
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
  float ms = 0;
  int timed = 0;
  if (ex_time_launches(prog, dev, mod, grid, args, 4, &timing, &ms, &timed) != 0) goto done;
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
      n = ex_parse_count(prog, "-n", argv[++i], INT32_MAX, "an element count", "2^31-1");
      if (n < 0) return 1;
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: vector_add [-n N] [kernel.py]\n");
      return 1;
    } else {
      path = argv[i];
    }
  }

  /* The device first, so that the kernel is compiled for its architecture. */
  ttc_device *dev = NULL;
  if (ex_open_device(prog, EX_OPEN_TERSE, &dev) != 0) return 1;

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
  int rc = st == TTC_OK ? run(dev, mod, (int32_t)n) : ex_fail(prog, dev, st, "module load");
  ttc_module_destroy(mod);
  ttc_device_destroy(dev);
  return rc;
}
