// SPDX-License-Identifier: MIT
/* lower_types.c - Triton's typing rules for the lowering: materializing
 * constexprs, casts, splat/broadcast, and the binary/unary operators with
 * type promotion (triton/language/semantic.py: computation_type_impl,
 * integer_promote_impl, binary_op_type_checking_impl).
 *
 * Operators on two constexprs fold with Python semantics and emit nothing. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "frontend/lower_impl.h"

/* A scalar Triton dtype: the ir type plus the signedness ir types lack. */
typedef struct fe_dt {
  const ir_type *ty;
  bool uns;
} fe_dt;

/* ---- printing ---------------------------------------------------------------- */

static void scalar_str(const ir_type *t, bool uns, ir_strbuf *sb) {
  switch (t->kind) {
  case IR_TY_INT:
    if (t->width == 1)
      ir_sb_puts(sb, "i1");
    else
      ir_sb_printf(sb, "%c%u", uns ? 'u' : 'i', t->width);
    return;
  case IR_TY_FLOAT:
    if (t->is_bf16)
      ir_sb_puts(sb, "bf16");
    else if (t->width == 8)
      ir_sb_puts(sb, t->is_e5m2 ? "fp8e5" : "fp8e4nv");
    else
      ir_sb_printf(sb, "fp%u", t->width);
    return;
  case IR_TY_PTR:
    ir_sb_puts(sb, "pointer<");
    scalar_str(t->elem, uns, sb);
    ir_sb_putc(sb, '>');
    return;
  case IR_TY_TENSOR:
    ir_sb_puts(sb, "tensor<");
    for (int i = 0; i < t->rank; i++)
      ir_sb_printf(sb, "%lldx", (long long)t->shape[i]);
    scalar_str(t->elem, uns, sb);
    ir_sb_putc(sb, '>');
    return;
  case IR_TY_MEMDESC:
  case IR_TY_TOKEN: ir_sb_puts(sb, "<ttgir type>"); return; /* never in the frontend */
  }
}

const char *fe_type_str(fe_lower *l, const ir_type *t, bool is_unsigned) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  scalar_str(t, is_unsigned, &sb);
  const char *s = ir_intern_cstr(l->ctx, sb.data ? sb.data : "?");
  ir_sb_free(&sb);
  return s;
}

const char *fe_val_type_str(fe_lower *l, const fe_val *v) {
  switch (v->kind) {
  case FE_V_TENSOR: return fe_type_str(l, v->v->type, v->is_unsigned);
  case FE_V_INT: return "int";
  case FE_V_FLOAT: return "float";
  case FE_V_BOOL: return "bool";
  case FE_V_NONE: return "None";
  case FE_V_STR: return "str";
  case FE_V_DTYPE: return "dtype";
  case FE_V_MODULE: return "module";
  case FE_V_BUILTIN:
  case FE_V_FUNC:
  case FE_V_METHOD: return "function";
  case FE_V_TUPLE: return "tuple";
  case FE_V_SLICE: return "slice";
  case FE_V_LIST: return "list";
  case FE_V_DICT: return "dict";
  case FE_V_CONFIG: return "triton.Config";
  case FE_V_STRUCT: return v->path;
  case FE_V_ERROR: return "<error>";
  }
  return "?";
}

static const char *shape_str(fe_lower *l, const ir_type *t) {
  char buf[128] = "[";
  size_t n = 1;
  for (int i = 0; t->kind == IR_TY_TENSOR && i < t->rank; i++)
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
  snprintf(buf + n, sizeof buf - n, "]");
  return ir_intern_cstr(l->ctx, buf);
}

/* A tensor the frontend is about to make stays within the tile limit that
 * the verifier enforces (IR_MAX_TILE_ELEMS): the error names the limit at
 * the expression that asks for more, before any op of that shape exists. */
bool fe_check_tile(fe_lower *l, ir_loc loc, int rank, const int64_t *shape) {
  int64_t n = 1;
  char buf[128] = "[";
  size_t k = 1;
  for (int i = 0; i < rank; i++) {
    int64_t d = shape[i] > 0 ? shape[i] : 1;
    n = d > IR_MAX_TILE_ELEMS / n ? IR_MAX_TILE_ELEMS + 1 : n * d;
    if (k < sizeof buf)
      k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%lld", i ? ", " : "", (long long)shape[i]);
  }
  if (n <= IR_MAX_TILE_ELEMS) return true;
  if (k < sizeof buf) snprintf(buf + k, sizeof buf - k, "]");
  fe_error(l, loc, "a tensor of shape %s has more than the maximum of %lld (2^20) elements", buf,
           (long long)IR_MAX_TILE_ELEMS);
  return false;
}

/* ---- constants --------------------------------------------------------------- */

/* The dtype Triton's to_tensor gives a Python constant. */
/* The dtype Triton's to_tensor gives a Python constant: ints in i32 range are
 * i32, up to 2**32-1 u32, else i64; floats fp32; bools i1. */
static fe_dt const_dtype(fe_lower *l, const fe_val *c) {
  fe_dt d = {NULL, false};
  if (c->kind == FE_V_BOOL) {
    d.ty = ir_type_i1(l->ctx);
  } else if (c->kind == FE_V_FLOAT) {
    d.ty = ir_type_f32(l->ctx);
  } else if (c->ival >= INT32_MIN && c->ival <= INT32_MAX) {
    d.ty = ir_type_i32(l->ctx);
  } else if (c->ival > INT32_MAX && c->ival <= (int64_t)UINT32_MAX) {
    d.ty = ir_type_i32(l->ctx);
    d.uns = true;
  } else {
    d.ty = ir_type_i64(l->ctx);
  }
  return d;
}

ir_value *fe_const_of(fe_lower *l, const ir_type *ty, const fe_val *c) {
  const ir_type *s = ir_type_scalar(ty);
  if (s->kind == IR_TY_FLOAT) return ir_build_const_float(&l->b, ty, fe_num(c));
  int64_t v = c->kind == FE_V_FLOAT ? (int64_t)c->fval : c->ival;
  if (s->width == 1) v = v != 0;
  return ir_build_const_int(&l->b, ty, v);
}

fe_val fe_to_tensor(fe_lower *l, fe_val v, ir_loc loc) {
  if (v.kind == FE_V_TENSOR || v.kind == FE_V_ERROR) return v;
  if (!fe_is_const(&v))
    return fe_error(l, loc, "expected a tensor or a number, found '%s'", fe_val_type_str(l, &v));
  if (!l->b.block) return fe_error(l, loc, "a runtime value is needed here, outside a kernel");
  fe_dt d = const_dtype(l, &v);
  l->b.loc = loc;
  return fe_val_tensor(fe_const_of(l, d.ty, &v), d.uns);
}

/* ---- casts ------------------------------------------------------------------- */

static bool same_type(const ir_type *a, const ir_type *b) { return a == b; }

fe_val fe_fp_to_fp(fe_lower *l, ir_value *v, const ir_type *dst, const char *rounding) {
  const ir_type *rty = ir_type_is_tensor(v->type) ? ir_type_with_elem(l->ctx, v->type, dst) : dst;
  ir_op *op = ir_build(&l->b, IR_OP_TT_FP_TO_FP, 1, &rty, 1, &v, 0);
  if (rounding) /* the enum's values: rtz 0, rtne 1 */
    ir_op_set_attr(l->m, op, "rounding",
                   ir_attr_enum(l->ctx, rounding, strcmp(rounding, "rtz") == 0 ? 0 : 1));
  return fe_val_tensor(&op->results[0], false);
}

/* Casts follow Triton's semantic.cast: int widening by the source's
 * signedness (i1 zero-extends), narrowing truncates, int->i1 and float->i1
 * compare with zero, f16<->bf16 goes through f32. */
fe_val fe_cast(fe_lower *l, fe_val v, const ir_type *dst, bool dst_uns, ir_loc loc) {
  if (v.kind == FE_V_ERROR) return v;
  l->b.loc = loc;
  if (fe_is_const(&v)) {
    if (ir_type_is_ptr(dst))
      return fe_error(l, loc, "cannot convert '%s' to '%s'", fe_val_type_str(l, &v),
                      fe_type_str(l, dst, dst_uns));
    return fe_val_tensor(fe_const_of(l, dst, &v), dst_uns);
  }
  if (v.kind != FE_V_TENSOR)
    return fe_error(l, loc, "cannot convert '%s' to '%s'", fe_val_type_str(l, &v),
                    fe_type_str(l, dst, dst_uns));
  const ir_type *src = ir_type_scalar(v.v->type);
  if (same_type(src, dst)) return fe_val_tensor(v.v, dst_uns);
  const ir_type *rty =
      ir_type_is_tensor(v.v->type) ? ir_type_with_elem(l->ctx, v.v->type, dst) : dst;
  bool src8 = ir_type_is_fp8(src), dst8 = ir_type_is_fp8(dst);
  if (src8 || dst8) {
    /* fp8 converts only to and from wider floats (tt.fp_to_fp, rounding to
     * nearest even when narrowing); the rest goes through f16 or f32 */
    const ir_type *mid = src8 && dst8 ? ir_type_f16(l->ctx) : ir_type_f32(l->ctx);
    bool direct = src->kind == IR_TY_FLOAT && dst->kind == IR_TY_FLOAT && !(src8 && dst8);
    if (!direct && (src->kind == IR_TY_PTR || dst->kind == IR_TY_PTR))
      return fe_error(l, loc, "cannot convert '%s' to '%s'", fe_val_type_str(l, &v),
                      fe_type_str(l, dst, dst_uns));
    if (!direct) return fe_cast(l, fe_cast(l, v, mid, false, loc), dst, dst_uns, loc);
    return fe_fp_to_fp(l, v.v, dst, dst8 ? "rtne" : NULL);
  }
  ir_op_kind k;
  if (src->kind == IR_TY_INT && dst->kind == IR_TY_INT) {
    if (dst->width == 1) {
      ir_value *zero = ir_build_const_int(&l->b, v.v->type, 0);
      return fe_val_tensor(ir_build_cmpi(&l->b, IR_CMPI_NE, v.v, zero), false);
    }
    if (src->width < dst->width)
      k = (v.is_unsigned || src->width == 1) ? IR_OP_ARITH_EXTUI : IR_OP_ARITH_EXTSI;
    else
      k = IR_OP_ARITH_TRUNCI;
  } else if (src->kind == IR_TY_INT && dst->kind == IR_TY_FLOAT) {
    k = (v.is_unsigned || src->width == 1) ? IR_OP_ARITH_UITOFP : IR_OP_ARITH_SITOFP;
  } else if (src->kind == IR_TY_FLOAT && dst->kind == IR_TY_INT) {
    if (dst->width == 1) {
      ir_value *zero = ir_build_const_float(&l->b, v.v->type, 0.0);
      return fe_val_tensor(ir_build_cmpf(&l->b, IR_CMPF_UNE, v.v, zero), false);
    }
    k = dst_uns ? IR_OP_ARITH_FPTOUI : IR_OP_ARITH_FPTOSI;
  } else if (src->kind == IR_TY_FLOAT && dst->kind == IR_TY_FLOAT) {
    if (src->width == dst->width) { /* f16 <-> bf16 goes through f32 */
      fe_val mid = fe_cast(l, v, ir_type_f32(l->ctx), false, loc);
      return fe_cast(l, mid, dst, dst_uns, loc);
    }
    k = src->width < dst->width ? IR_OP_ARITH_EXTF : IR_OP_ARITH_TRUNCF;
  } else if (src->kind == IR_TY_PTR && dst->kind == IR_TY_PTR) {
    k = IR_OP_TT_BITCAST;
  } else if (src->kind == IR_TY_PTR && dst->kind == IR_TY_INT && dst->width == 64) {
    k = IR_OP_TT_PTR_TO_INT;
  } else if (src->kind == IR_TY_PTR && dst->kind == IR_TY_INT && dst->width == 1) {
    /* a pointer's truth: not null (Triton's cast to int1) */
    fe_val i = fe_cast(l, v, ir_type_i64(l->ctx), false, loc);
    ir_value *zero = ir_build_const_int(&l->b, i.v->type, 0);
    return fe_val_tensor(ir_build_cmpi(&l->b, IR_CMPI_NE, i.v, zero), false);
  } else if (src->kind == IR_TY_INT && src->width == 64 && dst->kind == IR_TY_PTR) {
    k = IR_OP_TT_INT_TO_PTR;
  } else {
    return fe_error(l, loc, "cannot convert '%s' to '%s'", fe_val_type_str(l, &v),
                    fe_type_str(l, dst, dst_uns));
  }
  return fe_val_tensor(ir_build_unary(&l->b, k, rty, v.v), dst_uns);
}

/* ---- broadcasting ------------------------------------------------------------ */

static ir_value *expand_dims(fe_lower *l, ir_value *v, int axis) {
  const ir_type *t = v->type;
  int64_t shape[IR_MAX_RANK];
  int r = 0;
  for (int i = 0; i < t->rank + 1; i++)
    shape[i] = i == axis ? 1 : t->shape[r++];
  const ir_type *nt = ir_type_tensor(l->ctx, t->rank + 1, shape, t->elem, NULL);
  ir_value *x = ir_build1(&l->b, IR_OP_TT_EXPAND_DIMS, nt, 1, &v);
  ir_op_set_attr(l->m, x->def, "axis", ir_attr_int(l->ctx, ir_type_i32(l->ctx), axis));
  return x;
}

fe_val fe_broadcast_to(fe_lower *l, fe_val v, int rank, const int64_t *shape, ir_loc loc) {
  if (v.kind == FE_V_ERROR) return v;
  v = fe_to_tensor(l, v, loc);
  if (v.kind == FE_V_ERROR) return v;
  l->b.loc = loc;
  const ir_type *t = v.v->type;
  const ir_type *want = ir_type_tensor(l->ctx, rank, shape, ir_type_scalar(t), NULL);
  if (!ir_type_is_tensor(t)) return fe_val_tensor(ir_build_splat(&l->b, v.v, want), v.is_unsigned);
  if (t == want) return v;
  if (t->rank > rank)
    return fe_error(l, loc, "cannot broadcast '%s' to shape %s", fe_val_type_str(l, &v),
                    shape_str(l, want));
  ir_value *x = v.v;
  while (x->type->rank < rank)
    x = expand_dims(l, x, 0);
  for (int i = 0; i < rank; i++)
    if (x->type->shape[i] != shape[i] && x->type->shape[i] != 1)
      return fe_error(l, loc, "cannot broadcast '%s' to shape %s", fe_val_type_str(l, &v),
                      shape_str(l, want));
  if (x->type != want) x = ir_build1(&l->b, IR_OP_TT_BROADCAST, want, 1, &x);
  return fe_val_tensor(x, v.is_unsigned);
}

/* Triton's broadcast_impl_value: scalars splat; lower-rank tensors gain
 * leading unit axes; unit axes broadcast; other mismatches are errors. */
bool fe_broadcast_pair(fe_lower *l, fe_val *a, fe_val *b, ir_loc loc) {
  const ir_type *ta = a->v->type, *tb = b->v->type;
  bool ia = ir_type_is_tensor(ta), ib = ir_type_is_tensor(tb);
  if (!ia && !ib) return true;
  l->b.loc = loc;
  if (!ia) {
    a->v = ir_build_splat(&l->b, a->v, ir_type_with_elem(l->ctx, tb, ta));
    return true;
  }
  if (!ib) {
    b->v = ir_build_splat(&l->b, b->v, ir_type_with_elem(l->ctx, ta, tb));
    return true;
  }
  int rank = ta->rank > tb->rank ? ta->rank : tb->rank;
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < rank; i++) {
    int ka = i - (rank - ta->rank), kb = i - (rank - tb->rank);
    int64_t da = ka >= 0 ? ta->shape[ka] : 1, db = kb >= 0 ? tb->shape[kb] : 1;
    if (da != db && da != 1 && db != 1) {
      fe_error(l, loc, "incompatible shapes for broadcast: %s and %s", shape_str(l, ta),
               shape_str(l, tb));
      return false;
    }
    shape[i] = da == 1 ? db : da;
  }
  if (!fe_check_tile(l, loc, rank, shape)) return false;
  *a = fe_broadcast_to(l, *a, rank, shape, loc);
  *b = fe_broadcast_to(l, *b, rank, shape, loc);
  return a->kind != FE_V_ERROR && b->kind != FE_V_ERROR;
}

/* ---- promotion --------------------------------------------------------------- */

/* Kind order for the scalar rule: bool < integer < float. */
static int dt_kind(fe_dt d) {
  if (d.ty->kind == IR_TY_INT) return d.ty->width == 1 ? 0 : 1;
  return 2;
}

/* integer_promote_impl: C's usual arithmetic conversions on width and sign. */
static fe_dt integer_promote(fe_dt a, fe_dt b) {
  if (a.uns == b.uns) return a.ty->width > b.ty->width ? a : b;
  if (a.uns) return a.ty->width >= b.ty->width ? a : b;
  return b.ty->width >= a.ty->width ? b : a;
}

/* computation_type_impl: the type both operands convert to. */
static bool computation_type(fe_lower *l, fe_dt a, bool a_py, fe_dt b, bool b_py, bool div_or_mod,
                             fe_op op, ir_loc loc, fe_dt *out) {
  fe_dt f32 = {ir_type_f32(l->ctx), false};
  if (a_py != b_py) {
    fe_dt s = a_py ? a : b, t = a_py ? b : a;
    if (dt_kind(s) <= dt_kind(t)) {
      *out = div_or_mod && t.ty->kind == IR_TY_FLOAT && t.ty->width <= 16 ? f32 : t;
      if (ir_type_is_fp8(out->ty)) out->ty = ir_type_f16(l->ctx); /* see below */
      return true;
    }
  }
  bool af = a.ty->kind == IR_TY_FLOAT, bf = b.ty->kind == IR_TY_FLOAT;
  bool a8 = ir_type_is_fp8(a.ty), b8 = ir_type_is_fp8(b.ty);
  if ((af && a.ty->width == 64) || (bf && b.ty->width == 64)) {
    out->ty = ir_type_f64(l->ctx);
    out->uns = false;
    return true;
  }
  if ((af && a.ty->width == 32) || (bf && b.ty->width == 32)) {
    *out = f32;
    return true;
  }
  /* fp16; and two fp8 operands compute in fp16 (Triton keeps two of one fp8
   * type in fp8, which no GPU computes in) */
  if ((af && a.ty->width == 16 && !a.ty->is_bf16) || (bf && b.ty->width == 16 && !b.ty->is_bf16) ||
      (a8 && b8)) {
    *out = div_or_mod ? f32 : (fe_dt){ir_type_f16(l->ctx), false};
    return true;
  }
  if (af || bf) { /* bf16, or fp8 with an int or bf16 */
    *out = (!div_or_mod && af && bf && a.ty->is_bf16 && b.ty->is_bf16)
               ? (fe_dt){ir_type_bf16(l->ctx), false}
               : f32;
    return true;
  }
  if (div_or_mod && a.uns != b.uns) {
    fe_error(l, loc,
             "cannot use '%s' with '%s' and '%s' because they have different signedness; "
             "cast them to the same signedness first",
             fe_op_str(op), fe_type_str(l, a.ty, a.uns), fe_type_str(l, b.ty, b.uns));
    return false;
  }
  *out = integer_promote(a, b);
  return true;
}

/* ---- constant folding ---------------------------------------------------------- */

static int64_t py_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}
static int64_t py_mod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

/* i ** j for j >= 0 by squaring; false when a step overflows 64 bits. */
static bool int_pow(int64_t i, int64_t j, int64_t *out) {
  int64_t r = 1, base = i;
  for (;;) {
    if ((j & 1) && __builtin_mul_overflow(r, base, &r)) return false;
    j >>= 1;
    if (!j) break;
    if (__builtin_mul_overflow(base, base, &base)) return false;
  }
  *out = r;
  return true;
}

fe_val fe_float_to_int(fe_lower *l, double x, ir_loc loc, const char *what) {
  if (isnan(x)) return fe_error(l, loc, "cannot convert float NaN to integer in '%s'", what);
  if (isinf(x)) return fe_error(l, loc, "cannot convert float infinity to integer in '%s'", what);
  double t = trunc(x);
  /* [-2^63, 2^63): both bounds are exact doubles */
  if (t < -9223372036854775808.0 || t >= 9223372036854775808.0)
    return fe_error(l, loc,
                    "integer overflow in constant expression: '%s' of %g does not fit in "
                    "64 bits",
                    what, x);
  return fe_val_int((int64_t)t);
}

/* Python's ints have no bound; a constexpr past 64 bits cannot be lowered. */
static fe_val fold_overflow(fe_lower *l, ir_loc loc, fe_op op) {
  return fe_error(l, loc, "integer overflow in constant expression: '%s' does not fit in 64 bits",
                  fe_op_str(op));
}

/* Python's comparison of an int with a float: exact, not through a double
 * (2^53 + 1 != 2^53 as a float). -1, 0, 1, or 2 when f is NaN. */
static int cmp_int_float(int64_t i, double f) {
  if (isnan(f)) return 2;
  if (f >= 0x1p63) return -1;
  if (f < -0x1p63) return 1;
  double fl = floor(f); /* within int64 range, exact */
  int64_t k = (int64_t)fl;
  if (i != k) return i < k ? -1 : 1;
  return f > fl ? -1 : 0;
}

int fe_num_cmp(const fe_val *a, const fe_val *b) {
  bool fa = a->kind == FE_V_FLOAT, fb = b->kind == FE_V_FLOAT;
  if (!fa && !fb) return (a->ival > b->ival) - (a->ival < b->ival);
  if (fa && fb) {
    if (isnan(a->fval) || isnan(b->fval)) return 2;
    return (a->fval > b->fval) - (a->fval < b->fval);
  }
  if (fb) return cmp_int_float(a->ival, b->fval);
  int c = cmp_int_float(b->ival, a->fval);
  return c == 2 ? 2 : -c;
}

/* Two constexprs: Python semantics (floor division and modulo round toward
 * negative infinity; `/` is always float). Integer results past 64 bits
 * are errors, never wrapped (signed overflow is undefined in C, and
 * INT64_MIN // -1 traps). */
static fe_val fold_binary(fe_lower *l, fe_op op, fe_val a, fe_val b, ir_loc loc) {
  bool is_float = a.kind == FE_V_FLOAT || b.kind == FE_V_FLOAT;
  double x = fe_num(&a);
  double y = fe_num(&b);
  int64_t i = a.ival, j = b.ival, r = 0;
  switch (op) {
  case FE_OP_ADD:
    if (is_float) return fe_val_float(x + y);
    return __builtin_add_overflow(i, j, &r) ? fold_overflow(l, loc, op) : fe_val_int(r);
  case FE_OP_SUB:
    if (is_float) return fe_val_float(x - y);
    return __builtin_sub_overflow(i, j, &r) ? fold_overflow(l, loc, op) : fe_val_int(r);
  case FE_OP_MUL:
    if (is_float) return fe_val_float(x * y);
    return __builtin_mul_overflow(i, j, &r) ? fold_overflow(l, loc, op) : fe_val_int(r);
  case FE_OP_DIV:
    if (y == 0) return fe_error(l, loc, "division by zero in constant expression");
    return fe_val_float(is_float ? x / y : fe_py_int_truediv(i, j));
  case FE_OP_FLOORDIV:
  case FE_OP_MOD:
    if (y == 0)
      return fe_error(l, loc, "%s by zero in constant expression",
                      op == FE_OP_MOD ? "modulo" : "division");
    if (is_float) {
      double fd, m;
      fe_py_float_divmod(x, y, &fd, &m);
      return fe_val_float(op == FE_OP_MOD ? m : fd);
    }
    if (op == FE_OP_MOD) return fe_val_int(j == -1 ? 0 : py_mod(i, j)); /* INT64_MIN % -1 traps */
    if (i == INT64_MIN && j == -1) return fold_overflow(l, loc, op);
    return fe_val_int(py_floordiv(i, j));
  case FE_OP_POW:
    if (is_float || j < 0) {
      if (x == 0 && y < 0 && !isinf(y))
        return fe_error(l, loc, "zero to a negative power in constant expression");
      /* Python gives a complex number, which no constexpr holds */
      if (x < 0 && isfinite(x) && isfinite(y) && y != floor(y))
        return fe_error(l, loc,
                        "a negative number to a fractional power is complex in constant "
                        "expression");
      double p = pow(x, y);
      /* Python raises OverflowError where the power of finite numbers is not */
      if (isinf(p) && isfinite(x) && isfinite(y))
        return fe_error(l, loc, "float overflow in constant expression: '**' is out of range");
      return fe_val_float(p);
    }
    return int_pow(i, j, &r) ? fe_val_int(r) : fold_overflow(l, loc, op);
  case FE_OP_SHL:
  case FE_OP_SHR:
  case FE_OP_BITAND:
  case FE_OP_BITOR:
  case FE_OP_BITXOR:
    if (is_float)
      return fe_error(l, loc, "unsupported operand types for '%s': '%s' and '%s'", fe_op_str(op),
                      fe_val_type_str(l, &a), fe_val_type_str(l, &b));
    if ((op == FE_OP_SHL || op == FE_OP_SHR) && j < 0)
      return fe_error(l, loc, "negative shift count in constant expression");
    if (op == FE_OP_SHL) { /* exact: a bit shifted past 64 bits (or into the sign) is overflow */
      if (i == 0) return fe_val_int(0);
      r = j < 64 ? (int64_t)((uint64_t)i << j) : 0;
      return j < 64 && (r >> j) == i ? fe_val_int(r) : fold_overflow(l, loc, op);
    }
    if (op == FE_OP_SHR) return fe_val_int(j < 64 ? i >> j : (i < 0 ? -1 : 0));
    r = op == FE_OP_BITAND ? (i & j) : op == FE_OP_BITOR ? (i | j) : (i ^ j);
    return a.kind == FE_V_BOOL && b.kind == FE_V_BOOL ? fe_val_bool(r != 0) : fe_val_int(r);
  case FE_OP_EQ: return fe_val_bool(fe_num_cmp(&a, &b) == 0);
  case FE_OP_NE: return fe_val_bool(fe_num_cmp(&a, &b) != 0);
  case FE_OP_LT: return fe_val_bool(fe_num_cmp(&a, &b) == -1);
  case FE_OP_LE: return fe_val_bool(fe_num_cmp(&a, &b) == -1 || fe_num_cmp(&a, &b) == 0);
  case FE_OP_GT: return fe_val_bool(fe_num_cmp(&a, &b) == 1);
  case FE_OP_GE: return fe_val_bool(fe_num_cmp(&a, &b) == 1 || fe_num_cmp(&a, &b) == 0);
  case FE_OP_MATMUL:
  case FE_OP_AND:
  case FE_OP_OR:
  case FE_OP_NEG:
  case FE_OP_POS:
  case FE_OP_INVERT:
  case FE_OP_NOT:
  case FE_OP_IS:
  case FE_OP_ISNOT:
  case FE_OP_IN:
  case FE_OP_NOTIN: break;
  }
  return fe_error(l, loc, "unsupported operator '%s' on constants", fe_op_str(op));
}

/* ---- runtime operators --------------------------------------------------------- */

static fe_dt val_dt(fe_lower *l, const fe_val *v) {
  if (v->kind == FE_V_TENSOR) return (fe_dt){ir_type_scalar(v->v->type), v->is_unsigned};
  return const_dtype(l, v);
}

static fe_val bad_operands(fe_lower *l, fe_op op, const fe_val *a, const fe_val *b, ir_loc loc) {
  return fe_error(l, loc, "invalid operands to '%s': '%s' and '%s'", fe_op_str(op),
                  fe_val_type_str(l, a), fe_val_type_str(l, b));
}

bool fe_const_fits(fe_lower *l, const fe_val *v, const ir_type *ty, bool uns, ir_loc loc) {
  if (v->kind != FE_V_INT || ty->kind != IR_TY_INT || ty->width <= 1 || ty->width >= 64)
    return true;
  int64_t hi = uns ? (int64_t)((1ull << ty->width) - 1) : (int64_t)((1ull << (ty->width - 1)) - 1);
  int64_t lo = uns ? 0 : -hi - 1;
  if (v->ival >= lo && v->ival <= hi) return true;
  fe_error(l, loc, "constant %lld is out of range for '%s'", (long long)v->ival,
           fe_type_str(l, ty, uns));
  return false;
}

/* Converts a and b to `dt` (constants directly) and broadcasts them. */
static bool convert_pair(fe_lower *l, fe_val *a, fe_val *b, fe_dt dt, ir_loc loc) {
  for (int k = 0; k < 2; k++) {
    fe_val *v = k ? b : a;
    if (fe_is_const(v) && dt.uns && v->kind == FE_V_INT && v->ival < 0) {
      fe_error(l, loc,
               "cannot combine an unsigned tensor with a negative constant; cast one of "
               "them explicitly");
      return false;
    }
    if (v->kind == FE_V_INT && !fe_const_fits(l, v, dt.ty, dt.uns, loc)) return false;
    *v = fe_cast(l, *v, dt.ty, dt.uns, loc);
    if (v->kind == FE_V_ERROR) return false;
  }
  return fe_broadcast_pair(l, a, b, loc);
}

/* pointer +/- integer offset: the pointer splats to the offset's shape if
 * needed, then tt.addptr; subtraction negates the offset first. */
static fe_val pointer_arith(fe_lower *l, fe_op op, fe_val p, fe_val off, ir_loc loc, bool swapped) {
  fe_dt od = val_dt(l, &off);
  if (od.ty->kind != IR_TY_INT || (off.kind == FE_V_BOOL)) {
    fe_val a = swapped ? off : p, b = swapped ? p : off;
    return bad_operands(l, op, &a, &b, loc);
  }
  off = fe_to_tensor(l, off, loc);
  if (off.kind == FE_V_ERROR) return off;
  l->b.loc = loc;
  if (op == FE_OP_SUB) {
    ir_value *zero = ir_build_const_int(&l->b, off.v->type, 0);
    off.v = ir_build_binary(&l->b, IR_OP_ARITH_SUBI, zero, off.v);
  }
  bool uns = p.is_unsigned;
  if (!fe_broadcast_pair(l, &p, &off, loc)) return fe_val_error();
  ir_value *ops[2] = {p.v, off.v};
  return fe_val_tensor(ir_build1(&l->b, IR_OP_TT_ADDPTR, p.v->type, 2, ops), uns);
}

/* At least one runtime operand: Triton's binary_op_type_checking_impl, then
 * one arith op. Division: `/` is always float (ints convert to fp32), `//`
 * and `%` truncate like C on integers and `//` is rejected on floats. */
static fe_val runtime_binary(fe_lower *l, fe_op op, fe_val a, fe_val b, ir_loc loc) {
  bool a_py = fe_is_const(&a), b_py = fe_is_const(&b);
  if ((a.kind != FE_V_TENSOR && !a_py) || (b.kind != FE_V_TENSOR && !b_py))
    return bad_operands(l, op, &a, &b, loc);
  fe_dt da = val_dt(l, &a), db = val_dt(l, &b);
  bool pa = da.ty->kind == IR_TY_PTR, pb = db.ty->kind == IR_TY_PTR;
  if (pa || pb) {
    if (op == FE_OP_ADD && pa && !pb) return pointer_arith(l, op, a, b, loc, false);
    if (op == FE_OP_ADD && pb && !pa) return pointer_arith(l, op, b, a, loc, true);
    if (op == FE_OP_SUB && pa && !pb) return pointer_arith(l, op, a, b, loc, false);
    if ((op == FE_OP_EQ || op == FE_OP_NE) && pa && pb && da.ty == db.ty) {
      if (!fe_broadcast_pair(l, &a, &b, loc)) return fe_val_error();
      ir_value *ia = ir_build_unary(&l->b, IR_OP_TT_PTR_TO_INT,
                                    ir_type_with_elem(l->ctx, a.v->type, ir_type_i64(l->ctx)), a.v);
      ir_value *ib = ir_build_unary(&l->b, IR_OP_TT_PTR_TO_INT, ia->type, b.v);
      return fe_val_tensor(ir_build_cmpi(&l->b, op == FE_OP_EQ ? IR_CMPI_EQ : IR_CMPI_NE, ia, ib),
                           false);
    }
    return bad_operands(l, op, &a, &b, loc);
  }
  fe_dt dt;
  ir_op_kind k = IR_OP_ARITH_ADDI; /* set by every case below */
  switch (op) {
  case FE_OP_ADD:
  case FE_OP_SUB:
  case FE_OP_MUL: {
    if (!computation_type(l, da, a_py, db, b_py, false, op, loc, &dt)) return fe_val_error();
    if (!convert_pair(l, &a, &b, dt, loc)) return fe_val_error();
    bool f = dt.ty->kind == IR_TY_FLOAT;
    k = op == FE_OP_ADD   ? (f ? IR_OP_ARITH_ADDF : IR_OP_ARITH_ADDI)
        : op == FE_OP_SUB ? (f ? IR_OP_ARITH_SUBF : IR_OP_ARITH_SUBI)
                          : (f ? IR_OP_ARITH_MULF : IR_OP_ARITH_MULI);
    break;
  }
  case FE_OP_DIV:
    if (!computation_type(l, da, a_py, db, b_py, true, op, loc, &dt)) return fe_val_error();
    if (dt.ty->kind == IR_TY_INT) dt = (fe_dt){ir_type_f32(l->ctx), false};
    if (!convert_pair(l, &a, &b, dt, loc)) return fe_val_error();
    k = IR_OP_ARITH_DIVF;
    break;
  case FE_OP_FLOORDIV:
  case FE_OP_MOD:
    if (!computation_type(l, da, a_py, db, b_py, true, op, loc, &dt)) return fe_val_error();
    if (dt.ty->kind == IR_TY_FLOAT && op == FE_OP_FLOORDIV)
      return fe_error(l, loc, "floor division '//' is not supported on '%s'",
                      fe_type_str(l, dt.ty, false));
    if (!convert_pair(l, &a, &b, dt, loc)) return fe_val_error();
    if (dt.ty->kind == IR_TY_FLOAT)
      k = IR_OP_ARITH_REMF;
    else if (op == FE_OP_FLOORDIV)
      k = dt.uns ? IR_OP_ARITH_DIVUI : IR_OP_ARITH_DIVSI;
    else
      k = dt.uns ? IR_OP_ARITH_REMUI : IR_OP_ARITH_REMSI;
    break;
  case FE_OP_BITAND:
  case FE_OP_BITOR:
  case FE_OP_BITXOR:
  case FE_OP_SHL:
  case FE_OP_SHR:
    if (da.ty->kind != IR_TY_INT || db.ty->kind != IR_TY_INT)
      return fe_error(l, loc, "operator '%s' requires integer operands, found '%s' and '%s'",
                      fe_op_str(op), fe_val_type_str(l, &a), fe_val_type_str(l, &b));
    dt = integer_promote(da, db);
    if (!convert_pair(l, &a, &b, dt, loc)) return fe_val_error();
    k = op == FE_OP_BITAND   ? IR_OP_ARITH_ANDI
        : op == FE_OP_BITOR  ? IR_OP_ARITH_ORI
        : op == FE_OP_BITXOR ? IR_OP_ARITH_XORI
        : op == FE_OP_SHL    ? IR_OP_ARITH_SHLI
        : dt.uns             ? IR_OP_ARITH_SHRUI
                             : IR_OP_ARITH_SHRSI;
    break;
  case FE_OP_EQ:
  case FE_OP_NE:
  case FE_OP_LT:
  case FE_OP_LE:
  case FE_OP_GT:
  case FE_OP_GE: {
    if (!computation_type(l, da, a_py, db, b_py, false, op, loc, &dt)) return fe_val_error();
    if (!convert_pair(l, &a, &b, dt, loc)) return fe_val_error();
    l->b.loc = loc;
    int idx = op - FE_OP_EQ; /* EQ NE LT LE GT GE */
    if (dt.ty->kind == IR_TY_FLOAT) {
      static const ir_cmpf_pred fp[] = {IR_CMPF_OEQ, IR_CMPF_UNE, IR_CMPF_OLT,
                                        IR_CMPF_OLE, IR_CMPF_OGT, IR_CMPF_OGE};
      return fe_val_tensor(ir_build_cmpf(&l->b, fp[idx], a.v, b.v), false);
    }
    static const ir_cmpi_pred sp[] = {IR_CMPI_EQ,  IR_CMPI_NE,  IR_CMPI_SLT,
                                      IR_CMPI_SLE, IR_CMPI_SGT, IR_CMPI_SGE};
    static const ir_cmpi_pred up[] = {IR_CMPI_EQ,  IR_CMPI_NE,  IR_CMPI_ULT,
                                      IR_CMPI_ULE, IR_CMPI_UGT, IR_CMPI_UGE};
    return fe_val_tensor(ir_build_cmpi(&l->b, dt.uns ? up[idx] : sp[idx], a.v, b.v), false);
  }
  case FE_OP_AND:
  case FE_OP_OR: {
    a = fe_to_bool(l, a, loc);
    b = fe_to_bool(l, b, loc);
    if (a.kind == FE_V_ERROR || b.kind == FE_V_ERROR) return fe_val_error();
    if (!fe_broadcast_pair(l, &a, &b, loc)) return fe_val_error();
    l->b.loc = loc;
    return fe_val_tensor(
        ir_build_binary(&l->b, op == FE_OP_AND ? IR_OP_ARITH_ANDI : IR_OP_ARITH_ORI, a.v, b.v),
        false);
  }
  case FE_OP_POW: /* Triton tensors have no __pow__ either */
    return fe_error(l, loc,
                    "unsupported: operator '**' on tensors (Triton has none; write "
                    "x * x, or exp2(y * log2(x)))");
  case FE_OP_MATMUL:
  case FE_OP_NEG:
  case FE_OP_POS:
  case FE_OP_INVERT:
  case FE_OP_NOT:
  case FE_OP_IS:
  case FE_OP_ISNOT:
  case FE_OP_IN:
  case FE_OP_NOTIN: return fe_error(l, loc, "unsupported: operator '%s' on tensors", fe_op_str(op));
  }
  l->b.loc = loc;
  return fe_val_tensor(ir_build_binary(&l->b, k, a.v, b.v), dt.uns);
}

bool fe_promote_pair(fe_lower *l, fe_val *a, fe_val *b, fe_op op, ir_loc loc) {
  if (a->kind == FE_V_ERROR || b->kind == FE_V_ERROR) return false;
  if ((a->kind != FE_V_TENSOR && !fe_is_const(a)) || (b->kind != FE_V_TENSOR && !fe_is_const(b))) {
    bad_operands(l, op, a, b, loc);
    return false;
  }
  fe_dt da = val_dt(l, a), db = val_dt(l, b), dt;
  if (da.ty->kind == IR_TY_PTR || db.ty->kind == IR_TY_PTR) {
    bad_operands(l, op, a, b, loc);
    return false;
  }
  if (!computation_type(l, da, fe_is_const(a), db, fe_is_const(b), false, op, loc, &dt))
    return false;
  return convert_pair(l, a, b, dt, loc);
}

fe_val fe_binary(fe_lower *l, fe_op op, fe_val a, fe_val b, ir_loc loc) {
  if (a.kind == FE_V_ERROR || b.kind == FE_V_ERROR) return fe_val_error();
  if (a.kind == FE_V_DTYPE && b.kind == FE_V_DTYPE && (op == FE_OP_EQ || op == FE_OP_NE)) {
    bool eq = a.ty == b.ty && a.is_unsigned == b.is_unsigned;
    return fe_val_bool(op == FE_OP_EQ ? eq : !eq);
  }
  if (fe_is_const(&a) && fe_is_const(&b) && op != FE_OP_IN && op != FE_OP_NOTIN)
    return fold_binary(l, op, a, b, loc);
  if (a.kind != FE_V_TENSOR && b.kind != FE_V_TENSOR) {
    bool handled;
    fe_val r = fe_host_binary(l, op, a, b, loc, &handled);
    if (handled) return r;
  }
  if (a.kind == FE_V_TUPLE && b.kind == FE_V_TUPLE && op == FE_OP_ADD) {
    fe_val t = fe_val_error();
    t.kind = FE_V_TUPLE;
    t.n = a.n + b.n;
    t.items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(t.n + 1));
    memcpy(t.items, a.items, sizeof(fe_val) * (size_t)a.n);
    memcpy(t.items + a.n, b.items, sizeof(fe_val) * (size_t)b.n);
    return t;
  }
  return runtime_binary(l, op, a, b, loc);
}

/* Python truthiness of compile-time values; -1 for runtime values. */
int fe_const_truth(const fe_val *v) {
  switch (v->kind) {
  case FE_V_INT:
  case FE_V_BOOL: return v->ival != 0;
  case FE_V_FLOAT: return v->fval != 0;
  case FE_V_NONE: return 0;
  case FE_V_STR: return v->path && v->path[0];
  case FE_V_TUPLE: return v->n > 0;
  case FE_V_LIST:
  case FE_V_DICT: return v->obj->n > 0;
  case FE_V_DTYPE:
  case FE_V_MODULE:
  case FE_V_BUILTIN:
  case FE_V_FUNC:
  case FE_V_METHOD:
  case FE_V_SLICE:
  case FE_V_CONFIG:
  case FE_V_STRUCT: return 1;
  case FE_V_TENSOR:
  case FE_V_ERROR: return -1;
  }
  return -1;
}

fe_val fe_to_bool(fe_lower *l, fe_val v, ir_loc loc) {
  if (v.kind == FE_V_ERROR) return v;
  if (v.kind != FE_V_TENSOR) {
    int t = fe_const_truth(&v);
    l->b.loc = loc;
    return fe_val_tensor(ir_build_const_int(&l->b, ir_type_i1(l->ctx), t > 0), false);
  }
  const ir_type *s = ir_type_scalar(v.v->type);
  if (s->kind == IR_TY_INT && s->width == 1) return v;
  return fe_cast(l, v, ir_type_i1(l->ctx), false, loc);
}

/* Unary operators: -x on ints is 0 - x, ~x is x ^ -1, `not x` is
 * bool(x) ^ true; constexprs fold. */
fe_val fe_unary(fe_lower *l, fe_op op, fe_val a, ir_loc loc) {
  if (a.kind == FE_V_ERROR) return a;
  if (op == FE_OP_NOT && a.kind != FE_V_TENSOR) {
    int t = fe_const_truth(&a);
    return fe_val_bool(t == 0);
  }
  if (fe_is_const(&a)) {
    switch (op) {
    case FE_OP_NEG:
      if (a.kind == FE_V_FLOAT) return fe_val_float(-a.fval);
      if (a.ival == INT64_MIN) return fold_overflow(l, loc, op);
      return fe_val_int(-a.ival);
    case FE_OP_POS: return a.kind == FE_V_BOOL ? fe_val_int(a.ival) : a;
    case FE_OP_INVERT:
      if (a.kind == FE_V_FLOAT) break;
      return fe_val_int(~a.ival);
    default: break;
    }
    return fe_error(l, loc, "bad operand type for unary '%s': '%s'", fe_op_str(op),
                    fe_val_type_str(l, &a));
  }
  if (a.kind != FE_V_TENSOR)
    return fe_error(l, loc, "bad operand type for unary '%s': '%s'", fe_op_str(op),
                    fe_val_type_str(l, &a));
  const ir_type *s = ir_type_scalar(a.v->type);
  l->b.loc = loc;
  if (s->kind == IR_TY_PTR)
    return fe_error(l, loc, "bad operand type for unary '%s': '%s'", fe_op_str(op),
                    fe_val_type_str(l, &a));
  switch (op) {
  case FE_OP_POS: return a;
  case FE_OP_NEG:
    if (s->kind == IR_TY_FLOAT)
      return fe_val_tensor(ir_build_unary(&l->b, IR_OP_ARITH_NEGF, a.v->type, a.v), false);
    return fe_val_tensor(
        ir_build_binary(&l->b, IR_OP_ARITH_SUBI, ir_build_const_int(&l->b, a.v->type, 0), a.v),
        a.is_unsigned);
  case FE_OP_INVERT:
    if (s->kind != IR_TY_INT)
      return fe_error(l, loc, "bad operand type for unary '~': '%s'", fe_val_type_str(l, &a));
    return fe_val_tensor(
        ir_build_binary(&l->b, IR_OP_ARITH_XORI, a.v, ir_build_const_int(&l->b, a.v->type, -1)),
        a.is_unsigned);
  case FE_OP_NOT: {
    fe_val b = fe_to_bool(l, a, loc);
    if (b.kind == FE_V_ERROR) return b;
    return fe_val_tensor(
        ir_build_binary(&l->b, IR_OP_ARITH_XORI, b.v, ir_build_const_int(&l->b, b.v->type, 1)),
        false);
  }
  default: break;
  }
  return fe_error(l, loc, "unsupported unary operator '%s'", fe_op_str(op));
}
