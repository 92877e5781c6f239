// SPDX-License-Identifier: MIT
/* pass.c - passes, pipelines and the pass manager. A pipeline is parsed from
 * text (`canonicalize,convert-triton-to-tritongpu{num-warps=8 target=cuda:90}`)
 * against a registry the caller supplies (lib/ir-ttgpu owns the one table of
 * every pass), then run in order with a scratch arena freed after each pass;
 * on request it prints the IR before/after passes, verifies after each,
 * times them, and keeps a reproducer of the first failure.
 *
 * The ttir passes come from passes.def (pipeline order); there is no
 * self-registration. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir-tt/ir.h"

enum {
#define IR_PASS(ID, NAME, SUMMARY, OPTIONS) PASS_INDEX_##ID,
#include "passes.def"
  NUM_PASSES
};

static const ir_pass pass_table[NUM_PASSES] = {
#define IR_PASS(ID, NAME, SUMMARY, OPTIONS) {NAME, SUMMARY, OPTIONS, ir_pass_##ID},
#include "passes.def"
};

const ir_pass *ir_pass_lookup(const char *name, size_t len) {
  for (int i = 0; i < NUM_PASSES; i++)
    if (strlen(pass_table[i].name) == len && memcmp(pass_table[i].name, name, len) == 0)
      return &pass_table[i];
  return NULL;
}

int ir_pass_count(void) { return NUM_PASSES; }

const ir_pass *ir_pass_at(int i) { return i >= 0 && i < NUM_PASSES ? &pass_table[i] : NULL; }

/* ---- options ------------------------------------------------------------- */

bool ir_pass_arg_int(const ir_pass_args *a, const char *key, int64_t *out) {
  for (int i = 0; a && i < a->n; i++) {
    if (strcmp(a->key[i], key) != 0) continue;
    const char *v = a->value[i];
    /* "cuda:90" reads as 90: the target option. */
    if (strncmp(v, "cuda:", 5) == 0) v += 5;
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    /* every option is a 32-bit count; a larger one was cut to its low bits */
    if (end == v || *end || errno == ERANGE || x < INT32_MIN || x > INT32_MAX) return false;
    *out = x;
    return true;
  }
  return false;
}

bool ir_pass_int_option(ir_module *m, const ir_pass_args *a, const char *pass, const char *key,
                        int64_t lo, int64_t hi, int64_t dflt, int64_t *out) {
  *out = dflt;
  const char *v = ir_pass_arg(a, key);
  if (!v) return true;
  if (ir_pass_arg_int(a, key, out) && *out >= lo && *out <= hi) return true;
  ir_error(m->ctx, m->op->loc, "bad value '%s' for option '%s' of '%s' (expected %lld..%lld)", v,
           key, pass, (long long)lo, (long long)hi);
  return false;
}

const char *ir_pass_arg(const ir_pass_args *a, const char *key) {
  for (int i = 0; a && i < a->n; i++)
    if (strcmp(a->key[i], key) == 0) return a->value[i];
  return NULL;
}

static bool takes_option(const ir_pass *p, const char *key, size_t n) {
  for (const char *const *o = p->options; o && *o; o++)
    if (strlen(*o) == n && memcmp(*o, key, n) == 0) return true;
  return false;
}

/* `k=v k2=v2` (spaces or commas between) into the step's arguments; the
 * keys and values point into step->argbuf. */
static bool parse_args(ir_context *ctx, ir_pipeline_step *s, const char *o, size_t n) {
  ir_loc none = {NULL, 0, 0};
  s->argbuf = malloc(n + 1);
  if (!s->argbuf) return false;
  memcpy(s->argbuf, o, n);
  s->argbuf[n] = '\0';
  char *c = s->argbuf;
  while (*c) {
    while (*c == ' ' || *c == ',')
      *c++ = '\0';
    if (!*c) break;
    char *kv = c;
    while (*c && *c != ' ' && *c != ',')
      c++;
    char *eq = memchr(kv, '=', (size_t)(c - kv));
    if (!eq || eq == kv || eq + 1 == c) {
      ir_error(ctx, none, "expected key=value in the options of '%s', got '%.*s'", s->pass->name,
               (int)(c - kv), kv);
      return false;
    }
    if (!takes_option(s->pass, kv, (size_t)(eq - kv))) {
      ir_error(ctx, none, "unknown option '%.*s' for pass '%s'%s", (int)(eq - kv), kv,
               s->pass->name, s->pass->options ? "" : " (it takes none)");
      return false;
    }
    if (s->args.n == IR_PASS_MAX_ARGS) {
      ir_error(ctx, none, "too many options for pass '%s'", s->pass->name);
      return false;
    }
    *eq = '\0';
    s->args.key[s->args.n] = kv;
    s->args.value[s->args.n++] = eq + 1;
    if (*c) *c++ = '\0';
  }
  return true;
}

bool ir_pipeline_parse(ir_context *ctx, const char *text, ir_pass_lookup_fn lookup,
                       ir_pipeline *out) {
  ir_loc none = {NULL, 0, 0};
  memset(out, 0, sizeof *out);
  if (!text) return true;
  const char *p = text;
  while (*p) {
    while (*p == ' ' || *p == ',')
      p++;
    if (!*p) break;
    const char *start = p, *brace = NULL;
    int depth = 0;
    for (; *p && (depth > 0 || *p != ','); p++) {
      if (*p == '{' && depth++ == 0) brace = p;
      if (*p == '}' && --depth < 0) break;
    }
    const char *end = p;
    while (end > start && end[-1] == ' ')
      end--;
    if (depth != 0 || (brace && end[-1] != '}')) {
      ir_error(ctx, none, "malformed pass options in '%.*s'", (int)(end - start), start);
      return false;
    }
    const char *name_end = brace ? brace : end;
    while (name_end > start && name_end[-1] == ' ')
      name_end--;
    const ir_pass *pass = lookup(start, (size_t)(name_end - start));
    if (!pass) {
      ir_error(ctx, none, "unknown pass '%.*s' (ttc --list-passes lists them)",
               (int)(name_end - start), start);
      return false;
    }
    ir_pipeline_step *ns = realloc(out->steps, (size_t)(out->n + 1) * sizeof *ns);
    if (!ns) goto oom;
    out->steps = ns;
    ir_pipeline_step *s = &ns[out->n++];
    memset(s, 0, sizeof *s);
    s->pass = pass;
    s->spec = malloc((size_t)(end - start) + 1);
    if (!s->spec) goto oom;
    memcpy(s->spec, start, (size_t)(end - start));
    s->spec[end - start] = '\0';
    if (brace && !parse_args(ctx, s, brace + 1, (size_t)(end - brace - 2))) {
      if (!s->argbuf) goto oom;
      return false;
    }
  }
  return true;
oom:
  ir_error(ctx, none, "out of memory");
  return false;
}

void ir_pipeline_free(ir_pipeline *pl) {
  for (int i = 0; i < pl->n; i++) {
    free(pl->steps[i].spec);
    free(pl->steps[i].argbuf);
  }
  free(pl->steps);
  memset(pl, 0, sizeof *pl);
}

/* ---- the pass manager ------------------------------------------------------ */

static bool name_matches(const char *want, const char *name) {
  return want && (strcmp(want, "all") == 0 || strcmp(want, name) == 0);
}

static void dump_ir(const ir_pass_options *o, const char *when, const char *name,
                    const ir_module *m) {
  if (!o->dump) return;
  ir_sb_printf(o->dump, "// -----// IR Dump %s %s //----- //\n", when, name);
  ir_print_options po = {.locations = o->print_locations};
  ir_print_module(m, &po, o->dump);
  ir_sb_putc(o->dump, '\n');
}

double ir_now_seconds(void) {
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
    ir_sb_printf(out, "  %8.4f (%5.1f%%)  %s\n", times[j],
                 total > 0 ? 100.0 * times[j] / total : 0.0, names[j]);
  ir_sb_printf(out, "  %8.4f (100.0%%)  Total\n", total);
}

static char *print_for_reproducer(const ir_module *m) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_print_options po = {.locations = true};
  ir_print_module(m, &po, &sb);
  return ir_sb_take(&sb);
}

bool ir_run_pipeline(ir_module *m, const ir_pipeline *pl, const ir_pass_options *opts) {
  static const ir_pass_options none;
  if (!opts) opts = &none;
  ir_pass_timing *tm = opts->timing;
  bool ok = true;
  ir_arena scratch;
  ir_arena_init(&scratch);
  for (int i = 0; i < pl->n && ok; i++) {
    const ir_pipeline_step *s = &pl->steps[i];
    const char *name = s->pass->name;
    char *before = opts->reproducer && !*opts->reproducer ? print_for_reproducer(m) : NULL;
    if (name_matches(opts->print_before, name)) dump_ir(opts, "Before", name, m);
    double t0 = ir_now_seconds();
    ok = s->pass->run(m, &scratch, &s->args);
    if (tm && tm->n < 64) {
      tm->times[tm->n] = ir_now_seconds() - t0;
      snprintf(tm->names[tm->n++], sizeof tm->names[0], "%s", s->spec);
    }
    ir_arena_free(&scratch);
    /* The IR after a failure is still worth seeing. */
    if (name_matches(opts->print_after, name))
      dump_ir(opts, ok ? "After" : "After Failed", name, m);
    if (ok && opts->verify_each && !(opts->verify ? opts->verify(m) : ir_verify(m))) {
      ir_error(m->ctx, m->op->loc, "verification failed after pass '%s'", name);
      ok = false;
    }
    if (!ok && before) {
      *opts->reproducer = before;
      if (opts->reproducer_spec) *opts->reproducer_spec = s->spec;
      before = NULL;
    }
    free(before);
  }
  return ok;
}
