/* lower_libdevice.c - tl.extra.cuda.libdevice (and tl.math) functions by
 * name, as Triton's libdevice module spells them: each becomes a
 * tt.extern_elementwise call of the libdevice symbol for its operand type
 * (tanh on fp32 -> __nv_tanhf, on fp64 -> __nv_tanh), which codegen links
 * from libdevice.10.bc and the interpreter computes with libm.
 *
 * fp16 / bf16 operands compute in fp32 and round back; integer operands of
 * float functions convert to fp32, as Triton's math does. */
#include <stdio.h>
#include <string.h>

#include "frontend/lower_impl.h"

/* How a name maps to symbols and types. */
typedef enum ld_kind {
  LD_F,     /* float math: __nv_NAMEf (fp32), __nv_NAME (fp64); result = operand type */
  LD_PRED,  /* float predicate: __nv_NAMEf / __nv_NAMEd, i32 result */
  LD_FI,    /* (float, int32): __nv_NAMEf / __nv_NAME */
  LD_FAST,  /* fp32 only, the symbol is __nv_NAME (fast_expf) */
  LD_INT,   /* integer: __nv_NAME on i32, __nv_NAMEll on i64 (clz, popc, ffs, brev) */
  LD_ROUND, /* rounded arithmetic: __nv_f/dOP_RM (div_rn -> __nv_fdiv_rn) */
  LD_CONV   /* conversions by exact symbol (float2int_rn): result type from the name */
} ld_kind;

typedef struct ld_fn {
  const char *name;
  ld_kind kind;
  int nargs;
} ld_fn;

static const ld_fn ld_fns[] = {
    /* one float argument */
    {"abs", LD_F, 1},
    {"fabs", LD_F, 1},
    {"ceil", LD_F, 1},
    {"floor", LD_F, 1},
    {"trunc", LD_F, 1},
    {"round", LD_F, 1},
    {"rint", LD_F, 1},
    {"nearbyint", LD_F, 1},
    {"sqrt", LD_F, 1},
    {"rsqrt", LD_F, 1},
    {"cbrt", LD_F, 1},
    {"rcbrt", LD_F, 1},
    {"exp", LD_F, 1},
    {"exp2", LD_F, 1},
    {"exp10", LD_F, 1},
    {"expm1", LD_F, 1},
    {"log", LD_F, 1},
    {"log2", LD_F, 1},
    {"log10", LD_F, 1},
    {"log1p", LD_F, 1},
    {"logb", LD_F, 1},
    {"sin", LD_F, 1},
    {"cos", LD_F, 1},
    {"tan", LD_F, 1},
    {"sinpi", LD_F, 1},
    {"cospi", LD_F, 1},
    {"asin", LD_F, 1},
    {"acos", LD_F, 1},
    {"atan", LD_F, 1},
    {"sinh", LD_F, 1},
    {"cosh", LD_F, 1},
    {"tanh", LD_F, 1},
    {"asinh", LD_F, 1},
    {"acosh", LD_F, 1},
    {"atanh", LD_F, 1},
    {"erf", LD_F, 1},
    {"erfc", LD_F, 1},
    {"erfinv", LD_F, 1},
    {"erfcinv", LD_F, 1},
    {"erfcx", LD_F, 1},
    {"normcdf", LD_F, 1},
    {"normcdfinv", LD_F, 1},
    {"lgamma", LD_F, 1},
    {"tgamma", LD_F, 1},
    {"j0", LD_F, 1},
    {"j1", LD_F, 1},
    {"y0", LD_F, 1},
    {"y1", LD_F, 1},
    {"cyl_bessel_i0", LD_F, 1},
    {"cyl_bessel_i1", LD_F, 1},
    {"saturate", LD_F, 1},
    {"rcp", LD_F, 1},
    /* two and three float arguments */
    {"pow", LD_F, 2},
    {"atan2", LD_F, 2},
    {"hypot", LD_F, 2},
    {"rhypot", LD_F, 2},
    {"fmod", LD_F, 2},
    {"remainder", LD_F, 2},
    {"fmax", LD_F, 2},
    {"fmin", LD_F, 2},
    {"fdim", LD_F, 2},
    {"copysign", LD_F, 2},
    {"nextafter", LD_F, 2},
    {"fma", LD_F, 3},
    {"norm3d", LD_F, 3},
    {"rnorm3d", LD_F, 3},
    /* predicates and (float, int) */
    {"isnan", LD_PRED, 1},
    {"isinf", LD_PRED, 1},
    {"signbit", LD_PRED, 1},
    {"finite", LD_PRED, 1},
    {"isfinited", LD_PRED, 1},
    {"ilogb", LD_PRED, 1},
    {"ldexp", LD_FI, 2},
    {"scalbn", LD_FI, 2},
    {"powi", LD_FI, 2},
    /* fp32 fast approximations */
    {"fast_expf", LD_FAST, 1},
    {"fast_exp10f", LD_FAST, 1},
    {"fast_logf", LD_FAST, 1},
    {"fast_log2f", LD_FAST, 1},
    {"fast_log10f", LD_FAST, 1},
    {"fast_sinf", LD_FAST, 1},
    {"fast_cosf", LD_FAST, 1},
    {"fast_tanf", LD_FAST, 1},
    {"fast_tanhf", LD_FAST, 1},
    {"fast_powf", LD_FAST, 2},
    {"fast_fdividef", LD_FAST, 2},
    /* integers */
    {"clz", LD_INT, 1},
    {"popc", LD_INT, 1},
    {"ffs", LD_INT, 1},
    {"brev", LD_INT, 1},
    {"mulhi", LD_INT, 2},
    {"umulhi", LD_INT, 2},
    {"mul24", LD_INT, 2},
    {"umul24", LD_INT, 2},
    {"hadd", LD_INT, 2},
    {"rhadd", LD_INT, 2},
    {"uhadd", LD_INT, 2},
    {"urhadd", LD_INT, 2},
    /* rounded arithmetic */
    {"div_rn", LD_ROUND, 2},
    {"div_rz", LD_ROUND, 2},
    {"div_rd", LD_ROUND, 2},
    {"div_ru", LD_ROUND, 2},
    {"add_rn", LD_ROUND, 2},
    {"add_rz", LD_ROUND, 2},
    {"add_rd", LD_ROUND, 2},
    {"add_ru", LD_ROUND, 2},
    {"mul_rn", LD_ROUND, 2},
    {"mul_rz", LD_ROUND, 2},
    {"mul_rd", LD_ROUND, 2},
    {"mul_ru", LD_ROUND, 2},
    {"sqrt_rn", LD_ROUND, 1},
    {"sqrt_rz", LD_ROUND, 1},
    {"sqrt_rd", LD_ROUND, 1},
    {"sqrt_ru", LD_ROUND, 1},
    {"rcp_rn", LD_ROUND, 1},
    {"rcp_rz", LD_ROUND, 1},
    {"rcp_rd", LD_ROUND, 1},
    {"rcp_ru", LD_ROUND, 1},
    /* conversions and reinterpretations */
    {"float2int_rn", LD_CONV, 1},
    {"float2int_rz", LD_CONV, 1},
    {"float2int_rd", LD_CONV, 1},
    {"float2int_ru", LD_CONV, 1},
    {"float2uint_rn", LD_CONV, 1},
    {"float2uint_rz", LD_CONV, 1},
    {"float2ll_rn", LD_CONV, 1},
    {"float2ll_rz", LD_CONV, 1},
    {"int2float_rn", LD_CONV, 1},
    {"int2float_rz", LD_CONV, 1},
    {"uint2float_rn", LD_CONV, 1},
    {"ll2float_rn", LD_CONV, 1},
    {"double2float_rn", LD_CONV, 1},
    {"double2float_rz", LD_CONV, 1},
    {"double2int_rn", LD_CONV, 1},
    {"double2int_rz", LD_CONV, 1},
    {"double2ll_rn", LD_CONV, 1},
    {"int2double_rn", LD_CONV, 1},
    {"ll2double_rn", LD_CONV, 1},
    {"float_as_int", LD_CONV, 1},
    {"int_as_float", LD_CONV, 1},
    {"float_as_uint", LD_CONV, 1},
    {"uint_as_float", LD_CONV, 1},
    {"double_as_longlong", LD_CONV, 1},
    {"longlong_as_double", LD_CONV, 1},
    {"llrint", LD_CONV, 1},
    {"llround", LD_CONV, 1},
};

static const ld_fn *find_ld(const char *name) {
  for (size_t i = 0; i < sizeof ld_fns / sizeof ld_fns[0]; i++)
    if (strcmp(ld_fns[i].name, name) == 0) return &ld_fns[i];
  return NULL;
}

bool fe_is_libdevice_name(const char *name) { return find_ld(name) != NULL; }

/* The result type of a conversion from its name: "...2int" i32, "...2ll"
 * i64, "...2float" f32, "...2double" f64, "X_as_Y" by Y. */
static const ir_type *conv_result(fe_lower *l, const char *name, bool *uns) {
  const char *to = strstr(name, "_as_");
  to = to ? to + 4 : strchr(name, '2') ? strchr(name, '2') + 1 : name;
  *uns = strncmp(to, "uint", 4) == 0 || strncmp(to, "ull", 3) == 0;
  if (!strncmp(to, "int", 3) || !strncmp(to, "uint", 4)) return ir_type_i32(l->ctx);
  if (!strncmp(to, "ll", 2) || !strncmp(to, "ull", 3) || !strncmp(to, "longlong", 8) ||
      !strcmp(name, "llrint") || !strcmp(name, "llround"))
    return ir_type_i64(l->ctx);
  if (!strncmp(to, "double", 6)) return ir_type_f64(l->ctx);
  return ir_type_f32(l->ctx);
}

fe_val fe_call_libdevice(fe_lower *l, const char *name, const fe_args *args) {
  const ld_fn *fn = find_ld(name);
  if (!fn) return fe_error(l, args->loc, "unsupported: libdevice function '%s'", name);
  if (args->nkw || args->n != fn->nargs)
    return fe_error(l, args->loc, "libdevice '%s' takes %d positional argument%s, found %d", name,
                    fn->nargs, fn->nargs == 1 ? "" : "s", args->n + args->nkw);
  fe_val v[3];
  for (int i = 0; i < fn->nargs; i++) {
    v[i] = args->pos[i];
    if (!fe_want_tensor(l, &v[i], args->pos_loc[i])) return fe_val_error();
  }
  for (int i = 1; i < fn->nargs; i++)
    if (!fe_broadcast_pair(l, &v[0], &v[i], args->loc)) return fe_val_error();
  for (int i = 1; i < fn->nargs; i++) /* after i broadcast, v[0] may have grown */
    if (!fe_broadcast_pair(l, &v[0], &v[i], args->loc)) return fe_val_error();
  const ir_type *et = ir_type_scalar(v[0].v->type), *f32 = ir_type_f32(l->ctx);
  const ir_type *orig = et;
  bool is_int_fn = fn->kind == LD_INT || (fn->kind == LD_CONV && et->kind == IR_TY_INT);
  if (!is_int_fn && fn->kind != LD_CONV) {
    /* float functions: ints and narrow floats compute in fp32 */
    const ir_type *ct = et->kind == IR_TY_FLOAT && et->width == 64 ? et : f32;
    if (fn->kind == LD_FAST) ct = f32;
    for (int i = 0; i < fn->nargs; i++) {
      if (fn->kind == LD_FI && i == 1)
        v[i] = fe_cast(l, v[i], ir_type_i32(l->ctx), false, args->loc);
      else
        v[i] = fe_cast(l, v[i], ct, false, args->loc);
      if (v[i].kind == FE_V_ERROR) return v[i];
    }
    et = ct;
  }
  char sym[96];
  bool is64 = et->width == 64, uns = false;
  const ir_type *rt = et;
  switch (fn->kind) {
  case LD_F:
  case LD_FI: snprintf(sym, sizeof sym, "__nv_%s%s", name, is64 ? "" : "f"); break;
  case LD_PRED:
    if (!strcmp(name, "finite") || !strcmp(name, "isfinited"))
      snprintf(sym, sizeof sym, is64 ? "__nv_isfinited" : "__nv_finitef");
    else if (!strcmp(name, "ilogb"))
      snprintf(sym, sizeof sym, "__nv_ilogb%s", is64 ? "" : "f");
    else
      snprintf(sym, sizeof sym, "__nv_%s%s", name, is64 ? "d" : "f");
    rt = ir_type_i32(l->ctx);
    break;
  case LD_FAST: snprintf(sym, sizeof sym, "__nv_%s", name); break;
  case LD_INT:
    if (et->kind != IR_TY_INT || (et->width != 32 && et->width != 64))
      return fe_error(l, args->pos_loc[0],
                      "libdevice '%s' needs 32- or 64-bit integers, found '%s'", name,
                      fe_val_type_str(l, &v[0]));
    if (!strcmp(name, "mulhi") || !strcmp(name, "umulhi"))
      snprintf(sym, sizeof sym, "__nv_%s", is64 ? (name[0] == 'u' ? "umul64hi" : "mul64hi") : name);
    else
      snprintf(sym, sizeof sym, "__nv_%s%s", name, is64 ? "ll" : "");
    if (!strcmp(name, "clz") || !strcmp(name, "popc") || !strcmp(name, "ffs"))
      rt = ir_type_i32(l->ctx);
    uns = v[0].is_unsigned;
    break;
  case LD_ROUND: {
    const char *us = strchr(name, '_');
    snprintf(sym, sizeof sym, "__nv_%c%.*s%s", is64 ? 'd' : 'f', (int)(us - name), name, us);
    break;
  }
  case LD_CONV:
    snprintf(sym, sizeof sym, "__nv_%s", name);
    rt = conv_result(l, name, &uns);
    break;
  }
  const ir_type *rty =
      ir_type_is_tensor(v[0].v->type) ? ir_type_with_elem(l->ctx, v[0].v->type, rt) : rt;
  ir_value *ops[3] = {v[0].v, fn->nargs > 1 ? v[1].v : NULL, fn->nargs > 2 ? v[2].v : NULL};
  l->b.loc = args->loc;
  ir_value *r = ir_build1(&l->b, IR_OP_TT_EXTERN_ELEMENTWISE, rty, fn->nargs, ops);
  ir_op_set_attr(l->m, r->def, "libname", ir_attr_string(l->ctx, ""));
  ir_op_set_attr(l->m, r->def, "libpath", ir_attr_string(l->ctx, ""));
  ir_op_set_attr(l->m, r->def, "pure", ir_attr_bool(l->ctx, true));
  ir_op_set_attr(l->m, r->def, "symbol", ir_attr_string(l->ctx, sym));
  fe_val res = fe_val_tensor(r, uns);
  /* fp16 / bf16 in, the same type out */
  if (rt->kind == IR_TY_FLOAT && orig->kind == IR_TY_FLOAT && orig->width < 32 &&
      fn->kind != LD_CONV)
    res = fe_cast(l, res, orig, false, args->loc);
  return res;
}
