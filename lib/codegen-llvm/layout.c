// SPDX-License-Identifier: MIT
/* layout.c - LLVM IR for the index math of layouts: which tensor element
 * each register of the calling thread holds, read off the linear layout that
 * lib/ir-ttgpu defines (ttg_ll_of_type). A register's coordinates are a
 * compile-time constant XORed with the lane's and the warp's contributions,
 * which are computed once per use as shifts and masks of runs of bits. */
#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

static bool is_pow2_32(int32_t v) { return v > 0 && (v & (v - 1)) == 0; }

static int log2_32(int32_t v) {
  int k = 0;
  while ((1 << k) < v)
    k++;
  return k;
}

bool cg_ll_of(cg *c, const ir_type *t, ir_loc loc, ttg_ll *l) {
  if (ttg_ll_of_type(t, l)) return true;
  ir_error(c->ictx, loc, "unsupported in codegen: tensor layout %s",
           !ir_type_is_tensor(t) || !t->layout ? "missing (expected ttgir)"
                                               : "or shape this target cannot lay out");
  return false;
}

int64_t cg_num_regs(cg *c, const ir_type *t, ir_loc loc) {
  ttg_ll l;
  if (!ir_type_is_tensor(t)) return 1;
  return cg_ll_of(c, t, loc, &l) ? ttg_ll_num_regs(&l) : -1;
}

/* a | b of values with no common bit, flagged so that LLVM may treat it as
 * an add (reassociate constants, fold them into addresses). */
static LLVMValueRef or_disjoint(cg *c, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef r = LLVMBuildOr(c->b, a, b, "");
  if (LLVMIsAInstruction(r)) LLVMSetIsDisjoint(r, 1);
  return r;
}

cg_part cg_input_part(cg *c, const ttg_ll *l, int in, LLVMValueRef x, int d) {
  cg_part r = {NULL, 0};
  bool disjoint = true;
  for (int b = 0; b < l->nbits[in];) {
    int32_t v = l->basis[in][b][d];
    if (!v) {
      b++;
      continue;
    }
    int k = 1;
    while (is_pow2_32(v) && b + k < l->nbits[in] && l->basis[in][b + k][d] == v << k)
      k++;
    LLVMValueRef t = x;
    int32_t bits;
    if (b) t = LLVMBuildLShr(c->b, t, cg_i32(c, b), "");
    t = LLVMBuildAnd(c->b, t, cg_i32(c, (1 << k) - 1), "");
    if (is_pow2_32(v)) {
      if (v > 1) t = LLVMBuildShl(c->b, t, cg_i32(c, log2_32(v)), "");
      bits = ((1 << k) - 1) * v;
    } else { /* one bit selecting an arbitrary vector (swizzles) */
      t = LLVMBuildMul(c->b, t, cg_i32(c, v), "");
      bits = v;
    }
    disjoint = disjoint && (r.mask & bits) == 0;
    r.v = !r.v ? t : disjoint ? or_disjoint(c, r.v, t) : LLVMBuildXor(c->b, r.v, t, "");
    r.mask |= bits;
    b += k;
  }
  return r;
}

cg_part cg_part_xor(cg *c, cg_part a, cg_part b) {
  if (!a.v) return b;
  if (!b.v) return a;
  cg_part r;
  r.v = (a.mask & b.mask) ? LLVMBuildXor(c->b, a.v, b.v, "") : or_disjoint(c, a.v, b.v);
  r.mask = a.mask | b.mask;
  return r;
}

LLVMValueRef cg_part_xor_split(cg *c, cg_part p, int32_t k, int32_t *rest) {
  if (!p.v) {
    *rest = k;
    return cg_i32(c, 0);
  }
  int32_t x = k & p.mask;
  *rest = k & ~p.mask;
  return x ? LLVMBuildXor(c->b, p.v, cg_i32(c, x), "") : p.v;
}

LLVMValueRef cg_part_xor_const(cg *c, cg_part p, int32_t k) {
  if (!p.v) return cg_i32(c, k);
  /* Only the bits p may have need the XOR; the others add without carries,
   * as a disjoint or that LLVM folds into addressing (and into an address's
   * other constants). So registers whose constants differ only above p's
   * bits share one XOR (LLVM merges the equal ones) plus an immediate. */
  int32_t rest;
  LLVMValueRef v = cg_part_xor_split(c, p, k, &rest);
  return rest ? or_disjoint(c, v, cg_i32(c, rest)) : v;
}

cg_part cg_thread_part(cg *c, const ttg_ll *l, int d) {
  cg_part lane = cg_input_part(c, l, TTG_IN_LANE, c->lane, d);
  cg_part warp = cg_input_part(c, l, TTG_IN_WARP, c->warp, d);
  return cg_part_xor(c, lane, warp);
}

bool cg_emit_indices(cg *c, const ir_type *t, ir_loc loc, LLVMValueRef **idx) {
  ttg_ll l;
  if (!cg_ll_of(c, t, loc, &l)) return false;
  int64_t n = ttg_ll_num_regs(&l);
  for (int d = 0; d < l.nout; d++) {
    cg_part part = cg_thread_part(c, &l, d);
    idx[d] = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)n);
    for (int64_t j = 0; j < n; j++) {
      int32_t co[IR_MAX_RANK];
      ttg_ll_apply1(&l, TTG_IN_REG, (uint32_t)j, co);
      idx[d][j] = cg_part_xor_const(c, part, co[d]);
    }
  }
  return true;
}

LLVMValueRef cg_owner_pred(cg *c, const ir_type *t, ir_loc loc) {
  if (!ir_type_is_tensor(t)) return LLVMBuildICmp(c->b, LLVMIntEQ, c->tid, cg_i32(c, 0), "");
  ttg_ll l;
  if (!cg_ll_of(c, t, loc, &l)) return NULL;
  LLVMValueRef pred = NULL;
  /* A lane or warp bit with a zero basis selects a copy: only bit 0 owns. */
  for (int in = TTG_IN_LANE; in <= TTG_IN_WARP; in++) {
    int32_t mask = 0;
    for (int b = 0; b < l.nbits[in]; b++)
      if (ttg_ll_basis_is_zero(&l, in, b)) mask |= 1 << b;
    if (!mask) continue;
    LLVMValueRef x = in == TTG_IN_LANE ? c->lane : c->warp;
    LLVMValueRef p = LLVMBuildICmp(c->b, LLVMIntEQ, LLVMBuildAnd(c->b, x, cg_i32(c, mask), ""),
                                   cg_i32(c, 0), "");
    pred = pred ? LLVMBuildAnd(c->b, pred, p, "") : p;
  }
  return pred;
}

int cg_contig_regs(const ttg_ll *l, int *dim) {
  *dim = -1;
  if (l->nbits[TTG_IN_REG] == 0) return 1;
  const int32_t *b0 = l->basis[TTG_IN_REG][0];
  for (int d = 0; d < l->nout; d++)
    if (b0[d] == 1) *dim = d;
  if (*dim < 0) return 1;
  int k = 0;
  for (; k < l->nbits[TTG_IN_REG]; k++) {
    for (int d = 0; d < l->nout; d++)
      if (l->basis[TTG_IN_REG][k][d] != (d == *dim ? 1 << k : 0)) return 1 << k;
  }
  return 1 << k;
}
