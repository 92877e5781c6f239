// SPDX-License-Identifier: MIT
/* ttc/aot.h - ahead-of-time launchers, as triton.tools.compile and
 * triton.tools.link make them: a C source and a header that embed the
 * cubins of one or more specializations of a kernel, a load/unload pair,
 * and one typed launcher that picks the specialization from the argument
 * values at run time (alignment, divisibility, values specialized to
 * constants) and returns a CUresult. The generated files need only cuda.h
 * and libcuda: an application ships its kernels without LLVM, ptxas or
 * libttc. `ttc --aot` writes them (docs/cli.md). */
#ifndef TTC_AOT_H
#define TTC_AOT_H

#include "ttc/base.h"
#include "ttc/compile.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ttc_aot_options {
  size_t size; /* sizeof(ttc_aot_options) as the caller knows it (the init sets it) */
  /* The launcher's name (a C identifier of at most 128 characters that
   * starts with a letter, is no C or C++ keyword, and is none of cuda.h's
   * (cu + a capital, CU...), <stdint.h>'s (int32_t, INT32_MAX, ...) or the
   * generated code's (ttc_...)); NULL: the kernel's. Parameters follow the
   * same rules and may not start with NAME_. The loader and unloader are
   * load_NAME and unload_NAME. */
  const char *name;
  /* The grid as up to three expressions over the runtime parameters, the
   * numeric constexprs and cdiv(a, b): "cdiv(n_elements, BLOCK_SIZE)".
   * Allowed: decimal and 0x integer literals, unary - + ! ~, binary
   * arithmetic, shift, comparison, bitwise and logical operators, ?: and
   * parentheses; integers are evaluated as int64_t, every operation is
   * written in parentheses as parsed (C's precedence), and a constant
   * division by zero, shift out of 0..63 or overflow is refused. Missing
   * dimensions are 1. NULL: the launcher takes the grid as its arguments
   * gx, gy, gz. */
  const char *grid;
  /* How the C source includes the header (no '"', '\\' or line break);
   * NULL: "NAME.h". */
  const char *header_name;
} ttc_aot_options;

/* Fills the first `size` bytes of *opts with the defaults above (all NULL)
 * and sets opts->size; call it through ttc_aot_options_init. */
TTC_API void ttc_aot_options_init_sized(ttc_aot_options *opts, size_t size);
#define ttc_aot_options_init(opts) ttc_aot_options_init_sized((opts), sizeof *(opts))

/* Generates the launcher for `kernels[0..n)`: specializations of one
 * kernel (the same function of the same file), each compiled to
 * TTC_LEVEL_CUBIN. The launcher tries the most specialized first and
 * returns CUDA_ERROR_INVALID_VALUE when no specialization accepts the
 * arguments, CUDA_ERROR_NOT_INITIALIZED before load_NAME.
 * On success *source and *header receive the C texts (caller frees); on
 * failure they are NULL and *error (caller frees; may be NULL to ignore)
 * says why: TTC_ERROR_ARGUMENT for kernels that are not specializations of
 * one kernel or lack a cubin, TTC_ERROR_UNSUPPORTED for parameters a C
 * launcher cannot take (an fp16 scalar, a name that C or C++ cannot use
 * or that clashes with the generated code's). A constexpr that is no
 * number (a string, a dtype, None) is left out of the launcher. */
TTC_API ttc_status ttc_aot_generate(const ttc_kernel *const *kernels, int nkernels,
                                    const ttc_aot_options *opts, char **source, char **header,
                                    char **error);

#ifdef __cplusplus
}
#endif
#endif
