// SPDX-License-Identifier: MIT
/* interp_device.c - the interpreter as a ttc_device: the public runtime
 * calls (memory, copies, events, module load and launch) on host memory, so
 * that a host program runs unchanged on a GPU or on the CPU. device.c,
 * module.c and launch.c branch here when dev->is_interp. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/rt.h"

ttc_status ttc_device_open_interpreter(ttc_device **out, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!out) {
    if (err) snprintf(err, errlen, "ttc_device_open_interpreter: out is NULL");
    return TTC_ERROR_ARGUMENT;
  }
  ttc_device *dev = calloc(1, sizeof *dev);
  if (!dev || !rt_handle_add(dev, RT_HANDLE_DEVICE)) {
    free(dev);
    *out = NULL;
    if (err) snprintf(err, errlen, "out of memory");
    return TTC_ERROR_OUT_OF_MEMORY;
  }
  dev->is_interp = true;
  pthread_mutex_init(&dev->interp_lock, NULL);
  rt_heap_init(&dev->heap);
  ir_sb_init(&dev->print);
  snprintf(dev->name, sizeof dev->name, "ttc interpreter (CPU)");
  snprintf(dev->arch, sizeof dev->arch, "interpreter");
  dev->num_sms = 4;
  *out = dev;
  return TTC_OK;
}

int ttc_device_is_interpreter(const ttc_device *dev) { return RT_DEV_LIVE(dev) && dev->is_interp; }

const char *ttc_device_print_output(const ttc_device *dev) {
  return RT_DEV_LIVE(dev) && dev->is_interp && dev->print.data ? dev->print.data : "";
}

void rt_idev_destroy(ttc_device *dev) {
  pthread_mutex_destroy(&dev->interp_lock);
  rt_heap_destroy(&dev->heap);
  ir_sb_free(&dev->print);
  free(dev);
}

/* ---- memory ------------------------------------------------------------------ */

ttc_status rt_idev_alloc(ttc_device *dev, size_t bytes, uint64_t *dptr) {
  ttc_status st = rt_heap_alloc(&dev->heap, bytes, dptr);
  if (st != TTC_OK)
    return rt_device_failf(dev, st, "cannot allocate %zu bytes of host memory", bytes);
  return TTC_OK;
}

ttc_status rt_idev_free(ttc_device *dev, uint64_t dptr) {
  if (rt_heap_free(&dev->heap, dptr)) return TTC_OK;
  return rt_device_failf(dev, TTC_ERROR_ARGUMENT,
                         "ttc_device_free: 0x%" PRIx64 " is not the start of an allocation", dptr);
}

/* The host pointer of [addr, addr + bytes) when it lies in one allocation. */
static void *idev_range(ttc_device *dev, uint64_t addr, size_t bytes, const char *call) {
  if (rt_heap_find(&dev->heap, addr, bytes, NULL)) return (void *)(uintptr_t)addr;
  char why[512];
  rt_heap_describe(&dev->heap, addr, bytes, why, sizeof why);
  rt_device_failf(dev, TTC_ERROR_OUT_OF_BOUNDS, "%s of %zu bytes out of bounds: %s", call, bytes,
                  why);
  return NULL;
}

ttc_status rt_idev_copy_to(ttc_device *dev, uint64_t dst, const void *src, size_t bytes) {
  void *p = idev_range(dev, dst, bytes, "ttc_device_copy_to");
  if (!p) return TTC_ERROR_OUT_OF_BOUNDS;
  memcpy(p, src, bytes);
  return TTC_OK;
}

ttc_status rt_idev_copy_from(ttc_device *dev, void *dst, uint64_t src, size_t bytes) {
  void *p = idev_range(dev, src, bytes, "ttc_device_copy_from");
  if (!p) return TTC_ERROR_OUT_OF_BOUNDS;
  memcpy(dst, p, bytes);
  return TTC_OK;
}

ttc_status rt_idev_copy(ttc_device *dev, uint64_t dst, uint64_t src, size_t bytes) {
  void *d = idev_range(dev, dst, bytes, "ttc_device_copy (destination)");
  void *s = d ? idev_range(dev, src, bytes, "ttc_device_copy (source)") : NULL;
  if (!s) return TTC_ERROR_OUT_OF_BOUNDS;
  memmove(d, s, bytes);
  return TTC_OK;
}

ttc_status rt_idev_memset(ttc_device *dev, uint64_t dptr, int value, size_t bytes) {
  void *p = idev_range(dev, dptr, bytes, "ttc_device_memset");
  if (!p) return TTC_ERROR_OUT_OF_BOUNDS;
  memset(p, value, bytes);
  return TTC_OK;
}

ttc_status rt_idev_address_range(ttc_device *dev, uint64_t dptr, uint64_t *base, size_t *size) {
  rt_heap_block b;
  if (!rt_heap_find(&dev->heap, dptr, 1, &b))
    return rt_device_failf(dev, TTC_ERROR_ARGUMENT,
                           "ttc_device_address_range: 0x%" PRIx64 " is in no allocation", dptr);
  *base = b.base;
  *size = b.size;
  return TTC_OK;
}

/* ---- events: the host clock; launches are synchronous ------------------------ */

double rt_idev_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* ---- modules -------------------------------------------------------------------- */

/* The interpreter runs the ttir the kernel holds (printed with locations,
 * so that its reports name source lines): parsed into the module's own
 * context, it needs nothing of the frontend or the compile driver. */
static ttc_status prepare_now(ttc_device *dev, const ttc_kernel *kernel, ttc_module *mod) {
  const char *name = ttc_kernel_name(kernel);
  size_t len = 0;
  const char *ttir = ttc_kernel_ttir_located(kernel, &len);
  if (!ttir)
    return rt_device_failf(dev, TTC_ERROR_ARGUMENT,
                           "kernel '%s' has no ttir (did its compile fail?)", name);
  mod->irctx = ir_context_create();
  if (!mod->irctx) return rt_device_failf(dev, TTC_ERROR_OUT_OF_MEMORY, "out of memory");
  char srcname[300];
  snprintf(srcname, sizeof srcname, "<ttir of '%s'>", name);
  const ir_source *src = ir_context_add_source(mod->irctx, srcname, ttir, len);
  mod->ir = src ? ir_parse_module(mod->irctx, src) : NULL;
  if (!mod->ir || !ir_verify(mod->ir)) {
    ir_strbuf sb;
    ir_sb_init(&sb);
    ir_render_diags(mod->irctx, &sb);
    ttc_status st = rt_device_failf(dev, TTC_ERROR_INPUT, "kernel '%s': its ttir does not load: %s",
                                    name, sb.data ? sb.data : "out of memory");
    ir_sb_free(&sb);
    return st;
  }
  const ir_op *func = ir_module_lookup_func(mod->ir, name);
  if (!func)
    return rt_device_failf(dev, TTC_ERROR_INTERNAL, "kernel '%s' is missing from its ttir", name);
  mod->interp = rt_interp_prepare(func, dev->error, sizeof dev->error);
  if (!mod->interp) return TTC_ERROR_UNSUPPORTED;
  if (rt_interp_num_params(mod->interp) != mod->nparams)
    return rt_device_failf(dev, TTC_ERROR_INTERNAL,
                           "kernel '%s': ttir has %d parameters, the kernel %d", name,
                           rt_interp_num_params(mod->interp), mod->nparams);
  return TTC_OK;
}

/* rt_idev_module_prepare's arguments, carried to the thread that runs it. */
typedef struct prepare_call {
  ttc_device *dev;
  const ttc_kernel *kernel;
  ttc_module *mod;
  ttc_status st;
} prepare_call;

static void prepare_deep(void *arg) {
  prepare_call *c = arg;
  c->st = prepare_now(c->dev, c->kernel, c->mod);
}

/* The IR parser and verifier recurse within their limits: on the library's
 * own stack (ir_run_deep), as compiles are. */
ttc_status rt_idev_module_prepare(ttc_device *dev, const ttc_kernel *kernel, ttc_module *mod) {
  prepare_call c = {dev, kernel, mod, TTC_OK};
  ir_run_deep(prepare_deep, &c);
  return c.st;
}

void rt_idev_module_release(ttc_module *mod) {
  rt_interp_destroy(mod->interp);
  mod->interp = NULL;
  if (mod->ir) ir_module_destroy(mod->ir);
  if (mod->irctx) ir_context_destroy(mod->irctx);
  mod->ir = NULL;
  mod->irctx = NULL;
}

/* A launch's arguments, carried to the thread that runs the programs. */
typedef struct launch_call {
  ttc_module *mod;
  const unsigned *grid;
  const rt_arg_storage *args;
  ttc_status st;
} launch_call;

static void launch_deep(void *arg) {
  launch_call *c = arg;
  ttc_device *dev = c->mod->dev;
  c->st = rt_interp_run(c->mod->interp, &dev->heap, c->grid, c->args, c->mod->nparams, &dev->print,
                        dev->error, sizeof dev->error);
}

ttc_status rt_idev_launch(ttc_module *mod, const unsigned grid[3], const rt_arg_storage *args) {
  ttc_device *dev = mod->dev;
  pthread_mutex_lock(&dev->interp_lock);
  ir_sb_free(&dev->print);
  ir_sb_init(&dev->print);
  dev->error[0] = '\0';
  launch_call c = {mod, grid, args, TTC_OK};
  ir_run_deep(launch_deep, &c); /* regions nest up to the IR's depth limit */
  pthread_mutex_unlock(&dev->interp_lock);
  return c.st;
}
