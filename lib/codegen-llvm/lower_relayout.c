/* lower_relayout.c - ops that move elements between threads: tt.reshape,
 * tt.trans, tt.join and tt.split. Each goes through shared memory as
 * ttg.convert_layout does: every thread writes the elements it holds at
 * their row-major position in the *result's* index space (join interleaves
 * its two operands along the new minor axis; trans permutes the index), a
 * barrier, then every thread reads the elements its result registers hold
 * (split reads the two halves of the minor axis). Holders of duplicate
 * copies write equal values, so the races are benign. */
#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

/* Row-major linear index over `shape` (rank dims) of register j whose
 * component k is idx[perm[k]][j]; then *mul + add. Scalars (rank 0) give add. */
static LLVMValueRef linear(cg *c, LLVMValueRef **idx, int rank, const int64_t *shape,
                           const int *perm, int64_t j, int64_t mul, int64_t add) {
  LLVMValueRef v = cg_i32(c, 0);
  for (int k = 0; k < rank; k++) {
    v = LLVMBuildMul(c->b, v, cg_i32(c, shape[k]), "");
    v = LLVMBuildAdd(c->b, v, idx[perm ? perm[k] : k][j], "");
  }
  if (mul != 1) v = LLVMBuildMul(c->b, v, cg_i32(c, mul), "");
  if (add) v = LLVMBuildAdd(c->b, v, cg_i32(c, add), "");
  return v;
}

/* The register index vectors of a value of type t (none for scalars). */
static bool indices(cg *c, const ir_type *t, ir_loc loc, LLVMValueRef **idx) {
  return !ir_type_is_tensor(t) || cg_emit_indices(c, t, loc, idx);
}

static int rank_of(const ir_type *t) { return ir_type_is_tensor(t) ? t->rank : 0; }

bool cg_lower_relayout(cg *c, ir_op *op) {
  const ir_type *st = op->operands[0]->type, *rt = op->results[0].type;
  const ir_type *et = ir_type_scalar(st);
  bool is_bool = et->kind == IR_TY_INT && et->width == 1;
  LLVMTypeRef vty = cg_type(c, et), mty = is_bool ? LLVMInt8TypeInContext(c->lc) : vty;
  LLVMValueRef base = cg_scratch(c, op);
  LLVMValueRef *sidx[IR_MAX_RANK], *ridx[IR_MAX_RANK];
  if (!indices(c, st, op->loc, sidx)) return false;

  /* 1. Write: each operand register at its position in the result space. */
  for (int o = 0; o < op->noperands; o++) {
    cg_vals s;
    if (!cg_get(c, op, o, &s)) return false;
    for (int64_t j = 0; j < s.n; j++) {
      LLVMValueRef pos;
      if (op->kind == IR_OP_TT_TRANS) {
        const ir_attr *ord = ir_op_get_attr(op, "order");
        int perm[IR_MAX_RANK];
        for (int k = 0; k < rt->rank; k++)
          perm[k] = ord && k < ord->n ? (int)ord->ints[k] : k;
        pos = linear(c, sidx, rt->rank, rt->shape, perm, j, 1, 0);
      } else if (op->kind == IR_OP_TT_JOIN) {
        pos = linear(c, sidx, rank_of(st), st->shape, NULL, j, 2, o);
      } else { /* reshape, split: the operand's own row-major order */
        pos = linear(c, sidx, rank_of(st), st->shape, NULL, j, 1, 0);
      }
      LLVMValueRef p = LLVMBuildGEP2(c->b, mty, base, &pos, 1, "");
      LLVMBuildStore(c->b, is_bool ? LLVMBuildZExt(c->b, s.v[j], mty, "") : s.v[j], p);
    }
  }
  cg_barrier(c);

  /* 2. Read: each result register from its row-major position. */
  if (!indices(c, rt, op->loc, ridx)) return false;
  for (int r = 0; r < op->nresults; r++) {
    int64_t nregs = cg_num_regs(c, op->results[r].type, op->loc);
    if (nregs < 0) return false;
    cg_vals out = cg_vals_new(c, (int)nregs);
    for (int64_t j = 0; j < nregs; j++) {
      LLVMValueRef pos = op->kind == IR_OP_TT_SPLIT
                             ? linear(c, ridx, rank_of(rt), rt->shape, NULL, j, 2, r)
                             : linear(c, ridx, rank_of(rt), rt->shape, NULL, j, 1, 0);
      LLVMValueRef p = LLVMBuildGEP2(c->b, mty, base, &pos, 1, "");
      LLVMValueRef v = LLVMBuildLoad2(c->b, mty, p, "");
      out.v[j] = is_bool ? LLVMBuildTrunc(c->b, v, vty, "") : v;
    }
    cg_map_set(c, &op->results[r], out);
  }
  return true;
}

/* tt.broadcast / tt.expand_dims between unrelated layouts (ttgir normally
 * gives them related ones, so this is the slow, always-correct path): the
 * operand goes to shared memory at its row-major position, and each result
 * register reads the element it broadcasts from (index 0 along broadcast
 * dims; the unit axis of expand_dims dropped). */
bool cg_relayout_broadcast(cg *c, ir_op *op) {
  const ir_type *st = op->operands[0]->type, *rt = op->results[0].type;
  const ir_type *et = ir_type_scalar(st);
  bool is_bool = et->kind == IR_TY_INT && et->width == 1;
  LLVMTypeRef vty = cg_type(c, et), mty = is_bool ? LLVMInt8TypeInContext(c->lc) : vty;
  cg_vals s;
  if (!cg_get(c, op, 0, &s)) return false;
  LLVMValueRef base = cg_scratch(c, op);
  LLVMValueRef *sidx[IR_MAX_RANK], *ridx[IR_MAX_RANK];
  if (!cg_emit_indices(c, st, op->loc, sidx)) return false;
  for (int64_t j = 0; j < s.n; j++) {
    LLVMValueRef pos = linear(c, sidx, st->rank, st->shape, NULL, j, 1, 0);
    LLVMValueRef p = LLVMBuildGEP2(c->b, mty, base, &pos, 1, "");
    LLVMBuildStore(c->b, is_bool ? LLVMBuildZExt(c->b, s.v[j], mty, "") : s.v[j], p);
  }
  cg_barrier(c);
  if (!cg_emit_indices(c, rt, op->loc, ridx)) return false;
  int64_t nregs = cg_num_regs(c, rt, op->loc);
  int axis = op->kind == IR_OP_TT_EXPAND_DIMS ? (int)ir_op_get_int(op, "axis", 0) : -1;
  cg_vals out = cg_vals_new(c, (int)nregs);
  for (int64_t j = 0; j < nregs; j++) {
    LLVMValueRef pos = cg_i32(c, 0);
    for (int d = 0, k = 0; d < rt->rank; d++) {
      if (d == axis) continue; /* the new unit axis */
      LLVMValueRef x = st->shape[k] == 1 ? cg_i32(c, 0) : ridx[d][j];
      pos = LLVMBuildAdd(c->b, LLVMBuildMul(c->b, pos, cg_i32(c, st->shape[k]), ""), x, "");
      k++;
    }
    LLVMValueRef v = LLVMBuildLoad2(c->b, mty, LLVMBuildGEP2(c->b, mty, base, &pos, 1, ""), "");
    out.v[j] = is_bool ? LLVMBuildTrunc(c->b, v, vty, "") : v;
  }
  cg_map_set(c, &op->results[0], out);
  return true;
}
