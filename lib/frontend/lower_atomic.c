/* lower_atomic.c - tl.atomic_add/max/min/and/or/xor/xchg (tt.atomic_rmw) and
 * tl.atomic_cas (tt.atomic_cas), with Triton's enum keywords for the
 * operation ("fadd", "umax"), the memory order ("acq_rel") and the scope
 * ("gpu"). The value converts to the pointee type and broadcasts to the
 * pointer's shape; the mask must be boolean. */
#include <string.h>

#include "frontend/fe.h"

typedef struct kw_value {
  const char *kw;
  int value; /* Triton's enum numbering */
} kw_value;

static const kw_value sems[] = {{"relaxed", 1}, {"acquire", 2}, {"release", 3}, {"acq_rel", 4}};
static const kw_value scopes[] = {{"gpu", 1}, {"cta", 2}, {"sys", 3}};
static const kw_value rmw_ops[] = {{"and", 1}, {"or", 2},  {"xor", 3},  {"add", 4}, {"fadd", 5},
                                   {"max", 6}, {"min", 7}, {"umax", 8}, {"umin", 9}, {"exch", 10}};

/* Sets enum attribute `name` from a string argument (or the default). */
static bool set_enum(fe_lower *l, ir_op *op, const char *name, const fe_val *v, ir_loc loc,
                     const kw_value *table, int n, const char *dflt) {
  const char *kw = v->kind == FE_V_STR ? v->path : dflt;
  if (v->kind != FE_V_STR && v->kind != FE_V_NONE) {
    fe_error(l, loc, "'%s' must be a string, found '%s'", name, fe_val_type_str(l, v));
    return false;
  }
  for (int i = 0; i < n; i++)
    if (strcmp(table[i].kw, kw) == 0) {
      ir_op_set_attr(l->m, op, name, ir_attr_enum(l->ctx, table[i].kw, table[i].value));
      return true;
    }
  fe_error(l, loc, "unknown %s '%s'", name, kw);
  return false;
}

/* Checks the pointer; converts `v` to the pointee type with the pointer's shape. */
static bool atomic_operand(fe_lower *l, const fe_val *ptr, fe_val *v, ir_loc loc) {
  const ir_type *pointee = ir_type_scalar(ptr->v->type)->elem;
  *v = fe_cast(l, *v, pointee, ptr->is_unsigned, loc);
  if (v->kind == FE_V_ERROR) return false;
  const ir_type *pt = ptr->v->type;
  if (ir_type_is_tensor(pt)) *v = fe_broadcast_to(l, *v, pt->rank, pt->shape, loc);
  else if (ir_type_is_tensor(v->v->type)) {
    fe_error(l, loc, "value of an atomic on a scalar pointer must be a scalar");
    return false;
  }
  return v->kind != FE_V_ERROR;
}

fe_val fe_build_atomic(fe_lower *l, const char *name, const fe_val *a, const ir_loc *locs,
                       ir_loc loc) {
  fe_val ptr = a[0];
  if (ptr.kind != FE_V_TENSOR || !ir_type_is_ptr(ptr.v->type))
    return fe_error(l, locs[0], "'pointer' argument of '%s' must be a pointer or a tensor of "
                    "pointers, found '%s'", name, fe_val_type_str(l, &ptr));
  const ir_type *pointee = ir_type_scalar(ptr.v->type)->elem;
  bool is_float = pointee->kind == IR_TY_FLOAT;
  bool is_cas = strcmp(name, "tl.atomic_cas") == 0;
  /* rmw: (pointer, val, mask, sem, scope); cas: (pointer, cmp, val, sem, scope) */
  fe_val v = a[1], cmp = a[1], mask = a[2];
  const ir_type *rty = ir_type_is_tensor(ptr.v->type)
                           ? ir_type_with_elem(l->ctx, ptr.v->type, pointee) : pointee;
  ir_value *ops[3];
  ir_op *op;
  if (is_cas) {
    v = a[2];
    if (!atomic_operand(l, &ptr, &cmp, locs[1]) || !atomic_operand(l, &ptr, &v, locs[2]))
      return fe_val_error();
    ops[0] = ptr.v;
    ops[1] = cmp.v;
    ops[2] = v.v;
    l->b.loc = loc;
    op = ir_build(&l->b, IR_OP_TT_ATOMIC_CAS, 1, &rty, 3, ops, 0);
  } else {
    const char *kind = name + strlen("tl.atomic_");
    const char *kw = kind;
    if (strcmp(kind, "add") == 0) kw = is_float ? "fadd" : "add";
    else if (strcmp(kind, "xchg") == 0) kw = "exch";
    else if (is_float)
      return fe_error(l, loc, "unsupported: '%s' on floating-point pointee '%s'", name,
                      fe_type_str(l, pointee, false));
    else if (ptr.is_unsigned && (strcmp(kind, "max") == 0 || strcmp(kind, "min") == 0))
      kw = strcmp(kind, "max") == 0 ? "umax" : "umin";
    if (!atomic_operand(l, &ptr, &v, locs[1])) return fe_val_error();
    int nops = 2;
    ops[0] = ptr.v;
    ops[1] = v.v;
    if (mask.kind != FE_V_NONE) {
      if (fe_is_const(&mask)) mask = fe_to_bool(l, mask, locs[2]);
      if (mask.kind != FE_V_TENSOR || ir_type_scalar(mask.v->type)->kind != IR_TY_INT ||
          ir_type_scalar(mask.v->type)->width != 1)
        return fe_error(l, locs[2], "mask must have boolean type, found '%s'",
                        fe_val_type_str(l, &mask));
      const ir_type *pt = ptr.v->type;
      if (ir_type_is_tensor(pt)) mask = fe_broadcast_to(l, mask, pt->rank, pt->shape, locs[2]);
      if (mask.kind == FE_V_ERROR) return mask;
      ops[nops++] = mask.v;
    }
    l->b.loc = loc;
    op = ir_build(&l->b, IR_OP_TT_ATOMIC_RMW, 1, &rty, nops, ops, 0);
    for (size_t i = 0; i < sizeof rmw_ops / sizeof rmw_ops[0]; i++)
      if (strcmp(rmw_ops[i].kw, kw) == 0)
        ir_op_set_attr(l->m, op, "atomic_rmw_op", ir_attr_enum(l->ctx, kw, rmw_ops[i].value));
  }
  if (!set_enum(l, op, "sem", &a[3], locs[3], sems, 4, "acq_rel") ||
      !set_enum(l, op, "scope", &a[4], locs[4], scopes, 3, "gpu"))
    return fe_val_error();
  return fe_val_tensor(ir_op_result(op, 0), ptr.is_unsigned);
}
