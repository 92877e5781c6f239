// SPDX-License-Identifier: MIT
/* specialize.c - Triton's JIT specialization for kernel functions: the key
 * a launch's argument values give (as triton/runtime/jit.py's
 * specialize_impl and the NVIDIA backend's get_int/tensor_specialization:
 * a pointer 16-byte aligned and an i32/i64 divisible by 16 get the ":16"
 * hint, an integer equal to 1 becomes the constexpr 1, nothing for floats
 * and bools, honouring do_not_specialize and
 * do_not_specialize_on_alignment), the AOT signature it stands for, and the
 * variants: compiled (through the disk cache), loaded and launched. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/function_impl.h"

/* i32, i64, u32, u64: the integers Triton's JIT specializes. */
static bool is_spec_int(ttc_type t) {
  return t == TTC_TYPE_I32 || t == TTC_TYPE_I64 || t == TTC_TYPE_U32 || t == TTC_TYPE_U64;
}

/* The argument's value as its type's unsigned bits (what the kernel sees). */
static uint64_t arg_bits(const ttc_arg *a) {
  uint64_t u = (uint64_t)a->v.i;
  return a->type == TTC_TYPE_I32 || a->type == TTC_TYPE_U32 ? u & 0xffffffffu : u;
}

size_t fn_spec_key(ttc_function *f, const ttc_arg *args, size_t nargs, uint8_t *key) {
  if (nargs != (size_t)f->nargs) {
    fn_fail(f, TTC_ERROR_ARGUMENT, "'%s' takes %d argument%s, got %zu", f->name, f->nargs,
            f->nargs == 1 ? "" : "s", nargs);
    return (size_t)-1;
  }
  for (int i = 0; i < f->nargs; i++) {
    const ttc_arg *a = &args[i];
    const fn_param *p = &f->params[f->arg_param[i]];
    if ((int)a->type < TTC_TYPE_PTR || a->type > TTC_TYPE_FP8E5) {
      fn_fail(f, TTC_ERROR_ARGUMENT, "argument %d ('%s') has an invalid type %d", i, p->name,
              (int)a->type);
      return (size_t)-1;
    }
    uint8_t b0 = (uint8_t)a->type, b1 = 0;
    if (a->type == TTC_TYPE_PTR) {
      if (a->pointee <= TTC_TYPE_PTR || a->pointee > TTC_TYPE_FP8E5) {
        fn_fail(f, TTC_ERROR_ARGUMENT,
                "argument %d ('%s') is a pointer without an element type: "
                "pass ttc_arg_ptr_to(TTC_TYPE_F32, ptr) (the type is part of the "
                "specialization, as a tensor's dtype is in Triton)",
                i, p->name);
        return (size_t)-1;
      }
      b1 = (uint8_t)a->pointee;
      if (!p->no_specialize && !p->no_align && a->v.ptr % 16 == 0) b0 |= FN_KEY_DIV16;
    } else if (is_spec_int(a->type) && !p->no_specialize) {
      uint64_t u = arg_bits(a);
      if (u == 1)
        b0 |= FN_KEY_ONE;
      else if (!p->no_align && u % 16 == 0)
        b0 |= FN_KEY_DIV16;
    }
    key[2 * i] = b0;
    key[2 * i + 1] = b1;
  }
  return 2 * (size_t)f->nargs;
}

/* The parameter named `name` (interned), or -1. */
static int param_named(const ttc_function *f, const char *name) {
  for (int i = 0; i < f->nparams; i++)
    if (f->params[i].name == name) return i;
  return -1;
}

bool fn_constexpr_values(ttc_function *f, const ttc_arg *args, int config, fe_cval *values) {
  const fe_jit_decl *d = f->decl;
  for (int i = 0; i < f->nparams; i++)
    values[i] = f->params[i].value;
  if (config >= 0) {
    const fe_jit_config *c = &d->configs[config];
    for (int k = 0; k < c->nkv; k++) {
      int i = param_named(f, c->kv[k].name);
      if (i >= 0) values[i] = c->kv[k].value;
    }
  }
  for (int h = 0; h < d->nheuristics; h++) {
    int i = param_named(f, d->heuristics[h].name);
    if (i < 0 || !fn_heuristic_eval(f, d->heuristics[h].expr, args, values, &values[i]))
      return false;
  }
  return true;
}

size_t fn_key_append_values(const ttc_function *f, const fe_cval *values, uint8_t *key,
                            size_t len) {
  for (int h = 0; h < f->decl->nheuristics; h++) {
    const fe_cval *v = &values[param_named(f, f->decl->heuristics[h].name)];
    uint64_t bits = (uint64_t)v->i;
    if (v->kind == FE_CVAL_FLOAT) memcpy(&bits, &v->f, sizeof bits);
    key[len++] = (uint8_t)v->kind;
    for (int b = 0; b < 8; b++)
      key[len++] = (uint8_t)(bits >> (8 * b));
  }
  return len;
}

/* ---- signatures --------------------------------------------------------------------- */

/* A constexpr value as the signature parser reads it; false for None and
 * non-finite floats, which a signature cannot carry. */
static bool put_value(ir_strbuf *sb, const fe_cval *v) {
  switch (v->kind) {
  case FE_CVAL_INT: ir_sb_printf(sb, "%" PRId64, v->i); return true;
  case FE_CVAL_BOOL: ir_sb_puts(sb, v->i ? "True" : "False"); return true;
  case FE_CVAL_FLOAT: {
    if (!isfinite(v->f)) return false;
    char buf[40];
    snprintf(buf, sizeof buf, "%.17g", v->f);
    ir_sb_puts(sb, buf);
    if (!strpbrk(buf, ".e")) ir_sb_puts(sb, ".0"); /* stays a float */
    return true;
  }
  case FE_CVAL_NONE: return false;
  }
  return false;
}

char *fn_signature(ttc_function *f, const uint8_t *spec, const fe_cval *values) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  for (int i = 0; i < f->nparams; i++) {
    const fn_param *p = &f->params[i];
    if (i) ir_sb_putc(&sb, ',');
    if (p->is_constexpr) {
      if (put_value(&sb, &values[i])) continue;
      fn_fail(f, TTC_ERROR_ARGUMENT,
              "constexpr '%s' of '%s' has no value a signature can carry "
              "(None or not finite)%s",
              p->name, f->name,
              p->source == FN_FROM_CONFIG ? ": an autotune config does not set it" : "");
      ir_sb_free(&sb);
      return NULL;
    }
    uint8_t b0 = spec[2 * p->arg], b1 = spec[2 * p->arg + 1];
    ttc_type t = (ttc_type)(b0 & 0x0f);
    const char *hint = b0 & FN_KEY_DIV16 ? ":16" : "";
    if (b0 & FN_KEY_ONE)
      ir_sb_puts(&sb, "1");
    else if (t == TTC_TYPE_PTR)
      ir_sb_printf(&sb, "*%s%s", ttc_type_name((ttc_type)b1), hint);
    else
      ir_sb_printf(&sb, "%s%s", ttc_type_name(t), hint);
  }
  char *s = ir_sb_take(&sb);
  return s ? s : strdup("");
}

/* ---- variants ------------------------------------------------------------------------ */

void fn_variant_free(fn_variant *v) {
  if (!v) return;
  ttc_module_destroy(v->mod);
  ttc_kernel_destroy(v->kernel);
  free(v->key);
  free(v->kernel_arg);
  free(v->values);
  free(v->signature);
  free(v);
}

/* Delivers each line of the compile's remarks as a message. */
static void deliver_remarks(ttc_function *f, const ir_strbuf *remarks) {
  const char *p = remarks->data;
  while (p && *p) {
    const char *eol = strchr(p, '\n');
    size_t n = eol ? (size_t)(eol - p) : strlen(p);
    fn_message(f, false, "%.*s", (int)n, p);
    p += n + (eol != NULL);
  }
}

/* Compiles (or reads from the cache) and loads one specialization. */
/* A specialization's compile, carried to the thread that runs it. */
typedef struct build_call {
  ttc_function *f;
  const char *sig;
  const ttc_compile_options *o;
  ttc_kernel **k;
  ir_strbuf *remarks;
  ttc_status st;
} build_call;

static void build_deep(void *arg) {
  build_call *c = arg;
  ttc_function *f = c->f;
  c->st = drv_compile_cached(&f->cache, f->src_digest, f->source, f->source_len, f->filename,
                             f->name, c->sig, c->o, c->k, c->remarks);
}

static fn_variant *variant_build(ttc_function *f, const uint8_t *key, size_t keylen,
                                 const uint8_t *spec, int config, const fe_cval *values,
                                 ttc_status *status) {
  *status = TTC_ERROR_ARGUMENT;
  char *sig = fn_signature(f, spec, values);
  if (!sig) return NULL;
  ttc_compile_options o = f->copts;
  if (config >= 0) {
    const fe_jit_config *c = &f->decl->configs[config];
    if (c->num_warps) o.num_warps = c->num_warps;
    if (c->num_stages) o.num_stages = c->num_stages;
  }
  ir_strbuf remarks;
  ir_sb_init(&remarks);
  ttc_kernel *k = NULL;
  build_call c = {f, sig, &o, &k, &remarks, TTC_OK};
  ir_run_deep(build_deep, &c); /* the compile recurses: on the library's own stack */
  ttc_status st = c.st;
  deliver_remarks(f, &remarks);
  ir_sb_free(&remarks);
  *status = st;
  if (st != TTC_OK) {
    fn_fail(f, st, "compiling '%s' for signature '%s' (%d warps, %d stages) failed: %s\n%s",
            f->name, sig, o.num_warps, o.num_stages, ttc_status_string(st),
            k ? ttc_kernel_diagnostics(k) : "");
    ttc_kernel_destroy(k);
    free(sig);
    return NULL;
  }
  fn_variant *v = calloc(1, sizeof *v);
  if (v) {
    v->key = malloc(keylen ? keylen : 1);
    v->kernel_arg = malloc(sizeof(int) * (size_t)(f->nargs + 1));
    v->values = malloc(sizeof(fe_cval) * (size_t)(f->nparams + 1));
  }
  if (!v || !v->key || !v->kernel_arg || !v->values) {
    if (v) {
      v->kernel = k;
      v->signature = sig;
    } else {
      ttc_kernel_destroy(k);
      free(sig);
    }
    fn_variant_free(v);
    *status = fn_fail(f, TTC_ERROR_OUT_OF_MEMORY, "out of memory");
    return NULL;
  }
  memcpy(v->key, key, keylen);
  v->keylen = keylen;
  v->kernel = k;
  v->signature = sig;
  v->config = config;
  memcpy(v->values, values, sizeof(fe_cval) * (size_t)f->nparams);
  int nk = 0;
  for (int i = 0; i < f->nargs; i++)
    v->kernel_arg[i] = spec[2 * i] & FN_KEY_ONE ? -1 : nk++;
  v->identity = nk == f->nargs;
  f->stats.variants++;
  if (ttc_kernel_from_cache(k))
    f->stats.cache_hits++;
  else
    f->stats.compiles++;
  st = ttc_module_load(f->dev, k, &v->mod);
  *status = st;
  if (st != TTC_OK) {
    fn_fail(f, st, "loading '%s' (%s) failed: %s", f->name, sig, ttc_device_error(f->dev));
    fn_variant_free(v);
    return NULL;
  }
  return v;
}

fn_variant *fn_variant_get(ttc_function *f, const uint8_t *key, size_t keylen, const uint8_t *spec,
                           int config, const fe_cval *values, ttc_status *st) {
  *st = TTC_OK;
  pthread_mutex_lock(&f->lock);
  /* another thread may have built it while this one waited */
  fn_variant *v = fn_table_find(atomic_load_explicit(&f->variants, memory_order_acquire),
                                fn_hash(key, keylen), key, keylen);
  if (!v) {
    v = variant_build(f, key, keylen, spec, config, values, st);
    if (v && f->nall == f->capall) {
      int cap = f->capall ? 2 * f->capall : 16;
      fn_variant **all = realloc(f->all, sizeof *all * (size_t)cap);
      if (all) {
        f->all = all;
        f->capall = cap;
      }
    }
    if (v && (f->nall == f->capall || !fn_table_insert(f, &f->variants, key, keylen, v))) {
      fn_variant_free(v);
      v = NULL;
      *st = fn_fail(f, TTC_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    if (v) f->all[f->nall++] = v;
  }
  pthread_mutex_unlock(&f->lock);
  return v;
}

ttc_status fn_variant_launch(ttc_function *f, const fn_variant *v, const unsigned grid[3],
                             ttc_grid_fn grid_fn, void *user, void *stream, const ttc_arg *args) {
  unsigned g[3] = {1, 1, 1};
  if (grid_fn) {
    ttc_launch_meta meta = {f, v->values, args};
    grid_fn(&meta, user, g);
    grid = g;
  }
  ttc_status st;
  if (v->identity) {
    st = ttc_module_launch(v->mod, grid, stream, args, (size_t)f->nargs);
  } else {
    ttc_arg kargs[FN_MAX_PARAMS];
    size_t n = 0;
    for (int i = 0; i < f->nargs; i++)
      if (v->kernel_arg[i] >= 0) kargs[n++] = args[i];
    st = ttc_module_launch(v->mod, grid, stream, kargs, n);
  }
  if (st != TTC_OK)
    fn_fail(f, st, "launching '%s' (%s) failed: %s", f->name, v->signature,
            ttc_device_error(f->dev));
  return st;
}
