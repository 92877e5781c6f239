// SPDX-License-Identifier: MIT
/* optimize_accumulator_init.c - tritongpu-optimize-accumulator-init, as
 * Triton's pass of that name: a wgmma whose accumulator is
 * `arith.select %c, zeros, %acc` (or `select %c, %acc, zeros`) takes %acc
 * itself and a useC flag (ttng.warp_group_dot's fourth operand: false
 * means D = A x B, the accumulator not read), so the accumulator is never
 * touched by other instructions between wgmmas and the pipeliner can keep
 * it in flight (asynchronous wgmma). The flattened persistent loop of
 * tritongpu-fuse-nested-loops restarts its accumulator this way on each
 * tile. The select must have no other use; fp8 dots that accumulate in
 * parts (maxNumImpreciseAcc at most K) are left alone.
 *
 * Needs: ttgir after tritongpu-accelerate-matmul, before
 * tritongpu-pipeline. */
#include "ir-ttgpu/ttg.h"

/* The scalar i1 behind a select's condition (itself, or a splat's
 * operand), or NULL. */
static ir_value *scalar_cond(ir_value *c) {
  if (!ir_type_is_tensor(c->type)) return c;
  const ir_op *d = c->def;
  return d && d->kind == IR_OP_TT_SPLAT ? d->operands[0] : NULL;
}

typedef struct ai_state {
  ir_op **dots;
  size_t n, cap;
} ai_state;

static void collect(ir_op *op, void *user) {
  ai_state *st = user;
  if (op->kind != IR_OP_TTNG_WARP_GROUP_DOT || op->noperands != 3) return;
  if (st->dots && st->n < st->cap) st->dots[st->n] = op;
  st->n++;
}

static void rewrite(ir_module *m, ir_op *op) {
  ir_op *func = ir_op_parent_of_kind(op, IR_OP_TT_FUNC);
  ir_op *sel = op->operands[2]->def;
  if (!func || !sel || sel->kind != IR_OP_ARITH_SELECT ||
      ir_count_uses(func, &sel->results[0]) != 1)
    return;
  const ir_type *bt = op->operands[1]->type;
  if (ir_type_is_fp8(ir_type_scalar(bt)) &&
      ir_op_get_int(op, "maxNumImpreciseAcc", (int64_t)1 << 30) <= bt->shape[0])
    return;
  ir_value *c = scalar_cond(sel->operands[0]);
  bool zero_if_true = ttg_is_zero_const(sel->operands[1]);
  if (!c || (!zero_if_true && !ttg_is_zero_const(sel->operands[2]))) return;
  ir_value *acc = sel->operands[zero_if_true ? 2 : 1];
  ir_builder b;
  ir_builder_init(&b, m);
  ir_builder_set_before(&b, sel); /* where the select was: the dot keeps its fence */
  b.loc = sel->loc;
  ir_value *use_c = c;
  if (zero_if_true) /* zeros when c: use the accumulator when !c */
    use_c = ir_build_binary(&b, IR_OP_ARITH_XORI, c, ir_build_const_int(&b, c->type, 1));
  ir_value *ops[4] = {op->operands[0], op->operands[1], acc, use_c};
  ir_op_set_operands(m, op, 4, ops);
  ir_op_erase(sel);
}

bool ttg_pass_optimize_accumulator_init(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)args;
  ai_state st = {0};
  ir_walk(m->op, collect, &st);
  if (!st.n) return true;
  st.cap = st.n;
  st.n = 0;
  st.dots = ir_arena_alloc(scratch, sizeof *st.dots * st.cap);
  if (!st.dots) {
    ir_error(m->ctx, m->op->loc, "out of memory in pass 'tritongpu-optimize-accumulator-init'");
    return false;
  }
  ir_walk(m->op, collect, &st);
  for (size_t i = 0; i < st.n; i++)
    rewrite(m, st.dots[i]);
  return true;
}
