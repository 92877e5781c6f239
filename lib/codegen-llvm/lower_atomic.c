/* lower_atomic.c - tt.atomic_rmw and tt.atomic_cas as predicated PTX
 * `atom.<sem>.<scope>.global.<op>.<type>` inline asm, one element at a time.
 * Only the first holder of each element performs the atomic (layouts that
 * wrap give several threads the same element); a scalar atomic runs on
 * thread 0 and its old value reaches every thread through shared memory. */
#include <stdio.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

/* PTX op and type suffix for an rmw keyword on element type et; false when
 * PTX has no such atomic. */
static bool rmw_form(const char *kw, const ir_type *et, char *out, size_t cap) {
  bool is_float = et->kind == IR_TY_FLOAT;
  unsigned w = et->width;
  if (et->kind == IR_TY_PTR || w < 16 || (w == 16 && !is_float)) return false;
  if (strcmp(kw, "add") == 0 || strcmp(kw, "fadd") == 0) {
    if (!is_float)
      snprintf(out, cap, "add.u%u", w);
    else if (w == 16)
      snprintf(out, cap, "add.noftz.%s", et->is_bf16 ? "bf16" : "f16");
    else
      snprintf(out, cap, "add.f%u", w);
    return true;
  }
  bool is_exch = strcmp(kw, "exch") == 0 || strcmp(kw, "xchg") == 0;
  if (is_exch && w >= 32) { /* exchange moves bits: any 32/64-bit type */
    snprintf(out, cap, "exch.b%u", w);
    return true;
  }
  if (is_float) return false; /* PTX has no float max/min/bitwise atomics */
  if (strcmp(kw, "max") == 0 || strcmp(kw, "min") == 0)
    snprintf(out, cap, "%s.s%u", kw, w);
  else if (strcmp(kw, "umax") == 0)
    snprintf(out, cap, "max.u%u", w);
  else if (strcmp(kw, "umin") == 0)
    snprintf(out, cap, "min.u%u", w);
  else if (strcmp(kw, "and") == 0 || strcmp(kw, "or") == 0 || strcmp(kw, "xor") == 0)
    snprintf(out, cap, "%s.b%u", kw, w);
  else if (strcmp(kw, "exch") == 0 || strcmp(kw, "xchg") == 0)
    snprintf(out, cap, "exch.b%u", w);
  else
    return false;
  return true;
}

static const char *enum_kw(const ir_op *op, const char *name, const char *dflt) {
  const ir_attr *a = ir_op_get_attr(op, name);
  return a && a->s ? a->s : dflt;
}

static LLVMValueRef to_bits(cg *c, LLVMValueRef v, LLVMTypeRef ity) {
  return LLVMTypeOf(v) == ity ? v : LLVMBuildBitCast(c->b, v, ity, "");
}

/* Thread 0's value to every thread, through the shared scratch buffer. */
static LLVMValueRef broadcast_from_owner(cg *c, const ir_op *op, LLVMValueRef v,
                                         LLVMValueRef owner) {
  LLVMValueRef smem = cg_scratch(c, op);
  LLVMBasicBlockRef st = LLVMAppendBasicBlockInContext(c->lc, c->fn, "bcast.store");
  LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(c->lc, c->fn, "bcast.cont");
  LLVMBuildCondBr(c->b, owner, st, cont);
  LLVMPositionBuilderAtEnd(c->b, st);
  LLVMBuildStore(c->b, v, smem);
  LLVMBuildBr(c->b, cont);
  LLVMPositionBuilderAtEnd(c->b, cont);
  cg_barrier(c);
  LLVMValueRef r = LLVMBuildLoad2(c->b, LLVMTypeOf(v), smem, "");
  return r;
}

bool cg_lower_atomic(cg *c, ir_op *op) {
  bool is_cas = op->kind == IR_OP_TT_ATOMIC_CAS;
  const ir_type *pty = op->operands[0]->type;
  const ir_type *et = ir_type_scalar(pty)->elem;
  char form[32];
  if (is_cas) {
    if (et->width < 16 || et->kind == IR_TY_PTR) return cg_unsupported(c, op);
    snprintf(form, sizeof form, "cas.b%u", et->width);
  } else if (!rmw_form(enum_kw(op, "atomic_rmw_op", "add"), et, form, sizeof form)) {
    ir_error(c->ictx, op->loc, "unsupported in codegen: atomic '%s' on this element type",
             enum_kw(op, "atomic_rmw_op", "add"));
    return false;
  }
  cg_vals p, a, b = {0, NULL}, m = {0, NULL};
  if (!cg_get(c, op, 0, &p) || !cg_get(c, op, 1, &a)) return false;
  if (op->noperands > 2 && !cg_get(c, op, 2, is_cas ? &b : &m)) return false;
  bool is_tensor = ir_type_is_tensor(pty);
  LLVMValueRef owner = cg_owner_pred(c, pty, op->loc);

  unsigned w = et->width;
  LLVMTypeRef ity = LLVMIntTypeInContext(c->lc, w), ety = cg_type(c, et);
  char reg = w == 64 ? 'l' : w == 32 ? 'r' : 'h';
  char code[256], cons[64];
  int np = is_cas ? 4 : 3; /* operand number of the predicate */
  snprintf(code, sizeof code, "mov.u%u $0, 0x0;\n\t@$%d atom.%s.%s.global.%s $0, [ $1 + 0 ], $2%s;",
           w, np, enum_kw(op, "sem", "acq_rel"), enum_kw(op, "scope", "gpu"), form,
           is_cas ? ", $3" : "");
  if (is_cas)
    snprintf(cons, sizeof cons, "=%c,l,%c,%c,b", reg, reg, reg);
  else
    snprintf(cons, sizeof cons, "=%c,l,%c,b", reg, reg);
  LLVMTypeRef atys[4] = {LLVMTypeOf(p.v[0]), ity, ity, LLVMInt1TypeInContext(c->lc)};
  if (!is_cas) atys[2] = atys[3];
  LLVMTypeRef fty = LLVMFunctionType(ity, atys, (unsigned)np, 0);
  LLVMValueRef asmv = LLVMGetInlineAsm(fty, code, strlen(code), cons, strlen(cons), 1, 0,
                                       LLVMInlineAsmDialectATT, 0);
  LLVMValueRef yes = LLVMConstInt(LLVMInt1TypeInContext(c->lc), 1, 0);

  cg_vals r = cg_vals_new(c, p.n);
  /* A thread's registers never repeat an element: each issues its atomic. */
  for (int j = 0; j < p.n; j++) {
    LLVMValueRef pred = owner ? owner : yes;
    if (m.v) pred = LLVMBuildAnd(c->b, pred, m.v[m.n == 1 ? 0 : j], "");
    LLVMValueRef args[4] = {p.v[j], to_bits(c, a.v[a.n == 1 ? 0 : j], ity), NULL, NULL};
    if (is_cas) args[2] = to_bits(c, b.v[b.n == 1 ? 0 : j], ity);
    args[np - 1] = pred;
    LLVMValueRef old = LLVMBuildCall2(c->b, fty, asmv, args, (unsigned)np, "");
    r.v[j] = ety == ity ? old : LLVMBuildBitCast(c->b, old, ety, "");
  }
  if (!is_tensor) r.v[0] = broadcast_from_owner(c, op, r.v[0], owner);
  cg_map_set(c, &op->results[0], r);
  return true;
}
