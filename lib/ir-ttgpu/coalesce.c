/* coalesce.c - choose each shape's elements per thread from memory accesses.
 * Needs: ttgir from convert.c (default layouts, one per shape) and the
 * axis-info analysis. Leaves: for every shape that a load or store touches,
 * a blocked layout whose sizePerThread along the fastest dim is the widest
 * access the pointers allow (contiguity and alignment, 16 bytes at most, and
 * no more than the tensor has per thread); every tensor of that shape (and
 * slices of its layout) re-laid out, so no conversions are needed. */
#include "ir-ttgpu/ttg.h"

#define COALESCE_MAX_SHAPES 64

typedef struct shape_pref {
  const ir_attr *old_layout; /* the default layout this shape had */
  const ir_attr *new_layout;
  unsigned per_thread;
} shape_pref;

typedef struct coalesce_state {
  ir_module *m;
  const ir_axis_analysis *axis;
  ttg_options opts;
  shape_pref prefs[COALESCE_MAX_SHAPES];
  int nprefs;
} coalesce_state;

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Elements per thread that one access of `ptr` can cover along the fastest dim. */
static unsigned access_width(const coalesce_state *st, const ir_value *ptr) {
  const ir_type *t = ptr->type;
  const ir_type *pointee = ir_type_scalar(t)->elem;
  unsigned ebytes = ir_type_bytes(pointee);
  int fast = (int)t->layout->order[0];
  ir_axis_info ai = ir_axis_get(st->axis, ptr);
  int64_t contig = ai.contiguity[fast];
  int64_t align = ai.divisibility[fast] / ebytes;
  if (align < 1) align = 1;
  int64_t w = min64(contig, align);
  w = min64(w, 16 / ebytes > 0 ? 16 / ebytes : 1);
  int64_t threads = (int64_t)st->opts.num_warps * st->opts.threads_per_warp;
  int64_t per_thread = ir_type_numel(t) / threads;
  w = min64(w, per_thread > 1 ? per_thread : 1);
  unsigned p = 1;
  while ((int64_t)p * 2 <= w) p *= 2; /* a power of two */
  return p;
}

static void note_access(coalesce_state *st, const ir_value *ptr) {
  if (!ir_type_is_tensor(ptr->type) || !ptr->type->layout ||
      ptr->type->layout->kind != IR_ATTR_BLOCKED)
    return;
  unsigned w = access_width(st, ptr);
  const ir_attr *old = ptr->type->layout;
  for (int i = 0; i < st->nprefs; i++) {
    if (st->prefs[i].old_layout == old) {
      if (w > st->prefs[i].per_thread) st->prefs[i].per_thread = w;
      return;
    }
  }
  if (st->nprefs == COALESCE_MAX_SHAPES) return;
  st->prefs[st->nprefs++] = (shape_pref){old, NULL, w};
}

static void collect_accesses(ir_op *op, void *user) {
  coalesce_state *st = user;
  /* Memory ops take their pointer tensor as operand 0. */
  bool is_access = op->kind == IR_OP_TT_LOAD || op->kind == IR_OP_TT_STORE ||
                   op->kind == IR_OP_TT_ATOMIC_RMW || op->kind == IR_OP_TT_ATOMIC_CAS;
  if (is_access) note_access(st, op->operands[0]);
}

static const ir_attr *remap_layout(const coalesce_state *st, const ir_attr *l) {
  if (!l) return NULL;
  if (l->kind == IR_ATTR_SLICE) {
    const ir_attr *p = remap_layout(st, l->parent);
    return p == l->parent ? l : ir_attr_slice(st->m->ctx, l->dim, p);
  }
  for (int i = 0; i < st->nprefs; i++)
    if (st->prefs[i].old_layout == l && st->prefs[i].new_layout) return st->prefs[i].new_layout;
  return l;
}

static void retype_value(const coalesce_state *st, ir_value *v) {
  if (!ir_type_is_tensor(v->type)) return;
  const ir_attr *l = remap_layout(st, v->type->layout);
  if (l != v->type->layout) v->type = ir_type_with_layout(st->m->ctx, v->type, l);
}

static void retype_op(ir_op *op, void *user) {
  coalesce_state *st = user;
  for (int r = 0; r < op->nregions; r++)
    for (ir_block *b = op->regions[r].first; b; b = b->next)
      for (int i = 0; i < b->nargs; i++) retype_value(st, b->args[i]);
  for (int i = 0; i < op->nresults; i++) retype_value(st, &op->results[i]);
  if (op->kind == IR_OP_ARITH_CONSTANT) {
    const ir_attr *v = ir_op_get_attr(op, "value");
    if (v && v->kind == IR_ATTR_DENSE && v->type != op->results[0].type)
      ir_op_set_attr(st->m, op, "value", ir_attr_dense(st->m->ctx, op->results[0].type, v->elem));
  }
}

/* Fills prefs[i].new_layout from the first tensor found with that layout,
 * for the shapes whose accesses want more elements per thread. */
static void fill_from_value(coalesce_state *st, const ir_value *v) {
  if (!ir_type_is_tensor(v->type)) return;
  for (int i = 0; i < st->nprefs; i++) {
    shape_pref *p = &st->prefs[i];
    if (p->old_layout != v->type->layout || p->new_layout) continue;
    if (p->per_thread <= p->old_layout->size_per_thread[p->old_layout->order[0]]) continue;
    p->new_layout = ttg_default_blocked(st->m->ctx, v->type->rank, v->type->shape, p->per_thread,
                                        st->opts.num_warps, st->opts.threads_per_warp);
  }
}

static void fill_op(ir_op *op, void *user) {
  coalesce_state *st = user;
  for (int i = 0; i < op->nresults; i++) fill_from_value(st, &op->results[i]);
}

bool ttg_pass_coalesce(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  coalesce_state st = {0};
  st.m = m;
  st.opts = ttg_module_options(m);
  if (!ttg_options_check(m, &st.opts)) return false; /* access_width divides by them */
  for (ir_op *func = ir_module_body(m)->first; func; func = func->next) {
    if (func->kind != IR_OP_TT_FUNC) continue;
    st.axis = ir_axis_analyze(func, scratch);
    st.nprefs = 0;
    ir_walk(func, collect_accesses, &st);
    ir_walk(func, fill_op, &st);
    ir_walk(func, retype_op, &st);
  }
  return true;
}
