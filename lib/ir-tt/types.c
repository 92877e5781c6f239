// SPDX-License-Identifier: MIT
/* types.c - uniqued types: integers, floats, pointers, tensors, and ttgir's
 * shared-memory descriptors and async tokens.
 *
 * A type is built in a zeroed stack struct (so padding hashes equal) and
 * hash-consed in the context: pointer equality is type equality. */
#include <string.h>

#include "ir-tt/context_impl.h"

static const ir_type *type_unique(ir_context *ctx, const ir_type *proto) {
  return ir_ctx_unique(ctx, IR_UNIQ_TYPE, proto, sizeof *proto);
}

const ir_type *ir_type_int(ir_context *ctx, unsigned width) {
  ir_type t;
  memset(&t, 0, sizeof t);
  t.kind = IR_TY_INT;
  t.width = width;
  return type_unique(ctx, &t);
}

const ir_type *ir_type_i1(ir_context *ctx) { return ir_type_int(ctx, 1); }
const ir_type *ir_type_i32(ir_context *ctx) { return ir_type_int(ctx, 32); }
const ir_type *ir_type_i64(ir_context *ctx) { return ir_type_int(ctx, 64); }

static const ir_type *type_float(ir_context *ctx, unsigned width, bool alt) {
  ir_type t;
  memset(&t, 0, sizeof t);
  t.kind = IR_TY_FLOAT;
  t.width = width;
  if (width == 8)
    t.is_e5m2 = alt;
  else
    t.is_bf16 = alt;
  return type_unique(ctx, &t);
}

const ir_type *ir_type_f8e4m3(ir_context *ctx) { return type_float(ctx, 8, false); }
const ir_type *ir_type_f8e5m2(ir_context *ctx) { return type_float(ctx, 8, true); }

const ir_type *ir_type_f16(ir_context *ctx) { return type_float(ctx, 16, false); }
const ir_type *ir_type_bf16(ir_context *ctx) { return type_float(ctx, 16, true); }
const ir_type *ir_type_f32(ir_context *ctx) { return type_float(ctx, 32, false); }
const ir_type *ir_type_f64(ir_context *ctx) { return type_float(ctx, 64, false); }

const ir_type *ir_type_ptr(ir_context *ctx, const ir_type *pointee, int addrspace) {
  ir_type t;
  memset(&t, 0, sizeof t);
  t.kind = IR_TY_PTR;
  t.elem = pointee;
  t.addrspace = addrspace;
  return type_unique(ctx, &t);
}

const ir_type *ir_type_tensor(ir_context *ctx, int rank, const int64_t *shape, const ir_type *elem,
                              const ir_attr *layout) {
  IR_ASSERT(rank >= 0 && rank <= IR_MAX_RANK);
  IR_ASSERT(elem && elem->kind != IR_TY_TENSOR);
  ir_type t;
  memset(&t, 0, sizeof t);
  t.kind = IR_TY_TENSOR;
  t.elem = elem;
  t.rank = rank;
  for (int i = 0; i < rank; i++)
    t.shape[i] = shape[i];
  t.layout = layout;
  return type_unique(ctx, &t);
}

const ir_type *ir_type_memdesc(ir_context *ctx, int rank, const int64_t *shape, const ir_type *elem,
                               const ir_attr *encoding, bool is_mutable) {
  IR_ASSERT(rank >= 1 && rank <= IR_MAX_RANK);
  IR_ASSERT(elem && elem->kind != IR_TY_TENSOR && elem->kind != IR_TY_MEMDESC);
  ir_type t;
  memset(&t, 0, sizeof t);
  t.kind = IR_TY_MEMDESC;
  t.elem = elem;
  t.rank = rank;
  for (int i = 0; i < rank; i++)
    t.shape[i] = shape[i];
  t.layout = encoding;
  t.is_mutable = is_mutable;
  t.memspace = ir_attr_shared_memory(ctx);
  return type_unique(ctx, &t);
}

const ir_type *ir_type_token(ir_context *ctx) {
  ir_type t;
  memset(&t, 0, sizeof t);
  t.kind = IR_TY_TOKEN;
  return type_unique(ctx, &t);
}

const ir_type *ir_type_with_elem(ir_context *ctx, const ir_type *t, const ir_type *elem) {
  if (t->kind != IR_TY_TENSOR) return elem;
  return ir_type_tensor(ctx, t->rank, t->shape, elem, t->layout);
}

const ir_type *ir_type_with_layout(ir_context *ctx, const ir_type *t, const ir_attr *layout) {
  if (t->kind != IR_TY_TENSOR) return t;
  return ir_type_tensor(ctx, t->rank, t->shape, t->elem, layout);
}

const ir_type *ir_type_scalar(const ir_type *t) {
  return t->kind == IR_TY_TENSOR || t->kind == IR_TY_MEMDESC ? t->elem : t;
}

bool ir_type_is_tensor(const ir_type *t) { return t->kind == IR_TY_TENSOR; }
bool ir_type_is_memdesc(const ir_type *t) { return t->kind == IR_TY_MEMDESC; }
bool ir_type_is_int(const ir_type *t) { return ir_type_scalar(t)->kind == IR_TY_INT; }
bool ir_type_is_float(const ir_type *t) { return ir_type_scalar(t)->kind == IR_TY_FLOAT; }
bool ir_type_is_fp8(const ir_type *t) {
  const ir_type *e = ir_type_scalar(t);
  return e->kind == IR_TY_FLOAT && e->width == 8;
}
bool ir_type_is_ptr(const ir_type *t) { return ir_type_scalar(t)->kind == IR_TY_PTR; }

int64_t ir_type_numel(const ir_type *t) {
  if (t->kind != IR_TY_TENSOR && t->kind != IR_TY_MEMDESC) return 1;
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++)
    n *= t->shape[i];
  return n;
}

unsigned ir_type_bytes(const ir_type *scalar) {
  switch (scalar->kind) {
  case IR_TY_INT:
  case IR_TY_FLOAT: return scalar->width <= 8 ? 1 : scalar->width / 8;
  case IR_TY_PTR: return 8;
  case IR_TY_TENSOR:
  case IR_TY_MEMDESC: return ir_type_bytes(scalar->elem);
  case IR_TY_TOKEN: return 0;
  }
  return 0;
}
