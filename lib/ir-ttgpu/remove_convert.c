/* remove_convert.c - tritongpu-remove-layout-conversions: erase ttg.convert_layout
 * ops whose source can be recomputed directly in the wanted layout.
 * Needs: ttgir. A conversion goes through shared memory and a barrier; the
 * producers of most converted values (make_range, splat, constants, index
 * arithmetic, broadcast, expand_dims) cost a few instructions per element, so
 * recomputing the chain in the wanted layout (Triton's backward
 * rematerialization) is cheaper. Memory ops, reductions and loop-carried
 * values are never recomputed. Leaves: clones placed just before the
 * conversion, which is erased; the originals are left for dce. */
#include "ir-ttgpu/ttg.h"

enum { REMAT_MAX_OPS = 48 }; /* ops cloned for one conversion, at most */

typedef struct remat_state {
  ir_module *m;
  ir_context *ctx;
  int budget; /* ops left to clone for the current conversion */
} remat_state;

/* The layout operand i of `op` needs when op's result has layout `l`; NULL if
 * op cannot be recomputed in another layout. */
static const ir_attr *operand_layout(remat_state *st, const ir_op *op, int i, const ir_attr *l) {
  if (!ir_type_is_tensor(op->operands[i]->type)) return NULL;
  if (op->kind == IR_OP_TT_EXPAND_DIMS) {
    if (l->kind != IR_ATTR_BLOCKED) return NULL; /* no slices of slices */
    return ir_attr_slice(st->ctx, (int)ir_op_get_int(op, "axis", 0), l);
  }
  return l; /* elementwise ops, broadcast, convert: the same layout */
}

static bool is_rematerializable(const ir_op *op) {
  if (op->nresults != 1 || op->nregions != 0) return false;
  if (op->kind == IR_OP_TT_MAKE_RANGE || op->kind == IR_OP_TT_SPLAT ||
      op->kind == IR_OP_ARITH_CONSTANT || op->kind == IR_OP_TT_BROADCAST ||
      op->kind == IR_OP_TT_EXPAND_DIMS || op->kind == IR_OP_TTG_CONVERT_LAYOUT)
    return true;
  const ir_op_info *info = ir_op_info_of(op);
  return (info->traits & IR_T_ELEMENTWISE) && ir_op_is_pure(op);
}

/* Whether v can be produced in layout l, within the clone budget. */
static bool can_remat(remat_state *st, const ir_value *v, const ir_attr *l, int depth) {
  if (v->type->layout == l) return true;
  const ir_op *op = v->def;
  if (!op || depth > 12 || st->budget-- <= 0 || !is_rematerializable(op)) return false;
  if (op->kind == IR_OP_TTG_CONVERT_LAYOUT) return can_remat(st, op->operands[0], l, depth + 1);
  for (int i = 0; i < op->noperands; i++) {
    if (!ir_type_is_tensor(op->operands[i]->type)) continue; /* scalars: any layout */
    const ir_attr *ol = operand_layout(st, op, i, l);
    if (!ol || !can_remat(st, op->operands[i], ol, depth + 1)) return false;
  }
  return true;
}

/* Produces v in layout l, cloning its producers before `anchor`. */
static ir_value *remat(remat_state *st, ir_value *v, const ir_attr *l, ir_op *anchor) {
  if (v->type->layout == l) return v;
  ir_op *op = v->def;
  if (op->kind == IR_OP_TTG_CONVERT_LAYOUT) return remat(st, op->operands[0], l, anchor);
  ir_value *ops[8];
  IR_ASSERT(op->noperands <= 8);
  for (int i = 0; i < op->noperands; i++) {
    ir_value *o = op->operands[i];
    ops[i] = ir_type_is_tensor(o->type) ? remat(st, o, operand_layout(st, op, i, l), anchor) : o;
  }
  const ir_type *rt = ir_type_with_layout(st->ctx, v->type, l);
  ir_op *c = ir_op_create(st->m, op->kind, op->loc, 1, &rt, op->noperands, ops, 0);
  for (int i = 0; i < op->nattrs; i++) ir_op_set_attr(st->m, c, op->attrs[i].name, op->attrs[i].value);
  if (op->kind == IR_OP_ARITH_CONSTANT) {
    const ir_attr *val = ir_op_get_attr(op, "value");
    if (val && val->kind == IR_ATTR_DENSE)
      ir_op_set_attr(st->m, c, "value", ir_attr_dense(st->ctx, rt, val->elem));
  }
  c->results[0].name = v->name;
  ir_op_insert_before(anchor, c);
  return &c->results[0];
}

static void collect_converts(ir_op *op, void *user) {
  ir_op ***list = user;
  if (op->kind == IR_OP_TTG_CONVERT_LAYOUT) *(*list)++ = op;
}

static void count_converts(ir_op *op, void *user) {
  if (op->kind == IR_OP_TTG_CONVERT_LAYOUT) ++*(int *)user;
}

bool ttg_pass_remove_convert(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  remat_state st = {m, m->ctx, 0};
  int n = 0;
  ir_walk(m->op, count_converts, &n);
  if (n == 0) return true;
  ir_op **cvts = ir_arena_alloc(scratch, sizeof *cvts * (size_t)n), **end = cvts;
  if (!cvts) return true; /* an optimization: skipping it is safe */
  ir_walk(m->op, collect_converts, &end);
  for (ir_op **p = cvts; p < end; p++) {
    ir_op *cvt = *p;
    const ir_attr *l = cvt->results[0].type->layout;
    st.budget = REMAT_MAX_OPS;
    if (!can_remat(&st, cvt->operands[0], l, 0)) continue;
    ir_value *v = remat(&st, cvt->operands[0], l, cvt);
    ir_op *scope = ir_op_parent_of_kind(cvt, IR_OP_TT_FUNC);
    ir_replace_all_uses(scope ? scope : m->op, &cvt->results[0], v);
    ir_op_erase(cvt);
  }
  return true;
}
