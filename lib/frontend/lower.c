// SPDX-License-Identifier: MIT
/* lower.c - entry point of the lowering to ttir: finds the kernel, applies
 * the signature, builds the tt.func; plus what every lowering file shares:
 * values, errors (reported, or recorded while evaluating quietly), scopes,
 * evaluation in a module's scope, decorators, and calls of functions:
 * @jit helpers are inlined, each with its own scope; host functions
 * (@triton.constexpr_function, decorator helpers, lambdas) run at compile
 * time on constexpr values (lower_host.c).
 *
 * Lowering never stops at the first error: a failed expression yields an
 * ERROR value that propagates silently, so one run reports many errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/lower_impl.h"

/* ---- values and errors ------------------------------------------------------ */

/* Value constructors: plain structs, nothing owned. */
fe_val fe_val_error(void) {
  fe_val v;
  memset(&v, 0, sizeof v);
  v.kind = FE_V_ERROR;
  return v;
}
fe_val fe_val_int(int64_t i) {
  fe_val v = fe_val_error();
  v.kind = FE_V_INT;
  v.ival = i;
  return v;
}
fe_val fe_val_float(double f) {
  fe_val v = fe_val_error();
  v.kind = FE_V_FLOAT;
  v.fval = f;
  return v;
}
fe_val fe_val_bool(bool b) {
  fe_val v = fe_val_error();
  v.kind = FE_V_BOOL;
  v.ival = b;
  return v;
}
fe_val fe_val_none(void) {
  fe_val v = fe_val_error();
  v.kind = FE_V_NONE;
  return v;
}
fe_val fe_val_str(fe_lower *l, const char *s) {
  fe_val v = fe_val_error();
  v.kind = FE_V_STR;
  v.path = ir_intern_cstr(l->ctx, s);
  return v;
}
fe_val fe_val_tensor(ir_value *x, bool is_unsigned) {
  fe_val v = fe_val_error();
  v.kind = FE_V_TENSOR;
  v.v = x;
  v.is_unsigned = is_unsigned;
  return v;
}
fe_val fe_val_method(fe_lower *l, const char *path, fe_val self) {
  fe_val m = fe_val_error();
  m.kind = FE_V_METHOD;
  m.path = ir_intern_cstr(l->ctx, path);
  m.n = 1;
  m.items = ir_arena_alloc(l->arena, sizeof(fe_val));
  if (!m.items) return fe_val_error();
  m.items[0] = self;
  return m;
}
/* constexpr numbers and bools (not None, strings or dtypes). */
bool fe_is_const(const fe_val *v) {
  return v->kind == FE_V_INT || v->kind == FE_V_FLOAT || v->kind == FE_V_BOOL;
}

/* Errors inside prelude functions (tl functions written in the kernel
 * language) are reported at the user's call, with a note pointing into the
 * prelude, since that is the line the user can change. While the lowering
 * is quiet, the first error is only recorded (fe_quiet_fail). */
fe_val fe_error(fe_lower *l, ir_loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (l->quiet) {
    if (l->nquiet++ == 0) {
      vsnprintf(l->quiet_msg, sizeof l->quiet_msg, fmt, ap);
      l->quiet_loc = loc;
    }
    va_end(ap);
    return fe_val_error();
  }
  const fe_frame *pf = NULL, *f = l->frame;
  for (; f && f->unit && f->unit->is_prelude; f = f->parent)
    pf = f;
  ir_vemit(l->ctx, IR_SEV_ERROR, pf ? pf->call_loc : loc, fmt, ap);
  va_end(ap);
  l->nerrors++;
  if (pf) ir_note(l->ctx, loc, "inside 'tl.%s' (ttc's prelude)", pf->fn->name);
  /* Where the error sits: each inlined user helper, then the kernel. */
  for (; f; f = f->parent) {
    if (!f->fn) continue;
    if (f->parent)
      ir_note(l->ctx, f->fn->loc, "in %s function '%s'", f->is_host ? "host" : "jit", f->fn->name);
    else
      ir_note(l->ctx, f->fn->loc, "in kernel '%s'", f->fn->name);
  }
  return fe_val_error();
}

void fe_remark(fe_lower *l, ir_loc loc, const char *fmt, ...) {
  if (l->quiet) return;
  va_list ap;
  va_start(ap, fmt);
  ir_vemit(l->ctx, IR_SEV_REMARK, loc, fmt, ap);
  va_end(ap);
}

/* ---- scopes ----------------------------------------------------------------- */

/* Rebinding replaces in place, so a scope holds each name once; the array
 * doubles as needed (malloc, freed by fe_scope_free). */
/* Rebuilds the index over every item (icap a power of two, at most half full). */
static void scope_reindex(fe_scope *s) {
  int cap = 64;
  while (cap < 2 * s->n)
    cap *= 2;
  if (cap != s->icap) {
    int *ix = realloc(s->index, sizeof *ix * (size_t)cap);
    if (!ix) IR_UNREACHABLE("out of memory in the lowering");
    s->index = ix;
    s->icap = cap;
  }
  for (int i = 0; i < cap; i++)
    s->index[i] = -1;
  for (int i = 0; i < s->n; i++) {
    size_t h = ir_ptr_slot(s->items[i].name, (size_t)cap);
    while (s->index[h] >= 0)
      h = (h + 1) & (size_t)(cap - 1);
    s->index[h] = i;
  }
  s->nidx = s->n;
}

void fe_scope_set(fe_scope *s, const char *name, fe_val v) {
  fe_val *cur = fe_scope_get(s, name);
  if (cur) {
    *cur = v;
    return;
  }
  if (s->n == s->cap) {
    int ncap = s->cap ? s->cap * 2 : 32;
    fe_binding *ni = realloc(s->items, sizeof *ni * (size_t)ncap);
    if (!ni) IR_UNREACHABLE("out of memory in the lowering");
    s->items = ni;
    s->cap = ncap;
  }
  s->items[s->n].name = name;
  s->items[s->n++].val = v;
  if (s->index && s->nidx == s->n - 1 && 2 * s->n <= s->icap) { /* index the new item */
    size_t h = ir_ptr_slot(name, (size_t)s->icap);
    while (s->index[h] >= 0)
      h = (h + 1) & (size_t)(s->icap - 1);
    s->index[h] = s->n - 1;
    s->nidx = s->n;
  } else if (s->n - s->nidx > 16) {
    scope_reindex(s); /* doubling: amortized O(1) per binding */
  }
}

/* Names are interned, so pointer comparison suffices. */
fe_val *fe_scope_get(const fe_scope *s, const char *name) {
  int lo = s->index && s->nidx <= s->n ? s->nidx : 0;
  for (int i = s->n - 1; i >= lo; i--)
    if (s->items[i].name == name) return &s->items[i].val;
  if (lo == 0) return NULL;
  size_t h = ir_ptr_slot(name, (size_t)s->icap);
  for (; s->index[h] >= 0; h = (h + 1) & (size_t)(s->icap - 1)) {
    int i = s->index[h];
    if (i < s->n && s->items[i].name == name) return &s->items[i].val;
  }
  return NULL;
}

/* Runtime `if` arms and loop bodies start from a copy of the scope and the
 * original is restored afterwards. */
void fe_scope_copy(fe_scope *dst, const fe_scope *src) {
  dst->n = src->n;
  dst->cap = src->n ? src->n : 1;
  dst->items = malloc(sizeof *dst->items * (size_t)dst->cap);
  if (!dst->items) IR_UNREACHABLE("out of memory in the lowering");
  if (src->n) memcpy(dst->items, src->items, sizeof *dst->items * (size_t)src->n);
  dst->index = NULL;
  dst->icap = dst->nidx = 0;
  if (src->index && src->nidx <= src->n) { /* the copy keeps the index */
    dst->index = malloc(sizeof *dst->index * (size_t)src->icap);
    if (!dst->index) IR_UNREACHABLE("out of memory in the lowering");
    memcpy(dst->index, src->index, sizeof *dst->index * (size_t)src->icap);
    dst->icap = src->icap;
    dst->nidx = src->nidx;
  }
}

fe_scope *fe_scope_snapshot(fe_lower *l, const fe_scope *src) {
  fe_scope *s = ir_arena_alloc(l->arena, sizeof *s);
  if (!s) IR_UNREACHABLE("out of memory in the lowering");
  s->n = s->cap = src->n;
  s->index = NULL; /* a closure's snapshot: scanned (lambdas capture little) */
  s->icap = s->nidx = 0;
  s->items = ir_arena_alloc(l->arena, sizeof *s->items * (size_t)(src->n + 1));
  if (!s->items) IR_UNREACHABLE("out of memory in the lowering");
  if (src->n) memcpy(s->items, src->items, sizeof *s->items * (size_t)src->n);
  return s;
}

void fe_scope_free(fe_scope *s) {
  free(s->items);
  free(s->index);
  s->items = NULL;
  s->index = NULL;
  s->n = s->cap = s->icap = s->nidx = 0;
}

/* ---- evaluation in a module's scope --------------------------------------- */

/* Module-level expressions (values, conditions, defaults, decorators) see
 * only their module's names: they are evaluated in an empty host frame. */
fe_val fe_eval_in_unit(fe_lower *l, fe_unit *u, const fe_expr *e) {
  fe_frame frame;
  memset(&frame, 0, sizeof frame);
  frame.fn = l->frame ? l->frame->fn : l->kernel;
  frame.unit = u;
  frame.is_host = true;
  frame.call_loc = l->frame ? l->frame->call_loc : e->loc;
  frame.parent = l->frame ? l->frame->parent : NULL;
  fe_frame *saved = l->frame;
  ir_block *blk = l->b.block;
  l->frame = &frame;
  l->b.block = NULL; /* host code builds no IR */
  fe_val v = fe_lower_expr(l, e);
  l->b.block = blk;
  l->frame = saved;
  fe_scope_free(&frame.scope);
  return v;
}

/* ---- decorators ------------------------------------------------------------- */

/* What a decorator's callee is (`triton.jit` in `@triton.jit(debug=True)`):
 * evaluated quietly in the function's module; "" when it is not a known
 * Triton decorator. */
const char *fe_decorator_path(fe_lower *l, const fe_func *fn, const fe_expr *d) {
  const fe_expr *callee = d->kind == FE_EX_CALL ? d->a : d;
  l->quiet++;
  int before = l->nquiet;
  fe_val v = fe_eval_in_unit(l, fn->unit ? fn->unit : l->user, callee);
  l->quiet--;
  l->nquiet = before;
  if (v.kind == FE_V_BUILTIN && strncmp(v.path, "triton.", 7) == 0) return v.path;
  /* @tl.constexpr on a function: calling the constexpr calls the function
   * at compile time, as @triton.constexpr_function does */
  if (v.kind == FE_V_BUILTIN && strcmp(v.path, "tl.constexpr") == 0)
    return "triton.constexpr_function";
  return "";
}

fe_func_kind fe_func_kind_of(fe_lower *l, const fe_func *fn) {
  if (fn->is_lambda) return FE_FN_HOST;
  for (int i = 0; i < fn->ndecorators; i++) {
    const char *p = fe_decorator_path(l, fn, fn->decorators[i]);
    if (strcmp(p, "triton.jit") == 0) return FE_FN_JIT;
    if (strcmp(p, "triton.constexpr_function") == 0) return FE_FN_CONSTEXPR;
  }
  return FE_FN_HOST;
}

/* The @triton.jit decorator of fn (its call expression, if it has one, in
 * *call), or false. */
static bool jit_decorator(fe_lower *l, const fe_func *fn, const fe_expr **call) {
  for (int i = 0; i < fn->ndecorators; i++) {
    const fe_expr *d = fn->decorators[i];
    if (strcmp(fe_decorator_path(l, fn, d), "triton.jit") == 0) {
      *call = d->kind == FE_EX_CALL ? d : NULL;
      return true;
    }
  }
  return false;
}

/* ---- naming ----------------------------------------------------------------- */

void fe_name_ops_after(fe_lower *l, ir_op *mark, const char *name) {
  if (!name || !l->b.block) return;
  /* Constants keep MLIR's value-derived names (%c1024_i32), as in Triton. */
  for (ir_op *op = mark ? mark->next : l->b.block->first; op; op = op->next)
    if (op->kind != IR_OP_ARITH_CONSTANT)
      for (int i = 0; i < op->nresults; i++)
        if (!op->results[i].name) op->results[i].name = name;
}

/* ---- calls ------------------------------------------------------------------ */

static void set_loc(ir_op *op, void *user) { op->loc = *(const ir_loc *)user; }

/* Binds the call's arguments to fn's parameters in `frame`: positional,
 * then keywords, then defaults (evaluated in fn's module, as at definition
 * time); extra positionals go to *args, extra keywords to **kwargs. For jit
 * functions, constexpr parameters must receive compile-time values. */
static bool bind_params(fe_lower *l, const fe_func *fn, const fe_args *args, fe_frame *frame,
                        bool is_jit) {
  int np = fn->nparams, varargs = -1, kwargs = -1;
  bool given[256] = {false};
  if (np > 256) /* the parser allows FE_MAX_PARAMS */
    return fe_error(l, args->loc, "too many parameters (more than %d)", FE_MAX_PARAMS), false;
  fe_val vals[256];
  ir_loc locs[256];
  for (int i = 0; i < np; i++) {
    if (fn->params[i].kind == FE_PARAM_VARARGS) varargs = i;
    if (fn->params[i].kind == FE_PARAM_KWARGS) kwargs = i;
  }
  fe_val extra = fe_val_error(), kwdict = fe_val_error();
  extra.kind = FE_V_TUPLE;
  extra.items = ir_arena_alloc(l->arena, sizeof(fe_val) * (size_t)(args->n + 1));
  kwdict = fe_new_dict(l);
  int p = 0;
  for (int a = 0; a < args->n; a++) {
    while (p < np && (fn->params[p].kind != FE_PARAM_PLAIN || fn->params[p].kwonly))
      p++;
    if (p < np && (varargs < 0 || p < varargs)) {
      vals[p] = args->pos[a];
      locs[p] = args->pos_loc[a];
      given[p++] = true;
    } else if (varargs >= 0) {
      extra.items[extra.n++] = args->pos[a];
    } else {
      fe_error(l, args->pos_loc[a], "too many arguments to '%s': expected at most %d, found %d",
               fn->name, p, args->n);
      return false;
    }
  }
  for (int k = 0; k < args->nkw; k++) {
    int found = -1;
    for (int i = 0; i < np; i++)
      if (fn->params[i].kind == FE_PARAM_PLAIN && fn->params[i].name == args->kwnames[k]) found = i;
    if (found < 0 && kwargs >= 0) {
      fe_val key = fe_val_error();
      key.kind = FE_V_STR;
      key.path = args->kwnames[k];
      fe_dict_set(l, &kwdict, key, args->kw[k]);
      continue;
    }
    if (found < 0) {
      fe_error(l, args->kw_loc[k], "unexpected keyword argument '%s' in call to '%s'",
               args->kwnames[k], fn->name);
      return false;
    }
    if (given[found]) {
      fe_error(l, args->kw_loc[k], "argument '%s' of '%s' given twice", args->kwnames[k], fn->name);
      return false;
    }
    vals[found] = args->kw[k];
    locs[found] = args->kw_loc[k];
    given[found] = true;
  }
  bool ok = true;
  for (int i = 0; i < np && ok; i++) {
    const fe_param_decl *pd = &fn->params[i];
    fe_val v;
    ir_loc vloc = given[i] ? locs[i] : args->loc;
    if (i == varargs)
      v = extra;
    else if (i == kwargs)
      v = kwdict;
    else if (given[i])
      v = vals[i];
    else if (pd->dflt)
      v = fe_eval_in_unit(l, fn->unit ? fn->unit : l->user, pd->dflt);
    else {
      fe_error(l, args->loc, "missing argument '%s' in call to '%s'", pd->name, fn->name);
      return false;
    }
    if (v.kind == FE_V_ERROR) ok = false;
    /* Triton does not check a helper's constexpr annotations against its
     * arguments (a runtime value passed there stays one); tl functions of the
     * prelude do, for a clear error at the user's call */
    if (is_jit && fn->unit && fn->unit->is_prelude && fe_is_constexpr_annotation(pd->annotation) &&
        v.kind == FE_V_TENSOR) {
      fe_error(l, vloc, "argument '%s' of '%s' must be a constexpr, found a runtime value",
               pd->name, fn->name);
      ok = false;
    }
    fe_scope_set(&frame->scope, pd->name, v);
  }
  return ok;
}

/* Runs a host function (a lambda, a decorator helper, a
 * @triton.constexpr_function) at compile time on compile-time arguments. */
static fe_val call_host(fe_lower *l, const fe_val *callee, const fe_args *args) {
  const fe_func *fn = callee->fn;
  for (int i = 0; i < args->n; i++)
    if (args->pos[i].kind == FE_V_TENSOR)
      return fe_error(l, args->pos_loc[i],
                      "'%s' runs at compile time: its arguments must be "
                      "constexprs, found '%s'",
                      fn->name, fe_val_type_str(l, &args->pos[i]));
  for (int i = 0; i < args->nkw; i++)
    if (args->kw[i].kind == FE_V_TENSOR)
      return fe_error(l, args->kw_loc[i],
                      "'%s' runs at compile time: its arguments must be "
                      "constexprs, found '%s'",
                      fn->name, fe_val_type_str(l, &args->kw[i]));
  if (l->depth >= FE_MAX_INLINE_DEPTH)
    return fe_error(l, args->loc, "call depth exceeds %d when calling '%s' (recursion?)",
                    FE_MAX_INLINE_DEPTH, fn->name);
  fe_frame frame;
  memset(&frame, 0, sizeof frame);
  frame.fn = fn;
  frame.unit = fn->unit ? fn->unit : fe_cur_unit(l);
  frame.call_loc = args->loc;
  frame.parent = l->frame;
  frame.is_host = true;
  frame.ret = fe_val_none();
  if (callee->closure) fe_scope_copy(&frame.scope, callee->closure);
  if (!bind_params(l, fn, args, &frame, false)) {
    fe_scope_free(&frame.scope);
    return fe_val_error();
  }
  fe_frame *saved = l->frame;
  ir_block *blk = l->b.block;
  l->frame = &frame;
  l->b.block = NULL;
  l->depth++;
  fe_host_body(l, &fn->body);
  l->depth--;
  l->b.block = blk;
  l->frame = saved;
  fe_val ret = frame.ret;
  fe_scope_free(&frame.scope);
  return ret;
}

/* Inlines a @jit `fn` at the call site: a fresh frame holds only its
 * parameters, so the callee cannot see the caller's variables. The callee's
 * `return` value is the call's value (None without one). */
static fe_val inline_jit(fe_lower *l, const fe_func *fn, const fe_args *args) {
  fe_unit *unit = fn->unit ? fn->unit : l->user;
  if (l->depth >= FE_MAX_INLINE_DEPTH)
    return fe_error(l, args->loc, "call depth exceeds %d when inlining '%s' (recursion?)",
                    FE_MAX_INLINE_DEPTH, fn->name);
  if (!l->b.block)
    return fe_error(l, args->loc, "jit function '%s' can only be called from a kernel", fn->name);
  fe_frame frame;
  memset(&frame, 0, sizeof frame);
  frame.fn = fn;
  frame.unit = unit;
  frame.call_loc = args->loc;
  frame.parent = l->frame;
  frame.ret = fe_val_none();
  if (!bind_params(l, fn, args, &frame, true)) {
    fe_scope_free(&frame.scope);
    return fe_val_error();
  }
  fe_frame *saved = l->frame;
  /* A prelude function called from user code: its ops take the call's
   * location, so that later diagnostics point at the user's line. */
  bool relocate = unit->is_prelude && (!saved || !saved->unit || !saved->unit->is_prelude) &&
                  l->b.block && !l->b.before;
  ir_block *blk = l->b.block;
  ir_op *mark = blk ? blk->last : NULL;
  l->frame = &frame;
  l->depth++;
  fe_lower_body(l, &fn->body);
  l->depth--;
  l->frame = saved;
  if (relocate && l->b.block == blk)
    for (ir_op *op = mark ? mark->next : blk->first; op; op = op->next) {
      op->loc = args->loc;
      ir_walk(op, set_loc, &op->loc);
    }
  fe_val ret = frame.ret;
  fe_scope_free(&frame.scope);
  return ret;
}

fe_val fe_call_func(fe_lower *l, const fe_val *callee, const fe_args *args) {
  const fe_func *fn = callee->fn;
  switch (fe_func_kind_of(l, fn)) {
  case FE_FN_JIT: return inline_jit(l, fn, args);
  case FE_FN_CONSTEXPR: return call_host(l, callee, args);
  case FE_FN_HOST:
    if (fe_in_host(l) || fn->is_lambda) return call_host(l, callee, args);
    break;
  }
  fe_error(l, args->loc,
           "'%s' is not a @triton.jit function (a kernel can call only jit "
           "functions and @triton.constexpr_function helpers)",
           fn->name);
  if (!l->quiet) ir_note(l->ctx, fn->loc, "'%s' is defined here", fn->name);
  return fe_val_error();
}

bool fe_in_host(const fe_lower *l) { return !l->frame || l->frame->is_host; }

/* ---- the kernel ------------------------------------------------------------- */

/* The compile-time value a signature gave a parameter. */
fe_val fe_const_param_val(fe_lower *l, const fe_param *pa) {
  fe_val v = fe_val_error();
  switch (pa->const_kind) {
  case FE_CONST_INT: return fe_val_int(pa->ival);
  case FE_CONST_FLOAT: return fe_val_float(pa->fval);
  case FE_CONST_BOOL: return fe_val_bool(pa->ival != 0);
  case FE_CONST_NONE: v.kind = FE_V_NONE; return v;
  case FE_CONST_STR:
    v.kind = FE_V_STR;
    v.path = ir_intern_cstr(l->ctx, pa->sval ? pa->sval : "");
    return v;
  case FE_CONST_DTYPE:
    v.kind = FE_V_DTYPE;
    v.ty = fe_ttc_type_to_ir(l->ctx, pa->dtype);
    v.is_unsigned = pa->dtype == TTC_TYPE_U8 || pa->dtype == TTC_TYPE_U16 ||
                    pa->dtype == TTC_TYPE_U32 || pa->dtype == TTC_TYPE_U64;
    return v;
  }
  return v;
}

/* Builds the tt.func for the kernel and binds its parameters. */
/* The kernel ABI: one argument per non-constexpr parameter, in order;
 * pointers are !tt.ptr<elem> in address space 1, scalars at their width.
 * constexpr parameters bind their signature values as Python constants. */
static ir_op *build_kernel_func(fe_lower *l, const fe_func *fn, const fe_kernel_info *info,
                                fe_frame *frame) {
  const ir_type *arg_types[IR_MAX_PARAMS];
  int nargs = 0;
  for (int i = 0; i < info->nparams; i++)
    nargs += !info->params[i].is_constexpr;
  if (nargs > IR_MAX_PARAMS) { /* a tensor descriptor passes 1 + 2 x rank arguments */
    fe_error(l, fn->loc,
             "the kernel's parameters pass %d arguments (a tensor descriptor passes 1 + 2 x rank), "
             "more than the limit of %d",
             nargs, IR_MAX_PARAMS);
    return NULL;
  }
  nargs = 0;
  for (int i = 0; i < info->nparams; i++) {
    const fe_param *pa = &info->params[i];
    if (pa->is_constexpr) continue;
    if (pa->type == TTC_TYPE_PTR)
      arg_types[nargs++] = ir_type_ptr(l->ctx, fe_ttc_type_to_ir(l->ctx, pa->pointee), 1);
    else
      arg_types[nargs++] = fe_ttc_type_to_ir(l->ctx, pa->type);
  }
  l->b.loc = fn->loc;
  ir_op *func = ir_build_func(&l->b, fn->name, nargs, arg_types);
  ir_block *entry = ir_region_entry(&func->regions[0]);
  int a = 0;
  for (int i = 0; i < info->nparams; i++) {
    const fe_param *pa = &info->params[i];
    fe_val v = fe_val_error();
    if (pa->desc_part) continue; /* bound with its descriptor */
    if (pa->is_constexpr) {
      v = fe_const_param_val(l, pa);
    } else {
      ir_value *arg = entry->args[a++];
      arg->name = pa->name;
      arg->divisibility = pa->divisibility > 0 ? pa->divisibility : 0;
      ttc_type t = pa->type == TTC_TYPE_PTR ? pa->pointee : pa->type;
      bool uns = t == TTC_TYPE_U8 || t == TTC_TYPE_U16 || t == TTC_TYPE_U32 || t == TTC_TYPE_U64;
      v = fe_val_tensor(arg, uns);
      if (pa->desc_rank) { /* base, shape..., strides...: one tensor descriptor */
        fe_val dims[2 * IR_MAX_RANK];
        for (int k = 0; k < 2 * pa->desc_rank; k++) {
          const fe_param *part = &info->params[i + 1 + k];
          ir_value *dim = entry->args[a++];
          dim->name = part->name;
          dim->divisibility = part->divisibility > 0 ? part->divisibility : 0;
          /* the last stride is 1 (launches check it), so that the block's
           * rows are contiguous to the analyses */
          dims[k] = part->divisibility == FE_DIV_ONE ? fe_val_int(1) : fe_val_tensor(dim, false);
        }
        v = fe_tensor_desc(l, v, pa->desc_rank, dims, dims + pa->desc_rank, pa->desc_block);
      }
    }
    fe_scope_set(&frame->scope, pa->name, v);
  }
  ir_builder_set_end(&l->b, entry);
  return func;
}

/* Lowers the kernel body into `m`; false after errors. */
static bool lower_kernel(fe_lower *l, const fe_func *fn, const fe_kernel_info *info) {
  fe_frame frame;
  memset(&frame, 0, sizeof frame);
  frame.fn = fn;
  frame.unit = l->user;
  frame.ret.kind = FE_V_NONE;
  l->frame = &frame;
  if (!build_kernel_func(l, fn, info, &frame)) {
    l->frame = NULL;
    return false;
  }
  fe_lower_body(l, &fn->body);
  if (frame.ret.kind != FE_V_NONE && frame.ret.kind != FE_V_ERROR)
    fe_error(l, fn->loc, "kernel '%s' must not return a value", fn->name);
  l->b.loc = fn->body.n ? fn->body.stmts[fn->body.n - 1]->loc : fn->loc;
  ir_build(&l->b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0);
  fe_scope_free(&frame.scope);
  l->frame = NULL;
  return l->nerrors == 0;
}

/* The name of the module a file holds ("ops/add.py" -> "add"). */
static const char *module_name(fe_lower *l, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen(base);
  if (n > 3 && strcmp(base + n - 3, ".py") == 0) n -= 3;
  return ir_intern(l->ctx, base, n);
}

/* Finds the kernel's def in the user's module and parses it; NULL after a
 * diagnostic. */
static const fe_func *find_kernel(fe_lower *l, const char *kernel) {
  const fe_modindex *ix = l->user->ix;
  int b = fe_modindex_find(ix, kernel);
  while (b >= 0 && ix->binds[b].kind != FE_BIND_FUNC)
    b = ix->binds[b].prev;
  if (b < 0) {
    ir_loc loc = {ix->src, 1, 1};
    ir_error(l->ctx, loc, "no function named '%s' in '%s'", kernel, ix->src->name);
    for (int i = 0; i < ix->nbinds; i++)
      if (ix->binds[i].kind == FE_BIND_FUNC)
        ir_note(l->ctx, ix->binds[i].loc, "'%s' is defined here", ix->binds[i].name);
    return NULL;
  }
  bool found;
  fe_val v = fe_unit_lookup(l, l->user, ir_intern_cstr(l->ctx, kernel), ix->binds[b].loc, &found);
  if (v.kind != FE_V_FUNC) return NULL;
  return v.fn;
}

/* Remarks for decorators ttc does not know (project wrappers such as
 * @libentry()): they are ignored. */
static void remark_decorators(fe_lower *l, const fe_func *fn) {
  for (int i = 0; i < fn->ndecorators; i++) {
    const fe_expr *d = fn->decorators[i];
    if (fe_decorator_path(l, fn, d)[0]) continue;
    const fe_expr *c = d->kind == FE_EX_CALL ? d->a : d;
    const char *name = c->kind == FE_EX_NAME || c->kind == FE_EX_ATTR ? c->name : "?";
    fe_remark(l, d->start, "ignoring decorator '%s' of kernel '%s': not a Triton decorator", name,
              fn->name);
  }
}

void fe_lower_init(fe_lower *l, ir_context *ctx, ir_arena *arena, const fe_search_path *search) {
  memset(l, 0, sizeof *l);
  l->ctx = ctx;
  l->arena = arena;
  l->ctx_bytes0 = ir_context_arena_bytes(ctx);
  if (search) l->search = *search;
}

bool fe_lower_load_user(fe_lower *l, const ir_source *src) {
  fe_modindex *ix = ir_arena_alloc(l->arena, sizeof *ix);
  if (!ix) IR_UNREACHABLE("out of memory in the lowering");
  if (!fe_modindex_build(l->ctx, src, l->arena, ix)) return false;
  l->user = fe_unit_new(l, ix, ir_intern_cstr(l->ctx, src->name), module_name(l, src->name));
  return fe_prelude_load(l);
}

ir_module *fe_lower_kernel(ir_context *ctx, const ir_source *src, const char *kernel,
                           const char *signature, const fe_search_path *search,
                           fe_kernel_info *info) {
  info->nparams = 0;
  info->params = NULL;
  info->nmodules = 0;
  info->reads_environment = false;
  ir_arena arena;
  ir_arena_init(&arena);
  fe_lower l;
  fe_lower_init(&l, ctx, &arena, search);
  ir_module *m = NULL;
  const fe_func *fn;
  const fe_expr *deco = NULL;
  if (!fe_lower_load_user(&l, src) || !(fn = find_kernel(&l, kernel))) goto fail;
  l.kernel = fn;
  if (!jit_decorator(&l, fn, &deco)) {
    ir_error(ctx, fn->loc, "function '%s' is not decorated with @triton.jit", fn->name);
    goto fail;
  }
  remark_decorators(&l, fn);
  /* @triton.jit(debug=True) turns device_assert on, as in Triton. */
  for (int i = 0; deco && i < deco->nkw; i++)
    if (deco->kwnames[i] && strcmp(deco->kwnames[i], "debug") == 0 &&
        deco->kwvals[i]->kind == FE_EX_TRUE)
      l.debug = true;
  fe_sig_entry *entries;
  int nentries = fe_parse_signature(ctx, signature ? signature : "", &arena, &entries);
  if (nentries < 0) goto fail;
  m = ir_module_create(ctx, fn->loc);
  if (!m) IR_UNREACHABLE("out of memory creating a module");
  if (!fe_apply_signature(ctx, fn, entries, nentries, &m->side, info)) goto fail;
  l.m = m;
  ir_builder_init(&l.b, m);
  if (!lower_kernel(&l, fn, info)) goto fail;
  /* the units load_module created: every one but the user's and the prelude's */
  for (const fe_unit *u = l.units; u; u = u->next)
    if (u != l.user && !u->is_prelude) info->nmodules++;
  info->reads_environment = l.reads_environment;
  ir_arena_free(&arena);
  return m;
fail:
  if (m) ir_module_destroy(m);
  info->nparams = 0;
  info->params = NULL;
  ir_arena_free(&arena);
  return NULL;
}
