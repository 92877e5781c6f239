// SPDX-License-Identifier: MIT
/* lower_tensor.c - ops that create or rearrange tensors without arithmetic:
 * arith.constant, tt.get_program_id / get_num_programs, tt.make_range,
 * tt.splat, tt.broadcast, tt.expand_dims, ttg.convert_layout (through shared
 * memory unless every thread already holds what it needs). Register numbering
 * follows the linear layouts (layout.c). */
#include <stdio.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

/* Scalar LLVM constant for an INT/FLOAT attribute. */
static LLVMValueRef const_of(cg *c, const ir_attr *a, const ir_type *ty) {
  LLVMTypeRef lty = cg_type(c, ty);
  if (ir_type_is_fp8(ty)) /* fp8 registers hold the bits */
    return LLVMConstInt(
        lty,
        ir_fp8_bits(a->kind == IR_ATTR_FLOAT ? a->f : (double)a->i, ir_type_scalar(ty)->is_e5m2),
        0);
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
  for (int64_t j = 0; j < n; j++)
    r.v[j] = k;
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
  for (int64_t j = 0; j < n; j++)
    r.v[j] = s.v[0];
  cg_map_set(c, &op->results[0], r);
  return true;
}

/* broadcast / expand_dims: when each thread already holds the source
 * elements its result registers repeat (the layouts agree on lanes and
 * warps once the broadcast or unit dims are dropped), a register copy;
 * otherwise through shared memory. */
static bool lower_remap(cg *c, ir_op *op) {
  const ir_type *st = op->operands[0]->type, *dt = op->results[0].type;
  cg_vals s;
  ttg_ll sl, dl;
  if (!cg_get(c, op, 0, &s)) return false;
  if (!ir_type_is_tensor(st)) return lower_splat(c, op);
  if (!cg_ll_of(c, st, op->loc, &sl) || !cg_ll_of(c, dt, op->loc, &dl)) return false;
  int proj[IR_MAX_RANK];
  if (op->kind == IR_OP_TT_EXPAND_DIMS) {
    int axis = (int)ir_op_get_int(op, "axis", 0);
    for (int d = 0, k = 0; d < dt->rank; d++)
      proj[d] = d == axis ? -1 : k++;
  } else {
    for (int d = 0; d < dt->rank; d++)
      proj[d] = st->shape[d] == 1 && dt->shape[d] != 1 ? -1 : d;
  }
  int64_t n = ttg_ll_num_regs(&dl);
  int64_t *map = ir_arena_alloc(&c->arena, sizeof(int64_t) * (size_t)n);
  if (!ttg_ll_reg_map(&sl, &dl, proj, map)) return cg_relayout_broadcast(c, op);
  cg_vals r = cg_vals_new(c, (int)n);
  for (int64_t j = 0; j < n; j++)
    r.v[j] = s.v[map[j]];
  cg_map_set(c, &op->results[0], r);
  return true;
}

/* The layout of a conversion's scratch: row-major with 16-byte chunks of a
 * row XORed with the row index mod 8, so that both sides' accesses spread
 * over the banks and stay vectorizable. */
static const ir_attr *scratch_encoding(cg *c, const ir_type *t) {
  unsigned order[IR_MAX_RANK];
  for (int i = 0; i < t->rank; i++)
    order[i] = (unsigned)(t->rank - 1 - i);
  unsigned eb = ir_type_bytes(ir_type_scalar(t));
  unsigned vec = 16 / eb ? 16 / eb : 1;
  return ir_attr_swizzled_shared(c->ictx, vec, 1, 8, t->rank, order);
}

/* convert_layout through shared memory in 2^n passes (ttg_convert_split):
 * pass r moves the elements whose split bits equal r. The buffer is the
 * tensor with those bits dropped from its coordinates, laid out as the
 * one-pass buffer would be; both layouts lose the register bases that
 * select the split bits. A barrier separates each pass's reads from the
 * next pass's writes. */
static bool convert_in_passes(cg *c, ir_op *op, cg_vals s, const ttg_ll *sl, const ttg_ll *dl,
                              const ttg_cvt_split *sp, int64_t nd) {
  const ir_type *st = op->operands[0]->type, *dt = op->results[0].type;
  ttg_ll wmap, rmap;
  if (!ttg_convert_pass_maps(st, dt, scratch_encoding(c, st), sp, &wmap, &rmap))
    return cg_unsupported(c, op);
  LLVMValueRef base = cg_scratch(c, op);
  bool sm90 = ttg_module_options(c->im).compute_capability >= 90;
  int64_t ns = ttg_ll_num_regs(&wmap), ndp = ttg_ll_num_regs(&rmap);
  cg_vals out = cg_vals_new(c, (int)nd), part = cg_vals_new(c, (int)ns);
  for (int r = 0; r < 1 << sp->n; r++) {
    for (int64_t j = 0; j < ns; j++)
      part.v[j] = s.v[ttg_cvt_pass_reg(sp, sp->src_reg, sl->nbits[TTG_IN_REG], j, r)];
    if (r > 0) cg_barrier(c); /* the previous pass has read the buffer */
    if (!sm90 || !cg_stmatrix(c, base, st, &wmap, part)) cg_shared_store(c, base, st, &wmap, part);
    cg_barrier(c);
    cg_vals got = cg_shared_load(c, base, dt, &rmap);
    for (int64_t j = 0; j < ndp && j < got.n; j++)
      out.v[ttg_cvt_pass_reg(sp, sp->dst_reg, dl->nbits[TTG_IN_REG], j, r)] = got.v[j];
  }
  cg_map_set(c, &op->results[0], out);
  return true;
}

/* convert_layout: a register permutation when every thread already holds
 * what it needs; otherwise every thread writes what it holds to the
 * scratch buffer, a barrier, and every thread reads what it needs, in one
 * pass or, for a large tile, in several (convert_in_passes). Holders of
 * duplicate copies write equal values, so the races are benign. */
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
  ttg_ll sl, dl;
  int proj[IR_MAX_RANK];
  for (int d = 0; d < dt->rank; d++)
    proj[d] = d;
  int64_t *map = ir_arena_alloc(&c->arena, sizeof(int64_t) * (size_t)nd);
  if (!cg_ll_of(c, st, op->loc, &sl) || !cg_ll_of(c, dt, op->loc, &dl)) return false;
  if (ttg_ll_reg_map(&sl, &dl, proj, map)) {
    cg_vals r = cg_vals_new(c, (int)nd);
    for (int64_t j = 0; j < nd; j++)
      r.v[j] = s.v[map[j]];
    cg_map_set(c, &op->results[0], r);
    return true;
  }
  ttg_cvt_split sp;
  ttg_convert_split(st, dt, ttg_convert_pass_bytes(op), &sp);
  if (sp.n > 0) return convert_in_passes(c, op, s, &sl, &dl, &sp, nd);
  const ir_attr *enc = scratch_encoding(c, st);
  ttg_ll wmap, rmap;
  if (!ttg_shared_map(st, enc, st->shape, &wmap) || !ttg_shared_map(dt, enc, dt->shape, &rmap))
    return cg_unsupported(c, op);
  LLVMValueRef base = cg_scratch(c, op);
  /* sm_90: 16-bit data in 8x8 matrices (an mma accumulator after its
   * conversion to f16) goes out with stmatrix, 16 bytes per row. */
  bool sm90 = ttg_module_options(c->im).compute_capability >= 90;
  if (!sm90 || !cg_stmatrix(c, base, st, &wmap, s)) cg_shared_store(c, base, st, &wmap, s);
  cg_barrier(c);
  cg_map_set(c, &op->results[0], cg_shared_load(c, base, dt, &rmap));
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
