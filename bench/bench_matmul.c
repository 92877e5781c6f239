// SPDX-License-Identifier: MIT
/* bench_matmul.c - times ttc's compile of examples/matmul/matmul.py (fp16 or,
 * with -t bf16, bf16 in; fp32 accumulation; the same type out) on square sizes the way
 * bench/triton_matmul.py times Triton's (do_bench: L2 flushed before each launch, median).
 *
 * Each configuration is BMxBNxBK/wW/sS (block sizes, num_warps, num_stages;
 * GROUP_SIZE_M 8), the format triton_matmul.py takes, so both time the same
 * tiling. ttc has no software pipeliner yet: num_stages is passed on but
 * every stage count gives the same kernel.
 * Sampled output elements are checked against a double reference first.
 *
 * usage: bench_matmul [-r REPS] [-s SIZE,...] [-c CONFIG,...] [-t f16|bf16] [kernel.py]
 * prints: "ttc matmul case=S/CONFIG size=S ms=T tflops=F" per size and
 * configuration (2*S^3 flops); "ttc matmul_bf16 ..." with -t bf16. */
#include <math.h>
#include <stdbool.h>

#include "bench_util.h"

#ifndef TTC_EXAMPLES_DIR
#define TTC_EXAMPLES_DIR "examples"
#endif

#define MAX_SIZES 8
#define MAX_CONFIGS 8
#define GROUP_M 8
#define SAMPLES 256 /* output elements checked */
#define DEFAULT_CONFIGS "128x128x64/w4/s3,128x256x64/w8/s3,64x64x32/w4/s3"

typedef struct config {
  int bm, bn, bk, warps, stages;
  char name[48];
} config;

typedef struct matmul_run {
  ttc_module *mod;
  uint64_t a, b, c;
  int32_t size;
  const config *cfg;
} matmul_run;

/* "128x128x64/w4/s3" -> a config; false when malformed. */
static bool parse_config(const char *text, size_t len, config *c) {
  char buf[48];
  if (len >= sizeof buf) return false;
  memcpy(buf, text, len);
  buf[len] = 0;
  int n = 0;
  if (sscanf(buf, "%dx%dx%d/w%d/s%d%n", &c->bm, &c->bn, &c->bk, &c->warps, &c->stages, &n) != 5 ||
      buf[n] || c->bm < 16 || c->bn < 16 || c->bk < 16 || c->bm > 512 || c->bn > 512 ||
      c->bk > 512 || c->warps < 1 || c->warps > 32 || c->stages < 1 || c->stages > 8)
    return false;
  memcpy(c->name, buf, len + 1);
  return true;
}

static int parse_configs(const char *list, config *out) {
  int n = 0;
  for (const char *p = list; *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (n == MAX_CONFIGS || !parse_config(p, len, &out[n])) return -1;
    n++;
    p += len + (e ? 1 : 0);
  }
  return n;
}

static ttc_status launch_matmul(void *user) {
  const matmul_run *r = user;
  int32_t s = r->size;
  const int bm = r->cfg->bm, bn = r->cfg->bn;
  const unsigned tiles = (unsigned)((s + bm - 1) / bm) * (unsigned)((s + bn - 1) / bn);
  const unsigned grid[3] = {tiles, 1, 1};
  const ttc_arg args[9] = {ttc_arg_ptr(r->a), ttc_arg_ptr(r->b), ttc_arg_ptr(r->c),
                           ttc_arg_i32(s),    ttc_arg_i32(s),    ttc_arg_i32(s),
                           ttc_arg_i32(s),    ttc_arg_i32(s),    ttc_arg_i32(s)};
  return ttc_module_launch(r->mod, grid, NULL, args, 9);
}

static bool use_bf16; /* -t bf16 */

/* Values with at most 8 significant bits, built from bits directly: k/128
 * for k in -128..127, exactly representable in fp16, bf16 and float. */
static uint16_t small_half(uint64_t *s, float *value) {
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  int k = (int)(*s >> 56) - 128;
  *value = (float)k / 128.0f;
  if (use_bf16) { /* exact in bf16: the top half of the f32 */
    uint32_t x;
    memcpy(&x, value, sizeof x);
    return (uint16_t)(x >> 16);
  }
  if (k == 0) return 0;
  unsigned mag = (unsigned)(k < 0 ? -k : k), e = 0;
  while ((mag >> e) > 1)
    e++; /* mag = 1.f * 2^e, e in 0..7 */
  unsigned mant = (mag << (10 - e)) & 0x3ffu;
  unsigned exp = e + 15 - 7; /* value = mag * 2^-7 */
  return (uint16_t)((k < 0 ? 0x8000u : 0) | (exp << 10) | mant);
}

static float half_to_float(uint16_t h) {
  if (use_bf16) {
    uint32_t x = (uint32_t)h << 16;
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
  }
  unsigned e = (h >> 10) & 0x1f, m = h & 0x3ffu;
  float v = e == 0    ? ldexpf((float)m, -24)
            : e == 31 ? (m ? NAN : INFINITY)
                      : ldexpf((float)(m | 0x400u), (int)e - 25);
  return h & 0x8000u ? -v : v;
}

/* Uploads random inputs, runs once and checks sampled elements (relative
 * error of the samples <= 1e-2, as in the example), then times. */
static int bench_size(bench_ctx *b, const char *path, int32_t size, const config *cfg, int reps,
                      float *ms) {
  const char *hint = size % 16 == 0 ? "i32:16" : "i32";
  char sig[256];
  /* Unit strides specialized to 1, as Triton's JIT does. */
  const char *pt = use_bf16 ? "*bf16:16" : "*fp16:16";
  snprintf(sig, sizeof sig, "%s,%s,%s,%s,%s,%s,%s,1,%s,1,%s,1,%d,%d,%d,%d", pt, pt, pt, hint, hint,
           hint, hint, hint, hint, cfg->bm, cfg->bn, cfg->bk, GROUP_M);
  matmul_run r = {NULL, 0, 0, 0, size, cfg};
  if (bench_load_staged(b, path, NULL, "matmul_kernel", sig, cfg->warps, cfg->stages, &r.mod) != 0)
    return 1;

  size_t n = (size_t)size * (size_t)size;
  uint16_t *a = malloc(n * 2), *bm = malloc(n * 2), *c = malloc(n * 2);
  float *af = malloc(n * sizeof *af), *bf = malloc(n * sizeof *bf);
  int rc = 1;
  ttc_status st = a && bm && c && af && bf ? TTC_OK : TTC_ERROR_OUT_OF_MEMORY;
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; st == TTC_OK && i < n; i++) {
    a[i] = small_half(&seed, &af[i]);
    bm[i] = small_half(&seed, &bf[i]);
  }
  if (st == TTC_OK) st = ttc_device_alloc(b->dev, n * 2, &r.a);
  if (st == TTC_OK) st = ttc_device_alloc(b->dev, n * 2, &r.b);
  if (st == TTC_OK) st = ttc_device_alloc(b->dev, n * 2, &r.c);
  if (st == TTC_OK) st = ttc_device_copy_to(b->dev, r.a, a, n * 2);
  if (st == TTC_OK) st = ttc_device_copy_to(b->dev, r.b, bm, n * 2);
  if (st == TTC_OK) st = launch_matmul(&r);
  if (st == TTC_OK) st = ttc_device_copy_from(b->dev, c, r.c, n * 2);
  if (st != TTC_OK) {
    bench_fail(b, st, "setup");
    goto done;
  }
  double num = 0, den = 0;
  for (int t = 0; t < SAMPLES; t++) {
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    int32_t i = (int32_t)((seed >> 20) % (uint64_t)size),
            j = (int32_t)((seed >> 40) % (uint64_t)size);
    double want = 0;
    for (int32_t p = 0; p < size; p++)
      want += (double)af[(size_t)i * size + p] * bf[(size_t)p * size + j];
    double got = half_to_float(c[(size_t)i * size + j]);
    num += (got - want) * (got - want);
    den += want * want;
  }
  if (!(sqrt(num) <= 1e-2 * sqrt(den))) {
    fprintf(stderr, "bench_matmul: wrong result at size %d: relative error %.3g\n", (int)size,
            sqrt(num / den));
    goto done;
  }
  rc = bench_time(b, launch_matmul, &r, 2, reps, ms);
done:
  ttc_device_free(b->dev, r.a);
  ttc_device_free(b->dev, r.b);
  ttc_device_free(b->dev, r.c);
  ttc_module_destroy(r.mod);
  free(a);
  free(bm);
  free(c);
  free(af);
  free(bf);
  return rc;
}

int main(int argc, char **argv) {
  const char *path = TTC_EXAMPLES_DIR "/matmul/matmul.py";
  long reps = 20, sizes[MAX_SIZES] = {1024, 2048, 4096};
  int nsizes = 3;
  config cfgs[MAX_CONFIGS];
  int ncfgs = parse_configs(DEFAULT_CONFIGS, cfgs);
  for (int i = 1; i < argc; i++) {
    long one[1];
    if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
      if (bench_parse_list(argv[++i], one, 1, 100000) != 1) goto usage;
      reps = one[0];
    } else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
      if ((nsizes = bench_parse_list(argv[++i], sizes, MAX_SIZES, 16384)) < 1) goto usage;
    } else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
      i++;
      if (strcmp(argv[i], "bf16") != 0 && strcmp(argv[i], "f16") != 0) goto usage;
      use_bf16 = strcmp(argv[i], "bf16") == 0;
    } else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) {
      if ((ncfgs = parse_configs(argv[++i], cfgs)) < 1) goto usage;
    } else if (argv[i][0] == '-') {
      goto usage;
    } else {
      path = argv[i];
    }
  }

  bench_ctx b;
  int rc = bench_open(&b, "bench_matmul");
  if (rc == 0)
    printf("# ttc matmul (%s, GROUP_SIZE_M %d) on %s (%s), median of %ld "
           "launches, L2 flushed before each\n",
           use_bf16 ? "bf16" : "fp16", GROUP_M, ttc_device_name(b.dev), ttc_device_arch(b.dev),
           reps);
  for (int i = 0; rc == 0 && i < nsizes; i++)
    for (int j = 0; rc == 0 && j < ncfgs; j++) {
      float ms = 0;
      rc = bench_size(&b, path, (int32_t)sizes[i], &cfgs[j], (int)reps, &ms);
      if (rc == 0)
        printf("ttc %s case=%ld/%s size=%ld ms=%.6f tflops=%.3f\n",
               use_bf16 ? "matmul_bf16" : "matmul", sizes[i], cfgs[j].name, sizes[i], (double)ms,
               2.0 * (double)sizes[i] * (double)sizes[i] * (double)sizes[i] / (ms * 1e-3) / 1e12);
      fflush(stdout);
    }
  if (b.dev) bench_close(&b);
  return rc;
usage:
  fprintf(stderr, "usage: bench_matmul [-r REPS] [-s SIZE,...] [-c BMxBNxBK/wW/sS,...] "
                  "[-t f16|bf16] [kernel.py]\n");
  return 1;
}
