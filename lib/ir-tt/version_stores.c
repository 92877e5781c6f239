// SPDX-License-Identifier: MIT
/* version_stores.c - version-bounded-stores (ttc's): a masked tt.store
 * whose mask has a term `index < bound` along the dimension its pointers
 * run contiguously, where that term alone keeps the store from being
 * vectorized (a descriptor's or block pointer's row end, a matmul's N
 * edge with N not a multiple of 16), is split on whether the tile reaches
 * the bound at all:
 *     scf.if (last index < bound) { tt.store p, v, the other terms }
 *     else                        { tt.store p, v, mask }
 * The first store's mask is constant along its vectors, so
 * tritongpu-coalesce gives it 16-byte accesses; the second is the store as
 * it was, for the tiles at the edge. The condition is a scalar (the
 * index is splat(offset) + make_range(start, end), through extensions,
 * expand_dims and broadcasts, and the bound a splat), so a whole program
 * takes one branch (the narrow one when an i64 offset is so near its
 * maximum that offset + end - 1 would wrap). Only where the pointers allow
 * a wider vector than the mask does (their contiguity and alignment, at
 * most 16 bytes).
 *
 * Needs: ttir (before convert-triton-to-tritongpu). */
#include <stdint.h>
#include <string.h>

#include "ir-tt/ir.h"

enum { MAX_TERMS = 8 };

typedef struct vs_split {
  ir_value *terms[MAX_TERMS]; /* the mask's other terms, each constant along a vector */
  int nterms;
  ir_value *offset, *bound; /* scalars: index = offset + [start, end), and the bound */
  int64_t last;             /* end - 1 */
} vs_split;

/* Looks through value-preserving shape ops. */
static ir_value *through_shapes(ir_value *v) {
  while (v->def && (v->def->kind == IR_OP_TT_BROADCAST || v->def->kind == IR_OP_TT_EXPAND_DIMS))
    v = v->def->operands[0];
  return v;
}

static ir_value *through_ext(ir_value *v) {
  return v->def && v->def->kind == IR_OP_ARITH_EXTSI ? v->def->operands[0] : v;
}

/* The scalar s of splat(s) (through shapes and a sign extension), or NULL. */
static ir_value *splat_of(ir_value *v) {
  v = through_ext(through_shapes(v));
  if (!v->def || v->def->kind != IR_OP_TT_SPLAT) return NULL;
  return v->def->operands[0];
}

/* index = offset + make_range(start, end): the offset and end - 1. */
static bool range_index(ir_value *x, ir_value **offset, int64_t *last) {
  x = through_ext(through_shapes(x));
  if (!x->def || x->def->kind != IR_OP_ARITH_ADDI) return false;
  for (int k = 0; k < 2; k++) {
    ir_value *r = through_ext(x->def->operands[k]);
    ir_value *o = splat_of(x->def->operands[1 - k]);
    if (!o || !r->def || r->def->kind != IR_OP_TT_MAKE_RANGE) continue;
    *offset = o;
    *last = ir_op_get_int(r->def, "end", 0) - 1;
    return true;
  }
  return false;
}

static bool split_mask(const ir_axis_analysis *ax, ir_value *m, int d, int vec, vs_split *s) {
  ir_value *other = NULL;
  if (!ir_axis_split_mask(ax, m, d, vec, s->terms, MAX_TERMS, &s->nterms, &other) || !other)
    return false;
  ir_op *op = other->def;
  if (!op || op->kind != IR_OP_ARITH_CMPI || ir_op_get_int(op, "predicate", -1) != IR_CMPI_SLT)
    return false;
  ir_value *bound = splat_of(op->operands[1]);
  if (!bound || !range_index(op->operands[0], &s->offset, &s->last)) return false;
  s->bound = bound;
  return true;
}

/* The widest vector (elements, a power of two, at most 16 bytes) the
 * pointers allow along their most contiguous dim *d. */
static int pointer_vec(const ir_axis_analysis *ax, const ir_value *ptr, int *d) {
  ir_axis_info pi = ir_axis_get(ax, ptr);
  unsigned eb = ir_type_bytes(ir_type_scalar(ptr->type)->elem);
  *d = 0;
  for (int k = 1; k < ptr->type->rank; k++)
    if (pi.contiguity[k] > pi.contiguity[*d]) *d = k;
  int64_t vec = pi.contiguity[*d];
  if (pi.divisibility[*d] / (int64_t)eb < vec) vec = pi.divisibility[*d] / (int64_t)eb;
  if ((int64_t)(16 / eb) < vec) vec = 16 / eb;
  int p = 1;
  while (p * 2 <= vec)
    p *= 2;
  return p;
}

static ir_value *to_i64(ir_builder *b, ir_value *v) {
  const ir_type *i64 = ir_type_i64(b->ctx);
  return v->type == i64 ? v : ir_build_unary(b, IR_OP_ARITH_EXTSI, i64, v);
}

static void version(ir_module *m, ir_op *store, const vs_split *s) {
  ir_builder b;
  ir_builder_init(&b, m);
  ir_builder_set_before(&b, store);
  b.loc = store->loc;
  const ir_type *i64 = ir_type_i64(m->ctx);
  ir_value *off = to_i64(&b, s->offset);
  ir_value *last = ir_build_binary(&b, IR_OP_ARITH_ADDI, off, ir_build_const_int(&b, i64, s->last));
  ir_value *inside = ir_build_cmpi(&b, IR_CMPI_SLT, last, to_i64(&b, s->bound));
  /* offset + end - 1 must not wrap (an i64 offset near its maximum) */
  ir_value *no_wrap =
      ir_build_cmpi(&b, IR_CMPI_SLE, off, ir_build_const_int(&b, i64, INT64_MAX - s->last));
  inside = ir_build_binary(&b, IR_OP_ARITH_ANDI, no_wrap, inside);
  ir_op *vif = ir_build(&b, IR_OP_SCF_IF, 0, NULL, 1, &inside, 2);
  ir_block *thenb = ir_region_new_block(m, &vif->regions[0]),
           *elseb = ir_region_new_block(m, &vif->regions[1]);
  ir_builder_set_end(&b, thenb);
  const ir_type *mt = store->operands[2]->type;
  ir_value *mask = NULL;
  for (int k = 0; k < s->nterms; k++) {
    ir_value *t = s->terms[k];
    if (t->type != mt) t = ir_build1(&b, IR_OP_TT_BROADCAST, mt, 1, &t);
    mask = mask ? ir_build_binary(&b, IR_OP_ARITH_ANDI, mask, t) : t;
  }
  ir_value *ops[3] = {store->operands[0], store->operands[1], mask};
  ir_op *fast = ir_build(&b, IR_OP_TT_STORE, 0, NULL, mask ? 3 : 2, ops, 0);
  for (int i = 0; i < store->nattrs; i++)
    ir_op_set_attr(m, fast, store->attrs[i].name, store->attrs[i].value);
  ir_build(&b, IR_OP_SCF_YIELD, 0, NULL, 0, NULL, 0);
  ir_op_unlink(store);
  ir_block_append(elseb, store);
  ir_builder_set_end(&b, elseb);
  ir_build(&b, IR_OP_SCF_YIELD, 0, NULL, 0, NULL, 0);
}

typedef struct vs_state {
  ir_op **stores;
  size_t n, cap;
} vs_state;

static void collect(ir_op *op, void *user) {
  vs_state *st = user;
  if (op->kind != IR_OP_TT_STORE || op->noperands != 3 || !ir_type_is_tensor(op->operands[0]->type))
    return;
  if (st->stores && st->n < st->cap) st->stores[st->n] = op;
  st->n++;
}

static void run_func(ir_module *m, ir_op *func, ir_arena *scratch) {
  vs_state st = {0};
  ir_walk(func, collect, &st);
  if (!st.n) return;
  st.cap = st.n;
  st.n = 0;
  st.stores = ir_arena_alloc(scratch, sizeof *st.stores * st.cap);
  if (!st.stores) return;
  ir_walk(func, collect, &st);
  const ir_axis_analysis *ax = ir_axis_analyze(func, scratch);
  if (!ax) return;
  for (size_t i = 0; i < st.n; i++) {
    ir_op *store = st.stores[i];
    int d, vec = pointer_vec(ax, store->operands[0], &d);
    if (vec < 2 || ir_axis_get(ax, store->operands[2]).constancy[d] >= vec) continue;
    vs_split s;
    memset(&s, 0, sizeof s);
    if (split_mask(ax, store->operands[2], d, vec, &s)) version(m, store, &s);
  }
}

bool ir_pass_version_stores(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)args;
  for (ir_op *f = ir_region_entry(&m->op->regions[0])->first; f; f = f->next)
    if (f->kind == IR_OP_TT_FUNC) run_func(m, f, scratch);
  return true;
}
