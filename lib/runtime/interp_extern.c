/* interp_extern.c - tt.extern_elementwise in the interpreter: libdevice
 * functions (by symbol, "__nv_tanhf", "__nv_fast_expf", "__nv_pow") computed
 * with the C library in double and rounded once to the result type. Integer
 * operands (ldexp's exponent, powi's power) and integer results (isnan,
 * signbit) convert exactly. A symbol not in the table is a failure naming it:
 * the GPU runs libdevice, the interpreter only what it can reproduce. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "runtime/interp_impl.h"

typedef enum ext_arity { EXT_1, EXT_2, EXT_3, EXT_FI, EXT_PRED } ext_arity;

typedef struct ext_fn {
  const char *name; /* without "__nv_", "fast_" and the f32 suffix "f" */
  ext_arity arity;
  double (*f1)(double);
  double (*f2)(double, double);
  double (*f3)(double, double, double);
  double (*fi)(double, int);
  int (*pred)(double);
} ext_fn;

static double d_exp10(double x) { return pow(10.0, x); }
static double d_rsqrt(double x) { return 1.0 / sqrt(x); }
static double d_rcp(double x) { return 1.0 / x; }
static double d_saturate(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }
static double d_powi(double x, int n) { return pow(x, (double)n); }
static double d_sinpi(double x) { return sin(M_PI * x); }
static double d_cospi(double x) { return cos(M_PI * x); }
static double d_erfcx(double x) { return exp(x * x) * erfc(x); }
static double d_normcdf(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }
static double d_fdim(double x, double y) { return fdim(x, y); }
static double d_div(double x, double y) { return x / y; }
static double d_fma(double x, double y, double z) { return fma(x, y, z); }
static int p_isnan(double x) { return isnan(x) != 0; }
static int p_isinf(double x) { return isinf(x) != 0; }
static int p_finite(double x) { return isfinite(x) != 0; }
static int p_signbit(double x) { return signbit(x) != 0; }
static int p_ilogb(double x) { return ilogb(x); }

static const ext_fn ext_fns[] = {
    {"sin", EXT_1, sin, 0, 0, 0, 0},
    {"cos", EXT_1, cos, 0, 0, 0, 0},
    {"tan", EXT_1, tan, 0, 0, 0, 0},
    {"asin", EXT_1, asin, 0, 0, 0, 0},
    {"acos", EXT_1, acos, 0, 0, 0, 0},
    {"atan", EXT_1, atan, 0, 0, 0, 0},
    {"sinh", EXT_1, sinh, 0, 0, 0, 0},
    {"cosh", EXT_1, cosh, 0, 0, 0, 0},
    {"tanh", EXT_1, tanh, 0, 0, 0, 0},
    {"asinh", EXT_1, asinh, 0, 0, 0, 0},
    {"acosh", EXT_1, acosh, 0, 0, 0, 0},
    {"atanh", EXT_1, atanh, 0, 0, 0, 0},
    {"exp", EXT_1, exp, 0, 0, 0, 0},
    {"exp2", EXT_1, exp2, 0, 0, 0, 0},
    {"exp10", EXT_1, d_exp10, 0, 0, 0, 0},
    {"expm1", EXT_1, expm1, 0, 0, 0, 0},
    {"log", EXT_1, log, 0, 0, 0, 0},
    {"log2", EXT_1, log2, 0, 0, 0, 0},
    {"log10", EXT_1, log10, 0, 0, 0, 0},
    {"log1p", EXT_1, log1p, 0, 0, 0, 0},
    {"logb", EXT_1, logb, 0, 0, 0, 0},
    {"sqrt", EXT_1, sqrt, 0, 0, 0, 0},
    {"rsqrt", EXT_1, d_rsqrt, 0, 0, 0, 0},
    {"cbrt", EXT_1, cbrt, 0, 0, 0, 0},
    {"rcp", EXT_1, d_rcp, 0, 0, 0, 0},
    {"erf", EXT_1, erf, 0, 0, 0, 0},
    {"erfc", EXT_1, erfc, 0, 0, 0, 0},
    {"erfcx", EXT_1, d_erfcx, 0, 0, 0, 0},
    {"normcdf", EXT_1, d_normcdf, 0, 0, 0, 0},
    {"lgamma", EXT_1, lgamma, 0, 0, 0, 0},
    {"tgamma", EXT_1, tgamma, 0, 0, 0, 0},
    {"floor", EXT_1, floor, 0, 0, 0, 0},
    {"ceil", EXT_1, ceil, 0, 0, 0, 0},
    {"trunc", EXT_1, trunc, 0, 0, 0, 0},
    {"round", EXT_1, round, 0, 0, 0, 0},
    {"rint", EXT_1, rint, 0, 0, 0, 0},
    {"nearbyint", EXT_1, nearbyint, 0, 0, 0, 0},
    {"fabs", EXT_1, fabs, 0, 0, 0, 0},
    {"saturate", EXT_1, d_saturate, 0, 0, 0, 0},
    {"sinpi", EXT_1, d_sinpi, 0, 0, 0, 0},
    {"cospi", EXT_1, d_cospi, 0, 0, 0, 0},
    {"pow", EXT_2, 0, pow, 0, 0, 0},
    {"atan2", EXT_2, 0, atan2, 0, 0, 0},
    {"hypot", EXT_2, 0, hypot, 0, 0, 0},
    {"fmod", EXT_2, 0, fmod, 0, 0, 0},
    {"remainder", EXT_2, 0, remainder, 0, 0, 0},
    {"fmax", EXT_2, 0, fmax, 0, 0, 0},
    {"fmin", EXT_2, 0, fmin, 0, 0, 0},
    {"fdim", EXT_2, 0, d_fdim, 0, 0, 0},
    {"copysign", EXT_2, 0, copysign, 0, 0, 0},
    {"nextafter", EXT_2, 0, nextafter, 0, 0, 0},
    {"fdivide", EXT_2, 0, d_div, 0, 0, 0},
    {"div_rn", EXT_2, 0, d_div, 0, 0, 0},
    {"fma", EXT_3, 0, 0, d_fma, 0, 0},
    {"ldexp", EXT_FI, 0, 0, 0, ldexp, 0},
    {"scalbn", EXT_FI, 0, 0, 0, scalbn, 0},
    {"powi", EXT_FI, 0, 0, 0, d_powi, 0},
    {"isnan", EXT_PRED, 0, 0, 0, 0, p_isnan},
    {"isinf", EXT_PRED, 0, 0, 0, 0, p_isinf},
    {"finite", EXT_PRED, 0, 0, 0, 0, p_finite},
    {"isfinite", EXT_PRED, 0, 0, 0, 0, p_finite},
    {"signbit", EXT_PRED, 0, 0, 0, 0, p_signbit},
    {"ilogb", EXT_PRED, 0, 0, 0, 0, p_ilogb},
};

/* The table entry for a libdevice symbol: "__nv_fast_tanhf" -> "tanh". */
static const ext_fn *find_ext(const char *sym) {
  char name[64];
  if (strncmp(sym, "__nv_", 5) == 0) sym += 5;
  if (strncmp(sym, "fast_", 5) == 0) sym += 5;
  snprintf(name, sizeof name, "%s", sym);
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < sizeof ext_fns / sizeof ext_fns[0]; i++)
      if (strcmp(ext_fns[i].name, name) == 0) return &ext_fns[i];
    size_t n = strlen(name); /* the f32 variant: expf -> exp */
    if (n < 2 || name[n - 1] != 'f') break;
    name[n - 1] = '\0';
  }
  return NULL;
}

/* Element i of any slot as a double (ints by their signedness-less value). */
static double elem_get(const rt_islot *s, const void *p, size_t i) {
  if (s->elem->kind == IR_TY_FLOAT) return rt_float_get(s->elem, p, i);
  switch (s->esize) {
  case 1:
    return s->elem->width == 1 ? (double)(((const uint8_t *)p)[i] & 1) : ((const int8_t *)p)[i];
  case 2: return ((const int16_t *)p)[i];
  case 4: return ((const int32_t *)p)[i];
  default: return (double)((const int64_t *)p)[i];
  }
}

static void elem_set(const rt_islot *s, void *p, size_t i, double x) {
  if (s->elem->kind == IR_TY_FLOAT) {
    rt_float_set(s->elem, p, i, x);
    return;
  }
  int64_t v = (int64_t)x;
  switch (s->esize) {
  case 1: ((uint8_t *)p)[i] = (uint8_t)v; return;
  case 2: ((int16_t *)p)[i] = (int16_t)v; return;
  case 4: ((int32_t *)p)[i] = (int32_t)v; return;
  default: ((int64_t *)p)[i] = v; return;
  }
}

bool rt_interp_extern(rt_iexec *ex, const rt_ins *ins) {
  const ir_attr *sym = ir_op_get_attr(ins->op, "symbol");
  const char *name = sym && sym->s ? sym->s : "?";
  const ext_fn *fn = find_ext(name);
  int want = fn ? (fn->arity == EXT_1 || fn->arity == EXT_PRED ? 1
                   : fn->arity == EXT_3                        ? 3
                                                               : 2)
                : 0;
  if (!fn || ins->nin != want)
    return rt_iexec_fail(ex, ins->op, TTC_ERROR_UNSUPPORTED, "unsupported extern function",
                         "the interpreter has no '%s' with %d operand(s)", name, ins->nin);
  size_t n = rt_ins_n(ex, ins);
  const rt_islot *out = rt_slot(ex, ins->out[0]);
  void *o = ex->v[ins->out[0]];
  for (size_t i = 0; i < n; i++) {
    double x[3] = {0, 0, 0};
    for (int k = 0; k < ins->nin; k++)
      x[k] = elem_get(rt_slot(ex, ins->in[k]), ex->v[ins->in[k]], i);
    double r;
    switch (fn->arity) {
    case EXT_1: r = fn->f1(x[0]); break;
    case EXT_2: r = fn->f2(x[0], x[1]); break;
    case EXT_3: r = fn->f3(x[0], x[1], x[2]); break;
    case EXT_FI: r = fn->fi(x[0], (int)x[1]); break;
    case EXT_PRED: r = fn->pred(x[0]); break;
    default: r = 0; break;
    }
    elem_set(out, o, i, r);
  }
  return true;
}
