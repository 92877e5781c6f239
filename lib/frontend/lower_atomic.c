/* lower_atomic.c - tl.atomic_add/max/min/and/or/xor/xchg (tt.atomic_rmw) and
 * tl.atomic_cas (tt.atomic_cas), with Triton's enum keywords for the
 * operation ("fadd", "umax"), the memory order ("acq_rel") and the scope
 * ("gpu"). The value converts to the pointee type and broadcasts to the
 * pointer's shape; the mask must be boolean. Float max/min go through
 * integer atomics on the bits, as Triton's semantic.py does. */
#include <string.h>

#include "frontend/lower_impl.h"

typedef struct kw_value {
  const char *kw;
  int value; /* Triton's enum numbering */
} kw_value;

static const kw_value sems[] = {{"relaxed", 1}, {"acquire", 2}, {"release", 3}, {"acq_rel", 4}};
static const kw_value scopes[] = {{"gpu", 1}, {"cta", 2}, {"sys", 3}};
static const kw_value rmw_ops[] = {{"and", 1}, {"or", 2},  {"xor", 3},  {"add", 4},  {"fadd", 5},
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
  if (ir_type_is_tensor(pt))
    *v = fe_broadcast_to(l, *v, pt->rank, pt->shape, loc);
  else if (ir_type_is_tensor(v->v->type)) {
    fe_error(l, loc, "value of an atomic on a scalar pointer must be a scalar");
    return false;
  }
  return v->kind != FE_V_ERROR;
}

/* One tt.atomic_rmw of kind `kw` with sem / scope from the call. NULL after
 * an error. */
static ir_op *build_rmw(fe_lower *l, const char *kw, ir_value *ptr, ir_value *val, ir_value *mask,
                        const fe_val *a, const ir_loc *locs, ir_loc loc) {
  const ir_type *rty = val->type;
  ir_value *ops[3] = {ptr, val, mask};
  l->b.loc = loc;
  ir_op *op = ir_build(&l->b, IR_OP_TT_ATOMIC_RMW, 1, &rty, mask ? 3 : 2, ops, 0);
  for (size_t i = 0; i < sizeof rmw_ops / sizeof rmw_ops[0]; i++)
    if (strcmp(rmw_ops[i].kw, kw) == 0)
      ir_op_set_attr(l->m, op, "atomic_rmw_op", ir_attr_enum(l->ctx, kw, rmw_ops[i].value));
  if (!set_enum(l, op, "sem", &a[3], locs[3], sems, 4, "acq_rel") ||
      !set_enum(l, op, "scope", &a[4], locs[4], scopes, 3, "gpu"))
    return NULL;
  return op;
}

/* Float atomic max / min: non-negative floats order like signed integers and
 * negative ones order in reverse as unsigned integers, so max is a signed
 * max where val >= 0 and an unsigned min where val < 0 (min: signed min /
 * unsigned max). The old value is that of the atomic that ran, bitcast back. */
static fe_val float_minmax(fe_lower *l, bool is_max, fe_val ptr, fe_val v, ir_value *mask,
                           const fe_val *a, const ir_loc *locs, ir_loc loc) {
  const ir_type *pointee = ir_type_scalar(ptr.v->type)->elem;
  if (pointee->width != 32 && pointee->width != 64)
    return fe_error(l, loc, "unsupported: float atomic_%s on '%s' (fp32 and fp64 only)",
                    is_max ? "max" : "min", fe_type_str(l, pointee, false));
  const ir_type *ity = ir_type_int(l->ctx, pointee->width);
  const ir_type *pt = ptr.v->type, *vt = v.v->type;
  const ir_type *iptr_s = ir_type_ptr(l->ctx, ity, 1);
  const ir_type *iptr = ir_type_is_tensor(pt) ? ir_type_with_elem(l->ctx, pt, iptr_s) : iptr_s;
  const ir_type *ivt = ir_type_is_tensor(vt) ? ir_type_with_elem(l->ctx, vt, ity) : ity;
  l->b.loc = loc;
  ir_value *ip = ir_build_unary(&l->b, IR_OP_TT_BITCAST, iptr, ptr.v);
  ir_value *iv = ir_build_unary(&l->b, IR_OP_TT_BITCAST, ivt, v.v);
  ir_value *zero = ir_build_const_float(&l->b, vt, 0.0);
  ir_value *pos = ir_build_cmpf(&l->b, IR_CMPF_OGE, v.v, zero);
  ir_value *neg = ir_build_cmpf(&l->b, IR_CMPF_OLT, v.v, zero);
  ir_value *mpos = mask ? ir_build_binary(&l->b, IR_OP_ARITH_ANDI, mask, pos) : pos;
  ir_value *mneg = mask ? ir_build_binary(&l->b, IR_OP_ARITH_ANDI, mask, neg) : neg;
  ir_op *r1 = build_rmw(l, is_max ? "max" : "min", ip, iv, mpos, a, locs, loc);
  ir_op *r2 = r1 ? build_rmw(l, is_max ? "umin" : "umax", ip, iv, mneg, a, locs, loc) : NULL;
  if (!r2) return fe_val_error();
  ir_value *ops[3] = {pos, ir_op_result(r1, 0), ir_op_result(r2, 0)};
  ir_value *r = ir_build1(&l->b, IR_OP_ARITH_SELECT, ivt, 3, ops);
  return fe_val_tensor(ir_build_unary(&l->b, IR_OP_TT_BITCAST, vt, r), false);
}

fe_val fe_build_atomic(fe_lower *l, const char *name, const fe_val *a, const ir_loc *locs,
                       ir_loc loc) {
  fe_val ptr = a[0];
  if (ptr.kind != FE_V_TENSOR || !ir_type_is_ptr(ptr.v->type))
    return fe_error(l, locs[0],
                    "'pointer' argument of '%s' must be a pointer or a tensor of "
                    "pointers, found '%s'",
                    name, fe_val_type_str(l, &ptr));
  const ir_type *pointee = ir_type_scalar(ptr.v->type)->elem;
  bool is_float = pointee->kind == IR_TY_FLOAT;
  /* rmw: (pointer, val, mask, sem, scope); cas: (pointer, cmp, val, sem, scope) */
  if (strcmp(name, "tl.atomic_cas") == 0) {
    fe_val cmp = a[1], v = a[2];
    if (!atomic_operand(l, &ptr, &cmp, locs[1]) || !atomic_operand(l, &ptr, &v, locs[2]))
      return fe_val_error();
    const ir_type *rty = v.v->type;
    ir_value *ops[3] = {ptr.v, cmp.v, v.v};
    l->b.loc = loc;
    ir_op *op = ir_build(&l->b, IR_OP_TT_ATOMIC_CAS, 1, &rty, 3, ops, 0);
    if (!set_enum(l, op, "sem", &a[3], locs[3], sems, 4, "acq_rel") ||
        !set_enum(l, op, "scope", &a[4], locs[4], scopes, 3, "gpu"))
      return fe_val_error();
    return fe_val_tensor(ir_op_result(op, 0), ptr.is_unsigned);
  }
  const char *kind = name + strlen("tl.atomic_");
  const char *kw = kind;
  bool is_minmax = strcmp(kind, "max") == 0 || strcmp(kind, "min") == 0;
  if (strcmp(kind, "add") == 0)
    kw = is_float ? "fadd" : "add";
  else if (strcmp(kind, "xchg") == 0)
    kw = "exch";
  else if (is_float && !is_minmax)
    return fe_error(l, loc, "'%s' needs an integer pointee, found '%s'", name,
                    fe_type_str(l, pointee, false));
  else if (ptr.is_unsigned && is_minmax)
    kw = strcmp(kind, "max") == 0 ? "umax" : "umin";
  fe_val v = a[1], mask = a[2];
  if (!atomic_operand(l, &ptr, &v, locs[1])) return fe_val_error();
  ir_value *mv = NULL;
  if (mask.kind != FE_V_NONE) {
    if (fe_is_const(&mask)) mask = fe_to_bool(l, mask, locs[2]);
    if (mask.kind != FE_V_TENSOR || ir_type_scalar(mask.v->type)->kind != IR_TY_INT ||
        ir_type_scalar(mask.v->type)->width != 1)
      return fe_error(l, locs[2], "mask must have boolean type, found '%s'",
                      fe_val_type_str(l, &mask));
    const ir_type *pt = ptr.v->type;
    if (ir_type_is_tensor(pt)) mask = fe_broadcast_to(l, mask, pt->rank, pt->shape, locs[2]);
    if (mask.kind == FE_V_ERROR) return mask;
    mv = mask.v;
  }
  if (is_float && is_minmax)
    return float_minmax(l, strcmp(kind, "max") == 0, ptr, v, mv, a, locs, loc);
  ir_op *op = build_rmw(l, kw, ptr.v, v.v, mv, a, locs, loc);
  if (!op) return fe_val_error();
  return fe_val_tensor(ir_op_result(op, 0), ptr.is_unsigned);
}
