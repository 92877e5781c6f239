/* bench_softmax.c - times ttc's compile of examples/softmax/softmax.py the way
 * bench/triton_softmax.py times Triton's (do_bench: L2 flushed before each
 * launch, median), so that bench/run.sh can compare the two.
 *
 * Launch shape as in the fused-softmax tutorial: one program per row,
 * BLOCK_SIZE the next power of two >= cols, 4 warps up to 2048, 8 up to 4096,
 * 16 above. Inputs are random; sampled rows are checked before timing.
 *
 * usage: bench_softmax [-r REPS] [-m ROWS] [-c COLS,COLS,...] [kernel.py]
 * prints: "ttc softmax rows=R cols=C ms=T gbps=G" per size, counting one
 * read and one write of each fp32 element. */
#include <math.h>

#include "bench_util.h"

#ifndef TTC_EXAMPLES_DIR
#define TTC_EXAMPLES_DIR "examples"
#endif

#define MAX_SIZES 8
#define CHECK_EVERY 61 /* rows checked: every 61st and the last */

typedef struct softmax_run {
  ttc_module *mod;
  uint64_t in, out;
  int32_t rows, cols;
} softmax_run;

static ttc_status launch_softmax(void *user) {
  const softmax_run *r = user;
  const unsigned grid[3] = {(unsigned)r->rows, 1, 1};
  const ttc_arg args[5] = {ttc_arg_ptr(r->out), ttc_arg_ptr(r->in), ttc_arg_i32(r->cols),
                           ttc_arg_i32(r->cols), ttc_arg_i32(r->cols)};
  return ttc_module_launch(r->mod, grid, NULL, args, 5);
}

/* Checks sampled rows of out against a double reference (bound as in the
 * example: 1e-5 relative). Returns the number of wrong elements. */
static int64_t check_rows(const float *x, const float *out, int32_t rows, int32_t cols) {
  int64_t bad = 0;
  for (int32_t i = 0; i < rows; i++) {
    if (i % CHECK_EVERY != 0 && i != rows - 1) continue;
    const float *xr = x + (size_t)i * cols, *o = out + (size_t)i * cols;
    double mx = -INFINITY, sum = 0;
    for (int32_t j = 0; j < cols; j++)
      mx = xr[j] > mx ? xr[j] : mx;
    for (int32_t j = 0; j < cols; j++)
      sum += exp((double)xr[j] - mx);
    for (int32_t j = 0; j < cols; j++) {
      double want = exp((double)xr[j] - mx) / sum;
      if (!(fabs(o[j] - want) <= 1e-5 * want) && bad++ < 3)
        fprintf(stderr, "bench_softmax: row %d col %d: got %.9g, expected %.9g\n", (int)i, (int)j,
                (double)o[j], want);
    }
  }
  return bad;
}

/* Uploads random inputs, runs once and checks, then times. */
static int bench_size(bench_ctx *b, const char *path, int32_t rows, int32_t cols, int reps,
                      float *ms) {
  int32_t block = 1;
  while (block < cols)
    block *= 2;
  int warps = block <= 2048 ? 4 : block <= 4096 ? 8 : 16;
  const char *hint = cols % 16 == 0 ? "i32:16" : "i32"; /* Triton's JIT specialization */
  char sig[128];
  snprintf(sig, sizeof sig, "*fp32:16,*fp32:16,%s,%s,%s,%d", hint, hint, hint, (int)block);
  softmax_run r = {NULL, 0, 0, rows, cols};
  if (bench_load(b, path, NULL, "softmax_kernel", sig, warps, &r.mod) != 0) return 1;

  size_t n = (size_t)rows * (size_t)cols, bytes = n * sizeof(float);
  float *x = malloc(bytes), *out = malloc(bytes);
  int rc = 1;
  ttc_status st = x && out ? TTC_OK : TTC_ERROR_OUT_OF_MEMORY;
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; x && i < n; i++) {
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    x[i] = (float)((double)(seed >> 40) * (8.0 / 16777216.0) - 4.0);
  }
  if (st == TTC_OK) st = ttc_device_alloc(b->dev, bytes, &r.in);
  if (st == TTC_OK) st = ttc_device_alloc(b->dev, bytes, &r.out);
  if (st == TTC_OK) st = ttc_device_copy_to(b->dev, r.in, x, bytes);
  if (st == TTC_OK) st = launch_softmax(&r);
  if (st == TTC_OK) st = ttc_device_copy_from(b->dev, out, r.out, bytes);
  if (st != TTC_OK) {
    bench_fail(b, st, "setup");
  } else if (check_rows(x, out, rows, cols) != 0) {
    fprintf(stderr, "bench_softmax: wrong result at %d x %d\n", (int)rows, (int)cols);
  } else {
    rc = bench_time(b, launch_softmax, &r, 10, reps, ms);
  }
  ttc_device_free(b->dev, r.in);
  ttc_device_free(b->dev, r.out);
  ttc_module_destroy(r.mod);
  free(x);
  free(out);
  return rc;
}

int main(int argc, char **argv) {
  const char *path = TTC_EXAMPLES_DIR "/softmax/softmax.py";
  long reps = 200, rows = 4096, cols[MAX_SIZES] = {256, 1024, 4096, 16384};
  int ncols = 4;
  for (int i = 1; i < argc; i++) {
    long one[1];
    if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
      if (bench_parse_list(argv[++i], one, 1, 100000) != 1) goto usage;
      reps = one[0];
    } else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) {
      if (bench_parse_list(argv[++i], one, 1, 1 << 20) != 1) goto usage;
      rows = one[0];
    } else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) {
      if ((ncols = bench_parse_list(argv[++i], cols, MAX_SIZES, 1 << 16)) < 1) goto usage;
    } else if (argv[i][0] == '-') {
      goto usage;
    } else {
      path = argv[i];
    }
  }
  for (int i = 0; i < ncols; i++) {
    if ((double)rows * (double)cols[i] > (double)(1u << 28)) {
      fprintf(stderr, "bench_softmax: %ld x %ld is more than 2^28 elements\n", rows, cols[i]);
      return 1;
    }
  }

  bench_ctx b;
  int rc = bench_open(&b, "bench_softmax");
  if (rc == 0)
    printf("# ttc softmax on %s (%s), median of %ld launches, L2 flushed before each\n",
           ttc_device_name(b.dev), ttc_device_arch(b.dev), reps);
  for (int i = 0; rc == 0 && i < ncols; i++) {
    float ms = 0;
    rc = bench_size(&b, path, (int32_t)rows, (int32_t)cols[i], (int)reps, &ms);
    if (rc == 0)
      printf("ttc softmax rows=%ld cols=%ld ms=%.6f gbps=%.1f\n", rows, cols[i], (double)ms,
             2.0 * sizeof(float) * (double)rows * (double)cols[i] / (ms * 1e-3) / 1e9);
    fflush(stdout);
  }
  if (b.dev) bench_close(&b);
  return rc;
usage:
  fprintf(stderr, "usage: bench_softmax [-r REPS] [-m ROWS] [-c COLS,COLS,...] [kernel.py]\n");
  return 1;
}
