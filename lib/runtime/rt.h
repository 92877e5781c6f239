// SPDX-License-Identifier: MIT
/* rt.h - the internal header of lib/runtime: the CUDA driver loaded at run
 * time, devices, modules and launches, and the ttir interpreter that runs
 * kernels on the CPU behind the same API. Sections follow the defining files.
 * The structs behind the public opaque handles live here so that every file
 * of the layer can see them. */
#ifndef TTC_RT_H
#define TTC_RT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir-tt/ir.h"
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
  uint8_t u8;   /* fp8 bit patterns */
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
ttc_status rt_pack_args(const ttc_type *param_types, int nparams, const ttc_arg *args, size_t nargs,
                        rt_arg_storage *storage, void **slots, char *err, size_t errlen);

/* A parameter the kernel was specialized for: its address (pointers) or
 * value (integers) is a multiple of `divisor`. */
typedef struct rt_param_check {
  int param;
  unsigned divisor;
  bool must_be_one; /* a tensor descriptor's last stride */
  char name[32];    /* the parameter's name in the kernel's ttir, "" if unknown */
} rt_param_check;

/* Checks packed arguments against the specialization, for the GPU and the
 * interpreter alike (a violated hint is out-of-bounds memory on a GPU).
 * TTC_ERROR_ARGUMENT with a message naming the parameter, its value and
 * what the kernel assumed; TTC_OK otherwise. */
ttc_status rt_check_specialization(const rt_param_check *checks, int nchecks,
                                   const ttc_type *param_types, const rt_arg_storage *storage,
                                   char *err, size_t errlen);

/* The grid limits of a launch, the GPU's: x up to 2^31-1, y and z up to
 * 65535, none zero. TTC_ERROR_ARGUMENT with a message otherwise. */
ttc_status rt_check_grid(const unsigned grid[3], char *err, size_t errlen);

/* Rounds x to the nearest IEEE binary format with `ebits` exponent and
 * `mbits` fraction bits (at most 16 bits in all), ties to even; overflow
 * gives infinity, NaN a quiet NaN. f16: (5, 10); bf16: (8, 7). */
uint16_t rt_round_half(double x, int ebits, int mbits);

/* The name of a type in messages: "pointer", or Triton's ("i32", "fp16"). */
const char *rt_type_label(ttc_type type);

/* ---- interp_heap.c: the interpreter's host allocations ------------------ */

/* One allocation: `size` bytes at `base` (the address kernels see), inside
 * the malloc'd block `raw`, which also holds a red zone after the end so
 * that a near miss never lands in a neighbouring allocation. */
typedef struct rt_heap_block {
  uint64_t base;
  size_t size;
  void *raw;
} rt_heap_block;

/* The allocations of an interpreter device, sorted by base (binary search
 * for bounds checks). Owns every block. A lock makes its calls safe from
 * several threads at once (allocations in one while launches check their
 * accesses in others; autotuning allocates inside a launch): alloc and
 * free write, find and describe read, and find returns a copy. Freeing a
 * buffer while a kernel on another thread reads it is the caller's race, as
 * on a GPU. */
typedef struct rt_heap {
  rt_heap_block *blocks;
  size_t n, cap;
  pthread_rwlock_t lock;
} rt_heap;

void rt_heap_init(rt_heap *h);
void rt_heap_destroy(rt_heap *h); /* frees every block and the table */
/* A new zeroed allocation, 256-byte aligned like cuMemAlloc. */
ttc_status rt_heap_alloc(rt_heap *h, size_t bytes, uint64_t *addr);
/* Frees the allocation starting at addr; false if there is none. */
bool rt_heap_free(rt_heap *h, uint64_t addr);
/* Whether one allocation holds [addr, addr + bytes); it goes to *out (may
 * be NULL). */
bool rt_heap_find(rt_heap *h, uint64_t addr, size_t bytes, rt_heap_block *out);
/* Explains why [addr, addr + bytes) is outside every allocation:
 * "address 0x... is 4 bytes past the end of a 4096-byte allocation at 0x...". */
void rt_heap_describe(rt_heap *h, uint64_t addr, size_t bytes, char *out, size_t cap);

/* ---- interp.c: the ttir interpreter --------------------------------------- */

/* A kernel prepared for interpretation: its ttir function compiled into a
 * tree of instructions over numbered value slots (see interp_impl.h). */
typedef struct rt_interp rt_interp;

/* Prepares `func` (a tt.func after the ttir passes). The interpreter
 * borrows the IR: the module and its context must outlive it. Returns NULL
 * and writes a located message to err when the function uses an op the
 * interpreter cannot run, or on OOM. Caller frees with rt_interp_destroy. */
rt_interp *rt_interp_prepare(const ir_op *func, char *err, size_t errlen);
void rt_interp_destroy(rt_interp *ip);

/* The number of runtime parameters and the byte size of parameter i in its
 * packed encoding (rt_arg_storage's low bytes). */
int rt_interp_num_params(const rt_interp *ip);

/* Runs every program of the grid, one after another (x fastest), over the
 * host memory of `heap`. args[i] holds parameter i packed by rt_pack_args.
 * tt.print output is appended to `print` (may be NULL: dropped). On failure
 * returns the status and writes a message naming the op's location and the
 * program: TTC_ERROR_OUT_OF_BOUNDS for memory outside every allocation,
 * TTC_ERROR_INPUT for a failed tt.assert, TTC_ERROR_OUT_OF_MEMORY. */
ttc_status rt_interp_run(const rt_interp *ip, rt_heap *heap, const unsigned grid[3],
                         const rt_arg_storage *args, int nargs, ir_strbuf *print, char *err,
                         size_t errlen);

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
  CUresult (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int, size_t);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, CUstream, void **, void **);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*MemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*MemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
  CUresult (*MemGetAddressRange)(CUdeviceptr *, size_t *, CUdeviceptr);
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
void rt_cuda_format(const rt_cuda *cu, CUresult res, const char *call, char *err, size_t errlen);

/* ---- handles.c: the registry of live public handles ----------------------- */

typedef enum rt_handle_kind {
  RT_HANDLE_KERNEL = 1,
  RT_HANDLE_DEVICE,
  RT_HANDLE_MODULE,
  RT_HANDLE_EVENT,
  RT_HANDLE_FUNCTION,
  RT_HANDLE_IR_RESULT,
} rt_handle_kind;

/* Records h as a live handle of `kind` (at creation); false on OOM. */
bool rt_handle_add(const void *h, rt_handle_kind kind);
/* Whether h is a live handle of `kind`: public calls check before use. */
bool rt_handle_live(const void *h, rt_handle_kind kind);
/* Forgets h (at destroy); false if it was not live: a second destroy, or
 * not a handle of that kind, which the caller then refuses. */
bool rt_handle_remove(const void *h, rt_handle_kind kind);
#define RT_DEV_LIVE(dev) rt_handle_live((dev), RT_HANDLE_DEVICE)

/* ---- device.c: devices, memory, events ----------------------------------- */

#define RT_ERROR_LEN 1024

struct ttc_device {
  bool is_interp;              /* the CPU interpreter: no CUDA below is used */
  pthread_mutex_t interp_lock; /* interpreter: launches run one at a time */
  rt_heap heap;                /* interpreter: the host allocations (empty on a GPU) */
  ir_strbuf print;             /* interpreter: tt.print output of the last launch */
  rt_cuda cu;
  CUdevice cudev;
  CUcontext ctx;
  bool owns_primary;     /* the primary context was retained by us: release it */
  atomic_int nmodules;   /* modules loaded and not destroyed: destroy is refused while > 0 */
  atomic_int nfunctions; /* kernel functions made on it and not destroyed: the same */
  int ordinal;
  char name[256];
  char arch[16];            /* "sm_90" */
  int num_sms;              /* multiprocessors (the interpreter: 4) */
  char error[RT_ERROR_LEN]; /* last failure message, "" if none */
};

struct ttc_event {
  CUevent ev;
  double host_ms; /* interpreter: the host clock when recorded */
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
  ttc_device *dev;   /* borrowed: the module must not outlive it */
  rt_interp *interp; /* interpreter devices: the prepared ttir (owned), else NULL */
  ir_module *ir;     /* interpreter: the ttir rt_interp borrows (owned) */
  ir_context *irctx; /* interpreter: its context (owned, destroyed after ir) */
  CUmodule cumod;
  CUfunction fn;
  unsigned block_x;      /* num_warps * 32 */
  unsigned shared_bytes; /* dynamic shared memory per program */
  int nparams;
  /* The launch's specialization checks, made at load: the parameters the
   * kernel assumes divisible (':16'), usually none to a few. */
  int nchecks;
  rt_param_check *checks; /* in the same allocation, after param_types */
  ttc_type param_types[]; /* nparams entries */
};

/* ---- interp_device.c: the interpreter behind the public device API -------- */

/* Each mirrors the public call of the same name for an interpreter device
 * (dev->is_interp); device.c, module.c and launch.c branch to them. */
void rt_idev_destroy(ttc_device *dev);
ttc_status rt_idev_alloc(ttc_device *dev, size_t bytes, uint64_t *dptr);
ttc_status rt_idev_free(ttc_device *dev, uint64_t dptr);
ttc_status rt_idev_copy_to(ttc_device *dev, uint64_t dst, const void *src, size_t bytes);
ttc_status rt_idev_copy_from(ttc_device *dev, void *dst, uint64_t src, size_t bytes);
ttc_status rt_idev_copy(ttc_device *dev, uint64_t dst, uint64_t src, size_t bytes);
ttc_status rt_idev_memset(ttc_device *dev, uint64_t dptr, int value, size_t bytes);
ttc_status rt_idev_address_range(ttc_device *dev, uint64_t dptr, uint64_t *base, size_t *size);
/* The host's monotonic clock in milliseconds (events). */
double rt_idev_now_ms(void);
/* Parses the kernel's ttir (ttc_kernel_ttir_located) and prepares it into
 * mod (ir, irctx, interp); on failure the device error says why and the
 * caller releases mod with rt_idev_module_release. */
ttc_status rt_idev_module_prepare(ttc_device *dev, const ttc_kernel *kernel, ttc_module *mod);
void rt_idev_module_release(ttc_module *mod);
/* Runs the grid; args are packed (rt_pack_args). Synchronous; launches on
 * one device are serialized (the heap and the print buffer are shared), so
 * that kernel functions may launch from several threads. */
ttc_status rt_idev_launch(ttc_module *mod, const unsigned grid[3], const rt_arg_storage *args);

#endif /* TTC_BUILDING_LIBRARY */

#endif
