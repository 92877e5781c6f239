// SPDX-License-Identifier: MIT
/* fixup.c - keeping ttgir consistent after layouts change: given each op's
 * result layouts, the layout every tensor operand must have (elementwise ops
 * and loads: the result's; expand_dims: its slice; broadcast: the result's;
 * a reduction: the parent of its result slice; a dot's accumulator: the
 * result's; stores: the pointer's; scf ops: the carried types), with a
 * ttg.convert_layout inserted where an operand differs. Used by the
 * conversion to ttgir and by every pass that re-lays out values. */
#include "ir-ttgpu/ttg.h"

const ir_type *ttg_retype(ir_context *ctx, const ir_type *t, const ir_attr *layout) {
  return ir_type_is_tensor(t) && layout ? ir_type_with_layout(ctx, t, layout) : t;
}

void ttg_set_value_layout(ir_module *m, ir_value *v, const ir_attr *layout) {
  v->type = ttg_retype(m->ctx, v->type, layout);
  ir_op *def = v->def;
  if (def && def->kind == IR_OP_ARITH_CONSTANT) {
    const ir_attr *val = ir_op_get_attr(def, "value");
    if (val && val->kind == IR_ATTR_DENSE && val->type != v->type)
      ir_op_set_attr(m, def, "value", ir_attr_dense(m->ctx, v->type, val->elem));
  }
}

ir_value *ttg_convert_before(ir_module *m, ir_op *anchor, ir_value *v, const ir_attr *layout) {
  const ir_type *want = ttg_retype(m->ctx, v->type, layout);
  if (want == v->type) return v;
  ir_op *cvt = ir_op_create(m, IR_OP_TTG_CONVERT_LAYOUT, anchor->loc, 1, &want, 1, &v, 0);
  cvt->results[0].name = v->name;
  ir_op_insert_before(anchor, cvt);
  return &cvt->results[0];
}

/* Operand i of op must have `layout` (NULL: any). */
static void want(ir_module *m, ir_op *op, int i, const ir_attr *layout) {
  ir_value *v = op->operands[i];
  if (!layout || !ir_type_is_tensor(v->type) || v->type->layout == layout) return;
  ir_op_set_operand(op, i, ttg_convert_before(m, op, v, layout));
}

static const ir_attr *layout_of(const ir_value *v) {
  return ir_type_is_tensor(v->type) ? v->type->layout : NULL;
}

/* A terminator's operands take the types of what they feed: the parent's
 * results, or for scf.condition and the yield of scf.while's "after"
 * region, the region arguments. */
static void fix_terminator(ir_module *m, ir_op *op) {
  ir_op *parent = op->parent && op->parent->parent ? op->parent->parent->parent : NULL;
  if (!parent) return;
  if (op->kind == IR_OP_SCF_CONDITION) {
    ir_block *after = ir_region_entry(&parent->regions[1]);
    for (int i = 1; i < op->noperands && after && i - 1 < after->nargs; i++)
      want(m, op, i, layout_of(after->args[i - 1]));
    return;
  }
  if (parent->kind == IR_OP_SCF_WHILE && op->parent == ir_region_entry(&parent->regions[1])) {
    ir_block *before = ir_region_entry(&parent->regions[0]);
    for (int i = 0; i < op->noperands && before && i < before->nargs; i++)
      want(m, op, i, layout_of(before->args[i]));
    return;
  }
  if (parent->kind == IR_OP_SCF_FOR || parent->kind == IR_OP_SCF_IF ||
      parent->kind == IR_OP_SCF_WHILE) {
    for (int i = 0; i < op->noperands && i < parent->nresults; i++)
      want(m, op, i, layout_of(&parent->results[i]));
  }
}

static void fix_op(ir_module *m, ir_op *op) {
  const ir_op_info *info = ir_op_info_of(op);
  const ir_attr *res = op->nresults ? layout_of(&op->results[0]) : NULL;
  switch (info->rule) {
  case IR_RULE_EXPAND_DIMS:
    if (res && !ir_attr_is_shared_layout(res))
      want(m, op, 0, ir_attr_slice(m->ctx, (int)ir_op_get_int(op, "axis", 0), res));
    return;
  case IR_RULE_BROADCAST: want(m, op, 0, res); return;
  case IR_RULE_REDUCE: {
    /* Every operand in the layout whose slice the result is; a reduction to
     * a scalar only needs its operands to agree. */
    const ir_attr *src =
        res && res->kind == IR_ATTR_SLICE && res->dim == (int)ir_op_get_int(op, "axis", 0)
            ? res->parent
            : layout_of(op->operands[0]);
    for (int i = 0; i < op->noperands; i++)
      want(m, op, i, src);
    return;
  }
  case IR_RULE_MEM:
    if (op->kind == IR_OP_TT_STORE) {
      for (int i = 1; i < op->noperands; i++)
        want(m, op, i, layout_of(op->operands[0]));
      return;
    }
    for (int i = 0; i < op->noperands; i++)
      want(m, op, i, res);
    return;
  case IR_RULE_DOT:
    want(m, op, 2, res);
    /* An mma.sync dot reads its operands in the dot_op layouts of its
     * result (a wgmma's B, and maybe A, come from shared memory). */
    if (res && res->kind == IR_ATTR_NVIDIA_MMA) {
      for (int i = 0; i < 2; i++) {
        const ir_type *t = op->operands[i]->type;
        if (!ir_type_is_tensor(t) || (t->layout && t->layout->kind == IR_ATTR_DOT_OP)) continue;
        unsigned kw = 32 / (ir_type_bytes(ir_type_scalar(t)) * 8);
        want(m, op, i, ir_attr_dot_op(m->ctx, i, res, kw));
      }
    }
    return;
  case IR_RULE_FOR: /* inits are carried as the loop's results */
    for (int i = 3; i < op->noperands && i - 3 < op->nresults; i++)
      want(m, op, i, layout_of(&op->results[i - 3]));
    return;
  case IR_RULE_WHILE: {
    ir_block *before = ir_region_entry(&op->regions[0]);
    for (int i = 0; i < op->noperands && before && i < before->nargs; i++)
      want(m, op, i, layout_of(before->args[i]));
    return;
  }
  case IR_RULE_SAME_AS_OPERANDS: return; /* results follow operands */
  case IR_RULE_NONE:
  case IR_RULE_INT_SAME:
  case IR_RULE_FLOAT_SAME:
  case IR_RULE_CMP:
  case IR_RULE_SELECT:
  case IR_RULE_CONSTANT:
  case IR_RULE_FUNC:
  case IR_RULE_MAKE_RANGE:
  case IR_RULE_SPLAT:
  case IR_RULE_RESHAPE:
  case IR_RULE_TRANS:
  case IR_RULE_ADDPTR:
  case IR_RULE_BITCAST:
  case IR_RULE_SCAN:
  case IR_RULE_ASSERT:
  case IR_RULE_IF:
  case IR_RULE_CONVERT:
  case IR_RULE_LOCAL_ALLOC:
  case IR_RULE_LOCAL_LOAD:
  case IR_RULE_LOCAL_STORE:
  case IR_RULE_MEMDESC_TRANS:
  case IR_RULE_MEMDESC_INDEX:
  case IR_RULE_ASYNC_COPY:
  case IR_RULE_TOKENS:
  case IR_RULE_EXTERN:
  case IR_RULE_CAST:
  case IR_RULE_PROGRAM_ID:
  case IR_RULE_PTR_INT:
  case IR_RULE_FP_TO_FP:
  case IR_RULE_JOIN:
  case IR_RULE_SPLIT: break;
  }
  if (info->traits & IR_T_TERMINATOR) {
    fix_terminator(m, op);
    return;
  }
  /* Elementwise ops and atomics: operands take the result's layout. */
  bool follows = (info->traits & IR_T_ELEMENTWISE) || op->kind == IR_OP_TT_ATOMIC_RMW ||
                 op->kind == IR_OP_TT_ATOMIC_CAS || op->kind == IR_OP_TT_SCAN;
  if (follows && res)
    for (int i = 0; i < op->noperands; i++)
      want(m, op, i, res);
}

static void fix_walk(ir_op *op, void *user) { fix_op(user, op); }

void ttg_fix_operand_layouts(ir_module *m) { ir_walk(m->op, fix_walk, m); }
