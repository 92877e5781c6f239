/* lower_return.c - `return` under a runtime `if`, outside loops:
 *
 *     if pid >= n:            scf.if %c -> (T) {
 *         return x     ==>       yield %x
 *     y = ...                 } else {
 *     return y                   %y = ...; yield %y }
 *
 * MLIR's structured control flow has no early exit, so each arm of the
 * scf.if lowers its own statements followed by everything after the `if` in
 * the function (the continuation, fe_cont), and both arms end by returning.
 * The scf.if then yields the returned value(s), which become the function's
 * value. Code after the `if` is duplicated into each arm that falls through;
 * that is the price of staying structured (Triton branches instead). */
#include <string.h>

#include "frontend/lower_impl.h"

#define MAX_RET 16

bool fe_has_return(const fe_body *b) {
  for (int i = 0; i < b->n; i++) {
    const fe_stmt *s = b->stmts[i];
    if (s->kind == FE_ST_RETURN) return true;
    if (s->kind == FE_ST_IF && (fe_has_return(&s->body) || fe_has_return(&s->orelse))) return true;
  }
  return false;
}

/* Flattens a returned value (None, a value, or a tuple of values) into
 * leaves; false when it is something a scf.if cannot yield. */
static bool flatten(const fe_val *v, fe_val *out, int *n) {
  if (v->kind == FE_V_NONE) return true;
  if (v->kind == FE_V_TUPLE) {
    for (int i = 0; i < v->n; i++)
      if (!flatten(&v->items[i], out, n)) return false;
    return true;
  }
  if (v->kind != FE_V_TENSOR && !fe_is_const(v)) return false;
  if (*n == MAX_RET) return false;
  out[(*n)++] = *v;
  return true;
}

/* Rebuilds the shape of `like` (a tuple tree) from the leaves res[*k...]. */
static fe_val unflatten(fe_lower *l, const fe_val *like, const fe_val *res, int *k) {
  if (like->kind == FE_V_NONE) return *like;
  if (like->kind != FE_V_TUPLE) return res[(*k)++];
  fe_val t = *like;
  t.items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(like->n + 1));
  for (int i = 0; i < like->n; i++)
    t.items[i] = unflatten(l, &like->items[i], res, k);
  return t;
}

/* Lowers one arm: its statements, then the continuation chain unless the arm
 * already returned. Returns what the function returns along this path. */
static fe_val lower_arm(fe_lower *l, const fe_body *arm, const fe_cont *cont) {
  fe_frame *f = l->frame;
  f->returned = false;
  f->ret = fe_val_error();
  f->ret.kind = FE_V_NONE;
  fe_lower_stmts(l, (const fe_stmt *const *)arm->stmts, arm->n, cont);
  for (const fe_cont *c = cont; c && !f->returned; c = c->next)
    fe_lower_stmts(l, c->stmts, c->n, c->next);
  return f->ret;
}

void fe_lower_returning_if(fe_lower *l, const fe_stmt *s, fe_val cond) {
  if (!fe_if_condition(l, s, &cond)) return;
  fe_frame *f = l->frame;
  const fe_cont *cont = f->cont;
  ir_block *outer = l->b.block;
  fe_scope pre;
  fe_scope_copy(&pre, &f->scope);
  const fe_body *arms[2] = {&s->body, &s->orelse};
  ir_block *blocks[2];
  fe_val rets[2], leaves[2][MAX_RET];
  int nleaves[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    blocks[k] = ir_block_create(l->m, 0, NULL);
    ir_builder_set_end(&l->b, blocks[k]);
    fe_scope_free(&f->scope);
    fe_scope_copy(&f->scope, &pre);
    rets[k] = lower_arm(l, arms[k], cont);
  }
  /* Every path has returned now: the function ends here. */
  fe_scope_free(&f->scope);
  f->scope = pre;
  f->returned = true;
  f->ret = fe_val_error();
  ir_builder_set_end(&l->b, outer);
  if (rets[0].kind == FE_V_ERROR || rets[1].kind == FE_V_ERROR) return;
  bool ok = flatten(&rets[0], leaves[0], &nleaves[0]) &&
            flatten(&rets[1], leaves[1], &nleaves[1]) && nleaves[0] == nleaves[1] &&
            (rets[0].kind == FE_V_TUPLE) == (rets[1].kind == FE_V_TUPLE);
  if (!ok) {
    fe_error(l, s->loc,
             "unsupported: the branches of this runtime 'if' return values of "
             "different kinds ('%s' and '%s')",
             fe_val_type_str(l, &rets[0]), fe_val_type_str(l, &rets[1]));
    return;
  }
  /* Unify each pair of leaves inside its arm: constants adopt the other's type. */
  int n = nleaves[0];
  const ir_type *types[MAX_RET];
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 2; k++) {
      ir_builder_set_end(&l->b, blocks[k]);
      fe_val *v = &leaves[k][i], *o = &leaves[1 - k][i];
      if (fe_is_const(v) && o->kind == FE_V_TENSOR)
        *v = fe_cast(l, *v, o->v->type, o->is_unsigned, s->loc);
      else
        *v = fe_to_tensor(l, *v, s->loc);
    }
    ir_builder_set_end(&l->b, outer);
    if (leaves[0][i].kind == FE_V_ERROR || leaves[1][i].kind == FE_V_ERROR) return;
    if (leaves[0][i].v->type != leaves[1][i].v->type) {
      fe_error(l, s->loc,
               "the branches of this runtime 'if' return '%s' and '%s'; the types "
               "must match",
               fe_val_type_str(l, &leaves[0][i]), fe_val_type_str(l, &leaves[1][i]));
      return;
    }
    types[i] = leaves[0][i].v->type;
  }
  for (int k = 0; k < 2; k++) {
    ir_value *ys[MAX_RET];
    for (int i = 0; i < n; i++)
      ys[i] = leaves[k][i].v;
    ir_builder_set_end(&l->b, blocks[k]);
    l->b.loc = s->loc;
    ir_build(&l->b, IR_OP_SCF_YIELD, 0, NULL, n, ys, 0);
  }
  ir_builder_set_end(&l->b, outer);
  l->b.loc = s->loc;
  ir_op *op = ir_build(&l->b, IR_OP_SCF_IF, n, types, 1, &cond.v, 2);
  ir_region_append_block(&op->regions[0], blocks[0]);
  ir_region_append_block(&op->regions[1], blocks[1]);
  fe_val res[MAX_RET];
  for (int i = 0; i < n; i++)
    res[i] = fe_val_tensor(ir_op_result(op, i), leaves[0][i].is_unsigned);
  int k = 0;
  f->ret = unflatten(l, &rets[0], res, &k);
}
