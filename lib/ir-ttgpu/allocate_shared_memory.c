// SPDX-License-Identifier: MIT
/* allocate_shared_memory.c - allocate-shared-memory: an offset in the
 * kernel's shared memory for every buffer, as Triton's AllocateSharedMemory
 * does. Buffers are the ttg.local_alloc results (live from the alloc to the
 * last use of the buffer or of views of it, a use inside a loop the alloc is
 * outside of keeping it live for the whole loop) and the scratch each op that
 * moves data between threads needs while it runs (ttg_scratch_bytes).
 * Buffers whose live ranges overlap get disjoint bytes; the biggest are
 * placed first, each at the lowest offset that fits. nvmma_shared buffers are
 * aligned to their swizzle pattern (1024 bytes for 128-byte swizzles).
 * Leaves: an `allocation.offset` attribute on every op that owns a buffer,
 * the module attribute `ttg.shared` (the total, which the launch passes as
 * dynamic shared memory), and a located error naming the bytes when the
 * total exceeds what the target has. */
#include <stdlib.h>
#include <string.h>

#include "ir-ttgpu/ttg.h"

typedef struct buffer {
  ir_op *owner;
  uint64_t size, align, offset;
  int64_t start, end; /* live over op numbers [start, end] */
} buffer;

typedef struct alloc_state {
  ir_module *m;
  ir_op **order; /* ops in pre-order */
  int64_t nops;
  buffer *bufs;
  int nbufs, cap;
  bool oom;
} alloc_state;

/* Op numbers: an op's number is its pre-order position; the last number
 * of anything nested in it is `span_end`. Stored in a hash on the op. */
typedef struct opnum {
  const ir_op *op;
  int64_t num, span_end;
} opnum;

typedef struct numbering {
  opnum *tab;
  size_t cap;
  int64_t next;
} numbering;

static opnum *num_slot(numbering *n, const ir_op *op) {
  uintptr_t h = (uintptr_t)op;
  h ^= h >> 17;
  h *= 0x9E3779B97F4A7C15ull;
  size_t s = (size_t)(h >> 7) & (n->cap - 1);
  while (n->tab[s].op && n->tab[s].op != op)
    s = (s + 1) & (n->cap - 1);
  return &n->tab[s];
}

static int64_t number_op(numbering *n, const ir_op *op) {
  opnum *e = num_slot(n, op);
  e->op = op;
  e->num = n->next++;
  for (int r = 0; r < op->nregions; r++)
    for (ir_block *b = op->regions[r].first; b; b = b->next)
      for (ir_op *o = b->first; o; o = o->next)
        number_op(n, o);
  e = num_slot(n, op); /* the table is not resized: the slot is stable */
  e->span_end = n->next - 1;
  return e->num;
}

static void count(ir_op *op, void *user) {
  (void)op;
  ++*(int64_t *)user;
}

static uint64_t align_of(const ir_type *t) {
  const ir_attr *e = t->layout;
  if (e && e->kind == IR_ATTR_NVMMA_SHARED && e->swizzle_bytes) return e->swizzle_bytes * 8u;
  return 16;
}

static void add_buffer(alloc_state *st, ir_op *owner, uint64_t size, uint64_t align, int64_t start,
                       int64_t end) {
  if (st->nbufs == st->cap) {
    int cap = st->cap ? st->cap * 2 : 32;
    buffer *nb = realloc(st->bufs, (size_t)cap * sizeof *nb);
    if (!nb) {
      st->oom = true;
      return;
    }
    st->bufs = nb;
    st->cap = cap;
  }
  st->bufs[st->nbufs++] = (buffer){owner, size, align, 0, start, end};
}

/* The outermost loop around `op` that does not contain `def` (NULL: none). */
static const ir_op *outermost_loop_without(const ir_op *op, const ir_op *def) {
  const ir_op *best = NULL;
  for (const ir_op *p = op; p && p->parent && p->parent->parent;) {
    p = p->parent->parent->parent;
    if (!p) break;
    if (p->kind != IR_OP_SCF_FOR && p->kind != IR_OP_SCF_WHILE) continue;
    if (def != p && !ir_op_is_inside(def, p)) best = p;
  }
  return best;
}

typedef struct live_walk {
  numbering *num;
  const ir_value *views[64]; /* the buffer and the views taken of it */
  int nviews;
  const ir_op *def;
  int64_t end;
} live_walk;

static void extend_live(ir_op *op, void *user) {
  live_walk *w = user;
  for (int i = 0; i < op->noperands; i++) {
    bool uses = false;
    for (int v = 0; v < w->nviews; v++)
      uses = uses || op->operands[i] == w->views[v];
    if (!uses) continue;
    const ir_op *loop = outermost_loop_without(op, w->def);
    opnum *e = num_slot(w->num, loop ? loop : op);
    int64_t end = loop ? e->span_end : e->num;
    if (end > w->end) w->end = end;
    /* A view (an index or a transpose of the buffer) extends it too. */
    bool is_view = op->kind == IR_OP_TTG_MEMDESC_INDEX || op->kind == IR_OP_TTG_MEMDESC_TRANS;
    if (is_view && w->nviews < 64) w->views[w->nviews++] = &op->results[0];
  }
}

static void collect(ir_op *op, void *user) {
  alloc_state *st = user;
  st->order[st->nops++] = op;
}

/* Lowest offset with `b` not overlapping any placed buffer live with it. */
static void place(buffer *bufs, int nplaced, buffer *b) {
  uint64_t off = 0;
  for (bool moved = true; moved;) {
    moved = false;
    off = (off + b->align - 1) / b->align * b->align;
    for (int i = 0; i < nplaced; i++) {
      const buffer *p = &bufs[i];
      bool live = p->start <= b->end && b->start <= p->end;
      if (live && off < p->offset + p->size && p->offset < off + b->size) {
        off = p->offset + p->size;
        moved = true;
      }
    }
  }
  b->offset = off;
}

static int by_size(const void *x, const void *y) {
  const buffer *a = x, *b = y;
  if (a->size != b->size) return a->size > b->size ? -1 : 1;
  return a->start < b->start ? -1 : a->start > b->start;
}

int ttg_shared_limit(int compute_capability) {
  /* Opt-in dynamic shared memory per block (the CUDA occupancy tables). */
  if (compute_capability >= 100) return 232448;
  if (compute_capability >= 90) return 232448;
  if (compute_capability == 86 || compute_capability == 89) return 101376;
  if (compute_capability >= 80) return 166912;
  return 49152;
}

bool ttg_pass_allocate_shared_memory(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)args;
  alloc_state st = {m, NULL, 0, NULL, 0, 0, false};
  int64_t nops = 0;
  ir_walk(m->op, count, &nops);
  numbering num = {NULL, 16, 0};
  while (num.cap < (size_t)(2 * nops + 2))
    num.cap *= 2;
  num.tab = ir_arena_alloc(scratch, sizeof *num.tab * num.cap);
  st.order = ir_arena_alloc(scratch, sizeof *st.order * (size_t)(nops + 1));
  if (!num.tab || !st.order) {
    ir_error(m->ctx, m->op->loc, "out of memory in pass 'allocate-shared-memory'");
    return false;
  }
  number_op(&num, m->op);
  ir_walk(m->op, collect, &st);
  for (int64_t i = 0; i < st.nops; i++) {
    ir_op *op = st.order[i];
    int64_t n = num_slot(&num, op)->num;
    if (op->kind == IR_OP_TTG_LOCAL_ALLOC) {
      const ir_type *t = op->results[0].type;
      live_walk w = {&num, {&op->results[0]}, 1, op, n};
      ir_op *scope = ir_op_parent_of_kind(op, IR_OP_TT_FUNC);
      ir_walk(scope ? scope : m->op, extend_live, &w);
      uint64_t size = (uint64_t)ir_type_numel(t) * ir_type_bytes(t->elem);
      add_buffer(&st, op, size, align_of(t), n, w.end);
      continue;
    }
    uint64_t bytes = ttg_scratch_bytes(op);
    if (bytes) add_buffer(&st, op, bytes, 16, n, n);
  }
  if (st.oom) {
    free(st.bufs);
    ir_error(m->ctx, m->op->loc, "out of memory in pass 'allocate-shared-memory'");
    return false;
  }
  if (st.nbufs) qsort(st.bufs, (size_t)st.nbufs, sizeof *st.bufs, by_size);
  ir_loc biggest = st.nbufs ? st.bufs[0].owner->loc : m->op->loc;
  uint64_t total = 0;
  const ir_type *i32 = ir_type_i32(m->ctx);
  for (int i = 0; i < st.nbufs; i++) {
    place(st.bufs, i, &st.bufs[i]);
    uint64_t end = st.bufs[i].offset + st.bufs[i].size;
    if (end > total) total = end;
  }
  ttg_options o = ttg_module_options(m);
  int limit = ttg_shared_limit(o.compute_capability);
  /* The IR changes only when the buffers fit. */
  for (int i = 0; i < st.nbufs && total <= (uint64_t)limit; i++)
    ir_op_set_attr(m, st.bufs[i].owner, "allocation.offset",
                   ir_attr_int(m->ctx, i32, (int64_t)st.bufs[i].offset));
  free(st.bufs);
  if (total > (uint64_t)limit) {
    ir_error(m->ctx, biggest,
             "the kernel needs %llu bytes of shared memory, more than the %d bytes a block "
             "can have on compute capability %d.%d (smaller tiles or fewer stages need less)",
             (unsigned long long)total, limit, o.compute_capability / 10,
             o.compute_capability % 10);
    return false;
  }
  ir_op_set_attr(m, m->op, "ttg.shared", ir_attr_int(m->ctx, i32, (int64_t)total));
  return true;
}
