// SPDX-License-Identifier: MIT
/* lower_shape.c - shape builtins: tl.expand_dims, tl.broadcast,
 * tl.broadcast_to, tl.reshape / tl.view, tl.trans / tl.permute, tl.join /
 * tl.split, and the
 * packing of `x.reshape(2, 8)`-style varargs shapes into one tuple.
 *
 * Shapes must be constexpr; element counts must match for reshape and
 * permutations must cover every axis once. */
#include <string.h>

#include "frontend/lower_impl.h"

/* A constant int argument, or an error naming it. */
static bool shape_int(fe_lower *l, const fe_val *v, ir_loc loc, const char *what, int64_t *out) {
  if (v->kind == FE_V_INT || v->kind == FE_V_BOOL) {
    *out = v->ival;
    return true;
  }
  if (v->kind != FE_V_ERROR)
    fe_error(l, loc, "%s must be a constexpr integer, found '%s'", what, fe_val_type_str(l, v));
  return false;
}

fe_val fe_expand_dims(fe_lower *l, fe_val x, int axis, ir_loc loc) {
  const ir_type *t = x.v->type;
  int rank = ir_type_is_tensor(t) ? t->rank : 0;
  if (axis < 0) axis += rank + 1;
  if (axis < 0 || axis > rank)
    return fe_error(l, loc, "expand_dims axis %d out of range for rank %d", axis, rank);
  if (rank + 1 > IR_MAX_RANK)
    return fe_error(l, loc, "expand_dims gives rank above %d", IR_MAX_RANK);
  int64_t shape[IR_MAX_RANK];
  int r = 0;
  for (int i = 0; i < rank + 1; i++)
    shape[i] = i == axis ? 1 : t->shape[r++];
  l->b.loc = loc;
  if (rank == 0)
    return fe_val_tensor(ir_build_splat(&l->b, x.v, ir_type_tensor(l->ctx, 1, shape, t, NULL)),
                         x.is_unsigned);
  ir_value *v = ir_build1(&l->b, IR_OP_TT_EXPAND_DIMS,
                          ir_type_tensor(l->ctx, rank + 1, shape, t->elem, NULL), 1, &x.v);
  ir_op_set_attr(l->m, v->def, "axis", ir_attr_int(l->ctx, ir_type_i32(l->ctx), axis));
  return fe_val_tensor(v, x.is_unsigned);
}

fe_val fe_reshape(fe_lower *l, fe_val x, int rank, const int64_t *shape, ir_loc loc) {
  const ir_type *t = x.v->type;
  int64_t n = 1;
  for (int i = 0; i < rank; i++)
    n *= shape[i];
  if (n != ir_type_numel(t))
    return fe_error(l, loc, "cannot reshape '%s' (%lld elements) to %lld elements",
                    fe_val_type_str(l, &x), (long long)ir_type_numel(t), (long long)n);
  l->b.loc = loc;
  const ir_type *nt =
      rank == 0 ? ir_type_scalar(t) : ir_type_tensor(l->ctx, rank, shape, ir_type_scalar(t), NULL);
  if (nt == t) return x;
  if (!ir_type_is_tensor(t)) return fe_val_tensor(ir_build_splat(&l->b, x.v, nt), x.is_unsigned);
  return fe_val_tensor(ir_build1(&l->b, IR_OP_TT_RESHAPE, nt, 1, &x.v), x.is_unsigned);
}

/* Packs trailing positional arguments (`x.reshape(2, 8)`) into one tuple. */
fe_args fe_pack_varargs(fe_lower *l, const fe_args *args, int from) {
  fe_args a = *args;
  if (args->n <= from + 1) return a;
  fe_val t = fe_val_error();
  t.kind = FE_V_TUPLE;
  t.n = args->n - from;
  t.items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)t.n);
  memcpy(t.items, args->pos + from, sizeof(fe_val) * (size_t)t.n);
  a.n = from + 1;
  a.pos = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)a.n);
  memcpy(a.pos, args->pos, sizeof(fe_val) * (size_t)from);
  a.pos[from] = t;
  return a;
}

/* tl.join(a, b): a and b (broadcast to one shape) side by side along a new
 * minor axis of size 2 (tt.join). */
static fe_val shape_join(fe_lower *l, fe_val x, fe_val y, ir_loc loc) {
  if (!fe_promote_pair(l, &x, &y, FE_OP_ADD, loc)) return fe_val_error();
  const ir_type *t = x.v->type;
  int rank = ir_type_is_tensor(t) ? t->rank : 0;
  if (rank + 1 > IR_MAX_RANK) return fe_error(l, loc, "join gives rank above %d", IR_MAX_RANK);
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < rank; i++)
    shape[i] = t->shape[i];
  shape[rank] = 2;
  if (!fe_check_tile(l, loc, rank + 1, shape)) return fe_val_error();
  l->b.loc = loc;
  ir_value *ops[2] = {x.v, y.v};
  const ir_type *rt = ir_type_tensor(l->ctx, rank + 1, shape, ir_type_scalar(t), NULL);
  return fe_val_tensor(ir_build1(&l->b, IR_OP_TT_JOIN, rt, 2, ops), x.is_unsigned);
}

/* tl.split(a): the two halves of a tensor whose minor axis has size 2
 * (tt.split), as a tuple. */
static fe_val shape_split(fe_lower *l, fe_val x, ir_loc loc) {
  const ir_type *t = x.v->type;
  if (!ir_type_is_tensor(t) || t->shape[t->rank - 1] != 2)
    return fe_error(l, loc, "split needs a tensor whose last dimension is 2, found '%s'",
                    fe_val_type_str(l, &x));
  const ir_type *rt = ir_type_scalar(t);
  if (t->rank > 1) rt = ir_type_tensor(l->ctx, t->rank - 1, t->shape, rt, NULL);
  const ir_type *rts[2] = {rt, rt};
  l->b.loc = loc;
  ir_op *op = ir_build(&l->b, IR_OP_TT_SPLIT, 2, rts, 1, &x.v, 0);
  fe_val r = fe_val_error();
  r.kind = FE_V_TUPLE;
  r.n = 2;
  r.items = ir_arena_alloc(l->arena, sizeof(fe_val) * 2);
  for (int i = 0; i < 2; i++)
    r.items[i] = fe_val_tensor(ir_op_result(op, i), x.is_unsigned);
  return r;
}

fe_val fe_shape_op(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args) {
  if (strcmp(name, "tl.join") == 0) return shape_join(l, a[0], a[1], args->loc);
  fe_val x = a[0];
  x = fe_to_tensor(l, x, locs[0]);
  if (x.kind != FE_V_TENSOR) return fe_val_error();
  const ir_type *t = x.v->type;
  int rank = ir_type_is_tensor(t) ? t->rank : 0;
  if (strcmp(name, "tl.split") == 0) return shape_split(l, x, args->loc);
  if (strcmp(name, "tl.expand_dims") == 0) {
    int64_t axis;
    if (!shape_int(l, &a[1], locs[1], "axis", &axis)) return fe_val_error();
    return fe_expand_dims(l, x, (int)axis, args->loc);
  }
  if (strcmp(name, "tl.broadcast") == 0) {
    fe_val y = a[1];
    y = fe_to_tensor(l, y, locs[1]);
    if (y.kind != FE_V_TENSOR || !fe_broadcast_pair(l, &x, &y, args->loc)) return fe_val_error();
    fe_val pair = fe_val_error(); /* both, broadcast to one shape, as Triton */
    pair.kind = FE_V_TUPLE;
    pair.n = 2;
    pair.items = ir_arena_alloc(l->arena, sizeof(fe_val) * 2);
    pair.items[0] = x;
    pair.items[1] = y;
    return pair;
  }
  if (strcmp(name, "tl.trans") == 0 || strcmp(name, "tl.permute") == 0) {
    int64_t order[IR_MAX_RANK];
    if (a[1].kind == FE_V_NONE) {
      if (rank != 2)
        return fe_error(l, args->loc, "trans without dims needs a 2-d tensor, found '%s'",
                        fe_val_type_str(l, &x));
      order[0] = 1;
      order[1] = 0;
    } else {
      const fe_val *items = a[1].kind == FE_V_TUPLE ? a[1].items : &a[1];
      int n = a[1].kind == FE_V_TUPLE ? a[1].n : 1;
      if (n != rank)
        return fe_error(l, locs[1], "permutation has %d entries but the tensor has rank %d", n,
                        rank);
      for (int i = 0; i < n; i++)
        if (!shape_int(l, &items[i], locs[1], "permutation entry", &order[i]))
          return fe_val_error();
    }
    int64_t shape[IR_MAX_RANK];
    unsigned seen = 0; /* every axis exactly once */
    for (int i = 0; i < rank; i++) {
      if (order[i] < 0 || order[i] >= rank || (seen >> order[i]) & 1u)
        return fe_error(l, locs[1], "invalid permutation: each of the %d axes must appear once",
                        rank);
      seen |= 1u << order[i];
      shape[i] = t->shape[order[i]];
    }
    l->b.loc = args->loc;
    ir_value *v = ir_build1(&l->b, IR_OP_TT_TRANS,
                            ir_type_tensor(l->ctx, rank, shape, t->elem, NULL), 1, &x.v);
    ir_op_set_attr(l->m, v->def, "order", ir_attr_array(l->ctx, rank, order));
    return fe_val_tensor(v, x.is_unsigned);
  }
  int nr;
  int64_t shape[IR_MAX_RANK];
  if (!fe_const_shape(l, a[1], locs[1], &nr, shape)) return fe_val_error();
  if (strcmp(name, "tl.broadcast_to") == 0) return fe_broadcast_to(l, x, nr, shape, args->loc);
  if (nr == 0) /* Triton: "0d block_type is forbidden" */
    return fe_error(l, locs[1], "cannot reshape to a 0-d shape: Triton has no 0-d tensors");
  return fe_reshape(l, x, nr, shape, args->loc); /* reshape, view */
}
