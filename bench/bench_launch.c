// SPDX-License-Identifier: MIT
/* bench_launch.c - launch overhead and first-launch time (DESIGN.md targets:
 * ttc_module_launch and a kernel function's launch at most 1.1x a raw
 * cuLaunchKernel; first launch in a new process). The same cubin (the
 * vector-add example with n = 0, one program, so the kernel does nothing)
 * is launched back to back through the CUDA driver directly, through
 * ttc_module_launch and through a kernel function (ttc_function_launch:
 * specialization key, table lookup, launch); each figure is host time per
 * launch over many launches, the median of rounds that alternate the three
 * paths, so that drift on the machine touches all alike.
 *
 * usage: bench_launch [-n LAUNCHES] [kernel.py]
 * prints: "first_launch ms=T", "launch raw us=T", "launch ttc us=T ratio=R",
 * "launch function us=T ratio=R" (ratios to the raw median). */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

/* The few driver types and entry points the raw path needs (no cuda.h: the
 * bench builds without the CUDA headers, as a user of libttc would). */
typedef int cu_result;
typedef void *cu_module, *cu_function, *cu_context;
typedef cu_result (*cu_ctx_get_current_fn)(cu_context *);
typedef cu_result (*cu_module_load_data_fn)(cu_module *, const void *);
typedef cu_result (*cu_module_get_function_fn)(cu_function *, cu_module, const char *);
typedef cu_result (*cu_launch_kernel_fn)(cu_function, unsigned, unsigned, unsigned, unsigned,
                                         unsigned, unsigned, unsigned, void *, void **, void **);
typedef cu_result (*cu_ctx_synchronize_fn)(void);
typedef cu_result (*cu_module_unload_fn)(cu_module);

enum { ROUNDS = 7 };

typedef struct raw_driver {
  cu_ctx_get_current_fn ctx_get_current;
  cu_module_load_data_fn module_load_data;
  cu_module_get_function_fn module_get_function;
  cu_launch_kernel_fn launch_kernel;
  cu_ctx_synchronize_fn ctx_synchronize;
  cu_module_unload_fn module_unload;
} raw_driver;

static int load_raw(raw_driver *d) {
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) return 1;
  d->ctx_get_current = (cu_ctx_get_current_fn)dlsym(h, "cuCtxGetCurrent");
  d->module_load_data = (cu_module_load_data_fn)dlsym(h, "cuModuleLoadData");
  d->module_get_function = (cu_module_get_function_fn)dlsym(h, "cuModuleGetFunction");
  d->launch_kernel = (cu_launch_kernel_fn)dlsym(h, "cuLaunchKernel");
  d->ctx_synchronize = (cu_ctx_synchronize_fn)dlsym(h, "cuCtxSynchronize");
  d->module_unload = (cu_module_unload_fn)dlsym(h, "cuModuleUnload");
  return !(d->ctx_get_current && d->module_load_data && d->module_get_function &&
           d->launch_kernel && d->ctx_synchronize && d->module_unload);
}

/* Host time per launch of `n` back-to-back launches of one path
 * (synchronized at the end), in microseconds; -1 on failure. */
static double round_raw(const raw_driver *d, cu_function fn, void **slots, int n) {
  double t0 = bench_now_ms();
  for (int i = 0; i < n; i++)
    if (d->launch_kernel(fn, 1, 1, 1, 128, 1, 1, 0, NULL, slots, NULL) != 0) return -1;
  if (d->ctx_synchronize() != 0) return -1;
  return (bench_now_ms() - t0) * 1e3 / n;
}

static double round_module(ttc_device *dev, ttc_module *mod, const ttc_arg *args, int n) {
  const unsigned grid[3] = {1, 1, 1};
  double t0 = bench_now_ms();
  for (int i = 0; i < n; i++)
    if (ttc_module_launch(mod, grid, NULL, args, 4) != TTC_OK) return -1;
  if (ttc_device_synchronize(dev) != TTC_OK) return -1;
  return (bench_now_ms() - t0) * 1e3 / n;
}

static double round_function(ttc_device *dev, ttc_function *f, const ttc_arg *args, int n) {
  const unsigned grid[3] = {1, 1, 1};
  double t0 = bench_now_ms();
  for (int i = 0; i < n; i++)
    if (ttc_function_launch(f, grid, NULL, args, 4) != TTC_OK) return -1;
  if (ttc_device_synchronize(dev) != TTC_OK) return -1;
  return (bench_now_ms() - t0) * 1e3 / n;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
  return v[n / 2];
}

int main(int argc, char **argv) {
  double t_start = bench_now_ms();
  int n = 20000;
  const char *path = TTC_EXAMPLES_DIR "/vector_add/vector_add.py";
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
      n = atoi(argv[++i]);
    else
      path = argv[i];
  }
  if (n < 1) n = 1;
  char err[512] = "";
  ttc_device *dev = NULL;
  ttc_status st = ttc_device_open(0, &dev, err, sizeof err);
  if (st != TTC_OK) {
    fprintf(stderr, "bench_launch: no GPU: %s\n", err);
    return 2;
  }
  /* First launch in this process: compile (no disk cache yet), load, launch. */
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.arch = ttc_device_arch(dev);
  ttc_kernel *k = NULL;
  ttc_module *mod = NULL;
  ttc_function *fn_obj = NULL;
  uint64_t buf = 0;
  int rc = 1;
  st = ttc_compile_file(path, "add_kernel", "*fp32:16,*fp32:16,*fp32:16,i32,1024", &o, &k);
  if (st == TTC_OK) st = ttc_module_load(dev, k, &mod);
  if (st == TTC_OK) st = ttc_device_alloc(dev, 4096, &buf);
  const ttc_arg args[4] = {ttc_arg_ptr(buf), ttc_arg_ptr(buf), ttc_arg_ptr(buf), ttc_arg_i32(0)};
  const unsigned grid[3] = {1, 1, 1};
  if (st == TTC_OK) st = ttc_module_launch(mod, grid, NULL, args, 4);
  if (st == TTC_OK) st = ttc_device_synchronize(dev);
  if (st != TTC_OK) {
    fprintf(stderr, "bench_launch: %s: %s%s\n", ttc_status_string(st), ttc_device_error(dev),
            k ? ttc_kernel_diagnostics(k) : "");
    goto done;
  }
  printf("# bench_launch on %s (%s), %d launches per round, median of %d rounds\n",
         ttc_device_name(dev), ttc_device_arch(dev), n, ROUNDS);
  printf("first_launch ms=%.2f (device open + compile to cubin + load + launch + sync)\n",
         bench_now_ms() - t_start);

  /* The raw path: the same cubin, loaded and launched through the driver in
   * the context ttc made current. */
  raw_driver d;
  cu_context ctx = NULL;
  cu_module cmod = NULL;
  cu_function fn = NULL;
  size_t cubin_size = 0;
  const void *cubin = ttc_kernel_output(k, TTC_LEVEL_CUBIN, &cubin_size);
  if (load_raw(&d) || d.ctx_get_current(&ctx) != 0 || !ctx ||
      d.module_load_data(&cmod, cubin) != 0 ||
      d.module_get_function(&fn, cmod, "add_kernel") != 0) {
    fprintf(stderr, "bench_launch: raw driver path failed\n");
    goto done;
  }
  int32_t zero = 0;
  void *slots[4] = {&buf, &buf, &buf, &zero};
  ttc_function_options fo;
  ttc_function_options_init(&fo);
  fo.cache = 0;
  const ttc_arg fargs[4] = {ttc_arg_ptr_to(TTC_TYPE_F32, buf), ttc_arg_ptr_to(TTC_TYPE_F32, buf),
                            ttc_arg_ptr_to(TTC_TYPE_F32, buf), ttc_arg_i32(0)};
  if (ttc_function_create_file(dev, path, "add_kernel", "BLOCK_SIZE=1024", &fo, &fn_obj) !=
          TTC_OK ||
      ttc_function_launch(fn_obj, grid, NULL, fargs, 4) != TTC_OK) {
    char *e = ttc_function_error(fn_obj);
    fprintf(stderr, "bench_launch: kernel function failed: %s\n", e);
    free(e);
    goto done;
  }
  /* warm-up, then rounds that alternate the three paths */
  round_raw(&d, fn, slots, n / 10 + 1);
  round_module(dev, mod, args, n / 10 + 1);
  round_function(dev, fn_obj, fargs, n / 10 + 1);
  double raw[ROUNDS], ttc[ROUNDS], fun[ROUNDS];
  for (int r = 0; r < ROUNDS; r++) {
    raw[r] = round_raw(&d, fn, slots, n);
    ttc[r] = round_module(dev, mod, args, n);
    fun[r] = round_function(dev, fn_obj, fargs, n);
    if (raw[r] < 0 || ttc[r] < 0 || fun[r] < 0) {
      fprintf(stderr, "bench_launch: a launch failed\n");
      goto done;
    }
  }
  d.module_unload(cmod);
  double traw = median(raw, ROUNDS), tttc = median(ttc, ROUNDS), tfun = median(fun, ROUNDS);
  printf("launch raw us=%.3f (rounds %.3f..%.3f)\n", traw, raw[0], raw[ROUNDS - 1]);
  printf("launch ttc us=%.3f ratio=%.3f\n", tttc, tttc / traw);
  printf("launch function us=%.3f ratio=%.3f\n", tfun, tfun / traw);
  rc = 0;
done:
  if (buf) ttc_device_free(dev, buf);
  ttc_function_destroy(fn_obj);
  ttc_module_destroy(mod);
  ttc_kernel_destroy(k);
  ttc_device_destroy(dev);
  return rc;
}
