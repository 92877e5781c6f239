/* cuda_stub.c - a stand-in libcuda.so.1 with the few driver entry points
 * the AOT launchers and examples/aot call. It lets CI link the AOT example
 * (at run time the real driver is found by its soname) and run the
 * dispatch tests of generated launchers: module loads and launches are
 * recorded, not executed. cuInit reports no device, so programs that look
 * for a GPU through it stop there. */
#include <string.h>

#include <cuda.h>

#include "cuda_stub.h"

#define STUB_MAX_MODULES 64

static int nmodules, loaded, all_elf = 1, nlaunches;
static int param_sizes[STUB_MAX_PARAMS], nparam_sizes;
static stub_launch last;

void stub_expect_params(const int *sizes, int n) {
  nparam_sizes = n < STUB_MAX_PARAMS ? n : STUB_MAX_PARAMS;
  memcpy(param_sizes, sizes, sizeof(int) * (size_t)nparam_sizes);
}
int stub_launch_count(void) { return nlaunches; }
const stub_launch *stub_last_launch(void) { return &last; }
int stub_modules_loaded(void) { return loaded; }
int stub_images_are_elf(void) { return all_elf; }

/* Handles: module i is i + 1; its function is 1000 + i. */
CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image) {
  if (nmodules == STUB_MAX_MODULES) return CUDA_ERROR_OUT_OF_MEMORY;
  all_elf &= memcmp(image, "\177ELF", 4) == 0;
  *module = (CUmodule)(intptr_t)(++nmodules);
  loaded++;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleUnload(CUmodule module) {
  (void)module;
  loaded--;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction *fn, CUmodule module, const char *name) {
  if (!name || !*name) return CUDA_ERROR_NOT_FOUND;
  *fn = (CUfunction)(intptr_t)(1000 + (intptr_t)module - 1);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncSetAttribute(CUfunction fn, CUfunction_attribute attr, int value) {
  (void)fn;
  (void)attr;
  (void)value;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                unsigned by, unsigned bz, unsigned shared, CUstream stream,
                                void **params, void **extra) {
  (void)extra;
  memset(&last, 0, sizeof last);
  last.module = (int)((intptr_t)f - 1000);
  last.grid[0] = gx;
  last.grid[1] = gy;
  last.grid[2] = gz;
  last.block[0] = bx;
  last.block[1] = by;
  last.block[2] = bz;
  last.shared = shared;
  last.stream = stream;
  last.nparams = nparam_sizes;
  for (int i = 0; params && i < nparam_sizes; i++)
    memcpy(&last.params[i], params[i], (size_t)param_sizes[i]);
  nlaunches++;
  return CUDA_SUCCESS;
}

/* What a host program needs to find that there is no GPU here. */
CUresult CUDAAPI cuInit(unsigned flags) {
  (void)flags;
  return CUDA_ERROR_NO_DEVICE;
}

CUresult CUDAAPI cuGetErrorName(CUresult error, const char **name) {
  *name =
      error == CUDA_ERROR_NO_DEVICE ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR (ttc's stub libcuda)";
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGet(CUdevice *dev, int ordinal) {
  (void)dev;
  (void)ordinal;
  return CUDA_ERROR_NO_DEVICE;
}

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev) {
  (void)ctx;
  (void)dev;
  return CUDA_ERROR_NO_DEVICE;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev) {
  (void)dev;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx) {
  (void)ctx;
  return CUDA_ERROR_NO_DEVICE;
}

CUresult CUDAAPI cuCtxSynchronize(void) { return CUDA_SUCCESS; }

CUresult CUDAAPI cuMemAlloc(CUdeviceptr *p, size_t bytes) {
  (void)p;
  (void)bytes;
  return CUDA_ERROR_NO_DEVICE;
}

CUresult CUDAAPI cuMemFree(CUdeviceptr p) {
  (void)p;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes) {
  (void)dst;
  (void)src;
  (void)bytes;
  return CUDA_ERROR_NO_DEVICE;
}

CUresult CUDAAPI cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes) {
  (void)dst;
  (void)src;
  (void)bytes;
  return CUDA_ERROR_NO_DEVICE;
}
