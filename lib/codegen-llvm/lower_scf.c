/* lower_scf.c - structured control flow to LLVM basic blocks: scf.for (a
 * header with one phi per register of every loop-carried value), scf.if
 * (phis at the merge), scf.while (phis at the "before" block). Conditions
 * are scalars, so every thread of a CTA takes the same path. */
#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

/* One phi per register of a value of type t, seeded with `init` from `from`. */
static bool make_phis(cg *c, const ir_type *t, ir_loc loc, cg_vals init, LLVMBasicBlockRef from,
                      cg_vals *out) {
  int64_t n = cg_num_regs(c, t, loc);
  if (n < 0) return false;
  *out = cg_vals_new(c, (int)n);
  for (int64_t j = 0; j < n; j++) {
    LLVMValueRef v = init.v[init.n == 1 ? 0 : j];
    out->v[j] = LLVMBuildPhi(c->b, LLVMTypeOf(v), "");
    LLVMAddIncoming(out->v[j], &v, &from, 1);
  }
  return true;
}

static void add_incoming(cg_vals phis, cg_vals vals, LLVMBasicBlockRef from) {
  for (int j = 0; j < phis.n; j++) {
    LLVMValueRef v = vals.v[vals.n == 1 ? 0 : j];
    LLVMAddIncoming(phis.v[j], &v, &from, 1);
  }
}

/* Values of a terminator's operands starting at `first`. */
static bool term_vals(cg *c, const ir_op *term, int first, cg_vals *out) {
  for (int i = first; i < term->noperands; i++)
    if (!cg_get(c, term, i, &out[i - first])) return false;
  return true;
}

static bool expect_term(cg *c, const ir_op *parent, const ir_op *term, ir_op_kind kind, int nvals) {
  if (term && term->kind == kind && term->noperands >= nvals) return true;
  ir_error(c->ictx, parent->loc, "internal error: malformed region of '%s'", ir_op_name(parent));
  return false;
}

static bool lower_for(cg *c, ir_op *op) {
  int n = op->noperands - 3;
  cg_vals lb, ub, step;
  if (!cg_get(c, op, 0, &lb) || !cg_get(c, op, 1, &ub) || !cg_get(c, op, 2, &step)) return false;
  ir_block *body = ir_region_entry(&op->regions[0]);
  if (!body || body->nargs != n + 1) return cg_unsupported(c, op);
  cg_vals *carried = ir_arena_alloc(&c->arena, sizeof(cg_vals) * (size_t)(n + 1));
  cg_vals *yielded = ir_arena_alloc(&c->arena, sizeof(cg_vals) * (size_t)(n + 1));
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b);
  LLVMBasicBlockRef header = LLVMAppendBasicBlockInContext(c->lc, c->fn, "for.header");
  LLVMBasicBlockRef bodyb = LLVMAppendBasicBlockInContext(c->lc, c->fn, "for.body");
  LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(c->lc, c->fn, "for.exit");
  LLVMBuildBr(c->b, header);
  LLVMPositionBuilderAtEnd(c->b, header);
  cg_vals iv;
  if (!make_phis(c, body->args[0]->type, op->loc, lb, pre, &iv)) return false;
  for (int i = 0; i < n; i++) {
    cg_vals init;
    if (!cg_get(c, op, 3 + i, &init)) return false;
    if (!make_phis(c, body->args[i + 1]->type, op->loc, init, pre, &carried[i])) return false;
  }
  LLVMValueRef cond = LLVMBuildICmp(c->b, LLVMIntSLT, iv.v[0], ub.v[0], "");
  LLVMBuildCondBr(c->b, cond, bodyb, exit);

  LLVMPositionBuilderAtEnd(c->b, bodyb);
  cg_map_set(c, body->args[0], iv);
  for (int i = 0; i < n; i++)
    cg_map_set(c, body->args[i + 1], carried[i]);
  ir_op *term;
  if (!cg_lower_block(c, body, &term)) return false;
  if (!expect_term(c, op, term, IR_OP_SCF_YIELD, n) || !term_vals(c, term, 0, yielded))
    return false;
  LLVMValueRef next = LLVMBuildAdd(c->b, iv.v[0], step.v[0], "");
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(c->b);
  LLVMBuildBr(c->b, header);
  LLVMAddIncoming(iv.v[0], &next, &latch, 1);
  for (int i = 0; i < n; i++)
    add_incoming(carried[i], yielded[i], latch);

  LLVMPositionBuilderAtEnd(c->b, exit);
  for (int i = 0; i < n; i++)
    cg_map_set(c, &op->results[i], carried[i]);
  return true;
}

static bool lower_if(cg *c, ir_op *op) {
  cg_vals cond;
  if (!cg_get(c, op, 0, &cond)) return false;
  int n = op->nresults;
  ir_block *tb = ir_region_entry(&op->regions[0]);
  ir_block *eb = op->nregions > 1 ? ir_region_entry(&op->regions[1]) : NULL;
  if (!tb || (n > 0 && !eb)) return cg_unsupported(c, op);
  cg_vals *tv = ir_arena_alloc(&c->arena, sizeof(cg_vals) * (size_t)(2 * n + 1));
  cg_vals *ev = tv + n;
  LLVMBasicBlockRef thenb = LLVMAppendBasicBlockInContext(c->lc, c->fn, "if.then");
  LLVMBasicBlockRef elseb = eb ? LLVMAppendBasicBlockInContext(c->lc, c->fn, "if.else") : NULL;
  LLVMBasicBlockRef merge = LLVMAppendBasicBlockInContext(c->lc, c->fn, "if.end");
  LLVMBuildCondBr(c->b, cond.v[0], thenb, elseb ? elseb : merge);

  ir_op *term;
  LLVMPositionBuilderAtEnd(c->b, thenb);
  if (!cg_lower_block(c, tb, &term)) return false;
  if (n > 0 && (!expect_term(c, op, term, IR_OP_SCF_YIELD, n) || !term_vals(c, term, 0, tv)))
    return false;
  LLVMBasicBlockRef then_end = LLVMGetInsertBlock(c->b);
  LLVMBuildBr(c->b, merge);
  LLVMBasicBlockRef else_end = NULL;
  if (eb) {
    LLVMPositionBuilderAtEnd(c->b, elseb);
    if (!cg_lower_block(c, eb, &term)) return false;
    if (n > 0 && (!expect_term(c, op, term, IR_OP_SCF_YIELD, n) || !term_vals(c, term, 0, ev)))
      return false;
    else_end = LLVMGetInsertBlock(c->b);
    LLVMBuildBr(c->b, merge);
  }
  LLVMPositionBuilderAtEnd(c->b, merge);
  for (int i = 0; i < n; i++) {
    cg_vals r;
    if (!make_phis(c, op->results[i].type, op->loc, tv[i], then_end, &r)) return false;
    add_incoming(r, ev[i], else_end);
    cg_map_set(c, &op->results[i], r);
  }
  return true;
}

static bool lower_while(cg *c, ir_op *op) {
  int n = op->noperands, nr = op->nresults;
  ir_block *before = ir_region_entry(&op->regions[0]);
  ir_block *after = op->nregions > 1 ? ir_region_entry(&op->regions[1]) : NULL;
  if (!before || !after || before->nargs != n || after->nargs != nr) return cg_unsupported(c, op);
  cg_vals *carried = ir_arena_alloc(&c->arena, sizeof(cg_vals) * (size_t)(n + 1));
  cg_vals *passed = ir_arena_alloc(&c->arena, sizeof(cg_vals) * (size_t)(nr + 1));
  cg_vals *yielded = ir_arena_alloc(&c->arena, sizeof(cg_vals) * (size_t)(n + 1));
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b);
  LLVMBasicBlockRef beforeb = LLVMAppendBasicBlockInContext(c->lc, c->fn, "while.before");
  LLVMBasicBlockRef afterb = LLVMAppendBasicBlockInContext(c->lc, c->fn, "while.after");
  LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(c->lc, c->fn, "while.exit");
  LLVMBuildBr(c->b, beforeb);
  LLVMPositionBuilderAtEnd(c->b, beforeb);
  for (int i = 0; i < n; i++) {
    cg_vals init;
    if (!cg_get(c, op, i, &init)) return false;
    if (!make_phis(c, before->args[i]->type, op->loc, init, pre, &carried[i])) return false;
    cg_map_set(c, before->args[i], carried[i]);
  }
  ir_op *term;
  if (!cg_lower_block(c, before, &term)) return false;
  if (!expect_term(c, op, term, IR_OP_SCF_CONDITION, nr + 1)) return false;
  cg_vals cond;
  if (!cg_get(c, term, 0, &cond) || !term_vals(c, term, 1, passed)) return false;
  LLVMBuildCondBr(c->b, cond.v[0], afterb, exit);

  /* The after block and the exit are reached only from the end of the
   * before region, so the passed values dominate both: no phis needed. */
  LLVMPositionBuilderAtEnd(c->b, afterb);
  for (int i = 0; i < nr; i++)
    cg_map_set(c, after->args[i], passed[i]);
  if (!cg_lower_block(c, after, &term)) return false;
  if (!expect_term(c, op, term, IR_OP_SCF_YIELD, n) || !term_vals(c, term, 0, yielded))
    return false;
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(c->b);
  LLVMBuildBr(c->b, beforeb);
  for (int i = 0; i < n; i++)
    add_incoming(carried[i], yielded[i], latch);

  LLVMPositionBuilderAtEnd(c->b, exit);
  for (int i = 0; i < nr; i++)
    cg_map_set(c, &op->results[i], passed[i]);
  return true;
}

bool cg_lower_scf_op(cg *c, ir_op *op) {
  bool ok;
  /* An if-chain, not a switch: the exhaustive switch lives in lower.c. */
  if (op->kind == IR_OP_SCF_FOR)
    ok = lower_for(c, op);
  else if (op->kind == IR_OP_SCF_IF)
    ok = lower_if(c, op);
  else if (op->kind == IR_OP_SCF_WHILE)
    ok = lower_while(c, op);
  else
    ok = cg_unsupported(c, op);
  return ok;
}
