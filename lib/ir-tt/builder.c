/* builder.c - the insertion point and op constructors.
 *
 * Constructors derive result types the way the ops define them (binary ops
 * keep the lhs type, compares give i1 of the operand shape, make_range gives
 * tensor<Nxi32>) and attach the attributes the printer and passes expect. */
#include <string.h>

#include "ir-tt/ir.h"

void ir_builder_init(ir_builder *b, ir_module *m) {
  memset(b, 0, sizeof *b);
  b->m = m;
  b->ctx = m->ctx;
  b->block = ir_module_body(m);
}

void ir_builder_set_end(ir_builder *b, ir_block *block) {
  b->block = block;
  b->before = NULL;
}

void ir_builder_set_before(ir_builder *b, ir_op *op) {
  b->block = op->parent;
  b->before = op;
}

ir_op *ir_build(ir_builder *b, ir_op_kind kind, int nresults, const ir_type *const *result_types,
                int noperands, ir_value *const *operands, int nregions) {
  ir_op *op =
      ir_op_create(b->m, kind, b->loc, nresults, result_types, noperands, operands, nregions);
  if (b->before)
    ir_op_insert_before(b->before, op);
  else if (b->block)
    ir_block_append(b->block, op);
  return op;
}

ir_value *ir_build1(ir_builder *b, ir_op_kind kind, const ir_type *result_type, int noperands,
                    ir_value *const *operands) {
  ir_op *op = ir_build(b, kind, 1, &result_type, noperands, operands, 0);
  return &op->results[0];
}

ir_value *ir_build_binary(ir_builder *b, ir_op_kind kind, ir_value *lhs, ir_value *rhs) {
  ir_value *ops[2] = {lhs, rhs};
  return ir_build1(b, kind, lhs->type, 2, ops);
}

ir_value *ir_build_unary(ir_builder *b, ir_op_kind kind, const ir_type *result_type, ir_value *x) {
  return ir_build1(b, kind, result_type, 1, &x);
}

/* arith.constant with `value` = the scalar attr, or its splat for tensors. */
static ir_value *build_constant(ir_builder *b, const ir_type *ty, const ir_attr *scalar) {
  const ir_attr *value = ir_type_is_tensor(ty) ? ir_attr_dense(b->ctx, ty, scalar) : scalar;
  ir_op *op = ir_build(b, IR_OP_ARITH_CONSTANT, 1, &ty, 0, NULL, 0);
  ir_op_set_attr(b->m, op, "value", value);
  return &op->results[0];
}

ir_value *ir_build_const_int(ir_builder *b, const ir_type *ty, int64_t v) {
  return build_constant(b, ty, ir_attr_int(b->ctx, ir_type_scalar(ty), v));
}

ir_value *ir_build_const_float(ir_builder *b, const ir_type *ty, double v) {
  return build_constant(b, ty, ir_attr_float(b->ctx, ir_type_scalar(ty), v));
}

/* i1 with the shape (and layout) of `like`. */
static const ir_type *bool_like(ir_context *ctx, const ir_type *like) {
  return ir_type_with_elem(ctx, like, ir_type_i1(ctx));
}

ir_value *ir_build_cmpi(ir_builder *b, ir_cmpi_pred p, ir_value *lhs, ir_value *rhs) {
  ir_value *ops[2] = {lhs, rhs};
  ir_value *r = ir_build1(b, IR_OP_ARITH_CMPI, bool_like(b->ctx, lhs->type), 2, ops);
  ir_op_set_attr(b->m, r->def, "predicate", ir_attr_cmpi(b->ctx, p));
  return r;
}

ir_value *ir_build_cmpf(ir_builder *b, ir_cmpf_pred p, ir_value *lhs, ir_value *rhs) {
  ir_value *ops[2] = {lhs, rhs};
  ir_value *r = ir_build1(b, IR_OP_ARITH_CMPF, bool_like(b->ctx, lhs->type), 2, ops);
  ir_op_set_attr(b->m, r->def, "predicate", ir_attr_cmpf(b->ctx, p));
  return r;
}

ir_value *ir_build_splat(ir_builder *b, ir_value *scalar, const ir_type *tensor_ty) {
  return ir_build1(b, IR_OP_TT_SPLAT, tensor_ty, 1, &scalar);
}

ir_value *ir_build_make_range(ir_builder *b, int32_t start, int32_t end) {
  int64_t n = (int64_t)end - start;
  const ir_type *i32 = ir_type_i32(b->ctx);
  const ir_type *ty = ir_type_tensor(b->ctx, 1, &n, i32, NULL);
  ir_value *r = ir_build1(b, IR_OP_TT_MAKE_RANGE, ty, 0, NULL);
  ir_op_set_attr(b->m, r->def, "start", ir_attr_int(b->ctx, i32, start));
  ir_op_set_attr(b->m, r->def, "end", ir_attr_int(b->ctx, i32, end));
  return r;
}

ir_value *ir_build_program_id(ir_builder *b, int axis) {
  const ir_type *i32 = ir_type_i32(b->ctx);
  ir_value *r = ir_build1(b, IR_OP_TT_GET_PROGRAM_ID, i32, 0, NULL);
  ir_op_set_attr(b->m, r->def, "axis", ir_attr_int(b->ctx, i32, axis));
  return r;
}

ir_op *ir_build_func(ir_builder *b, const char *name, int nargs, const ir_type *const *arg_types) {
  ir_op *f = ir_build(b, IR_OP_TT_FUNC, 0, NULL, 0, NULL, 1);
  ir_op_set_attr(b->m, f, "sym_name", ir_attr_string(b->ctx, name));
  ir_op_set_attr(b->m, f, "sym_visibility", ir_attr_string(b->ctx, "public"));
  ir_op_set_attr(b->m, f, "noinline", ir_attr_bool(b->ctx, false));
  ir_region_append_block(&f->regions[0], ir_block_create(b->m, nargs, arg_types));
  return f;
}
