// SPDX-License-Identifier: MIT
/* function.c - kernel functions (ttc/function.h): creating one from a
 * kernel file and its declaration, the lock-free tables of loaded
 * specializations and autotune choices, the launch path, and messages.
 *
 * The launch path: the specialization key from the argument values
 * (specialize.c), the autotune config (autotune.c) and heuristic values
 * (heuristics.c) where the kernel has them, one table lookup, the launch.
 * Only a miss takes the lock, to compile or tune. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/function_impl.h"

/* ---- messages and errors --------------------------------------------------------- */

/* The formatted message, malloc'd (NULL on OOM). */
static char *format_message(const char *fmt, va_list ap) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_sb_vprintf(&sb, fmt, ap);
  return ir_sb_take(&sb);
}

ttc_status fn_fail(ttc_function *f, ttc_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = format_message(fmt, ap);
  va_end(ap);
  pthread_mutex_lock(&f->lock);
  free(f->error);
  f->error = msg;
  pthread_mutex_unlock(&f->lock);
  return st;
}

void fn_message(ttc_function *f, bool is_autotune, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = format_message(fmt, ap);
  va_end(ap);
  if (!msg) return;
  if (f->on_message) {
    f->on_message(f->message_user, msg);
  } else {
    ir_sb_printf(&f->messages, "%s\n", msg);
    /* $TTC_PRINT_AUTOTUNING asks for the report on stderr, as
     * TRITON_PRINT_AUTOTUNING does; nothing else is ever printed. */
    if (is_autotune && f->print_autotuning) fprintf(stderr, "%s\n", msg);
  }
  free(msg);
}

/* ---- tables ------------------------------------------------------------------------ */

uint64_t fn_hash(const uint8_t *key, size_t len) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < len; i++)
    h = (h ^ key[i]) * 0x100000001b3ull;
  return h;
}

void *fn_table_find(const fn_table *t, uint64_t hash, const uint8_t *key, size_t len) {
  if (!t) return NULL;
  size_t mask = t->cap - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const fn_entry *e = &t->entries[i];
    if (!e->key) return NULL;
    if (e->hash == hash && e->keylen == len && memcmp(e->key, key, len) == 0) return e->value;
  }
}

/* Puts e in the first free slot from its hash on (t has room). */
static void table_place(fn_table *t, const fn_entry *e) {
  size_t i = e->hash & (t->cap - 1);
  while (t->entries[i].key)
    i = (i + 1) & (t->cap - 1);
  t->entries[i] = *e;
}

bool fn_table_insert(ttc_function *f, _Atomic(fn_table *) *slot, const uint8_t *key, size_t len,
                     void *value) {
  fn_table *old = atomic_load_explicit(slot, memory_order_relaxed);
  size_t n = old ? old->n + 1 : 1, cap = 8;
  while (cap < 2 * n + 2)
    cap *= 2;
  fn_table *t = calloc(1, sizeof *t + cap * sizeof(fn_entry));
  uint8_t *k = ir_arena_alloc(&f->arena, len ? len : 1);
  if (!t || !k) {
    free(t);
    return false;
  }
  memcpy(k, key, len);
  t->cap = cap;
  t->retired = old;
  fn_entry add = {fn_hash(key, len), k, len, value};
  for (size_t j = 0; old && j <= old->cap; j++) {
    const fn_entry *e = j < old->cap ? &old->entries[j] : NULL;
    if (e && e->key) table_place(t, e);
  }
  table_place(t, &add);
  t->n = n;
  atomic_store_explicit(slot, t, memory_order_release);
  return true;
}

static void table_free_all(fn_table *t) {
  while (t) {
    fn_table *next = t->retired;
    free(t);
    t = next;
  }
}

/* ---- creation ---------------------------------------------------------------------- */

void ttc_function_options_init_sized(ttc_function_options *o, size_t size) {
  ttc_function_options def = {0};
  def.num_warps = 4;
  def.num_stages = 3;
  def.cache = 1;
  def.autotune = 1;
  drv_options_init(o, size, &def, sizeof def);
}

/* Parses one constexpr value ("1024", "-3", "0.5", "True"). */
static bool parse_value(const char *s, size_t n, fe_cval *v) {
  char buf[64];
  if (n == 0 || n >= sizeof buf) return false;
  memcpy(buf, s, n);
  buf[n] = '\0';
  memset(v, 0, sizeof *v);
  if (strcmp(buf, "True") == 0 || strcmp(buf, "False") == 0) {
    v->kind = FE_CVAL_BOOL;
    v->i = buf[0] == 'T';
    return true;
  }
  char *end;
  const char *digits = buf + (buf[0] == '-' || buf[0] == '+');
  bool is_hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
  if (is_hex || !strpbrk(buf, ".eEn")) {
    errno = 0;
    long long x = strtoll(buf, &end, 0);
    v->kind = FE_CVAL_INT;
    v->i = x;
    return *end == '\0' && errno != ERANGE; /* strtoll saturates past 64 bits */
  }
  v->kind = FE_CVAL_FLOAT;
  v->f = strtod(buf, &end);
  return *end == '\0';
}

static const char *trim(const char *b, const char **e) {
  while (b < *e && (*b == ' ' || *b == '\t'))
    b++;
  while (*e > b && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
    (*e)--;
  return b;
}

/* Applies "A=1, B=True" to the parameters; false after an error message. */
static bool apply_constexprs(ttc_function *f, const char *s) {
  ir_strbuf norm;
  ir_sb_init(&norm);
  bool ok = true;
  for (const char *p = s; ok && p && *p;) {
    const char *comma = strchr(p, ','), *end = comma ? comma : p + strlen(p);
    const char *eq = memchr(p, '=', (size_t)(end - p));
    const char *ne = eq ? eq : end, *ve = end;
    const char *nb = trim(p, &ne), *vb = eq ? trim(eq + 1, &ve) : ve;
    p = comma ? comma + 1 : NULL;
    if (nb == ne && !eq) continue; /* an empty entry */
    int found = -1;
    for (int i = 0; i < f->nparams; i++)
      if (strlen(f->params[i].name) == (size_t)(ne - nb) &&
          memcmp(f->params[i].name, nb, (size_t)(ne - nb)) == 0)
        found = i;
    fe_cval v;
    if (!eq || !parse_value(vb, (size_t)(ve - vb), &v)) {
      fn_fail(f, TTC_ERROR_ARGUMENT,
              "constexprs: expected NAME=VALUE (a number, True or False), "
              "found '%.*s'",
              (int)(end - nb), nb);
      ok = false;
    } else if (found < 0 || !f->params[found].is_constexpr) {
      fn_fail(f, TTC_ERROR_ARGUMENT, "constexprs: '%.*s' is not a constexpr parameter of '%s'",
              (int)(ne - nb), nb, f->name);
      ok = false;
    } else if (f->params[found].source == FN_FROM_CREATE) {
      fn_fail(f, TTC_ERROR_ARGUMENT, "constexprs: '%s' is given twice", f->params[found].name);
      ok = false;
    } else {
      f->params[found].source = FN_FROM_CREATE;
      f->params[found].value = v;
      ir_sb_printf(&norm, "%s=%.*s;", f->params[found].name, (int)(ve - vb), vb);
    }
  }
  f->constexprs = ir_sb_take(&norm);
  if (!f->constexprs) f->constexprs = strdup("");
  return ok;
}

/* The parameters from the declaration: launch arguments, constexpr value
 * sources, specialization switches. False after an error message. */
static bool setup_params(ttc_function *f, const char *constexprs) {
  const fe_jit_decl *d = f->decl;
  /* the launch keys (FN_MAX_KEY) hold one entry a parameter, a key name and
   * a heuristic each; the declaration reader keeps them within that */
  if (d->nparams > FN_MAX_PARAMS || d->nkey > FN_MAX_PARAMS || d->nheuristics > FN_MAX_PARAMS)
    return fn_fail(f, TTC_ERROR_INPUT,
                   "'%s' has more than %d parameters, autotune key names or heuristics", f->name,
                   FN_MAX_PARAMS),
           false;
  f->nparams = d->nparams;
  f->params = ir_arena_alloc(&f->arena, sizeof *f->params * (size_t)(d->nparams + 1));
  f->arg_param = ir_arena_alloc(&f->arena, sizeof(int) * (size_t)(d->nparams + 1));
  f->key_params = ir_arena_alloc(&f->arena, sizeof(int) * (size_t)(d->nkey + 1));
  if (!f->params || !f->arg_param || !f->key_params) return false;
  for (int i = 0; i < d->nparams; i++) {
    const fe_jit_param *dp = &d->params[i];
    fn_param *p = &f->params[i];
    memset(p, 0, sizeof *p);
    p->name = dp->name;
    p->is_constexpr = dp->is_constexpr;
    p->arg = -1;
    p->no_specialize = dp->do_not_specialize;
    p->no_align = dp->do_not_specialize_on_alignment;
    if (!p->is_constexpr) {
      p->arg = f->nargs;
      f->arg_param[f->nargs++] = i;
    } else if (dp->has_default) {
      p->source = FN_FROM_DEFAULT;
      p->value = dp->dflt;
    }
  }
  if (!apply_constexprs(f, constexprs)) return false;
  /* A config key must be a constexpr every config sets, and not one the
   * caller gave (Triton: "conflicting meta-parameters"). */
  for (int c = 0; c < d->nconfigs; c++)
    for (int k = 0; k < d->configs[c].nkv; k++)
      for (int i = 0; i < f->nparams; i++) {
        fn_param *p = &f->params[i];
        if (p->name != d->configs[c].kv[k].name) continue;
        if (!p->is_constexpr)
          return fn_fail(f, TTC_ERROR_INPUT,
                         "autotune config %d sets '%s', which is not a "
                         "constexpr parameter",
                         c, p->name),
                 false;
        if (p->source == FN_FROM_CREATE)
          return fn_fail(f, TTC_ERROR_ARGUMENT,
                         "conflicting meta-parameters: '%s' is given in "
                         "constexprs and by the autotune configs",
                         p->name),
                 false;
        p->source = FN_FROM_CONFIG;
      }
  for (int h = 0; h < d->nheuristics; h++)
    for (int i = 0; i < f->nparams; i++)
      if (f->params[i].name == d->heuristics[h].name) {
        if (!f->params[i].is_constexpr)
          return fn_fail(f, TTC_ERROR_INPUT,
                         "heuristic sets '%s', which is not a constexpr "
                         "parameter",
                         f->params[i].name),
                 false;
        f->params[i].source = FN_FROM_HEURISTIC;
        f->params[i].heuristic = h;
      }
  for (int i = 0; i < f->nparams; i++) {
    const fn_param *p = &f->params[i];
    if (!p->is_constexpr || p->source != FN_FROM_NONE) continue;
    return fn_fail(f, TTC_ERROR_ARGUMENT,
                   "constexpr parameter '%s' of '%s' has no value: give "
                   "it in constexprs (\"%s=...\"), a default, an autotune config or a heuristic",
                   p->name, f->name, p->name),
           false;
  }
  for (int k = 0; k < d->nkey; k++)
    for (int i = 0; i < f->nparams; i++)
      if (f->params[i].name == d->key[k]) f->key_params[k] = i;
  return true;
}

/* Reads the declaration; false after an error (diagnostics in the message). */
static bool read_decl(ttc_function *f) {
  const ir_source *src = ir_context_add_source(f->ctx, f->filename, f->source, f->source_len);
  if (!src) return false;
  f->decl = fe_read_jit_decl(f->ctx, src, &f->arena, f->name);
  if (!f->decl) {
    ir_strbuf sb;
    ir_sb_init(&sb);
    ir_render_diags(f->ctx, &sb);
    fn_fail(f, TTC_ERROR_INPUT, "%s", sb.data ? sb.data : "out of memory");
    ir_sb_free(&sb);
    return false;
  }
  drv_source_digest(src, f->decl->spans, f->decl->nspans, f->src_digest);
  if (f->decl->nparams > FN_MAX_PARAMS) {
    fn_fail(f, TTC_ERROR_UNSUPPORTED, "'%s' has %d parameters; kernel functions take at most %d",
            f->name, f->decl->nparams, FN_MAX_PARAMS);
    return false;
  }
  if (f->decl->has_prune && f->autotune_enabled)
    fn_message(f, true,
               "remark: %s: prune_configs_by is not evaluated (it runs host code): "
               "every config is timed",
               f->name);
  return true;
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

static ttc_status create_now(ttc_device *dev, const char *source, size_t source_len,
                             const char *filename, const char *name, const char *constexprs,
                             const ttc_function_options *opts, ttc_function **out) {
  if (!out) return TTC_ERROR_ARGUMENT;
  *out = NULL;
  if (!RT_DEV_LIVE(dev) || !source || !filename || !name) return TTC_ERROR_ARGUMENT;
  ttc_function_options o;
  ttc_function_options_init(&o);
  if (opts &&
      !drv_options_read(&o, sizeof o, opts, DRV_V1_SIZE(ttc_function_options, message_user)))
    return TTC_ERROR_ARGUMENT;
  ttc_function *f = calloc(1, sizeof *f);
  if (f && !rt_handle_add(f, RT_HANDLE_FUNCTION)) {
    free(f);
    f = NULL;
  }
  if (!f) return TTC_ERROR_OUT_OF_MEMORY;
  /* recursive: an error recorded while compiling under the lock takes it again */
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&f->lock, &attr);
  pthread_mutexattr_destroy(&attr);
  ir_sb_init(&f->messages);
  ir_arena_init(&f->arena);
  f->dev = dev;
  atomic_fetch_add(&dev->nfunctions, 1); /* the device refuses destroy until it is gone */
  f->on_interpreter = ttc_device_is_interpreter(dev) != 0;
  f->on_message = o.on_message;
  f->message_user = o.message_user;
  const char *print = getenv("TTC_PRINT_AUTOTUNING");
  f->print_autotuning = !o.on_message && print && *print && strcmp(print, "0") != 0;
  f->autotune_enabled = o.autotune != 0;
  drv_cache_init(&f->cache, o.cache, o.cache_dir);
  ttc_compile_options_init(&f->copts);
  f->copts.num_warps = o.num_warps;
  f->copts.num_stages = o.num_stages;
  /* the interpreter runs the ttir: no codegen, no ptxas */
  f->copts.stop_after = f->on_interpreter ? TTC_LEVEL_TTIR : TTC_LEVEL_CUBIN;
  f->arch = strdup(o.arch ? o.arch : f->on_interpreter ? "sm_90" : ttc_device_arch(dev));
  f->ptxas = dup_or_null(o.ptxas);
  f->copts.arch = f->arch;
  f->copts.ptxas = f->ptxas;
  f->source = malloc(source_len + 1);
  f->filename = strdup(filename);
  f->name = strdup(name);
  f->ctx = ir_context_create();
  if (!f->source || !f->filename || !f->name || !f->arch || !f->ctx || (o.ptxas && !f->ptxas)) {
    ttc_function_destroy(f);
    return TTC_ERROR_OUT_OF_MEMORY;
  }
  memcpy(f->source, source, source_len);
  f->source[source_len] = '\0';
  f->source_len = source_len;
  f->status = TTC_OK;
  if (!read_decl(f))
    f->status = f->error ? TTC_ERROR_INPUT : TTC_ERROR_OUT_OF_MEMORY;
  else if (!setup_params(f, constexprs ? constexprs : ""))
    f->status = f->error ? TTC_ERROR_ARGUMENT : TTC_ERROR_OUT_OF_MEMORY;
  *out = f;
  return f->status;
}

/* ttc_function_create's arguments, carried to the thread that runs it. */
typedef struct create_call {
  ttc_device *dev;
  const char *source;
  size_t source_len;
  const char *filename, *name, *constexprs;
  const ttc_function_options *opts;
  ttc_function **out;
  ttc_status st;
} create_call;

static void create_deep(void *arg) {
  create_call *c = arg;
  c->st = create_now(c->dev, c->source, c->source_len, c->filename, c->name, c->constexprs, c->opts,
                     c->out);
}

/* Reading the declaration parses the file: on the library's own stack. */
ttc_status ttc_function_create(ttc_device *dev, const char *source, size_t source_len,
                               const char *filename, const char *name, const char *constexprs,
                               const ttc_function_options *opts, ttc_function **out) {
  if (out && source_len > DRV_MAX_SOURCE_BYTES) { /* before any length arithmetic */
    ttc_status st =
        create_now(dev, "", 0, filename ? filename : "", name ? name : "", NULL, opts, out);
    if (*out) {
      (*out)->status = TTC_ERROR_INPUT;
      fn_fail(*out, TTC_ERROR_INPUT, "error: %s: source of %zu bytes exceeds the limit of %d MiB",
              filename ? filename : "", source_len, (int)(DRV_MAX_SOURCE_BYTES >> 20));
      st = TTC_ERROR_INPUT;
    }
    return st;
  }
  create_call c = {dev, source, source_len, filename, name, constexprs, opts, out, TTC_OK};
  ir_run_deep(create_deep, &c);
  return c.st;
}

ttc_status ttc_function_create_file(ttc_device *dev, const char *path, const char *name,
                                    const char *constexprs, const ttc_function_options *opts,
                                    ttc_function **out) {
  if (!out) return TTC_ERROR_ARGUMENT;
  *out = NULL;
  if (!path) return TTC_ERROR_ARGUMENT;
  size_t len = 0;
  char why[512];
  char *text = drv_read_source(path, &len, why, sizeof why);
  ttc_status st;
  if (!text) {
    /* a function that says why, as for any other failure */
    st = ttc_function_create(dev, "", 0, path, name ? name : "", NULL, opts, out);
    if (*out) {
      (*out)->status = TTC_ERROR_IO;
      fn_fail(*out, TTC_ERROR_IO, "error: %s", why);
      st = TTC_ERROR_IO;
    }
  } else {
    st = ttc_function_create(dev, text, len, path, name, constexprs, opts, out);
  }
  free(text);
  return st;
}

ttc_status ttc_function_destroy(ttc_function *f) {
  if (!f) return TTC_OK;
  if (!rt_handle_remove(f, RT_HANDLE_FUNCTION)) return TTC_ERROR_ARGUMENT;
  for (int i = 0; i < f->nall; i++)
    fn_variant_free(f->all[i]);
  atomic_fetch_sub(&f->dev->nfunctions, 1);
  free(f->all);
  table_free_all(atomic_load(&f->variants));
  table_free_all(atomic_load(&f->tunings));
  ir_arena_free(&f->arena);
  ir_context_destroy(f->ctx);
  free(f->source);
  free(f->filename);
  free(f->name);
  free(f->constexprs);
  free(f->arch);
  free(f->ptxas);
  free(f->error);
  ir_sb_free(&f->messages);
  pthread_mutex_destroy(&f->lock);
  free(f);
  return TTC_OK;
}

/* ---- queries ------------------------------------------------------------------------- */

ttc_status ttc_function_status(const ttc_function *f) { return f ? f->status : TTC_ERROR_ARGUMENT; }
int ttc_function_num_args(const ttc_function *f) { return f ? f->nargs : 0; }

const char *ttc_function_arg_name(const ttc_function *f, int i) {
  return f && i >= 0 && i < f->nargs ? f->params[f->arg_param[i]].name : NULL;
}

char *ttc_function_error(const ttc_function *f) {
  if (!f) return strdup("");
  pthread_mutex_lock((pthread_mutex_t *)&f->lock);
  char *s = strdup(f->error ? f->error : "");
  pthread_mutex_unlock((pthread_mutex_t *)&f->lock);
  return s;
}

char *ttc_function_messages(const ttc_function *f) {
  if (!f) return strdup("");
  pthread_mutex_lock((pthread_mutex_t *)&f->lock);
  char *s = strdup(f->messages.data ? f->messages.data : "");
  pthread_mutex_unlock((pthread_mutex_t *)&f->lock);
  return s;
}

void ttc_function_stats_get(const ttc_function *f, ttc_function_stats *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  if (!f) return;
  pthread_mutex_lock((pthread_mutex_t *)&f->lock);
  *out = f->stats;
  pthread_mutex_unlock((pthread_mutex_t *)&f->lock);
}

int ttc_launch_meta_int(const ttc_launch_meta *meta, const char *name, int64_t *value) {
  if (!meta || !name || !value) return 0;
  const ttc_function *f = meta->f;
  for (int i = 0; i < f->nparams; i++) {
    const fn_param *p = &f->params[i];
    if (strcmp(p->name, name) != 0) continue;
    if (p->is_constexpr) {
      const fe_cval *v = &meta->values[i];
      if (v->kind != FE_CVAL_INT && v->kind != FE_CVAL_BOOL) return 0;
      *value = v->i;
      return 1;
    }
    const ttc_arg *a = &meta->args[p->arg];
    if (a->type == TTC_TYPE_PTR || a->type >= TTC_TYPE_F16) return 0;
    *value = a->v.i;
    return 1;
  }
  return 0;
}

/* ---- the launch path ---------------------------------------------------------------- */

/* The variant a launch with args runs: key, config, values; one lookup on
 * the way of a loaded specialization. `tune`: autotune on a miss (else the
 * first config unless tuned). NULL after fn_fail, the status in *st. */
static const fn_variant *resolve(ttc_function *f, const ttc_arg *args, size_t nargs,
                                 const unsigned grid[3], ttc_grid_fn grid_fn, void *user,
                                 void *stream, bool tune, ttc_status *st) {
  *st = f->status;
  if (f->status != TTC_OK) return NULL;
  *st = TTC_ERROR_ARGUMENT;
  uint8_t key[FN_MAX_KEY];
  size_t speclen = fn_spec_key(f, args, nargs, key);
  if (speclen == (size_t)-1) return NULL;
  const fe_jit_decl *d = f->decl;
  size_t len = speclen;
  int config = -1;
  if (d->has_autotune) {
    config = 0;
    if (f->autotune_enabled && tune) {
      config = fn_autotune(f, key, speclen, args, grid, grid_fn, user, stream, st);
    } else if (f->autotune_enabled) { /* tuned before? */
      uint8_t tk[FN_MAX_KEY];
      fe_cval pre[FN_MAX_PARAMS];
      if (d->heuristics_first && !fn_constexpr_values(f, args, -1, pre)) return NULL;
      size_t tl = fn_tune_key(f, key, speclen, args, pre, tk);
      void *c = fn_table_find(atomic_load_explicit(&f->tunings, memory_order_acquire),
                              fn_hash(tk, tl), tk, tl);
      if (c) config = (int)(intptr_t)c - 1;
    }
    if (config < 0) return NULL;
    key[len++] = (uint8_t)config;
    key[len++] = (uint8_t)(config >> 8);
  }
  fe_cval values[FN_MAX_PARAMS];
  bool have_values = false;
  if (d->nheuristics) {
    *st = TTC_ERROR_ARGUMENT;
    if (!fn_constexpr_values(f, args, config, values)) return NULL;
    have_values = true;
    len = fn_key_append_values(f, values, key, len);
  }
  fn_variant *v = fn_table_find(atomic_load_explicit(&f->variants, memory_order_acquire),
                                fn_hash(key, len), key, len);
  *st = TTC_OK;
  if (v) return v;
  *st = TTC_ERROR_ARGUMENT;
  if (!have_values && !fn_constexpr_values(f, args, config, values)) return NULL;
  return fn_variant_get(f, key, len, key, config, values, st);
}

static ttc_status launch(ttc_function *f, const unsigned grid[3], ttc_grid_fn grid_fn, void *user,
                         void *stream, const ttc_arg *args, size_t nargs) {
  if (!rt_handle_live(f, RT_HANDLE_FUNCTION) || (!grid && !grid_fn) || (!args && nargs))
    return TTC_ERROR_ARGUMENT;
  ttc_status st;
  const fn_variant *v = resolve(f, args, nargs, grid, grid_fn, user, stream, true, &st);
  return v ? fn_variant_launch(f, v, grid, grid_fn, user, stream, args) : st;
}

ttc_status ttc_function_launch(ttc_function *f, const unsigned grid[3], void *stream,
                               const ttc_arg *args, size_t nargs) {
  return launch(f, grid, NULL, NULL, stream, args, nargs);
}

ttc_status ttc_function_launch_grid(ttc_function *f, ttc_grid_fn grid, void *user, void *stream,
                                    const ttc_arg *args, size_t nargs) {
  return launch(f, NULL, grid, user, stream, args, nargs);
}

ttc_status ttc_function_kernel(ttc_function *f, const ttc_arg *args, size_t nargs,
                               const ttc_kernel **kernel) {
  if (kernel) *kernel = NULL;
  if (!rt_handle_live(f, RT_HANDLE_FUNCTION) || !kernel || (!args && nargs))
    return TTC_ERROR_ARGUMENT;
  ttc_status st;
  const fn_variant *v = resolve(f, args, nargs, NULL, NULL, NULL, NULL, false, &st);
  if (v) *kernel = v->kernel;
  return st;
}

ttc_status ttc_function_signature(ttc_function *f, const ttc_arg *args, size_t nargs,
                                  char **signature) {
  if (signature) *signature = NULL;
  if (!rt_handle_live(f, RT_HANDLE_FUNCTION) || !signature || (!args && nargs))
    return TTC_ERROR_ARGUMENT;
  if (f->status != TTC_OK) return f->status;
  uint8_t spec[FN_MAX_KEY];
  if (fn_spec_key(f, args, nargs, spec) == (size_t)-1) return TTC_ERROR_ARGUMENT;
  int config = f->decl->has_autotune ? 0 : -1;
  if (f->decl->has_autotune && f->autotune_enabled) {
    uint8_t tk[FN_MAX_KEY];
    fe_cval pre[FN_MAX_PARAMS];
    if (f->decl->heuristics_first && !fn_constexpr_values(f, args, -1, pre))
      return TTC_ERROR_ARGUMENT;
    size_t tl = fn_tune_key(f, spec, 2 * (size_t)f->nargs, args, pre, tk);
    void *c = fn_table_find(atomic_load_explicit(&f->tunings, memory_order_acquire),
                            fn_hash(tk, tl), tk, tl);
    if (c) config = (int)(intptr_t)c - 1;
  }
  fe_cval values[FN_MAX_PARAMS];
  if (!fn_constexpr_values(f, args, config, values)) return TTC_ERROR_ARGUMENT;
  *signature = fn_signature(f, spec, values);
  return *signature ? TTC_OK : TTC_ERROR_ARGUMENT;
}
