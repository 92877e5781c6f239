// SPDX-License-Identifier: MIT
/* deep.c - runs the library's deep work (parsing, lowering, passes, printing,
 * codegen) on a thread of its own with a stack the library sizes, so that a
 * host calling from a small stack (thread pools often give 128-256 KiB) is
 * safe: every recursion is bounded by a documented limit, and the limits hold
 * within IR_DEEP_STACK_BYTES. The caller's thread only waits. */
#include <pthread.h>

#include "ir-tt/ir.h"

typedef struct deep_call {
  void (*fn)(void *);
  void *arg;
} deep_call;

static void *deep_main(void *p) {
  deep_call *c = p;
  c->fn(c->arg);
  return NULL;
}

bool ir_run_deep(void (*fn)(void *), void *arg) {
  deep_call c = {fn, arg};
  pthread_attr_t attr;
  pthread_t th;
  bool started = false;
  if (pthread_attr_init(&attr) == 0) {
    started = pthread_attr_setstacksize(&attr, IR_DEEP_STACK_BYTES) == 0 &&
              pthread_create(&th, &attr, deep_main, &c) == 0;
    pthread_attr_destroy(&attr);
  }
  if (started) {
    pthread_join(th, NULL);
    return true;
  }
  /* no thread (resource limits): run here; the caller's stack must then be
   * large enough, as docs/api.md states */
  fn(arg);
  return false;
}
