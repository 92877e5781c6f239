// SPDX-License-Identifier: MIT
/* membar.c - tritongpu-membar: the CTA barriers shared memory needs, as
 * Triton's membar analysis inserts them. Walking the kernel in program
 * order, it keeps the shared-memory byte ranges read and written since the
 * last barrier; before an op whose accesses conflict with those (a read of
 * something written, a write of something read or written) it inserts a
 * gpu.barrier and starts afresh. A cp.async (ttg.async_copy_global_to_local)
 * writes its buffer until a ttg.async_wait completes its commit group, so
 * a barrier before that wait (an op's own, with scratch) does not order
 * the write: the barrier before the buffer's next reader comes after the
 * wait, which precedes the reader.
 * An asynchronous wgmma reads its buffers until its ttng.warp_group_dot_wait.
 * Buffers come from allocate-shared-memory
 * (`allocation.offset`); ops with scratch of their own write, synchronize
 * internally and read it, so after them only their reads (and cp.async
 * writes whose group no wait has completed yet) are pending. A
 * loop body is walked twice, the second time with what its end leaves
 * pending, so accesses of one iteration are ordered against the next;
 * branches merge what either leaves. Needs: allocate-shared-memory. */
#include "ir-ttgpu/ttg.h"

enum { MAX_RANGES = 64 };

typedef struct range {
  uint64_t lo, hi; /* [lo, hi) */
  int group;       /* a cp.async write's commit group until a wait completes it, else -1 */
} range;

typedef struct mb_state {
  range reads[MAX_RANGES], writes[MAX_RANGES];
  int nreads, nwrites;
  int group; /* the commit group cp.asyncs join now: the number committed before */
} mb_state;

static void add_range(range *set, int *n, range r) {
  if (r.hi <= r.lo) return;
  if (*n == MAX_RANGES) { /* too many: widen the last one, pending if either is */
    range *last = &set[MAX_RANGES - 1];
    if (r.lo < last->lo) last->lo = r.lo;
    if (r.hi > last->hi) last->hi = r.hi;
    if (r.group > last->group) last->group = r.group;
    return;
  }
  set[(*n)++] = r;
}

static bool overlaps(const range *set, int n, range r) {
  for (int i = 0; i < n; i++)
    if (set[i].lo < r.hi && r.lo < set[i].hi) return true;
  return false;
}

/* Paths that committed different numbers of groups meet: counting from
 * the smaller number keeps every pending group pending at least as long. */
static void merge(mb_state *into, const mb_state *from) {
  for (int i = 0; i < from->nreads; i++)
    add_range(into->reads, &into->nreads, from->reads[i]);
  for (int i = 0; i < from->nwrites; i++)
    add_range(into->writes, &into->nwrites, from->writes[i]);
  if (from->group < into->group) into->group = from->group;
}

/* The accesses a barrier orders: an op's own barrier (with scratch) all
 * but the cp.async writes still in flight. A gpu.barrier, which this pass
 * places after the wait for the copies its reader needs, is taken to order
 * all (`all`): the other copies still in flight write other slots of the
 * same ring, which the ring's one range cannot tell apart. */
static void retire(mb_state *st, bool all) {
  int n = 0;
  if (!all)
    for (int i = 0; i < st->nwrites; i++)
      if (st->writes[i].group >= 0) st->writes[n++] = st->writes[i];
  st->nwrites = n;
  st->nreads = 0;
}

/* ttg.async_wait {num = k}: all but the k most recent commit groups are
 * complete (copies not yet committed stay in flight). */
static void complete(mb_state *st, int keep) {
  for (int i = 0; i < st->nwrites; i++)
    if (st->writes[i].group >= 0 && st->writes[i].group < st->group - keep)
      st->writes[i].group = -1;
}

/* The bytes a buffer value covers: its local_alloc's, through views; the
 * whole of shared memory when it cannot be traced (a loop-carried view). */
static range buffer_of(const ir_value *v, uint64_t total) {
  while (v->def &&
         (v->def->kind == IR_OP_TTG_MEMDESC_INDEX || v->def->kind == IR_OP_TTG_MEMDESC_TRANS))
    v = v->def->operands[0];
  const ir_op *a = v->def;
  range all = {0, total, -1};
  if (!a || a->kind != IR_OP_TTG_LOCAL_ALLOC) return all;
  const ir_attr *off = ir_op_get_attr(a, "allocation.offset");
  if (!off) return all;
  const ir_type *t = a->results[0].type;
  uint64_t lo = (uint64_t)off->i;
  return (range){lo, lo + (uint64_t)ir_type_numel(t) * ir_type_bytes(t->elem), -1};
}

typedef struct mb_ctx {
  ir_module *m;
  uint64_t total;
} mb_ctx;

static void barrier_before(mb_ctx *cx, ir_op *op, mb_state *st) {
  ir_op *b = ir_op_create(cx->m, IR_OP_GPU_BARRIER, op->loc, 0, NULL, 0, NULL, 0);
  ir_op_insert_before(op, b);
  retire(st, true);
}

static void walk_block(mb_ctx *cx, ir_block *b, mb_state *st);

static void walk_region_twice(mb_ctx *cx, ir_region *r, mb_state *st) {
  mb_state in = *st, out = *st;
  for (ir_block *b = r->first; b; b = b->next)
    walk_block(cx, b, &out);
  mb_state again = in;
  merge(&again, &out);
  for (ir_block *b = r->first; b; b = b->next)
    walk_block(cx, b, &again);
  *st = in;
  merge(st, &again);
}

static void walk_op(mb_ctx *cx, ir_op *op, mb_state *st) {
  if (op->kind == IR_OP_GPU_BARRIER) {
    retire(st, true);
    return;
  }
  if (op->kind == IR_OP_TTG_ASYNC_COMMIT_GROUP) {
    st->group++;
    return;
  }
  if (op->kind == IR_OP_TTG_ASYNC_WAIT) {
    complete(st, (int)ir_op_get_int(op, "num", 0));
    return;
  }
  if (op->kind == IR_OP_SCF_FOR || op->kind == IR_OP_SCF_WHILE) {
    for (int r = 0; r < op->nregions; r++)
      walk_region_twice(cx, &op->regions[r], st);
    return;
  }
  if (op->kind == IR_OP_SCF_IF) {
    mb_state a = *st, b = *st;
    for (ir_block *blk = op->regions[0].first; blk; blk = blk->next)
      walk_block(cx, blk, &a);
    if (op->nregions > 1)
      for (ir_block *blk = op->regions[1].first; blk; blk = blk->next)
        walk_block(cx, blk, &b);
    *st = a;
    merge(st, &b);
    return;
  }
  /* Ops with scratch: write, synchronize, read, internally. */
  const ir_attr *off = ir_op_get_attr(op, "allocation.offset");
  if (off && op->kind != IR_OP_TTG_LOCAL_ALLOC) {
    uint64_t lo = (uint64_t)off->i;
    range r = {lo, lo + ttg_scratch_bytes(op), -1};
    if (overlaps(st->reads, st->nreads, r) || overlaps(st->writes, st->nwrites, r))
      barrier_before(cx, op, st);
    retire(st, false); /* its own barrier ordered everything before but copies in flight */
    add_range(st->reads, &st->nreads, r);
    return;
  }
  range rd[4], wr[2];
  int nrd = 0, nwr = 0;
  if (op->kind == IR_OP_TTG_LOCAL_ALLOC && op->noperands == 1)
    wr[nwr++] = buffer_of(&op->results[0], cx->total);
  else if (op->kind == IR_OP_TTG_LOCAL_STORE)
    wr[nwr++] = buffer_of(op->operands[1], cx->total);
  else if (op->kind == IR_OP_TTG_ASYNC_COPY) {
    wr[nwr] = buffer_of(op->operands[1], cx->total);
    wr[nwr++].group = st->group;
  } else if (op->kind == IR_OP_TTG_LOCAL_LOAD)
    rd[nrd++] = buffer_of(op->operands[0], cx->total);
  else if (op->kind == IR_OP_TTNG_WARP_GROUP_DOT || op->kind == IR_OP_TTNG_WARP_GROUP_DOT_WAIT) {
    /* An asynchronous wgmma reads its buffers until its wait. */
    for (int k = 0; k < op->noperands && nrd < 4; k++)
      if (ir_type_is_memdesc(op->operands[k]->type))
        rd[nrd++] = buffer_of(op->operands[k], cx->total);
  }
  bool conflict = false;
  for (int i = 0; i < nrd; i++)
    conflict = conflict || overlaps(st->writes, st->nwrites, rd[i]);
  for (int i = 0; i < nwr; i++)
    conflict = conflict || overlaps(st->writes, st->nwrites, wr[i]) ||
               overlaps(st->reads, st->nreads, wr[i]);
  if (conflict) barrier_before(cx, op, st);
  for (int i = 0; i < nrd; i++)
    add_range(st->reads, &st->nreads, rd[i]);
  for (int i = 0; i < nwr; i++)
    add_range(st->writes, &st->nwrites, wr[i]);
}

static void walk_block(mb_ctx *cx, ir_block *b, mb_state *st) {
  for (ir_op *op = b->first; op; op = op->next)
    walk_op(cx, op, st);
}

bool ttg_pass_membar(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)scratch;
  (void)args;
  mb_ctx cx = {m, (uint64_t)ir_op_get_int(m->op, "ttg.shared", 0)};
  if (cx.total == 0) return true;
  for (ir_op *f = ir_module_body(m)->first; f; f = f->next) {
    if (f->kind != IR_OP_TT_FUNC) continue;
    mb_state st;
    st.nreads = st.nwrites = st.group = 0;
    for (ir_block *b = f->regions[0].first; b; b = b->next)
      walk_block(&cx, b, &st);
  }
  return true;
}
