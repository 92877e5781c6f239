/* bench_launch.c - launch overhead and first-launch time (DESIGN.md targets:
 * ttc_module_launch at most 1.1x a raw cuLaunchKernel; first launch in a new
 * process). The same cubin (the vector-add example with n = 0, one program,
 * so the kernel does nothing) is launched back to back through the CUDA
 * driver directly and through ttc; each figure is host time per launch over
 * many launches, the median of several rounds.
 *
 * usage: bench_launch [-n LAUNCHES] [kernel.py]
 * prints: "first_launch ms=T", "launch raw us=T", "launch ttc us=T ratio=R". */
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

/* Median over ROUNDS of the host time per launch of `n` back-to-back launches
 * (synchronized at the end of each round), in microseconds. */
static double time_raw(const raw_driver *d, cu_function fn, void **slots, int n) {
  double per[ROUNDS];
  for (int r = 0; r < ROUNDS; r++) {
    double t0 = bench_now_ms();
    for (int i = 0; i < n; i++)
      if (d->launch_kernel(fn, 1, 1, 1, 128, 1, 1, 0, NULL, slots, NULL) != 0) return -1;
    if (d->ctx_synchronize() != 0) return -1;
    per[r] = (bench_now_ms() - t0) * 1e3 / n;
  }
  qsort(per, ROUNDS, sizeof per[0], bench_cmp_double);
  return per[ROUNDS / 2];
}

static double time_ttc(ttc_device *dev, ttc_module *mod, const ttc_arg *args, int n) {
  const unsigned grid[3] = {1, 1, 1};
  double per[ROUNDS];
  for (int r = 0; r < ROUNDS; r++) {
    double t0 = bench_now_ms();
    for (int i = 0; i < n; i++)
      if (ttc_module_launch(mod, grid, NULL, args, 4) != TTC_OK) return -1;
    if (ttc_device_synchronize(dev) != TTC_OK) return -1;
    per[r] = (bench_now_ms() - t0) * 1e3 / n;
  }
  qsort(per, ROUNDS, sizeof per[0], bench_cmp_double);
  return per[ROUNDS / 2];
}

int main(int argc, char **argv) {
  double t_start = bench_now_ms();
  int n = 20000;
  const char *path = TTC_EXAMPLES_DIR "/vector_add/vector_add.py";
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) n = atoi(argv[++i]);
    else path = argv[i];
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
      d.module_load_data(&cmod, cubin) != 0 || d.module_get_function(&fn, cmod, "add_kernel") != 0) {
    fprintf(stderr, "bench_launch: raw driver path failed\n");
    goto done;
  }
  int32_t zero = 0;
  void *slots[4] = {&buf, &buf, &buf, &zero};
  time_raw(&d, fn, slots, n / 10 + 1); /* warm-up */
  time_ttc(dev, mod, args, n / 10 + 1);
  double raw = time_raw(&d, fn, slots, n), ttc = time_ttc(dev, mod, args, n);
  double raw2 = time_raw(&d, fn, slots, n); /* again, for the spread */
  d.module_unload(cmod);
  if (raw < 0 || ttc < 0 || raw2 < 0) {
    fprintf(stderr, "bench_launch: a launch failed\n");
    goto done;
  }
  printf("launch raw us=%.3f (again: %.3f)\n", raw, raw2);
  printf("launch ttc us=%.3f ratio=%.3f\n", ttc, ttc / (raw < raw2 ? raw : raw2));
  rc = 0;
done:
  if (buf) ttc_device_free(dev, buf);
  ttc_module_destroy(mod);
  ttc_kernel_destroy(k);
  ttc_device_destroy(dev);
  return rc;
}
