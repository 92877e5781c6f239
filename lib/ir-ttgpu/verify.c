// SPDX-License-Identifier: MIT
/* verify.c - the ttgir rules on top of the IR verifier: in a module that
 * carries ttg.num-warps, every tensor has a distributed layout that lays out
 * its shape over exactly the module's warps and 32 lanes, every shared
 * buffer an encoding that lays out its shape, and dots carry the operand and
 * accumulator layouts their lowering needs. Run between passes in debug
 * builds and by the IR tool's --verify-each. */
#include "ir-ttgpu/ttg.h"

typedef struct tv_state {
  ir_context *ctx;
  int num_warps; /* 0: a ttir module, whose types carry no layouts */
  bool ok;
} tv_state;

static void tv_error(tv_state *st, const ir_op *op, const char *what, const ir_type *t) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_type_print(t, &sb);
  ir_error(st->ctx, op->loc, "'%s' op %s: %s", ir_op_name(op), what, sb.data ? sb.data : "?");
  ir_sb_free(&sb);
  st->ok = false;
}

static int log2i(int v) {
  int k = 0;
  while ((1 << k) < v)
    k++;
  return k;
}

static void check_type(tv_state *st, const ir_op *op, const ir_type *t) {
  if (!st->num_warps) { /* ttir: a layout here would reach passes that trust it unchecked */
    if (st->ok && (ir_type_is_memdesc(t) || (ir_type_is_tensor(t) && t->layout)))
      tv_error(st, op, "layout in a module without \"ttg.num-warps\" (a ttgir module states it)",
               t);
    return;
  }
  if (ir_type_is_tensor(t)) {
    ttg_ll l;
    if (!t->layout) {
      tv_error(st, op, "tensor without a layout in ttgir", t);
    } else if (ir_attr_is_shared_layout(t->layout)) {
      tv_error(st, op, "tensor with a shared-memory layout", t);
    } else if (!ttg_ll_of_type(t, &l)) {
      tv_error(st, op, "layout cannot lay out this shape", t);
    } else if (l.nbits[TTG_IN_LANE] != 5 || l.nbits[TTG_IN_WARP] != log2i(st->num_warps)) {
      tv_error(st, op, "layout does not span the module's warps and 32 lanes", t);
    }
  } else if (ir_type_is_memdesc(t)) {
    ttg_ll l;
    if (!ttg_ll_of_shared(t->layout, t->rank, t->shape, (int)ir_type_bytes(t->elem) * 8, &l) &&
        !(t->rank == 3 &&
          ttg_ll_of_shared(t->layout, 2, t->shape + 1, (int)ir_type_bytes(t->elem) * 8, &l)))
      tv_error(st, op, "shared encoding cannot lay out this buffer", t);
  }
}

/* The accumulator of an mma dot and its operands: dot_op layouts of that
 * mma (or, for wgmma, buffers); an FMA dot (blocked result) takes any. */
static void check_dot(tv_state *st, const ir_op *op) {
  const ir_type *d = op->results[0].type;
  const ir_attr *dl = d->layout;
  if (!dl || dl->kind != IR_ATTR_NVIDIA_MMA) {
    if (op->kind == IR_OP_TTNG_WARP_GROUP_DOT) tv_error(st, op, "result must be an mma v3", d);
    return;
  }
  bool is_wg = op->kind == IR_OP_TTNG_WARP_GROUP_DOT;
  if (is_wg != (dl->version_major == 3)) {
    tv_error(st, op, is_wg ? "result must be an mma v3" : "tt.dot takes an mma v2 result", d);
    return;
  }
  for (int i = 0; i < 2; i++) {
    const ir_type *t = op->operands[i]->type;
    if (ir_type_is_memdesc(t) && is_wg) continue;
    if (!ir_type_is_tensor(t) || !t->layout || t->layout->kind != IR_ATTR_DOT_OP ||
        t->layout->parent != dl || t->layout->op_idx != i || (is_wg && i == 1))
      tv_error(st, op,
               i == 0 ? "operand A must be a dot_op of the result's mma"
                      : "operand B must be a dot_op of the result's mma",
               t);
  }
}

static void check_op(ir_op *op, void *user) {
  tv_state *st = user;
  for (int i = 0; i < op->nresults; i++)
    check_type(st, op, op->results[i].type);
  for (int r = 0; r < op->nregions; r++)
    for (ir_block *b = op->regions[r].first; b; b = b->next)
      for (int i = 0; i < b->nargs; i++)
        check_type(st, op, b->args[i]->type);
  if (st->num_warps && (op->kind == IR_OP_TT_DOT || op->kind == IR_OP_TTNG_WARP_GROUP_DOT))
    check_dot(st, op);
}

bool ttg_verify(const ir_module *m) {
  if (!ir_verify(m)) return false;
  if (!ir_op_get_attr(m->op, "ttg.num-warps")) { /* ttir: no layouts (num_warps 0) */
    tv_state st = {m->ctx, 0, true};
    ir_walk(m->op, check_op, &st);
    return st.ok;
  }
  ttg_options o = ttg_module_options(m);
  if (!ttg_options_check(m, &o)) return false;
  tv_state st = {m->ctx, o.num_warps, true};
  ir_walk(m->op, check_op, &st);
  return st.ok;
}
