// SPDX-License-Identifier: MIT
/* ttc/runtime.h - run compiled kernels on a GPU through the CUDA driver.
 *
 * libcuda.so.1 is opened at run time: programs link and start on machines
 * without a GPU, and ttc_device_open reports TTC_ERROR_NO_DEVICE there.
 * Nothing here prints or exits; each failure returns a status and leaves a
 * message naming the failing driver call (ttc_device_error). */
#ifndef TTC_RUNTIME_H
#define TTC_RUNTIME_H

#include "ttc/base.h"
#include "ttc/compile.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ttc_device ttc_device;
typedef struct ttc_module ttc_module;

/* Opens GPU `ordinal`. Uses the calling thread's current CUDA context when it
 * belongs to that device, else the device's primary context (retained until
 * ttc_device_destroy). On success *out is a new device owned by the caller,
 * who destroys it with ttc_device_destroy. On failure *out is NULL and, when
 * err is not NULL, a NUL-terminated message is written to err (at most errlen
 * bytes). Each call makes the device's context current on the calling thread,
 * so any thread may use a device, but one at a time: the device (its error
 * message, an interpreter's heap) is not synchronized. Launches are the
 * exception: ttc_module_launch (and kernel functions, ttc/function.h) may
 * run on several threads at once (on the interpreter they take turns); a
 * failure's message may then be overwritten by another's. */
TTC_API ttc_status ttc_device_open(int ordinal, ttc_device **out, char *err, size_t errlen);

/* Releases the primary context if it was retained. NULL is accepted.
 * Refused with TTC_ERROR_ARGUMENT (the device stays open) while modules or
 * kernel functions loaded on it are alive: destroy those first.
 * Returns TTC_ERROR_ARGUMENT, touching nothing, for a handle already destroyed
 * (docs/api.md, "Misuse"). */
TTC_API ttc_status ttc_device_destroy(ttc_device *dev);

/* The message of the last failed call on this device, "" if none. Borrowed. */
TTC_API const char *ttc_device_error(const ttc_device *dev);

/* Device name ("NVIDIA H100 80GB HBM3") and "sm_XY" architecture. Borrowed. */
TTC_API const char *ttc_device_name(const ttc_device *dev);
TTC_API const char *ttc_device_arch(const ttc_device *dev);
/* Streaming multiprocessors on the GPU (132 on an H100 SXM): the program
 * count of a persistent kernel with one program per multiprocessor (Triton's
 * NUM_SMS; times ttc_module_programs_per_sm to fill the GPU). The interpreter
 * reports 4, so that persistent kernels still walk their tile loop; 0 for
 * NULL. */
TTC_API int ttc_device_num_sms(const ttc_device *dev);

/* Device memory, addressed by 64-bit device pointers. Memory from
 * ttc_device_alloc belongs to the caller: ttc_device_free releases it (an
 * interpreter device also frees what is left in ttc_device_destroy). */
TTC_API ttc_status ttc_device_alloc(ttc_device *dev, size_t bytes, uint64_t *dptr);
TTC_API ttc_status ttc_device_free(ttc_device *dev, uint64_t dptr);
TTC_API ttc_status ttc_device_copy_to(ttc_device *dev, uint64_t dst, const void *src, size_t bytes);
TTC_API ttc_status ttc_device_copy_from(ttc_device *dev, void *dst, uint64_t src, size_t bytes);
TTC_API ttc_status ttc_device_synchronize(ttc_device *dev);
/* Sets `bytes` bytes from dptr to the byte `value`, and copies `bytes`
 * bytes between two device ranges, in the order of `stream` (NULL: the
 * default stream); asynchronous on a GPU, immediate on the interpreter. */
TTC_API ttc_status ttc_device_memset(ttc_device *dev, uint64_t dptr, int value, size_t bytes,
                                     void *stream);
TTC_API ttc_status ttc_device_copy(ttc_device *dev, uint64_t dst, uint64_t src, size_t bytes,
                                   void *stream);
/* The allocation holding dptr (cuMemGetAddressRange): its start in *base
 * and its size in *size. TTC_ERROR_ARGUMENT / CUDA when dptr is in none. */
TTC_API ttc_status ttc_device_address_range(ttc_device *dev, uint64_t dptr, uint64_t *base,
                                            size_t *size);

/* Events for timing on a stream (NULL: the default stream). ttc_event_create
 * gives the caller a new event, released with ttc_event_destroy on the same
 * device. */
typedef struct ttc_event ttc_event;
TTC_API ttc_status ttc_event_create(ttc_device *dev, ttc_event **out);
TTC_API ttc_status ttc_event_destroy(ttc_device *dev, ttc_event *ev);
TTC_API ttc_status ttc_event_record(ttc_device *dev, ttc_event *ev, void *stream);
/* Milliseconds between two recorded events; waits for `end`. */
TTC_API ttc_status ttc_event_elapsed(ttc_device *dev, ttc_event *start, ttc_event *end, float *ms);

/* One launch argument. Its type must match the kernel's parameter type: a
 * mismatch is TTC_ERROR_ARGUMENT naming the parameter. `pointee` is the
 * element type of a pointer: a kernel function (ttc/function.h)
 * specializes on it as Triton does on a tensor's dtype; TTC_TYPE_PTR means
 * "not given" (ttc_arg_ptr), which is enough for ttc_module_launch. */
typedef struct ttc_arg {
  ttc_type type;
  ttc_type pointee;
  union {
    uint64_t ptr;
    int64_t i; /* I1..I64, U8..U64: the value, truncated to the parameter width */
    double f;  /* F16, BF16, F32, F64: converted to the parameter type */
  } v;
} ttc_arg;

static inline ttc_arg ttc_arg_make(ttc_type type) {
  ttc_arg a;
  a.type = type;
  a.pointee = TTC_TYPE_PTR;
  a.v.i = 0;
  return a;
}
static inline ttc_arg ttc_arg_ptr(uint64_t p) {
  ttc_arg a = ttc_arg_make(TTC_TYPE_PTR);
  a.v.ptr = p;
  return a;
}
/* A pointer to elements of type `elem` (the tensor argument of a kernel function). */
static inline ttc_arg ttc_arg_ptr_to(ttc_type elem, uint64_t p) {
  ttc_arg a = ttc_arg_ptr(p);
  a.pointee = elem;
  return a;
}
static inline ttc_arg ttc_arg_bool(int x) {
  ttc_arg a = ttc_arg_make(TTC_TYPE_I1);
  a.v.i = x != 0;
  return a;
}
static inline ttc_arg ttc_arg_i32(int32_t x) {
  ttc_arg a = ttc_arg_make(TTC_TYPE_I32);
  a.v.i = x;
  return a;
}
static inline ttc_arg ttc_arg_i64(int64_t x) {
  ttc_arg a = ttc_arg_make(TTC_TYPE_I64);
  a.v.i = x;
  return a;
}
static inline ttc_arg ttc_arg_u32(uint32_t x) {
  ttc_arg a = ttc_arg_make(TTC_TYPE_U32);
  a.v.i = (int64_t)x;
  return a;
}
static inline ttc_arg ttc_arg_u64(uint64_t x) {
  ttc_arg a = ttc_arg_make(TTC_TYPE_U64);
  a.v.i = (int64_t)x;
  return a;
}
static inline ttc_arg ttc_arg_f32(float x) {
  ttc_arg a = ttc_arg_make(TTC_TYPE_F32);
  a.v.f = x;
  return a;
}
static inline ttc_arg ttc_arg_f64(double x) {
  ttc_arg a = ttc_arg_make(TTC_TYPE_F64);
  a.v.f = x;
  return a;
}

/* Loads the kernel's cubin into the device's context (its PTX through the
 * driver JIT when the cubin is absent or rejected). The module does not keep
 * a reference to `kernel`; it must not outlive `dev`. Caller frees with
 * ttc_module_destroy. */
TTC_API ttc_status ttc_module_load(ttc_device *dev, const ttc_kernel *kernel, ttc_module **out);
TTC_API ttc_status ttc_module_destroy(ttc_module *mod);

/* How many programs of this kernel one multiprocessor runs at once, given its
 * threads, registers and shared memory (cuOccupancyMaxActiveBlocksPerMultiprocessor)
 * in *out: a persistent kernel fills the GPU with ttc_device_num_sms times this
 * many programs. The interpreter, which runs one program at a time, reports 1.
 * On failure *out is 0 (when out is not NULL). */
TTC_API ttc_status ttc_module_programs_per_sm(ttc_module *mod, int *out);

/* Launches the kernel on a grid of programs (grid[0..2], each >= 1) with
 * num_warps * 32 threads per program, on `stream` (a CUstream; NULL: the
 * default stream). Arguments are checked against the parameter types. */
TTC_API ttc_status ttc_module_launch(ttc_module *mod, const unsigned grid[3], void *stream,
                                     const ttc_arg *args, size_t nargs);

/* ---- the CPU interpreter -------------------------------------------------
 * An interpreter device runs kernels on the host: it executes the kernel's
 * ttir for every program of the grid, one program after another, tile by
 * tile. Every call above works on it: device memory is host memory (the
 * uint64_t "device pointer" is the host address; copies are memcpy), events
 * read the host clock, launches run to completion before returning, and
 * ttc_module_load needs only a kernel compiled to TTC_LEVEL_TTIR or beyond.
 * Every global access is checked against the allocations made through
 * ttc_device_alloc: one outside all of them fails the launch with
 * TTC_ERROR_OUT_OF_BOUNDS and a device error naming the op's source
 * location, the program id and the address; a failed tt.assert fails it
 * with TTC_ERROR_INPUT. ttc_device_open itself returns an interpreter device
 * when the environment has TTC_INTERPRET=1 (docs/interpreter.md). */

/* Opens an interpreter device (never fails for want of a GPU). On failure
 * (out of memory) *out is NULL and a message is written to err. The caller
 * destroys the device with ttc_device_destroy, which frees every allocation
 * still held. */
TTC_API ttc_status ttc_device_open_interpreter(ttc_device **out, char *err, size_t errlen);

/* Nonzero when dev is an interpreter device; 0 for a GPU or NULL. */
TTC_API int ttc_device_is_interpreter(const ttc_device *dev);

/* What tt.print wrote during the most recent launch on an interpreter
 * device ("" when nothing, or on a GPU). The library never prints: the host
 * decides what to do with it. At most 64 MiB a launch (then one line says
 * the rest was dropped), as a GPU's printf buffer is bounded. Borrowed;
 * valid until the next launch or ttc_device_destroy. */
TTC_API const char *ttc_device_print_output(const ttc_device *dev);

#ifdef __cplusplus
}
#endif
#endif
