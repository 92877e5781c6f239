/* convert.c - ttir -> ttgir: give every tensor a GPU layout.
 * Needs: verified ttir (tensors without layouts). Leaves: every tensor type
 * with a #ttg.blocked layout (the default for its shape, one element per
 * thread), reductions with #ttg.slice results, and a ttg.convert_layout
 * wherever an operand's layout differs from the one its user needs (the
 * slice of an expand_dims result, the result layout of an elementwise op, the
 * carried types of scf ops), plus the ttg.* module attributes. */
#include <stdio.h>
#include <string.h>

#include "ir-ttgpu/ttg.h"

typedef struct convert_state {
  ir_module *m;
  ir_context *ctx;
  const ttg_options *opts;
  bool ok;
} convert_state;

static const ir_type *default_tensor_type(convert_state *st, const ir_type *t) {
  if (!ir_type_is_tensor(t) || t->layout) return t;
  const ir_attr *l = ttg_default_blocked(st->ctx, t->rank, t->shape, 1, st->opts->num_warps,
                                         st->opts->threads_per_warp);
  return ir_type_with_layout(st->ctx, t, l);
}

/* Re-types a dense constant's attribute together with its result. */
static void retype_constant(convert_state *st, ir_op *op) {
  const ir_attr *v = ir_op_get_attr(op, "value");
  if (v && v->kind == IR_ATTR_DENSE)
    ir_op_set_attr(st->m, op, "value", ir_attr_dense(st->ctx, op->results[0].type, v->elem));
}

static void convert_op(ir_op *op, void *user) {
  convert_state *st = user;
  for (int r = 0; r < op->nregions; r++)
    for (ir_block *b = op->regions[r].first; b; b = b->next)
      for (int i = 0; i < b->nargs; i++) b->args[i]->type = default_tensor_type(st, b->args[i]->type);
  for (int i = 0; i < op->nresults; i++) {
    ir_value *res = &op->results[i];
    const ir_type *t = res->type;
    if (!ir_type_is_tensor(t) || t->layout) continue;
    if ((op->kind == IR_OP_TT_REDUCE) && op->noperands > 0) {
      /* The result drops dim `axis` of the operand: a slice of its layout. */
      const ir_type *src = op->operands[0]->type;
      int axis = (int)ir_op_get_int(op, "axis", 0);
      src = default_tensor_type(st, src);
      res->type = ir_type_with_layout(st->ctx, t, ir_attr_slice(st->ctx, axis, src->layout));
      continue;
    }
    res->type = default_tensor_type(st, t);
  }
  if (op->kind == IR_OP_ARITH_CONSTANT && op->nresults == 1) retype_constant(st, op);
}

/* Makes operand i of `op` have type `want`, through a ttg.convert_layout
 * inserted before `op` when only the layout differs. */
static void want_operand(convert_state *st, ir_op *op, int i, const ir_type *want) {
  ir_value *v = op->operands[i];
  if (v->type == want || !ir_type_is_tensor(v->type) || !ir_type_is_tensor(want)) return;
  if (ir_type_with_layout(st->ctx, v->type, want->layout) != want) return; /* not a layout change */
  ir_op *cvt = ir_op_create(st->m, IR_OP_TTG_CONVERT_LAYOUT, op->loc, 1, &want, 1, &v, 0);
  ir_op_insert_before(op, cvt);
  ir_op_set_operand(op, i, &cvt->results[0]);
}

/* Same layout as `like`, for an operand of another shape (broadcast). */
static void want_layout(convert_state *st, ir_op *op, int i, const ir_attr *layout) {
  const ir_type *t = op->operands[i]->type;
  if (ir_type_is_tensor(t) && layout) want_operand(st, op, i, ir_type_with_layout(st->ctx, t, layout));
}

/* The types a terminator's operands must have: its parent's results, or for
 * scf.condition and the yield of scf.while's "after" region, the region
 * arguments they feed. */
static void fix_terminator(convert_state *st, ir_op *op) {
  ir_op *parent = op->parent && op->parent->parent ? op->parent->parent->parent : NULL;
  if (!parent) return;
  if (op->kind == IR_OP_SCF_CONDITION) {
    ir_block *after = ir_region_entry(&parent->regions[1]);
    for (int i = 1; i < op->noperands && after && i - 1 < after->nargs; i++)
      want_operand(st, op, i, after->args[i - 1]->type);
    return;
  }
  if (parent->kind == IR_OP_SCF_WHILE && op->parent == ir_region_entry(&parent->regions[1])) {
    ir_block *before = ir_region_entry(&parent->regions[0]);
    for (int i = 0; i < op->noperands && before && i < before->nargs; i++)
      want_operand(st, op, i, before->args[i]->type);
    return;
  }
  if (parent->kind == IR_OP_SCF_FOR || parent->kind == IR_OP_SCF_IF ||
      parent->kind == IR_OP_SCF_WHILE) {
    for (int i = 0; i < op->noperands && i < parent->nresults; i++)
      want_operand(st, op, i, parent->results[i].type);
  }
}

static void fix_result_follower(convert_state *st, ir_op *op, const ir_op_info *info);

/* Inserts the conversions each op needs after layouts were assigned. */
static void fix_operands(ir_op *op, void *user) {
  convert_state *st = user;
  const ir_op_info *info = ir_op_info_of(op);
  if (op->kind == IR_OP_TT_EXPAND_DIMS) {
    int axis = (int)ir_op_get_int(op, "axis", 0);
    want_layout(st, op, 0, ir_attr_slice(st->ctx, axis, op->results[0].type->layout));
  } else if (op->kind == IR_OP_TT_BROADCAST) {
    want_layout(st, op, 0, op->results[0].type->layout);
  } else if (op->kind == IR_OP_TT_STORE) { /* value and mask follow the pointer */
    for (int i = 1; i < op->noperands; i++) want_layout(st, op, i, op->operands[0]->type->layout);
  } else if (op->kind == IR_OP_SCF_FOR) { /* inits are carried as the loop's results */
    for (int i = 3; i < op->noperands && i - 3 < op->nresults; i++)
      want_operand(st, op, i, op->results[i - 3].type);
  } else if (op->kind == IR_OP_SCF_WHILE) {
    ir_block *before = ir_region_entry(&op->regions[0]);
    for (int i = 0; i < op->noperands && before && i < before->nargs; i++)
      want_operand(st, op, i, before->args[i]->type);
  } else if (op->kind == IR_OP_SCF_YIELD || op->kind == IR_OP_SCF_CONDITION) {
    fix_terminator(st, op);
  } else {
    fix_result_follower(st, op, info);
  }
}

/* Elementwise ops, loads and atomics: operands take the result's layout. */
static void fix_result_follower(convert_state *st, ir_op *op, const ir_op_info *info) {
  bool follows_result = (info->traits & IR_T_ELEMENTWISE) || op->kind == IR_OP_TT_LOAD ||
                        op->kind == IR_OP_TT_ATOMIC_RMW || op->kind == IR_OP_TT_ATOMIC_CAS;
  if (!follows_result || op->nresults != 1 || !ir_type_is_tensor(op->results[0].type)) return;
  for (int i = 0; i < op->noperands; i++)
    want_layout(st, op, i, op->results[0].type->layout);
}

static void set_i32_attr(ir_module *m, const char *name, int v) {
  ir_op_set_attr(m, m->op, name, ir_attr_int(m->ctx, ir_type_i32(m->ctx), v));
}

bool ttg_options_check(const ir_module *m, const ttg_options *opts) {
  int nw = opts->num_warps;
  if (nw < 1 || nw > 32 || (nw & (nw - 1))) {
    ir_error(m->ctx, m->op->loc, "num_warps must be a power of two in 1..32, got %d", nw);
    return false;
  }
  /* Layouts and codegen assume 32 lanes (lane = tid & 31, warp shuffles). */
  if (opts->threads_per_warp != 32) {
    ir_error(m->ctx, m->op->loc, "threads-per-warp must be 32, got %d", opts->threads_per_warp);
    return false;
  }
  if (opts->num_ctas < 1) {
    ir_error(m->ctx, m->op->loc, "num-ctas must be at least 1, got %d", opts->num_ctas);
    return false;
  }
  return true;
}

bool ttg_convert_to_ttgir(ir_module *m, const ttg_options *opts) {
  convert_state st = {m, m->ctx, opts, true};
  if (!ttg_options_check(m, opts)) return false;
  ir_walk(m->op, convert_op, &st);
  ir_walk(m->op, fix_operands, &st);
  set_i32_attr(m, "ttg.num-ctas", opts->num_ctas);
  set_i32_attr(m, "ttg.num-warps", opts->num_warps);
  set_i32_attr(m, "ttg.threads-per-warp", opts->threads_per_warp);
  char target[32];
  snprintf(target, sizeof target, "cuda:%d", opts->compute_capability);
  ir_op_set_attr(m, m->op, "ttg.target", ir_attr_string(m->ctx, target));
  return st.ok;
}

ttg_options ttg_module_options(const ir_module *m) {
  ttg_options o = {4, 32, 1, 90};
  o.num_warps = (int)ir_op_get_int(m->op, "ttg.num-warps", 4);
  o.threads_per_warp = (int)ir_op_get_int(m->op, "ttg.threads-per-warp", 32);
  o.num_ctas = (int)ir_op_get_int(m->op, "ttg.num-ctas", 1);
  const ir_attr *t = ir_op_get_attr(m->op, "ttg.target");
  if (t && t->kind == IR_ATTR_STRING) {
    int cc = 0;
    if (sscanf(t->s, "cuda:%d", &cc) == 1) o.compute_capability = cc;
  }
  return o;
}

/* Options override what the module's attributes say (the IR tool converts
 * modules that already carry some). */
bool ttg_pass_convert(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  ttg_options o = ttg_module_options(m);
  int64_t v;
  if (ir_pass_arg_int(args, "num-warps", &v)) o.num_warps = (int)v;
  if (ir_pass_arg_int(args, "threads-per-warp", &v)) o.threads_per_warp = (int)v;
  if (ir_pass_arg_int(args, "num-ctas", &v)) o.num_ctas = (int)v;
  if (ir_pass_arg_int(args, "target", &v)) o.compute_capability = (int)v;
  for (int i = 0; args && i < args->n; i++) {
    int64_t x;
    if (!ir_pass_arg_int(args, args->key[i], &x) || x < 0) {
      ir_error(m->ctx, m->op->loc, "bad value '%s' for option '%s' of '%s'%s", args->value[i],
               args->key[i], "convert-triton-to-tritongpu",
               strcmp(args->key[i], "target") == 0 ? " (expected cuda:NN)" : "");
      return false;
    }
  }
  return ttg_convert_to_ttgir(m, &o);
}
