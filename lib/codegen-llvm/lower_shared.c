// SPDX-License-Identifier: MIT
/* lower_shared.c - the shared-memory ops of ttgir: a !ttg.memdesc value
 * lowers to the address of its first element (ptr addrspace(3)); the buffer
 * a local_alloc owns sits at its allocation.offset. local_alloc with a value
 * and local_store write the registers through the buffer's layout;
 * local_load reads them back (ldmatrix for mma.sync operands when the
 * layouts allow); memdesc_index selects one buffer of a ring, memdesc_trans
 * reinterprets a buffer; fence_async_shared orders generic-proxy writes
 * before the tensor cores' reads; gpu.barrier is bar.sync. */
#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

static bool set_ptr(cg *c, ir_op *op, LLVMValueRef p) {
  cg_vals r = cg_vals_new(c, 1);
  r.v[0] = p;
  cg_map_set(c, &op->results[0], r);
  return true;
}

/* Registers of `v` (type t) into the buffer `buf` (memdesc type bt). */
static bool store_to(cg *c, const ir_op *op, const ir_type *t, cg_vals v, LLVMValueRef buf,
                     const ir_type *bt) {
  ttg_ll map;
  if (!ttg_shared_map(t, bt->layout, bt->shape, &map)) {
    ir_error(c->ictx, op->loc, "unsupported in codegen: '%s' between these layouts",
             ir_op_name(op));
    return false;
  }
  return cg_shared_store(c, buf, t, &map, v);
}

static bool lower_alloc(cg *c, ir_op *op) {
  LLVMValueRef base = cg_scratch(c, op);
  if (op->noperands == 1) {
    cg_vals v;
    if (!cg_get(c, op, 0, &v) ||
        !store_to(c, op, op->operands[0]->type, v, base, op->results[0].type))
      return false;
  }
  return set_ptr(c, op, base);
}

static bool lower_store(cg *c, ir_op *op) {
  cg_vals v, buf;
  if (!cg_get(c, op, 0, &v) || !cg_get(c, op, 1, &buf)) return false;
  return store_to(c, op, op->operands[0]->type, v, buf.v[0], op->operands[1]->type);
}

static bool lower_load(cg *c, ir_op *op) {
  cg_vals buf;
  if (!cg_get(c, op, 0, &buf)) return false;
  const ir_type *t = op->results[0].type, *bt = op->operands[0]->type;
  ttg_ll map;
  if (!ttg_shared_map(t, bt->layout, bt->shape, &map)) {
    ir_error(c->ictx, op->loc, "unsupported in codegen: 'ttg.local_load' between these layouts");
    return false;
  }
  cg_vals r;
  bool is_dot = t->layout && t->layout->kind == IR_ATTR_DOT_OP;
  if (!is_dot || !cg_ldmatrix(c, buf.v[0], t, &map, &r)) r = cg_shared_load(c, buf.v[0], t, &map);
  cg_map_set(c, &op->results[0], r);
  return true;
}

/* One buffer of a ring: the base plus index * (buffer bytes). */
static bool lower_index(cg *c, ir_op *op) {
  cg_vals buf, idx;
  if (!cg_get(c, op, 0, &buf) || !cg_get(c, op, 1, &idx)) return false;
  const ir_type *rt = op->results[0].type;
  int64_t bytes = ir_type_numel(rt) * (int64_t)ir_type_bytes(rt->elem);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(c->lc), i32 = LLVMInt32TypeInContext(c->lc);
  LLVMValueRef i = idx.v[0];
  if (LLVMTypeOf(i) != i32) i = LLVMBuildTrunc(c->b, i, i32, "");
  LLVMValueRef off = LLVMBuildMul(c->b, i, cg_i32(c, bytes), "");
  return set_ptr(c, op, LLVMBuildGEP2(c->b, i8, buf.v[0], &off, 1, ""));
}

bool cg_lower_shared_op(cg *c, ir_op *op) {
  /* An if-chain, not a switch: the exhaustive switch lives in lower.c. */
  ir_op_kind k = op->kind;
  if (k == IR_OP_TTG_LOCAL_ALLOC) return lower_alloc(c, op);
  if (k == IR_OP_TTG_LOCAL_STORE) return lower_store(c, op);
  if (k == IR_OP_TTG_LOCAL_LOAD) return lower_load(c, op);
  if (k == IR_OP_TTG_MEMDESC_INDEX) return lower_index(c, op);
  if (k == IR_OP_TTG_MEMDESC_TRANS) {
    cg_vals buf;
    if (!cg_get(c, op, 0, &buf)) return false;
    cg_map_set(c, &op->results[0], buf); /* same bytes, the type's layout differs */
    return true;
  }
  if (k == IR_OP_TTG_LOCAL_DEALLOC) return true; /* offsets are static */
  if (k == IR_OP_TTNG_FENCE_ASYNC_SHARED) {
    cg_asm(c, LLVMVoidTypeInContext(c->lc), "fence.proxy.async.shared::cta;", "", NULL, 0, true);
    return true;
  }
  if (k == IR_OP_GPU_BARRIER) {
    cg_barrier(c);
    return true;
  }
  return cg_unsupported(c, op);
}
