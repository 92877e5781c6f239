// SPDX-License-Identifier: MIT
/* lower_carry.c - the variables a runtime loop carries (scf.for / scf.while
 * block arguments and results): the names the body assigns that are bound
 * before the loop. A variable may hold a tensor, a number (materialized), or
 * a composite - a tuple, or the runtime parts of a block pointer or tensor
 * descriptor (lower_blockptr.c) - whose leaves are carried one by one and
 * rebuilt into the same structure inside and after the loop. */
#include <stdlib.h>
#include <string.h>

#include "frontend/lower_impl.h"

/* ---- assigned names ------------------------------------------------------------ */

typedef struct name_set {
  const char **names;
  int n, cap;
  bool overflow; /* out of memory: the loop reports it */
} name_set;

/* Adds a name once (names are interned). The set grows: a loop body may
 * assign any number of names, of which at most FE_MAX_CARRIED may be bound
 * before the loop (fe_carry_collect counts those). */
static void names_add(name_set *s, const char *name) {
  for (int i = 0; i < s->n; i++)
    if (s->names[i] == name) return;
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 64;
    const char **grown = s->overflow ? NULL : realloc(s->names, (size_t)cap * sizeof *grown);
    if (!grown) {
      s->overflow = true;
      return;
    }
    s->names = grown;
    s->cap = cap;
  }
  s->names[s->n++] = name;
}

/* The plain names an assignment target binds (tuples recurse; subscripts and
 * attributes bind nothing the lowering tracks). */
static void collect_target(name_set *s, const fe_expr *t) {
  if (!t) return;
  if (t->kind == FE_EX_NAME) names_add(s, t->name);
  if (t->kind == FE_EX_STARRED) collect_target(s, t->a);
  if (t->kind == FE_EX_TUPLE || t->kind == FE_EX_LIST)
    for (int i = 0; i < t->n; i++)
      collect_target(s, t->items[i]);
}

static bool is_static_range(const fe_expr *it) {
  if (!it || it->kind != FE_EX_CALL || !it->a) return false;
  const fe_expr *f = it->a;
  return (f->kind == FE_EX_ATTR || f->kind == FE_EX_NAME) && strcmp(f->name, "static_range") == 0;
}

/* Every name a body may rebind (syntactically), nested blocks included. */
static void collect_assigned(name_set *s, const fe_body *b) {
  for (int i = 0; i < b->n; i++) {
    const fe_stmt *st = b->stmts[i];
    switch (st->kind) {
    case FE_ST_ASSIGN:
    case FE_ST_AUGASSIGN:
    case FE_ST_ANNASSIGN:
      for (int k = 0; k < st->ntargets; k++)
        collect_target(s, st->targets[k]);
      break;
    case FE_ST_IF:
      collect_assigned(s, &st->body);
      collect_assigned(s, &st->orelse);
      break;
    case FE_ST_FOR:
      /* a tl.static_range variable is a constexpr per unrolled copy, not a
       * loop-carried definition (Triton binds it outside the local defs) */
      if (!is_static_range(st->iter)) collect_target(s, st->target);
      collect_assigned(s, &st->body);
      break;
    case FE_ST_WHILE: collect_assigned(s, &st->body); break;
    case FE_ST_EXPR:
    case FE_ST_BREAK:
    case FE_ST_CONTINUE:
    case FE_ST_PASS:
    case FE_ST_RETURN:
    case FE_ST_ASSERT:
    case FE_ST_RAISE:
    case FE_ST_GLOBAL:
    case FE_ST_DEF: break;
    }
  }
}

/* ---- leaves ---------------------------------------------------------------------------- */

/* A copy whose tuples and structs own their item arrays (leaves can be
 * replaced without touching the original). */
static fe_val deep_copy(fe_lower *l, fe_val v) {
  if (v.kind != FE_V_TUPLE && v.kind != FE_V_STRUCT) return v;
  fe_val *items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(v.n + 1));
  for (int i = 0; i < v.n; i++)
    items[i] = deep_copy(l, v.items[i]);
  v.items = items;
  return v;
}

/* Pointers to the carried leaves of v, in order: tensors and numbers; tuples
 * recurse, structs recurse into their first `ival` (runtime) items. Returns
 * false when v holds something a loop cannot carry. *n counts every leaf;
 * out (FE_MAX_CARRIED entries) keeps the first FE_MAX_CARRIED, so a caller
 * sees *n above that bound and reports it. */
static bool leaves_of(fe_val *v, fe_val **out, int *n) {
  switch (v->kind) {
  case FE_V_TENSOR:
  case FE_V_INT:
  case FE_V_FLOAT:
  case FE_V_BOOL:
    if (*n < FE_MAX_CARRIED) out[*n] = v;
    (*n)++;
    return true;
  case FE_V_TUPLE:
    for (int i = 0; i < v->n; i++)
      if (!leaves_of(&v->items[i], out, n)) return false;
    return true;
  case FE_V_STRUCT:
    for (int i = 0; i < v->ival && i < v->n; i++)
      if (!leaves_of(&v->items[i], out, n)) return false;
    return true;
  default: return false;
  }
}

/* Whether v holds a value a loop would carry (a tensor or a number), at any
 * depth of its tuples and structs. */
static bool any_carriable(const fe_val *v) {
  switch (v->kind) {
  case FE_V_TENSOR:
  case FE_V_INT:
  case FE_V_FLOAT:
  case FE_V_BOOL: return true;
  case FE_V_TUPLE:
    for (int i = 0; i < v->n; i++)
      if (any_carriable(&v->items[i])) return true;
    return false;
  case FE_V_STRUCT:
    for (int i = 0; i < v->ival && i < v->n; i++)
      if (any_carriable(&v->items[i])) return true;
    return false;
  default: return false;
  }
}

bool fe_carry_collect(fe_lower *l, const fe_body *body, const char *skip, fe_carry *c, ir_loc loc) {
  memset(c, 0, sizeof *c);
  name_set set = {0};
  collect_assigned(&set, body);
  bool ok = true;
  if (set.overflow) {
    fe_error(l, loc, "out of memory collecting the names a loop assigns");
    ok = false;
  }
  for (int i = 0; ok && i < set.n; i++) {
    if (set.names[i] == skip) continue;
    fe_val *cur = fe_scope_get(&l->frame->scope, set.names[i]);
    if (!cur) continue;
    fe_val v = deep_copy(l, *cur);
    fe_val *slots[FE_MAX_CARRIED];
    int n = 0;
    if (!leaves_of(&v, slots, &n)) {
      /* None, dtypes, functions stay as they are; but a tuple that mixes them
       * with numbers or tensors would lose its runtime part, silently */
      if (!any_carriable(&v)) continue;
      fe_error(l, loc,
               "unsupported: a loop that assigns '%s', which mixes tensors or numbers with "
               "values a loop cannot carry ('%s')",
               set.names[i], fe_val_type_str(l, &v));
      ok = false;
      break;
    }
    if (n == 0) continue;
    if (c->nleaves + n > FE_MAX_CARRIED) {
      fe_error(l, loc, "a loop carries more than %d values", FE_MAX_CARRIED);
      ok = false;
      break;
    }
    int first = c->nleaves;
    for (int k = 0; ok && k < n; k++) {
      *slots[k] = fe_to_tensor(l, *slots[k], loc); /* constants materialize */
      if (slots[k]->kind == FE_V_ERROR) {
        ok = false;
        break;
      }
      c->leaves[c->nleaves] = *slots[k];
      c->leaf_name[c->nleaves++] = set.names[i];
    }
    if (!ok) break;
    *cur = v; /* the materialized constants are the loop's initial values */
    c->names[c->nvars] = set.names[i];
    c->tmpl[c->nvars] = v;
    c->first[c->nvars] = first;
    c->count[c->nvars++] = n;
  }
  free(set.names);
  return ok;
}

void fe_carry_bind(fe_lower *l, const fe_carry *c, ir_value *const *vals) {
  for (int i = 0; i < c->nvars; i++) {
    fe_val v = deep_copy(l, c->tmpl[i]);
    fe_val *slots[FE_MAX_CARRIED];
    int n = 0;
    leaves_of(&v, slots, &n);
    for (int k = 0; k < n; k++) {
      const fe_val *init = &c->leaves[c->first[i] + k];
      *slots[k] = fe_val_tensor(vals[c->first[i] + k], init->is_unsigned);
    }
    fe_scope_set(&l->frame->scope, c->names[i], v);
  }
}

bool fe_carry_yield(fe_lower *l, const fe_carry *c, ir_value **ys, const char *what, ir_loc loc) {
  bool ok = true;
  for (int i = 0; i < c->nvars; i++) {
    fe_val *bound = fe_scope_get(&l->frame->scope, c->names[i]);
    fe_val v = bound ? deep_copy(l, *bound) : fe_val_error();
    fe_val *slots[FE_MAX_CARRIED];
    int n = 0;
    if (v.kind == FE_V_ERROR) {
      ok = false;
      continue;
    }
    bool composite = v.kind == FE_V_TUPLE || v.kind == FE_V_STRUCT ||
                     c->tmpl[i].kind == FE_V_TUPLE || c->tmpl[i].kind == FE_V_STRUCT;
    if (!leaves_of(&v, slots, &n) || n != c->count[i] || (composite && v.kind != c->tmpl[i].kind)) {
      fe_error(l, loc,
               "%s: variable '%s' has a different structure after the loop body "
               "('%s' before, '%s' after)",
               what, c->names[i], fe_val_type_str(l, &c->tmpl[i]), fe_val_type_str(l, &v));
      ok = false;
      continue;
    }
    for (int k = 0; k < n; k++) {
      const fe_val *init = &c->leaves[c->first[i] + k];
      fe_val cur = *slots[k];
      if (fe_is_const(&cur)) cur = fe_cast(l, cur, init->v->type, init->is_unsigned, loc);
      if (cur.kind != FE_V_TENSOR || cur.v->type != init->v->type) {
        if (cur.kind != FE_V_ERROR)
          fe_error(l, loc,
                   "%s: variable '%s' has type '%s' before and '%s' after; its type must "
                   "stay the same",
                   what, c->names[i], fe_val_type_str(l, init), fe_val_type_str(l, &cur));
        ok = false;
        continue;
      }
      ys[c->first[i] + k] = cur.v;
    }
  }
  return ok;
}
