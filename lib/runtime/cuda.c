// SPDX-License-Identifier: MIT
/* cuda.c - the CUDA driver, opened with dlopen at run time.
 *
 * Only cuGetProcAddress_v2 is looked up with dlsym; every other entry point
 * comes from it at RT_CUDA_API_VERSION, so the ABI of each pointer is the one
 * that version documents, whatever the installed driver. Programs therefore
 * link and start on machines without libcuda. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "runtime/rt.h"

typedef CUresult (*rt_get_proc_fn)(const char *, void **, int, cuuint64_t,
                                   CUdriverProcAddressQueryResult *);

/* One entry point to resolve: its unversioned name and where it goes. The
 * offsets point into rt_cuda, whose fields are all function pointers. */
typedef struct rt_entry {
  const char *name;
  size_t offset;
} rt_entry;

#define RT_ENTRY(field)                                                                            \
  { "cu" #field, offsetof(rt_cuda, field) }

static const rt_entry rt_entries[] = {
    RT_ENTRY(GetErrorName),
    RT_ENTRY(GetErrorString),
    RT_ENTRY(Init),
    RT_ENTRY(DriverGetVersion),
    RT_ENTRY(DeviceGet),
    RT_ENTRY(DeviceGetCount),
    RT_ENTRY(DeviceGetName),
    RT_ENTRY(DeviceGetAttribute),
    RT_ENTRY(CtxGetCurrent),
    RT_ENTRY(CtxSetCurrent),
    RT_ENTRY(CtxGetDevice),
    RT_ENTRY(CtxSynchronize),
    RT_ENTRY(DevicePrimaryCtxRetain),
    RT_ENTRY(DevicePrimaryCtxRelease),
    RT_ENTRY(ModuleLoadDataEx),
    RT_ENTRY(ModuleUnload),
    RT_ENTRY(ModuleGetFunction),
    RT_ENTRY(FuncSetAttribute),
    RT_ENTRY(OccupancyMaxActiveBlocksPerMultiprocessor),
    RT_ENTRY(LaunchKernel),
    RT_ENTRY(MemAlloc),
    RT_ENTRY(MemFree),
    RT_ENTRY(MemcpyHtoD),
    RT_ENTRY(MemcpyDtoH),
    RT_ENTRY(MemcpyDtoDAsync),
    RT_ENTRY(MemsetD8Async),
    RT_ENTRY(MemGetAddressRange),
    RT_ENTRY(EventCreate),
    RT_ENTRY(EventRecord),
    RT_ENTRY(EventSynchronize),
    RT_ENTRY(EventElapsedTime),
    RT_ENTRY(EventDestroy),
};

ttc_status rt_cuda_load(rt_cuda *cu, char *err, size_t errlen) {
  memset(cu, 0, sizeof *cu);
  void *dl = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!dl) {
    snprintf(err, errlen, "no CUDA driver: libcuda.so.1 not found");
    return TTC_ERROR_NO_DEVICE;
  }
  /* dlsym returns an object pointer; POSIX guarantees the conversion. */
  rt_get_proc_fn get_proc;
  void *sym = dlsym(dl, "cuGetProcAddress_v2");
  memcpy(&get_proc, &sym, sizeof get_proc);
  if (!get_proc) {
    dlclose(dl);
    snprintf(err, errlen,
             "no CUDA driver: libcuda.so.1 lacks cuGetProcAddress_v2 (driver older than CUDA 12)");
    return TTC_ERROR_NO_DEVICE;
  }
  for (size_t i = 0; i < sizeof rt_entries / sizeof rt_entries[0]; i++) {
    void *fn = NULL;
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult res =
        get_proc(rt_entries[i].name, &fn, RT_CUDA_API_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &found);
    if (res != CUDA_SUCCESS || found != CU_GET_PROC_ADDRESS_SUCCESS || !fn) {
      dlclose(dl);
      memset(cu, 0, sizeof *cu);
      snprintf(err, errlen, "no CUDA driver: libcuda.so.1 has no usable %s (status %d)",
               rt_entries[i].name, (int)found);
      return TTC_ERROR_NO_DEVICE;
    }
    /* Every field of rt_cuda after `dl` is a function pointer of the same
     * size as void *, so the resolved address is stored bytewise. */
    memcpy((char *)cu + rt_entries[i].offset, &fn, sizeof fn);
  }
  cu->dl = dl;
  return TTC_OK;
}

void rt_cuda_unload(rt_cuda *cu) {
  if (cu->dl) dlclose(cu->dl);
  memset(cu, 0, sizeof *cu);
}

void rt_cuda_format(const rt_cuda *cu, CUresult res, const char *call, char *err, size_t errlen) {
  const char *name = NULL, *desc = NULL;
  if (!cu->GetErrorName || cu->GetErrorName(res, &name) != CUDA_SUCCESS) name = NULL;
  if (!cu->GetErrorString || cu->GetErrorString(res, &desc) != CUDA_SUCCESS) desc = NULL;
  if (name && desc)
    snprintf(err, errlen, "%s failed: %s (%s)", call, name, desc);
  else
    snprintf(err, errlen, "%s failed: CUDA error %d", call, (int)res);
}
