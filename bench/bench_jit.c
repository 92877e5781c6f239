// SPDX-License-Identifier: MIT
/* bench_jit.c - kernel functions (ttc/function.h) on a GPU, for
 * test/gpu/jit.sh:
 *   first      first launch in this process: device open (context
 *              creation) timed apart from making the vector-add function,
 *              its first launch and synchronize (with a warm cache: a hit)
 *   check      the specialization a function derives from real device
 *              buffers gives the same PTX as the hand-written signature
 *              (vector add, softmax, matmul)
 *   autotune   examples/matmul/matmul_autotune.py (Triton's tutorial
 *              configs): tunes on the first launch, checks the product,
 *              then times every config again itself and reports the choice
 *              against the fastest; --expect-cached: the choice must come
 *              from the cache with nothing timed (a second process)
 *
 * usage: bench_jit first [--cache-dir D]
 *        bench_jit check
 *        bench_jit autotune [-s SIZE] [--cache-dir D] [--expect-cached]
 * prints "key=value" lines (see each mode); exit 0, 1 on failure, 2 without a GPU.
 * With TTC_INTERPRET=1 every mode runs on the CPU interpreter instead (ttir
 * compared for PTX, host time for device time): a check of the program
 * itself, not a measurement. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

#define EXAMPLES TTC_EXAMPLES_DIR

static int fail_function(ttc_function *f, const char *what) {
  char *e = ttc_function_error(f);
  fprintf(stderr, "bench_jit: %s failed: %s\n", what, e ? e : "");
  free(e);
  return 1;
}

static ttc_status open_device(ttc_device **dev) {
  char err[512] = "";
  ttc_status st = ttc_device_open(0, dev, err, sizeof err);
  if (st != TTC_OK) fprintf(stderr, "bench_jit: no GPU: %s\n", err);
  return st;
}

/* Compile options for the device: its arch, or ttir for the interpreter. */
static void device_options(ttc_device *dev, ttc_compile_options *co) {
  ttc_compile_options_init(co);
  if (ttc_device_is_interpreter(dev))
    co->stop_after = TTC_LEVEL_TTIR;
  else
    co->arch = ttc_device_arch(dev);
}

/* ---- first ---------------------------------------------------------------------------- */

static int run_first(const char *cache_dir) {
  double t0 = bench_now_ms();
  ttc_device *dev = NULL;
  if (open_device(&dev) != TTC_OK) return 2;
  double t1 = bench_now_ms();
  uint64_t buf = 0;
  if (ttc_device_alloc(dev, 4096 * sizeof(float), &buf) != TTC_OK) return 1;
  double t2 = bench_now_ms();
  ttc_function_options o;
  ttc_function_options_init(&o);
  o.cache_dir = cache_dir;
  ttc_function *f = NULL;
  int rc = 1;
  const ttc_arg args[4] = {ttc_arg_ptr_to(TTC_TYPE_F32, buf), ttc_arg_ptr_to(TTC_TYPE_F32, buf),
                           ttc_arg_ptr_to(TTC_TYPE_F32, buf), ttc_arg_i32(4096)};
  const unsigned grid[3] = {4, 1, 1};
  if (ttc_function_create_file(dev, EXAMPLES "/vector_add/vector_add.py", "add_kernel",
                               "BLOCK_SIZE=1024", &o, &f) != TTC_OK) {
    rc = fail_function(f, "create");
  } else if (ttc_function_launch(f, grid, NULL, args, 4) != TTC_OK ||
             ttc_device_synchronize(dev) != TTC_OK) {
    rc = fail_function(f, "first launch");
  } else {
    double t3 = bench_now_ms();
    ttc_function_stats s;
    ttc_function_stats_get(f, &s);
    printf("# bench_jit first on %s (%s)\n", ttc_device_name(dev), ttc_device_arch(dev));
    printf("first_launch ctx_ms=%.3f jit_ms=%.3f source=%s\n", t1 - t0, t3 - t2,
           s.cache_hits ? "cache" : "compiled");
    rc = 0;
  }
  ttc_function_destroy(f);
  ttc_device_free(dev, buf);
  ttc_device_destroy(dev);
  return rc;
}

/* ---- check ----------------------------------------------------------------------------- */

/* One kernel: the function's kernel for `args` against ttc_compile with `sig`. */
static int check_one(ttc_device *dev, const char *path, const char *name, const char *cexprs,
                     const ttc_arg *args, size_t nargs, const char *sig) {
  ttc_function_options o;
  ttc_function_options_init(&o);
  o.cache = 0;
  ttc_function *f = NULL;
  const ttc_kernel *fk = NULL;
  ttc_kernel *k = NULL;
  char *got = NULL;
  int rc = 1;
  if (ttc_function_create_file(dev, path, name, cexprs, &o, &f) != TTC_OK ||
      ttc_function_signature(f, args, nargs, &got) != TTC_OK ||
      ttc_function_kernel(f, args, nargs, &fk) != TTC_OK) {
    rc = fail_function(f, name);
    goto done;
  }
  ttc_compile_options co;
  device_options(dev, &co);
  if (ttc_compile_file(path, name, sig, &co, &k) != TTC_OK) {
    fprintf(stderr, "bench_jit: compiling %s: %s", sig, ttc_kernel_diagnostics(k));
    goto done;
  }
  bool interp = ttc_device_is_interpreter(dev);
  ttc_level level = interp ? TTC_LEVEL_TTIR : TTC_LEVEL_PTX;
  const char *a = ttc_kernel_output(fk, level, NULL), *b = ttc_kernel_output(k, level, NULL);
  bool same = a && b && strcmp(a, b) == 0 && strcmp(got, sig) == 0;
  printf("specialization %s derived=%s written=%s %s=%s\n", name, got, sig, interp ? "ttir" : "ptx",
         same ? "same" : "DIFFERENT");
  rc = same ? 0 : 1;
done:
  free(got);
  ttc_kernel_destroy(k);
  ttc_function_destroy(f);
  return rc;
}

static int run_check(void) {
  ttc_device *dev = NULL;
  if (open_device(&dev) != TTC_OK) return 2;
  uint64_t p[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++)
    if (ttc_device_alloc(dev, 1 << 22, &p[i]) != TTC_OK) return 1;
#define PF32(x) ttc_arg_ptr_to(TTC_TYPE_F32, (x))
#define PF16(x) ttc_arg_ptr_to(TTC_TYPE_F16, (x))
  const ttc_arg add[4] = {PF32(p[0]), PF32(p[1]), PF32(p[2]), ttc_arg_i32(1 << 20)};
  const ttc_arg add_odd[4] = {PF32(p[0]), PF32(p[1] + 4), PF32(p[2]), ttc_arg_i32(1000003)};
  const ttc_arg sm[5] = {PF32(p[0]), PF32(p[1]), ttc_arg_i32(1024), ttc_arg_i32(1024),
                         ttc_arg_i32(781)};
  const ttc_arg mm[12] = {PF16(p[0]),       PF16(p[1]),       PF16(p[2]),       ttc_arg_i32(512),
                          ttc_arg_i32(512), ttc_arg_i32(512), ttc_arg_i32(512), ttc_arg_i32(1),
                          ttc_arg_i32(512), ttc_arg_i32(1),   ttc_arg_i32(512), ttc_arg_i32(1)};
  int rc = 0;
  rc |= check_one(dev, EXAMPLES "/vector_add/vector_add.py", "add_kernel", "BLOCK_SIZE=1024", add,
                  4, "*fp32:16,*fp32:16,*fp32:16,i32:16,1024");
  rc |= check_one(dev, EXAMPLES "/vector_add/vector_add.py", "add_kernel", "BLOCK_SIZE=1024",
                  add_odd, 4, "*fp32:16,*fp32,*fp32:16,i32,1024");
  rc |= check_one(dev, EXAMPLES "/softmax/softmax.py", "softmax_kernel", "BLOCK_SIZE=1024", sm, 5,
                  "*fp32:16,*fp32:16,i32:16,i32:16,i32,1024");
  rc |= check_one(dev, EXAMPLES "/matmul/matmul.py", "matmul_kernel",
                  "BLOCK_SIZE_M=64,BLOCK_SIZE_N=64,BLOCK_SIZE_K=32,GROUP_SIZE_M=8", mm, 12,
                  "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,1,i32:16,1,"
                  "64,64,32,8");
  for (int i = 0; i < 3; i++)
    ttc_device_free(dev, p[i]);
  ttc_device_destroy(dev);
  return rc;
}

/* ---- autotune --------------------------------------------------------------------------- */

/* The configs of matmul_autotune.py, in its order: BM, BN, BK, GROUP, warps, stages. */
static const int mm_configs[][6] = {
    {128, 256, 64, 8, 8, 3}, {64, 256, 32, 8, 4, 4}, {128, 128, 32, 8, 4, 4},
    {128, 64, 32, 8, 4, 4},  {64, 128, 32, 8, 4, 4}, {128, 32, 32, 8, 4, 4},
    {64, 32, 32, 8, 2, 5},   {32, 64, 32, 8, 2, 5},
};
enum { MM_NCONFIGS = sizeof mm_configs / sizeof mm_configs[0] };

static void mm_grid(const ttc_launch_meta *meta, void *user, unsigned grid[3]) {
  int64_t m = 0, n = 0, bm = 1, bn = 1;
  ttc_launch_meta_int(meta, "M", &m);
  ttc_launch_meta_int(meta, "N", &n);
  ttc_launch_meta_int(meta, "BLOCK_SIZE_M", &bm);
  ttc_launch_meta_int(meta, "BLOCK_SIZE_N", &bn);
  grid[0] = (unsigned)(((m + bm - 1) / bm) * ((n + bn - 1) / bn));
  (void)user;
}

/* fp16 from a float in [-1, 1) (round to nearest even through the bits). */
static uint16_t to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t e = (int32_t)((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (e <= 0) return (uint16_t)sign; /* tiny: zero is close enough for inputs */
  uint32_t h = sign | (uint32_t)e << 10 | mant >> 13, rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) h++;
  return (uint16_t)h;
}

static float from_f16(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1f, mant = h & 0x3ffu;
  uint32_t x = e ? sign | (e - 15 + 127) << 23 | mant << 13 : sign;
  float f;
  memcpy(&f, &x, sizeof f);
  return f;
}

typedef struct mm_run {
  ttc_module *mod;
  unsigned grid[3];
  ttc_arg args[9];
} mm_run;

static ttc_status mm_launch(void *user) {
  mm_run *r = user;
  return ttc_module_launch(r->mod, r->grid, NULL, r->args, 9);
}

static int run_autotune(int size, const char *cache_dir, bool expect_cached) {
  bench_ctx b = {"bench_jit", NULL, NULL, 0};
  /* the interpreter (a check of this program): no flush kernel, no re-timing */
  int rc = open_device(&b.dev) != TTC_OK ? 2 : 0;
  bool interp = rc == 0 && ttc_device_is_interpreter(b.dev);
  if (rc == 0 && !interp) {
    ttc_device_destroy(b.dev);
    rc = bench_open(&b, "bench_jit");
  }
  if (rc) return rc;
  const size_t elems = (size_t)size * (size_t)size;
  uint16_t *ha = malloc(elems * 2), *hb = malloc(elems * 2), *hc = malloc(elems * 2);
  uint64_t a = 0, bm = 0, c = 0;
  ttc_function *f = NULL;
  rc = 1;
  if (!ha || !hb || !hc) goto done;
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < elems; i++) {
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    ha[i] = to_f16((float)((double)(seed >> 40) / 8388608.0 - 1.0));
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    hb[i] = to_f16((float)((double)(seed >> 40) / 8388608.0 - 1.0));
  }
  if (ttc_device_alloc(b.dev, elems * 2, &a) || ttc_device_alloc(b.dev, elems * 2, &bm) ||
      ttc_device_alloc(b.dev, elems * 2, &c) || ttc_device_copy_to(b.dev, a, ha, elems * 2) ||
      ttc_device_copy_to(b.dev, bm, hb, elems * 2))
    goto done;
  ttc_function_options o;
  ttc_function_options_init(&o);
  o.cache_dir = cache_dir;
  if (ttc_function_create_file(b.dev, EXAMPLES "/matmul/matmul_autotune.py", "matmul_kernel", NULL,
                               &o, &f) != TTC_OK) {
    rc = fail_function(f, "create");
    goto done;
  }
  const ttc_arg args[12] = {ttc_arg_ptr_to(TTC_TYPE_F16, a),
                            ttc_arg_ptr_to(TTC_TYPE_F16, bm),
                            ttc_arg_ptr_to(TTC_TYPE_F16, c),
                            ttc_arg_i32(size),
                            ttc_arg_i32(size),
                            ttc_arg_i32(size),
                            ttc_arg_i32(size),
                            ttc_arg_i32(1),
                            ttc_arg_i32(size),
                            ttc_arg_i32(1),
                            ttc_arg_i32(size),
                            ttc_arg_i32(1)};
  double t0 = bench_now_ms();
  if (ttc_function_launch_grid(f, mm_grid, NULL, NULL, args, 12) != TTC_OK ||
      ttc_device_synchronize(b.dev) != TTC_OK) {
    rc = fail_function(f, "autotuned launch");
    goto done;
  }
  double tune_ms = bench_now_ms() - t0;
  ttc_function_stats s;
  ttc_function_stats_get(f, &s);
  char *sig = NULL;
  const ttc_kernel *k = NULL;
  ttc_function_signature(f, args, 12, &sig);
  ttc_function_kernel(f, args, 12, &k);
  int chosen = -1;
  for (int i = 0; sig && i < MM_NCONFIGS; i++) {
    char tail[64];
    snprintf(tail, sizeof tail, ",%d,%d,%d,%d", mm_configs[i][0], mm_configs[i][1],
             mm_configs[i][2], mm_configs[i][3]);
    size_t n = strlen(sig), t = strlen(tail);
    if (n >= t && strcmp(sig + n - t, tail) == 0 && ttc_kernel_num_warps(k) == mm_configs[i][4])
      chosen = i;
  }
  /* the product, checked on a sample of elements against a double reference */
  double worst = 0;
  if (ttc_device_copy_from(b.dev, hc, c, elems * 2) != TTC_OK) goto done;
  for (int t = 0; t < 64; t++) {
    size_t i = (size_t)(t * 7919) % (size_t)size, j = (size_t)(t * 104729) % (size_t)size;
    double ref = 0, mag = 0;
    for (int kk = 0; kk < size; kk++) {
      double p = (double)from_f16(ha[i * (size_t)size + (size_t)kk]) *
                 (double)from_f16(hb[(size_t)kk * (size_t)size + j]);
      ref += p;
      mag += fabs(p);
    }
    double err = fabs((double)from_f16(hc[i * (size_t)size + j]) - ref) / (mag > 1 ? mag : 1);
    if (err > worst) worst = err;
  }
  printf("# bench_jit autotune on %s, %dx%dx%d fp16, %d configs\n", ttc_device_name(b.dev), size,
         size, size, MM_NCONFIGS);
  printf("autotune first_launch_ms=%.1f tunings=%d from_cache=%d timed_runs=%d compiles=%d "
         "cache_hits=%d chosen=%d signature=%s max_rel_err=%.2e\n",
         tune_ms, s.tunings, s.tunings_cached, s.benchmark_runs, s.compiles, s.cache_hits, chosen,
         sig ? sig : "?", worst);
  free(sig);
  if (worst > 1e-2 || chosen < 0) {
    fprintf(stderr, "bench_jit: %s\n",
            chosen < 0 ? "cannot tell the chosen config" : "wrong product");
    goto done;
  }
  if (expect_cached) {
    rc = s.tunings == 0 && s.tunings_cached == 1 && s.benchmark_runs == 0 ? 0 : 1;
    printf("autotune second_process from_cache=%s timed_runs=%d\n", rc ? "NO" : "yes",
           s.benchmark_runs);
    goto done;
  }
  if (interp) {
    rc = 0;
    goto done;
  }
  /* Every config timed again here, as bench_matmul times (L2 flushed). */
  float best_ms = INFINITY, ms[MM_NCONFIGS];
  for (int i = 0; i < MM_NCONFIGS; i++) {
    const int *cf = mm_configs[i];
    char csig[256];
    snprintf(csig, sizeof csig,
             "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,"
             "1,i32:16,1,%d,%d,%d,%d",
             cf[0], cf[1], cf[2], cf[3]);
    ttc_compile_options co;
    device_options(b.dev, &co);
    co.num_warps = cf[4];
    co.num_stages = cf[5];
    co.cache = 1;
    co.cache_dir = cache_dir;
    ttc_kernel *ck = NULL;
    mm_run r = {NULL,
                {(unsigned)((size + cf[0] - 1) / cf[0] * ((size + cf[1] - 1) / cf[1])), 1, 1},
                {args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[8], args[10]}};
    ms[i] = INFINITY;
    if (ttc_compile_file(EXAMPLES "/matmul/matmul_autotune.py", "matmul_kernel", csig, &co, &ck) ==
            TTC_OK &&
        ttc_module_load(b.dev, ck, &r.mod) == TTC_OK)
      bench_time(&b, mm_launch, &r, 3, 25, &ms[i]);
    ttc_module_destroy(r.mod);
    ttc_kernel_destroy(ck);
    if (ms[i] < best_ms) best_ms = ms[i];
    printf("config %d %dx%dx%d/g%d/w%d/s%d ms=%.4f%s\n", i, cf[0], cf[1], cf[2], cf[3], cf[4],
           cf[5], (double)ms[i], i == chosen ? " (chosen)" : "");
  }
  double ratio = ms[chosen] / best_ms;
  printf("autotune chosen_ms=%.4f fastest_ms=%.4f ratio=%.3f within_3pct=%s\n", (double)ms[chosen],
         (double)best_ms, ratio, ratio <= 1.03 ? "yes" : "NO");
  rc = 0;
done:
  ttc_function_destroy(f);
  ttc_device_free(b.dev, a);
  ttc_device_free(b.dev, bm);
  ttc_device_free(b.dev, c);
  free(ha);
  free(hb);
  free(hc);
  if (interp)
    ttc_device_destroy(b.dev);
  else
    bench_close(&b);
  return rc;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "", *cache_dir = NULL;
  int size = 2048;
  bool expect_cached = false;
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--cache-dir") == 0 && i + 1 < argc)
      cache_dir = argv[++i];
    else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
      size = atoi(argv[++i]);
    else if (strcmp(argv[i], "--expect-cached") == 0)
      expect_cached = true;
    else
      mode = "";
  }
  if (strcmp(mode, "first") == 0) return run_first(cache_dir);
  if (strcmp(mode, "check") == 0) return run_check();
  if (strcmp(mode, "autotune") == 0 && size >= 16)
    return run_autotune(size, cache_dir, expect_cached);
  fprintf(stderr,
          "usage: bench_jit first|check|autotune [-s SIZE] [--cache-dir D] [--expect-cached]\n");
  return 1;
}
