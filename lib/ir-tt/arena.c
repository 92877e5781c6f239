// SPDX-License-Identifier: MIT
/* arena.c - bump allocation in chunks, freed all at once.
 *
 * Every op, value, block and region of a module comes from its arena, and
 * the context keeps its uniqued types and attributes in one too. */
#include <stdlib.h>
#include <string.h>

#include "ir-tt/ir.h"

enum { ARENA_CHUNK = 64 * 1024, ARENA_ALIGN = 16 };

struct ir_arena_chunk {
  struct ir_arena_chunk *next;
  size_t used, cap;
  /* Data follows, 16-aligned: the header is padded to a multiple of 16. */
  _Alignas(16) unsigned char data[];
};

void ir_arena_init(ir_arena *a) {
  a->head = NULL;
  a->total = 0;
}

void ir_arena_free(ir_arena *a) {
  struct ir_arena_chunk *c = a->head;
  while (c) {
    struct ir_arena_chunk *next = c->next;
    free(c);
    c = next;
  }
  ir_arena_init(a);
}

void *ir_arena_alloc(ir_arena *a, size_t size) {
  size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
  if (size == 0) size = ARENA_ALIGN;
  struct ir_arena_chunk *c = a->head;
  if (!c || c->cap - c->used < size) {
    size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
    c = malloc(sizeof *c + cap);
    if (!c) return NULL;
    c->cap = cap;
    c->used = 0;
    /* A big one-off allocation goes behind the head so that the head's
     * remaining room is not wasted. */
    if (a->head && size > ARENA_CHUNK) {
      c->next = a->head->next;
      a->head->next = c;
    } else {
      c->next = a->head;
      a->head = c;
    }
  }
  void *p = c->data + c->used;
  c->used += size;
  a->total += size;
  memset(p, 0, size);
  return p;
}

char *ir_arena_strdup(ir_arena *a, const char *s, size_t n) {
  char *p = ir_arena_alloc(a, n + 1);
  if (!p) return NULL;
  if (n) memcpy(p, s, n);
  p[n] = '\0';
  return p;
}
