// SPDX-License-Identifier: MIT
/* lower_format.c - compile-time text as Python writes it: str() and repr()
 * of host values (floats as Python's shortest repr), the format-spec
 * mini-language (f-string fields, str.format, format()), printf-style `%`,
 * and f-strings. Checked against CPython by test/fuzz/constexpr_diff.py. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/lower_impl.h"

/* ---- text ------------------------------------------------------------------------------- */

/* The shortest decimal that reads back as x, as Python's repr of a float. */
static void put_float(ir_strbuf *sb, double x) {
  if (isinf(x)) {
    ir_sb_puts(sb, x < 0 ? "-inf" : "inf");
    return;
  }
  if (isnan(x)) {
    ir_sb_puts(sb, "nan");
    return;
  }
  /* Python's repr: the fewest digits that read back as x (the nearest such
   * string, which need not be the correctly rounded one: one unit up or down
   * in the last digit may read back where the rounded string does not), in
   * fixed notation for decimal exponents -4 to 15 (with at least one
   * decimal, '120.0'), else in scientific notation ('1e+16', '1.5e-05'). */
  char buf[64], digs[24];
  int nd = 0, exp = 0;
  bool found = false;
  for (int digits = 1; digits <= 17 && !found; digits++) {
    snprintf(buf, sizeof buf, "%.*e", digits - 1, fabs(x));
    exp = atoi(strchr(buf, 'e') + 1);
    nd = 0;
    for (const char *q = buf; *q != 'e'; q++)
      if (*q >= '0' && *q <= '9') digs[nd++] = *q;
    digs[nd] = '\0';
    double y = strtod(buf, NULL);
    if (y == fabs(x)) {
      found = true;
      break;
    }
    if (digits < 2) continue;
    /* the neighbour toward x: last digit +1 when the rounded value is below */
    char cand[24];
    memcpy(cand, digs, (size_t)nd + 1);
    int k = nd - 1, d = y < fabs(x) ? 1 : -1;
    while (k >= 0) {
      int v = cand[k] - '0' + d;
      if (v >= 0 && v <= 9) {
        cand[k] = (char)('0' + v);
        break;
      }
      cand[k--] = d > 0 ? '0' : '9'; /* carry or borrow */
    }
    if (k < 0 || cand[0] == '0') continue; /* the digit count would change */
    char sci[64];
    snprintf(sci, sizeof sci, "%c.%se%d", cand[0], cand + 1, exp);
    if (strtod(sci, NULL) == fabs(x)) {
      memcpy(digs, cand, (size_t)nd + 1);
      found = true;
    }
  }
  if (signbit(x)) ir_sb_putc(sb, '-');
  if (exp >= -4 && exp < 16) {
    if (exp < 0) {
      ir_sb_puts(sb, "0.");
      for (int i = 0; i < -exp - 1; i++)
        ir_sb_putc(sb, '0');
      ir_sb_puts(sb, digs);
    } else {
      for (int i = 0; i <= exp; i++)
        ir_sb_putc(sb, i < nd ? digs[i] : '0');
      ir_sb_putc(sb, '.');
      if (nd > exp + 1)
        ir_sb_puts(sb, digs + exp + 1);
      else
        ir_sb_putc(sb, '0');
    }
  } else {
    ir_sb_putc(sb, digs[0]);
    if (nd > 1) ir_sb_printf(sb, ".%s", digs + 1);
    ir_sb_printf(sb, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
  }
}

/* Python's repr of a str: single quotes unless the text holds a single
 * quote and no double one; backslash, the quote, \t \n \r and the other
 * control characters escaped (characters past ASCII are kept, as Python
 * keeps the printable ones). */
static void put_str_repr(ir_strbuf *sb, const char *s) {
  char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
  ir_sb_putc(sb, q);
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    if (*c == q || *c == '\\') {
      ir_sb_putc(sb, '\\');
      ir_sb_putc(sb, (char)*c);
    } else if (*c == '\t' || *c == '\n' || *c == '\r') {
      ir_sb_putc(sb, '\\');
      ir_sb_putc(sb, *c == '\t' ? 't' : *c == '\n' ? 'n' : 'r');
    } else if (*c < 0x20 || *c == 0x7f) {
      ir_sb_printf(sb, "\\x%02x", *c);
    } else {
      ir_sb_putc(sb, (char)*c);
    }
  }
  ir_sb_putc(sb, q);
}

bool fe_val_to_str(fe_lower *l, const fe_val *v, ir_strbuf *sb, bool repr) {
  switch (v->kind) {
  case FE_V_INT: ir_sb_printf(sb, "%lld", (long long)v->ival); return true;
  case FE_V_BOOL: ir_sb_puts(sb, v->ival ? "True" : "False"); return true;
  case FE_V_FLOAT: put_float(sb, v->fval); return true;
  case FE_V_NONE: ir_sb_puts(sb, "None"); return true;
  case FE_V_STR:
    if (repr)
      put_str_repr(sb, v->path);
    else
      ir_sb_puts(sb, v->path);
    return true;
  case FE_V_DTYPE: ir_sb_puts(sb, fe_type_str(l, v->ty, v->is_unsigned)); return true;
  case FE_V_TUPLE:
  case FE_V_LIST: {
    int n = v->kind == FE_V_TUPLE ? v->n : v->obj->n;
    const fe_val *items = v->kind == FE_V_TUPLE ? v->items : v->obj->items;
    ir_sb_putc(sb, v->kind == FE_V_TUPLE ? '(' : '[');
    for (int i = 0; i < n; i++) {
      if (i) ir_sb_puts(sb, ", ");
      if (!fe_val_to_str(l, &items[i], sb, true)) return false;
    }
    if (v->kind == FE_V_TUPLE && n == 1) ir_sb_putc(sb, ',');
    ir_sb_putc(sb, v->kind == FE_V_TUPLE ? ')' : ']');
    return true;
  }
  case FE_V_DICT: {
    ir_sb_putc(sb, '{');
    for (int i = 0; i < v->obj->n; i++) {
      if (i) ir_sb_puts(sb, ", ");
      if (!fe_val_to_str(l, &v->obj->keys[i], sb, true)) return false;
      ir_sb_puts(sb, ": ");
      if (!fe_val_to_str(l, &v->obj->items[i], sb, true)) return false;
    }
    ir_sb_putc(sb, '}');
    return true;
  }
  case FE_V_FUNC: ir_sb_printf(sb, "<function %s>", v->fn->name); return true;
  case FE_V_MODULE: ir_sb_printf(sb, "<module '%s'>", v->path ? v->path : "?"); return true;
  case FE_V_BUILTIN: ir_sb_printf(sb, "<built-in %s>", v->path); return true;
  default: return false;
  }
}

/* The largest width or precision a format spec may ask for. */
#define FORMAT_MAX 1000

/* Python's float format with a precision and no type: as 'g' with p
 * significant digits, but fixed notation only while the exponent is below
 * p - 1, and then with at least one digit past the point; x not NaN. */
static void none_float(char *body, size_t n, double x, int prec, const char *sign) {
  int p = prec > 0 ? prec : 1;
  if (isinf(x)) {
    snprintf(body, n, "%s", x < 0 ? "-inf" : sign[0] ? (sign[0] == '+' ? "+inf" : " inf") : "inf");
    return;
  }
  char e[FORMAT_MAX + 64];
  snprintf(e, sizeof e, "%.*e", p - 1, x); /* the exponent after rounding to p digits */
  const char *ep = strchr(e, 'e');
  int exp = ep ? atoi(ep + 1) : 0;
  char fmt[16];
  if (exp >= -4 && exp < p - 1) {
    snprintf(fmt, sizeof fmt, "%%%s.*f", sign);
    snprintf(body, n, fmt, p - 1 - exp, x);
    char *dot = strchr(body, '.');
    if (dot) {
      char *end = body + strlen(body);
      while (end > dot + 2 && end[-1] == '0')
        *--end = '\0';
    } else {
      strncat(body, ".0", n - strlen(body) - 1);
    }
    return;
  }
  snprintf(fmt, sizeof fmt, "%%%s.*e", sign);
  snprintf(body, n, fmt, p - 1, x);
  char *epos = strchr(body, 'e'), *dot = strchr(body, '.');
  if (epos && dot) { /* trailing zeros of the mantissa go, and the point with them */
    char *m = epos;
    while (m > dot + 1 && m[-1] == '0')
      m--;
    if (m == dot + 1) m = dot;
    memmove(m, epos, strlen(epos) + 1);
  }
}

/* Python's grouping of a formatted number in body: `group` every `every`
 * digits of the integer part (the digits after a sign: all of them for an
 * int, those before the point or exponent for a float), and with zero
 * padding to `zero_width` (0: none) zeros first, as Python adds them: until
 * the grouped text is that wide, so that it never starts with a separator. */
static void group_body(char *body, size_t cap, char group, int every, bool is_float,
                       int zero_width) {
  char out[FORMAT_MAX + 800];
  size_t sg = body[0] == '-' || body[0] == '+' || body[0] == ' ';
  size_t n = 0;
  while (body[sg + n] && (is_float ? (body[sg + n] >= '0' && body[sg + n] <= '9')
                                   : strchr("0123456789abcdefABCDEF", body[sg + n]) != NULL))
    n++;
  if (!n) return; /* inf, nan */
  const char *rest = body + sg + n;
  size_t total = n, need = zero_width > 0 ? (size_t)zero_width : 0;
  need = need > sg + strlen(rest) ? need - sg - strlen(rest) : 0;
  while (total + (total - 1) / (size_t)every < need)
    total++;
  size_t o = 0;
  memcpy(out, body, sg);
  o = sg;
  for (size_t i = 0; i < total && o + 2 < sizeof out; i++) {
    out[o++] = i < total - n ? '0' : body[sg + i - (total - n)];
    size_t left = total - 1 - i;
    if (left && left % (size_t)every == 0) out[o++] = group;
  }
  snprintf(out + o, sizeof out - o, "%s", rest);
  size_t len = strlen(out) < cap ? strlen(out) : cap - 1;
  memcpy(body, out, len);
  body[len] = '\0';
}

/* A format spec applied to a number or string: [[fill]align][sign][0][width]
 * [,_][.precision][type], through printf; anything else is an error. */
/* The first len bytes of s (NULL: none) padded with fill to width,
 * aligned '<' (left), '^' (centred, the odd fill on the right) or '>'. */
static void put_padded(ir_strbuf *sb, const char *s, size_t len, int64_t width, char fill,
                       char align) {
  int64_t pad = width > (int64_t)len ? width - (int64_t)len : 0;
  int64_t before = align == '<' ? 0 : align == '^' ? pad / 2 : pad;
  for (int64_t i = 0; i < before; i++)
    ir_sb_putc(sb, fill);
  ir_sb_append(sb, s ? s : "", len);
  for (int64_t i = before; i < pad; i++)
    ir_sb_putc(sb, fill);
}

static bool format_spec(fe_lower *l, const fe_val *v, const char *spec, ir_strbuf *sb, ir_loc loc) {
  char fill = ' ', align = 0, sign = 0, type = 0, group = 0;
  int width = 0, prec = -1;
  bool own_fill = false, zero_align = false; /* '=' that zero padding chose */
  const char *p = spec;
  if (p[0] && strchr("<>^=", p[1]) && p[1])
    fill = p[0], align = p[1], p += 2, own_fill = true;
  else if (strchr("<>^=", *p) && *p)
    align = *p++;
  if (*p && strchr("+- ", *p)) sign = *p++;
  if (*p == '0') { /* zero padding, unless the spec names its own fill */
    if (!own_fill) fill = '0', zero_align = !align, align = align ? align : '=';
    p++;
  }
  while (*p >= '0' && *p <= '9' && width <= FORMAT_MAX)
    width = width * 10 + (*p++ - '0');
  if (*p == ',' || *p == '_') group = *p++;
  if (*p == '.') {
    prec = 0;
    for (p++; *p >= '0' && *p <= '9' && prec <= FORMAT_MAX;)
      prec = prec * 10 + (*p++ - '0');
  }
  if (width > FORMAT_MAX || prec > FORMAT_MAX) {
    fe_error(l, loc, "format spec '%s': width and precision go up to %d", spec, FORMAT_MAX);
    return false;
  }
  if (*p) type = *p++;
  if (*p) {
    fe_error(l, loc, "unsupported format spec '%s'", spec);
    return false;
  }
  char body[FORMAT_MAX + 400] = "";              /* %f of any double at the largest precision */
  bool num = fe_is_const(v), float_body = false; /* body holds a float's digits */
  if (!num && v->kind != FE_V_STR && *spec) {    /* None, tuples: object.__format__ */
    fe_error(l, loc, "unsupported format string passed to %s.__format__",
             v->kind == FE_V_NONE ? "NoneType" : fe_val_type_str(l, v));
    return false;
  }
  if (v->kind == FE_V_STR && (sign || group || (align == '=' && !zero_align))) {
    fe_error(l, loc, "%s not allowed in string format specifier",
             sign    ? "Sign"
             : group ? "Grouping"
                     : "'=' alignment");
    return false;
  }
  if (num && v->kind != FE_V_FLOAT &&
      (type == 's' || (prec >= 0 && (!type || strchr("dxXob", type))))) {
    if (type == 's')
      fe_error(l, loc, "Unknown format code 's' for object of type 'int'");
    else
      fe_error(l, loc, "Precision not allowed in integer format specifier");
    return false;
  }
  if (num && (type == 'f' || type == 'e' || type == 'g' || type == '%' || type == 'F' ||
              type == 'E' || type == 'G' || (v->kind == FE_V_FLOAT && prec >= 0 && !type))) {
    double x = fe_num(v);
    float_body = true;
    char t = type == '%' ? 'f' : type ? type : 'g';
    if (type == '%') x *= 100;
    char fmt[16];
    const char *sg = sign == '+' ? "+" : sign == ' ' ? " " : "";
    snprintf(fmt, sizeof fmt, "%%%s.*%c", sg, t);
    if (isnan(x)) /* Python drops NaN's sign */
      snprintf(body, sizeof body, "%s%s", sg, t >= 'A' && t <= 'Z' ? "NAN" : "nan");
    else if (!type) /* a precision and no type: 'g' that keeps a digit past the point */
      none_float(body, sizeof body, x, prec, sg);
    else
      snprintf(body, sizeof body, fmt, prec < 0 ? 6 : prec, x);
    if (type == '%') strncat(body, "%", sizeof body - strlen(body) - 1);
  } else if (num && v->kind == FE_V_FLOAT && type) { /* d, x, X, o, b, c, ... */
    fe_error(l, loc, "unknown format code '%c' for object of type 'float'", type);
    return false;
  } else if (num && v->kind == FE_V_FLOAT) {
    ir_strbuf t;
    ir_sb_init(&t);
    float_body = true;
    put_float(&t, v->fval);
    bool neg = t.data && t.data[0] == '-';
    snprintf(body, sizeof body, "%s%s",
             !neg && (sign == '+' || sign == ' ') ? (sign == '+' ? "+" : " ") : "",
             t.data ? t.data : "");
    ir_sb_free(&t);
  } else if (num && v->kind == FE_V_BOOL && !type && !*spec) { /* a spec formats it as an int */
    snprintf(body, sizeof body, "%s", v->ival ? "True" : "False");
  } else if (num &&
             (type == 'd' || type == 'x' || type == 'X' || type == 'o' || type == 'b' || !type)) {
    /* Python's: a sign, then the magnitude's digits (-255 in hex is -ff) */
    long long x = v->ival;
    unsigned long long u = x < 0 ? 0ull - (unsigned long long)x : (unsigned long long)x;
    unsigned base = type == 'x' || type == 'X' ? 16 : type == 'o' ? 8 : type == 'b' ? 2 : 10;
    const char *digits = type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    char rev[72];
    int n = 0;
    do
      rev[n++] = digits[u % base], u /= base;
    while (u);
    size_t k = 0;
    if (x < 0)
      body[k++] = '-';
    else if (sign == '+' || sign == ' ')
      body[k++] = sign;
    int every = base == 10 ? 3 : 4; /* Python groups decimal by 3, the others ('_') by 4 */
    if (group == ',' && base != 10) {
      fe_error(l, loc, "cannot use ',' with '%c'", type);
      return false;
    }
    while (n)
      body[k++] = rev[--n];
    body[k] = '\0';
    if (group) group_body(body, sizeof body, group, every, false, zero_align ? width : 0);
  } else if (!type || type == 's') {
    ir_strbuf t;
    ir_sb_init(&t);
    if (!fe_val_to_str(l, v, &t, false)) {
      ir_sb_free(&t);
      fe_error(l, loc, "cannot format '%s' at compile time", fe_val_type_str(l, v));
      return false;
    }
    /* any length (strings go up to FE_MAX_STR_BYTES): padded straight into sb */
    size_t len = t.data ? strlen(t.data) : 0;
    if (prec >= 0 && (size_t)prec < len) len = (size_t)prec;
    /* '05' pads a str on the right */
    put_padded(sb, t.data, len, width, fill, align && !zero_align ? align : '<');
    ir_sb_free(&t);
    return true;
  } else {
    fe_error(l, loc, "unsupported format spec '%s' for '%s'", spec, fe_val_type_str(l, v));
    return false;
  }
  if (group && float_body) group_body(body, sizeof body, group, 3, true, zero_align ? width : 0);
  int pad = width - (int)strlen(body);
  if (!align) align = '>';
  int left = pad <= 0 ? 0 : align == '<' ? 0 : align == '^' ? pad / 2 : pad;
  int right = pad <= 0 ? 0 : pad - left;
  if (align == '=' && (body[0] == '-' || body[0] == '+' || (body[0] == ' ' && sign == ' '))) {
    ir_sb_putc(sb, body[0]);
    for (int i = 0; i < left; i++)
      ir_sb_putc(sb, fill);
    ir_sb_puts(sb, body + 1);
    return true;
  }
  for (int i = 0; i < left; i++)
    ir_sb_putc(sb, fill);
  ir_sb_puts(sb, body);
  for (int i = 0; i < right; i++)
    ir_sb_putc(sb, fill);
  return true;
}

/* Python's printf-style `fmt % args` (C's flags, width and precision on
 * numbers; %s %r %a through str/repr, truncated to the precision; %c); *k
 * counts the arguments used. False after an error. */
bool fe_percent_format(fe_lower *l, const char *fmt, const fe_val *args, int nargs, int *k,
                       ir_strbuf *sb, ir_loc loc) {
  for (const char *p = fmt; *p; p++) {
    if (*p != '%') {
      ir_sb_putc(sb, *p);
      continue;
    }
    const char *q = p + 1;
    char flags[8];
    int nf = 0, width = -1, prec = -1;
    while (*q && strchr("-+ 0#", *q) && nf < 7)
      flags[nf++] = *q++;
    flags[nf] = '\0';
    for (; *q >= '0' && *q <= '9' && width <= FORMAT_MAX; q++)
      width = (width < 0 ? 0 : width * 10) + (*q - '0');
    if (*q == '.')
      for (prec = 0, q++; *q >= '0' && *q <= '9' && prec <= FORMAT_MAX; q++)
        prec = prec * 10 + (*q - '0');
    if (width > FORMAT_MAX || prec > FORMAT_MAX) {
      fe_error(l, loc, "'%%' format: width and precision go up to %d", FORMAT_MAX);
      return false;
    }
    char c = *q;
    if (c == '%') {
      ir_sb_putc(sb, '%');
      p = q;
      continue;
    }
    if (!c || !strchr("diouxXeEfFgGcrsa", c)) {
      fe_error(l, loc, c ? "unsupported format character '%c'" : "incomplete format", c);
      return false;
    }
    if (*k >= nargs) {
      fe_error(l, loc, "not enough arguments for format string");
      return false;
    }
    const fe_val *v = &args[(*k)++];
    bool left = strchr(flags, '-') != NULL;
    char text[FORMAT_MAX + 400];
    if (c == 's' || c == 'r' || c == 'a' || c == 'c') {
      ir_strbuf t;
      ir_sb_init(&t);
      if (c == 'c' && (v->kind == FE_V_INT || v->kind == FE_V_BOOL) && v->ival >= 0 &&
          v->ival < 128) {
        ir_sb_putc(&t, (char)v->ival);
      } else if (c == 'c' && !(v->kind == FE_V_STR && strlen(v->path) == 1)) {
        ir_sb_free(&t);
        fe_error(l, loc, "%%c requires an int in range(128) or a single character");
        return false;
      } else if (!fe_val_to_str(l, v, &t, c == 'r' || c == 'a')) {
        ir_sb_free(&t);
        fe_error(l, loc, "cannot format '%s' at compile time", fe_val_type_str(l, v));
        return false;
      }
      size_t len = t.data ? strlen(t.data) : 0;
      if (prec >= 0 && (size_t)prec < len && c != 'c') len = (size_t)prec;
      put_padded(sb, t.data, len, width, ' ', left ? '<' : '>');
      ir_sb_free(&t);
      p = q;
      continue;
    }
    if (!fe_is_const(v) || (v->kind == FE_V_FLOAT && strchr("oxXc", c))) {
      fe_error(l, loc, "%%%c format: a real number is required, not %s", c, fe_val_type_str(l, v));
      return false;
    }
    char cf[48];
    bool is_int = strchr("diuoxX", c) != NULL;
    if (c == 'o' && strchr(flags, '#')) { /* Python's prefix is 0o, C's 0 */
      fe_error(l, loc, "unsupported: '%%#o' at compile time");
      return false;
    }
    /* a negative width (none given) pads to 1, which no number needs, and a
     * negative precision counts as none (C11 7.21.6.1) */
    snprintf(cf, sizeof cf, "%%%s*.*%s", flags, is_int ? "ll" : "");
    size_t n = strlen(cf);
    cf[n++] = c == 'i' || c == 'u' ? 'd' : c;
    cf[n] = '\0';
    long long iv = 0;
    double fv = fe_num(v);
    if (is_int) {
      fe_val t = v->kind == FE_V_FLOAT ? fe_float_to_int(l, v->fval, loc, "%d") : *v;
      if (t.kind == FE_V_ERROR) return false;
      iv = t.ival;
    }
    if (!is_int && isnan(fv)) fv = fabs(fv); /* Python drops NaN's sign */
    if (is_int && iv < 0 && c != 'd' && c != 'i' && c != 'u') {
      /* Python writes a negative number in base 8 or 16 as a sign and the
       * magnitude (C would print the two's complement): C's flags on the
       * magnitude, then the sign where C would put it */
      char mag[FORMAT_MAX + 80], cf2[48];
      bool zero = strchr(flags, '0') && !left && prec < 0;
      snprintf(cf2, sizeof cf2, "%%%s.*ll%c", strchr(flags, '#') ? "#" : "", c);
      snprintf(mag, sizeof mag, cf2, prec, 0ull - (unsigned long long)iv);
      int len = (int)strlen(mag) + 1, pad = width > len ? width - len : 0;
      size_t o = 0;
      for (int i = 0; !left && !zero && i < pad; i++)
        text[o++] = ' ';
      text[o++] = '-';
      const char *m = mag;
      if (zero && (m[0] == '0' && (m[1] == 'x' || m[1] == 'X'))) { /* zeros after the prefix */
        text[o++] = *m++;
        text[o++] = *m++;
      }
      for (int i = 0; zero && i < pad; i++)
        text[o++] = '0';
      o += (size_t)snprintf(text + o, sizeof text - o, "%s", m);
      for (int i = 0; left && i < pad; i++)
        text[o++] = ' ';
      text[o] = '\0';
      ir_sb_puts(sb, text);
      p = q;
      continue;
    }
    is_int ? snprintf(text, sizeof text, cf, width, prec, iv)
           : snprintf(text, sizeof text, cf, width, prec, fv);
    ir_sb_puts(sb, text);
    p = q;
  }
  return true;
}

bool fe_format_value(fe_lower *l, const fe_val *v, int conv, const char *spec, ir_strbuf *sb,
                     ir_loc loc) {
  if (conv != 'r' && conv != 's') return format_spec(l, v, spec, sb, loc);
  ir_strbuf t; /* !s / !r: the text, then the spec on it */
  ir_sb_init(&t);
  bool ok = fe_val_to_str(l, v, &t, conv == 'r');
  fe_val s = fe_val_error();
  s.kind = FE_V_STR;
  s.path = ir_intern_cstr(l->ctx, t.data ? t.data : "");
  ir_sb_free(&t);
  if (ok) return format_spec(l, &s, spec, sb, loc);
  fe_error(l, loc, "cannot format '%s' at compile time", fe_val_type_str(l, v));
  return false;
}

/* f"...": pieces concatenated, fields formatted at compile time (as Triton
 * does for constexprs in static_assert / static_print messages). */
fe_val fe_lower_fstring(fe_lower *l, const fe_expr *e) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  bool ok = true;
  for (int i = 0; i < e->n && ok; i++) {
    const fe_expr *piece = e->items[i];
    if (piece->kind == FE_EX_STR) {
      ir_sb_append(&sb, piece->str, piece->slen);
      continue;
    }
    fe_val v = fe_lower_expr(l, piece->a);
    if (v.kind == FE_V_ERROR) {
      ok = false;
      break;
    }
    const char *spec = "";
    if (piece->b) {
      fe_val s = fe_lower_fstring(l, piece->b);
      if (s.kind != FE_V_STR) {
        ok = false;
        break;
      }
      spec = s.path;
    }
    ok = fe_format_value(l, &v, piece->ival == 'a' ? 'r' : (int)piece->ival, spec, &sb, piece->loc);
  }
  fe_val r = fe_val_error();
  if (ok) {
    r.kind = FE_V_STR;
    r.path = ir_intern(l->ctx, sb.data ? sb.data : "", sb.len);
  }
  ir_sb_free(&sb);
  return r;
}
