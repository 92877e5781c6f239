// SPDX-License-Identifier: MIT
/* cse.c - common subexpression elimination: a pure op identical to one
 * seen earlier in its block or an enclosing block (same kind, operands,
 * attributes and result types; either operand order for commutative ops)
 * is replaced by it.
 *
 * Needs: nothing. Leaves: no two identical pure ops where one dominates the
 * other; the survivor keeps its name hint and location. */
#include <stdlib.h>

#include "ir-tt/ir.h"

typedef struct cse_state {
  ir_module *m;
  ir_op **avail; /* ops visible in the current scope, outermost first */
  size_t navail, cap;
  bool oom;
} cse_state;

static bool is_candidate(const ir_op *op) { return ir_op_is_pure(op) && op->nresults > 0; }

/* Attributes are uniqued, so equal values are equal pointers; the order of
 * the attribute lists may differ. */
static bool same_attrs(const ir_op *a, const ir_op *b) {
  if (a->nattrs != b->nattrs) return false;
  for (int i = 0; i < a->nattrs; i++)
    if (ir_op_get_attr(b, a->attrs[i].name) != a->attrs[i].value) return false;
  return true;
}

static bool equivalent(const ir_op *a, const ir_op *b) {
  if (a->kind != b->kind || a->nresults != b->nresults || a->noperands != b->noperands)
    return false;
  for (int i = 0; i < a->nresults; i++)
    if (a->results[i].type != b->results[i].type) return false;
  bool same_order = true;
  for (int i = 0; i < a->noperands && same_order; i++)
    same_order = a->operands[i] == b->operands[i];
  if (!same_order) {
    bool commutes = (ir_op_info_of(a)->traits & IR_T_COMMUTATIVE) && a->noperands == 2 &&
                    a->operands[0] == b->operands[1] && a->operands[1] == b->operands[0];
    if (!commutes) return false;
  }
  return same_attrs(a, b);
}

static void push_avail(cse_state *st, ir_op *op) {
  if (st->navail == st->cap) {
    size_t cap = st->cap ? st->cap * 2 : 256;
    ir_op **p = realloc(st->avail, cap * sizeof *p);
    if (!p) {
      st->oom = true;
      return;
    }
    st->avail = p;
    st->cap = cap;
  }
  st->avail[st->navail++] = op;
}

static void cse_region(cse_state *st, ir_region *r);

static void cse_block(cse_state *st, ir_block *b) {
  size_t mark = st->navail;
  ir_op *next;
  for (ir_op *op = b->first; op; op = next) {
    next = op->next;
    if (is_candidate(op)) {
      ir_op *found = NULL;
      /* Scanning back finds the nearest equal op; kernels are a few
       * thousand ops, so the quadratic worst case stays small. */
      for (size_t i = st->navail; i-- > 0 && !found;)
        if (equivalent(st->avail[i], op)) found = st->avail[i];
      if (found) {
        for (int i = 0; i < op->nresults; i++)
          ir_replace_all_uses(st->m->op, &op->results[i], &found->results[i]);
        ir_op_erase(op);
        continue;
      }
      push_avail(st, op);
    }
    for (int i = 0; i < op->nregions; i++)
      cse_region(st, &op->regions[i]);
  }
  st->navail = mark;
}

static void cse_region(cse_state *st, ir_region *r) {
  for (ir_block *b = r->first; b; b = b->next)
    cse_block(st, b);
}

bool ir_pass_cse(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)args;
  (void)scratch;
  cse_state st = {m, NULL, 0, 0, false};
  cse_region(&st, &m->op->regions[0]);
  free(st.avail);
  if (st.oom) {
    ir_error(m->ctx, m->op->loc, "out of memory in pass 'cse'");
    return false;
  }
  return true;
}
