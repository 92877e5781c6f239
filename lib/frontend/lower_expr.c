// SPDX-License-Identifier: MIT
/* lower_expr.c - lowering of expressions: names, literals, attributes,
 * calls, subscripts (`x[:, None]`), tuples, operators and conditional
 * expressions. Constexprs fold; runtime values emit ttir at the builder.
 *
 * Every op built gets the location of the expression node that made it. */
#include <stdio.h>
#include <string.h>

#include "frontend/lower_impl.h"

/* Writes the source spelling of a dotted name chain ("tl.foo") into buf;
 * false if the expression is not a plain chain. */
static bool dotted_spelling(const fe_expr *e, char *buf, size_t cap) {
  if (e->kind == FE_EX_NAME) {
    snprintf(buf, cap, "%s", e->name);
    return true;
  }
  if (e->kind != FE_EX_ATTR || !dotted_spelling(e->a, buf, cap)) return false;
  size_t n = strlen(buf);
  snprintf(buf + n, cap - n, ".%s", e->name);
  return true;
}

static bool is_fp8_name(const char *name) {
  return strncmp(name, "float8", 6) == 0 || strncmp(name, "fp8", 3) == 0;
}

fe_val fe_get_attr(fe_lower *l, fe_val base, const char *name, ir_loc loc) {
  /* tl.constexpr(x).value: a constexpr is its value here */
  if (strcmp(name, "value") == 0 && (fe_is_const(&base) || base.kind == FE_V_DTYPE ||
                                     base.kind == FE_V_STR || base.kind == FE_V_NONE))
    return base;
  switch (base.kind) {
  case FE_V_ERROR: return base;
  case FE_V_MODULE: {
    if (base.unit) return fe_module_attr(l, base.unit, name, loc);
    char path[256];
    snprintf(path, sizeof path, "%s.%s", base.path, name);
    fe_val v = fe_resolve_path(l, path);
    if (v.kind != FE_V_ERROR) return v;
    if (is_fp8_name(name))
      return fe_error(l, loc, "unsupported: fp8 type '%s' (ttc has tl.float8e4nv and tl.float8e5)",
                      name);
    return fe_error(l, loc, "unknown name '%s'", path);
  }
  case FE_V_TENSOR: return fe_tensor_attr(l, base, name, loc);
  case FE_V_DTYPE: return fe_dtype_attr(l, base, name, loc);
  case FE_V_STRUCT: return fe_struct_attr(l, base, name, loc);
  case FE_V_LIST:
  case FE_V_DICT:
  case FE_V_CONFIG:
  case FE_V_STR:
  case FE_V_FUNC: {
    fe_val v = fe_host_attr(l, base, name, loc);
    if (v.kind != FE_V_ERROR) return v;
    break;
  }
  case FE_V_INT:
  case FE_V_FLOAT:
  case FE_V_BOOL:
    /* `x = 0` then x.to(tl.int64): Triton makes a plain assigned number a
     * scalar tensor; here it stays a constant until a tensor method needs one */
    if (fe_is_tensor_member(name)) return fe_tensor_attr(l, fe_to_tensor(l, base, loc), name, loc);
    break;
  case FE_V_TUPLE:
  case FE_V_NONE:
  case FE_V_BUILTIN:
  case FE_V_METHOD:
  case FE_V_SLICE: break;
  }
  return fe_error(l, loc, "'%s' has no attribute '%s'", fe_val_type_str(l, &base), name);
}

/* attribute: base '.' name; errors spell the dotted name as written. */
static fe_val lower_attr(fe_lower *l, const fe_expr *e, bool is_callee) {
  fe_val base = fe_lower_expr(l, e->a);
  if (base.kind == FE_V_MODULE && !base.unit) {
    char path[256];
    snprintf(path, sizeof path, "%s.%s", base.path, e->name);
    fe_val v = fe_resolve_path(l, path);
    if (v.kind != FE_V_ERROR) return v;
    if (is_fp8_name(e->name))
      return fe_error(
          l, e->loc, "unsupported: fp8 type '%s' (ttc has tl.float8e4nv and tl.float8e5)", e->name);
    char spell[256];
    if (!dotted_spelling(e, spell, sizeof spell)) snprintf(spell, sizeof spell, "%s", path);
    return fe_error(l, e->loc, "unknown %s '%s'", is_callee ? "function" : "name", spell);
  }
  return fe_get_attr(l, base, e->name, e->loc);
}

/* Expands `*x` positional and `**d` keyword arguments of compile-time
 * sequences and dicts into the argument list. */
static bool expand_args(fe_lower *l, const fe_expr *e, fe_args *args) {
  int n = 0, nkw = 0;
  for (int i = 0; i < e->n; i++) {
    const fe_expr *it = e->items[i];
    if (it->kind != FE_EX_STARRED) {
      args->pos[n] = fe_lower_expr(l, it);
      args->pos_loc[n++] = it->start;
      continue;
    }
    fe_val v = fe_lower_expr(l, it->a);
    fe_val *items;
    int k;
    if (!fe_iterate(l, v, it->loc, &items, &k)) return false;
    if (n + k + e->n > 256) return fe_error(l, it->loc, "too many arguments"), false;
    if (n + k >= args->cap) {
      int cap = n + k + e->n + 1;
      fe_val *np = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)cap);
      ir_loc *nl = ir_arena_alloc(l->arena, sizeof(ir_loc) * (size_t)cap);
      memcpy(np, args->pos, sizeof(fe_val) * (size_t)n);
      memcpy(nl, args->pos_loc, sizeof(ir_loc) * (size_t)n);
      args->pos = np;
      args->pos_loc = nl;
      args->cap = cap;
    }
    for (int j = 0; j < k; j++) {
      args->pos[n] = items[j];
      args->pos_loc[n++] = it->a->start;
    }
  }
  args->n = n;
  /* Keyword arrays sized to the call (a `**dict` grows them): one call's
   * arguments stay in the arena until the kernel is lowered, so fixed
   * 257-entry arrays cost ~20 KB per call. */
  int kcap = e->nkw;
  const char **names = NULL;
  fe_val *kw = NULL;
  ir_loc *kl = NULL;
  if (kcap > 0) {
    names = ir_arena_alloc(l->arena, sizeof(char *) * (size_t)kcap);
    kw = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)kcap);
    kl = ir_arena_alloc(l->arena, sizeof(ir_loc) * (size_t)kcap);
  }
  for (int i = 0; i < e->nkw; i++) {
    fe_val v = fe_lower_expr(l, e->kwvals[i]);
    if (e->kwnames[i]) {
      if (nkw == 256) return fe_error(l, e->kwvals[i]->loc, "too many keyword arguments"), false;
      names[nkw] = e->kwnames[i];
      kw[nkw] = v;
      kl[nkw++] = e->kwvals[i]->start;
      continue;
    }
    if (v.kind == FE_V_ERROR) return false;
    if (v.kind != FE_V_DICT)
      return fe_error(l, e->kwvals[i]->loc, "argument after ** must be a dict, found '%s'",
                      fe_val_type_str(l, &v)),
             false;
    int want = nkw + v.obj->n + (e->nkw - i);
    if (want > kcap) {
      kcap = want > 257 ? 257 : want;
      const char **nn = ir_arena_alloc(l->arena, sizeof(char *) * (size_t)kcap);
      fe_val *nk = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)kcap);
      ir_loc *nl = ir_arena_alloc(l->arena, sizeof(ir_loc) * (size_t)kcap);
      if (nkw) {
        memcpy(nn, names, sizeof(char *) * (size_t)nkw);
        memcpy(nk, kw, sizeof(fe_val) * (size_t)nkw);
        memcpy(nl, kl, sizeof(ir_loc) * (size_t)nkw);
      }
      names = nn, kw = nk, kl = nl;
    }
    if (nkw + v.obj->n > 256)
      return fe_error(l, e->kwvals[i]->loc, "too many keyword arguments"), false;
    for (int j = 0; j < v.obj->n && nkw < kcap; j++) {
      if (v.obj->keys[j].kind != FE_V_STR)
        return fe_error(l, e->kwvals[i]->loc, "keywords must be strings"), false;
      names[nkw] = v.obj->keys[j].path;
      kw[nkw] = v.obj->items[j];
      kl[nkw++] = e->kwvals[i]->start;
    }
  }
  args->nkw = nkw;
  args->kwnames = names;
  args->kw = kw;
  args->kw_loc = kl;
  return true;
}

/* call: callee '(' args ')' -> evaluates arguments, then dispatches. */
static fe_val lower_call(fe_lower *l, const fe_expr *e) {
  fe_val callee = e->a->kind == FE_EX_ATTR ? lower_attr(l, e->a, true) : fe_lower_expr(l, e->a);
  fe_args args;
  memset(&args, 0, sizeof args);
  args.loc = e->loc;
  args.cap = e->n + 1;
  args.pos = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)args.cap);
  args.pos_loc = ir_arena_alloc(l->arena, sizeof(ir_loc) * (size_t)args.cap);
  bool failed = callee.kind == FE_V_ERROR || !expand_args(l, e, &args);
  for (int i = 0; i < args.n && !failed; i++)
    failed |= args.pos[i].kind == FE_V_ERROR;
  for (int i = 0; i < args.nkw && !failed; i++)
    failed |= args.kw[i].kind == FE_V_ERROR;
  if (failed) return fe_val_error();
  char spell[256];
  if (!dotted_spelling(e->a, spell, sizeof spell)) snprintf(spell, sizeof spell, "<expression>");
  return fe_call(l, callee, &args, ir_intern_cstr(l->ctx, spell));
}

/* Dispatch on the callee: C builtins, @jit functions (user or prelude, both
 * inlined), and bound methods; `what` is the callee's spelling for errors. */
fe_val fe_call(fe_lower *l, fe_val callee, const fe_args *args, const char *what) {
  switch (callee.kind) {
  case FE_V_BUILTIN: return fe_call_builtin(l, callee.path, args);
  case FE_V_FUNC: return fe_call_func(l, &callee, args);
  case FE_V_METHOD: {
    /* Methods are tl functions taking the receiver first: a prelude
     * function when one has the name, else a C builtin. */
    fe_args a = *args;
    a.n = args->n + 1;
    a.pos = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(a.n + 1));
    a.pos_loc = ir_arena_alloc(l->arena, sizeof(ir_loc) * (size_t)(a.n + 1));
    a.pos[0] = callee.items[0];
    a.pos_loc[0] = args->loc;
    memcpy(a.pos + 1, args->pos, sizeof(fe_val) * (size_t)args->n);
    memcpy(a.pos_loc + 1, args->pos_loc, sizeof(ir_loc) * (size_t)args->n);
    if (strncmp(callee.path, "host.", 5) == 0) {
      bool handled;
      fe_val r = fe_call_host_method(l, callee.path, &a, &handled);
      if (handled) return r;
      return fe_error(l, args->loc, "unsupported: method '%s' of '%s'", callee.path + 5,
                      fe_val_type_str(l, &callee.items[0]));
    }
    const fe_func *pf =
        strncmp(callee.path, "tl.", 3) == 0 ? fe_prelude_func(l, callee.path + 3) : NULL;
    if (pf) {
      fe_val f = fe_val_error();
      f.kind = FE_V_FUNC;
      f.fn = pf;
      return fe_call_func(l, &f, &a);
    }
    return fe_call_builtin(l, callee.path, &a);
  }
  case FE_V_ERROR: return callee;
  case FE_V_DTYPE: /* tl.float32(x): x as a scalar or tensor of that type */
    if (args->n == 1 && args->nkw == 0 && !fe_in_host(l) && !ir_type_is_tensor(callee.ty) &&
        !ir_type_is_ptr(callee.ty) &&
        (fe_is_const(&args->pos[0]) || args->pos[0].kind == FE_V_TENSOR))
      return fe_cast(l, fe_to_tensor(l, args->pos[0], args->pos_loc[0]), callee.ty,
                     callee.is_unsigned, args->loc);
    /* fall through */
  default:
    return fe_error(l, args->loc, "'%s' is not callable (it is a '%s')", what,
                    fe_val_type_str(l, &callee));
  }
}

/* A constexpr slice bound: None gives `dflt`; negatives count from the end,
 * then clamp to [0, n] as Python does. False after an error. */
static bool slice_bound(fe_lower *l, const fe_expr *e, int64_t n, int64_t dflt, int64_t *out) {
  if (!e) {
    *out = dflt;
    return true;
  }
  fe_val v = fe_lower_expr(l, e);
  if (v.kind == FE_V_NONE) {
    *out = dflt;
    return true;
  }
  if (v.kind != FE_V_INT) {
    if (v.kind != FE_V_ERROR)
      fe_error(l, e->loc, "slice bound must be a constant integer, found '%s'",
               fe_val_type_str(l, &v));
    return false;
  }
  int64_t k = v.ival < 0 ? v.ival + n : v.ival;
  *out = k < 0 ? 0 : k > n ? n : k;
  return true;
}

/* tuple[a:b] (step 1, or a constant step): a new tuple, as Python. */
static fe_val tuple_slice(fe_lower *l, fe_val t, const fe_expr *sl) {
  int64_t step = 1, lo, hi;
  if (sl->c) {
    fe_val s = fe_lower_expr(l, sl->c);
    if (s.kind != FE_V_INT || s.ival == 0)
      return s.kind == FE_V_ERROR ? s
                                  : fe_error(l, sl->c->loc,
                                             "slice step must be a non-zero "
                                             "constant integer");
    step = s.ival;
  }
  if (step < 0) return fe_error(l, sl->loc, "unsupported: negative slice step");
  if (!slice_bound(l, sl->a, t.n, 0, &lo) || !slice_bound(l, sl->b, t.n, t.n, &hi))
    return fe_val_error();
  fe_val r = fe_val_error();
  r.kind = FE_V_TUPLE;
  r.items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(t.n + 1));
  for (int64_t i = lo; i < hi; i += step)
    r.items[r.n++] = t.items[i];
  return r;
}

/* subscript: value '[' index (',' index)* ']' where, on tensors, each index
 * is None (new axis) or ':' (keep the axis). Tuples take a constant index. */
static fe_val lower_subscript(fe_lower *l, const fe_expr *e) {
  fe_val base = fe_lower_expr(l, e->a);
  if (base.kind == FE_V_ERROR) return base;
  const fe_expr *idx = e->b;
  if (base.kind == FE_V_DICT) {
    fe_val k = fe_lower_expr(l, idx);
    if (k.kind == FE_V_ERROR) return k;
    const fe_val *v = fe_dict_get(&base, &k);
    if (v) return *v;
    ir_strbuf sb;
    ir_sb_init(&sb);
    fe_val_to_str(l, &k, &sb, true);
    fe_val r = fe_error(l, idx->loc, "key %s is not in the dict", sb.data ? sb.data : "?");
    ir_sb_free(&sb);
    return r;
  }
  if (base.kind == FE_V_LIST || base.kind == FE_V_STR) { /* indexed like a tuple */
    fe_val t = fe_val_error();
    t.kind = FE_V_TUPLE;
    if (base.kind == FE_V_LIST) {
      t.n = base.obj->n;
      t.items = base.obj->items;
    } else if (!fe_iterate(l, base, e->loc, &t.items, &t.n)) {
      return fe_val_error();
    }
    fe_val r = idx->kind == FE_EX_SLICE ? tuple_slice(l, t, idx) : fe_val_error();
    if (idx->kind != FE_EX_SLICE)
      base = t;
    else if (r.kind == FE_V_TUPLE && base.kind == FE_V_LIST)
      return fe_new_list(l, r.n, r.items);
    else if (r.kind == FE_V_TUPLE) { /* a string slice */
      ir_strbuf sb;
      ir_sb_init(&sb);
      for (int i = 0; i < r.n; i++)
        ir_sb_puts(&sb, r.items[i].path);
      fe_val sv = fe_val_error();
      sv.kind = FE_V_STR;
      sv.path = ir_intern(l->ctx, sb.data ? sb.data : "", sb.len);
      ir_sb_free(&sb);
      return sv;
    } else {
      return r;
    }
  }
  if (base.kind == FE_V_TUPLE && idx->kind == FE_EX_SLICE) return tuple_slice(l, base, idx);
  if (base.kind == FE_V_TUPLE) {
    fe_val i = fe_lower_expr(l, idx);
    if (i.kind == FE_V_ERROR) return i;
    if (i.kind != FE_V_INT)
      return fe_error(l, idx->loc, "tuple index must be a constant integer, found '%s'",
                      fe_val_type_str(l, &i));
    int64_t k = i.ival < 0 ? i.ival + base.n : i.ival;
    if (k < 0 || k >= base.n)
      return fe_error(l, idx->loc, "tuple index %lld out of range for a tuple of %d",
                      (long long)i.ival, base.n);
    return base.items[k];
  }
  if (base.kind != FE_V_TENSOR)
    return fe_error(l, e->loc, "'%s' is not subscriptable", fe_val_type_str(l, &base));
  int n = idx->kind == FE_EX_TUPLE ? idx->n : 1;
  const fe_expr *const *items =
      idx->kind == FE_EX_TUPLE ? (const fe_expr *const *)idx->items : &idx;
  const ir_type *t = base.v->type;
  int rank = ir_type_is_tensor(t) ? t->rank : 0;
  int nslices = 0;
  for (int i = 0; i < n; i++) {
    const fe_expr *it = items[i];
    if (it->kind == FE_EX_SLICE) {
      if (it->a || it->b || it->c) /* Triton rejects them as well */
        return fe_error(l, it->loc,
                        "unsupported: tensor slice with bounds (only ':' and None "
                        "index tensors)");
      nslices++;
    } else if (it->kind != FE_EX_NONE) {
      return fe_error(l, it->loc, "unsupported tensor index: only None and ':' are supported");
    }
  }
  if (nslices != rank)
    return fe_error(l, e->loc, "subscript has %d ':' but the tensor has rank %d", nslices, rank);
  if (n - nslices + rank > IR_MAX_RANK)
    return fe_error(l, e->loc, "subscript gives rank %d, the maximum is %d", n - nslices + rank,
                    IR_MAX_RANK);
  ir_value *v = base.v;
  l->b.loc = e->loc;
  for (int i = 0; i < n; i++) {
    if (items[i]->kind != FE_EX_NONE) continue;
    /* Insert a unit axis at output position i. */
    const ir_type *vt = v->type;
    int vr = ir_type_is_tensor(vt) ? vt->rank : 0;
    int64_t shape[IR_MAX_RANK];
    int r = 0;
    for (int k = 0; k < vr + 1; k++)
      shape[k] = k == i ? 1 : vt->shape[r++];
    if (vr == 0) {
      const ir_type *nt = ir_type_tensor(l->ctx, 1, shape, vt, NULL);
      v = ir_build_splat(&l->b, v, nt);
      continue;
    }
    const ir_type *nt = ir_type_tensor(l->ctx, vr + 1, shape, vt->elem, NULL);
    v = ir_build1(&l->b, IR_OP_TT_EXPAND_DIMS, nt, 1, &v);
    ir_op_set_attr(l->m, v->def, "axis", ir_attr_int(l->ctx, ir_type_i32(l->ctx), i));
  }
  return fe_val_tensor(v, base.is_unsigned);
}

/* A tuple, list or set display: a compile-time tuple of lowered items
 * (starred items spliced in); lists and sets are lists in host code, where
 * they can change. */
static fe_val make_tuple(fe_lower *l, const fe_expr *e) {
  fe_val t = fe_val_error();
  t.kind = FE_V_TUPLE;
  int cap = e->n + 1;
  t.items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)cap);
  for (int i = 0; i < e->n; i++) {
    const fe_expr *it = e->items[i];
    fe_val v = fe_lower_expr(l, it->kind == FE_EX_STARRED ? it->a : it);
    if (v.kind == FE_V_ERROR) return fe_val_error();
    if (it->kind != FE_EX_STARRED) {
      t.items[t.n++] = v;
      continue;
    }
    fe_val *items;
    int k;
    if (!fe_iterate(l, v, it->loc, &items, &k)) return fe_val_error();
    fe_val *ni = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(cap += k));
    memcpy(ni, t.items, sizeof(fe_val) * (size_t)t.n);
    memcpy(ni + t.n, items, sizeof(fe_val) * (size_t)k);
    t.items = ni;
    t.n += k;
  }
  if (e->kind == FE_EX_SET) {
    int k = 0;
    for (int i = 0; i < t.n; i++) {
      bool dup = false;
      for (int j = 0; j < k && !dup; j++)
        dup = fe_py_equal(&t.items[j], &t.items[i]) == 1;
      if (!dup) t.items[k++] = t.items[i];
    }
    t.n = k;
  }
  if (e->kind != FE_EX_TUPLE && fe_in_host(l)) return fe_new_list(l, t.n, t.items);
  return t;
}

/* {k: v, **d}: a compile-time dict. */
static fe_val make_dict(fe_lower *l, const fe_expr *e) {
  fe_val d = fe_new_dict(l);
  for (int i = 0; i + 1 < e->n; i += 2) {
    fe_val v = fe_lower_expr(l, e->items[i + 1]);
    if (v.kind == FE_V_ERROR) return v;
    if (!e->items[i]) { /* **other */
      if (v.kind != FE_V_DICT)
        return fe_error(l, e->items[i + 1]->loc, "'%s' is not a mapping", fe_val_type_str(l, &v));
      for (int k = 0; k < v.obj->n; k++)
        fe_dict_set(l, &d, v.obj->keys[k], v.obj->items[k]);
      continue;
    }
    fe_val k = fe_lower_expr(l, e->items[i]);
    if (k.kind == FE_V_ERROR) return k;
    if (k.kind == FE_V_TENSOR || v.kind == FE_V_TENSOR)
      return fe_error(l, e->loc, "unsupported: runtime values in a dict");
    fe_dict_set(l, &d, k, v);
  }
  return d;
}

/* Identity comparison, for `x is None` / `x is not None`: decided at compile
 * time (None is only ever a constexpr). */
static fe_val lower_is(fe_lower *l, const fe_expr *e) {
  fe_val a = fe_lower_expr(l, e->items[0]);
  fe_val b = fe_lower_expr(l, e->items[1]);
  if (a.kind == FE_V_ERROR || b.kind == FE_V_ERROR) return fe_val_error();
  bool same;
  if (a.kind == FE_V_NONE || b.kind == FE_V_NONE)
    same = a.kind == b.kind;
  else if (fe_is_const(&a) && fe_is_const(&b))
    same = a.kind == b.kind && a.ival == b.ival && a.fval == b.fval;
  else if (a.kind == FE_V_DTYPE && b.kind == FE_V_DTYPE)
    same = a.ty == b.ty && a.is_unsigned == b.is_unsigned;
  else if (a.kind == FE_V_TENSOR && b.kind == FE_V_TENSOR)
    same = a.v == b.v;
  else
    same = false;
  return fe_val_bool(e->cmpops[0] == FE_OP_IS ? same : !same);
}

/* Comparisons: one operator lowers like a binary op; chains fold when every
 * operand is a constexpr and are unsupported on tensors. */
static fe_val lower_compare(fe_lower *l, const fe_expr *e) {
  if (e->cmpops[0] == FE_OP_IS || e->cmpops[0] == FE_OP_ISNOT) {
    if (e->n != 2) return fe_error(l, e->loc, "unsupported: chained comparison");
    return lower_is(l, e);
  }
  for (int i = 0; i < e->n - 1; i++)
    if (e->cmpops[i] == FE_OP_IS || e->cmpops[i] == FE_OP_ISNOT)
      return fe_error(l, e->loc, "unsupported: operator '%s' in a chain", fe_op_str(e->cmpops[i]));
  fe_val prev = fe_lower_expr(l, e->items[0]);
  for (int i = 0; i < e->n - 1; i++) {
    fe_val next = fe_lower_expr(l, e->items[i + 1]);
    if (prev.kind == FE_V_ERROR || next.kind == FE_V_ERROR) return fe_val_error();
    if (e->n > 2 && (prev.kind == FE_V_TENSOR || next.kind == FE_V_TENSOR))
      return fe_error(l, e->loc, "unsupported: chained comparison on tensors");
    fe_val r = fe_binary(l, e->cmpops[i], prev, next, e->loc);
    if (e->n == 2) return r;
    if (r.kind == FE_V_ERROR) return r;
    if (!fe_const_truth(&r)) return fe_val_bool(false); /* Python stops at the first false link */
    prev = next;
  }
  return fe_val_bool(true);
}

/* and/or: constexprs short-circuit with Python semantics (the operand itself
 * is the result); otherwise both sides become i1 and combine elementwise. */
static fe_val lower_boolop(fe_lower *l, const fe_expr *e) {
  fe_val a = fe_lower_expr(l, e->a);
  if (a.kind == FE_V_ERROR) return a;
  if (a.kind != FE_V_TENSOR) {
    int t = fe_const_truth(&a);
    if (e->op == FE_OP_AND && !t) return a;
    if (e->op == FE_OP_OR && t) return a;
    return fe_lower_expr(l, e->b);
  }
  fe_val b = fe_lower_expr(l, e->b);
  return fe_binary(l, e->op, a, b, e->loc);
}

/* Lowers `then if cond else other` on a runtime scalar condition to scf.if
 * with one result. */
static fe_val lower_ifexp_runtime(fe_lower *l, const fe_expr *e, fe_val cond) {
  cond = fe_to_bool(l, cond, e->b->loc);
  if (cond.kind == FE_V_ERROR) return cond;
  if (ir_type_is_tensor(cond.v->type))
    return fe_error(l, e->b->loc,
                    "condition of a conditional expression must be a scalar, "
                    "found '%s' (use tl.where)",
                    fe_val_type_str(l, &cond));
  ir_block *outer = l->b.block;
  ir_block *blocks[2];
  fe_val vals[2];
  const fe_expr *arms[2] = {e->a, e->c};
  l->frame->runtime_cf++;
  for (int k = 0; k < 2; k++) {
    blocks[k] = ir_block_create(l->m, 0, NULL);
    ir_builder_set_end(&l->b, blocks[k]);
    vals[k] = fe_lower_expr(l, arms[k]);
  }
  l->frame->runtime_cf--;
  fe_val res = fe_val_error();
  if (vals[0].kind == FE_V_ERROR || vals[1].kind == FE_V_ERROR) goto out;
  /* Both arms must produce the same type; constants adopt the other's. */
  for (int k = 0; k < 2; k++) {
    ir_builder_set_end(&l->b, blocks[k]);
    fe_val *other = &vals[1 - k];
    if (fe_is_const(&vals[k]) && other->kind == FE_V_TENSOR)
      vals[k] = fe_cast(l, vals[k], other->v->type, other->is_unsigned, arms[k]->loc);
    else
      vals[k] = fe_to_tensor(l, vals[k], arms[k]->loc);
  }
  if (vals[0].kind == FE_V_ERROR || vals[1].kind == FE_V_ERROR) goto out;
  if (vals[0].v->type != vals[1].v->type) {
    res = fe_error(l, e->loc,
                   "arms of a conditional expression have different types: '%s' "
                   "and '%s'",
                   fe_val_type_str(l, &vals[0]), fe_val_type_str(l, &vals[1]));
    goto out;
  }
  for (int k = 0; k < 2; k++) {
    ir_builder_set_end(&l->b, blocks[k]);
    l->b.loc = arms[k]->loc;
    ir_build(&l->b, IR_OP_SCF_YIELD, 0, NULL, 1, &vals[k].v, 0);
  }
  ir_builder_set_end(&l->b, outer);
  l->b.loc = e->loc;
  const ir_type *rt = vals[0].v->type;
  ir_op *op = ir_build(&l->b, IR_OP_SCF_IF, 1, &rt, 1, &cond.v, 2);
  ir_region_append_block(&op->regions[0], blocks[0]);
  ir_region_append_block(&op->regions[1], blocks[1]);
  res = fe_val_tensor(ir_op_result(op, 0), vals[0].is_unsigned);
out:
  ir_builder_set_end(&l->b, outer);
  return res;
}

/* Lowers one expression. Errors are reported once and yield ERROR, which
 * every consumer passes on without a second message. */
fe_val fe_lower_expr(fe_lower *l, const fe_expr *e) {
  l->b.loc = e->loc;
  fe_val v = fe_val_error();
  switch (e->kind) {
  case FE_EX_ERROR: return v;
  case FE_EX_NAME: return fe_lookup(l, e->name, e->loc);
  case FE_EX_INT:
    if (e->is_big || e->ival > (uint64_t)INT64_MAX)
      return fe_error(l, e->loc, "unsupported: integer constant above 2**63-1");
    return fe_val_int((int64_t)e->ival);
  case FE_EX_FLOAT: return fe_val_float(e->fval);
  case FE_EX_IMAG: return fe_error(l, e->loc, "unsupported: complex number");
  case FE_EX_STR:
    v.kind = FE_V_STR;
    v.path = e->str;
    return v;
  case FE_EX_TRUE: return fe_val_bool(true);
  case FE_EX_FALSE: return fe_val_bool(false);
  case FE_EX_NONE: v.kind = FE_V_NONE; return v;
  case FE_EX_ELLIPSIS: return fe_error(l, e->loc, "unsupported: '...'");
  case FE_EX_ATTR: return lower_attr(l, e, false);
  case FE_EX_CALL: return lower_call(l, e);
  case FE_EX_SUBSCRIPT: return lower_subscript(l, e);
  case FE_EX_SLICE: return fe_error(l, e->loc, "unsupported: slice outside a subscript");
  case FE_EX_TUPLE:
  case FE_EX_LIST:
  case FE_EX_SET: return make_tuple(l, e);
  case FE_EX_DICT: return make_dict(l, e);
  case FE_EX_LAMBDA:
    e->fn->unit = fe_cur_unit(l);
    v.kind = FE_V_FUNC;
    v.fn = e->fn;
    if (l->frame && l->frame->scope.n) v.closure = fe_scope_snapshot(l, &l->frame->scope);
    return v;
  case FE_EX_STARRED: return fe_error(l, e->loc, "unsupported: starred expression here");
  case FE_EX_WALRUS: {
    fe_val x = fe_lower_expr(l, e->b);
    if (x.kind != FE_V_ERROR && l->frame) fe_scope_set(&l->frame->scope, e->a->name, x);
    return x;
  }
  case FE_EX_FSTR: return fe_lower_fstring(l, e);
  case FE_EX_FORMAT:
  case FE_EX_COMP_FOR: return fe_error(l, e->loc, "unsupported expression");
  case FE_EX_COMP: return fe_lower_comp(l, e);
  case FE_EX_UNARY: {
    fe_val a = fe_lower_expr(l, e->a);
    return fe_unary(l, e->op, a, e->loc);
  }
  case FE_EX_BINARY: {
    if (e->op == FE_OP_AND || e->op == FE_OP_OR) return lower_boolop(l, e);
    fe_val a = fe_lower_expr(l, e->a);
    fe_val b = fe_lower_expr(l, e->b);
    return fe_binary(l, e->op, a, b, e->loc);
  }
  case FE_EX_COMPARE: return lower_compare(l, e);
  case FE_EX_IFEXP: {
    fe_val c = fe_lower_expr(l, e->b);
    if (c.kind == FE_V_ERROR) return c;
    if (c.kind != FE_V_TENSOR) return fe_lower_expr(l, fe_const_truth(&c) ? e->a : e->c);
    return lower_ifexp_runtime(l, e, c);
  }
  }
  return fe_error(l, e->loc, "unsupported expression");
}
