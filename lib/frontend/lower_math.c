// SPDX-License-Identifier: MIT
/* lower_math.c - elementwise builtins: tl.where, tl.maximum / minimum,
 * tl.clamp, the math functions (exp, log, sqrt, sin, erf, ...), tl.abs,
 * tl.fma, tl.div_rn / fdiv, tl.umulhi. Integer operands of float math
 * convert to fp32, as in Triton; results keep the operand's shape. */
#include <math.h>
#include <string.h>

#include "frontend/lower_impl.h"

/* ---- elementwise ------------------------------------------------------------------ */

/* tl.where(condition, x, y): the condition becomes i1, x and y promote as a
 * binary operation, then all three broadcast to one shape (arith.select). */
static fe_val b_where(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args) {
  fe_val c = fe_to_bool(l, a[0], locs[0]);
  fe_val x = a[1], y = a[2];
  /* two pointers of one type select as they are (no arithmetic promotion) */
  bool ptrs = x.kind == FE_V_TENSOR && y.kind == FE_V_TENSOR &&
              ir_type_is_ptr(ir_type_scalar(x.v->type)) &&
              ir_type_scalar(x.v->type) == ir_type_scalar(y.v->type);
  if (c.kind == FE_V_ERROR || (!ptrs && !fe_promote_pair(l, &x, &y, FE_OP_ADD, args->loc)))
    return fe_val_error();
  if (!fe_broadcast_pair(l, &c, &x, args->loc) || !fe_broadcast_pair(l, &c, &y, args->loc) ||
      !fe_broadcast_pair(l, &x, &y, args->loc))
    return fe_val_error();
  l->b.loc = args->loc;
  ir_value *ops[3] = {c.v, x.v, y.v};
  return fe_val_tensor(ir_build1(&l->b, IR_OP_ARITH_SELECT, x.v->type, 3, ops), x.is_unsigned);
}

/* Elementwise max/min (also Python's max/min on runtime values, as Triton's
 * code generator maps them); floats use maxnumf/minnumf like Triton's default
 * propagate_nan=NONE. Two constexprs fold. */
fe_val fe_minmax(fe_lower *l, bool is_max, fe_val x, fe_val y, ir_loc loc) {
  if (fe_is_const(&x) && fe_is_const(&y)) { /* Python's: the first of equals, x unless y wins */
    int c = fe_num_cmp(&y, &x);
    return c == (is_max ? 1 : -1) ? y : x;
  }
  if (!fe_promote_pair(l, &x, &y, is_max ? FE_OP_GT : FE_OP_LT, loc)) return fe_val_error();
  const ir_type *s = ir_type_scalar(x.v->type);
  ir_op_kind k;
  if (s->kind == IR_TY_FLOAT)
    k = is_max ? IR_OP_ARITH_MAXNUMF : IR_OP_ARITH_MINNUMF;
  else if (x.is_unsigned)
    k = is_max ? IR_OP_ARITH_MAXUI : IR_OP_ARITH_MINUI;
  else
    k = is_max ? IR_OP_ARITH_MAXSI : IR_OP_ARITH_MINSI;
  l->b.loc = loc;
  return fe_val_tensor(ir_build_binary(&l->b, k, x.v, y.v), x.is_unsigned);
}

/* tl.maximum / tl.minimum(x, y, propagate_nan): propagate_nan=tl.PropagateNan.ALL
 * (spelled as the constant -1 or the string "all") gives arith.maximumf. */
static fe_val b_maximum(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                        const fe_args *args) {
  bool is_max = strcmp(name, "tl.maximum") == 0;
  bool all = (a[2].kind == FE_V_INT && a[2].ival != 0) ||
             (a[2].kind == FE_V_STR && strcmp(a[2].path, "all") == 0);
  fe_val r = fe_minmax(l, is_max, a[0], a[1], args->loc);
  if (!all || r.kind != FE_V_TENSOR || !ir_type_is_float(r.v->type)) return r;
  /* Rebuild the float op as maximumf / minimumf (NaN-propagating). */
  ir_op *op = r.v->def;
  op->kind = is_max ? IR_OP_ARITH_MAXIMUMF : IR_OP_ARITH_MINIMUMF;
  return r;
}

/* A float operand for math functions: ints convert to fp32. */
static bool want_float(fe_lower *l, fe_val *v, ir_loc loc) {
  if (!fe_want_tensor(l, v, loc)) return false;
  const ir_type *s = ir_type_scalar(v->v->type);
  if (s->kind == IR_TY_INT)
    *v = fe_cast(l, *v, ir_type_f32(l->ctx), false, loc);
  else if (s->kind != IR_TY_FLOAT) {
    fe_error(l, loc, "expected a floating-point operand, found '%s'", fe_val_type_str(l, v));
    return false;
  }
  return v->kind == FE_V_TENSOR;
}

typedef struct math_op {
  const char *name;
  ir_op_kind kind;
} math_op;

static const math_op math_ops[] = {
    {"tl.exp", IR_OP_MATH_EXP},   {"tl.exp2", IR_OP_MATH_EXP2},
    {"tl.log", IR_OP_MATH_LOG},   {"tl.log2", IR_OP_MATH_LOG2},
    {"tl.sqrt", IR_OP_MATH_SQRT}, {"tl.rsqrt", IR_OP_MATH_RSQRT},
    {"tl.sin", IR_OP_MATH_SIN},   {"tl.cos", IR_OP_MATH_COS},
    {"tl.erf", IR_OP_MATH_ERF},   {"tl.floor", IR_OP_MATH_FLOOR},
    {"tl.ceil", IR_OP_MATH_CEIL}, {"tl.sqrt_rn", IR_OP_TT_PRECISE_SQRT},
};

static fe_val b_math1(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args) {
  fe_val x = a[0];
  if (!want_float(l, &x, locs[0])) return fe_val_error();
  l->b.loc = args->loc;
  for (size_t i = 0; i < sizeof math_ops / sizeof math_ops[0]; i++)
    if (strcmp(math_ops[i].name, name) == 0)
      return fe_val_tensor(ir_build_unary(&l->b, math_ops[i].kind, x.v->type, x.v), false);
  IR_UNREACHABLE("math builtin '%s' missing from the table", name);
}

static fe_val b_abs(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args) {
  fe_val x = a[0];
  if (fe_is_const(&x)) {
    if (x.kind == FE_V_FLOAT) return fe_val_float(fabs(x.fval)); /* abs(-0.0) is 0.0 */
    if (x.ival == INT64_MIN)
      return fe_error(l, locs[0],
                      "integer overflow in constant expression: 'abs' does not fit "
                      "in 64 bits");
    return fe_val_int(x.ival < 0 ? -x.ival : x.ival);
  }
  if (!fe_want_tensor(l, &x, locs[0])) return fe_val_error();
  const ir_type *s = ir_type_scalar(x.v->type);
  l->b.loc = args->loc;
  if (s->kind == IR_TY_FLOAT)
    return fe_val_tensor(ir_build_unary(&l->b, IR_OP_MATH_ABSF, x.v->type, x.v), false);
  if (s->kind != IR_TY_INT)
    return fe_error(l, locs[0], "bad operand for abs: '%s'", fe_val_type_str(l, &x));
  if (x.is_unsigned) return x;
  return fe_val_tensor(ir_build_unary(&l->b, IR_OP_MATH_ABSI, x.v->type, x.v), false);
}

static fe_val b_fma(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args) {
  fe_val x = a[0], y = a[1], z = a[2];
  if (!want_float(l, &x, locs[0]) || !fe_promote_pair(l, &x, &y, FE_OP_MUL, args->loc) ||
      !fe_promote_pair(l, &x, &z, FE_OP_ADD, args->loc) ||
      !fe_broadcast_pair(l, &y, &z, args->loc) || !fe_broadcast_pair(l, &x, &y, args->loc))
    return fe_val_error();
  l->b.loc = args->loc;
  ir_value *ops[3] = {x.v, y.v, z.v};
  return fe_val_tensor(ir_build1(&l->b, IR_OP_MATH_FMA, x.v->type, 3, ops), false);
}

/* tl.div_rn: IEEE division; tl.fdiv(x, y, ieee_rounding): IEEE only when
 * asked, else the fast division of `/`. */
static fe_val b_div_rn(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                       const fe_args *args) {
  fe_val x = a[0], y = a[1];
  if (!want_float(l, &x, locs[0]) || !fe_promote_pair(l, &x, &y, FE_OP_DIV, args->loc))
    return fe_val_error();
  bool ieee = strcmp(name, "tl.div_rn") == 0 || fe_const_truth(&a[2]) > 0;
  l->b.loc = args->loc;
  return fe_val_tensor(
      ir_build_binary(&l->b, ieee ? IR_OP_TT_PRECISE_DIVF : IR_OP_ARITH_DIVF, x.v, y.v), false);
}

/* tl.umulhi(x, y): the high 32 (or 64) bits of the full product of two
 * unsigned or signed integers of one width (tt.mulhiui). */
static fe_val b_umulhi(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                       const fe_args *args) {
  fe_val x = a[0], y = a[1];
  if (!fe_promote_pair(l, &x, &y, FE_OP_MUL, args->loc)) return fe_val_error();
  const ir_type *s = ir_type_scalar(x.v->type);
  if (s->kind != IR_TY_INT || (s->width != 32 && s->width != 64))
    return fe_error(l, args->loc, "umulhi needs 32- or 64-bit integers, found '%s'",
                    fe_val_type_str(l, &x));
  l->b.loc = args->loc;
  return fe_val_tensor(ir_build_binary(&l->b, IR_OP_TT_MULHIUI, x.v, y.v), x.is_unsigned);
}

/* tl.clamp(x, min, max, propagate_nan): floats only, as Triton (tt.clampf
 * with attr propagateNan: 0 none, 0xFFFF all). */
static fe_val b_clamp(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args) {
  fe_val x = a[0], lo = a[1], hi = a[2];
  if (!fe_want_tensor(l, &x, locs[0])) return fe_val_error();
  if (!ir_type_is_float(x.v->type))
    return fe_error(l, locs[0], "clamp needs a floating-point operand, found '%s'",
                    fe_val_type_str(l, &x));
  if (!fe_promote_pair(l, &x, &lo, FE_OP_ADD, args->loc) ||
      !fe_promote_pair(l, &x, &hi, FE_OP_ADD, args->loc) ||
      !fe_broadcast_pair(l, &lo, &hi, args->loc) || !fe_broadcast_pair(l, &x, &lo, args->loc) ||
      !fe_broadcast_pair(l, &x, &hi, args->loc))
    return fe_val_error();
  bool all = (a[3].kind == FE_V_INT && a[3].ival != 0) ||
             (a[3].kind == FE_V_STR && strcmp(a[3].path, "all") == 0);
  l->b.loc = args->loc;
  ir_value *ops[3] = {x.v, lo.v, hi.v};
  ir_value *r = ir_build1(&l->b, IR_OP_TT_CLAMPF, x.v->type, 3, ops);
  ir_op_set_attr(l->m, r->def, "propagateNan",
                 ir_attr_int(l->ctx, ir_type_i32(l->ctx), all ? 0xFFFF : 0));
  return fe_val_tensor(r, false);
}

#define P(...)                                                                                     \
  { __VA_ARGS__ }
const fe_builtin fe_math_builtins[] = {
    {"tl.where", b_where, 3, P("condition", "x", "y")},
    {"tl.maximum", b_maximum, 2, P("x", "y", "propagate_nan")},
    {"tl.minimum", b_maximum, 2, P("x", "y", "propagate_nan")},
    {"tl.clamp", b_clamp, 3, P("x", "min", "max", "propagate_nan")},
    {"tl.exp", b_math1, 1, P("x")},
    {"tl.exp2", b_math1, 1, P("x")},
    {"tl.log", b_math1, 1, P("x")},
    {"tl.log2", b_math1, 1, P("x")},
    {"tl.sqrt", b_math1, 1, P("x")},
    {"tl.rsqrt", b_math1, 1, P("x")},
    {"tl.sin", b_math1, 1, P("x")},
    {"tl.cos", b_math1, 1, P("x")},
    {"tl.erf", b_math1, 1, P("x")},
    {"tl.floor", b_math1, 1, P("x")},
    {"tl.ceil", b_math1, 1, P("x")},
    {"tl.sqrt_rn", b_math1, 1, P("x")},
    {"tl.abs", b_abs, 1, P("x")},
    {"tl.fma", b_fma, 3, P("x", "y", "z")},
    {"tl.div_rn", b_div_rn, 2, P("x", "y")},
    {"tl.fdiv", b_div_rn, 2, P("x", "y", "ieee_rounding")},
    {"tl.umulhi", b_umulhi, 2, P("x", "y")},
    {"py.abs", b_abs, 1, P("x")},
    {NULL, NULL, 0, P(NULL)},
};
#undef P
