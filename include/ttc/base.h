// SPDX-License-Identifier: MIT
/* ttc/base.h - status codes and version shared by the whole public API.
 *
 * Every fallible function returns a ttc_status. Messages travel separately:
 * compile diagnostics live on the ttc_kernel, runtime errors on the ttc_device
 * (or in a caller-provided buffer where no object exists yet). */
#ifndef TTC_BASE_H
#define TTC_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(TTC_BUILDING_LIBRARY) && defined(__GNUC__)
#define TTC_API __attribute__((visibility("default")))
#else
#define TTC_API
#endif

#define TTC_VERSION_MAJOR 0
#define TTC_VERSION_MINOR 1
#define TTC_VERSION_PATCH 0
#define TTC_VERSION_STRING "0.1.0"
/* MAJOR * 10000 + MINOR * 100 + PATCH: 0.1.0 is 100. Compare it with
 * ttc_version_number() to learn which library a program was linked with. */
#define TTC_VERSION_NUMBER (TTC_VERSION_MAJOR * 10000 + TTC_VERSION_MINOR * 100 + TTC_VERSION_PATCH)

typedef enum ttc_status {
  TTC_OK = 0,
  TTC_ERROR_INPUT,       /* the kernel source or signature is wrong (see diagnostics) */
  TTC_ERROR_ARGUMENT,    /* an API argument is invalid (NULL, out of range, mismatch) */
  TTC_ERROR_UNSUPPORTED, /* valid input that ttc does not support yet */
  TTC_ERROR_IO,          /* a file could not be read or written */
  TTC_ERROR_TOOL,        /* an external tool (ptxas) failed or is missing */
  TTC_ERROR_LLVM,        /* LLVM rejected the generated module (internal bug) */
  TTC_ERROR_NO_DEVICE,   /* no CUDA driver or no GPU */
  TTC_ERROR_CUDA,        /* a CUDA driver call failed */
  TTC_ERROR_OUT_OF_MEMORY,
  TTC_ERROR_INTERNAL,
  TTC_ERROR_OUT_OF_BOUNDS /* the interpreter caught a memory access outside every allocation */
} ttc_status;

/* A static string naming the status ("ok", "input error", ...). Never NULL. */
TTC_API const char *ttc_status_string(ttc_status status);

/* The library version, e.g. "0.1.0". Static storage. */
TTC_API const char *ttc_version(void);

/* The library's TTC_VERSION_NUMBER (100 for 0.1.0): for a host that loads
 * the library at run time and must know which one it got. */
TTC_API unsigned long ttc_version_number(void);

/* The version of the LLVM the library was built with ("22.1.8"). Static storage. */
TTC_API const char *ttc_llvm_version(void);

/* The version of the ptxas compiles would run ("13.0.88"), written into
 * buf (NUL-terminated). `ptxas` as ttc_compile_options.ptxas (NULL: search
 * $TTC_PTXAS, PATH, the CUDA toolkit). TTC_ERROR_TOOL when none is found or
 * it reports no version, TTC_ERROR_ARGUMENT for a NULL buf or cap 0. */
TTC_API ttc_status ttc_ptxas_version(const char *ptxas, char *buf, size_t cap);

/* The targets --arch / ttc_compile_options.arch accept ("sm_80", "sm_90a",
 * ...), in order; ttc_target_name gives NULL out of range. Static storage.
 * "sm_90" compiles for "sm_90a". */
TTC_API int ttc_num_targets(void);
TTC_API const char *ttc_target_name(int index);

/* Scalar and element types of kernel parameters (Triton's spelling in comments). */
typedef enum ttc_type {
  TTC_TYPE_PTR,     /* *T: a 64-bit global pointer */
  TTC_TYPE_I1,      /* i1 */
  TTC_TYPE_I8,      /* i8 */
  TTC_TYPE_I16,     /* i16 */
  TTC_TYPE_I32,     /* i32 */
  TTC_TYPE_I64,     /* i64 */
  TTC_TYPE_U8,      /* u8 */
  TTC_TYPE_U16,     /* u16 */
  TTC_TYPE_U32,     /* u32 */
  TTC_TYPE_U64,     /* u64 */
  TTC_TYPE_F16,     /* fp16 */
  TTC_TYPE_BF16,    /* bf16 */
  TTC_TYPE_F32,     /* fp32 */
  TTC_TYPE_F64,     /* fp64 */
  TTC_TYPE_FP8E4NV, /* fp8e4nv: tl.float8e4nv, torch.float8_e4m3fn */
  TTC_TYPE_FP8E5    /* fp8e5: tl.float8e5, torch.float8_e5m2 */
} ttc_type;

/* Triton's name of a type ("fp32", "i32", "*" for pointers). Static storage. */
TTC_API const char *ttc_type_name(ttc_type type);

#ifdef __cplusplus
}
#endif
#endif
