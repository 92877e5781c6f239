// SPDX-License-Identifier: MIT
/* lower_stmt.c - lowering of statements: assignments (chained, tuple,
 * augmented, annotated), `if` (folded on constexprs, scf.if on runtime
 * scalars), `for` over range/tl.range (scf.for with loop-carried variables)
 * or tl.static_range (unrolled), `while` (scf.while), return, assert.
 *
 * Loop-carried variables are the names assigned in the body that are bound
 * before the loop; their types must stay the same across iterations. */
#include <stdlib.h>
#include <string.h>

#include "frontend/lower_impl.h"

#define MAX_CARRIED FE_MAX_CARRIED

/* ---- assignment ------------------------------------------------------------------ */

/* Binds v to a target: a name rebinds in the current frame; a tuple target
 * unpacks a tuple value of the same length; anything else is an error. */
static void assign_target(fe_lower *l, const fe_expr *t, fe_val v) {
  switch (t->kind) {
  case FE_EX_NAME: fe_scope_set(&l->frame->scope, t->name, v); return;
  case FE_EX_TUPLE:
  case FE_EX_LIST:
    if (v.kind == FE_V_ERROR) {
      for (int i = 0; i < t->n; i++)
        assign_target(l, t->items[i], v);
      return;
    }
    if (v.kind != FE_V_TUPLE) {
      fe_error(l, t->loc, "cannot unpack '%s' into %d targets", fe_val_type_str(l, &v), t->n);
      for (int i = 0; i < t->n; i++)
        assign_target(l, t->items[i], fe_val_error());
      return;
    }
    if (v.n != t->n) {
      fe_error(l, t->loc, "cannot unpack a tuple of %d into %d targets", v.n, t->n);
      for (int i = 0; i < t->n; i++)
        assign_target(l, t->items[i], fe_val_error());
      return;
    }
    for (int i = 0; i < t->n; i++)
      assign_target(l, t->items[i], v.items[i]);
    return;
  case FE_EX_SUBSCRIPT: fe_error(l, t->loc, "unsupported: assignment to a subscript"); return;
  case FE_EX_ATTR: fe_error(l, t->loc, "unsupported: assignment to an attribute"); return;
  default: fe_error(l, t->loc, "cannot assign to this expression"); return;
  }
}

static ir_op *insertion_mark(fe_lower *l) { return l->b.block ? l->b.block->last : NULL; }

/* The name hint of an assignment: its single plain-name target. */
static const char *hint_of(const fe_stmt *s) {
  if (s->ntargets >= 1 && s->targets[0]->kind == FE_EX_NAME) return s->targets[0]->name;
  return NULL;
}

/* Assignments bind names; constexpr values stay compile-time (so later
 * tl.arange(0, N // 2) still folds) and materialize only when they meet
 * runtime values or become loop-carried. Ops built for the right-hand side
 * take the target's name as their printed name hint, as Triton's NameLoc. */
static void lower_assign(fe_lower *l, const fe_stmt *s) {
  ir_op *mark = insertion_mark(l);
  fe_val v;
  if (s->kind == FE_ST_AUGASSIGN) {
    const fe_expr *t = s->targets[0];
    if (t->kind != FE_EX_NAME) {
      fe_error(l, t->loc, "unsupported: augmented assignment to a %s",
               t->kind == FE_EX_SUBSCRIPT ? "subscript" : "attribute");
      return;
    }
    fe_val cur = fe_lookup(l, t->name, t->loc);
    fe_val rhs = fe_lower_expr(l, s->value);
    v = fe_binary(l, s->op, cur, rhs, s->loc);
  } else if (s->kind == FE_ST_ANNASSIGN) {
    if (!s->value) return; /* bare annotation */
    v = fe_lower_expr(l, s->value);
    if (fe_is_constexpr_annotation(s->annotation)) {
      if (v.kind == FE_V_TENSOR)
        v = fe_error(l, s->value->loc, "value of constexpr '%s' must be a constant",
                     s->targets[0]->name);
    } else {
      fe_val ann = fe_lower_expr(l, s->annotation);
      if (ann.kind == FE_V_DTYPE) v = fe_cast(l, v, ann.ty, ann.is_unsigned, s->value->loc);
    }
  } else {
    v = fe_lower_expr(l, s->value);
  }
  fe_name_ops_after(l, mark, hint_of(s));
  for (int i = 0; i < s->ntargets; i++)
    assign_target(l, s->targets[i], v);
}

/* ---- helpers for control flow ------------------------------------------------------- */

/* Whether two bindings are the same value (the same IR value, or equal
 * constexprs): an `if` arm that leaves a name as it was needs no result. */
static bool same_val(const fe_val *a, const fe_val *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case FE_V_TENSOR: return a->v == b->v;
  case FE_V_INT:
  case FE_V_BOOL: return a->ival == b->ival;
  case FE_V_FLOAT: return a->fval == b->fval;
  case FE_V_DTYPE: return a->ty == b->ty && a->is_unsigned == b->is_unsigned;
  default: return a->path == b->path && a->fn == b->fn && a->items == b->items;
  }
}

/* ---- if ----------------------------------------------------------------------------- */

/* `if` on a runtime scalar: both arms lower into detached blocks from the
 * same starting scope; every name rebound in an arm and bound after both
 * becomes an scf.if result (constants convert to the other arm's type). The
 * scf.if is created last, once the result types are known. */
bool fe_if_condition(fe_lower *l, const fe_stmt *s, fe_val *cond) {
  *cond = fe_to_bool(l, *cond, s->cond->loc);
  if (cond->kind == FE_V_ERROR) return false;
  if (ir_type_is_tensor(cond->v->type)) {
    fe_error(l, s->cond->loc, "condition of 'if' must be a scalar, found '%s'",
             fe_val_type_str(l, cond));
    return false;
  }
  return true;
}

/* The scf.if of a lowered runtime `if`: yields the names either arm
 * rebound. Kept out of fe_lower_if_runtime (noinline) so that its tables,
 * tens of KiB, are not on the stack while nested statements recurse. */
__attribute__((noinline)) static void if_merge(fe_lower *l, const fe_stmt *s, fe_val cond,
                                               ir_block *outer, ir_block *const blocks[2],
                                               fe_scope pre, fe_scope arm[2]) {
  /* Names whose binding changed in an arm and exist after both arms. */
  const char *names[MAX_CARRIED];
  fe_val vals[2][MAX_CARRIED];
  int n = 0;
  bool ok = true;
  for (int i = 0; i < arm[0].n + arm[1].n; i++) {
    const char *name = i < arm[0].n ? arm[0].items[i].name : arm[1].items[i - arm[0].n].name;
    bool dup = false;
    for (int j = 0; j < n; j++)
      dup |= names[j] == name;
    fe_val *a = fe_scope_get(&arm[0], name), *b = fe_scope_get(&arm[1], name);
    fe_val *p = fe_scope_get(&pre, name);
    if (dup || !a || !b) continue;
    if (p && same_val(a, p) && same_val(b, p)) continue;
    if (n == MAX_CARRIED) { /* never drop one: the code after would read a stale value */
      fe_error(l, s->loc, "a runtime 'if' changes more than %d variables", MAX_CARRIED);
      ok = false;
      break;
    }
    names[n] = name;
    vals[0][n] = *a;
    vals[1][n++] = *b;
  }
  /* Unify each yielded pair's type inside its arm. */
  const ir_type *types[MAX_CARRIED];
  bool keep[MAX_CARRIED];
  int nres = 0;
  for (int i = 0; i < n; i++) {
    fe_val *a = &vals[0][i], *b = &vals[1][i];
    keep[i] = false;
    if (a->kind == FE_V_ERROR || b->kind == FE_V_ERROR) continue;
    if (same_val(a, b)) continue; /* e.g. the same constant in both arms */
    bool ra = a->kind == FE_V_TENSOR || fe_is_const(a),
         rb = b->kind == FE_V_TENSOR || fe_is_const(b);
    if (!ra || !rb) {
      fe_error(l, s->loc,
               "unsupported: variable '%s' bound to a non-tensor value in a runtime 'if'",
               names[i]);
      ok = false;
      continue;
    }
    for (int k = 0; k < 2; k++) {
      ir_builder_set_end(&l->b, blocks[k]);
      fe_val *v = &vals[k][i], *o = &vals[1 - k][i];
      if (fe_is_const(v) && o->kind == FE_V_TENSOR)
        *v = fe_cast(l, *v, o->v->type, o->is_unsigned, s->loc);
      else
        *v = fe_to_tensor(l, *v, s->loc);
    }
    if (a->kind == FE_V_ERROR || b->kind == FE_V_ERROR) {
      ok = false;
      continue;
    }
    if (a->v->type != b->v->type) {
      fe_error(l, s->loc,
               "variable '%s' has type '%s' in the 'if' branch and '%s' in the 'else' "
               "branch",
               names[i], fe_val_type_str(l, a), fe_val_type_str(l, b));
      ok = false;
      continue;
    }
    keep[i] = true;
    types[nres++] = a->v->type;
  }
  fe_scope_free(&l->frame->scope);
  l->frame->scope = pre;
  if (ok) {
    for (int k = 0; k < 2; k++) {
      ir_value *ys[MAX_CARRIED];
      int ny = 0;
      for (int i = 0; i < n; i++)
        if (keep[i]) ys[ny++] = vals[k][i].v;
      ir_builder_set_end(&l->b, blocks[k]);
      l->b.loc = s->loc;
      if (ny || k == 0 || s->orelse.n) ir_build(&l->b, IR_OP_SCF_YIELD, 0, NULL, ny, ys, 0);
    }
    ir_builder_set_end(&l->b, outer);
    l->b.loc = s->loc;
    ir_op *op = ir_build(&l->b, IR_OP_SCF_IF, nres, types, 1, &cond.v, 2);
    ir_region_append_block(&op->regions[0], blocks[0]);
    if (nres || s->orelse.n) ir_region_append_block(&op->regions[1], blocks[1]);
    int r = 0;
    for (int i = 0; i < n; i++) {
      if (keep[i]) {
        ir_value *res = ir_op_result(op, r++);
        res->name = names[i];
        fe_scope_set(&l->frame->scope, names[i], fe_val_tensor(res, vals[0][i].is_unsigned));
      } else if (same_val(&vals[0][i], &vals[1][i])) {
        fe_scope_set(&l->frame->scope, names[i], vals[0][i]);
      }
    }
  }
  ir_builder_set_end(&l->b, outer);
  fe_scope_free(&arm[0]);
  fe_scope_free(&arm[1]);
}

void fe_lower_if_runtime(fe_lower *l, const fe_stmt *s, fe_val cond) {
  if (!fe_if_condition(l, s, &cond)) return;
  ir_block *outer = l->b.block;
  fe_scope pre, arm[2];
  fe_scope_copy(&pre, &l->frame->scope);
  ir_block *blocks[2];
  const fe_body *bodies[2] = {&s->body, &s->orelse};
  l->frame->runtime_cf++;
  for (int k = 0; k < 2; k++) {
    blocks[k] = ir_block_create(l->m, 0, NULL);
    ir_builder_set_end(&l->b, blocks[k]);
    fe_scope_free(&l->frame->scope);
    fe_scope_copy(&l->frame->scope, &pre);
    fe_lower_body(l, bodies[k]);
    fe_scope_copy(&arm[k], &l->frame->scope);
  }
  l->frame->runtime_cf--;
  if_merge(l, s, cond, outer, blocks, pre, arm);
}

/* `if`: folded on a constexpr (the chosen arm lowers inline, in the same
 * continuation); a runtime condition gives scf.if, or, when an arm returns
 * and no loop encloses the `if`, an scf.if whose arms each run the rest of
 * the function (lower_return.c). */
static void lower_if(fe_lower *l, const fe_stmt *s) {
  fe_val c = fe_lower_expr(l, s->cond);
  if (c.kind == FE_V_ERROR) return;
  if (c.kind != FE_V_TENSOR) { /* constexpr: fold */
    const fe_body *arm = fe_const_truth(&c) ? &s->body : &s->orelse;
    fe_lower_stmts(l, (const fe_stmt *const *)arm->stmts, arm->n, l->frame->cont);
    return;
  }
  if (l->frame->runtime_cf == 0 && l->frame->static_loops == 0 &&
      (fe_has_return(&s->body) || fe_has_return(&s->orelse))) {
    fe_lower_returning_if(l, s, c);
    return;
  }
  fe_lower_if_runtime(l, s, c);
}

/* ---- for ---------------------------------------------------------------------------- */

/* One unrolled copy of a loop body with the target bound to x; false when
 * the loop ends (a return, or a `break` under constexpr conditions). */
static bool unroll_one(fe_lower *l, const fe_stmt *s, fe_val x) {
  fe_frame *f = l->frame;
  assign_target(l, s->target, x);
  fe_lower_body(l, &s->body);
  /* break / continue under constexpr conditions end this copy of the body */
  fe_jump j = f->jump;
  f->jump = FE_JUMP_NONE;
  return !f->returned && j != FE_JUMP_BREAK;
}

/* tl.static_range(lb, ub, step): the body lowered once per iteration with
 * the induction variable bound to a constexpr; `break` / `continue` under
 * constexpr conditions end a copy early (frame->jump). */
static void lower_static_range(fe_lower *l, const fe_stmt *s, const fe_val *b, const ir_loc *locs) {
  int64_t v[3];
  for (int i = 0; i < 3; i++) {
    if (b[i].kind != FE_V_INT) {
      fe_error(l, locs[i], "static_range bounds must be constexpr integers, found '%s'",
               fe_val_type_str(l, &b[i]));
      return;
    }
    v[i] = b[i].ival;
  }
  if (v[2] == 0) {
    fe_error(l, locs[2], "static_range step must not be zero");
    return;
  }
  int64_t count = 0;
  fe_frame *f = l->frame;
  int saved_base = f->static_cf_base;
  f->static_loops++;
  f->static_cf_base = f->runtime_cf;
  /* The next value is computed with an overflow check: past 64 bits the
   * range has ended (Python's ints would only grow further). */
  for (int64_t i = v[0]; v[2] > 0 ? i < v[1] : i > v[1];) {
    if (++count > 4096) {
      fe_error(l, s->iter->loc, "static_range unrolls more than 4096 iterations");
      break;
    }
    if (!unroll_one(l, s, fe_val_int(i))) break;
    if (__builtin_add_overflow(i, v[2], &i)) break;
  }
  f->static_loops--;
  f->static_cf_base = saved_base;
}

/* `for x in (a, b, c)` over a compile-time sequence: unrolled like
 * tl.static_range, one copy of the body per item. */
static void lower_for_items(fe_lower *l, const fe_stmt *s, fe_val seq) {
  fe_val *items;
  int n;
  if (!fe_iterate(l, seq, s->iter->loc, &items, &n)) return;
  fe_frame *f = l->frame;
  int saved_base = f->static_cf_base;
  f->static_loops++;
  f->static_cf_base = f->runtime_cf;
  for (int i = 0; i < n && i < 4096; i++)
    if (!unroll_one(l, s, items[i])) break;
  f->static_loops--;
  f->static_cf_base = saved_base;
}

/* break / continue: only in tl.static_range loops and not under a runtime
 * `if` there (the unrolled copies are cut at compile time). Triton itself
 * rejects both statements. */
static void lower_jump(fe_lower *l, const fe_stmt *s) {
  const char *what = s->kind == FE_ST_BREAK ? "break" : "continue";
  fe_frame *f = l->frame;
  if (f->static_loops == 0 && f->loops == 0) {
    fe_error(l, s->loc, "'%s' outside a loop", what);
    return;
  }
  if (f->static_loops == 0) {
    fe_error(l, s->loc,
             "unsupported: '%s' in a runtime loop (Triton rejects it as well; use a "
             "'while' loop with a flag)",
             what);
    return;
  }
  if (f->runtime_cf > f->static_cf_base) {
    fe_error(l, s->loc,
             "unsupported: '%s' under a runtime condition (only constexpr conditions "
             "can end a tl.static_range iteration)",
             what);
    return;
  }
  f->jump = s->kind == FE_ST_BREAK ? FE_JUMP_BREAK : FE_JUMP_CONTINUE;
}

/* The keyword arguments of tl.range: num_stages (a constexpr int, kept as
 * the loop's tt.num_stages for tritongpu-pipeline) and flatten (a constexpr
 * bool, kept as tt.flatten for tritongpu-fuse-nested-loops); loop_unroll_factor,
 * disallow_acc_multi_buffer and warp_specialize are accepted and
 * have no effect (docs/language.md). range() takes none. */
static bool loop_options(fe_lower *l, const fe_expr *it, bool is_tl_range, int *num_stages,
                         bool *flatten) {
  static const char *const ignored[] = {"loop_unroll_factor", "disallow_acc_multi_buffer",
                                        "flatten", "warp_specialize", NULL};
  for (int i = 0; i < it->nkw; i++) {
    const char *k = it->kwnames[i];
    bool known = k && is_tl_range && strcmp(k, "num_stages") == 0;
    for (int j = 0; k && is_tl_range && ignored[j]; j++)
      known = known || strcmp(k, ignored[j]) == 0;
    if (!known) {
      fe_error(l, it->kwvals[i]->loc, "unexpected keyword argument '%s' for %s", k ? k : "**",
               is_tl_range ? "tl.range" : "range");
      return false;
    }
    fe_val v = fe_lower_expr(l, it->kwvals[i]);
    if (v.kind == FE_V_ERROR) return false;
    if (strcmp(k, "flatten") == 0) {
      if (v.kind != FE_V_BOOL && v.kind != FE_V_NONE) {
        fe_error(l, it->kwvals[i]->loc, "flatten must be a constexpr bool, found '%s'",
                 fe_val_type_str(l, &v));
        return false;
      }
      *flatten = v.kind == FE_V_BOOL && v.ival;
    }
    if (strcmp(k, "num_stages") != 0) continue;
    if (v.kind == FE_V_NONE) continue;
    if (v.kind != FE_V_INT || v.ival < 0 || v.ival > 16) {
      fe_error(l, it->kwvals[i]->loc, "num_stages must be a constexpr int in 0..16, found '%s'",
               fe_val_type_str(l, &v));
      return false;
    }
    *num_stages = v.ival == 0 ? 1 : (int)v.ival;
  }
  return true;
}

/* `for i in range(lb, ub, step)` / tl.range: scf.for with i32 bounds (i64
 * when a bound is 64-bit); the body block's arguments are the induction
 * variable and the loop-carried values; tl.static_range unrolls instead. */
static void lower_for(fe_lower *l, const fe_stmt *s) {
  const fe_expr *it = s->iter;
  fe_val callee = it->kind == FE_EX_CALL ? fe_lower_expr(l, it->a) : fe_val_error();
  if (callee.kind == FE_V_ERROR && it->kind == FE_EX_CALL) return;
  bool is_static = callee.kind == FE_V_BUILTIN && strcmp(callee.path, "tl.static_range") == 0;
  if (callee.kind != FE_V_BUILTIN || (strcmp(callee.path, "py.range") != 0 &&
                                      strcmp(callee.path, "tl.range") != 0 && !is_static)) {
    fe_val seq = fe_lower_expr(l, it);
    if (seq.kind == FE_V_TUPLE || seq.kind == FE_V_LIST) {
      lower_for_items(l, s, seq);
      return;
    }
    if (seq.kind != FE_V_ERROR)
      fe_error(l, it->loc,
               "unsupported: 'for' over anything but range, tl.range, "
               "tl.static_range or a compile-time tuple");
    return;
  }
  if (s->target->kind != FE_EX_NAME) {
    fe_error(l, s->target->loc, "unsupported: loop target other than a name");
    return;
  }
  if (it->n < 1 || it->n > 3) {
    fe_error(l, it->loc, "range expects 1 to 3 arguments, found %d", it->n);
    return;
  }
  fe_val b[3];
  ir_loc locs[3];
  for (int i = 0; i < it->n; i++) {
    b[i] = fe_lower_expr(l, it->items[i]);
    locs[i] = it->items[i]->loc;
    if (b[i].kind == FE_V_ERROR) return;
  }
  if (it->n == 1) {
    b[1] = b[0];
    locs[1] = locs[0];
    b[0] = fe_val_int(0);
  }
  if (it->n < 3) {
    b[2] = fe_val_int(1);
    locs[2] = it->loc;
  }
  if (is_static) {
    lower_static_range(l, s, b, locs);
    return;
  }
  int num_stages = 0;
  bool flatten = false;
  if (!loop_options(l, it, strcmp(callee.path, "tl.range") == 0, &num_stages, &flatten)) return;
  if (b[2].kind == FE_V_INT && b[2].ival == 0) {
    fe_error(l, locs[2], "range step must not be zero");
    return;
  }
  /* A negative constexpr step runs the loop upward over the swapped bounds
   * and maps the induction variable back: i = ub + lb - iv (as Triton). */
  bool negative = b[2].kind == FE_V_INT && b[2].ival < 0;
  if (negative) {
    fe_val t = b[0];
    b[0] = b[1];
    b[1] = t;
    b[2] = fe_val_int(-b[2].ival);
  }
  /* Bounds: a common integer type, i32 unless one is 64-bit. */
  const ir_type *ivt = ir_type_i32(l->ctx);
  for (int i = 0; i < 3; i++) {
    if (b[i].kind == FE_V_FLOAT || (b[i].kind == FE_V_TENSOR && (ir_type_is_tensor(b[i].v->type) ||
                                                                 !ir_type_is_int(b[i].v->type)))) {
      fe_error(l, locs[i], "range bounds must be integer scalars, found '%s'",
               fe_val_type_str(l, &b[i]));
      return;
    }
    b[i] = fe_to_tensor(l, b[i], locs[i]);
    if (b[i].kind == FE_V_ERROR) return;
    if (b[i].v->type->width == 64) ivt = ir_type_i64(l->ctx);
  }
  for (int i = 0; i < 3; i++) {
    b[i] = fe_cast(l, b[i], ivt, false, locs[i]);
    if (b[i].kind == FE_V_ERROR) return;
  }
  /* the carry tables (tens of KiB) live on the heap: loops nest and the
   * body recurses while they are live */
  fe_carry *carry = malloc(sizeof *carry);
  if (!carry) {
    fe_error(l, s->loc, "out of memory");
    return;
  }
  if (!fe_carry_collect(l, &s->body, s->target->name, carry, s->loc)) {
    free(carry);
    return;
  }
  int n = carry->nleaves;
  const ir_type *types[MAX_CARRIED + 1];
  types[0] = ivt;
  for (int i = 0; i < n; i++)
    types[i + 1] = carry->leaves[i].v->type;
  ir_block *outer = l->b.block;
  ir_block *body = ir_block_create(l->m, n + 1, types);
  body->args[0]->name = s->target->name;
  fe_scope pre;
  fe_scope_copy(&pre, &l->frame->scope);
  ir_builder_set_end(&l->b, body);
  fe_val iv = fe_val_tensor(body->args[0], false);
  if (negative) {
    l->b.loc = s->target->loc;
    ir_value *sum = ir_build_binary(&l->b, IR_OP_ARITH_ADDI, b[1].v, b[0].v);
    iv = fe_val_tensor(ir_build_binary(&l->b, IR_OP_ARITH_SUBI, sum, body->args[0]), false);
    iv.v->name = s->target->name;
  }
  fe_scope_set(&l->frame->scope, s->target->name, iv);
  for (int i = 0; i < n; i++)
    body->args[i + 1]->name = carry->leaf_name[i];
  fe_carry_bind(l, carry, body->args + 1);
  ir_builder_set_end(&l->b, body);
  l->frame->runtime_cf++;
  l->frame->loops++;
  fe_lower_body(l, &s->body);
  l->frame->loops--;
  l->frame->runtime_cf--;
  ir_value *ys[MAX_CARRIED];
  bool ok = fe_carry_yield(l, carry, ys, "loop-carried variable", s->loc);
  l->b.loc = s->loc;
  if (ok) ir_build(&l->b, IR_OP_SCF_YIELD, 0, NULL, n, ys, 0);
  fe_scope_free(&l->frame->scope);
  l->frame->scope = pre;
  ir_builder_set_end(&l->b, outer);
  if (!ok) {
    free(carry);
    return;
  }
  ir_value *ops[MAX_CARRIED + 3] = {b[0].v, b[1].v, b[2].v};
  for (int i = 0; i < n; i++)
    ops[i + 3] = carry->leaves[i].v;
  l->b.loc = s->loc;
  ir_op *op = ir_build(&l->b, IR_OP_SCF_FOR, n, types + 1, n + 3, ops, 1);
  if (num_stages > 0)
    ir_op_set_attr(l->m, op, "tt.num_stages", ir_attr_int(l->ctx, ir_type_i32(l->ctx), num_stages));
  if (flatten) ir_op_set_attr(l->m, op, "tt.flatten", ir_attr_unit(l->ctx));
  ir_region_append_block(&op->regions[0], body);
  ir_value *res[MAX_CARRIED];
  for (int i = 0; i < n; i++) {
    res[i] = ir_op_result(op, i);
    res[i]->name = carry->leaf_name[i];
  }
  fe_carry_bind(l, carry, res);
  free(carry);
}

/* ---- while -------------------------------------------------------------------------- */

/* `while cond: body` as scf.while: the "before" region evaluates the
 * condition on the carried values, the "after" region runs the body. */
static void lower_while(fe_lower *l, const fe_stmt *s) {
  fe_carry *carry = malloc(sizeof *carry); /* on the heap, as lower_for's */
  if (!carry) {
    fe_error(l, s->loc, "out of memory");
    return;
  }
  if (!fe_carry_collect(l, &s->body, NULL, carry, s->loc)) {
    free(carry);
    return;
  }
  int n = carry->nleaves;
  const ir_type *types[MAX_CARRIED];
  for (int i = 0; i < n; i++)
    types[i] = carry->leaves[i].v->type;
  ir_block *outer = l->b.block;
  fe_scope pre;
  fe_scope_copy(&pre, &l->frame->scope);
  ir_block *blocks[2];
  bool ok = true;
  l->frame->runtime_cf++;
  for (int k = 0; k < 2; k++) {
    blocks[k] = ir_block_create(l->m, n, types);
    fe_scope_free(&l->frame->scope);
    fe_scope_copy(&l->frame->scope, &pre);
    for (int i = 0; i < n; i++)
      blocks[k]->args[i]->name = carry->leaf_name[i];
    fe_carry_bind(l, carry, blocks[k]->args);
    ir_builder_set_end(&l->b, blocks[k]);
    if (k == 0) { /* before: evaluate the condition */
      fe_val c = fe_lower_expr(l, s->cond);
      if (c.kind != FE_V_ERROR) c = fe_to_bool(l, c, s->cond->loc);
      if (c.kind == FE_V_ERROR) {
        ok = false;
        continue;
      }
      if (ir_type_is_tensor(c.v->type)) {
        fe_error(l, s->cond->loc, "condition of 'while' must be a scalar, found '%s'",
                 fe_val_type_str(l, &c));
        ok = false;
        continue;
      }
      ir_value *ops[MAX_CARRIED + 1];
      ops[0] = c.v;
      for (int i = 0; i < n; i++)
        ops[i + 1] = blocks[0]->args[i];
      l->b.loc = s->cond->loc;
      ir_build(&l->b, IR_OP_SCF_CONDITION, 0, NULL, n + 1, ops, 0);
    } else { /* after: the body */
      l->frame->loops++;
      fe_lower_body(l, &s->body);
      l->frame->loops--;
      ir_value *ys[MAX_CARRIED];
      ok &= fe_carry_yield(l, carry, ys, "loop-carried variable", s->loc);
      l->b.loc = s->loc;
      if (ok) ir_build(&l->b, IR_OP_SCF_YIELD, 0, NULL, n, ys, 0);
    }
  }
  l->frame->runtime_cf--;
  fe_scope_free(&l->frame->scope);
  l->frame->scope = pre;
  ir_builder_set_end(&l->b, outer);
  if (!ok) {
    free(carry);
    return;
  }
  ir_value *ops[MAX_CARRIED];
  for (int i = 0; i < n; i++)
    ops[i] = carry->leaves[i].v;
  l->b.loc = s->loc;
  ir_op *op = ir_build(&l->b, IR_OP_SCF_WHILE, n, types, n, ops, 2);
  ir_region_append_block(&op->regions[0], blocks[0]);
  ir_region_append_block(&op->regions[1], blocks[1]);
  ir_value *res[MAX_CARRIED];
  for (int i = 0; i < n; i++) {
    res[i] = ir_op_result(op, i);
    res[i]->name = carry->leaf_name[i];
  }
  fe_carry_bind(l, carry, res);
  free(carry);
}

/* ---- statements ----------------------------------------------------------------------- */

/* One statement at the builder's insertion point; errors are reported and
 * lowering continues with the next statement. */
static void lower_stmt(fe_lower *l, const fe_stmt *s) {
  l->b.loc = s->loc;
  switch (s->kind) {
  case FE_ST_EXPR:
    if (s->value->kind == FE_EX_STR) return; /* docstring */
    (void)fe_lower_expr(l, s->value);
    return;
  case FE_ST_ASSIGN:
  case FE_ST_AUGASSIGN:
  case FE_ST_ANNASSIGN: lower_assign(l, s); return;
  case FE_ST_IF: lower_if(l, s); return;
  case FE_ST_FOR: lower_for(l, s); return;
  case FE_ST_WHILE: lower_while(l, s); return;
  case FE_ST_BREAK:
  case FE_ST_CONTINUE: lower_jump(l, s); return;
  case FE_ST_PASS: return;
  case FE_ST_RETURN: {
    if (l->frame->runtime_cf > 0) {
      fe_error(l, s->loc, "unsupported: 'return' inside a loop (Triton rejects it as well)");
      return;
    }
    fe_val v = s->value ? fe_lower_expr(l, s->value) : fe_val_none();
    l->frame->ret = v;
    l->frame->returned = true;
    return;
  }
  case FE_ST_RAISE: { /* reached on this specialization: a compile-time error */
    fe_val m = s->value ? fe_lower_expr(l, s->value) : fe_val_none();
    if (m.kind == FE_V_STR)
      fe_error(l, s->loc, "raise reached in a kernel: %s", m.path);
    else if (m.kind != FE_V_ERROR)
      fe_error(l, s->loc, "raise reached in a kernel");
    l->frame->returned = true;
    return;
  }
  case FE_ST_GLOBAL: /* Triton's code generator has no visitor for them either */
    fe_error(l, s->loc, "unsupported: 'global' or 'nonlocal' in a jit function");
    return;
  case FE_ST_DEF: fe_error(l, s->loc, "unsupported: a nested function in a jit function"); return;
  case FE_ST_ASSERT: {
    fe_val c = fe_lower_expr(l, s->cond);
    if (c.kind == FE_V_ERROR) return;
    if (c.kind == FE_V_TENSOR) { /* a device assertion, as Triton: debug mode only */
      fe_val m = s->msg ? fe_lower_expr(l, s->msg) : fe_val_none();
      (void)fe_build_assert(l, c, m, fe_val_none(), s->loc);
      return;
    }
    if (!fe_const_truth(&c)) {
      fe_val m = s->msg ? fe_lower_expr(l, s->msg) : fe_val_none();
      if (m.kind == FE_V_STR)
        fe_error(l, s->loc, "assertion failed: %s", m.path);
      else
        fe_error(l, s->loc, "assertion failed");
    }
    return;
  }
  }
}

/* Each statement sees the statements after it (and `next`) as its
 * continuation, which a returning runtime `if` lowers into its arms. Lowering
 * stops after a `return` or a pending static_range jump. */
void fe_lower_stmts(fe_lower *l, const fe_stmt *const *stmts, int n, const fe_cont *next) {
  fe_frame *f = l->frame;
  const fe_cont *saved = f->cont;
  for (int i = 0; i < n && !f->returned && f->jump == FE_JUMP_NONE && !l->too_many_ops; i++) {
    if (l->m && l->m->nops > ir_context_max_ops(l->ctx)) { /* bounds memory and time */
      char limit[96];
      ir_format_op_limit(l->ctx, limit, sizeof limit);
      fe_error(l, stmts[i]->loc, "the kernel lowers to %s", limit);
      l->too_many_ops = true;
      break;
    }
    if (++l->steps > FE_MAX_STEPS) {
      fe_error(l, stmts[i]->loc,
               "compile-time evaluation runs more than %lld statements (static_range "
               "iterations and helper calls included)",
               (long long)FE_MAX_STEPS);
      l->too_many_ops = true;
      break;
    }
    /* the lowering's scratch and what the context gained (interned strings
     * stay for the context's life; a string made again adds nothing) */
    if (l->arena->total + (ir_context_arena_bytes(l->ctx) - l->ctx_bytes0) > FE_MAX_SCRATCH_BYTES) {
      fe_error(l, stmts[i]->loc, "compile-time values take more than %zu MiB",
               FE_MAX_SCRATCH_BYTES >> 20);
      l->too_many_ops = true;
      break;
    }
    fe_cont here = {stmts + i + 1, n - i - 1, next};
    f->cont = &here;
    lower_stmt(l, stmts[i]);
  }
  f->cont = saved;
}

/* A body nested in a loop or a runtime `if` starts a fresh continuation. */
void fe_lower_body(fe_lower *l, const fe_body *body) {
  fe_lower_stmts(l, (const fe_stmt *const *)body->stmts, body->n, NULL);
}
