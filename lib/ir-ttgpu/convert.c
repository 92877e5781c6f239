// SPDX-License-Identifier: MIT
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

/* Codegen's work and LLVM's grow faster than linearly in the elements one
 * thread holds (softmax at 2^20 columns: 2 s with 8192 per thread, 12 s and
 * 1 GB with 32768), so a tile that gives every thread more than
 * TTG_MAX_ELEMS_PER_THREAD even when spread over all threads is an error
 * that says how many warps would do. */
static void check_per_thread(convert_state *st, const ir_op *op, const ir_type *t) {
  if (!st->ok || !ir_type_is_tensor(t)) return;
  int64_t threads = (int64_t)st->opts->num_warps * st->opts->threads_per_warp;
  int64_t per = ir_type_numel(t) / (threads > 0 ? threads : 1);
  if (per <= TTG_MAX_ELEMS_PER_THREAD) return;
  int64_t warps = ir_type_numel(t) / TTG_MAX_ELEMS_PER_THREAD / st->opts->threads_per_warp;
  ir_error(st->ctx, op->loc,
           "a tensor of %lld elements gives each of the %lld threads %lld elements, above the "
           "limit of %d; use at least %lld warps",
           (long long)ir_type_numel(t), (long long)threads, (long long)per,
           TTG_MAX_ELEMS_PER_THREAD, (long long)warps);
  st->ok = false;
}

static void convert_op(ir_op *op, void *user) {
  convert_state *st = user;
  for (int i = 0; i < op->nresults; i++)
    check_per_thread(st, op, op->results[i].type);
  for (int r = 0; r < op->nregions; r++)
    for (ir_block *b = op->regions[r].first; b; b = b->next)
      for (int i = 0; i < b->nargs; i++)
        b->args[i]->type = default_tensor_type(st, b->args[i]->type);
  for (int i = 0; i < op->nresults; i++) {
    ir_value *res = &op->results[i];
    const ir_type *t = res->type;
    if (!ir_type_is_tensor(t) || t->layout) continue;
    if ((op->kind == IR_OP_TT_REDUCE) && op->noperands > 0) {
      /* The result drops dim `axis` of the operand: a slice of its layout. */
      const ir_type *src = op->operands[0]->type;
      int axis = (int)ir_op_get_int(op, "axis", 0);
      src = default_tensor_type(st, src);
      ttg_set_value_layout(st->m, res, ir_attr_slice(st->ctx, axis, src->layout));
      continue;
    }
    ttg_set_value_layout(st->m, res, default_tensor_type(st, t)->layout);
  }
}

static void set_i32_attr(ir_module *m, const char *name, int v) {
  ir_op_set_attr(m, m->op, name, ir_attr_int(m->ctx, ir_type_i32(m->ctx), v));
}

bool ttg_cc_known(int cc) {
  static const int ccs[] = {80, 86, 87, 88, 89, 90, 100, 101, 103, 110, 120, 121};
  for (size_t i = 0; i < sizeof ccs / sizeof ccs[0]; i++)
    if (cc == ccs[i]) return true;
  return false;
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
  /* The module's target, when it names one, is one ttc compiles for (as
   * --arch: sm_80 and newer); ttg_module_options reads only what parses. */
  const ir_attr *t = ir_op_get_attr(m->op, "ttg.target");
  int cc = 0;
  char tail = 0;
  bool ok = !t || (t->kind == IR_ATTR_STRING && sscanf(t->s, "cuda:%4d%c", &cc, &tail) == 1);
  if (!ok || (t && !ttg_cc_known(cc))) {
    ir_error(m->ctx, m->op->loc,
             "ttg.target must be \"cuda:N\" for a target ttc compiles for (80, 86, 87, 88, 89, "
             "90, 100, 101, 103, 110, 120, 121)%s%s%s",
             t && t->kind == IR_ATTR_STRING ? ", got \"" : "",
             t && t->kind == IR_ATTR_STRING ? t->s : "",
             t && t->kind == IR_ATTR_STRING ? "\"" : "");
    return false;
  }
  return true;
}

bool ttg_convert_to_ttgir(ir_module *m, const ttg_options *opts) {
  convert_state st = {m, m->ctx, opts, true};
  if (!ttg_options_check(m, opts)) return false;
  ir_walk(m->op, convert_op, &st);
  ttg_fix_operand_layouts(m);
  set_i32_attr(m, "ttg.num-ctas", opts->num_ctas);
  set_i32_attr(m, "ttg.num-warps", opts->num_warps);
  set_i32_attr(m, "ttg.threads-per-warp", opts->threads_per_warp);
  char target[32];
  snprintf(target, sizeof target, "cuda:%d", opts->compute_capability);
  ir_op_set_attr(m, m->op, "ttg.target", ir_attr_string(m->ctx, target));
  return st.ok;
}

ttg_options ttg_module_options(const ir_module *m) {
  ttg_options o = {4, 32, 1, 90, 3, false};
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
