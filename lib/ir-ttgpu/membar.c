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
 *
 * An asynchronous wgmma reads its buffers while it runs: its reads stay
 * pending across barriers until a wait completes it (a
 * ttng.warp_group_dot_wait {pendings = k} completes all but the k most
 * recent; a synchronous wgmma waits for all), and only a barrier after that
 * wait retires them. (Nothing may write what a running wgmma reads: no
 * barrier mends that; tritongpu-pipeline makes a wgmma asynchronous only
 * when its operands stay.)
 *
 * Ring slots: a view tagged by tritongpu-pipeline as the iteration's read
 * slot and one tagged as its fill slot are different slots of the ring, so
 * they do not conflict. That holds within one iteration only: what an
 * iteration leaves pending loses its tags at the back edge (and at the
 * loop's exit), and conflicts with the whole ring.
 *
 * Buffers come from allocate-shared-memory (`allocation.offset`); ops with
 * scratch of their own write, synchronize internally and read it, so after
 * them only their reads (and running wgmmas, and cp.async writes whose
 * group no wait has completed yet) are pending. A loop body is
 * walked twice, the second time with what its end leaves pending, so
 * accesses of one iteration are ordered against the next; branches merge
 * what either leaves. Needs: allocate-shared-memory. */
#include "ir-ttgpu/ttg.h"

enum { MAX_RANGES = 64 };

typedef struct range {
  uint64_t lo, hi; /* [lo, hi) */
  int tag;         /* TTG_RING_READ / TTG_RING_FILL within this iteration, or -1 */
  int seq;         /* a running asynchronous wgmma's number, or -1 */
  int group;       /* a cp.async write's commit group until a wait completes it, else -1 */
} range;

typedef struct mb_state {
  range reads[MAX_RANGES], writes[MAX_RANGES];
  int nreads, nwrites;
  int group; /* the commit group cp.asyncs join now: the number committed before */
} mb_state;

static void add_range(range *set, int *n, range r) {
  if (r.hi <= r.lo) return;
  if (*n == MAX_RANGES) { /* too many: widen the last one, untagged, running if either is */
    range *last = &set[MAX_RANGES - 1];
    if (r.lo < last->lo) last->lo = r.lo;
    if (r.hi > last->hi) last->hi = r.hi;
    last->tag = -1;
    if (r.seq > last->seq) last->seq = r.seq;
    if (r.group > last->group) last->group = r.group;
    return;
  }
  set[(*n)++] = r;
}

/* Two ranges conflict when they overlap, unless they are the read and the
 * fill slot of one ring in the same iteration. */
static bool conflict(range a, range b) {
  if (!(a.lo < b.hi && b.lo < a.hi)) return false;
  return !(a.tag >= 0 && b.tag >= 0 && a.tag != b.tag && a.lo == b.lo && a.hi == b.hi);
}

static bool conflicts(const range *set, int n, range r) {
  for (int i = 0; i < n; i++)
    if (conflict(set[i], r)) return true;
  return false;
}

/* Paths that committed different numbers of cp.async groups meet:
 * counting from the smaller number keeps every pending group pending at
 * least as long. */
static void merge(mb_state *into, const mb_state *from) {
  for (int i = 0; i < from->nreads; i++)
    add_range(into->reads, &into->nreads, from->reads[i]);
  for (int i = 0; i < from->nwrites; i++)
    add_range(into->writes, &into->nwrites, from->writes[i]);
  if (from->group < into->group) into->group = from->group;
}

/* What leaves an iteration conflicts with any slot of the next. */
static void untag(mb_state *st) {
  for (int i = 0; i < st->nreads; i++)
    st->reads[i].tag = -1;
  for (int i = 0; i < st->nwrites; i++)
    st->writes[i].tag = -1;
}

/* The bytes a buffer value covers: its local_alloc's, through views, with
 * the ring-slot tag of the view; the whole of shared memory when it cannot
 * be traced (a loop-carried view). */
static range buffer_of(const ir_value *v, uint64_t total) {
  int tag = -1;
  while (v->def &&
         (v->def->kind == IR_OP_TTG_MEMDESC_INDEX || v->def->kind == IR_OP_TTG_MEMDESC_TRANS)) {
    if (v->def->kind == IR_OP_TTG_MEMDESC_INDEX) {
      const ir_attr *t = ir_op_get_attr(v->def, TTG_RING_SLOT_ATTR);
      tag = t && (t->i == TTG_RING_READ || t->i == TTG_RING_FILL) ? (int)t->i : -1;
    }
    v = v->def->operands[0];
  }
  const ir_op *a = v->def;
  range all = {0, total, -1, -1, -1};
  if (!a || a->kind != IR_OP_TTG_LOCAL_ALLOC) return all;
  const ir_attr *off = ir_op_get_attr(a, "allocation.offset");
  if (!off) return all;
  const ir_type *t = a->results[0].type;
  uint64_t lo = (uint64_t)off->i;
  return (range){lo, lo + (uint64_t)ir_type_numel(t) * ir_type_bytes(t->elem), tag, -1, -1};
}

typedef struct mb_ctx {
  ir_module *m;
  uint64_t total;
  int seq; /* the next asynchronous wgmma's number */
} mb_ctx;

/* A barrier retires every access except the reads of running wgmmas and,
 * for an op's own barrier (with scratch; `all` false), the cp.async writes
 * still in flight. A gpu.barrier, which this pass places after the wait
 * for the copies its reader needs, is taken to order those too: other
 * copies still in flight write other slots of a ring whose range is one. */
static void retire(mb_state *st, bool all) {
  int n = 0;
  for (int i = 0; i < st->nreads; i++)
    if (st->reads[i].seq >= 0) st->reads[n++] = st->reads[i];
  st->nreads = n;
  n = 0;
  for (int i = 0; i < st->nwrites && !all; i++)
    if (st->writes[i].group >= 0) st->writes[n++] = st->writes[i];
  st->nwrites = n;
}

/* ttg.async_wait {num = k}: all but the k most recent commit groups are
 * complete (copies not yet committed stay in flight). */
static void complete_copies(mb_state *st, int keep) {
  for (int i = 0; i < st->nwrites; i++)
    if (st->writes[i].group >= 0 && st->writes[i].group < st->group - keep)
      st->writes[i].group = -1;
}

/* A barrier before op. It never orders a running wgmma's reads: those stay
 * pending, so a later access that conflicts with them gets its barrier
 * after the wait. (A conflict with a running wgmma is a race no barrier
 * mends; tritongpu-pipeline only makes a wgmma asynchronous when nothing
 * writes its operands while it runs.) A barrier already right before op
 * (from the loop's first walk, which left such a conflict in place) is
 * not doubled. */
static void barrier_before(mb_ctx *cx, ir_op *op, mb_state *st) {
  if (!op->prev || op->prev->kind != IR_OP_GPU_BARRIER) {
    ir_op *b = ir_op_create(cx->m, IR_OP_GPU_BARRIER, op->loc, 0, NULL, 0, NULL, 0);
    ir_op_insert_before(op, b);
  }
  retire(st, true);
}

/* A wait for all but the `keep` most recent asynchronous wgmmas. */
static void complete(mb_state *st, int keep) {
  for (int i = 0; i < st->nreads; i++) {
    if (st->reads[i].seq < 0) continue;
    int newer = 0; /* running wgmmas newer than this one */
    for (int j = 0; j < st->nreads; j++) {
      bool counted = false; /* count each newer wgmma once */
      for (int k = 0; k < j && !counted; k++)
        counted = st->reads[k].seq == st->reads[j].seq;
      if (!counted && st->reads[j].seq > st->reads[i].seq) newer++;
    }
    if (newer >= keep) st->reads[i].seq = -1;
  }
}

static void walk_block(mb_ctx *cx, ir_block *b, mb_state *st);

static void walk_region_twice(mb_ctx *cx, ir_region *r, mb_state *st) {
  mb_state in = *st, out = *st;
  for (ir_block *b = r->first; b; b = b->next)
    walk_block(cx, b, &out);
  untag(&out);
  mb_state again = in;
  merge(&again, &out);
  for (ir_block *b = r->first; b; b = b->next)
    walk_block(cx, b, &again);
  untag(&again);
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
    complete_copies(st, (int)ir_op_get_int(op, "num", 0));
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
  if (op->kind == IR_OP_TTNG_WARP_GROUP_DOT_WAIT) {
    complete(st, (int)ir_op_get_int(op, "pendings", 0));
    return;
  }
  /* Ops with scratch: write, synchronize, read, internally. */
  const ir_attr *off = ir_op_get_attr(op, "allocation.offset");
  if (off && op->kind != IR_OP_TTG_LOCAL_ALLOC) {
    uint64_t lo = (uint64_t)off->i;
    range r = {lo, lo + ttg_scratch_bytes(op), -1, -1, -1};
    if (conflicts(st->reads, st->nreads, r) || conflicts(st->writes, st->nwrites, r))
      barrier_before(cx, op, st);
    retire(st, false); /* its own barrier ordered everything before but copies in flight */
    add_range(st->reads, &st->nreads, r);
    return;
  }
  range rd[4], wr[2];
  int nrd = 0, nwr = 0;
  bool async = false;
  if (op->kind == IR_OP_TTG_LOCAL_ALLOC && op->noperands == 1)
    wr[nwr++] = buffer_of(&op->results[0], cx->total);
  else if (op->kind == IR_OP_TTG_LOCAL_STORE)
    wr[nwr++] = buffer_of(op->operands[1], cx->total);
  else if (op->kind == IR_OP_TTG_ASYNC_COPY) {
    wr[nwr] = buffer_of(op->operands[1], cx->total);
    wr[nwr++].group = st->group;
  } else if (op->kind == IR_OP_TTG_LOCAL_LOAD)
    rd[nrd++] = buffer_of(op->operands[0], cx->total);
  else if (op->kind == IR_OP_TTNG_WARP_GROUP_DOT) {
    for (int k = 0; k < op->noperands && nrd < 4; k++)
      if (ir_type_is_memdesc(op->operands[k]->type))
        rd[nrd++] = buffer_of(op->operands[k], cx->total);
    async = ir_op_get_int(op, "isAsync", 0) != 0;
  }
  bool conflicted = false;
  for (int i = 0; i < nrd; i++)
    conflicted = conflicted || conflicts(st->writes, st->nwrites, rd[i]);
  for (int i = 0; i < nwr; i++)
    conflicted = conflicted || conflicts(st->writes, st->nwrites, wr[i]) ||
                 conflicts(st->reads, st->nreads, wr[i]);
  if (conflicted) barrier_before(cx, op, st);
  if (op->kind == IR_OP_TTNG_WARP_GROUP_DOT && !async)
    complete(st, 0); /* a synchronous wgmma waits for every one before it */
  int seq = async ? cx->seq++ : -1;
  for (int i = 0; i < nrd; i++) {
    rd[i].seq = seq;
    add_range(st->reads, &st->nreads, rd[i]);
  }
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
  mb_ctx cx = {m, (uint64_t)ir_op_get_int(m->op, "ttg.shared", 0), 0};
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
