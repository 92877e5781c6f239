// SPDX-License-Identifier: MIT
/* lower_arith.c - elementwise ops (arith, math, casts, tt elementwise) on
 * per-thread register arrays: register j of the result is the scalar op on
 * register j of each operand. Math follows Triton's fast paths: exp(x) is
 * ex2.approx(x * log2 e), exp2(x) ex2.approx.ftz(x), log(x) is lg2.approx(x) * ln 2, f32 divf is
 * div.full; f16/bf16 transcendental math runs in f32. */
#include <stdio.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

/* MLIR cmpi order (eq ne slt sle sgt sge ult ule ugt uge) -> LLVM. */
static const LLVMIntPredicate cmpi_map[] = {LLVMIntEQ,  LLVMIntNE,  LLVMIntSLT, LLVMIntSLE,
                                            LLVMIntSGT, LLVMIntSGE, LLVMIntULT, LLVMIntULE,
                                            LLVMIntUGT, LLVMIntUGE};
/* MLIR cmpf order (false oeq ogt oge olt ole one ord ueq ugt uge ult ule une
 * uno true) -> LLVM, whose order differs after `ord`. */
static const LLVMRealPredicate cmpf_map[] = {LLVMRealPredicateFalse,
                                             LLVMRealOEQ,
                                             LLVMRealOGT,
                                             LLVMRealOGE,
                                             LLVMRealOLT,
                                             LLVMRealOLE,
                                             LLVMRealONE,
                                             LLVMRealORD,
                                             LLVMRealUEQ,
                                             LLVMRealUGT,
                                             LLVMRealUGE,
                                             LLVMRealULT,
                                             LLVMRealULE,
                                             LLVMRealUNE,
                                             LLVMRealUNO,
                                             LLVMRealPredicateTrue};

static LLVMValueRef call1(cg *c, const char *name, LLVMTypeRef ty, LLVMValueRef x) {
  return cg_intrinsic(c, name, &ty, ty ? 1 : 0, &x, 1);
}

static LLVMValueRef call2(cg *c, const char *name, LLVMTypeRef ty, LLVMValueRef x, LLVMValueRef y) {
  LLVMValueRef a[2] = {x, y};
  return cg_intrinsic(c, name, &ty, 1, a, 2);
}

/* Transcendental f32 fast paths; f64 uses the .d intrinsics where NVVM has
 * them; narrower floats are widened to f32 and narrowed back. */
static LLVMValueRef math_op(cg *c, ir_op_kind k, const ir_type *et, LLVMValueRef x) {
  LLVMTypeRef f32 = LLVMFloatTypeInContext(c->lc), ty = cg_type(c, et);
  bool is_f64 = et->width == 64, is_narrow = et->width < 32;
  if (is_narrow) x = LLVMBuildFPExt(c->b, x, f32, "");
  LLVMTypeRef cty = is_f64 ? ty : f32;
  /* f64 transcendentals and erf come from libdevice (NVVM has no f64
   * approximations); Triton does the same. */
  static const struct {
    ir_op_kind k;
    const char *f32, *f64;
  } libdev[] = {{IR_OP_MATH_ERF, "__nv_erff", "__nv_erf"}, {IR_OP_MATH_SIN, NULL, "__nv_sin"},
                {IR_OP_MATH_COS, NULL, "__nv_cos"},        {IR_OP_MATH_EXP, NULL, "__nv_exp"},
                {IR_OP_MATH_EXP2, NULL, "__nv_exp2"},      {IR_OP_MATH_LOG, NULL, "__nv_log"},
                {IR_OP_MATH_LOG2, NULL, "__nv_log2"},      {IR_OP_MATH_RSQRT, NULL, "__nv_rsqrt"}};
  for (size_t i = 0; i < sizeof libdev / sizeof libdev[0]; i++) {
    const char *fn = is_f64 ? libdev[i].f64 : libdev[i].f32;
    if (libdev[i].k != k || !fn) continue;
    LLVMValueRef r = cg_libdevice_call(c, fn, cty, &x, 1);
    return is_narrow ? LLVMBuildFPTrunc(c->b, r, ty, "") : r;
  }
  const double log2e = 1.4426950408889634, ln2 = 0.6931471805599453;
  LLVMValueRef r = NULL;
  if (k == IR_OP_MATH_EXP) {
    x = LLVMBuildFMul(c->b, x, LLVMConstReal(cty, log2e), "");
    r = call1(c, "llvm.nvvm.ex2.approx", cty, x);
  } else if (k == IR_OP_MATH_EXP2) {
    /* Triton's exp2 is libdevice's __nv_exp2f under FTZ reflection: the
     * flush-to-zero form, one MUFU.EX2 without the denormal fix-up. */
    r = call1(c, "llvm.nvvm.ex2.approx.ftz", cty, x);
  } else if (k == IR_OP_MATH_LOG || k == IR_OP_MATH_LOG2) {
    r = call1(c, is_f64 ? "llvm.nvvm.lg2.approx.d" : "llvm.nvvm.lg2.approx.f", NULL, x);
    if (k == IR_OP_MATH_LOG) r = LLVMBuildFMul(c->b, r, LLVMConstReal(cty, ln2), "");
  } else if (k == IR_OP_MATH_RSQRT) {
    r = call1(c, is_f64 ? "llvm.nvvm.rsqrt.approx.d" : "llvm.nvvm.rsqrt.approx.f", NULL, x);
  } else if (k == IR_OP_MATH_SIN) {
    r = call1(c, "llvm.nvvm.sin.approx.f", NULL, x);
  } else if (k == IR_OP_MATH_COS) {
    r = call1(c, "llvm.nvvm.cos.approx.f", NULL, x);
  } else {
    return NULL;
  }
  return is_narrow ? LLVMBuildFPTrunc(c->b, r, ty, "") : r;
}

/* Triton compiles with fp fusion on: a*b+c may become one fma, and NVPTX
 * then prints add.f32 rather than add.rn.f32 (which would forbid ptxas to fuse). */
static LLVMValueRef contract(LLVMValueRef v) {
  if (LLVMCanValueUseFastMathFlags(v)) LLVMSetFastMathFlags(v, LLVMFastMathAllowContract);
  return v;
}

static LLVMValueRef divf(cg *c, const ir_type *et, LLVMValueRef x, LLVMValueRef y) {
  if (et->width == 32 && !et->is_bf16) {
    LLVMValueRef a[2] = {x, y};
    return cg_intrinsic(c, "llvm.nvvm.div.full", NULL, 0, a, 2);
  }
  return LLVMBuildFDiv(c->b, x, y, "");
}

static LLVMValueRef convert_fp(cg *c, LLVMValueRef x, const ir_type *from, const ir_type *to) {
  LLVMTypeRef rty = cg_type(c, to);
  if (from->width < to->width) return LLVMBuildFPExt(c->b, x, rty, "");
  if (from->width > to->width) return LLVMBuildFPTrunc(c->b, x, rty, "");
  if (from->is_bf16 == to->is_bf16) return x;
  x = LLVMBuildFPExt(c->b, x, LLVMFloatTypeInContext(c->lc), "");
  return LLVMBuildFPTrunc(c->b, x, rty, "");
}

/* tt.fp_to_fp: a narrowing with `rounding = rtz` truncates toward zero
 * (cvt.rz, as Triton's fp_downcast_rounding="rtz"); otherwise as extf /
 * truncf. fp8 goes through fp8_convert. */
static LLVMValueRef fp_to_fp(cg *c, const ir_op *op, LLVMValueRef x, const ir_type *from,
                             const ir_type *to) {
  const ir_attr *r = ir_op_get_attr(op, "rounding");
  if (!r || !r->s || strcmp(r->s, "rtz") != 0 || from->width <= to->width)
    return convert_fp(c, x, from, to);
  LLVMTypeRef f32 = LLVMFloatTypeInContext(c->lc), i16 = LLVMInt16TypeInContext(c->lc);
  /* f64 truncates to f32 first: toward zero twice is toward zero once, the
   * coarser grid being part of the finer one */
  if (from->width == 64) x = cg_asm(c, f32, "cvt.rz.f32.f64 $0, $1;", "=f,d", &x, 1, false);
  if (to->width == 32) return x;
  LLVMValueRef h =
      cg_asm(c, i16, to->is_bf16 ? "cvt.rz.bf16.f32 $0, $1;" : "cvt.rz.f16.f32 $0, $1;", "=h,f", &x,
             1, false);
  return LLVMBuildBitCast(c->b, h, cg_type(c, to), "");
}

LLVMValueRef cg_scalar_op(cg *c, const ir_op *op, LLVMValueRef *a) {
  LLVMBuilderRef b = c->b;
  const ir_type *et = ir_type_scalar(op->noperands ? op->operands[0]->type : op->results[0].type);
  const ir_type *rt = op->nresults ? ir_type_scalar(op->results[0].type) : et;
  LLVMTypeRef rty = cg_type(c, rt), ety = cg_type(c, et);
  switch (op->kind) {
  case IR_OP_ARITH_ADDI: return LLVMBuildAdd(b, a[0], a[1], "");
  case IR_OP_ARITH_SUBI: return LLVMBuildSub(b, a[0], a[1], "");
  case IR_OP_ARITH_MULI: return LLVMBuildMul(b, a[0], a[1], "");
  case IR_OP_ARITH_DIVSI: return LLVMBuildSDiv(b, a[0], a[1], "");
  case IR_OP_ARITH_DIVUI: return LLVMBuildUDiv(b, a[0], a[1], "");
  case IR_OP_ARITH_REMSI: return LLVMBuildSRem(b, a[0], a[1], "");
  case IR_OP_ARITH_REMUI: return LLVMBuildURem(b, a[0], a[1], "");
  case IR_OP_ARITH_ANDI: return LLVMBuildAnd(b, a[0], a[1], "");
  case IR_OP_ARITH_ORI: return LLVMBuildOr(b, a[0], a[1], "");
  case IR_OP_ARITH_XORI: return LLVMBuildXor(b, a[0], a[1], "");
  case IR_OP_ARITH_SHLI: return LLVMBuildShl(b, a[0], a[1], "");
  case IR_OP_ARITH_SHRSI: return LLVMBuildAShr(b, a[0], a[1], "");
  case IR_OP_ARITH_SHRUI: return LLVMBuildLShr(b, a[0], a[1], "");
  case IR_OP_ARITH_MAXSI: return call2(c, "llvm.smax", ety, a[0], a[1]);
  case IR_OP_ARITH_MINSI: return call2(c, "llvm.smin", ety, a[0], a[1]);
  case IR_OP_ARITH_MAXUI: return call2(c, "llvm.umax", ety, a[0], a[1]);
  case IR_OP_ARITH_MINUI: return call2(c, "llvm.umin", ety, a[0], a[1]);
  case IR_OP_ARITH_ADDF: return contract(LLVMBuildFAdd(b, a[0], a[1], ""));
  case IR_OP_ARITH_SUBF: return contract(LLVMBuildFSub(b, a[0], a[1], ""));
  case IR_OP_ARITH_MULF: return contract(LLVMBuildFMul(b, a[0], a[1], ""));
  case IR_OP_ARITH_DIVF: return divf(c, et, a[0], a[1]);
  case IR_OP_ARITH_REMF: return LLVMBuildFRem(b, a[0], a[1], "");
  case IR_OP_ARITH_MAXNUMF: return call2(c, "llvm.maxnum", ety, a[0], a[1]);
  case IR_OP_ARITH_MINNUMF: return call2(c, "llvm.minnum", ety, a[0], a[1]);
  case IR_OP_ARITH_MAXIMUMF: return call2(c, "llvm.maximum", ety, a[0], a[1]);
  case IR_OP_ARITH_MINIMUMF: return call2(c, "llvm.minimum", ety, a[0], a[1]);
  case IR_OP_ARITH_NEGF: return LLVMBuildFNeg(b, a[0], "");
  case IR_OP_ARITH_CMPI: {
    int64_t p = ir_op_get_int(op, "predicate", 0);
    if (p < 0 || p > IR_CMPI_UGE) return NULL;
    return LLVMBuildICmp(b, cmpi_map[p], a[0], a[1], "");
  }
  case IR_OP_ARITH_CMPF: {
    int64_t p = ir_op_get_int(op, "predicate", 0);
    if (p < 0 || p > IR_CMPF_TRUE) return NULL;
    return LLVMBuildFCmp(b, cmpf_map[p], a[0], a[1], "");
  }
  case IR_OP_ARITH_SELECT: return LLVMBuildSelect(b, a[0], a[1], a[2], "");
  case IR_OP_ARITH_EXTSI: return LLVMBuildSExt(b, a[0], rty, "");
  case IR_OP_ARITH_EXTUI: return LLVMBuildZExt(b, a[0], rty, "");
  case IR_OP_ARITH_TRUNCI: return LLVMBuildTrunc(b, a[0], rty, "");
  case IR_OP_ARITH_EXTF:
  case IR_OP_ARITH_TRUNCF: return convert_fp(c, a[0], et, rt);
  case IR_OP_TT_FP_TO_FP: return fp_to_fp(c, op, a[0], et, rt);
  case IR_OP_ARITH_SITOFP: return LLVMBuildSIToFP(b, a[0], rty, "");
  case IR_OP_ARITH_UITOFP: return LLVMBuildUIToFP(b, a[0], rty, "");
  case IR_OP_ARITH_FPTOSI: return LLVMBuildFPToSI(b, a[0], rty, "");
  case IR_OP_ARITH_FPTOUI: return LLVMBuildFPToUI(b, a[0], rty, "");
  case IR_OP_ARITH_BITCAST:
  case IR_OP_TT_BITCAST:
    if (et->kind == IR_TY_PTR && rt->kind == IR_TY_PTR)
      return et->addrspace == rt->addrspace ? a[0] : LLVMBuildAddrSpaceCast(b, a[0], rty, "");
    return LLVMBuildBitCast(b, a[0], rty, "");
  case IR_OP_TT_INT_TO_PTR: return LLVMBuildIntToPtr(b, a[0], rty, "");
  case IR_OP_TT_PTR_TO_INT:
    return LLVMBuildPtrToInt(b, a[0], rty, "");
    /* The high half of the double-width product (PTX mul.hi after O3). */
  case IR_OP_TT_MULHIUI: {
    LLVMTypeRef wide = LLVMIntTypeInContext(c->lc, et->width * 2);
    LLVMValueRef x = LLVMBuildZExt(b, a[0], wide, ""), y = LLVMBuildZExt(b, a[1], wide, "");
    LLVMValueRef p = LLVMBuildMul(b, x, y, "");
    p = LLVMBuildLShr(b, p, LLVMConstInt(wide, et->width, 0), "");
    return LLVMBuildTrunc(b, p, rty, "");
  }
  case IR_OP_TT_PRECISE_SQRT:
  case IR_OP_MATH_SQRT: return call1(c, "llvm.sqrt", ety, a[0]);
  case IR_OP_TT_PRECISE_DIVF:
    return LLVMBuildFDiv(b, a[0], a[1], "");
    /* max then min: NaN x gives min-bound semantics as Triton's default. */
  case IR_OP_TT_CLAMPF:
    return call2(c, "llvm.minnum", ety, call2(c, "llvm.maxnum", ety, a[0], a[1]), a[2]);
  case IR_OP_MATH_EXP:
  case IR_OP_MATH_EXP2:
  case IR_OP_MATH_LOG:
  case IR_OP_MATH_LOG2:
  case IR_OP_MATH_RSQRT:
  case IR_OP_MATH_SIN:
  case IR_OP_MATH_COS:
  case IR_OP_MATH_ERF: return math_op(c, op->kind, et, a[0]);
  case IR_OP_MATH_ABSF: return call1(c, "llvm.fabs", ety, a[0]);
  case IR_OP_MATH_ABSI:
    return call2(c, "llvm.abs", ety, a[0], LLVMConstInt(LLVMInt1TypeInContext(c->lc), 0, 0));
  case IR_OP_MATH_FLOOR: return call1(c, "llvm.floor", ety, a[0]);
  case IR_OP_MATH_CEIL: return call1(c, "llvm.ceil", ety, a[0]);
  case IR_OP_MATH_FMA: {
    LLVMValueRef args[3] = {a[0], a[1], a[2]};
    return cg_intrinsic(c, "llvm.fma", &ety, 1, args, 3);
  }
  case IR_OP_TT_EXTERN_ELEMENTWISE: { /* a libdevice function, typed by its operands */
    LLVMTypeRef ptys[3];
    for (int i = 0; i < op->noperands && i < 3; i++)
      ptys[i] = cg_type(c, ir_type_scalar(op->operands[i]->type));
    return cg_libdevice_call_typed(c, ir_op_get_attr(op, "symbol")->s, rty, ptys, a,
                                   (unsigned)op->noperands);
  }
  /* Not elementwise. */
  case IR_OP_MODULE:
  case IR_OP_ARITH_CONSTANT:
  case IR_OP_TT_FUNC:
  case IR_OP_TT_RETURN:
  case IR_OP_TT_GET_PROGRAM_ID:
  case IR_OP_TT_GET_NUM_PROGRAMS:
  case IR_OP_TT_MAKE_RANGE:
  case IR_OP_TT_SPLAT:
  case IR_OP_TT_BROADCAST:
  case IR_OP_TT_EXPAND_DIMS:
  case IR_OP_TT_RESHAPE:
  case IR_OP_TT_TRANS:
  case IR_OP_TT_ADDPTR:
  case IR_OP_TT_LOAD:
  case IR_OP_TT_STORE:
  case IR_OP_TT_REDUCE:
  case IR_OP_TT_REDUCE_RETURN:
  case IR_OP_TT_SCAN:
  case IR_OP_TT_SCAN_RETURN:
  case IR_OP_TT_DOT:
  case IR_OP_TT_ATOMIC_RMW:
  case IR_OP_TT_ATOMIC_CAS:
  case IR_OP_TT_JOIN:
  case IR_OP_TT_SPLIT:
  case IR_OP_TT_ASSERT:
  case IR_OP_TT_PRINT:
  case IR_OP_SCF_FOR:
  case IR_OP_SCF_WHILE:
  case IR_OP_SCF_CONDITION:
  case IR_OP_SCF_IF:
  case IR_OP_SCF_YIELD:
  case IR_OP_TTG_CONVERT_LAYOUT:
  case IR_NUM_OPS:
  case IR_OP_TTG_LOCAL_ALLOC:
  case IR_OP_TTG_LOCAL_LOAD:
  case IR_OP_TTG_LOCAL_STORE:
  case IR_OP_TTG_LOCAL_DEALLOC:
  case IR_OP_TTG_MEMDESC_TRANS:
  case IR_OP_TTG_MEMDESC_INDEX:
  case IR_OP_TTG_ASYNC_COPY:
  case IR_OP_TTG_ASYNC_COMMIT_GROUP:
  case IR_OP_TTG_ASYNC_WAIT:
  case IR_OP_TTNG_WARP_GROUP_DOT:
  case IR_OP_TTNG_WARP_GROUP_DOT_WAIT:
  case IR_OP_TTNG_FENCE_ASYNC_SHARED:
  case IR_OP_GPU_BARRIER: return NULL;
  }
  return NULL;
}

/* f32 -> f16 / bf16 two registers at a time with cvt.rn.f16x2.f32 (as
 * Triton): scalar conversions of wgmma accumulators make ptxas serialize
 * the wgmmas (its C7514 "non wgmma instructions reading accumulator
 * registers"); the packed form does not. */
static bool truncf_pairs(cg *c, const ir_op *op, cg_vals in, cg_vals r) {
  const ir_type *from = ir_type_scalar(op->operands[0]->type);
  const ir_type *to = ir_type_scalar(op->results[0].type);
  if (op->kind != IR_OP_ARITH_TRUNCF || from->width != 32 || to->width != 16 || in.n != r.n ||
      r.n % 2)
    return false;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c->lc), ety = cg_type(c, to);
  const char *code = to->is_bf16 ? "cvt.rn.bf16x2.f32 $0, $2, $1;" : "cvt.rn.f16x2.f32 $0, $2, $1;";
  for (int j = 0; j < r.n; j += 2) {
    LLVMValueRef args[2] = {in.v[j], in.v[j + 1]};
    LLVMValueRef w = cg_asm(c, i32, code, "=r,f,f", args, 2, false);
    LLVMValueRef v = LLVMBuildBitCast(c->b, w, LLVMVectorType(ety, 2), "");
    r.v[j] = LLVMBuildExtractElement(c->b, v, cg_i32(c, 0), "");
    r.v[j + 1] = LLVMBuildExtractElement(c->b, v, cg_i32(c, 1), "");
  }
  return true;
}

/* fp8 <-> other floats two registers at a time, as Triton on sm_89+:
 * cvt.rn.f16x2.{e4m3,e5m2}x2 widens to f16 (exact; then to f32, bf16, f64
 * exactly), cvt.rn.satfinite.{e4m3,e5m2}x2.f32 narrows from f32 (f16 and
 * bf16 widen to f32 first, exactly). f64 -> fp8 is refused: it would round
 * twice. fp8 registers are i8 (their bits). */
static bool fp8_convert(cg *c, const ir_op *op, cg_vals in, cg_vals r) {
  const ir_type *from = ir_type_scalar(op->operands[0]->type);
  const ir_type *to = ir_type_scalar(op->results[0].type);
  bool widen = ir_type_is_fp8(from);
  const ir_type *f8 = widen ? from : to;
  if (ttg_module_options(c->im).compute_capability < 89) {
    ir_error(c->ictx, op->loc, "fp8 conversions need sm_89 or newer (compiling for sm_%d)",
             ttg_module_options(c->im).compute_capability);
    return false;
  }
  const ir_attr *rnd = ir_op_get_attr(op, "rounding");
  if ((!widen && from->width == 64) || (rnd && rnd->s && strcmp(rnd->s, "rtz") == 0)) {
    ir_error(c->ictx, op->loc,
             "unsupported fp8 conversion (fp8 converts to and from f16, bf16 and f32, rounding to "
             "nearest even)");
    return false;
  }
  const char *fmt = f8->is_e5m2 ? "e5m2" : "e4m3";
  LLVMTypeRef i8 = LLVMInt8TypeInContext(c->lc), i16 = LLVMInt16TypeInContext(c->lc);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c->lc), f32 = LLVMFloatTypeInContext(c->lc);
  LLVMTypeRef half = LLVMHalfTypeInContext(c->lc), rty = cg_type(c, to);
  char code[96];
  for (int j = 0; j < r.n; j += 2) {
    bool pair = j + 1 < r.n;
    LLVMValueRef x0 = in.v[in.n == 1 ? 0 : j], x1 = pair ? in.v[in.n == 1 ? 0 : j + 1] : NULL;
    if (widen) {
      LLVMValueRef v = LLVMGetUndef(LLVMVectorType(i8, 2));
      v = LLVMBuildInsertElement(c->b, v, x0, cg_i32(c, 0), "");
      v = LLVMBuildInsertElement(c->b, v, pair ? x1 : LLVMConstInt(i8, 0, 0), cg_i32(c, 1), "");
      LLVMValueRef arg = LLVMBuildBitCast(c->b, v, i16, "");
      snprintf(code, sizeof code, "cvt.rn.f16x2.%sx2 $0, $1;", fmt);
      LLVMValueRef w = cg_asm(c, i32, code, "=r,h", &arg, 1, false);
      LLVMValueRef h2 = LLVMBuildBitCast(c->b, w, LLVMVectorType(half, 2), "");
      for (int k = 0; k < (pair ? 2 : 1); k++) {
        LLVMValueRef h = LLVMBuildExtractElement(c->b, h2, cg_i32(c, k), "");
        if (to->width == 16 && !to->is_bf16)
          r.v[j + k] = h;
        else if (to->is_bf16)
          r.v[j + k] = LLVMBuildFPTrunc(c->b, LLVMBuildFPExt(c->b, h, f32, ""), rty, "");
        else
          r.v[j + k] = LLVMBuildFPExt(c->b, h, rty, "");
      }
      continue;
    }
    LLVMValueRef args[2] = {x0, pair ? x1 : x0};
    for (int k = 0; k < 2; k++)
      if (from->width != 32) args[k] = LLVMBuildFPExt(c->b, args[k], f32, "");
    snprintf(code, sizeof code, "cvt.rn.satfinite.%sx2.f32 $0, $2, $1;", fmt);
    LLVMValueRef w = cg_asm(c, i16, code, "=h,f,f", args, 2, false);
    LLVMValueRef v = LLVMBuildBitCast(c->b, w, LLVMVectorType(i8, 2), "");
    r.v[j] = LLVMBuildExtractElement(c->b, v, cg_i32(c, 0), "");
    if (pair) r.v[j + 1] = LLVMBuildExtractElement(c->b, v, cg_i32(c, 1), "");
  }
  return true;
}

/* Elementwise work on fp8 values other than conversions and selects: Triton
 * types `fp8 op fp8` as fp8, which no GPU computes in. */
static bool fp8_unsupported(const ir_op *op) {
  if (op->kind == IR_OP_TT_BITCAST || op->kind == IR_OP_ARITH_SELECT ||
      op->kind == IR_OP_ARITH_BITCAST)
    return false;
  for (int i = 0; i < op->noperands; i++)
    if (ir_type_is_fp8(op->operands[i]->type)) return true;
  return op->nresults && ir_type_is_fp8(op->results[0].type);
}

/* Register bits that leave an elementwise result unchanged (Triton's
 * maybeDeduplicate): where the axis analysis finds the result constant over
 * aligned runs of constancy[d] elements along dim d, a register bit whose
 * layout basis moves only along such a dim, by less than the run (or not at
 * all), lands in the same run. A masked load's K predicate `rk < K - k * BK`
 * with K % 16 == 0 is one compare per 16 rows, not per row. */
static uint32_t dup_reg_bits(cg *c, const ir_op *op, const ttg_ll *ll) {
  if (ttg_ll_num_regs(ll) < 2 || !c->axis) return 0;
  ir_axis_info ai = ir_axis_get(c->axis, &op->results[0]);
  if (ai.rank != ll->nout) return 0;
  uint32_t mask = 0;
  for (int b = 0; b < ll->nbits[TTG_IN_REG] && b < 32; b++) {
    bool same = true;
    int moved = 0;
    for (int d = 0; d < ll->nout; d++) {
      int32_t v = ll->basis[TTG_IN_REG][b][d];
      if (!v) continue;
      if (++moved > 1 || v < 0 || (v & (v - 1)) || v >= ai.constancy[d]) same = false;
    }
    if (same && moved <= 1) mask |= 1u << b;
  }
  return mask;
}

bool cg_lower_elementwise(cg *c, ir_op *op) {
  cg_vals in[3];
  if (op->noperands > 3) return cg_unsupported(c, op);
  for (int i = 0; i < op->noperands; i++)
    if (!cg_get(c, op, i, &in[i])) return false;
  /* the result's layout, once: its registers and their runs of equal values */
  const ir_type *rt = op->results[0].type;
  ttg_ll ll;
  bool tensor = ir_type_is_tensor(rt);
  if (tensor && !cg_ll_of(c, rt, op->loc, &ll)) return false;
  int64_t n = tensor ? ttg_ll_num_regs(&ll) : 1;
  cg_vals r = cg_vals_new(c, (int)n);
  if (op->kind == IR_OP_TT_FP_TO_FP &&
      ir_type_is_fp8(op->operands[0]->type) != ir_type_is_fp8(op->results[0].type)) {
    if (!fp8_convert(c, op, in[0], r)) return false;
    cg_map_set(c, &op->results[0], r);
    return true;
  }
  if (fp8_unsupported(op)) {
    ir_error(
        c->ictx, op->loc,
        "unsupported: '%s' on fp8 values; convert them to a wider float first (x.to(tl.float16))",
        ir_op_name(op));
    return false;
  }
  if (op->noperands == 1 && truncf_pairs(c, op, in[0], r)) {
    cg_map_set(c, &op->results[0], r);
    return true;
  }
  uint32_t dup = tensor ? dup_reg_bits(c, op, &ll) : 0;
  for (int64_t j = 0; j < n; j++) {
    if ((uint32_t)j & dup) { /* the same value as a register computed before */
      r.v[j] = r.v[(uint32_t)j & ~dup];
      continue;
    }
    LLVMValueRef args[3];
    for (int i = 0; i < op->noperands; i++)
      args[i] = in[i].v[in[i].n == 1 ? 0 : j];
    r.v[j] = cg_scalar_op(c, op, args);
    if (!r.v[j]) return cg_unsupported(c, op);
  }
  cg_map_set(c, &op->results[0], r);
  return true;
}
