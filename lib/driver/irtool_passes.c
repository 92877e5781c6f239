/* irtool_passes.c - every pass the IR tool can name: the ttir passes of
 * passes.def, the ttgir passes of lib/ir-ttgpu, and test-only passes; the
 * parsing of pipeline strings (`a,b{opt=v opt2=v},c`) into steps.
 *
 * The registry is a const table in pipeline order, as passes.def is; the
 * ttgir entries point at the ir_pass records lib/ir-ttgpu exports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/irtool_impl.h"
#include "ir-ttgpu/ttg.h"

typedef struct irt_entry {
  irt_kind kind;
  const char *name, *summary; /* NULL: taken from `info` */
  const ir_pass *info;
} irt_entry;

static const irt_entry registry[] = {
#define IR_PASS(ID, NAME, SUMMARY) {IRT_TTIR, NAME, SUMMARY, NULL},
#include "ir-tt/passes.def"
    {IRT_CONVERT, NULL, NULL, &ttg_pass_convert_info},
    {IRT_PASS, NULL, NULL, &ttg_pass_coalesce_info},
    {IRT_PASS, NULL, NULL, &ttg_pass_remove_convert_info},
    {IRT_BREAK, "test-break-verifier",
     "test only: insert an op the verifier rejects at the top of the first function", NULL},
};

enum { NUM_ENTRIES = sizeof registry / sizeof registry[0] };

static const char *entry_name(const irt_entry *e) { return e->name ? e->name : e->info->name; }

int ttc_ir_pass_count(void) { return NUM_ENTRIES; }

const char *ttc_ir_pass_name(int i) {
  return i >= 0 && i < NUM_ENTRIES ? entry_name(&registry[i]) : NULL;
}

const char *ttc_ir_pass_summary(int i) {
  if (i < 0 || i >= NUM_ENTRIES) return NULL;
  return registry[i].summary ? registry[i].summary : registry[i].info->summary;
}

static const irt_entry *lookup(const char *name, size_t n) {
  for (int i = 0; i < NUM_ENTRIES; i++) {
    const char *s = entry_name(&registry[i]);
    if (strlen(s) == n && memcmp(s, name, n) == 0) return &registry[i];
  }
  return NULL;
}

static bool push_step(irt_pipeline *pl, const irt_entry *e, const char *spec, size_t n) {
  irt_step *ns = realloc(pl->steps, (size_t)(pl->n + 1) * sizeof *ns);
  if (!ns) return false;
  pl->steps = ns;
  irt_step *s = &ns[pl->n];
  memset(s, 0, sizeof *s);
  s->kind = e->kind;
  s->name = entry_name(e);
  s->num_warps = s->threads_per_warp = s->num_ctas = s->cc = -1;
  s->spec = malloc(n + 1);
  if (!s->spec) return false;
  memcpy(s->spec, spec, n);
  s->spec[n] = '\0';
  if (e->kind == IRT_TTIR) s->pass = ir_pass_lookup(s->name);
  if (e->kind == IRT_PASS) s->pass = e->info;
  pl->n++;
  return true;
}

/* Parses one `key=value` option of convert-triton-to-tritongpu. */
static bool convert_option(ir_context *ctx, irt_step *s, const char *kv, size_t n) {
  ir_loc none = {NULL, 0, 0};
  const char *eq = memchr(kv, '=', n);
  if (!eq) {
    ir_error(ctx, none, "expected key=value in the options of '%s', got '%.*s'", s->name, (int)n, kv);
    return false;
  }
  size_t kn = (size_t)(eq - kv);
  char val[32];
  size_t vn = n - kn - 1;
  if (vn == 0 || vn >= sizeof val) {
    ir_error(ctx, none, "bad value for option '%.*s' of '%s'", (int)kn, kv, s->name);
    return false;
  }
  memcpy(val, eq + 1, vn);
  val[vn] = '\0';
  int v = 0, used = 0;
  bool is_target = kn == 6 && memcmp(kv, "target", 6) == 0;
  bool parsed = is_target ? sscanf(val, "cuda:%d%n", &v, &used) == 1 : sscanf(val, "%d%n", &v, &used) == 1;
  if (!parsed || (size_t)used != vn || v < 0) {
    ir_error(ctx, none, "bad value '%s' for option '%.*s' of '%s'%s", val, (int)kn, kv, s->name,
             is_target ? " (expected cuda:NN)" : "");
    return false;
  }
  if (is_target) s->cc = v;
  else if (kn == 9 && memcmp(kv, "num-warps", 9) == 0) s->num_warps = v;
  else if (kn == 16 && memcmp(kv, "threads-per-warp", 16) == 0) s->threads_per_warp = v;
  else if (kn == 8 && memcmp(kv, "num-ctas", 8) == 0) s->num_ctas = v;
  else {
    ir_error(ctx, none, "unknown option '%.*s' for pass '%s' (expected num-warps, "
             "threads-per-warp, num-ctas or target)", (int)kn, kv, s->name);
    return false;
  }
  return true;
}

/* The options between braces: `k=v k2=v2` (spaces or commas between). */
static bool step_options(ir_context *ctx, irt_step *s, const char *o, size_t n) {
  ir_loc none = {NULL, 0, 0};
  if (s->kind != IRT_CONVERT) {
    ir_error(ctx, none, "pass '%s' takes no options", s->name);
    return false;
  }
  size_t i = 0;
  while (i < n) {
    while (i < n && (o[i] == ' ' || o[i] == ',')) i++;
    size_t j = i;
    while (j < n && o[j] != ' ' && o[j] != ',') j++;
    if (j > i && !convert_option(ctx, s, o + i, j - i)) return false;
    i = j;
  }
  return true;
}

bool irt_pipeline_parse(ir_context *ctx, const char *text, irt_pipeline *out) {
  ir_loc none = {NULL, 0, 0};
  memset(out, 0, sizeof *out);
  if (!text) return true;
  const char *p = text;
  while (*p) {
    while (*p == ' ' || *p == ',') p++;
    if (!*p) break;
    const char *start = p, *brace = NULL;
    int depth = 0;
    for (; *p && (depth > 0 || *p != ','); p++) {
      if (*p == '{' && depth++ == 0) brace = p;
      if (*p == '}' && --depth < 0) break;
    }
    const char *end = p;
    while (end > start && end[-1] == ' ') end--;
    if (depth != 0 || (brace && end[-1] != '}')) {
      ir_error(ctx, none, "malformed pass options in '%.*s'", (int)(end - start), start);
      return false;
    }
    const char *name_end = brace ? brace : end;
    while (name_end > start && name_end[-1] == ' ') name_end--;
    const irt_entry *e = lookup(start, (size_t)(name_end - start));
    if (!e) {
      ir_error(ctx, none, "unknown pass '%.*s' (ttc --list-passes lists them)",
               (int)(name_end - start), start);
      return false;
    }
    if (!push_step(out, e, start, (size_t)(end - start))) {
      ir_error(ctx, none, "out of memory");
      return false;
    }
    if (brace && !step_options(ctx, &out->steps[out->n - 1], brace + 1, (size_t)(end - brace - 2)))
      return false;
  }
  return true;
}

bool irt_pipeline_add(irt_pipeline *pl, const char *name, int num_warps, int cc) {
  const irt_entry *e = lookup(name, strlen(name));
  if (!e || !push_step(pl, e, name, strlen(name))) return false;
  irt_step *s = &pl->steps[pl->n - 1];
  s->num_warps = num_warps;
  s->cc = cc;
  /* Keep the spec exact, so that a reproducer names these options. */
  if (e->kind == IRT_CONVERT) {
    char buf[160];
    snprintf(buf, sizeof buf, "%s{num-warps=%d target=cuda:%d}", name, num_warps, cc);
    char *spec = strdup(buf);
    if (!spec) return false;
    free(s->spec);
    s->spec = spec;
  }
  return true;
}

void irt_pipeline_free(irt_pipeline *pl) {
  for (int i = 0; i < pl->n; i++) free(pl->steps[i].spec);
  free(pl->steps);
  pl->steps = NULL;
  pl->n = 0;
}

/* test-break-verifier: an arith.addi without operands at the top of the
 * first function body, which the verifier rejects ("expects 2 operands"). */
static bool break_verifier(ir_module *m) {
  for (ir_op *f = ir_module_body(m)->first; f; f = f->next) {
    if (f->kind != IR_OP_TT_FUNC || !f->nregions || !f->regions[0].first) continue;
    ir_block *b = f->regions[0].first;
    const ir_type *i32 = ir_type_i32(m->ctx);
    ir_op *bad = ir_op_create(m, IR_OP_ARITH_ADDI, f->loc, 1, &i32, 0, NULL, 0);
    if (b->first) ir_op_insert_before(b->first, bad);
    else ir_block_append(b, bad);
    return true;
  }
  ir_error(m->ctx, m->op->loc, "test-break-verifier: the module has no function");
  return false;
}

bool irt_step_run(const irt_step *s, ir_module *m, ir_arena *scratch) {
  switch (s->kind) {
  case IRT_TTIR: return s->pass->run(m, scratch);
  case IRT_CONVERT: {
    ttg_options o = ttg_module_options(m);
    if (s->num_warps >= 0) o.num_warps = s->num_warps;
    if (s->threads_per_warp >= 0) o.threads_per_warp = s->threads_per_warp;
    if (s->num_ctas >= 0) o.num_ctas = s->num_ctas;
    if (s->cc >= 0) o.compute_capability = s->cc;
    return ttg_convert_to_ttgir(m, &o);
  }
  case IRT_PASS: return s->pass->run(m, scratch);
  case IRT_BREAK: return break_verifier(m);
  }
  return false;
}
