/* run_lang.c - runs the language test kernels of test/lang (*.py) and checks
 * their numbers against references computed here, in plain C, from the same
 * random inputs (fixed seeds; outputs poisoned with NaN / 0xa5 first).
 *
 * usage: run_lang [--interp | --gpu | --compare] [-v] [FILTER]
 *   --interp   on ttc's CPU interpreter (default; what ctest runs)
 *   --gpu      on GPU 0
 *   --compare  on both, then GPU against interpreter: bitwise where the
 *              case says exact, else within the case's tolerance
 * Prints one line per case and "N passed, N failed"; exit 1 on any failure.
 * A deliberately wrong kernel must be caught: that case passes only when
 * its check fails. */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/ttc.h"

#ifndef TTC_LANG_DIR
#define TTC_LANG_DIR "test/lang"
#endif

#define MAX_BUFS 16

/* A host array mirrored on the device; outputs also hold the reference. */
typedef struct buf {
  ttc_type type;
  size_t n, esize;
  void *host, *ref; /* ref: outputs only */
  uint64_t dev;
  double tol;       /* outputs: 0 bitwise, else relative (and absolute) tolerance */
} buf;

typedef struct lctx {
  ttc_device *dev;
  buf bufs[MAX_BUFS];
  int nbufs;
  uint64_t seed;
  bool failed, verbose;
  char why[512];
} lctx;

/* ---- values of every type, independent of the library's conversions ------ */

static size_t type_size(ttc_type t) {
  switch (t) {
  case TTC_TYPE_I1: case TTC_TYPE_I8: case TTC_TYPE_U8: return 1;
  case TTC_TYPE_I16: case TTC_TYPE_U16: case TTC_TYPE_F16: case TTC_TYPE_BF16: return 2;
  case TTC_TYPE_I32: case TTC_TYPE_U32: case TTC_TYPE_F32: return 4;
  case TTC_TYPE_PTR: case TTC_TYPE_I64: case TTC_TYPE_U64: case TTC_TYPE_F64: return 8;
  }
  return 8;
}
static bool is_float(ttc_type t) {
  return t == TTC_TYPE_F16 || t == TTC_TYPE_BF16 || t == TTC_TYPE_F32 || t == TTC_TYPE_F64;
}
static bool is_signed(ttc_type t) {
  return t == TTC_TYPE_I8 || t == TTC_TYPE_I16 || t == TTC_TYPE_I32 || t == TTC_TYPE_I64;
}

/* Encodes x in a binary format (eb exponent, mb fraction bits), rounding to
 * nearest even by plain arithmetic on the scaled value. */
static uint16_t half_encode(double x, int eb, int mb) {
  uint16_t sign = signbit(x) ? (uint16_t)(1u << (eb + mb)) : 0;
  int bias = (1 << (eb - 1)) - 1;
  uint16_t inf = (uint16_t)(((1u << eb) - 1) << mb);
  if (isnan(x)) return sign | inf | (uint16_t)(1u << (mb - 1));
  x = fabs(x);
  int e = x == 0 ? 0 : (int)floor(log2(x));
  if (x != 0 && ldexp(1.0, e) > x) e--; /* log2 rounding */
  if (x != 0 && ldexp(1.0, e + 1) <= x) e++;
  if (x == 0 || e < 1 - bias) e = 1 - bias; /* subnormal: fixed scale */
  double q = nearbyint(ldexp(x, mb - e));    /* significand, ties to even */
  if (q >= ldexp(1.0, mb + 1)) { q /= 2; e++; }
  if (e + bias >= (1 << eb) - 1) return sign | inf;
  if (q < ldexp(1.0, mb)) return sign | (uint16_t)q; /* subnormal */
  return sign | (uint16_t)((unsigned)(e + bias) << mb | ((unsigned)q - (1u << mb)));
}

static double half_decode(uint16_t h, int eb, int mb) {
  int bias = (1 << (eb - 1)) - 1;
  unsigned exp = (h >> mb) & ((1u << eb) - 1), frac = h & ((1u << mb) - 1);
  double s = (h >> (eb + mb)) & 1 ? -1.0 : 1.0;
  if (exp == (1u << eb) - 1) return frac ? NAN : s * INFINITY;
  if (exp == 0) return s * ldexp(frac, 1 - bias - mb);
  return s * ldexp(frac | 1u << mb, (int)exp - bias - mb);
}

static double get_f(const buf *b, const void *p, size_t i) {
  switch (b->type) {
  case TTC_TYPE_F16: return half_decode(((const uint16_t *)p)[i], 5, 10);
  case TTC_TYPE_BF16: return half_decode(((const uint16_t *)p)[i], 8, 7);
  case TTC_TYPE_F32: return ((const float *)p)[i];
  default: return ((const double *)p)[i];
  }
}
static void set_f(const buf *b, void *p, size_t i, double x) {
  switch (b->type) {
  case TTC_TYPE_F16: ((uint16_t *)p)[i] = half_encode(x, 5, 10); return;
  case TTC_TYPE_BF16: ((uint16_t *)p)[i] = half_encode(x, 8, 7); return;
  case TTC_TYPE_F32: ((float *)p)[i] = (float)x; return;
  default: ((double *)p)[i] = x; return;
  }
}
/* Integers as int64 (sign- or zero-extended by the buffer's type). */
static int64_t get_i(const buf *b, const void *p, size_t i) {
  bool s = is_signed(b->type);
  switch (b->esize) {
  case 1: return s ? (int64_t)((const int8_t *)p)[i] : (int64_t)((const uint8_t *)p)[i];
  case 2: return s ? (int64_t)((const int16_t *)p)[i] : (int64_t)((const uint16_t *)p)[i];
  case 4: return s ? (int64_t)((const int32_t *)p)[i] : (int64_t)((const uint32_t *)p)[i];
  default: return ((const int64_t *)p)[i];
  }
}
static void set_i(const buf *b, void *p, size_t i, int64_t x) {
  memcpy((char *)p + i * b->esize, &x, b->esize); /* little endian: truncates */
}

static uint64_t rnd(lctx *c) {
  c->seed ^= c->seed << 13;
  c->seed ^= c->seed >> 7;
  c->seed ^= c->seed << 17;
  return c->seed;
}
static double rnd_unit(lctx *c) { return (double)(rnd(c) >> 11) * 0x1p-53; } /* [0, 1) */

/* ---- buffers and launches ----------------------------------------------------- */

static void fail(lctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(lctx *c, const char *fmt, ...) {
  if (c->failed) return;
  c->failed = true;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->why, sizeof c->why, fmt, ap);
  va_end(ap);
}

static buf *new_buf(lctx *c, ttc_type t, size_t n) {
  buf *b = &c->bufs[c->nbufs++];
  memset(b, 0, sizeof *b);
  b->type = t;
  b->n = n;
  b->esize = type_size(t);
  b->host = calloc(n, b->esize);
  return b;
}

/* Random input: floats uniform in [lo, hi) rounded to the type; integers
 * over the type's whole range unless hi > lo. */
static buf *input(lctx *c, ttc_type t, size_t n, double lo, double hi) {
  buf *b = new_buf(c, t, n);
  for (size_t i = 0; i < n; i++) {
    if (is_float(t)) set_f(b, b->host, i, lo + (hi - lo) * rnd_unit(c));
    else if (hi > lo) set_i(b, b->host, i, (int64_t)floor(lo + (hi - lo) * rnd_unit(c)));
    else set_i(b, b->host, i, (int64_t)rnd(c));
  }
  return b;
}

/* An output, poisoned: NaN for floats, 0xa5 bytes for integers. */
static buf *output(lctx *c, ttc_type t, size_t n, double tol) {
  buf *b = new_buf(c, t, n);
  b->ref = calloc(n, b->esize);
  b->tol = tol;
  memset(b->host, is_float(t) ? 0xff : 0xa5, n * b->esize);
  return b;
}

/* Compiles and runs file:kernel on the grid; copies every buffer back. */
static ttc_status launch(lctx *c, const char *file, const char *kernel, const char *sig,
                         unsigned gx, unsigned gy, unsigned gz, const ttc_arg *args, size_t nargs) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", TTC_LANG_DIR, file);
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  if (ttc_device_is_interpreter(c->dev)) o.stop_after = TTC_LEVEL_TTIR;
  else o.arch = ttc_device_arch(c->dev);
  ttc_kernel *k = NULL;
  ttc_status st = ttc_compile_file(path, kernel, sig, &o, &k);
  if (st != TTC_OK) {
    fail(c, "compile failed: %s\n%s", ttc_status_string(st), k ? ttc_kernel_diagnostics(k) : "");
    ttc_kernel_destroy(k);
    return st;
  }
  ttc_module *m = NULL;
  st = ttc_module_load(c->dev, k, &m);
  ttc_kernel_destroy(k);
  const unsigned grid[3] = {gx, gy, gz};
  if (st == TTC_OK) st = ttc_module_launch(m, grid, NULL, args, nargs);
  if (st == TTC_OK) st = ttc_device_synchronize(c->dev);
  ttc_module_destroy(m);
  for (int i = 0; st == TTC_OK && i < c->nbufs; i++)
    st = ttc_device_copy_from(c->dev, c->bufs[i].host, c->bufs[i].dev, c->bufs[i].n * c->bufs[i].esize);
  return st;
}

/* Allocates and uploads every buffer made so far. */
static bool upload(lctx *c) {
  for (int i = 0; i < c->nbufs; i++) {
    buf *b = &c->bufs[i];
    if (ttc_device_alloc(c->dev, b->n * b->esize, &b->dev) != TTC_OK ||
        ttc_device_copy_to(c->dev, b->dev, b->host, b->n * b->esize) != TTC_OK) {
      fail(c, "device memory: %s", ttc_device_error(c->dev));
      return false;
    }
  }
  return true;
}

static bool run(lctx *c, const char *file, const char *kernel, const char *sig, unsigned gx,
                unsigned gy, unsigned gz, const ttc_arg *args, size_t nargs) {
  ttc_status st = launch(c, file, kernel, sig, gx, gy, gz, args, nargs);
  if (st != TTC_OK && !c->failed)
    fail(c, "launch failed: %s: %s", ttc_status_string(st), ttc_device_error(c->dev));
  return st == TTC_OK;
}

/* Two values of an output agree: bitwise, or within tol (NaN matches NaN). */
static bool agree(const buf *b, const void *x, const void *y, size_t i) {
  if (memcmp((const char *)x + i * b->esize, (const char *)y + i * b->esize, b->esize) == 0)
    return true;
  if (!is_float(b->type)) return false;
  double p = get_f(b, x, i), q = get_f(b, y, i);
  if (isnan(p) && isnan(q)) return true;
  if (b->tol == 0) return p == q; /* +0 == -0 is not bitwise, but is exact */
  return fabs(p - q) <= b->tol * fmax(1.0, fmax(fabs(p), fabs(q)));
}

/* Every output against its reference. */
static void check(lctx *c) {
  for (int k = 0; k < c->nbufs && !c->failed; k++) {
    const buf *b = &c->bufs[k];
    if (!b->ref) continue;
    for (size_t i = 0; i < b->n; i++) {
      if (agree(b, b->host, b->ref, i)) continue;
      if (is_float(b->type))
        fail(c, "output %d element %zu: got %.9g, expected %.9g", k, i, get_f(b, b->host, i),
             get_f(b, b->ref, i));
      else
        fail(c, "output %d element %zu: got %lld, expected %lld", k, i,
             (long long)get_i(b, b->host, i), (long long)get_i(b, b->ref, i));
      break;
    }
  }
}

static ttc_arg arg_buf(const buf *b) { return ttc_arg_ptr(b->dev); }

/* ---- the cases ------------------------------------------------------------------ */

#define N_ELEMS 1000 /* not a multiple of BLOCK: the last program is masked */
#define BLOCK 128
#define GRID ((N_ELEMS + BLOCK - 1) / BLOCK)

static void case_add(lctx *c, const char *kernel) {
  buf *x = input(c, TTC_TYPE_F32, N_ELEMS, -1, 1), *y = input(c, TTC_TYPE_F32, N_ELEMS, -1, 1);
  buf *o = output(c, TTC_TYPE_F32, N_ELEMS, 0);
  for (size_t i = 0; i < N_ELEMS; i++)
    ((float *)o->ref)[i] = ((float *)x->host)[i] + ((float *)y->host)[i];
  if (!upload(c)) return;
  ttc_arg a[] = {arg_buf(x), arg_buf(y), arg_buf(o), ttc_arg_i32(N_ELEMS)};
  if (run(c, "elementwise.py", kernel, "*fp32,*fp32,*fp32,i32,128", GRID, 1, 1, a, 4)) check(c);
}
static void case_add_f32(lctx *c) { case_add(c, "add_kernel"); }
static void case_wrong_kernel(lctx *c) { case_add(c, "wrong_add_kernel"); }

/* x op y at the type's width: wraparound, truncating division. */
static int64_t int_ref(int op, ttc_type t, int64_t x, int64_t y, int64_t s) {
  unsigned w = (unsigned)type_size(t) * 8;
  uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
  switch (op) {
  case 0: return (int64_t)(ux + uy);
  case 1: return (int64_t)(ux - uy);
  case 2: return (int64_t)(ux * uy);
  case 3: return is_signed(t) ? x / y : (int64_t)(ux / uy);
  case 4: return is_signed(t) ? x % y : (int64_t)(ux % uy);
  case 5: return x & y;
  case 6: return x | y;
  case 7: return x ^ y;
  case 8: return is_signed(t) ? (x > y ? x : y) : (ux > uy ? x : y);
  case 9: return is_signed(t) ? (x < y ? x : y) : (ux < uy ? x : y);
  case 10: return (is_signed(t) ? x < y : ux < uy) ? x : (int64_t)(uy + uy);
  case 11: return (int64_t)(ux << s);
  default: /* >> : arithmetic for signed (x is sign-extended), logical for unsigned */
    if (is_signed(t)) return x >> s;
    return (int64_t)((w == 64 ? ux : ux & ((1ull << w) - 1)) >> s);
  }
}

static void case_int_ops(lctx *c, ttc_type t) {
  size_t n = N_ELEMS;
  buf *x = input(c, t, n, 0, 0), *y = input(c, t, n, 0, 0);
  unsigned w = (unsigned)type_size(t) * 8;
  buf *s = input(c, t, n, 0, w);
  for (size_t i = 0; i < n; i++) { /* no division by 0, no MIN / -1 */
    int64_t yi = get_i(y, y->host, i);
    if (yi == 0 || yi == -1) set_i(y, y->host, i, 3);
  }
  buf *o = output(c, t, 13 * n, 0);
  for (int op = 0; op < 13; op++)
    for (size_t i = 0; i < n; i++)
      set_i(o, o->ref, op * n + i,
            int_ref(op, t, get_i(x, x->host, i), get_i(y, y->host, i), get_i(s, s->host, i)));
  if (!upload(c)) return;
  char sig[128];
  const char *tn = ttc_type_name(t);
  snprintf(sig, sizeof sig, "*%s,*%s,*%s,*%s,i32,128", tn, tn, tn, tn);
  ttc_arg a[] = {arg_buf(x), arg_buf(y), arg_buf(s), arg_buf(o), ttc_arg_i32((int32_t)n)};
  if (run(c, "elementwise.py", "int_ops", sig, GRID, 1, 1, a, 5)) check(c);
}
static void case_i8(lctx *c) { case_int_ops(c, TTC_TYPE_I8); }
static void case_i16(lctx *c) { case_int_ops(c, TTC_TYPE_I16); }
static void case_i32(lctx *c) { case_int_ops(c, TTC_TYPE_I32); }
static void case_i64(lctx *c) { case_int_ops(c, TTC_TYPE_I64); }
static void case_u8(lctx *c) { case_int_ops(c, TTC_TYPE_U8); }
static void case_u16(lctx *c) { case_int_ops(c, TTC_TYPE_U16); }
static void case_u32(lctx *c) { case_int_ops(c, TTC_TYPE_U32); }
static void case_u64(lctx *c) { case_int_ops(c, TTC_TYPE_U64); }

/* Exactly rounded float ops: the reference rounds the double result once. */
static void case_float_ops(lctx *c, ttc_type t) {
  size_t n = N_ELEMS;
  buf *x = input(c, t, n, -8, 8), *y = input(c, t, n, 0.25, 8);
  buf *o = output(c, t, 7 * n, 0);
  for (size_t i = 0; i < n; i++) {
    double a = get_f(x, x->host, i), b = get_f(y, y->host, i);
    if (t == TTC_TYPE_F32) { /* float arithmetic, as C does it */
      float fa = (float)a, fb = (float)b;
      set_f(o, o->ref, i, fa + fb);
      set_f(o, o->ref, n + i, fa - fb);
      set_f(o, o->ref, 2 * n + i, fa * fb);
      set_f(o, o->ref, 3 * n + i, fa / fb);
    } else {
      set_f(o, o->ref, i, a + b);
      set_f(o, o->ref, n + i, a - b);
      set_f(o, o->ref, 2 * n + i, a * b);
      set_f(o, o->ref, 3 * n + i, a / b);
    }
    set_f(o, o->ref, 4 * n + i, fmax(a, b));
    set_f(o, o->ref, 5 * n + i, a < b ? -a : b);
    set_f(o, o->ref, 6 * n + i, fabs(a));
  }
  if (!upload(c)) return;
  char sig[128];
  const char *tn = ttc_type_name(t);
  snprintf(sig, sizeof sig, "*%s,*%s,*%s,i32,128", tn, tn, tn);
  ttc_arg a[] = {arg_buf(x), arg_buf(y), arg_buf(o), ttc_arg_i32((int32_t)n)};
  if (run(c, "elementwise.py", "float_ops", sig, GRID, 1, 1, a, 4)) check(c);
}
static void case_f16(lctx *c) { case_float_ops(c, TTC_TYPE_F16); }
static void case_bf16(lctx *c) { case_float_ops(c, TTC_TYPE_BF16); }
static void case_f32(lctx *c) { case_float_ops(c, TTC_TYPE_F32); }
static void case_f64(lctx *c) { case_float_ops(c, TTC_TYPE_F64); }

static void case_math(lctx *c) {
  size_t n = N_ELEMS;
  buf *x = input(c, TTC_TYPE_F32, n, -1.5, 1.5);
  buf *o = output(c, TTC_TYPE_F32, 8 * n, 2e-6);
  for (size_t i = 0; i < n; i++) {
    double v = ((float *)x->host)[i];
    double r[8] = {exp(v), log(v + 2), sqrt(v + 2), sin(v), cos(v), 1 / (1 + exp(-v)),
                   floor((double)(float)(v * 4)), fma(v, v, v)};
    for (int k = 0; k < 8; k++) set_f(o, o->ref, k * n + i, r[k]);
  }
  if (!upload(c)) return;
  ttc_arg a[] = {arg_buf(x), arg_buf(o), ttc_arg_i32((int32_t)n)};
  if (run(c, "elementwise.py", "math_ops", "*fp32,*fp32,i32,128", GRID, 1, 1, a, 3)) check(c);
}

static void case_other(lctx *c) {
  buf *x = input(c, TTC_TYPE_F32, N_ELEMS, -4, 4);
  buf *o = output(c, TTC_TYPE_F32, GRID * BLOCK, 0);
  for (size_t i = 0; i < GRID * BLOCK; i++)
    ((float *)o->ref)[i] = i < N_ELEMS ? ((float *)x->host)[i] * 2.0f : -14.0f;
  if (!upload(c)) return;
  ttc_arg a[] = {arg_buf(x), arg_buf(o), ttc_arg_i32(N_ELEMS)};
  if (run(c, "elementwise.py", "other_kernel", "*fp32,*fp32,i32,128", GRID, 1, 1, a, 3)) check(c);
}

static void case_casts(lctx *c) {
  size_t n = N_ELEMS;
  buf *x = input(c, TTC_TYPE_F32, n, -70000, 70000), *iv = input(c, TTC_TYPE_I32, n, 0, 0);
  buf *h = output(c, TTC_TYPE_F16, n, 0), *bf = output(c, TTC_TYPE_BF16, n, 0);
  buf *xi = output(c, TTC_TYPE_I32, n, 0), *fi = output(c, TTC_TYPE_F32, n, 0);
  for (size_t i = 0; i < n; i++) {
    float v = ((float *)x->host)[i];
    set_f(h, h->ref, i, v);
    set_f(bf, bf->ref, i, v);
    ((int32_t *)xi->ref)[i] = (int32_t)v;
    ((float *)fi->ref)[i] = (float)((int32_t *)iv->host)[i];
  }
  if (!upload(c)) return;
  ttc_arg a[] = {arg_buf(x), arg_buf(iv), arg_buf(h), arg_buf(bf), arg_buf(xi), arg_buf(fi),
                 ttc_arg_i32((int32_t)n)};
  if (run(c, "elementwise.py", "cast_kernel", "*fp32,*i32,*fp16,*bf16,*i32,*fp32,i32,128", GRID,
          1, 1, a, 7))
    check(c);
}

static void case_program_ids(lctx *c) {
  buf *o = output(c, TTC_TYPE_I32, 4 * 3 * 2, 0);
  for (int z = 0; z < 2; z++)
    for (int y = 0; y < 3; y++)
      for (int x = 0; x < 4; x++)
        ((int32_t *)o->ref)[(z * 3 + y) * 4 + x] = x + 10 * y + 100 * z + 1000 * 9;
  if (!upload(c)) return;
  ttc_arg a[] = {arg_buf(o)};
  if (run(c, "control.py", "pid_kernel", "*i32", 4, 3, 2, a, 1)) check(c);
}

static void case_loops(lctx *c) {
  size_t n = 500;
  int K = 5;
  buf *x = input(c, TTC_TYPE_F32, n * (size_t)K, -2, 2);
  buf *o = output(c, TTC_TYPE_F32, n, 0);
  for (size_t i = 0; i < n; i++) {
    float acc = 0;
    for (int k = 0; k < K; k++) acc += ((float *)x->host)[(size_t)k * n + i];
    ((float *)o->ref)[i] = acc * 2.0f * 2.0f * 2.0f + 1.0f;
  }
  if (!upload(c)) return;
  ttc_arg a[] = {arg_buf(x), arg_buf(o), ttc_arg_i32((int32_t)n), ttc_arg_i32(K)};
  if (run(c, "control.py", "loop_kernel", "*fp32,*fp32,i32,i32,128", 4, 1, 1, a, 4)) check(c);
}

static void case_reduce(lctx *c) {
  enum { R = 16, C = 32, P = 3 };
  buf *x = input(c, TTC_TYPE_F32, P * R * C, -4, 4);
  buf *rs = output(c, TTC_TYPE_F32, P * R, 1e-5), *rm = output(c, TTC_TYPE_F32, P * R, 0);
  buf *cs = output(c, TTC_TYPE_F32, P * C, 1e-5);
  const float *v = x->host;
  for (int p = 0; p < P; p++) {
    for (int r = 0; r < R; r++) {
      double s = 0, m = -INFINITY;
      for (int k = 0; k < C; k++) s += v[(p * R + r) * C + k], m = fmax(m, v[(p * R + r) * C + k]);
      ((float *)rs->ref)[p * R + r] = (float)s;
      ((float *)rm->ref)[p * R + r] = (float)m;
    }
    for (int k = 0; k < C; k++) {
      double s = 0;
      for (int r = 0; r < R; r++) s += v[(p * R + r) * C + k];
      ((float *)cs->ref)[p * C + k] = (float)s;
    }
  }
  if (!upload(c)) return;
  ttc_arg a[] = {arg_buf(x), arg_buf(rs), arg_buf(rm), arg_buf(cs)};
  if (run(c, "control.py", "reduce_kernel", "*fp32,*fp32,*fp32,*fp32,16,32", P, 1, 1, a, 4))
    check(c);
}

static void case_int_reduce(lctx *c) {
  enum { B = 256, P = 4 };
  buf *x = input(c, TTC_TYPE_I32, B * P, 0, 0), *o = output(c, TTC_TYPE_I32, 2 * P, 0);
  for (int p = 0; p < P; p++) {
    uint32_t s = 0;
    int32_t m = INT32_MAX;
    for (int i = 0; i < B; i++) {
      int32_t v = ((int32_t *)x->host)[p * B + i];
      s += (uint32_t)v;
      m = v < m ? v : m;
    }
    ((int32_t *)o->ref)[2 * p] = (int32_t)s;
    ((int32_t *)o->ref)[2 * p + 1] = m;
  }
  if (!upload(c)) return;
  ttc_arg a[] = {arg_buf(x), arg_buf(o)};
  if (run(c, "control.py", "ireduce_kernel", "*i32,*i32,256", P, 1, 1, a, 2)) check(c);
}

static void case_scan(lctx *c) {
  enum { R = 8, C = 32 };
  buf *x = input(c, TTC_TYPE_I32, R * C, -1000, 1000);
  buf *f = output(c, TTC_TYPE_I32, R * C, 0), *b = output(c, TTC_TYPE_I32, R * C, 0);
  for (int r = 0; r < R; r++) {
    int32_t s = 0, t = 0;
    for (int k = 0; k < C; k++) {
      s += ((int32_t *)x->host)[r * C + k];
      ((int32_t *)f->ref)[r * C + k] = s;
      t += ((int32_t *)x->host)[r * C + C - 1 - k];
      ((int32_t *)b->ref)[r * C + C - 1 - k] = t;
    }
  }
  if (!upload(c)) return;
  ttc_arg a[] = {arg_buf(x), arg_buf(f), arg_buf(b)};
  if (run(c, "control.py", "scan_kernel", "*i32,*i32,*i32,8,32", 1, 1, 1, a, 3)) check(c);
}

static void case_trans(lctx *c) {
  enum { M = 16, N = 32 };
  buf *x = input(c, TTC_TYPE_F32, M * N, -4, 4), *o = output(c, TTC_TYPE_F32, M * N, 0);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) ((float *)o->ref)[j * M + i] = ((float *)x->host)[i * N + j];
  if (!upload(c)) return;
  ttc_arg a[] = {arg_buf(x), arg_buf(o)};
  if (run(c, "control.py", "trans_kernel", "*fp32,*fp32,16,32", 1, 1, 1, a, 2)) check(c);
}

static void case_dot(lctx *c) {
  enum { M = 16, N = 32, K = 16 };
  buf *a = input(c, TTC_TYPE_F16, M * K, -2, 2), *b = input(c, TTC_TYPE_F16, K * N, -2, 2);
  buf *c0 = input(c, TTC_TYPE_F32, M * N, -1, 1), *o = output(c, TTC_TYPE_F32, M * N, 1e-5);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double s = ((float *)c0->host)[i * N + j];
      for (int k = 0; k < K; k++) s += get_f(a, a->host, i * K + k) * get_f(b, b->host, k * N + j);
      ((float *)o->ref)[i * N + j] = (float)s;
    }
  if (!upload(c)) return;
  ttc_arg args[] = {arg_buf(a), arg_buf(b), arg_buf(c0), arg_buf(o)};
  if (run(c, "control.py", "dot_kernel", "*fp16,*fp16,*fp32,*fp32,16,32,16", 1, 1, 1, args, 4))
    check(c);
}

static void case_atomics(lctx *c) {
  size_t n = N_ELEMS;
  buf *x = input(c, TTC_TYPE_I32, n, -100000, 100000), *f = input(c, TTC_TYPE_F32, n, -1, 1);
  buf *s = output(c, TTC_TYPE_I32, 4, 0), *m = output(c, TTC_TYPE_I32, 1, 0);
  buf *fs = output(c, TTC_TYPE_F32, 4, 1e-5);
  memset(s->host, 0, 16); /* accumulators start at 0 (and INT_MIN for max) */
  memset(fs->host, 0, 16);
  ((int32_t *)m->host)[0] = INT32_MIN;
  double fsum[4] = {0, 0, 0, 0};
  int32_t mx = INT32_MIN;
  for (size_t i = 0; i < n; i++) {
    int32_t v = ((int32_t *)x->host)[i];
    ((int32_t *)s->ref)[i % 4] += v;
    mx = v > mx ? v : mx;
    fsum[i % 4] += ((float *)f->host)[i];
  }
  ((int32_t *)m->ref)[0] = mx;
  for (int k = 0; k < 4; k++) ((float *)fs->ref)[k] = (float)fsum[k];
  if (!upload(c)) return;
  ttc_arg a[] = {arg_buf(x), arg_buf(f), arg_buf(s), arg_buf(m), arg_buf(fs), ttc_arg_i32((int32_t)n)};
  if (run(c, "atomics.py", "atomic_kernel", "*i32,*fp32,*i32,*i32,*fp32,i32,128", GRID, 1, 1, a, 6))
    check(c);
}

static void case_cas(lctx *c) {
  enum { P = 16 };
  buf *slot = output(c, TTC_TYPE_I32, P, 0), *old = output(c, TTC_TYPE_I32, P, 0);
  for (int p = 0; p < P; p++) {
    ((int32_t *)slot->host)[p] = p % 3; /* 0: swapped to 7; else kept */
    ((int32_t *)slot->ref)[p] = p % 3 ? p % 3 : 7;
    ((int32_t *)old->ref)[p] = p % 3;
  }
  if (!upload(c)) return;
  ttc_arg a[] = {arg_buf(slot), arg_buf(old)};
  if (run(c, "atomics.py", "cas_kernel", "*i32,*i32", P, 1, 1, a, 2)) check(c);
}

/* The line of `needle` in a test kernel file (1-based), 0 if absent. */
static int line_of(const char *file, const char *needle) {
  char path[1024], line[512];
  snprintf(path, sizeof path, "%s/%s", TTC_LANG_DIR, file);
  FILE *f = fopen(path, "r");
  int no = 0, found = 0;
  while (f && !found && fgets(line, sizeof line, f)) {
    no++;
    if (strstr(line, needle)) found = no;
  }
  if (f) fclose(f);
  return found;
}

/* Interpreter only: program 3 stores 16 KiB past the buffer. */
static void case_out_of_bounds(lctx *c) {
  buf *o = output(c, TTC_TYPE_I32, 4 * BLOCK, 0);
  if (!upload(c)) return;
  ttc_arg a[] = {arg_buf(o)};
  ttc_status st = launch(c, "elementwise.py", "oob_kernel", "*i32,128", 4, 1, 1, a, 1);
  char want[128];
  snprintf(want, sizeof want, "elementwise.py:%d:5 in program (3, 0, 0)",
           line_of("elementwise.py", "(pid == 3) * 4096"));
  const char *msg = ttc_device_error(c->dev);
  if (st != TTC_ERROR_OUT_OF_BOUNDS) fail(c, "status %s, expected out-of-bounds", ttc_status_string(st));
  else if (!strstr(msg, "out-of-bounds store at ") || !strstr(msg, want))
    fail(c, "message lacks '%s': %s", want, msg);
  else if (!strstr(msg, "bytes past the end of a 2048-byte allocation"))
    fail(c, "message lacks the offset: %s", msg);
}

typedef struct lcase {
  const char *name;
  void (*fn)(lctx *c);
  bool expect_mismatch; /* a wrong kernel: passes when its check fails */
  bool interp_only;
} lcase;

static const lcase cases[] = {
    {"add_f32", case_add_f32, false, false},
    {"wrong_kernel_is_caught", case_wrong_kernel, true, false},
    {"int_ops_i8", case_i8, false, false},   {"int_ops_i16", case_i16, false, false},
    {"int_ops_i32", case_i32, false, false}, {"int_ops_i64", case_i64, false, false},
    {"int_ops_u8", case_u8, false, false},   {"int_ops_u16", case_u16, false, false},
    {"int_ops_u32", case_u32, false, false}, {"int_ops_u64", case_u64, false, false},
    {"float_ops_f16", case_f16, false, false}, {"float_ops_bf16", case_bf16, false, false},
    {"float_ops_f32", case_f32, false, false}, {"float_ops_f64", case_f64, false, false},
    {"math_f32", case_math, false, false},
    {"mask_other", case_other, false, false},
    {"casts", case_casts, false, false},
    {"program_ids_3d", case_program_ids, false, false},
    {"loops_while_if", case_loops, false, false},
    {"reduce_f32", case_reduce, false, false},
    {"reduce_i32", case_int_reduce, false, false},
    {"scan_i32", case_scan, false, false},
    {"trans_reshape", case_trans, false, false},
    {"dot_f16", case_dot, false, false},
    {"atomics", case_atomics, false, false},
    {"atomic_cas", case_cas, false, false},
    {"out_of_bounds_report", case_out_of_bounds, false, true},
};

/* ---- driver ------------------------------------------------------------------------ */

static void release(lctx *c) {
  for (int i = 0; i < c->nbufs; i++) {
    if (c->bufs[i].dev) ttc_device_free(c->dev, c->bufs[i].dev);
    free(c->bufs[i].host);
    free(c->bufs[i].ref);
  }
  c->nbufs = 0;
}

/* Runs one case on dev into *c (the caller releases it); true when it
 * passed on its own terms (a wrong kernel must mismatch). */
static bool run_case(const lcase *k, ttc_device *dev, lctx *c, bool verbose) {
  memset(c, 0, sizeof *c);
  c->dev = dev;
  c->verbose = verbose;
  c->seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)k->name[0] * 0x100000001b3ull;
  for (const char *p = k->name; *p; p++) c->seed = (c->seed ^ (uint8_t)*p) * 0x100000001b3ull;
  if (c->seed == 0) c->seed = 1;
  k->fn(c);
  return k->expect_mismatch ? (c->failed && strstr(c->why, "expected") != NULL) : !c->failed;
}

/* GPU against interpreter, output by output. */
static bool compare_runs(const lctx *gpu, const lctx *cpu, char *why, size_t cap) {
  for (int k = 0; k < cpu->nbufs && k < gpu->nbufs; k++) {
    const buf *b = &cpu->bufs[k];
    if (!b->ref) continue;
    for (size_t i = 0; i < b->n; i++) {
      if (agree(b, gpu->bufs[k].host, b->host, i)) continue;
      snprintf(why, cap, "GPU and interpreter differ: output %d element %zu", k, i);
      return false;
    }
  }
  return true;
}

static int open_device(bool gpu, ttc_device **dev) {
  char err[512] = "";
  ttc_status st = gpu ? ttc_device_open(0, dev, err, sizeof err)
                      : ttc_device_open_interpreter(dev, err, sizeof err);
  if (st == TTC_OK && gpu && ttc_device_is_interpreter(*dev)) {
    fprintf(stderr, "run_lang: --gpu with TTC_INTERPRET set: unset it\n");
    return 1;
  }
  if (st != TTC_OK) fprintf(stderr, "run_lang: cannot open the %s: %s\n", gpu ? "GPU" : "interpreter", err);
  return st == TTC_OK ? 0 : 1;
}

int main(int argc, char **argv) {
  bool use_gpu = false, use_cpu = true, verbose = false;
  const char *filter = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--gpu") == 0) use_gpu = true, use_cpu = false;
    else if (strcmp(argv[i], "--interp") == 0) use_gpu = false, use_cpu = true;
    else if (strcmp(argv[i], "--compare") == 0) use_gpu = use_cpu = true;
    else if (strcmp(argv[i], "-v") == 0) verbose = true;
    else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: run_lang [--interp | --gpu | --compare] [-v] [FILTER]\n");
      return 2;
    } else filter = argv[i];
  }
  ttc_device *cpu = NULL, *gpu = NULL;
  if ((use_cpu && open_device(false, &cpu)) || (use_gpu && open_device(true, &gpu))) {
    ttc_device_destroy(cpu);
    return 1;
  }
  int passed = 0, failed = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const lcase *k = &cases[i];
    if (filter && !strstr(k->name, filter)) continue;
    lctx a, b;
    bool ok = true;
    char why[600] = "";
    if (cpu) {
      ok = run_case(k, cpu, &a, verbose);
      if (!ok) snprintf(why, sizeof why, "interpreter: %s", a.failed ? a.why : "mismatch not detected");
    }
    if (gpu && !(k->interp_only && cpu)) {
      if (k->interp_only) {
        memset(&b, 0, sizeof b);
      } else {
        bool gok = run_case(k, gpu, &b, verbose);
        if (ok && !gok) {
          ok = false;
          snprintf(why, sizeof why, "GPU: %s", b.failed ? b.why : "mismatch not detected");
        }
        if (ok && cpu) ok = compare_runs(&b, &a, why, sizeof why);
        release(&b);
      }
    }
    if (cpu) release(&a);
    printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", k->name, ok ? "" : ": ", why);
    if (ok && verbose && k->expect_mismatch) printf("     (caught: %s)\n", a.why);
    ok ? passed++ : failed++;
  }
  printf("%d passed, %d failed\n", passed, failed);
  ttc_device_destroy(cpu);
  ttc_device_destroy(gpu);
  return failed ? 1 : 0;
}
