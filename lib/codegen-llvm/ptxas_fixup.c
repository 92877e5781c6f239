// SPDX-License-Identifier: MIT
/* ptxas_fixup.c - cg_ptxas_fixups: after O3 (or none) and before NVPTX,
 * rewrites LLVM IR that a known ptxas bug miscompiles into an equivalent
 * form it compiles correctly.
 *
 * The negated absolute value. ptxas 13.0 and 12.8 (-O3, sm_90a) fold a comparison
 * of `neg.s32 (abs.s32 x)` (and the .s64 pair) with a constant to a
 * constant as if the negation had no value at all: `-|x| > c`, `>=` and
 * `==` become false, `<`, `<=` and `!=` true, for every c (found by
 * kernelgen, seed 413; the smallest case is `abs.s32 %r3, %r2; neg.s32
 * %r4, %r3; setp.gt.s32 %p1, %r4, -17; selp.b32 %r5, 1, 0, %p1`, stored).
 * `0 - abs(x)` becomes `smin(x, 0 - x)`: the same value for every x, the
 * most negative one included (both wrap to it), which ptxas compiles as a
 * plain min. LLVM's own passes are over by then, so they cannot fold it
 * back into abs. */
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

/* Whether v is a call of llvm.abs.*; its operand in *x. */
static bool is_abs_call(LLVMValueRef v, LLVMValueRef *x) {
  if (!LLVMIsACallInst(v)) return false;
  LLVMValueRef f = LLVMGetCalledValue(v);
  if (!f || !LLVMIsAFunction(f)) return false;
  size_t n = 0;
  const char *name = LLVMGetValueName2(f, &n);
  if (n < 9 || strncmp(name, "llvm.abs.", 9) != 0) return false;
  *x = LLVMGetOperand(v, 0);
  return true;
}

void cg_ptxas_fixups(cg *c) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(c->mod); fn; fn = LLVMGetNextFunction(fn)) {
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef next;
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = next) {
        next = LLVMGetNextInstruction(in);
        LLVMValueRef x;
        if (LLVMGetInstructionOpcode(in) != LLVMSub || !LLVMIsNull(LLVMGetOperand(in, 0)) ||
            !is_abs_call(LLVMGetOperand(in, 1), &x))
          continue;
        LLVMPositionBuilderBefore(c->b, in);
        LLVMValueRef args[2] = {x, LLVMBuildNeg(c->b, x, "")};
        LLVMTypeRef ty = LLVMTypeOf(x);
        LLVMValueRef r = cg_intrinsic(c, "llvm.smin", &ty, 1, args, 2);
        LLVMReplaceAllUsesWith(in, r);
        LLVMInstructionEraseFromParent(in);
      }
    }
  }
}
