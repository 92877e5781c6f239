// SPDX-License-Identifier: MIT
/* lower_async.c - the asynchronous copies of ttgir, as Triton lowers them
 * on sm_80 and newer: ttg.async_copy_global_to_local issues one
 *   cp.async.cg.shared.global [dst], [src], 16, src_size;
 * (cp.async.ca for 4- and 8-byte pieces) per vector of consecutive
 * elements a thread holds, the destination taken from the buffer's shared
 * layout; a masked-off piece copies 0 bytes and zero-fills (src_size 0),
 * and a bounded copy (IR_BOUNDED_ATTR) the elements left before its bound.
 * ttg.async_commit_group closes a group of copies (cp.async.commit_group)
 * and ttg.async_wait {num} waits until at most `num` groups are pending
 * (cp.async.wait_group): the copies are then complete for this thread, and
 * the barrier tritongpu-membar places before the buffer's first read makes
 * them visible to the others. Tokens lower to nothing. */
#include <stdio.h>

#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

static void set_token(cg *c, ir_op *op) {
  cg_vals r = cg_vals_new(c, 1);
  r.v[0] = cg_i32(c, 0);
  cg_map_set(c, &op->results[0], r);
}

static bool lower_copy(cg *c, ir_op *op) {
  cg_vals src, buf, mask = {0, NULL}, left = {0, NULL};
  if (!cg_get(c, op, 0, &src) || !cg_get(c, op, 1, &buf)) return false;
  bool masked = op->noperands > 2;
  if (masked && !cg_get(c, op, 2, &mask)) return false;
  bool bounded = op->noperands > 3 && ir_op_get_int(op, IR_BOUNDED_ATTR, 0);
  if (op->noperands > 3 && !bounded) {
    ir_error(c->ictx, op->loc, "unsupported in codegen: '%s' with 'other'", ir_op_name(op));
    return false;
  }
  if (bounded && !cg_get(c, op, 3, &left)) return false;
  const ir_type *pt = op->operands[0]->type, *bt = op->operands[1]->type;
  const ir_type *elem = ir_type_scalar(pt)->elem;
  unsigned eb = ir_type_bytes(elem);
  ir_axis_info pi = ir_axis_get(c->axis, op->operands[0]), mi;
  if (masked) mi = ir_axis_get(c->axis, op->operands[2]);
  int vec = ttg_async_copy_vec(pt, bt, &pi, masked ? &mi : NULL);
  int64_t cap = ir_op_get_int(op, "contiguity", 0);
  while (cap > 0 && vec > cap)
    vec /= 2;
  ttg_ll map;
  unsigned bytes = eb * (unsigned)vec;
  if (bytes < 4 || !ttg_shared_map_bits(pt, bt->layout, bt->shape, (int)eb * 8, &map)) {
    ir_error(c->ictx, op->loc,
             "unsupported in codegen: '%s' with %u contiguous bytes per "
             "thread (cp.async copies 4, 8 or 16)",
             ir_op_name(op), bytes);
    return false;
  }
  LLVMTypeRef i8 = LLVMInt8TypeInContext(c->lc), i32 = LLVMInt32TypeInContext(c->lc);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c->lc), void_ty = LLVMVoidTypeInContext(c->lc);
  char code[96];
  if (bytes == 16)
    snprintf(code, sizeof code, "cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x10, $2;");
  else
    snprintf(code, sizeof code, "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], %u, $2;", bytes);
  cg_part part = cg_thread_part(c, &map, 0);
  /* The thread's own address once; a register's offset whose bits the
   * thread's do not touch is then a constant from it (one add per copy,
   * the buffer's own offset folded into those constants). */
  LLVMValueRef toff = LLVMBuildMul(c->b, part.v ? part.v : cg_i32(c, 0), cg_i32(c, eb), "");
  LLVMValueRef tbase = LLVMBuildGEP2(c->b, i8, buf.v[0], &toff, 1, "");
  for (int j0 = 0; j0 < src.n; j0 += vec) {
    int32_t co[1];
    ttg_ll_apply1(&map, TTG_IN_REG, (uint32_t)j0, co);
    LLVMValueRef dst;
    if (!(co[0] & part.mask)) {
      LLVMValueRef k = cg_i32(c, (int64_t)co[0] * eb);
      dst = LLVMBuildGEP2(c->b, i8, tbase, &k, 1, "");
    } else {
      LLVMValueRef off = LLVMBuildMul(c->b, cg_part_xor_const(c, part, co[0]), cg_i32(c, eb), "");
      dst = LLVMBuildGEP2(c->b, i8, buf.v[0], &off, 1, "");
    }
    LLVMValueRef args[3] = {LLVMBuildPtrToInt(c->b, dst, i32, ""),
                            LLVMBuildPtrToInt(c->b, src.v[j0], i64, ""), cg_i32(c, bytes)};
    if (bounded) { /* clamp(left, 0, vec) elements of source, the rest zero-filled */
      LLVMValueRef n = left.v[j0], zero = LLVMConstInt(LLVMTypeOf(n), 0, 0);
      LLVMValueRef full = LLVMConstInt(LLVMTypeOf(n), (unsigned long long)vec, 0);
      n = LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntSLT, n, zero, ""), zero, n, "");
      n = LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntSGT, n, full, ""), full, n, "");
      n = LLVMBuildIntCast2(c->b, n, i32, 0, "");
      args[2] = LLVMBuildMul(c->b, n, cg_i32(c, eb), "");
    }
    if (masked) args[2] = LLVMBuildSelect(c->b, mask.v[j0], args[2], cg_i32(c, 0), "");
    cg_asm(c, void_ty, code, "r,l,r", args, 3, true);
  }
  set_token(c, op);
  return true;
}

bool cg_lower_async(cg *c, ir_op *op) {
  LLVMTypeRef void_ty = LLVMVoidTypeInContext(c->lc);
  if (op->kind == IR_OP_TTG_ASYNC_COPY) return lower_copy(c, op);
  if (op->kind == IR_OP_TTG_ASYNC_COMMIT_GROUP) {
    cg_asm(c, void_ty, "cp.async.commit_group;", "", NULL, 0, true);
  } else if (op->kind == IR_OP_TTG_ASYNC_WAIT) {
    char code[48];
    snprintf(code, sizeof code, "cp.async.wait_group %d;", (int)ir_op_get_int(op, "num", 0));
    cg_asm(c, void_ty, code, "", NULL, 0, true);
  } else {
    return cg_unsupported(c, op);
  }
  set_token(c, op);
  return true;
}
