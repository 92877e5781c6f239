// SPDX-License-Identifier: MIT
/* main.c - the AOT example: vector addition through a launcher that
 * `ttc --aot` generated at build time from examples/vector_add/vector_add.py
 * (two specializations: 16-byte aligned pointers with n divisible by 16,
 * and the general one). This program uses only cuda.h and libcuda: no
 * libttc, no LLVM, no ptxas at run time. It adds two vectors twice, once
 * aligned (the specialized kernel) and once through pointers 4 bytes off
 * with an odd n (the general one), checks every element, and times the
 * launcher against back-to-back launches.
 *
 * usage: aot_vector_add [-n N]       (default 2^20)
 * Exit status: 0 verified, 1 failure, 2 no GPU. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda.h>

#include "add_kernel.h" /* generated: load_add_kernel, add_kernel, unload_add_kernel */

static int check(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS) return 0;
  const char *name = NULL;
  cuGetErrorName(r, &name);
  fprintf(stderr, "aot_vector_add: %s failed: %s\n", what, name ? name : "?");
  return 1;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Adds n floats starting `offset` elements into the buffers; checks them. */
static int add_and_check(CUdeviceptr dx, CUdeviceptr dy, CUdeviceptr dz, float *x, float *y,
                         float *z, int32_t n, int offset) {
  size_t bytes = (size_t)(n + offset) * sizeof(float);
  for (int i = 0; i < n + offset; i++) {
    x[i] = (float)(i % 1000) * 0.25f;
    y[i] = (float)(i % 7) - 3.0f;
    z[i] = -1.0f;
  }
  if (check(cuMemcpyHtoD(dx, x, bytes), "cuMemcpyHtoD") ||
      check(cuMemcpyHtoD(dy, y, bytes), "cuMemcpyHtoD") ||
      check(cuMemcpyHtoD(dz, z, bytes), "cuMemcpyHtoD"))
    return 1;
  CUdeviceptr o = (CUdeviceptr)offset * sizeof(float);
  if (check(add_kernel(NULL, dx + o, dy + o, dz + o, n), "add_kernel") ||
      check(cuCtxSynchronize(), "cuCtxSynchronize") ||
      check(cuMemcpyDtoH(z, dz, bytes), "cuMemcpyDtoH"))
    return 1;
  for (int i = offset; i < n + offset; i++)
    if (z[i] != x[i] + y[i]) {
      fprintf(stderr, "aot_vector_add: mismatch at %d: %g, expected %g\n", i, (double)z[i],
              (double)(x[i] + y[i]));
      return 1;
    }
  printf("aot_vector_add: n=%d, pointers %s: verified\n", (int)n,
         offset ? "4 bytes off 16-byte alignment (general specialization)"
                : "16-byte aligned, n %% 16 == 0 (specialized)");
  return 0;
}

int main(int argc, char **argv) {
  int32_t n = 1 << 20;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
      n = (int32_t)atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: aot_vector_add [-n N]\n");
      return 1;
    }
  }
  n = n < 32 ? 32 : n & ~15; /* the first run needs n % 16 == 0 */
  CUdevice cudev;
  CUcontext ctx;
  CUresult r = cuInit(0);
  if (r == CUDA_SUCCESS) r = cuDeviceGet(&cudev, 0);
  if (r == CUDA_SUCCESS) r = cuDevicePrimaryCtxRetain(&ctx, cudev);
  if (r == CUDA_SUCCESS) r = cuCtxSetCurrent(ctx);
  if (r != CUDA_SUCCESS) {
    const char *name = NULL;
    cuGetErrorName(r, &name);
    fprintf(stderr, "aot_vector_add: no GPU (%s)\n", name ? name : "?");
    return 2;
  }
  int rc = 1;
  size_t bytes = (size_t)(n + 1) * sizeof(float);
  float *x = malloc(bytes), *y = malloc(bytes), *z = malloc(bytes);
  CUdeviceptr dx = 0, dy = 0, dz = 0;
  double t0 = now_ms();
  if (!x || !y || !z || check(load_add_kernel(), "load_add_kernel")) goto done;
  printf("aot_vector_add: load_add_kernel took %.3f ms\n", now_ms() - t0);
  if (check(cuMemAlloc(&dx, bytes), "cuMemAlloc") || check(cuMemAlloc(&dy, bytes), "cuMemAlloc") ||
      check(cuMemAlloc(&dz, bytes), "cuMemAlloc"))
    goto done;
  if (add_and_check(dx, dy, dz, x, y, z, n, 0) || add_and_check(dx, dy, dz, x, y, z, n - 15, 1))
    goto done;
  /* host time per launch through the generated launcher, back to back */
  enum { LAUNCHES = 20000 };
  for (int i = 0; i < LAUNCHES / 10; i++)
    add_kernel(NULL, dx, dy, dz, 1024);
  cuCtxSynchronize();
  t0 = now_ms();
  for (int i = 0; i < LAUNCHES; i++)
    if (check(add_kernel(NULL, dx, dy, dz, 1024), "add_kernel")) goto done;
  if (check(cuCtxSynchronize(), "cuCtxSynchronize")) goto done;
  printf("aot_vector_add: launch us=%.3f (host time per launch, %d launches of n=1024)\n",
         (now_ms() - t0) * 1e3 / LAUNCHES, LAUNCHES);
  rc = 0;
done:
  if (dx) cuMemFree(dx);
  if (dy) cuMemFree(dy);
  if (dz) cuMemFree(dz);
  unload_add_kernel();
  cuDevicePrimaryCtxRelease(cudev);
  free(x);
  free(y);
  free(z);
  return rc;
}
