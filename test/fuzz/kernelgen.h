// SPDX-License-Identifier: MIT
/* kernelgen.h - random valid Triton kernels for differential testing
 * (kernelgen.c), and what a run needs to know about each: its buffers,
 * scalars and grid, and which outputs every path must compute bitwise.
 * kgrun.c runs them on the interpreter and the GPU and compares. */
#ifndef TTC_TEST_KERNELGEN_H
#define TTC_TEST_KERNELGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ttc/ttc.h"

#define KG_MAX_BUFS 8
#define KG_KERNEL_NAME "kg_kernel"

/* A pointer parameter: inputs first, then outputs, in parameter order. */
typedef struct kg_buf {
  ttc_type type; /* TTC_TYPE_F32, F16 or I32 */
  size_t n;      /* elements */
  bool is_output;
  /* Inputs: values j * 2^q in [-bound, bound] (integers: q = 0). Outputs:
   * |value| <= bound; exact: every element is computed without rounding
   * (or with IEEE-exact, order-independent rounding), so every path must
   * give the same bits; otherwise a GPU may differ within a tolerance
   * (approximate math, fused multiply-add, reduction order). */
  double bound;
  int q;
  bool exact;
} kg_buf;

/* One generated kernel: `KG_KERNEL_NAME(in0.., out0.., n, k, R, C)`, one
 * R x C tile of the flat range [0, n) per program of a 1-D grid; k is a
 * small loop count / branch selector. */
typedef struct kg_kernel {
  char *src; /* the kernel file, NUL-terminated (owned: kg_kernel_free) */
  char sig[256];
  uint64_t seed;
  kg_buf bufs[KG_MAX_BUFS];
  int nbufs;
  int n, k;
  unsigned grid;
  int rows, cols; /* the constexprs R and C */
} kg_kernel;

/* Generates the kernel of `seed` (the same seed always gives the same
 * kernel) into *out; false when memory ran out. */
bool kg_generate(uint64_t seed, kg_kernel *out);
void kg_kernel_free(kg_kernel *k);

/* The same xorshift generator the kernels are drawn with (state != 0). */
uint64_t kg_rand(uint64_t *state);

#endif
