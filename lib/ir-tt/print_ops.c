// SPDX-License-Identifier: MIT
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
  /* ttg.local_store %v, %buf : T -> B names its second operand's type. */
  if (op->nresults == 0 && op->noperands > 1)
    ir_pr_type(p, op->operands[1]->type);
  else
    ir_pr_result_type(p, op);
}

/* tt.return %a : T / scf.yield / ttng.warp_group_dot_wait %a {attrs} : T:
 * operands and their types. */
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
  static const char *const skip[] = {"sym_name",  "sym_visibility", "function_type",
                                     "arg_attrs", "res_attrs",      NULL};
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

/* ttg.local_alloc %v : (T) -> R: operand types in parentheses. */
static void ir_pr_func_type(printer *p, const ir_op *op) {
  ir_sb_printf(p->out, "%s", ir_op_name(op));
  if (op->noperands) {
    ir_sb_putc(p->out, ' ');
    ir_pr_values(p, op->operands, op->noperands);
  }
  ir_pr_attr_dict(p, op, NULL);
  puts_(p, " : (");
  ir_pr_types_of(p, op->operands, op->noperands);
  puts_(p, ") -> ");
  ir_pr_result_type(p, op);
}

/* ttg.memdesc_index %buf[%i] : T -> R */
static void ir_pr_index(printer *p, const ir_op *op) {
  ir_sb_printf(p->out, "%s ", ir_op_name(op));
  ir_pr_value(p, op->operands[0]);
  ir_sb_putc(p->out, '[');
  ir_pr_value(p, op->operands[1]);
  ir_sb_putc(p->out, ']');
  ir_pr_attr_dict(p, op, NULL);
  puts_(p, " : ");
  ir_pr_type(p, op->operands[0]->type);
  puts_(p, " -> ");
  ir_pr_result_type(p, op);
}

/* ttg.async_copy_global_to_local %ptrs, %buf mask %m other %o {attrs} :
 * P -> <memdesc body> (Triton prints the memdesc without its prefix). */
static void ir_pr_async_copy(printer *p, const ir_op *op) {
  ir_sb_printf(p->out, "%s ", ir_op_name(op));
  ir_pr_values(p, op->operands, 2);
  if (op->noperands > 2) {
    puts_(p, " mask ");
    ir_pr_value(p, op->operands[2]);
  }
  if (op->noperands > 3) { /* a bounded copy's elements left, or Triton's `other` */
    puts_(p, ir_op_get_int(op, IR_BOUNDED_ATTR, 0) ? " left " : " other ");
    ir_pr_value(p, op->operands[3]);
  }
  ir_pr_mem_oilist(p, op);
  static const char *const skip[] = {"cache", "evict", NULL};
  ir_pr_attr_dict(p, op, skip);
  puts_(p, " : ");
  ir_pr_type(p, op->operands[0]->type);
  puts_(p, " -> ");
  ir_strbuf tmp;
  ir_sb_init(&tmp);
  ir_strbuf *out = p->out;
  p->out = &tmp;
  ir_pr_type(p, op->operands[1]->type);
  p->out = out;
  /* "!ttg.memdesc<...>" -> "<...>" */
  const char *t = tmp.data ? tmp.data : "";
  ir_sb_puts(out, strncmp(t, "!ttg.memdesc", 12) == 0 ? t + 12 : t);
  ir_sb_free(&tmp);
}

/* ttg.async_commit_group tokens %a, %b / ttg.async_wait %a, %b {num = N}. */
static void ir_pr_tokens(printer *p, const ir_op *op, bool keyword) {
  puts_(p, ir_op_name(op));
  if (keyword) puts_(p, " tokens");
  if (op->noperands) {
    ir_sb_putc(p->out, ' ');
    ir_pr_values(p, op->operands, op->noperands);
  }
  ir_pr_attr_dict(p, op, NULL);
}

static void ir_pr_cmp(printer *p, const ir_op *op) {
  static const char *const skip_pred[] = {"predicate", NULL};
  const char *pred = enum_kw(op, "predicate");
  ir_sb_printf(p->out, "%s %s, ", ir_op_name(op), pred ? pred : "?");
  ir_pr_values(p, op->operands, op->noperands);
  ir_pr_attr_dict(p, op, skip_pred);
  puts_(p, " : ");
  ir_pr_type(p, op->operands[0]->type);
}

static void ir_pr_select(printer *p, const ir_op *op) {
  puts_(p, "arith.select ");
  ir_pr_values(p, op->operands, op->noperands);
  ir_pr_attr_dict(p, op, NULL);
  puts_(p, " : ");
  if (ir_type_is_tensor(op->operands[0]->type)) {
    ir_pr_type(p, op->operands[0]->type);
    puts_(p, ", ");
  }
  ir_pr_result_type(p, op);
}

static void ir_pr_constant(printer *p, const ir_op *op) {
  static const char *const skip_value[] = {"value", NULL};
  const ir_attr *v = ir_op_get_attr(op, "value");
  puts_(p, "arith.constant");
  ir_pr_attr_dict(p, op, skip_value);
  ir_sb_putc(p->out, ' ');
  if (v) ir_pr_attr(p, v);
}

static void ir_pr_program_id(printer *p, const ir_op *op) {
  static const char *const skip_axis[] = {"axis", NULL};
  static const char *const axis_names[] = {"x", "y", "z"};
  int64_t axis = ir_op_get_int(op, "axis", 0);
  ir_sb_printf(p->out, "%s %s", ir_op_name(op), axis >= 0 && axis < 3 ? axis_names[axis] : "x");
  ir_pr_attr_dict(p, op, skip_axis);
  puts_(p, " : ");
  ir_pr_result_type(p, op);
}

static void ir_pr_fp_to_fp(printer *p, const ir_op *op) {
  static const char *const skip_round[] = {"rounding", NULL};
  const char *r = enum_kw(op, "rounding");
  ir_sb_printf(p->out, "tt.fp_to_fp ");
  ir_pr_value(p, op->operands[0]);
  ir_pr_attr_dict(p, op, skip_round);
  if (r) ir_sb_printf(p->out, ", rounding = %s", r);
  puts_(p, " : ");
  ir_pr_type(p, op->operands[0]->type);
  puts_(p, " -> ");
  ir_pr_result_type(p, op);
}

/* tt.dot %a, %b, %c, inputPrecision = tf32 : A * B -> R; the warp-group
 * dot keeps inputPrecision in the dictionary as an integer, as Triton does. */
static void ir_pr_dot(printer *p, const ir_op *op) {
  static const char *const skip_prec[] = {"inputPrecision", NULL};
  const char *prec = enum_kw(op, "inputPrecision");
  ir_sb_printf(p->out, "%s ", ir_op_name(op));
  ir_pr_values(p, op->operands, op->noperands);
  if (prec && strcmp(prec, "ieee") != 0) ir_sb_printf(p->out, ", inputPrecision = %s", prec);
  ir_pr_attr_dict(p, op, prec ? skip_prec : NULL);
  puts_(p, " : ");
  ir_pr_type(p, op->operands[0]->type);
  puts_(p, " * ");
  ir_pr_type(p, op->operands[1]->type);
  puts_(p, " -> ");
  ir_pr_result_type(p, op);
}

static void ir_pr_assert(printer *p, const ir_op *op) {
  static const char *const skip_msg[] = {"message", NULL};
  const ir_attr *msg = ir_op_get_attr(op, "message");
  puts_(p, "tt.assert ");
  ir_pr_value(p, op->operands[0]);
  puts_(p, ", ");
  if (msg)
    ir_pr_attr(p, msg);
  else
    puts_(p, "\"\"");
  ir_pr_attr_dict(p, op, skip_msg);
  puts_(p, " : ");
  ir_pr_type(p, op->operands[0]->type);
}

static void ir_pr_clampf(printer *p, const ir_op *op) {
  static const char *const skip_nan[] = {"propagateNan", NULL};
  const char *nan = enum_kw(op, "propagateNan");
  puts_(p, "tt.clampf ");
  ir_pr_values(p, op->operands, op->noperands);
  ir_sb_printf(p->out, ", propagateNan = %s", nan ? nan : "none");
  ir_pr_attr_dict(p, op, skip_nan);
  puts_(p, " : ");
  ir_pr_result_type(p, op);
}

static void ir_pr_condition(printer *p, const ir_op *op) {
  puts_(p, "scf.condition(");
  ir_pr_value(p, op->operands[0]);
  ir_sb_putc(p->out, ')');
  if (op->noperands > 1) {
    ir_sb_putc(p->out, ' ');
    ir_pr_values(p, op->operands + 1, op->noperands - 1);
    puts_(p, " : ");
    ir_pr_types_of(p, op->operands + 1, op->noperands - 1);
  }
}

static void ir_pr_make_range(printer *p, const ir_op *op) {
  ir_sb_printf(p->out, "%s", ir_op_name(op));
  ir_pr_attr_dict(p, op, NULL);
  puts_(p, " : ");
  ir_pr_result_type(p, op);
}

static void ir_pr_addptr(printer *p, const ir_op *op) {
  puts_(p, "tt.addptr ");
  ir_pr_values(p, op->operands, op->noperands);
  ir_pr_attr_dict(p, op, NULL);
  puts_(p, " : ");
  ir_pr_types_of(p, op->operands, op->noperands);
}

bool ir_pr_custom_op(printer *p, const ir_op *op) {
  /* A switch over forms (ops.def), not op kinds: an op with an existing
   * form needs nothing here. */
  switch (ir_op_info_of(op)->form) {
  case IR_FORM_GENERIC: return false;
  case IR_FORM_SAME: ir_pr_same_type(p, op, NULL); return true;
  case IR_FORM_CONV_TO: ir_pr_conversion(p, op, " to ", NULL); return true;
  case IR_FORM_CONV_ARROW: ir_pr_conversion(p, op, " -> ", NULL); return true;
  case IR_FORM_OPERANDS: ir_pr_terminator(p, op); return true;
  case IR_FORM_CMP: ir_pr_cmp(p, op); return true;
  case IR_FORM_SELECT: ir_pr_select(p, op); return true;
  case IR_FORM_CONSTANT: ir_pr_constant(p, op); return true;
  case IR_FORM_FUNC: ir_pr_func(p, op); return true;
  case IR_FORM_PROGRAM_ID: ir_pr_program_id(p, op); return true;
  case IR_FORM_RESULT_TYPED: ir_pr_make_range(p, op); return true;
  case IR_FORM_FP_TO_FP: ir_pr_fp_to_fp(p, op); return true;
  case IR_FORM_ADDPTR: ir_pr_addptr(p, op); return true;
  case IR_FORM_LOAD_STORE: ir_pr_load_store(p, op); return true;
  case IR_FORM_DOT: ir_pr_dot(p, op); return true;
  case IR_FORM_ATOMIC: ir_pr_atomic(p, op, op->kind == IR_OP_TT_ATOMIC_RMW); return true;
  case IR_FORM_ASSERT: ir_pr_assert(p, op); return true;
  case IR_FORM_CLAMPF: ir_pr_clampf(p, op); return true;
  case IR_FORM_FOR: ir_pr_for(p, op); return true;
  case IR_FORM_WHILE: ir_pr_while(p, op); return true;
  case IR_FORM_IF: ir_pr_if(p, op); return true;
  case IR_FORM_CONDITION: ir_pr_condition(p, op); return true;
  case IR_FORM_FUNC_TYPE: ir_pr_func_type(p, op); return true;
  case IR_FORM_INDEX: ir_pr_index(p, op); return true;
  case IR_FORM_ASYNC_COPY: ir_pr_async_copy(p, op); return true;
  case IR_FORM_COMMIT: ir_pr_tokens(p, op, true); return true;
  case IR_FORM_WAIT: ir_pr_tokens(p, op, false); return true;
  }
  return false;
}
