// SPDX-License-Identifier: MIT
/* lower_dtype.c - conversions and dtypes as builtins: `x.to(dtype,
 * fp_downcast_rounding, bitcast)` and `tl.cast`, the dtype predicates
 * (`x.dtype.is_fp16()`), dtype attributes (`element_ty`,
 * `primitive_bitwidth`, ...), `tl.pointer_type`, `tl.core.get_int_dtype` and
 * `tl.dtype("fp32")`. The table of builtins is in lower_builtins.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/lower_impl.h"

/* x.to(dtype, fp_downcast_rounding, bitcast) and tl.cast: a value conversion,
 * or with bitcast=True a same-width tt.bitcast. */
fe_val fe_b_to(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args) {
  if (a[1].kind != FE_V_DTYPE)
    return fe_error(l, locs[1], "dtype must be a tl dtype, found '%s'", fe_val_type_str(l, &a[1]));
  bool bitcast = a[3].kind == FE_V_BOOL && a[3].ival;
  /* fp_downcast_rounding="rtz": a float narrowing truncates toward zero
   * (tt.fp_to_fp, rounding = rtz); "rtne" is the default; other casts
   * ignore it, as Triton's */
  if (a[2].kind == FE_V_STR && strcmp(a[2].path, "rtne") != 0 && strcmp(a[2].path, "rtz") != 0)
    return fe_error(l, locs[2], "fp_downcast_rounding must be 'rtne' or 'rtz', found '%s'",
                    a[2].path);
  if (!bitcast && a[2].kind == FE_V_STR && strcmp(a[2].path, "rtz") == 0) {
    fe_val x = a[0];
    if (!fe_want_tensor(l, &x, locs[0])) return fe_val_error();
    const ir_type *s = ir_type_scalar(x.v->type), *d = a[1].ty;
    if (s->kind == IR_TY_FLOAT && d->kind == IR_TY_FLOAT && d->width < s->width) {
      if (ir_type_is_fp8(d))
        return fe_error(l, locs[2],
                        "fp8 conversions round to nearest even ('rtz' is not available)");
      l->b.loc = args->loc;
      return fe_fp_to_fp(l, x.v, d, "rtz");
    }
  }
  if (!bitcast) return fe_cast(l, a[0], a[1].ty, a[1].is_unsigned, locs[1]);
  fe_val x = a[0];
  if (!fe_want_tensor(l, &x, locs[0])) return fe_val_error();
  const ir_type *s = ir_type_scalar(x.v->type);
  if (ir_type_bytes(s) != ir_type_bytes(a[1].ty) || s->width != a[1].ty->width)
    return fe_error(l, locs[1], "cannot bitcast '%s' to '%s': sizes differ", fe_val_type_str(l, &x),
                    fe_type_str(l, a[1].ty, a[1].is_unsigned));
  /* int32 <-> uint32 differ only in signedness, which the IR does not carry. */
  if (s == a[1].ty) return fe_val_tensor(x.v, a[1].is_unsigned);
  l->b.loc = args->loc;
  const ir_type *rty =
      ir_type_is_tensor(x.v->type) ? ir_type_with_elem(l->ctx, x.v->type, a[1].ty) : a[1].ty;
  return fe_val_tensor(ir_build_unary(&l->b, IR_OP_TT_BITCAST, rty, x.v), a[1].is_unsigned);
}

/* dtype predicates (`x.dtype.is_floating()`), as Triton's dtype methods. */
fe_val fe_b_dtype_pred(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                       const fe_args *args) {
  const ir_type *t = a[0].ty;
  const char *p = name + 5; /* after "d.is_" */
  if (!strcmp(p, "block")) return fe_val_bool(ir_type_is_tensor(t));
  t = ir_type_scalar(t);
  if (!strcmp(p, "floating_point")) p = "floating";
  bool isint = t->kind == IR_TY_INT, isf = t->kind == IR_TY_FLOAT;
  if (!strcmp(p, "floating")) return fe_val_bool(isf);
  if (!strcmp(p, "int")) return fe_val_bool(isint);
  if (!strcmp(p, "bool")) return fe_val_bool(isint && t->width == 1);
  /* Triton counts int1 among the unsigned types. */
  bool uns = a[0].is_unsigned || t->width == 1;
  if (!strcmp(p, "int_signed")) return fe_val_bool(isint && !uns);
  if (!strcmp(p, "int_unsigned")) return fe_val_bool(isint && uns);
  if (!strcmp(p, "ptr")) return fe_val_bool(t->kind == IR_TY_PTR);
  if (!strcmp(p, "fp16")) return fe_val_bool(isf && t->width == 16 && !t->is_bf16);
  if (!strcmp(p, "bf16")) return fe_val_bool(isf && t->is_bf16);
  if (!strcmp(p, "fp32")) return fe_val_bool(isf && t->width == 32);
  if (!strcmp(p, "fp64")) return fe_val_bool(isf && t->width == 64);
  if (!strcmp(p, "standard_floating")) return fe_val_bool(isf && t->width > 8);
  bool f8 = isf && t->width == 8;
  if (!strcmp(p, "fp8")) return fe_val_bool(f8);
  if (!strcmp(p, "fp8e4nv")) return fe_val_bool(f8 && !t->is_e5m2);
  if (!strcmp(p, "fp8e5")) return fe_val_bool(f8 && t->is_e5m2);
  if (!strncmp(p, "fp8", 3)) return fe_val_bool(false); /* e4b15, e4b8, e5b16 */
  if (!strcmp(p, "void")) return fe_val_bool(false);
  /* is_int8 ... is_int64, is_uint8 ... is_uint64 */
  bool want_uns = p[0] == 'u';
  int width = atoi(p + (want_uns ? 4 : 3));
  return fe_val_bool(isint && (int)t->width == width && t->width > 1 && uns == want_uns);
}

/* Attributes of dtypes: element_ty, primitive_bitwidth, int_bitwidth,
 * scalar, shape (block types), and the is_* predicates as methods. */
fe_val fe_dtype_attr(fe_lower *l, fe_val base, const char *name, ir_loc loc) {
  const ir_type *t = base.ty;
  if (strcmp(name, "element_ty") == 0 || strcmp(name, "scalar") == 0) {
    if (ir_type_is_tensor(t)) {
      base.ty = t->elem;
      return base;
    }
    if (strcmp(name, "scalar") == 0) return base;
    if (!ir_type_is_ptr(t))
      return fe_error(l, loc, "'element_ty' of non-pointer dtype '%s'",
                      fe_type_str(l, t, base.is_unsigned));
    base.ty = t->elem;
    return base;
  }
  if (strcmp(name, "shape") == 0 && ir_type_is_tensor(t)) {
    fe_val s = fe_val_error();
    s.kind = FE_V_TUPLE;
    s.n = t->rank;
    s.items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(s.n + 1));
    for (int i = 0; i < s.n; i++)
      s.items[i] = fe_val_int(t->shape[i]);
    return s;
  }
  const ir_type *sc = ir_type_scalar(t);
  if ((strcmp(name, "primitive_bitwidth") == 0 || strcmp(name, "int_bitwidth") == 0 ||
       strcmp(name, "fp_mantissa_width") == 0) &&
      !ir_type_is_ptr(sc)) {
    if (name[0] == 'f')
      return fe_val_int(sc->width == 64   ? 52
                        : sc->width == 32 ? 23
                        : sc->width == 8  ? (sc->is_e5m2 ? 2 : 3)
                        : sc->is_bf16     ? 7
                                          : 10);
    return fe_val_int(sc->width);
  }
  if (strcmp(name, "itemsize") == 0) return fe_val_int(ir_type_bytes(sc));
  if (strcmp(name, "name") == 0) {
    fe_val s = fe_val_error();
    s.kind = FE_V_STR;
    s.path = fe_type_str(l, sc, base.is_unsigned);
    return s;
  }
  if (strncmp(name, "is_", 3) == 0) { /* dtype predicates: x.dtype.is_floating() */
    char buf[64];
    snprintf(buf, sizeof buf, "d.%s", name);
    if (fe_find_builtin(buf)) return fe_val_method(l, buf, base);
  }
  return fe_error(l, loc, "unsupported: dtype attribute '%s'", name);
}

/* tl.pointer_type(element_ty): the dtype of pointers to element_ty (for
 * int-to-pointer casts: x.to(tl.pointer_type(tl.float16))). */
fe_val fe_b_pointer_type(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                         const fe_args *args) {
  if (a[0].kind != FE_V_DTYPE || ir_type_is_tensor(a[0].ty))
    return fe_error(l, locs[0], "element_ty must be a tl dtype, found '%s'",
                    fe_val_type_str(l, &a[0]));
  fe_val d = a[0];
  d.ty = ir_type_ptr(l->ctx, a[0].ty, 1);
  return d;
}

/* tl.core.get_int_dtype(bitwidth, signed): int8 ... int64 or their unsigned kin. */
fe_val fe_b_get_int_dtype(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                          const fe_args *args) {
  if (a[0].kind != FE_V_INT ||
      (a[0].ival != 1 && a[0].ival != 8 && a[0].ival != 16 && a[0].ival != 32 && a[0].ival != 64))
    return fe_error(l, locs[0], "bitwidth must be 1, 8, 16, 32 or 64, found '%s'",
                    fe_val_type_str(l, &a[0]));
  fe_val d = fe_val_error();
  d.kind = FE_V_DTYPE;
  d.ty = ir_type_int(l->ctx, (int)a[0].ival);
  d.is_unsigned = a[0].ival > 1 && fe_const_truth(&a[1]) == 0;
  return d;
}

/* tl.dtype("fp32"): a dtype by Triton's name for it. */
fe_val fe_b_dtype_ctor(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                       const fe_args *args) {
  static const char *const short_names[][2] = {{"fp16", "float16"},       {"bf16", "bfloat16"},
                                               {"fp32", "float32"},       {"fp64", "float64"},
                                               {"fp8e4nv", "float8e4nv"}, {"fp8e5", "float8e5"}};
  if (a[0].kind == FE_V_DTYPE) return a[0];
  if (a[0].kind == FE_V_STR) {
    const char *n = a[0].path;
    for (size_t i = 0; i < sizeof short_names / sizeof short_names[0]; i++)
      if (!strcmp(n, short_names[i][0])) n = short_names[i][1];
    char path[96];
    snprintf(path, sizeof path, "triton.language.%.60s", n);
    fe_val d = fe_resolve_path(l, path);
    if (d.kind == FE_V_DTYPE) return d;
  }
  return fe_error(l, locs[0], "not a Triton dtype name: '%s'",
                  a[0].kind == FE_V_STR ? a[0].path : fe_val_type_str(l, &a[0]));
}
