// SPDX-License-Identifier: MIT
/* lower_dot.c - tt.dot on blocked (or sliced) layouts with FMAs: a and b go
 * to shared memory row-major, then every thread computes its own registers of
 * the accumulator, acc[i, j] += sum_k a[i, k] * b[k, j], in k order. Correct
 * for any operand layouts; the fast paths (mma.sync, wgmma) are separate work.
 * f16/bf16 operands are widened to the accumulator type before each fma. */
#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

/* Row-major position of every register of a rank-2 tensor. */
static bool positions(cg *c, const ir_type *t, ir_loc loc, int n, LLVMValueRef *lin) {
  LLVMValueRef *idx[IR_MAX_RANK];
  if (!cg_emit_indices(c, t, loc, idx)) return false;
  for (int j = 0; j < n; j++)
    lin[j] = LLVMBuildAdd(c->b, LLVMBuildMul(c->b, idx[0][j], cg_i32(c, t->shape[1]), ""),
                          idx[1][j], "");
  return true;
}

bool cg_lower_dot(cg *c, ir_op *op) {
  const ir_type *at = op->operands[0]->type, *bt = op->operands[1]->type;
  const ir_type *ct = op->results[0].type;
  if (at->rank != 2 || bt->rank != 2 || ct->rank != 2) return cg_unsupported(c, op);
  int64_t m = at->shape[0], kk = at->shape[1], n = bt->shape[1];
  const ir_type *ae = ir_type_scalar(at), *be = ir_type_scalar(bt), *ce = ir_type_scalar(ct);
  if (!ir_type_is_float(ae) || !ir_type_is_float(be) || !ir_type_is_float(ce))
    return cg_unsupported(c, op);
  if (ir_type_is_fp8(ae) || ir_type_is_fp8(be) || ir_type_is_fp8(ce)) {
    ir_error(c->ictx, op->loc,
             "unsupported: an fp8 dot off the tensor cores (they need sm_89 or newer, an f32 "
             "accumulator, M >= 16, N >= 8 and K >= 32)");
    return false;
  }
  uint64_t a_bytes = (uint64_t)(m * kk) * ir_type_bytes(ae);
  uint64_t b_off = (a_bytes + 15) & ~(uint64_t)15;
  cg_vals a, b, acc;
  if (!cg_get(c, op, 0, &a) || !cg_get(c, op, 1, &b) || !cg_get(c, op, 2, &acc)) return false;
  LLVMTypeRef aty = cg_type(c, ae), bty = cg_type(c, be), cty = cg_type(c, ce);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(c->lc);
  LLVMValueRef base = cg_scratch(c, op);
  LLVMValueRef off = cg_i32(c, (int64_t)b_off);
  LLVMValueRef bbase = LLVMBuildGEP2(c->b, i8, base, &off, 1, "");

  LLVMValueRef *lin =
      ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)(a.n + b.n + acc.n + 1));
  if (!positions(c, at, op->loc, a.n, lin) || !positions(c, bt, op->loc, b.n, lin + a.n))
    return false;
  for (int j = 0; j < a.n; j++)
    LLVMBuildStore(c->b, a.v[j], LLVMBuildGEP2(c->b, aty, base, &lin[j], 1, ""));
  for (int j = 0; j < b.n; j++)
    LLVMBuildStore(c->b, b.v[j], LLVMBuildGEP2(c->b, bty, bbase, &lin[a.n + j], 1, ""));
  cg_barrier(c);

  /* Row and column of each accumulator register. */
  LLVMValueRef *idx[IR_MAX_RANK];
  if (!cg_emit_indices(c, ct, op->loc, idx)) return false;
  cg_vals r = cg_vals_new(c, acc.n);
  for (int j = 0; j < acc.n; j++) {
    LLVMValueRef row = LLVMBuildMul(c->b, idx[0][j], cg_i32(c, kk), "");
    LLVMValueRef sum = acc.v[j];
    for (int64_t k = 0; k < kk; k++) {
      LLVMValueRef ai = LLVMBuildAdd(c->b, row, cg_i32(c, k), "");
      LLVMValueRef bi = LLVMBuildAdd(c->b, idx[1][j], cg_i32(c, k * n), "");
      LLVMValueRef x = LLVMBuildLoad2(c->b, aty, LLVMBuildGEP2(c->b, aty, base, &ai, 1, ""), "");
      LLVMValueRef y = LLVMBuildLoad2(c->b, bty, LLVMBuildGEP2(c->b, bty, bbase, &bi, 1, ""), "");
      if (aty != cty) x = LLVMBuildFPExt(c->b, x, cty, "");
      if (bty != cty) y = LLVMBuildFPExt(c->b, y, cty, "");
      LLVMValueRef args[3] = {x, y, sum};
      sum = cg_intrinsic(c, "llvm.fma", &cty, 1, args, 3);
    }
    r.v[j] = sum;
  }
  cg_map_set(c, &op->results[0], r);
  return true;
}
