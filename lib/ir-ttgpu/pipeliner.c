// SPDX-License-Identifier: MIT
/* pipeliner.c - tritongpu-pipeline: software pipelining of the loads that
 * feed the tensor cores, as Triton's pipeliner does it for sm_80 and sm_90.
 *
 * A candidate is an innermost scf.for whose body loads a tile (tt.load)
 * only to store it to shared memory (ttg.local_alloc: the operand buffers
 * of a wgmma, or of an mma.sync's ldmatrix after
 * tritongpu-reduce-data-duplication). With S stages each such load gets a
 * ring of S buffers (one ttg.local_alloc of Sx<tile>) filled by cp.async
 * (ttg.async_copy_global_to_local, masked-off elements zero-filled; a
 * mask term `index < bound` along the copies' rows that alone would make
 * them one element wide becomes a bounded copy, split_mask):
 *  - a prologue issues iterations 0..S-2, one commit group per iteration;
 *  - iteration i waits until its group has landed (ttg.async_wait
 *    {num = S-2}), reads buffer i % S (ttg.memdesc_index) where it read its
 *    local_alloc, and at its end issues iteration i+S-1 into buffer
 *    (i+S-1) % S, the one iteration i-1 read;
 *  - after the loop, ttg.async_wait {num = 0}.
 * The addresses, masks and loop-carried pointer updates of a load (its
 * "slice": pure ops of the body, the induction variable, the loop-carried
 * values they read and those values' updates) are recomputed for the
 * iteration being issued; the carried values involved therefore run S-1
 * iterations ahead, which is only correct when nothing else reads them,
 * so a loop where something does is left alone (as is one whose loads are
 * not pure address computations, need a non-zero `other`, or move fewer
 * than 4 contiguous bytes per thread).
 * On sm_90, a single ttng.warp_group_dot whose accumulator is only carried
 * from one iteration to the next, and whose shared operands are ring slots
 * or buffers stored once before the loop (not stored again while it runs),
 * becomes asynchronous: its wait
 * (ttng.warp_group_dot_wait {pendings = 1}) lets it run under the next
 * iteration's copies, and a wait {pendings = 0} follows the loop; failing
 * that, the body's last wgmma whose result is only carried (attention's
 * P x V) runs on until a wait {pendings = 0} at the top of the next
 * iteration (with one warpgroup) or where the next iteration first reads
 * it (with more).
 * Depth: the loop's tt.num_stages (tl.range(..., num_stages=N)), else the
 * num-stages option; 1 or less leaves loops alone. Rings are sized down
 * (fewer stages) to fit the target's shared memory. With the remarks
 * option each loop gets a remark: what was pipelined, or why not. Needs:
 * ttgir after tritongpu-reduce-data-duplication, before
 * allocate-shared-memory. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir-ttgpu/ttg.h"

const char *const ttg_pipeline_options[] = {"num-stages", "remarks", NULL};

enum { MAX_LOADS = 8, MAX_SLICE = 512, MAX_ARGS = 64, MAX_OPERANDS = 16, MAX_RESULTS = 4 };
enum { MAX_TERMS = 8 };

typedef struct pl_load {
  ir_op *load, *alloc;
  const ir_type *slice_ty; /* one ring buffer: the tile, mutable */
  ir_value *ring;
  int vec;
  /* A bounded copy (the mask's `index < bound` along the vector dim, which
   * alone would make the copies one element wide, taken out of the mask
   * and given as the elements left, bound - index): the mask's other
   * terms, each constant along a vector, and the compare's two sides. */
  bool bounded;
  int nterms;
  ir_value *terms[MAX_TERMS];
  ir_value *index, *bound;
} pl_load;

/* A loop being pipelined: its body, the candidate loads, the ops computing
 * their operands and the carried values those read (and those values'
 * updates), in dependency order. */
typedef struct pl_loop {
  ir_module *m;
  ir_context *ctx;
  ir_op *loop;
  ir_block *body;
  pl_load loads[MAX_LOADS];
  int nloads;
  ir_op *slice[MAX_SLICE];
  int nslice, nnested;    /* slice ops, and the ops nested in its pure ifs */
  bool carried[MAX_ARGS]; /* iter arg i is read by the slice */
  bool ok;
  bool tag_slots;  /* tag the ring views ttg.ring_slot (loops with a wgmma) */
  const char *why; /* why the loop is left alone (for the remark) */
  bool oom;        /* a renaming map ran out of memory */
} pl_loop;

/* Renaming while cloning (an ir_subst: original -> copy, unmapped:
 * itself); reset between issues. */
static void map_reset(pl_loop *pl, ir_subst *mp) {
  pl->oom = pl->oom || mp->oom;
  ir_subst_free(mp);
  memset(mp, 0, sizeof *mp);
}

static bool in_slice(const pl_loop *pl, const ir_op *op) {
  for (int i = 0; i < pl->nslice; i++)
    if (pl->slice[i] == op) return true;
  return false;
}

/* An scf.if whose two single-block regions hold only pure region-free ops
 * and their yields: it may be recomputed like a pure op. */
static bool is_pure_if(const ir_op *op) {
  if (op->kind != IR_OP_SCF_IF || op->nregions != 2) return false;
  for (int r = 0; r < 2; r++) {
    const ir_block *b = op->regions[r].first;
    if (!b || b->next || !b->last || b->last->kind != IR_OP_SCF_YIELD) return false;
    for (const ir_op *o = b->first; o != b->last; o = o->next)
      if (!ir_op_is_pure(o) || o->noperands > MAX_OPERANDS || o->nresults > MAX_RESULTS)
        return false;
  }
  return true;
}

/* Adds the ops of the body that v depends on (operands first). */
static void add_value(pl_loop *pl, const ir_value *v, int depth) {
  if (!pl->ok) return;
  if (!v->def) {
    if (v->owner != pl->body || v->index == 0) return; /* outside, or the induction variable */
    int a = v->index - 1;
    if (a >= MAX_ARGS)
      pl->ok = false;
    else
      pl->carried[a] = true;
    return;
  }
  ir_op *d = v->def;
  if (ir_op_block(d) != pl->body) {
    /* Defined outside the loop (it dominates the loop), or nested in a
     * body op (then not a pure address computation). */
    if (ir_op_is_inside(d, pl->loop)) pl->ok = false;
    return;
  }
  if (in_slice(pl, d)) return;
  bool pure_if = is_pure_if(d);
  if ((!ir_op_is_pure(d) && !pure_if) || d->noperands > MAX_OPERANDS ||
      d->nresults > (pure_if ? MAX_ARGS : MAX_RESULTS) || depth > 256 || pl->nslice == MAX_SLICE) {
    pl->ok = false;
    return;
  }
  for (int i = 0; i < d->noperands; i++)
    add_value(pl, d->operands[i], depth + 1);
  /* A pure scf.if (the flattened loop's prologue, once per tile): what
   * its regions read from the body. */
  for (int r = 0; pure_if && r < 2; r++)
    for (ir_op *o = d->regions[r].first->first; o; o = o->next)
      for (int i = 0; i < o->noperands; i++) {
        const ir_value *u = o->operands[i];
        if (!(u->def && u->def->parent == d->regions[r].first)) add_value(pl, u, depth + 1);
      }
  if (!pl->ok || in_slice(pl, d)) return;
  int cost = 1; /* a pure scf.if's nested ops count against the budget too */
  for (int r = 0; pure_if && r < 2; r++)
    for (const ir_op *o = d->regions[r].first->first; o; o = o->next)
      cost++;
  if (pl->nslice + pl->nnested + cost > MAX_SLICE) {
    pl->ok = false;
    return;
  }
  pl->nnested += cost - 1;
  pl->slice[pl->nslice++] = d;
}

bool ttg_is_zero_const(const ir_value *v) {
  const ir_op *d = v->def;
  if (!d || d->kind != IR_OP_ARITH_CONSTANT) return false;
  const ir_attr *a = ir_op_get_attr(d, "value");
  if (a && a->kind == IR_ATTR_DENSE) a = a->elem;
  return a && ((a->kind == IR_ATTR_FLOAT && a->f == 0 && !signbit(a->f)) ||
               (a->kind == IR_ATTR_INT && a->i == 0));
}

static ir_op *yield_of(const ir_block *body) {
  ir_op *y = body->last;
  return y && y->kind == IR_OP_SCF_YIELD ? y : NULL;
}

static void find_loop(ir_op *op, void *user) {
  if (op->kind == IR_OP_SCF_FOR || op->kind == IR_OP_SCF_WHILE) *(bool *)user = true;
}

static bool has_nested_loop(ir_op *loop) {
  bool found = false;
  ir_walk(loop, find_loop, &found);
  return found;
}

/* Whether v is a slot of one of this loop's rings (only cp.async writes
 * those). */
static bool is_ring_slot(const pl_loop *pl, const ir_value *v) {
  const ir_op *d = v->def;
  if (!d || d->kind != IR_OP_TTG_MEMDESC_INDEX || d->parent != pl->body) return false;
  for (int i = 0; i < pl->nloads; i++)
    if (d->operands[0] == pl->loads[i].ring) return true;
  return false;
}

/* Whether the buffer that v views was allocated before `loop` with its
 * contents (an immutable local_alloc of a tensor) and is never stored to. */
static bool written_once_before(const ir_value *v, const ir_op *loop) {
  const ir_op *d = v->def;
  while (d && (d->kind == IR_OP_TTG_MEMDESC_TRANS || d->kind == IR_OP_TTG_MEMDESC_INDEX))
    d = d->operands[0]->def;
  return d && d->kind == IR_OP_TTG_LOCAL_ALLOC && d->noperands == 1 &&
         !d->results[0].type->is_mutable && d != loop && !ir_op_is_inside(d, loop);
}

/* Whether the values that depend on carried values (`tainted`, room for
 * every result of the slice) are read only by the slice, the loads and the
 * carried slots of the yield `y`. */
static bool carried_stay_inside(const pl_loop *pl, const ir_op *y, const ir_value **tainted) {
  int nt = 0;
  for (int a = 0; a < pl->body->nargs - 1; a++)
    if (pl->carried[a]) tainted[nt++] = pl->body->args[a + 1];
  for (int i = 0; i < pl->nslice; i++) {
    const ir_op *op = pl->slice[i];
    bool t = false;
    for (int k = 0; k < op->noperands && !t; k++)
      for (int j = 0; j < nt && !t; j++)
        t = op->operands[k] == tainted[j];
    /* a pure scf.if whose branches read a tainted value */
    for (int j = 0; j < nt && !t && op->nregions; j++)
      t = ir_count_uses((ir_op *)op, tainted[j]) > 0;
    for (int r = 0; t && r < op->nresults; r++)
      tainted[nt++] = &op->results[r];
  }
  for (ir_op *op = pl->body->first; op; op = op->next) {
    bool allowed = in_slice(pl, op);
    for (int i = 0; i < pl->nloads; i++)
      allowed = allowed || op == pl->loads[i].load;
    for (int j = 0; j < nt && !allowed; j++) {
      if (op->nregions && ir_count_uses(op, tainted[j]) > 0) return false;
      for (int k = 0; k < op->noperands; k++)
        if (op->operands[k] == tainted[j] && !(op == y && pl->carried[k])) return false;
    }
  }
  return true;
}

/* The loads worth pipelining, and their slices; false to leave the loop. */
static bool analyze(pl_loop *pl, const ir_axis_analysis *ax) {
  ir_op *y = yield_of(pl->body);
  pl->why = "it carries too many values";
  /* the pipelined loop carries two ring indices more */
  if (!y || pl->body->nargs - 1 > MAX_ARGS - 2) return false;
  for (ir_op *op = pl->body->first; op; op = op->next) {
    if (op->kind != IR_OP_TT_LOAD || !ir_type_is_tensor(op->results[0].type)) continue;
    ir_op *alloc = NULL;
    for (ir_op *u = pl->body->first; u; u = u->next)
      for (int i = 0; i < u->noperands; i++)
        if (u->operands[i] == &op->results[0]) alloc = u;
    if (!alloc || ir_count_uses(pl->loop, &op->results[0]) != 1 ||
        alloc->kind != IR_OP_TTG_LOCAL_ALLOC || alloc->noperands != 1)
      continue;
    if (op->noperands > 3 || (op->noperands == 3 && !ttg_is_zero_const(op->operands[2]))) continue;
    if (op->noperands > 1 && op->operands[1]->type->rank != op->operands[0]->type->rank)
      continue; /* a mask of another shape than the pointers' */
    if (ir_op_get_attr(op, "isVolatile") && ir_op_get_int(op, "isVolatile", 0)) continue;
    const ir_type *at = alloc->results[0].type;
    ir_axis_info pi = ir_axis_get(ax, op->operands[0]), mi;
    if (op->noperands > 1) mi = ir_axis_get(ax, op->operands[1]);
    int vec = ttg_async_copy_vec(op->operands[0]->type, at, &pi, op->noperands > 1 ? &mi : NULL);
    pl_load cand;
    memset(&cand, 0, sizeof cand);
    int wide = op->noperands > 1 ? ttg_async_copy_vec(op->operands[0]->type, at, &pi, NULL) : vec;
    if (wide > vec) { /* the mask narrows the copies: a bound along the vector? */
      int td = ttg_async_copy_dim(op->operands[0]->type);
      if (td >= 0 && ttg_copy_bounds(ax, op->operands[1], td, wide, cand.terms, MAX_TERMS,
                                     &cand.nterms, &cand.index, &cand.bound)) {
        cand.bounded = true;
        vec = wide;
      }
    }
    if ((unsigned)vec * ir_type_bytes(at->elem) < 4 || pl->nloads == MAX_LOADS) continue;
    pl_load *l = &pl->loads[pl->nloads++];
    *l = vec == wide && cand.bounded ? cand : (pl_load){0};
    l->load = op;
    l->alloc = alloc;
    l->vec = vec;
    l->slice_ty = ir_type_memdesc(pl->ctx, at->rank, at->shape, at->elem, at->layout, true);
  }
  pl->why = "no load feeds a dot through shared memory (or none moves 4 contiguous bytes per "
            "thread, or one has a non-zero 'other')";
  if (pl->nloads == 0) return false;
  pl->ok = true;
  for (int i = 0; i < pl->nloads; i++) {
    const pl_load *l = &pl->loads[i];
    /* a bounded load's whole mask too: its ops read the same carried
     * values, and their copies go unused (dce) */
    for (int k = 0; k < 2 && k < l->load->noperands; k++)
      add_value(pl, l->load->operands[k], 0);
    for (int k = 0; l->bounded && k < l->nterms; k++)
      add_value(pl, l->terms[k], 0);
    if (l->bounded) {
      add_value(pl, l->index, 0);
      add_value(pl, l->bound, 0);
    }
  }
  /* The carried values read, and (transitively) their updates. */
  for (bool grew = true; grew && pl->ok;) {
    grew = false;
    for (int a = 0; a < pl->body->nargs - 1 && pl->ok; a++) {
      if (!pl->carried[a]) continue;
      bool before[MAX_ARGS];
      memcpy(before, pl->carried, sizeof before);
      int n0 = pl->nslice;
      add_value(pl, y->operands[a], 0);
      grew = grew || pl->nslice != n0 || memcmp(before, pl->carried, sizeof before) != 0;
    }
  }
  pl->why = "a load's address is not a pure computation of the loop's values";
  if (!pl->ok) return false;
  /* What depends on a carried value will hold a later iteration's: only
   * the slice, the loads and the carried slots of the yield may read it,
   * and nothing after the loop its final value. */
  ir_op *func = ir_op_parent_of_kind(pl->loop, IR_OP_TT_FUNC);
  for (int a = 0; a < pl->body->nargs - 1; a++) {
    pl->why = "a loop-carried address is used after the loop";
    if (pl->carried[a] && ir_count_uses(func, &pl->loop->results[a]) > 0) return false;
  }
  pl->why = "a loop-carried address is used by something other than the pipelined loads";
  size_t ntaint = MAX_ARGS; /* the carried values, then every slice op's results */
  for (int i = 0; i < pl->nslice; i++)
    ntaint += (size_t)pl->slice[i]->nresults;
  const ir_value **tainted = malloc(sizeof *tainted * ntaint);
  bool ok = tainted && carried_stay_inside(pl, y, tainted);
  free(tainted);
  return ok;
}

/* A copy of op (with its regions: a pure scf.if) at the builder's point,
 * renamed through mp. */
static ir_op *clone_op(pl_loop *pl, ir_builder *b, const ir_op *op, ir_subst *mp) {
  ir_op *n = ir_op_clone(pl->m, op, mp);
  if (b->before)
    ir_op_insert_before(b->before, n);
  else
    ir_block_append(b->block, n);
  return n;
}

/* Marks a view of a ring as the iteration's read slot or its fill slot:
 * within one iteration of the loop the two differ (fill = read + S-1 mod
 * S), which tritongpu-membar uses to leave out the barrier between the
 * reads of one and the copies into the other. */
static void ring_slot_tag(pl_loop *pl, ir_op *view, int tag) {
  ir_op_set_attr(pl->m, view, TTG_RING_SLOT_ATTR, ir_attr_int(pl->ctx, ir_type_i32(pl->ctx), tag));
}

/* v broadcast to type t (v itself when it has t's shape). */
static ir_value *broadcast_to(ir_builder *b, ir_value *v, const ir_type *t) {
  if (v->type == t) return v;
  return ir_build1(b, IR_OP_TT_BROADCAST, t, 1, &v);
}

/* Issues the loads of the iteration whose induction variable is `iv` (the
 * carried values already mapped in mp) into ring slot `slot`, guarded by
 * `pred` (i1): the slice, the copies, one commit group. Then maps every
 * carried value of the slice to its update. */
static void issue(pl_loop *pl, ir_builder *b, ir_subst *mp, ir_value *iv, ir_value *slot,
                  ir_value *pred, bool in_loop) {
  ir_context *ctx = pl->ctx;
  ir_subst_add(mp, pl->body->args[0], iv);
  for (int i = 0; i < pl->nslice; i++) {
    const ir_op *op = pl->slice[i];
    ir_op *n = clone_op(pl, b, op, mp);
    /* A pure scf.if (a tile's prologue) runs its branch only for an
     * iteration that exists: past the end, its divisions could divide by
     * zero. Its results then only feed masked-off copies. */
    if (op->kind == IR_OP_SCF_IF) {
      ir_builder saved = *b;
      ir_builder_set_before(b, n);
      b->loc = op->loc;
      ir_op_set_operand(n, 0, ir_build_binary(b, IR_OP_ARITH_ANDI, n->operands[0], pred));
      *b = saved;
    }
  }
  ir_value *tokens[MAX_LOADS];
  for (int i = 0; i < pl->nloads; i++) {
    pl_load *l = &pl->loads[i];
    b->loc = l->load->loc;
    ir_value *ptr = ir_subst_get(mp, l->load->operands[0]);
    const ir_type *mt = ir_type_with_elem(ctx, ptr->type, ir_type_i1(ctx));
    ir_value *mask = ir_build_splat(b, pred, mt);
    if (l->load->noperands > 1 && !l->bounded)
      mask = ir_build_binary(b, IR_OP_ARITH_ANDI, mask, ir_subst_get(mp, l->load->operands[1]));
    ir_value *left = NULL;
    if (l->bounded) {
      for (int k = 0; k < l->nterms; k++)
        mask = ir_build_binary(b, IR_OP_ARITH_ANDI, mask,
                               broadcast_to(b, ir_subst_get(mp, l->terms[k]), mt));
      /* bound - index in 64 bits: in 32 it could wrap */
      ir_value *index = ir_subst_get(mp, l->index), *bound = ir_subst_get(mp, l->bound);
      const ir_type *i64 = ir_type_i64(ctx);
      if (ir_type_scalar(index->type) != i64) {
        index =
            ir_build1(b, IR_OP_ARITH_EXTSI, ir_type_with_elem(ctx, index->type, i64), 1, &index);
        bound =
            ir_build1(b, IR_OP_ARITH_EXTSI, ir_type_with_elem(ctx, bound->type, i64), 1, &bound);
      }
      left = ir_build_binary(b, IR_OP_ARITH_SUBI, bound, index);
      left = broadcast_to(b, left, ir_type_with_elem(ctx, ptr->type, i64));
    }
    ir_value *ix[2] = {l->ring, slot};
    ir_value *buf = ir_build1(b, IR_OP_TTG_MEMDESC_INDEX, l->slice_ty, 2, ix);
    buf->name = l->alloc->results[0].name;
    if (in_loop && pl->tag_slots) ring_slot_tag(pl, buf->def, TTG_RING_FILL);
    ir_value *cp[4] = {ptr, buf, mask, left};
    tokens[i] = ir_build1(b, IR_OP_TTG_ASYNC_COPY, ir_type_token(ctx), left ? 4 : 3, cp);
    if (left) ir_op_set_attr(pl->m, tokens[i]->def, IR_BOUNDED_ATTR, ir_attr_bool(ctx, true));
    tokens[i]->name = l->alloc->results[0].name;
    ir_op_set_attr(pl->m, tokens[i]->def, "contiguity", ir_attr_int(ctx, ir_type_i32(ctx), l->vec));
  }
  const ir_type *tok = ir_type_token(ctx);
  ir_build(b, IR_OP_TTG_ASYNC_COMMIT_GROUP, 1, &tok, pl->nloads, tokens, 0);
  /* The carried values' updates, for the next issue. */
  ir_op *y = yield_of(pl->body);
  ir_value *next[MAX_ARGS];
  for (int a = 0; a < pl->body->nargs - 1; a++)
    if (pl->carried[a]) next[a] = ir_subst_get(mp, y->operands[a]);
  map_reset(pl, mp);
  for (int a = 0; a < pl->body->nargs - 1; a++)
    if (pl->carried[a]) ir_subst_add(mp, pl->body->args[a + 1], next[a]);
}

/* (i + 1) mod S for a ring index. */
static ir_value *ring_next(ir_builder *b, ir_value *i, int stages) {
  ir_context *ctx = b->ctx;
  const ir_type *i32 = ir_type_i32(ctx);
  ir_value *n = ir_build_binary(b, IR_OP_ARITH_ADDI, i, ir_build_const_int(b, i32, 1));
  ir_value *wrap = ir_build_cmpi(b, IR_CMPI_SGE, n, ir_build_const_int(b, i32, stages));
  ir_value *sel[3] = {wrap, ir_build_const_int(b, i32, 0), n};
  return ir_build1(b, IR_OP_ARITH_SELECT, i32, 3, sel);
}

/* Uses of v nested in the regions of the ops after `from` in its block
 * (the flattened loop's epilogue, under scf.if), or -1 when one of those
 * ops takes v as its own operand. */
static int later_nested_uses(const ir_op *from, const ir_value *v) {
  int n = 0;
  for (ir_op *o = from->next; o; o = o->next) {
    if (!o->nregions) continue;
    for (int i = 0; i < o->noperands; i++)
      if (o->operands[i] == v) return -1;
    n += ir_count_uses(o, v);
  }
  return n;
}

/* Whether every shared-memory operand of dot stays as it is while the dot
 * runs on into the next iteration: a slot of one of the loop's rings (the
 * next iteration refills it only after the wait), or a buffer stored once
 * before the loop (attention's Q). A buffer stored in the body (a
 * transposed tile that was not pipelined) is stored again by the next
 * iteration while the dot may still read it, so that dot stays
 * synchronous, as Triton's pipeliner keeps it. */
static bool operands_stay(const pl_loop *pl, const ir_op *dot) {
  for (int i = 0; i < 2; i++) {
    const ir_value *v = dot->operands[i];
    if (!ir_type_is_memdesc(v->type)) continue;
    const ir_value *u = v;
    while (u->def && u->def->kind == IR_OP_TTG_MEMDESC_TRANS)
      u = u->def->operands[0];
    if (!is_ring_slot(pl, u) && !written_once_before(v, pl->loop)) return false;
  }
  return true;
}

/* The single warp_group_dot whose accumulator is only carried (result
 * yielded into the slot it reads, and read otherwise only inside later
 * region ops, where a wait goes), or NULL. *slot: that slot. */
static ir_op *async_dot(pl_loop *pl, int *slot) {
  ir_op *dot = NULL;
  for (ir_op *op = pl->body->first; op; op = op->next) {
    if (op->kind == IR_OP_TTNG_WARP_GROUP_DOT) {
      if (dot) return NULL;
      dot = op;
    }
    for (int r = 0; r < op->nregions; r++) /* a dot nested deeper: leave it */
      for (ir_block *blk = op->regions[r].first; blk; blk = blk->next)
        for (ir_op *o = blk->first; o; o = o->next)
          if (o->kind == IR_OP_TTNG_WARP_GROUP_DOT) return NULL;
  }
  if (!dot || ir_op_get_int(dot, "isAsync", 0) || !operands_stay(pl, dot)) return NULL;
  ir_op *y = yield_of(pl->body);
  const ir_value *acc = dot->operands[2];
  if (acc->def || acc->owner != pl->body || acc->index == 0) return NULL;
  int a = acc->index - 1;
  int nested = later_nested_uses(dot, &dot->results[0]);
  if (ir_count_uses(pl->loop, acc) != 1 || nested < 0 ||
      ir_count_uses(pl->loop, &dot->results[0]) != 1 + nested || y->operands[a] != &dot->results[0])
    return NULL;
  *slot = a;
  return dot;
}

/* Otherwise the body's last warp_group_dot, when its result is only carried
 * to the next iteration (attention's P x V, whose accumulator is rescaled
 * before the next dot): it runs on until a wait {pendings = 0} at the top
 * of the next iteration (one warpgroup) or where that iteration first
 * reads the carried value (more). *slot: the slot. */
static ir_op *deferred_dot(pl_loop *pl, int *slot) {
  ir_op *dot = NULL;
  for (ir_op *op = pl->body->first; op; op = op->next)
    if (op->kind == IR_OP_TTNG_WARP_GROUP_DOT) dot = op;
  if (!dot || ir_op_get_int(dot, "isAsync", 0) || !operands_stay(pl, dot)) return NULL;
  ir_op *y = yield_of(pl->body);
  if (ir_count_uses(pl->loop, &dot->results[0]) != 1) return NULL;
  for (int a = 0; a < y->noperands; a++)
    if (y->operands[a] == &dot->results[0]) {
      *slot = a;
      return dot;
    }
  return NULL;
}

/* A ttng.warp_group_dot_wait {pendings} on v alone, inserted before
 * `before`; returns the wait. */
static ir_op *wait_on(pl_loop *pl, ir_value *v, int pendings, ir_op *before) {
  const ir_type *t = v->type;
  ir_op *wt = ir_op_create(pl->m, IR_OP_TTNG_WARP_GROUP_DOT_WAIT, before->loc, 1, &t, 1, &v, 0);
  ir_op_set_attr(pl->m, wt, "pendings", ir_attr_int(pl->ctx, ir_type_i32(pl->ctx), pendings));
  wt->results[0].name = v->name;
  ir_op_insert_before(before, wt);
  return wt;
}

/* Replaces v by r in op and the ops nested in it. */
static void replace_in(ir_op *op, const ir_value *v, ir_value *r) {
  for (int i = 0; i < op->noperands; i++)
    if (op->operands[i] == v) ir_op_set_operand(op, i, r);
  if (op->nregions) ir_replace_all_uses(op, v, r);
}

/* The asynchronous dot's result read inside the regions of later body ops
 * (once per tile, in the flattened loop's epilogue): each block that reads
 * it first waits for every wgmma ({pendings = 0} on the value the wait
 * `wt` after the dot gives). */
static void wait_in_regions(pl_loop *pl, ir_op *wt, const ir_value *res) {
  for (ir_op *o = wt->next; o; o = o->next)
    for (int r = 0; r < o->nregions; r++)
      for (ir_block *blk = o->regions[r].first; blk; blk = blk->next) {
        bool uses = false;
        for (ir_op *u = blk->first; u && !uses; u = u->next) {
          for (int i = 0; i < u->noperands; i++)
            uses = uses || u->operands[i] == res;
          uses = uses || (u->nregions && ir_count_uses(u, res) > 0);
        }
        if (!uses) continue;
        ir_op *w = wait_on(pl, &wt->results[0], 0, blk->first);
        for (ir_op *u = w->next; u; u = u->next)
          replace_in(u, res, &w->results[0]);
      }
}

/* ir_walk callback: the first ttng.warp_group_dot it visits, in *user. */
static void first_wgmma(ir_op *op, void *user) {
  const ir_op **first = user;
  if (!*first && op->kind == IR_OP_TTNG_WARP_GROUP_DOT) *first = op;
}

/* The rows of a wgmma's result each warpgroup computes: its layout's warps
 * along M, in groups of four. */
static int64_t wgmma_rows_per_group(const ir_op *dot) {
  const ir_type *t = dot->results[0].type;
  const ir_attr *l = t->layout;
  int64_t groups = l && l->kind == IR_ATTR_NVIDIA_MMA ? l->warps_per_cta[0] / 4 : 1;
  return t->shape[0] / (groups > 0 ? groups : 1);
}

static void pipeline_loop(pl_loop *pl, int stages) {
  ir_module *m = pl->m;
  ir_context *ctx = pl->ctx;
  ir_op *loop = pl->loop;
  ir_block *body = pl->body;
  /* Only with a wgmma are the ring views tagged as the iteration's read
   * and fill slots, which lets tritongpu-membar leave out the barrier
   * between them. In the sm_80 matmul (mma.sync) that barrier kept the
   * loop 2% faster on an H200 (docs/results.md, fourteenth session). */
  const ir_op *wgmma = NULL;
  ir_walk(loop, first_wgmma, &wgmma);
  pl->tag_slots = wgmma != NULL;
  int nargs = body->nargs - 1;
  ir_builder b;
  ir_builder_init(&b, m);
  ir_builder_set_before(&b, loop);
  b.loc = loop->loc;
  const ir_type *i32 = ir_type_i32(ctx);
  /* The rings. */
  for (int i = 0; i < pl->nloads; i++) {
    pl_load *l = &pl->loads[i];
    const ir_type *t = l->slice_ty;
    int64_t shape[IR_MAX_RANK];
    shape[0] = stages;
    for (int d = 0; d < t->rank; d++)
      shape[d + 1] = t->shape[d];
    const ir_type *rt = ir_type_memdesc(ctx, t->rank + 1, shape, t->elem, t->layout, true);
    b.loc = l->alloc->loc;
    l->ring = ir_build1(&b, IR_OP_TTG_LOCAL_ALLOC, rt, 0, NULL);
    l->ring->name = l->alloc->results[0].name;
  }
  /* Prologue: iterations 0..S-2. */
  ir_value *lb = loop->operands[0], *ub = loop->operands[1], *step = loop->operands[2];
  const ir_type *ivt = lb->type;
  ir_subst map = {0}, *mp = &map;
  for (int a = 0; a < nargs; a++)
    if (pl->carried[a]) ir_subst_add(mp, body->args[a + 1], loop->operands[3 + a]);
  for (int s = 0; s < stages - 1; s++) {
    b.loc = loop->loc;
    ir_value *iv = lb;
    if (s > 0)
      iv = ir_build_binary(
          &b, IR_OP_ARITH_ADDI, lb,
          ir_build_binary(&b, IR_OP_ARITH_MULI, step, ir_build_const_int(&b, ivt, s)));
    ir_value *pred = ir_build_cmpi(&b, IR_CMPI_SLT, iv, ub);
    issue(pl, &b, mp, iv, ir_build_const_int(&b, i32, s), pred, false);
  }
  /* The new loop: the same body, two ring indices more. */
  ir_value **ops = ir_arena_alloc(&m->arena, sizeof(ir_value *) * (size_t)(nargs + 5));
  const ir_type **rts = ir_arena_alloc(&m->arena, sizeof(ir_type *) * (size_t)(nargs + 2));
  IR_ASSERT(ops && rts);
  for (int i = 0; i < 3; i++)
    ops[i] = loop->operands[i];
  for (int a = 0; a < nargs; a++) {
    ops[3 + a] = pl->carried[a] ? ir_subst_get(mp, body->args[a + 1]) : loop->operands[3 + a];
    rts[a] = loop->results[a].type;
  }
  b.loc = loop->loc;
  /* Where the two ring indices advance only changes how ptxas schedules
   * the loop. With a wgmma of more than 64 rows per warpgroup (and in loops
   * without a wgmma, as on sm_80) they are carried as the previous
   * iteration's and advanced at the top of the body, where Triton advances
   * its extract index; with 64 rows or fewer, at the end of the body. On an
   * H200 each was the faster one there: attention at head dim 64 with
   * 128x64 tiles and 4 warps ran 7% faster at the top (175 registers
   * against 202); with 64 rows per warpgroup (64x64 tiles and 4 warps,
   * causal; head dim 128 with 128x64 or 128x128 tiles and 8 warps) as fast
   * or up to 10% faster at the end. The matmul loops come out the same
   * either way (docs/results.md, fourteenth session). */
  bool top = !wgmma || wgmma_rows_per_group(wgmma) > 64;
  ops[3 + nargs] = ir_build_const_int(&b, i32, top ? stages - 2 : stages - 1); /* insert */
  ops[4 + nargs] = ir_build_const_int(&b, i32, top ? -1 : 0);                  /* extract */
  rts[nargs] = rts[nargs + 1] = i32;
  ir_op *nl = ir_op_create(m, IR_OP_SCF_FOR, loop->loc, nargs + 2, rts, nargs + 5, ops, 1);
  for (int i = 0; i < loop->nattrs; i++)
    ir_op_set_attr(m, nl, loop->attrs[i].name, loop->attrs[i].value);
  for (int a = 0; a < nargs; a++)
    nl->results[a].name = loop->results[a].name;
  ir_op_insert_before(loop, nl);
  ir_region *r = &nl->regions[0];
  r->first = r->last = body;
  body->parent = r;
  loop->regions[0].first = loop->regions[0].last = NULL;
  ir_value *ins_arg = ir_block_add_arg(m, body, i32), *ext_arg = ir_block_add_arg(m, body, i32);
  ir_op *scope = ir_op_parent_of_kind(nl, IR_OP_TT_FUNC);
  for (int a = 0; a < nargs; a++)
    ir_replace_all_uses(scope, &loop->results[a], &nl->results[a]);
  ir_op_erase(loop);
  pl->loop = nl;

  /* Top of the body: advance the ring indices (when they advance here),
   * wait for this iteration's group, read its slot. */
  ir_builder_set_before(&b, body->first);
  b.loc = nl->loc;
  ir_value *ins = top ? ring_next(&b, ins_arg, stages) : ins_arg;
  ir_value *ext = top ? ring_next(&b, ext_arg, stages) : ext_arg;
  const ir_type *tok = ir_type_token(ctx);
  ir_op *w = ir_build(&b, IR_OP_TTG_ASYNC_WAIT, 1, &tok, 0, NULL, 0);
  ir_op_set_attr(m, w, "num", ir_attr_int(ctx, i32, stages - 2));
  for (int i = 0; i < pl->nloads; i++) {
    pl_load *l = &pl->loads[i];
    ir_value *ix[2] = {l->ring, ext};
    b.loc = l->alloc->loc;
    ir_value *view = ir_build1(&b, IR_OP_TTG_MEMDESC_INDEX, l->slice_ty, 2, ix);
    view->name = l->alloc->results[0].name;
    if (pl->tag_slots) ring_slot_tag(pl, view->def, TTG_RING_READ);
    ir_replace_all_uses(nl, &l->alloc->results[0], view);
  }
  /* erased after all views exist: a load may be the insertion anchor */
  for (int i = 0; i < pl->nloads; i++) {
    ir_op_erase(pl->loads[i].alloc);
    ir_op_erase(pl->loads[i].load);
  }
  /* wgmma operands that cp.async wrote (not st.shared) need no proxy
   * fence, as in Triton; an immutable buffer allocated before the loop
   * (attention's Q, stored once) needs one fence before the loop, not one
   * per iteration. */
  for (ir_op *op = body->first; op; op = op->next) {
    if (op->kind != IR_OP_TTNG_WARP_GROUP_DOT || !op->prev ||
        op->prev->kind != IR_OP_TTNG_FENCE_ASYNC_SHARED)
      continue;
    bool from_rings = true, outside = false;
    for (int i = 0; i < 2; i++) {
      const ir_value *v = op->operands[i];
      if (!ir_type_is_memdesc(v->type) || is_ring_slot(pl, v)) continue;
      if (written_once_before(v, nl))
        outside = true;
      else
        from_rings = false;
    }
    if (!from_rings) continue;
    ir_op *fence = op->prev;
    ir_op_unlink(fence);
    if (outside && !(nl->prev && nl->prev->kind == IR_OP_TTNG_FENCE_ASYNC_SHARED))
      ir_op_insert_before(nl, fence);
  }
  /* An asynchronous wgmma, when its accumulator allows. */
  int acc_slot = -1;
  ir_op *dot = async_dot(pl, &acc_slot);
  ir_op *y = yield_of(body);
  ir_op *issue_at = y; /* where iteration i+S-1's copies go */
  if (dot) {
    ir_op_set_attr(m, dot, "isAsync", ir_attr_bool(ctx, true));
    ir_value *wops[3];
    const ir_type *wts[3];
    int nw = 0;
    wops[nw] = &dot->results[0];
    wts[nw++] = dot->results[0].type;
    for (int i = 0; i < 2; i++)
      if (ir_type_is_memdesc(dot->operands[i]->type)) {
        wops[nw] = dot->operands[i];
        wts[nw++] = dot->operands[i]->type;
      }
    ir_op *wt = ir_op_create(m, IR_OP_TTNG_WARP_GROUP_DOT_WAIT, dot->loc, nw, wts, nw, wops, 0);
    ir_op_set_attr(m, wt, "pendings", ir_attr_int(ctx, i32, 1));
    wt->results[0].name = dot->results[0].name;
    ir_op_insert_after(dot, wt);
    /* In a flattened loop the tile's epilogue follows the dot: the next
     * copies go out before it, as Triton orders them, so that they fly
     * while it runs (the copies read only carried values). */
    if (ir_op_get_attr(nl, "ttg.fused")) issue_at = wt->next;
    ir_op_set_operand(y, acc_slot, &wt->results[0]);
    wait_in_regions(pl, wt, &dot->results[0]);
  } else if ((dot = deferred_dot(pl, &acc_slot)) != NULL) {
    ir_op_set_attr(m, dot, "isAsync", ir_attr_bool(ctx, true));
    ir_value *arg = body->args[acc_slot + 1];
    ir_op *first = y;
    for (ir_op *op = body->first; op != y && first == y; op = op->next) {
      bool uses = op->nregions && ir_count_uses(op, arg) > 0;
      for (int i = 0; i < op->noperands; i++)
        uses = uses || op->operands[i] == arg;
      if (uses) first = op;
    }
    /* With one warpgroup, the wait goes to the top of the body, before the
     * barrier that makes the iteration's copies visible: that barrier then
     * also orders every warp's reads of the last slot before the copies
     * that refill it, and tritongpu-membar needs no second barrier (the
     * iteration's copies go to its fill slot, its reads to its read slot).
     * The same loop as hand-edited PTX ran attention at 4 warps 2 to 3%
     * faster on an H200; with two warpgroups the earlier wait was as fast
     * or slower (docs/results.md, thirteenth session). */
    if (ir_op_get_int(m->op, "ttg.num-warps", 4) == 4) first = w;
    ir_op *wt = wait_on(pl, arg, 0, first);
    ir_replace_all_uses(nl, arg, &wt->results[0]);
    ir_op_set_operand(wt, 0, arg);
  }
  /* End of the body (of a flattened loop: after the dot's wait): issue
   * iteration i+S-1 into the insert slot. */
  ir_builder_set_before(&b, issue_at);
  b.loc = nl->loc;
  map_reset(pl, mp);
  ir_value *ahead = ir_build_binary(
      &b, IR_OP_ARITH_ADDI, body->args[0],
      ir_build_binary(&b, IR_OP_ARITH_MULI, step, ir_build_const_int(&b, ivt, stages - 1)));
  ir_value *pred = ir_build_cmpi(&b, IR_CMPI_SLT, ahead, ub);
  issue(pl, &b, mp, ahead, ins, pred, true);
  b.loc = nl->loc;
  ir_value **ys = ir_arena_alloc(&m->arena, sizeof(ir_value *) * (size_t)(nargs + 2));
  IR_ASSERT(ys);
  for (int a = 0; a < nargs; a++)
    ys[a] = pl->carried[a] ? ir_subst_get(mp, body->args[a + 1]) : y->operands[a];
  ys[nargs] = top ? ins : ring_next(&b, ins, stages);
  ys[nargs + 1] = top ? ext : ring_next(&b, ext, stages);
  ir_op_set_operands(m, y, nargs + 2, ys);
  /* After the loop: nothing in flight. */
  ir_builder_set_before(&b, nl->next);
  b.loc = nl->loc;
  if (dot) {
    ir_value *acc = &nl->results[acc_slot];
    const ir_type *at = acc->type;
    ir_op *wt = ir_build(&b, IR_OP_TTNG_WARP_GROUP_DOT_WAIT, 1, &at, 1, &acc, 0);
    ir_op_set_attr(m, wt, "pendings", ir_attr_int(ctx, i32, 0));
    wt->results[0].name = acc->name;
    ir_replace_all_uses(scope, acc, &wt->results[0]);
    ir_op_set_operand(wt, 0, acc);
  }
  w = ir_build(&b, IR_OP_TTG_ASYNC_WAIT, 1, &tok, 0, NULL, 0);
  ir_op_set_attr(m, w, "num", ir_attr_int(ctx, i32, 0));
  for (int i = 0; i < pl->nloads; i++)
    ir_build(&b, IR_OP_TTG_LOCAL_DEALLOC, 0, NULL, 1, &pl->loads[i].ring, 0);
  map_reset(pl, mp);
}

typedef struct pl_state {
  ir_op *loops[256];
  int n;
} pl_state;

static void collect_loops(ir_op *op, void *user) {
  pl_state *st = user;
  if (op->kind == IR_OP_SCF_FOR && st->n < 256) st->loops[st->n++] = op;
}

/* Pipelines one loop when it can; false when it is left alone. */
static bool pipeline_one(ir_module *m, pl_loop *pl, ir_op *loop, int64_t dflt, int64_t remarks,
                         int cc) {
  int64_t stages = ir_op_get_int(loop, "tt.num_stages", dflt);
  if (stages < 2 || cc < 80) return false; /* cp.async is sm_80's */
  if (has_nested_loop(loop)) {
    if (remarks) ir_emit(m->ctx, IR_SEV_REMARK, loop->loc, "loop not pipelined: it holds a loop");
    return false;
  }
  if (stages > 8) stages = 8;
  ir_op *func = ir_op_parent_of_kind(loop, IR_OP_TT_FUNC);
  if (!func) return false;
  ir_arena ax_arena;
  ir_arena_init(&ax_arena);
  const ir_axis_analysis *ax = ir_axis_analyze(func, &ax_arena);
  memset(pl, 0, sizeof *pl);
  pl->m = m;
  pl->ctx = m->ctx;
  pl->loop = loop;
  pl->body = loop->regions[0].first;
  bool ok = ax && pl->body && analyze(pl, ax);
  ir_arena_free(&ax_arena);
  if (!ok) {
    if (remarks) ir_emit(m->ctx, IR_SEV_REMARK, loop->loc, "loop not pipelined: %s", pl->why);
    return false;
  }
  /* Fit the rings in shared memory, with what the body needs besides. */
  uint64_t tile = 0;
  for (int k = 0; k < pl->nloads; k++)
    tile +=
        (uint64_t)ir_type_numel(pl->loads[k].slice_ty) * ir_type_bytes(pl->loads[k].slice_ty->elem);
  uint64_t other = ttg_shared_bytes_in(pl->body) - tile;
  int64_t asked = stages, limit = ttg_shared_limit(cc);
  while (stages > 1 && tile * (uint64_t)stages + other > (uint64_t)limit)
    stages--;
  if (remarks && stages < 2)
    ir_emit(m->ctx, IR_SEV_REMARK, loop->loc,
            "loop not pipelined: two stages of its tiles (%llu bytes each) and %llu other "
            "bytes exceed the %lld bytes of shared memory",
            (unsigned long long)tile, (unsigned long long)other, (long long)limit);
  else if (remarks)
    ir_emit(m->ctx, IR_SEV_REMARK, loop->loc,
            "loop pipelined: %d load%s, %lld stages of %llu bytes%s (shared memory: %lld bytes)",
            pl->nloads, pl->nloads == 1 ? "" : "s", (long long)stages, (unsigned long long)tile,
            stages < asked ? ", fewer than asked to fit" : "", (long long)limit);
  if (stages < 2) return false;
  pipeline_loop(pl, (int)stages);
  return true;
}

bool ttg_pass_pipeline(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  int64_t dflt = 3, remarks = 0;
  if (!ir_pass_int_option(m, args, "tritongpu-pipeline", "num-stages", 0, 16, 3, &dflt) ||
      !ir_pass_int_option(m, args, "tritongpu-pipeline", "remarks", 0, 1, 0, &remarks))
    return false;
  int cc = ttg_module_options(m).compute_capability;
  pl_state *st = ir_arena_alloc(scratch, sizeof *st);
  pl_loop *pl = ir_arena_alloc(scratch, sizeof *pl);
  if (!st || !pl) return true;
  ir_walk(m->op, collect_loops, st);
  for (int i = 0; i < st->n; i++) {
    ir_op *loop = st->loops[i];
    /* A flattened loop pays only when pipelined: otherwise its nest comes
     * back (the loops in that nest are still in the list). */
    bool fused = ir_op_get_attr(loop, "ttg.fused") != NULL;
    pl->oom = false;
    bool piped = pipeline_one(m, pl, loop, dflt, remarks, cc);
    if (pl->oom) {
      ir_error(m->ctx, loop->loc, "out of memory in pass 'tritongpu-pipeline'");
      return false;
    }
    if (!fused) continue;
    /* pipelining made a new loop (pl->loop) with the old one's attributes */
    ir_op_remove_attr(piped ? pl->loop : loop, "ttg.fused");
    if (!piped) {
      if (remarks)
        ir_emit(m->ctx, IR_SEV_REMARK, loop->loc,
                "flattened loop not pipelined: the loop nest is kept instead");
      ttg_unfuse(loop);
    }
  }
  return true;
}
