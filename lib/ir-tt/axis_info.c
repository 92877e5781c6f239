// SPDX-License-Identifier: MIT
/* axis_info.c - Triton's AxisInfo analysis: per value and dimension, the
 * contiguity, divisibility and constancy that drive vectorization and
 * coalescing. The rules follow triton/lib/Analysis/AxisInfo.cpp; pointer
 * divisibility counts bytes (addptr scales the offset's by the element size).
 *
 * One forward pass over the function in program order; scf.for iter_args
 * are iterated to a fixpoint with the gcd join. Values with no rule get the
 * pessimistic (1, 1, 1). The result is read-only once built. */
#include <string.h>

#include "ir-tt/ir.h"

/* Divisibility of 0 (and the cap of products): 2^62, as Triton. */
#define AX_MAX_DIV ((int64_t)1 << 62)

typedef struct ax_fact {
  ir_axis_info info;
  bool has_const; /* a scalar or splat integer constant */
  int64_t cval;
} ax_fact;

/* A value's slot in the table: the key and where its fact lives. The facts
 * (120 bytes each) sit in blocks apart from the table, so that the table
 * (2x the values, for open addressing) stays 16 bytes a slot: a 300k-value
 * kernel needs 16 MB of table, not 128 MB zeroed on every growth. */
typedef struct ax_entry {
  const ir_value *key;
  size_t index; /* into the fact blocks */
} ax_entry;

/* 512 facts (60 KB): a block fits one arena chunk. */
enum { AX_BLOCK_SHIFT = 9, AX_BLOCK = 1 << AX_BLOCK_SHIFT };

struct ir_axis_analysis {
  ir_arena *arena;
  ax_entry *table; /* open addressing; grown by rehashing into the arena */
  size_t cap, len;
  ax_fact **blocks; /* AX_BLOCK facts each; fact i in blocks[i >> AX_BLOCK_SHIFT] */
  size_t nblocks, blocks_cap;
};

static size_t ax_hash(const ir_value *v, size_t cap) { return ir_ptr_slot(v, cap); }

static ax_fact *ax_fact_at(const ir_axis_analysis *a, size_t i) {
  return &a->blocks[i >> AX_BLOCK_SHIFT][i & (AX_BLOCK - 1)];
}

static const ax_fact *ax_find(const ir_axis_analysis *a, const ir_value *v) {
  if (!a || !a->cap) return NULL;
  for (size_t j = ax_hash(v, a->cap); a->table[j].key; j = (j + 1) & (a->cap - 1))
    if (a->table[j].key == v) return ax_fact_at(a, a->table[j].index);
  return NULL;
}

/* Room for fact number a->len; false on OOM. */
static bool ax_reserve_fact(ir_axis_analysis *a) {
  size_t b = a->len >> AX_BLOCK_SHIFT;
  if (b < a->nblocks) return true;
  if (b == a->blocks_cap) { /* the list doubles; the old one (pointers) stays in the arena */
    size_t ncap = a->blocks_cap ? a->blocks_cap * 2 : 8;
    ax_fact **nb = ir_arena_alloc(a->arena, ncap * sizeof *nb);
    if (!nb) return false;
    if (a->nblocks) memcpy(nb, a->blocks, a->nblocks * sizeof *nb);
    a->blocks = nb;
    a->blocks_cap = ncap;
  }
  a->blocks[b] = ir_arena_alloc(a->arena, AX_BLOCK * sizeof **a->blocks);
  if (!a->blocks[b]) return false;
  a->nblocks = b + 1;
  return true;
}

static bool ax_set(ir_axis_analysis *a, const ir_value *v, const ax_fact *f) {
  if ((a->len + 1) * 2 > a->cap) {
    size_t ncap = a->cap ? a->cap * 2 : 256;
    ax_entry *nt = ir_arena_alloc(a->arena, ncap * sizeof *nt);
    if (!nt) return false;
    for (size_t i = 0; i < a->cap; i++) {
      if (!a->table[i].key) continue;
      size_t j = ax_hash(a->table[i].key, ncap);
      while (nt[j].key)
        j = (j + 1) & (ncap - 1);
      nt[j] = a->table[i];
    }
    a->table = nt;
    a->cap = ncap;
  }
  size_t j = ax_hash(v, a->cap);
  while (a->table[j].key && a->table[j].key != v)
    j = (j + 1) & (a->cap - 1);
  if (!a->table[j].key) {
    if (!ax_reserve_fact(a)) return false;
    a->table[j].key = v;
    a->table[j].index = a->len++;
  }
  *ax_fact_at(a, a->table[j].index) = *f;
  return true;
}

/* ---- arithmetic on facts ---------------------------------------------- */

static int64_t gcd64(int64_t a, int64_t b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

static int64_t pow2_divisor(int64_t n) {
  if (n == 0) return AX_MAX_DIV;
  uint64_t u = (uint64_t)n;
  int64_t d = (int64_t)(u & (~u + 1));
  return d > AX_MAX_DIV || d <= 0 ? AX_MAX_DIV : d;
}

static int64_t mul_div(int64_t a, int64_t b) {
  if (b && a > AX_MAX_DIV / b) return AX_MAX_DIV;
  return a * b;
}

static int ty_rank(const ir_type *t) { return ir_type_is_tensor(t) ? t->rank : 0; }
static int64_t ty_dim(const ir_type *t, int d) { return ir_type_is_tensor(t) ? t->shape[d] : 1; }
/* Dimensions to fill: scalars use index 0. */
static int ty_ndims(const ir_type *t) { return ir_type_is_tensor(t) ? t->rank : 1; }

static ax_fact fact_pessimistic(const ir_type *t) {
  ax_fact f;
  memset(&f, 0, sizeof f);
  f.info.rank = ty_rank(t);
  for (int d = 0; d < IR_MAX_RANK; d++)
    f.info.contiguity[d] = f.info.divisibility[d] = f.info.constancy[d] = 1;
  return f;
}

/* A constant c over type t: constancy spans the whole shape. */
static ax_fact fact_const(const ir_type *t, int64_t c) {
  ax_fact f = fact_pessimistic(t);
  for (int d = 0; d < ty_ndims(t); d++) {
    f.info.divisibility[d] = pow2_divisor(c);
    f.info.constancy[d] = ty_dim(t, d);
  }
  f.has_const = true;
  f.cval = c;
  return f;
}

static bool is_const_dim(const ax_fact *f, const ir_type *t, int d) {
  return f->info.constancy[d] == ty_dim(t, d);
}

static bool is_contig_dim(const ax_fact *f, const ir_type *t, int d) {
  return f->info.contiguity[d] == ty_dim(t, d);
}

static bool has_value(const ax_fact *f, int64_t v) { return f->has_const && f->cval == v; }

/* The lattice join (control-flow merge): gcd everywhere. */
static ax_fact fact_join(const ax_fact *a, const ax_fact *b) {
  ax_fact f = *a;
  for (int d = 0; d < IR_MAX_RANK; d++) {
    f.info.contiguity[d] = gcd64(a->info.contiguity[d], b->info.contiguity[d]);
    f.info.divisibility[d] = gcd64(a->info.divisibility[d], b->info.divisibility[d]);
    f.info.constancy[d] = gcd64(a->info.constancy[d], b->info.constancy[d]);
  }
  f.has_const = a->has_const && b->has_const && a->cval == b->cval;
  return f;
}

static bool fact_equal(const ax_fact *a, const ax_fact *b) {
  return memcmp(&a->info, &b->info, sizeof a->info) == 0 && a->has_const == b->has_const &&
         (!a->has_const || a->cval == b->cval);
}

/* ---- the transfer functions ------------------------------------------- */

typedef struct ax_walk {
  ir_axis_analysis *a;
  bool oom;
} ax_walk;

static ax_fact get_fact(const ax_walk *w, const ir_value *v) {
  const ax_fact *f = ax_find(w->a, v);
  return f ? *f : fact_pessimistic(v->type);
}

static void put_fact(ax_walk *w, const ir_value *v, const ax_fact *f) {
  if (!ax_set(w->a, v, f)) w->oom = true;
}

/* addi, subi, addptr: AddSubOpAxisInfoVisitor. */
static ax_fact visit_add_sub(const ir_op *op, const ax_fact *l, const ax_fact *r) {
  const ir_type *t = op->results[0].type;
  ax_fact f = fact_pessimistic(t);
  int64_t elem_size = 1;
  if (op->kind == IR_OP_TT_ADDPTR) {
    const ir_type *pointee = ir_type_scalar(op->operands[0]->type)->elem;
    elem_size = pointee ? (int64_t)ir_type_bytes(pointee) : 1;
    if (elem_size < 1) elem_size = 1;
  }
  for (int d = 0; d < ty_ndims(t); d++) {
    if (op->kind == IR_OP_ARITH_SUBI)
      f.info.contiguity[d] = gcd64(l->info.contiguity[d], r->info.constancy[d]);
    else
      f.info.contiguity[d] = max64(gcd64(l->info.constancy[d], r->info.contiguity[d]),
                                   gcd64(l->info.contiguity[d], r->info.constancy[d]));
    f.info.divisibility[d] =
        gcd64(l->info.divisibility[d], mul_div(r->info.divisibility[d], elem_size));
    f.info.constancy[d] = gcd64(l->info.constancy[d], r->info.constancy[d]);
  }
  if (l->has_const && r->has_const) {
    f.has_const = true;
    /* Wraparound (unsigned) arithmetic, as the op itself: constant i64
     * operands near the limits must not overflow a signed int64_t here. */
    uint64_t lc = (uint64_t)l->cval, rc = (uint64_t)r->cval;
    f.cval = (int64_t)(op->kind == IR_OP_ARITH_SUBI ? lc - rc : lc + rc * (uint64_t)elem_size);
  }
  return f;
}

static ax_fact visit_mul(const ir_op *op, const ax_fact *l, const ax_fact *r) {
  const ir_type *t = op->results[0].type;
  ax_fact f = fact_pessimistic(t);
  for (int d = 0; d < ty_ndims(t); d++) {
    int64_t lc = has_value(r, 1) ? l->info.contiguity[d] : 1;
    int64_t rc = has_value(l, 1) ? r->info.contiguity[d] : 1;
    f.info.contiguity[d] = max64(lc, rc);
    f.info.constancy[d] = gcd64(l->info.constancy[d], r->info.constancy[d]);
    /* [2^n, 2^n+1, ...] is divisible by 1, not 2^n, once scaled. */
    int64_t ld = l->info.contiguity[d] > 1 && !has_value(r, 1) ? 1 : l->info.divisibility[d];
    int64_t rd = r->info.contiguity[d] > 1 && !has_value(l, 1) ? 1 : r->info.divisibility[d];
    f.info.divisibility[d] = mul_div(ld, rd);
  }
  if (l->has_const && r->has_const) {
    f.has_const = true;
    f.cval = (int64_t)((uint64_t)l->cval * (uint64_t)r->cval);
  }
  return f;
}

static ax_fact visit_div(const ir_op *op, const ax_fact *l, const ax_fact *r) {
  const ir_type *t = op->results[0].type;
  ax_fact f = fact_pessimistic(t);
  for (int d = 0; d < ty_ndims(t); d++) {
    f.info.contiguity[d] = has_value(r, 1) ? l->info.contiguity[d] : 1;
    int64_t c = gcd64(l->info.constancy[d], r->info.constancy[d]);
    /* An aligned run of consecutive values divided by a multiple of the run
     * length gives one quotient, when the division floors: unsigned only.
     * Signed division truncates toward zero, so a run of negatives such as
     * [-16, -1] / 16 gives -1 and 0 (Triton assumes it for divsi too; this
     * fact now decides which registers codegen computes, so it must hold). */
    if (op->kind == IR_OP_ARITH_DIVUI && ir_type_is_tensor(t) && is_contig_dim(l, t, d) &&
        is_const_dim(r, t, d))
      c = max64(
          c, gcd64(l->info.contiguity[d], gcd64(l->info.divisibility[d], r->info.divisibility[d])));
    f.info.constancy[d] = c;
    f.info.divisibility[d] = has_value(l, 0) || has_value(r, 1) ? l->info.divisibility[d] : 1;
  }
  /* INT64_MIN / -1 traps: left unknown, like division by zero. */
  if (l->has_const && r->has_const && r->cval != 0 && !(l->cval == INT64_MIN && r->cval == -1)) {
    f.has_const = true;
    f.cval = l->cval / r->cval;
  }
  return f;
}

static ax_fact visit_rem(const ir_op *op, const ax_fact *l, const ax_fact *r) {
  const ir_type *t = op->results[0].type;
  ax_fact f = fact_pessimistic(t);
  for (int d = 0; d < ty_ndims(t); d++) {
    if (ir_type_is_tensor(t) && is_contig_dim(l, t, d) && is_const_dim(r, t, d))
      f.info.contiguity[d] =
          gcd64(l->info.contiguity[d], gcd64(l->info.divisibility[d], r->info.divisibility[d]));
    f.info.divisibility[d] = gcd64(l->info.divisibility[d], r->info.divisibility[d]);
    int64_t c = gcd64(l->info.constancy[d], r->info.constancy[d]);
    f.info.constancy[d] = ir_type_is_tensor(t) && has_value(r, 1) ? ty_dim(t, d) : c;
  }
  if (l->has_const && r->has_const && r->cval != 0 && !(l->cval == INT64_MIN && r->cval == -1)) {
    f.has_const = true;
    f.cval = l->cval % r->cval;
  }
  return f;
}

static ax_fact visit_cmp(const ir_op *op, const ax_fact *l, const ax_fact *r) {
  const ir_type *t = op->results[0].type;
  ax_fact f = fact_pessimistic(t);
  int64_t p = ir_op_get_int(op, "predicate", 0);
  bool lt = p == IR_CMPI_SLT || p == IR_CMPI_ULT, le = p == IR_CMPI_SLE || p == IR_CMPI_ULE;
  bool gt = p == IR_CMPI_SGT || p == IR_CMPI_UGT, ge = p == IR_CMPI_SGE || p == IR_CMPI_UGE;
  for (int d = 0; d < ty_ndims(t); d++) {
    int64_t c;
    if (l->has_const && r->has_const) {
      c = ty_dim(t, d);
    } else {
      c = gcd64(l->info.constancy[d], r->info.constancy[d]);
      if (!ir_type_is_tensor(t)) {
        /* scalars: nothing more to learn */
      } else if ((gt || le) && is_const_dim(l, t, d)) {
        /* lhs constant, rhs contiguous: the result flips at most once per
         * aligned run of rhs. */
        c = max64(c, gcd64(r->info.contiguity[d],
                           gcd64(l->info.divisibility[d], r->info.divisibility[d])));
      } else if ((lt || ge) && is_const_dim(r, t, d)) {
        c = max64(c, gcd64(l->info.contiguity[d],
                           gcd64(l->info.divisibility[d], r->info.divisibility[d])));
      }
    }
    f.info.constancy[d] = c;
  }
  return f;
}

/* andi / ori / xori: only constancy survives (LogicalOpAxisInfoVisitor). */
static ax_fact visit_logical(const ir_op *op, const ax_fact *l, const ax_fact *r) {
  const ir_type *t = op->results[0].type;
  ax_fact f = fact_pessimistic(t);
  for (int d = 0; d < ty_ndims(t); d++)
    f.info.constancy[d] = gcd64(l->info.constancy[d], r->info.constancy[d]);
  if (l->has_const && r->has_const) {
    f.has_const = true;
    f.cval = op->kind == IR_OP_ARITH_ANDI  ? (l->cval & r->cval)
             : op->kind == IR_OP_ARITH_ORI ? (l->cval | r->cval)
                                           : (l->cval ^ r->cval);
  }
  return f;
}

static ax_fact visit_select(const ir_op *op, const ax_fact *c, const ax_fact *l, const ax_fact *r) {
  const ir_type *t = op->results[0].type;
  if (c->has_const) return c->cval ? *l : *r;
  ax_fact f = fact_pessimistic(t);
  bool scalar_cond = !ir_type_is_tensor(op->operands[0]->type);
  for (int d = 0; d < ty_ndims(t); d++) {
    int64_t cc = scalar_cond ? ty_dim(t, d) : c->info.constancy[d];
    f.info.constancy[d] = min64(gcd64(l->info.constancy[d], cc), gcd64(r->info.constancy[d], cc));
    f.info.contiguity[d] =
        min64(gcd64(l->info.contiguity[d], cc), gcd64(r->info.contiguity[d], cc));
    f.info.divisibility[d] = min64(l->info.divisibility[d], r->info.divisibility[d]);
  }
  if (l->has_const && r->has_const && l->cval == r->cval) {
    f.has_const = true;
    f.cval = l->cval;
  }
  return f;
}

static ax_fact visit_minmax(const ir_op *op, const ax_fact *l, const ax_fact *r) {
  const ir_type *t = op->results[0].type;
  ax_fact f = fact_pessimistic(t);
  if (l->has_const && r->has_const) {
    bool is_max = op->kind == IR_OP_ARITH_MAXSI || op->kind == IR_OP_ARITH_MAXUI;
    bool uns = op->kind == IR_OP_ARITH_MAXUI || op->kind == IR_OP_ARITH_MINUI;
    bool l_less = uns ? (uint64_t)l->cval < (uint64_t)r->cval : l->cval < r->cval;
    return fact_const(t, is_max == l_less ? r->cval : l->cval);
  }
  for (int d = 0; d < ty_ndims(t); d++) {
    f.info.contiguity[d] = min64(l->info.contiguity[d], r->info.contiguity[d]);
    f.info.divisibility[d] = min64(l->info.divisibility[d], r->info.divisibility[d]);
    f.info.constancy[d] = min64(l->info.constancy[d], r->info.constancy[d]);
  }
  return f;
}

static ax_fact visit_shift(const ir_op *op, const ax_fact *l, const ax_fact *r) {
  const ir_type *t = op->results[0].type;
  ax_fact f = fact_pessimistic(t);
  int64_t s = r->has_const ? r->cval : -1;
  for (int d = 0; d < ty_ndims(t); d++) {
    f.info.constancy[d] = gcd64(l->info.constancy[d], r->info.constancy[d]);
    if (s == 0) {
      f.info.contiguity[d] = l->info.contiguity[d];
      f.info.divisibility[d] = l->info.divisibility[d];
      continue;
    }
    if (s < 0 || s >= 62) continue;
    int64_t ld = l->info.contiguity[d] > 1 ? 1 : l->info.divisibility[d];
    if (op->kind == IR_OP_ARITH_SHLI)
      f.info.divisibility[d] = mul_div(ld, (int64_t)1 << s);
    else
      f.info.divisibility[d] = max64(1, ld >> s);
  }
  if (l->has_const && r->has_const && s >= 0 && s < 64) {
    f.has_const = true;
    f.cval = op->kind == IR_OP_ARITH_SHLI    ? (int64_t)((uint64_t)l->cval << s)
             : op->kind == IR_OP_ARITH_SHRSI ? l->cval >> s
                                             : (int64_t)((uint64_t)l->cval >> s);
  }
  return f;
}

static ax_fact visit_constant(const ir_op *op) {
  const ir_type *t = op->results[0].type;
  const ir_attr *a = ir_op_get_attr(op, "value");
  const ir_attr *s = a && a->kind == IR_ATTR_DENSE ? a->elem : a;
  if (s && s->kind == IR_ATTR_INT) return fact_const(t, s->i);
  ax_fact f = fact_pessimistic(t);
  /* A float splat is still constant along every dimension. */
  if (s && s->kind == IR_ATTR_FLOAT)
    for (int d = 0; d < ty_ndims(t); d++)
      f.info.constancy[d] = ty_dim(t, d);
  return f;
}

static ax_fact visit_make_range(const ir_op *op) {
  const ir_type *t = op->results[0].type;
  ax_fact f = fact_pessimistic(t);
  int64_t start = ir_op_get_int(op, "start", 0), end = ir_op_get_int(op, "end", 0);
  f.info.contiguity[0] = end - start;
  f.info.divisibility[0] = pow2_divisor(start);
  return f;
}

static ax_fact visit_splat(const ir_op *op, const ax_fact *x) {
  const ir_type *t = op->results[0].type;
  ax_fact f = fact_pessimistic(t);
  for (int d = 0; d < ty_ndims(t); d++) {
    f.info.divisibility[d] = x->info.divisibility[0];
    f.info.constancy[d] = ty_dim(t, d);
  }
  f.has_const = x->has_const;
  f.cval = x->cval;
  return f;
}

static ax_fact visit_broadcast(const ir_op *op, const ax_fact *x) {
  const ir_type *t = op->results[0].type, *src = op->operands[0]->type;
  ax_fact f = fact_pessimistic(t);
  for (int d = 0; d < ty_ndims(t); d++) {
    bool is_bcast = ty_dim(src, d) == 1 && ty_dim(t, d) != 1;
    f.info.contiguity[d] = is_bcast ? 1 : x->info.contiguity[d];
    f.info.divisibility[d] = x->info.divisibility[d];
    f.info.constancy[d] = is_bcast ? ty_dim(t, d) : x->info.constancy[d];
  }
  f.has_const = x->has_const;
  f.cval = x->cval;
  return f;
}

static ax_fact visit_expand_dims(const ir_op *op, const ax_fact *x) {
  const ir_type *t = op->results[0].type;
  int axis = (int)ir_op_get_int(op, "axis", 0), src_rank = ty_rank(op->operands[0]->type);
  ax_fact f = fact_pessimistic(t);
  if (axis < 0 || axis > src_rank || src_rank + 1 > IR_MAX_RANK) return f;
  /* The new dimension's divisibility: the gcd over the old ones, where a
   * contiguous run counts as 1 (its later elements are odd). */
  int64_t div = 1;
  if (x->has_const) {
    div = pow2_divisor(x->cval);
  } else if (src_rank > 0) {
    div = x->info.contiguity[0] > 1 ? 1 : x->info.divisibility[0];
    for (int d = 1; d < src_rank; d++)
      div = gcd64(div, x->info.contiguity[d] > 1 ? 1 : x->info.divisibility[d]);
  }
  for (int d = 0, s = 0; d < src_rank + 1; d++) {
    if (d == axis) {
      f.info.divisibility[d] = div;
      continue;
    }
    f.info.contiguity[d] = x->info.contiguity[s];
    f.info.divisibility[d] = x->info.divisibility[s];
    f.info.constancy[d] = x->info.constancy[s];
    s++;
  }
  f.has_const = x->has_const;
  f.cval = x->cval;
  return f;
}

static ax_fact visit_trans(const ir_op *op, const ax_fact *x) {
  const ir_type *t = op->results[0].type;
  const ir_attr *order = ir_op_get_attr(op, "order");
  ax_fact f = fact_pessimistic(t);
  if (!order || order->kind != IR_ATTR_ARRAY || order->n != ty_rank(t)) return f;
  for (int d = 0; d < order->n; d++) {
    int s = (int)order->ints[d];
    if (s < 0 || s >= IR_MAX_RANK) return fact_pessimistic(t);
    f.info.contiguity[d] = x->info.contiguity[s];
    f.info.divisibility[d] = x->info.divisibility[s];
    f.info.constancy[d] = x->info.constancy[s];
  }
  f.has_const = x->has_const;
  f.cval = x->cval;
  return f;
}

/* A value passed through unchanged in shape: casts, layout conversions. */
static ax_fact visit_passthrough(const ir_op *op, const ax_fact *x) {
  ax_fact f = *x;
  f.info.rank = ty_rank(op->results[0].type);
  return f;
}

static void analyze_region(ax_walk *w, const ir_region *r);

static const ir_op *yield_of(const ir_region *r) {
  const ir_block *b = r->first;
  return b && b->last && b->last->kind == IR_OP_SCF_YIELD ? b->last : NULL;
}

/* scf.for: the induction variable's divisibility is gcd(lb, step); iter
 * args start from the inits and are joined with the yields to a fixpoint. */
static void visit_for(ax_walk *w, const ir_op *op) {
  const ir_block *body = op->regions[0].first;
  int n = op->noperands - 3;
  if (!body || body->nargs != n + 1) {
    for (int i = 0; i < op->nresults; i++) {
      ax_fact f = fact_pessimistic(op->results[i].type);
      put_fact(w, &op->results[i], &f);
    }
    return;
  }
  ax_fact lb = get_fact(w, op->operands[0]), step = get_fact(w, op->operands[2]);
  ax_fact iv = fact_pessimistic(body->args[0]->type);
  iv.info.divisibility[0] = gcd64(lb.info.divisibility[0], step.info.divisibility[0]);
  put_fact(w, body->args[0], &iv);
  for (int i = 0; i < n; i++) {
    ax_fact f = get_fact(w, op->operands[3 + i]);
    put_fact(w, body->args[1 + i], &f);
  }
  const ir_op *y = yield_of(&op->regions[0]);
  for (int iter = 0; iter < 32; iter++) {
    analyze_region(w, &op->regions[0]);
    bool changed = false;
    for (int i = 0; y && i < n && i < y->noperands; i++) {
      ax_fact cur = get_fact(w, body->args[1 + i]), yv = get_fact(w, y->operands[i]);
      ax_fact j = fact_join(&cur, &yv);
      if (!fact_equal(&j, &cur)) {
        put_fact(w, body->args[1 + i], &j);
        changed = true;
      }
    }
    if (!changed) break;
    if (iter == 31) /* no fixpoint: give up on precision */
      for (int i = 0; i < n; i++) {
        ax_fact f = fact_pessimistic(body->args[1 + i]->type);
        put_fact(w, body->args[1 + i], &f);
      }
  }
  if (!y) analyze_region(w, &op->regions[0]);
  for (int i = 0; i < op->nresults && i < n; i++) {
    ax_fact f = get_fact(w, body->args[1 + i]);
    put_fact(w, &op->results[i], &f);
  }
}

static void visit_if(ax_walk *w, const ir_op *op) {
  const ir_op *ys[2] = {NULL, NULL};
  for (int r = 0; r < op->nregions && r < 2; r++) {
    analyze_region(w, &op->regions[r]);
    ys[r] = yield_of(&op->regions[r]);
  }
  for (int i = 0; i < op->nresults; i++) {
    ax_fact f;
    if (ys[0] && ys[1] && i < ys[0]->noperands && i < ys[1]->noperands) {
      ax_fact a = get_fact(w, ys[0]->operands[i]), b = get_fact(w, ys[1]->operands[i]);
      f = fact_join(&a, &b);
    } else {
      f = fact_pessimistic(op->results[i].type);
    }
    put_fact(w, &op->results[i], &f);
  }
}

static void visit_op(ax_walk *w, const ir_op *op) {
  ax_fact f = {0}, x = {0}, y = {0};
  const ir_type *t = op->nresults ? op->results[0].type : NULL;
  if (op->noperands > 0) x = get_fact(w, op->operands[0]);
  if (op->noperands > 1) y = get_fact(w, op->operands[1]);
  switch (op->kind) {
  case IR_OP_ARITH_CONSTANT: f = visit_constant(op); break;
  case IR_OP_TT_MAKE_RANGE: f = visit_make_range(op); break;
  case IR_OP_TT_SPLAT: f = visit_splat(op, &x); break;
  case IR_OP_TT_BROADCAST: f = visit_broadcast(op, &x); break;
  case IR_OP_TT_EXPAND_DIMS: f = visit_expand_dims(op, &x); break;
  case IR_OP_TT_TRANS: f = visit_trans(op, &x); break;
  case IR_OP_ARITH_ADDI:
  case IR_OP_ARITH_SUBI:
  case IR_OP_TT_ADDPTR: f = visit_add_sub(op, &x, &y); break;
  case IR_OP_ARITH_MULI: f = visit_mul(op, &x, &y); break;
  case IR_OP_ARITH_DIVSI:
  case IR_OP_ARITH_DIVUI: f = visit_div(op, &x, &y); break;
  case IR_OP_ARITH_REMSI:
  case IR_OP_ARITH_REMUI: f = visit_rem(op, &x, &y); break;
  case IR_OP_ARITH_CMPI: f = visit_cmp(op, &x, &y); break;
  case IR_OP_ARITH_ANDI:
  case IR_OP_ARITH_ORI:
  case IR_OP_ARITH_XORI: f = visit_logical(op, &x, &y); break;
  case IR_OP_ARITH_SHLI:
  case IR_OP_ARITH_SHRSI:
  case IR_OP_ARITH_SHRUI: f = visit_shift(op, &x, &y); break;
  case IR_OP_ARITH_MAXSI:
  case IR_OP_ARITH_MINSI:
  case IR_OP_ARITH_MAXUI:
  case IR_OP_ARITH_MINUI: f = visit_minmax(op, &x, &y); break;
  case IR_OP_ARITH_SELECT: {
    ax_fact z = get_fact(w, op->operands[2]);
    f = visit_select(op, &x, &y, &z);
    break;
  }
  case IR_OP_ARITH_EXTSI:
  case IR_OP_ARITH_EXTUI:
  case IR_OP_ARITH_TRUNCI:
  case IR_OP_ARITH_BITCAST:
  case IR_OP_TT_BITCAST:
  case IR_OP_TT_INT_TO_PTR:
  case IR_OP_TT_PTR_TO_INT:
  case IR_OP_TTG_CONVERT_LAYOUT: f = visit_passthrough(op, &x); break;
  case IR_OP_SCF_FOR: visit_for(w, op); return;
  case IR_OP_SCF_IF: visit_if(w, op); return;
  case IR_OP_SCF_WHILE:
  case IR_OP_TT_REDUCE:
  case IR_OP_TT_SCAN:
  case IR_OP_TT_FUNC:
  case IR_OP_MODULE:
    /* Region arguments and results: pessimistic; the bodies still get
     * facts for what they compute. */
    for (int r = 0; r < op->nregions; r++) {
      for (const ir_block *b = op->regions[r].first; b; b = b->next)
        for (int i = 0; i < b->nargs; i++) {
          ax_fact a = fact_pessimistic(b->args[i]->type);
          put_fact(w, b->args[i], &a);
        }
      analyze_region(w, &op->regions[r]);
    }
    for (int i = 0; i < op->nresults; i++) {
      ax_fact a = fact_pessimistic(op->results[i].type);
      put_fact(w, &op->results[i], &a);
    }
    return;
  case IR_OP_ARITH_ADDF:
  case IR_OP_ARITH_SUBF:
  case IR_OP_ARITH_MULF:
  case IR_OP_ARITH_DIVF:
  case IR_OP_ARITH_REMF:
  case IR_OP_ARITH_MAXNUMF:
  case IR_OP_ARITH_MINNUMF:
  case IR_OP_ARITH_MAXIMUMF:
  case IR_OP_ARITH_MINIMUMF:
  case IR_OP_ARITH_NEGF:
  case IR_OP_ARITH_CMPF:
  case IR_OP_ARITH_EXTF:
  case IR_OP_ARITH_TRUNCF:
  case IR_OP_ARITH_SITOFP:
  case IR_OP_ARITH_UITOFP:
  case IR_OP_ARITH_FPTOSI:
  case IR_OP_ARITH_FPTOUI:
  case IR_OP_MATH_EXP:
  case IR_OP_MATH_EXP2:
  case IR_OP_MATH_LOG:
  case IR_OP_MATH_LOG2:
  case IR_OP_MATH_SQRT:
  case IR_OP_MATH_RSQRT:
  case IR_OP_MATH_ABSF:
  case IR_OP_MATH_ABSI:
  case IR_OP_MATH_SIN:
  case IR_OP_MATH_COS:
  case IR_OP_MATH_ERF:
  case IR_OP_MATH_FLOOR:
  case IR_OP_MATH_CEIL:
  case IR_OP_MATH_FMA:
  case IR_OP_TT_RETURN:
  case IR_OP_TT_GET_PROGRAM_ID:
  case IR_OP_TT_GET_NUM_PROGRAMS:
  case IR_OP_TT_RESHAPE:
  case IR_OP_TT_LOAD:
  case IR_OP_TT_STORE:
  case IR_OP_TT_FP_TO_FP:
  case IR_OP_TT_MULHIUI:
  case IR_OP_TT_PRECISE_SQRT:
  case IR_OP_TT_PRECISE_DIVF:
  case IR_OP_TT_CLAMPF:
  case IR_OP_TT_REDUCE_RETURN:
  case IR_OP_TT_SCAN_RETURN:
  case IR_OP_TT_DOT:
  case IR_OP_TT_ATOMIC_RMW:
  case IR_OP_TT_ATOMIC_CAS:
  case IR_OP_TT_JOIN:
  case IR_OP_TT_SPLIT:
  case IR_OP_TT_ASSERT:
  case IR_OP_TT_PRINT:
  case IR_OP_SCF_CONDITION:
  case IR_OP_SCF_YIELD:
  case IR_OP_TTG_LOCAL_ALLOC:
  case IR_OP_TTG_LOCAL_LOAD:
  case IR_OP_TTG_LOCAL_STORE:
  case IR_OP_TTG_LOCAL_DEALLOC:
  case IR_OP_TTG_MEMDESC_TRANS:
  case IR_OP_TTG_MEMDESC_INDEX:
  case IR_OP_TTG_ASYNC_COPY:
  case IR_OP_TTG_ASYNC_COMMIT_GROUP:
  case IR_OP_TTG_ASYNC_WAIT:
  case IR_OP_TTNG_WARP_GROUP_DOT:
  case IR_OP_TTNG_WARP_GROUP_DOT_WAIT:
  case IR_OP_TTNG_FENCE_ASYNC_SHARED:
  case IR_OP_GPU_BARRIER:
  case IR_OP_TT_EXTERN_ELEMENTWISE:
  case IR_NUM_OPS:
    for (int i = 0; i < op->nresults; i++) {
      ax_fact a = fact_pessimistic(op->results[i].type);
      put_fact(w, &op->results[i], &a);
    }
    return;
  }
  if (t) put_fact(w, &op->results[0], &f);
}

static void analyze_region(ax_walk *w, const ir_region *r) {
  for (const ir_block *b = r->first; b; b = b->next)
    for (const ir_op *op = b->first; op; op = op->next)
      visit_op(w, op);
}

ir_axis_analysis *ir_axis_analyze(const ir_op *func, ir_arena *arena) {
  ir_axis_analysis *a = ir_arena_alloc(arena, sizeof *a);
  if (!a) return NULL;
  a->arena = arena;
  ax_walk w = {a, false};
  const ir_block *entry = func->nregions ? func->regions[0].first : NULL;
  for (int i = 0; entry && i < entry->nargs; i++) {
    const ir_value *v = entry->args[i];
    /* tt.divisibility: the value (or, for pointers, the address in bytes)
     * is a multiple of it. */
    ax_fact f = fact_pessimistic(v->type);
    if (v->divisibility > 0)
      for (int d = 0; d < ty_ndims(v->type); d++)
        f.info.divisibility[d] = v->divisibility;
    put_fact(&w, v, &f);
  }
  for (int r = 0; r < func->nregions; r++)
    analyze_region(&w, &func->regions[r]);
  return w.oom ? NULL : a;
}

ir_axis_info ir_axis_get(const ir_axis_analysis *a, const ir_value *v) {
  const ax_fact *f = ax_find(a, v);
  if (f) return f->info;
  return fact_pessimistic(v->type).info;
}

bool ir_axis_split_mask(const ir_axis_analysis *a, ir_value *m, int d, int64_t vec,
                        ir_value **terms, int max, int *nterms, ir_value **other) {
  if (ir_axis_get(a, m).constancy[d] >= vec) {
    if (*nterms == max) return false;
    terms[(*nterms)++] = m;
    return true;
  }
  const ir_op *op = m->def;
  if (op && op->kind == IR_OP_ARITH_ANDI)
    return ir_axis_split_mask(a, op->operands[0], d, vec, terms, max, nterms, other) &&
           ir_axis_split_mask(a, op->operands[1], d, vec, terms, max, nterms, other);
  if (op && op->kind == IR_OP_TT_BROADCAST)
    return ir_axis_split_mask(a, op->operands[0], d, vec, terms, max, nterms, other);
  if (*other) return false;
  *other = m;
  return true;
}
