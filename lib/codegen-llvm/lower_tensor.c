/* lower_tensor.c - ops that create or rearrange tensors without arithmetic:
 * arith.constant, tt.get_program_id / get_num_programs, tt.make_range,
 * tt.splat, tt.broadcast, tt.expand_dims, ttg.convert_layout (through shared
 * memory when the layouts differ). Register numbering follows layout.c. */
#include <stdio.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

bool cg_emit_indices(cg *c, const ir_type *t, ir_loc loc, LLVMValueRef **idx) {
  cg_layout l;
  if (!cg_layout_of(c, t, loc, &l)) return false;
  const ir_attr *b = l.root;
  LLVMValueRef off[IR_MAX_RANK];
  for (int d = 0; d < l.prank; d++) {
    if (l.sliced[d]) continue;
    /* lane_d = (lane / stride) % tpw; warp_d likewise; powers of two fold. */
    LLVMValueRef ld = LLVMBuildUDiv(c->b, c->lane, cg_i32(c, cg_layout_lane_stride(&l, d)), "");
    ld = LLVMBuildURem(c->b, ld, cg_i32(c, b->threads_per_warp[d]), "");
    LLVMValueRef wd = LLVMBuildUDiv(c->b, c->warp, cg_i32(c, cg_layout_warp_stride(&l, d)), "");
    wd = LLVMBuildURem(c->b, wd, cg_i32(c, b->warps_per_cta[d]), "");
    LLVMValueRef o = LLVMBuildMul(c->b, wd, cg_i32(c, b->threads_per_warp[d]), "");
    o = LLVMBuildAdd(c->b, o, ld, "");
    off[d] = LLVMBuildMul(c->b, o, cg_i32(c, b->size_per_thread[d]), "");
    idx[l.tdim[d]] = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)l.nelems);
  }
  for (int64_t j = 0; j < l.nelems; j++) {
    int64_t k[IR_MAX_RANK], rep[IR_MAX_RANK];
    cg_layout_reg_coords(&l, j, k, rep);
    for (int d = 0; d < l.prank; d++) {
      if (l.sliced[d]) continue;
      LLVMValueRef v = LLVMBuildAdd(c->b, off[d], cg_i32(c, rep[d] * l.tile[d] + k[d]), "");
      if (l.pshape[d] < l.tile[d]) v = LLVMBuildURem(c->b, v, cg_i32(c, l.pshape[d]), "");
      idx[l.tdim[d]][j] = v;
    }
  }
  return true;
}

LLVMValueRef cg_owner_pred(cg *c, const ir_type *t, ir_loc loc) {
  if (!ir_type_is_tensor(t)) return LLVMBuildICmp(c->b, LLVMIntEQ, c->tid, cg_i32(c, 0), "");
  cg_layout l;
  if (!cg_layout_of(c, t, loc, &l)) return NULL;
  const ir_attr *b = l.root;
  LLVMValueRef pred = NULL;
  for (int d = 0; d < l.prank; d++) {
    if (l.pshape[d] >= l.tile[d]) continue;
    /* Threads whose first element lies past the shape repeat lower threads. */
    LLVMValueRef ld = LLVMBuildUDiv(c->b, c->lane, cg_i32(c, cg_layout_lane_stride(&l, d)), "");
    ld = LLVMBuildURem(c->b, ld, cg_i32(c, b->threads_per_warp[d]), "");
    LLVMValueRef wd = LLVMBuildUDiv(c->b, c->warp, cg_i32(c, cg_layout_warp_stride(&l, d)), "");
    wd = LLVMBuildURem(c->b, wd, cg_i32(c, b->warps_per_cta[d]), "");
    LLVMValueRef o = LLVMBuildAdd(c->b, LLVMBuildMul(c->b, wd, cg_i32(c, b->threads_per_warp[d]),
                                                     ""), ld, "");
    o = LLVMBuildMul(c->b, o, cg_i32(c, b->size_per_thread[d]), "");
    LLVMValueRef p = LLVMBuildICmp(c->b, LLVMIntULT, o, cg_i32(c, l.pshape[d]), "");
    pred = pred ? LLVMBuildAnd(c->b, pred, p, "") : p;
  }
  return pred;
}

/* Scalar LLVM constant for an INT/FLOAT attribute. */
static LLVMValueRef const_of(cg *c, const ir_attr *a, const ir_type *ty) {
  LLVMTypeRef lty = cg_type(c, ty);
  if (a->kind == IR_ATTR_FLOAT) return LLVMConstReal(lty, a->f);
  if (ir_type_is_float(ty)) return LLVMConstReal(lty, (double)a->i);
  return LLVMConstInt(lty, (unsigned long long)a->i, 1);
}

static bool lower_constant(cg *c, ir_op *op) {
  const ir_type *ty = op->results[0].type;
  const ir_attr *a = ir_op_get_attr(op, "value");
  if (a && a->kind == IR_ATTR_DENSE) a = a->elem;
  if (!a || (a->kind != IR_ATTR_INT && a->kind != IR_ATTR_FLOAT)) return cg_unsupported(c, op);
  int64_t n = cg_num_regs(c, ty, op->loc);
  if (n < 0) return false;
  cg_vals r = cg_vals_new(c, (int)n);
  LLVMValueRef k = const_of(c, a, ir_type_scalar(ty));
  for (int64_t j = 0; j < n; j++) r.v[j] = k;
  cg_map_set(c, &op->results[0], r);
  return true;
}

static bool lower_sreg(cg *c, ir_op *op, const char *base) {
  static const char axes[3] = {'x', 'y', 'z'};
  int64_t axis = ir_op_get_int(op, "axis", 0);
  if (axis < 0 || axis > 2) return cg_unsupported(c, op);
  char name[64];
  snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s.%c", base, axes[axis]);
  cg_vals r = cg_vals_new(c, 1);
  r.v[0] = cg_intrinsic(c, name, NULL, 0, NULL, 0);
  cg_map_set(c, &op->results[0], r);
  return true;
}

static bool lower_make_range(cg *c, ir_op *op) {
  const ir_type *ty = op->results[0].type;
  LLVMValueRef *idx[IR_MAX_RANK];
  int64_t n = cg_num_regs(c, ty, op->loc);
  if (n < 0 || !cg_emit_indices(c, ty, op->loc, idx)) return false;
  int64_t start = ir_op_get_int(op, "start", 0);
  cg_vals r = cg_vals_new(c, (int)n);
  for (int64_t j = 0; j < n; j++)
    r.v[j] = start ? LLVMBuildAdd(c->b, idx[0][j], cg_i32(c, start), "") : idx[0][j];
  cg_map_set(c, &op->results[0], r);
  return true;
}

static bool lower_splat(cg *c, ir_op *op) {
  cg_vals s;
  if (!cg_get(c, op, 0, &s)) return false;
  int64_t n = cg_num_regs(c, op->results[0].type, op->loc);
  if (n < 0) return false;
  cg_vals r = cg_vals_new(c, (int)n);
  for (int64_t j = 0; j < n; j++) r.v[j] = s.v[0];
  cg_map_set(c, &op->results[0], r);
  return true;
}

/* broadcast / expand_dims: both layouts share a root, so each destination
 * register reads the source register with the same (k, rep) where the source
 * has it, else (0, 0) along that dim (the source is size 1 or sliced there). */
static bool lower_remap(cg *c, ir_op *op) {
  const ir_type *st = op->operands[0]->type, *dt = op->results[0].type;
  cg_vals s;
  cg_layout sl, dl;
  if (!cg_get(c, op, 0, &s)) return false;
  if (!ir_type_is_tensor(st)) return lower_splat(c, op);
  if (!cg_layout_of(c, st, op->loc, &sl) || !cg_layout_of(c, dt, op->loc, &dl)) return false;
  if (sl.root != dl.root) return cg_relayout_broadcast(c, op); /* through shared memory */
  cg_vals r = cg_vals_new(c, (int)dl.nelems);
  for (int64_t j = 0; j < dl.nelems; j++) {
    int64_t k[IR_MAX_RANK], rep[IR_MAX_RANK];
    cg_layout_reg_coords(&dl, j, k, rep);
    for (int d = 0; d < dl.prank; d++) {
      if (k[d] >= sl.nk[d]) k[d] = 0;
      if (rep[d] >= sl.nrep[d]) rep[d] = 0;
    }
    r.v[j] = s.v[cg_layout_reg_number(&sl, k, rep)];
  }
  cg_map_set(c, &op->results[0], r);
  return true;
}

/* Row-major linear index of each register of a tensor type. */
static bool linear_indices(cg *c, const ir_type *t, ir_loc loc, LLVMValueRef *lin, int64_t n) {
  LLVMValueRef *idx[IR_MAX_RANK];
  if (!cg_emit_indices(c, t, loc, idx)) return false;
  for (int64_t j = 0; j < n; j++) {
    LLVMValueRef v = idx[0][j];
    for (int d = 1; d < t->rank; d++) {
      v = LLVMBuildMul(c->b, v, cg_i32(c, t->shape[d]), "");
      v = LLVMBuildAdd(c->b, v, idx[d][j], "");
    }
    lin[j] = v;
  }
  return true;
}

/* convert_layout through shared memory: every thread writes what it holds
 * at the element's row-major position, then reads what it needs. Duplicate
 * holders write equal values, so the races are benign. */
static bool lower_convert(cg *c, ir_op *op) {
  const ir_type *st = op->operands[0]->type, *dt = op->results[0].type;
  cg_vals s;
  if (!cg_get(c, op, 0, &s)) return false;
  if (st->layout == dt->layout || !ir_type_is_tensor(st)) {
    cg_map_set(c, &op->results[0], s);
    return true;
  }
  int64_t nd = cg_num_regs(c, dt, op->loc);
  if (nd < 0) return false;
  const ir_type *et = ir_type_scalar(st);
  bool is_bool = et->kind == IR_TY_INT && et->width == 1;
  LLVMTypeRef mty = is_bool ? LLVMInt8TypeInContext(c->lc) : cg_type(c, et);
  uint64_t bytes = (uint64_t)ir_type_numel(st) * ir_type_bytes(et);
  if (bytes > 48 * 1024) {
    ir_error(c->ictx, op->loc, "unsupported in codegen: convert_layout of %llu bytes",
             (unsigned long long)bytes);
    return false;
  }
  LLVMValueRef base = cg_smem(c, bytes);
  LLVMValueRef *lin = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)(s.n + nd));
  if (!linear_indices(c, st, op->loc, lin, s.n)) return false;
  cg_smem_begin_write(c);
  for (int j = 0; j < s.n; j++) {
    LLVMValueRef p = LLVMBuildGEP2(c->b, mty, base, &lin[j], 1, "");
    LLVMValueRef v = is_bool ? LLVMBuildZExt(c->b, s.v[j], mty, "") : s.v[j];
    LLVMBuildStore(c->b, v, p);
  }
  cg_barrier(c);
  if (!linear_indices(c, dt, op->loc, lin + s.n, nd)) return false;
  cg_vals r = cg_vals_new(c, (int)nd);
  for (int64_t j = 0; j < nd; j++) {
    LLVMValueRef p = LLVMBuildGEP2(c->b, mty, base, &lin[s.n + j], 1, "");
    LLVMValueRef v = LLVMBuildLoad2(c->b, mty, p, "");
    r.v[j] = is_bool ? LLVMBuildTrunc(c->b, v, LLVMInt1TypeInContext(c->lc), "") : v;
  }
  cg_smem_read_done(c);
  cg_map_set(c, &op->results[0], r);
  return true;
}

bool cg_lower_tensor_op(cg *c, ir_op *op) {
  /* An if-chain, not a switch: the exhaustive switch lives in lower.c. */
  ir_op_kind k = op->kind;
  if (k == IR_OP_ARITH_CONSTANT) return lower_constant(c, op);
  if (k == IR_OP_TT_GET_PROGRAM_ID) return lower_sreg(c, op, "ctaid");
  if (k == IR_OP_TT_GET_NUM_PROGRAMS) return lower_sreg(c, op, "nctaid");
  if (k == IR_OP_TT_MAKE_RANGE) return lower_make_range(c, op);
  if (k == IR_OP_TT_SPLAT) return lower_splat(c, op);
  if (k == IR_OP_TT_BROADCAST || k == IR_OP_TT_EXPAND_DIMS) return lower_remap(c, op);
  if (k == IR_OP_TTG_CONVERT_LAYOUT) return lower_convert(c, op);
  return cg_unsupported(c, op);
}
