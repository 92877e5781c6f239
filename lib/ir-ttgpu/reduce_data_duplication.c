/* reduce_data_duplication.c - tritongpu-reduce-data-duplication: a
 * conversion into a dot operand layout of an mma.sync that moves data
 * between threads goes through shared memory as Triton does it: the value
 * is stored once (ttg.local_alloc) in a swizzled layout chosen so that the
 * dot operand's ldmatrix reads hit every bank once, then read back
 * (ttg.local_load) into the dot_op layout, where each warp loads only the
 * rows or columns its mma tiles use. A conversion that stays within each
 * thread's registers (an mma accumulator feeding the next dot's A) is left
 * for codegen. Needs: ttgir after tritongpu-accelerate-matmul. */
#include "ir-ttgpu/ttg.h"

enum { MAX_CONVERTS = 1024 };

typedef struct rdd_state {
  ir_op *list[MAX_CONVERTS];
  int n;
} rdd_state;

static void collect(ir_op *op, void *user) {
  rdd_state *st = user;
  if (op->kind != IR_OP_TTG_CONVERT_LAYOUT || st->n == MAX_CONVERTS) return;
  const ir_attr *l = op->results[0].type->layout;
  if (l && l->kind == IR_ATTR_DOT_OP && l->parent && l->parent->kind == IR_ATTR_NVIDIA_MMA &&
      l->parent->version_major == 2)
    st->list[st->n++] = op;
}

/* The order the source keeps its elements in, fastest first. */
static void source_order(const ir_type *t, unsigned *order) {
  const ir_attr *l = t->layout;
  while (l && l->kind == IR_ATTR_SLICE)
    l = l->parent;
  if (l && l->kind == IR_ATTR_BLOCKED && l->rank == t->rank) {
    for (int i = 0; i < t->rank; i++)
      order[i] = l->order[i];
    return;
  }
  for (int i = 0; i < t->rank; i++)
    order[i] = (unsigned)(t->rank - 1 - i);
}

const ir_attr *ttg_swizzled_for_dot_operand(ir_context *ctx, const ir_type *t,
                                            const unsigned *order, unsigned k_width) {
  /* Triton's swizzling for mma.sync operands: 16-byte vectors, a phase per
   * 128 bytes of row, 8 phases over the 8 rows an ldmatrix reads. */
  int64_t row_bytes = t->shape[order[0]] * (int64_t)ir_type_bytes(ir_type_scalar(t));
  unsigned per_phase = row_bytes >= 128 ? 1 : (unsigned)(128 / (row_bytes > 0 ? row_bytes : 1));
  unsigned max_phase = 8 / per_phase > 1 ? 8 / per_phase : 1;
  return ir_attr_swizzled_shared(ctx, 4 * k_width, per_phase, max_phase, t->rank, order);
}

static void decompose(ir_module *m, ir_op *cvt) {
  ir_value *src = cvt->operands[0];
  const ir_type *st = src->type, *dt = cvt->results[0].type;
  ttg_ll sl, dl;
  int proj[IR_MAX_RANK];
  for (int d = 0; d < st->rank; d++)
    proj[d] = d;
  if (ttg_ll_of_type(st, &sl) && ttg_ll_of_type(dt, &dl)) {
    int64_t map[4096];
    if (ttg_ll_num_regs(&dl) <= 4096 && ttg_ll_reg_map(&sl, &dl, proj, map)) return;
  }
  unsigned order[IR_MAX_RANK];
  source_order(st, order);
  const ir_attr *enc = ttg_swizzled_for_dot_operand(m->ctx, st, order, dt->layout->k_width);
  const ir_type *mt = ir_type_memdesc(m->ctx, st->rank, st->shape, ir_type_scalar(st), enc, false);
  ir_op *alloc = ir_op_create(m, IR_OP_TTG_LOCAL_ALLOC, cvt->loc, 1, &mt, 1, &src, 0);
  alloc->results[0].name = src->name;
  ir_op_insert_before(cvt, alloc);
  ir_value *buf = &alloc->results[0];
  ir_op *load = ir_op_create(m, IR_OP_TTG_LOCAL_LOAD, cvt->loc, 1, &dt, 1, &buf, 0);
  load->results[0].name = cvt->results[0].name;
  ir_op_insert_before(cvt, load);
  ir_op *scope = ir_op_parent_of_kind(cvt, IR_OP_TT_FUNC);
  ir_replace_all_uses(scope ? scope : m->op, &cvt->results[0], &load->results[0]);
  ir_op_erase(cvt);
}

bool ttg_pass_reduce_data_duplication(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)args;
  rdd_state *st = ir_arena_alloc(scratch, sizeof *st);
  if (!st) return true;
  st->n = 0;
  ir_walk(m->op, collect, st);
  for (int i = 0; i < st->n; i++)
    decompose(m, st->list[i]);
  return true;
}
