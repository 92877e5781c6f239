// SPDX-License-Identifier: MIT
/* irtool.c - ttc_ir_run: IR text -> parse -> verify -> the named passes
 * (with dumps, timing, verification and a reproducer of the failing pass)
 * -> the requested output level, for each `// -----` case of the input.
 * One context per case, so that cases share nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codegen-llvm/cg.h"
#include "driver/irtool_impl.h"
#include "ir-ttgpu/ttg.h"

struct ttc_ir_result {
  char *output;
  size_t output_size;
  char *diagnostics, *dump, *reproducer, *repro_passes, *metadata;
};

/* Per-case state of a run. */
typedef struct run {
  const ttc_ir_options *o;
  ir_context *ctx;
  ir_module *m;
  ttc_ir_result *r;
  ir_strbuf *dump;
  ir_pass_timing timing; /* --time-passes */
} run;

void ttc_ir_options_init_sized(ttc_ir_options *o, size_t size) {
  ttc_ir_options def = {0};
  def.emit = -1;
  def.num_warps = 4;
  def.opt_level = 3;
  drv_options_init(o, size, &def, sizeof def);
}

/* The module's text, caller frees; NULL when memory ran out. */
static char *print_module(const ir_module *m, bool locations) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_print_options po = {.locations = locations};
  ir_print_module(m, &po, &sb);
  if (sb.failed) {
    ir_sb_free(&sb);
    return NULL;
  }
  return ir_sb_take(&sb);
}

/* Keeps the first failure's reproducer: the IR a pass received and the
 * pipeline to run on it. */
static void keep_reproducer(run *st, char *ir, const char *passes) {
  if (st->r->reproducer) {
    free(ir);
    return;
  }
  st->r->reproducer = ir;
  st->r->repro_passes = strdup(passes);
}

/* Runs the steps; false at the first failure (diagnosed, reproducer kept). */
static bool run_steps(run *st, const ir_pipeline *pl) {
  char *repro = NULL;
  const char *repro_spec = NULL;
  ir_pass_options po = {st->o->print_before,
                        st->o->print_after,
                        st->o->print_locations != 0,
                        st->o->verify_each != 0,
                        ttg_verify,
                        st->dump,
                        st->o->keep_reproducer ? &repro : NULL,
                        &repro_spec,
                        &st->timing};
  bool ok = ir_run_pipeline(st->m, pl, &po);
  if (repro) keep_reproducer(st, repro, repro_spec);
  return ok;
}

static void time_report(run *st) {
  double total = 0;
  for (int i = 0; i < st->timing.n; i++)
    total += st->timing.times[i];
  const char *names[64];
  for (int i = 0; i < st->timing.n; i++)
    names[i] = st->timing.names[i];
  ir_time_report(st->dump, st->timing.n, names, st->timing.times, total);
}

static const char *type_name(const ir_type *t) {
  switch (t->kind) {
  case IR_TY_INT:
    return t->width == 1    ? "i1"
           : t->width == 8  ? "i8"
           : t->width == 16 ? "i16"
           : t->width == 32 ? "i32"
                            : "i64";
  case IR_TY_FLOAT:
    return t->is_bf16 ? "bf16" : t->width == 16 ? "fp16" : t->width == 32 ? "fp32" : "fp64";
  case IR_TY_PTR:
  case IR_TY_TENSOR:
  case IR_TY_MEMDESC:
  case IR_TY_TOKEN: break;
  }
  return "?";
}

/* Metadata of a cubin made from IR: what the IR knows (no constexprs). */
static char *ir_metadata(const ir_module *m, const char *arch, int cc, const char *ptx,
                         const cg_ptxas_info *pi) {
  const ir_op *f = ir_module_body(m)->first;
  while (f && f->kind != IR_OP_TT_FUNC)
    f = f->next;
  if (!f || !f->regions[0].first) return NULL;
  const ir_block *b = f->regions[0].first;
  cg_param_info params[64];
  char types[64][24], names[64][16];
  int n = b->nargs < 64 ? b->nargs : 64;
  for (int i = 0; i < n; i++) {
    const ir_value *a = b->args[i];
    char div[16] = "";
    if (a->divisibility > 1) snprintf(div, sizeof div, ":%d", a->divisibility);
    if (a->type->kind == IR_TY_PTR)
      snprintf(types[i], sizeof types[i], "*%s%s", type_name(a->type->elem), div);
    else
      snprintf(types[i], sizeof types[i], "%s%s", type_name(a->type), div);
    snprintf(names[i], sizeof names[i], "arg%d", i);
    params[i] = (cg_param_info){a->name ? a->name : names[i], types[i]};
  }
  const ir_attr *name = ir_op_get_attr(f, "sym_name");
  char target[16];
  snprintf(target, sizeof target, "cuda:%d", cc);
  cg_metadata md = {name ? name->s : "",
                    ttg_module_options(m).num_warps,
                    3,
                    (int)ir_op_get_int(m->op, "ttg.shared", 0),
                    target,
                    arch,
                    n,
                    params,
                    0,
                    NULL,
                    TTC_VERSION_STRING,
                    ptx,
                    pi,
                    NULL};
  return cg_metadata_json(&md);
}

/* Codegen and ptxas from ttgir. */
static ttc_status emit_machine(run *st, ir_strbuf *out) {
  const ttc_ir_options *o = st->o;
  ttg_options mo = ttg_module_options(st->m);
  char arch[16];
  snprintf(arch, sizeof arch, "%s", o->arch ? o->arch : "");
  if (!o->arch) snprintf(arch, sizeof arch, "sm_%d", mo.compute_capability);
  if (strcmp(arch, "sm_90") == 0) snprintf(arch, sizeof arch, "sm_90a"); /* as ttc_compile */
  int cc = drv_arch_cc(arch);
  if (!cc) {
    ir_error(st->ctx, st->m->op->loc,
             "unsupported target '%s' (the module's ttg.target): expected %s", arch, DRV_ARCH_LIST);
    return TTC_ERROR_INPUT;
  }
  /* Shared memory and barriers first, unless the IR already has them. */
  if (!ir_op_get_attr(st->m->op, "ttg.shared")) {
    ir_pipeline pl;
    bool ok = ir_pipeline_parse(st->ctx, TTG_CODEGEN_PREP_PIPELINE, irt_pass_lookup, &pl);
    ok = ok && run_steps(st, &pl);
    ir_pipeline_free(&pl);
    if (!ok) return TTC_ERROR_INPUT;
  }
  bool libdevice_missing = false;
  cg_options co = {.arch = arch,
                   .num_warps = mo.num_warps,
                   .opt_level = o->opt_level < 0   ? 0
                                : o->opt_level > 3 ? 3
                                                   : o->opt_level,
                   .libdevice_missing = &libdevice_missing,
                   .line_info = drv_line_info(o->no_line_info)};
  char *llir = NULL, *ptx = NULL;
  if (!cg_emit_ptx(st->m, &co, &llir, &ptx))
    return libdevice_missing                ? TTC_ERROR_TOOL
           : ir_context_num_errors(st->ctx) ? TTC_ERROR_UNSUPPORTED
                                            : TTC_ERROR_LLVM;
  ttc_status status = TTC_OK;
  if (o->emit == TTC_LEVEL_LLIR) {
    ir_sb_puts(out, llir);
  } else if (o->emit == TTC_LEVEL_PTX) {
    ir_sb_puts(out, ptx);
  } else {
    void *cubin = NULL;
    size_t size = 0;
    cg_ptxas_info pi;
    if (!cg_run_ptxas_info(st->ctx, ptx, arch, o->ptxas, &cubin, &size, &pi)) {
      status = TTC_ERROR_TOOL;
    } else {
      ir_sb_append(out, cubin, size);
      free(st->r->metadata);
      st->r->metadata = ir_metadata(st->m, arch, cc, ptx, &pi);
    }
    free(cubin);
  }
  free(llir);
  free(ptx);
  return status;
}

/* Converts ttir to ttgir when --emit asks for ttgir or later. */
static ttc_status continue_to_ttgir(run *st) {
  const ttc_ir_options *o = st->o;
  bool is_ttgir = ir_op_get_attr(st->m->op, "ttg.num-warps") != NULL;
  if (o->emit == TTC_LEVEL_TTIR && is_ttgir) {
    ir_error(st->ctx, st->m->op->loc, "cannot emit ttir: the module is ttgir");
    return TTC_ERROR_ARGUMENT;
  }
  if (o->emit < (int)TTC_LEVEL_TTGIR || is_ttgir) return TTC_OK;
  int cc = o->arch ? drv_arch_cc(o->arch) : 90;
  ttg_options to = {o->num_warps, 32, 1, cc, 0, false};
  char text[512];
  ir_pipeline pl;
  bool ok = ttg_pipeline_text(&to, text, sizeof text) &&
            ir_pipeline_parse(st->ctx, text, irt_pass_lookup, &pl);
  if (!ok) IR_UNREACHABLE("the built-in ttgir pipeline does not parse: %s", text);
  ok = run_steps(st, &pl);
  ir_pipeline_free(&pl);
  return ok ? TTC_OK : TTC_ERROR_INPUT;
}

/* One case: parse, verify, passes, output into *out. */
static ttc_status run_case(run *st, const char *text, size_t len, const char *filename,
                           const ir_pipeline *pl, const char *passes, ir_strbuf *out) {
  const ir_source *src = ir_context_add_source(st->ctx, filename, text, len);
  if (!src) return TTC_ERROR_OUT_OF_MEMORY;
  st->m = ir_parse_module(st->ctx, src);
  if (!st->m) return ir_context_num_errors(st->ctx) ? TTC_ERROR_INPUT : TTC_ERROR_OUT_OF_MEMORY;
  if (!ttg_verify(st->m)) return TTC_ERROR_INPUT;
  bool blame_all = pl->n && !st->o->verify_each;
  char *input = blame_all && st->o->keep_reproducer ? print_module(st->m, true) : NULL;
  if (!run_steps(st, pl)) {
    free(input);
    return TTC_ERROR_INPUT;
  }
  /* Without --verify-each the pipeline as a whole is blamed. */
  if (blame_all && !ttg_verify(st->m)) {
    ir_error(st->ctx, st->m->op->loc, "verification failed after the pass pipeline");
    if (input) keep_reproducer(st, input, passes);
    return TTC_ERROR_INPUT;
  }
  free(input);
  ttc_status status = continue_to_ttgir(st);
  if (status != TTC_OK) return status;
  if (st->o->emit <= (int)TTC_LEVEL_TTGIR) {
    ir_print_options po = {.locations = st->o->print_locations != 0};
    ir_print_module(st->m, &po, out);
    return TTC_OK;
  }
  return emit_machine(st, out);
}

/* Start of the next case after `p` (a line holding `// -----`), or end. */
static const char *next_split(const char *p, const char *end, const char **after) {
  for (const char *line = p; line < end;) {
    const char *nl = memchr(line, '\n', (size_t)(end - line));
    const char *le = nl ? nl : end;
    const char *c = line;
    while (c < le && (*c == ' ' || *c == '\t'))
      c++;
    if ((size_t)(le - c) >= 8 && memcmp(c, "// -----", 8) == 0) {
      *after = nl ? nl + 1 : end;
      return line;
    }
    line = nl ? nl + 1 : end;
  }
  *after = end;
  return end;
}

static ttc_status worse(ttc_status a, ttc_status b) { return a != TTC_OK ? a : b; }

static ttc_status ir_run_now(const char *text, size_t len, const char *filename,
                             const ttc_ir_options *opts, ttc_ir_result **out) {
  if (!out) return TTC_ERROR_ARGUMENT;
  *out = NULL;
  if (!text || !filename) return TTC_ERROR_ARGUMENT;
  ttc_ir_options in;
  ttc_ir_options_init(&in);
  if (opts && !drv_options_read(&in, sizeof in, opts, DRV_V1_SIZE(ttc_ir_options, opt_level)))
    return TTC_ERROR_ARGUMENT;
  const ttc_ir_options *o = &in;
  ttc_ir_result *r = calloc(1, sizeof *r);
  if (r && !rt_handle_add(r, RT_HANDLE_IR_RESULT)) {
    free(r);
    r = NULL;
  }
  if (!r) return TTC_ERROR_OUT_OF_MEMORY;
  bool bad_arch = o->arch && !drv_arch_cc(o->arch);
  if (len > DRV_MAX_SOURCE_BYTES || o->emit < -1 || o->emit >= TTC_NUM_LEVELS || o->num_warps < 1 ||
      o->num_warps > 32 || (o->num_warps & (o->num_warps - 1)) || bad_arch || o->opt_level < 0 ||
      o->opt_level > 3) {
    ir_strbuf sb;
    ir_sb_init(&sb);
    if (len > DRV_MAX_SOURCE_BYTES) /* before any length arithmetic */
      ir_sb_printf(&sb, "error: %s: IR text of %zu bytes exceeds the limit of %d MiB\n", filename,
                   len, (int)(DRV_MAX_SOURCE_BYTES >> 20));
    else if (o->emit < -1 || o->emit >= TTC_NUM_LEVELS)
      ir_sb_printf(&sb, "error: emit must be -1 or a ttc_level (0..%d), got %d\n",
                   TTC_NUM_LEVELS - 1, o->emit);
    else if (bad_arch)
      ir_sb_printf(&sb, "error: unsupported target '%s': expected %s\n", o->arch, DRV_ARCH_LIST);
    else if (o->opt_level < 0 || o->opt_level > 3)
      ir_sb_printf(&sb, "error: opt_level must be in 0..3, got %d\n", o->opt_level);
    else
      ir_sb_printf(&sb, "error: num_warps must be a power of two in 1..32, got %d\n", o->num_warps);
    r->diagnostics = ir_sb_take(&sb);
    *out = r;
    return TTC_ERROR_ARGUMENT;
  }
  ir_strbuf output, diags, dump, padded;
  ir_sb_init(&output);
  ir_sb_init(&diags);
  ir_sb_init(&dump);
  ir_sb_init(&padded);
  ttc_status status = TTC_OK;
  const char *end = text + len, *p = text;
  unsigned line = 0; /* lines before the current case */
  for (;;) {
    const char *after, *stop = o->split_input_file ? next_split(p, end, &after) : end;
    if (!o->split_input_file) after = end;
    /* The case keeps its line numbers: blank lines stand for those before it. */
    padded.len = 0;
    for (unsigned i = 0; i < line; i++)
      ir_sb_putc(&padded, '\n');
    ir_sb_append(&padded, p, (size_t)(stop - p));
    run st;
    memset(&st, 0, sizeof st);
    st.o = o;
    st.r = r;
    st.dump = &dump;
    st.ctx = ir_context_create();
    ir_pipeline pl = {0};
    ttc_status cs;
    if (!st.ctx) {
      cs = TTC_ERROR_OUT_OF_MEMORY;
    } else if (!ir_pipeline_parse(st.ctx, o->passes, irt_pass_lookup, &pl)) {
      cs = TTC_ERROR_ARGUMENT;
    } else {
      ir_strbuf case_out;
      ir_sb_init(&case_out);
      cs = run_case(&st, padded.data ? padded.data : "", padded.len, filename, &pl,
                    o->passes ? o->passes : "", &case_out);
      if (cs == TTC_OK && case_out.len) {
        if (output.len) ir_sb_puts(&output, "// -----\n");
        ir_sb_append(&output, case_out.data, case_out.len);
      }
      ir_sb_free(&case_out);
      if (o->time_passes) time_report(&st);
    }
    if (st.ctx) {
      ir_strbuf rendered;
      ir_sb_init(&rendered);
      ir_render_diags(st.ctx, &rendered);
      if (o->verify_diagnostics && cs != TTC_ERROR_ARGUMENT && cs != TTC_ERROR_OUT_OF_MEMORY) {
        char *report = NULL;
        cs = ttc_verify_diagnostics(padded.data ? padded.data : "", padded.len, filename,
                                    rendered.data ? rendered.data : "", &report);
        if (report) ir_sb_puts(&diags, report);
        free(report);
      } else {
        ir_sb_append(&diags, rendered.data ? rendered.data : "", rendered.len);
      }
      ir_sb_free(&rendered);
    }
    status = worse(status, cs);
    ir_pipeline_free(&pl);
    ir_module_destroy(st.m);
    ir_context_destroy(st.ctx);
    for (const char *c = p; c < after; c++)
      line += *c == '\n';
    if (after >= end) break;
    p = after;
  }
  ir_sb_free(&padded);
  /* Read `failed` before ir_sb_take, which resets the buffer. */
  if (output.failed || diags.failed || dump.failed) status = TTC_ERROR_OUT_OF_MEMORY;
  r->output_size = output.len;
  r->output = ir_sb_take(&output);
  r->diagnostics = ir_sb_take(&diags);
  r->dump = ir_sb_take(&dump);
  *out = r;
  return status;
}

ttc_status ttc_ir_result_destroy(ttc_ir_result *r) {
  if (!r) return TTC_OK;
  if (!rt_handle_remove(r, RT_HANDLE_IR_RESULT)) return TTC_ERROR_ARGUMENT;
  free(r->output);
  free(r->diagnostics);
  free(r->dump);
  free(r->reproducer);
  free(r->repro_passes);
  free(r->metadata);
  free(r);
  return TTC_OK;
}

/* A live result handle (not NULL, not destroyed). */
static bool rlive(const ttc_ir_result *r) { return r && rt_handle_live(r, RT_HANDLE_IR_RESULT); }

const void *ttc_ir_result_output(const ttc_ir_result *r, size_t *size) {
  if (size) *size = rlive(r) ? r->output_size : 0;
  return rlive(r) ? r->output : NULL;
}

const char *ttc_ir_result_diagnostics(const ttc_ir_result *r) {
  return rlive(r) && r->diagnostics ? r->diagnostics : "";
}

const char *ttc_ir_result_dump(const ttc_ir_result *r) {
  return rlive(r) && r->dump ? r->dump : "";
}

const char *ttc_ir_result_reproducer(const ttc_ir_result *r, const char **passes) {
  if (passes) *passes = rlive(r) && r->repro_passes ? r->repro_passes : "";
  return rlive(r) ? r->reproducer : NULL;
}

const char *ttc_ir_result_metadata_json(const ttc_ir_result *r) {
  return rlive(r) ? r->metadata : NULL;
}

/* ttc_ir_run's arguments, carried to the thread that runs it. */
typedef struct ir_run_call {
  const char *text;
  size_t len;
  const char *filename;
  const ttc_ir_options *opts;
  ttc_ir_result **out;
  ttc_status st;
} ir_run_call;

static void ir_run_deep_main(void *arg) {
  ir_run_call *c = arg;
  c->st = ir_run_now(c->text, c->len, c->filename, c->opts, c->out);
}

/* The IR parser, passes and printers recurse within the documented limits:
 * on the library's own stack (ir_run_deep). */
ttc_status ttc_ir_run(const char *text, size_t len, const char *filename,
                      const ttc_ir_options *opts, ttc_ir_result **out) {
  ir_run_call c = {text, len, filename, opts, out, TTC_OK};
  ir_run_deep(ir_run_deep_main, &c);
  return c.st;
}
