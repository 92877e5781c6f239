// SPDX-License-Identifier: MIT
/* async_copy.c - what one cp.async of a thread can move, for
 * tritongpu-pipeline (which makes the copies) and codegen (which emits
 * them): the tensor dim along which a thread's consecutive registers lie,
 * the elements a copy takes along it, and the split of a mask into the
 * terms a copy predicates and the one bound a bounded copy takes instead
 * (ttg.async_copy_global_to_local ... left %n {ttg.bounded = true}). */
#include "ir-ttgpu/ttg.h"

/* The output dim of register bit 0 of layout d, or -1. */
static int reg_dim(const ttg_ll *d) {
  int td = -1;
  for (int k = 0; d->nbits[TTG_IN_REG] > 0 && k < d->nout; k++)
    if (d->basis[TTG_IN_REG][0][k] == 1) td = k;
  return td;
}

int ttg_async_copy_dim(const ir_type *ptr_ty) {
  ttg_ll d;
  if (!ir_type_is_tensor(ptr_ty) || !ttg_ll_of_type(ptr_ty, &d)) return -1;
  return reg_dim(&d);
}

int ttg_async_copy_vec(const ir_type *ptr_ty, const ir_type *buf_ty, const ir_axis_info *ptr,
                       const ir_axis_info *mask) {
  ttg_ll d, map;
  if (!ir_type_is_tensor(ptr_ty) || !ir_type_is_memdesc(buf_ty) || !ttg_ll_of_type(ptr_ty, &d))
    return 1;
  unsigned eb = ir_type_bytes(ir_type_scalar(ptr_ty)->elem);
  if (!ttg_shared_map_bits(ptr_ty, buf_ty->layout, buf_ty->shape, (int)eb * 8, &map)) return 1;
  int64_t vec = ttg_ll_vector_regs(&map, eb);
  /* The same registers must also be consecutive along one tensor dim. */
  int td = reg_dim(&d);
  if (td < 0) return 1;
  int64_t run = 1;
  for (int k = 0; k < d.nbits[TTG_IN_REG] && run < vec; k++) {
    bool unit = true;
    for (int o = 0; o < d.nout; o++)
      unit = unit && d.basis[TTG_IN_REG][k][o] == (o == td ? 1 << k : 0);
    if (!unit) break;
    run *= 2;
  }
  if (run < vec) vec = run;
  if (ptr->contiguity[td] < vec) vec = ptr->contiguity[td];
  int64_t align = ptr->divisibility[td] / eb; /* divisibility is in bytes */
  if (align < vec) vec = align < 1 ? 1 : align;
  if (mask && mask->constancy[td] < vec) vec = mask->constancy[td];
  int64_t p = 1;
  while (p * 2 <= vec)
    p *= 2;
  return (int)p;
}

bool ttg_copy_bounds(const ir_axis_analysis *ax, ir_value *mask, int td, int vec, ir_value **terms,
                     int max, int *nterms, ir_value **index, ir_value **bound) {
  ir_value *other = NULL;
  if (!ir_axis_split_mask(ax, mask, td, vec, terms, max, nterms, &other) || !other) return false;
  ir_op *d = other->def;
  if (!d || d->kind != IR_OP_ARITH_CMPI || ir_op_get_int(d, "predicate", -1) != IR_CMPI_SLT)
    return false;
  ir_axis_info xi = ir_axis_get(ax, d->operands[0]), bi = ir_axis_get(ax, d->operands[1]);
  if (xi.contiguity[td] < vec || bi.constancy[td] < vec) return false;
  *index = d->operands[0];
  *bound = d->operands[1];
  return true;
}
