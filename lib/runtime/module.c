// SPDX-License-Identifier: MIT
/* module.c - loading a compiled kernel into a device's context.
 *
 * The cubin is tried first; when the kernel has none, or the driver rejects
 * it (a driver older than the ptxas that made it), the PTX goes through the
 * driver's JIT. The kernel is read only through the public ttc_kernel_*
 * getters, and nothing of it is kept: the module copies what launch needs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

/* Shared memory above this needs an explicit opt-in per function. */
#define RT_DEFAULT_SHARED_LIMIT (48 * 1024)

/* Loads PTX through the driver JIT, capturing the JIT's error log so that a
 * failure says what ptxas-in-the-driver disliked. */
static CUresult module_load_ptx(ttc_device *dev, const char *ptx, CUmodule *out, char *log,
                                size_t loglen) {
  CUjit_option opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[2] = {log, (void *)(uintptr_t)loglen};
  log[0] = '\0';
  return dev->cu.ModuleLoadDataEx(out, ptx, 2, opts, vals);
}

/* Loads the kernel's image into a CUmodule: cubin, else PTX. On failure the
 * device error names the driver call and, for PTX, the JIT log. */
static ttc_status module_load_image(ttc_device *dev, const ttc_kernel *kernel, CUmodule *out) {
  size_t cubin_size = 0, ptx_size = 0;
  const void *cubin = ttc_kernel_output(kernel, TTC_LEVEL_CUBIN, &cubin_size);
  const void *ptx = ttc_kernel_output(kernel, TTC_LEVEL_PTX, &ptx_size);
  if ((!cubin || cubin_size == 0) && (!ptx || ptx_size == 0))
    return rt_device_failf(dev, TTC_ERROR_ARGUMENT,
                           "kernel '%s' has neither cubin nor PTX (did the compile fail?)",
                           ttc_kernel_name(kernel) ? ttc_kernel_name(kernel) : "?");
  char cubin_err[RT_ERROR_LEN / 2] = "";
  if (cubin && cubin_size) {
    CUresult res = dev->cu.ModuleLoadDataEx(out, cubin, 0, NULL, NULL);
    if (res == CUDA_SUCCESS) return TTC_OK;
    if (!ptx || ptx_size == 0) return rt_device_fail(dev, res, "cuModuleLoadData");
    rt_cuda_format(&dev->cu, res, "cuModuleLoadData (cubin)", cubin_err, sizeof cubin_err);
  }
  char log[RT_ERROR_LEN / 2];
  CUresult res = module_load_ptx(dev, ptx, out, log, sizeof log);
  if (res == CUDA_SUCCESS) return TTC_OK;
  char why[RT_ERROR_LEN / 2];
  rt_cuda_format(&dev->cu, res, "cuModuleLoadData (PTX)", why, sizeof why);
  return rt_device_failf(
      dev, res == CUDA_ERROR_OUT_OF_MEMORY ? TTC_ERROR_OUT_OF_MEMORY : TTC_ERROR_CUDA, "%s%s%s%s%s",
      why, log[0] ? ": " : "", log, cubin_err[0] ? "; " : "", cubin_err);
}

/* The name of parameter i of the kernel's tt.func in its printed ttir
 * ("%x_ptr: ..." -> "x_ptr"), for launch errors; "" when not found. A scan
 * of the signature line, not a parse: it runs at load on the GPU path too. */
static void param_name(const ttc_kernel *kernel, int i, char *out, size_t cap) {
  out[0] = '\0';
  size_t len = 0;
  const char *t = ttc_kernel_ttir_located(kernel, &len);
  if (!t) return;
  char head[300];
  snprintf(head, sizeof head, "tt.func public @%s(", ttc_kernel_name(kernel));
  const char *p = strstr(t, head);
  if (!p) return;
  p += strlen(head);
  for (int k = 0; *p && *p != '\n'; p++) { /* the k-th "%name:" at bracket depth 0 */
    if (*p != '%' || (p[-1] != '(' && p[-1] != ' ')) continue;
    const char *e = p + 1;
    while (*e && *e != ':' && *e != ' ' && *e != '\n')
      e++;
    if (*e != ':') continue;
    if (k++ == i) {
      size_t n = (size_t)(e - p - 1) < cap - 1 ? (size_t)(e - p - 1) : cap - 1;
      memcpy(out, p + 1, n);
      out[n] = '\0';
      return;
    }
  }
}

ttc_status ttc_module_load(ttc_device *dev, const ttc_kernel *kernel, ttc_module **out) {
  if (out) *out = NULL;
  if (!RT_DEV_LIVE(dev) || !kernel || !out) return TTC_ERROR_ARGUMENT;
  const char *name = ttc_kernel_name(kernel);
  int nparams = ttc_kernel_num_params(kernel);
  int num_warps = ttc_kernel_num_warps(kernel);
  int shared = ttc_kernel_shared_bytes(kernel);
  if (!name || !name[0])
    return rt_device_failf(dev, TTC_ERROR_ARGUMENT, "kernel has no entry name");
  if (nparams < 0 || nparams > RT_MAX_PARAMS)
    return rt_device_failf(dev, TTC_ERROR_UNSUPPORTED,
                           "kernel '%s' has %d parameters; at most %d are supported", name, nparams,
                           RT_MAX_PARAMS);
  if (num_warps < 1 || num_warps > 32 || shared < 0)
    return rt_device_failf(dev, TTC_ERROR_ARGUMENT,
                           "kernel '%s' has an invalid launch shape (num_warps %d, shared %d)",
                           name, num_warps, shared);
  ttc_status st = dev->is_interp ? TTC_OK : rt_device_enter(dev);
  if (st != TTC_OK) return st;

  ttc_module *mod = calloc(1, sizeof *mod + (size_t)nparams * sizeof(ttc_type) +
                                  (size_t)nparams * sizeof(rt_param_check));
  if (mod && !rt_handle_add(mod, RT_HANDLE_MODULE)) {
    free(mod);
    mod = NULL;
  }
  if (!mod) return rt_device_failf(dev, TTC_ERROR_OUT_OF_MEMORY, "out of memory");
  atomic_fetch_add(&dev->nmodules, 1); /* ttc_module_destroy takes it back */
  mod->dev = dev;
  mod->block_x = (unsigned)num_warps * 32u;
  mod->shared_bytes = (unsigned)shared;
  mod->nparams = nparams;
  mod->checks = (rt_param_check *)(mod->param_types + nparams);
  for (int i = 0; i < nparams; i++) {
    mod->param_types[i] = ttc_kernel_param_type(kernel, i, NULL);
    int d = ttc_kernel_param_divisibility(kernel, i);
    bool one = ttc_kernel_param_must_be_one(kernel, i);
    ttc_type t = mod->param_types[i]; /* pointers and integers wider than i1 */
    bool checkable = t == TTC_TYPE_PTR || (t >= TTC_TYPE_I8 && t <= TTC_TYPE_U64);
    if ((d > 1 || one) && checkable) {
      rt_param_check *c = &mod->checks[mod->nchecks++];
      c->param = i;
      c->divisor = (unsigned)d;
      c->must_be_one = one;
      param_name(kernel, i, c->name, sizeof c->name);
    }
  }
  if (dev->is_interp) { /* the ttir, not the cubin */
    st = rt_idev_module_prepare(dev, kernel, mod);
    if (st != TTC_OK) {
      ttc_module_destroy(mod);
      return st;
    }
    *out = mod;
    return TTC_OK;
  }

  st = module_load_image(dev, kernel, &mod->cumod);
  if (st != TTC_OK) {
    ttc_module_destroy(mod);
    return st;
  }
  CUresult res = dev->cu.ModuleGetFunction(&mod->fn, mod->cumod, name);
  if (res != CUDA_SUCCESS) {
    st = rt_device_fail(dev, res, "cuModuleGetFunction");
    ttc_module_destroy(mod);
    return st;
  }
  /* Above the default 48 KB: opt in to the bytes, and ask for the largest
   * shared-memory carveout of L1, as Triton does (PREFER_SHARED), so that as
   * many programs as the shared memory allows share a multiprocessor (two of
   * the 96 KB 128x128x64 3-stage matmul); the driver's default carveout can
   * leave room for one. */
  if (mod->shared_bytes > RT_DEFAULT_SHARED_LIMIT) {
    res = dev->cu.FuncSetAttribute(mod->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   (int)mod->shared_bytes);
    const char *what = "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)";
    if (res == CUDA_SUCCESS) {
      res = dev->cu.FuncSetAttribute(mod->fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                     CU_SHAREDMEM_CARVEOUT_MAX_SHARED);
      what = "cuFuncSetAttribute(PREFERRED_SHARED_MEMORY_CARVEOUT)";
    }
    if (res != CUDA_SUCCESS) {
      st = rt_device_fail(dev, res, what);
      ttc_module_destroy(mod);
      return st;
    }
  }
  *out = mod;
  return TTC_OK;
}

ttc_status ttc_module_programs_per_sm(ttc_module *mod, int *out) {
  if (out) *out = 0;
  if (!rt_handle_live(mod, RT_HANDLE_MODULE) || !out) return TTC_ERROR_ARGUMENT;
  ttc_device *dev = mod->dev;
  if (dev->is_interp) {
    *out = 1;
    return TTC_OK;
  }
  ttc_status st = rt_device_enter(dev);
  if (st != TTC_OK) return st;
  int n = 0;
  CUresult res = dev->cu.OccupancyMaxActiveBlocksPerMultiprocessor(&n, mod->fn, (int)mod->block_x,
                                                                   mod->shared_bytes);
  if (res != CUDA_SUCCESS)
    return rt_device_fail(dev, res, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  *out = n;
  return TTC_OK;
}

ttc_status ttc_module_destroy(ttc_module *mod) {
  if (!mod) return TTC_OK;
  if (!rt_handle_remove(mod, RT_HANDLE_MODULE)) return TTC_ERROR_ARGUMENT;
  if (mod->dev->is_interp) rt_idev_module_release(mod);
  if (mod->cumod && rt_device_enter(mod->dev) == TTC_OK) mod->dev->cu.ModuleUnload(mod->cumod);
  atomic_fetch_sub(&mod->dev->nmodules, 1);
  free(mod);
  return TTC_OK;
}
