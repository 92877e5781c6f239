// SPDX-License-Identifier: MIT
/* device.c - GPU devices: opening one (context choice), device memory,
 * synchronization and timing events.
 *
 * Every call first makes the device's context current on the calling thread,
 * so any thread may use a device, one at a time (dev->error is shared).
 * Failures return a status and leave "<driver call> failed: CUDA_ERROR_X
 * (description)" in dev->error. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

ttc_status rt_device_fail(ttc_device *dev, CUresult res, const char *call) {
  rt_cuda_format(&dev->cu, res, call, dev->error, sizeof dev->error);
  return res == CUDA_ERROR_OUT_OF_MEMORY ? TTC_ERROR_OUT_OF_MEMORY : TTC_ERROR_CUDA;
}

ttc_status rt_device_failf(ttc_device *dev, ttc_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(dev->error, sizeof dev->error, fmt, ap);
  va_end(ap);
  return st;
}

ttc_status rt_device_enter(ttc_device *dev) {
  /* Reading the current context is a thread-local load in the driver;
   * setting it only when it differs keeps the launch path short. */
  CUcontext cur = NULL;
  CUresult res = dev->cu.CtxGetCurrent(&cur);
  if (res != CUDA_SUCCESS) return rt_device_fail(dev, res, "cuCtxGetCurrent");
  if (cur == dev->ctx) return TTC_OK;
  res = dev->cu.CtxSetCurrent(dev->ctx);
  if (res != CUDA_SUCCESS) return rt_device_fail(dev, res, "cuCtxSetCurrent");
  return TTC_OK;
}

/* Chooses the context: the thread's current one when it belongs to the
 * device (an application that manages its own contexts keeps control),
 * else the device's primary context, retained and made current. */
static ttc_status device_pick_context(ttc_device *dev) {
  CUcontext cur = NULL;
  CUresult res = dev->cu.CtxGetCurrent(&cur);
  if (res != CUDA_SUCCESS) return rt_device_fail(dev, res, "cuCtxGetCurrent");
  if (cur) {
    CUdevice cur_dev = -1;
    res = dev->cu.CtxGetDevice(&cur_dev);
    if (res == CUDA_SUCCESS && cur_dev == dev->cudev) {
      dev->ctx = cur;
      return TTC_OK;
    }
  }
  res = dev->cu.DevicePrimaryCtxRetain(&dev->ctx, dev->cudev);
  if (res != CUDA_SUCCESS) return rt_device_fail(dev, res, "cuDevicePrimaryCtxRetain");
  dev->owns_primary = true;
  res = dev->cu.CtxSetCurrent(dev->ctx);
  if (res != CUDA_SUCCESS) return rt_device_fail(dev, res, "cuCtxSetCurrent");
  return TTC_OK;
}

/* Initializes the driver, finds GPU `ordinal` and fills name and arch.
 * Driver or device absence is TTC_ERROR_NO_DEVICE; other failures CUDA. */
static ttc_status device_init(ttc_device *dev, int ordinal) {
  rt_cuda *cu = &dev->cu;
  CUresult res = cu->Init(0);
  if (res != CUDA_SUCCESS) {
    char why[RT_ERROR_LEN / 2];
    rt_cuda_format(cu, res, "cuInit", why, sizeof why);
    return rt_device_failf(dev, TTC_ERROR_NO_DEVICE, "no CUDA device: %s", why);
  }
  int count = 0;
  res = cu->DeviceGetCount(&count);
  if (res != CUDA_SUCCESS) return rt_device_fail(dev, res, "cuDeviceGetCount");
  if (count == 0) return rt_device_failf(dev, TTC_ERROR_NO_DEVICE, "no CUDA device");
  if (ordinal >= count)
    return rt_device_failf(dev, TTC_ERROR_NO_DEVICE, "no CUDA device %d: %d device%s present",
                           ordinal, count, count == 1 ? "" : "s");
  res = cu->DeviceGet(&dev->cudev, ordinal);
  if (res != CUDA_SUCCESS) return rt_device_fail(dev, res, "cuDeviceGet");
  dev->ordinal = ordinal;
  res = cu->DeviceGetName(dev->name, (int)sizeof dev->name, dev->cudev);
  if (res != CUDA_SUCCESS) return rt_device_fail(dev, res, "cuDeviceGetName");
  int major = 0, minor = 0;
  res = cu->DeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev->cudev);
  if (res == CUDA_SUCCESS)
    res = cu->DeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev->cudev);
  if (res == CUDA_SUCCESS)
    res =
        cu->DeviceGetAttribute(&dev->num_sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev->cudev);
  if (res != CUDA_SUCCESS) return rt_device_fail(dev, res, "cuDeviceGetAttribute");
  snprintf(dev->arch, sizeof dev->arch, "sm_%d%d", major, minor);
  return device_pick_context(dev);
}

ttc_status ttc_device_open(int ordinal, ttc_device **out, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!out) {
    if (err) snprintf(err, errlen, "ttc_device_open: out is NULL");
    return TTC_ERROR_ARGUMENT;
  }
  *out = NULL;
  if (ordinal < 0) {
    if (err) snprintf(err, errlen, "device ordinal %d is negative", ordinal);
    return TTC_ERROR_ARGUMENT;
  }
  /* TTC_INTERPRET=1 runs everything on the CPU, with no host-code change. */
  const char *interp = getenv("TTC_INTERPRET");
  if (interp && interp[0] && strcmp(interp, "0") != 0)
    return ttc_device_open_interpreter(out, err, errlen);
  ttc_device *dev = calloc(1, sizeof *dev);
  if (!dev || !rt_handle_add(dev, RT_HANDLE_DEVICE)) {
    free(dev);
    if (err) snprintf(err, errlen, "out of memory");
    return TTC_ERROR_OUT_OF_MEMORY;
  }
  ttc_status st = rt_cuda_load(&dev->cu, dev->error, sizeof dev->error);
  if (st == TTC_OK) st = device_init(dev, ordinal);
  if (st != TTC_OK) {
    if (err) snprintf(err, errlen, "%s", dev->error);
    ttc_device_destroy(dev);
    return st;
  }
  dev->error[0] = '\0';
  *out = dev;
  return TTC_OK;
}

ttc_status ttc_device_destroy(ttc_device *dev) {
  if (!dev) return TTC_OK;
  if (!RT_DEV_LIVE(dev)) return TTC_ERROR_ARGUMENT;
  int nmodules = atomic_load(&dev->nmodules), nfunctions = atomic_load(&dev->nfunctions);
  if (nmodules > 0 || nfunctions > 0)
    return rt_device_failf(dev, TTC_ERROR_ARGUMENT,
                           "ttc_device_destroy: %d modules and %d kernel functions are still "
                           "alive on this device; destroy them first",
                           nmodules, nfunctions);
  rt_handle_remove(dev, RT_HANDLE_DEVICE);
  if (dev->is_interp) {
    rt_idev_destroy(dev);
    return TTC_OK;
  }
  if (dev->owns_primary) {
    /* The release may destroy the primary context: leave no thread current
     * on it, or the next ttc_device_open would pick the dead handle up. */
    CUcontext cur = NULL;
    if (dev->cu.CtxGetCurrent(&cur) == CUDA_SUCCESS && cur == dev->ctx) dev->cu.CtxSetCurrent(NULL);
    dev->cu.DevicePrimaryCtxRelease(dev->cudev);
  }
  rt_cuda_unload(&dev->cu);
  free(dev);
  return TTC_OK;
}

const char *ttc_device_error(const ttc_device *dev) {
  if (!dev) return "";
  return RT_DEV_LIVE(dev) ? dev->error : "device handle is not live (destroyed?)";
}
const char *ttc_device_name(const ttc_device *dev) { return RT_DEV_LIVE(dev) ? dev->name : ""; }
const char *ttc_device_arch(const ttc_device *dev) { return RT_DEV_LIVE(dev) ? dev->arch : ""; }
int ttc_device_num_sms(const ttc_device *dev) { return RT_DEV_LIVE(dev) ? dev->num_sms : 0; }

/* ---- memory --------------------------------------------------------------- */

ttc_status ttc_device_alloc(ttc_device *dev, size_t bytes, uint64_t *dptr) {
  if (!RT_DEV_LIVE(dev) || !dptr) return TTC_ERROR_ARGUMENT;
  *dptr = 0;
  if (bytes == 0) return rt_device_failf(dev, TTC_ERROR_ARGUMENT, "cannot allocate 0 bytes");
  if (dev->is_interp) return rt_idev_alloc(dev, bytes, dptr);
  ttc_status st = rt_device_enter(dev);
  if (st != TTC_OK) return st;
  CUdeviceptr p = 0;
  CUresult res = dev->cu.MemAlloc(&p, bytes);
  if (res != CUDA_SUCCESS) return rt_device_fail(dev, res, "cuMemAlloc");
  *dptr = (uint64_t)p;
  return TTC_OK;
}

ttc_status ttc_device_free(ttc_device *dev, uint64_t dptr) {
  if (!RT_DEV_LIVE(dev)) return TTC_ERROR_ARGUMENT;
  if (dptr == 0) return TTC_OK; /* like free(NULL) */
  if (dev->is_interp) return rt_idev_free(dev, dptr);
  ttc_status st = rt_device_enter(dev);
  if (st != TTC_OK) return st;
  CUresult res = dev->cu.MemFree((CUdeviceptr)dptr);
  return res == CUDA_SUCCESS ? TTC_OK : rt_device_fail(dev, res, "cuMemFree");
}

ttc_status ttc_device_copy_to(ttc_device *dev, uint64_t dst, const void *src, size_t bytes) {
  if (!RT_DEV_LIVE(dev) || (!src && bytes)) return TTC_ERROR_ARGUMENT;
  if (bytes == 0) return TTC_OK;
  if (dev->is_interp) return rt_idev_copy_to(dev, dst, src, bytes);
  ttc_status st = rt_device_enter(dev);
  if (st != TTC_OK) return st;
  CUresult res = dev->cu.MemcpyHtoD((CUdeviceptr)dst, src, bytes);
  return res == CUDA_SUCCESS ? TTC_OK : rt_device_fail(dev, res, "cuMemcpyHtoD");
}

ttc_status ttc_device_copy_from(ttc_device *dev, void *dst, uint64_t src, size_t bytes) {
  if (!RT_DEV_LIVE(dev) || (!dst && bytes)) return TTC_ERROR_ARGUMENT;
  if (bytes == 0) return TTC_OK;
  if (dev->is_interp) return rt_idev_copy_from(dev, dst, src, bytes);
  ttc_status st = rt_device_enter(dev);
  if (st != TTC_OK) return st;
  CUresult res = dev->cu.MemcpyDtoH(dst, (CUdeviceptr)src, bytes);
  return res == CUDA_SUCCESS ? TTC_OK : rt_device_fail(dev, res, "cuMemcpyDtoH");
}

ttc_status ttc_device_memset(ttc_device *dev, uint64_t dptr, int value, size_t bytes,
                             void *stream) {
  if (!RT_DEV_LIVE(dev)) return TTC_ERROR_ARGUMENT;
  if (bytes == 0) return TTC_OK;
  if (dev->is_interp) return rt_idev_memset(dev, dptr, value, bytes);
  ttc_status st = rt_device_enter(dev);
  if (st != TTC_OK) return st;
  CUresult res =
      dev->cu.MemsetD8Async((CUdeviceptr)dptr, (unsigned char)value, bytes, (CUstream)stream);
  return res == CUDA_SUCCESS ? TTC_OK : rt_device_fail(dev, res, "cuMemsetD8Async");
}

ttc_status ttc_device_copy(ttc_device *dev, uint64_t dst, uint64_t src, size_t bytes,
                           void *stream) {
  if (!RT_DEV_LIVE(dev)) return TTC_ERROR_ARGUMENT;
  if (bytes == 0) return TTC_OK;
  if (dev->is_interp) return rt_idev_copy(dev, dst, src, bytes);
  ttc_status st = rt_device_enter(dev);
  if (st != TTC_OK) return st;
  CUresult res =
      dev->cu.MemcpyDtoDAsync((CUdeviceptr)dst, (CUdeviceptr)src, bytes, (CUstream)stream);
  return res == CUDA_SUCCESS ? TTC_OK : rt_device_fail(dev, res, "cuMemcpyDtoDAsync");
}

ttc_status ttc_device_address_range(ttc_device *dev, uint64_t dptr, uint64_t *base, size_t *size) {
  if (!RT_DEV_LIVE(dev) || !base || !size) return TTC_ERROR_ARGUMENT;
  *base = 0;
  *size = 0;
  if (dev->is_interp) return rt_idev_address_range(dev, dptr, base, size);
  ttc_status st = rt_device_enter(dev);
  if (st != TTC_OK) return st;
  CUdeviceptr b = 0;
  size_t n = 0;
  CUresult res = dev->cu.MemGetAddressRange(&b, &n, (CUdeviceptr)dptr);
  if (res != CUDA_SUCCESS) return rt_device_fail(dev, res, "cuMemGetAddressRange");
  *base = (uint64_t)b;
  *size = n;
  return TTC_OK;
}

ttc_status ttc_device_synchronize(ttc_device *dev) {
  if (!RT_DEV_LIVE(dev)) return TTC_ERROR_ARGUMENT;
  if (dev->is_interp) return TTC_OK; /* launches ran to completion */
  ttc_status st = rt_device_enter(dev);
  if (st != TTC_OK) return st;
  CUresult res = dev->cu.CtxSynchronize();
  return res == CUDA_SUCCESS ? TTC_OK : rt_device_fail(dev, res, "cuCtxSynchronize");
}

/* ---- events --------------------------------------------------------------- */

ttc_status ttc_event_create(ttc_device *dev, ttc_event **out) {
  if (out) *out = NULL;
  if (!RT_DEV_LIVE(dev) || !out) return TTC_ERROR_ARGUMENT;
  if (dev->is_interp) {
    *out = calloc(1, sizeof **out);
    if (*out && !rt_handle_add(*out, RT_HANDLE_EVENT)) {
      free(*out);
      *out = NULL;
    }
    return *out ? TTC_OK : rt_device_failf(dev, TTC_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  ttc_status st = rt_device_enter(dev);
  if (st != TTC_OK) return st;
  ttc_event *ev = calloc(1, sizeof *ev);
  if (ev && !rt_handle_add(ev, RT_HANDLE_EVENT)) {
    free(ev);
    ev = NULL;
  }
  if (!ev) return rt_device_failf(dev, TTC_ERROR_OUT_OF_MEMORY, "out of memory");
  CUresult res = dev->cu.EventCreate(&ev->ev, CU_EVENT_DEFAULT);
  if (res != CUDA_SUCCESS) {
    rt_handle_remove(ev, RT_HANDLE_EVENT);
    free(ev);
    return rt_device_fail(dev, res, "cuEventCreate");
  }
  *out = ev;
  return TTC_OK;
}

ttc_status ttc_event_destroy(ttc_device *dev, ttc_event *ev) {
  if (!ev) return TTC_OK;
  if (!rt_handle_remove(ev, RT_HANDLE_EVENT)) return TTC_ERROR_ARGUMENT;
  if (RT_DEV_LIVE(dev) && !dev->is_interp && rt_device_enter(dev) == TTC_OK)
    dev->cu.EventDestroy(ev->ev);
  free(ev);
  return TTC_OK;
}

ttc_status ttc_event_record(ttc_device *dev, ttc_event *ev, void *stream) {
  if (!RT_DEV_LIVE(dev) || !rt_handle_live(ev, RT_HANDLE_EVENT)) return TTC_ERROR_ARGUMENT;
  if (dev->is_interp) {
    ev->host_ms = rt_idev_now_ms();
    return TTC_OK;
  }
  ttc_status st = rt_device_enter(dev);
  if (st != TTC_OK) return st;
  CUresult res = dev->cu.EventRecord(ev->ev, (CUstream)stream);
  return res == CUDA_SUCCESS ? TTC_OK : rt_device_fail(dev, res, "cuEventRecord");
}

ttc_status ttc_event_elapsed(ttc_device *dev, ttc_event *start, ttc_event *end, float *ms) {
  if (!RT_DEV_LIVE(dev) || !rt_handle_live(start, RT_HANDLE_EVENT) ||
      !rt_handle_live(end, RT_HANDLE_EVENT) || !ms)
    return TTC_ERROR_ARGUMENT;
  *ms = 0.0f;
  if (dev->is_interp) {
    *ms = (float)(end->host_ms - start->host_ms);
    return TTC_OK;
  }
  ttc_status st = rt_device_enter(dev);
  if (st != TTC_OK) return st;
  CUresult res = dev->cu.EventSynchronize(end->ev);
  if (res != CUDA_SUCCESS) return rt_device_fail(dev, res, "cuEventSynchronize");
  res = dev->cu.EventElapsedTime(ms, start->ev, end->ev);
  return res == CUDA_SUCCESS ? TTC_OK : rt_device_fail(dev, res, "cuEventElapsedTime");
}
