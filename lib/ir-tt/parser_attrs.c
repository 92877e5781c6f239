// SPDX-License-Identifier: MIT
/* parser_attrs.c - the IR text parser's attributes: layouts
 * (`#ttg.blocked<{...}>`, `#ttg.slice`, `#ttg.nvidia_mma`, `#ttg.dot_op`,
 * the shared encodings, `#ttg.shared_memory`, aliases), scalars with their
 * types, strings, `array<i32: ...>`, `dense<...> : tensor<...>`, enum
 * keywords and attribute dictionaries (the inverse of ir_pr_attr / ir_pr_dict). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir-tt/parser_impl.h"

/* ---- layouts -------------------------------------------------------- */

/* `[1, 2, 3]` into v; *n receives the count. */
static bool uint_array(parser *p, unsigned *v, int *n, int max) {
  *n = 0;
  if (!ir_ps_expect(p, '[', "to open the list")) return false;
  if (ir_ps_accept(p, ']')) return true;
  do {
    ptok t = ir_ps_next(p);
    int64_t x;
    if (t.kind != PT_INT || !ir_ps_parse_int(&t, &x) || x < 0 || x > (1 << 20))
      return ir_ps_error(p, &t, "expected non-negative integer");
    if (*n == max) return ir_ps_error(p, &t, "layout parameter has more than %d entries", max);
    v[(*n)++] = (unsigned)x;
  } while (ir_ps_accept(p, ','));
  return ir_ps_expect(p, ']', "to close the list");
}

/* The parameters of any #ttg layout body `<{key = value, ...}>`. A key's
 * value is a list, an integer, true/false, or a layout (parent). */
enum {
  LK_SPT,
  LK_TPW,
  LK_WPC,
  LK_ORDER,
  LK_VMAJ,
  LK_VMIN,
  LK_INSTR,
  LK_DIM,
  LK_PARENT,
  LK_OPIDX,
  LK_KWIDTH,
  LK_VEC,
  LK_PERPHASE,
  LK_MAXPHASE,
  LK_SWIZZLE,
  LK_TRANSPOSED,
  LK_EBITS,
  LK_IGNORED,
  LK_COUNT
};

static const struct {
  const char *name;
  char form; /* 'l' list, 'i' integer, 'b' bool, 'a' layout */
} layout_keys[LK_COUNT] = {
    [LK_SPT] = {"sizePerThread", 'l'},
    [LK_TPW] = {"threadsPerWarp", 'l'},
    [LK_WPC] = {"warpsPerCTA", 'l'},
    [LK_ORDER] = {"order", 'l'},
    [LK_VMAJ] = {"versionMajor", 'i'},
    [LK_VMIN] = {"versionMinor", 'i'},
    [LK_INSTR] = {"instrShape", 'l'},
    [LK_DIM] = {"dim", 'i'},
    [LK_PARENT] = {"parent", 'a'},
    [LK_OPIDX] = {"opIdx", 'i'},
    [LK_KWIDTH] = {"kWidth", 'i'},
    [LK_VEC] = {"vec", 'i'},
    [LK_PERPHASE] = {"perPhase", 'i'},
    [LK_MAXPHASE] = {"maxPhase", 'i'},
    [LK_SWIZZLE] = {"swizzlingByteWidth", 'i'},
    [LK_TRANSPOSED] = {"transposed", 'b'},
    [LK_EBITS] = {"elementBitWidth", 'i'},
    [LK_IGNORED] = {"", 'l'},
};

typedef struct layout_params {
  bool has[LK_COUNT];
  unsigned list[LK_COUNT][IR_MAX_RANK];
  int nlist[LK_COUNT];
  int64_t num[LK_COUNT];
  const ir_attr *parent;
} layout_params;

static int layout_key(const ptok *k) {
  for (int i = 0; i < LK_IGNORED; i++)
    if (ir_ps_tok_is(k, layout_keys[i].name)) return i;
  /* Older Triton prints CTA layout parameters; ttc has one CTA. */
  if (ir_ps_tok_is(k, "CTAsPerCGA") || ir_ps_tok_is(k, "CTASplitNum") ||
      ir_ps_tok_is(k, "CTAOrder"))
    return LK_IGNORED;
  return -1;
}

static bool layout_value(parser *p, layout_params *lp, int key, const ptok *k) {
  switch (layout_keys[key].form) {
  case 'l': return uint_array(p, lp->list[key], &lp->nlist[key], IR_MAX_RANK);
  case 'a': return (lp->parent = ir_ps_layout(p)) != NULL;
  case 'b': {
    ptok t = ir_ps_next(p);
    if (!ir_ps_tok_is(&t, "true") && !ir_ps_tok_is(&t, "false"))
      return ir_ps_error(p, &t, "expected true or false for '%.*s'", (int)k->n, k->s);
    lp->num[key] = ir_ps_tok_is(&t, "true");
    return true;
  }
  default: {
    ptok t = ir_ps_next(p);
    int64_t x;
    if (t.kind != PT_INT || !ir_ps_parse_int(&t, &x) || x < 0 || x > (1 << 20))
      return ir_ps_error(p, &t, "expected non-negative integer for '%.*s'", (int)k->n, k->s);
    lp->num[key] = x;
    return true;
  }
  }
}

static bool layout_body(parser *p, const ptok *at, layout_params *lp) {
  memset(lp, 0, sizeof *lp);
  if (!ir_ps_expect(p, '<', "after the layout name") || !ir_ps_expect(p, '{', "in layout"))
    return false;
  do {
    ptok k = ir_ps_next(p);
    if (k.kind != PT_IDENT) return ir_ps_error(p, &k, "expected layout parameter name");
    int key = layout_key(&k);
    if (key < 0)
      return ir_ps_error(p, &k, "unknown layout parameter '%.*s' in '#%.*s'", (int)k.n, k.s,
                         (int)at->n, at->s);
    if (!ir_ps_expect(p, '=', "after layout parameter name") || !layout_value(p, lp, key, &k))
      return false;
    lp->has[key] = true;
  } while (ir_ps_accept(p, ','));
  return ir_ps_expect(p, '}', "at the end of the layout") && ir_ps_expect(p, '>', "after '}'");
}

/* Every key in `keys` (ended by -1) must be present. */
static bool layout_require(parser *p, const ptok *at, const layout_params *lp, const int *keys) {
  for (; *keys >= 0; keys++)
    if (!lp->has[*keys])
      return ir_ps_error(p, at, "'#%.*s' is missing '%s'", (int)at->n, at->s,
                         layout_keys[*keys].name);
  return true;
}

static const ir_attr *blocked_layout(parser *p, const ptok *at, layout_params *lp) {
  static const int req[] = {LK_SPT, LK_TPW, LK_WPC, LK_ORDER, -1};
  if (!layout_require(p, at, lp, req)) return NULL;
  int n = lp->nlist[LK_SPT];
  if (n == 0 || lp->nlist[LK_TPW] != n || lp->nlist[LK_WPC] != n || lp->nlist[LK_ORDER] != n) {
    ir_ps_error(p, at, "blocked layout parameters must have the same non-zero length");
    return NULL;
  }
  return ir_attr_blocked(p->ctx, n, lp->list[LK_SPT], lp->list[LK_TPW], lp->list[LK_WPC],
                         lp->list[LK_ORDER]);
}

static const ir_attr *mma_layout(parser *p, const ptok *at, layout_params *lp) {
  static const int req[] = {LK_VMAJ, LK_VMIN, LK_WPC, LK_INSTR, -1};
  if (!layout_require(p, at, lp, req)) return NULL;
  if (lp->nlist[LK_WPC] == 0 || lp->nlist[LK_INSTR] > 3) {
    ir_ps_error(p, at, "malformed nvidia_mma layout");
    return NULL;
  }
  return ir_attr_nvidia_mma(p->ctx, (unsigned)lp->num[LK_VMAJ], (unsigned)lp->num[LK_VMIN],
                            lp->nlist[LK_WPC], lp->list[LK_WPC], lp->nlist[LK_INSTR],
                            lp->list[LK_INSTR]);
}

const ir_attr *ir_ps_layout(parser *p) {
  if (p->failed) return NULL;
  ptok t = ir_ps_next(p);
  if (t.kind != PT_HASH) {
    ir_ps_error(p, &t, "expected layout attribute");
    return NULL;
  }
  if (ir_ps_tok_is(&t, "ttg.shared_memory")) return ir_attr_shared_memory(p->ctx);
  static const char *const kinds[] = {"ttg.blocked", "ttg.slice",           "ttg.nvidia_mma",
                                      "ttg.dot_op",  "ttg.swizzled_shared", "ttg.nvmma_shared"};
  int kind = -1;
  for (int i = 0; i < 6; i++)
    if (ir_ps_tok_is(&t, kinds[i])) kind = i;
  if (kind < 0) {
    for (int i = 0; i < p->naliases; i++)
      if (p->aliases[i].n == t.n && memcmp(p->aliases[i].s, t.s, t.n) == 0)
        return p->aliases[i].attr;
    ir_ps_error(p, &t, "undefined symbol alias id '%.*s'", (int)t.n, t.s);
    return NULL;
  }
  if (!ir_ps_nest(p)) return NULL;
  layout_params lp;
  bool ok = layout_body(p, &t, &lp);
  ir_ps_unnest(p);
  if (!ok) return NULL;
  switch (kind) {
  case 0: return blocked_layout(p, &t, &lp);
  case 1: {
    static const int req[] = {LK_DIM, LK_PARENT, -1};
    if (!layout_require(p, &t, &lp, req)) return NULL;
    if (lp.num[LK_DIM] >= IR_MAX_RANK) {
      ir_ps_error(p, &t, "expected slice dimension below %d", IR_MAX_RANK);
      return NULL;
    }
    return ir_attr_slice(p->ctx, (int)lp.num[LK_DIM], lp.parent);
  }
  case 2: return mma_layout(p, &t, &lp);
  case 3: {
    static const int req[] = {LK_OPIDX, LK_PARENT, -1};
    if (!layout_require(p, &t, &lp, req)) return NULL;
    if (lp.num[LK_OPIDX] > 1) {
      ir_ps_error(p, &t, "dot operand index must be 0 or 1");
      return NULL;
    }
    return ir_attr_dot_op(p->ctx, (int)lp.num[LK_OPIDX], lp.parent,
                          lp.has[LK_KWIDTH] ? (unsigned)lp.num[LK_KWIDTH] : 0);
  }
  case 4: {
    static const int req[] = {LK_VEC, LK_PERPHASE, LK_MAXPHASE, LK_ORDER, -1};
    if (!layout_require(p, &t, &lp, req)) return NULL;
    if (lp.nlist[LK_ORDER] == 0) {
      ir_ps_error(p, &t, "swizzled_shared layout needs a non-empty order");
      return NULL;
    }
    return ir_attr_swizzled_shared(p->ctx, (unsigned)lp.num[LK_VEC], (unsigned)lp.num[LK_PERPHASE],
                                   (unsigned)lp.num[LK_MAXPHASE], lp.nlist[LK_ORDER],
                                   lp.list[LK_ORDER]);
  }
  default: {
    static const int req[] = {LK_SWIZZLE, -1};
    if (!layout_require(p, &t, &lp, req)) return NULL;
    return ir_attr_nvmma_shared(p->ctx, (unsigned)lp.num[LK_SWIZZLE], lp.num[LK_TRANSPOSED] != 0,
                                lp.has[LK_EBITS] ? (unsigned)lp.num[LK_EBITS] : 16);
  }
  }
}

/* ---- attributes ----------------------------------------------------- */

typedef struct penum {
  const char *attr, *kw;
  int64_t value;
} penum;

/* Enum keywords with Triton's numbering (tt.load's cache, tt.atomic_rmw's
 * atomic_rmw_op, ...). cmpi / cmpf predicates come from attrs.c. */
static const penum enum_table[] = {
    {"cache", "none", 1},
    {"cache", "ca", 2},
    {"cache", "cg", 3},
    {"cache", "wb", 4},
    {"cache", "cs", 5},
    {"cache", "wt", 6},
    {"cache", "cv", 7},
    {"evict", "evict_normal", 1},
    {"evict", "evict_first", 2},
    {"evict", "evict_last", 3},
    {"atomic_rmw_op", "and", 1},
    {"atomic_rmw_op", "or", 2},
    {"atomic_rmw_op", "xor", 3},
    {"atomic_rmw_op", "add", 4},
    {"atomic_rmw_op", "fadd", 5},
    {"atomic_rmw_op", "max", 6},
    {"atomic_rmw_op", "min", 7},
    {"atomic_rmw_op", "umax", 8},
    {"atomic_rmw_op", "umin", 9},
    {"atomic_rmw_op", "exch", 10},
    {"sem", "relaxed", 1},
    {"sem", "acquire", 2},
    {"sem", "release", 3},
    {"sem", "acq_rel", 4},
    {"scope", "gpu", 1},
    {"scope", "cta", 2},
    {"scope", "sys", 3},
    {"inputPrecision", "tf32", 0},
    {"inputPrecision", "tf32x3", 1},
    {"inputPrecision", "ieee", 2},
    {"inputPrecision", "bf16x3", 3},
    {"inputPrecision", "bf16x6", 4},
    {"propagateNan", "none", 0},
    {"propagateNan", "all", 0xFFFF},
    {"rounding", "rtz", 0},
    {"rounding", "rtne", 1},
};

bool ir_ps_enum_value(const char *name, ir_op_kind kind, const char *kw, int64_t *value) {
  *value = 0;
  if (strcmp(name, "predicate") == 0 && (kind == IR_OP_ARITH_CMPI || kind == IR_OP_ARITH_CMPF)) {
    int n = kind == IR_OP_ARITH_CMPI ? IR_CMPI_UGE + 1 : IR_CMPF_TRUE + 1;
    for (int i = 0; i < n; i++) {
      const char *s =
          kind == IR_OP_ARITH_CMPI ? ir_cmpi_name((ir_cmpi_pred)i) : ir_cmpf_name((ir_cmpf_pred)i);
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
    /* as MLIR: the value fits the width as a signed or an unsigned number
     * (it was cut to the low bits: 4294967312 : i32 read as 16) */
    if (ty->width < 64 &&
        (v < -((int64_t)1 << (ty->width - 1)) || v > ((int64_t)1 << ty->width) - 1)) {
      ir_ps_error(p, t, "integer constant out of range for type 'i%u'", ty->width);
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
    } else if (ty->width == 8) {
      v = ir_fp8_value((uint8_t)bits, ty->is_e5m2);
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
    if (ir_ps_tok_is(&t, "true") || ir_ps_tok_is(&t, "false"))
      return ir_attr_bool(p->ctx, ir_ps_tok_is(&t, "true"));
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
  case PT_EOF:
  case PT_VALUE:
  case PT_BLOCK:
  case PT_SYMBOL:
  case PT_BANG:
  case PT_ARROW:
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
      if (k.kind == PT_IDENT)
        name = ir_intern(p->ctx, k.s, k.n);
      else if (k.kind == PT_STRING)
        name = ir_ps_string(p, &k);
      else
        return ir_ps_error(p, &k, "expected attribute name");
      const ir_attr *v =
          ir_ps_accept(p, '=') ? ir_ps_attr_value(p, name, kind) : ir_attr_unit(p->ctx);
      if (!v) return false;
      for (int i = 0; i < out->n; i++)
        if (out->a[i].name == name)
          return ir_ps_error(p, &k, "duplicate key '%s' in dictionary", name);
      if (out->n == IR_MAX_DICT_ENTRIES)
        return ir_ps_error(p, &k, "more than %d entries in one attribute dictionary",
                           IR_MAX_DICT_ENTRIES);
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
  for (int i = 0; i < a->n; i++)
    ir_op_set_attr(p->m, op, a->a[i].name, a->a[i].value);
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
