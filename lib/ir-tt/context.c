// SPDX-License-Identifier: MIT
/* context.c - the context: owner of uniqued objects and interned strings.
 *
 * Uniquing is hash-consing over bytes: types and attributes are built in a
 * zeroed struct on the stack (pointers inside already uniqued), hashed, and
 * looked up in one open-addressing table; strings share the same table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir-tt/context_impl.h"

ir_context *ir_context_create(void) {
  ir_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return NULL;
  ir_arena_init(&ctx->arena);
  ctx->table_cap = 1024;
  ctx->table = calloc(ctx->table_cap, sizeof *ctx->table);
  if (!ctx->table) {
    free(ctx);
    return NULL;
  }
  return ctx;
}

void ir_context_destroy(ir_context *ctx) {
  if (!ctx) return;
  for (size_t i = 0; i < ctx->ndiags; i++)
    free(ctx->diags[i].msg);
  free(ctx->diags);
  free(ctx->table);
  ir_arena_free(&ctx->arena);
  free(ctx);
}

/* FNV-1a, 64-bit, mixed with the tag. */
static uint64_t hash_bytes(unsigned tag, const void *bytes, size_t n) {
  const unsigned char *p = bytes;
  uint64_t h = 1469598103934665603ull ^ (uint64_t)tag;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

static void table_grow(ir_context *ctx) {
  size_t ncap = ctx->table_cap * 2;
  ir_unique_entry *nt = calloc(ncap, sizeof *nt);
  if (!nt) IR_UNREACHABLE("out of memory growing the uniquing table");
  for (size_t i = 0; i < ctx->table_cap; i++) {
    ir_unique_entry e = ctx->table[i];
    if (!e.p) continue;
    size_t j = (size_t)e.hash & (ncap - 1);
    while (nt[j].p)
      j = (j + 1) & (ncap - 1);
    nt[j] = e;
  }
  free(ctx->table);
  ctx->table = nt;
  ctx->table_cap = ncap;
}

const void *ir_ctx_unique(ir_context *ctx, unsigned tag, const void *bytes, size_t n) {
  uint64_t h = hash_bytes(tag, bytes, n);
  size_t mask = ctx->table_cap - 1;
  size_t j = (size_t)h & mask;
  while (ctx->table[j].p) {
    ir_unique_entry *e = &ctx->table[j];
    if (e->hash == h && e->tag == tag && e->len == n && memcmp(e->p, bytes, n) == 0) return e->p;
    j = (j + 1) & mask;
  }
  /* Strings get a NUL after their bytes; alloc zeroes, so n + 1 covers it. */
  void *copy = ir_arena_alloc(&ctx->arena, n + 1);
  if (!copy) IR_UNREACHABLE("out of memory in the context arena");
  if (n) memcpy(copy, bytes, n);
  ctx->table[j] = (ir_unique_entry){h, copy, n, tag};
  if (++ctx->table_len * 2 > ctx->table_cap) table_grow(ctx);
  return copy;
}

const char *ir_intern(ir_context *ctx, const char *s, size_t n) {
  return ir_ctx_unique(ctx, IR_UNIQ_STRING, s, n);
}

const char *ir_intern_cstr(ir_context *ctx, const char *s) { return ir_intern(ctx, s, strlen(s)); }

const char *ir_ctx_strdup(ir_context *ctx, const char *s, size_t n) {
  const char *copy = ir_arena_strdup(&ctx->arena, s, n);
  if (!copy) IR_UNREACHABLE("out of memory in the context arena");
  return copy;
}

size_t ir_context_arena_bytes(const ir_context *ctx) { return ctx->arena.total; }

int64_t ir_context_max_ops(const ir_context *ctx) {
  return ctx->max_ops > 0 ? ctx->max_ops : IR_MAX_OPS;
}

void ir_context_set_max_ops(ir_context *ctx, int64_t max_ops) { ctx->max_ops = max_ops; }

void ir_format_op_limit(const ir_context *ctx, char *buf, size_t cap) {
  int64_t max = ir_context_max_ops(ctx);
  int k = 0;
  while (k < 62 && ((int64_t)1 << k) < max)
    k++;
  if (((int64_t)1 << k) == max)
    snprintf(buf, cap, "more than the limit of %lld (2^%d) operations", (long long)max, k);
  else
    snprintf(buf, cap, "more than the limit of %lld operations", (long long)max);
}
