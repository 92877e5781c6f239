// SPDX-License-Identifier: MIT
/* main.c - the vector_add example: makes a kernel function of add_kernel in
 * examples/vector_add/vector_add.py (ttc/function.h: no signature string;
 * the first launch derives the specialization from the arguments as
 * Triton's JIT does, compiles it or reads it from the disk cache), adds two
 * random vectors on the GPU (or, when there is none or TTC_INTERPRET=1, on
 * ttc's CPU interpreter), checks every element against the same float
 * addition on the CPU, and reports timing. The host code is the same on
 * both paths; only the device differs.
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

/* One launch of the kernel function, as ex_time takes it. */
typedef struct add_launch {
  ttc_function *f;
  unsigned grid[3];
  ttc_arg args[4];
} add_launch;

static ttc_status launch_add(void *user) {
  add_launch *l = user;
  return ttc_function_launch(l->f, l->grid, NULL, l->args, 4);
}

/* Runs, checks and times the kernel on n elements; returns the exit status. */
static int run(ttc_device *dev, ttc_function *f, int32_t n) {
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
  /* Typed arguments: the pointers' element type and n's value decide the
   * specialization (n % 16 == 0 gives the hint that makes the accesses
   * 128 bits wide; 16-byte aligned pointers get theirs too). */
  add_launch l = {f,
                  {(unsigned)((n + BLOCK_SIZE - 1) / BLOCK_SIZE), 1, 1},
                  {ttc_arg_ptr_to(TTC_TYPE_F32, dx), ttc_arg_ptr_to(TTC_TYPE_F32, dy),
                   ttc_arg_ptr_to(TTC_TYPE_F32, dout), ttc_arg_i32(n)}};
  st = launch_add(&l);
  if (st == TTC_OK) st = ttc_device_synchronize(dev);
  if (st != TTC_OK) {
    char *why = ttc_function_error(f);
    fprintf(stderr, "vector_add: launch failed: %s: %s\n", ttc_status_string(st), why);
    free(why);
    goto done;
  }
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
  if (ex_time(prog, dev, launch_add, &l, &timing, &ms, &timed) != 0) goto done;
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

  /* The kernel function; BLOCK_SIZE is the constexpr the launch does not
   * pass. Nothing is compiled before the first launch. */
  ttc_function *f = NULL;
  char size[32];
  snprintf(size, sizeof size, "BLOCK_SIZE=%d", BLOCK_SIZE);
  ttc_status st = ttc_function_create_file(dev, path, "add_kernel", size, NULL, &f);
  int rc;
  if (st != TTC_OK) {
    char *why = ttc_function_error(f);
    fprintf(stderr, "vector_add: %s: %s\n%s\n", path, ttc_status_string(st), why ? why : "");
    free(why);
    rc = 1;
  } else {
    rc = run(dev, f, (int32_t)n);
  }
  ttc_function_destroy(f); /* before the device */
  ttc_device_destroy(dev);
  return rc;
}
