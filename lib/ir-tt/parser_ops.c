// SPDX-License-Identifier: MIT
/* parser_ops.c - the custom op forms, the inverse of print_ops.c: each
 * function reads what the printer of the same name writes
 * (`tt.splat %a : i32 -> tensor<1024xi32>`, `scf.for ...`) and builds the
 * op with the result types the form implies. A type the text states for an
 * operand must be that operand's type, as in MLIR. */
#include <stdlib.h>
#include <string.h>

#include "ir-tt/parser_impl.h"

/* What a form collects before the op can be built; freed by ir_ps_custom_op. */
typedef struct form {
  ir_value **vals;
  ptok *toks;
  int n;
  const ir_type **tys;
  int ntys;
  pattrs attrs;
  bool kw_after; /* the operand list ended at `, keyword` */
} form;

static ir_op *make(parser *p, ir_op_kind kind, ir_loc loc, int nres, const ir_type *const *res,
                   form *f, int nregions) {
  ir_op *op = ir_op_create(p->m, kind, loc, nres, res, f->n, f->vals, nregions);
  ir_ps_attrs_apply(p, op, &f->attrs);
  return op;
}

static bool opt_dict(parser *p, form *f, ir_op_kind kind) {
  return !ir_ps_is_punct(p, '{') || ir_ps_attr_dict_into(p, &f->attrs, false, kind);
}

static bool operands(parser *p, form *f, bool allow_empty, bool kw) {
  return ir_ps_operand_list(p, allow_empty, &f->vals, &f->n, &f->toks, kw ? &f->kw_after : NULL);
}

static bool check(parser *p, form *f, int i, const ir_type *ty) {
  return i >= f->n || ir_ps_check_type(p, &f->toks[i], f->vals[i], ty);
}

/* The form's n written operand types: as many as expected (else an error at
 * `at`, NULL: the current token), each matching its operand. */
static bool check_types(parser *p, form *f, int n, const ptok *at) {
  if (f->ntys != n) return ir_ps_error(p, at, "expected %d operand types but had %d", n, f->ntys);
  for (int i = 0; i < n; i++)
    if (!check(p, f, i, f->tys[i])) return false;
  return true;
}

/* Adds an enum attribute named `attr` from a keyword token. */
static bool enum_attr(parser *p, form *f, ir_op_kind kind, const char *attr) {
  ptok t = ir_ps_next(p);
  if (t.kind != PT_IDENT) return ir_ps_error(p, &t, "expected '%s' keyword", attr);
  const char *kw = ir_intern(p->ctx, t.s, t.n);
  int64_t v;
  if (!ir_ps_enum_value(attr, kind, kw, &v))
    return ir_ps_error(p, &t, "unknown value '%s' for attribute '%s'", kw, attr);
  pattrs *a = &f->attrs;
  if (a->n == a->cap) {
    a->cap = a->cap ? a->cap * 2 : 8;
    ir_named_attr *na = realloc(a->a, (size_t)a->cap * sizeof *na);
    if (!na) return ir_ps_error(p, &t, "out of memory");
    a->a = na;
  }
  a->a[a->n++] = (ir_named_attr){ir_intern_cstr(p->ctx, attr), ir_attr_enum(p->ctx, kw, v)};
  return true;
}

/* `keyword = value` after a `, ` the operand list stopped at. */
static bool keyword_enum(parser *p, form *f, ir_op_kind kind, const char *word, const char *attr) {
  return ir_ps_expect_ident(p, word, "") && ir_ps_expect(p, '=', "after keyword") &&
         enum_attr(p, f, kind, attr);
}

static const ir_type *bool_like(parser *p, const ir_type *t) {
  return ir_type_is_tensor(t) ? ir_type_with_elem(p->ctx, t, ir_type_i1(p->ctx))
                              : ir_type_i1(p->ctx);
}

/* name %a, %b {attrs} : T */
static ir_op *same_type(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  if (!operands(p, f, false, false) || !opt_dict(p, f, kind) ||
      !ir_ps_expect(p, ':', "before the type"))
    return NULL;
  const ir_type *t = ir_ps_type(p);
  if (!t) return NULL;
  for (int i = 0; i < f->n; i++)
    if (!check(p, f, i, t)) return NULL;
  int nres = ir_op_kind_info(kind)->nresults;
  return make(p, kind, loc, nres, &t, f, 0);
}

/* name %a {attrs} : T to R   (or -> R) */
static ir_op *conversion(parser *p, form *f, ir_op_kind kind, ir_loc loc, bool is_arrow) {
  if (!operands(p, f, false, false) || !opt_dict(p, f, kind) ||
      !ir_ps_expect(p, ':', "before the operand type"))
    return NULL;
  const ir_type *t = ir_ps_type(p);
  if (!t || !check(p, f, 0, t)) return NULL;
  if (is_arrow ? !ir_ps_expect_arrow(p, "before the result type")
               : !ir_ps_expect_ident(p, "to", "before the result type"))
    return NULL;
  const ir_type *r = ir_ps_type(p);
  if (!r) return NULL;
  int nres = ir_op_kind_info(kind)->nresults;
  const ir_type *res[2] = {r, r};
  return make(p, kind, loc, nres, res, f, 0);
}

static ir_op *cmp(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  if (!enum_attr(p, f, kind, "predicate") || !ir_ps_expect(p, ',', "after the predicate") ||
      !operands(p, f, false, false) || !opt_dict(p, f, kind) ||
      !ir_ps_expect(p, ':', "before the type"))
    return NULL;
  const ir_type *t = ir_ps_type(p);
  if (!t || !check(p, f, 0, t) || !check(p, f, 1, t)) return NULL;
  const ir_type *r = bool_like(p, t);
  return make(p, kind, loc, 1, &r, f, 0);
}

static ir_op *select_op(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  if (!operands(p, f, false, false) || !opt_dict(p, f, kind) ||
      !ir_ps_expect(p, ':', "before the type") || !ir_ps_type_list(p, &f->tys, &f->ntys))
    return NULL;
  if (f->ntys > 2) {
    ir_ps_error(p, NULL, "expected one or two types");
    return NULL;
  }
  const ir_type *r = f->tys[f->ntys - 1];
  if ((f->ntys == 2 && !check(p, f, 0, f->tys[0])) || !check(p, f, 1, r) || !check(p, f, 2, r))
    return NULL;
  return make(p, kind, loc, 1, &r, f, 0);
}

static ir_op *constant(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  if (!opt_dict(p, f, kind)) return NULL;
  ptok vt = *ir_ps_peek(p);
  const ir_attr *v = ir_ps_attr_value(p, "value", kind);
  if (!v) return NULL;
  if (!v->type) {
    ir_ps_error(p, &vt, "expected a constant value with a type");
    return NULL;
  }
  ir_op *op = make(p, kind, loc, 1, &v->type, f, 0);
  ir_op_set_attr(p->m, op, "value", v);
  return op;
}

/* tt.return %a : T, scf.yield, ..., and ttng.warp_group_dot_wait, whose
 * results have its operands' types. */
static ir_op *operand_list(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  /* An op without operands (gpu.barrier) reads none: the `%x` after it
   * names the next op's result, whatever line it is on. */
  bool none = ir_op_kind_info(kind)->max_operands == 0;
  if ((!none && !operands(p, f, true, false)) || !opt_dict(p, f, kind)) return NULL;
  if (f->n) {
    ptok tt = *ir_ps_peek(p);
    if (!ir_ps_expect(p, ':', "before the operand types") ||
        !ir_ps_type_list(p, &f->tys, &f->ntys) || !check_types(p, f, f->n, &tt))
      return NULL;
  }
  bool same = ir_op_kind_info(kind)->nresults < 0;
  return make(p, kind, loc, same ? f->ntys : 0, same ? f->tys : NULL, f, 0);
}

/* ttg.local_alloc [%v] {attrs} : (T) -> R */
static ir_op *func_type(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  if (!ir_ps_is_punct(p, '{') && !ir_ps_is_punct(p, ':') && !operands(p, f, true, false))
    return NULL;
  if (!opt_dict(p, f, kind) || !ir_ps_expect(p, ':', "before the types")) return NULL;
  ptok tt = *ir_ps_peek(p);
  if (!ir_ps_paren_types(p, false, &f->tys, &f->ntys) || !check_types(p, f, f->n, &tt) ||
      !ir_ps_expect_arrow(p, "before the result type"))
    return NULL;
  const ir_type *r = ir_ps_type(p);
  return r ? make(p, kind, loc, 1, &r, f, 0) : NULL;
}

/* One operand (%name) into f. */
static bool one_operand(parser *p, form *f) {
  ir_value **nv = realloc(f->vals, (size_t)(f->n + 1) * sizeof *nv);
  if (nv) f->vals = nv;
  ptok *nt = nv ? realloc(f->toks, (size_t)(f->n + 1) * sizeof *nt) : NULL;
  if (!nt) return ir_ps_error(p, NULL, "out of memory");
  f->toks = nt;
  f->toks[f->n] = ir_ps_next(p);
  if (!(f->vals[f->n] = ir_ps_use(p, &f->toks[f->n]))) return false;
  f->n++;
  return true;
}

/* ttg.memdesc_index %buf[%i] {attrs} : T -> R */
static ir_op *index_op(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  if (!one_operand(p, f) || !ir_ps_expect(p, '[', "before the index") || !one_operand(p, f) ||
      !ir_ps_expect(p, ']', "after the index") || !opt_dict(p, f, kind) ||
      !ir_ps_expect(p, ':', "before the operand type"))
    return NULL;
  const ir_type *t = ir_ps_type(p);
  if (!t || !check(p, f, 0, t) || !ir_ps_expect_arrow(p, "before the result type")) return NULL;
  const ir_type *r = ir_ps_type(p);
  return r ? make(p, kind, loc, 1, &r, f, 0) : NULL;
}

/* ttg.async_copy_global_to_local %ptrs, %buf [mask %m [other %o | left %n]]
 * [cacheModifier = ..] [evictionPolicy = ..] {attrs} : P -> <memdesc body>
 * (`left`: a bounded copy's elements left, with {ttg.bounded = true}) */
static ir_op *async_copy(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  if (!one_operand(p, f) || !ir_ps_expect(p, ',', "between pointers and buffer") ||
      !one_operand(p, f))
    return NULL;
  if (ir_ps_accept_ident(p, "mask") && !one_operand(p, f)) return NULL;
  bool left = false;
  if (f->n == 3 && (ir_ps_accept_ident(p, "other") || (left = ir_ps_accept_ident(p, "left"))) &&
      !one_operand(p, f))
    return NULL;
  if (ir_ps_accept_ident(p, "cacheModifier") &&
      !(ir_ps_expect(p, '=', "after 'cacheModifier'") && enum_attr(p, f, kind, "cache")))
    return NULL;
  if (ir_ps_accept_ident(p, "evictionPolicy") &&
      !(ir_ps_expect(p, '=', "after 'evictionPolicy'") && enum_attr(p, f, kind, "evict")))
    return NULL;
  if (!opt_dict(p, f, kind) || !ir_ps_expect(p, ':', "before the pointer type")) return NULL;
  const ir_type *t = ir_ps_type(p);
  if (!t || !check(p, f, 0, t) || !ir_ps_expect_arrow(p, "before the buffer type") ||
      !ir_ps_expect(p, '<', "in the buffer type"))
    return NULL;
  const ir_type *mt = ir_ps_memdesc_body(p);
  if (!mt || !check(p, f, 1, mt)) return NULL;
  const ir_type *tok = ir_type_token(p->ctx);
  ir_op *op = make(p, kind, loc, 1, &tok, f, 0);
  if (op && left != (ir_op_get_int(op, IR_BOUNDED_ATTR, 0) != 0)) {
    ir_ps_error(p, NULL, "'left' goes with {ttg.bounded = true}, 'other' without it");
    return NULL;
  }
  return op;
}

/* ttg.async_commit_group tokens %a, %b {attrs} / ttg.async_wait %a {num = 0} */
static ir_op *tokens(parser *p, form *f, ir_op_kind kind, ir_loc loc, bool keyword) {
  /* Nothing ends the list but the absence of a comma: read it by hand. */
  bool has_list = keyword ? ir_ps_accept_ident(p, "tokens") : ir_ps_peek(p)->kind == PT_VALUE;
  if (has_list) {
    do {
      if (!one_operand(p, f)) return NULL;
    } while (ir_ps_accept(p, ','));
  }
  if (!opt_dict(p, f, kind)) return NULL;
  const ir_type *tok = ir_type_token(p->ctx);
  return make(p, kind, loc, 1, &tok, f, 0);
}

static ir_op *program_id(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  ptok a = ir_ps_next(p);
  int axis = a.kind != PT_IDENT || a.n != 1 ? -1
             : a.s[0] == 'x'                ? 0
             : a.s[0] == 'y'                ? 1
             : a.s[0] == 'z'                ? 2
                                            : -1;
  if (axis < 0) {
    ir_ps_error(p, &a, "expected axis x, y or z");
    return NULL;
  }
  if (!opt_dict(p, f, kind) || !ir_ps_expect(p, ':', "before the type")) return NULL;
  const ir_type *t = ir_ps_type(p);
  if (!t) return NULL;
  ir_op *op = make(p, kind, loc, 1, &t, f, 0);
  ir_op_set_attr(p->m, op, "axis", ir_attr_int(p->ctx, ir_type_i32(p->ctx), axis));
  return op;
}

/* tt.make_range {attrs} : T */
static ir_op *result_typed(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  if (!opt_dict(p, f, kind) || !ir_ps_expect(p, ':', "before the type")) return NULL;
  const ir_type *t = ir_ps_type(p);
  return t ? make(p, kind, loc, 1, &t, f, 0) : NULL;
}

static ir_op *fp_to_fp(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  /* `%a {attrs}, rounding = rtne`: the dictionary comes before the keyword. */
  if (!operands(p, f, false, true)) return NULL;
  if (!f->kw_after && (!opt_dict(p, f, kind) || !ir_ps_accept(p, ',')))
    f->kw_after = false;
  else if (!keyword_enum(p, f, kind, "rounding", "rounding"))
    return NULL;
  if (!ir_ps_expect(p, ':', "before the operand type")) return NULL;
  const ir_type *t = ir_ps_type(p);
  if (!t || !check(p, f, 0, t) || !ir_ps_expect_arrow(p, "before the result type")) return NULL;
  const ir_type *r = ir_ps_type(p);
  return r ? make(p, kind, loc, 1, &r, f, 0) : NULL;
}

static ir_op *addptr(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  if (!operands(p, f, false, false) || !opt_dict(p, f, kind) ||
      !ir_ps_expect(p, ':', "before the types") || !ir_ps_type_list(p, &f->tys, &f->ntys) ||
      !check_types(p, f, f->n, NULL))
    return NULL;
  return make(p, kind, loc, 1, &f->tys[0], f, 0);
}

static ir_op *load_store(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  if (!operands(p, f, false, false)) return NULL;
  if (ir_ps_accept_ident(p, "cacheModifier") &&
      !(ir_ps_expect(p, '=', "after 'cacheModifier'") && enum_attr(p, f, kind, "cache")))
    return NULL;
  if (ir_ps_accept_ident(p, "evictionPolicy") &&
      !(ir_ps_expect(p, '=', "after 'evictionPolicy'") && enum_attr(p, f, kind, "evict")))
    return NULL;
  if (!opt_dict(p, f, kind) || !ir_ps_expect(p, ':', "before the pointer type")) return NULL;
  ptok tt = *ir_ps_peek(p);
  const ir_type *t = ir_ps_type(p);
  if (!t || !check(p, f, 0, t)) return NULL;
  if (!ir_type_is_ptr(t)) {
    ir_ps_error(p, &tt, "expected a pointer or a tensor of pointers");
    return NULL;
  }
  if (kind == IR_OP_TT_STORE) return make(p, kind, loc, 0, NULL, f, 0);
  const ir_type *pointee = ir_type_scalar(t)->elem;
  const ir_type *r = ir_type_is_tensor(t) ? ir_type_with_elem(p->ctx, t, pointee) : pointee;
  return make(p, kind, loc, 1, &r, f, 0);
}

static ir_op *dot(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  if (!operands(p, f, false, true)) return NULL;
  if (f->kw_after && !keyword_enum(p, f, kind, "inputPrecision", "inputPrecision")) return NULL;
  if (!opt_dict(p, f, kind) || !ir_ps_expect(p, ':', "before the operand types")) return NULL;
  const ir_type *a = ir_ps_type(p);
  if (!a || !check(p, f, 0, a) || !ir_ps_expect(p, '*', "between the operand types")) return NULL;
  const ir_type *b = ir_ps_type(p);
  if (!b || !check(p, f, 1, b) || !ir_ps_expect_arrow(p, "before the result type")) return NULL;
  const ir_type *r = ir_ps_type(p);
  return r ? make(p, kind, loc, 1, &r, f, 0) : NULL;
}

/* tt.atomic_rmw add, acq_rel, gpu, %p, %v : (T, T) -> R; tt.atomic_cas
 * without the rmw keyword. */
static ir_op *atomic(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  if (kind == IR_OP_TT_ATOMIC_RMW &&
      !(enum_attr(p, f, kind, "atomic_rmw_op") && ir_ps_expect(p, ',', "after the operation")))
    return NULL;
  if (!enum_attr(p, f, kind, "sem") || !ir_ps_expect(p, ',', "after the memory semantics") ||
      !enum_attr(p, f, kind, "scope") || !ir_ps_expect(p, ',', "after the scope") ||
      !operands(p, f, false, false) || !opt_dict(p, f, kind) ||
      !ir_ps_expect(p, ':', "before the types"))
    return NULL;
  ptok tt = *ir_ps_peek(p);
  if (!ir_ps_paren_types(p, false, &f->tys, &f->ntys) ||
      !ir_ps_expect_arrow(p, "before the result type") || !check_types(p, f, f->n, &tt))
    return NULL;
  const ir_type *r = ir_ps_type(p);
  return r ? make(p, kind, loc, 1, &r, f, 0) : NULL;
}

static ir_op *assert_op(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  f->vals = malloc(sizeof *f->vals);
  f->toks = malloc(sizeof *f->toks);
  if (!f->vals || !f->toks) {
    ir_ps_error(p, NULL, "out of memory");
    return NULL;
  }
  f->toks[0] = ir_ps_next(p);
  if (!(f->vals[0] = ir_ps_use(p, &f->toks[0]))) return NULL;
  f->n = 1;
  if (!ir_ps_expect(p, ',', "before the message")) return NULL;
  ptok m = ir_ps_next(p);
  if (m.kind != PT_STRING) {
    ir_ps_error(p, &m, "expected message string");
    return NULL;
  }
  if (!opt_dict(p, f, kind) || !ir_ps_expect(p, ':', "before the type")) return NULL;
  const ir_type *t = ir_ps_type(p);
  if (!t || !check(p, f, 0, t)) return NULL;
  ir_op *op = make(p, kind, loc, 0, NULL, f, 0);
  ir_op_set_attr(p->m, op, "message", ir_attr_string(p->ctx, ir_ps_string(p, &m)));
  return op;
}

static ir_op *clampf(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  if (!operands(p, f, false, true)) return NULL;
  if (!f->kw_after) {
    ir_ps_error(p, NULL, "expected ', propagateNan = ...'");
    return NULL;
  }
  if (!keyword_enum(p, f, kind, "propagateNan", "propagateNan") || !opt_dict(p, f, kind) ||
      !ir_ps_expect(p, ':', "before the type"))
    return NULL;
  const ir_type *t = ir_ps_type(p);
  if (!t) return NULL;
  for (int i = 0; i < f->n; i++)
    if (!check(p, f, i, t)) return NULL;
  return make(p, kind, loc, 1, &t, f, 0);
}

/* tt.func public @name(%a: T {tt.divisibility = 16 : i32}) -> R attributes {...} {body} */
static ir_op *func(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  ir_op *op = NULL;
  const char *vis = NULL;
  ptok *names = NULL;
  const ir_type **types = NULL;
  int *divs = NULL, nargs = 0, cap = 0;
  if (ir_ps_peek(p)->kind == PT_IDENT) {
    ptok v = ir_ps_next(p);
    vis = ir_intern(p->ctx, v.s, v.n);
  }
  ptok sym = ir_ps_next(p);
  if (sym.kind != PT_SYMBOL) {
    ir_ps_error(p, &sym, "expected function name (@name)");
    return NULL;
  }
  if (ir_module_lookup_func(p->m, ir_intern(p->ctx, sym.s, sym.n))) {
    ir_ps_error(p, &sym, "redefinition of function '@%.*s'", (int)sym.n, sym.s);
    return NULL;
  }
  if (!ir_ps_expect(p, '(', "to open the argument list")) return NULL;
  if (!ir_ps_accept(p, ')')) {
    do {
      ptok name = ir_ps_next(p);
      if (name.kind != PT_VALUE || name.idx >= 0) {
        ir_ps_error(p, &name, "expected argument name");
        goto done;
      }
      if (nargs == IR_MAX_PARAMS) {
        ir_ps_error(p, &name, "too many parameters (more than %d)", IR_MAX_PARAMS);
        goto done;
      }
      if (!ir_ps_expect(p, ':', "after argument name")) goto done;
      const ir_type *t = ir_ps_type(p);
      if (!t) goto done;
      if (nargs == cap) {
        cap = cap ? cap * 2 : 8;
        ptok *nn = realloc(names, (size_t)cap * sizeof *nn);
        const ir_type **nt = nn ? realloc(types, (size_t)cap * sizeof *nt) : NULL;
        if (nn) names = nn;
        if (nt) types = nt;
        int *nd = nt ? realloc(divs, (size_t)cap * sizeof *nd) : NULL;
        if (!nd) {
          ir_ps_error(p, &name, "out of memory");
          goto done;
        }
        divs = nd;
      }
      names[nargs] = name;
      types[nargs] = t;
      divs[nargs] = 0;
      if (ir_ps_is_punct(p, '{')) {
        pattrs a = {0};
        ptok at = *ir_ps_peek(p);
        bool ok = ir_ps_attr_dict_into(p, &a, false, kind);
        for (int i = 0; ok && i < a.n; i++) {
          const ir_attr *v = a.a[i].value;
          if (strcmp(a.a[i].name, "tt.divisibility") != 0 || v->kind != IR_ATTR_INT || v->i < 1 ||
              v->i > (1 << 30))
            ok = ir_ps_error(p, &at, "unsupported argument attribute '%s'", a.a[i].name);
          else
            divs[nargs] = (int)v->i;
        }
        free(a.a);
        if (!ok) goto done;
      }
      nargs++;
    } while (ir_ps_accept(p, ','));
    if (!ir_ps_expect(p, ')', "to close the argument list")) goto done;
  }
  if (ir_ps_peek(p)->kind == PT_ARROW) { /* result types: implied by the tt.return */
    ir_ps_next(p);
    const ir_type **rt = NULL;
    int nrt = 0;
    bool ok = ir_ps_paren_types(p, true, &rt, &nrt);
    free(rt);
    if (!ok) goto done;
  }
  if (ir_ps_accept_ident(p, "attributes") && !ir_ps_attr_dict_into(p, &f->attrs, false, kind))
    goto done;
  op = make(p, kind, loc, 0, NULL, f, 1);
  ir_op_set_attr(p->m, op, "sym_name", ir_attr_string(p->ctx, ir_intern(p->ctx, sym.s, sym.n)));
  if (vis) ir_op_set_attr(p->m, op, "sym_visibility", ir_attr_string(p->ctx, vis));
  if (!ir_ps_region(p, &op->regions[0], nargs, types, names, false)) goto done;
  for (int i = 0; i < nargs; i++)
    op->regions[0].first->args[i]->divisibility = divs[i];
done:
  free(names);
  free(types);
  free(divs);
  return p->failed ? NULL : op;
}

/* `(%a = %x, %b = %y)` into names and f's operands (appended). */
static bool init_list(parser *p, form *f, ptok **names, int *n) {
  *names = NULL;
  *n = 0;
  if (!ir_ps_expect(p, '(', "to open the initialization list")) return false;
  do {
    ptok name = ir_ps_next(p);
    if (name.kind != PT_VALUE || name.idx >= 0)
      return ir_ps_error(p, &name, "expected region argument name");
    if (!ir_ps_expect(p, '=', "after region argument name")) return false;
    ptok vt = ir_ps_next(p);
    ir_value *v = ir_ps_use(p, &vt);
    if (!v) return false;
    ptok *nn = realloc(*names, (size_t)(*n + 1) * sizeof *nn);
    if (nn) *names = nn;
    ir_value **nv = nn ? realloc(f->vals, (size_t)(f->n + 1) * sizeof *nv) : NULL;
    if (nv) f->vals = nv;
    ptok *nt = nv ? realloc(f->toks, (size_t)(f->n + 1) * sizeof *nt) : NULL;
    if (!nt) return ir_ps_error(p, &vt, "out of memory");
    f->toks = nt;
    (*names)[(*n)++] = name;
    f->toks[f->n] = vt;
    f->vals[f->n++] = v;
  } while (ir_ps_accept(p, ','));
  return ir_ps_expect(p, ')', "to close the initialization list");
}

/* scf.for %iv = %lb to %ub step %s iter_args(%a = %x) -> (T)  : i32 {body} {attrs} */
static ir_op *for_op(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  ir_op *op = NULL;
  ptok *names = NULL;
  const ir_type **args = NULL;
  int ninits = 0;
  ptok iv = ir_ps_next(p);
  if (iv.kind != PT_VALUE || iv.idx >= 0) {
    ir_ps_error(p, &iv, "expected induction variable name");
    return NULL;
  }
  static const char *const seps[] = {"=", "to", "step"};
  f->vals = calloc(3, sizeof *f->vals);
  f->toks = calloc(3, sizeof *f->toks);
  if (!f->vals || !f->toks) {
    ir_ps_error(p, &iv, "out of memory");
    return NULL;
  }
  for (int i = 0; i < 3; i++) {
    if (i == 0 ? !ir_ps_expect(p, '=', "after the induction variable")
               : !ir_ps_expect_ident(p, seps[i], ""))
      return NULL;
    f->toks[i] = ir_ps_next(p);
    if (!(f->vals[i] = ir_ps_use(p, &f->toks[i]))) return NULL;
    f->n++;
  }
  if (ir_ps_accept_ident(p, "iter_args")) {
    if (!init_list(p, f, &names, &ninits) ||
        !ir_ps_expect_arrow(p, "after the iteration arguments") ||
        !ir_ps_paren_types(p, false, &f->tys, &f->ntys))
      goto done;
    if (f->ntys != ninits) {
      ir_ps_error(p, NULL, "expected %d iteration argument types but had %d", ninits, f->ntys);
      goto done;
    }
    for (int i = 0; i < ninits; i++)
      if (!check(p, f, 3 + i, f->tys[i])) goto done;
  }
  if (!ir_ps_expect(p, ':', "before the induction variable type")) goto done;
  const ir_type *ivt = ir_ps_type(p);
  if (!ivt || !check(p, f, 0, ivt) || !check(p, f, 1, ivt) || !check(p, f, 2, ivt)) goto done;
  args = malloc((size_t)(ninits + 1) * sizeof *args);
  ptok *argnames = realloc(names, (size_t)(ninits + 1) * sizeof *argnames);
  if (!args || !argnames) {
    ir_ps_error(p, &iv, "out of memory");
    goto done;
  }
  names = argnames;
  memmove(names + 1, names, (size_t)ninits * sizeof *names);
  names[0] = iv;
  args[0] = ivt;
  for (int i = 0; i < ninits; i++)
    args[i + 1] = f->tys[i];
  op = make(p, kind, loc, ninits, f->tys, f, 1);
  if (!ir_ps_region(p, &op->regions[0], ninits + 1, args, names, ninits == 0) ||
      !opt_dict(p, f, kind))
    goto done;
  ir_ps_attrs_apply(p, op, &f->attrs);
done:
  free(names);
  free(args);
  return p->failed ? NULL : op;
}

/* scf.if %c -> (T) {then} else {else} {attrs} */
static ir_op *if_op(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  if (!operands(p, f, false, false)) return NULL;
  if (ir_ps_peek(p)->kind == PT_ARROW) {
    ir_ps_next(p);
    if (!ir_ps_paren_types(p, false, &f->tys, &f->ntys)) return NULL;
  }
  ir_op *op = make(p, kind, loc, f->ntys, f->tys, f, 2);
  bool implicit = f->ntys == 0;
  if (!ir_ps_region(p, &op->regions[0], -1, NULL, NULL, implicit)) return NULL;
  if (ir_ps_accept_ident(p, "else") && !ir_ps_region(p, &op->regions[1], -1, NULL, NULL, implicit))
    return NULL;
  if (!opt_dict(p, f, kind)) return NULL;
  ir_ps_attrs_apply(p, op, &f->attrs);
  return op;
}

/* scf.while (%a = %x) : (T) -> R {before} do {^bb0(...): after} attributes {...} */
static ir_op *while_op(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  ir_op *op = NULL;
  ptok *names = NULL;
  const ir_type **res = NULL;
  int ninits = 0, nres = 0;
  if (ir_ps_is_punct(p, '(') && !init_list(p, f, &names, &ninits)) goto done;
  ptok tt = *ir_ps_peek(p);
  if (!ir_ps_expect(p, ':', "before the types") ||
      !ir_ps_paren_types(p, false, &f->tys, &f->ntys) ||
      !ir_ps_expect_arrow(p, "before the result types") ||
      !ir_ps_paren_types(p, true, &res, &nres) || !check_types(p, f, ninits, &tt))
    goto done;
  op = make(p, kind, loc, nres, res, f, 2);
  if (!ir_ps_region(p, &op->regions[0], ninits, f->tys, names, false) ||
      !ir_ps_expect_ident(p, "do", "between the regions") ||
      !ir_ps_region(p, &op->regions[1], -1, NULL, NULL, false))
    goto done;
  if (ir_ps_accept_ident(p, "attributes") && !ir_ps_attr_dict(p, op, false)) goto done;
done:
  free(names);
  free(res);
  return p->failed ? NULL : op;
}

/* scf.condition(%c) %a, %b : T, U */
static ir_op *condition(parser *p, form *f, ir_op_kind kind, ir_loc loc) {
  if (!ir_ps_expect(p, '(', "after 'scf.condition'")) return NULL;
  ptok ct = ir_ps_next(p);
  ir_value *c = ir_ps_use(p, &ct);
  if (!c || !ir_ps_expect(p, ')', "after the condition")) return NULL;
  form rest = {0};
  bool ok = operands(p, &rest, true, false);
  if (ok && rest.n) {
    ptok tt = *ir_ps_peek(p);
    ok = ir_ps_expect(p, ':', "before the types") && ir_ps_type_list(p, &rest.tys, &rest.ntys);
    if (ok && rest.ntys != rest.n)
      ok = ir_ps_error(p, &tt, "expected %d types but had %d", rest.n, rest.ntys);
    for (int i = 0; ok && i < rest.n; i++)
      ok = check(p, &rest, i, rest.tys[i]);
  }
  ir_op *op = NULL;
  if (ok) {
    f->vals = malloc((size_t)(rest.n + 1) * sizeof *f->vals);
    if (!f->vals) {
      ir_ps_error(p, &ct, "out of memory");
    } else {
      f->vals[0] = c;
      for (int i = 0; i < rest.n; i++)
        f->vals[i + 1] = rest.vals[i];
      f->n = rest.n + 1;
      op = make(p, kind, loc, 0, NULL, f, 0);
    }
  }
  free(rest.vals);
  free(rest.toks);
  free(rest.tys);
  return op;
}

/* A switch over forms (ops.def), not op kinds: an op with an existing
 * form needs nothing here. */
static ir_op *dispatch(parser *p, form *f, ir_op_kind kind, const ptok *name, ir_loc loc) {
  switch (ir_op_kind_info(kind)->form) {
  case IR_FORM_GENERIC:
    ir_ps_error(p, name, "'%.*s' has no custom form: write it in the generic form \"%.*s\"(...)",
                (int)name->n, name->s, (int)name->n, name->s);
    return NULL;
  case IR_FORM_SAME: return same_type(p, f, kind, loc);
  case IR_FORM_CONV_TO: return conversion(p, f, kind, loc, false);
  case IR_FORM_CONV_ARROW: return conversion(p, f, kind, loc, true);
  case IR_FORM_OPERANDS: return operand_list(p, f, kind, loc);
  case IR_FORM_CMP: return cmp(p, f, kind, loc);
  case IR_FORM_SELECT: return select_op(p, f, kind, loc);
  case IR_FORM_CONSTANT: return constant(p, f, kind, loc);
  case IR_FORM_FUNC: return func(p, f, kind, loc);
  case IR_FORM_PROGRAM_ID: return program_id(p, f, kind, loc);
  case IR_FORM_RESULT_TYPED: return result_typed(p, f, kind, loc);
  case IR_FORM_FP_TO_FP: return fp_to_fp(p, f, kind, loc);
  case IR_FORM_ADDPTR: return addptr(p, f, kind, loc);
  case IR_FORM_LOAD_STORE: return load_store(p, f, kind, loc);
  case IR_FORM_DOT: return dot(p, f, kind, loc);
  case IR_FORM_ATOMIC: return atomic(p, f, kind, loc);
  case IR_FORM_ASSERT: return assert_op(p, f, kind, loc);
  case IR_FORM_CLAMPF: return clampf(p, f, kind, loc);
  case IR_FORM_FOR: return for_op(p, f, kind, loc);
  case IR_FORM_WHILE: return while_op(p, f, kind, loc);
  case IR_FORM_IF: return if_op(p, f, kind, loc);
  case IR_FORM_CONDITION: return condition(p, f, kind, loc);
  case IR_FORM_FUNC_TYPE: return func_type(p, f, kind, loc);
  case IR_FORM_INDEX: return index_op(p, f, kind, loc);
  case IR_FORM_ASYNC_COPY: return async_copy(p, f, kind, loc);
  case IR_FORM_COMMIT: return tokens(p, f, kind, loc, true);
  case IR_FORM_WAIT: return tokens(p, f, kind, loc, false);
  }
  return NULL;
}

ir_op *ir_ps_custom_op(parser *p, ir_op_kind kind, const ptok *name, ir_loc loc) {
  form f;
  memset(&f, 0, sizeof f);
  ir_op *op = dispatch(p, &f, kind, name, loc);
  free(f.vals);
  free(f.toks);
  free(f.tys);
  free(f.attrs.a);
  return p->failed ? NULL : op;
}
