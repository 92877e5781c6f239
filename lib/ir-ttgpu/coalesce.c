/* coalesce.c - tritongpu-coalesce: each global memory access (load, store,
 * atomic) gets the blocked layout that makes it wide and coalesced, per
 * value, as Triton's Coalesce pass does.
 * Needs: ttgir and the axis-info analysis. The layout's order follows the
 * pointer's contiguity (most contiguous dim fastest; ties keep the last dim
 * fastest) and sizePerThread along it is the widest access the pointers
 * allow (alignment, contiguity, 16 bytes), raised to the widest among the
 * accesses of the same shape and order so that a load and the store of its
 * value agree, and bounded by the elements each thread has.
 * Leaves: the access in that layout, with ttg.convert_layout on its operands
 * and back on its result; tritongpu-remove-layout-conversions then spreads
 * the layout to the producers and users that can take it. */
#include "ir-ttgpu/ttg.h"

enum { MAX_ACCESSES = 4096 };

typedef struct access {
  ir_op *op;
  unsigned order[IR_MAX_RANK];
  unsigned vec; /* this access's own widest vector */
} access;

typedef struct coalesce_state {
  ir_module *m;
  const ir_axis_analysis *axis;
  ttg_options opts;
  access *acc;
  int nacc;
} coalesce_state;

static bool is_access(const ir_op *op) {
  return (op->kind == IR_OP_TT_LOAD || op->kind == IR_OP_TT_STORE ||
          op->kind == IR_OP_TT_ATOMIC_RMW || op->kind == IR_OP_TT_ATOMIC_CAS) &&
         ir_type_is_tensor(op->operands[0]->type);
}

/* Dims by decreasing contiguity; ties keep the higher dim first. */
static void order_of(const ir_axis_info *ai, int rank, unsigned *order) {
  for (int i = 0; i < rank; i++)
    order[i] = (unsigned)(rank - 1 - i);
  for (int i = 1; i < rank; i++) /* stable insertion sort */
    for (int j = i; j > 0 && ai->contiguity[order[j]] > ai->contiguity[order[j - 1]]; j--) {
      unsigned t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
}

/* Elements one access can cover along order[0]: alignment, contiguity and
 * 16 bytes (Triton's getNumElementsPerThread). */
static unsigned access_vec(const coalesce_state *st, const ir_value *ptr, unsigned fast) {
  const ir_type *t = ptr->type;
  unsigned ebytes = ir_type_bytes(ir_type_scalar(t)->elem);
  ir_axis_info ai = ir_axis_get(st->axis, ptr);
  int64_t align = ai.divisibility[fast] / ebytes;
  int64_t contig = ai.contiguity[fast] < t->shape[fast] ? ai.contiguity[fast] : t->shape[fast];
  int64_t v = align < 1 ? 1 : align;
  if (contig < v) v = contig;
  if ((int64_t)(16 / ebytes) < v) v = 16 / ebytes;
  unsigned p = 1;
  while ((int64_t)p * 2 <= v)
    p *= 2;
  return p;
}

static void collect(ir_op *op, void *user) {
  coalesce_state *st = user;
  if (!is_access(op) || st->nacc == MAX_ACCESSES) return;
  access *a = &st->acc[st->nacc++];
  a->op = op;
  const ir_type *t = op->operands[0]->type;
  ir_axis_info ai = ir_axis_get(st->axis, op->operands[0]);
  order_of(&ai, t->rank, a->order);
  a->vec = access_vec(st, op->operands[0], a->order[0]);
}

static bool same_shape_order(const access *a, const access *b) {
  const ir_type *x = a->op->operands[0]->type, *y = b->op->operands[0]->type;
  if (x->rank != y->rank) return false;
  for (int d = 0; d < x->rank; d++)
    if (x->shape[d] != y->shape[d] || a->order[d] != b->order[d]) return false;
  return true;
}

/* Rewrites one access in layout l: operands converted to it, the result
 * (loads, atomics) converted back for its users. */
static void relayout(coalesce_state *st, ir_op *op, const ir_attr *l) {
  for (int i = 0; i < op->noperands; i++)
    if (ir_type_is_tensor(op->operands[i]->type))
      ir_op_set_operand(op, i, ttg_convert_before(st->m, op, op->operands[i], l));
  if (op->nresults == 0 || !ir_type_is_tensor(op->results[0].type)) return;
  ir_value *res = &op->results[0];
  const ir_type *old = res->type;
  if (old->layout == l) return;
  res->type = ttg_retype(st->m->ctx, old, l);
  ir_op *cvt = ir_op_create(st->m, IR_OP_TTG_CONVERT_LAYOUT, op->loc, 1, &old, 1, &res, 0);
  cvt->results[0].name = res->name;
  ir_op_insert_after(op, cvt);
  ir_op *scope = ir_op_parent_of_kind(op, IR_OP_TT_FUNC);
  ir_replace_all_uses(scope ? scope : st->m->op, res, &cvt->results[0]);
  ir_op_set_operand(cvt, 0, res); /* the replacement also rewrote this use */
}

static void coalesce_func(coalesce_state *st, ir_op *func, ir_arena *scratch) {
  st->axis = ir_axis_analyze(func, scratch);
  st->nacc = 0;
  ir_walk(func, collect, st);
  int64_t threads = (int64_t)st->opts.num_warps * st->opts.threads_per_warp;
  for (int i = 0; i < st->nacc; i++) {
    access *a = &st->acc[i];
    const ir_type *t = a->op->operands[0]->type;
    unsigned per = a->vec;
    for (int j = 0; j < st->nacc; j++)
      if (same_shape_order(a, &st->acc[j]) && st->acc[j].vec > per) per = st->acc[j].vec;
    int64_t per_thread_elems = ir_type_numel(t) / threads;
    if (per_thread_elems < 1) per_thread_elems = 1;
    if (per > per_thread_elems) per = (unsigned)per_thread_elems;
    /* Stores and atomics write: no wider than their own vector, or the
     * warp's writes would have gaps. */
    if (a->op->kind != IR_OP_TT_LOAD && per > a->vec) per = a->vec;
    unsigned spt[IR_MAX_RANK];
    for (int d = 0; d < t->rank; d++)
      spt[d] = 1;
    spt[a->order[0]] = per;
    const ir_attr *l = ttg_blocked_layout(st->m->ctx, t->rank, t->shape, spt, a->order,
                                          st->opts.num_warps, st->opts.threads_per_warp);
    if (l != t->layout) relayout(st, a->op, l);
  }
}

bool ttg_pass_coalesce(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)args;
  coalesce_state st = {0};
  st.m = m;
  st.opts = ttg_module_options(m);
  if (!ttg_options_check(m, &st.opts)) return false;
  st.acc = ir_arena_alloc(scratch, sizeof *st.acc * MAX_ACCESSES);
  if (!st.acc) return true; /* an optimization: skipping it is safe */
  for (ir_op *func = ir_module_body(m)->first; func; func = func->next)
    if (func->kind == IR_OP_TT_FUNC) coalesce_func(&st, func, scratch);
  return true;
}
