/* rt.h - the internal header of lib/runtime: the CUDA driver loaded at run
 * time, devices, modules and launches. Sections follow the defining files.
 * The structs behind the public opaque handles live here so that every file
 * of the layer can see them. */
#ifndef TTC_RT_H
#define TTC_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ttc/runtime.h"

/* ---- launch.c: argument packing and launch ------------------------------- */

/* One packed kernel argument: the value in its parameter's encoding, in the
 * low bytes (little endian), so the driver reads exactly the parameter size
 * from the start. Integers are stored zero-extended from the parameter width. */
typedef union rt_arg_storage {
  uint64_t u64;
  double f64;
  float f32;
  uint16_t u16; /* f16, bf16 bit patterns */
} rt_arg_storage;

/* Checks args against the parameter types and packs them: storage[i] gets
 * argument i in the encoding of param_types[i] and slots[i] = &storage[i]
 * (the kernelParams array of cuLaunchKernel). storage and slots hold at least
 * nparams entries, owned by the caller. Pure: no allocation, no driver.
 * Rules: pointer args only for pointer params; integer args for integer params
 * (truncated to the parameter width; i1 takes value != 0); float args for
 * float params (f16/bf16 rounded to nearest even straight from the double).
 * On a mismatch returns TTC_ERROR_ARGUMENT and writes to err (when not NULL)
 * "argument 3 expects i32, got pointer", indices 0-based as in
 * ttc_kernel_param_type, or "expected 4 arguments, got 3". */
ttc_status rt_pack_args(const ttc_type *param_types, int nparams, const ttc_arg *args,
                        size_t nargs, rt_arg_storage *storage, void **slots, char *err,
                        size_t errlen);

/* Rounds x to the nearest IEEE binary format with `ebits` exponent and
 * `mbits` fraction bits (at most 16 bits in all), ties to even; overflow
 * gives infinity, NaN a quiet NaN. f16: (5, 10); bf16: (8, 7). */
uint16_t rt_round_half(double x, int ebits, int mbits);

/* The name of a type in messages: "pointer", or Triton's ("i32", "fp16"). */
const char *rt_type_label(ttc_type type);

/* The CUDA-facing sections need the toolkit's cuda.h (types and enums only:
 * libcuda is never linked), which is on the include path of the library's
 * own files alone; unit tests see just the pure parts above. */
#ifdef TTC_BUILDING_LIBRARY
#include <cuda.h>

/* ---- cuda.c: the driver entry points ------------------------------------- */

/* The CUDA version whose entry-point semantics we ask cuGetProcAddress for.
 * 12.0 fixes the ABI of every function below (e.g. cuMemAlloc -> _v2,
 * cuDevicePrimaryCtxRelease -> _v2) and works with any 12.x or newer driver. */
#define RT_CUDA_API_VERSION 12000

/* The driver entry points the runtime uses, resolved once per device through
 * cuGetProcAddress_v2. `dl` is the dlopen handle that keeps them valid. The
 * table is written only by rt_cuda_load and read-only afterwards. */
typedef struct rt_cuda {
  void *dl;
  CUresult (*GetErrorName)(CUresult, const char **);
  CUresult (*GetErrorString)(CUresult, const char **);
  CUresult (*Init)(unsigned);
  CUresult (*DriverGetVersion)(int *);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DeviceGetCount)(int *);
  CUresult (*DeviceGetName)(char *, int, CUdevice);
  CUresult (*DeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
  CUresult (*CtxGetCurrent)(CUcontext *);
  CUresult (*CtxSetCurrent)(CUcontext);
  CUresult (*CtxGetDevice)(CUdevice *);
  CUresult (*CtxSynchronize)(void);
  CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*DevicePrimaryCtxRelease)(CUdevice);
  CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, CUjit_option *, void **);
  CUresult (*ModuleUnload)(CUmodule);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*FuncSetAttribute)(CUfunction, CUfunction_attribute, int);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, CUstream, void **, void **);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*EventCreate)(CUevent *, unsigned);
  CUresult (*EventRecord)(CUevent, CUstream);
  CUresult (*EventSynchronize)(CUevent);
  CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*EventDestroy)(CUevent);
} rt_cuda;

/* Opens libcuda.so.1 and fills *cu. On failure returns TTC_ERROR_NO_DEVICE
 * with a message in err ("no CUDA driver: libcuda.so.1 not found") and leaves
 * nothing open. The caller closes a loaded table with rt_cuda_unload. */
ttc_status rt_cuda_load(rt_cuda *cu, char *err, size_t errlen);
void rt_cuda_unload(rt_cuda *cu);

/* Writes "<call> failed: CUDA_ERROR_X (driver's description)" into err. */
void rt_cuda_format(const rt_cuda *cu, CUresult res, const char *call, char *err,
                    size_t errlen);

/* ---- device.c: devices, memory, events ----------------------------------- */

#define RT_ERROR_LEN 1024

struct ttc_device {
  rt_cuda cu;
  CUdevice cudev;
  CUcontext ctx;
  bool owns_primary; /* the primary context was retained by us: release it */
  int ordinal;
  char name[256];
  char arch[16];            /* "sm_90" */
  char error[RT_ERROR_LEN]; /* last failure message, "" if none */
};

struct ttc_event {
  CUevent ev;
};

/* Makes the device's context current on the calling thread (a thread-local
 * store in the driver, so it is cheap enough for the launch path). Returns
 * TTC_ERROR_CUDA with the device error set on failure. */
ttc_status rt_device_enter(ttc_device *dev);

/* Records a failed driver call on the device and returns TTC_ERROR_CUDA
 * (TTC_ERROR_OUT_OF_MEMORY for CUDA_ERROR_OUT_OF_MEMORY). */
ttc_status rt_device_fail(ttc_device *dev, CUresult res, const char *call);

/* Records a non-CUDA failure message on the device and returns `st`. */
ttc_status rt_device_failf(ttc_device *dev, ttc_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- module.c: loaded kernels -------------------------------------------- */

/* Kernels with more runtime parameters than this are refused at load time, so
 * that a launch packs its arguments on the stack (no malloc in the hot path).
 * CUDA's 4 KiB parameter space allows at most 512 eight-byte parameters. */
#define RT_MAX_PARAMS 512

struct ttc_module {
  ttc_device *dev; /* borrowed: the module must not outlive it */
  CUmodule cumod;
  CUfunction fn;
  unsigned block_x;      /* num_warps * 32 */
  unsigned shared_bytes; /* dynamic shared memory per program */
  int nparams;
  ttc_type param_types[]; /* nparams entries */
};

#endif /* TTC_BUILDING_LIBRARY */

#endif
