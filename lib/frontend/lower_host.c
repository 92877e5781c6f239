// SPDX-License-Identifier: MIT
/* lower_host.c - host Python at compile time: the values decorator arguments
 * and @triton.constexpr_function helpers compute with (lists, dicts,
 * strings, tuples), comprehensions, f-strings, and the statements of host
 * functions (assignments, if, for over compile-time iterables, return).
 *
 * Nothing here builds IR: host frames run with no insertion block, so a
 * runtime value can never appear. Lists and dicts have reference semantics
 * (fe_obj), as in Python. Loops are bounded so that a runaway helper is an
 * error, not a hang. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/lower_impl.h"

#define MAX_HOST_ITERATIONS 100000

/* ---- lists and dicts ---------------------------------------------------------------- */

static fe_obj *new_obj(fe_lower *l, int cap, bool with_keys) {
  fe_obj *o = ir_arena_alloc(l->arena, sizeof *o);
  if (!o) IR_UNREACHABLE("out of memory in the lowering");
  o->cap = cap < 4 ? 4 : cap;
  o->items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)o->cap);
  o->keys = with_keys ? ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)o->cap) : NULL;
  if (!o->items || (with_keys && !o->keys)) IR_UNREACHABLE("out of memory in the lowering");
  return o;
}

static void obj_reserve(fe_lower *l, fe_obj *o, int n) {
  if (n <= o->cap) return;
  int ncap = o->cap * 2 > n ? o->cap * 2 : n;
  fe_val *ni = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)ncap);
  if (!ni) IR_UNREACHABLE("out of memory in the lowering");
  memcpy(ni, o->items, sizeof(fe_val) * (size_t)o->n);
  o->items = ni;
  if (o->keys) {
    fe_val *nk = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)ncap);
    if (!nk) IR_UNREACHABLE("out of memory in the lowering");
    memcpy(nk, o->keys, sizeof(fe_val) * (size_t)o->n);
    o->keys = nk;
  }
  o->cap = ncap;
}

fe_val fe_new_list(fe_lower *l, int n, const fe_val *items) {
  fe_val v = fe_val_error();
  v.kind = FE_V_LIST;
  v.obj = new_obj(l, n, false);
  if (n) memcpy(v.obj->items, items, sizeof(fe_val) * (size_t)n);
  v.obj->n = n;
  return v;
}

fe_val fe_new_dict(fe_lower *l) {
  fe_val v = fe_val_error();
  v.kind = FE_V_DICT;
  v.obj = new_obj(l, 4, true);
  return v;
}

void fe_list_append(fe_lower *l, fe_val *list, fe_val x) {
  obj_reserve(l, list->obj, list->obj->n + 1);
  list->obj->items[list->obj->n++] = x;
}

int fe_py_equal(const fe_val *a, const fe_val *b) {
  bool na = fe_is_const(a), nb = fe_is_const(b);
  if (na && nb) return fe_num_cmp(a, b) == 0;
  if (a->kind != b->kind) {
    bool seq_a = a->kind == FE_V_TUPLE || a->kind == FE_V_LIST;
    bool seq_b = b->kind == FE_V_TUPLE || b->kind == FE_V_LIST;
    if (seq_a && seq_b) return 0; /* (1,) != [1] in Python */
    if (a->kind == FE_V_TENSOR || b->kind == FE_V_TENSOR) return -1;
    return 0;
  }
  switch (a->kind) {
  case FE_V_NONE: return 1;
  case FE_V_STR: return strcmp(a->path, b->path) == 0;
  case FE_V_DTYPE: return a->ty == b->ty && a->is_unsigned == b->is_unsigned;
  case FE_V_TUPLE:
  case FE_V_LIST: {
    int n = a->kind == FE_V_TUPLE ? a->n : a->obj->n, m = b->kind == FE_V_TUPLE ? b->n : b->obj->n;
    const fe_val *x = a->kind == FE_V_TUPLE ? a->items : a->obj->items;
    const fe_val *y = b->kind == FE_V_TUPLE ? b->items : b->obj->items;
    if (n != m) return 0;
    for (int i = 0; i < n; i++) {
      int e = fe_py_equal(&x[i], &y[i]);
      if (e != 1) return e;
    }
    return 1;
  }
  case FE_V_BUILTIN:
  case FE_V_MODULE: return a->path == b->path && a->unit == b->unit;
  case FE_V_FUNC: return a->fn == b->fn;
  case FE_V_DICT:
  case FE_V_CONFIG: return a->obj == b->obj;
  default: return -1;
  }
}

const fe_val *fe_dict_get(const fe_val *d, const fe_val *key) {
  for (int i = 0; i < d->obj->n; i++)
    if (fe_py_equal(&d->obj->keys[i], key) == 1) return &d->obj->items[i];
  return NULL;
}

void fe_dict_set(fe_lower *l, fe_val *d, fe_val key, fe_val x) {
  fe_val *cur = (fe_val *)fe_dict_get(d, &key);
  if (cur) {
    *cur = x;
    return;
  }
  obj_reserve(l, d->obj, d->obj->n + 1);
  d->obj->keys[d->obj->n] = key;
  d->obj->items[d->obj->n++] = x;
}

/* ---- iteration ------------------------------------------------------------------------ */

bool fe_iterate(fe_lower *l, fe_val v, ir_loc loc, fe_val **items, int *n) {
  switch (v.kind) {
  case FE_V_TUPLE:
    *items = v.items;
    *n = v.n;
    return true;
  case FE_V_LIST:
  case FE_V_DICT: { /* a snapshot, so that the body may mutate v */
    *n = v.obj->n;
    *items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(*n + 1));
    memcpy(*items, v.kind == FE_V_DICT ? v.obj->keys : v.obj->items, sizeof(fe_val) * (size_t)*n);
    return true;
  }
  case FE_V_STR: {
    size_t len = strlen(v.path);
    *n = (int)len;
    *items = ir_arena_alloc(l->arena, sizeof(fe_val) * (len + 1));
    for (size_t i = 0; i < len; i++) {
      (*items)[i] = fe_val_error();
      (*items)[i].kind = FE_V_STR;
      (*items)[i].path = ir_intern(l->ctx, v.path + i, 1);
    }
    return true;
  }
  case FE_V_ERROR: return false;
  default:
    fe_error(l, loc, "'%s' is not iterable at compile time", fe_val_type_str(l, &v));
    return false;
  }
}

/* ---- assignment targets ------------------------------------------------------------------ */

/* Binds v to a host assignment target: names, tuples / lists (with one
 * starred item), subscripts of lists and dicts. */
static void host_assign(fe_lower *l, const fe_expr *t, fe_val v) {
  switch (t->kind) {
  case FE_EX_NAME: fe_scope_set(&l->frame->scope, t->name, v); return;
  case FE_EX_TUPLE:
  case FE_EX_LIST: {
    fe_val *items;
    int n;
    if (!fe_iterate(l, v, t->loc, &items, &n)) return;
    int star = -1;
    for (int i = 0; i < t->n; i++)
      if (t->items[i]->kind == FE_EX_STARRED) star = i;
    if ((star < 0 && n != t->n) || (star >= 0 && n < t->n - 1)) {
      fe_error(l, t->loc, "cannot unpack %d values into %d targets", n, t->n);
      return;
    }
    for (int i = 0, k = 0; i < t->n; i++) {
      if (i == star) {
        int take = n - (t->n - 1);
        host_assign(l, t->items[i]->a, fe_new_list(l, take, items + k));
        k += take;
      } else {
        host_assign(l, t->items[i], items[k++]);
      }
    }
    return;
  }
  case FE_EX_SUBSCRIPT: {
    fe_val base = fe_lower_expr(l, t->a);
    fe_val key = fe_lower_expr(l, t->b);
    if (base.kind == FE_V_ERROR || key.kind == FE_V_ERROR) return;
    if (base.kind == FE_V_DICT) {
      fe_dict_set(l, &base, key, v);
      return;
    }
    if (base.kind == FE_V_LIST && key.kind == FE_V_INT) {
      int64_t i = key.ival < 0 ? key.ival + base.obj->n : key.ival;
      if (i < 0 || i >= base.obj->n) {
        fe_error(l, t->b->loc, "list assignment index out of range");
        return;
      }
      base.obj->items[i] = v;
      return;
    }
    fe_error(l, t->loc, "'%s' does not support item assignment", fe_val_type_str(l, &base));
    return;
  }
  default: fe_error(l, t->loc, "unsupported assignment target in host code"); return;
  }
}

/* ---- comprehensions ------------------------------------------------------------------------ */

/* Clause k of comprehension e, then the element: appends to `out`. */
static bool comp_clause(fe_lower *l, const fe_expr *e, int k, fe_val *out, int *count) {
  if (k == e->n) {
    if (++*count > MAX_HOST_ITERATIONS) {
      fe_error(l, e->loc, "comprehension produces more than %d items", MAX_HOST_ITERATIONS);
      return false;
    }
    fe_val x = fe_lower_expr(l, e->a);
    if (x.kind == FE_V_ERROR) return false;
    if (e->ival == FE_COMP_DICT) {
      fe_val y = fe_lower_expr(l, e->b);
      if (y.kind == FE_V_ERROR) return false;
      fe_dict_set(l, out, x, y);
    } else if (e->ival == FE_COMP_SET) {
      for (int i = 0; i < out->obj->n; i++)
        if (fe_py_equal(&out->obj->items[i], &x) == 1) return true;
      fe_list_append(l, out, x);
    } else {
      fe_list_append(l, out, x);
    }
    return true;
  }
  const fe_expr *c = e->items[k];
  fe_val it = fe_lower_expr(l, c->b);
  fe_val *items;
  int n;
  if (!fe_iterate(l, it, c->b->loc, &items, &n)) return false;
  for (int i = 0; i < n; i++) {
    host_assign(l, c->a, items[i]);
    bool keep = true;
    for (int j = 0; j < c->n && keep; j++) {
      fe_val cond = fe_lower_expr(l, c->items[j]);
      if (cond.kind == FE_V_ERROR) return false;
      int t = fe_const_truth(&cond);
      if (t < 0) {
        fe_error(l, c->items[j]->loc, "comprehension condition must be a compile-time value");
        return false;
      }
      keep = t > 0;
    }
    if (keep && !comp_clause(l, e, k + 1, out, count)) return false;
  }
  return true;
}

/* [x for ...], {x for ...}, {k: v for ...}, (x for ...): evaluated at
 * compile time over compile-time iterables; the loop variables do not leak,
 * as in Python 3. A generator becomes a tuple. */
fe_val fe_lower_comp(fe_lower *l, const fe_expr *e) {
  if (!l->frame) return fe_error(l, e->loc, "unsupported: comprehension here");
  fe_val out = e->ival == FE_COMP_DICT ? fe_new_dict(l) : fe_new_list(l, 0, NULL);
  fe_scope saved;
  fe_scope_copy(&saved, &l->frame->scope);
  int count = 0;
  bool ok = comp_clause(l, e, 0, &out, &count);
  fe_scope_free(&l->frame->scope);
  l->frame->scope = saved;
  if (!ok) return fe_val_error();
  if (e->ival == FE_COMP_GEN || !fe_in_host(l)) { /* kernels see tuples */
    if (out.kind == FE_V_DICT) return out;
    fe_val t = fe_val_error();
    t.kind = FE_V_TUPLE;
    t.n = out.obj->n;
    t.items = out.obj->items;
    return t;
  }
  return out;
}

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
    double x = v->kind == FE_V_FLOAT ? v->fval : (double)v->ival;
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
    int spad = width > (int64_t)len ? width - (int)len : 0;
    char a = align && !zero_align ? align : '<'; /* '05' pads a str on the right */
    int sl = a == '<' ? 0 : a == '^' ? spad / 2 : spad;
    for (int i = 0; i < sl; i++)
      ir_sb_putc(sb, fill);
    ir_sb_append(sb, t.data ? t.data : "", len);
    for (int i = 0; i < spad - sl; i++)
      ir_sb_putc(sb, fill);
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
static bool percent_format(fe_lower *l, const char *fmt, const fe_val *args, int nargs, int *k,
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
    for (; *q >= '0' && *q <= '9'; q++)
      width = (width < 0 ? 0 : width * 10) + (*q - '0');
    if (*q == '.')
      for (prec = 0, q++; *q >= '0' && *q <= '9'; q++)
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
      int pad = width > (int)len ? width - (int)len : 0;
      for (int i = 0; !left && i < pad; i++)
        ir_sb_putc(sb, ' ');
      ir_sb_append(sb, t.data ? t.data : "", len);
      for (int i = 0; left && i < pad; i++)
        ir_sb_putc(sb, ' ');
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
    snprintf(cf, sizeof cf, "%%%s%s%s%s", flags, width >= 0 ? "*" : "", prec >= 0 ? ".*" : "",
             is_int ? "ll" : "");
    size_t n = strlen(cf);
    cf[n++] = c == 'i' || c == 'u' ? 'd' : c;
    cf[n] = '\0';
    long long iv = 0;
    double fv = v->kind == FE_V_FLOAT ? v->fval : (double)v->ival;
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
      snprintf(cf2, sizeof cf2, "%%%s%sll%c", strchr(flags, '#') ? "#" : "", prec >= 0 ? ".*" : "",
               c);
      unsigned long long um = 0ull - (unsigned long long)iv;
      if (prec >= 0)
        snprintf(mag, sizeof mag, cf2, prec, um);
      else
        snprintf(mag, sizeof mag, cf2, um);
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
    if (width >= 0 && prec >= 0)
      is_int ? snprintf(text, sizeof text, cf, width, prec, iv)
             : snprintf(text, sizeof text, cf, width, prec, fv);
    else if (width >= 0)
      is_int ? snprintf(text, sizeof text, cf, width, iv)
             : snprintf(text, sizeof text, cf, width, fv);
    else if (prec >= 0)
      is_int ? snprintf(text, sizeof text, cf, prec, iv)
             : snprintf(text, sizeof text, cf, prec, fv);
    else
      is_int ? snprintf(text, sizeof text, cf, iv) : snprintf(text, sizeof text, cf, fv);
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

/* ---- operators on host values -------------------------------------------------------------- */

static int seq_len(const fe_val *v) { return v->kind == FE_V_TUPLE ? v->n : v->obj->n; }
static const fe_val *seq_items(const fe_val *v) {
  return v->kind == FE_V_TUPLE ? v->items : v->obj->items;
}
static bool is_seq(const fe_val *v) { return v->kind == FE_V_TUPLE || v->kind == FE_V_LIST; }

static fe_val str_of(fe_lower *l, const char *s, size_t n) {
  fe_val v = fe_val_str(l, "");
  v.path = ir_intern(l->ctx, s, n);
  return v;
}

fe_val fe_host_binary(fe_lower *l, fe_op op, fe_val a, fe_val b, ir_loc loc, bool *handled) {
  *handled = true;
  if (op == FE_OP_IN || op == FE_OP_NOTIN) {
    int found = 0;
    if (b.kind == FE_V_STR && a.kind == FE_V_STR)
      found = strstr(b.path, a.path) != NULL;
    else if (b.kind == FE_V_DICT)
      found = fe_dict_get(&b, &a) != NULL;
    else if (is_seq(&b)) {
      for (int i = 0; i < seq_len(&b) && !found; i++) {
        int e = fe_py_equal(&seq_items(&b)[i], &a);
        if (e < 0)
          return fe_error(l, loc, "'in' needs compile-time values, found '%s'",
                          fe_val_type_str(l, &a));
        found = e;
      }
    } else {
      return fe_error(l, loc, "argument of type '%s' is not a compile-time container",
                      fe_val_type_str(l, &b));
    }
    return fe_val_bool(op == FE_OP_IN ? found : !found);
  }
  if (op == FE_OP_EQ || op == FE_OP_NE) {
    int e = fe_py_equal(&a, &b);
    if (e >= 0) return fe_val_bool(op == FE_OP_EQ ? e : !e);
  }
  if ((op == FE_OP_LT || op == FE_OP_LE || op == FE_OP_GT || op == FE_OP_GE) && is_seq(&a) &&
      is_seq(&b)) { /* lexicographic, as Python: (3, 12) >= (3, 8) */
    int n = seq_len(&a), m = seq_len(&b), i = 0;
    const fe_val *x = seq_items(&a), *y = seq_items(&b);
    while (i < n && i < m && fe_py_equal(&x[i], &y[i]) == 1)
      i++;
    if (i < n && i < m) return fe_binary(l, op, x[i], y[i], loc);
    int c = (n > m) - (n < m);
    return fe_val_bool(op == FE_OP_LT   ? c < 0
                       : op == FE_OP_LE ? c <= 0
                       : op == FE_OP_GT ? c > 0
                                        : c >= 0);
  }
  if (a.kind == FE_V_STR && b.kind == FE_V_STR) {
    int c = strcmp(a.path, b.path);
    switch (op) {
    case FE_OP_LT: return fe_val_bool(c < 0);
    case FE_OP_LE: return fe_val_bool(c <= 0);
    case FE_OP_GT: return fe_val_bool(c > 0);
    case FE_OP_GE: return fe_val_bool(c >= 0);
    default: break;
    }
    if (op == FE_OP_ADD) {
      if (strlen(a.path) + strlen(b.path) > FE_MAX_STR_BYTES)
        return fe_error(l, loc, "string longer than %zu bytes", FE_MAX_STR_BYTES);
      ir_strbuf sb;
      ir_sb_init(&sb);
      ir_sb_puts(&sb, a.path);
      ir_sb_puts(&sb, b.path);
      fe_val r = str_of(l, sb.data ? sb.data : "", sb.len);
      ir_sb_free(&sb);
      return r;
    }
  }
  if (op == FE_OP_ADD && is_seq(&a) && is_seq(&b)) {
    int n = seq_len(&a), m = seq_len(&b);
    fe_val *items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(n + m + 1));
    memcpy(items, seq_items(&a), sizeof(fe_val) * (size_t)n);
    memcpy(items + n, seq_items(&b), sizeof(fe_val) * (size_t)m);
    if (a.kind == FE_V_LIST) return fe_new_list(l, n + m, items);
    fe_val t = fe_val_error();
    t.kind = FE_V_TUPLE;
    t.n = n + m;
    t.items = items;
    return t;
  }
  if (op == FE_OP_MUL && (is_seq(&a) || a.kind == FE_V_STR) &&
      (b.kind == FE_V_INT || b.kind == FE_V_BOOL)) {
    int64_t k = b.ival < 0 ? 0 : b.ival;
    if (a.kind == FE_V_STR) {
      size_t len = strlen(a.path);
      if (!len) k = 0; /* '' * 2**40 is '' at once */
      if (len && (uint64_t)k > FE_MAX_STR_BYTES / len)
        return fe_error(l, loc, "string longer than %zu bytes", FE_MAX_STR_BYTES);
      ir_strbuf sb;
      ir_sb_init(&sb);
      for (int64_t i = 0; i < k; i++)
        ir_sb_puts(&sb, a.path);
      fe_val r = str_of(l, sb.data ? sb.data : "", sb.len);
      ir_sb_free(&sb);
      return r;
    }
    int n = seq_len(&a);
    if (!n) k = 0; /* () * 2**40 is () */
    if (n && k > MAX_HOST_ITERATIONS / n) return fe_error(l, loc, "sequence too long");
    fe_val *items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(k * n + 1));
    for (int64_t i = 0; i < k; i++)
      memcpy(items + i * n, seq_items(&a), sizeof(fe_val) * (size_t)n);
    if (a.kind == FE_V_LIST) return fe_new_list(l, (int)(k * n), items);
    fe_val t = fe_val_error();
    t.kind = FE_V_TUPLE;
    t.n = (int)(k * n);
    t.items = items;
    return t;
  }
  if (op == FE_OP_MUL && (a.kind == FE_V_INT || a.kind == FE_V_BOOL) &&
      (is_seq(&b) || b.kind == FE_V_STR))
    return fe_host_binary(l, op, b, a, loc, handled);
  if (op == FE_OP_MOD && a.kind == FE_V_STR) { /* "%5.2f" % x: printf-style, as Python */
    ir_strbuf sb;
    ir_sb_init(&sb);
    const fe_val *args = b.kind == FE_V_TUPLE ? b.items : &b;
    int nargs = b.kind == FE_V_TUPLE ? b.n : 1, k = 0;
    bool ok = percent_format(l, a.path, args, nargs, &k, &sb, loc);
    if (ok && k < nargs) {
      fe_error(l, loc, "not all arguments converted during string formatting");
      ok = false;
    }
    fe_val r = ok ? str_of(l, sb.data ? sb.data : "", sb.len) : fe_val_error();
    ir_sb_free(&sb);
    return r;
  }

  *handled = false;
  return fe_val_error();
}

/* ---- statements ------------------------------------------------------------------------- */

static void host_stmts(fe_lower *l, const fe_body *b);

/* One statement of a host function. */
static void host_stmt(fe_lower *l, const fe_stmt *s) {
  fe_frame *f = l->frame;
  switch (s->kind) {
  case FE_ST_EXPR: (void)fe_lower_expr(l, s->value); return;
  case FE_ST_ASSIGN: {
    fe_val v = fe_lower_expr(l, s->value);
    if (v.kind == FE_V_ERROR) return;
    for (int i = 0; i < s->ntargets; i++)
      host_assign(l, s->targets[i], v);
    return;
  }
  case FE_ST_ANNASSIGN:
    if (s->value) {
      fe_val v = fe_lower_expr(l, s->value);
      if (v.kind != FE_V_ERROR) host_assign(l, s->targets[0], v);
    }
    return;
  case FE_ST_AUGASSIGN: {
    const fe_expr *t = s->targets[0];
    fe_val cur = fe_lower_expr(l, t);
    fe_val rhs = fe_lower_expr(l, s->value);
    if (cur.kind == FE_V_ERROR || rhs.kind == FE_V_ERROR) return;
    if (cur.kind == FE_V_LIST && s->op == FE_OP_ADD) { /* list += iterable extends in place */
      fe_val *items;
      int n;
      if (!fe_iterate(l, rhs, s->value->loc, &items, &n)) return;
      for (int i = 0; i < n; i++)
        fe_list_append(l, &cur, items[i]);
      return;
    }
    fe_val v = fe_binary(l, s->op, cur, rhs, s->loc);
    if (v.kind != FE_V_ERROR) host_assign(l, t, v);
    return;
  }
  case FE_ST_IF: {
    fe_val c = fe_lower_expr(l, s->cond);
    if (c.kind == FE_V_ERROR) return;
    int t = fe_const_truth(&c);
    if (t < 0) {
      fe_error(l, s->cond->loc, "condition must be a compile-time value in host code");
      return;
    }
    host_stmts(l, t ? &s->body : &s->orelse);
    return;
  }
  case FE_ST_FOR: {
    fe_val it = fe_lower_expr(l, s->iter);
    fe_val *items;
    int n;
    if (!fe_iterate(l, it, s->iter->loc, &items, &n)) return;
    for (int i = 0; i < n && !f->returned; i++) {
      host_assign(l, s->target, items[i]);
      host_stmts(l, &s->body);
      fe_jump j = f->jump;
      f->jump = FE_JUMP_NONE;
      if (j == FE_JUMP_BREAK) break;
    }
    return;
  }
  case FE_ST_WHILE:
    for (int count = 0; !f->returned; count++) {
      if (count == MAX_HOST_ITERATIONS) {
        fe_error(l, s->loc, "host loop runs more than %d iterations", MAX_HOST_ITERATIONS);
        return;
      }
      fe_val c = fe_lower_expr(l, s->cond);
      int t = c.kind == FE_V_ERROR ? -1 : fe_const_truth(&c);
      if (t < 0) {
        if (c.kind != FE_V_ERROR)
          fe_error(l, s->cond->loc, "condition must be a compile-time value");
        return;
      }
      if (!t) return;
      host_stmts(l, &s->body);
      fe_jump j = f->jump;
      f->jump = FE_JUMP_NONE;
      if (j == FE_JUMP_BREAK) return;
    }
    return;
  case FE_ST_BREAK: f->jump = FE_JUMP_BREAK; return;
  case FE_ST_CONTINUE: f->jump = FE_JUMP_CONTINUE; return;
  case FE_ST_PASS:
  case FE_ST_GLOBAL: return;
  case FE_ST_RETURN:
    f->ret = s->value ? fe_lower_expr(l, s->value) : fe_val_none();
    f->returned = true;
    return;
  case FE_ST_ASSERT: {
    fe_val c = fe_lower_expr(l, s->cond);
    if (c.kind != FE_V_ERROR && fe_const_truth(&c) == 0) {
      fe_val m = s->msg ? fe_lower_expr(l, s->msg) : fe_val_none();
      if (m.kind == FE_V_STR)
        fe_error(l, s->loc, "assertion failed: %s", m.path);
      else
        fe_error(l, s->loc, "assertion failed");
    }
    return;
  }
  case FE_ST_RAISE: {
    fe_val m = s->value ? fe_lower_expr(l, s->value) : fe_val_none();
    if (m.kind == FE_V_STR)
      fe_error(l, s->loc, "raised at compile time: %s", m.path);
    else if (m.kind != FE_V_ERROR)
      fe_error(l, s->loc, "raised at compile time");
    f->returned = true;
    f->ret = fe_val_error();
    return;
  }
  case FE_ST_DEF: {
    fe_val v = fe_val_error();
    v.kind = FE_V_FUNC;
    s->fn->unit = f->unit;
    v.fn = s->fn;
    v.closure = fe_scope_snapshot(l, &f->scope);
    fe_scope_set(&f->scope, s->fn->name, v);
    return;
  }
  }
}

static void host_stmts(fe_lower *l, const fe_body *b) {
  fe_frame *f = l->frame;
  for (int i = 0; i < b->n && !f->returned && f->jump == FE_JUMP_NONE; i++)
    host_stmt(l, b->stmts[i]);
}

void fe_host_body(fe_lower *l, const fe_body *body) { host_stmts(l, body); }
