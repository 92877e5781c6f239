// SPDX-License-Identifier: MIT
/* context_impl.h - the private layout of ir_context, shared by the files of
 * lib/ir-tt that own a part of it (context.c, diag.c, types.c, attrs.c).
 * Other layers see ir_context only as an opaque handle. */
#ifndef TTC_IR_CONTEXT_IMPL_H
#define TTC_IR_CONTEXT_IMPL_H

#include "ir-tt/ir.h"

/* One uniqued object: `len` bytes at `p`, tagged so that a string and a type
 * with the same bytes stay distinct. */
typedef struct ir_unique_entry {
  uint64_t hash;
  const void *p;
  size_t len;
  unsigned tag;
} ir_unique_entry;

enum { IR_UNIQ_STRING = 1, IR_UNIQ_TYPE, IR_UNIQ_ATTR, IR_UNIQ_BYTES };

struct ir_context {
  ir_arena arena;         /* uniqued objects, sources */
  ir_unique_entry *table; /* open addressing, power-of-two size */
  size_t table_cap, table_len;
  ir_diag *diags; /* malloc'd; msgs malloc'd */
  size_t ndiags, diags_cap, nerrors;
  bool diags_truncated; /* IR_MAX_DIAGS reached: later ones only counted */
  int64_t max_ops;      /* 0: IR_MAX_OPS */
};

/* The unique context-owned copy of `n` bytes under `tag` (16-aligned, zero
 * padded). Equal (tag, bytes) give the same pointer. OOM is an internal error. */
const void *ir_ctx_unique(ir_context *ctx, unsigned tag, const void *bytes, size_t n);

#endif
