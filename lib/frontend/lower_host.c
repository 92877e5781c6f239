// SPDX-License-Identifier: MIT
/* lower_host.c - host Python at compile time: the values decorator arguments
 * and @triton.constexpr_function helpers compute with (lists, dicts,
 * strings, tuples), comprehensions, operators on host values, and the
 * statements of host functions (assignments, if, for over compile-time
 * iterables, return). Text (str, repr, format specs, f-strings, `%`) is
 * lower_format.c's.
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
    bool ok = fe_percent_format(l, a.path, args, nargs, &k, &sb, loc);
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
