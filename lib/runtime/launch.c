// SPDX-License-Identifier: MIT
/* launch.c - packing launch arguments and launching a loaded kernel.
 *
 * The launch path is kept close to a raw cuLaunchKernel: arguments are
 * checked and packed into stack storage (no malloc, no string work unless an
 * argument is wrong), the context is made current only when it is not, and
 * the driver call follows. Packing is a pure function, tested without a GPU. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "runtime/rt.h"

const char *rt_type_label(ttc_type type) {
  return type == TTC_TYPE_PTR ? "pointer" : ttc_type_name(type);
}

/* The three families of launch values; an argument is accepted for a
 * parameter of the same family only. */
typedef enum rt_family { RT_FAMILY_PTR, RT_FAMILY_INT, RT_FAMILY_FLOAT, RT_FAMILY_NONE } rt_family;

static rt_family type_family(ttc_type type) {
  switch (type) {
  case TTC_TYPE_PTR: return RT_FAMILY_PTR;
  case TTC_TYPE_I1:
  case TTC_TYPE_I8:
  case TTC_TYPE_I16:
  case TTC_TYPE_I32:
  case TTC_TYPE_I64:
  case TTC_TYPE_U8:
  case TTC_TYPE_U16:
  case TTC_TYPE_U32:
  case TTC_TYPE_U64: return RT_FAMILY_INT;
  case TTC_TYPE_F16:
  case TTC_TYPE_BF16:
  case TTC_TYPE_F32:
  case TTC_TYPE_F64:
  case TTC_TYPE_FP8E4NV:
  case TTC_TYPE_FP8E5: return RT_FAMILY_FLOAT;
  }
  return RT_FAMILY_NONE;
}

uint16_t rt_round_half(double x, int ebits, int mbits) {
  const uint32_t sign = signbit(x) ? 1u << (ebits + mbits) : 0u;
  const uint32_t exp_max = (1u << ebits) - 1u; /* all-ones exponent: inf, NaN */
  if (isnan(x)) return (uint16_t)(sign | exp_max << mbits | 1u << (mbits - 1));
  double a = fabs(x);
  if (isinf(a)) return (uint16_t)(sign | exp_max << mbits);
  if (a == 0.0) return (uint16_t)sign;
  const int bias = (1 << (ebits - 1)) - 1;
  const int emin = 1 - bias;
  int e = 0;
  frexp(a, &e); /* a = m * 2^e with m in [0.5, 1): a = 1.f * 2^(e - 1) */
  int ex = e - 1 < emin ? emin : e - 1;
  /* Scale so that one unit in the last place of the target is 1.0: q holds
   * the significand as an integer plus the bits to round away. The scaling
   * is by a power of two and q < 2^(mbits+1), so q and its fraction are exact. */
  double q = ldexp(a, mbits - ex);
  double whole = floor(q);
  double frac = q - whole;
  uint32_t n = (uint32_t)whole;
  if (frac > 0.5 || (frac == 0.5 && (n & 1u))) n++;
  const uint32_t hidden = 1u << mbits;
  if (n < hidden) return (uint16_t)(sign | n); /* subnormal (exp == emin) or zero */
  if (n == hidden << 1) {                      /* rounding carried into the next binade */
    n = hidden;
    ex++;
  }
  uint32_t biased = (uint32_t)(ex + bias);
  if (biased >= exp_max) return (uint16_t)(sign | exp_max << mbits);
  return (uint16_t)(sign | biased << mbits | (n - hidden));
}

/* Truncates an integer argument to the parameter width, zero-extended. */
static uint64_t pack_int(ttc_type param, int64_t v) {
  uint64_t u = (uint64_t)v;
  switch (param) {
  case TTC_TYPE_I1: return v != 0; /* a bool: any nonzero value is true */
  case TTC_TYPE_I8:
  case TTC_TYPE_U8: return u & 0xffu;
  case TTC_TYPE_I16:
  case TTC_TYPE_U16: return u & 0xffffu;
  case TTC_TYPE_I32:
  case TTC_TYPE_U32: return u & 0xffffffffu;
  case TTC_TYPE_I64:
  case TTC_TYPE_U64:
  case TTC_TYPE_PTR:
  case TTC_TYPE_F16:
  case TTC_TYPE_BF16:
  case TTC_TYPE_F32:
  case TTC_TYPE_F64: return u;
  case TTC_TYPE_FP8E4NV:
  case TTC_TYPE_FP8E5: return u & 0xffu;
  }
  return u;
}

/* Stores a float argument in the parameter's encoding. */
static void pack_float(ttc_type param, double v, rt_arg_storage *s) {
  switch (param) {
  case TTC_TYPE_F16: s->u16 = rt_round_half(v, 5, 10); return;
  case TTC_TYPE_BF16: s->u16 = rt_round_half(v, 8, 7); return;
  case TTC_TYPE_F32: s->f32 = (float)v; return;
  case TTC_TYPE_F64: s->f64 = v; return;
  case TTC_TYPE_FP8E4NV:
  case TTC_TYPE_FP8E5: s->u8 = ir_fp8_bits(v, param == TTC_TYPE_FP8E5); return;
  case TTC_TYPE_PTR:
  case TTC_TYPE_I1:
  case TTC_TYPE_I8:
  case TTC_TYPE_I16:
  case TTC_TYPE_I32:
  case TTC_TYPE_I64:
  case TTC_TYPE_U8:
  case TTC_TYPE_U16:
  case TTC_TYPE_U32:
  case TTC_TYPE_U64: return; /* not a float parameter: rejected by the caller */
  }
}

ttc_status rt_pack_args(const ttc_type *param_types, int nparams, const ttc_arg *args, size_t nargs,
                        rt_arg_storage *storage, void **slots, char *err, size_t errlen) {
  if (nparams < 0 || nargs != (size_t)nparams) {
    if (err)
      snprintf(err, errlen, "expected %d argument%s, got %zu", nparams, nparams == 1 ? "" : "s",
               nargs);
    return TTC_ERROR_ARGUMENT;
  }
  for (int i = 0; i < nparams; i++) {
    ttc_type param = param_types[i];
    ttc_type got = args[i].type;
    rt_family family = type_family(param);
    if (family == RT_FAMILY_NONE || family != type_family(got)) {
      if (err)
        snprintf(err, errlen, "argument %d expects %s, got %s", i, rt_type_label(param),
                 rt_type_label(got));
      return TTC_ERROR_ARGUMENT;
    }
    rt_arg_storage *s = &storage[i];
    s->u64 = 0;
    if (family == RT_FAMILY_PTR)
      s->u64 = args[i].v.ptr;
    else if (family == RT_FAMILY_INT)
      s->u64 = pack_int(param, args[i].v.i);
    else
      pack_float(param, args[i].v.f, s);
    slots[i] = s;
  }
  return TTC_OK;
}

/* The packed value of an integer parameter, sign-extended from its width. */
static int64_t packed_int(ttc_type t, const rt_arg_storage *s) {
  switch (t) {
  case TTC_TYPE_I8: return (int8_t)s->u64;
  case TTC_TYPE_I16: return (int16_t)s->u64;
  case TTC_TYPE_I32: return (int32_t)s->u64;
  case TTC_TYPE_U8: return (uint8_t)s->u64;
  case TTC_TYPE_U16: return (uint16_t)s->u64;
  case TTC_TYPE_U32: return (uint32_t)s->u64;
  default: return (int64_t)s->u64;
  }
}

/* "argument 1 ('n')", or "argument 1" when the name is unknown. */
static void describe_param(const rt_param_check *c, char *out, size_t cap) {
  if (c->name[0])
    snprintf(out, cap, "argument %d ('%s')", c->param, c->name);
  else
    snprintf(out, cap, "argument %d", c->param);
}

ttc_status rt_check_specialization(const rt_param_check *checks, int nchecks,
                                   const ttc_type *param_types, const rt_arg_storage *storage,
                                   char *err, size_t errlen) {
  for (int c = 0; c < nchecks; c++) {
    int i = checks[c].param;
    unsigned d = checks[c].divisor;
    char who[48]; /* filled only on a violation: the warm path formats nothing */
    ttc_type t = param_types[i];
    if (t == TTC_TYPE_PTR) {
      uint64_t p = storage[i].u64;
      if (p % d == 0) continue;
      describe_param(&checks[c], who, sizeof who);
      if (err)
        snprintf(err, errlen,
                 "%s: pointer 0x%" PRIx64 " is not %u-byte aligned, but the "
                 "kernel was specialized for an aligned pointer ('*T:%u'); pass an aligned "
                 "pointer or use a kernel compiled without ':%u'",
                 who, p, d, d, d);
      return TTC_ERROR_ARGUMENT;
    }
    int64_t v = packed_int(t, &storage[i]);
    if (checks[c].must_be_one) {
      if (v == 1) continue;
      describe_param(&checks[c], who, sizeof who);
      if (err)
        snprintf(err, errlen,
                 "%s: the last stride of a tensor descriptor is %" PRId64 ", but it must be 1 "
                 "(the last dimension contiguous, as Triton's TensorDescriptor requires)",
                 who, v);
      return TTC_ERROR_ARGUMENT;
    }
    if (v % (int64_t)d == 0) continue;
    describe_param(&checks[c], who, sizeof who);
    if (err)
      snprintf(err, errlen,
               "%s: %s value %" PRId64 " is not divisible by %u, but the "
               "kernel was specialized for it ('%s:%u'); use a kernel compiled without ':%u'",
               who, rt_type_label(t), v, d, rt_type_label(t), d, d);
    return TTC_ERROR_ARGUMENT;
  }
  return TTC_OK;
}

ttc_status rt_check_grid(const unsigned grid[3], char *err, size_t errlen) {
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0) {
    if (err)
      snprintf(err, errlen, "grid (%u, %u, %u) has an empty dimension", grid[0], grid[1], grid[2]);
    return TTC_ERROR_ARGUMENT;
  }
  if (grid[0] > 2147483647u || grid[1] > 65535u || grid[2] > 65535u) {
    if (err)
      snprintf(err, errlen,
               "grid (%u, %u, %u) exceeds the GPU's limits (x up to "
               "2147483647, y and z up to 65535)",
               grid[0], grid[1], grid[2]);
    return TTC_ERROR_ARGUMENT;
  }
  return TTC_OK;
}

ttc_status ttc_module_launch(ttc_module *mod, const unsigned grid[3], void *stream,
                             const ttc_arg *args, size_t nargs) {
  if (!rt_handle_live(mod, RT_HANDLE_MODULE) || !grid || (!args && nargs))
    return TTC_ERROR_ARGUMENT;
  ttc_device *dev = mod->dev;
  if (rt_check_grid(grid, dev->error, sizeof dev->error) != TTC_OK) return TTC_ERROR_ARGUMENT;
  /* The driver copies the parameter values during cuLaunchKernel, so stack
   * storage is enough; RT_MAX_PARAMS bounds nparams at load time. */
  rt_arg_storage storage[RT_MAX_PARAMS];
  void *slots[RT_MAX_PARAMS];
  ttc_status st = rt_pack_args(mod->param_types, mod->nparams, args, nargs, storage, slots,
                               dev->error, sizeof dev->error);
  if (st != TTC_OK) return st;
  /* one shared check for both paths, so the interpreter's tests cover the GPU's */
  if (mod->nchecks && rt_check_specialization(mod->checks, mod->nchecks, mod->param_types, storage,
                                              dev->error, sizeof dev->error) != TTC_OK)
    return TTC_ERROR_ARGUMENT;
  if (mod->interp) return rt_idev_launch(mod, grid, storage);
  st = rt_device_enter(dev);
  if (st != TTC_OK) return st;
  CUresult res = dev->cu.LaunchKernel(mod->fn, grid[0], grid[1], grid[2], mod->block_x, 1, 1,
                                      mod->shared_bytes, (CUstream)stream, slots, NULL);
  return res == CUDA_SUCCESS ? TTC_OK : rt_device_fail(dev, res, "cuLaunchKernel");
}
