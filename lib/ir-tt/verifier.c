// SPDX-License-Identifier: MIT
/* verifier.c - structural checks between passes.
 *
 * Checks arity against ops.def, region counts and terminators of the
 * region-holding ops, operand and result types of the ops that define them,
 * tensor shape agreement of elementwise ops, and that every operand is
 * defined before its use in the same block or an enclosing one. Errors are
 * located at the op and phrased as MLIR's: `'arith.addi' op ...`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir-tt/ir.h"

typedef struct verifier {
  ir_context *ctx;
  /* Values visible at the current point: a stack, popped when a block ends. */
  const ir_value **visible;
  size_t nvisible, cap;
  bool ok;
  /* Where each value was pushed: an open-addressing table value -> stack
   * index, never shrunk. An entry is current when the stack still holds the
   * value at that index (values are pushed once: SSA), so popping needs no
   * deletion and a lookup is O(1) however many values are in scope. */
  const ir_value **hkeys;
  size_t *hidx;
  size_t hcap, hcount;
  size_t floor; /* values below this index belong outside the current tt.func */
} verifier;

/* Records v at stack index i (replacing an older entry of v). */
static void index_put(verifier *vf, const ir_value *v, size_t i) {
  if (2 * (vf->hcount + 1) > vf->hcap) {
    size_t ncap = vf->hcap ? vf->hcap * 2 : 1024;
    const ir_value **keys = calloc(ncap, sizeof *keys);
    size_t *idx = malloc(ncap * sizeof *idx);
    if (!keys || !idx) IR_UNREACHABLE("out of memory in the verifier");
    for (size_t j = 0; j < vf->hcap; j++) {
      if (!vf->hkeys[j]) continue;
      size_t h = ir_ptr_slot(vf->hkeys[j], ncap);
      while (keys[h])
        h = (h + 1) & (ncap - 1);
      keys[h] = vf->hkeys[j];
      idx[h] = vf->hidx[j];
    }
    free(vf->hkeys);
    free(vf->hidx);
    vf->hkeys = keys;
    vf->hidx = idx;
    vf->hcap = ncap;
  }
  size_t h = ir_ptr_slot(v, vf->hcap);
  while (vf->hkeys[h] && vf->hkeys[h] != v)
    h = (h + 1) & (vf->hcap - 1);
  if (!vf->hkeys[h]) vf->hcount++;
  vf->hkeys[h] = v;
  vf->hidx[h] = i;
}

static void v_error(verifier *vf, const ir_op *op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Emits "'<op name>' op <message>" at the op's location. */
static void v_error(verifier *vf, const ir_op *op, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ir_error(vf->ctx, op->loc, "'%s' op %s", ir_op_name(op), msg);
  vf->ok = false;
}
#define V_ERR(vf, op, msg) v_error((vf), (op), "%s", msg)

static void push_visible(verifier *vf, const ir_value *v) {
  if (vf->nvisible == vf->cap) {
    vf->cap = vf->cap ? vf->cap * 2 : 256;
    vf->visible = realloc(vf->visible, vf->cap * sizeof *vf->visible);
    if (!vf->visible) IR_UNREACHABLE("out of memory in the verifier");
  }
  index_put(vf, v, vf->nvisible);
  vf->visible[vf->nvisible++] = v;
}

/* Visible: on the stack (its recorded index still holds it) and not from
 * outside the enclosing function. */
static bool is_visible(const verifier *vf, const ir_value *v) {
  if (!vf->hcap) return false;
  size_t h = ir_ptr_slot(v, vf->hcap);
  while (vf->hkeys[h] && vf->hkeys[h] != v)
    h = (h + 1) & (vf->hcap - 1);
  if (!vf->hkeys[h]) return false;
  size_t i = vf->hidx[h];
  return i >= vf->floor && i < vf->nvisible && vf->visible[i] == v;
}

/* The largest tensor any input may hold (docs/ir.md, docs/language.md):
 * bigger tiles would only exhaust memory in codegen. */
static void check_tile_size(verifier *vf, const ir_op *op, const ir_type *t, const char *what,
                            int i) {
  if (!t || !ir_type_is_tensor(t)) return;
  int64_t n = 1;
  for (int d = 0; d < t->rank; d++) {
    if (t->shape[d] <= 0) return; /* shape errors are reported elsewhere */
    n = t->shape[d] > IR_MAX_TILE_ELEMS / n ? IR_MAX_TILE_ELEMS + 1 : n * t->shape[d];
  }
  if (n > IR_MAX_TILE_ELEMS)
    v_error(vf, op, "%s #%d is a tensor of more than the limit of %lld (2^20) elements", what, i,
            (long long)IR_MAX_TILE_ELEMS);
}

static bool same_shape(const ir_type *a, const ir_type *b) {
  if (ir_type_is_tensor(a) != ir_type_is_tensor(b)) return false;
  if (!ir_type_is_tensor(a)) return true;
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i]) return false;
  return true;
}

/* Operands and results of an elementwise op: same shape and encoding. The
 * condition of arith.select may be a scalar. */
static void check_elementwise(verifier *vf, const ir_op *op) {
  const ir_type *ref = NULL;
  int n = op->noperands + op->nresults;
  for (int i = 0; i < n; i++) {
    const ir_value *v = i < op->noperands ? op->operands[i] : &op->results[i - op->noperands];
    if (!v) continue;
    if (op->kind == IR_OP_ARITH_SELECT && i == 0 && !ir_type_is_tensor(v->type)) continue;
    if (!ref) {
      ref = v->type;
    } else if (!same_shape(ref, v->type)) {
      V_ERR(vf, op, "requires the same shape for all operands and results");
      return;
    } else if (ir_type_is_tensor(ref) && ref->layout != v->type->layout) {
      V_ERR(vf, op, "requires the same encoding for all operands and results");
      return;
    }
  }
}

/* Binary ops whose operands and result all have one type. */
static void check_same_types(verifier *vf, const ir_op *op) {
  for (int i = 0; i < op->noperands; i++) {
    if (op->operands[i] && op->operands[i]->type != op->results[0].type) {
      v_error(vf, op,
              "requires all operands and results to have the same type, operand #%d "
              "differs",
              i);
      return;
    }
  }
}

static void check_terminator(verifier *vf, const ir_op *op, const ir_region *r, ir_op_kind want) {
  for (const ir_block *b = r->first; b; b = b->next) {
    if (!b->last || b->last->kind != want)
      v_error(vf, op, "expects its region to end with '%s'", ir_op_kind_info(want)->name);
  }
}

static int64_t numel_of(const ir_type *t) {
  int64_t n = 1;
  for (int i = 0; ir_type_is_tensor(t) && i < t->rank; i++)
    n *= t->shape[i];
  return n;
}

static bool is_i1(const ir_type *t) {
  const ir_type *s = ir_type_scalar(t);
  return s->kind == IR_TY_INT && s->width == 1;
}

/* The "axis" of a reduce or scan names a dimension of its operand. */
static void check_axis(verifier *vf, const ir_op *op, const ir_value *x) {
  int rank = ir_type_is_tensor(x->type) ? x->type->rank : 0;
  int64_t axis = ir_op_get_int(op, "axis", 0);
  if (axis < 0 || axis >= rank)
    v_error(vf, op, "axis %lld is out of range for an operand of rank %d", (long long)axis, rank);
}

/* Shape ops: the result shape must follow from the operand's, since codegen
 * and the interpreter index with these shapes (and the trans order). */
static bool shape_op_types(verifier *vf, const ir_op *op, const ir_type **in, const ir_type **out) {
  *in = op->operands[0]->type;
  *out = op->results[0].type;
  if (!ir_type_is_tensor(*in) || !ir_type_is_tensor(*out)) {
    V_ERR(vf, op, "requires tensor operand and result");
    return false;
  }
  if (ir_type_scalar(*in) != ir_type_scalar(*out)) {
    V_ERR(vf, op, "requires the operand's element type in the result");
    return false;
  }
  return true;
}

static void check_broadcast(verifier *vf, const ir_op *op) {
  const ir_type *in, *out;
  if (!shape_op_types(vf, op, &in, &out)) return;
  if (in->rank != out->rank) {
    V_ERR(vf, op, "requires operand and result of one rank");
    return;
  }
  for (int i = 0; i < in->rank; i++)
    if (in->shape[i] != out->shape[i] && in->shape[i] != 1)
      v_error(vf, op, "cannot broadcast dimension %d from %lld to %lld", i, (long long)in->shape[i],
              (long long)out->shape[i]);
}

static void check_expand_dims(verifier *vf, const ir_op *op) {
  const ir_type *in, *out;
  if (!shape_op_types(vf, op, &in, &out)) return;
  int64_t axis = ir_op_get_int(op, "axis", 0);
  bool ok = out->rank == in->rank + 1 && axis >= 0 && axis <= in->rank && out->shape[axis] == 1;
  for (int i = 0, j = 0; ok && i < out->rank; i++)
    if (i != axis && out->shape[i] != in->shape[j++]) ok = false;
  if (!ok) V_ERR(vf, op, "result must be the operand's shape with a 1 inserted at 'axis'");
}

/* An 'order' attribute permuting the operand's dims into the result's
 * (tt.trans on tensors, ttg.memdesc_trans on shared buffers). */
static void check_permutation(verifier *vf, const ir_op *op, const ir_type *in,
                              const ir_type *out) {
  const ir_attr *ord = ir_op_get_attr(op, "order");
  bool ok = ord && ord->kind == IR_ATTR_ARRAY && ord->n == in->rank && out->rank == in->rank;
  unsigned seen = 0;
  for (int i = 0; ok && i < in->rank; i++) {
    int64_t k = ord->ints[i];
    ok = k >= 0 && k < in->rank && !((seen >> k) & 1u) && out->shape[i] == in->shape[k];
    if (ok) seen |= 1u << k;
  }
  if (!ok) V_ERR(vf, op, "requires an 'order' permuting the operand's dimensions into the result");
}

/* A shared-memory buffer operand (#i) of the op. */
static bool memdesc_operand(verifier *vf, const ir_op *op, int i) {
  if (i < op->noperands && ir_type_is_memdesc(op->operands[i]->type)) return true;
  v_error(vf, op, "operand #%d must be a shared-memory descriptor", i);
  return false;
}

/* A tensor and a buffer of one shape and element type. */
static void check_tensor_buffer(verifier *vf, const ir_op *op, const ir_type *t,
                                const ir_type *buf) {
  bool ok = ir_type_is_tensor(t) && ir_type_is_memdesc(buf) && t->rank == buf->rank &&
            t->elem == buf->elem;
  for (int i = 0; ok && i < t->rank; i++)
    ok = t->shape[i] == buf->shape[i];
  if (!ok) V_ERR(vf, op, "requires a tensor and a buffer of one shape and element type");
}

static void check_dot(verifier *vf, const ir_op *op) {
  const ir_type *a = op->operands[0]->type, *b = op->operands[1]->type;
  const ir_type *c = op->operands[2]->type, *d = op->results[0].type;
  bool shaped = (ir_type_is_tensor(a) || ir_type_is_memdesc(a)) &&
                (ir_type_is_tensor(b) || ir_type_is_memdesc(b)) && ir_type_is_tensor(c);
  if (!shaped || a->rank != 2 || b->rank != 2 || c->rank != 2) {
    V_ERR(vf, op, "requires rank-2 operands");
    return;
  }
  if (a->shape[1] != b->shape[0] || c->shape[0] != a->shape[0] || c->shape[1] != b->shape[1])
    V_ERR(vf, op, "requires A (M x K), B (K x N) and an accumulator of M x N");
  if (c != d) V_ERR(vf, op, "result must have the accumulator's type");
}

/* The arith casts: int or float on each side as the op's name says, and a
 * strictly wider (ext) or narrower (trunc) result; codegen and the
 * interpreter size and convert by these types. */
static void check_cast(verifier *vf, const ir_op *op) {
  const ir_type *a = ir_type_scalar(op->operands[0]->type),
                *b = ir_type_scalar(op->results[0].type);
  bool ai = a->kind == IR_TY_INT, af = a->kind == IR_TY_FLOAT;
  bool bi = b->kind == IR_TY_INT, bf = b->kind == IR_TY_FLOAT;
  const char *want = NULL;
  switch (op->kind) {
  case IR_OP_ARITH_EXTSI:
  case IR_OP_ARITH_EXTUI:
    if (!ai || !bi || b->width <= a->width) want = "an integer operand and a wider integer result";
    break;
  case IR_OP_ARITH_TRUNCI:
    if (!ai || !bi || b->width >= a->width)
      want = "an integer operand and a narrower integer result";
    break;
  case IR_OP_ARITH_EXTF:
    if (!af || !bf || b->width <= a->width) want = "a float operand and a wider float result";
    break;
  case IR_OP_ARITH_TRUNCF:
    if (!af || !bf || b->width >= a->width) want = "a float operand and a narrower float result";
    break;
  case IR_OP_ARITH_SITOFP:
  case IR_OP_ARITH_UITOFP:
    if (!ai || !bf) want = "an integer operand and a float result";
    break;
  default: /* fptosi, fptoui */
    if (!af || !bi) want = "a float operand and an integer result";
    break;
  }
  if (want) v_error(vf, op, "requires %s", want);
}

/* tt.join: x and y of one type side by side along a new minor axis of 2;
 * tt.split: the two halves of such a tensor, each of the input's shape
 * without that axis (a scalar from a 1-d input). */
static bool join_shapes(const ir_type *part, const ir_type *whole) {
  int rank = ir_type_is_tensor(part) ? part->rank : 0;
  if (!ir_type_is_tensor(whole) || whole->rank != rank + 1 || whole->shape[rank] != 2 ||
      ir_type_scalar(part) != ir_type_scalar(whole))
    return false;
  for (int i = 0; i < rank; i++)
    if (part->shape[i] != whole->shape[i]) return false;
  return true;
}

/* The i-th of the types carried values must have: those of `vals` (an
 * op's operands) when given, else those of `results`. */
static const ir_type *carried_type(ir_value *const *vals, const ir_value *results, int i) {
  return vals ? vals[i]->type : results[i].type;
}

/* The values a region's terminator passes on (a yield's, a condition's after
 * its i1) against the types they must have (carried_type); codegen joins
 * them into one LLVM value (a phi). */
static void check_passed(verifier *vf, const ir_op *op, const ir_region *r, int skip,
                         ir_value *const *vals, const ir_value *results, int n, const char *what) {
  const ir_block *b = r->first;
  const ir_op *t = b ? b->last : NULL;
  if (!t || !(ir_op_info_of(t)->traits & IR_T_TERMINATOR)) return; /* reported elsewhere */
  if (t->noperands - skip != n) {
    if (t->kind != IR_OP_TT_RETURN)
      v_error(vf, op, "expects its %s to pass %d values, got %d", what, n, t->noperands - skip);
    return;
  }
  for (int i = 0; i < n; i++) {
    if (t->operands[skip + i] && t->operands[skip + i]->type != carried_type(vals, results, i)) {
      v_error(vf, op, "%s value #%d does not have the type it is carried as", what, i);
      return;
    }
  }
}

/* Block arguments against the types of the values they receive. */
static void check_args(verifier *vf, const ir_op *op, const ir_block *b, int first,
                       ir_value *const *vals, const ir_value *results, int n) {
  for (int i = 0; i < n && first + i < b->nargs; i++) {
    if (b->args[first + i]->type != carried_type(vals, results, i)) {
      v_error(vf, op, "block argument #%d does not have the type of the value it receives",
              first + i);
      return;
    }
  }
}

/* A reduction's result: its operand's shape without the axis (a scalar from
 * a 1-d operand), its element type; a scan's result: its operand's type. */
static bool reduced_type(const ir_type *in, const ir_type *out, int64_t axis) {
  if (ir_type_scalar(in) != ir_type_scalar(out) || !ir_type_is_tensor(in)) return false;
  if (in->rank == 1) return !ir_type_is_tensor(out);
  if (!ir_type_is_tensor(out) || out->rank != in->rank - 1) return false;
  for (int i = 0, j = 0; i < in->rank; i++)
    if (i != axis && in->shape[i] != out->shape[j++]) return false;
  return true;
}

/* The combiner of a reduce or scan: a block of 2 x N scalars of the
 * operands' element types, returning N of them. */
static void check_combiner(verifier *vf, const ir_op *op) {
  const ir_block *b = op->regions[0].first;
  int n = op->noperands;
  if (b->nargs != 2 * n) {
    v_error(vf, op, "expects a combiner of %d arguments, got %d", 2 * n, b->nargs);
    return;
  }
  for (int i = 0; i < 2 * n; i++)
    if (b->args[i]->type != ir_type_scalar(op->operands[i % n]->type)) {
      v_error(vf, op, "combiner argument #%d must have its operand's element type", i);
      return;
    }
  const ir_op *t = b->last;
  if (!t || t->noperands != n) {
    v_error(vf, op, "expects its combiner to return %d values", n);
    return;
  }
  for (int i = 0; i < n; i++)
    if (t->operands[i] && t->operands[i]->type != b->args[i]->type) {
      v_error(vf, op, "combiner value #%d must have its operand's element type", i);
      return;
    }
}

/* Per-rule checks beyond arity and traits: a switch over the typing rules
 * of ops.def, not over op kinds. */
static void check_rule(verifier *vf, const ir_op *op) {
  ir_value *const *o = op->operands;
  switch (ir_op_info_of(op)->rule) {
  case IR_RULE_NONE: return;
  case IR_RULE_INT_SAME:
    check_same_types(vf, op);
    if (!ir_type_is_int(op->results[0].type)) V_ERR(vf, op, "requires integer operands");
    return;
  case IR_RULE_FLOAT_SAME:
    check_same_types(vf, op);
    if (!ir_type_is_float(op->results[0].type)) V_ERR(vf, op, "requires floating-point operands");
    return;
  case IR_RULE_CMP:
    if (o[0] && o[1] && o[0]->type != o[1]->type) V_ERR(vf, op, "requires operands of one type");
    if (!ir_op_get_attr(op, "predicate")) V_ERR(vf, op, "requires attribute 'predicate'");
    if (!is_i1(op->results[0].type)) V_ERR(vf, op, "result must be i1 or a tensor of i1");
    return;
  case IR_RULE_SELECT:
    if (o[1] && o[2] && (o[1]->type != o[2]->type || o[1]->type != op->results[0].type))
      V_ERR(vf, op, "requires true and false values of the result type");
    return;
  case IR_RULE_CONSTANT: {
    const ir_attr *a = ir_op_get_attr(op, "value");
    if (!a) {
      V_ERR(vf, op, "requires attribute 'value'");
    } else if ((a->kind == IR_ATTR_DENSE || a->kind == IR_ATTR_INT || a->kind == IR_ATTR_FLOAT) &&
               a->type != op->results[0].type) {
      V_ERR(vf, op, "value type does not match the result type");
    }
    return;
  }
  case IR_RULE_MAKE_RANGE: {
    int64_t start = ir_op_get_int(op, "start", 0), end = ir_op_get_int(op, "end", 0);
    const ir_type *t = op->results[0].type;
    if (end <= start)
      V_ERR(vf, op, "requires end > start");
    else if (!ir_type_is_tensor(t) || t->rank != 1 || t->shape[0] != end - start)
      V_ERR(vf, op, "result must be a 1-d tensor of end - start elements");
    else if (ir_type_scalar(t)->kind != IR_TY_INT || ir_type_scalar(t)->width != 32)
      V_ERR(vf, op, "returned tensor must have i32 elements"); /* as Triton's */
    return;
  }
  case IR_RULE_SPLAT:
    if (o[0] && (ir_type_is_tensor(o[0]->type) || !ir_type_is_tensor(op->results[0].type) ||
                 ir_type_scalar(op->results[0].type) != o[0]->type))
      V_ERR(vf, op, "requires a scalar operand and a tensor of its type");
    return;
  case IR_RULE_ADDPTR:
    if (o[0] && !ir_type_is_ptr(o[0]->type)) V_ERR(vf, op, "operand #0 must be a pointer");
    if (o[1] && !ir_type_is_int(o[1]->type)) V_ERR(vf, op, "operand #1 must be an integer");
    if (o[0] && o[0]->type != op->results[0].type)
      V_ERR(vf, op, "result type must match the pointer type");
    return;
  case IR_RULE_MEM: {
    if (!o[0] || !ir_type_is_ptr(o[0]->type) || ir_type_is_memdesc(o[0]->type)) {
      V_ERR(vf, op, "operand #0 must be a pointer or a tensor of pointers");
      return;
    }
    const ir_type *pointee = ir_type_scalar(o[0]->type)->elem;
    const ir_value *val = op->kind == IR_OP_TT_LOAD ? &op->results[0] : o[1];
    const ir_value *mask = op->kind == IR_OP_TT_LOAD ? (op->noperands > 1 ? o[1] : NULL)
                                                     : (op->noperands > 2 ? o[2] : NULL);
    if (val && (ir_type_scalar(val->type) != pointee || !same_shape(val->type, o[0]->type)))
      V_ERR(vf, op, "value type must be the pointee type, in the pointer's shape");
    if (mask && (!same_shape(mask->type, o[0]->type) || !is_i1(mask->type)))
      V_ERR(vf, op, "mask must be i1 in the pointer's shape");
    if (op->kind == IR_OP_TT_LOAD && op->noperands > 2 && o[2] && o[2]->type != val->type)
      V_ERR(vf, op, "'other' must have the result type");
    return;
  }
  case IR_RULE_FUNC:
    if (op->nregions != 1 || !op->regions[0].first)
      V_ERR(vf, op, "requires a body");
    else
      check_terminator(vf, op, &op->regions[0], IR_OP_TT_RETURN);
    return;
  case IR_RULE_FOR: {
    const ir_block *body = op->nregions == 1 ? op->regions[0].first : NULL;
    int ninits = op->noperands - 3;
    if (!body) {
      V_ERR(vf, op, "requires a body");
      return;
    }
    if (o[0] && o[1] && o[2] && (o[0]->type != o[1]->type || o[0]->type != o[2]->type))
      V_ERR(vf, op, "requires lower bound, upper bound and step of one type");
    if (op->nresults != ninits || body->nargs != ninits + 1)
      v_error(vf, op, "expects %d results and %d block arguments", ninits, ninits + 1);
    if (body->last && body->last->kind == IR_OP_SCF_YIELD && body->last->noperands != ninits &&
        (ninits > 0 || body->last->noperands > 0))
      v_error(vf, op, "expects its yield to carry %d values", ninits);
    if (ninits > 0) check_terminator(vf, op, &op->regions[0], IR_OP_SCF_YIELD);
    if (op->nresults != ninits || body->nargs != ninits + 1) return;
    if (o[0] && body->args[0]->type != o[0]->type)
      V_ERR(vf, op, "induction variable must have the bounds' type");
    check_args(vf, op, body, 1, o + 3, NULL, ninits);
    for (int i = 0; i < ninits; i++)
      if (o[3 + i] && o[3 + i]->type != op->results[i].type) {
        v_error(vf, op, "result #%d must have its initial value's type", i);
        return;
      }
    if (body->last && body->last->kind == IR_OP_SCF_YIELD && body->last->noperands == ninits)
      check_passed(vf, op, &op->regions[0], 0, NULL, op->results, ninits, "yield");
    return;
  }
  case IR_RULE_IF:
    if (op->nregions != 2 || !op->regions[0].first)
      V_ERR(vf, op, "requires then and else regions");
    else if (o[0] && o[0]->type->kind != IR_TY_INT)
      V_ERR(vf, op, "condition must be i1");
    else if (op->nresults > 0) {
      if (!op->regions[1].first) V_ERR(vf, op, "with results requires an else region");
      for (int i = 0; i < 2; i++)
        if (op->regions[i].first) check_terminator(vf, op, &op->regions[i], IR_OP_SCF_YIELD);
      for (int i = 0; i < 2; i++)
        if (op->regions[i].first)
          check_passed(vf, op, &op->regions[i], 0, NULL, op->results, op->nresults, "yield");
    }
    return;
  case IR_RULE_WHILE:
    if (op->nregions != 2 || !op->regions[0].first || !op->regions[1].first) {
      V_ERR(vf, op, "requires before and after regions");
      return;
    }
    check_terminator(vf, op, &op->regions[0], IR_OP_SCF_CONDITION);
    check_terminator(vf, op, &op->regions[1], IR_OP_SCF_YIELD);
    {
      const ir_block *before = op->regions[0].first, *after = op->regions[1].first;
      if (before->nargs != op->noperands || after->nargs != op->nresults) {
        v_error(vf, op, "expects %d before and %d after arguments", op->noperands, op->nresults);
        return;
      }
      check_args(vf, op, before, 0, o, NULL, op->noperands);
      check_args(vf, op, after, 0, NULL, op->results, op->nresults);
      if (before->last && before->last->kind == IR_OP_SCF_CONDITION)
        check_passed(vf, op, &op->regions[0], 1, NULL, op->results, op->nresults, "condition");
      if (after->last && after->last->kind == IR_OP_SCF_YIELD)
        check_passed(vf, op, &op->regions[1], 0, o, NULL, op->noperands, "yield");
    }
    return;
  case IR_RULE_REDUCE:
  case IR_RULE_SCAN: {
    ir_op_kind ret = op->kind == IR_OP_TT_SCAN ? IR_OP_TT_SCAN_RETURN : IR_OP_TT_REDUCE_RETURN;
    if (op->nregions != 1 || !op->regions[0].first) {
      V_ERR(vf, op, "requires a combiner region");
      return;
    }
    check_terminator(vf, op, &op->regions[0], ret);
    check_axis(vf, op, o[0]);
    int64_t axis = ir_op_get_int(op, "axis", 0);
    if (op->nresults != op->noperands) {
      V_ERR(vf, op, "requires one result per operand");
      return;
    }
    for (int i = 0; i < op->noperands; i++) {
      bool ok = op->kind == IR_OP_TT_SCAN ? o[i]->type == op->results[i].type
                                          : reduced_type(o[i]->type, op->results[i].type, axis);
      if (!ok || !same_shape(o[i]->type, o[0]->type)) {
        v_error(vf, op, "result #%d does not have the %stype of operand #%d", i,
                op->kind == IR_OP_TT_SCAN ? "" : "reduced ", i);
        return;
      }
    }
    if (op->regions[0].first->last && op->regions[0].first->last->kind == ret)
      check_combiner(vf, op);
    return;
  }
  case IR_RULE_BROADCAST: check_broadcast(vf, op); return;
  case IR_RULE_EXPAND_DIMS: check_expand_dims(vf, op); return;
  case IR_RULE_RESHAPE: {
    const ir_type *in, *out;
    if (shape_op_types(vf, op, &in, &out) && numel_of(in) != numel_of(out))
      V_ERR(vf, op, "requires as many elements in the result");
    return;
  }
  case IR_RULE_TRANS: {
    const ir_type *in, *out;
    if (shape_op_types(vf, op, &in, &out)) check_permutation(vf, op, in, out);
    return;
  }
  case IR_RULE_ASSERT:
    if (!is_i1(o[0]->type)) V_ERR(vf, op, "condition must be i1 or a tensor of i1");
    return;
  case IR_RULE_BITCAST: {
    /* Same bits: pointer to pointer, or scalars of one width. */
    const ir_type *a = ir_type_scalar(o[0]->type), *b = ir_type_scalar(op->results[0].type);
    bool is_ptr = a->kind == IR_TY_PTR, ok = is_ptr == (b->kind == IR_TY_PTR);
    if (!same_shape(o[0]->type, op->results[0].type) || !ok || (!is_ptr && a->width != b->width))
      V_ERR(vf, op, "requires operand and result of one shape and element bit width");
    return;
  }
  case IR_RULE_DOT: check_dot(vf, op); return;
  case IR_RULE_CONVERT:
    if (!ir_type_is_tensor(o[0]->type) || !ir_type_is_tensor(op->results[0].type) ||
        ir_type_with_layout(vf->ctx, o[0]->type, op->results[0].type->layout) !=
            op->results[0].type)
      V_ERR(vf, op, "requires a tensor and a result differing only in layout");
    return;
  case IR_RULE_LOCAL_ALLOC: {
    const ir_type *r = op->results[0].type;
    if (!ir_type_is_memdesc(r))
      V_ERR(vf, op, "result must be a shared-memory descriptor");
    else if (op->noperands == 1)
      check_tensor_buffer(vf, op, o[0]->type, r);
    else if (!r->is_mutable)
      V_ERR(vf, op, "without a value requires a mutable buffer");
    return;
  }
  case IR_RULE_LOCAL_LOAD:
    if (memdesc_operand(vf, op, 0)) check_tensor_buffer(vf, op, op->results[0].type, o[0]->type);
    return;
  case IR_RULE_LOCAL_STORE:
    if (!memdesc_operand(vf, op, 1)) return;
    check_tensor_buffer(vf, op, o[0]->type, o[1]->type);
    if (!o[1]->type->is_mutable) V_ERR(vf, op, "requires a mutable buffer");
    return;
  case IR_RULE_MEMDESC_TRANS:
    if (!memdesc_operand(vf, op, 0)) return;
    if (!ir_type_is_memdesc(op->results[0].type) || op->results[0].type->elem != o[0]->type->elem)
      V_ERR(vf, op, "result must be a buffer of the operand's element type");
    else
      check_permutation(vf, op, o[0]->type, op->results[0].type);
    return;
  case IR_RULE_MEMDESC_INDEX: {
    if (!memdesc_operand(vf, op, 0)) return;
    const ir_type *in = o[0]->type, *out = op->results[0].type;
    bool ok = ir_type_is_memdesc(out) && out->rank == in->rank - 1 && out->elem == in->elem &&
              !ir_type_is_tensor(o[1]->type) && ir_type_is_int(o[1]->type);
    for (int i = 0; ok && i < out->rank; i++)
      ok = out->shape[i] == in->shape[i + 1];
    if (!ok) V_ERR(vf, op, "requires an integer index and a result of the buffer's trailing dims");
    return;
  }
  case IR_RULE_ASYNC_COPY: {
    if (!ir_type_is_ptr(o[0]->type) || !memdesc_operand(vf, op, 1)) {
      V_ERR(vf, op, "requires pointers and a shared-memory buffer");
      return;
    }
    const ir_type *p = o[0]->type, *buf = o[1]->type;
    bool ok = ir_type_is_tensor(p) && p->rank == buf->rank &&
              ir_type_scalar(p)->elem == buf->elem && buf->is_mutable;
    for (int i = 0; ok && i < p->rank; i++)
      ok = p->shape[i] == buf->shape[i];
    if (!ok) V_ERR(vf, op, "requires pointers to a mutable buffer's elements, in its shape");
    if (op->noperands > 2 && (!same_shape(o[2]->type, p) || !is_i1(o[2]->type)))
      V_ERR(vf, op, "mask must be i1 in the pointers' shape");
    if (ir_op_get_int(op, IR_BOUNDED_ATTR, 0) &&
        (op->noperands < 4 || !ir_op_get_attr(op, "contiguity") || !same_shape(o[3]->type, p) ||
         !ir_type_is_int(ir_type_scalar(o[3]->type)) || is_i1(o[3]->type)))
      V_ERR(vf, op,
            "a bounded copy needs a 'contiguity' and its count, integers in the pointers' shape");
    return;
  }
  case IR_RULE_TOKENS:
    for (int i = 0; i < op->noperands; i++)
      if (o[i]->type->kind != IR_TY_TOKEN) V_ERR(vf, op, "operands must be async tokens");
    if (op->results[0].type->kind != IR_TY_TOKEN) V_ERR(vf, op, "result must be an async token");
    return;
  case IR_RULE_SAME_AS_OPERANDS:
    if (op->nresults != op->noperands) V_ERR(vf, op, "requires one result per operand");
    for (int i = 0; i < op->nresults && i < op->noperands; i++)
      if (op->results[i].type != o[i]->type)
        v_error(vf, op, "result #%d must have its operand's type", i);
    return;
  case IR_RULE_EXTERN: {
    const ir_attr *sym = ir_op_get_attr(op, "symbol");
    if (!sym || sym->kind != IR_ATTR_STRING || !sym->s || !sym->s[0])
      V_ERR(vf, op, "requires a string attribute 'symbol'");
    return;
  }
  case IR_RULE_CAST: check_cast(vf, op); return;
  case IR_RULE_PROGRAM_ID: {
    const ir_type *t = op->results[0].type;
    if (t->kind != IR_TY_INT || t->width != 32) V_ERR(vf, op, "requires an i32 result");
    return;
  }
  case IR_RULE_PTR_INT: {
    const ir_type *p =
        ir_type_scalar(op->kind == IR_OP_TT_PTR_TO_INT ? o[0]->type : op->results[0].type);
    const ir_type *i =
        ir_type_scalar(op->kind == IR_OP_TT_PTR_TO_INT ? op->results[0].type : o[0]->type);
    if (p->kind != IR_TY_PTR || i->kind != IR_TY_INT || i->width != 64)
      V_ERR(vf, op, "requires pointers on one side and i64 on the other");
    return;
  }
  case IR_RULE_FP_TO_FP:
    if (!ir_type_is_float(o[0]->type) || !ir_type_is_float(op->results[0].type))
      V_ERR(vf, op, "requires a float operand and a float result");
    return;
  case IR_RULE_JOIN:
    if (o[0]->type != o[1]->type || !join_shapes(o[0]->type, op->results[0].type))
      V_ERR(vf, op, "requires two operands of one type and a result with a minor axis of 2 added");
    return;
  case IR_RULE_SPLIT:
    if (op->results[0].type != op->results[1].type || !join_shapes(op->results[0].type, o[0]->type))
      V_ERR(vf, op, "requires a tensor whose minor axis is 2 and two results without that axis");
    return;
  }
}

static void verify_op(verifier *vf, const ir_op *op);

static void verify_region(verifier *vf, const ir_region *r) {
  for (const ir_block *b = r->first; b; b = b->next) {
    size_t mark = vf->nvisible;
    for (int i = 0; i < b->nargs; i++)
      push_visible(vf, b->args[i]);
    for (const ir_op *op = b->first; op; op = op->next) {
      if (op->parent != b) {
        V_ERR(vf, op, "has a broken parent link");
        break;
      }
      bool is_term = ir_op_info_of(op)->traits & IR_T_TERMINATOR;
      if (is_term && op->next) V_ERR(vf, op, "must be the last operation in its block");
      verify_op(vf, op);
      for (int i = 0; i < op->nresults; i++)
        push_visible(vf, &op->results[i]);
    }
    vf->nvisible = mark;
  }
}

static void verify_op(verifier *vf, const ir_op *op) {
  const ir_op_info *info = ir_op_info_of(op);
  if (op->noperands < info->min_operands ||
      (info->max_operands >= 0 && op->noperands > info->max_operands)) {
    if (info->max_operands == info->min_operands)
      v_error(vf, op, "expects %d operands, got %d", info->min_operands, op->noperands);
    else
      v_error(vf, op, "expects at least %d operands, got %d", info->min_operands, op->noperands);
    return;
  }
  if (info->nresults >= 0 && op->nresults != info->nresults) {
    v_error(vf, op, "expects %d results, got %d", info->nresults, op->nresults);
    return;
  }
  bool has_null = false;
  for (int i = 0; i < op->noperands; i++) {
    if (!op->operands[i]) {
      v_error(vf, op, "operand #%d is null", i);
      has_null = true;
    } else if (!is_visible(vf, op->operands[i])) {
      v_error(vf, op, "operand #%d does not dominate this use", i);
    }
  }
  if (has_null) return;
  for (int i = 0; i < op->nresults; i++)
    check_tile_size(vf, op, op->results[i].type, "result", i);
  for (int i = 0; i < op->nregions; i++)
    for (const ir_block *b = op->regions[i].first; b; b = b->next)
      for (int j = 0; j < b->nargs; j++)
        check_tile_size(vf, op, b->args[j]->type, "block argument", j);
  if (info->traits & IR_T_ELEMENTWISE) check_elementwise(vf, op);
  check_rule(vf, op);
  for (int i = 0; i < op->nregions; i++) {
    /* A function sees nothing from outside: it is isolated from above. */
    size_t saved = vf->nvisible, saved_floor = vf->floor;
    if (op->kind == IR_OP_TT_FUNC) vf->floor = vf->nvisible;
    verify_region(vf, &op->regions[i]);
    vf->nvisible = saved;
    vf->floor = saved_floor;
  }
}

bool ir_verify(const ir_module *m) {
  verifier vf = {m->ctx, NULL, 0, 0, true, NULL, NULL, 0, 0, 0};
  if (m->op->nregions != 1 || !m->op->regions[0].first) {
    V_ERR(&vf, m->op, "requires one region with one block");
    return false;
  }
  /* As in Triton, a module holds functions: an op beside them would be
   * lowered by no one, and passes that merge equal ops could move a
   * function's operand out to it. */
  for (const ir_op *op = m->op->regions[0].first->first; op; op = op->next)
    if (op->kind != IR_OP_TT_FUNC) {
      V_ERR(&vf, op, "must be inside a function: a module holds only 'tt.func' ops");
      break;
    }
  verify_region(&vf, &m->op->regions[0]);
  free(vf.visible);
  free(vf.hkeys);
  free(vf.hidx);
  return vf.ok;
}
