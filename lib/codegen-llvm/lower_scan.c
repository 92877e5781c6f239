/* lower_scan.c - tt.scan (tl.associative_scan, tl.cumsum) along one dim of a
 * blocked tensor: a Hillis-Steele inclusive scan through shared memory. Each
 * of log2(n) steps publishes every element, then each element combines with
 * the one d positions before it (after it for reverse scans), d = 1, 2, 4...
 * The neighbour is always the combiner's left operand, so non-commutative
 * associative combiners get Triton's order. Simple rather than fast: it
 * needs the whole tensor in shared memory (its allocation) and two barriers
 * per step; Triton's warp-shuffle scan is the later optimization. */
#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

#define MAX_SCAN_OPS 8

bool cg_lower_scan(cg *c, ir_op *op) {
  int nop = op->noperands;
  ir_block *blk = ir_region_entry(&op->regions[0]);
  const ir_type *t = op->operands[0]->type;
  int64_t axis = ir_op_get_int(op, "axis", 0);
  const ir_attr *rev_attr = ir_op_get_attr(op, "reverse");
  bool reverse = rev_attr && rev_attr->i != 0;
  if (nop > MAX_SCAN_OPS || op->nresults != nop || !blk || blk->nargs != 2 * nop ||
      !ir_type_is_tensor(t) || axis < 0 || axis >= t->rank)
    return cg_unsupported(c, op);
  int64_t n = t->shape[axis], stride = 1;
  for (int d = (int)axis + 1; d < t->rank; d++)
    stride *= t->shape[d];

  /* One shared-memory array per operand, 8-byte aligned (i1 as bytes). */
  LLVMTypeRef mty[MAX_SCAN_OPS];
  uint64_t off[MAX_SCAN_OPS], bytes = 0;
  for (int i = 0; i < nop; i++) {
    const ir_type *e = ir_type_scalar(op->operands[i]->type);
    bool is_bool = e->kind == IR_TY_INT && e->width == 1;
    mty[i] = is_bool ? LLVMInt8TypeInContext(c->lc) : cg_type(c, e);
    off[i] = bytes;
    bytes += ((uint64_t)ir_type_numel(t) * ir_type_bytes(e) + 7) & ~(uint64_t)7;
  }
  cg_vals in[MAX_SCAN_OPS];
  for (int i = 0; i < nop; i++)
    if (!cg_get(c, op, i, &in[i])) return false;
  int64_t nregs = in[0].n;
  LLVMValueRef *idx[IR_MAX_RANK];
  if (!cg_emit_indices(c, t, op->loc, idx)) return false;

  /* Per register: its row-major position and its position along the axis. */
  LLVMValueRef *lin = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)nregs);
  LLVMValueRef *x[MAX_SCAN_OPS];
  for (int64_t j = 0; j < nregs; j++) {
    LLVMValueRef v = idx[0][j];
    for (int d = 1; d < t->rank; d++)
      v = LLVMBuildAdd(c->b, LLVMBuildMul(c->b, v, cg_i32(c, t->shape[d]), ""), idx[d][j], "");
    lin[j] = v;
  }
  for (int i = 0; i < nop; i++) {
    x[i] = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)nregs);
    for (int64_t j = 0; j < nregs; j++)
      x[i][j] = in[i].v[j];
  }
  LLVMValueRef smem = cg_scratch(c, op);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(c->lc);
  LLVMValueRef base[MAX_SCAN_OPS];
  for (int i = 0; i < nop; i++) {
    LLVMValueRef o = cg_i32(c, (int64_t)off[i]);
    base[i] = LLVMBuildGEP2(c->b, i8, smem, &o, 1, "");
  }

  for (int64_t d = 1; d < n; d *= 2) {
    /* Publish the current partial results, once every thread has read the
     * previous step's. */
    if (d > 1) cg_barrier(c);
    for (int i = 0; i < nop; i++)
      for (int64_t j = 0; j < nregs; j++) {
        LLVMValueRef p = LLVMBuildGEP2(c->b, mty[i], base[i], &lin[j], 1, "");
        LLVMValueRef v = mty[i] != cg_type(c, op->operands[i]->type)
                             ? LLVMBuildZExt(c->b, x[i][j], mty[i], "")
                             : x[i][j];
        LLVMBuildStore(c->b, v, p);
      }
    cg_barrier(c);
    /* Combine with the element d positions back (forward) or ahead. */
    for (int64_t j = 0; j < nregs; j++) {
      LLVMValueRef pos = idx[axis][j];
      LLVMValueRef has =
          reverse ? LLVMBuildICmp(c->b, LLVMIntSLT, LLVMBuildAdd(c->b, pos, cg_i32(c, d), ""),
                                  cg_i32(c, n), "")
                  : LLVMBuildICmp(c->b, LLVMIntSGE, pos, cg_i32(c, d), "");
      LLVMValueRef delta = cg_i32(c, reverse ? d * stride : -d * stride);
      LLVMValueRef src =
          LLVMBuildSelect(c->b, has, LLVMBuildAdd(c->b, lin[j], delta, ""), lin[j], "");
      LLVMValueRef y[MAX_SCAN_OPS], cur[MAX_SCAN_OPS];
      for (int i = 0; i < nop; i++) {
        LLVMValueRef p = LLVMBuildGEP2(c->b, mty[i], base[i], &src, 1, "");
        y[i] = LLVMBuildLoad2(c->b, mty[i], p, "");
        LLVMTypeRef want = cg_type(c, op->operands[i]->type);
        if (want != mty[i]) y[i] = LLVMBuildTrunc(c->b, y[i], want, "");
        cur[i] = x[i][j];
      }
      /* y becomes combine(y, x): the neighbour is the left operand. */
      if (!cg_combine(c, op, blk, nop, y, cur)) return false;
      for (int i = 0; i < nop; i++)
        x[i][j] = LLVMBuildSelect(c->b, has, y[i], x[i][j], "");
    }
  }
  for (int i = 0; i < nop; i++) {
    cg_vals r = cg_vals_new(c, (int)nregs);
    for (int64_t j = 0; j < nregs; j++)
      r.v[j] = x[i][j];
    cg_map_set(c, &op->results[i], r);
  }
  return true;
}
