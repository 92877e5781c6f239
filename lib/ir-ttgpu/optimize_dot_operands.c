// SPDX-License-Identifier: MIT
/* optimize_dot_operands.c - tritongpu-optimize-dot-operands, the part of
 * Triton's pass of that name that Hopper needs: a wgmma operand copied to
 * shared memory from a transposed tile,
 *     %t = tt.trans %x {order = [1, 0]};  %a = ttg.local_alloc %t
 * is instead copied untransposed and viewed transposed,
 *     %x' = ttg.local_alloc %x;  %a = ttg.memdesc_trans %x' {order = [1, 0]}
 * (attention's `k = desc_k.load(...).T`, `tl.dot(a, tl.trans(b))`). %x'
 * gets the nvmma_shared encoding of %x's own register order, as
 * tritongpu-accelerate-matmul would give it, so that the copy keeps %x's
 * contiguous runs (and tritongpu-pipeline can fill the buffer with
 * cp.async when %x is a load); the view has the same bytes with the other
 * dim contiguous (`transposed` flipped), which wgmma reads as it reads any
 * nvmma_shared operand of 16-bit elements. Only for a tt.trans whose one
 * use is the local_alloc (through layout conversions), in 2-D, 16-bit
 * elements (wgmma needs K contiguous for the others), and an alloc that
 * only wgmmas read.
 *
 * Needs: ttgir after tritongpu-accelerate-matmul, before
 * tritongpu-pipeline. */
#include "ir-ttgpu/ttg.h"

typedef struct od_state {
  ir_op **allocs;
  size_t n, cap;
} od_state;

static void collect(ir_op *op, void *user) {
  od_state *st = user;
  if (op->kind != IR_OP_TTG_LOCAL_ALLOC || op->noperands != 1) return;
  if (st->allocs && st->n < st->cap) st->allocs[st->n] = op;
  st->n++;
}

/* The tt.trans {order = [1, 0]} under alloc's operand (through layout
 * conversions that have no other use), or NULL. */
static ir_op *trans_under(ir_op *func, ir_op *alloc) {
  ir_value *v = alloc->operands[0];
  while (v->def && v->def->kind == IR_OP_TTG_CONVERT_LAYOUT && ir_count_uses(func, v) == 1)
    v = v->def->operands[0];
  ir_op *t = v->def;
  if (!t || t->kind != IR_OP_TT_TRANS || ir_count_uses(func, v) != 1 ||
      t->results[0].type->rank != 2)
    return NULL;
  const ir_attr *order = ir_op_get_attr(t, "order");
  if (!order || order->kind != IR_ATTR_ARRAY || order->n != 2 || order->ints[0] != 1 ||
      order->ints[1] != 0)
    return NULL;
  return t;
}

typedef struct use_check {
  const ir_value *v;
  int wgmma, other;
} use_check;

static void count_use(ir_op *op, void *user) {
  use_check *u = user;
  for (int i = 0; i < op->noperands; i++)
    if (op->operands[i] == u->v) {
      if (op->kind == IR_OP_TTNG_WARP_GROUP_DOT)
        u->wgmma++;
      else
        u->other++;
    }
}

/* Whether v is read, and only by ttng.warp_group_dot operands. */
static bool only_wgmma_reads(ir_op *func, const ir_value *v) {
  use_check u = {v, 0, 0};
  ir_walk(func, count_use, &u);
  return u.wgmma > 0 && u.other == 0;
}

static void rewrite(ir_module *m, ir_op *alloc) {
  ir_op *func = ir_op_parent_of_kind(alloc, IR_OP_TT_FUNC);
  const ir_type *at = alloc->results[0].type;
  const ir_attr *enc = at->layout;
  if (!func || !enc || enc->kind != IR_ATTR_NVMMA_SHARED || at->rank != 2 || enc->elem_bits != 16)
    return;
  /* the cheap test first: the walks over the function run only for an
   * alloc of a transpose */
  const ir_value *v = alloc->operands[0];
  while (v->def && v->def->kind == IR_OP_TTG_CONVERT_LAYOUT)
    v = v->def->operands[0];
  if (!v->def || v->def->kind != IR_OP_TT_TRANS) return;
  ir_op *t = trans_under(func, alloc);
  if (!t || !only_wgmma_reads(func, &alloc->results[0])) return;
  ir_value *x = t->operands[0];
  const ir_attr *xl = x->type->layout;
  unsigned order[2] = {1, 0};
  if (xl && xl->kind == IR_ATTR_BLOCKED) order[0] = xl->order[0], order[1] = xl->order[1];
  const ir_attr *xenc = ttg_nvmma_shared_for(m->ctx, 2, x->type->shape, order, (int)enc->elem_bits);
  const ir_attr *venc =
      ir_attr_nvmma_shared(m->ctx, xenc->swizzle_bytes, !xenc->transposed, xenc->elem_bits);
  const ir_type *xt = ir_type_memdesc(m->ctx, 2, x->type->shape, at->elem, xenc, at->is_mutable);
  at = ir_type_memdesc(m->ctx, 2, at->shape, at->elem, venc, at->is_mutable);
  ir_op *copy = ir_op_create(m, IR_OP_TTG_LOCAL_ALLOC, alloc->loc, 1, &xt, 1, &x, 0);
  copy->results[0].name = alloc->results[0].name;
  ir_op_insert_before(alloc, copy);
  ir_value *src = &copy->results[0];
  ir_op *view = ir_op_create(m, IR_OP_TTG_MEMDESC_TRANS, alloc->loc, 1, &at, 1, &src, 0);
  ir_op_set_attr(m, view, "order", ir_op_get_attr(t, "order"));
  view->results[0].name = alloc->results[0].name;
  ir_op_insert_before(alloc, view);
  ir_replace_all_uses(func, &alloc->results[0], &view->results[0]);
  /* the alloc, then the conversions and the trans that only fed it (a
   * later pass counts the load's uses) */
  ir_op *dead = alloc;
  while (dead != t) {
    ir_op *next = dead->operands[0]->def;
    ir_op_erase(dead);
    dead = next;
  }
  ir_op_erase(t);
}

bool ttg_pass_optimize_dot_operands(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)args;
  od_state st = {0};
  ir_walk(m->op, collect, &st);
  if (!st.n) return true;
  st.cap = st.n;
  st.n = 0;
  st.allocs = ir_arena_alloc(scratch, sizeof *st.allocs * st.cap);
  if (!st.allocs) {
    ir_error(m->ctx, m->op->loc, "out of memory in pass 'tritongpu-optimize-dot-operands'");
    return false;
  }
  ir_walk(m->op, collect, &st);
  for (size_t i = 0; i < st.n; i++)
    rewrite(m, st.allocs[i]);
  return true;
}
