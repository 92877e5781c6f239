/* lower_reduce.c - reductions (tl.sum / tl.max / tl.min as tt.reduce with a
 * combiner region) and tl.dot (tt.dot with a zero accumulator by default).
 *
 * Follows Triton's standard.py: sums of integers narrower than 32 bits
 * accumulate in 32 bits; float max/min use maxnumf/minnumf; axis=None
 * reduces the flattened tensor. */
#include <string.h>

#include "frontend/fe.h"

fe_val fe_build_reduce(fe_lower *l, fe_val x, fe_val axis_v, const char *kind, bool keep_dims,
                       ir_loc loc) {
  const ir_type *t = x.v->type;
  if (!ir_type_is_tensor(t))
    return fe_error(l, loc, "cannot reduce a scalar '%s'", fe_val_type_str(l, &x));
  if (ir_type_is_ptr(t)) return fe_error(l, loc, "cannot reduce a tensor of pointers");
  int axis;
  if (axis_v.kind == FE_V_NONE) {
    if (t->rank > 1) {
      int64_t n = ir_type_numel(t);
      x = fe_reshape(l, x, 1, &n, loc);
      if (x.kind == FE_V_ERROR) return x;
      t = x.v->type;
    }
    axis = 0;
  } else if (axis_v.kind == FE_V_INT) {
    axis = (int)axis_v.ival;
    if (axis < 0) axis += t->rank;
    if (axis < 0 || axis >= t->rank)
      return fe_error(l, loc, "reduction axis %lld out of range for rank %d",
                      (long long)axis_v.ival, t->rank);
  } else {
    return fe_error(l, loc, "reduction axis must be a constexpr integer, found '%s'",
                    fe_val_type_str(l, &axis_v));
  }
  const ir_type *elem = ir_type_scalar(t);
  bool is_sum = strcmp(kind, "sum") == 0, is_max = strcmp(kind, "max") == 0;
  if (is_sum && elem->kind == IR_TY_INT && elem->width < 32) {
    x = fe_cast(l, x, ir_type_i32(l->ctx), x.is_unsigned, loc);
    if (x.kind == FE_V_ERROR) return x;
    t = x.v->type;
    elem = ir_type_scalar(t);
  }
  int64_t shape[IR_MAX_RANK];
  int r = 0;
  for (int i = 0; i < t->rank; i++)
    if (i != axis) shape[r++] = t->shape[i];
  const ir_type *rty = r == 0 ? elem : ir_type_tensor(l->ctx, r, shape, elem, NULL);
  l->b.loc = loc;
  ir_op *op = ir_build(&l->b, IR_OP_TT_REDUCE, 1, &rty, 1, &x.v, 1);
  ir_op_set_attr(l->m, op, "axis", ir_attr_int(l->ctx, ir_type_i32(l->ctx), axis));
  const ir_type *args[2] = {elem, elem};
  ir_block *body = ir_block_create(l->m, 2, args);
  ir_region_append_block(&op->regions[0], body);
  ir_block *outer = l->b.block;
  ir_builder_set_end(&l->b, body);
  ir_op_kind k;
  bool f = elem->kind == IR_TY_FLOAT;
  if (is_sum) k = f ? IR_OP_ARITH_ADDF : IR_OP_ARITH_ADDI;
  else if (is_max) k = f ? IR_OP_ARITH_MAXNUMF : x.is_unsigned ? IR_OP_ARITH_MAXUI : IR_OP_ARITH_MAXSI;
  else k = f ? IR_OP_ARITH_MINNUMF : x.is_unsigned ? IR_OP_ARITH_MINUI : IR_OP_ARITH_MINSI;
  ir_value *c = ir_build_binary(&l->b, k, body->args[0], body->args[1]);
  ir_build(&l->b, IR_OP_TT_REDUCE_RETURN, 0, NULL, 1, &c, 0);
  ir_builder_set_end(&l->b, outer);
  fe_val res = fe_val_tensor(ir_op_result(op, 0), x.is_unsigned);
  if (keep_dims) res = fe_expand_dims(l, res, axis, loc);
  return res;
}

/* tl.dot(input, other, acc, input_precision, allow_tf32, max_num_imprecise_acc, out_dtype) */
fe_val fe_build_dot(fe_lower *l, const fe_val *a, const ir_loc *locs, ir_loc loc) {
  fe_val x = a[0], y = a[1];
  for (int i = 0; i < 2; i++) {
    const fe_val *v = i ? &y : &x;
    if (v->kind != FE_V_TENSOR || !ir_type_is_tensor(v->v->type) ||
        (v->v->type->rank != 2 && v->v->type->rank != 3))
      return fe_error(l, locs[i], "dot operands must be 2-d or 3-d tensors, found '%s'",
                      fe_val_type_str(l, v));
  }
  const ir_type *tx = x.v->type, *ty = y.v->type;
  if (tx->rank != ty->rank)
    return fe_error(l, loc, "dot operands have different ranks: '%s' and '%s'",
                    fe_val_type_str(l, &x), fe_val_type_str(l, &y));
  int rk = tx->rank;
  int64_t m = tx->shape[rk - 2], k = tx->shape[rk - 1], k2 = ty->shape[rk - 2], n = ty->shape[rk - 1];
  if (k != k2)
    return fe_error(l, loc, "dot shapes do not match: '%s' and '%s' (inner dimensions %lld and "
                    "%lld)", fe_val_type_str(l, &x), fe_val_type_str(l, &y), (long long)k,
                    (long long)k2);
  if (m < 16 || n < 16 || k < 16)
    return fe_error(l, loc, "dot dimensions must be at least 16, got M=%lld N=%lld K=%lld",
                    (long long)m, (long long)n, (long long)k);
  const ir_type *ex = ir_type_scalar(tx), *ey = ir_type_scalar(ty);
  if (ex != ey)
    return fe_error(l, loc, "dot operands must have the same element type, found '%s' and '%s'",
                    fe_val_type_str(l, &x), fe_val_type_str(l, &y));
  const ir_type *out;
  if (ex->kind == IR_TY_INT) out = ir_type_i32(l->ctx);
  else if (a[6].kind == FE_V_DTYPE) out = a[6].ty;
  else out = ir_type_f32(l->ctx);
  int64_t shape[3];
  for (int i = 0; i < rk - 2; i++) shape[i] = tx->shape[i];
  shape[rk - 2] = m;
  shape[rk - 1] = n;
  const ir_type *rty = ir_type_tensor(l->ctx, rk, shape, out, NULL);
  l->b.loc = loc;
  ir_value *acc;
  if (a[2].kind == FE_V_NONE) {
    fe_val zero = fe_val_int(0);
    acc = fe_const_of(l, rty, &zero);
  } else {
    if (a[2].kind != FE_V_TENSOR || a[2].v->type != rty)
      return fe_error(l, locs[2], "dot accumulator must be '%s', found '%s'",
                      fe_type_str(l, rty, false), fe_val_type_str(l, &a[2]));
    acc = a[2].v;
  }
  int precision = 0; /* tf32 */
  if (a[3].kind == FE_V_STR) {
    if (strcmp(a[3].path, "ieee") == 0) precision = 2;
    else if (strcmp(a[3].path, "tf32x3") == 0) precision = 1;
    else if (strcmp(a[3].path, "tf32") != 0)
      return fe_error(l, locs[3], "unknown input_precision '%s'", a[3].path);
  } else if (a[4].kind == FE_V_BOOL && !a[4].ival) {
    precision = 2;
  }
  ir_value *ops[3] = {x.v, y.v, acc};
  ir_value *r = ir_build1(&l->b, IR_OP_TT_DOT, rty, 3, ops);
  const ir_type *i32 = ir_type_i32(l->ctx);
  ir_op_set_attr(l->m, r->def, "inputPrecision", ir_attr_int(l->ctx, i32, precision));
  ir_op_set_attr(l->m, r->def, "maxNumImpreciseAcc", ir_attr_int(l->ctx, i32, 0));
  return fe_val_tensor(r, false);
}
