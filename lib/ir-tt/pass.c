/* pass.c - the pass manager: runs passes in order with a scratch arena
 * freed after each, and on request prints the IR before/after passes,
 * verifies after each, and times them into opts->dump.
 *
 * The pass table comes from passes.def (pipeline order); there is no
 * self-registration. */
#include <string.h>
#include <time.h>

#include "ir-tt/ir.h"

enum {
#define IR_PASS(ID, NAME, SUMMARY) PASS_INDEX_##ID,
#include "passes.def"
  NUM_PASSES
};

static const ir_pass pass_table[NUM_PASSES] = {
#define IR_PASS(ID, NAME, SUMMARY) {NAME, SUMMARY, ir_pass_##ID},
#include "passes.def"
};

static const ir_pass *const pass_ptrs[NUM_PASSES] = {
#define IR_PASS(ID, NAME, SUMMARY) &pass_table[PASS_INDEX_##ID],
#include "passes.def"
};

const ir_pass *ir_pass_lookup(const char *name) {
  for (int i = 0; i < NUM_PASSES; i++)
    if (strcmp(pass_table[i].name, name) == 0) return &pass_table[i];
  return NULL;
}

int ir_pass_list(const ir_pass *const **out) {
  *out = pass_ptrs;
  return NUM_PASSES;
}

static bool name_matches(const char *want, const char *name) {
  return want && (strcmp(want, "all") == 0 || strcmp(want, name) == 0);
}

static void dump_ir(ir_strbuf *dump, const char *when, const char *name, const ir_module *m) {
  if (!dump) return;
  ir_sb_printf(dump, "// -----// IR Dump %s %s //----- //\n", when, name);
  ir_print_module(m, NULL, dump);
  ir_sb_putc(dump, '\n');
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void ir_time_report(ir_strbuf *out, int n, const char *const *names, const double *times,
                    double total) {
  ir_sb_puts(out,
             "===-------------------------------------------------------------------------===\n"
                  "                         ... Execution time report ...\n"
                  "===-------------------------------------------------------------------------===\n");
  ir_sb_printf(out, "  Total Execution Time: %.4f seconds\n\n", total);
  ir_sb_puts(out, "  ----Wall Time----  ----Name----\n");
  for (int j = 0; j < n; j++)
    ir_sb_printf(out, "  %8.4f (%5.1f%%)  %s\n", times[j], total > 0 ? 100.0 * times[j] / total
                 : 0.0,
                 names[j]);
  ir_sb_printf(out, "  %8.4f (100.0%%)  Total\n", total);
}

bool ir_run_passes(ir_module *m, const ir_pass *const *passes, int npasses,
                   const ir_pass_options *opts) {
  static const ir_pass_options none = {NULL, NULL, false, false, NULL};
  if (!opts) opts = &none;
  double times[64] = {0};
  double total_start = now_seconds();
  bool ok = true;
  ir_arena scratch;
  ir_arena_init(&scratch);
  int i;
  for (i = 0; i < npasses && ok; i++) {
    const ir_pass *p = passes[i];
    if (name_matches(opts->print_before, p->name)) dump_ir(opts->dump, "Before", p->name, m);
    double t0 = now_seconds();
    ok = p->run(m, &scratch);
    if (i < 64) times[i] = now_seconds() - t0;
    ir_arena_free(&scratch);
    if (!ok) {
      /* The pass has diagnosed; the IR after a failure is still worth seeing. */
      if (name_matches(opts->print_after, p->name)) dump_ir(opts->dump, "After Failed", p->name, m);
      break;
    }
    if (name_matches(opts->print_after, p->name)) dump_ir(opts->dump, "After", p->name, m);
    if (opts->verify_each && !ir_verify(m)) {
      ir_error(m->ctx, m->op->loc, "verification failed after pass '%s'", p->name);
      ok = false;
    }
  }
  if (opts->time_passes && opts->dump) {
    const char *names[64];
    int n = i < 64 ? i : 64;
    for (int j = 0; j < n; j++) names[j] = passes[j]->name;
    ir_time_report(opts->dump, n, names, times, now_seconds() - total_start);
  }
  return ok;
}
