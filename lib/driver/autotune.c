/* autotune.c - @triton.autotune for kernel functions. On the first launch
 * for a value of the autotune key, every config is compiled and timed as
 * triton.testing.do_bench times it (an estimate from a few runs decides the
 * warm-up and repetition counts for `warmup` and `rep` milliseconds; each
 * timed run has its own device events and follows an L2 flush, zeroing a
 * 256 MiB buffer; the median is kept), with the reset_to_zero buffers
 * zeroed before each run and the restore_value buffers saved before and
 * restored after each, as Triton's hooks do. The fastest config is kept
 * in memory and in the disk cache, so a later process does no timing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/function_impl.h"

#define AT_FLUSH_BYTES (256u << 20) /* do_bench's cache size */
#define AT_MAX_REPS 1000
#define AT_ESTIMATE_RUNS 5

size_t fn_tune_key(const ttc_function *f, const uint8_t *spec, size_t speclen, const ttc_arg *args,
                   const fe_cval *values, uint8_t *key) {
  memcpy(key, spec, speclen);
  size_t len = speclen;
  for (int k = 0; k < f->decl->nkey; k++) {
    const fn_param *p = &f->params[f->key_params[k]];
    uint64_t bits = 0;
    if (p->is_constexpr) {
      const fe_cval *v = &values[f->key_params[k]];
      bits = (uint64_t)v->i;
      if (v->kind == FE_CVAL_FLOAT) memcpy(&bits, &v->f, sizeof bits);
    } else if (args[p->arg].type != TTC_TYPE_PTR) { /* a pointer's dtype is in the spec */
      bits = (uint64_t)args[p->arg].v.i;
    }
    for (int b = 0; b < 8; b++)
      key[len++] = (uint8_t)(bits >> (8 * b));
  }
  if (f->decl->heuristics_first) len = fn_key_append_values(f, values, key, len);
  return len;
}

/* ---- the disk ------------------------------------------------------------------------ */

#define TAG_TUNE DRV_TAG('T', 'U', 'N', 'E')

/* The cache key of a tuning: the kernel's source digest and build, the
 * function's constexprs and defaults, the device, and the tuning key. */
static void tune_cache_key(const ttc_function *f, const uint8_t *tk, size_t tl,
                           char key[DRV_KEY_LEN + 1]) {
  drv_sha256 s;
  drv_sha256_init(&s);
  char buf[1024];
  int n = snprintf(buf, sizeof buf, "ttc-autotune\n%s\n%s\n%s\n%s\nwarps=%d stages=%d\n%s\n%s\n",
                   TTC_VERSION_STRING, drv_build_id, f->name, f->constexprs, f->copts.num_warps,
                   f->copts.num_stages, ttc_device_name(f->dev), f->arch);
  drv_sha256_update(&s, buf, n > 0 && (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
  drv_sha256_update(&s, f->src_digest, DRV_DIGEST_LEN);
  drv_sha256_update(&s, tk, tl);
  uint8_t d[DRV_DIGEST_LEN];
  drv_sha256_final(&s, d);
  drv_hex(d, DRV_DIGEST_LEN, key);
}

/* The choice stored for this tuning key, or -1. */
static int tune_load(ttc_function *f, const char *key) {
  drv_section sec[DRV_MAX_SECTIONS];
  int n = 0;
  ir_strbuf remarks;
  ir_sb_init(&remarks);
  void *buf = drv_cache_read(&f->cache, key, sec, &n, &remarks);
  if (remarks.data) fn_message(f, false, "%.*s", (int)strcspn(remarks.data, "\n"), remarks.data);
  ir_sb_free(&remarks);
  int config = -1, count = -1;
  for (int i = 0; buf && i < n; i++) {
    char text[128];
    if (sec[i].tag != TAG_TUNE || sec[i].size >= sizeof text) continue;
    memcpy(text, sec[i].data, sec[i].size);
    text[sec[i].size] = '\0';
    if (sscanf(text, "config=%d configs=%d", &config, &count) != 2) config = -1;
  }
  free(buf);
  return config >= 0 && count == f->decl->nconfigs && config < count ? config : -1;
}

static void tune_store(ttc_function *f, const char *key, int config) {
  char text[64];
  int n = snprintf(text, sizeof text, "config=%d configs=%d\n", config, f->decl->nconfigs);
  drv_section sec = {TAG_TUNE, text, (size_t)n};
  ir_strbuf remarks;
  ir_sb_init(&remarks);
  drv_cache_write(&f->cache, key, &sec, 1, &remarks);
  if (remarks.data) fn_message(f, false, "%.*s", (int)strcspn(remarks.data, "\n"), remarks.data);
  ir_sb_free(&remarks);
}

/* ---- timing ---------------------------------------------------------------------------- */

/* A buffer the hooks touch: from the argument's pointer to the end of its
 * allocation (the size a C pointer does not carry), and its saved copy. */
typedef struct at_buffer {
  uint64_t ptr, copy;
  size_t bytes;
} at_buffer;

typedef struct at_session {
  ttc_function *f;
  const ttc_arg *args;
  const unsigned *grid;
  ttc_grid_fn grid_fn;
  void *user, *stream;
  uint64_t flush; /* GPU only */
  at_buffer *zero, *restore;
  int nzero, nrestore;
  ttc_event **ev; /* 2 * AT_MAX_REPS */
  float *times;
} at_session;

/* The buffers of a hook list (parameter names), their extents found. */
static bool at_buffers(at_session *s, const char **names, int n, at_buffer **out, bool save) {
  ttc_function *f = s->f;
  *out = calloc((size_t)n + 1, sizeof **out);
  if (!*out) return false;
  for (int k = 0; k < n; k++) {
    const fn_param *p = NULL;
    for (int i = 0; i < f->nparams; i++)
      if (f->params[i].name == names[k]) p = &f->params[i];
    if (!p || p->is_constexpr || s->args[p->arg].type != TTC_TYPE_PTR) {
      fn_fail(f, TTC_ERROR_ARGUMENT, "autotune hook names '%s', which is not a pointer argument",
              names[k]);
      return false;
    }
    at_buffer *b = &(*out)[k];
    uint64_t base = 0;
    size_t size = 0;
    b->ptr = s->args[p->arg].v.ptr;
    if (ttc_device_address_range(f->dev, b->ptr, &base, &size) != TTC_OK) {
      fn_fail(f, TTC_ERROR_ARGUMENT, "autotune: the buffer of '%s' is in no allocation: %s",
              names[k], ttc_device_error(f->dev));
      return false;
    }
    b->bytes = (size_t)(base + size - b->ptr);
    if (save && (ttc_device_alloc(f->dev, b->bytes, &b->copy) != TTC_OK ||
                 ttc_device_copy(f->dev, b->copy, b->ptr, b->bytes, s->stream) != TTC_OK)) {
      fn_fail(f, TTC_ERROR_OUT_OF_MEMORY, "autotune: cannot save '%s': %s", names[k],
              ttc_device_error(f->dev));
      return false;
    }
  }
  return true;
}

static void at_free_buffers(ttc_function *f, at_buffer *b, int n) {
  for (int i = 0; b && i < n; i++)
    ttc_device_free(f->dev, b[i].copy);
  free(b);
}

static ttc_status at_reset(at_session *s) {
  ttc_status st = TTC_OK;
  for (int i = 0; st == TTC_OK && i < s->nzero; i++)
    st = ttc_device_memset(s->f->dev, s->zero[i].ptr, 0, s->zero[i].bytes, s->stream);
  return st;
}

static ttc_status at_restore(at_session *s) {
  ttc_status st = TTC_OK;
  for (int i = 0; st == TTC_OK && i < s->nrestore; i++)
    st = ttc_device_copy(s->f->dev, s->restore[i].ptr, s->restore[i].copy, s->restore[i].bytes,
                         s->stream);
  return st;
}

/* One run: the hooks around a launch; `timed` puts events around the
 * launch alone, after the L2 flush. */
static ttc_status at_run(at_session *s, const fn_variant *v, ttc_event *start, ttc_event *end) {
  ttc_function *f = s->f;
  ttc_status st = at_reset(s);
  if (st == TTC_OK && start && s->flush)
    st = ttc_device_memset(f->dev, s->flush, 0, AT_FLUSH_BYTES, s->stream);
  if (st == TTC_OK && start) st = ttc_event_record(f->dev, start, s->stream);
  if (st == TTC_OK) st = fn_variant_launch(f, v, s->grid, s->grid_fn, s->user, s->stream, s->args);
  if (st == TTC_OK && end) st = ttc_event_record(f->dev, end, s->stream);
  if (st == TTC_OK) st = at_restore(s);
  return st;
}

/* Times reps runs; the median in *ms. */
static ttc_status at_time(at_session *s, const fn_variant *v, int reps, float *ms) {
  ttc_function *f = s->f;
  ttc_status st = TTC_OK;
  for (int i = 0; st == TTC_OK && i < reps; i++)
    st = at_run(s, v, s->ev[2 * i], s->ev[2 * i + 1]);
  for (int i = 0; st == TTC_OK && i < reps; i++)
    st = ttc_event_elapsed(f->dev, s->ev[2 * i], s->ev[2 * i + 1], &s->times[i]);
  if (st != TTC_OK) return st;
  for (int i = 1; i < reps; i++) /* insertion sort: reps is small */
    for (int j = i; j > 0 && s->times[j] < s->times[j - 1]; j--) {
      float t = s->times[j];
      s->times[j] = s->times[j - 1];
      s->times[j - 1] = t;
    }
  f->stats.benchmark_runs += reps;
  *ms = reps % 2 ? s->times[reps / 2] : (s->times[reps / 2 - 1] + s->times[reps / 2]) / 2;
  return TTC_OK;
}

/* do_bench: estimate, warm up, time. On the interpreter (host time, slow
 * launches) one timed run is all. */
static ttc_status at_bench(at_session *s, const fn_variant *v, float *ms) {
  ttc_function *f = s->f;
  if (f->on_interpreter) return at_time(s, v, 1, ms);
  ttc_status st = at_run(s, v, NULL, NULL); /* compile-free warm start */
  float est = 0;
  if (st == TTC_OK) st = ttc_device_synchronize(f->dev);
  if (st == TTC_OK) st = at_time(s, v, AT_ESTIMATE_RUNS, &est);
  if (st != TTC_OK) return st;
  double warmup_ms = f->decl->warmup_ms ? f->decl->warmup_ms : 25;
  double rep_ms = f->decl->rep_ms ? f->decl->rep_ms : 100;
  double e = est > 1e-4f ? est : 1e-4;
  int nwarm = (int)fmin(fmax(1.0, warmup_ms / e), 10 * AT_MAX_REPS);
  int nrep = (int)fmin(fmax(1.0, rep_ms / e), AT_MAX_REPS);
  for (int i = 0; st == TTC_OK && i < nwarm; i++)
    st = at_run(s, v, NULL, NULL);
  return st == TTC_OK ? at_time(s, v, nrep, ms) : st;
}

/* "{'BLOCK_SIZE_M': 128, ...}, num_warps=8, num_stages=3" */
static void describe_config(const ttc_function *f, int c, ir_strbuf *sb) {
  const fe_jit_config *cf = &f->decl->configs[c];
  ir_sb_putc(sb, '{');
  for (int k = 0; k < cf->nkv; k++) {
    const fe_cval *v = &cf->kv[k].value;
    ir_sb_printf(sb, "%s'%s': ", k ? ", " : "", cf->kv[k].name);
    if (v->kind == FE_CVAL_FLOAT)
      ir_sb_printf(sb, "%g", v->f);
    else if (v->kind == FE_CVAL_BOOL)
      ir_sb_puts(sb, v->i ? "True" : "False");
    else if (v->kind == FE_CVAL_INT)
      ir_sb_printf(sb, "%lld", (long long)v->i);
    else
      ir_sb_puts(sb, "None");
  }
  ir_sb_printf(sb, "}, num_warps=%d, num_stages=%d",
               cf->num_warps ? cf->num_warps : f->copts.num_warps,
               cf->num_stages ? cf->num_stages : f->copts.num_stages);
}

/* The key's values for messages: "M=512, N=512, K=512". */
static void describe_key(const ttc_function *f, const ttc_arg *args, ir_strbuf *sb) {
  for (int k = 0; k < f->decl->nkey; k++) {
    const fn_param *p = &f->params[f->key_params[k]];
    ir_sb_printf(sb, "%s%s", k ? ", " : "", p->name);
    if (!p->is_constexpr && args[p->arg].type != TTC_TYPE_PTR && args[p->arg].type < TTC_TYPE_F16)
      ir_sb_printf(sb, "=%lld", (long long)args[p->arg].v.i);
  }
}

/* Times every config; the fastest, or -1 after fn_fail. Lock held. */
static int at_tune(at_session *s, const uint8_t *spec, size_t speclen, ttc_status *status) {
  ttc_function *f = s->f;
  const fe_jit_decl *d = f->decl;
  int best = -1;
  float best_ms = INFINITY;
  ir_strbuf key;
  ir_sb_init(&key);
  describe_key(f, s->args, &key);
  for (int c = 0; c < d->nconfigs; c++) {
    uint8_t vk[FN_MAX_KEY];
    fe_cval values[FN_MAX_PARAMS];
    memcpy(vk, spec, speclen);
    size_t len = speclen;
    vk[len++] = (uint8_t)c;
    vk[len++] = (uint8_t)(c >> 8);
    float ms = INFINITY;
    fn_variant *v = NULL;
    ttc_status st;
    if (fn_constexpr_values(f, s->args, c, values)) {
      if (d->nheuristics) len = fn_key_append_values(f, values, vk, len);
      v = fn_variant_get(f, vk, len, spec, c, values, &st);
    }
    ir_strbuf desc;
    ir_sb_init(&desc);
    describe_config(f, c, &desc);
    const char *kd = key.data ? key.data : "", *cd = desc.data ? desc.data : "";
    if (!v || at_bench(s, v, &ms) != TTC_OK) {
      char *why = ttc_function_error(f);
      fn_message(f, true, "autotune %s (%s): config %d {%s} %s: %s", f->name, kd, c, cd,
                 v ? "failed to run" : "skipped", why ? why : "");
      free(why);
      ms = INFINITY;
    } else {
      fn_message(f, true, "autotune %s (%s): config %d {%s}: %.4f ms", f->name, kd, c, cd,
                 (double)ms);
    }
    ir_sb_free(&desc);
    if (ms < best_ms) {
      best_ms = ms;
      best = c;
    }
  }
  if (best < 0) {
    char *why = ttc_function_error(f);
    *status = fn_fail(f, TTC_ERROR_INPUT,
                      "autotune %s (%s): no config compiles and runs; the "
                      "last failure: %s",
                      f->name, key.data ? key.data : "", why ? why : "");
    free(why);
  } else {
    ir_strbuf desc;
    ir_sb_init(&desc);
    describe_config(f, best, &desc);
    fn_message(f, true, "autotune %s (%s): chose config %d {%s} (%.4f ms) of %d", f->name,
               key.data ? key.data : "", best, desc.data ? desc.data : "", (double)best_ms,
               d->nconfigs);
    ir_sb_free(&desc);
  }
  ir_sb_free(&key);
  return best;
}

/* Prepares a timing session (events, flush buffer, hook buffers), times
 * the configs and releases it. Lock held. */
static int at_session_run(ttc_function *f, const uint8_t *spec, size_t speclen, const ttc_arg *args,
                          const unsigned grid[3], ttc_grid_fn grid_fn, void *user, void *stream,
                          ttc_status *status) {
  at_session s = {f, args, grid, grid_fn, user, stream, 0, NULL, NULL, 0, 0, NULL, NULL};
  const fe_jit_decl *d = f->decl;
  int best = -1;
  s.ev = calloc(2 * AT_MAX_REPS, sizeof *s.ev);
  s.times = calloc(AT_MAX_REPS, sizeof *s.times);
  ttc_status st = s.ev && s.times ? TTC_OK : TTC_ERROR_OUT_OF_MEMORY;
  for (int i = 0; st == TTC_OK && i < 2 * AT_MAX_REPS; i++)
    st = ttc_event_create(f->dev, &s.ev[i]);
  if (st == TTC_OK && !f->on_interpreter &&
      ttc_device_alloc(f->dev, AT_FLUSH_BYTES, &s.flush) != TTC_OK)
    s.flush = 0; /* time without the flush rather than not at all */
  *status = st;
  if (st != TTC_OK) {
    fn_fail(f, st, "autotune: cannot prepare the timing: %s", ttc_device_error(f->dev));
  } else if (at_buffers(&s, d->reset_to_zero, d->nreset, &s.zero, false) &&
             at_buffers(&s, d->restore_value, d->nrestore, &s.restore, true)) {
    s.nzero = d->nreset;
    s.nrestore = d->nrestore;
    best = at_tune(&s, spec, speclen, status);
    /* the real launch follows on zeroed buffers (Triton's reset_only) */
    if (best >= 0 && (st = at_reset(&s)) == TTC_OK) st = ttc_device_synchronize(f->dev);
    if (best >= 0 && st != TTC_OK) {
      *status = fn_fail(f, st, "autotune: %s", ttc_device_error(f->dev));
      best = -1;
    }
  } else {
    *status = TTC_ERROR_ARGUMENT;
  }
  at_free_buffers(f, s.zero, d->nreset);
  at_free_buffers(f, s.restore, d->nrestore);
  ttc_device_free(f->dev, s.flush);
  for (int i = 0; s.ev && i < 2 * AT_MAX_REPS; i++)
    ttc_event_destroy(f->dev, s.ev[i]);
  free(s.ev);
  free(s.times);
  return best;
}

int fn_autotune(ttc_function *f, const uint8_t *spec, size_t speclen, const ttc_arg *args,
                const unsigned grid[3], ttc_grid_fn grid_fn, void *user, void *stream,
                ttc_status *st) {
  uint8_t tk[FN_MAX_KEY];
  fe_cval pre[FN_MAX_PARAMS];
  *st = TTC_ERROR_ARGUMENT;
  if (f->decl->heuristics_first && !fn_constexpr_values(f, args, -1, pre)) return -1;
  size_t tl = fn_tune_key(f, spec, speclen, args, pre, tk);
  uint64_t h = fn_hash(tk, tl);
  void *c = fn_table_find(atomic_load_explicit(&f->tunings, memory_order_acquire), h, tk, tl);
  *st = TTC_OK;
  if (c) return (int)(intptr_t)c - 1;
  pthread_mutex_lock(&f->lock);
  c = fn_table_find(atomic_load_explicit(&f->tunings, memory_order_acquire), h, tk, tl);
  int config = c ? (int)(intptr_t)c - 1 : -1;
  if (!c) {
    char key[DRV_KEY_LEN + 1];
    tune_cache_key(f, tk, tl, key);
    config = tune_load(f, key);
    if (config >= 0) {
      f->stats.tunings_cached++;
      ir_strbuf desc;
      ir_sb_init(&desc);
      describe_config(f, config, &desc);
      fn_message(f, true, "autotune %s: config %d {%s} from the cache", f->name, config,
                 desc.data ? desc.data : "");
      ir_sb_free(&desc);
    } else {
      config = at_session_run(f, spec, speclen, args, grid, grid_fn, user, stream, st);
      if (config >= 0) {
        f->stats.tunings++;
        tune_store(f, key, config);
      }
    }
    if (config >= 0 && !fn_table_insert(f, &f->tunings, tk, tl, (void *)(intptr_t)(config + 1))) {
      *st = fn_fail(f, TTC_ERROR_OUT_OF_MEMORY, "out of memory");
      config = -1;
    }
  }
  pthread_mutex_unlock(&f->lock);
  return config;
}
