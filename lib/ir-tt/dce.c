// SPDX-License-Identifier: MIT
/* dce.c - dead code elimination: erases pure ops none of whose results is
 * used, repeatedly, so chains of dead ops go at once.
 *
 * Needs: nothing. Leaves: no pure op with all results unused (ops with side
 * effects and terminators are kept; of the ops with regions, only an
 * scf.if whose regions hold nothing but pure ops, yields and such ifs goes,
 * as MLIR's dead-op check takes it: a pipeliner's or flattener's copy of a
 * restart whose values nobody reads). */
#include <string.h>

#include "ir-tt/ir.h"

/* Use counts in an open-addressing table sized once from the op count. */
typedef struct use_table {
  const ir_value **keys;
  int *counts;
  size_t cap;
} use_table;

static size_t slot_of(const use_table *t, const ir_value *v) {
  size_t j = ir_ptr_slot(v, t->cap);
  while (t->keys[j] && t->keys[j] != v)
    j = (j + 1) & (t->cap - 1);
  return j;
}

static void count_ops(ir_op *op, void *user) {
  (void)op;
  ++*(size_t *)user;
}

typedef struct dce_state {
  use_table uses;
  ir_op **ops; /* every op in walk order (pre-order) */
  size_t *end; /* end[k]: one past the last op nested in ops[k] */
  size_t nops;
} dce_state;

/* op and the ops nested in it, in pre-order, with their extents. */
static void collect(dce_state *st, ir_op *op) {
  size_t k = st->nops++;
  st->ops[k] = op;
  for (int i = 0; i < op->noperands; i++) {
    if (!op->operands[i]) continue;
    size_t j = slot_of(&st->uses, op->operands[i]);
    st->uses.keys[j] = op->operands[i];
    st->uses.counts[j]++;
  }
  for (int r = 0; r < op->nregions; r++)
    for (ir_block *b = op->regions[r].first; b; b = b->next)
      for (ir_op *in = b->first; in; in = in->next)
        collect(st, in);
  st->end[k] = st->nops;
}

/* Whether every op in op's regions is pure, a yield, or such an scf.if. */
static bool body_is_pure(const ir_op *op) {
  for (int r = 0; r < op->nregions; r++)
    for (ir_block *b = op->regions[r].first; b; b = b->next)
      for (ir_op *in = b->first; in; in = in->next)
        if (in->kind != IR_OP_SCF_YIELD && !ir_op_is_pure(in) &&
            !(in->kind == IR_OP_SCF_IF && body_is_pure(in)))
          return false;
  return true;
}

static bool is_removable(const ir_op *op) {
  return ir_op_is_pure(op) || (op->kind == IR_OP_SCF_IF && body_is_pure(op));
}

static void drop_uses(use_table *uses, const ir_op *op) {
  for (int i = 0; i < op->noperands; i++) {
    if (!op->operands[i]) continue;
    size_t j = slot_of(uses, op->operands[i]);
    if (uses->keys[j]) uses->counts[j]--;
  }
}

bool ir_pass_dce(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)args;
  size_t nops = 0;
  ir_walk(m->op, count_ops, &nops);
  if (!nops) return true;
  dce_state st;
  size_t cap = 16;
  while (cap < 4 * nops)
    cap *= 2; /* operands per op are few: load stays low */
  st.uses.cap = cap;
  st.uses.keys = ir_arena_alloc(scratch, cap * sizeof *st.uses.keys);
  st.uses.counts = ir_arena_alloc(scratch, cap * sizeof *st.uses.counts);
  st.ops = ir_arena_alloc(scratch, nops * sizeof *st.ops);
  st.end = ir_arena_alloc(scratch, nops * sizeof *st.end);
  st.nops = 0;
  if (!st.uses.keys || !st.uses.counts || !st.ops || !st.end) {
    ir_error(m->ctx, m->op->loc, "out of memory in pass 'dce'");
    return false;
  }
  for (int r = 0; r < m->op->nregions; r++)
    for (ir_block *b = m->op->regions[r].first; b; b = b->next)
      for (ir_op *in = b->first; in; in = in->next)
        collect(&st, in);
  /* Reverse walk order visits users before their operands' definitions
   * (within a block), so one sweep removes whole dead chains; repeat for
   * chains that cross region boundaries. */
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t k = st.nops; k-- > 0;) {
      ir_op *op = st.ops[k];
      if (!op || !is_removable(op)) continue;
      bool used = false;
      for (int r = 0; r < op->nresults && !used; r++) {
        size_t j = slot_of(&st.uses, &op->results[r]);
        used = st.uses.keys[j] && st.uses.counts[j] > 0;
      }
      if (used) continue;
      drop_uses(&st.uses, op);
      /* An erased if takes its body along (some of it may be erased
       * already). */
      for (size_t j = k + 1; j < st.end[k]; j++) {
        if (!st.ops[j]) continue;
        drop_uses(&st.uses, st.ops[j]);
        st.ops[j] = NULL;
      }
      ir_op_erase(op);
      st.ops[k] = NULL;
      changed = true;
    }
  }
  return true;
}
