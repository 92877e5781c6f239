// SPDX-License-Identifier: MIT
/* ops.c - ops, values, blocks, regions and modules: creation, linking,
 * attributes, walking and use replacement.
 *
 * Everything here is allocated from the module arena and never freed one by
 * one: erasing an op only unlinks it. There are no use lists; use queries
 * walk the IR, which is cheap at the sizes kernels have. */
#include <stdlib.h>
#include <string.h>

#include "ir-tt/ir.h"

static const ir_op_info op_infos[IR_NUM_OPS] = {
#define IR_OP(E, NAME, MINOPS, MAXOPS, NRES, TRAITS, FORM, RULE, EFFECTS)                          \
  {NAME, MINOPS, MAXOPS, NRES, TRAITS, IR_FORM_##FORM, IR_RULE_##RULE, EFFECTS},
#include "ops.def"
};

const ir_op_info *ir_op_kind_info(ir_op_kind kind) {
  IR_ASSERT((unsigned)kind < IR_NUM_OPS);
  return &op_infos[kind];
}

bool ir_op_kind_lookup(const char *name, size_t len, ir_op_kind *out) {
  for (int k = 0; k < IR_NUM_OPS; k++) {
    const char *n = op_infos[k].name;
    if (strlen(n) == len && memcmp(n, name, len) == 0) {
      *out = (ir_op_kind)k;
      return true;
    }
  }
  return false;
}

/* Arena allocation that cannot fail from the caller's point of view. */
static void *must_alloc(ir_module *m, size_t size) {
  void *p = ir_arena_alloc(&m->arena, size);
  if (!p) IR_UNREACHABLE("out of memory in the module arena");
  return p;
}

ir_module *ir_module_create(ir_context *ctx, ir_loc loc) {
  ir_module *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->ctx = ctx;
  ir_arena_init(&m->arena);
  ir_arena_init(&m->side);
  m->op = ir_op_create(m, IR_OP_MODULE, loc, 0, NULL, 0, NULL, 1);
  ir_region_new_block(m, &m->op->regions[0]);
  return m;
}

void ir_module_destroy(ir_module *m) {
  if (!m) return;
  ir_arena_free(&m->arena);
  ir_arena_free(&m->side);
  free(m);
}

ir_block *ir_module_body(const ir_module *m) { return m->op->regions[0].first; }

ir_op *ir_module_lookup_func(const ir_module *m, const char *name) {
  for (ir_op *op = ir_module_body(m)->first; op; op = op->next) {
    if (op->kind != IR_OP_TT_FUNC) continue;
    const ir_attr *a = ir_op_get_attr(op, "sym_name");
    if (a && a->kind == IR_ATTR_STRING && strcmp(a->s, name) == 0) return op;
  }
  return NULL;
}

ir_op *ir_op_create(ir_module *m, ir_op_kind kind, ir_loc loc, int nresults,
                    const ir_type *const *result_types, int noperands, ir_value *const *operands,
                    int nregions) {
  ir_op *op = must_alloc(m, sizeof *op);
  m->nops++;
  op->kind = kind;
  op->loc = loc;
  op->nresults = nresults;
  if (nresults > 0) {
    op->results = must_alloc(m, (size_t)nresults * sizeof *op->results);
    for (int i = 0; i < nresults; i++) {
      op->results[i].type = result_types[i];
      op->results[i].def = op;
      op->results[i].index = i;
    }
  }
  op->noperands = noperands;
  if (noperands > 0) {
    op->operands = must_alloc(m, (size_t)noperands * sizeof *op->operands);
    for (int i = 0; i < noperands; i++)
      op->operands[i] = operands ? operands[i] : NULL;
  }
  op->nregions = nregions;
  if (nregions > 0) {
    op->regions = must_alloc(m, (size_t)nregions * sizeof *op->regions);
    for (int i = 0; i < nregions; i++)
      op->regions[i].parent = op;
  }
  return op;
}

void ir_op_set_operand(ir_op *op, int i, ir_value *v) {
  IR_ASSERT(i >= 0 && i < op->noperands);
  op->operands[i] = v;
}

void ir_op_set_operands(ir_module *m, ir_op *op, int n, ir_value *const *vals) {
  if (n > op->noperands) op->operands = must_alloc(m, (size_t)n * sizeof *op->operands);
  for (int i = 0; i < n; i++)
    op->operands[i] = vals[i];
  op->noperands = n;
}

ir_value *ir_op_result(const ir_op *op, int i) {
  IR_ASSERT(i >= 0 && i < op->nresults);
  return &op->results[i];
}

void ir_op_set_attr(ir_module *m, ir_op *op, const char *name, const ir_attr *value) {
  for (int i = 0; i < op->nattrs; i++) {
    if (strcmp(op->attrs[i].name, name) == 0) {
      op->attrs[i].value = value;
      return;
    }
  }
  /* Arrays are never shrunk in place, so a fresh copy keeps any pointer a
   * caller holds into the old one valid until the module dies. */
  ir_named_attr *na = must_alloc(m, (size_t)(op->nattrs + 1) * sizeof *na);
  if (op->nattrs) memcpy(na, op->attrs, (size_t)op->nattrs * sizeof *na);
  na[op->nattrs].name = ir_intern_cstr(m->ctx, name);
  na[op->nattrs].value = value;
  op->attrs = na;
  op->nattrs++;
}

const ir_attr *ir_op_get_attr(const ir_op *op, const char *name) {
  for (int i = 0; i < op->nattrs; i++)
    if (strcmp(op->attrs[i].name, name) == 0) return op->attrs[i].value;
  return NULL;
}

int64_t ir_op_get_int(const ir_op *op, const char *name, int64_t dflt) {
  const ir_attr *a = ir_op_get_attr(op, name);
  if (!a) return dflt;
  if (a->kind == IR_ATTR_INT || a->kind == IR_ATTR_ENUM) return a->i;
  return dflt;
}

void ir_op_remove_attr(ir_op *op, const char *name) {
  for (int i = 0; i < op->nattrs; i++) {
    if (strcmp(op->attrs[i].name, name) == 0) {
      memmove(&op->attrs[i], &op->attrs[i + 1], (size_t)(op->nattrs - i - 1) * sizeof *op->attrs);
      op->nattrs--;
      return;
    }
  }
}

ir_block *ir_block_create(ir_module *m, int nargs, const ir_type *const *arg_types) {
  ir_block *b = must_alloc(m, sizeof *b);
  if (nargs <= 0) return b;
  /* one array and one run of values, not an array per argument */
  b->args = must_alloc(m, (size_t)nargs * sizeof *b->args);
  ir_value *vals = must_alloc(m, (size_t)nargs * sizeof *vals);
  for (int i = 0; i < nargs; i++) {
    vals[i].type = arg_types[i];
    vals[i].owner = b;
    vals[i].index = i;
    b->args[i] = &vals[i];
  }
  b->nargs = nargs;
  return b;
}

ir_value *ir_block_add_arg(ir_module *m, ir_block *b, const ir_type *ty) {
  ir_value *v = must_alloc(m, sizeof *v);
  v->type = ty;
  v->owner = b;
  v->index = b->nargs;
  ir_value **args = must_alloc(m, (size_t)(b->nargs + 1) * sizeof *args);
  if (b->nargs) memcpy(args, b->args, (size_t)b->nargs * sizeof *args);
  args[b->nargs++] = v;
  b->args = args;
  return v;
}

void ir_region_append_block(ir_region *r, ir_block *b) {
  b->parent = r;
  b->next = NULL;
  b->prev = r->last;
  if (r->last)
    r->last->next = b;
  else
    r->first = b;
  r->last = b;
}

ir_block *ir_region_new_block(ir_module *m, ir_region *r) {
  ir_block *b = ir_block_create(m, 0, NULL);
  ir_region_append_block(r, b);
  return b;
}

ir_block *ir_region_entry(const ir_region *r) { return r->first; }

void ir_block_append(ir_block *b, ir_op *op) {
  IR_ASSERT(!op->parent);
  op->parent = b;
  op->next = NULL;
  op->prev = b->last;
  if (b->last)
    b->last->next = op;
  else
    b->first = op;
  b->last = op;
}

void ir_op_insert_before(ir_op *anchor, ir_op *op) {
  IR_ASSERT(!op->parent && anchor->parent);
  ir_block *b = anchor->parent;
  op->parent = b;
  op->next = anchor;
  op->prev = anchor->prev;
  if (anchor->prev)
    anchor->prev->next = op;
  else
    b->first = op;
  anchor->prev = op;
}

void ir_op_insert_after(ir_op *anchor, ir_op *op) {
  IR_ASSERT(!op->parent && anchor->parent);
  ir_block *b = anchor->parent;
  op->parent = b;
  op->prev = anchor;
  op->next = anchor->next;
  if (anchor->next)
    anchor->next->prev = op;
  else
    b->last = op;
  anchor->next = op;
}

void ir_op_unlink(ir_op *op) {
  ir_block *b = op->parent;
  if (!b) return;
  if (op->prev)
    op->prev->next = op->next;
  else
    b->first = op->next;
  if (op->next)
    op->next->prev = op->prev;
  else
    b->last = op->prev;
  op->parent = NULL;
  op->prev = op->next = NULL;
}

void ir_op_erase(ir_op *op) { ir_op_unlink(op); }

ir_block *ir_op_block(const ir_op *op) { return op->parent; }

/* The op whose region holds op's block, or NULL at the top. */
static ir_op *parent_op(const ir_op *op) {
  ir_block *b = op->parent;
  return b && b->parent ? b->parent->parent : NULL;
}

ir_op *ir_op_parent_of_kind(const ir_op *op, ir_op_kind kind) {
  for (ir_op *p = parent_op(op); p; p = parent_op(p))
    if (p->kind == kind) return p;
  return NULL;
}

bool ir_op_is_inside(const ir_op *op, const ir_op *ancestor) {
  for (ir_op *p = parent_op(op); p; p = parent_op(p))
    if (p == ancestor) return true;
  return false;
}

const ir_op_info *ir_op_info_of(const ir_op *op) { return ir_op_kind_info(op->kind); }

bool ir_op_is_pure(const ir_op *op) {
  const ir_op_info *info = ir_op_info_of(op);
  return info->effects == 0 && !(info->traits & IR_T_TERMINATOR) && op->nregions == 0;
}
const char *ir_op_name(const ir_op *op) { return ir_op_kind_info(op->kind)->name; }

void ir_walk(ir_op *root, ir_walk_fn fn, void *user) {
  for (int r = 0; r < root->nregions; r++) {
    for (ir_block *b = root->regions[r].first; b; b = b->next) {
      for (ir_op *op = b->first; op; op = op->next) {
        fn(op, user);
        ir_walk(op, fn, user);
      }
    }
  }
}

typedef struct replace_state {
  const ir_value *from;
  ir_value *to;
  int count;
} replace_state;

static void replace_one(ir_op *op, void *user) {
  replace_state *st = user;
  for (int i = 0; i < op->noperands; i++) {
    if (op->operands[i] == st->from) {
      if (st->to) op->operands[i] = st->to;
      st->count++;
    }
  }
}

void ir_replace_all_uses(ir_op *root, const ir_value *from, ir_value *to) {
  IR_ASSERT(to != NULL);
  replace_state st = {from, to, 0};
  ir_walk(root, replace_one, &st);
}

void ir_subst_add(ir_subst *s, const ir_value *from, ir_value *to) {
  if (2 * (s->n + 1) > s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 256;
    const ir_value **from2 = calloc(cap, sizeof *from2);
    ir_value **to2 = malloc(cap * sizeof *to2);
    if (!from2 || !to2) {
      free(from2);
      free(to2);
      s->oom = true;
      return;
    }
    for (size_t i = 0; i < s->cap; i++) {
      if (!s->from[i]) continue;
      size_t j = ir_ptr_slot(s->from[i], cap);
      while (from2[j])
        j = (j + 1) & (cap - 1);
      from2[j] = s->from[i];
      to2[j] = s->to[i];
    }
    free(s->from);
    free(s->to);
    s->from = from2;
    s->to = to2;
    s->cap = cap;
  }
  size_t i = ir_ptr_slot(from, s->cap);
  while (s->from[i] && s->from[i] != from)
    i = (i + 1) & (s->cap - 1);
  if (!s->from[i]) s->n++;
  s->from[i] = from;
  s->to[i] = to;
}

ir_value *ir_subst_get(const ir_subst *s, ir_value *v) {
  /* bounded: a cycle (never made by a correct pass) cannot hang */
  for (size_t steps = 0; s->n && v && steps <= s->n; steps++) {
    size_t i = ir_ptr_slot(v, s->cap);
    while (s->from[i] && s->from[i] != v)
      i = (i + 1) & (s->cap - 1);
    if (!s->from[i]) break;
    v = s->to[i];
  }
  return v;
}

int ir_subst_apply_op(const ir_subst *s, ir_op *op) {
  int changed = 0;
  for (int i = 0; s->n && i < op->noperands; i++) {
    ir_value *v = ir_subst_get(s, op->operands[i]);
    changed += v != op->operands[i];
    op->operands[i] = v;
  }
  return changed;
}

static void subst_one(ir_op *op, void *user) { ir_subst_apply_op(user, op); }

void ir_subst_apply(const ir_subst *s, ir_op *root) {
  if (s->n) ir_walk(root, subst_one, (void *)s);
}

static void clone_region(ir_module *m, const ir_region *from, ir_region *to, ir_subst *map) {
  for (const ir_block *b = from->first; b; b = b->next) {
    const ir_type **tys = must_alloc(m, sizeof *tys * (size_t)(b->nargs + 1));
    for (int i = 0; i < b->nargs; i++)
      tys[i] = b->args[i]->type;
    ir_block *nb = ir_block_create(m, b->nargs, tys);
    for (int i = 0; i < b->nargs; i++) {
      nb->args[i]->name = b->args[i]->name;
      nb->args[i]->divisibility = b->args[i]->divisibility;
      ir_subst_add(map, b->args[i], nb->args[i]);
    }
    ir_region_append_block(to, nb);
    for (const ir_op *o = b->first; o; o = o->next)
      ir_block_append(nb, ir_op_clone(m, o, map));
  }
}

ir_op *ir_op_clone(ir_module *m, const ir_op *op, ir_subst *map) {
  ir_op *n = ir_op_create(m, op->kind, op->loc, 0, NULL, 0, NULL, op->nregions);
  n->nresults = op->nresults;
  if (op->nresults > 0) {
    n->results = must_alloc(m, (size_t)op->nresults * sizeof *n->results);
    for (int i = 0; i < op->nresults; i++) {
      n->results[i] = op->results[i]; /* type, name, divisibility */
      n->results[i].def = n;
      n->results[i].owner = NULL;
      ir_subst_add(map, &op->results[i], &n->results[i]);
    }
  }
  n->noperands = op->noperands;
  if (op->noperands > 0) {
    n->operands = must_alloc(m, (size_t)op->noperands * sizeof *n->operands);
    for (int i = 0; i < op->noperands; i++) {
      ir_value *v = op->operands[i];
      n->operands[i] = ir_subst_get(map, v);
      map->unmapped += v && n->operands[i] == v; /* defined later, or nowhere */
    }
  }
  if (op->nattrs > 0) { /* names interned, values uniqued: one copy of the array */
    n->attrs = must_alloc(m, (size_t)op->nattrs * sizeof *n->attrs);
    memcpy(n->attrs, op->attrs, (size_t)op->nattrs * sizeof *n->attrs);
    n->nattrs = op->nattrs;
  }
  for (int r = 0; r < op->nregions; r++)
    clone_region(m, &op->regions[r], &n->regions[r], map);
  return n;
}

typedef struct remap_state {
  const ir_subst *map;
  size_t fixed;
} remap_state;

static void remap_one(ir_op *op, void *user) {
  remap_state *st = user;
  st->fixed += (size_t)ir_subst_apply_op(st->map, op);
}

bool ir_module_compact(ir_module *m) {
  ir_arena old = m->arena;
  int64_t nops = m->nops;
  ir_arena_init(&m->arena);
  ir_subst map = {0};
  ir_op *copy = ir_op_clone(m, m->op, &map);
  m->nops = nops; /* the copy is not new work: the bound counts what the input made */
  /* an operand defined after its use in walk order (which the verifier
   * refuses, but a pass may be handed anything) was copied unmapped and is
   * mapped now; one that stays unmapped is no value of the module */
  remap_state st = {&map, 0};
  if (map.unmapped && !map.oom) ir_walk(copy, remap_one, &st);
  bool ok = !map.oom && st.fixed == map.unmapped;
  if (!map.oom && !ok)
    ir_error(m->ctx, m->op->loc,
             "internal error: %zu operand(s) use a value that is not in the module "
             "(an erased op's result?)",
             map.unmapped - st.fixed);
  ir_subst_free(&map);
  if (!ok) {
    ir_arena_free(&m->arena);
    m->arena = old;
    return false;
  }
  m->op = copy;
  ir_arena_free(&old);
  return true;
}

void ir_subst_free(ir_subst *s) {
  free(s->from);
  free(s->to);
  memset(s, 0, sizeof *s);
}

int ir_count_uses(ir_op *root, const ir_value *v) {
  replace_state st = {v, NULL, 0};
  ir_walk(root, replace_one, &st);
  return st.count;
}
