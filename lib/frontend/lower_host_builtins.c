// SPDX-License-Identifier: MIT
/* lower_host_builtins.c - builtins on compile-time values, for decorator
 * arguments, module constants and @triton.constexpr_function helpers:
 * Python's (range, list, zip, enumerate, sorted, isinstance, getattr, ...),
 * itertools.product, triton.Config and triton.next_power_of_2, and the
 * methods of lists, dicts and strings; math.* and the number helpers of
 * int() and round() are lower_host_math.c's.
 *
 * fe_call_host_builtin sets *handled only for what it implements; other
 * names fall through to the kernel builtins (lower_builtins.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/lower_impl.h"

#define MAX_ITEMS 100000

static fe_val tuple_of(fe_lower *l, int n, const fe_val *items) {
  fe_val t = fe_val_error();
  t.kind = FE_V_TUPLE;
  t.n = n;
  t.items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(n + 1));
  if (n) memcpy(t.items, items, sizeof(fe_val) * (size_t)n);
  return t;
}

/* A list in host frames, a tuple in kernels (which have no mutable lists). */
static fe_val seq_result(fe_lower *l, int n, const fe_val *items) {
  return fe_in_host(l) ? fe_new_list(l, n, items) : tuple_of(l, n, items);
}

static bool want_args(fe_lower *l, const fe_args *a, int lo, int hi, const char *name) {
  if (a->n >= lo && a->n <= hi) return true;
  fe_error(l, a->loc, "'%s' takes %d to %d arguments, found %d", name, lo, hi, a->n);
  return false;
}

static const fe_val *kwarg(const fe_args *a, const char *name) {
  for (int i = 0; i < a->nkw; i++)
    if (a->kwnames[i] && strcmp(a->kwnames[i], name) == 0) return &a->kw[i];
  return NULL;
}

/* ---- Python builtins ---------------------------------------------------------------------- */

/* range(stop) / range(start, stop[, step]) as a list of ints. */
static fe_val py_range(fe_lower *l, const fe_args *a) {
  if (!want_args(l, a, 1, 3, "range")) return fe_val_error();
  int64_t b[3] = {0, 0, 1};
  for (int i = 0; i < a->n; i++) {
    if (a->pos[i].kind != FE_V_INT && a->pos[i].kind != FE_V_BOOL)
      return fe_error(l, a->pos_loc[i], "range() needs integers, found '%s'",
                      fe_val_type_str(l, &a->pos[i]));
    b[a->n == 1 ? 1 : i] = a->pos[i].ival;
  }
  if (b[2] == 0) return fe_error(l, a->loc, "range() step must not be zero");
  fe_val out = fe_new_list(l, 0, NULL);
  for (int64_t i = b[0]; b[2] > 0 ? i < b[1] : i > b[1]; i += b[2]) {
    if (out.obj->n == MAX_ITEMS) return fe_error(l, a->loc, "range() too long at compile time");
    fe_list_append(l, &out, fe_val_int(i));
  }
  return out;
}

static fe_val py_zip(fe_lower *l, const fe_args *a) {
  fe_val *its[16];
  int ns[16], n = 1 << 30;
  if (a->n > 16) return fe_error(l, a->loc, "zip() of more than 16 iterables");
  for (int i = 0; i < a->n; i++) {
    if (!fe_iterate(l, a->pos[i], a->pos_loc[i], &its[i], &ns[i])) return fe_val_error();
    if (ns[i] < n) n = ns[i];
  }
  if (a->n == 0) n = 0;
  fe_val *rows = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(n + 1));
  for (int r = 0; r < n; r++) {
    fe_val row[16];
    for (int i = 0; i < a->n; i++)
      row[i] = its[i][r];
    rows[r] = tuple_of(l, a->n, row);
  }
  return seq_result(l, n, rows);
}

/* Python's order of two sortable values (numbers exactly, strings by
 * bytes); a NaN compares as equal, so it stays where it is. */
static int cmp_vals(const fe_val *a, const fe_val *b) {
  if (a->kind == FE_V_STR && b->kind == FE_V_STR) return strcmp(a->path, b->path);
  int c = fe_num_cmp(a, b);
  return c == 2 ? 0 : c;
}

/* A stable merge sort, as Python's sorted(): equal items keep their order,
 * with reverse too (reverse flips the comparison, not the result). */
static void sort_vals(fe_val *v, fe_val *tmp, int n, bool reverse) {
  if (n < 2) return;
  int h = n / 2;
  sort_vals(v, tmp, h, reverse);
  sort_vals(v + h, tmp, n - h, reverse);
  int i = 0, j = h, k = 0;
  while (i < h && j < n) {
    int c = cmp_vals(&v[j], &v[i]);
    bool take_right = reverse ? c > 0 : c < 0;
    tmp[k++] = take_right ? v[j++] : v[i++];
  }
  while (i < h)
    tmp[k++] = v[i++];
  while (j < n)
    tmp[k++] = v[j++];
  memcpy(v, tmp, sizeof *v * (size_t)n);
}

static bool all_sortable(const fe_val *items, int n) {
  for (int i = 0; i < n; i++)
    if (!fe_is_const(&items[i]) && !(items[i].kind == FE_V_STR && items[0].kind == FE_V_STR))
      return false;
  return true;
}

/* isinstance(x, T) for the types compile-time values have. */
static bool instance_of(const fe_val *x, const fe_val *t) {
  if (t->kind == FE_V_TUPLE) {
    for (int i = 0; i < t->n; i++)
      if (instance_of(x, &t->items[i])) return true;
    return false;
  }
  if (t->kind != FE_V_BUILTIN) return false;
  const char *p = t->path;
  if (!strcmp(p, "py.int")) return x->kind == FE_V_INT || x->kind == FE_V_BOOL;
  if (!strcmp(p, "py.float")) return x->kind == FE_V_FLOAT;
  if (!strcmp(p, "py.bool")) return x->kind == FE_V_BOOL;
  if (!strcmp(p, "py.str")) return x->kind == FE_V_STR;
  if (!strcmp(p, "py.tuple")) return x->kind == FE_V_TUPLE;
  if (!strcmp(p, "py.list")) return x->kind == FE_V_LIST;
  if (!strcmp(p, "py.dict")) return x->kind == FE_V_DICT;
  if (!strcmp(p, "tl.constexpr")) return x->kind != FE_V_TENSOR;
  if (!strcmp(p, "tl.tensor")) return x->kind == FE_V_TENSOR;
  if (!strcmp(p, "tl.dtype")) return x->kind == FE_V_DTYPE;
  return false;
}

/* Not a host builtin after all: the kernel builtin takes the call. */
static fe_val pass(bool *handled) {
  *handled = false;
  return fe_val_error();
}

static fe_val py_builtin(fe_lower *l, const char *name, const fe_args *a, bool *handled) {
  *handled = true;
  const fe_val *x = a->n ? &a->pos[0] : NULL;
  if (!strcmp(name, "range")) { /* in a kernel: over constexprs, a compile-time list
                                 * ([f(i) for i in range(N)]); `for` loops never get here */
    bool consts = a->n > 0 && a->nkw == 0;
    for (int i = 0; i < a->n; i++)
      consts &= a->pos[i].kind == FE_V_INT;
    return fe_in_host(l) || consts ? py_range(l, a) : pass(handled);
  }
  if (!strcmp(name, "len")) {
    if (!x) return pass(handled);
    if (x->kind == FE_V_LIST || x->kind == FE_V_DICT) return fe_val_int(x->obj->n);
    if (x->kind == FE_V_STR) return fe_val_int((int64_t)strlen(x->path));
    return pass(handled);
  }
  if (!strcmp(name, "list") || !strcmp(name, "tuple") || !strcmp(name, "set") ||
      !strcmp(name, "frozenset") || !strcmp(name, "sorted") || !strcmp(name, "reversed")) {
    if (!want_args(l, a, 0, 1, name)) return fe_val_error();
    fe_val *items = NULL;
    int n = 0;
    if (x && !fe_iterate(l, *x, a->pos_loc[0], &items, &n)) return fe_val_error();
    fe_val *copy = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(n + 1));
    if (n) memcpy(copy, items, sizeof(fe_val) * (size_t)n);
    if (!strcmp(name, "sorted")) {
      if (!all_sortable(copy, n)) return fe_error(l, a->loc, "sorted() needs numbers or strings");
      const fe_val *rev = kwarg(a, "reverse");
      fe_val *tmp = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(n + 1));
      sort_vals(copy, tmp, n, rev && fe_const_truth(rev) > 0);
    } else if (!strcmp(name, "reversed")) {
      for (int i = 0; i < n / 2; i++) {
        fe_val t = copy[i];
        copy[i] = copy[n - 1 - i];
        copy[n - 1 - i] = t;
      }
    } else if (name[0] == 's' || name[0] == 'f') { /* set: unique, in first-seen order */
      int k = 0;
      for (int i = 0; i < n; i++) {
        bool dup = false;
        for (int j = 0; j < k && !dup; j++)
          dup = fe_py_equal(&copy[j], &copy[i]) == 1;
        if (!dup) copy[k++] = copy[i];
      }
      n = k;
    }
    if (!strcmp(name, "tuple")) return tuple_of(l, n, copy);
    return seq_result(l, n, copy);
  }
  if (!strcmp(name, "dict")) {
    fe_val d = fe_new_dict(l);
    if (x) {
      if (x->kind == FE_V_DICT) {
        for (int i = 0; i < x->obj->n; i++)
          fe_dict_set(l, &d, x->obj->keys[i], x->obj->items[i]);
      } else {
        fe_val *items;
        int n;
        if (!fe_iterate(l, *x, a->pos_loc[0], &items, &n)) return fe_val_error();
        for (int i = 0; i < n; i++) {
          fe_val *kv;
          int m;
          if (!fe_iterate(l, items[i], a->pos_loc[0], &kv, &m) || m != 2)
            return fe_error(l, a->pos_loc[0], "dict() needs (key, value) pairs");
          fe_dict_set(l, &d, kv[0], kv[1]);
        }
      }
    }
    for (int i = 0; i < a->nkw; i++)
      fe_dict_set(l, &d, fe_val_str(l, a->kwnames[i]), a->kw[i]);
    return d;
  }
  if (!strcmp(name, "zip")) return py_zip(l, a);
  if (!strcmp(name, "enumerate")) {
    if (!want_args(l, a, 1, 2, name)) return fe_val_error();
    fe_val *items;
    int n;
    if (!fe_iterate(l, *x, a->pos_loc[0], &items, &n)) return fe_val_error();
    int64_t start = a->n > 1 ? a->pos[1].ival : 0;
    fe_val *rows = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
      fe_val row[2] = {fe_val_int(start + i), items[i]};
      rows[i] = tuple_of(l, 2, row);
    }
    return seq_result(l, n, rows);
  }
  if (!strcmp(name, "sum") || !strcmp(name, "any") || !strcmp(name, "all")) {
    if (!x || x->kind == FE_V_TENSOR) return pass(handled);
    fe_val *items;
    int n;
    if (!fe_iterate(l, *x, a->pos_loc[0], &items, &n)) return fe_val_error();
    if (name[0] == 's') {
      fe_val acc = a->n > 1 ? a->pos[1] : fe_val_int(0);
      for (int i = 0; i < n; i++)
        acc = fe_binary(l, FE_OP_ADD, acc, items[i], a->loc);
      return acc;
    }
    bool is_any = name[1] == 'n';
    for (int i = 0; i < n; i++) {
      int t = fe_const_truth(&items[i]);
      if (t < 0) return fe_error(l, a->loc, "'%s' needs compile-time values", name);
      if (is_any && t) return fe_val_bool(true);
      if (!is_any && !t) return fe_val_bool(false);
    }
    return fe_val_bool(!is_any);
  }
  if ((!strcmp(name, "min") || !strcmp(name, "max")) && a->n == 1 &&
      (x->kind == FE_V_LIST || x->kind == FE_V_TUPLE)) {
    fe_val *items;
    int n;
    if (!fe_iterate(l, *x, a->pos_loc[0], &items, &n)) return fe_val_error();
    if (n == 0) return fe_error(l, a->loc, "%s() of an empty sequence", name);
    fe_val r = items[0];
    for (int i = 1; i < n; i++)
      r = fe_minmax(l, name[1] == 'a', r, items[i], a->loc);
    return r;
  }
  if (!strcmp(name, "str") || !strcmp(name, "repr")) {
    ir_strbuf sb;
    ir_sb_init(&sb);
    bool ok = !x || fe_val_to_str(l, x, &sb, name[0] == 'r');
    fe_val r = ok ? fe_val_str(l, sb.data ? sb.data : "")
                  : fe_error(l, a->loc, "cannot convert '%s' to str at compile time",
                             fe_val_type_str(l, x));
    ir_sb_free(&sb);
    return r;
  }
  if ((!strcmp(name, "int") || !strcmp(name, "float")) && x && x->kind == FE_V_STR) {
    if (name[0] == 'i') {
      int64_t base = a->n > 1 ? a->pos[1].ival : 10, v = 0;
      if (a->n > 1 && a->pos[1].kind != FE_V_INT && a->pos[1].kind != FE_V_BOOL)
        return fe_error(l, a->loc, "int(): the base must be an integer");
      if (base != 0 && (base < 2 || base > 36))
        return fe_error(l, a->loc, "int() base must be >= 2 and <= 36, or 0");
      int st = fe_parse_py_int(x->path, (int)base, &v);
      if (st == 0)
        return fe_error(l, a->loc, "invalid literal for int() with base %d: '%.40s'", (int)base,
                        x->path);
      if (st < 0)
        return fe_error(l, a->loc, "int('%.40s'): the value does not fit in 64 bits", x->path);
      return fe_val_int(v);
    }
    return pass(handled); /* float("inf") is the kernel builtin's */
  }
  if (!strcmp(name, "round")) {
    if (!x || !fe_is_const(x)) return pass(handled);
    if (a->n > 1 && a->pos[1].kind != FE_V_NONE) { /* round(x, None) is round(x) */
      if (a->pos[1].kind != FE_V_INT && a->pos[1].kind != FE_V_BOOL)
        return fe_error(l, a->loc, "round(): ndigits must be an integer");
      int64_t nd = a->pos[1].ival;
      if (x->kind != FE_V_FLOAT) { /* an int stays an int: half to even at 10**-nd */
        int64_t v = x->ival;
        if (nd >= 0) return fe_val_int(v);
        if (nd < -19) return fe_val_int(0);
        if (nd == -19) { /* 10**19 is past int64: 0, or a result that does not fit */
          if (v > 5000000000000000000 || v < -5000000000000000000)
            return fe_error(l, a->loc, "round(): the result does not fit in 64 bits");
          return fe_val_int(0);
        }
        int64_t p = 1;
        for (int64_t k = 0; k < -nd; k++)
          p *= 10;
        int64_t q = v / p, r = v % p;
        if (r < 0) q--, r += p; /* floor division */
        if (r > p - r || (r == p - r && (q & 1))) q++;
        int64_t out;
        if (__builtin_mul_overflow(q, p, &out))
          return fe_error(l, a->loc, "round(): the result does not fit in 64 bits");
        return fe_val_int(out);
      }
      double v = x->fval;
      if (!isfinite(v) || nd > 330) return fe_val_float(v);
      if (nd >= 0) { /* Python rounds the exact binary value; printf does too */
        char buf[700];
        snprintf(buf, sizeof buf, "%.*f", (int)nd, v);
        return fe_val_float(strtod(buf, NULL));
      }
      double r = fe_round_float_tens(v, (int)(nd < -400 ? 400 : -nd));
      if (isinf(r)) return fe_error(l, a->loc, "round(): rounded value too large to represent");
      return fe_val_float(r);
    }
    if (x->kind != FE_V_FLOAT) return fe_val_int(x->ival); /* exact, not through a double */
    return fe_float_to_int(l, nearbyint(fe_num(x)), a->loc, "round");
  }
  if (!strcmp(name, "pow") && a->n == 2)
    return fe_binary(l, FE_OP_POW, a->pos[0], a->pos[1], a->loc);
  if (!strcmp(name, "pow") && a->n == 3) { /* pow(b, e, m): modular, on ints */
    for (int i = 0; i < 3; i++)
      if (a->pos[i].kind != FE_V_INT && a->pos[i].kind != FE_V_BOOL)
        return fe_error(l, a->pos_loc[i],
                        "pow() 3rd argument not allowed unless all arguments are integers");
    int64_t b = a->pos[0].ival, e = a->pos[1].ival, m = a->pos[2].ival;
    if (m == 0) return fe_error(l, a->loc, "pow() 3rd argument cannot be 0");
    if (e < 0)
      return fe_error(l, a->loc, "unsupported: pow() with a negative exponent and a modulus");
    __extension__ __int128 mm = m, r = 1 % mm, base = ((__int128)b % mm + mm) % mm;
    for (; e; e >>= 1, base = base * base % mm)
      if (e & 1) r = r * base % mm;
    if (r != 0 && (r < 0) != (mm < 0)) r += mm; /* the result takes the modulus's sign */
    return fe_val_int((int64_t)r);
  }
  if (!strcmp(name, "divmod") && a->n == 2) {
    fe_val r[2] = {fe_binary(l, FE_OP_FLOORDIV, a->pos[0], a->pos[1], a->loc),
                   fe_binary(l, FE_OP_MOD, a->pos[0], a->pos[1], a->loc)};
    return tuple_of(l, 2, r);
  }
  if (!strcmp(name, "isinstance")) {
    if (!want_args(l, a, 2, 2, name)) return fe_val_error();
    return fe_val_bool(instance_of(x, &a->pos[1]));
  }
  if (!strcmp(name, "callable") && x)
    return fe_val_bool(x->kind == FE_V_FUNC || x->kind == FE_V_BUILTIN);
  if (!strcmp(name, "getattr") || !strcmp(name, "hasattr")) {
    if (!want_args(l, a, 2, 3, name)) return fe_val_error();
    if (a->pos[1].kind != FE_V_STR)
      return fe_error(l, a->pos_loc[1], "attribute name must be a string");
    l->quiet++;
    int before = l->nquiet;
    fe_val v = fe_get_attr(l, a->pos[0], a->pos[1].path, a->loc);
    bool ok = l->nquiet == before && v.kind != FE_V_ERROR;
    l->quiet--;
    l->nquiet = before;
    if (name[0] == 'h') return fe_val_bool(ok);
    if (ok) return v;
    if (a->n == 3) return a->pos[2];
    return fe_error(l, a->loc, "'%s' has no attribute '%s'", fe_val_type_str(l, x), a->pos[1].path);
  }
  if (!strcmp(name, "print"))
    return fe_in_host(l)
               ? fe_val_none()
               : fe_error(
                     l, a->loc,
                     "unsupported: 'print' in a kernel (use tl.static_print or tl.device_print)");
  if (!strcmp(name, "type") && x) {
    const char *t = x->kind == FE_V_INT     ? "py.int"
                    : x->kind == FE_V_FLOAT ? "py.float"
                    : x->kind == FE_V_BOOL  ? "py.bool"
                    : x->kind == FE_V_STR   ? "py.str"
                    : x->kind == FE_V_TUPLE ? "py.tuple"
                    : x->kind == FE_V_LIST  ? "py.list"
                    : x->kind == FE_V_DICT  ? "py.dict"
                                            : NULL;
    if (!t) return pass(handled);
    fe_val v = fe_val_error();
    v.kind = FE_V_BUILTIN;
    v.path = ir_intern_cstr(l->ctx, t);
    return v;
  }
  if (!strcmp(name, "map") || !strcmp(name, "filter")) {
    if (!want_args(l, a, 2, 2, name)) return fe_val_error();
    fe_val *items;
    int n;
    if (!fe_iterate(l, a->pos[1], a->pos_loc[1], &items, &n)) return fe_val_error();
    fe_val out = fe_new_list(l, 0, NULL);
    for (int i = 0; i < n; i++) {
      fe_args one = *a;
      one.n = 1;
      one.nkw = 0;
      one.pos = &items[i];
      one.pos_loc = &a->pos_loc[1];
      fe_val r = fe_call(l, a->pos[0], &one, name);
      if (r.kind == FE_V_ERROR) return r;
      if (name[0] == 'm')
        fe_list_append(l, &out, r);
      else if (fe_const_truth(&r) > 0)
        fe_list_append(l, &out, items[i]);
    }
    return fe_in_host(l) ? out : tuple_of(l, out.obj->n, out.obj->items);
  }
  return pass(handled);
}

/* ---- math, itertools, triton ------------------------------------------------------------- */

/* itertools.product(*iterables, repeat=1): tuples in row-major order. */
static fe_val product(fe_lower *l, const fe_args *a) {
  const fe_val *rep = kwarg(a, "repeat");
  int repeat = rep && rep->kind == FE_V_INT ? (int)rep->ival : 1;
  int m = a->n * repeat;
  if (m > 16 || m < 0) return fe_error(l, a->loc, "itertools.product of more than 16 iterables");
  fe_val *its[16];
  int ns[16];
  int64_t total = 1;
  for (int i = 0; i < m; i++) {
    int k = i % (a->n ? a->n : 1);
    if (!fe_iterate(l, a->pos[k], a->pos_loc[k], &its[i], &ns[i])) return fe_val_error();
    total *= ns[i];
    if (total > MAX_ITEMS)
      return fe_error(l, a->loc, "itertools.product too large at compile time");
  }
  fe_val *rows = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(total + 1));
  for (int64_t r = 0; r < total; r++) {
    fe_val row[16];
    int64_t rest = r;
    for (int i = m - 1; i >= 0; i--) {
      row[i] = its[i][rest % ns[i]];
      rest /= ns[i];
    }
    rows[r] = tuple_of(l, m, row);
  }
  return seq_result(l, (int)total, rows);
}

/* triton.Config(kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None,
 * pre_hook=None): the kwargs dict plus the launch options. */
static fe_val config(fe_lower *l, const fe_args *a) {
  const char *opts[] = {"num_warps", "num_stages", "num_ctas", "maxnreg"};
  fe_val c = fe_val_error();
  c.kind = FE_V_CONFIG;
  c.n = 4;
  c.items = ir_arena_alloc(l->arena, sizeof(fe_val) * 4);
  for (int i = 0; i < 4; i++)
    c.items[i] = fe_val_none();
  const fe_val *kw = a->n > 0 ? &a->pos[0] : kwarg(a, "kwargs");
  fe_val d = fe_new_dict(l);
  if (kw && kw->kind == FE_V_DICT)
    for (int i = 0; i < kw->obj->n; i++)
      fe_dict_set(l, &d, kw->obj->keys[i], kw->obj->items[i]);
  else if (kw && kw->kind != FE_V_NONE)
    return fe_error(l, a->loc, "triton.Config needs a dict of constexprs, found '%s'",
                    fe_val_type_str(l, kw));
  c.obj = d.obj;
  for (int i = 1; i < a->n && i <= 4; i++)
    c.items[i - 1] = a->pos[i];
  for (int k = 0; k < a->nkw; k++)
    for (int i = 0; i < 4; i++)
      if (a->kwnames[k] && !strcmp(a->kwnames[k], opts[i])) c.items[i] = a->kw[k];
  return c;
}

/* ---- methods ------------------------------------------------------------------------------ */

static fe_val list_method(fe_lower *l, const char *m, fe_val self, const fe_args *a,
                          bool *handled) {
  *handled = true;
  if (!strcmp(m, "append")) {
    if (!want_args(l, a, 1, 1, "append")) return fe_val_error();
    fe_list_append(l, &self, a->pos[0]);
    return fe_val_none();
  }
  if (!strcmp(m, "extend")) {
    fe_val *items;
    int n;
    if (!want_args(l, a, 1, 1, "extend") || !fe_iterate(l, a->pos[0], a->pos_loc[0], &items, &n))
      return fe_val_error();
    for (int i = 0; i < n; i++)
      fe_list_append(l, &self, items[i]);
    return fe_val_none();
  }
  if (!strcmp(m, "insert") && a->n == 2 && a->pos[0].kind == FE_V_INT) {
    fe_list_append(l, &self, fe_val_none());
    int64_t i = a->pos[0].ival < 0 ? a->pos[0].ival + self.obj->n - 1 : a->pos[0].ival;
    if (i < 0) i = 0;
    if (i > self.obj->n - 1) i = self.obj->n - 1;
    memmove(&self.obj->items[i + 1], &self.obj->items[i],
            sizeof(fe_val) * (size_t)(self.obj->n - 1 - i));
    self.obj->items[i] = a->pos[1];
    return fe_val_none();
  }
  if (!strcmp(m, "pop")) {
    if (self.obj->n == 0) return fe_error(l, a->loc, "pop from empty list");
    int64_t i = a->n ? a->pos[0].ival : self.obj->n - 1;
    if (i < 0) i += self.obj->n;
    if (i < 0 || i >= self.obj->n) return fe_error(l, a->loc, "pop index out of range");
    fe_val r = self.obj->items[i];
    memmove(&self.obj->items[i], &self.obj->items[i + 1],
            sizeof(fe_val) * (size_t)(self.obj->n - 1 - i));
    self.obj->n--;
    return r;
  }
  if (!strcmp(m, "copy")) return fe_new_list(l, self.obj->n, self.obj->items);
  if (!strcmp(m, "index") || !strcmp(m, "count")) {
    int c = 0;
    for (int i = 0; i < self.obj->n && a->n; i++)
      if (fe_py_equal(&self.obj->items[i], &a->pos[0]) == 1) {
        if (m[0] == 'i') return fe_val_int(i);
        c++;
      }
    if (m[0] == 'i') return fe_error(l, a->loc, "value is not in the list");
    return fe_val_int(c);
  }
  *handled = false;
  return fe_val_error();
}

static fe_val dict_method(fe_lower *l, const char *m, fe_val self, const fe_args *a,
                          bool *handled) {
  *handled = true;
  if (!strcmp(m, "get") || !strcmp(m, "setdefault") || !strcmp(m, "pop")) {
    if (!want_args(l, a, 1, 2, m)) return fe_val_error();
    const fe_val *v = fe_dict_get(&self, &a->pos[0]);
    if (v) return *v;
    fe_val d = a->n > 1 ? a->pos[1] : fe_val_none();
    if (m[0] == 's') fe_dict_set(l, &self, a->pos[0], d);
    return d;
  }
  if (!strcmp(m, "keys") || !strcmp(m, "values") || !strcmp(m, "items")) {
    fe_val *rows = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(self.obj->n + 1));
    for (int i = 0; i < self.obj->n; i++) {
      if (m[0] == 'k')
        rows[i] = self.obj->keys[i];
      else if (m[0] == 'v')
        rows[i] = self.obj->items[i];
      else
        rows[i] = tuple_of(l, 2, (fe_val[]){self.obj->keys[i], self.obj->items[i]});
    }
    return seq_result(l, self.obj->n, rows);
  }
  if (!strcmp(m, "update")) {
    if (a->n == 1 && a->pos[0].kind == FE_V_DICT)
      for (int i = 0; i < a->pos[0].obj->n; i++)
        fe_dict_set(l, &self, a->pos[0].obj->keys[i], a->pos[0].obj->items[i]);
    for (int i = 0; i < a->nkw; i++)
      fe_dict_set(l, &self, fe_val_str(l, a->kwnames[i]), a->kw[i]);
    return fe_val_none();
  }
  if (!strcmp(m, "copy")) {
    fe_val d = fe_new_dict(l);
    for (int i = 0; i < self.obj->n; i++)
      fe_dict_set(l, &d, self.obj->keys[i], self.obj->items[i]);
    return d;
  }
  *handled = false;
  return fe_val_error();
}

/* One replacement field of str.format, p at its '{': the argument it names
 * (automatic numbering in *next, *manual once a field gives a number),
 * formatted into sb. Returns the field's closing '}', or NULL after an
 * error. */
static const char *format_field(fe_lower *l, const fe_args *a, const char *p, int *next,
                                bool *manual, ir_strbuf *sb) {
  const char *q = strchr(p, '}');
  if (!q) {
    fe_error(l, a->loc, "Single '{' encountered in format string");
    return NULL;
  }
  char field[256];
  size_t flen = (size_t)(q - p - 1);
  if (flen >= sizeof field || memchr(p + 1, '{', flen)) {
    fe_error(l, a->loc, "unsupported: a nested or long replacement field in str.format");
    return NULL;
  }
  memcpy(field, p + 1, flen);
  field[flen] = '\0';
  char *spec = strchr(field, ':'), *conv = strchr(field, '!');
  if (spec) *spec++ = '\0';
  if (conv && (!spec || conv < spec))
    *conv++ = '\0';
  else
    conv = NULL;
  const fe_val *v = NULL;
  bool numbered = field[0] >= '0' && field[0] <= '9';
  if ((!field[0] && *manual) || (numbered && *next)) {
    fe_error(l, a->loc,
             "cannot switch between automatic field numbering and manual field specification");
    return NULL;
  }
  if (!field[0]) {
    if (*next < a->n) v = &a->pos[*next];
    (*next)++;
  } else if (numbered) {
    /* digits only: an index or attribute after them ("{0[1]}", "{0.x}")
     * is not supported, and an index past the arguments has none */
    size_t nd = strspn(field, "0123456789");
    if (field[nd]) {
      fe_error(l, a->loc, "unsupported: the replacement field '{%s}' in str.format", field);
      return NULL;
    }
    *manual = true;
    if (nd <= 9 && atoi(field) < a->n) v = &a->pos[atoi(field)];
  } else {
    for (int k = 0; k < a->nkw && !v; k++)
      if (!strcmp(a->kwnames[k], field)) v = &a->kw[k];
  }
  if (!v) {
    fe_error(l, a->loc, "str.format: no argument for the field '{%s}'", field);
    return NULL;
  }
  if (conv && strcmp(conv, "s") && strcmp(conv, "r") && strcmp(conv, "a")) {
    fe_error(l, a->loc, "Unknown conversion specifier %s", conv);
    return NULL;
  }
  return fe_format_value(l, v, conv ? (conv[0] == 'a' ? 'r' : conv[0]) : 0, spec ? spec : "", sb,
                         a->loc)
             ? q
             : NULL;
}

static fe_val str_method(fe_lower *l, const char *m, fe_val self, const fe_args *a, bool *handled) {
  *handled = true;
  const char *s = self.path;
  size_t n = strlen(s);
  if (!strcmp(m, "upper") || !strcmp(m, "lower")) {
    char *buf = ir_arena_alloc(l->arena, n + 1);
    for (size_t i = 0; i < n; i++)
      buf[i] = (char)(m[0] == 'u' ? (s[i] >= 'a' && s[i] <= 'z' ? s[i] - 32 : s[i])
                                  : (s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]));
    return fe_val_str(l, buf);
  }
  if ((!strcmp(m, "startswith") || !strcmp(m, "endswith")) && a->n == 1 &&
      a->pos[0].kind == FE_V_STR) {
    size_t k = strlen(a->pos[0].path);
    if (k > n) return fe_val_bool(false);
    return fe_val_bool(memcmp(m[0] == 's' ? s : s + n - k, a->pos[0].path, k) == 0);
  }
  if (!strcmp(m, "strip")) {
    size_t b = 0, e = n;
    while (b < e && (s[b] == ' ' || s[b] == '\n' || s[b] == '\t'))
      b++;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\n' || s[e - 1] == '\t'))
      e--;
    fe_val v = fe_val_error();
    v.kind = FE_V_STR;
    v.path = ir_intern(l->ctx, s + b, e - b);
    return v;
  }
  if (!strcmp(m, "join") && a->n == 1) {
    fe_val *items;
    int k;
    if (!fe_iterate(l, a->pos[0], a->pos_loc[0], &items, &k)) return fe_val_error();
    ir_strbuf sb;
    ir_sb_init(&sb);
    for (int i = 0; i < k; i++) {
      if (i) ir_sb_puts(&sb, s);
      if (items[i].kind != FE_V_STR) {
        ir_sb_free(&sb);
        return fe_error(l, a->loc, "join() needs strings");
      }
      ir_sb_puts(&sb, items[i].path);
    }
    fe_val r = fe_val_str(l, sb.data ? sb.data : "");
    ir_sb_free(&sb);
    return r;
  }
  if (!strcmp(m, "format")) { /* {}, {0}, {name}, each with !s/!r and a :spec */
    ir_strbuf sb;
    ir_sb_init(&sb);
    int next = 0;
    bool ok = true, manual = false;
    for (const char *p = s; *p; p++) {
      if (p[0] == '{' && p[1] == '{') {
        ir_sb_putc(&sb, '{');
        p++;
        continue;
      }
      if (p[0] == '}' && p[1] == '}') {
        ir_sb_putc(&sb, '}');
        p++;
        continue;
      }
      if (*p != '{') {
        ir_sb_putc(&sb, *p);
        continue;
      }
      const char *end = format_field(l, a, p, &next, &manual, &sb);
      if (!end) {
        ok = false;
        break;
      }
      p = end;
    }
    fe_val r = ok ? fe_val_str(l, sb.data ? sb.data : "") : fe_val_error();
    ir_sb_free(&sb);
    return r;
  }
  *handled = false;
  return fe_val_error();
}

/* ---- dispatch -------------------------------------------------------------------------------- */

fe_val fe_call_host_builtin(fe_lower *l, const char *name, const fe_args *a, bool *handled) {
  *handled = true;
  if (!strncmp(name, "py.", 3)) return py_builtin(l, name + 3, a, handled);
  if (!strncmp(name, "math.", 5)) return fe_math_fn(l, name + 5, a);
  if (!strcmp(name, "itertools.product")) return product(l, a);
  if (!strcmp(name, "os.getenv")) {
    if (a->n < 1 || a->pos[0].kind != FE_V_STR)
      return fe_error(l, a->loc, "os.getenv needs a name");
    const char *v = getenv(a->pos[0].path);
    l->reads_environment = true;
    return v ? fe_val_str(l, v) : a->n > 1 ? a->pos[1] : fe_val_none();
  }
  if (!strcmp(name, "triton.Config")) return config(l, a);
  if (!strcmp(name, "triton.next_power_of_2")) {
    if (a->n != 1 || (a->pos[0].kind != FE_V_INT && a->pos[0].kind != FE_V_BOOL))
      return fe_error(l, a->loc, "triton.next_power_of_2 needs a constexpr integer");
    int64_t n = a->pos[0].ival, p = 1;
    while (p < n && p < ((int64_t)1 << 62))
      p <<= 1;
    return fe_val_int(p);
  }
  if (!strncmp(name, "exc.", 4)) { /* an exception object: its message */
    ir_strbuf sb;
    ir_sb_init(&sb);
    ir_sb_printf(&sb, "%s", name + 4);
    if (a->n) ir_sb_puts(&sb, ": ");
    for (int i = 0; i < a->n; i++) {
      if (i) ir_sb_puts(&sb, ", ");
      fe_val_to_str(l, &a->pos[i], &sb, false);
    }
    fe_val r = fe_val_str(l, sb.data ? sb.data : "");
    ir_sb_free(&sb);
    return r;
  }
  if (!strcmp(name, "typing.annotation")) return fe_val_none();
  *handled = false;
  return fe_val_error();
}

/* Methods of host values: the receiver is args->pos[0]. */
fe_val fe_call_host_method(fe_lower *l, const char *path, const fe_args *a, bool *handled) {
  fe_args rest = *a;
  rest.n = a->n - 1;
  rest.pos = a->pos + 1;
  rest.pos_loc = a->pos_loc + 1;
  fe_val self = a->pos[0];
  const char *m = strchr(path, '.') + 1;
  if (self.kind == FE_V_LIST) return list_method(l, m, self, &rest, handled);
  if (self.kind == FE_V_DICT) return dict_method(l, m, self, &rest, handled);
  if (self.kind == FE_V_STR) return str_method(l, m, self, &rest, handled);
  *handled = false;
  return fe_val_error();
}

fe_val fe_host_attr(fe_lower *l, fe_val v, const char *name, ir_loc loc) {
  static const char *const list_m[] = {"append", "extend", "insert", "pop",
                                       "copy",   "index",  "count"};
  static const char *const dict_m[] = {"get",    "setdefault", "pop",    "keys",
                                       "values", "items",      "update", "copy"};
  static const char *const str_m[] = {"upper", "lower", "startswith", "endswith",
                                      "strip", "join",  "format"};
  const char *const *ms = NULL;
  size_t nm = 0;
  if (v.kind == FE_V_LIST) ms = list_m, nm = sizeof list_m / sizeof *list_m;
  if (v.kind == FE_V_DICT) ms = dict_m, nm = sizeof dict_m / sizeof *dict_m;
  if (v.kind == FE_V_STR) ms = str_m, nm = sizeof str_m / sizeof *str_m;
  for (size_t i = 0; i < nm; i++)
    if (!strcmp(ms[i], name)) {
      char buf[64];
      snprintf(buf, sizeof buf, "host.%s", name);
      return fe_val_method(l, buf, v);
    }
  if (v.kind == FE_V_CONFIG) { /* Config.kwargs, .num_warps, ... */
    static const char *const opts[] = {"num_warps", "num_stages", "num_ctas", "maxnreg"};
    if (!strcmp(name, "kwargs") || !strcmp(name, "all_kwargs")) {
      fe_val d = fe_val_error();
      d.kind = FE_V_DICT;
      d.obj = v.obj;
      return d;
    }
    for (int i = 0; i < 4; i++)
      if (!strcmp(opts[i], name)) return v.items[i];
  }
  if (v.kind == FE_V_FUNC && !strcmp(name, "__name__")) return fe_val_str(l, v.fn->name);
  (void)loc;
  return fe_val_error();
}
