// SPDX-License-Identifier: MIT
/* lang_util.c - the language suite's machinery (lang.h): values of every
 * type computed independently of the library's conversions, random inputs,
 * poisoned outputs, compile + launch + copy back, and checks of every
 * output against its C reference under the output's tolerance. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"

#ifndef TTC_LANG_DIR
#define TTC_LANG_DIR "test/lang"
#endif

lcase *lang_add(lcase_list *l, void (*fn)(lctx *, const lparams *), const lparams *p, int num_warps,
                const char *fmt, ...) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 64;
    lcase *v = realloc(l->v, cap * sizeof *v);
    if (!v) return NULL;
    l->v = v;
    l->cap = cap;
  }
  lcase *k = &l->v[l->n++];
  memset(k, 0, sizeof *k);
  k->fn = fn;
  if (p) k->p = *p;
  k->num_warps = num_warps;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(k->name, sizeof k->name, fmt, ap);
  va_end(ap);
  return k;
}

/* ---- values of every type ------------------------------------------------------- */

size_t lang_type_size(ttc_type t) {
  switch (t) {
  case TTC_TYPE_I1:
  case TTC_TYPE_I8:
  case TTC_TYPE_U8:
  case TTC_TYPE_FP8E4NV:
  case TTC_TYPE_FP8E5: return 1;
  case TTC_TYPE_I16:
  case TTC_TYPE_U16:
  case TTC_TYPE_F16:
  case TTC_TYPE_BF16: return 2;
  case TTC_TYPE_I32:
  case TTC_TYPE_U32:
  case TTC_TYPE_F32: return 4;
  case TTC_TYPE_PTR:
  case TTC_TYPE_I64:
  case TTC_TYPE_U64:
  case TTC_TYPE_F64: return 8;
  }
  return 8;
}
bool lang_is_float(ttc_type t) {
  return t == TTC_TYPE_F16 || t == TTC_TYPE_BF16 || t == TTC_TYPE_F32 || t == TTC_TYPE_F64 ||
         t == TTC_TYPE_FP8E4NV || t == TTC_TYPE_FP8E5;
}
bool lang_is_signed(ttc_type t) {
  return t == TTC_TYPE_I8 || t == TTC_TYPE_I16 || t == TTC_TYPE_I32 || t == TTC_TYPE_I64;
}
const char *lang_tn(ttc_type t) { return ttc_type_name(t); }

/* Encodes x in a binary format (eb exponent, mb fraction bits), rounding to
 * nearest even by plain arithmetic on the scaled value. */
uint16_t lang_half_encode(double x, int eb, int mb) {
  uint16_t sign = signbit(x) ? (uint16_t)(1u << (eb + mb)) : 0;
  int bias = (1 << (eb - 1)) - 1;
  uint16_t inf = (uint16_t)(((1u << eb) - 1) << mb);
  if (isnan(x)) return sign | inf | (uint16_t)(1u << (mb - 1));
  x = fabs(x);
  if (isinf(x)) return sign | inf;
  int e = x == 0 ? 0 : (int)floor(log2(x));
  if (x != 0 && ldexp(1.0, e) > x) e--; /* log2 rounding */
  if (x != 0 && ldexp(1.0, e + 1) <= x) e++;
  if (x == 0 || e < 1 - bias) e = 1 - bias; /* subnormal: fixed scale */
  double q = nearbyint(ldexp(x, mb - e));   /* significand, ties to even */
  if (q >= ldexp(1.0, mb + 1)) {
    q /= 2;
    e++;
  }
  if (e + bias >= (1 << eb) - 1) return sign | inf;
  if (q < ldexp(1.0, mb)) return sign | (uint16_t)q; /* subnormal */
  return sign | (uint16_t)((unsigned)(e + bias) << mb | ((unsigned)q - (1u << mb)));
}

double lang_half_decode(uint16_t h, int eb, int mb) {
  int bias = (1 << (eb - 1)) - 1;
  unsigned exp = (h >> mb) & ((1u << eb) - 1), frac = h & ((1u << mb) - 1);
  double s = (h >> (eb + mb)) & 1 ? -1.0 : 1.0;
  if (exp == (1u << eb) - 1) return frac ? NAN : s * INFINITY;
  if (exp == 0) return s * ldexp(frac, 1 - bias - mb);
  return s * ldexp(frac | 1u << mb, (int)exp - bias - mb);
}

/* fp8, decoded from the bit fields (e5: e5m2 with infinities; else e4m3fn:
 * no infinities, 0x7F/0xFF NaN). */
double lang_fp8_decode(uint8_t b, bool e5) {
  int mb = e5 ? 2 : 3, bias = e5 ? 15 : 7;
  unsigned exp = (b & 0x7Fu) >> mb, frac = b & ((1u << mb) - 1);
  double s = b & 0x80 ? -1.0 : 1.0;
  if (!e5 && (b & 0x7F) == 0x7F) return NAN;
  if (e5 && exp == 31) return frac ? NAN : s * INFINITY;
  if (exp == 0) return s * ldexp(frac, 1 - bias - mb);
  return s * ldexp(frac | 1u << mb, (int)exp - bias - mb);
}

/* The nearest finite fp8 by search over every code (ties to the even
 * code), saturating as PTX's cvt.rn.satfinite: an oracle independent of the
 * compiler's own conversion. */
uint8_t lang_fp8_encode(double x, bool e5) {
  if (isnan(x)) return 0x7F;
  double max = e5 ? 57344.0 : 448.0; /* saturate first: far values tie in double */
  double ax = fabs(x) > max ? max : fabs(x);
  uint8_t best = 0;
  double bestd = INFINITY;
  for (unsigned c = 0; c < 0x80; c++) {
    double v = lang_fp8_decode((uint8_t)c, e5);
    if (!isfinite(v)) continue;
    double d = fabs(ax - v);
    if (d < bestd || (d == bestd && (c & 1) == 0)) {
      best = (uint8_t)c;
      bestd = d;
    }
  }
  return (uint8_t)(best | (signbit(x) ? 0x80 : 0));
}

double lang_round_to(ttc_type t, double x) {
  switch (t) {
  case TTC_TYPE_F16: return lang_half_decode(lang_half_encode(x, 5, 10), 5, 10);
  case TTC_TYPE_BF16: return lang_half_decode(lang_half_encode(x, 8, 7), 8, 7);
  case TTC_TYPE_F32: return (float)x;
  case TTC_TYPE_FP8E4NV: return lang_fp8_decode(lang_fp8_encode(x, false), false);
  case TTC_TYPE_FP8E5: return lang_fp8_decode(lang_fp8_encode(x, true), true);
  default: return x;
  }
}

double lang_get_f(const buf *b, const void *p, size_t i) {
  switch (b->type) {
  case TTC_TYPE_F16: return lang_half_decode(((const uint16_t *)p)[i], 5, 10);
  case TTC_TYPE_BF16: return lang_half_decode(((const uint16_t *)p)[i], 8, 7);
  case TTC_TYPE_F32: return ((const float *)p)[i];
  case TTC_TYPE_F64: return ((const double *)p)[i];
  case TTC_TYPE_FP8E4NV: return lang_fp8_decode(((const uint8_t *)p)[i], false);
  case TTC_TYPE_FP8E5: return lang_fp8_decode(((const uint8_t *)p)[i], true);
  default: return (double)lang_get_i(b, p, i);
  }
}
void lang_set_f(const buf *b, void *p, size_t i, double x) {
  switch (b->type) {
  case TTC_TYPE_F16: ((uint16_t *)p)[i] = lang_half_encode(x, 5, 10); return;
  case TTC_TYPE_BF16: ((uint16_t *)p)[i] = lang_half_encode(x, 8, 7); return;
  case TTC_TYPE_F32: ((float *)p)[i] = (float)x; return;
  case TTC_TYPE_F64: ((double *)p)[i] = x; return;
  case TTC_TYPE_FP8E4NV: ((uint8_t *)p)[i] = lang_fp8_encode(x, false); return;
  case TTC_TYPE_FP8E5: ((uint8_t *)p)[i] = lang_fp8_encode(x, true); return;
  default: lang_set_i(b, p, i, (int64_t)x); return;
  }
}
int64_t lang_get_i(const buf *b, const void *p, size_t i) {
  bool s = lang_is_signed(b->type);
  switch (b->esize) {
  case 1: return s ? (int64_t)((const int8_t *)p)[i] : (int64_t)((const uint8_t *)p)[i];
  case 2: return s ? (int64_t)((const int16_t *)p)[i] : (int64_t)((const uint16_t *)p)[i];
  case 4: return s ? (int64_t)((const int32_t *)p)[i] : (int64_t)((const uint32_t *)p)[i];
  default: return ((const int64_t *)p)[i];
  }
}
void lang_set_i(const buf *b, void *p, size_t i, int64_t x) {
  memcpy((char *)p + i * b->esize, &x, b->esize); /* little endian: truncates */
}

uint64_t lang_rnd(lctx *c) {
  c->seed ^= c->seed << 13;
  c->seed ^= c->seed >> 7;
  c->seed ^= c->seed << 17;
  return c->seed;
}
double lang_rnd_unit(lctx *c) { return (double)(lang_rnd(c) >> 11) * 0x1p-53; }

/* ---- buffers and launches ----------------------------------------------------- */

void lang_fail(lctx *c, const char *fmt, ...) {
  if (c->failed) return;
  c->failed = true;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->why, sizeof c->why, fmt, ap);
  va_end(ap);
}

buf *lang_buf(lctx *c, ttc_type t, size_t n) {
  if (c->nbufs == LANG_MAX_BUFS) abort(); /* a case with too many buffers: a test bug */
  buf *b = &c->bufs[c->nbufs++];
  memset(b, 0, sizeof *b);
  b->type = t;
  b->n = n;
  b->esize = lang_type_size(t);
  b->host = calloc(n ? n : 1, b->esize);
  if (!b->host) abort();
  return b;
}

buf *lang_input(lctx *c, ttc_type t, size_t n, double lo, double hi) {
  buf *b = lang_buf(c, t, n);
  for (size_t i = 0; i < n; i++) {
    if (lang_is_float(t))
      lang_set_f(b, b->host, i, lo + (hi - lo) * lang_rnd_unit(c));
    else if (hi > lo)
      lang_set_i(b, b->host, i, (int64_t)floor(lo + (hi - lo) * lang_rnd_unit(c)));
    else
      lang_set_i(b, b->host, i, (int64_t)lang_rnd(c));
  }
  return b;
}

buf *lang_output(lctx *c, ttc_type t, size_t n, double tol) {
  buf *b = lang_buf(c, t, n);
  b->ref = calloc(n ? n : 1, b->esize);
  if (!b->ref) abort();
  b->tol = tol;
  memset(b->host, lang_is_float(t) ? 0xff : 0xa5, n * b->esize);
  return b;
}

buf *lang_output_tol(lctx *c, ttc_type t, size_t n, double atol, double rtol) {
  buf *b = lang_output(c, t, n, 0);
  b->atol = atol;
  b->rtol = rtol;
  return b;
}

ttc_status lang_launch(lctx *c, const char *file, const char *kernel, const char *sig, unsigned gx,
                       unsigned gy, unsigned gz, const ttc_arg *args, size_t nargs) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", c->dir, file);
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  if (c->num_warps) o.num_warps = c->num_warps;
  if (!ttc_device_is_interpreter(c->dev))
    o.arch = ttc_device_arch(c->dev);
  else if (c->full_compile)
    o.arch = "sm_90a";
  else
    o.stop_after = TTC_LEVEL_TTIR;
  ttc_kernel *k = NULL;
  ttc_status st = ttc_compile_file(path, kernel, sig, &o, &k);
  if (st != TTC_OK) {
    lang_fail(c, "compile of %s '%s' (%s) failed: %s\n%s", file, kernel, sig, ttc_status_string(st),
              k ? ttc_kernel_diagnostics(k) : "");
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
    st = ttc_device_copy_from(c->dev, c->bufs[i].host, c->bufs[i].dev,
                              c->bufs[i].n * c->bufs[i].esize);
  return st;
}

bool lang_upload(lctx *c) {
  for (int i = 0; i < c->nbufs; i++) {
    buf *b = &c->bufs[i];
    size_t bytes = (b->n ? b->n : 1) * b->esize;
    if (ttc_device_alloc(c->dev, bytes, &b->dev) != TTC_OK ||
        ttc_device_copy_to(c->dev, b->dev, b->host, bytes) != TTC_OK) {
      lang_fail(c, "device memory: %s", ttc_device_error(c->dev));
      return false;
    }
  }
  return true;
}

bool lang_run(lctx *c, const char *file, const char *kernel, const char *sig, unsigned gx,
              unsigned gy, unsigned gz, const ttc_arg *args, size_t nargs) {
  ttc_status st = lang_launch(c, file, kernel, sig, gx, gy, gz, args, nargs);
  if (st != TTC_OK && !c->failed)
    lang_fail(c, "launch of '%s' (%s) failed: %s: %s", kernel, sig, ttc_status_string(st),
              ttc_device_error(c->dev));
  return st == TTC_OK;
}

bool lang_agree(const buf *b, const void *x, const void *y, size_t i) {
  if (memcmp((const char *)x + i * b->esize, (const char *)y + i * b->esize, b->esize) == 0)
    return true;
  if (!lang_is_float(b->type)) return false;
  double p = lang_get_f(b, x, i), q = lang_get_f(b, y, i);
  if (isnan(p) && isnan(q)) return true;
  if (b->atol != 0 || b->rtol != 0) return fabs(p - q) <= b->atol + b->rtol * fabs(q);
  if (b->tol == 0) return p == q; /* +0 == -0 is not bitwise, but is exact */
  return fabs(p - q) <= b->tol * fmax(1.0, fmax(fabs(p), fabs(q)));
}

void lang_check(lctx *c) {
  for (int k = 0; k < c->nbufs && !c->failed; k++) {
    const buf *b = &c->bufs[k];
    if (!b->ref) continue;
    for (size_t i = 0; i < b->n; i++) {
      if (lang_agree(b, b->host, b->ref, i)) continue;
      if (lang_is_float(b->type))
        lang_fail(c, "output %d element %zu: got %.9g, expected %.9g", k, i,
                  lang_get_f(b, b->host, i), lang_get_f(b, b->ref, i));
      else
        lang_fail(c, "output %d element %zu: got %lld, expected %lld", k, i,
                  (long long)lang_get_i(b, b->host, i), (long long)lang_get_i(b, b->ref, i));
      break;
    }
  }
}

void lang_release(lctx *c) {
  for (int i = 0; i < c->nbufs; i++) {
    if (c->bufs[i].dev) ttc_device_free(c->dev, c->bufs[i].dev);
    free(c->bufs[i].host);
    free(c->bufs[i].ref);
  }
  c->nbufs = 0;
}

int lang_line_of(const lctx *c, const char *file, const char *needle) {
  char path[1024], line[512];
  snprintf(path, sizeof path, "%s/%s", c->dir, file);
  FILE *f = fopen(path, "r");
  int no = 0, found = 0;
  while (f && !found && fgets(line, sizeof line, f)) {
    no++;
    if (strstr(line, needle)) found = no;
  }
  if (f) fclose(f);
  return found;
}

static bool has_kernels(const char *dir) {
  char path[1024];
  snprintf(path, sizeof path, "%s/elementwise.py", dir);
  FILE *f = fopen(path, "r");
  if (f) fclose(f);
  return f != NULL;
}

static char *dup_str(const char *s) { /* strdup is POSIX, not C11 */
  char *d = malloc(strlen(s) + 1);
  return d ? memcpy(d, s, strlen(s) + 1) : NULL;
}

char *lang_find_dir(const char *argv0) {
  const char *env = getenv("TTC_LANG_DIR");
  if (env && *env) return dup_str(env);
  if (has_kernels(TTC_LANG_DIR)) return dup_str(TTC_LANG_DIR);
  const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
  size_t len = slash ? (size_t)(slash - argv0) : 1;
  char *dir = malloc(len + 32);
  if (!dir) return NULL;
  snprintf(dir, len + 32, "%.*s/../../test/lang", (int)len, slash ? argv0 : ".");
  return dir;
}
