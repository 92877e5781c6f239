// SPDX-License-Identifier: MIT
/* lower_blockptr.c - block pointers (tl.make_block_ptr, tl.advance, loads
 * and stores with boundary_check / padding_option) and tensor descriptors
 * (tl.make_tensor_descriptor, desc.load, desc.store, and descriptors passed
 * as kernel arguments), lowered to ordinary pointer tensors and masks, as
 * Triton's RewriteTensorPointer does when there is no TMA.
 *
 * Both are FE_V_STRUCT values whose leading items are runtime values (so
 * that loops carry them, lower_carry.c):
 *   block_ptr:   base, shape, strides, offsets | block_shape, order
 *   tensor_desc: base, shape, strides | block_shape, padding
 * Element offsets and the address arithmetic are 64-bit, as in Triton. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "frontend/lower_impl.h"

enum { BP_BASE, BP_SHAPE, BP_STRIDES, BP_OFFSETS, BP_BLOCK, BP_ORDER, BP_N };
enum { TD_BASE, TD_SHAPE, TD_STRIDES, TD_BLOCK, TD_PADDING, TD_N };

static fe_val tuple_of(fe_lower *l, int n) {
  fe_val t = fe_val_error();
  t.kind = FE_V_TUPLE;
  t.n = n;
  t.items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(n + 1));
  return t;
}

/* A sequence argument (tuple or list) of `rank` items; rank < 0 takes its
 * own length. */
static bool seq_arg(fe_lower *l, fe_val v, ir_loc loc, const char *what, int rank, fe_val *out) {
  if (v.kind == FE_V_LIST) {
    fe_val t = tuple_of(l, v.obj->n);
    memcpy(t.items, v.obj->items, sizeof(fe_val) * (size_t)v.obj->n);
    v = t;
  }
  if (v.kind != FE_V_TUPLE) {
    if (v.kind != FE_V_ERROR)
      fe_error(l, loc, "'%s' must be a tuple, found '%s'", what, fe_val_type_str(l, &v));
    return false;
  }
  if (v.n < 1 || v.n > IR_MAX_RANK || (rank >= 0 && v.n != rank)) {
    fe_error(l, loc, "'%s' has %d entries, expected %d", what, v.n, rank >= 0 ? rank : IR_MAX_RANK);
    return false;
  }
  for (int i = 0; i < v.n; i++)
    if (v.items[i].kind != FE_V_TENSOR && !fe_is_const(&v.items[i])) {
      fe_error(l, loc, "'%s' entries must be integers, found '%s'", what,
               fe_val_type_str(l, &v.items[i]));
      return false;
    }
  *out = v;
  return true;
}

static bool scalar_pointer(fe_lower *l, const fe_val *v, ir_loc loc, const char *fname) {
  if (v->kind == FE_V_TENSOR && ir_type_is_ptr(v->v->type) && !ir_type_is_tensor(v->v->type))
    return true;
  if (v->kind != FE_V_ERROR)
    fe_error(l, loc, "'base' of '%s' must be a scalar pointer, found '%s'", fname,
             fe_val_type_str(l, v));
  return false;
}

static fe_val make_struct(fe_lower *l, const char *path, int n, int dynamic) {
  fe_val s = fe_val_error();
  s.kind = FE_V_STRUCT;
  s.path = ir_intern_cstr(l->ctx, path);
  s.n = n;
  s.ival = dynamic;
  s.items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)n);
  return s;
}

/* tl.make_block_ptr(base, shape, strides, offsets, block_shape, order) */
static fe_val b_make_block_ptr(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                               const fe_args *args) {
  if (!scalar_pointer(l, &a[0], locs[0], "tl.make_block_ptr")) return fe_val_error();
  fe_val bp = make_struct(l, "block_ptr", BP_N, BP_BLOCK);
  bp.items[BP_BASE] = a[0];
  int rank;
  if (!seq_arg(l, a[4], locs[4], "block_shape", -1, &bp.items[BP_BLOCK])) return fe_val_error();
  rank = bp.items[BP_BLOCK].n;
  int64_t shape[IR_MAX_RANK];
  int r2;
  if (!fe_const_shape(l, bp.items[BP_BLOCK], locs[4], &r2, shape)) return fe_val_error();
  static const char *const what[] = {"shape", "strides", "offsets"};
  for (int k = 0; k < 3; k++)
    if (!seq_arg(l, a[1 + k], locs[1 + k], what[k], rank, &bp.items[BP_SHAPE + k]))
      return fe_val_error();
  bp.items[BP_ORDER] = a[5];
  return bp;
}

/* tl.advance(base, offsets): the block pointer moved by `offsets`. */
static fe_val b_advance(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                        const fe_args *args) {
  if (a[0].kind != FE_V_STRUCT || strcmp(a[0].path, "block_ptr") != 0)
    return fe_error(l, locs[0], "'tl.advance' needs a block pointer, found '%s'",
                    fe_val_type_str(l, &a[0]));
  fe_val d;
  const fe_val *old = &a[0].items[BP_OFFSETS];
  if (!seq_arg(l, a[1], locs[1], "offsets", old->n, &d)) return fe_val_error();
  fe_val bp = a[0];
  bp.items = ir_arena_alloc(l->arena, sizeof(fe_val) * BP_N);
  memcpy(bp.items, a[0].items, sizeof(fe_val) * BP_N);
  fe_val offs = tuple_of(l, old->n);
  for (int i = 0; i < old->n; i++) {
    offs.items[i] = fe_binary(l, FE_OP_ADD, old->items[i], d.items[i], args->loc);
    if (offs.items[i].kind == FE_V_ERROR) return offs.items[i];
  }
  bp.items[BP_OFFSETS] = offs;
  return bp;
}

/* ---- addresses and masks ------------------------------------------------------------- */

static fe_val to_i64(fe_lower *l, fe_val v, ir_loc loc) {
  v = fe_to_tensor(l, v, loc);
  if (v.kind == FE_V_ERROR) return v;
  return fe_cast(l, v, ir_type_i64(l->ctx), false, loc);
}

/* The pointer tensor of a block at `offsets` (and, for the dims in
 * `checked`, the mask of in-bounds elements; *mask kind NONE when none). */
static fe_val block_pointers(fe_lower *l, fe_val base, const fe_val *shape, const fe_val *strides,
                             const fe_val *offsets, const fe_val *block, const bool *checked,
                             fe_val *mask, ir_loc loc) {
  int rank = block->n;
  fe_val ptr = base;
  *mask = fe_val_none();
  for (int d = 0; d < rank; d++) {
    fe_args ar;
    memset(&ar, 0, sizeof ar);
    fe_val lim[2] = {fe_val_int(0), block->items[d]};
    ir_loc locs[2] = {loc, loc};
    ar.n = 2;
    ar.pos = lim;
    ar.pos_loc = locs;
    ar.loc = loc;
    fe_val range = fe_call_builtin(l, "tl.arange", &ar);
    if (range.kind == FE_V_ERROR) return range;
    range = to_i64(l, range, loc);
    fe_val off = to_i64(l, offsets->items[d], loc);
    fe_val idx = fe_binary(l, FE_OP_ADD, range, off, loc), term = idx;
    const fe_val *stride = &strides->items[d];
    if (stride->kind != FE_V_INT || stride->ival != 1) {
      /* (off + range) * stride as off * stride + range * stride: a
       * scalar product and a term that does not change when the block
       * moves, so a loop adds to its addresses instead of multiplying
       * each again (the 64-bit multiply does not strength-reduce through
       * the sign extension of a 32-bit offset) */
      fe_val st = to_i64(l, *stride, loc);
      term = fe_binary(l, FE_OP_ADD, fe_binary(l, FE_OP_MUL, range, st, loc),
                       fe_binary(l, FE_OP_MUL, off, st, loc), loc);
    }
    for (int k = 0; k < rank; k++) /* along axis d of the rank-r block */
      if (k != d) {
        idx = fe_expand_dims(l, idx, k, loc);
        term = fe_expand_dims(l, term, k, loc);
      }
    if (idx.kind == FE_V_ERROR) return idx;
    if (term.kind == FE_V_ERROR) return term;
    ptr = fe_binary(l, FE_OP_ADD, ptr, term, loc);
    if (ptr.kind == FE_V_ERROR) return ptr;
    if (!checked[d]) continue;
    fe_val in = fe_binary(l, FE_OP_AND, fe_binary(l, FE_OP_GE, idx, fe_val_int(0), loc),
                          fe_binary(l, FE_OP_LT, idx, to_i64(l, shape->items[d], loc), loc), loc);
    *mask = mask->kind == FE_V_NONE ? in : fe_binary(l, FE_OP_AND, *mask, in, loc);
    if (mask->kind == FE_V_ERROR) return *mask;
  }
  return ptr;
}

/* The dims a boundary_check names (None or () checks none). */
static bool checked_dims(fe_lower *l, fe_val v, ir_loc loc, int rank, bool *checked) {
  for (int d = 0; d < rank; d++)
    checked[d] = false;
  if (v.kind == FE_V_NONE) return true;
  fe_val *items = &v;
  int n = 1;
  if (v.kind == FE_V_TUPLE || v.kind == FE_V_LIST) {
    items = v.kind == FE_V_TUPLE ? v.items : v.obj->items;
    n = v.kind == FE_V_TUPLE ? v.n : v.obj->n;
  }
  for (int i = 0; i < n; i++) {
    if (items[i].kind != FE_V_INT || items[i].ival < -rank || items[i].ival >= rank) {
      fe_error(l, loc, "boundary_check entries must be dimensions of the block (0..%d)", rank - 1);
      return false;
    }
    checked[(items[i].ival + rank) % rank] = true;
  }
  return true;
}

/* The `other` of a padded load: "zero", "nan", or none. */
static bool padding_other(fe_lower *l, fe_val pad, ir_loc loc, fe_val *other) {
  *other = fe_val_none();
  if (pad.kind == FE_V_NONE || (pad.kind == FE_V_STR && !pad.path[0])) return true;
  if (pad.kind == FE_V_STR && !strcmp(pad.path, "zero"))
    *other = fe_val_int(0);
  else if (pad.kind == FE_V_STR && !strcmp(pad.path, "nan"))
    *other = fe_val_float(NAN);
  else
    return fe_error(l, loc, "padding_option must be \"zero\" or \"nan\""), false;
  return true;
}

/* tl.load(block_ptr, ...): a = (pointer, mask, other, boundary_check,
 * padding_option, cache_modifier, eviction_policy, volatile). */
fe_val fe_blockptr_load(fe_lower *l, fe_val *a, ir_loc *locs, const fe_args *args) {
  const fe_val *bp = &a[0];
  if (strcmp(bp->path, "block_ptr") != 0)
    return fe_error(l, locs[0], "'tl.load' of a '%s' (use desc.load)", bp->path);
  if (a[1].kind != FE_V_NONE || a[2].kind != FE_V_NONE)
    return fe_error(l, args->loc, "'mask' and 'other' cannot be given with a block pointer");
  bool checked[IR_MAX_RANK];
  fe_val mask, other;
  if (!checked_dims(l, a[3], locs[3], bp->items[BP_BLOCK].n, checked) ||
      !padding_other(l, a[4], locs[4], &other))
    return fe_val_error();
  fe_val ptr =
      block_pointers(l, bp->items[BP_BASE], &bp->items[BP_SHAPE], &bp->items[BP_STRIDES],
                     &bp->items[BP_OFFSETS], &bp->items[BP_BLOCK], checked, &mask, args->loc);
  if (ptr.kind == FE_V_ERROR) return ptr;
  a[0] = ptr;
  a[1] = mask;
  a[2] = mask.kind == FE_V_NONE ? fe_val_none() : other;
  a[3] = a[4] = fe_val_none();
  return fe_call_load_store(l, "tl.load", a, locs, args);
}

/* tl.store(block_ptr, value, mask, boundary_check, cache_modifier, eviction_policy) */
fe_val fe_blockptr_store(fe_lower *l, fe_val *a, ir_loc *locs, const fe_args *args) {
  const fe_val *bp = &a[0];
  if (strcmp(bp->path, "block_ptr") != 0)
    return fe_error(l, locs[0], "'tl.store' to a '%s' (use desc.store)", bp->path);
  if (a[2].kind != FE_V_NONE)
    return fe_error(l, locs[2], "'mask' cannot be given with a block pointer");
  bool checked[IR_MAX_RANK];
  fe_val mask;
  if (!checked_dims(l, a[3], locs[3], bp->items[BP_BLOCK].n, checked)) return fe_val_error();
  fe_val ptr =
      block_pointers(l, bp->items[BP_BASE], &bp->items[BP_SHAPE], &bp->items[BP_STRIDES],
                     &bp->items[BP_OFFSETS], &bp->items[BP_BLOCK], checked, &mask, args->loc);
  if (ptr.kind == FE_V_ERROR) return ptr;
  a[0] = ptr;
  a[2] = mask;
  a[3] = fe_val_none();
  return fe_call_load_store(l, "tl.store", a, locs, args);
}

/* ---- tensor descriptors ------------------------------------------------------------------ */

/* tl.make_tensor_descriptor(base, shape, strides, block_shape, padding_option) */
static fe_val b_make_tensor_descriptor(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                                       const fe_args *args) {
  if (!scalar_pointer(l, &a[0], locs[0], "tl.make_tensor_descriptor")) return fe_val_error();
  fe_val td = make_struct(l, "tensor_desc", TD_N, TD_BLOCK);
  td.items[TD_BASE] = a[0];
  if (!seq_arg(l, a[3], locs[3], "block_shape", -1, &td.items[TD_BLOCK])) return fe_val_error();
  int rank = td.items[TD_BLOCK].n, r2;
  int64_t shape[IR_MAX_RANK];
  if (!fe_const_shape(l, td.items[TD_BLOCK], locs[3], &r2, shape) ||
      !seq_arg(l, a[1], locs[1], "shape", rank, &td.items[TD_SHAPE]) ||
      !seq_arg(l, a[2], locs[2], "strides", rank, &td.items[TD_STRIDES]))
    return fe_val_error();
  /* Triton's rules for a descriptor (its semantic checks): a last stride of
   * 1, known when the kernel is compiled, and 16 bytes or more of a row */
  const fe_val *last = &td.items[TD_STRIDES].items[rank - 1];
  if (last->kind != FE_V_INT || last->ival != 1) {
    if (last->kind == FE_V_INT)
      fe_error(l, locs[2], "Tensor descriptor last dim must be 1 but got %lld",
               (long long)last->ival);
    else
      fe_error(l, locs[2], "Tensor descriptor last dim must be 1, a constant, but got a runtime %s",
               fe_val_type_str(l, last));
    return fe_val_error();
  }
  const ir_type *elem = ir_type_scalar(a[0].v->type)->elem;
  int64_t row = shape[rank - 1] * (int64_t)ir_type_bytes(elem);
  if (row < 16) {
    fe_error(l, locs[3],
             "Descriptor block shape must have at least 16 bytes in the last dimension, but got "
             "%lld * %u = %lld bytes",
             (long long)shape[rank - 1], ir_type_bytes(elem), (long long)row);
    return fe_val_error();
  }
  td.items[TD_PADDING] = a[4].kind == FE_V_NONE ? fe_val_str(l, "zero") : a[4];
  return td;
}

fe_val fe_tensor_desc(fe_lower *l, fe_val base, int rank, const fe_val *shape,
                      const fe_val *strides, const int64_t *block) {
  fe_val td = make_struct(l, "tensor_desc", TD_N, TD_BLOCK);
  td.items[TD_BASE] = base;
  td.items[TD_SHAPE] = tuple_of(l, rank);
  td.items[TD_STRIDES] = tuple_of(l, rank);
  td.items[TD_BLOCK] = tuple_of(l, rank);
  for (int i = 0; i < rank; i++) {
    td.items[TD_SHAPE].items[i] = shape[i];
    td.items[TD_STRIDES].items[i] = strides[i];
    td.items[TD_BLOCK].items[i] = fe_val_int(block[i]);
  }
  td.items[TD_PADDING] = fe_val_str(l, "zero");
  return td;
}

/* desc.load(offsets) / desc.store(offsets, value): the block at `offsets`,
 * every dimension bounds-checked (out-of-range elements read as padding). */
static fe_val b_desc_access(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                            const fe_args *args) {
  const fe_val *td = &a[0];
  bool is_store = !strcmp(name, "desc.store");
  fe_val offs;
  int rank = td->items[TD_BLOCK].n;
  if (!seq_arg(l, a[1], locs[1], "offsets", rank, &offs)) return fe_val_error();
  bool checked[IR_MAX_RANK];
  for (int d = 0; d < rank; d++)
    checked[d] = true;
  fe_val mask, other;
  if (!padding_other(l, td->items[TD_PADDING], locs[0], &other)) return fe_val_error();
  fe_val ptr = block_pointers(l, td->items[TD_BASE], &td->items[TD_SHAPE], &td->items[TD_STRIDES],
                              &offs, &td->items[TD_BLOCK], checked, &mask, args->loc);
  if (ptr.kind == FE_V_ERROR) return ptr;
  fe_val b[FE_MAXP];
  ir_loc bl[FE_MAXP];
  for (int i = 0; i < FE_MAXP; i++)
    b[i] = fe_val_none(), bl[i] = args->loc;
  b[0] = ptr;
  if (is_store) {
    b[1] = a[2];
    bl[1] = locs[2];
    b[2] = mask;
    return fe_call_load_store(l, "tl.store", b, bl, args);
  }
  b[1] = mask;
  b[2] = other;
  return fe_call_load_store(l, "tl.load", b, bl, args);
}

fe_val fe_struct_attr(fe_lower *l, fe_val v, const char *name, ir_loc loc) {
  bool is_desc = !strcmp(v.path, "tensor_desc");
  if (is_desc && (!strcmp(name, "load") || !strcmp(name, "store"))) {
    char buf[32];
    snprintf(buf, sizeof buf, "desc.%s", name);
    return fe_val_method(l, buf, v);
  }
  if (!is_desc && !strcmp(name, "advance")) return fe_val_method(l, "tl.advance", v);
  if (!strcmp(name, "block_shape")) return v.items[is_desc ? TD_BLOCK : BP_BLOCK];
  if (!strcmp(name, "shape")) return v.items[is_desc ? TD_SHAPE : BP_SHAPE];
  if (!strcmp(name, "strides")) return v.items[is_desc ? TD_STRIDES : BP_STRIDES];
  if (!strcmp(name, "base")) return v.items[0];
  if (!strcmp(name, "dtype")) {
    /* a descriptor's dtype is its element type; a block pointer's is a
     * pointer type (p.dtype.element_ty is the element, as in Triton) */
    fe_val d = fe_val_error();
    d.kind = FE_V_DTYPE;
    d.ty = ir_type_scalar(v.items[0].v->type);
    if (is_desc) d.ty = d.ty->elem;
    d.is_unsigned = v.items[0].is_unsigned;
    return d;
  }
  return fe_error(l, loc, "'%s' has no attribute '%s'", v.path, name);
}

#define P(...)                                                                                     \
  { __VA_ARGS__ }
const fe_builtin fe_blockptr_builtins[] = {
    {"tl.make_block_ptr", b_make_block_ptr, 6,
     P("base", "shape", "strides", "offsets", "block_shape", "order")},
    {"tl.advance", b_advance, 2, P("base", "offsets")},
    {"tl.make_tensor_descriptor", b_make_tensor_descriptor, 4,
     P("base", "shape", "strides", "block_shape", "padding_option")},
    {"desc.load", b_desc_access, 2, P("self", "offsets")},
    {"desc.store", b_desc_access, 3, P("self", "offsets", "value")},
    {NULL, NULL, 0, P(NULL)},
};
#undef P
