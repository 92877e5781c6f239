// SPDX-License-Identifier: MIT
/* handles.c - the registry of live public handles (kernels, devices,
 * modules, events, kernel functions, IR results), so that a second destroy
 * or a use after destroy is refused with TTC_ERROR_ARGUMENT instead of
 * touching freed memory. The registry is the one piece of process-wide
 * mutable state in the library: a handle's liveness cannot be read from the
 * handle itself once it is freed. An open-addressing set of (pointer, kind)
 * under a read-write lock; lookups take the read side, so concurrent
 * launches do not serialize. What it cannot detect: a pointer freed and
 * then handed out again by malloc for a new handle of the same kind (the
 * old pointer then names the new handle), and pointers that never were
 * handles but collide with a live one. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "runtime/rt.h"

#define TOMBSTONE ((const void *)1)

typedef struct registry {
  pthread_rwlock_t lock;
  const void **keys; /* NULL: empty; TOMBSTONE: removed */
  unsigned char *kinds;
  size_t cap, used; /* used counts live entries and tombstones */
} registry;

static registry reg = {PTHREAD_RWLOCK_INITIALIZER, NULL, NULL, 0, 0};

/* The slot holding p, or SIZE_MAX. Caller holds the lock. */
static size_t find(const void *p) {
  if (!reg.cap) return SIZE_MAX;
  for (size_t i = ir_ptr_slot(p, reg.cap);; i = (i + 1) & (reg.cap - 1)) {
    if (!reg.keys[i]) return SIZE_MAX;
    if (reg.keys[i] == p) return i;
  }
}

/* Rebuilds the table with room for twice the live entries. Caller holds the
 * write lock. */
static bool grow(void) {
  size_t live = 0;
  for (size_t i = 0; i < reg.cap; i++)
    live += reg.keys[i] && reg.keys[i] != TOMBSTONE;
  size_t cap = 64;
  while (cap < 4 * (live + 1))
    cap *= 2;
  const void **keys = calloc(cap, sizeof *keys);
  unsigned char *kinds = malloc(cap);
  if (!keys || !kinds) {
    free(keys);
    free(kinds);
    return false;
  }
  for (size_t i = 0; i < reg.cap; i++) {
    if (!reg.keys[i] || reg.keys[i] == TOMBSTONE) continue;
    size_t j = ir_ptr_slot(reg.keys[i], cap);
    while (keys[j])
      j = (j + 1) & (cap - 1);
    keys[j] = reg.keys[i];
    kinds[j] = reg.kinds[i];
  }
  free(reg.keys);
  free(reg.kinds);
  reg.keys = keys;
  reg.kinds = kinds;
  reg.cap = cap;
  reg.used = live;
  return true;
}

bool rt_handle_add(const void *h, rt_handle_kind kind) {
  if (!h) return false;
  pthread_rwlock_wrlock(&reg.lock);
  bool ok = 2 * (reg.used + 1) <= reg.cap || grow();
  if (ok) {
    size_t i = ir_ptr_slot(h, reg.cap);
    while (reg.keys[i] && reg.keys[i] != TOMBSTONE && reg.keys[i] != h)
      i = (i + 1) & (reg.cap - 1);
    if (!reg.keys[i]) reg.used++;
    reg.keys[i] = h;
    reg.kinds[i] = (unsigned char)kind;
  }
  pthread_rwlock_unlock(&reg.lock);
  return ok;
}

bool rt_handle_live(const void *h, rt_handle_kind kind) {
  if (!h) return false;
  pthread_rwlock_rdlock(&reg.lock);
  size_t i = find(h);
  bool live = i != SIZE_MAX && reg.kinds[i] == (unsigned char)kind;
  pthread_rwlock_unlock(&reg.lock);
  return live;
}

bool rt_handle_remove(const void *h, rt_handle_kind kind) {
  if (!h) return false;
  pthread_rwlock_wrlock(&reg.lock);
  size_t i = find(h);
  bool live = i != SIZE_MAX && reg.kinds[i] == (unsigned char)kind;
  if (live) reg.keys[i] = TOMBSTONE;
  pthread_rwlock_unlock(&reg.lock);
  return live;
}
