/* lower_reduce.c - tt.reduce along one dim of a blocked (or sliced) tensor,
 * as Triton: combine the registers a thread holds, then butterfly shuffles
 * (llvm.nvvm.shfl.sync.bfly) across the lanes of that dim, then, when several
 * warps span the dim, one partial per warp through shared memory. The
 * combiner region is re-emitted inline for every combine. Copies created by
 * layout wrapping are skipped so that sums count each element once. */
#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

bool cg_combine(cg *c, const ir_op *op, ir_block *blk, int nop, LLVMValueRef *acc,
                LLVMValueRef *x) {
  for (int i = 0; i < nop; i++) {
    cg_vals a = cg_vals_new(c, 1), b = cg_vals_new(c, 1);
    a.v[0] = acc[i];
    b.v[0] = x[i];
    cg_map_set(c, blk->args[i], a);
    cg_map_set(c, blk->args[nop + i], b);
  }
  ir_op *term;
  if (!cg_lower_block(c, blk, &term)) return false;
  ir_op_kind want = op->kind == IR_OP_TT_SCAN ? IR_OP_TT_SCAN_RETURN : IR_OP_TT_REDUCE_RETURN;
  if (!term || term->kind != want || term->noperands != nop) {
    ir_error(c->ictx, op->loc, "internal error: malformed '%s' combiner", ir_op_name(op));
    return false;
  }
  for (int i = 0; i < nop; i++) {
    cg_vals r;
    if (!cg_get(c, term, i, &r)) return false;
    acc[i] = r.v[0];
  }
  return true;
}

/* Butterfly shuffle of any scalar through 32-bit pieces. */
static LLVMValueRef shuffle_xor(cg *c, LLVMValueRef v, unsigned lane_mask) {
  LLVMTypeRef ty = LLVMTypeOf(v), i32 = LLVMInt32TypeInContext(c->lc);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c->lc);
  LLVMTypeKind kind = LLVMGetTypeKind(ty);
  bool is_ptr = kind == LLVMPointerTypeKind;
  unsigned bits = is_ptr                                       ? 64
                  : LLVMGetTypeKind(ty) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(ty)
                  : kind == LLVMDoubleTypeKind                 ? 64
                  : kind == LLVMFloatTypeKind                  ? 32
                                                               : 16;
  LLVMTypeRef ity = LLVMIntTypeInContext(c->lc, bits);
  LLVMValueRef x = is_ptr                        ? LLVMBuildPtrToInt(c->b, v, ity, "")
                   : kind == LLVMIntegerTypeKind ? v
                                                 : LLVMBuildBitCast(c->b, v, ity, "");
  LLVMValueRef args[4] = {cg_i32(c, -1), NULL, cg_i32(c, lane_mask), cg_i32(c, 31)};
  LLVMValueRef r;
  if (bits == 64) {
    LLVMValueRef lo = LLVMBuildTrunc(c->b, x, i32, "");
    LLVMValueRef hi =
        LLVMBuildTrunc(c->b, LLVMBuildLShr(c->b, x, LLVMConstInt(i64, 32, 0), ""), i32, "");
    args[1] = lo;
    lo = cg_intrinsic(c, "llvm.nvvm.shfl.sync.bfly.i32", NULL, 0, args, 4);
    args[1] = hi;
    hi = cg_intrinsic(c, "llvm.nvvm.shfl.sync.bfly.i32", NULL, 0, args, 4);
    r = LLVMBuildOr(
        c->b, LLVMBuildZExt(c->b, lo, i64, ""),
        LLVMBuildShl(c->b, LLVMBuildZExt(c->b, hi, i64, ""), LLVMConstInt(i64, 32, 0), ""), "");
  } else {
    args[1] = bits < 32 ? LLVMBuildZExt(c->b, x, i32, "") : x;
    r = cg_intrinsic(c, "llvm.nvvm.shfl.sync.bfly.i32", NULL, 0, args, 4);
    if (bits < 32) r = LLVMBuildTrunc(c->b, r, ity, "");
  }
  if (is_ptr) return LLVMBuildIntToPtr(c->b, r, ty, "");
  return kind == LLVMIntegerTypeKind ? r : LLVMBuildBitCast(c->b, r, ty, "");
}

/* Bits of x selected by mask, packed to the low end (PTX has no pext). */
static LLVMValueRef compress_bits(cg *c, LLVMValueRef x, uint32_t mask) {
  LLVMValueRef r = cg_i32(c, 0);
  for (int b = 0, k = 0; b < 32; b++) {
    if (!(mask >> b & 1)) continue;
    LLVMValueRef bit =
        LLVMBuildAnd(c->b, LLVMBuildLShr(c->b, x, cg_i32(c, b), ""), cg_i32(c, 1), "");
    r = LLVMBuildOr(c->b, r, k ? LLVMBuildShl(c->b, bit, cg_i32(c, k), "") : bit, "");
    k++;
  }
  return r;
}

static int64_t compress_const(int64_t x, uint32_t mask) {
  int64_t r = 0;
  for (int b = 0, k = 0; b < 32; b++) {
    if (!(mask >> b & 1)) continue;
    r |= (x >> b & 1) << k++;
  }
  return r;
}

/* Row-major linear index of each output register (0 for a scalar result). */
static bool out_linear(cg *c, const ir_type *rt, ir_loc loc, int64_t n, LLVMValueRef *lin) {
  if (!ir_type_is_tensor(rt)) {
    lin[0] = cg_i32(c, 0);
    return true;
  }
  LLVMValueRef *idx[IR_MAX_RANK];
  if (!cg_emit_indices(c, rt, loc, idx)) return false;
  for (int64_t j = 0; j < n; j++) {
    LLVMValueRef v = idx[0][j];
    for (int d = 1; d < rt->rank; d++)
      v = LLVMBuildAdd(c->b, LLVMBuildMul(c->b, v, cg_i32(c, rt->shape[d]), ""), idx[d][j], "");
    lin[j] = v;
  }
  return true;
}

/* Cross-warp step: each warp's partial goes to shared memory at
 * [operand][out element][warp along the dim] (wd, of nwarps); then every
 * thread combines the partials of its output elements in warp order. */
static bool across_warps(cg *c, const ir_op *op, ir_block *blk, LLVMValueRef wd, int64_t nwarps,
                         int64_t nout, LLVMValueRef **acc) {
  int nop = op->noperands;
  const ir_type *rt = op->results[0].type;
  int64_t numel = ir_type_is_tensor(rt) ? ir_type_numel(rt) : 1;
  LLVMValueRef *lin = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)nout);
  if (!out_linear(c, rt, op->loc, nout, lin)) return false;
  uint64_t base[8], total = 0;
  LLVMTypeRef mty[8];
  for (int i = 0; i < nop; i++) {
    const ir_type *et = ir_type_scalar(op->operands[i]->type);
    bool is_bool = et->kind == IR_TY_INT && et->width == 1;
    mty[i] = is_bool ? LLVMInt8TypeInContext(c->lc) : cg_type(c, et);
    total = (total + 7) & ~(uint64_t)7;
    base[i] = total;
    total += (uint64_t)numel * (uint64_t)nwarps * ir_type_bytes(et);
  }
  LLVMValueRef smem = cg_scratch(c, op);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(c->lc);
  LLVMValueRef **slot = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef *) * (size_t)nop);
  for (int i = 0; i < nop; i++) {
    /* Byte offset of operand i's area, as a typed base pointer. */
    LLVMValueRef off = cg_i32(c, (int64_t)base[i]);
    LLVMValueRef p = LLVMBuildGEP2(c->b, i8, smem, &off, 1, "");
    slot[i] = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)(nout * (nwarps + 1)));
    for (int64_t j = 0; j < nout; j++) {
      LLVMValueRef row = LLVMBuildMul(c->b, lin[j], cg_i32(c, nwarps), "");
      for (int64_t w = 0; w <= nwarps; w++) {
        LLVMValueRef e = LLVMBuildAdd(c->b, row, w < nwarps ? cg_i32(c, w) : wd, "");
        slot[i][j * (nwarps + 1) + w] = LLVMBuildGEP2(c->b, mty[i], p, &e, 1, "");
      }
    }
  }
  for (int i = 0; i < nop; i++) {
    bool is_bool = LLVMGetTypeKind(LLVMTypeOf(acc[0][i])) == LLVMIntegerTypeKind &&
                   LLVMGetIntTypeWidth(LLVMTypeOf(acc[0][i])) == 1;
    for (int64_t j = 0; j < nout; j++) {
      LLVMValueRef v = acc[j][i];
      if (is_bool) v = LLVMBuildZExt(c->b, v, i8, "");
      LLVMBuildStore(c->b, v, slot[i][j * (nwarps + 1) + nwarps]);
    }
  }
  cg_barrier(c);
  LLVMValueRef x[8];
  for (int64_t j = 0; j < nout; j++) {
    for (int64_t w = 0; w < nwarps; w++) {
      for (int i = 0; i < nop; i++) {
        LLVMValueRef v = LLVMBuildLoad2(c->b, mty[i], slot[i][j * (nwarps + 1) + w], "");
        if (LLVMTypeOf(acc[j][i]) != mty[i]) v = LLVMBuildTrunc(c->b, v, LLVMTypeOf(acc[j][i]), "");
        x[i] = v;
      }
      if (w == 0) {
        for (int i = 0; i < nop; i++)
          acc[j][i] = x[i];
      } else if (!cg_combine(c, op, blk, nop, acc[j], x)) {
        return false;
      }
    }
  }
  return true;
}

/* The result layout a reduction along `axis` of l gives: the axis dropped,
 * with the register bits along it (Triton's slice layout). */
static void reduced_ll(const ttg_ll *l, int axis, uint32_t reg_axis, ttg_ll *out) {
  int32_t size[IR_MAX_RANK];
  for (int d = 0, k = 0; d < l->nout; d++)
    if (d != axis) size[k++] = l->out_size[d];
  ttg_ll_init(out, l->nin, l->nout - 1, size);
  for (int in = 0; in < l->nin; in++) {
    for (int b = 0; b < l->nbits[in]; b++) {
      if (in == TTG_IN_REG && (reg_axis >> b & 1)) continue;
      int32_t *o = out->basis[in][out->nbits[in]++];
      for (int d = 0, k = 0; d < l->nout; d++)
        if (d != axis) o[k++] = l->basis[in][b][d];
    }
  }
}

/* Bits of input `in` whose basis lies along `axis`; false if one also moves
 * along another dim (no distributed layout ttc builds does). */
static bool axis_bits(const ttg_ll *l, int in, int axis, uint32_t *mask) {
  *mask = 0;
  for (int b = 0; b < l->nbits[in]; b++) {
    if (!l->basis[in][b][axis]) continue;
    for (int d = 0; d < l->nout; d++)
      if (d != axis && l->basis[in][b][d]) return false;
    *mask |= 1u << b;
  }
  return true;
}

bool cg_lower_reduce(cg *c, ir_op *op) {
  int nop = op->noperands;
  const ir_type *st = op->operands[0]->type, *rt = op->results[0].type;
  ir_block *blk = ir_region_entry(&op->regions[0]);
  int64_t axis = ir_op_get_int(op, "axis", 0);
  ttg_ll sl;
  if (nop > 8 || op->nresults != nop || !blk || blk->nargs != 2 * nop || !ir_type_is_tensor(st) ||
      axis < 0 || axis >= st->rank)
    return cg_unsupported(c, op);
  if (!cg_ll_of(c, st, op->loc, &sl)) return false;
  uint32_t reg_axis, lane_axis, warp_axis;
  if (!axis_bits(&sl, TTG_IN_REG, (int)axis, &reg_axis) ||
      !axis_bits(&sl, TTG_IN_LANE, (int)axis, &lane_axis) ||
      !axis_bits(&sl, TTG_IN_WARP, (int)axis, &warp_axis))
    return cg_unsupported(c, op);
  int64_t nout = 1;
  if (ir_type_is_tensor(rt)) {
    ttg_ll dl, want;
    if (!cg_ll_of(c, rt, op->loc, &dl)) return false;
    reduced_ll(&sl, (int)axis, reg_axis, &want);
    if (!ttg_ll_equal(&dl, &want)) {
      ir_error(c->ictx, op->loc,
               "unsupported in codegen: tt.reduce result layout is not a "
               "slice of the operand layout along the reduced dim");
      return false;
    }
    nout = ttg_ll_num_regs(&dl);
  }
  cg_vals in[8];
  for (int i = 0; i < nop; i++)
    if (!cg_get(c, op, i, &in[i])) return false;

  /* 1. Within the thread, in register order. */
  LLVMValueRef **acc = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef *) * (size_t)nout);
  bool *seen = ir_arena_alloc(&c->arena, sizeof(bool) * (size_t)nout);
  for (int64_t j = 0; j < nout; j++)
    acc[j] = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)nop);
  int64_t nregs = ttg_ll_num_regs(&sl);
  for (int64_t j = 0; j < nregs; j++) {
    int64_t o = compress_const(j, ~reg_axis & (((uint32_t)1 << sl.nbits[TTG_IN_REG]) - 1));
    LLVMValueRef x[8];
    for (int i = 0; i < nop; i++)
      x[i] = in[i].v[j];
    if (!seen[o]) {
      for (int i = 0; i < nop; i++)
        acc[o][i] = x[i];
      seen[o] = true;
    } else if (!cg_combine(c, op, blk, nop, acc[o], x)) {
      return false;
    }
  }
  /* 2. Across the lanes along the dim, highest lane bit first. */
  for (int b = 4; b >= 0; b--) {
    if (!(lane_axis >> b & 1)) continue;
    for (int64_t j = 0; j < nout; j++) {
      LLVMValueRef x[8];
      for (int i = 0; i < nop; i++)
        x[i] = shuffle_xor(c, acc[j][i], 1u << b);
      if (!cg_combine(c, op, blk, nop, acc[j], x)) return false;
    }
  }
  /* 3. Across the warps along the dim. */
  if (warp_axis) {
    int64_t nwarps = (int64_t)1 << __builtin_popcount(warp_axis);
    LLVMValueRef wd = compress_bits(c, c->warp, warp_axis);
    if (!across_warps(c, op, blk, wd, nwarps, nout, acc)) return false;
  }

  for (int i = 0; i < nop; i++) {
    cg_vals r = cg_vals_new(c, (int)nout);
    for (int64_t j = 0; j < nout; j++)
      r.v[j] = acc[j][i];
    cg_map_set(c, &op->results[i], r);
  }
  return true;
}
