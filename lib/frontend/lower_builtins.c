// SPDX-License-Identifier: MIT
/* lower_builtins.c - the `tl.*` builtins (program ids, arange, load/store,
 * constructors, elementwise math, shape ops, hints), Python builtins usable
 * in kernels (min, max, int, float, len, abs) and methods on tensors
 * (`x.reshape(...)`, `x.dtype`, `x.shape`); the table names them all. Casts
 * and dtype builtins are in lower_dtype.c.
 *
 * Each builtin binds its arguments by Triton's parameter names, so keyword
 * calls (`tl.load(p, mask=m, other=0.0)`) work as in Triton. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/lower_impl.h"

#define MAXP FE_MAXP
typedef fe_builtin builtin;

bool fe_bind_args(fe_lower *l, const fe_args *args, const char *fname, const char *const *params,
                  int nparams, int nreq, fe_val *out, ir_loc *locs) {
  bool given[MAXP + 8] = {false};
  for (int i = 0; i < nparams; i++) {
    out[i] = fe_val_error();
    out[i].kind = FE_V_NONE;
    locs[i] = args->loc;
  }
  if (args->n > nparams) {
    fe_error(l, args->pos_loc[nparams], "too many arguments to '%s': expected at most %d, found %d",
             fname, nparams, args->n);
    return false;
  }
  for (int i = 0; i < args->n; i++) {
    out[i] = args->pos[i];
    locs[i] = args->pos_loc[i];
    given[i] = true;
  }
  for (int k = 0; k < args->nkw; k++) {
    int found = -1;
    for (int i = 0; i < nparams; i++)
      if (strcmp(params[i], args->kwnames[k]) == 0) found = i;
    if (found < 0) {
      fe_error(l, args->kw_loc[k], "unexpected keyword argument '%s' in call to '%s'",
               args->kwnames[k], fname);
      return false;
    }
    if (given[found]) {
      fe_error(l, args->kw_loc[k], "argument '%s' of '%s' given twice", params[found], fname);
      return false;
    }
    out[found] = args->kw[k];
    locs[found] = args->kw_loc[k];
    given[found] = true;
  }
  for (int i = 0; i < nreq; i++)
    if (!given[i]) {
      fe_error(l, args->loc, "missing argument '%s' in call to '%s'", params[i], fname);
      return false;
    }
  return true;
}

/* Optional parameters default to None, as in Triton's signatures. */
static bool is_none(const fe_val *v) { return v->kind == FE_V_NONE; }

static bool is_pow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

/* A constant int argument, or an error naming it. */
static bool const_int(fe_lower *l, const fe_val *v, ir_loc loc, const char *what, int64_t *out) {
  if (v->kind == FE_V_INT || v->kind == FE_V_BOOL) {
    *out = v->ival;
    return true;
  }
  if (v->kind != FE_V_ERROR)
    fe_error(l, loc, "%s must be a constexpr integer, found '%s'", what, fe_val_type_str(l, v));
  return false;
}

/* Every block dimension must be a power of two: layouts split dims evenly
 * over lanes and warps. */
bool fe_const_shape(fe_lower *l, fe_val v, ir_loc loc, int *rank, int64_t *shape) {
  const fe_val *items = &v;
  int n = 1;
  if (v.kind == FE_V_TUPLE) {
    items = v.items;
    n = v.n;
  }
  if (n > IR_MAX_RANK) {
    fe_error(l, loc, "shape has rank %d, the maximum is %d", n, IR_MAX_RANK);
    return false;
  }
  for (int i = 0; i < n; i++) {
    if (!const_int(l, &items[i], loc, "shape element", &shape[i])) return false;
    if (!is_pow2(shape[i])) {
      fe_error(l, loc, "shape element must be a power of two, got %lld", (long long)shape[i]);
      return false;
    }
  }
  if (!fe_check_tile(l, loc, n, shape)) return false;
  *rank = n;
  return true;
}

/* Constexprs become scalars of Triton's constant dtype (fe_to_tensor). */
bool fe_want_tensor(fe_lower *l, fe_val *v, ir_loc loc) {
  *v = fe_to_tensor(l, *v, loc);
  return v->kind == FE_V_TENSOR;
}

/* A tensor type of the shape, or the element itself for rank 0. */
static const ir_type *shaped(fe_lower *l, int rank, const int64_t *shape, const ir_type *elem) {
  return rank == 0 ? elem : ir_type_tensor(l->ctx, rank, shape, elem, NULL);
}

/* ---- program ids and ranges --------------------------------------------------- */

/* tl.program_id(axis) / tl.num_programs(axis): i32 scalars; the axis is a
 * constexpr in 0..2 (x, y, z of the launch grid). */
static fe_val b_program_id(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                           const fe_args *args) {
  int64_t axis;
  if (!const_int(l, &a[0], locs[0], "axis", &axis)) return fe_val_error();
  if (axis < 0 || axis > 2)
    return fe_error(l, locs[0], "%s axis must be 0, 1 or 2, got %lld", name, (long long)axis);
  l->b.loc = args->loc;
  if (strcmp(name, "tl.program_id") == 0)
    return fe_val_tensor(ir_build_program_id(&l->b, (int)axis), false);
  const ir_type *i32 = ir_type_i32(l->ctx);
  ir_value *r = ir_build1(&l->b, IR_OP_TT_GET_NUM_PROGRAMS, i32, 0, NULL);
  ir_op_set_attr(l->m, r->def, "axis", ir_attr_int(l->ctx, i32, axis));
  return fe_val_tensor(r, false);
}

/* tl.arange(start, end): constexpr bounds; the length must be a power of two
 * because every block dimension is (layouts split it over threads evenly). */
static fe_val b_arange(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                       const fe_args *args) {
  int64_t start, end;
  if (!const_int(l, &a[0], locs[0], "arange start", &start) ||
      !const_int(l, &a[1], locs[1], "arange end", &end))
    return fe_val_error();
  if (start < 0 || end > INT32_MAX)
    return fe_error(l, locs[start < 0 ? 0 : 1], "arange bounds must be within [0, 2**31)");
  if (end <= start)
    return fe_error(l, locs[1], "arange end must be greater than start, got %lld and %lld",
                    (long long)start, (long long)end);
  if (!is_pow2(end - start))
    return fe_error(l, locs[1], "arange size must be a power of two, got %lld",
                    (long long)(end - start));
  if (end - start > (1 << 20))
    return fe_error(l, locs[1], "arange size %lld exceeds the maximum of 1048576",
                    (long long)(end - start));
  l->b.loc = args->loc;
  return fe_val_tensor(ir_build_make_range(&l->b, (int32_t)start, (int32_t)end), false);
}

/* ---- constructors -------------------------------------------------------------- */

/* tl.full / tl.zeros: constant values become one dense constant (no splat op);
 * a runtime scalar is converted to the dtype and splat. */
static fe_val make_full(fe_lower *l, int rank, const int64_t *shape, fe_val value, fe_val dtype,
                        ir_loc vloc, ir_loc dloc, ir_loc loc) {
  if (dtype.kind != FE_V_DTYPE)
    return fe_error(l, dloc, "dtype must be a tl dtype, found '%s'", fe_val_type_str(l, &dtype));
  l->b.loc = loc;
  const ir_type *ty = shaped(l, rank, shape, dtype.ty);
  if (fe_is_const(&value)) {
    const ir_type *s = dtype.ty;
    if (value.kind == FE_V_FLOAT && s->kind == IR_TY_INT && s->width > 1) { /* int(value) */
      value = fe_float_to_int(l, value.fval, vloc, "tl.full");
      if (value.kind == FE_V_ERROR) return value;
    }
    if (!fe_const_fits(l, &value, s, dtype.is_unsigned, vloc)) return fe_val_error();
    return fe_val_tensor(fe_const_of(l, ty, &value), dtype.is_unsigned);
  }
  if (value.kind != FE_V_TENSOR || ir_type_is_tensor(value.v->type))
    return fe_error(l, vloc, "value must be a scalar, found '%s'", fe_val_type_str(l, &value));
  fe_val v = fe_cast(l, value, dtype.ty, dtype.is_unsigned, vloc);
  if (v.kind == FE_V_ERROR || rank == 0) return v;
  return fe_val_tensor(ir_build_splat(&l->b, v.v, ty), dtype.is_unsigned);
}

/* tl.full(shape, value, dtype); tl.zeros lives in the prelude over it. */
static fe_val b_zeros(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args) {
  int rank;
  int64_t shape[IR_MAX_RANK];
  if (!fe_const_shape(l, a[0], locs[0], &rank, shape)) return fe_val_error();
  if (strcmp(name, "tl.zeros") == 0)
    return make_full(l, rank, shape, fe_val_int(0), a[1], locs[0], locs[1], args->loc);
  return make_full(l, rank, shape, a[1], a[2], locs[1], locs[2], args->loc);
}

/* ---- memory ----------------------------------------------------------------------- */

/* Checks the pointer argument and returns its pointee type. */
static const ir_type *check_pointer(fe_lower *l, fe_val *p, ir_loc loc, const char *fname) {
  if (p->kind == FE_V_ERROR) return NULL;
  if (p->kind != FE_V_TENSOR || !ir_type_is_ptr(p->v->type)) {
    fe_error(l, loc,
             "'pointer' argument of '%s' must be a pointer or a tensor of pointers, "
             "found '%s'",
             fname, fe_val_type_str(l, p));
    return NULL;
  }
  const ir_type *pointee = ir_type_scalar(p->v->type)->elem;
  if (ir_type_is_tensor(pointee)) {
    fe_error(l, loc, "unsupported: block pointers in '%s'", fname);
    return NULL;
  }
  return pointee;
}

/* A mask broadcast to the pointer's shape; must be boolean. */
static bool shape_mask(fe_lower *l, fe_val *mask, const fe_val *ptr, ir_loc loc) {
  if (fe_is_const(mask)) *mask = fe_to_bool(l, *mask, loc);
  if (mask->kind == FE_V_ERROR) return false;
  if (mask->kind != FE_V_TENSOR) {
    fe_error(l, loc, "mask must be a boolean tensor, found '%s'", fe_val_type_str(l, mask));
    return false;
  }
  const ir_type *s = ir_type_scalar(mask->v->type);
  if (s->kind != IR_TY_INT || s->width != 1) {
    fe_error(l, loc, "mask must have boolean type, found '%s'", fe_val_type_str(l, mask));
    return false;
  }
  const ir_type *pt = ptr->v->type;
  if (!ir_type_is_tensor(pt)) {
    if (ir_type_is_tensor(mask->v->type)) {
      fe_error(l, loc, "mask '%s' of a scalar pointer must be a scalar", fe_val_type_str(l, mask));
      return false;
    }
    return true;
  }
  *mask = fe_broadcast_to(l, *mask, pt->rank, pt->shape, loc);
  return mask->kind != FE_V_ERROR;
}

/* cache_modifier / eviction_policy strings of tl.load / tl.store become enum
 * attributes "cache" / "evict" with Triton's numbering (CacheModifier: ca 2,
 * cg 3, wb 4, cs 5, wt 6, cv 7; EvictionPolicy: evict_normal 1, evict_first
 * 2, evict_last 3); "" and None mean the default (no attribute). */
static bool set_cache_attrs(fe_lower *l, ir_op *op, const fe_val *cache, ir_loc cloc,
                            const fe_val *evict, ir_loc eloc, bool is_store) {
  static const char *const loads[] = {"ca", "cg", "cv"};
  static const char *const stores[] = {"wb", "cg", "cs", "wt"};
  static const char *const cnames[] = {"", "", "ca", "cg", "wb", "cs", "wt", "cv"};
  static const char *const enames[] = {"", "evict_normal", "evict_first", "evict_last"};
  if (cache->kind == FE_V_STR && cache->path[0]) {
    const char *m = cache->path[0] == '.' ? cache->path + 1 : cache->path;
    const char *const *ok = is_store ? stores : loads;
    int nok = is_store ? 4 : 3, found = 0;
    for (int i = 0; i < nok; i++)
      found |= strcmp(ok[i], m) == 0;
    if (!found) {
      fe_error(l, cloc, "cache_modifier '%s' is not valid for %s", cache->path,
               is_store ? "tl.store (use .wb, .cg, .cs or .wt)" : "tl.load (use .ca, .cg or .cv)");
      return false;
    }
    for (int i = 2; i < 8; i++)
      if (strcmp(cnames[i], m) == 0)
        ir_op_set_attr(l->m, op, "cache", ir_attr_enum(l->ctx, cnames[i], i));
  } else if (cache->kind != FE_V_NONE && cache->kind != FE_V_STR) {
    fe_error(l, cloc, "cache_modifier must be a string, found '%s'", fe_val_type_str(l, cache));
    return false;
  }
  if (evict->kind == FE_V_STR && evict->path[0]) {
    for (int i = 1; i < 4; i++)
      if (strcmp(enames[i], evict->path) == 0) {
        if (i > 1) ir_op_set_attr(l->m, op, "evict", ir_attr_enum(l->ctx, enames[i], i));
        return true;
      }
    fe_error(l, eloc,
             "unknown eviction_policy '%s' (use evict_first, evict_last or "
             "evict_normal)",
             evict->path);
    return false;
  } else if (evict->kind != FE_V_NONE && evict->kind != FE_V_STR) {
    fe_error(l, eloc, "eviction_policy must be a string, found '%s'", fe_val_type_str(l, evict));
    return false;
  }
  return true;
}

/* tl.load(pointer, mask, other, ...): the result has the pointer's shape and
 * the pointee type; `other` converts to the pointee and needs a mask, as in
 * Triton. Cache and eviction hints become attributes that codegen emits. */
static fe_val b_load(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args) {
  if (a[0].kind == FE_V_STRUCT) return fe_blockptr_load(l, a, locs, args);
  const ir_type *pointee = check_pointer(l, &a[0], locs[0], name);
  if (!pointee) return fe_val_error();
  fe_val ptr = a[0];
  ir_value *ops[3];
  int nops = 1;
  ops[0] = ptr.v;
  const ir_type *pt = ptr.v->type;
  const ir_type *rty = ir_type_is_tensor(pt) ? ir_type_with_elem(l->ctx, pt, pointee) : pointee;
  if (!is_none(&a[1])) {
    fe_val mask = a[1];
    if (!shape_mask(l, &mask, &ptr, locs[1])) return fe_val_error();
    ops[nops++] = mask.v;
    if (!is_none(&a[2])) {
      /* A constant `other` becomes one dense constant rather than a splat. */
      fe_val other =
          fe_is_const(&a[2])
              ? (l->b.loc = locs[2], fe_val_tensor(fe_const_of(l, rty, &a[2]), ptr.is_unsigned))
              : fe_cast(l, a[2], pointee, ptr.is_unsigned, locs[2]);
      if (other.kind == FE_V_ERROR) return other;
      if (ir_type_is_tensor(pt))
        other = fe_broadcast_to(l, other, pt->rank, pt->shape, locs[2]);
      else if (ir_type_is_tensor(other.v->type))
        return fe_error(l, locs[2], "'other' of a scalar load must be a scalar");
      if (other.kind == FE_V_ERROR) return other;
      ops[nops++] = other.v;
    }
  } else if (!is_none(&a[2])) {
    return fe_error(l, locs[2], "'other' cannot be given without 'mask'");
  }
  if (!is_none(&a[3]) && !(a[3].kind == FE_V_TUPLE && a[3].n == 0))
    return fe_error(l, locs[3], "unsupported: 'boundary_check' (block pointers)");
  l->b.loc = args->loc;
  ir_op *op = ir_build(&l->b, IR_OP_TT_LOAD, 1, &rty, nops, ops, 0);
  if (!set_cache_attrs(l, op, &a[5], locs[5], &a[6], locs[6], false)) return fe_val_error();
  if (a[7].kind == FE_V_BOOL && a[7].ival)
    ir_op_set_attr(l->m, op, "isVolatile", ir_attr_bool(l->ctx, true));
  return fe_val_tensor(ir_op_result(op, 0), ptr.is_unsigned);
}

/* tl.store(pointer, value, mask): the value converts to the pointee type and
 * broadcasts to the pointer's shape; returns None. */
static fe_val b_store(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args) {
  if (a[0].kind == FE_V_STRUCT) return fe_blockptr_store(l, a, locs, args);
  const ir_type *pointee = check_pointer(l, &a[0], locs[0], name);
  if (!pointee) return fe_val_error();
  fe_val ptr = a[0];
  const ir_type *pt = ptr.v->type;
  fe_val val = fe_cast(l, a[1], pointee, ptr.is_unsigned, locs[1]);
  if (val.kind == FE_V_ERROR) return val;
  if (ir_type_is_tensor(pt)) {
    val = fe_broadcast_to(l, val, pt->rank, pt->shape, locs[1]);
    if (val.kind == FE_V_ERROR) return val;
  } else if (ir_type_is_tensor(val.v->type)) {
    return fe_error(l, locs[1], "value '%s' stored through a scalar pointer must be a scalar",
                    fe_val_type_str(l, &val));
  }
  ir_value *ops[3] = {ptr.v, val.v, NULL};
  int nops = 2;
  if (!is_none(&a[2])) {
    fe_val mask = a[2];
    if (!shape_mask(l, &mask, &ptr, locs[2])) return fe_val_error();
    ops[nops++] = mask.v;
  }
  if (!is_none(&a[3]) && !(a[3].kind == FE_V_TUPLE && a[3].n == 0))
    return fe_error(l, locs[3], "unsupported: 'boundary_check' (block pointers)");
  l->b.loc = args->loc;
  ir_op *op = ir_build(&l->b, IR_OP_TT_STORE, 0, NULL, nops, ops, 0);
  if (!set_cache_attrs(l, op, &a[4], locs[4], &a[5], locs[5], true)) return fe_val_error();
  fe_val none = fe_val_error();
  none.kind = FE_V_NONE;
  return none;
}

fe_val fe_call_load_store(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                          const fe_args *args) {
  return strcmp(name, "tl.load") == 0 ? b_load(l, name, a, locs, args)
                                      : b_store(l, name, a, locs, args);
}

/* ---- hints, asserts, casts ----------------------------------------------------------- */

static fe_val b_identity(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                         const fe_args *args) {
  return a[0];
}

/* tl.to_tensor(x): a constexpr becomes a scalar of Triton's constant dtype. */
static fe_val b_to_tensor(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                          const fe_args *args) {
  return fe_to_tensor(l, a[0], locs[0]);
}

static fe_val b_static_assert(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                              const fe_args *args) {
  int t = fe_const_truth(&a[0]);
  if (t < 0 && a[0].kind == FE_V_TENSOR)
    return fe_error(l, locs[0], "static_assert condition must be a constexpr");
  if (t == 0) {
    if (a[1].kind == FE_V_STR)
      return fe_error(l, args->loc, "static assertion failed: %s", a[1].path);
    return fe_error(l, args->loc, "static assertion failed");
  }
  fe_val none = fe_val_error();
  none.kind = FE_V_NONE;
  return none;
}

/* Accepted and dropped (tl.assume): returns None. */
static fe_val b_noop(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args) {
  fe_val none = fe_val_error();
  none.kind = FE_V_NONE;
  return none;
}

static fe_val b_unsupported(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                            const fe_args *args) {
  if (strcmp(name, "py.range") == 0 || strcmp(name, "tl.range") == 0 ||
      strcmp(name, "tl.static_range") == 0)
    return fe_error(l, args->loc, "'%s' can only be the iterator of a 'for' loop", name + 3);
  if (strncmp(name, "triton.", 7) == 0)
    return fe_error(l, args->loc, "'%s' can only be used as a decorator", name);
  return fe_error(l, args->loc, "unsupported: '%s'", name + 3);
}

/* Casts and dtypes (x.to, tl.cast, dtype predicates and attributes) live in
 * lower_dtype.c. */

/* Shape ops live in lower_shape.c. */
static fe_val b_shape_op(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                         const fe_args *args) {
  return fe_shape_op(l, name, a, locs, args);
}

/* tl.reduce(input, axis, combine_fn, keep_dims) and
 * tl.associative_scan(input, axis, combine_fn, reverse): the primitives the
 * prelude's sum / max / argmax / cumsum ... are written with. */
static fe_val b_reduce(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                       const fe_args *args) {
  if (strcmp(name, "tl.reduce") == 0)
    return fe_build_reduce(l, a[0], a[1], a[2], fe_const_truth(&a[3]) > 0, args->loc);
  return fe_build_scan(l, a[0], a[1], a[2], fe_const_truth(&a[3]) > 0, args->loc);
}

/* Dot and atomics are built in lower_reduce.c and lower_atomic.c. */
static fe_val b_dot(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args) {
  return fe_build_dot(l, a, locs, args->loc);
}

static fe_val b_atomic(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                       const fe_args *args) {
  return fe_build_atomic(l, name, a, locs, args->loc);
}

/* ---- Python builtins ------------------------------------------------------------------ */

/* Python's min/max over arguments or one tuple. */
static fe_val b_py_minmax(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                          const fe_args *args) {
  const fe_val *items = args->pos;
  int n = args->n;
  if (n == 1 && args->pos[0].kind == FE_V_TUPLE) {
    items = args->pos[0].items;
    n = args->pos[0].n;
  }
  if (n < 1) return fe_error(l, args->loc, "'%s' needs at least one argument", name + 3);
  fe_val r = items[0];
  for (int i = 1; i < n; i++)
    r = fe_minmax(l, strcmp(name, "py.max") == 0, r, items[i], args->loc);
  return r;
}

static fe_val b_py_conv(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                        const fe_args *args) {
  if (strcmp(name, "py.bool") == 0 && a[0].kind != FE_V_TENSOR && fe_const_truth(&a[0]) >= 0)
    return fe_val_bool(fe_const_truth(&a[0]) > 0); /* bool('') and bool(()) are False */
  if (!fe_is_const(&a[0]))
    return fe_error(l, locs[0], "'%s' needs a constexpr argument, found '%s' (use .to())", name + 3,
                    fe_val_type_str(l, &a[0]));
  double f = fe_num(&a[0]);
  if (strcmp(name, "py.int") == 0)
    return a[0].kind == FE_V_FLOAT ? fe_float_to_int(l, f, locs[0], "int") : fe_val_int(a[0].ival);
  if (strcmp(name, "py.float") == 0) return fe_val_float(f);
  return fe_val_bool(f != 0);
}

/* len() of a tuple, or of a tensor's first dimension, as Python. */
static fe_val b_py_len(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                       const fe_args *args) {
  if (a[0].kind == FE_V_TUPLE) return fe_val_int(a[0].n);
  if (a[0].kind == FE_V_TENSOR && ir_type_is_tensor(a[0].v->type))
    return fe_val_int(a[0].v->type->shape[0]);
  return fe_error(l, locs[0], "object of type '%s' has no len()", fe_val_type_str(l, &a[0]));
}

/* float("inf") and friends are the common constexpr spelling of infinities. */
static fe_val b_py_float(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                         const fe_args *args) {
  if (a[0].kind == FE_V_STR) { /* Python's float(str): a decimal, inf or nan, spaces around */
    const char *s = a[0].path;
    char buf[128];
    size_t n = 0;
    for (const char *p = s; *p && n + 1 < sizeof buf; p++)
      if (*p != '_' && *p != ' ' && *p != '\t' && *p != '\n')
        buf[n++] = (char)tolower((unsigned char)*p);
    buf[n] = '\0';
    const char *b = buf + (buf[0] == '+' || buf[0] == '-');
    double sign = buf[0] == '-' ? -1.0 : 1.0;
    if (!strcmp(b, "inf") || !strcmp(b, "infinity")) return fe_val_float(sign * __builtin_inf());
    if (!strcmp(b, "nan")) return fe_val_float(__builtin_nan(""));
    char *end = NULL;
    double d =
        n && (isdigit((unsigned char)*b) || *b == '.') && !strchr(buf, 'x') ? strtod(buf, &end) : 0;
    if (end && *end == '\0' && end != buf) return fe_val_float(d);
    return fe_error(l, locs[0], "could not convert string to float: '%s'", s);
  }
  return b_py_conv(l, name, a, locs, args);
}

/* ---- the table ------------------------------------------------------------------------ */

/* Parameter names follow Triton's Python signatures so that keyword calls
 * bind the same way; the first `nreq` are required. Entries mapped to
 * b_unsupported name real Triton functions ttc does not lower yet, so they
 * get "unsupported" rather than "unknown function". */
#define P(...)                                                                                     \
  { __VA_ARGS__ }
static const builtin builtins[] = {
    {"tl.program_id", b_program_id, 1, P("axis")},
    {"tl.num_programs", b_program_id, 1, P("axis")},
    {"tl.arange", b_arange, 2, P("start", "end")},
    {"tl.full", b_zeros, 3, P("shape", "value", "dtype")},
    {"tl.load", b_load, 1,
     P("pointer", "mask", "other", "boundary_check", "padding_option", "cache_modifier",
       "eviction_policy", "volatile")},
    {"tl.store", b_store, 2,
     P("pointer", "value", "mask", "boundary_check", "cache_modifier", "eviction_policy")},
    {"tl.multiple_of", b_identity, 2, P("input", "values")},
    {"tl.max_contiguous", b_identity, 2, P("input", "values")},
    {"tl.max_constancy", b_identity, 2, P("input", "values")},
    {"tl.constexpr", b_identity, 1, P("value")},
    {"tl.pointer_type", fe_b_pointer_type, 1, P("element_ty", "address_space", "const")},
    {"tl.get_int_dtype", fe_b_get_int_dtype, 2, P("bitwidth", "signed")},
    {"tl.dtype", fe_b_dtype_ctor, 1, P("name")},
    {"tl.assume", b_noop, 1, P("cond")},
    {"tl.to_tensor", b_to_tensor, 1, P("x")},
    {"tl.static_assert", b_static_assert, 1, P("cond", "msg")},
    {"tl.cast", fe_b_to, 2, P("input", "dtype", "fp_downcast_rounding", "bitcast")},
    {"tl.expand_dims", b_shape_op, 2, P("input", "axis")},
    {"tl.broadcast", b_shape_op, 2, P("input", "other")},
    {"tl.broadcast_to", b_shape_op, 2, P("input", "shape")},
    {"tl.reshape", b_shape_op, 2, P("input", "shape", "can_reorder")},
    {"tl.view", b_shape_op, 2, P("input", "shape")},
    {"tl.trans", b_shape_op, 1, P("input", "dims")},
    {"tl.permute", b_shape_op, 2, P("input", "dims")},
    {"tl.join", b_shape_op, 2, P("a", "b")},
    {"tl.split", b_shape_op, 1, P("a")},
    {"tl.reduce", b_reduce, 3, P("input", "axis", "combine_fn", "keep_dims")},
    {"tl.associative_scan", b_reduce, 3, P("input", "axis", "combine_fn", "reverse")},
    {"tl.dot", b_dot, 2,
     P("input", "other", "acc", "input_precision", "allow_tf32", "max_num_imprecise_acc",
       "out_dtype")},
    {"tl.range", b_unsupported, 0, P("a", "b", "c", "d", "e", "f", "g", "h")},
    {"tl.static_range", b_unsupported, 0, P("a", "b", "c", "d")},
    {"tl.atomic_add", b_atomic, 2, P("pointer", "val", "mask", "sem", "scope")},
    {"tl.atomic_max", b_atomic, 2, P("pointer", "val", "mask", "sem", "scope")},
    {"tl.atomic_min", b_atomic, 2, P("pointer", "val", "mask", "sem", "scope")},
    {"tl.atomic_and", b_atomic, 2, P("pointer", "val", "mask", "sem", "scope")},
    {"tl.atomic_or", b_atomic, 2, P("pointer", "val", "mask", "sem", "scope")},
    {"tl.atomic_xor", b_atomic, 2, P("pointer", "val", "mask", "sem", "scope")},
    {"tl.atomic_xchg", b_atomic, 2, P("pointer", "val", "mask", "sem", "scope")},
    {"tl.atomic_cas", b_atomic, 3, P("pointer", "cmp", "val", "sem", "scope")},
    {"tl.inline_asm_elementwise", b_unsupported, 0, P("a", "b", "c", "d", "e", "f", "g", "h")},
    {"tl.histogram", b_unsupported, 0, P("a", "b", "c")},
    {"tl.gather", b_unsupported, 0, P("a", "b", "c")},
    {"py.min", b_py_minmax, 0, P("a", "b", "c", "d", "e", "f", "g", "h")},
    {"py.max", b_py_minmax, 0, P("a", "b", "c", "d", "e", "f", "g", "h")},
    {"py.int", b_py_conv, 1, P("x")},
    {"py.float", b_py_float, 1, P("x")},
    {"py.bool", b_py_conv, 1, P("x")},
    {"py.len", b_py_len, 1, P("obj")},
    {"py.range", b_unsupported, 0, P("a", "b", "c")},
    {"py.print", b_unsupported, 0, P("a", "b", "c", "d", "e", "f", "g", "h")},
    {"py.isinstance", b_unsupported, 0, P("a", "b")},
    {"py.getattr", b_unsupported, 0, P("a", "b", "c")},
    {"triton.jit", b_unsupported, 0, P("a", "b", "c")},
    {"triton.autotune", b_unsupported, 0, P("a", "b", "c")},
    {"triton.heuristics", b_unsupported, 0, P("a", "b", "c")},
    {"triton.constexpr_function", b_unsupported, 0, P("a")},
    /* methods: the receiver is the first argument */
    {"d.is_floating", fe_b_dtype_pred, 1, P("self")},
    {"d.is_int", fe_b_dtype_pred, 1, P("self")},
    {"d.is_bool", fe_b_dtype_pred, 1, P("self")},
    {"d.is_int_signed", fe_b_dtype_pred, 1, P("self")},
    {"d.is_int_unsigned", fe_b_dtype_pred, 1, P("self")},
    {"d.is_ptr", fe_b_dtype_pred, 1, P("self")},
    {"d.is_fp16", fe_b_dtype_pred, 1, P("self")},
    {"d.is_bf16", fe_b_dtype_pred, 1, P("self")},
    {"d.is_fp32", fe_b_dtype_pred, 1, P("self")},
    {"d.is_fp64", fe_b_dtype_pred, 1, P("self")},
    {"d.is_int8", fe_b_dtype_pred, 1, P("self")},
    {"d.is_int16", fe_b_dtype_pred, 1, P("self")},
    {"d.is_int32", fe_b_dtype_pred, 1, P("self")},
    {"d.is_int64", fe_b_dtype_pred, 1, P("self")},
    {"d.is_uint8", fe_b_dtype_pred, 1, P("self")},
    {"d.is_uint16", fe_b_dtype_pred, 1, P("self")},
    {"d.is_uint32", fe_b_dtype_pred, 1, P("self")},
    {"d.is_uint64", fe_b_dtype_pred, 1, P("self")},
    {"d.is_fp8", fe_b_dtype_pred, 1, P("self")},
    {"d.is_fp8e4nv", fe_b_dtype_pred, 1, P("self")},
    {"d.is_fp8e5", fe_b_dtype_pred, 1, P("self")},
    {"d.is_standard_floating", fe_b_dtype_pred, 1, P("self")},
    {"d.is_void", fe_b_dtype_pred, 1, P("self")},
    {"d.is_block", fe_b_dtype_pred, 1, P("self")},
    {"d.is_floating_point", fe_b_dtype_pred, 1, P("self")},
    {"m.to", fe_b_to, 2, P("input", "dtype", "fp_downcast_rounding", "bitcast")},
};
#undef P

/* Searches this file's table, then the other files' NULL-terminated ones. */
const fe_builtin *fe_find_builtin(const char *name) {
  for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
    if (strcmp(builtins[i].name, name) == 0) return &builtins[i];
  const fe_builtin *const tables[] = {fe_math_builtins, fe_debug_builtins, fe_blockptr_builtins};
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
    for (const fe_builtin *b = tables[t]; b->name; b++)
      if (strcmp(b->name, name) == 0) return b;
  return NULL;
}

/* The varargs debug builtins are dispatched before the tables. */
bool fe_is_tl_builtin(const char *name) {
  char buf[96];
  snprintf(buf, sizeof buf, "tl.%s", name);
  return fe_find_builtin(buf) != NULL || strcmp(name, "static_print") == 0 ||
         strcmp(name, "device_print") == 0;
}

/* Dispatches a builtin by its qualified name ("tl.load", "py.min", "m.to"). */
/* tl builtins that need no kernel (constexpr folding and checks). */
static bool works_in_host(const char *name) {
  static const char *const ok[] = {"tl.constexpr", "tl.static_assert", "tl.static_print",
                                   "tl.cdiv",      "tl.pointer_type",  "tl.get_int_dtype",
                                   "tl.dtype"};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
    if (strcmp(ok[i], name) == 0) return true;
  return strncmp(name, "tl.", 3) != 0 && strncmp(name, "ld.", 3) != 0;
}

fe_val fe_call_builtin(fe_lower *l, const char *name, const fe_args *args) {
  bool handled;
  fe_val hv = fe_call_host_builtin(l, name, args, &handled);
  if (handled) return hv;
  if (!l->b.block && !works_in_host(name))
    return fe_error(l, args->loc, "'%s' can only be called in a kernel", name);
  if (strcmp(name, "tl.static_print") == 0 || strcmp(name, "tl.device_print") == 0)
    return fe_call_debug_varargs(l, name, args);
  if (strncmp(name, "ld.", 3) == 0) return fe_call_libdevice(l, name + 3, args);
  const builtin *b = fe_find_builtin(name);
  if (!b) return fe_error(l, args->loc, "unknown function '%s'", name);
  if (b->fn == b_unsupported) return b_unsupported(l, name, NULL, NULL, args);
  int nparams = 0;
  while (nparams < MAXP && b->params[nparams])
    nparams++;
  fe_args packed = *args;
  if (b->fn == b_shape_op && strcmp(name, "tl.expand_dims") != 0 &&
      strcmp(name, "tl.broadcast") != 0 && strcmp(name, "tl.join") != 0 &&
      strcmp(name, "tl.split") != 0)
    packed = fe_pack_varargs(l, args, 1);
  fe_val a[MAXP];
  ir_loc locs[MAXP];
  char fname[96];
  snprintf(fname, sizeof fname, "%s",
           strncmp(name, "py.", 3) == 0 || strncmp(name, "m.", 2) == 0 ||
                   strncmp(name, "d.", 2) == 0
               ? strchr(name, '.') + 1
               : name);
  if (!fe_bind_args(l, &packed, fname, b->params, nparams, b->nreq, a, locs)) return fe_val_error();
  return b->fn(l, name, a, locs, &packed);
}

/* Attributes of runtime values: dtype and shape are compile-time facts,
 * T transposes, and the listed names are bound methods (receiver first). */
fe_val fe_tensor_attr(fe_lower *l, fe_val v, const char *name, ir_loc loc) {
  const ir_type *t = v.v->type;
  if (strcmp(name, "dtype") == 0 || strcmp(name, "type") == 0) {
    /* x.type is the block type (x.type.element_ty, .shape); x.dtype the element's */
    fe_val d = fe_val_error();
    d.kind = FE_V_DTYPE;
    d.ty = name[0] == 'd' ? ir_type_scalar(t) : t;
    d.is_unsigned = v.is_unsigned;
    return d;
  }
  if (strcmp(name, "shape") == 0) {
    fe_val s = fe_val_error();
    s.kind = FE_V_TUPLE;
    s.n = ir_type_is_tensor(t) ? t->rank : 0;
    s.items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(s.n + 1));
    for (int i = 0; i < s.n; i++)
      s.items[i] = fe_val_int(t->shape[i]);
    return s;
  }
  if (strcmp(name, "numel") == 0) return fe_val_int(ir_type_numel(t));
  if (strcmp(name, "T") == 0) {
    fe_args args;
    memset(&args, 0, sizeof args);
    args.n = 1;
    args.pos = &v;
    args.pos_loc = &loc;
    args.loc = loc;
    return fe_call_builtin(l, "tl.trans", &args);
  }
  if (fe_is_tensor_member(name) && strcmp(name, "dtype") != 0 && strcmp(name, "type") != 0) {
    char buf[64];
    snprintf(buf, sizeof buf, "%s.%s", strcmp(name, "to") == 0 ? "m" : "tl", name);
    return fe_val_method(l, buf, v);
  }
  return fe_error(l, loc, "tensor has no attribute '%s'", name);
}

/* Triton's tensor member functions (core._tensor_member_fn), and dtype. */
bool fe_is_tensor_member(const char *name) {
  static const char *const methods[] = {"reshape",
                                        "broadcast_to",
                                        "expand_dims",
                                        "trans",
                                        "permute",
                                        "view",
                                        "cast",
                                        "to",
                                        "split",
                                        "reduce",
                                        "associative_scan",
                                        "sum",
                                        "max",
                                        "min",
                                        "argmax",
                                        "argmin",
                                        "xor_sum",
                                        "cumsum",
                                        "cumprod",
                                        "sort",
                                        "flip",
                                        "ravel",
                                        "cdiv",
                                        "sigmoid",
                                        "softmax",
                                        "exp",
                                        "exp2",
                                        "log",
                                        "log2",
                                        "sqrt",
                                        "rsqrt",
                                        "sin",
                                        "cos",
                                        "abs",
                                        "erf",
                                        "floor",
                                        "ceil",
                                        "fma",
                                        "umulhi",
                                        "logical_and",
                                        "logical_or",
                                        "dtype",
                                        "type"};
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
    if (strcmp(methods[i], name) == 0) return true;
  return false;
}
