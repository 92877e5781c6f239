// SPDX-License-Identifier: MIT
/* compile.c - the compile pipeline behind ttc_compile:
 * kernel file -> ttir (frontend) -> ttir passes -> ttgir (convert, coalesce)
 * -> LLVM IR and PTX (codegen) -> cubin (ptxas), keeping each level's text
 * and the diagnostics in the ttc_kernel. One context per compile, so
 * concurrent compiles share nothing. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "codegen-llvm/cg.h"
#include "driver/driver.h"
#include "frontend/fe.h"
#include "ir-ttgpu/ttg.h"

void ttc_compile_options_init_sized(ttc_compile_options *opts, size_t size) {
  ttc_compile_options def = {0};
  def.num_warps = 4;
  def.num_stages = 3;
  def.arch = "sm_90";
  def.stop_after = TTC_LEVEL_CUBIN;
  def.opt_level = 3;
  drv_options_init(opts, size, &def, sizeof def);
}

/* num_stages beyond this buys nothing and multiplies shared memory. */
#define TTC_MAX_NUM_STAGES 16

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Parses "sm_90" / "sm_90a" into 90; 0 if malformed. */
int drv_arch_cc(const char *arch) {
  /* 'a' (architecture-specific) from sm_90 on, 'f' (family) from sm_100 on */
  if (!arch || strncmp(arch, "sm_", 3) != 0 || arch[3] == '0') return 0; /* not sm_090 */
  int cc = 0, n = 3;
  while (arch[n] >= '0' && arch[n] <= '9' && n < 6)
    cc = cc * 10 + (arch[n++] - '0');
  bool suffix = (arch[n] == 'a' && cc >= 90) || (arch[n] == 'f' && cc >= 100);
  if (n == 3 || (arch[n] != '\0' && !(suffix && arch[n + 1] == '\0'))) return 0;
  return ttg_cc_known(cc) ? cc : 0;
}

static bool keep_text(ttc_kernel *k, ttc_level level, char *text) {
  if (!text) return false;
  k->out[level] = text;
  k->out_size[level] = strlen(text);
  return true;
}

static bool print_level(ttc_kernel *k, ttc_level level, const ir_module *m,
                        const ttc_compile_options *o) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_print_options po = {.locations = o->emit_locations != 0};
  ir_print_module(m, &po, &sb);
  if (sb.failed) {
    ir_sb_free(&sb);
    return false;
  }
  return keep_text(k, level, ir_sb_take(&sb));
}

/* The ttir with locations, for the interpreter, and the TTIR level's text
 * (with locations only when emit_locations asks), from one print. */
static bool keep_ttir(ttc_kernel *k, const ir_module *m, const ttc_compile_options *o) {
  ir_strbuf sb, plain;
  ir_sb_init(&sb);
  ir_sb_init(&plain);
  ir_print_options po = {.locations = true, .without_locations = o->emit_locations ? NULL : &plain};
  ir_print_module(m, &po, &sb);
  bool ok = !sb.failed && !plain.failed;
  if (ok && o->emit_locations) {
    char *copy = malloc(sb.len + 1);
    if (copy) memcpy(copy, sb.data ? sb.data : "", sb.len + 1);
    ok = keep_text(k, TTC_LEVEL_TTIR, copy);
  } else if (ok) {
    ok = keep_text(k, TTC_LEVEL_TTIR, ir_sb_take(&plain));
  }
  if (!ok) {
    ir_sb_free(&sb);
    ir_sb_free(&plain);
    return false;
  }
  ir_sb_free(&plain);
  k->ttir_located_size = sb.len;
  k->ttir_located = ir_sb_take(&sb);
  return k->ttir_located != NULL;
}

static bool record_params(ttc_kernel *k, const fe_kernel_info *info) {
  int n = 0;
  for (int i = 0; i < info->nparams; i++)
    n += !info->params[i].is_constexpr;
  k->nparams = n;
  k->param_types = calloc((size_t)n + 1, sizeof *k->param_types);
  k->param_pointees = calloc((size_t)n + 1, sizeof *k->param_pointees);
  k->param_divisibility = calloc((size_t)n + 1, sizeof *k->param_divisibility);
  if (!k->param_types || !k->param_pointees || !k->param_divisibility) return false;
  int j = 0;
  for (int i = 0; i < info->nparams; i++) {
    if (info->params[i].is_constexpr) continue;
    k->param_types[j] = info->params[i].type;
    k->param_pointees[j] = info->params[i].pointee;
    int d = info->params[i].divisibility;
    k->param_divisibility[j] = d == FE_DIV_ONE ? TTC_PARAM_ONE : d > 1 ? d : 1;
    j++;
  }
  return true;
}

/* The metadata JSON from the frontend's parameter list (codegen formats it). */
static char *build_metadata(const ttc_kernel *k, const fe_kernel_info *info, int cc) {
  int n = info->nparams;
  cg_param_info *params = calloc((size_t)n + 1, sizeof *params);
  cg_constexpr_info *cexprs = calloc((size_t)n + 1, sizeof *cexprs);
  char(*types)[24] = calloc((size_t)n + 1, sizeof *types);
  char *json = NULL;
  if (!params || !cexprs || !types) goto done;
  int np = 0, nc = 0;
  for (int i = 0; i < n; i++) {
    const fe_param *p = &info->params[i];
    if (p->is_constexpr) {
      const char *v = p->value_text;
      cexprs[nc++] = (cg_constexpr_info){p->name, strcmp(v, "True") == 0    ? "true"
                                                  : strcmp(v, "False") == 0 ? "false"
                                                                            : v};
      continue;
    }
    char hint[16] = "";
    if (p->divisibility > 1) snprintf(hint, sizeof hint, ":%d", p->divisibility);
    if (p->type == TTC_TYPE_PTR)
      snprintf(types[np], sizeof types[np], "*%s%s", ttc_type_name(p->pointee), hint);
    else
      snprintf(types[np], sizeof types[np], "%s%s", ttc_type_name(p->type), hint);
    params[np] = (cg_param_info){p->name, types[np]};
    np++;
  }
  char target[16];
  snprintf(target, sizeof target, "cuda:%d", cc);
  cg_ptxas_info pi = {k->num_regs, k->spill_store_bytes, k->spill_load_bytes, k->shared_static,
                      k->local_bytes};
  cg_metadata md = {k->name,
                    k->num_warps,
                    k->num_stages,
                    k->shared_bytes,
                    target,
                    k->arch,
                    np,
                    params,
                    nc,
                    cexprs,
                    TTC_VERSION_STRING,
                    k->out[TTC_LEVEL_PTX],
                    k->num_regs >= 0 ? &pi : NULL,
                    k->time_ms};
  json = cg_metadata_json(&md);
done:
  free(params);
  free(cexprs);
  free(types);
  return json;
}

/* What the pass manager reports across a compile's pipelines: the IR
 * printed before/after passes (opts.print_before/print_after) and each
 * pass's time (opts.time_passes). */
typedef struct pass_report {
  const ttc_compile_options *o;
  ir_strbuf dump;
  ir_pass_timing timing;
} pass_report;

/* Runs a pipeline given as text; debug builds verify after every pass,
 * ttgir rules included. */
static bool run_pipeline(ir_module *m, const char *text, pass_report *rep) {
  ir_pipeline pl;
  bool ok = ir_pipeline_parse(m->ctx, text, ttg_pass_lookup, &pl);
  if (!ok) IR_UNREACHABLE("the built-in pipeline does not parse: %s", text);
  ir_pass_options po = {0};
#ifndef NDEBUG
  po.verify_each = true;
  po.verify = ttg_verify;
#endif
  po.print_before = rep->o->print_before;
  po.print_after = rep->o->print_after;
  po.print_locations = rep->o->emit_locations != 0;
  po.dump = &rep->dump;
  po.timing = rep->o->time_passes ? &rep->timing : NULL;
  ok = ir_run_pipeline(m, &pl, &po);
  ir_pipeline_free(&pl);
  return ok;
}

/* A stage outside the pass manager, in the time report. */
static void time_stage(pass_report *rep, const char *name, double ms) {
  ir_pass_timing *t = &rep->timing;
  if (!rep->o->time_passes || t->n >= 64 || ms < 0) return;
  snprintf(t->names[t->n], sizeof t->names[t->n], "%s", name);
  t->times[t->n++] = ms / 1e3;
}

static ttc_status run_ttgir(ir_module *m, const ttc_compile_options *o, int cc, pass_report *rep) {
  ttg_options to = {o->num_warps, 32, 1, cc, o->num_stages, o->remarks != 0};
  char text[512];
  if (!ttg_pipeline_text(&to, text, sizeof text)) IR_UNREACHABLE("pipeline text too long");
  return run_pipeline(m, text, rep) ? TTC_OK : TTC_ERROR_INPUT;
}

/* Runs the pipeline as far as o->stop_after; returns the status. */
static ttc_status compile_pipeline(ttc_kernel *k, ir_context *ctx, const ir_source *src,
                                   const char *name, const char *signature,
                                   const ttc_compile_options *o, int cc, pass_report *rep) {
  fe_kernel_info info = {0};
  double t = now_ms();
  fe_search_path search = {k->ninclude_dirs, (const char *const *)k->include_dirs};
  ir_module *m = fe_lower_kernel(ctx, src, name, signature, &search, &info);
  if (!m) return ir_context_num_errors(ctx) ? TTC_ERROR_INPUT : TTC_ERROR_OUT_OF_MEMORY;
  k->imports = info.nmodules;
  k->reads_environment = info.reads_environment;
  time_stage(rep, "frontend (kernel file to ttir)", now_ms() - t);
  ttc_status st = TTC_OK;
  char *llir = NULL, *ptx = NULL;
  if (!record_params(k, &info)) {
    st = TTC_ERROR_OUT_OF_MEMORY;
    goto done;
  }
  if (!ir_verify(m)) {
    st = TTC_ERROR_INTERNAL;
    goto done;
  }
  if (!run_pipeline(m, IR_TTIR_PIPELINE, rep)) {
    st = TTC_ERROR_INPUT;
    goto done;
  }
  if (!keep_ttir(k, m, o)) goto oom;
  k->time_ms[TTC_LEVEL_TTIR] = now_ms() - t;
  if (o->stop_after == TTC_LEVEL_TTIR) goto done;

  t = now_ms();
  /* the frontend's and the ttir passes' leftovers go before the ttgir passes */
  double tc = now_ms();
  if (!ir_module_compact(m)) {
    st = ir_context_num_errors(ctx) ? TTC_ERROR_INTERNAL : TTC_ERROR_OUT_OF_MEMORY;
    goto done;
  }
  time_stage(rep, "compact (live ops into fresh memory)", now_ms() - tc);
  if ((st = run_ttgir(m, o, cc, rep)) != TTC_OK) goto done;
  if (!print_level(k, TTC_LEVEL_TTGIR, m, o)) goto oom;
  k->time_ms[TTC_LEVEL_TTGIR] = now_ms() - t;
  if (o->stop_after == TTC_LEVEL_TTGIR) goto done;

  /* Shared memory and barriers, as Triton's make_llir does before LLVM. */
  t = now_ms();
  if (!run_pipeline(m, TTG_CODEGEN_PREP_PIPELINE, rep)) {
    st = TTC_ERROR_INPUT;
    goto done;
  }
  k->shared_bytes = (int)ir_op_get_int(m->op, "ttg.shared", 0);
  double prep_ms = now_ms() - t, cg_ms[3] = {0, 0, 0};
  bool libdevice_missing = false;
  int opt_level = o->opt_level < 0 ? 0 : o->opt_level > 3 ? 3 : o->opt_level;
  cg_options co = {.arch = k->arch,
                   .num_warps = o->num_warps,
                   .opt_level = opt_level,
                   .libdevice_missing = &libdevice_missing,
                   .stage_ms = cg_ms,
                   .line_info = drv_line_info(o->no_line_info)};
  if (!cg_emit_ptx(m, &co, &llir, &ptx)) {
    st = libdevice_missing            ? TTC_ERROR_TOOL
         : ir_context_num_errors(ctx) ? TTC_ERROR_UNSUPPORTED
                                      : TTC_ERROR_LLVM;
    goto done;
  }
  k->time_ms[TTC_LEVEL_LLIR] = prep_ms + cg_ms[0] + cg_ms[1];
  k->time_ms[TTC_LEVEL_PTX] = cg_ms[2];
  k->llvm_ms = cg_ms[1] + cg_ms[2];
  time_stage(rep, "codegen-llvm (ttgir to LLVM IR)", cg_ms[0]);
  time_stage(rep, "llvm-opt (libdevice, verifier, optimizer, printer)", cg_ms[1]);
  time_stage(rep, "llvm-nvptx (LLVM IR to PTX)", cg_ms[2]);
  keep_text(k, TTC_LEVEL_LLIR, llir);
  keep_text(k, TTC_LEVEL_PTX, ptx);
  llir = ptx = NULL;
  if (o->stop_after <= TTC_LEVEL_PTX) goto done;

  void *cubin = NULL;
  size_t cubin_size = 0;
  cg_ptxas_info pi;
  t = now_ms();
  if (!cg_run_ptxas_info(ctx, k->out[TTC_LEVEL_PTX], k->arch, o->ptxas, &cubin, &cubin_size, &pi)) {
    st = TTC_ERROR_TOOL;
    goto done;
  }
  k->time_ms[TTC_LEVEL_CUBIN] = now_ms() - t;
  time_stage(rep, "ptxas (PTX to cubin)", k->time_ms[TTC_LEVEL_CUBIN]);
  k->num_regs = pi.num_regs;
  k->spill_store_bytes = pi.spill_store_bytes;
  k->spill_load_bytes = pi.spill_load_bytes;
  k->shared_static = pi.shared_static;
  k->local_bytes = pi.local;
  k->out[TTC_LEVEL_CUBIN] = cubin;
  k->out_size[TTC_LEVEL_CUBIN] = cubin_size;
  goto done;
oom:
  st = TTC_ERROR_OUT_OF_MEMORY;
done:
  /* The metadata of whatever levels were reached (a failing ptxas keeps the
   * PTX's); ptxas's numbers are null without a cubin. */
  if (k->out[TTC_LEVEL_TTIR] && st != TTC_ERROR_OUT_OF_MEMORY) {
    k->metadata = build_metadata(k, &info, cc);
    if (!k->metadata) st = TTC_ERROR_OUT_OF_MEMORY;
  }
  free(llir);
  free(ptx);
  ir_module_destroy(m);
  return st;
}

/* Copies what the kernel was compiled from into it. False on OOM. */
static bool keep_inputs(ttc_kernel *k, const char *source, size_t source_len, const char *filename,
                        const char *signature) {
  k->source = malloc(source_len + 1);
  if (k->source) {
    memcpy(k->source, source, source_len);
    k->source[source_len] = '\0';
  }
  k->source_len = source_len;
  k->filename = strdup(filename);
  k->signature = strdup(signature);
  return k->source && k->filename && k->signature;
}

ttc_status drv_compile_now(const char *source, size_t source_len, const char *filename,
                           const char *name, const char *signature, const ttc_compile_options *opts,
                           ttc_kernel **out) {
  ttc_compile_options o = *opts;
  ttc_kernel *k = drv_kernel_new();
  if (!k) return TTC_ERROR_OUT_OF_MEMORY;
  k->name = strdup(name);
  k->num_regs = k->spill_store_bytes = k->spill_load_bytes = k->shared_static = k->local_bytes = -1;
  for (int l = 0; l < TTC_NUM_LEVELS; l++)
    k->time_ms[l] = -1;
  k->num_warps = o.num_warps;
  k->num_stages = o.num_stages;
  /* As Triton does, compute capability 9.0 compiles for sm_90a: wgmma and
   * the other architecture-specific instructions need it, and an sm_90a
   * cubin runs on every 9.0 device. */
  snprintf(k->arch, sizeof k->arch, "%s", strcmp(o.arch, "sm_90") == 0 ? "sm_90a" : o.arch);
  bool dirs_ok = true;
  if (o.num_include_dirs > 0 && o.include_dirs) {
    k->include_dirs = calloc((size_t)o.num_include_dirs, sizeof *k->include_dirs);
    dirs_ok = k->include_dirs != NULL;
    for (int i = 0; dirs_ok && i < o.num_include_dirs; i++) {
      k->include_dirs[i] = strdup(o.include_dirs[i] ? o.include_dirs[i] : ".");
      dirs_ok = k->include_dirs[i] != NULL;
      k->ninclude_dirs = i + 1;
    }
  }
  ir_context *ctx = ir_context_create();
  if (!ctx || !k->name || !dirs_ok || !keep_inputs(k, source, source_len, filename, signature)) {
    ir_context_destroy(ctx);
    ttc_kernel_destroy(k);
    return TTC_ERROR_OUT_OF_MEMORY;
  }
  ttc_status st;
  int cc = drv_arch_cc(o.arch);
  const ir_source *src = ir_context_add_source(ctx, filename, source, source_len);
  ir_loc none = {NULL, 0, 0};
  if (cc < 80) {
    ir_error(ctx, none, "unsupported target '%s': expected %s", o.arch, DRV_ARCH_LIST);
    st = TTC_ERROR_ARGUMENT;
  } else if (o.num_warps < 1 || o.num_warps > 32 || (o.num_warps & (o.num_warps - 1))) {
    ir_error(ctx, none, "num_warps must be a power of two in 1..32, got %d", o.num_warps);
    st = TTC_ERROR_ARGUMENT;
  } else if (o.opt_level < 0 || o.opt_level > 3) {
    ir_error(ctx, none, "opt_level must be in 0..3, got %d", o.opt_level);
    st = TTC_ERROR_ARGUMENT;
  } else if (o.num_stages < 0 || o.num_stages > TTC_MAX_NUM_STAGES) {
    ir_error(ctx, none, "num_stages must be in 0..%d, got %d", TTC_MAX_NUM_STAGES, o.num_stages);
    st = TTC_ERROR_ARGUMENT;
  } else if ((int)o.stop_after < 0 || o.stop_after >= TTC_NUM_LEVELS) {
    ir_error(ctx, none, "stop_after must be a ttc_level (0..%d), got %d", TTC_NUM_LEVELS - 1,
             (int)o.stop_after);
    st = TTC_ERROR_ARGUMENT;
  } else if (!src) {
    st = TTC_ERROR_OUT_OF_MEMORY;
  } else {
    pass_report rep = {.o = &o};
    ir_sb_init(&rep.dump);
    double t0 = now_ms();
    st = compile_pipeline(k, ctx, src, name, signature, &o, cc, &rep);
    if (o.time_passes) {
      const char *names[64];
      for (int i = 0; i < rep.timing.n; i++)
        names[i] = rep.timing.names[i];
      ir_time_report(&rep.dump, rep.timing.n, names, rep.timing.times, (now_ms() - t0) / 1e3);
    }
    k->pass_dump = ir_sb_take(&rep.dump);
  }
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_render_diags(ctx, &sb);
  k->diagnostics = ir_sb_take(&sb);
  k->status = st;
  ir_context_destroy(ctx);
  *out = k;
  return st;
}

/* Appends text to the kernel's diagnostics (remarks of the cache). */
static void append_diagnostics(ttc_kernel *k, const char *text) {
  if (!text || !*text) return;
  size_t a = k->diagnostics ? strlen(k->diagnostics) : 0, b = strlen(text);
  char *d = realloc(k->diagnostics, a + b + 1);
  if (!d) return;
  memcpy(d + a, text, b + 1);
  k->diagnostics = d;
}

ttc_status drv_compile_cached(const drv_cache *c, const uint8_t src_digest[DRV_DIGEST_LEN],
                              const char *source, size_t source_len, const char *filename,
                              const char *name, const char *signature,
                              const ttc_compile_options *opts, ttc_kernel **out,
                              ir_strbuf *remarks) {
  *out = NULL;
  char key[DRV_KEY_LEN + 1];
  drv_compile_key(src_digest, name, signature, opts, key);
  ir_strbuf own;
  ir_sb_init(&own);
  ir_strbuf *rem = remarks ? remarks : &own;
  ttc_status st = TTC_OK;
  ttc_kernel *k = drv_cache_load_kernel(c, key, opts->stop_after, rem);
  if (k && !keep_inputs(k, source, source_len, filename, signature)) {
    ttc_kernel_destroy(k);
    ir_sb_free(&own);
    return TTC_ERROR_OUT_OF_MEMORY;
  }
  if (!k) {
    st = drv_compile_now(source, source_len, filename, name, signature, opts, &k);
    /* the key covers the kernel's file only: a kernel that imports other
     * files' modules, or whose host code reads the environment, is compiled
     * each time, never stored */
    if (st == TTC_OK && k->imports == 0 && !k->reads_environment)
      drv_cache_store_kernel(c, key, k, rem);
  }
  drv_dump_kernel(key, k, source, source_len, filename, name, signature, opts, rem);
  if (k && !remarks) append_diagnostics(k, own.data);
  ir_sb_free(&own);
  *out = k;
  return st;
}

/* ttc_compile's arguments, carried to the thread that runs it. */
typedef struct compile_call {
  const char *source;
  size_t source_len;
  const char *filename, *name, *signature;
  ttc_compile_options o;
  ttc_kernel **out;
  ttc_status st;
} compile_call;

static void compile_deep(void *arg) {
  compile_call *c = arg;
  /* a compile asked to print or time its passes (or for remarks) must run them */
  bool reports = c->o.print_before || c->o.print_after || c->o.time_passes || c->o.remarks;
  bool cache_too_long = false;
  if (c->o.cache && drv_level_cached(c->o.stop_after) && !reports) {
    drv_cache cache;
    uint8_t digest[DRV_DIGEST_LEN];
    drv_cache_init(&cache, c->o.cache, c->o.cache_dir);
    cache_too_long = cache.too_long;
    /* a file that does not parse is compiled (and diagnosed), not cached */
    if (cache.enabled &&
        drv_source_digest_of(c->filename, c->source, c->source_len, c->name, digest)) {
      c->st = drv_compile_cached(&cache, digest, c->source, c->source_len, c->filename, c->name,
                                 c->signature, &c->o, c->out, NULL);
      return;
    }
  }
  c->st =
      drv_compile_now(c->source, c->source_len, c->filename, c->name, c->signature, &c->o, c->out);
  if (cache_too_long && *c->out) {
    char note[160];
    snprintf(note, sizeof note,
             "remark: the cache folder's path is longer than %d characters: the cache is off\n",
             (int)(DRV_PATH_MAX - DRV_KEY_LEN - 64));
    append_diagnostics(*c->out, note);
  }
  const char *dump = getenv("TTC_DUMP_DIR");
  if (*c->out && dump && *dump) {
    char key[DRV_KEY_LEN + 1];
    ir_strbuf remarks;
    ir_sb_init(&remarks);
    drv_dump_key(c->source, c->source_len, c->filename, c->name, c->signature, &c->o, key);
    drv_dump_kernel(key, *c->out, c->source, c->source_len, c->filename, c->name, c->signature,
                    &c->o, &remarks);
    append_diagnostics(*c->out, remarks.data);
    ir_sb_free(&remarks);
  }
}

ttc_status ttc_compile(const char *source, size_t source_len, const char *filename,
                       const char *name, const char *signature, const ttc_compile_options *opts,
                       ttc_kernel **out) {
  if (!out) return TTC_ERROR_ARGUMENT;
  *out = NULL;
  if (!source || !filename || !name || !signature) return TTC_ERROR_ARGUMENT;
  if (source_len > DRV_MAX_SOURCE_BYTES) { /* before any length arithmetic */
    *out = drv_kernel_failed(name, TTC_ERROR_INPUT,
                             "%s: source of %zu bytes exceeds the limit of "
                             "%d MiB",
                             filename, source_len, (int)(DRV_MAX_SOURCE_BYTES >> 20));
    return *out ? TTC_ERROR_INPUT : TTC_ERROR_OUT_OF_MEMORY;
  }
  compile_call c = {source, source_len, filename, name, signature, {0}, out, TTC_OK};
  ttc_compile_options_init(&c.o);
  /* the first version with a size field ends at num_include_dirs */
  if (opts &&
      !drv_options_read(&c.o, sizeof c.o, opts, DRV_V1_SIZE(ttc_compile_options, num_include_dirs)))
    return TTC_ERROR_ARGUMENT;
  if (!c.o.arch) c.o.arch = "sm_90";
  /* parsing, lowering and printing recurse within the documented limits:
   * on the library's own stack, whatever the caller's thread has */
  ir_run_deep(compile_deep, &c);
  return c.st;
}

char *drv_read_source(const char *path, size_t *len, char *why, size_t whylen) {
  return drv_read_file(path, DRV_MAX_SOURCE_BYTES, "source", len, why, whylen);
}

char *drv_read_file(const char *path, size_t max, const char *what, size_t *len, char *why,
                    size_t whylen) {
  *len = 0;
  why[0] = '\0';
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    snprintf(why, whylen, "cannot read '%s': %s", path, strerror(errno));
    return NULL;
  }
  /* a device or pipe (/dev/zero, a FIFO) could never end or never fit */
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    snprintf(why, whylen, "cannot read '%s': not a regular file", path);
    close(fd);
    return NULL;
  }
  ir_strbuf sb;
  ir_sb_init(&sb);
  char buf[65536];
  ssize_t n;
  bool bad = false;
  /* read to the limit and one byte past it: the size stat gave may change */
  while (!bad && (n = read(fd, buf, sizeof buf)) != 0) {
    if (n < 0) {
      bad = errno != EINTR;
      if (bad) snprintf(why, whylen, "cannot read '%s': %s", path, strerror(errno));
      continue;
    }
    ir_sb_append(&sb, buf, (size_t)n);
    if (sb.len > max) {
      snprintf(why, whylen, "'%s' is larger than the %s limit of %d MiB", path, what,
               (int)(max >> 20));
      bad = true;
    }
  }
  close(fd);
  if (!bad && sb.failed) {
    snprintf(why, whylen, "cannot read '%s': out of memory", path);
    bad = true;
  }
  if (bad) {
    ir_sb_free(&sb);
    return NULL;
  }
  *len = sb.len;
  return ir_sb_take(&sb);
}

ttc_kernel *drv_kernel_failed(const char *name, ttc_status st, const char *fmt, ...) {
  ttc_kernel *k = drv_kernel_new();
  if (!k) return NULL;
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_sb_puts(&sb, "error: ");
  va_list ap;
  va_start(ap, fmt);
  ir_sb_vprintf(&sb, fmt, ap);
  va_end(ap);
  ir_sb_putc(&sb, '\n');
  k->diagnostics = ir_sb_take(&sb);
  k->name = strdup(name ? name : "");
  k->status = st;
  return k;
}

ttc_status ttc_compile_file(const char *path, const char *name, const char *signature,
                            const ttc_compile_options *opts, ttc_kernel **out) {
  if (!out) return TTC_ERROR_ARGUMENT;
  *out = NULL;
  if (!path) return TTC_ERROR_ARGUMENT;
  size_t len = 0;
  char why[512];
  char *text = drv_read_source(path, &len, why, sizeof why);
  if (!text) {
    *out = drv_kernel_failed(name, TTC_ERROR_IO, "%s", why);
    return *out ? TTC_ERROR_IO : TTC_ERROR_OUT_OF_MEMORY;
  }
  ttc_status st = ttc_compile(text, len, path, name, signature, opts, out);
  free(text);
  return st;
}

ttc_kernel *drv_kernel_new(void) {
  ttc_kernel *k = calloc(1, sizeof *k);
  if (k && !rt_handle_add(k, RT_HANDLE_KERNEL)) {
    free(k);
    return NULL;
  }
  if (k) k->llvm_ms = -1; /* set when a compile reaches PTX */
  return k;
}

/* A live kernel handle (not NULL, not destroyed). */
static bool live(const ttc_kernel *k) { return k && rt_handle_live(k, RT_HANDLE_KERNEL); }

ttc_status ttc_kernel_destroy(ttc_kernel *k) {
  if (!k) return TTC_OK;
  if (!rt_handle_remove(k, RT_HANDLE_KERNEL)) return TTC_ERROR_ARGUMENT;
  for (int i = 0; i < TTC_NUM_LEVELS; i++)
    free(k->out[i]);
  free(k->diagnostics);
  free(k->metadata);
  free(k->pass_dump);
  free(k->name);
  free(k->param_types);
  free(k->param_pointees);
  free(k->param_divisibility);
  free(k->source);
  free(k->filename);
  free(k->signature);
  free(k->ttir_located);
  for (int i = 0; i < k->ninclude_dirs; i++)
    free(k->include_dirs[i]);
  free(k->include_dirs);
  free(k);
  return TTC_OK;
}

ttc_status ttc_kernel_status(const ttc_kernel *k) {
  return live(k) ? k->status : TTC_ERROR_ARGUMENT;
}

const char *ttc_kernel_diagnostics(const ttc_kernel *k) {
  return live(k) && k->diagnostics ? k->diagnostics : "";
}

const void *ttc_kernel_output(const ttc_kernel *k, ttc_level level, size_t *size) {
  if (size) *size = 0;
  if (!live(k) || (int)level < 0 || level >= TTC_NUM_LEVELS || !k->out[level]) return NULL;
  if (size) *size = k->out_size[level];
  return k->out[level];
}

const char *ttc_kernel_metadata_json(const ttc_kernel *k) { return live(k) ? k->metadata : NULL; }

const char *ttc_kernel_pass_dump(const ttc_kernel *k) {
  return live(k) && k->pass_dump ? k->pass_dump : "";
}

const char *ttc_kernel_ttir_located(const ttc_kernel *k, size_t *size) {
  if (size) *size = live(k) && k->ttir_located ? k->ttir_located_size : 0;
  return live(k) ? k->ttir_located : NULL;
}
const char *ttc_kernel_name(const ttc_kernel *k) { return live(k) && k->name ? k->name : ""; }
int ttc_kernel_num_warps(const ttc_kernel *k) { return live(k) ? k->num_warps : 0; }
int ttc_kernel_shared_bytes(const ttc_kernel *k) { return live(k) ? k->shared_bytes : 0; }
int ttc_kernel_num_params(const ttc_kernel *k) { return live(k) ? k->nparams : 0; }
int ttc_kernel_from_cache(const ttc_kernel *k) { return live(k) && k->from_cache; }

int ttc_kernel_param_divisibility(const ttc_kernel *k, int i) {
  if (!live(k) || i < 0 || i >= k->nparams || !k->param_divisibility) return 1;
  return k->param_divisibility[i] > 1 ? k->param_divisibility[i] : 1;
}

int ttc_kernel_param_must_be_one(const ttc_kernel *k, int i) {
  if (!live(k) || i < 0 || i >= k->nparams || !k->param_divisibility) return 0;
  return k->param_divisibility[i] == TTC_PARAM_ONE;
}

ttc_status ttc_kernel_get_stats(const ttc_kernel *k, ttc_kernel_stats *stats) {
  /* The first version ends with time_ms: fields added later lie after it,
   * and callers that do not know them are still served. */
  const size_t v1_size = offsetof(ttc_kernel_stats, time_ms) + sizeof stats->time_ms;
  if (!live(k) || !stats || stats->size < v1_size) return TTC_ERROR_ARGUMENT;
  ttc_kernel_stats s = {
      sizeof s,        k->num_regs,      k->spill_store_bytes, k->spill_load_bytes,
      k->shared_bytes, k->shared_static, k->local_bytes,       {0},
      k->llvm_ms};
  memcpy(s.time_ms, k->time_ms, sizeof s.time_ms);
  size_t n = stats->size;
  memcpy(stats, &s, n < sizeof s ? n : sizeof s);
  stats->size = n;
  return TTC_OK;
}

ttc_type ttc_kernel_param_type(const ttc_kernel *k, int i, ttc_type *pointee) {
  if (!live(k) || i < 0 || i >= k->nparams) {
    if (pointee) *pointee = TTC_TYPE_I32;
    return TTC_TYPE_I32;
  }
  if (pointee) *pointee = k->param_pointees[i];
  return k->param_types[i];
}
