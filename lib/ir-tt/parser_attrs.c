/* parser_attrs.c - the IR text parser's attributes: layouts
 * (`#ttg.blocked<{...}>`, `#ttg.slice<{...}>`, aliases), scalars with their
 * types, strings, `array<i32: ...>`, `dense<...> : tensor<...>`, enum
 * keywords and attribute dictionaries (the inverse of ir_pr_attr / ir_pr_dict). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir-tt/parser_impl.h"

/* ---- layouts -------------------------------------------------------- */

/* `[1, 2, 3]` into v; *n receives the count. */
static bool uint_array(parser *p, unsigned *v, int *n) {
  *n = 0;
  if (!ir_ps_expect(p, '[', "to open the list")) return false;
  if (ir_ps_accept(p, ']')) return true;
  do {
    ptok t = ir_ps_next(p);
    int64_t x;
    if (t.kind != PT_INT || !ir_ps_parse_int(&t, &x) || x < 0 || x > (1 << 20))
      return ir_ps_error(p, &t, "expected non-negative integer");
    if (*n == IR_MAX_RANK) return ir_ps_error(p, &t, "layout rank exceeds %d", IR_MAX_RANK);
    v[(*n)++] = (unsigned)x;
  } while (ir_ps_accept(p, ','));
  return ir_ps_expect(p, ']', "to close the list");
}

static const ir_attr *blocked_body(parser *p, const ptok *at) {
  static const char *const keys[] = {"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"};
  unsigned v[4][IR_MAX_RANK], ignored[IR_MAX_RANK];
  int n[4] = {-1, -1, -1, -1}, nignored;
  if (!ir_ps_expect(p, '<', "after '#ttg.blocked'") || !ir_ps_expect(p, '{', "in blocked layout"))
    return NULL;
  do {
    ptok k = ir_ps_next(p);
    if (k.kind != PT_IDENT) {
      ir_ps_error(p, &k, "expected blocked layout parameter name");
      return NULL;
    }
    if (!ir_ps_expect(p, '=', "after layout parameter name")) return NULL;
    int which = -1;
    for (int i = 0; i < 4; i++)
      if (ir_ps_tok_is(&k, keys[i])) which = i;
    /* Older Triton prints CTA layout parameters; ttc has one CTA. */
    if (which < 0 && (ir_ps_tok_is(&k, "CTAsPerCGA") || ir_ps_tok_is(&k, "CTASplitNum") ||
                      ir_ps_tok_is(&k, "CTAOrder"))) {
      if (!uint_array(p, ignored, &nignored)) return NULL;
      continue;
    }
    if (which < 0) {
      ir_ps_error(p, &k, "unknown blocked layout parameter '%.*s'", (int)k.n, k.s);
      return NULL;
    }
    if (!uint_array(p, v[which], &n[which])) return NULL;
  } while (ir_ps_accept(p, ','));
  if (!ir_ps_expect(p, '}', "at the end of blocked layout") || !ir_ps_expect(p, '>', "after '}'"))
    return NULL;
  for (int i = 0; i < 4; i++) {
    if (n[i] < 0) {
      ir_ps_error(p, at, "blocked layout is missing '%s'", keys[i]);
      return NULL;
    }
    if (n[i] != n[0] || n[i] == 0) {
      ir_ps_error(p, at, "blocked layout parameters must have the same non-zero length");
      return NULL;
    }
  }
  return ir_attr_blocked(p->ctx, n[0], v[0], v[1], v[2], v[3]);
}

static const ir_attr *slice_body(parser *p) {
  if (!ir_ps_expect(p, '<', "after '#ttg.slice'") || !ir_ps_expect(p, '{', "in slice layout") ||
      !ir_ps_expect_ident(p, "dim", "in slice layout") || !ir_ps_expect(p, '=', "after 'dim'"))
    return NULL;
  ptok t = ir_ps_next(p);
  int64_t dim;
  if (t.kind != PT_INT || !ir_ps_parse_int(&t, &dim) || dim < 0 || dim >= IR_MAX_RANK) {
    ir_ps_error(p, &t, "expected slice dimension");
    return NULL;
  }
  if (!ir_ps_expect(p, ',', "after slice dimension") ||
      !ir_ps_expect_ident(p, "parent", "in slice layout") ||
      !ir_ps_expect(p, '=', "after 'parent'"))
    return NULL;
  const ir_attr *parent = ir_ps_layout(p);
  if (!parent || !ir_ps_expect(p, '}', "at the end of slice layout") ||
      !ir_ps_expect(p, '>', "after '}'"))
    return NULL;
  return ir_attr_slice(p->ctx, (int)dim, parent);
}

const ir_attr *ir_ps_layout(parser *p) {
  if (p->failed) return NULL;
  ptok t = ir_ps_next(p);
  if (t.kind != PT_HASH) {
    ir_ps_error(p, &t, "expected layout attribute");
    return NULL;
  }
  if (ir_ps_tok_is(&t, "ttg.blocked")) return blocked_body(p, &t);
  if (ir_ps_tok_is(&t, "ttg.slice")) return slice_body(p);
  for (int i = 0; i < p->naliases; i++)
    if (p->aliases[i].n == t.n && memcmp(p->aliases[i].s, t.s, t.n) == 0) return p->aliases[i].attr;
  ir_ps_error(p, &t, "undefined symbol alias id '%.*s'", (int)t.n, t.s);
  return NULL;
}

/* ---- attributes ----------------------------------------------------- */

typedef struct penum {
  const char *attr, *kw;
  int64_t value;
} penum;

/* Enum keywords with Triton's numbering (tt.load's cache, tt.atomic_rmw's
 * atomic_rmw_op, ...). cmpi / cmpf predicates come from attrs.c. */
static const penum enum_table[] = {
    {"cache", "none", 1}, {"cache", "ca", 2}, {"cache", "cg", 3}, {"cache", "wb", 4},
    {"cache", "cs", 5}, {"cache", "wt", 6}, {"cache", "cv", 7},
    {"evict", "evict_normal", 1}, {"evict", "evict_first", 2}, {"evict", "evict_last", 3},
    {"atomic_rmw_op", "and", 1}, {"atomic_rmw_op", "or", 2}, {"atomic_rmw_op", "xor", 3},
    {"atomic_rmw_op", "add", 4}, {"atomic_rmw_op", "fadd", 5}, {"atomic_rmw_op", "max", 6},
    {"atomic_rmw_op", "min", 7}, {"atomic_rmw_op", "umax", 8}, {"atomic_rmw_op", "umin", 9},
    {"atomic_rmw_op", "exch", 10},
    {"sem", "relaxed", 1}, {"sem", "acquire", 2}, {"sem", "release", 3}, {"sem", "acq_rel", 4},
    {"scope", "gpu", 1}, {"scope", "cta", 2}, {"scope", "sys", 3},
    {"inputPrecision", "tf32", 0}, {"inputPrecision", "tf32x3", 1},
    {"inputPrecision", "ieee", 2}, {"inputPrecision", "bf16x3", 3}, {"inputPrecision", "bf16x6", 4},
    {"propagateNan", "none", 0}, {"propagateNan", "all", 0xFFFF},
    {"rounding", "rtz", 0}, {"rounding", "rtne", 1},
};

bool ir_ps_enum_value(const char *name, ir_op_kind kind, const char *kw, int64_t *value) {
  *value = 0;
  if (strcmp(name, "predicate") == 0 && (kind == IR_OP_ARITH_CMPI || kind == IR_OP_ARITH_CMPF)) {
    int n = kind == IR_OP_ARITH_CMPI ? IR_CMPI_UGE + 1 : IR_CMPF_TRUE + 1;
    for (int i = 0; i < n; i++) {
      const char *s = kind == IR_OP_ARITH_CMPI ? ir_cmpi_name((ir_cmpi_pred)i)
                                               : ir_cmpf_name((ir_cmpf_pred)i);
      if (strcmp(s, kw) == 0) {
        *value = i;
        return true;
      }
    }
    return false;
  }
  bool known_attr = false;
  for (size_t i = 0; i < sizeof enum_table / sizeof *enum_table; i++) {
    if (strcmp(enum_table[i].attr, name) != 0) continue;
    known_attr = true;
    if (strcmp(enum_table[i].kw, kw) == 0) {
      *value = enum_table[i].value;
      return true;
    }
  }
  return !known_attr; /* keywords of other attributes are opaque, numbered 0 */
}

/* A half or bfloat16 bit pattern as a double. */
static double half_value(unsigned bits, bool is_bf16) {
  if (is_bf16) {
    uint32_t u = bits << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
  }
  int e = (int)((bits >> 10) & 0x1F);
  unsigned m = bits & 0x3FF;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
  return (bits & 0x8000) ? -v : v;
}

/* A number token as an attribute of scalar type ty. */
static const ir_attr *number_attr(parser *p, const ptok *t, const ir_type *ty) {
  bool is_hex_lit = t->kind == PT_INT && memchr(t->s, 'x', t->n);
  if (ty->kind == IR_TY_INT) {
    int64_t v;
    if (t->kind != PT_INT || !ir_ps_parse_int(t, &v)) {
      ir_ps_error(p, t, "expected integer literal for type 'i%u'", ty->width);
      return NULL;
    }
    return ir_attr_int(p->ctx, ty, v);
  }
  if (ty->kind != IR_TY_FLOAT) {
    ir_ps_error(p, t, "expected integer or floating-point type after the literal");
    return NULL;
  }
  double v;
  if (is_hex_lit) {
    int64_t bits;
    if (!ir_ps_parse_int(t, &bits)) {
      ir_ps_error(p, t, "invalid hexadecimal float literal");
      return NULL;
    }
    if (ty->width == 64) {
      memcpy(&v, &bits, sizeof v);
    } else if (ty->width == 32) {
      uint32_t u = (uint32_t)bits;
      float f;
      memcpy(&f, &u, sizeof f);
      v = f;
    } else {
      v = half_value((unsigned)bits & 0xFFFF, ty->is_bf16);
    }
  } else {
    char buf[128];
    if (t->n >= sizeof buf) {
      ir_ps_error(p, t, "floating-point literal too long");
      return NULL;
    }
    memcpy(buf, t->s, t->n);
    buf[t->n] = '\0';
    v = strtod(buf, NULL);
  }
  return ir_attr_float(p->ctx, ty, v);
}

/* `dense<LITERAL> : tensor<...>` after `dense`. */
static const ir_attr *dense_attr(parser *p) {
  if (!ir_ps_expect(p, '<', "after 'dense'")) return NULL;
  ptok lit = ir_ps_next(p);
  if (lit.kind != PT_INT && lit.kind != PT_FLOAT &&
      !(lit.kind == PT_IDENT && (ir_ps_tok_is(&lit, "true") || ir_ps_tok_is(&lit, "false")))) {
    ir_ps_error(p, &lit, "expected a splat value in dense attribute");
    return NULL;
  }
  if (!ir_ps_expect(p, '>', "after the dense value") ||
      !ir_ps_expect(p, ':', "after dense attribute"))
    return NULL;
  ptok tt = *ir_ps_peek(p);
  const ir_type *ty = ir_ps_type(p);
  if (!ty) return NULL;
  if (ty->kind != IR_TY_TENSOR) {
    ir_ps_error(p, &tt, "dense attribute requires a tensor type");
    return NULL;
  }
  const ir_type *elem = ty->elem;
  const ir_attr *scalar;
  if (lit.kind == PT_IDENT) {
    if (elem->kind != IR_TY_INT || elem->width != 1) {
      ir_ps_error(p, &lit, "boolean splat requires an i1 tensor");
      return NULL;
    }
    scalar = ir_attr_bool(p->ctx, ir_ps_tok_is(&lit, "true"));
  } else {
    scalar = number_attr(p, &lit, elem);
  }
  return scalar ? ir_attr_dense(p->ctx, ty, scalar) : NULL;
}

/* `array<i32: 1, 0>` after `array`. */
static const ir_attr *array_attr(parser *p) {
  if (!ir_ps_expect(p, '<', "after 'array'") ||
      !ir_ps_expect_ident(p, "i32", "as array element type"))
    return NULL;
  int64_t v[64];
  int n = 0;
  if (ir_ps_accept(p, ':')) {
    do {
      ptok t = ir_ps_next(p);
      if (t.kind != PT_INT || !ir_ps_parse_int(&t, &v[n])) {
        ir_ps_error(p, &t, "expected integer in array");
        return NULL;
      }
      if (++n == 64) {
        ir_ps_error(p, &t, "array attribute too long");
        return NULL;
      }
    } while (ir_ps_accept(p, ','));
  }
  if (!ir_ps_expect(p, '>', "at the end of array")) return NULL;
  return ir_attr_array(p->ctx, n, v);
}

const ir_attr *ir_ps_attr_value(parser *p, const char *name, ir_op_kind kind) {
  if (p->failed) return NULL;
  ptok t = *ir_ps_peek(p);
  switch (t.kind) {
  case PT_STRING: ir_ps_next(p); return ir_attr_string(p->ctx, ir_ps_string(p, &t));
  case PT_HASH: return ir_ps_layout(p);
  case PT_INT:
  case PT_FLOAT: {
    ir_ps_next(p);
    const ir_type *ty = NULL;
    if (ir_ps_accept(p, ':')) {
      if (!(ty = ir_ps_type(p))) return NULL;
    } else {
      ty = t.kind == PT_INT ? ir_type_i64(p->ctx) : ir_type_f64(p->ctx);
    }
    return number_attr(p, &t, ty);
  }
  case PT_IDENT: {
    ir_ps_next(p);
    if (ir_ps_tok_is(&t, "true") ||
        ir_ps_tok_is(&t, "false")) return ir_attr_bool(p->ctx, ir_ps_tok_is(&t, "true"));
    if (ir_ps_tok_is(&t, "unit")) return ir_attr_unit(p->ctx);
    if (ir_ps_tok_is(&t, "dense")) return dense_attr(p);
    if (ir_ps_tok_is(&t, "array")) return array_attr(p);
    const char *kw = ir_intern(p->ctx, t.s, t.n);
    int64_t v;
    if (!ir_ps_enum_value(name, kind, kw, &v)) {
      ir_ps_error(p, &t, "unknown value '%s' for attribute '%s'", kw, name);
      return NULL;
    }
    return ir_attr_enum(p->ctx, kw, v);
  }
  case PT_EOF: case PT_VALUE: case PT_BLOCK: case PT_SYMBOL: case PT_BANG: case PT_ARROW:
  case PT_PUNCT: break;
  }
  ir_ps_error(p, &t, "expected attribute value");
  return NULL;
}

bool ir_ps_attr_dict_into(parser *p, pattrs *out, bool angled, ir_op_kind kind) {
  if (angled && !ir_ps_expect(p, '<', "to open the properties")) return false;
  if (!ir_ps_expect(p, '{', "to open the attribute dictionary")) return false;
  if (!ir_ps_accept(p, '}')) {
    do {
      ptok k = ir_ps_next(p);
      const char *name;
      if (k.kind == PT_IDENT) name = ir_intern(p->ctx, k.s, k.n);
      else if (k.kind == PT_STRING) name = ir_ps_string(p, &k);
      else return ir_ps_error(p, &k, "expected attribute name");
      const ir_attr *v = ir_ps_accept(p, '=') ? ir_ps_attr_value(p, name, kind)
          : ir_attr_unit(p->ctx);
      if (!v) return false;
      for (int i = 0; i < out->n; i++)
        if (out->a[i].name == name)
          return ir_ps_error(p, &k, "duplicate key '%s' in dictionary", name);
      if (out->n == out->cap) {
        out->cap = out->cap ? out->cap * 2 : 8;
        ir_named_attr *na = realloc(out->a, (size_t)out->cap * sizeof *na);
        if (!na) return ir_ps_error(p, &k, "out of memory");
        out->a = na;
      }
      out->a[out->n++] = (ir_named_attr){name, v};
    } while (ir_ps_accept(p, ','));
    if (!ir_ps_expect(p, '}', "to close the attribute dictionary")) return false;
  }
  return !angled || ir_ps_expect(p, '>', "to close the properties");
}

void ir_ps_attrs_apply(parser *p, ir_op *op, pattrs *a) {
  for (int i = 0; i < a->n; i++) ir_op_set_attr(p->m, op, a->a[i].name, a->a[i].value);
  free(a->a);
  a->a = NULL;
  a->n = a->cap = 0;
}

bool ir_ps_attr_dict(parser *p, ir_op *op, bool angled) {
  pattrs a = {0};
  bool ok = ir_ps_attr_dict_into(p, &a, angled, op->kind);
  if (ok) ir_ps_attrs_apply(p, op, &a);
  free(a.a);
  return ok;
}
