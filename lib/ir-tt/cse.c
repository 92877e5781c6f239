// SPDX-License-Identifier: MIT
/* cse.c - common subexpression elimination: a pure op identical to one
 * seen earlier in its block or an enclosing block (same kind, operands,
 * attributes and result types; either operand order for commutative ops)
 * is replaced by it.
 *
 * Needs: nothing. Leaves: no two identical pure ops where one dominates the
 * other; the survivor keeps its name hint and location. */
#include <stdint.h>
#include <stdlib.h>

#include "ir-tt/ir.h"

/* The ops visible in the current scope, outermost first, each chained
 * into a hash bucket by its structural hash: a lookup compares only ops of
 * the same hash (a linear scan of the stack was quadratic). Scopes end in
 * LIFO order, so popping an op unlinks it from the head of its bucket. The
 * buckets grow with the stack (at most one entry in two buckets): a
 * fixed 65536 held chains of 4 to 5 entries at 300k ops, each a cache miss,
 * which made cse 38x slower for 10x the ops. */
typedef struct cse_entry {
  ir_op *op;
  uint64_t hash;
  long next; /* the entry below it in its bucket, or -1 */
} cse_entry;

typedef struct cse_state {
  ir_module *m;
  cse_entry *avail;
  size_t navail, cap;
  long *buckets; /* nbuckets heads (a power of two) */
  size_t nbuckets;
  ir_subst sub; /* erased duplicates -> their survivors */
  bool oom;
} cse_state;

enum { CSE_MIN_BUCKETS = 4096 };

static bool is_candidate(const ir_op *op) { return ir_op_is_pure(op) && op->nresults > 0; }

/* Attributes are uniqued, so equal values are equal pointers; the order of
 * the attribute lists may differ. */
static bool same_attrs(const ir_op *a, const ir_op *b) {
  if (a->nattrs != b->nattrs) return false;
  for (int i = 0; i < a->nattrs; i++)
    if (ir_op_get_attr(b, a->attrs[i].name) != a->attrs[i].value) return false;
  return true;
}

static bool equivalent(const ir_op *a, const ir_op *b) {
  if (a->kind != b->kind || a->nresults != b->nresults || a->noperands != b->noperands)
    return false;
  for (int i = 0; i < a->nresults; i++)
    if (a->results[i].type != b->results[i].type) return false;
  bool same_order = true;
  for (int i = 0; i < a->noperands && same_order; i++)
    same_order = a->operands[i] == b->operands[i];
  if (!same_order) {
    bool commutes = (ir_op_info_of(a)->traits & IR_T_COMMUTATIVE) && a->noperands == 2 &&
                    a->operands[0] == b->operands[1] && a->operands[1] == b->operands[0];
    if (!commutes) return false;
  }
  return same_attrs(a, b);
}

/* A hash equal for equivalent ops: commutative operands in address order,
 * attributes (uniqued) in any order. */
static uint64_t op_hash(const ir_op *op) {
  uint64_t h = (uint64_t)op->kind * 0x9e3779b97f4a7c15ull ^ (uint64_t)op->noperands << 32;
  for (int i = 0; i < op->nresults; i++)
    h = h * 31 + (uint64_t)(uintptr_t)op->results[i].type;
  if ((ir_op_info_of(op)->traits & IR_T_COMMUTATIVE) && op->noperands == 2) {
    /* in address order: a XOR of the two collides for every pair of values
     * made a fixed distance apart (x_i = x_{i-1} * 2 + c_i: 100k addf
     * in 253 buckets) */
    uint64_t p0 = (uint64_t)(uintptr_t)op->operands[0], p1 = (uint64_t)(uintptr_t)op->operands[1];
    h = (h * 31 + (p0 < p1 ? p0 : p1)) * 31 + (p0 < p1 ? p1 : p0);
  } else {
    for (int i = 0; i < op->noperands; i++)
      h = h * 31 + (uint64_t)(uintptr_t)op->operands[i];
  }
  uint64_t a = 0;
  for (int i = 0; i < op->nattrs; i++)
    a += (uint64_t)(uintptr_t)op->attrs[i].name * 7 + (uint64_t)(uintptr_t)op->attrs[i].value;
  h ^= a;
  h ^= h >> 31;
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 29);
}

/* Doubles the buckets and links the stack into them again, bottom to top,
 * so that each bucket's chain keeps the stack's order (the top at the head). */
static bool grow_buckets(cse_state *st) {
  size_t n = st->nbuckets * 2;
  long *b = malloc(n * sizeof *b);
  if (!b) return false;
  for (size_t i = 0; i < n; i++)
    b[i] = -1;
  for (size_t i = 0; i < st->navail; i++) {
    long *head = &b[st->avail[i].hash & (n - 1)];
    st->avail[i].next = *head;
    *head = (long)i;
  }
  free(st->buckets);
  st->buckets = b;
  st->nbuckets = n;
  return true;
}

static void push_avail(cse_state *st, ir_op *op, uint64_t h) {
  if (st->navail == st->cap) {
    size_t cap = st->cap ? st->cap * 2 : 256;
    cse_entry *p = realloc(st->avail, cap * sizeof *p);
    if (!p) {
      st->oom = true;
      return;
    }
    st->avail = p;
    st->cap = cap;
  }
  if (st->navail * 2 >= st->nbuckets && !grow_buckets(st)) {
    st->oom = true;
    return;
  }
  long *head = &st->buckets[h & (st->nbuckets - 1)];
  st->avail[st->navail] = (cse_entry){op, h, *head};
  *head = (long)st->navail++;
}

static ir_op *find_avail(const cse_state *st, const ir_op *op, uint64_t h) {
  for (long i = st->buckets[h & (st->nbuckets - 1)]; i >= 0; i = st->avail[i].next)
    if (st->avail[i].hash == h && equivalent(st->avail[i].op, op)) return st->avail[i].op;
  return NULL;
}

static void cse_region(cse_state *st, ir_region *r);

static void cse_block(cse_state *st, ir_block *b) {
  size_t mark = st->navail;
  ir_op *next;
  for (ir_op *op = b->first; op; op = next) {
    next = op->next;
    ir_subst_apply_op(&st->sub, op); /* uses of duplicates erased earlier */
    if (is_candidate(op)) {
      uint64_t h = op_hash(op);
      ir_op *found = find_avail(st, op, h);
      if (found) {
        for (int i = 0; i < op->nresults; i++)
          ir_subst_add(&st->sub, &op->results[i], &found->results[i]);
        ir_op_erase(op);
        continue;
      }
      push_avail(st, op, h);
    }
    for (int i = 0; i < op->nregions; i++)
      cse_region(st, &op->regions[i]);
  }
  while (st->navail > mark) { /* LIFO: each popped entry heads its bucket */
    const cse_entry *e = &st->avail[--st->navail];
    st->buckets[e->hash & (st->nbuckets - 1)] = e->next;
  }
}

static void cse_region(cse_state *st, ir_region *r) {
  for (ir_block *b = r->first; b; b = b->next)
    cse_block(st, b);
}

bool ir_pass_cse(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)args;
  (void)scratch;
  cse_state st = {m,   NULL, 0, 0, malloc(CSE_MIN_BUCKETS * sizeof(long)), CSE_MIN_BUCKETS,
                  {0}, false};
  if (!st.buckets) {
    ir_error(m->ctx, m->op->loc, "out of memory in pass 'cse'");
    return false;
  }
  for (size_t i = 0; i < st.nbuckets; i++)
    st.buckets[i] = -1;
  cse_region(&st, &m->op->regions[0]);
  ir_subst_apply(&st.sub, m->op); /* uses the walk did not reach */
  st.oom |= st.sub.oom;
  ir_subst_free(&st.sub);
  free(st.avail);
  free(st.buckets);
  if (st.oom) {
    ir_error(m->ctx, m->op->loc, "out of memory in pass 'cse'");
    return false;
  }
  return true;
}
