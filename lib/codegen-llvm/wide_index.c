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
 * How, for an extension whose GEPs' addresses leave their block:
 * - When a loop needs the widened value (the extension indexes a GEP of
 *   another block, as a loop's pointer increment widened before the loop
 *   does, or a loop's body uses an address built on it, as attention's K
 *   and V base pointers do), it becomes an inline-asm `cvt` for all its
 *   uses, which the DAG cannot fold into a wide multiply.
 * - When the addresses only start loops (phis' incoming values, or uses in
 *   blocks on no cycle, such as a preheader), the GEPs stay as they are for
 *   the uses in their block: a matmul's prologue copies, one mad.wide.s32
 *   each (LEA + LEA.HI.X.SX32 in SASS). The uses that leave take a copy
 *   built at the end of the block from an inline-asm `cvt`, with the chain
 *   of GEPs between. Triton's PTX has the same split: mad.wide.s32 in its
 *   prologue, and the loop's pointers recomputed from cvt.s64.s32 and
 *   shl.b64 in the preheader by LLVM's loop strength reduction. The first
 *   copy is issued earlier (128x128x64, 4 warps: SASS instruction 349
 *   instead of 382; Triton's is 330) and the loop is unchanged.
 * "Leaves its block" stands in for "lives across a loop": a use in another
 * block or a phi, directly or through up to four GEPs built on the
 * address; selects, casts and phis are not looked through. An extension
 * whose addresses are all used where they are made is left to LLVM's
 * mul.wide / mad.wide. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

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

/* The blocks of a function that lie on a cycle of its control-flow graph:
 * loop bodies. Found, at the first question about the function, by a walk
 * from each block's successors back to it; past MAX_CYCLE_BLOCKS blocks
 * (or when memory runs out) every block counts as one, which keeps the
 * whole-extension rewrite below. */
enum { MAX_CYCLE_BLOCKS = 1024 };

typedef struct block_slot {
  LLVMBasicBlockRef bb;
  int index; /* in the function's block order */
} block_slot;

typedef struct cycle_blocks {
  LLVMValueRef fn;
  bool found; /* the fields below are computed */
  bool all;   /* every block counts as on a cycle */
  int n;
  block_slot *slots; /* the blocks, sorted by address */
  bool *cyclic;      /* by block order */
} cycle_blocks;

static int cmp_slot(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const block_slot *)a)->bb, y = (uintptr_t)((const block_slot *)b)->bb;
  return x < y ? -1 : x > y;
}

static int block_index(const cycle_blocks *cb, LLVMBasicBlockRef bb) {
  block_slot key = {bb, 0};
  const block_slot *hit = bsearch(&key, cb->slots, (size_t)cb->n, sizeof key, cmp_slot);
  return hit ? hit->index : -1;
}

static void find_cycle_blocks(cycle_blocks *cb) {
  cb->found = cb->all = true;
  int n = (int)LLVMCountBasicBlocks(cb->fn);
  if (n > MAX_CYCLE_BLOCKS) return;
  LLVMBasicBlockRef *blocks = malloc((size_t)n * sizeof *blocks);
  int *stamp = malloc((size_t)n * sizeof *stamp), *stack = malloc((size_t)n * sizeof *stack);
  cb->slots = malloc((size_t)n * sizeof *cb->slots);
  cb->cyclic = calloc((size_t)n, sizeof *cb->cyclic);
  if (n > 0 && (!blocks || !stamp || !stack || !cb->slots || !cb->cyclic)) goto done;
  LLVMGetBasicBlocks(cb->fn, blocks);
  for (int i = 0; i < n; i++) {
    cb->slots[i] = (block_slot){blocks[i], i};
    stamp[i] = -1;
  }
  qsort(cb->slots, (size_t)n, sizeof *cb->slots, cmp_slot);
  cb->n = n;
  for (int i = 0; i < n; i++) {
    int top = 0;
    stack[top++] = i;
    while (top > 0 && !cb->cyclic[i]) { /* blocks reachable from block i's successors */
      LLVMValueRef term = LLVMGetBasicBlockTerminator(blocks[stack[--top]]);
      unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
      for (unsigned k = 0; k < ns && !cb->cyclic[i]; k++) {
        int s = block_index(cb, LLVMGetSuccessor(term, k));
        if (s == i) {
          cb->cyclic[i] = true;
        } else if (s >= 0 && stamp[s] != i) {
          stamp[s] = i;
          stack[top++] = s;
        }
      }
    }
  }
  cb->all = false;
done:
  free(blocks);
  free(stamp);
  free(stack);
}

static bool in_cycle(cycle_blocks *cb, LLVMBasicBlockRef bb) {
  if (!cb->found) find_cycle_blocks(cb);
  if (cb->all) return true;
  int i = block_index(cb, bb);
  return i >= 0 && cb->cyclic[i];
}

/* Whether an address built on g (g itself, or through up to four GEPs of
 * g's block) is used by a non-phi instruction of a loop's body other than
 * g's block: needed in the loop, not only to start it. */
static bool used_in_loop(cycle_blocks *cb, LLVMValueRef g, int depth) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(g);
  for (LLVMUseRef u = LLVMGetFirstUse(g); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user) || LLVMIsAPHINode(user)) continue;
    LLVMBasicBlockRef ub = LLVMGetInstructionParent(user);
    if (ub != bb && in_cycle(cb, ub)) return true;
    if (ub == bb && depth < 4 && LLVMIsAGetElementPtrInst(user) &&
        used_in_loop(cb, user, depth + 1))
      return true;
  }
  return false;
}

/* Whether e's widened value is needed in a loop: as the index of a GEP of
 * another block (a loop's pointer increment, widened before the loop), or
 * through an address built on it that a loop's body uses. Such an
 * extension is widened once, by the inline-asm cvt, for all its uses. */
static bool widen_for_all_uses(cycle_blocks *cb, LLVMValueRef e) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(e);
  for (LLVMUseRef u = LLVMGetFirstUse(e); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef g = LLVMGetUser(u);
    if (!LLVMIsAGetElementPtrInst(g)) continue;
    if (LLVMGetInstructionParent(g) != bb || used_in_loop(cb, g, 0)) return true;
  }
  return false;
}

/* Replaces every operand of user equal to from by to. */
static void replace_operand(LLVMValueRef user, LLVMValueRef from, LLVMValueRef to) {
  int n = LLVMGetNumOperands(user);
  for (int i = 0; i < n; i++)
    if (LLVMGetOperand(user, i) == from) LLVMSetOperand(user, (unsigned)i, to);
}

enum { MAX_ROUTED_USERS = 64 };

/* Hands the uses of g (a GEP) that leave its block to g2, an equal address
 * built at the end of the block: users in other blocks and phis take g2,
 * and a GEP of the block built on g whose address leaves gets a copy built
 * on g2, in turn. Uses in the block stay on g. A GEP with more users than
 * MAX_ROUTED_USERS keeps the rest on g. */
static void route_leaving_uses(cg *c, LLVMValueRef g, LLVMValueRef g2, int depth) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(g);
  LLVMValueRef users[MAX_ROUTED_USERS];
  int n = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(g); u && n < MAX_ROUTED_USERS; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user)) continue;
    bool seen = false; /* a user that takes g twice is listed once */
    for (int i = 0; i < n && !seen; i++)
      seen = users[i] == user;
    if (!seen) users[n++] = user;
  }
  for (int i = 0; i < n; i++) {
    LLVMValueRef user = users[i];
    if (LLVMGetInstructionParent(user) != bb || LLVMIsAPHINode(user)) {
      replace_operand(user, g, g2);
    } else if (depth < 4 && LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == g &&
               leaves_block(user, depth + 1)) {
      LLVMValueRef h2 = LLVMInstructionClone(user);
      LLVMInsertIntoBuilder(c->b, h2);
      LLVMSetOperand(h2, 0, g2);
      route_leaving_uses(c, user, h2, depth + 1);
    }
  }
}

/* Gives the leaving uses of e's GEPs copies built at the end of e's block
 * from `code`, an inline-asm widening of e's operand. */
static void split_leaving_addresses(cg *c, LLVMTargetDataRef dl, LLVMValueRef e, const char *code) {
  LLVMValueRef geps[MAX_ROUTED_USERS];
  int n = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(e); u && n < MAX_ROUTED_USERS; u = LLVMGetNextUse(u)) {
    LLVMValueRef g = LLVMGetUser(u);
    if (!LLVMIsAGetElementPtrInst(g) || LLVMGetNumOperands(g) != 2 || LLVMGetOperand(g, 1) != e)
      continue;
    LLVMTypeRef ty = LLVMGetGEPSourceElementType(g);
    if (!LLVMTypeIsSized(ty) || LLVMABISizeOfType(dl, ty) < 2 || !leaves_block(g, 0)) continue;
    geps[n++] = g;
  }
  if (n == 0) return;
  LLVMValueRef x = LLVMGetOperand(e, 0);
  LLVMPositionBuilderBefore(c->b, LLVMGetBasicBlockTerminator(LLVMGetInstructionParent(e)));
  LLVMValueRef asm_e = cg_asm(c, LLVMTypeOf(e), code, "=l,r", &x, 1, false);
  LLVMInstructionSetDebugLoc(asm_e, LLVMInstructionGetDebugLoc(e));
  for (int i = 0; i < n; i++) {
    LLVMValueRef g2 = LLVMInstructionClone(geps[i]);
    LLVMInsertIntoBuilder(c->b, g2);
    LLVMSetOperand(g2, 1, asm_e);
    route_leaving_uses(c, geps[i], g2, 0);
  }
}

void cg_keep_wide_indices(cg *c) {
  LLVMTargetDataRef dl = LLVMGetModuleDataLayout(c->mod);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c->lc), i64 = LLVMInt64TypeInContext(c->lc);
  for (LLVMValueRef fn = LLVMGetFirstFunction(c->mod); fn; fn = LLVMGetNextFunction(fn)) {
    if (!LLVMCountBasicBlocks(fn)) continue;
    cycle_blocks cycles = {.fn = fn};
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef next;
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = next) {
        next = LLVMGetNextInstruction(in);
        LLVMOpcode op = LLVMGetInstructionOpcode(in);
        if ((op != LLVMSExt && op != LLVMZExt) || LLVMTypeOf(in) != i64) continue;
        LLVMValueRef x = LLVMGetOperand(in, 0);
        if (LLVMTypeOf(x) != i32 || !feeds_live_address(dl, in)) continue;
        const char *code = op == LLVMSExt ? "cvt.s64.s32 $0, $1;" : "cvt.u64.u32 $0, $1;";
        if (widen_for_all_uses(&cycles, in)) {
          LLVMPositionBuilderBefore(c->b, in);
          LLVMValueRef r = cg_asm(c, i64, code, "=l,r", &x, 1, false);
          LLVMInstructionSetDebugLoc(r, LLVMInstructionGetDebugLoc(in));
          LLVMReplaceAllUsesWith(in, r);
          LLVMInstructionEraseFromParent(in);
        } else {
          split_leaving_addresses(c, dl, in, code);
        }
      }
    }
    free(cycles.slots);
    free(cycles.cyclic);
  }
}
