/* prelude.c - the prelude (tl functions written in the kernel language,
 * lib/frontend/prelude/ files) tokenized and indexed once per process.
 *
 * Tokens and the module index depend on no compile's context: names point
 * into the embedded text, decoded strings and arrays live in a process-wide
 * arena, locations in static sources. pthread_once makes the first compile
 * build them; every compile after that, on any thread, only reads them, and
 * parses just the prelude functions its kernel calls (lower_names.c). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "frontend/lower_impl.h"

#define MAX_PRELUDE_FILES 16

typedef struct prelude_state {
  ir_arena arena;
  ir_source sources[MAX_PRELUDE_FILES];
  char names[MAX_PRELUDE_FILES][64];
  fe_modindex index[MAX_PRELUDE_FILES];
  int n;
  bool ok;
  char error[256]; /* the first diagnostic when the prelude does not lex */
} prelude_state;

/* Written once under pthread_once, read-only afterwards. */
static prelude_state prelude;
static pthread_once_t prelude_once = PTHREAD_ONCE_INIT;

static void prelude_build(void) {
  ir_arena_init(&prelude.arena);
  prelude.ok = true;
  ir_context *ctx = ir_context_create(); /* for diagnostics only */
  if (!ctx) {
    prelude.ok = false;
    snprintf(prelude.error, sizeof prelude.error, "out of memory");
    return;
  }
  for (int i = 0; i < fe_prelude_nfiles && i < MAX_PRELUDE_FILES; i++) {
    snprintf(prelude.names[i], sizeof prelude.names[i], "<prelude>/%s", fe_prelude_files[i].name);
    ir_source *src = &prelude.sources[i];
    src->name = prelude.names[i];
    src->text = fe_prelude_files[i].text;
    src->len = fe_prelude_files[i].len;
    if (!fe_modindex_build(ctx, src, &prelude.arena, &prelude.index[i]) && prelude.ok) {
      prelude.ok = false;
      const ir_diag *d = ir_context_num_diags(ctx) ? ir_context_diag(ctx, 0) : NULL;
      snprintf(prelude.error, sizeof prelude.error, "%s: %s", src->name, d ? d->msg : "lex error");
    }
    prelude.n++;
  }
  ir_context_destroy(ctx);
}

int fe_prelude_indexes(const fe_modindex **out, const char **error) {
  pthread_once(&prelude_once, prelude_build);
  *error = prelude.ok ? NULL : prelude.error;
  for (int i = 0; i < prelude.n; i++)
    out[i] = &prelude.index[i];
  return prelude.n;
}
