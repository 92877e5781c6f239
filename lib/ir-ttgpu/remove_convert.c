// SPDX-License-Identifier: MIT
/* remove_convert.c - tritongpu-remove-layout-conversions, as Triton's pass:
 * 1. Forward propagation. The layouts that matter are those of anchors: dot
 *    results (mma), loads, stores' values and atomics wide enough to care
 *    (at least one element per thread), and tensor function arguments. Each
 *    anchor's layout spreads to its users: elementwise ops, reductions (as
 *    a slice), expand_dims (a slice's parent), broadcast, conversions (which
 *    then vanish), warp_group_dot_wait, and the values scf ops carry. Dots
 *    are spread first, so a value both reach keeps the mma layout (Triton
 *    prefers mma on conflicts); a value reached twice keeps the first.
 *    Values are re-laid out in place and a conversion is inserted wherever an
 *    operand no longer has the layout its op needs.
 * 2. Backward rematerialization. A conversion whose source is computed by a
 *    chain of cheap ops (make_range, splat, constants, elementwise index
 *    math, broadcast, expand_dims, other conversions) is replaced by that
 *    chain recomputed in the wanted layout; memory ops, reductions and
 *    loop-carried values are never recomputed. Conversions between layouts
 *    whose linear maps are equal cost nothing and stay.
 * Needs: ttgir. Leaves: clones next to the ops they copy and unused
 * originals, for cse and dce. */
#include <string.h>

#include "ir-ttgpu/ttg.h"

/* ---- value -> chosen layout ------------------------------------------------ */

typedef struct lmap_entry {
  const ir_value *v;
  const ir_attr *layout;
} lmap_entry;

typedef struct prop_state {
  ir_module *m;
  ir_context *ctx;
  lmap_entry *tab; /* open addressing, scratch-allocated */
  size_t cap;
  ir_value **queue;
  size_t nqueue, qcap;
  bool oom;
} prop_state;

static size_t slot_of(const void *p, size_t cap) {
  uintptr_t h = (uintptr_t)p;
  h ^= h >> 17;
  h *= 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 7) & (cap - 1);
}

static lmap_entry *lmap_find(prop_state *st, const ir_value *v) {
  size_t s = slot_of(v, st->cap);
  while (st->tab[s].v && st->tab[s].v != v)
    s = (s + 1) & (st->cap - 1);
  return &st->tab[s];
}

static const ir_attr *chosen(prop_state *st, const ir_value *v) {
  lmap_entry *e = lmap_find(st, v);
  return e->v ? e->layout : NULL;
}

/* Gives v layout l unless it already has one; queues it for propagation. */
static void assign(prop_state *st, ir_value *v, const ir_attr *l) {
  if (!l || !ir_type_is_tensor(v->type) || ir_attr_is_shared_layout(l) || l->kind == IR_ATTR_DOT_OP)
    return;
  lmap_entry *e = lmap_find(st, v);
  if (e->v) return;
  e->v = v;
  e->layout = l;
  if (st->nqueue == st->qcap) {
    st->oom = true;
    return;
  }
  st->queue[st->nqueue++] = v;
}

/* ---- 1. propagation ---------------------------------------------------------- */

/* The parent scf op of a terminator and the block it ends. */
static ir_op *parent_op(const ir_op *term) {
  return term->parent && term->parent->parent ? term->parent->parent->parent : NULL;
}

/* Spreads layout l of v (operand `idx` of `user`) to what user produces. */
static void spread_to(prop_state *st, ir_op *user, int idx, const ir_attr *l) {
  const ir_op_info *info = ir_op_info_of(user);
  switch (user->kind) {
  case IR_OP_SCF_FOR:
    if (idx >= 3) {
      ir_block *body = ir_region_entry(&user->regions[0]);
      assign(st, &user->results[idx - 3], l);
      if (body) assign(st, body->args[idx - 2], l);
    }
    return;
  case IR_OP_SCF_WHILE: {
    ir_block *before = ir_region_entry(&user->regions[0]);
    if (before && idx < before->nargs) assign(st, before->args[idx], l);
    return;
  }
  case IR_OP_SCF_YIELD: {
    ir_op *p = parent_op(user);
    if (!p) return;
    if ((p->kind == IR_OP_SCF_FOR || p->kind == IR_OP_SCF_IF) && idx < p->nresults)
      assign(st, &p->results[idx], l);
    if (p->kind == IR_OP_SCF_FOR) {
      ir_block *body = ir_region_entry(&p->regions[0]);
      if (body && idx + 1 < body->nargs) assign(st, body->args[idx + 1], l);
    }
    if (p->kind == IR_OP_SCF_WHILE) {
      ir_block *before = ir_region_entry(&p->regions[0]);
      if (before && idx < before->nargs) assign(st, before->args[idx], l);
    }
    return;
  }
  case IR_OP_SCF_CONDITION: {
    ir_op *p = parent_op(user);
    ir_block *after = p ? ir_region_entry(&p->regions[1]) : NULL;
    if (idx >= 1 && after && idx - 1 < after->nargs) assign(st, after->args[idx - 1], l);
    if (p && idx >= 1 && idx - 1 < p->nresults) assign(st, &p->results[idx - 1], l);
    return;
  }
  case IR_OP_TTNG_WARP_GROUP_DOT_WAIT:
    if (idx < user->nresults) assign(st, &user->results[idx], l);
    return;
  case IR_OP_TT_REDUCE:
    if (user->nresults && ir_type_is_tensor(user->results[0].type)) {
      const ir_attr *s = ir_attr_slice(st->ctx, (int)ir_op_get_int(user, "axis", 0), l);
      for (int i = 0; i < user->nresults; i++)
        assign(st, &user->results[i], s);
    }
    return;
  case IR_OP_TT_EXPAND_DIMS:
    if (l->kind == IR_ATTR_SLICE && l->dim == (int)ir_op_get_int(user, "axis", 0))
      assign(st, &user->results[0], l->parent);
    return;
  case IR_OP_TTG_CONVERT_LAYOUT: {
    /* A conversion into a dot operand layout feeds a dot: it stays. */
    const ir_attr *to = user->results[0].type->layout;
    if (!to || to->kind != IR_ATTR_DOT_OP) assign(st, &user->results[0], l);
    return;
  }
  case IR_OP_TT_BROADCAST: assign(st, &user->results[0], l); return;
  case IR_OP_TT_SCAN: /* operands and results share one layout */
    for (int i = 0; i < user->nresults; i++)
      assign(st, &user->results[i], l);
    return;
  default: break;
  }
  /* Elementwise ops of one shape; a load's pointer or mask is not a reason
   * to re-lay out its value, and neither is a store's. */
  if ((info->traits & IR_T_ELEMENTWISE) && ir_op_is_pure(user) && user->nresults == 1 &&
      ir_type_is_tensor(user->results[0].type))
    assign(st, &user->results[0], l);
}

/* Uses of every value, built once: for value slot s (lmap position),
 * first[s] indexes a chain of (op, operand) records. */
typedef struct use_rec {
  ir_op *op;
  int idx;
  int next; /* -1: end */
} use_rec;

typedef struct use_index {
  prop_state *st;
  const ir_value **key; /* per hash slot: the value, or NULL */
  int *first;           /* per hash slot */
  use_rec *rec;
  size_t nrec, cap;
} use_index;

static size_t use_slot(use_index *u, const ir_value *v) {
  size_t s = slot_of(v, u->st->cap);
  while (u->key[s] && u->key[s] != v)
    s = (s + 1) & (u->st->cap - 1);
  return s;
}

static void index_op(ir_op *op, void *user) {
  use_index *u = user;
  for (int i = 0; i < op->noperands; i++) {
    if (u->nrec == u->cap) {
      u->st->oom = true;
      return;
    }
    size_t s = use_slot(u, op->operands[i]);
    if (!u->key[s]) {
      u->key[s] = op->operands[i];
      u->first[s] = -1;
    }
    u->rec[u->nrec] = (use_rec){op, i, u->first[s]};
    u->first[s] = (int)u->nrec++;
  }
}

/* Anchors: dot results first, then wide loads and atomics, then tensor
 * function arguments (tests pass laid-out tensors that way). */
static bool is_wide(const ir_module *m, const ir_type *t) {
  ttg_options o = ttg_module_options(m);
  return ir_type_numel(t) >= (int64_t)o.num_warps * o.threads_per_warp;
}

static void anchors_dots(ir_op *op, void *user) {
  prop_state *st = user;
  if (op->kind == IR_OP_TT_DOT || op->kind == IR_OP_TTNG_WARP_GROUP_DOT)
    assign(st, &op->results[0], op->results[0].type->layout);
}

static void anchors_mem(ir_op *op, void *user) {
  prop_state *st = user;
  bool mem = op->kind == IR_OP_TT_LOAD || op->kind == IR_OP_TT_ATOMIC_RMW ||
             op->kind == IR_OP_TT_ATOMIC_CAS;
  if (mem && ir_type_is_tensor(op->results[0].type) && is_wide(st->m, op->results[0].type))
    assign(st, &op->results[0], op->results[0].type->layout);
}

static void propagate(prop_state *st, use_index *u, ir_op *func) {
  ir_walk(func, index_op, u);
  ir_walk(func, anchors_dots, st);
  ir_walk(func, anchors_mem, st);
  ir_block *entry = ir_region_entry(&func->regions[0]);
  for (int i = 0; entry && i < entry->nargs; i++)
    assign(st, entry->args[i],
           ir_type_is_tensor(entry->args[i]->type) ? entry->args[i]->type->layout : NULL);
  /* Breadth first from the anchors; each value is queued once. */
  for (size_t q = 0; q < st->nqueue && !st->oom; q++) {
    const ir_value *v = st->queue[q];
    size_t s = use_slot(u, v);
    if (!u->key[s]) continue;
    const ir_attr *l = chosen(st, v);
    /* Records are chained newest first: visit them in program order. */
    int chain[64], n = 0;
    for (int r = u->first[s]; r >= 0; r = u->rec[r].next) {
      if (n == 64) {
        spread_to(st, u->rec[r].op, u->rec[r].idx, l);
        continue;
      }
      chain[n++] = r;
    }
    while (n > 0) {
      use_rec *r = &u->rec[chain[--n]];
      spread_to(st, r->op, r->idx, l);
    }
  }
}

static void apply(prop_state *st) {
  for (size_t q = 0; q < st->nqueue; q++) {
    ir_value *v = st->queue[q];
    const ir_attr *l = chosen(st, v);
    if (v->type->layout != l) ttg_set_value_layout(st->m, v, l);
  }
}

/* ---- identity conversions ---------------------------------------------------- */

static void drop_identity(ir_op *op, void *user) {
  ir_op ***list = user;
  if (op->kind == IR_OP_TTG_CONVERT_LAYOUT && op->operands[0]->type == op->results[0].type)
    *(*list)++ = op;
}

static void count_converts(ir_op *op, void *user) {
  if (op->kind == IR_OP_TTG_CONVERT_LAYOUT) ++*(int *)user;
}

static void collect_converts(ir_op *op, void *user) {
  ir_op ***list = user;
  if (op->kind == IR_OP_TTG_CONVERT_LAYOUT) *(*list)++ = op;
}

static void replace_and_erase(ir_module *m, ir_op *cvt, ir_value *v) {
  ir_op *scope = ir_op_parent_of_kind(cvt, IR_OP_TT_FUNC);
  ir_replace_all_uses(scope ? scope : m->op, &cvt->results[0], v);
  ir_op_erase(cvt);
}

/* ---- 2. backward rematerialization ------------------------------------------- */

enum { REMAT_MAX_OPS = 48 }; /* ops cloned for one conversion, at most */

typedef struct remat_state {
  ir_module *m;
  ir_context *ctx;
  int budget;                 /* ops left to clone for the current conversion */
  const ir_value *assumed;    /* a loop argument taken to be in the wanted layout */
  const ir_value *relaid[64]; /* loop arguments already re-laid out: never twice */
  int nrelaid;
} remat_state;

/* The layout operand i of `op` needs when op's result has layout `l`; NULL if
 * op cannot be recomputed in another layout. */
static const ir_attr *operand_layout(remat_state *st, const ir_op *op, int i, const ir_attr *l) {
  if (!ir_type_is_tensor(op->operands[i]->type)) return NULL;
  if (op->kind == IR_OP_TT_EXPAND_DIMS) {
    if (l->kind == IR_ATTR_SLICE || l->kind == IR_ATTR_DOT_OP) return NULL;
    return ir_attr_slice(st->ctx, (int)ir_op_get_int(op, "axis", 0), l);
  }
  return l; /* elementwise ops, broadcast, convert: the same layout */
}

static bool is_rematerializable(const ir_op *op) {
  if (op->nresults != 1 || op->nregions != 0) return false;
  if (op->kind == IR_OP_TT_MAKE_RANGE || op->kind == IR_OP_TT_SPLAT ||
      op->kind == IR_OP_ARITH_CONSTANT || op->kind == IR_OP_TT_BROADCAST ||
      op->kind == IR_OP_TT_EXPAND_DIMS || op->kind == IR_OP_TTG_CONVERT_LAYOUT)
    return true;
  const ir_op_info *info = ir_op_info_of(op);
  return (info->traits & IR_T_ELEMENTWISE) && ir_op_is_pure(op);
}

/* Whether v can be produced in layout l, within the clone budget. */
static bool can_remat(remat_state *st, const ir_value *v, const ir_attr *l, int depth) {
  if (v->type->layout == l || v == st->assumed) return true;
  const ir_op *op = v->def;
  if (!op || depth > 12 || st->budget-- <= 0 || !is_rematerializable(op)) return false;
  if (op->kind == IR_OP_TTG_CONVERT_LAYOUT) return can_remat(st, op->operands[0], l, depth + 1);
  for (int i = 0; i < op->noperands; i++) {
    if (!ir_type_is_tensor(op->operands[i]->type)) continue; /* scalars: any layout */
    const ir_attr *ol = operand_layout(st, op, i, l);
    if (!ol || !can_remat(st, op->operands[i], ol, depth + 1)) return false;
  }
  return true;
}

/* Produces v in layout l, each clone placed right after the op it copies
 * (so the clones keep the program's order, and a chain defined outside a
 * loop is recomputed outside it). */
static ir_value *remat(remat_state *st, ir_value *v, const ir_attr *l) {
  if (v->type->layout == l) return v;
  ir_op *op = v->def;
  if (op->kind == IR_OP_TTG_CONVERT_LAYOUT) return remat(st, op->operands[0], l);
  ir_value *ops[8];
  IR_ASSERT(op->noperands <= 8);
  for (int i = 0; i < op->noperands; i++) {
    ir_value *o = op->operands[i];
    ops[i] = ir_type_is_tensor(o->type) ? remat(st, o, operand_layout(st, op, i, l)) : o;
  }
  const ir_type *rt = ir_type_with_layout(st->ctx, v->type, l);
  ir_op *c = ir_op_create(st->m, op->kind, op->loc, 1, &rt, op->noperands, ops, 0);
  for (int i = 0; i < op->nattrs; i++)
    ir_op_set_attr(st->m, c, op->attrs[i].name, op->attrs[i].value);
  c->results[0].name = v->name;
  ir_op_insert_after(op, c);
  ttg_set_value_layout(st->m, &c->results[0], l); /* a constant's value follows */
  return &c->results[0];
}

/* The loop whose body block has v as iteration argument (not the induction
 * variable), and the iteration index; NULL otherwise. */
static ir_op *loop_of_arg(const ir_value *v, int *iter) {
  if (v->def || !v->owner || !v->owner->parent) return NULL;
  ir_op *loop = v->owner->parent->parent;
  if (!loop || loop->kind != IR_OP_SCF_FOR || v->index < 1) return NULL;
  *iter = v->index - 1;
  return loop;
}

/* A conversion of a loop-carried value (a pointer tensor advanced each
 * iteration, say) is removed by carrying the value in the wanted layout:
 * the argument and the loop's result are re-laid out, the yielded value is
 * recomputed in that layout, and the initial value is converted once,
 * before the loop. Other users of the argument get conversions. */
typedef struct feeds_memory {
  const ir_value *v;
  bool found;
} feeds_memory;

static void find_memory_use(ir_op *op, void *user) {
  feeds_memory *f = user;
  bool mem = op->kind == IR_OP_TT_LOAD || op->kind == IR_OP_TT_STORE ||
             op->kind == IR_OP_TT_ATOMIC_RMW || op->kind == IR_OP_TT_ATOMIC_CAS ||
             op->kind == IR_OP_TTG_ASYNC_COPY;
  if (mem && op->noperands && op->operands[0] == f->v) f->found = true;
}

static bool remat_loop_arg(remat_state *st, ir_op *cvt) {
  ir_value *arg = cvt->operands[0];
  /* Only for the pointers of a memory access: their layout is the access's. */
  feeds_memory f = {&cvt->results[0], false};
  ir_op *body_op = cvt->parent && cvt->parent->parent ? cvt->parent->parent->parent : NULL;
  if (body_op) ir_walk(body_op, find_memory_use, &f);
  if (!f.found) return false;
  const ir_attr *l = cvt->results[0].type->layout;
  int iter;
  ir_op *loop = loop_of_arg(arg, &iter);
  if (!loop || st->nrelaid == 64) return false;
  for (int i = 0; i < st->nrelaid; i++)
    if (st->relaid[i] == arg) return false;
  ir_block *body = ir_region_entry(&loop->regions[0]);
  ir_op *yield = body ? body->last : NULL;
  if (!yield || yield->kind != IR_OP_SCF_YIELD || iter >= yield->noperands) return false;
  st->assumed = arg;
  st->budget = REMAT_MAX_OPS;
  bool ok = can_remat(st, yield->operands[iter], l, 0);
  st->assumed = NULL;
  if (!ok) return false;
  st->relaid[st->nrelaid++] = arg;
  ttg_set_value_layout(st->m, arg, l);
  ttg_set_value_layout(st->m, &loop->results[iter], l);
  ir_op_set_operand(yield, iter, remat(st, yield->operands[iter], l));
  ir_op_set_operand(loop, 3 + iter, ttg_convert_before(st->m, loop, loop->operands[3 + iter], l));
  replace_and_erase(st->m, cvt, arg);
  return true;
}

static void rematerialize(remat_state *rs, ir_module *m, ir_arena *scratch) {
  remat_state st = *rs;
  int n = 0;
  ir_walk(m->op, count_converts, &n);
  if (n == 0) return;
  ir_op **cvts = ir_arena_alloc(scratch, sizeof *cvts * (size_t)n), **end = cvts;
  if (!cvts) return; /* an optimization: skipping it is safe */
  ir_walk(m->op, collect_converts, &end);
  for (ir_op **p = cvts; p < end; p++) {
    ir_op *cvt = *p;
    const ir_attr *l = cvt->results[0].type->layout;
    st.budget = REMAT_MAX_OPS;
    if (can_remat(&st, cvt->operands[0], l, 0))
      replace_and_erase(m, cvt, remat(&st, cvt->operands[0], l));
    else
      remat_loop_arg(&st, cvt);
  }
  *rs = st;
}

static void remove_identities(ir_module *m, ir_arena *scratch) {
  int n = 0;
  ir_walk(m->op, count_converts, &n);
  if (n == 0) return;
  ir_op **list = ir_arena_alloc(scratch, sizeof *list * (size_t)n), **end = list;
  if (!list) return;
  ir_walk(m->op, drop_identity, &end);
  for (ir_op **p = list; p < end; p++)
    replace_and_erase(m, *p, (*p)->operands[0]);
}

/* ---- the pass ------------------------------------------------------------------- */

static void count_uses(ir_op *op, void *user) { *(size_t *)user += (size_t)op->noperands; }

static void count_values(ir_op *op, void *user) {
  size_t *n = user;
  *n += (size_t)op->nresults;
  for (int r = 0; r < op->nregions; r++)
    for (ir_block *b = op->regions[r].first; b; b = b->next)
      *n += (size_t)b->nargs;
}

bool ttg_pass_remove_convert(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)args;
  for (ir_op *func = ir_module_body(m)->first; func; func = func->next) {
    if (func->kind != IR_OP_TT_FUNC || !ir_region_entry(&func->regions[0])) continue;
    size_t nvalues = 0;
    ir_walk(func, count_values, &nvalues);
    nvalues += (size_t)ir_region_entry(&func->regions[0])->nargs;
    prop_state st = {m, m->ctx, NULL, 16, NULL, 0, nvalues + 1, false};
    while (st.cap < 2 * (nvalues + 1))
      st.cap *= 2;
    size_t nuses = 0;
    ir_walk(func, count_uses, &nuses);
    use_index u = {&st, NULL, NULL, NULL, 0, nuses + 1};
    st.tab = ir_arena_alloc(scratch, sizeof *st.tab * st.cap);
    st.queue = ir_arena_alloc(scratch, sizeof *st.queue * st.qcap);
    u.key = ir_arena_alloc(scratch, sizeof *u.key * st.cap);
    u.first = ir_arena_alloc(scratch, sizeof *u.first * st.cap);
    u.rec = ir_arena_alloc(scratch, sizeof *u.rec * u.cap);
    if (!st.tab || !st.queue || !u.key || !u.first || !u.rec)
      return true; /* an optimization: skipping it is safe */
    propagate(&st, &u, func);
    if (st.oom) continue;
    apply(&st);
  }
  remat_state rs;
  memset(&rs, 0, sizeof rs);
  rs.m = m;
  rs.ctx = m->ctx;
  ttg_fix_operand_layouts(m);
  /* With no conversion left (elementwise code in one layout) there is
   * nothing to rematerialize or erase: the walks below are skipped. */
  int n = 0;
  ir_walk(m->op, count_converts, &n);
  if (n == 0) return true;
  remove_identities(m, scratch);
  rematerialize(&rs, m, scratch);
  /* Loop arguments re-laid out above may need conversions for their other
   * users; those are rematerialized in turn. */
  if (rs.nrelaid > 0) {
    ttg_fix_operand_layouts(m);
    remove_identities(m, scratch);
    rematerialize(&rs, m, scratch);
  }
  remove_identities(m, scratch);
  /* What the rewrites left unused would mislead the next run (a dead user
   * converting a loop argument back): erase it now. */
  return ir_pass_dce(m, scratch, NULL);
}
