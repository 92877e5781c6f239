// SPDX-License-Identifier: MIT
/* fuse_nested_loops.c - tritongpu-fuse-nested-loops: a loop marked
 * tt.flatten (tl.range(..., flatten=True)) that holds one inner loop
 * becomes one loop, as Triton's pass of that name does, so the pipeliner
 * keeps the next tile's loads in flight across the outer iterations (the
 * persistent matmul's tile loop):
 *
 *   for i in range(lb, ub, step):         for f in range(0, len_i * len_j):
 *     P(i)                                  (o, k: counters; i = lb + o * step,
 *     for j in range(lbj, ubj, stepj):  =>   j = lbj + k * stepj)
 *       x = S(i, j, x)    (x from P)        x = P(i)'s x if k == 0 else x   (scf.if)
 *     E(i, x)                               x = S(i, j, x)
 *                                           if k == len_j - 1: P(i); E(i, x)
 *                                           k, o = k + 1, o (or 0, o + 1 at len_j)
 *
 * P (the pure ops before the inner loop, after the loop-invariant ones
 * are hoisted in front of the loop) runs under `scf.if k == 0`, once per
 * outer iteration: it yields the inner loop's starting values and the
 * values of P the inner body reads, which the fused loop carries. A
 * starting value made before the loop (a zero accumulator) restarts
 * through arith.select instead (tritongpu-optimize-accumulator-init then
 * makes it wgmma's useC). The outer loop's carried values change only in
 * E, which runs under `scf.if k == len_j - 1` with its own copy of P. The
 * counters come in two pairs: one read by the loads' address computations,
 * which the pipeliner runs ahead, one for the rest (a carried value that
 * the ahead slice reads must be read by nothing else).
 *
 * Unlike Triton's form (scf.if around the inner body, which also handles
 * an inner loop of zero trips), the fused loop runs only when both loops
 * run and len_i * len_j fits in i32; otherwise the original nest runs
 * (kept as the else branch of an scf.if). Conditions: i32 induction
 * variables, constant positive steps, inner bounds invariant in the outer
 * loop, pure ops before the inner loop, inner carried values of int,
 * float or pointer types (or tensors of them).
 *
 * The fused loop is marked ttg.fused: tritongpu-pipeline, which is what
 * makes it pay, puts the original nest back (ttg_unfuse) when it cannot
 * pipeline it.
 *
 * Needs: ttgir (after tritongpu-accelerate-matmul), before
 * tritongpu-optimize-accumulator-init and tritongpu-pipeline. With the
 * remarks option each tt.flatten loop gets a remark: fused, or why not. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir-ttgpu/ttg.h"

const char *const ttg_fuse_nested_loops_options[] = {"remarks", NULL};

enum { FN_MAX_LOOPS = 256 };

typedef struct fn_state {
  ir_module *m;
  ir_context *ctx;
  ir_subst map;
  bool oom;        /* a map ran out of memory */
  const char *why; /* why the loop was left alone */
} fn_state;

/* A detached copy of op and its regions, renamed through st->map. */
static ir_op *clone_op(fn_state *st, const ir_op *op) { return ir_op_clone(st->m, op, &st->map); }

/* ---- analysis --------------------------------------------------------- */

static ir_op *yield_of(const ir_block *b) {
  return b && b->last && b->last->kind == IR_OP_SCF_YIELD ? b->last : NULL;
}

/* A positive constant step, or 0. */
static int64_t const_step(const ir_value *v) {
  const ir_op *d = v->def;
  if (!d || d->kind != IR_OP_ARITH_CONSTANT) return 0;
  const ir_attr *a = ir_op_get_attr(d, "value");
  return a && a->kind == IR_ATTR_INT && a->i > 0 ? a->i : 0;
}

/* Whether v is defined before `outer` (it then dominates the loop). */
static bool outside(const ir_value *v, const ir_block *ob) {
  if (!v->def) return v->owner != ob;
  return v->def->parent != ob;
}

/* Division whose divisor may be zero: not hoisted out of a loop that
 * might not run (the loop guards it). */
static bool may_trap(const ir_op *op) {
  if (op->kind != IR_OP_ARITH_DIVSI && op->kind != IR_OP_ARITH_DIVUI &&
      op->kind != IR_OP_ARITH_REMSI && op->kind != IR_OP_ARITH_REMUI)
    return false;
  const ir_op *d = op->operands[1]->def;
  const ir_attr *a = d && d->kind == IR_OP_ARITH_CONSTANT ? ir_op_get_attr(d, "value") : NULL;
  if (a && a->kind == IR_ATTR_DENSE) a = a->elem;
  return !a || a->kind != IR_ATTR_INT || a->i == 0;
}

/* Loop-invariant code motion over P (the pure ops before the inner loop):
 * an op whose operands are all defined before the loop moves in front of
 * it, so P keeps only what varies with the outer loop. */
static void hoist_invariants(ir_op *outer, ir_op *inner) {
  ir_block *ob = outer->regions[0].first;
  for (ir_op *op = ob->first, *next; op != inner; op = next) {
    next = op->next;
    bool inv = !may_trap(op);
    for (int i = 0; inv && i < op->noperands; i++)
      inv = outside(op->operands[i], ob);
    if (!inv) continue;
    ir_op_unlink(op);
    ir_op_insert_before(outer, op);
  }
}

/* Whether arith.select takes values of type t. */
static bool selectable(const ir_type *t) {
  const ir_type *e = ir_type_is_tensor(t) ? t->elem : t;
  return e->kind == IR_TY_INT || e->kind == IR_TY_FLOAT || e->kind == IR_TY_PTR;
}

/* The inner loop of `outer` when the nest can be fused, else NULL (st->why
 * says why). */
static ir_op *fusable(fn_state *st, ir_op *outer) {
  ir_block *ob = outer->regions[0].first;
  ir_op *inner = NULL;
  st->why = "its body is not one block ending in scf.yield";
  if (!ob || ob->next || !yield_of(ob)) return NULL;
  for (ir_op *op = ob->first; op; op = op->next) {
    if (op->kind != IR_OP_SCF_FOR) continue;
    st->why = "it holds more than one loop";
    if (inner) return NULL;
    inner = op;
  }
  st->why = "it holds no loop";
  if (!inner) return NULL;
  ir_block *ib = inner->regions[0].first;
  st->why = "the inner loop's body is not one block ending in scf.yield";
  if (!ib || ib->next || !yield_of(ib)) return NULL;
  for (ir_op *op = ob->first; op != inner; op = op->next) {
    st->why = "an op before the inner loop is not pure (the fused loop recomputes it)";
    if (!ir_op_is_pure(op)) return NULL;
  }
  const ir_type *i32 = ir_type_i32(st->ctx);
  st->why = "an induction variable is not i32";
  if (outer->operands[0]->type != i32 || inner->operands[0]->type != i32) return NULL;
  st->why = "a step is not a positive constant";
  if (!const_step(outer->operands[2])) return NULL;
  st->why = "the inner loop carries a value that is not an int, float or pointer (or a tensor "
            "of them)";
  for (int i = 3; i < inner->noperands; i++)
    if (!selectable(inner->operands[i]->type)) return NULL;
  /* The inner bounds: invariant, after hoisting. */
  hoist_invariants(outer, inner);
  st->why = "the inner loop's bounds vary with the outer loop";
  for (int i = 0; i < 3; i++)
    if (!outside(inner->operands[i], ob)) return NULL;
  st->why = "the inner loop's step is not a positive constant";
  if (!const_step(inner->operands[2])) return NULL;
  return inner;
}

/* ---- the rewrite ------------------------------------------------------ */

/* len(range(lb, ub, step)) for a positive step, in i64. */
static ir_value *trip_count(ir_builder *b, ir_value *lb, ir_value *ub, int64_t step) {
  const ir_type *i64 = ir_type_i64(b->ctx);
  ir_value *d = ir_build_binary(b, IR_OP_ARITH_SUBI, ir_build_unary(b, IR_OP_ARITH_EXTSI, i64, ub),
                                ir_build_unary(b, IR_OP_ARITH_EXTSI, i64, lb));
  ir_value *n =
      ir_build_binary(b, IR_OP_ARITH_DIVSI,
                      ir_build_binary(b, IR_OP_ARITH_ADDI, d, ir_build_const_int(b, i64, step - 1)),
                      ir_build_const_int(b, i64, step));
  return ir_build_binary(b, IR_OP_ARITH_MAXSI, n, ir_build_const_int(b, i64, 0));
}

/* Values of P (the ops before the inner loop, after hoisting) that the
 * inner loop's body reads directly: the fused loop carries them. */
typedef struct vset {
  ir_value **v;
  int n, cap;
} vset;

static void vset_add(fn_state *st, vset *s, ir_value *v) {
  for (int i = 0; i < s->n; i++)
    if (s->v[i] == v) return;
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 16;
    ir_value **nv = ir_arena_alloc(&st->m->arena, sizeof *nv * (size_t)cap);
    IR_ASSERT(nv);
    if (s->n) memcpy(nv, s->v, sizeof *nv * (size_t)s->n);
    s->v = nv;
    s->cap = cap;
  }
  s->v[s->n++] = v;
}

typedef struct vwalk {
  fn_state *st;
  vset *set;
  const ir_block *ob;
} vwalk;

static void read_of_p(ir_op *op, void *user) {
  vwalk *w = user;
  for (int i = 0; i < op->noperands; i++) {
    ir_value *v = op->operands[i];
    if (v && v->def && v->def->parent == w->ob) vset_add(w->st, w->set, v);
  }
}

/* Clones P (the ops of ob before `inner`) at the end of block `to`. */
static void clone_p(fn_state *st, ir_block *ob, ir_op *inner, ir_block *to) {
  for (ir_op *op = ob->first; op != inner; op = op->next)
    ir_block_append(to, clone_op(st, op));
}

static void fuse(fn_state *st, ir_op *outer, ir_op *inner) {
  ir_module *m = st->m;
  ir_context *ctx = st->ctx;
  const ir_type *i32 = ir_type_i32(ctx), *i64 = ir_type_i64(ctx);
  ir_block *ob = outer->regions[0].first, *ib = inner->regions[0].first;
  int no = outer->noperands - 3, ni = inner->noperands - 3;
  vset pv = {0};
  vwalk w = {st, &pv, ob};
  ir_walk(inner, read_of_p, &w);
  /* The fused loop's carried values: the outer loop's, the inner's, the
   * values of P the inner body reads, and two pairs of counters (inner
   * index, outer index): one for the loads' addresses, which the pipeliner
   * runs ahead, one for the rest (the epilogue's condition and P, the
   * accumulator's restart). Counters, not f / len_j: a division on every
   * iteration costs more than the loop saves. */
  int nv = pv.n, nc = no + ni + nv + 4, cnt = no + ni + nv;
  ir_builder b;
  ir_builder_init(&b, m);
  ir_builder_set_before(&b, outer);
  b.loc = outer->loc;
  /* The trip counts, and whether the fused loop applies. */
  int64_t step = const_step(outer->operands[2]), stepj = const_step(inner->operands[2]);
  ir_value *li = trip_count(&b, outer->operands[0], outer->operands[1], step);
  ir_value *lj = trip_count(&b, inner->operands[0], inner->operands[1], stepj);
  ir_value *imax = ir_build_const_int(&b, i64, INT32_MAX);
  ir_value *zero64 = ir_build_const_int(&b, i64, 0);
  ir_value *ok = ir_build_binary(
      &b, IR_OP_ARITH_ANDI,
      ir_build_binary(&b, IR_OP_ARITH_ANDI, ir_build_cmpi(&b, IR_CMPI_SGT, li, zero64),
                      ir_build_cmpi(&b, IR_CMPI_SGT, lj, zero64)),
      ir_build_binary(&b, IR_OP_ARITH_ANDI, ir_build_cmpi(&b, IR_CMPI_SLE, li, imax),
                      ir_build_cmpi(&b, IR_CMPI_SLE, lj, imax)));
  ir_value *total = ir_build_binary(&b, IR_OP_ARITH_MULI, li, lj);
  ok = ir_build_binary(&b, IR_OP_ARITH_ANDI, ok, ir_build_cmpi(&b, IR_CMPI_SLE, total, imax));
  ir_value *total32 = ir_build_unary(&b, IR_OP_ARITH_TRUNCI, i32, total);
  ir_value *lj32 = ir_build_unary(&b, IR_OP_ARITH_TRUNCI, i32, lj);
  ir_value *lj32m1 = ir_build_binary(&b, IR_OP_ARITH_SUBI, lj32, ir_build_const_int(&b, i32, 1));
  /* if ok { fused } else { the original nest } */
  const ir_type **rts = ir_arena_alloc(&m->arena, sizeof *rts * (size_t)(nc + 1));
  ir_value **vals = ir_arena_alloc(&m->arena, sizeof *vals * (size_t)(nc + 4));
  IR_ASSERT(rts && vals);
  for (int a = 0; a < no; a++)
    rts[a] = outer->results[a].type;
  ir_op *vif = ir_build(&b, IR_OP_SCF_IF, no, rts, 1, &ok, 2);
  for (int a = 0; a < no; a++)
    vif->results[a].name = outer->results[a].name;
  ir_block *thenb = ir_region_new_block(m, &vif->regions[0]),
           *elseb = ir_region_new_block(m, &vif->regions[1]);
  ir_op *scope = ir_op_parent_of_kind(vif, IR_OP_TT_FUNC);
  for (int a = 0; a < no; a++)
    ir_replace_all_uses(scope, &outer->results[a], &vif->results[a]);
  ir_op_unlink(outer);
  ir_block_append(elseb, outer);
  ir_builder_set_end(&b, elseb);
  ir_build(&b, IR_OP_SCF_YIELD, 0, NULL, no, NULL, 0);
  for (int a = 0; a < no; a++)
    ir_op_set_operand(elseb->last, a, &outer->results[a]);
  /* The fused loop carries the outer loop's values, the inner's, and the
   * values of P the inner body reads. The last two start as P makes them
   * on the first outer iteration (both loops run at least once here) and
   * are remade on every outer iteration's first inner one. Those starting
   * values are also what the axis analysis joins with the loop's, as it
   * would for the inner loop. */
  ir_builder_set_end(&b, thenb);
  b.loc = outer->loc;
  ir_subst_add(&st->map, ob->args[0], outer->operands[0]);
  for (int a = 0; a < no; a++)
    ir_subst_add(&st->map, ob->args[1 + a], outer->operands[3 + a]);
  clone_p(st, ob, inner, thenb);
  ir_value **init = ir_arena_alloc(&m->arena, sizeof *init * (size_t)(ni + nv + 1));
  IR_ASSERT(init);
  for (int a = 0; a < ni; a++)
    init[a] = ir_subst_get(&st->map, inner->operands[3 + a]);
  for (int a = 0; a < nv; a++)
    init[ni + a] = ir_subst_get(&st->map, pv.v[a]);
  st->oom = st->oom || st->map.oom;
  ir_subst_free(&st->map);
  memset(&st->map, 0, sizeof st->map);
  ir_builder_set_end(&b, thenb);
  vals[0] = ir_build_const_int(&b, i32, 0);
  vals[1] = total32;
  vals[2] = ir_build_const_int(&b, i32, 1);
  for (int a = 0; a < no; a++)
    vals[3 + a] = outer->operands[3 + a];
  for (int a = 0; a < ni + nv; a++) {
    rts[no + a] = a < ni ? inner->results[a].type : pv.v[a - ni]->type;
    vals[3 + no + a] = init[a];
  }
  for (int a = 0; a < 4; a++) {
    rts[cnt + a] = i32;
    vals[3 + cnt + a] = ir_build_const_int(&b, i32, 0);
  }
  ir_op *fl = ir_build(&b, IR_OP_SCF_FOR, nc, rts, 3 + nc, vals, 1);
  ir_op_set_attr(m, fl, "ttg.fused", ir_attr_unit(ctx));
  for (int i = 0; i < outer->nattrs; i++)
    if (strcmp(outer->attrs[i].name, "tt.flatten") != 0)
      ir_op_set_attr(m, fl, outer->attrs[i].name, outer->attrs[i].value);
  const ir_attr *ns = ir_op_get_attr(inner, "tt.num_stages");
  if (ns) ir_op_set_attr(m, fl, "tt.num_stages", ns);
  for (int a = 0; a < no; a++)
    fl->results[a].name = outer->results[a].name;
  for (int a = 0; a < ni; a++)
    fl->results[no + a].name = inner->results[a].name;
  ir_build(&b, IR_OP_SCF_YIELD, 0, NULL, no, NULL, 0);
  for (int a = 0; a < no; a++)
    ir_op_set_operand(thenb->last, a, &fl->results[a]);
  const ir_type **ats = ir_arena_alloc(&m->arena, sizeof *ats * (size_t)(nc + 2));
  IR_ASSERT(ats);
  ats[0] = i32;
  for (int a = 0; a < nc; a++)
    ats[1 + a] = rts[a];
  ir_block *fb = ir_block_create(m, 1 + nc, ats);
  ir_region_append_block(&fl->regions[0], fb);
  fb->args[0]->name = ob->args[0]->name;
  for (int a = 0; a < no; a++)
    fb->args[1 + a]->name = ob->args[1 + a]->name;
  for (int a = 0; a < ni; a++)
    fb->args[1 + no + a]->name = ib->args[1 + a]->name;
  for (int a = 0; a < nv; a++)
    fb->args[1 + no + ni + a]->name = pv.v[a]->name;
  /* The body: both induction variables, then P under scf.if. */
  ir_builder_set_end(&b, fb);
  b.loc = outer->loc;
  ir_value **kc = &fb->args[1 + cnt]; /* loads' inner, outer; the rest's inner, outer */
  ir_value *c0 = ir_build_const_int(&b, i32, 0);
  ir_value *stepc = ir_build_const_int(&b, i32, step);
  ir_value *iv = ir_build_binary(&b, IR_OP_ARITH_ADDI, outer->operands[0],
                                 ir_build_binary(&b, IR_OP_ARITH_MULI, kc[1], stepc));
  ir_value *first = ir_build_cmpi(&b, IR_CMPI_EQ, kc[0], c0);
  ir_value *ive = ir_build_binary(&b, IR_OP_ARITH_ADDI, outer->operands[0],
                                  ir_build_binary(&b, IR_OP_ARITH_MULI, kc[3], stepc));
  ir_value *firste = ir_build_cmpi(&b, IR_CMPI_EQ, kc[2], c0);
  ir_value *last = ir_build_cmpi(&b, IR_CMPI_EQ, kc[2], lj32m1);
  b.loc = inner->loc;
  ir_value *jv = ir_build_binary(
      &b, IR_OP_ARITH_ADDI, inner->operands[0],
      ir_build_binary(&b, IR_OP_ARITH_MULI, kc[0], ir_build_const_int(&b, i32, stepj)));
  ir_subst_add(&st->map, ob->args[0], iv);
  for (int a = 0; a < no; a++)
    ir_subst_add(&st->map, ob->args[1 + a], fb->args[1 + a]);
  /* On an outer iteration's first inner one, P (once per tile, not on
   * every iteration) makes the inner loop's starting values and what the
   * inner body reads of it: `scf.if first` yields them, or else the
   * carried ones. A starting value made before the loop (a zero
   * accumulator) needs no P: an arith.select restarts it
   * (tritongpu-optimize-accumulator-init turns that into wgmma's useC). */
  const ir_type **pts = ir_arena_alloc(&m->arena, sizeof *pts * (size_t)(ni + nv + 1));
  ir_value **pys = ir_arena_alloc(&m->arena, sizeof *pys * (size_t)(ni + nv + 1));
  ir_value **pes = ir_arena_alloc(&m->arena, sizeof *pes * (size_t)(ni + nv + 1));
  int *slot = ir_arena_alloc(&m->arena, sizeof *slot * (size_t)(ni + nv + 1));
  IR_ASSERT(pts && pys && pes && slot);
  int np = 0;
  for (int a = 0; a < ni + nv; a++) {
    ir_value *v = a < ni ? inner->operands[3 + a] : pv.v[a - ni];
    slot[a] = -1;
    if (a < ni && (outside(v, ob) || !v->def)) continue;
    slot[a] = np;
    pts[np] = rts[no + a];
    pes[np++] = fb->args[1 + no + a];
  }
  ir_op *pif = NULL;
  if (np) {
    pif = ir_build(&b, IR_OP_SCF_IF, np, pts, 1, &first, 2);
    ir_block *pt = ir_region_new_block(m, &pif->regions[0]),
             *pe = ir_region_new_block(m, &pif->regions[1]);
    clone_p(st, ob, inner, pt);
    for (int a = 0; a < ni + nv; a++)
      if (slot[a] >= 0)
        pys[slot[a]] = ir_subst_get(&st->map, a < ni ? inner->operands[3 + a] : pv.v[a - ni]);
    ir_builder_set_end(&b, pt);
    ir_build(&b, IR_OP_SCF_YIELD, 0, NULL, np, pys, 0);
    ir_builder_set_end(&b, pe);
    ir_build(&b, IR_OP_SCF_YIELD, 0, NULL, np, pes, 0);
    for (int a = 0; a < ni + nv; a++)
      if (slot[a] >= 0) pif->results[slot[a]].name = fb->args[1 + no + a]->name;
  }
  /* The inner body. */
  ir_builder_set_end(&b, fb);
  ir_subst_add(&st->map, ib->args[0], jv);
  for (int a = 0; a < ni; a++) {
    ir_value *cur;
    if (slot[a] >= 0) {
      cur = &pif->results[slot[a]];
    } else {
      /* pointers restart with the loads' counters, values (an
       * accumulator) with the others' */
      const ir_type *t = rts[no + a];
      bool ptr = (ir_type_is_tensor(t) ? t->elem : t)->kind == IR_TY_PTR;
      ir_value *sel[3] = {ptr ? first : firste, ir_subst_get(&st->map, inner->operands[3 + a]),
                          fb->args[1 + no + a]};
      b.loc = inner->loc;
      cur = ir_build1(&b, IR_OP_ARITH_SELECT, rts[no + a], 3, sel);
      cur->name = ib->args[1 + a]->name;
    }
    ir_subst_add(&st->map, ib->args[1 + a], cur);
  }
  for (int a = 0; a < nv; a++)
    ir_subst_add(&st->map, pv.v[a], &pif->results[slot[ni + a]]);
  ir_op *iy = yield_of(ib);
  for (ir_op *op = ib->first; op != iy; op = op->next)
    ir_block_append(fb, clone_op(st, op));
  ir_value **next = vals; /* reused: the fused yield */
  for (int a = 0; a < ni; a++) {
    next[no + a] = ir_subst_get(&st->map, iy->operands[a]);
    ir_subst_add(&st->map, &inner->results[a], next[no + a]);
  }
  for (int a = 0; a < nv; a++)
    next[no + ni + a] = &pif->results[slot[ni + a]];
  /* E, on each outer iteration's last inner one, with its own copy of P. */
  ir_builder_set_end(&b, fb);
  b.loc = outer->loc;
  ir_op *eif = ir_build(&b, IR_OP_SCF_IF, no, rts, 1, &last, 2);
  ir_block *et = ir_region_new_block(m, &eif->regions[0]),
           *ee = ir_region_new_block(m, &eif->regions[1]);
  ir_op *oy = yield_of(ob);
  ir_subst_add(&st->map, ob->args[0], ive);
  clone_p(st, ob, inner, et);
  for (ir_op *op = inner->next; op != oy; op = op->next)
    ir_block_append(et, clone_op(st, op));
  ir_builder_set_end(&b, et);
  ir_op *ty = ir_build(&b, IR_OP_SCF_YIELD, 0, NULL, no, NULL, 0);
  ir_builder_set_end(&b, ee);
  ir_op *ey = ir_build(&b, IR_OP_SCF_YIELD, 0, NULL, no, NULL, 0);
  for (int a = 0; a < no; a++) {
    ir_op_set_operand(ty, a, ir_subst_get(&st->map, oy->operands[a]));
    ir_op_set_operand(ey, a, fb->args[1 + a]);
    eif->results[a].name = outer->results[a].name;
    next[a] = &eif->results[a];
  }
  /* The counters: inner + 1, wrapping to 0 into the next outer index. */
  ir_builder_set_end(&b, fb);
  b.loc = outer->loc;
  ir_value *one = ir_build_const_int(&b, i32, 1);
  for (int p = 0; p < 4; p += 2) {
    ir_value *k1 = ir_build_binary(&b, IR_OP_ARITH_ADDI, kc[p], one);
    ir_value *wrap = ir_build_cmpi(&b, IR_CMPI_EQ, k1, lj32);
    ir_value *ks[3] = {wrap, c0, k1};
    next[cnt + p] = ir_build1(&b, IR_OP_ARITH_SELECT, i32, 3, ks);
    ir_value *os[3] = {wrap, ir_build_binary(&b, IR_OP_ARITH_ADDI, kc[p + 1], one), kc[p + 1]};
    next[cnt + p + 1] = ir_build1(&b, IR_OP_ARITH_SELECT, i32, 3, os);
  }
  ir_build(&b, IR_OP_SCF_YIELD, 0, NULL, nc, next, 0);
}

void ttg_unfuse(ir_op *fused) {
  ir_block *thenb = fused->parent;
  ir_op *vif = thenb && thenb->parent ? thenb->parent->parent : NULL;
  IR_ASSERT(vif && vif->kind == IR_OP_SCF_IF && vif->nregions == 2);
  ir_block *elseb = vif->regions[1].first;
  ir_op *ey = yield_of(elseb);
  IR_ASSERT(ey);
  ir_op *scope = ir_op_parent_of_kind(vif, IR_OP_TT_FUNC);
  for (int a = 0; a < vif->nresults; a++)
    ir_replace_all_uses(scope, &vif->results[a], ey->operands[a]);
  while (elseb->first != ey) {
    ir_op *op = elseb->first;
    ir_op_unlink(op);
    ir_op_insert_before(vif, op);
  }
  ir_op_erase(vif);
}

/* The tt.flatten loops, outermost first (the first FN_MAX_LOOPS; others
 * stay nests). */
typedef struct fn_loops {
  ir_op *op[FN_MAX_LOOPS];
  int n;
} fn_loops;

static void collect_flatten(ir_op *op, void *user) {
  fn_loops *l = user;
  if (op->kind == IR_OP_SCF_FOR && ir_op_get_attr(op, "tt.flatten") && l->n < FN_MAX_LOOPS)
    l->op[l->n++] = op;
}

bool ttg_pass_fuse_nested_loops(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  int64_t remarks = 0;
  if (!ir_pass_int_option(m, args, "tritongpu-fuse-nested-loops", "remarks", 0, 1, 0, &remarks))
    return false;
  fn_loops *loops = ir_arena_alloc(scratch, sizeof *loops);
  if (!loops) {
    ir_error(m->ctx, m->op->loc, "out of memory in pass 'tritongpu-fuse-nested-loops'");
    return false;
  }
  loops->n = 0;
  ir_walk(m->op, collect_flatten, loops);
  fn_state st = {.m = m, .ctx = m->ctx};
  for (int i = 0; i < loops->n; i++) {
    ir_op *outer = loops->op[i];
    ir_op *inner = fusable(&st, outer);
    ir_op_remove_attr(outer, "tt.flatten");
    if (!inner) {
      if (remarks) ir_emit(m->ctx, IR_SEV_REMARK, outer->loc, "loop not flattened: %s", st.why);
      continue;
    }
    fuse(&st, outer, inner);
    bool oom = st.oom || st.map.oom;
    ir_subst_free(&st.map);
    memset(&st.map, 0, sizeof st.map);
    if (oom) {
      ir_error(m->ctx, outer->loc, "out of memory in pass 'tritongpu-fuse-nested-loops'");
      return false;
    }
    if (remarks) ir_emit(m->ctx, IR_SEV_REMARK, outer->loc, "loop flattened with its inner loop");
  }
  return true;
}
