/* lower.c - entry point of the lowering to ttir: finds the kernel, applies
 * the signature, builds the tt.func; plus what every lowering file shares:
 * values, scopes, name resolution, module constants and inlining of @jit
 * helper calls (each with its own scope).
 *
 * Lowering never stops at the first error: a failed expression yields an
 * ERROR value that propagates silently, so one run reports many errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/fe.h"

#define FE_MAX_INLINE_DEPTH 32

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
 * prelude, since that is the line the user can change. */
fe_val fe_error(fe_lower *l, ir_loc loc, const char *fmt, ...) {
  const fe_frame *pf = NULL, *f = l->frame;
  for (; f && f->unit && f->unit != &l->user; f = f->parent) pf = f;
  va_list ap;
  va_start(ap, fmt);
  ir_vemit(l->ctx, IR_SEV_ERROR, pf ? pf->call_loc : loc, fmt, ap);
  va_end(ap);
  l->nerrors++;
  if (pf) ir_note(l->ctx, loc, "inside 'tl.%s' (ttc's prelude)", pf->fn->name);
  /* Where the error sits: each inlined user helper, then the kernel. */
  for (; f; f = f->parent) {
    if (f->parent) ir_note(l->ctx, f->fn->loc, "in jit function '%s'", f->fn->name);
    else ir_note(l->ctx, f->fn->loc, "in kernel '%s'", f->fn->name);
  }
  return fe_val_error();
}

/* ---- scopes ----------------------------------------------------------------- */

/* Rebinding replaces in place, so a scope holds each name once; the array
 * doubles as needed (malloc, freed by fe_scope_free). */
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
}

/* Names are interned, so pointer comparison suffices. */
fe_val *fe_scope_get(const fe_scope *s, const char *name) {
  for (int i = s->n - 1; i >= 0; i--)
    if (s->items[i].name == name) return &s->items[i].val;
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
}

void fe_scope_free(fe_scope *s) {
  free(s->items);
  s->items = NULL;
  s->n = s->cap = 0;
}

/* ---- name resolution -------------------------------------------------------- */

static bool str_eq(const char *a, const char *b) { return strcmp(a, b) == 0; }

typedef struct dtype_name {
  const char *name;
  int kind; /* 0 int, 1 uint, 2 float, 3 bf16 */
  unsigned width;
} dtype_name;

static const dtype_name dtype_names[] = {
    {"int1", 0, 1},     {"int8", 0, 8},      {"int16", 0, 16},    {"int32", 0, 32},
    {"int64", 0, 64},   {"uint8", 1, 8},     {"uint16", 1, 16},   {"uint32", 1, 32},
    {"uint64", 1, 64},  {"float16", 2, 16},  {"float32", 2, 32},  {"float64", 2, 64},
    {"bfloat16", 3, 16}, {"fp16", 2, 16},    {"fp32", 2, 32},     {"fp64", 2, 64},
    {"bf16", 3, 16},    {"float", 2, 32},    {"bool", 0, 1},
};

/* tl.float32 and friends; `float` and `bool` are accepted spellings too. */
static fe_val resolve_dtype(fe_lower *l, const char *name) {
  for (size_t i = 0; i < sizeof dtype_names / sizeof dtype_names[0]; i++) {
    const dtype_name *d = &dtype_names[i];
    if (!str_eq(d->name, name)) continue;
    fe_val v = fe_val_error();
    v.kind = FE_V_DTYPE;
    v.is_unsigned = d->kind == 1;
    if (d->kind == 3) v.ty = ir_type_bf16(l->ctx);
    else if (d->kind == 2) v.ty = d->width == 16 ? ir_type_f16(l->ctx)
                                  : d->width == 32 ? ir_type_f32(l->ctx) : ir_type_f64(l->ctx);
    else v.ty = ir_type_int(l->ctx, d->width);
    return v;
  }
  return fe_val_error();
}

static const char *const known_modules[] = {
    "triton", "triton.language", "triton.language.math", "triton.language.core",
    "triton.language.standard", "triton.language.extra", "triton.language.extra.cuda",
    "triton.language.extra.cuda.libdevice", "triton.language.extra.libdevice",
};

/* Known namespaces, triton.* decorators and helpers, tl.PropagateNan, then
 * the last component inside triton.language: a dtype, a prelude function
 * (these come first, so the prelude may replace a C builtin) or a builtin. */
fe_val fe_resolve_path(fe_lower *l, const char *path) {
  fe_val v = fe_val_error();
  for (size_t i = 0; i < sizeof known_modules / sizeof known_modules[0]; i++)
    if (str_eq(path, known_modules[i])) {
      v.kind = FE_V_MODULE;
      v.path = ir_intern_cstr(l->ctx, path);
      return v;
    }
  static const char *const triton_fns[] = {"triton.jit", "triton.autotune", "triton.heuristics",
                                           "triton.Config", "triton.cdiv", "triton.next_power_of_2"};
  for (size_t i = 0; i < sizeof triton_fns / sizeof triton_fns[0]; i++)
    if (str_eq(path, triton_fns[i])) {
      v.kind = FE_V_BUILTIN;
      v.path = ir_intern_cstr(l->ctx, str_eq(path, "triton.cdiv") ? "tl.cdiv" : path);
      return v;
    }
  /* tl.PropagateNan.ALL / NONE, as the strings tl.maximum and tl.clamp take. */
  if (str_eq(path, "triton.language.PropagateNan.ALL") ||
      str_eq(path, "triton.language.PropagateNan.NONE")) {
    v.kind = FE_V_STR;
    v.path = ir_intern_cstr(l->ctx, strrchr(path, '.')[1] == 'A' ? "all" : "none");
    return v;
  }
  if (str_eq(path, "triton.language.PropagateNan")) {
    v.kind = FE_V_MODULE;
    v.path = ir_intern_cstr(l->ctx, path);
    return v;
  }
  /* The last component of a path inside triton.language (and its math /
   * libdevice namespaces) names a dtype or a builtin. */
  const char *dot = strrchr(path, '.');
  if (!dot || strncmp(path, "triton.language.", 16) != 0) return v;
  char mod[256];
  snprintf(mod, sizeof mod, "%.*s", (int)(dot - path), path);
  bool in_tl = false;
  for (size_t i = 1; i < sizeof known_modules / sizeof known_modules[0]; i++)
    if (str_eq(mod, known_modules[i])) in_tl = true;
  if (!in_tl) return v;
  const char *name = dot + 1;
  v = resolve_dtype(l, name);
  if (v.kind == FE_V_DTYPE) return v;
  /* tl functions written in the kernel language (the prelude) come first. */
  const fe_func *pf = fe_prelude_func(l, name);
  if (pf) {
    v.kind = FE_V_FUNC;
    v.fn = pf;
    return v;
  }
  if (fe_is_tl_builtin(name)) {
    char buf[128];
    snprintf(buf, sizeof buf, "tl.%s", name);
    v.kind = FE_V_BUILTIN;
    v.path = ir_intern_cstr(l->ctx, buf);
  }
  return v;
}

/* Module constants are evaluated on first use (so the order of definitions
 * does not matter) and cached per unit; cycles are reported, not followed. */
static fe_val eval_global(fe_lower *l, fe_unit *u, int i) {
  fe_global_state *g = &u->globals[i];
  const fe_global *decl = &u->mod->globals[i];
  if (g->done) return g->val;
  if (g->busy) return fe_error(l, decl->loc, "circular definition of '%s'", decl->name);
  g->busy = true;
  /* Module constants see only module-level names: evaluate in an empty frame. */
  fe_frame frame;
  memset(&frame, 0, sizeof frame);
  frame.fn = l->frame ? l->frame->fn : l->kernel;
  frame.unit = u;
  frame.parent = l->frame ? l->frame->parent : NULL;
  fe_frame *saved = l->frame;
  l->frame = &frame;
  fe_val v = fe_lower_expr(l, decl->value);
  l->frame = saved;
  fe_scope_free(&frame.scope);
  if (v.kind == FE_V_TENSOR) {
    v = fe_error(l, decl->value->loc,
                 "module-level '%s' must be a constant expression, found a runtime value",
                 decl->name);
  }
  g->busy = false;
  g->done = true;
  g->val = v;
  return v;
}

/* The unit of the innermost frame (the kernel file outside any frame). */
static fe_unit *cur_unit(fe_lower *l) {
  return l->frame && l->frame->unit ? l->frame->unit : &l->user;
}

/* The unit defining `fn` (prelude functions live in their own files). */
static fe_unit *unit_of(fe_lower *l, const fe_func *fn) {
  for (int u = 0; u < l->nprelude; u++)
    for (int i = 0; i < l->prelude[u].mod->nfuncs; i++)
      if (l->prelude[u].mod->funcs[i] == fn) return &l->prelude[u];
  return &l->user;
}

const fe_func *fe_prelude_func(const fe_lower *l, const char *name) {
  if (name[0] == '_') return NULL; /* private helpers are not part of tl */
  for (int u = 0; u < l->nprelude; u++)
    for (int i = 0; i < l->prelude[u].mod->nfuncs; i++)
      if (str_eq(l->prelude[u].mod->funcs[i]->name, name)) return l->prelude[u].mod->funcs[i];
  return NULL;
}

/* Python's lookup order within the frame's own file: locals, module
 * constants, functions, imports, then the few Python builtins kernels use. */
fe_val fe_lookup(fe_lower *l, const char *name, ir_loc loc) {
  if (l->frame) {
    fe_val *v = fe_scope_get(&l->frame->scope, name);
    if (v) return *v;
  }
  fe_unit *u = cur_unit(l);
  const fe_module *mod = u->mod;
  for (int i = mod->nglobals - 1; i >= 0; i--)
    if (mod->globals[i].name == name) return eval_global(l, u, i);
  for (int i = 0; i < mod->nfuncs; i++)
    if (mod->funcs[i]->name == name) {
      fe_val v = fe_val_error();
      v.kind = FE_V_FUNC;
      v.fn = mod->funcs[i];
      return v;
    }
  for (int i = mod->nimports - 1; i >= 0; i--)
    if (mod->imports[i].alias == name) {
      fe_val v = fe_resolve_path(l, mod->imports[i].path);
      if (v.kind == FE_V_ERROR)
        return fe_error(l, loc, "unsupported import '%s'", mod->imports[i].path);
      return v;
    }
  static const char *const py_builtins[] = {"min", "max", "range", "int", "float", "bool",
                                            "len", "abs", "print", "isinstance", "getattr"};
  for (size_t i = 0; i < sizeof py_builtins / sizeof py_builtins[0]; i++)
    if (str_eq(name, py_builtins[i])) {
      char buf[64];
      snprintf(buf, sizeof buf, "py.%s", name);
      fe_val v = fe_val_error();
      v.kind = FE_V_BUILTIN;
      v.path = ir_intern_cstr(l->ctx, buf);
      return v;
    }
  return fe_error(l, loc, "undefined name '%s'", name);
}

/* ---- decorators ------------------------------------------------------------- */

/* Whether the function carries @triton.jit (or @jit, @triton.jit(...)),
 * resolving the decorator through the imports of `mod`, its own file. When
 * `call` is given it receives the decorator's call expression, if any. */
static bool is_jit_function(const fe_module *mod, const fe_func *fn, const fe_expr **call) {
  for (int i = 0; i < fn->ndecorators; i++) {
    const fe_expr *d = fn->decorators[i];
    const fe_expr *c = d->kind == FE_EX_CALL ? d : NULL;
    if (c) d = d->a;
    const char *parts[8];
    int n = 0;
    while (d->kind == FE_EX_ATTR && n < 7) {
      parts[n++] = d->name;
      d = d->a;
    }
    if (d->kind != FE_EX_NAME) continue;
    const char *base = NULL;
    for (int j = 0; j < mod->nimports; j++)
      if (mod->imports[j].alias == d->name) base = mod->imports[j].path;
    if (!base) continue;
    char path[256];
    snprintf(path, sizeof path, "%s", base);
    for (int j = n - 1; j >= 0; j--) {
      size_t len = strlen(path);
      snprintf(path + len, sizeof path - len, ".%s", parts[j]);
    }
    if (str_eq(path, "triton.jit")) {
      if (call) *call = c;
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

/* ---- jit helper calls ------------------------------------------------------- */

static void set_loc(ir_op *op, void *user) { op->loc = *(const ir_loc *)user; }

/* Inlines `fn` at the call site: a fresh frame holds only its parameters
 * (positional, keyword, then defaults), so the callee cannot see the caller's
 * variables. constexpr parameters must receive compile-time values. The
 * callee's `return` value is the call's value (None without one). */
fe_val fe_call_jit(fe_lower *l, const fe_func *fn, const fe_args *args) {
  fe_unit *unit = unit_of(l, fn);
  if (!is_jit_function(unit->mod, fn, NULL))
    return fe_error(l, args->loc, "'%s' is not a @triton.jit function", fn->name);
  if (l->depth >= FE_MAX_INLINE_DEPTH)
    return fe_error(l, args->loc, "call depth exceeds %d when inlining '%s' (recursion?)",
                    FE_MAX_INLINE_DEPTH, fn->name);
  if (args->n > fn->nparams)
    return fe_error(l, args->pos_loc[fn->nparams], "too many arguments to '%s': expected at most "
                    "%d, found %d", fn->name, fn->nparams, args->n);
  fe_frame frame;
  memset(&frame, 0, sizeof frame);
  frame.fn = fn;
  frame.unit = unit;
  frame.call_loc = args->loc;
  frame.parent = l->frame;
  frame.ret.kind = FE_V_NONE;
  bool ok = true;
  for (int k = 0; k < args->nkw; k++) {
    int found = -1;
    for (int i = 0; i < fn->nparams; i++)
      if (fn->params[i].name == args->kwnames[k]) found = i;
    if (found < 0) {
      fe_error(l, args->kw_loc[k], "unexpected keyword argument '%s' in call to '%s'",
               args->kwnames[k], fn->name);
      ok = false;
    } else if (found < args->n) {
      fe_error(l, args->kw_loc[k], "argument '%s' of '%s' given twice", args->kwnames[k],
               fn->name);
      ok = false;
    }
  }
  for (int i = 0; i < fn->nparams && ok; i++) {
    const fe_param_decl *pd = &fn->params[i];
    fe_val v;
    ir_loc vloc = args->loc;
    int kw = -1;
    for (int k = 0; k < args->nkw; k++)
      if (args->kwnames[k] == pd->name) kw = k;
    if (i < args->n) {
      v = args->pos[i];
      vloc = args->pos_loc[i];
    } else if (kw >= 0) {
      v = args->kw[kw];
      vloc = args->kw_loc[kw];
    } else if (pd->dflt) {
      /* Defaults are evaluated in the module scope, as at definition time. */
      fe_frame tmp;
      memset(&tmp, 0, sizeof tmp);
      tmp.fn = fn;
      tmp.unit = unit;
      tmp.call_loc = args->loc;
      tmp.parent = l->frame;
      fe_frame *saved = l->frame;
      l->frame = &tmp;
      v = fe_lower_expr(l, pd->dflt);
      l->frame = saved;
      fe_scope_free(&tmp.scope);
    } else {
      fe_error(l, args->loc, "missing argument '%s' in call to '%s'", pd->name, fn->name);
      ok = false;
      break;
    }
    if (v.kind == FE_V_ERROR) ok = false;
    if (fe_is_constexpr_annotation(pd->annotation) && v.kind == FE_V_TENSOR) {
      fe_error(l, vloc, "argument '%s' of '%s' must be a constexpr, found a runtime value",
               pd->name, fn->name);
      ok = false;
    }
    fe_scope_set(&frame.scope, pd->name, v);
  }
  if (!ok) {
    fe_scope_free(&frame.scope);
    return fe_val_error();
  }
  fe_frame *saved = l->frame;
  /* A prelude function called from user code: its ops take the call's
   * location, so that later diagnostics point at the user's line. */
  bool relocate = unit != &l->user && (!saved || saved->unit == &l->user) && l->b.block &&
                  !l->b.before;
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

/* ---- the kernel ------------------------------------------------------------- */

/* Builds the tt.func for the kernel and binds its parameters. */
/* The kernel ABI: one argument per non-constexpr parameter, in order;
 * pointers are !tt.ptr<elem> in address space 1, scalars at their width.
 * constexpr parameters bind their signature values as Python constants. */
static ir_op *build_kernel_func(fe_lower *l, const fe_func *fn, const fe_kernel_info *info,
                                fe_frame *frame) {
  const ir_type *arg_types[128];
  int nargs = 0;
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
    if (pa->is_constexpr) {
      if (pa->const_kind == FE_CONST_INT) v = fe_val_int(pa->ival);
      else if (pa->const_kind == FE_CONST_FLOAT) v = fe_val_float(pa->fval);
      else v = fe_val_bool(pa->ival != 0);
    } else {
      ir_value *arg = entry->args[a++];
      arg->name = pa->name;
      arg->divisibility = pa->divisibility;
      ttc_type t = pa->type == TTC_TYPE_PTR ? pa->pointee : pa->type;
      bool uns = t == TTC_TYPE_U8 || t == TTC_TYPE_U16 || t == TTC_TYPE_U32 || t == TTC_TYPE_U64;
      v = fe_val_tensor(arg, uns);
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
  frame.unit = &l->user;
  frame.ret.kind = FE_V_NONE;
  l->frame = &frame;
  build_kernel_func(l, fn, info, &frame);
  fe_lower_body(l, &fn->body);
  if (frame.ret.kind != FE_V_NONE && frame.ret.kind != FE_V_ERROR)
    fe_error(l, fn->loc, "kernel '%s' must not return a value", fn->name);
  l->b.loc = fn->body.n ? fn->body.stmts[fn->body.n - 1]->loc : fn->loc;
  ir_build(&l->b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0);
  fe_scope_free(&frame.scope);
  l->frame = NULL;
  return l->nerrors == 0;
}

/* Parses every prelude file (embedded at build time) into the lowering's
 * arena. They are registered as sources "<prelude>/NAME" so that errors met
 * while inlining a prelude function point into it. False after a diagnostic
 * (a prelude that does not parse is a bug of ttc, reported, not fatal). */
static bool parse_prelude(fe_lower *l) {
  l->nprelude = 0;
  l->prelude = ir_arena_alloc(l->arena, sizeof(fe_unit) * (size_t)(fe_prelude_nfiles + 1));
  for (int i = 0; i < fe_prelude_nfiles; i++) {
    char name[128];
    snprintf(name, sizeof name, "<prelude>/%s", fe_prelude_files[i].name);
    const ir_source *src = ir_context_add_source(l->ctx, name, fe_prelude_files[i].text,
                                                 fe_prelude_files[i].len);
    if (!src) IR_UNREACHABLE("out of memory registering the prelude");
    fe_module *mod = fe_parse(l->ctx, src, l->arena);
    if (!mod) return false;
    fe_unit *u = &l->prelude[l->nprelude++];
    u->mod = mod;
    u->globals = ir_arena_alloc(l->arena, sizeof(fe_global_state) * (size_t)(mod->nglobals + 1));
  }
  return true;
}

ir_module *fe_lower_kernel(ir_context *ctx, const ir_source *src, const char *kernel,
                           const char *signature, fe_kernel_info *info) {
  info->nparams = 0;
  info->params = NULL;
  ir_arena arena;
  ir_arena_init(&arena);
  fe_module *mod = fe_parse(ctx, src, &arena);
  if (!mod) {
    ir_arena_free(&arena);
    return NULL;
  }
  fe_lower l;
  memset(&l, 0, sizeof l);
  l.ctx = ctx;
  l.user.mod = mod;
  l.user.globals = ir_arena_alloc(&arena, sizeof(fe_global_state) * (size_t)(mod->nglobals + 1));
  l.arena = &arena;
  const fe_func *fn = fe_module_find_func(mod, kernel);
  if (!fn) {
    ir_loc loc = {src, 1, 1};
    ir_error(ctx, loc, "no function named '%s' in '%s'", kernel, src->name);
    for (int i = 0; i < mod->nfuncs; i++)
      ir_note(ctx, mod->funcs[i]->loc, "'%s' is defined here", mod->funcs[i]->name);
    ir_arena_free(&arena);
    return NULL;
  }
  l.kernel = fn;
  const fe_expr *deco = NULL;
  if (!is_jit_function(mod, fn, &deco)) {
    ir_error(ctx, fn->loc, "function '%s' is not decorated with @triton.jit", fn->name);
    ir_arena_free(&arena);
    return NULL;
  }
  /* @triton.jit(debug=True) turns device_assert on, as in Triton. */
  for (int i = 0; deco && i < deco->nkw; i++)
    if (str_eq(deco->kwnames[i], "debug") && deco->kwvals[i]->kind == FE_EX_TRUE) l.debug = true;
  if (!parse_prelude(&l)) {
    ir_arena_free(&arena);
    return NULL;
  }
  fe_sig_entry *entries;
  int nentries = fe_parse_signature(ctx, signature ? signature : "", &arena, &entries);
  if (nentries < 0) {
    ir_arena_free(&arena);
    return NULL;
  }
  ir_module *m = ir_module_create(ctx, fn->loc);
  if (!m) IR_UNREACHABLE("out of memory creating a module");
  if (!fe_apply_signature(ctx, fn, entries, nentries, &m->arena, info)) {
    ir_module_destroy(m);
    ir_arena_free(&arena);
    return NULL;
  }
  l.m = m;
  ir_builder_init(&l.b, m);
  bool ok = lower_kernel(&l, fn, info);
  ir_arena_free(&arena);
  if (!ok) {
    ir_module_destroy(m);
    info->nparams = 0;
    info->params = NULL;
    return NULL;
  }
  return m;
}
