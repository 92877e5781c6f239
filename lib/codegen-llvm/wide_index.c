// SPDX-License-Identifier: MIT
/* wide_index.c - cg_keep_wide_indices: after O3 and before NVPTX, hides the
 * widening of a 32-bit GEP index from NVPTX's instruction selection where
 * the address it builds lives past its block.
 *
 * Why: NVPTX selects `getelementptr T, P, sext(i32 X)` with sizeof(T) > 1
 * as `mul.wide.s32 (or mad.wide.s32) X, sizeof(T)`. When that address is
 * live across a loop (a matmul's tile pointers: set up before the K loop,
 * advanced in it), ptxas treats the 64-bit product as cheap to recompute
 * from the 32-bit X and, under register pressure, rematerializes it with an
 * IMAD.WIDE in every iteration instead of keeping it. Written as
 * `cvt.s64.s32` then `shl.b64`, as Triton's PTX has it (its sext sits in
 * another block than the shift), ptxas keeps the 64-bit values and the loop
 * advances them with 64-bit adds. Measured on an H200 (matmul 128x128x64,
 * 4 warps, 3 stages, f16 at 4096 and 8192): through one launcher, 555 to
 * 557 TFLOP/s with mul.wide, 581 to 584 with cvt+shl, 559 to 596 for
 * Triton's own PTX; in bench/compare_matmul.py, 0.92 to 0.96 of Triton
 * before, 1.017 to 1.019 after (bf16 0.995 to 1.001).
 *
 * How: an extension that indexes such an address becomes an inline-asm
 * `cvt`, which the DAG cannot fold into a wide multiply, for all its uses
 * (they take the same value; its other GEPs then lose their mad.wide too).
 * "Leaves its block" stands in for "lives across a loop": a use in another
 * block or a phi, directly or through up to four GEPs built on the
 * address; selects, casts and phis are not looked through. An extension
 * whose addresses are all used where they are made is left to LLVM's
 * mul.wide / mad.wide. */
#include <stdbool.h>

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>

#include "codegen-llvm/cg.h"

/* Whether the address g (a GEP) is used outside its block: by an
 * instruction of another block, by a phi, or through a GEP that is (a
 * chain of at most four more: a tile's pointer plus constant offsets). */
static bool leaves_block(LLVMValueRef g, int depth) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(g);
  for (LLVMUseRef u = LLVMGetFirstUse(g); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user)) continue;
    if (LLVMGetInstructionParent(user) != bb || LLVMIsAPHINode(user)) return true;
    if (depth < 4 && LLVMIsAGetElementPtrInst(user) && leaves_block(user, depth + 1)) return true;
  }
  return false;
}

/* Whether the extension e is the index of a GEP over elements wider than a
 * byte whose address leaves its block. */
static bool feeds_live_address(LLVMTargetDataRef dl, LLVMValueRef e) {
  for (LLVMUseRef u = LLVMGetFirstUse(e); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef g = LLVMGetUser(u);
    if (!LLVMIsAGetElementPtrInst(g) || LLVMGetNumOperands(g) != 2) continue;
    LLVMTypeRef ty = LLVMGetGEPSourceElementType(g);
    if (!LLVMTypeIsSized(ty) || LLVMABISizeOfType(dl, ty) < 2) continue;
    if (leaves_block(g, 0)) return true;
  }
  return false;
}

void cg_keep_wide_indices(cg *c) {
  LLVMTargetDataRef dl = LLVMGetModuleDataLayout(c->mod);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c->lc), i64 = LLVMInt64TypeInContext(c->lc);
  for (LLVMValueRef fn = LLVMGetFirstFunction(c->mod); fn; fn = LLVMGetNextFunction(fn)) {
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef next;
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = next) {
        next = LLVMGetNextInstruction(in);
        LLVMOpcode op = LLVMGetInstructionOpcode(in);
        if ((op != LLVMSExt && op != LLVMZExt) || LLVMTypeOf(in) != i64) continue;
        LLVMValueRef x = LLVMGetOperand(in, 0);
        if (LLVMTypeOf(x) != i32 || !feeds_live_address(dl, in)) continue;
        LLVMPositionBuilderBefore(c->b, in);
        LLVMValueRef r =
            cg_asm(c, i64, op == LLVMSExt ? "cvt.s64.s32 $0, $1;" : "cvt.u64.u32 $0, $1;", "=l,r",
                   &x, 1, false);
        LLVMInstructionSetDebugLoc(r, LLVMInstructionGetDebugLoc(in));
        LLVMReplaceAllUsesWith(in, r);
        LLVMInstructionEraseFromParent(in);
      }
    }
  }
}
