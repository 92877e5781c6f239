// SPDX-License-Identifier: MIT
/* lower_host_math.c - numbers at compile time as Python computes them: the
 * math module's functions (exact on ints or a located overflow error, and
 * the errors Python raises where C would return NaN or infinity), round()
 * to negative digits on the exact binary value, int() of a string, and
 * the float `//`, `%` and int `/` of constant folding.
 * Checked against CPython by test/fuzz/constexpr_diff.py. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/lower_impl.h"

/* Python's float divmod (CPython's float_divmod): the quotient rounded
 * down and a remainder with the divisor's sign, zeros signed as Python
 * signs them; wx != 0. */
void fe_py_float_divmod(double vx, double wx, double *floordiv, double *mod) {
  double m = fmod(vx, wx);
  double div = (vx - m) / wx;
  if (m != 0) {
    if ((wx < 0) != (m < 0)) {
      m += wx;
      div -= 1.0;
    }
  } else {
    m = copysign(0.0, wx);
  }
  double fd;
  if (div != 0) {
    fd = floor(div);
    if (div - fd > 0.5) fd += 1.0;
  } else {
    fd = copysign(0.0, vx / wx);
  }
  *floordiv = fd;
  *mod = m;
}

/* Bits in u (0 for 0). */
static int bit_length(unsigned __int128 u) {
  int n = 0;
  for (; u; u >>= 1)
    n++;
  return n;
}

/* Python's int / int: the quotient correctly rounded (not the quotient of
 * the operands rounded to doubles first, which can be one ulp off past
 * 2^53); b != 0. */
double fe_py_int_truediv(int64_t a, int64_t b) {
  bool neg = (a < 0) != (b < 0);
  uint64_t ua = a < 0 ? -(uint64_t)a : (uint64_t)a, ub = b < 0 ? -(uint64_t)b : (uint64_t)b;
  if (ua == 0) return neg ? -0.0 : 0.0;
  if (ua <= (UINT64_C(1) << 53) && ub <= (UINT64_C(1) << 53)) { /* both exact: one rounding */
    double q = (double)ua / (double)ub;
    return neg ? -q : q;
  }
  /* q = (ua << s) / ub with at least 55 bits, plus a sticky bit for the
   * remainder, then rounded to 53 bits, half to even */
  int la = bit_length(ua), lb = bit_length(ub);
  int s = 55 + lb - la > 0 ? 55 + lb - la : 0;
  unsigned __int128 n = (unsigned __int128)ua << s;
  unsigned __int128 q = n / ub;
  bool sticky = n % ub != 0;
  int k = bit_length(q) - 53;
  uint64_t mant;
  if (k > 0) {
    unsigned __int128 rest = q & (((unsigned __int128)1 << k) - 1),
                      half = (unsigned __int128)1 << (k - 1);
    mant = (uint64_t)(q >> k);
    if (rest > half || (rest == half && (sticky || (mant & 1)))) mant++;
  } else {
    mant = (uint64_t)q; /* exact (no bits below) */
    k = 0;
  }
  double r = ldexp((double)mant, k - s);
  return neg ? -r : r;
}

/* Python's round(v, -k) for k >= 1 (CPython rounds the exact binary value
 * in decimal, half to even): v's exact digits (glibc's printf gives them),
 * rounded to a multiple of 10^k as text, read back; v finite. */
double fe_round_float_tens(double v, int k) {
  char buf[1500]; /* a double has at most 309 + 1074 digits */
  char out[400];
  snprintf(buf, sizeof buf, "%.1100f", fabs(v));
  const char *dot = strchr(buf, '.');
  int nint = (int)(dot - buf);
  if (k > nint) return copysign(0.0, v); /* below 10^(k-1), under half of 10^k */
  int nhead = nint - k;
  memcpy(out + 1, buf, (size_t)nhead); /* out[0]: room for a carry */
  out[0] = '0';
  const char *tail = buf + nhead;
  int c = tail[0] - '0';
  bool more = false; /* a nonzero digit after the first of the tail */
  for (const char *t = tail + 1; *t && !more; t++)
    more = *t >= '1' && *t <= '9';
  bool odd = nhead > 0 && ((buf[nhead - 1] - '0') & 1);
  if (c > 5 || (c == 5 && (more || odd))) {
    int i = nhead;
    while (out[i] == '9')
      out[i--] = '0';
    out[i]++;
  }
  memset(out + 1 + nhead, '0', (size_t)k);
  out[1 + nhead + k] = '\0';
  return copysign(strtod(out, NULL), v);
}

/* Python's int(s, base): blanks around, a sign, a 0x/0o/0b prefix (base 0
 * picks the base from it, and refuses leading zeros in decimal), and single
 * underscores between digits. 1: ok; 0: invalid literal; -1: does not fit
 * in 64 bits. */
int fe_parse_py_int(const char *s, int base, int64_t *out) {
  while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
    s++;
  bool neg = *s == '-';
  if (*s == '-' || *s == '+') s++;
  bool prefixed = false;
  if (s[0] == '0' && s[1]) {
    int c = s[1] | 0x20, pb = c == 'x' ? 16 : c == 'o' ? 8 : c == 'b' ? 2 : 0;
    if (pb && (base == 0 || base == pb)) {
      base = pb;
      s += 2;
      prefixed = true;
    }
  }
  bool zero_lead = base == 0 && s[0] == '0';
  if (base == 0) base = 10;
  uint64_t mag = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  int ndigits = 0;
  bool nonzero = false, big = false, last_us = false; /* one underscore may follow a prefix */
  for (; *s && !(*s == ' ' || (*s >= '\t' && *s <= '\r')); s++) {
    if (*s == '_') {
      if (last_us || (ndigits == 0 && !prefixed)) return 0;
      last_us = true;
      continue;
    }
    int c = *s, d = c >= '0' && c <= '9'                     ? c - '0'
                    : (c | 0x20) >= 'a' && (c | 0x20) <= 'z' ? (c | 0x20) - 'a' + 10
                                                             : 99;
    if (d >= base) return 0;
    last_us = false;
    ndigits++;
    nonzero = nonzero || d;
    if (mag > (lim - (uint64_t)d) / (uint64_t)base) big = true;
    if (!big) mag = mag * (uint64_t)base + (uint64_t)d;
  }
  while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
    s++;
  if (*s || !ndigits || last_us || (zero_lead && nonzero)) return 0;
  if (big) return -1;
  *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
  return 1;
}

fe_val fe_math_fn(fe_lower *l, const char *fn, const fe_args *a) {
  if (!strcmp(fn, "prod")) { /* of an iterable, not of numbers */
    if (a->n < 1) return fe_error(l, a->loc, "math.prod needs an argument");
    fe_val *items;
    int n;
    if (!fe_iterate(l, a->pos[0], a->pos_loc[0], &items, &n)) return fe_val_error();
    fe_val acc = fe_val_int(1);
    for (int i = 0; i < n; i++)
      acc = fe_binary(l, FE_OP_MUL, acc, items[i], a->loc);
    return acc;
  }
  for (int i = 0; i < a->n; i++)
    if (!fe_is_const(&a->pos[i]))
      return fe_error(l, a->pos_loc[i], "math.%s needs compile-time numbers, found '%s'", fn,
                      fe_val_type_str(l, &a->pos[i]));
  if (a->n < 1) return fe_error(l, a->loc, "math.%s needs an argument", fn);
  double x = fe_num(&a->pos[0]), y = a->n > 1 ? fe_num(&a->pos[1]) : 0;
  bool ints = true; /* every argument an int (or bool), as the integer functions need */
  for (int i = 0; i < a->n; i++)
    ints = ints && a->pos[i].kind != FE_V_FLOAT;
  if (!strcmp(fn, "ceil") || !strcmp(fn, "floor") || !strcmp(fn, "trunc")) {
    if (a->pos[0].kind != FE_V_FLOAT) return fe_val_int(a->pos[0].ival); /* exact, not a double */
    double r = fn[0] == 'c' ? ceil(x) : fn[0] == 'f' ? floor(x) : trunc(x);
    return fe_float_to_int(l, r, a->loc,
                           fn[0] == 'c'   ? "math.ceil"
                           : fn[0] == 'f' ? "math.floor"
                                          : "math.trunc");
  }
  if (!ints && (!strcmp(fn, "isqrt") || !strcmp(fn, "gcd") || !strcmp(fn, "lcm") ||
                !strcmp(fn, "factorial") || !strcmp(fn, "comb")))
    return fe_error(l, a->loc, "math.%s: 'float' object cannot be interpreted as an integer", fn);
  if (!strcmp(fn, "isqrt")) {
    if (a->pos[0].ival < 0) return fe_error(l, a->loc, "math.isqrt of a negative number");
    /* exact for every int64: correct the double square root by one step */
    int64_t n = a->pos[0].ival;
    int64_t s = (int64_t)sqrt((double)n);
    while (s > 0 && (s > 3037000499 || s * s > n))
      s--;
    while (s < 3037000499 && (s + 1) * (s + 1) <= n)
      s++;
    return fe_val_int(s);
  }
  if (!strcmp(fn, "gcd") || !strcmp(fn, "lcm")) {
    /* on magnitudes: |INT64_MIN| is 2^63, which only a result can overflow */
    uint64_t p = a->pos[0].ival < 0 ? -(uint64_t)a->pos[0].ival : (uint64_t)a->pos[0].ival;
    uint64_t q = a->n > 1
                     ? (a->pos[1].ival < 0 ? -(uint64_t)a->pos[1].ival : (uint64_t)a->pos[1].ival)
                     : (fn[0] == 'g' ? 0 : 1);
    uint64_t g = p, h = q, r;
    while (h) {
      uint64_t t = g % h;
      g = h;
      h = t;
    }
    if (fn[0] == 'g')
      r = g;
    else if (!g || __builtin_mul_overflow(p / g, q, &r))
      r = g ? UINT64_MAX : 0;
    if (r > (uint64_t)INT64_MAX)
      return fe_error(l, a->loc,
                      "integer overflow in constant expression: 'math.%s' does not fit in 64 bits",
                      fn);
    return fe_val_int((int64_t)r);
  }
  if (!strcmp(fn, "factorial")) {
    int64_t n = a->pos[0].ival, r = 1;
    if (n < 0) return fe_error(l, a->loc, "math.factorial() not defined for negative values");
    if (n > 20) /* 21! is past 64 bits */
      return fe_error(l, a->loc,
                      "integer overflow in constant expression: 'math.factorial' does not fit "
                      "in 64 bits");
    for (int64_t i = 2; i <= n; i++)
      r *= i;
    return fe_val_int(r);
  }
  if (!strcmp(fn, "comb")) {
    if (a->n != 2) return fe_error(l, a->loc, "math.comb takes 2 arguments");
    int64_t n = a->pos[0].ival, k = a->pos[1].ival;
    if (n < 0 || k < 0) return fe_error(l, a->loc, "math.comb: n and k must be non-negative");
    if (k > n) return fe_val_int(0);
    if (k > n - k) k = n - k;
    /* C(n, i) grows with i up to n / 2: every step fits when the result does */
    __extension__ unsigned __int128 r = 1;
    for (int64_t i = 1; i <= k; i++) {
      r = r * (unsigned __int128)(n - k + i) / (unsigned __int128)i;
      if (r > (unsigned __int128)INT64_MAX)
        return fe_error(l, a->loc,
                        "integer overflow in constant expression: 'math.comb' does not fit in 64 "
                        "bits");
    }
    return fe_val_int((int64_t)r);
  }
  if (!strcmp(fn, "isinf")) return fe_val_bool(isinf(x));
  if (!strcmp(fn, "isnan")) return fe_val_bool(isnan(x));
  if (!strcmp(fn, "isfinite")) return fe_val_bool(isfinite(x));
  static const struct {
    const char *name;
    double (*f1)(double);
    double (*f2)(double, double);
  } fns[] = {{"log2", log2, NULL},        {"log10", log10, NULL}, {"log1p", log1p, NULL},
             {"exp", exp, NULL},          {"exp2", exp2, NULL},   {"sqrt", sqrt, NULL},
             {"fabs", fabs, NULL},        {"sin", sin, NULL},     {"cos", cos, NULL},
             {"tanh", tanh, NULL},        {"erf", erf, NULL},     {"pow", NULL, pow},
             {"copysign", NULL, copysign}};
  double r;
  if (!strcmp(fn, "log")) {
    if ((!isnan(x) && x <= 0) || (a->n > 1 && !isnan(y) && y <= 0)) /* each log raises */
      return fe_error(l, a->loc, "math.log: math domain error");
    if (a->n > 1 && y == 1) return fe_error(l, a->loc, "math.log: float division by zero");
    r = a->n > 1 ? log(x) / log(y) : log(x);
  } else {
    size_t i = 0;
    while (i < sizeof fns / sizeof fns[0] && strcmp(fns[i].name, fn) != 0)
      i++;
    if (i == sizeof fns / sizeof fns[0]) return fe_error(l, a->loc, "unsupported: math.%s", fn);
    r = fns[i].f1 ? fns[i].f1(x) : fns[i].f2(x, y);
  }
  /* Python's math module raises where C returns NaN from numbers or an
   * infinity from finite numbers (ValueError: math domain error;
   * OverflowError: math range error), so no NaN or inf flows on silently */
  bool nan_in = isnan(x) || (a->n > 1 && isnan(y));
  bool finite_in = isfinite(x) && (a->n < 2 || isfinite(y));
  if (isnan(r) && !nan_in) return fe_error(l, a->loc, "math.%s: math domain error", fn);
  if (isinf(r) && finite_in) {
    bool range = !strcmp(fn, "exp") || !strcmp(fn, "exp2") || (!strcmp(fn, "pow") && x != 0);
    return fe_error(l, a->loc, "math.%s: math %s error", fn, range ? "range" : "domain");
  }
  return fe_val_float(r);
}
