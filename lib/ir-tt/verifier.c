/* verifier.c - structural checks between passes.
 *
 * Checks arity against ops.def, region counts and terminators of the
 * region-holding ops, operand and result types of the ops that define them,
 * tensor shape agreement of elementwise ops, and that every operand is
 * defined before its use in the same block or an enclosing one. Errors are
 * located at the op and phrased as MLIR's: `'arith.addi' op ...`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir-tt/ir.h"

typedef struct verifier {
  ir_context *ctx;
  /* Values visible at the current point: a stack, popped when a block ends. */
  const ir_value **visible;
  size_t nvisible, cap;
  bool ok;
} verifier;

static void v_error(verifier *vf, const ir_op *op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Emits "'<op name>' op <message>" at the op's location. */
static void v_error(verifier *vf, const ir_op *op, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ir_error(vf->ctx, op->loc, "'%s' op %s", ir_op_name(op), msg);
  vf->ok = false;
}
#define V_ERR(vf, op, msg) v_error((vf), (op), "%s", msg)

static void push_visible(verifier *vf, const ir_value *v) {
  if (vf->nvisible == vf->cap) {
    vf->cap = vf->cap ? vf->cap * 2 : 256;
    vf->visible = realloc(vf->visible, vf->cap * sizeof *vf->visible);
    if (!vf->visible) IR_UNREACHABLE("out of memory in the verifier");
  }
  vf->visible[vf->nvisible++] = v;
}

/* Linear from the top of the stack: recent definitions are the common uses.
 * Kernels hold a few thousand values, so this stays cheap. */
static bool is_visible(const verifier *vf, const ir_value *v) {
  for (size_t i = vf->nvisible; i-- > 0;)
    if (vf->visible[i] == v) return true;
  return false;
}

static bool same_shape(const ir_type *a, const ir_type *b) {
  if (ir_type_is_tensor(a) != ir_type_is_tensor(b)) return false;
  if (!ir_type_is_tensor(a)) return true;
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i]) return false;
  return true;
}

/* Operands and results of an elementwise op: same shape and encoding. The
 * condition of arith.select may be a scalar. */
static void check_elementwise(verifier *vf, const ir_op *op) {
  const ir_type *ref = NULL;
  int n = op->noperands + op->nresults;
  for (int i = 0; i < n; i++) {
    const ir_value *v = i < op->noperands ? op->operands[i] : &op->results[i - op->noperands];
    if (!v) continue;
    if (op->kind == IR_OP_ARITH_SELECT && i == 0 && !ir_type_is_tensor(v->type)) continue;
    if (!ref) {
      ref = v->type;
    } else if (!same_shape(ref, v->type)) {
      V_ERR(vf, op, "requires the same shape for all operands and results");
      return;
    } else if (ir_type_is_tensor(ref) && ref->layout != v->type->layout) {
      V_ERR(vf, op, "requires the same encoding for all operands and results");
      return;
    }
  }
}

/* Binary ops whose operands and result all have one type. */
static void check_same_types(verifier *vf, const ir_op *op) {
  for (int i = 0; i < op->noperands; i++) {
    if (op->operands[i] && op->operands[i]->type != op->results[0].type) {
      v_error(vf, op, "requires all operands and results to have the same type, operand #%d "
                      "differs", i);
      return;
    }
  }
}

static void check_terminator(verifier *vf, const ir_op *op, const ir_region *r, ir_op_kind want) {
  for (const ir_block *b = r->first; b; b = b->next) {
    if (!b->last || b->last->kind != want)
      v_error(vf, op, "expects its region to end with '%s'", ir_op_kind_info(want)->name);
  }
}

static int64_t numel_of(const ir_type *t) {
  int64_t n = 1;
  for (int i = 0; ir_type_is_tensor(t) && i < t->rank; i++) n *= t->shape[i];
  return n;
}

static bool is_i1(const ir_type *t) {
  const ir_type *s = ir_type_scalar(t);
  return s->kind == IR_TY_INT && s->width == 1;
}

/* The "axis" of a reduce or scan names a dimension of its operand. */
static void check_axis(verifier *vf, const ir_op *op, const ir_value *x) {
  int rank = ir_type_is_tensor(x->type) ? x->type->rank : 0;
  int64_t axis = ir_op_get_int(op, "axis", 0);
  if (axis < 0 || axis >= rank)
    v_error(vf, op, "axis %lld is out of range for an operand of rank %d", (long long)axis, rank);
}

/* Shape ops: the result shape must follow from the operand's, since codegen
 * and the interpreter index with these shapes (and the trans order). */
static void check_shape_op(verifier *vf, const ir_op *op) {
  const ir_type *in = op->operands[0]->type, *out = op->results[0].type;
  if (!ir_type_is_tensor(in) || !ir_type_is_tensor(out)) {
    V_ERR(vf, op, "requires tensor operand and result");
    return;
  }
  if (ir_type_scalar(in) != ir_type_scalar(out)) {
    V_ERR(vf, op, "requires the operand's element type in the result");
    return;
  }
  switch (op->kind) {
  case IR_OP_TT_BROADCAST:
    if (in->rank != out->rank) {
      V_ERR(vf, op, "requires operand and result of one rank");
      return;
    }
    for (int i = 0; i < in->rank; i++)
      if (in->shape[i] != out->shape[i] && in->shape[i] != 1)
        v_error(vf, op, "cannot broadcast dimension %d from %lld to %lld", i,
                (long long)in->shape[i], (long long)out->shape[i]);
    return;
  case IR_OP_TT_EXPAND_DIMS: {
    int64_t axis = ir_op_get_int(op, "axis", 0);
    bool ok = out->rank == in->rank + 1 && axis >= 0 && axis <= in->rank && out->shape[axis] == 1;
    for (int i = 0, j = 0; ok && i < out->rank; i++)
      if (i != axis && out->shape[i] != in->shape[j++]) ok = false;
    if (!ok) V_ERR(vf, op, "result must be the operand's shape with a 1 inserted at 'axis'");
    return;
  }
  case IR_OP_TT_RESHAPE:
    if (numel_of(in) != numel_of(out)) V_ERR(vf, op, "requires as many elements in the result");
    return;
  case IR_OP_TT_TRANS: {
    const ir_attr *ord = ir_op_get_attr(op, "order");
    bool ok = ord && ord->kind == IR_ATTR_ARRAY && ord->n == in->rank && out->rank == in->rank;
    unsigned seen = 0;
    for (int i = 0; ok && i < in->rank; i++) {
      int64_t k = ord->ints[i];
      ok = k >= 0 && k < in->rank && !((seen >> k) & 1u) && out->shape[i] == in->shape[k];
      if (ok) seen |= 1u << k;
    }
    if (!ok) V_ERR(vf, op,
                   "requires an 'order' permuting the operand's dimensions into the result");
    return;
  }
  case IR_OP_MODULE: case IR_OP_ARITH_ADDI: case IR_OP_ARITH_SUBI: case IR_OP_ARITH_MULI:
  case IR_OP_ARITH_DIVSI: case IR_OP_ARITH_DIVUI: case IR_OP_ARITH_REMSI: case IR_OP_ARITH_REMUI:
  case IR_OP_ARITH_ANDI: case IR_OP_ARITH_ORI: case IR_OP_ARITH_XORI: case IR_OP_ARITH_SHLI:
  case IR_OP_ARITH_SHRSI: case IR_OP_ARITH_SHRUI: case IR_OP_ARITH_MAXSI: case IR_OP_ARITH_MINSI:
  case IR_OP_ARITH_MAXUI: case IR_OP_ARITH_MINUI: case IR_OP_ARITH_ADDF: case IR_OP_ARITH_SUBF:
  case IR_OP_ARITH_MULF: case IR_OP_ARITH_DIVF: case IR_OP_ARITH_REMF: case IR_OP_ARITH_MAXNUMF:
  case IR_OP_ARITH_MINNUMF: case IR_OP_ARITH_MAXIMUMF: case IR_OP_ARITH_MINIMUMF:
  case IR_OP_ARITH_NEGF: case IR_OP_ARITH_CMPI: case IR_OP_ARITH_CMPF: case IR_OP_ARITH_SELECT:
  case IR_OP_ARITH_CONSTANT: case IR_OP_ARITH_EXTSI: case IR_OP_ARITH_EXTUI:
  case IR_OP_ARITH_TRUNCI: case IR_OP_ARITH_EXTF: case IR_OP_ARITH_TRUNCF:
  case IR_OP_ARITH_SITOFP: case IR_OP_ARITH_UITOFP: case IR_OP_ARITH_FPTOSI:
  case IR_OP_ARITH_FPTOUI: case IR_OP_ARITH_BITCAST: case IR_OP_MATH_EXP: case IR_OP_MATH_EXP2:
  case IR_OP_MATH_LOG: case IR_OP_MATH_LOG2: case IR_OP_MATH_SQRT: case IR_OP_MATH_RSQRT:
  case IR_OP_MATH_ABSF: case IR_OP_MATH_ABSI: case IR_OP_MATH_SIN: case IR_OP_MATH_COS:
  case IR_OP_MATH_ERF: case IR_OP_MATH_FLOOR: case IR_OP_MATH_CEIL: case IR_OP_MATH_FMA:
  case IR_OP_TT_FUNC: case IR_OP_TT_RETURN: case IR_OP_TT_GET_PROGRAM_ID:
  case IR_OP_TT_GET_NUM_PROGRAMS: case IR_OP_TT_MAKE_RANGE: case IR_OP_TT_SPLAT:
  case IR_OP_TT_ADDPTR: case IR_OP_TT_LOAD: case IR_OP_TT_STORE: case IR_OP_TT_BITCAST:
  case IR_OP_TT_INT_TO_PTR: case IR_OP_TT_PTR_TO_INT: case IR_OP_TT_FP_TO_FP:
  case IR_OP_TT_MULHIUI: case IR_OP_TT_PRECISE_SQRT: case IR_OP_TT_PRECISE_DIVF:
  case IR_OP_TT_CLAMPF: case IR_OP_TT_REDUCE: case IR_OP_TT_REDUCE_RETURN: case IR_OP_TT_SCAN:
  case IR_OP_TT_SCAN_RETURN: case IR_OP_TT_DOT: case IR_OP_TT_ATOMIC_RMW:
  case IR_OP_TT_ATOMIC_CAS: case IR_OP_TT_JOIN: case IR_OP_TT_SPLIT: case IR_OP_TT_ASSERT:
  case IR_OP_TT_PRINT: case IR_OP_SCF_FOR: case IR_OP_SCF_IF: case IR_OP_SCF_WHILE:
  case IR_OP_SCF_CONDITION: case IR_OP_SCF_YIELD: case IR_OP_TTG_CONVERT_LAYOUT:
  case IR_OP_TT_EXTERN_ELEMENTWISE: case IR_OP_GPU_BARRIER: case IR_NUM_OPS:
    return; /* not a shape op */
  }
}

/* Per-kind checks beyond arity and traits. */
static void check_kind(verifier *vf, const ir_op *op) {
  ir_value *const *o = op->operands;
  switch (op->kind) {
  case IR_OP_ARITH_ADDI: case IR_OP_ARITH_SUBI: case IR_OP_ARITH_MULI: case IR_OP_ARITH_DIVSI:
  case IR_OP_ARITH_DIVUI: case IR_OP_ARITH_REMSI: case IR_OP_ARITH_REMUI: case IR_OP_ARITH_ANDI:
  case IR_OP_ARITH_ORI: case IR_OP_ARITH_XORI: case IR_OP_ARITH_SHLI: case IR_OP_ARITH_SHRSI:
  case IR_OP_ARITH_SHRUI: case IR_OP_ARITH_MAXSI: case IR_OP_ARITH_MINSI: case IR_OP_ARITH_MAXUI:
  case IR_OP_ARITH_MINUI: case IR_OP_TT_MULHIUI:
    check_same_types(vf, op);
    if (!ir_type_is_int(op->results[0].type)) V_ERR(vf, op, "requires integer operands");
    return;
  case IR_OP_ARITH_ADDF: case IR_OP_ARITH_SUBF: case IR_OP_ARITH_MULF: case IR_OP_ARITH_DIVF:
  case IR_OP_ARITH_REMF: case IR_OP_ARITH_MAXNUMF: case IR_OP_ARITH_MINNUMF:
  case IR_OP_ARITH_MAXIMUMF: case IR_OP_ARITH_MINIMUMF: case IR_OP_TT_PRECISE_DIVF:
  case IR_OP_MATH_FMA: case IR_OP_TT_CLAMPF:
    check_same_types(vf, op);
    if (!ir_type_is_float(op->results[0].type)) V_ERR(vf, op, "requires floating-point operands");
    return;
  case IR_OP_ARITH_CMPI:
  case IR_OP_ARITH_CMPF:
    if (o[0] && o[1] && o[0]->type != o[1]->type) V_ERR(vf, op, "requires operands of one type");
    if (!ir_op_get_attr(op, "predicate")) V_ERR(vf, op, "requires attribute 'predicate'");
    if (ir_type_scalar(op->results[0].type)->kind != IR_TY_INT ||
        ir_type_scalar(op->results[0].type)->width != 1)
      V_ERR(vf, op, "result must be i1 or a tensor of i1");
    return;
  case IR_OP_ARITH_SELECT:
    if (o[1] && o[2] && (o[1]->type != o[2]->type || o[1]->type != op->results[0].type))
      V_ERR(vf, op, "requires true and false values of the result type");
    return;
  case IR_OP_ARITH_CONSTANT: {
    const ir_attr *a = ir_op_get_attr(op, "value");
    if (!a) {
      V_ERR(vf, op, "requires attribute 'value'");
    } else if ((a->kind == IR_ATTR_DENSE || a->kind == IR_ATTR_INT || a->kind == IR_ATTR_FLOAT) &&
               a->type != op->results[0].type) {
      V_ERR(vf, op, "value type does not match the result type");
    }
    return;
  }
  case IR_OP_TT_MAKE_RANGE: {
    int64_t start = ir_op_get_int(op, "start", 0), end = ir_op_get_int(op, "end", 0);
    const ir_type *t = op->results[0].type;
    if (end <= start) V_ERR(vf, op, "requires end > start");
    else if (!ir_type_is_tensor(t) || t->rank != 1 || t->shape[0] != end - start)
      V_ERR(vf, op, "result must be a 1-d tensor of end - start elements");
    return;
  }
  case IR_OP_TT_SPLAT:
    if (o[0] && (ir_type_is_tensor(o[0]->type) || !ir_type_is_tensor(op->results[0].type) ||
                 ir_type_scalar(op->results[0].type) != o[0]->type))
      V_ERR(vf, op, "requires a scalar operand and a tensor of its type");
    return;
  case IR_OP_TT_ADDPTR:
    if (o[0] && !ir_type_is_ptr(o[0]->type)) V_ERR(vf, op, "operand #0 must be a pointer");
    if (o[1] && !ir_type_is_int(o[1]->type)) V_ERR(vf, op, "operand #1 must be an integer");
    if (o[0] && o[0]->type != op->results[0].type)
      V_ERR(vf, op, "result type must match the pointer type");
    return;
  case IR_OP_TT_LOAD:
  case IR_OP_TT_STORE: {
    if (!o[0] || !ir_type_is_ptr(o[0]->type)) {
      V_ERR(vf, op, "operand #0 must be a pointer or a tensor of pointers");
      return;
    }
    const ir_type *pointee = ir_type_scalar(o[0]->type)->elem;
    const ir_value *val = op->kind == IR_OP_TT_LOAD ? &op->results[0] : o[1];
    const ir_value *mask = op->kind == IR_OP_TT_LOAD ? (op->noperands > 1 ? o[1] : NULL)
                                                     : (op->noperands > 2 ? o[2] : NULL);
    if (val && (ir_type_scalar(val->type) != pointee || !same_shape(val->type, o[0]->type)))
      V_ERR(vf, op, "value type must be the pointee type, in the pointer's shape");
    if (mask && (!same_shape(mask->type, o[0]->type) ||
                 ir_type_scalar(mask->type)->kind != IR_TY_INT ||
                 ir_type_scalar(mask->type)->width != 1))
      V_ERR(vf, op, "mask must be i1 in the pointer's shape");
    if (op->kind == IR_OP_TT_LOAD && op->noperands > 2 && o[2] && o[2]->type != val->type)
      V_ERR(vf, op, "'other' must have the result type");
    return;
  }
  case IR_OP_TT_FUNC:
    if (op->nregions != 1 || !op->regions[0].first) V_ERR(vf, op, "requires a body");
    else check_terminator(vf, op, &op->regions[0], IR_OP_TT_RETURN);
    return;
  case IR_OP_SCF_FOR: {
    const ir_block *body = op->nregions == 1 ? op->regions[0].first : NULL;
    int ninits = op->noperands - 3;
    if (!body) {
      V_ERR(vf, op, "requires a body");
      return;
    }
    if (o[0] && o[1] && o[2] && (o[0]->type != o[1]->type || o[0]->type != o[2]->type))
      V_ERR(vf, op, "requires lower bound, upper bound and step of one type");
    if (op->nresults != ninits || body->nargs != ninits + 1)
      v_error(vf, op, "expects %d results and %d block arguments", ninits, ninits + 1);
    if (body->last && body->last->kind == IR_OP_SCF_YIELD && body->last->noperands != ninits &&
        (ninits > 0 || body->last->noperands > 0))
      v_error(vf, op, "expects its yield to carry %d values", ninits);
    if (ninits > 0) check_terminator(vf, op, &op->regions[0], IR_OP_SCF_YIELD);
    return;
  }
  case IR_OP_SCF_IF:
    if (op->nregions != 2 || !op->regions[0].first) V_ERR(vf, op, "requires then and else regions");
    else if (o[0] && o[0]->type->kind != IR_TY_INT) V_ERR(vf, op, "condition must be i1");
    else if (op->nresults > 0) {
      if (!op->regions[1].first) V_ERR(vf, op, "with results requires an else region");
      for (int i = 0; i < 2; i++)
        if (op->regions[i].first) check_terminator(vf, op, &op->regions[i], IR_OP_SCF_YIELD);
    }
    return;
  case IR_OP_SCF_WHILE:
    if (op->nregions != 2 || !op->regions[0].first || !op->regions[1].first) {
      V_ERR(vf, op, "requires before and after regions");
      return;
    }
    check_terminator(vf, op, &op->regions[0], IR_OP_SCF_CONDITION);
    check_terminator(vf, op, &op->regions[1], IR_OP_SCF_YIELD);
    return;
  case IR_OP_TT_REDUCE:
    if (op->nregions != 1 || !op->regions[0].first) V_ERR(vf, op, "requires a combiner region");
    else check_terminator(vf, op, &op->regions[0], IR_OP_TT_REDUCE_RETURN);
    check_axis(vf, op, o[0]);
    return;
  case IR_OP_TT_SCAN:
    if (op->nregions != 1 || !op->regions[0].first) V_ERR(vf, op, "requires a combiner region");
    else check_terminator(vf, op, &op->regions[0], IR_OP_TT_SCAN_RETURN);
    check_axis(vf, op, o[0]);
    return;
  case IR_OP_TT_BROADCAST: case IR_OP_TT_EXPAND_DIMS: case IR_OP_TT_RESHAPE: case IR_OP_TT_TRANS:
    check_shape_op(vf, op);
    return;
  case IR_OP_TT_ASSERT:
    if (!is_i1(o[0]->type)) V_ERR(vf, op, "condition must be i1 or a tensor of i1");
    return;
  case IR_OP_ARITH_BITCAST: case IR_OP_TT_BITCAST: {
    /* Same bits: pointer to pointer, or scalars of one width. */
    const ir_type *a = ir_type_scalar(o[0]->type), *b = ir_type_scalar(op->results[0].type);
    bool is_ptr = a->kind == IR_TY_PTR, ok = is_ptr == (b->kind == IR_TY_PTR);
    if (!same_shape(o[0]->type, op->results[0].type) || !ok || (!is_ptr && a->width != b->width))
      V_ERR(vf, op, "requires operand and result of one shape and element bit width");
    return;
  }
  case IR_OP_MODULE: case IR_OP_ARITH_NEGF: case IR_OP_ARITH_EXTSI: case IR_OP_ARITH_EXTUI:
  case IR_OP_ARITH_TRUNCI: case IR_OP_ARITH_EXTF: case IR_OP_ARITH_TRUNCF:
  case IR_OP_ARITH_SITOFP: case IR_OP_ARITH_UITOFP: case IR_OP_ARITH_FPTOSI:
  case IR_OP_ARITH_FPTOUI: case IR_OP_MATH_EXP: case IR_OP_MATH_EXP2:
  case IR_OP_MATH_LOG: case IR_OP_MATH_LOG2: case IR_OP_MATH_SQRT: case IR_OP_MATH_RSQRT:
  case IR_OP_MATH_ABSF: case IR_OP_MATH_ABSI: case IR_OP_MATH_SIN: case IR_OP_MATH_COS:
  case IR_OP_MATH_ERF: case IR_OP_MATH_FLOOR: case IR_OP_MATH_CEIL: case IR_OP_TT_RETURN:
  case IR_OP_TT_GET_PROGRAM_ID: case IR_OP_TT_GET_NUM_PROGRAMS:
  case IR_OP_TT_INT_TO_PTR: case IR_OP_TT_PTR_TO_INT: case IR_OP_TT_FP_TO_FP:
  case IR_OP_TT_PRECISE_SQRT: case IR_OP_TT_REDUCE_RETURN: case IR_OP_TT_SCAN_RETURN:
  case IR_OP_TT_DOT: case IR_OP_TT_ATOMIC_RMW: case IR_OP_TT_ATOMIC_CAS: case IR_OP_TT_JOIN:
  case IR_OP_TT_SPLIT: case IR_OP_TT_PRINT: case IR_OP_SCF_CONDITION:
  case IR_OP_SCF_YIELD: case IR_OP_TTG_CONVERT_LAYOUT: case IR_OP_GPU_BARRIER: case IR_NUM_OPS:
    return;
  case IR_OP_TT_EXTERN_ELEMENTWISE: {
    const ir_attr *sym = ir_op_get_attr(op, "symbol");
    if (!sym || sym->kind != IR_ATTR_STRING || !sym->s || !sym->s[0])
      V_ERR(vf, op, "requires a string attribute 'symbol'");
    return;
  }
  }
}

static void verify_op(verifier *vf, const ir_op *op);

static void verify_region(verifier *vf, const ir_region *r) {
  for (const ir_block *b = r->first; b; b = b->next) {
    size_t mark = vf->nvisible;
    for (int i = 0; i < b->nargs; i++) push_visible(vf, b->args[i]);
    for (const ir_op *op = b->first; op; op = op->next) {
      if (op->parent != b) {
        V_ERR(vf, op, "has a broken parent link");
        break;
      }
      bool is_term = ir_op_info_of(op)->traits & IR_T_TERMINATOR;
      if (is_term && op->next) V_ERR(vf, op, "must be the last operation in its block");
      verify_op(vf, op);
      for (int i = 0; i < op->nresults; i++) push_visible(vf, &op->results[i]);
    }
    vf->nvisible = mark;
  }
}

static void verify_op(verifier *vf, const ir_op *op) {
  const ir_op_info *info = ir_op_info_of(op);
  if (op->noperands < info->min_operands ||
      (info->max_operands >= 0 && op->noperands > info->max_operands)) {
    if (info->max_operands == info->min_operands)
      v_error(vf, op, "expects %d operands, got %d", info->min_operands, op->noperands);
    else
      v_error(vf, op, "expects at least %d operands, got %d", info->min_operands,
              op->noperands);
    return;
  }
  if (info->nresults >= 0 && op->nresults != info->nresults) {
    v_error(vf, op, "expects %d results, got %d", info->nresults, op->nresults);
    return;
  }
  bool has_null = false;
  for (int i = 0; i < op->noperands; i++) {
    if (!op->operands[i]) {
      v_error(vf, op, "operand #%d is null", i);
      has_null = true;
    } else if (!is_visible(vf, op->operands[i])) {
      v_error(vf, op, "operand #%d does not dominate this use", i);
    }
  }
  if (has_null) return;
  if (info->traits & IR_T_ELEMENTWISE) check_elementwise(vf, op);
  check_kind(vf, op);
  for (int i = 0; i < op->nregions; i++) {
    /* A function sees nothing from outside: it is isolated from above. */
    size_t saved = vf->nvisible;
    if (op->kind == IR_OP_TT_FUNC) vf->nvisible = 0;
    const ir_value **keep = NULL;
    if (op->kind == IR_OP_TT_FUNC && saved) {
      keep = malloc(saved * sizeof *keep);
      if (!keep) IR_UNREACHABLE("out of memory in the verifier");
      memcpy(keep, vf->visible, saved * sizeof *keep);
    }
    verify_region(vf, &op->regions[i]);
    if (keep) {
      memcpy(vf->visible, keep, saved * sizeof *keep);
      free(keep);
    }
    vf->nvisible = saved;
  }
}

bool ir_verify(const ir_module *m) {
  verifier vf = {m->ctx, NULL, 0, 0, true};
  if (m->op->nregions != 1 || !m->op->regions[0].first) {
    V_ERR(&vf, m->op, "requires one region with one block");
    return false;
  }
  verify_region(&vf, &m->op->regions[0]);
  free(vf.visible);
  return vf.ok;
}
