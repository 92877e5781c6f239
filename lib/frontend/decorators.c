// SPDX-License-Identifier: MIT
/* decorators.c - the arguments of a kernel's decorators, evaluated at
 * compile time as the Python that builds them: @triton.autotune configs
 * (lists, comprehensions, itertools.product, helper functions of the
 * module, triton.Config with keywords) and keys, @triton.heuristics lambdas
 * (kept, to be evaluated on launch arguments), @triton.jit options.
 *
 * The result is plain data for the runtime (autotuning is issue 10's). A
 * decorator argument that depends on host state ttc cannot know (a device
 * query, a config file) is not an error: the decorator contributes nothing,
 * with a remark naming the expression, and the signature and options the
 * user gives choose the configuration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/lower_impl.h"

struct fe_decorators_impl {
  ir_context *ctx;
  ir_arena arena;
  fe_lower l;
  fe_scope heuristics; /* name -> the lambda (FE_V_FUNC) */
};

/* ---- values --------------------------------------------------------------------- */

static ttc_type ttc_of(const fe_val *v) {
  const ir_type *t = v->ty;
  if (t->kind == IR_TY_FLOAT) {
    if (t->is_bf16) return TTC_TYPE_BF16;
    if (t->width == 8) return t->is_e5m2 ? TTC_TYPE_FP8E5 : TTC_TYPE_FP8E4NV;
    return t->width == 16 ? TTC_TYPE_F16 : t->width == 32 ? TTC_TYPE_F32 : TTC_TYPE_F64;
  }
  switch (t->width) {
  case 1: return TTC_TYPE_I1;
  case 8: return v->is_unsigned ? TTC_TYPE_U8 : TTC_TYPE_I8;
  case 16: return v->is_unsigned ? TTC_TYPE_U16 : TTC_TYPE_I16;
  case 32: return v->is_unsigned ? TTC_TYPE_U32 : TTC_TYPE_I32;
  default: return v->is_unsigned ? TTC_TYPE_U64 : TTC_TYPE_I64;
  }
}

/* A compile-time value as a constexpr, or false. */
static bool to_cvalue(fe_decorators *d, const fe_val *v, fe_cvalue *out) {
  memset(out, 0, sizeof *out);
  switch (v->kind) {
  case FE_V_INT:
    out->kind = FE_CONST_INT;
    out->ival = v->ival;
    return true;
  case FE_V_BOOL:
    out->kind = FE_CONST_BOOL;
    out->ival = v->ival;
    return true;
  case FE_V_FLOAT:
    out->kind = FE_CONST_FLOAT;
    out->fval = v->fval;
    return true;
  case FE_V_NONE: out->kind = FE_CONST_NONE; return true;
  case FE_V_STR:
    out->kind = FE_CONST_STR;
    out->sval = v->path; /* interned in the decorators' context */
    return true;
  case FE_V_DTYPE:
    if (ir_type_is_ptr(v->ty) || ir_type_is_tensor(v->ty)) return false;
    out->kind = FE_CONST_DTYPE;
    out->dtype = ttc_of(v);
    return true;
  default: (void)d; return false;
  }
}

static fe_val from_cvalue(fe_lower *l, const fe_cvalue *c) {
  fe_param pa;
  memset(&pa, 0, sizeof pa);
  pa.const_kind = c->kind;
  pa.ival = c->ival;
  pa.fval = c->fval;
  pa.sval = c->sval;
  pa.dtype = c->dtype;
  return fe_const_param_val(l, &pa);
}

static void *dalloc(fe_decorators *d, size_t size) {
  void *p = ir_arena_alloc(&d->impl->arena, size ? size : 1);
  if (!p) IR_UNREACHABLE("out of memory evaluating decorators");
  return p;
}

/* ---- evaluation ------------------------------------------------------------------ */

/* Evaluates a decorator argument quietly; false with a remark on failure. */
static bool eval_arg(fe_decorators *d, const fe_func *fn, const fe_expr *e, const char *what,
                     fe_val *out, char *why, size_t cap) {
  fe_lower *l = &d->impl->l;
  l->quiet++;
  int before = l->nquiet;
  l->quiet_msg[0] = '\0';
  *out = fe_eval_in_unit(l, fn->unit, e);
  l->quiet--;
  bool ok = l->nquiet == before && out->kind != FE_V_ERROR;
  if (!ok) {
    snprintf(why, cap, "%s", l->quiet_msg[0] ? l->quiet_msg : "it has no compile-time value");
    ir_emit(d->impl->ctx, IR_SEV_REMARK, e->start,
            "%s of kernel '%s' not evaluated at compile "
            "time (%s): the signature and options choose the configuration",
            what, fn->name, why);
  }
  l->nquiet = before;
  return ok;
}

/* The items of a list or tuple, or NULL. */
static const fe_val *seq_items(const fe_val *v, int *n) {
  if (v->kind == FE_V_TUPLE) {
    *n = v->n;
    return v->items;
  }
  if (v->kind == FE_V_LIST) {
    *n = v->obj->n;
    return v->obj->items;
  }
  return NULL;
}

static const fe_expr *arg_of(const fe_expr *call, int pos, const char *kw) {
  for (int i = 0; i < call->nkw; i++)
    if (call->kwnames[i] && !strcmp(call->kwnames[i], kw)) return call->kwvals[i];
  return pos >= 0 && pos < call->n ? call->items[pos] : NULL;
}

static void eval_autotune(fe_decorators *d, const fe_func *fn, const fe_expr *call) {
  d->has_autotune = true;
  if (call->kind != FE_EX_CALL) return;
  const fe_expr *configs = arg_of(call, 0, "configs"), *key = arg_of(call, 1, "key");
  fe_val cv, kv;
  if (!configs ||
      !eval_arg(d, fn, configs, "autotune configs", &cv, d->autotune_why, sizeof d->autotune_why))
    return;
  int n;
  const fe_val *items = seq_items(&cv, &n);
  if (!items) {
    snprintf(d->autotune_why, sizeof d->autotune_why, "configs is a '%s', not a list",
             fe_val_type_str(&d->impl->l, &cv));
    return;
  }
  d->configs = dalloc(d, sizeof *d->configs * (size_t)(n + 1));
  for (int i = 0; i < n; i++) {
    const fe_val *c = &items[i];
    if (c->kind != FE_V_CONFIG) {
      snprintf(d->autotune_why, sizeof d->autotune_why, "config %d is a '%s'", i,
               fe_val_type_str(&d->impl->l, c));
      return;
    }
    fe_autotune_config *o = &d->configs[i];
    o->nkw = c->obj->n;
    o->names = dalloc(d, sizeof *o->names * (size_t)(o->nkw + 1));
    o->values = dalloc(d, sizeof *o->values * (size_t)(o->nkw + 1));
    for (int k = 0; k < o->nkw; k++) {
      if (c->obj->keys[k].kind != FE_V_STR || !to_cvalue(d, &c->obj->items[k], &o->values[k])) {
        snprintf(d->autotune_why, sizeof d->autotune_why, "config %d: a value is not a constexpr",
                 i);
        return;
      }
      o->names[k] = c->obj->keys[k].path;
    }
    int *opts[4] = {&o->num_warps, &o->num_stages, &o->num_ctas, &o->maxnreg};
    for (int k = 0; k < 4; k++)
      *opts[k] = c->items[k].kind == FE_V_INT ? (int)c->items[k].ival : 0;
  }
  d->nconfigs = n;
  if (key && eval_arg(d, fn, key, "autotune key", &kv, d->autotune_why, sizeof d->autotune_why)) {
    const fe_val *ks = seq_items(&kv, &n);
    d->keys = dalloc(d, sizeof *d->keys * (size_t)((ks ? n : 0) + 1));
    for (int i = 0; ks && i < n; i++)
      if (ks[i].kind == FE_V_STR) d->keys[d->nkeys++] = ks[i].path;
  }
  d->autotune_evaluated = true;
}

static void eval_heuristics(fe_decorators *d, const fe_func *fn, const fe_expr *call) {
  d->has_heuristics = true;
  const fe_expr *values = call->kind == FE_EX_CALL ? arg_of(call, 0, "values") : NULL;
  fe_val v;
  if (!values ||
      !eval_arg(d, fn, values, "heuristics", &v, d->heuristics_why, sizeof d->heuristics_why))
    return;
  if (v.kind != FE_V_DICT) {
    snprintf(d->heuristics_why, sizeof d->heuristics_why, "heuristics takes a dict");
    return;
  }
  for (int i = 0; i < v.obj->n; i++) {
    const fe_val *k = &v.obj->keys[i], *f = &v.obj->items[i];
    if (k->kind != FE_V_STR || f->kind != FE_V_FUNC) continue;
    const char *key = ir_intern_cstr(d->impl->ctx, k->path);
    fe_scope_set(&d->impl->heuristics, key, *f);
    const char **names = dalloc(d, sizeof *names * (size_t)(d->nheuristics + 1));
    if (d->nheuristics) memcpy(names, d->heuristics, sizeof *names * (size_t)d->nheuristics);
    names[d->nheuristics++] = key;
    d->heuristics = names;
  }
  d->heuristics_evaluated = true;
}

static void eval_jit(fe_decorators *d, const fe_func *fn, const fe_expr *call) {
  if (call->kind != FE_EX_CALL) return;
  fe_val v;
  char why[256];
  const fe_expr *dbg = arg_of(call, -1, "debug"), *dns = arg_of(call, -1, "do_not_specialize");
  if (dbg && eval_arg(d, fn, dbg, "jit debug flag", &v, why, sizeof why))
    d->debug = fe_const_truth(&v) > 0;
  int n;
  const fe_val *items;
  if (dns && eval_arg(d, fn, dns, "do_not_specialize", &v, why, sizeof why) &&
      (items = seq_items(&v, &n))) {
    d->do_not_specialize = dalloc(d, sizeof(char *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
      if (items[i].kind == FE_V_STR) d->do_not_specialize[d->ndo_not_specialize++] = items[i].path;
  }
}

fe_decorators *fe_decorators_eval(const char *source, size_t len, const char *filename,
                                  const char *kernel, const fe_search_path *search) {
  fe_decorators *d = calloc(1, sizeof *d);
  struct fe_decorators_impl *im = calloc(1, sizeof *im);
  if (!d || !im) {
    free(d);
    free(im);
    return NULL;
  }
  d->impl = im;
  im->ctx = ir_context_create();
  if (!im->ctx) {
    free(im);
    free(d);
    return NULL;
  }
  ir_arena_init(&im->arena);
  fe_lower *l = &im->l;
  fe_lower_init(l, im->ctx, &im->arena, search);
  const ir_source *src = ir_context_add_source(im->ctx, filename, source, len);
  bool found = false;
  fe_val fv = fe_val_error();
  ir_loc top = {src, 1, 1};
  if (src && fe_lower_load_user(l, src))
    fv = fe_unit_lookup(l, l->user, ir_intern_cstr(im->ctx, kernel), top, &found);
  if (fv.kind == FE_V_FUNC) {
    const fe_func *fn = fv.fn;
    l->kernel = fn;
    d->found = true;
    for (int i = 0; i < fn->ndecorators; i++) {
      const fe_expr *e = fn->decorators[i];
      const char *p = fe_decorator_path(l, fn, e);
      if (!strcmp(p, "triton.autotune"))
        eval_autotune(d, fn, e);
      else if (!strcmp(p, "triton.heuristics"))
        eval_heuristics(d, fn, e);
      else if (!strcmp(p, "triton.jit"))
        eval_jit(d, fn, e);
    }
  } else if (!found && src) {
    ir_error(im->ctx, top, "no function named '%s' in '%s'", kernel, filename);
  }
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_render_diags(im->ctx, &sb);
  d->diagnostics = ir_sb_take(&sb);
  return d;
}

bool fe_decorators_heuristic(fe_decorators *d, const char *name, int nargs,
                             const char *const *arg_names, const fe_cvalue *arg_values,
                             fe_cvalue *out, char *err, size_t errcap) {
  struct fe_decorators_impl *im = d->impl;
  fe_lower *l = &im->l;
  fe_val *f = fe_scope_get(&im->heuristics, ir_intern_cstr(im->ctx, name));
  if (!f) {
    snprintf(err, errcap, "no heuristic for '%s'", name);
    return false;
  }
  /* The lambda receives the launch arguments as one dict (Triton's `args`). */
  fe_val args = fe_new_dict(l);
  for (int i = 0; i < nargs; i++)
    fe_dict_set(l, &args, fe_val_str(l, arg_names[i]), from_cvalue(l, &arg_values[i]));
  fe_args call;
  memset(&call, 0, sizeof call);
  ir_loc loc = f->fn->loc;
  call.n = 1;
  call.pos = &args;
  call.pos_loc = &loc;
  call.loc = loc;
  l->quiet++;
  int before = l->nquiet;
  l->quiet_msg[0] = '\0';
  fe_val r = fe_call_func(l, f, &call);
  l->quiet--;
  bool ok = l->nquiet == before && r.kind != FE_V_ERROR && to_cvalue(d, &r, out);
  if (!ok) snprintf(err, errcap, "%s", l->quiet_msg[0] ? l->quiet_msg : "not a constexpr value");
  l->nquiet = before;
  return ok;
}

void fe_decorators_free(fe_decorators *d) {
  if (!d) return;
  if (d->impl) {
    fe_scope_free(&d->impl->heuristics);
    ir_arena_free(&d->impl->arena);
    ir_context_destroy(d->impl->ctx);
    free(d->impl);
  }
  free(d->diagnostics);
  free(d);
}
