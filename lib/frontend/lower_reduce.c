// SPDX-License-Identifier: MIT
/* lower_reduce.c - the reduction and scan primitives tl.reduce and
 * tl.associative_scan (tt.reduce / tt.scan whose combiner region inlines a
 * @triton.jit combine function, on one tensor or a tuple of tensors), and
 * tl.dot (tt.dot with a zero accumulator by default).
 *
 * tl.sum, tl.max, tl.argmax, tl.cumsum ... are written over these in the
 * prelude (prelude/standard.py), as in Triton's standard.py. */
#include <string.h>

#include "frontend/lower_impl.h"

#define MAX_COMBINE 8 /* operands of one reduce / scan (codegen's limit too) */

/* The operands of a reduce or scan: one tensor or a tuple of tensors, all of
 * one shape (rank >= 1). Returns their number, or -1 after an error. */
static int combine_operands(fe_lower *l, fe_val input, ir_loc loc, fe_val *ops) {
  int n = input.kind == FE_V_TUPLE ? input.n : 1;
  if (n < 1 || n > MAX_COMBINE) {
    fe_error(l, loc, "reduce and scan take 1 to %d tensors, found %d", MAX_COMBINE, n);
    return -1;
  }
  for (int i = 0; i < n; i++) {
    ops[i] = input.kind == FE_V_TUPLE ? input.items[i] : input;
    if (ops[i].kind == FE_V_ERROR) return -1;
    if (ops[i].kind != FE_V_TENSOR || !ir_type_is_tensor(ops[i].v->type)) {
      fe_error(l, loc, "reduce and scan need tensors, found '%s'", fe_val_type_str(l, &ops[i]));
      return -1;
    }
    if (ir_type_is_ptr(ops[i].v->type)) {
      fe_error(l, loc, "cannot reduce or scan a tensor of pointers");
      return -1;
    }
    const ir_type *t0 = ops[0].v->type, *t = ops[i].v->type;
    bool same = t->rank == t0->rank;
    for (int d = 0; same && d < t->rank; d++)
      same = t->shape[d] == t0->shape[d];
    if (!same) {
      fe_error(l, loc, "reduce and scan operands must have the same shape, found '%s' and '%s'",
               fe_val_type_str(l, &ops[0]), fe_val_type_str(l, &ops[i]));
      return -1;
    }
  }
  return n;
}

/* Fills the combiner region: block arguments (lhs..., rhs...) of the element
 * types, the inlined combine function, and the return op `ret_kind`. The
 * function must return one value per operand, of the operand's element type
 * (constants convert). False after an error. */
static bool build_combiner(fe_lower *l, ir_op *op, const fe_val *ops, int n, fe_val fn,
                           ir_op_kind ret_kind, ir_loc loc) {
  /* Block arguments: the scalar element types, lhs operands then rhs. */
  const ir_type *tys[2 * MAX_COMBINE] = {0};
  IR_ASSERT(n >= 1 && n <= MAX_COMBINE);
  for (int i = 0; i < 2 * n; i++)
    tys[i] = ir_type_scalar(ops[i % n].v->type);
  ir_block *body = ir_block_create(l->m, 2 * n, tys);
  ir_region_append_block(&op->regions[0], body);
  ir_block *outer = l->b.block;
  ir_op *before = l->b.before;
  ir_builder_set_end(&l->b, body);
  fe_args args;
  memset(&args, 0, sizeof args);
  fe_val vals[2 * MAX_COMBINE];
  ir_loc locs[2 * MAX_COMBINE];
  for (int i = 0; i < 2 * n; i++) {
    vals[i] = fe_val_tensor(body->args[i], ops[i % n].is_unsigned);
    locs[i] = loc;
  }
  args.n = 2 * n;
  args.pos = vals;
  args.pos_loc = locs;
  args.loc = loc;
  /* The combine function is inlined into the region like any @jit call. */
  fe_val r = fe_call(l, fn, &args, "combine_fn");
  bool ok = r.kind != FE_V_ERROR;
  ir_value *rets[MAX_COMBINE];
  int nr = r.kind == FE_V_TUPLE ? r.n : 1;
  if (ok && nr != n) {
    fe_error(l, loc, "combine function returns %d values, expected %d", nr, n);
    ok = false;
  }
  for (int i = 0; ok && i < n; i++) {
    fe_val x = r.kind == FE_V_TUPLE ? r.items[i] : r;
    if (fe_is_const(&x)) x = fe_cast(l, x, tys[i], ops[i].is_unsigned, loc);
    if (x.kind != FE_V_TENSOR || x.v->type != tys[i]) {
      if (x.kind != FE_V_ERROR)
        fe_error(l, loc, "combine function returns '%s' for operand %d, expected '%s'",
                 fe_val_type_str(l, &x), i, fe_type_str(l, tys[i], ops[i].is_unsigned));
      ok = false;
      break;
    }
    rets[i] = x.v;
  }
  if (ok) {
    l->b.loc = loc;
    ir_build(&l->b, ret_kind, 0, NULL, n, rets, 0);
  }
  /* Back to where the reduce / scan op was inserted. */
  l->b.block = outer;
  l->b.before = before;
  return ok;
}

/* Wraps n results as one value (n == 1) or a tuple. */
static fe_val pack(fe_lower *l, const fe_val *rs, int n) {
  if (n == 1) return rs[0];
  fe_val t = fe_val_error();
  t.kind = FE_V_TUPLE;
  t.n = n;
  t.items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)n);
  memcpy(t.items, rs, sizeof(fe_val) * (size_t)n);
  return t;
}

/* A constexpr axis in [-rank, rank), normalized; -1 after an error. */
static int norm_axis(fe_lower *l, fe_val axis_v, int rank, ir_loc loc) {
  if (axis_v.kind != FE_V_INT) {
    fe_error(l, loc, "axis must be a constexpr integer, found '%s'", fe_val_type_str(l, &axis_v));
    return -1;
  }
  int64_t axis = axis_v.ival < 0 ? axis_v.ival + rank : axis_v.ival;
  if (axis < 0 || axis >= rank) {
    fe_error(l, loc, "axis %lld out of range for rank %d", (long long)axis_v.ival, rank);
    return -1;
  }
  return (int)axis;
}

fe_val fe_build_reduce(fe_lower *l, fe_val input, fe_val axis_v, fe_val fn, bool keep_dims,
                       ir_loc loc) {
  fe_val ops[MAX_COMBINE];
  int n = combine_operands(l, input, loc, ops);
  if (n < 0) return fe_val_error();
  int orig_rank = ops[0].v->type->rank;
  bool flat = axis_v.kind == FE_V_NONE;
  if (flat) { /* axis=None reduces the flattened tensor */
    int64_t numel = ir_type_numel(ops[0].v->type);
    for (int i = 0; i < n; i++) {
      ops[i] = fe_reshape(l, ops[i], 1, &numel, loc);
      if (ops[i].kind == FE_V_ERROR) return ops[i];
    }
    axis_v = fe_val_int(0);
  }
  const ir_type *t = ops[0].v->type;
  int axis = norm_axis(l, axis_v, t->rank, loc);
  if (axis < 0) return fe_val_error();
  int64_t shape[IR_MAX_RANK];
  int r = 0;
  for (int i = 0; i < t->rank; i++)
    if (i != axis) shape[r++] = t->shape[i];
  const ir_type *rtys[MAX_COMBINE];
  ir_value *in[MAX_COMBINE];
  for (int i = 0; i < n; i++) {
    const ir_type *e = ir_type_scalar(ops[i].v->type);
    rtys[i] = r == 0 ? e : ir_type_tensor(l->ctx, r, shape, e, NULL);
    in[i] = ops[i].v;
  }
  l->b.loc = loc;
  /* The op first, then its region, so ops of the combiner land inside it. */
  ir_op *op = ir_build(&l->b, IR_OP_TT_REDUCE, n, rtys, n, in, 1);
  ir_op_set_attr(l->m, op, "axis", ir_attr_int(l->ctx, ir_type_i32(l->ctx), axis));
  if (!build_combiner(l, op, ops, n, fn, IR_OP_TT_REDUCE_RETURN, loc)) {
    /* Keep the IR well formed for later error reporting: drop the op. */
    ir_op_erase(op);
    return fe_val_error();
  }
  fe_val res[MAX_COMBINE];
  for (int i = 0; i < n; i++) {
    res[i] = fe_val_tensor(ir_op_result(op, i), ops[i].is_unsigned);
    if (keep_dims && flat) {
      int64_t ones[IR_MAX_RANK] = {1, 1, 1, 1};
      res[i] = fe_reshape(l, res[i], orig_rank, ones, loc);
    } else if (keep_dims) {
      res[i] = fe_expand_dims(l, res[i], axis, loc);
    }
    if (res[i].kind == FE_V_ERROR) return res[i];
  }
  return pack(l, res, n);
}

fe_val fe_build_scan(fe_lower *l, fe_val input, fe_val axis_v, fe_val fn, bool reverse,
                     ir_loc loc) {
  fe_val ops[MAX_COMBINE];
  int n = combine_operands(l, input, loc, ops);
  if (n < 0) return fe_val_error();
  int axis = norm_axis(l, axis_v, ops[0].v->type->rank, loc);
  if (axis < 0) return fe_val_error();
  const ir_type *rtys[MAX_COMBINE];
  ir_value *in[MAX_COMBINE];
  for (int i = 0; i < n; i++) {
    rtys[i] = ops[i].v->type;
    in[i] = ops[i].v;
  }
  l->b.loc = loc;
  ir_op *op = ir_build(&l->b, IR_OP_TT_SCAN, n, rtys, n, in, 1);
  ir_op_set_attr(l->m, op, "axis", ir_attr_int(l->ctx, ir_type_i32(l->ctx), axis));
  ir_op_set_attr(l->m, op, "reverse", ir_attr_bool(l->ctx, reverse));
  if (!build_combiner(l, op, ops, n, fn, IR_OP_TT_SCAN_RETURN, loc)) {
    ir_op_erase(op);
    return fe_val_error();
  }
  fe_val res[MAX_COMBINE];
  for (int i = 0; i < n; i++)
    res[i] = fe_val_tensor(ir_op_result(op, i), ops[i].is_unsigned);
  return pack(l, res, n);
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
    if (v->v->type->rank == 3)
      return fe_error(l, locs[i], "unsupported: a batched tl.dot (3-d operand '%s')",
                      fe_val_type_str(l, v));
  }
  const ir_type *tx = x.v->type, *ty = y.v->type;
  if (tx->rank != ty->rank)
    return fe_error(l, loc, "dot operands have different ranks: '%s' and '%s'",
                    fe_val_type_str(l, &x), fe_val_type_str(l, &y));
  int rk = tx->rank;
  int64_t m = tx->shape[rk - 2], k = tx->shape[rk - 1], k2 = ty->shape[rk - 2],
          n = ty->shape[rk - 1];
  if (k != k2)
    return fe_error(l, loc,
                    "dot shapes do not match: '%s' and '%s' (inner dimensions %lld and "
                    "%lld)",
                    fe_val_type_str(l, &x), fe_val_type_str(l, &y), (long long)k, (long long)k2);
  if (m < 16 || n < 16 || k < 16)
    return fe_error(l, loc, "dot dimensions must be at least 16, got M=%lld N=%lld K=%lld",
                    (long long)m, (long long)n, (long long)k);
  const ir_type *ex = ir_type_scalar(tx), *ey = ir_type_scalar(ty);
  /* Triton requires equal operand types but for fp8, where any two mix;
   * the accumulator type follows out_dtype (int8 dot accumulates in int32). */
  bool fp8 = ir_type_is_fp8(ex) && ir_type_is_fp8(ey);
  if (ex != ey && !fp8)
    return fe_error(l, loc, "dot operands must have the same element type, found '%s' and '%s'",
                    fe_val_type_str(l, &x), fe_val_type_str(l, &y));
  /* The result type as Triton's semantic.dot picks it: int32 for integers,
   * f32 for f32 and bf16 operands, f64 for f64, else out_dtype (f32 unless
   * given); a bf16 out_dtype is an error there too. */
  bool out_given = a[6].kind == FE_V_DTYPE;
  if (out_given && ex->kind != IR_TY_INT && a[6].ty->kind == IR_TY_FLOAT && a[6].ty->is_bf16)
    return fe_error(l, locs[6],
                    "out_dtype=bfloat16 is unsupported: use out_dtype=float32 or float16 and "
                    "cast with .to(tl.bfloat16)");
  if (ex->kind == IR_TY_INT && ex->width != 8) /* Triton: "only int8 supported!" */
    return fe_error(l, loc, "an integer tl.dot takes int8 operands, found '%s'",
                    fe_val_type_str(l, &x));
  const ir_type *out;
  if (ex->kind == IR_TY_INT)
    out = ir_type_i32(l->ctx);
  else if (ex->width == 64)
    out = ex;
  else if (ex->width == 32 || ex->is_bf16)
    out = ir_type_f32(l->ctx);
  else
    out = out_given ? a[6].ty : ir_type_f32(l->ctx);
  int64_t shape[3];
  for (int i = 0; i < rk - 2; i++)
    shape[i] = tx->shape[i];
  shape[rk - 2] = m;
  shape[rk - 1] = n;
  if (!fe_check_tile(l, loc, rk, shape)) return fe_val_error();
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
    /* Triton asserts acc's element type == out_dtype, whose default is
     * float32: an f64 or int32 accumulator needs out_dtype given. */
    const ir_type *want = out_given ? a[6].ty : ir_type_f32(l->ctx);
    if (out != want)
      return fe_error(l, locs[2],
                      "a dot accumulator's element type must equal out_dtype: accumulator "
                      "'%s', out_dtype '%s'%s",
                      fe_type_str(l, out, false), fe_type_str(l, want, false),
                      out_given ? "" : " (the default; pass out_dtype=)");
    acc = a[2].v;
  }
  /* input_precision as Triton's InputPrecision enum: tf32 0, tf32x3 1, ieee 2;
   * allow_tf32=False means ieee. */
  int precision = 0; /* tf32 */
  if (a[3].kind == FE_V_STR) {
    if (strcmp(a[3].path, "ieee") == 0)
      precision = 2;
    else if (strcmp(a[3].path, "tf32x3") == 0)
      precision = 1;
    else if (strcmp(a[3].path, "tf32") != 0)
      return fe_error(l, locs[3], "unknown input_precision '%s'", a[3].path);
  } else if (a[4].kind == FE_V_BOOL && !a[4].ival) {
    precision = 2;
  }
  ir_value *ops[3] = {x.v, y.v, acc};
  ir_value *r = ir_build1(&l->b, IR_OP_TT_DOT, rty, 3, ops);
  const ir_type *i32 = ir_type_i32(l->ctx);
  ir_op_set_attr(l->m, r->def, "inputPrecision", ir_attr_int(l->ctx, i32, precision));
  /* Triton's default for fp8 on sm_90 is 2^30: the tensor cores' own
   * accumulation throughout (a value at most K splits it on wgmma) */
  int64_t imprecise = fp8 ? (int64_t)1 << 30 : 0;
  if (a[5].kind == FE_V_INT) imprecise = a[5].ival;
  ir_op_set_attr(l->m, r->def, "maxNumImpreciseAcc", ir_attr_int(l->ctx, i32, imprecise));
  return fe_val_tensor(r, false);
}
