// SPDX-License-Identifier: MIT
/* canonicalize.c - local simplification: folds integer arithmetic and
 * compares on constants, simplifies identities (x+0, x-0, x*1, x*0, x/1,
 * x|0, x^0, x&0, shifts by 0), turns splats of constants into dense
 * constants, folds casts of constants and selects on constant conditions;
 * then erases the ops left dead (as MLIR's greedy driver does).
 *
 * Needs: nothing. Leaves: new constants right before the op they replace,
 * with its location and name hint. */
#include <stdint.h>
#include <stdlib.h>

#include "ir-tt/ir.h"

/* The integer value of a scalar or splat integer constant. */
static bool const_int(const ir_value *v, int64_t *out) {
  if (!v || !v->def || v->def->kind != IR_OP_ARITH_CONSTANT) return false;
  const ir_attr *a = ir_op_get_attr(v->def, "value");
  if (a && a->kind == IR_ATTR_DENSE) a = a->elem;
  if (!a || a->kind != IR_ATTR_INT) return false;
  *out = a->i;
  return true;
}

static const ir_attr *const_scalar_attr(const ir_value *v) {
  if (!v || !v->def || v->def->kind != IR_OP_ARITH_CONSTANT) return NULL;
  const ir_attr *a = ir_op_get_attr(v->def, "value");
  if (a && a->kind == IR_ATTR_DENSE) a = a->elem;
  return a && (a->kind == IR_ATTR_INT || a->kind == IR_ATTR_FLOAT) ? a : NULL;
}

/* Replaces op's single result by `to` and erases op: the uses are rewritten
 * through the sweep's substitution as the sweep reaches them (one walk per
 * replacement made the pass quadratic). */
static void replace_op(ir_subst *sub, ir_op *op, ir_value *to) {
  ir_subst_add(sub, &op->results[0], to);
  ir_op_erase(op);
}

/* A constant of op's result type holding `scalar`, before op. */
static void replace_by_constant(ir_module *m, ir_subst *sub, ir_op *op, const ir_attr *scalar) {
  const ir_type *ty = op->results[0].type;
  ir_op *c = ir_op_create(m, IR_OP_ARITH_CONSTANT, op->loc, 1, &ty, 0, NULL, 0);
  ir_op_set_attr(m, c, "value", ir_type_is_tensor(ty) ? ir_attr_dense(m->ctx, ty, scalar) : scalar);
  c->results[0].name = op->results[0].name;
  ir_op_insert_before(op, c);
  replace_op(sub, op, &c->results[0]);
}

static uint64_t to_unsigned(int64_t v, unsigned width) {
  return width >= 64 ? (uint64_t)v : (uint64_t)v & ((1ull << width) - 1);
}

/* Folds a binary integer op on constants; false when it does not fold
 * (division by zero, overflowing signed division, oversized shifts). */
static bool fold_int(ir_op_kind k, int64_t a, int64_t b, unsigned w, int64_t *r) {
  uint64_t ua = to_unsigned(a, w), ub = to_unsigned(b, w);
  int64_t min = w >= 64 ? INT64_MIN : -(int64_t)(1ull << (w - 1));
  bool sdiv_ok = b != 0 && !(a == min && b == -1);
  /* An if-chain, not a switch: only the integer binaries reach here, and a
   * switch over ir_op_kind must name every kind (no default). */
  if (k == IR_OP_ARITH_ADDI)
    *r = (int64_t)((uint64_t)a + (uint64_t)b);
  else if (k == IR_OP_ARITH_SUBI)
    *r = (int64_t)((uint64_t)a - (uint64_t)b);
  else if (k == IR_OP_ARITH_MULI)
    *r = (int64_t)((uint64_t)a * (uint64_t)b);
  else if (k == IR_OP_ARITH_DIVSI && sdiv_ok)
    *r = a / b;
  else if (k == IR_OP_ARITH_REMSI && sdiv_ok)
    *r = a % b;
  else if (k == IR_OP_ARITH_DIVUI && ub)
    *r = (int64_t)(ua / ub);
  else if (k == IR_OP_ARITH_REMUI && ub)
    *r = (int64_t)(ua % ub);
  else if (k == IR_OP_ARITH_ANDI)
    *r = a & b;
  else if (k == IR_OP_ARITH_ORI)
    *r = a | b;
  else if (k == IR_OP_ARITH_XORI)
    *r = a ^ b;
  else if (k == IR_OP_ARITH_SHLI && ub < w)
    *r = (int64_t)(ua << ub);
  else if (k == IR_OP_ARITH_SHRUI && ub < w)
    *r = (int64_t)(ua >> ub);
  else if (k == IR_OP_ARITH_SHRSI && ub < w)
    *r = a >> ub; /* a is sign-extended */
  else if (k == IR_OP_ARITH_MAXSI)
    *r = a > b ? a : b;
  else if (k == IR_OP_ARITH_MINSI)
    *r = a < b ? a : b;
  else if (k == IR_OP_ARITH_MAXUI)
    *r = ua > ub ? a : b;
  else if (k == IR_OP_ARITH_MINUI)
    *r = ua < ub ? a : b;
  else
    return false;
  return true;
}

static bool fold_cmpi(ir_cmpi_pred p, int64_t a, int64_t b, unsigned w) {
  uint64_t ua = to_unsigned(a, w), ub = to_unsigned(b, w);
  switch (p) {
  case IR_CMPI_EQ: return a == b;
  case IR_CMPI_NE: return a != b;
  case IR_CMPI_SLT: return a < b;
  case IR_CMPI_SLE: return a <= b;
  case IR_CMPI_SGT: return a > b;
  case IR_CMPI_SGE: return a >= b;
  case IR_CMPI_ULT: return ua < ub;
  case IR_CMPI_ULE: return ua <= ub;
  case IR_CMPI_UGT: return ua > ub;
  case IR_CMPI_UGE: return ua >= ub;
  }
  return false;
}

/* Identities with one constant operand; true if op was replaced. */
static bool simplify_identity(ir_module *m, ir_subst *sub, ir_op *op, const ir_type *elem) {
  ir_value *x = op->operands[0], *y = op->operands[1];
  int64_t c;
  bool rc = const_int(y, &c), lc = !rc && const_int(x, &c);
  if (!rc && !lc) return false;
  ir_value *other = rc ? x : y;
  bool commutative = ir_op_info_of(op)->traits & IR_T_COMMUTATIVE;
  if (lc && !commutative) return false;
  ir_op_kind k = op->kind;
  bool is_neutral_zero = k == IR_OP_ARITH_ADDI || k == IR_OP_ARITH_SUBI || k == IR_OP_ARITH_ORI ||
                         k == IR_OP_ARITH_XORI || k == IR_OP_ARITH_SHLI || k == IR_OP_ARITH_SHRSI ||
                         k == IR_OP_ARITH_SHRUI;
  bool is_div = k == IR_OP_ARITH_DIVSI || k == IR_OP_ARITH_DIVUI;
  if ((is_neutral_zero && c == 0) || (k == IR_OP_ARITH_MULI && c == 1) || (is_div && c == 1)) {
    replace_op(sub, op, other);
    return true;
  }
  if ((k == IR_OP_ARITH_MULI || k == IR_OP_ARITH_ANDI) && c == 0) {
    replace_by_constant(m, sub, op, ir_attr_int(m->ctx, elem, 0));
    return true;
  }
  return false;
}

static bool is_int_binary(ir_op_kind k) { return k >= IR_OP_ARITH_ADDI && k <= IR_OP_ARITH_MINUI; }

/* Tries every rule on op; true if it changed the IR. */
static bool canonicalize_op(ir_module *m, ir_subst *sub, ir_op *op) {
  ir_context *ctx = m->ctx;
  if (is_int_binary(op->kind)) {
    const ir_type *elem = ir_type_scalar(op->results[0].type);
    int64_t a, b, r;
    if (const_int(op->operands[0], &a) && const_int(op->operands[1], &b)) {
      if (!fold_int(op->kind, a, b, elem->width, &r)) return false;
      replace_by_constant(m, sub, op, ir_attr_int(ctx, elem, r));
      return true;
    }
    return simplify_identity(m, sub, op, elem);
  }
  if (op->kind == IR_OP_ARITH_CMPI) {
    int64_t a, b;
    if (!const_int(op->operands[0], &a) || !const_int(op->operands[1], &b)) return false;
    unsigned w = ir_type_scalar(op->operands[0]->type)->width;
    bool r = fold_cmpi((ir_cmpi_pred)ir_op_get_int(op, "predicate", 0), a, b, w);
    replace_by_constant(m, sub, op, ir_attr_bool(ctx, r));
    return true;
  }
  if (op->kind == IR_OP_TT_SPLAT) {
    const ir_attr *a = const_scalar_attr(op->operands[0]);
    if (!a) return false;
    replace_by_constant(m, sub, op, a);
    return true;
  }
  if (op->kind == IR_OP_ARITH_EXTSI || op->kind == IR_OP_ARITH_EXTUI ||
      op->kind == IR_OP_ARITH_TRUNCI) {
    int64_t a;
    if (!const_int(op->operands[0], &a)) return false;
    unsigned from = ir_type_scalar(op->operands[0]->type)->width;
    if (op->kind == IR_OP_ARITH_EXTUI) a = (int64_t)to_unsigned(a, from);
    replace_by_constant(m, sub, op, ir_attr_int(ctx, ir_type_scalar(op->results[0].type), a));
    return true;
  }
  if (op->kind == IR_OP_ARITH_SELECT) {
    int64_t c;
    if (!const_int(op->operands[0], &c)) return false;
    replace_op(sub, op, op->operands[c ? 1 : 2]);
    return true;
  }
  return false;
}

typedef struct op_list {
  ir_op **ops;
  size_t n, cap;
  bool oom;
} op_list;

static void collect_op(ir_op *op, void *user) {
  op_list *l = user;
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 256;
    ir_op **p = realloc(l->ops, cap * sizeof *p);
    if (!p) {
      l->oom = true;
      return;
    }
    l->ops = p;
    l->cap = cap;
  }
  l->ops[l->n++] = op;
}

bool ir_pass_canonicalize(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)args;
  bool changed = true;
  /* Each sweep folds chains in program order; a few sweeps reach the
   * fixpoint for anything a kernel holds. */
  for (int iter = 0; iter < 8 && changed; iter++) {
    changed = false;
    op_list l = {NULL, 0, 0, false};
    ir_walk(m->op, collect_op, &l);
    if (l.oom) {
      free(l.ops);
      ir_error(m->ctx, m->op->loc, "out of memory in pass 'canonicalize'");
      return false;
    }
    ir_subst sub = {0};
    for (size_t i = 0; i < l.n; i++) {
      if (!l.ops[i]->parent) continue;
      ir_subst_apply_op(&sub, l.ops[i]); /* uses of values replaced earlier */
      if (canonicalize_op(m, &sub, l.ops[i])) changed = true;
    }
    ir_subst_apply(&sub, m->op); /* one walk for anything the sweep did not reach */
    bool oom = sub.oom;
    ir_subst_free(&sub);
    free(l.ops);
    if (oom) {
      ir_error(m->ctx, m->op->loc, "out of memory in pass 'canonicalize'");
      return false;
    }
  }
  return ir_pass_dce(m, scratch, NULL);
}
