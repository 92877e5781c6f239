/* print_ops.c - the custom assembly forms of the ops, as Triton 3.6 and
 * MLIR print them (`tt.splat %a : i32 -> tensor<1024xi32>`, `scf.for ...`).
 * Ops without a custom form (tt.reduce, tt.scan, tt.print) fall back to the
 * generic form in printer.c. */
#include <string.h>

#include "ir-tt/printer_impl.h"

static void puts_(printer *p, const char *s) { ir_sb_puts(p->out, s); }

static void ir_pr_result_type(printer *p, const ir_op *op) {
  if (op->nresults > 0) ir_pr_type(p, op->results[0].type);
}

/* name %a, %b {attrs} : T  (T: the result type, or the first operand's). */
static void ir_pr_same_type(printer *p, const ir_op *op, const char *const *skip) {
  ir_sb_printf(p->out, "%s ", ir_op_name(op));
  ir_pr_values(p, op->operands, op->noperands);
  ir_pr_attr_dict(p, op, skip);
  puts_(p, " : ");
  if (op->nresults > 0)
    ir_pr_result_type(p, op);
  else
    ir_pr_type(p, op->operands[0]->type);
}

/* name %a {attrs} : T <sep> R  (casts use " to ", tt ops " -> "). */
static void ir_pr_conversion(printer *p, const ir_op *op, const char *sep,
                             const char *const *skip) {
  ir_sb_printf(p->out, "%s ", ir_op_name(op));
  ir_pr_values(p, op->operands, op->noperands);
  ir_pr_attr_dict(p, op, skip);
  puts_(p, " : ");
  ir_pr_type(p, op->operands[0]->type);
  puts_(p, sep);
  ir_pr_result_type(p, op);
}

/* tt.return %a : T / scf.yield / tt.reduce.return: operands and types. */
static void ir_pr_terminator(printer *p, const ir_op *op) {
  puts_(p, ir_op_name(op));
  if (op->noperands) {
    ir_sb_putc(p->out, ' ');
    ir_pr_values(p, op->operands, op->noperands);
  }
  ir_pr_attr_dict(p, op, NULL);
  if (op->noperands) {
    puts_(p, " : ");
    ir_pr_types_of(p, op->operands, op->noperands);
  }
}

static const char *enum_kw(const ir_op *op, const char *name) {
  const ir_attr *a = ir_op_get_attr(op, name);
  return a && a->kind == IR_ATTR_ENUM ? a->s : NULL;
}

/* tt.load / tt.store: `cacheModifier = ca evictionPolicy = evict_last`
 * when not the defaults. */
static void ir_pr_mem_oilist(printer *p, const ir_op *op) {
  const char *cache = enum_kw(op, "cache");
  const char *evict = enum_kw(op, "evict");
  if (cache && strcmp(cache, "none") != 0) ir_sb_printf(p->out, " cacheModifier = %s", cache);
  if (evict && strcmp(evict, "evict_normal") != 0 && strcmp(evict, "normal") != 0)
    ir_sb_printf(p->out, " evictionPolicy = %s", evict);
}

static void ir_pr_load_store(printer *p, const ir_op *op) {
  static const char *const skip[] = {"cache", "evict", "isVolatile", NULL};
  static const char *const skip_nv[] = {"cache", "evict", NULL};
  const ir_attr *vol = ir_op_get_attr(op, "isVolatile");
  bool is_volatile = vol && vol->kind == IR_ATTR_INT && vol->i;
  ir_sb_printf(p->out, "%s ", ir_op_name(op));
  ir_pr_values(p, op->operands, op->noperands);
  ir_pr_mem_oilist(p, op);
  ir_pr_attr_dict(p, op, is_volatile ? skip_nv : skip);
  puts_(p, " : ");
  ir_pr_type(p, op->operands[0]->type);
}

/* The result types of a function: those of the tt.return ending its body. */
static void ir_pr_func(printer *p, const ir_op *op) {
  static const char *const skip[] = {"sym_name", "sym_visibility", "function_type",
                                     "arg_attrs", "res_attrs", NULL};
  const ir_attr *name = ir_op_get_attr(op, "sym_name");
  const ir_attr *vis = ir_op_get_attr(op, "sym_visibility");
  puts_(p, "tt.func ");
  if (vis && vis->kind == IR_ATTR_STRING) ir_sb_printf(p->out, "%s ", vis->s);
  ir_sb_printf(p->out, "@%s(", name && name->kind == IR_ATTR_STRING ? name->s : "");
  const ir_block *entry = op->nregions ? op->regions[0].first : NULL;
  for (int i = 0; entry && i < entry->nargs; i++) {
    const ir_value *a = entry->args[i];
    if (i) puts_(p, ", ");
    ir_pr_value(p, a);
    puts_(p, ": ");
    ir_pr_type(p, a->type);
    if (a->divisibility > 0) ir_sb_printf(p->out, " {tt.divisibility = %d : i32}", a->divisibility);
  }
  ir_sb_putc(p->out, ')');
  const ir_op *ret = entry ? entry->last : NULL;
  if (ret && ret->kind == IR_OP_TT_RETURN && ret->noperands) {
    puts_(p, " -> ");
    if (ret->noperands > 1) ir_sb_putc(p->out, '(');
    ir_pr_types_of(p, ret->operands, ret->noperands);
    if (ret->noperands > 1) ir_sb_putc(p->out, ')');
  }
  const char *const *sk = skip;
  bool has_other = false;
  for (int i = 0; i < op->nattrs && !has_other; i++) {
    has_other = true;
    for (const char *const *s = sk; *s; s++)
      if (strcmp(*s, op->attrs[i].name) == 0) has_other = false;
  }
  if (has_other) {
    puts_(p, " attributes");
    ir_pr_attr_dict(p, op, skip);
  }
  ir_sb_putc(p->out, ' ');
  if (op->nregions) ir_pr_region(p, &op->regions[0], false, true);
}

/* ` (%arg = %init, ...)` with a prefix, as MLIR's printInitializationList. */
static void ir_pr_init_list(printer *p, const char *prefix, const ir_block *b, int first_arg,
                         ir_value *const *inits, int ninits) {
  if (!ninits) return;
  ir_sb_printf(p->out, "%s(", prefix);
  for (int i = 0; i < ninits; i++) {
    if (i) puts_(p, ", ");
    if (b && first_arg + i < b->nargs) ir_pr_value(p, b->args[first_arg + i]);
    puts_(p, " = ");
    ir_pr_value(p, inits[i]);
  }
  ir_sb_putc(p->out, ')');
}

static void ir_pr_for(printer *p, const ir_op *op) {
  const ir_block *body = op->nregions ? op->regions[0].first : NULL;
  int ninits = op->noperands - 3;
  puts_(p, "scf.for ");
  if (body && body->nargs) ir_pr_value(p, body->args[0]);
  puts_(p, " = ");
  ir_pr_value(p, op->operands[0]);
  puts_(p, " to ");
  ir_pr_value(p, op->operands[1]);
  puts_(p, " step ");
  ir_pr_value(p, op->operands[2]);
  ir_pr_init_list(p, " iter_args", body, 1, op->operands + 3, ninits);
  if (ninits > 0) {
    puts_(p, " -> (");
    ir_pr_types_of(p, op->operands + 3, ninits);
    ir_sb_putc(p->out, ')');
  }
  /* MLIR prints ' ' then " : i32 " for a non-index induction variable. */
  puts_(p, "  : ");
  ir_pr_type(p, op->operands[0]->type);
  ir_sb_putc(p->out, ' ');
  ir_pr_region(p, &op->regions[0], false, ninits > 0);
  ir_pr_attr_dict(p, op, NULL);
}

static void ir_pr_if(printer *p, const ir_op *op) {
  puts_(p, "scf.if ");
  ir_pr_value(p, op->operands[0]);
  if (op->nresults) {
    puts_(p, " -> (");
    for (int i = 0; i < op->nresults; i++) {
      if (i) puts_(p, ", ");
      ir_pr_type(p, op->results[i].type);
    }
    ir_sb_putc(p->out, ')');
  }
  ir_sb_putc(p->out, ' ');
  ir_pr_region(p, &op->regions[0], false, op->nresults > 0);
  if (op->nregions > 1 && op->regions[1].first) {
    puts_(p, " else ");
    ir_pr_region(p, &op->regions[1], false, op->nresults > 0);
  }
  ir_pr_attr_dict(p, op, NULL);
}

static void ir_pr_while(printer *p, const ir_op *op) {
  puts_(p, "scf.while");
  ir_pr_init_list(p, " ", op->regions[0].first, 0, op->operands, op->noperands);
  puts_(p, " : (");
  ir_pr_types_of(p, op->operands, op->noperands);
  puts_(p, ") -> ");
  if (op->nresults != 1) ir_sb_putc(p->out, '(');
  for (int i = 0; i < op->nresults; i++) {
    if (i) puts_(p, ", ");
    ir_pr_type(p, op->results[i].type);
  }
  if (op->nresults != 1) ir_sb_putc(p->out, ')');
  ir_sb_putc(p->out, ' ');
  ir_pr_region(p, &op->regions[0], false, true);
  puts_(p, " do ");
  ir_pr_region(p, &op->regions[1], true, true);
  if (op->nattrs) {
    puts_(p, " attributes");
    ir_pr_attr_dict(p, op, NULL);
  }
}

static void ir_pr_atomic(printer *p, const ir_op *op, bool is_rmw) {
  static const char *const skip[] = {"atomic_rmw_op", "sem", "scope", NULL};
  ir_sb_printf(p->out, "%s ", ir_op_name(op));
  const char *rmw = enum_kw(op, "atomic_rmw_op"), *sem = enum_kw(op, "sem"),
             *scope = enum_kw(op, "scope");
  if (is_rmw) ir_sb_printf(p->out, "%s, ", rmw ? rmw : "add");
  ir_sb_printf(p->out, "%s, %s, ", sem ? sem : "acq_rel", scope ? scope : "gpu");
  ir_pr_values(p, op->operands, op->noperands);
  ir_pr_attr_dict(p, op, skip);
  puts_(p, " : (");
  ir_pr_types_of(p, op->operands, op->noperands);
  puts_(p, ") -> ");
  ir_pr_result_type(p, op);
}

bool ir_pr_custom_op(printer *p, const ir_op *op) {
  static const char *const skip_pred[] = {"predicate", NULL};
  static const char *const skip_value[] = {"value", NULL};
  static const char *const skip_axis[] = {"axis", NULL};
  static const char *const skip_round[] = {"rounding", NULL};
  static const char *const skip_prec[] = {"inputPrecision", NULL};
  static const char *const skip_msg[] = {"message", NULL};
  static const char *const skip_nan[] = {"propagateNan", NULL};
  static const char *const axis_names[] = {"x", "y", "z"};
  switch (op->kind) {
  case IR_OP_MODULE:
  case IR_OP_TT_REDUCE:
  case IR_OP_TT_SCAN:
  case IR_OP_TT_PRINT:
  case IR_OP_TT_EXTERN_ELEMENTWISE:
  case IR_OP_GPU_BARRIER: return false; /* the generic form */
  case IR_OP_ARITH_ADDI: case IR_OP_ARITH_SUBI: case IR_OP_ARITH_MULI: case IR_OP_ARITH_DIVSI:
  case IR_OP_ARITH_DIVUI: case IR_OP_ARITH_REMSI: case IR_OP_ARITH_REMUI: case IR_OP_ARITH_ANDI:
  case IR_OP_ARITH_ORI: case IR_OP_ARITH_XORI: case IR_OP_ARITH_SHLI: case IR_OP_ARITH_SHRSI:
  case IR_OP_ARITH_SHRUI: case IR_OP_ARITH_MAXSI: case IR_OP_ARITH_MINSI: case IR_OP_ARITH_MAXUI:
  case IR_OP_ARITH_MINUI: case IR_OP_ARITH_ADDF: case IR_OP_ARITH_SUBF: case IR_OP_ARITH_MULF:
  case IR_OP_ARITH_DIVF: case IR_OP_ARITH_REMF: case IR_OP_ARITH_MAXNUMF: case IR_OP_ARITH_MINNUMF:
  case IR_OP_ARITH_MAXIMUMF: case IR_OP_ARITH_MINIMUMF: case IR_OP_ARITH_NEGF:
  case IR_OP_MATH_EXP: case IR_OP_MATH_EXP2: case IR_OP_MATH_LOG: case IR_OP_MATH_LOG2:
  case IR_OP_MATH_SQRT: case IR_OP_MATH_RSQRT: case IR_OP_MATH_ABSF: case IR_OP_MATH_ABSI:
  case IR_OP_MATH_SIN: case IR_OP_MATH_COS: case IR_OP_MATH_ERF: case IR_OP_MATH_FLOOR:
  case IR_OP_MATH_CEIL: case IR_OP_MATH_FMA: case IR_OP_TT_MULHIUI: case IR_OP_TT_PRECISE_SQRT:
  case IR_OP_TT_PRECISE_DIVF:
    ir_pr_same_type(p, op, NULL);
    return true;
  case IR_OP_ARITH_CMPI:
  case IR_OP_ARITH_CMPF: {
    const char *pred = enum_kw(op, "predicate");
    ir_sb_printf(p->out, "%s %s, ", ir_op_name(op), pred ? pred : "?");
    ir_pr_values(p, op->operands, op->noperands);
    ir_pr_attr_dict(p, op, skip_pred);
    puts_(p, " : ");
    ir_pr_type(p, op->operands[0]->type);
    return true;
  }
  case IR_OP_ARITH_SELECT:
    puts_(p, "arith.select ");
    ir_pr_values(p, op->operands, op->noperands);
    ir_pr_attr_dict(p, op, NULL);
    puts_(p, " : ");
    if (ir_type_is_tensor(op->operands[0]->type)) {
      ir_pr_type(p, op->operands[0]->type);
      puts_(p, ", ");
    }
    ir_pr_result_type(p, op);
    return true;
  case IR_OP_ARITH_CONSTANT: {
    const ir_attr *v = ir_op_get_attr(op, "value");
    puts_(p, "arith.constant");
    ir_pr_attr_dict(p, op, skip_value);
    ir_sb_putc(p->out, ' ');
    if (v) ir_pr_attr(p, v);
    return true;
  }
  case IR_OP_ARITH_EXTSI: case IR_OP_ARITH_EXTUI: case IR_OP_ARITH_TRUNCI: case IR_OP_ARITH_EXTF:
  case IR_OP_ARITH_TRUNCF: case IR_OP_ARITH_SITOFP: case IR_OP_ARITH_UITOFP:
  case IR_OP_ARITH_FPTOSI: case IR_OP_ARITH_FPTOUI: case IR_OP_ARITH_BITCAST:
    ir_pr_conversion(p, op, " to ", NULL);
    return true;
  case IR_OP_TT_FUNC: ir_pr_func(p, op); return true;
  case IR_OP_TT_RETURN: case IR_OP_TT_REDUCE_RETURN: case IR_OP_TT_SCAN_RETURN:
  case IR_OP_SCF_YIELD:
    ir_pr_terminator(p, op);
    return true;
  case IR_OP_TT_GET_PROGRAM_ID:
  case IR_OP_TT_GET_NUM_PROGRAMS: {
    int64_t axis = ir_op_get_int(op, "axis", 0);
    ir_sb_printf(p->out, "%s %s", ir_op_name(op), axis >= 0 && axis < 3 ? axis_names[axis] : "x");
    ir_pr_attr_dict(p, op, skip_axis);
    puts_(p, " : ");
    ir_pr_result_type(p, op);
    return true;
  }
  case IR_OP_TT_MAKE_RANGE:
    puts_(p, "tt.make_range");
    ir_pr_attr_dict(p, op, NULL);
    puts_(p, " : ");
    ir_pr_result_type(p, op);
    return true;
  case IR_OP_TT_SPLAT: case IR_OP_TT_BROADCAST: case IR_OP_TT_EXPAND_DIMS: case IR_OP_TT_RESHAPE:
  case IR_OP_TT_TRANS: case IR_OP_TT_BITCAST: case IR_OP_TT_INT_TO_PTR: case IR_OP_TT_PTR_TO_INT:
  case IR_OP_TTG_CONVERT_LAYOUT: case IR_OP_TT_JOIN: case IR_OP_TT_SPLIT:
    ir_pr_conversion(p, op, " -> ", NULL);
    return true;
  case IR_OP_TT_FP_TO_FP: {
    const char *r = enum_kw(op, "rounding");
    ir_sb_printf(p->out, "tt.fp_to_fp ");
    ir_pr_value(p, op->operands[0]);
    ir_pr_attr_dict(p, op, skip_round);
    if (r) ir_sb_printf(p->out, ", rounding = %s", r);
    puts_(p, " : ");
    ir_pr_type(p, op->operands[0]->type);
    puts_(p, " -> ");
    ir_pr_result_type(p, op);
    return true;
  }
  case IR_OP_TT_ADDPTR:
    puts_(p, "tt.addptr ");
    ir_pr_values(p, op->operands, op->noperands);
    ir_pr_attr_dict(p, op, NULL);
    puts_(p, " : ");
    ir_pr_types_of(p, op->operands, op->noperands);
    return true;
  case IR_OP_TT_LOAD:
  case IR_OP_TT_STORE: ir_pr_load_store(p, op); return true;
  case IR_OP_TT_DOT: {
    const char *prec = enum_kw(op, "inputPrecision");
    puts_(p, "tt.dot ");
    ir_pr_values(p, op->operands, op->noperands);
    if (prec && strcmp(prec, "ieee") != 0) ir_sb_printf(p->out, ", inputPrecision = %s", prec);
    ir_pr_attr_dict(p, op, skip_prec);
    puts_(p, " : ");
    ir_pr_type(p, op->operands[0]->type);
    puts_(p, " * ");
    ir_pr_type(p, op->operands[1]->type);
    puts_(p, " -> ");
    ir_pr_result_type(p, op);
    return true;
  }
  case IR_OP_TT_ATOMIC_RMW: ir_pr_atomic(p, op, true); return true;
  case IR_OP_TT_ATOMIC_CAS: ir_pr_atomic(p, op, false); return true;
  case IR_OP_TT_ASSERT: {
    const ir_attr *msg = ir_op_get_attr(op, "message");
    puts_(p, "tt.assert ");
    ir_pr_value(p, op->operands[0]);
    puts_(p, ", ");
    if (msg) ir_pr_attr(p, msg); else puts_(p, "\"\"");
    ir_pr_attr_dict(p, op, skip_msg);
    puts_(p, " : ");
    ir_pr_type(p, op->operands[0]->type);
    return true;
  }
  case IR_OP_TT_CLAMPF: {
    const char *nan = enum_kw(op, "propagateNan");
    puts_(p, "tt.clampf ");
    ir_pr_values(p, op->operands, op->noperands);
    ir_sb_printf(p->out, ", propagateNan = %s", nan ? nan : "none");
    ir_pr_attr_dict(p, op, skip_nan);
    puts_(p, " : ");
    ir_pr_result_type(p, op);
    return true;
  }
  case IR_OP_SCF_FOR: ir_pr_for(p, op); return true;
  case IR_OP_SCF_WHILE: ir_pr_while(p, op); return true;
  case IR_OP_SCF_IF: ir_pr_if(p, op); return true;
  case IR_OP_SCF_CONDITION:
    puts_(p, "scf.condition(");
    ir_pr_value(p, op->operands[0]);
    ir_sb_putc(p->out, ')');
    if (op->noperands > 1) {
      ir_sb_putc(p->out, ' ');
      ir_pr_values(p, op->operands + 1, op->noperands - 1);
      puts_(p, " : ");
      ir_pr_types_of(p, op->operands + 1, op->noperands - 1);
    }
    return true;
  case IR_NUM_OPS: return false;
  }
  return false;
}
