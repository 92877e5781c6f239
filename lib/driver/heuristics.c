// SPDX-License-Identifier: MIT
/* heuristics.c - evaluating @triton.heuristics lambdas for a launch, with
 * Python's semantics on ints, floats and bools: floor division and modulo,
 * true division, `and`/`or` returning an operand, chained comparisons
 * (already split by the frontend), conditional expressions, and
 * triton.next_power_of_2, triton.cdiv, min, max, abs, int, float, bool.
 * Python's ints have no bound: the evaluation is in 128 bits (so a u64
 * argument and products past 2^63 compute as Python does), an operation
 * whose result does not fit there is a located error, and so is a
 * heuristic's value outside 64 bits, ttc's constexprs; never a wrapped
 * value. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "driver/function_impl.h"

__extension__ typedef __int128 hx_int;
#define HX_MAX ((hx_int)(((unsigned __int128)1 << 127) - 1))
#define HX_MIN (-HX_MAX - 1)

/* A value during evaluation: fe_cval with a 128-bit int. */
typedef struct hx_val {
  fe_cval_kind kind;
  hx_int i; /* INT, BOOL (0/1) */
  double f; /* FLOAT */
} hx_val;

static hx_val cval_int(hx_int i) {
  hx_val v = {FE_CVAL_INT, i, 0};
  return v;
}
static hx_val cval_bool(bool b) {
  hx_val v = {FE_CVAL_BOOL, b, 0};
  return v;
}
static hx_val cval_float(double f) {
  hx_val v = {FE_CVAL_FLOAT, 0, f};
  return v;
}
static hx_val from_cval(const fe_cval *c) {
  hx_val v = {c->kind, c->i, c->f};
  return v;
}

static bool truth(const hx_val *v) {
  return v->kind == FE_CVAL_FLOAT ? v->f != 0.0 : v->kind != FE_CVAL_NONE && v->i != 0;
}
static double as_float(const hx_val *v) { return v->kind == FE_CVAL_FLOAT ? v->f : (double)v->i; }

/* A launch argument as a Python value: integers at their type's width
 * (signed or not), bools, floats, pointers as their address. */
static hx_val arg_value(const ttc_arg *a) {
  switch (a->type) {
  case TTC_TYPE_I1: return cval_bool(a->v.i != 0);
  case TTC_TYPE_I8: return cval_int((int8_t)a->v.i);
  case TTC_TYPE_I16: return cval_int((int16_t)a->v.i);
  case TTC_TYPE_I32: return cval_int((int32_t)a->v.i);
  case TTC_TYPE_U8: return cval_int((uint8_t)a->v.i);
  case TTC_TYPE_U16: return cval_int((uint16_t)a->v.i);
  case TTC_TYPE_U32: return cval_int((uint32_t)a->v.i);
  case TTC_TYPE_I64: return cval_int(a->v.i);
  case TTC_TYPE_U64: return cval_int((uint64_t)a->v.i);
  case TTC_TYPE_PTR: return cval_int((int64_t)a->v.ptr);
  case TTC_TYPE_F16:
  case TTC_TYPE_BF16:
  case TTC_TYPE_F32:
  case TTC_TYPE_F64:
  case TTC_TYPE_FP8E4NV:
  case TTC_TYPE_FP8E5: return cval_float(a->v.f);
  }
  return cval_int(0);
}

/* Python's a // b and a % b on ints (b != 0, and not HX_MIN // -1,
 * which the caller refuses): the quotient rounded down. */
static hx_int floordiv(hx_int a, hx_int b) {
  if (b == -1) return -a;
  hx_int q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static hx_int floormod(hx_int a, hx_int b) {
  if (b == -1) return 0;
  hx_int r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

/* triton.next_power_of_2, bit for bit (0 and below give 0); the caller
 * refuses n above 2^126, whose power does not fit. */
static hx_int next_pow2(hx_int n) {
  unsigned __int128 u = (unsigned __int128)n - 1u;
  for (int s = 1; s < 128; s *= 2)
    u |= u >> s;
  return (hx_int)(u + 1u);
}

/* Decimal text of v (at most 40 characters and a sign). */
static void int_text(hx_int v, char *buf, size_t n) {
  char tmp[48];
  int k = 0;
  unsigned __int128 u = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
  do {
    tmp[k++] = (char)('0' + (int)(u % 10));
    u /= 10;
  } while (u);
  if (v < 0) tmp[k++] = '-';
  size_t j = 0;
  while (k > 0 && j + 1 < n)
    buf[j++] = tmp[--k];
  buf[j] = '\0';
}

static bool hx_fail(ttc_function *f, const fe_hexpr *e, const char *what) {
  const char *file = e->loc.src ? e->loc.src->name : f->filename;
  fn_fail(f, TTC_ERROR_ARGUMENT, "%s:%u:%u: error: heuristic of '%s': %s", file,
          (unsigned)e->loc.line, (unsigned)e->loc.col, f->name, what);
  return false;
}

static bool too_big(ttc_function *f, const fe_hexpr *e) {
  return hx_fail(f, e, "the integer result does not fit in 128 bits");
}

/* base ** exp on ints, exp >= 0; false when the result does not fit. */
static bool int_pow(hx_int base, hx_int exp, hx_int *out) {
  if (base == 0 || base == 1 || exp == 0) {
    *out = exp == 0 ? 1 : base;
    return true;
  }
  if (base == -1) {
    *out = exp % 2 ? -1 : 1;
    return true;
  }
  hx_int r = 1; /* |base| >= 2: past 127 factors it no longer fits */
  for (hx_int k = 0; k < exp; k++)
    if (k >= 127 || __builtin_mul_overflow(r, base, &r)) return false;
  *out = r;
  return true;
}

static bool binary(ttc_function *f, const fe_hexpr *e, hx_val a, hx_val b, hx_val *out) {
  bool fl = a.kind == FE_CVAL_FLOAT || b.kind == FE_CVAL_FLOAT;
  double x = as_float(&a), y = as_float(&b);
  hx_int i = a.i, j = b.i;
  switch (e->op) {
  case FE_OP_EQ: *out = cval_bool(fl ? x == y : i == j); return true;
  case FE_OP_NE: *out = cval_bool(fl ? x != y : i != j); return true;
  case FE_OP_LT: *out = cval_bool(fl ? x < y : i < j); return true;
  case FE_OP_LE: *out = cval_bool(fl ? x <= y : i <= j); return true;
  case FE_OP_GT: *out = cval_bool(fl ? x > y : i > j); return true;
  case FE_OP_GE: *out = cval_bool(fl ? x >= y : i >= j); return true;
  case FE_OP_ADD:
  case FE_OP_SUB:
  case FE_OP_MUL: {
    if (fl) {
      *out = cval_float(e->op == FE_OP_ADD ? x + y : e->op == FE_OP_SUB ? x - y : x * y);
      return true;
    }
    hx_int r;
    if (e->op == FE_OP_ADD   ? __builtin_add_overflow(i, j, &r)
        : e->op == FE_OP_SUB ? __builtin_sub_overflow(i, j, &r)
                             : __builtin_mul_overflow(i, j, &r))
      return too_big(f, e);
    *out = cval_int(r);
    return true;
  }
  case FE_OP_DIV:
    if (y == 0.0) return hx_fail(f, e, "division by zero");
    *out = cval_float(x / y);
    return true;
  case FE_OP_FLOORDIV:
  case FE_OP_MOD:
    if (fl ? y == 0.0 : j == 0) return hx_fail(f, e, "division by zero");
    if (!fl && e->op == FE_OP_FLOORDIV && i == HX_MIN && j == -1) return too_big(f, e);
    if (fl)
      *out = cval_float(e->op == FE_OP_MOD ? x - y * floor(x / y) : floor(x / y));
    else
      *out = cval_int(e->op == FE_OP_MOD ? floormod(i, j) : floordiv(i, j));
    return true;
  case FE_OP_POW:
    if (fl || j < 0) {
      *out = cval_float(pow(x, y));
    } else {
      hx_int r;
      if (!int_pow(i, j, &r)) return too_big(f, e);
      *out = cval_int(r);
    }
    return true;
  case FE_OP_SHL:
  case FE_OP_SHR:
  case FE_OP_BITAND:
  case FE_OP_BITOR:
  case FE_OP_BITXOR:
    if (fl) return hx_fail(f, e, "a bitwise operator on a float");
    if ((e->op == FE_OP_SHL || e->op == FE_OP_SHR) && (j < 0 || j > 127))
      return hx_fail(f, e, "shift count out of range");
    if (e->op == FE_OP_SHL && (hx_int)((unsigned __int128)i << j) >> j != i) return too_big(f, e);
    *out = cval_int(e->op == FE_OP_SHL      ? (hx_int)((unsigned __int128)i << j)
                    : e->op == FE_OP_SHR    ? i >> j
                    : e->op == FE_OP_BITAND ? (i & j)
                    : e->op == FE_OP_BITOR  ? (i | j)
                                            : (i ^ j));
    if (a.kind == FE_CVAL_BOOL && b.kind == FE_CVAL_BOOL && e->op >= FE_OP_BITAND)
      out->kind = FE_CVAL_BOOL;
    return true;
  default: return hx_fail(f, e, "unsupported operator");
  }
}

static bool call(ttc_function *f, const fe_hexpr *e, const hx_val *a, hx_val *out) {
  const char *fn = e->name;
  if (strcmp(fn, "min") == 0 || strcmp(fn, "max") == 0) {
    if (e->n < 1) return hx_fail(f, e, "min/max of nothing");
    bool is_max = fn[1] == 'a';
    *out = a[0];
    for (int i = 1; i < e->n; i++) {
      bool fl = out->kind == FE_CVAL_FLOAT || a[i].kind == FE_CVAL_FLOAT;
      bool less = fl ? as_float(&a[i]) < as_float(out) : a[i].i < out->i;
      bool more = fl ? as_float(&a[i]) > as_float(out) : a[i].i > out->i;
      if (is_max ? more : less) *out = a[i];
    }
    return true;
  }
  if (e->n != (strcmp(fn, "cdiv") == 0 ? 2 : 1)) return hx_fail(f, e, "wrong number of arguments");
  if (strcmp(fn, "cdiv") == 0) {
    if (a[0].kind == FE_CVAL_FLOAT || a[1].kind == FE_CVAL_FLOAT || a[1].i == 0)
      return hx_fail(f, e, "triton.cdiv needs integers, the divisor nonzero");
    /* (n + d - 1) // d without the sum, which may not fit: with n = q d + r
     * (Python's q and r), it is q + (r + d - 1) // d, which is 1 (or 0 when
     * r = 0) for d > 0, and 1 (or 2 when r = d + 1) for d < 0 */
    hx_int n = a[0].i, d = a[1].i, r;
    if (n == HX_MIN && d == -1) return too_big(f, e);
    hx_int q = floordiv(n, d), m = floormod(n, d);
    hx_int add = d > 0 ? (m != 0) : (m == d + 1 ? 2 : 1);
    if (__builtin_add_overflow(q, add, &r)) return too_big(f, e);
    *out = cval_int(r);
  } else if (strcmp(fn, "next_power_of_2") == 0) {
    if (a[0].kind == FE_CVAL_FLOAT) return hx_fail(f, e, "triton.next_power_of_2 needs an int");
    if (a[0].i > ((hx_int)1 << 126)) return too_big(f, e);
    *out = cval_int(next_pow2(a[0].i));
  } else if (strcmp(fn, "abs") == 0) {
    if (a[0].kind != FE_CVAL_FLOAT && a[0].i == HX_MIN) return too_big(f, e);
    *out = a[0].kind == FE_CVAL_FLOAT ? cval_float(fabs(a[0].f))
                                      : cval_int(a[0].i < 0 ? -a[0].i : a[0].i);
  } else if (strcmp(fn, "int") == 0) {
    if (a[0].kind == FE_CVAL_FLOAT && !isfinite(a[0].f))
      return hx_fail(f, e, "int() of a value that is not finite");
    /* trunc(f) fits when it is in [-2^127, 2^127): both ends are doubles */
    if (a[0].kind == FE_CVAL_FLOAT && !(a[0].f >= -0x1p127 && a[0].f < 0x1p127))
      return too_big(f, e);
    *out = cval_int(a[0].kind == FE_CVAL_FLOAT ? (hx_int)a[0].f : a[0].i);
  } else if (strcmp(fn, "float") == 0) {
    *out = cval_float(as_float(&a[0]));
  } else {
    *out = cval_bool(truth(&a[0]));
  }
  return true;
}

/* The deepest heuristic expression evaluated (the frontend bounds them far
 * below; this keeps a malformed tree from overflowing the stack). */
#define HX_MAX_DEPTH 256
#define HX_MAX_ARGS 8

static bool eval(ttc_function *f, const fe_hexpr *e, const ttc_arg *args, const fe_cval *values,
                 hx_val *out, int depth) {
  if (depth > HX_MAX_DEPTH) return hx_fail(f, e, "expression too deep");
  hx_val a, b;
  switch (e->kind) {
  case FE_HX_CONST: *out = from_cval(&e->c); return true;
  case FE_HX_ARG:
    for (int i = 0; i < f->nparams; i++) {
      const fn_param *p = &f->params[i];
      if (strcmp(p->name, e->name) != 0) continue;
      if (!p->is_constexpr) {
        *out = arg_value(&args[p->arg]);
        return true;
      }
      if (values[i].kind == FE_CVAL_NONE) break;
      *out = from_cval(&values[i]);
      return true;
    }
    {
      char what[300];
      snprintf(what, sizeof what, "args['%s'] is no argument with a value here", e->name);
      return hx_fail(f, e, what);
    }
  case FE_HX_UNARY:
    if (!eval(f, e->a, args, values, &a, depth + 1)) return false;
    if (e->op == FE_OP_NOT)
      *out = cval_bool(!truth(&a));
    else if (e->op == FE_OP_POS)
      *out = a;
    else if (e->op == FE_OP_NEG && a.kind != FE_CVAL_FLOAT && a.i == HX_MIN)
      return too_big(f, e);
    else if (e->op == FE_OP_NEG)
      *out = a.kind == FE_CVAL_FLOAT ? cval_float(-a.f) : cval_int(-a.i);
    else if (a.kind == FE_CVAL_FLOAT)
      return hx_fail(f, e, "'~' on a float");
    else
      *out = cval_int(~a.i);
    return true;
  case FE_HX_BINARY:
    if (!eval(f, e->a, args, values, &a, depth + 1)) return false;
    if (e->op == FE_OP_AND || e->op == FE_OP_OR) { /* short-circuit, an operand's value */
      if (truth(&a) == (e->op == FE_OP_OR)) {
        *out = a;
        return true;
      }
      return eval(f, e->b, args, values, out, depth + 1);
    }
    if (!eval(f, e->b, args, values, &b, depth + 1)) return false;
    return binary(f, e, a, b, out);
  case FE_HX_IFEXP:
    if (!eval(f, e->b, args, values, &a, depth + 1)) return false;
    return eval(f, truth(&a) ? e->a : e->c3, args, values, out, depth + 1);
  case FE_HX_CALL: {
    hx_val av[HX_MAX_ARGS];
    if (e->n > HX_MAX_ARGS) return hx_fail(f, e, "too many arguments");
    for (int i = 0; i < e->n; i++)
      if (!eval(f, e->args[i], args, values, &av[i], depth + 1)) return false;
    return call(f, e, av, out);
  }
  }
  return hx_fail(f, e, "unsupported expression");
}

bool fn_heuristic_eval(ttc_function *f, const fe_hexpr *e, const ttc_arg *args,
                       const fe_cval *values, fe_cval *out) {
  hx_val v;
  if (!eval(f, e, args, values, &v, 0)) return false;
  if (v.kind != FE_CVAL_FLOAT && (v.i < INT64_MIN || v.i > INT64_MAX)) {
    char num[48], what[128];
    int_text(v.i, num, sizeof num);
    snprintf(what, sizeof what, "the value %s does not fit in a 64-bit constexpr", num);
    return hx_fail(f, e, what);
  }
  out->kind = v.kind;
  out->i = (int64_t)v.i;
  out->f = v.f;
  return true;
}
