// SPDX-License-Identifier: MIT
/* interp_heap.c - the interpreter's "device memory": host allocations with
 * known extents, kept sorted so that every load, store and atomic can be
 * checked with a binary search, and a red zone after each allocation so that
 * an access just past the end is never inside a neighbour. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

/* cuMemAlloc aligns to at least 256 bytes; kernels specialized for 16-byte
 * alignment rely on it, so the interpreter gives the same. */
#define HEAP_ALIGN 256u
#define HEAP_RED_ZONE 256u

void rt_heap_init(rt_heap *h) {
  h->blocks = NULL;
  h->n = h->cap = 0;
  pthread_rwlock_init(&h->lock, NULL);
}

void rt_heap_destroy(rt_heap *h) {
  for (size_t i = 0; i < h->n; i++)
    free(h->blocks[i].raw);
  free(h->blocks);
  h->blocks = NULL;
  h->n = h->cap = 0;
  pthread_rwlock_destroy(&h->lock);
}

/* Index of the first block whose base is > addr (upper bound). */
static size_t heap_upper(const rt_heap *h, uint64_t addr) {
  size_t lo = 0, hi = h->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (h->blocks[mid].base <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Makes room for one more block; false when out of memory. */
static bool heap_reserve(rt_heap *h) {
  if (h->n < h->cap) return true;
  size_t cap = h->cap ? 2 * h->cap : 16;
  rt_heap_block *nb = realloc(h->blocks, cap * sizeof *nb);
  if (!nb) return false;
  h->blocks = nb;
  h->cap = cap;
  return true;
}

ttc_status rt_heap_alloc(rt_heap *h, size_t bytes, uint64_t *addr) {
  *addr = 0;
  if (bytes == 0 || bytes > SIZE_MAX - 2 * HEAP_ALIGN - HEAP_RED_ZONE) return TTC_ERROR_ARGUMENT;
  size_t total = (bytes + HEAP_ALIGN - 1) / HEAP_ALIGN * HEAP_ALIGN + HEAP_RED_ZONE;
  void *raw = aligned_alloc(HEAP_ALIGN, total);
  if (!raw) return TTC_ERROR_OUT_OF_MEMORY;
  memset(raw, 0, total);
  uint64_t base = (uint64_t)(uintptr_t)raw;
  pthread_rwlock_wrlock(&h->lock);
  if (!heap_reserve(h)) {
    pthread_rwlock_unlock(&h->lock);
    free(raw);
    return TTC_ERROR_OUT_OF_MEMORY;
  }
  size_t at = heap_upper(h, base);
  memmove(&h->blocks[at + 1], &h->blocks[at], (h->n - at) * sizeof h->blocks[0]);
  h->blocks[at] = (rt_heap_block){base, bytes, raw};
  h->n++;
  pthread_rwlock_unlock(&h->lock);
  *addr = base;
  return TTC_OK;
}

bool rt_heap_free(rt_heap *h, uint64_t addr) {
  pthread_rwlock_wrlock(&h->lock);
  size_t at = heap_upper(h, addr);
  void *raw = NULL;
  if (at > 0 && h->blocks[at - 1].base == addr) {
    raw = h->blocks[at - 1].raw;
    memmove(&h->blocks[at - 1], &h->blocks[at], (h->n - at) * sizeof h->blocks[0]);
    h->n--;
  }
  pthread_rwlock_unlock(&h->lock);
  free(raw);
  return raw != NULL;
}

bool rt_heap_find(rt_heap *h, uint64_t addr, size_t bytes, rt_heap_block *out) {
  pthread_rwlock_rdlock(&h->lock);
  size_t at = heap_upper(h, addr);
  const rt_heap_block *b = at > 0 ? &h->blocks[at - 1] : NULL;
  bool in = b && addr - b->base <= b->size && bytes <= b->size - (addr - b->base);
  if (in && out) *out = *b;
  pthread_rwlock_unlock(&h->lock);
  return in;
}

void rt_heap_describe(rt_heap *h, uint64_t addr, size_t bytes, char *out, size_t cap) {
  pthread_rwlock_rdlock(&h->lock);
  size_t at = heap_upper(h, addr);
  const rt_heap_block *below = at > 0 ? &h->blocks[at - 1] : NULL;
  const rt_heap_block *above = at < h->n ? &h->blocks[at] : NULL;
  if (addr == 0) {
    snprintf(out, cap, "address 0x0 is a null pointer");
  } else if (below && addr - below->base < below->size) {
    /* Starts inside, ends outside: a wide access straddling the end. */
    snprintf(out, cap,
             "address 0x%" PRIx64 " (%zu bytes) runs %" PRIu64
             " bytes past the end of a %zu-byte allocation at 0x%" PRIx64,
             addr, bytes, addr + bytes - below->base - below->size, below->size, below->base);
  } else if (below && (!above || addr - below->base - below->size <= above->base - addr)) {
    snprintf(out, cap,
             "address 0x%" PRIx64 " is %" PRIu64
             " bytes past the end of a %zu-byte allocation at 0x%" PRIx64,
             addr, addr - below->base - below->size, below->size, below->base);
  } else if (above) {
    snprintf(out, cap,
             "address 0x%" PRIx64 " is %" PRIu64
             " bytes before the start of a %zu-byte allocation at 0x%" PRIx64,
             addr, above->base - addr, above->size, above->base);
  } else {
    snprintf(out, cap, "address 0x%" PRIx64 " is not in any allocation (none exist)", addr);
  }
  pthread_rwlock_unlock(&h->lock);
}
