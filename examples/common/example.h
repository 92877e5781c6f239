// SPDX-License-Identifier: MIT
/* example.h - the host code the example programs share: fixed-seed random
 * floats, the runtime-error printer, event-timed launches with a median,
 * opening GPU 0 with the CPU interpreter as fallback, and count parsing.
 * Header-only (static inline, one copy per program). Every message takes the
 * program name `prog`, so each example prints exactly what it always has. */
#ifndef TTC_EXAMPLE_H
#define TTC_EXAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/ttc.h"

/* The seed every example starts its inputs from, so runs are reproducible. */
#define EX_SEED 0x2545f4914f6cdd1dull
/* The most timed launches ex_time_launches keeps (its times live on the stack). */
#define EX_MAX_TIMED_LAUNCHES 64

/* Fixed-seed xorshift64: floats in [-1, 1) with 24 significant bits. */
static inline float ex_next_float(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (float)((double)(*s >> 40) * (2.0 / 16777216.0) - 1.0);
}

static inline int ex_cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* Prints "prog: what failed: status: device message"; returns 1, the exit
 * status, so that callers can write `rc = ex_fail(...)`. */
static inline int ex_fail(const char *prog, const ttc_device *dev, ttc_status st,
                          const char *what) {
  fprintf(stderr, "%s: %s failed: %s: %s\n", prog, what, ttc_status_string(st),
          ttc_device_error(dev));
  return 1;
}

/* Triton's JIT gives an integer argument divisible by 16 the ":16" hint;
 * ttc gets the same specialization so that the accesses vectorize alike. */
static inline const char *ex_i32_sig(int32_t v) { return v % 16 == 0 ? "i32:16" : "i32"; }

/* Launches `mod` once and waits for it: the run whose output is checked.
 * Returns 0, or 1 after printing the failure. */
static inline int ex_launch_once(const char *prog, ttc_device *dev, ttc_module *mod,
                                 const unsigned grid[3], const ttc_arg *args, size_t nargs) {
  ttc_status st = ttc_module_launch(mod, grid, NULL, args, nargs);
  if (st == TTC_OK) st = ttc_device_synchronize(dev);
  return st == TTC_OK ? 0 : ex_fail(prog, dev, st, "launch");
}

/* How many launches ex_time_launches makes: on a GPU `warmup` untimed, then
 * `timed`; on the interpreter, which is slow, no warm-up and `interp_timed`.
 * Both timed counts are in 1..EX_MAX_TIMED_LAUNCHES. */
typedef struct ex_timing {
  int warmup, timed, interp_timed;
} ex_timing;

/* One launch of whatever a program times: a module or a kernel function. */
typedef ttc_status (*ex_launch_fn)(void *user);

/* Launches fn(user) as `t` says, each timed launch between its own event
 * pair; stores the median in *median_ms and the number of timed launches in
 * *ntimed. Returns 0, or 1 after printing the failure. */
static inline int ex_time(const char *prog, ttc_device *dev, ex_launch_fn fn, void *user,
                          const ex_timing *t, float *median_ms, int *ntimed) {
  bool on_cpu = ttc_device_is_interpreter(dev);
  int warmup = on_cpu ? 0 : t->warmup, timed = on_cpu ? t->interp_timed : t->timed;
  if (timed < 1 || timed > EX_MAX_TIMED_LAUNCHES)
    return ex_fail(prog, dev, TTC_ERROR_ARGUMENT, "timing");
  ttc_event *start = NULL, *end = NULL;
  float times[EX_MAX_TIMED_LAUNCHES];
  ttc_status st = ttc_event_create(dev, &start);
  if (st == TTC_OK) st = ttc_event_create(dev, &end);
  for (int i = 0; st == TTC_OK && i < warmup; i++)
    st = fn(user);
  for (int i = 0; st == TTC_OK && i < timed; i++) {
    st = ttc_event_record(dev, start, NULL);
    if (st == TTC_OK) st = fn(user);
    if (st == TTC_OK) st = ttc_event_record(dev, end, NULL);
    if (st == TTC_OK) st = ttc_event_elapsed(dev, start, end, &times[i]);
  }
  ttc_event_destroy(dev, start);
  ttc_event_destroy(dev, end);
  if (st != TTC_OK) return ex_fail(prog, dev, st, "timing");
  qsort(times, (size_t)timed, sizeof times[0], ex_cmp_float);
  *median_ms = times[timed / 2];
  *ntimed = timed;
  return 0;
}

/* A module launch as ex_time takes it. */
typedef struct ex_module_launch {
  ttc_module *mod;
  const unsigned *grid;
  const ttc_arg *args;
  size_t nargs;
} ex_module_launch;

static inline ttc_status ex_launch_module(void *user) {
  const ex_module_launch *l = (const ex_module_launch *)user;
  return ttc_module_launch(l->mod, l->grid, NULL, l->args, l->nargs);
}

/* ex_time over launches of `mod`. */
static inline int ex_time_launches(const char *prog, ttc_device *dev, ttc_module *mod,
                                   const unsigned grid[3], const ttc_arg *args, size_t nargs,
                                   const ex_timing *t, float *median_ms, int *ntimed) {
  ex_module_launch l = {mod, grid, args, nargs};
  return ex_time(prog, dev, ex_launch_module, &l, t, median_ms, ntimed);
}

/* How a program words the interpreter fallback. vector_add predates the
 * other two and keeps its wording: one "opening a device failed" message and
 * exit status 1 for every failure. */
typedef enum ex_open_wording {
  EX_OPEN_TERSE,   /* "no GPU (why); running on the CPU interpreter" */
  EX_OPEN_DETAILED /* "no GPU (why): running on the interpreter"; 2 when neither opens */
} ex_open_wording;

/* Opens GPU 0 or, when there is none, the CPU interpreter (ttc_device_open
 * itself gives the interpreter under TTC_INTERPRET=1). Returns 0 with *dev
 * set (the caller destroys it), or the exit status after printing why: 1
 * for an error, 2 (EX_OPEN_DETAILED only) for neither a GPU nor an
 * interpreter. */
static inline int ex_open_device(const char *prog, ex_open_wording wording, ttc_device **dev) {
  char err[512] = "", ierr[512] = "";
  ttc_status st = ttc_device_open(0, dev, err, sizeof err);
  if (st == TTC_OK) return 0;
  if (wording == EX_OPEN_TERSE) {
    if (st == TTC_ERROR_NO_DEVICE) {
      fprintf(stderr, "%s: no GPU (%s); running on the CPU interpreter\n", prog, err);
      st = ttc_device_open_interpreter(dev, err, sizeof err);
    }
    if (st == TTC_OK) return 0;
    fprintf(stderr, "%s: opening a device failed: %s\n", prog, err);
    return 1;
  }
  if (st != TTC_ERROR_NO_DEVICE) {
    fprintf(stderr, "%s: opening GPU 0 failed: %s\n", prog, err);
    return 1;
  }
  if (ttc_device_open_interpreter(dev, ierr, sizeof ierr) == TTC_OK) {
    fprintf(stderr, "%s: no GPU (%s): running on the interpreter\n", prog, err);
    return 0;
  }
  fprintf(stderr, "%s: no GPU: %s; no interpreter: %s\n", prog, err, ierr);
  return 2;
}

/* Compiles `kernel` of the file `path` with signature `sig` for `dev` (ttir
 * for the interpreter, which runs it; the device's architecture otherwise)
 * and loads it. Returns 0 with *mod set, or 1 after printing why
 * ("prog: compiling path (sig, W warps) failed: status" and the diagnostics). */
static inline int ex_compile_load(const char *prog, ttc_device *dev, const char *path,
                                  const char *kernel, const char *sig, int num_warps,
                                  ttc_module **mod) {
  ttc_compile_options opts;
  ttc_compile_options_init(&opts);
  opts.num_warps = num_warps;
  if (ttc_device_is_interpreter(dev))
    opts.stop_after = TTC_LEVEL_TTIR;
  else
    opts.arch = ttc_device_arch(dev);
  ttc_kernel *k = NULL;
  ttc_status st = ttc_compile_file(path, kernel, sig, &opts, &k);
  if (st != TTC_OK) {
    fprintf(stderr, "%s: compiling %s (%s, %d warps) failed: %s\n%s", prog, path, sig, num_warps,
            ttc_status_string(st), k ? ttc_kernel_diagnostics(k) : "");
    ttc_kernel_destroy(k);
    return 1;
  }
  st = ttc_module_load(dev, k, mod);
  ttc_kernel_destroy(k); /* the module keeps what it needs */
  return st == TTC_OK ? 0 : ex_fail(prog, dev, st, "module load");
}

/* Parses the value `s` of option `opt` as a count in 1..max; returns it, or
 * -1 after printing "prog: opt wants <what> in 1..<bound>, got 's'", where
 * the bound is `max_text` or, when that is NULL, max in decimal. */
static inline long ex_parse_count(const char *prog, const char *opt, const char *s, long max,
                                  const char *what, const char *max_text) {
  char *end = NULL;
  long v = strtol(s, &end, 10);
  if (end && !*end && v >= 1 && v <= max) return v;
  if (max_text)
    fprintf(stderr, "%s: %s wants %s in 1..%s, got '%s'\n", prog, opt, what, max_text, s);
  else
    fprintf(stderr, "%s: %s wants %s in 1..%ld, got '%s'\n", prog, opt, what, max, s);
  return -1;
}

/* IEEE binary16 <-> float, round to nearest even; portable bit twiddling
 * (no _Float16), so the host builds with any C11 compiler. */
static inline uint16_t ex_f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  uint32_t sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
  int32_t exp = (int32_t)((x >> 23) & 0xff);
  if (exp == 0xff) return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0)); /* inf, NaN */
  exp -= 127 - 15;
  if (exp >= 0x1f) return (uint16_t)(sign | 0x7c00u); /* overflow to inf */
  if (exp <= 0) {                                     /* subnormal or zero */
    if (exp < -10) return (uint16_t)sign;
    mant |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - exp), half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1))) half++;
    return (uint16_t)(sign | half);
  }
  uint32_t h = sign | ((uint32_t)exp << 10) | (mant >> 13), rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) h++; /* may carry into exp: right */
  return (uint16_t)h;
}

static inline float ex_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ffu;
  uint32_t x;
  if (exp == 0x1f) {
    x = sign | 0x7f800000u | (mant << 13);
  } else if (exp == 0) {
    if (!mant) {
      x = sign;
    } else { /* normalize the subnormal */
      exp = 127 - 15 + 1;
      while (!(mant & 0x400u)) {
        mant <<= 1;
        exp--;
      }
      x = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
    }
  } else {
    x = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  memcpy(&f, &x, sizeof f);
  return f;
}

#endif /* TTC_EXAMPLE_H */
