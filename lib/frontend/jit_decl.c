// SPDX-License-Identifier: MIT
/* jit_decl.c - fe_read_jit_decl: what a @triton.jit kernel declares, read
 * from the parsed module without lowering it: its parameters, the arguments
 * of @triton.jit, @triton.autotune and @triton.heuristics in their literal
 * forms, and the spans of source the kernel reaches (for cache keys).
 * lib/driver builds kernel functions on this; nothing here runs host code. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/fe.h"

typedef struct decl_reader {
  ir_context *ctx;
  ir_arena *arena;
  const fe_module *mod;
  const fe_func *fn;
  fe_jit_decl *d;
  int nerrors;
} decl_reader;

static void decl_error(decl_reader *r, ir_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void decl_error(decl_reader *r, ir_loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_vemit(r->ctx, IR_SEV_ERROR, loc, fmt, ap);
  va_end(ap);
  r->nerrors++;
}

static void *decl_alloc(decl_reader *r, size_t n, size_t size) {
  void *p = ir_arena_alloc(r->arena, (n ? n : 1) * size);
  if (!p) IR_UNREACHABLE("out of memory reading a kernel declaration");
  memset(p, 0, (n ? n : 1) * size);
  return p;
}

/* ---- names and literals ------------------------------------------------------ */

/* The dotted path a NAME / ATTR chain names, its first component resolved
 * through the module's imports ("triton.autotune" for `@triton.autotune`,
 * also after `from triton import autotune`). False when it is not a chain
 * rooted at an import. */
static bool import_path(const fe_module *mod, const fe_expr *e, char *path, size_t cap) {
  const char *parts[8];
  int n = 0;
  while (e && e->kind == FE_EX_ATTR && n < 7) {
    parts[n++] = e->name;
    e = e->a;
  }
  if (!e || e->kind != FE_EX_NAME) return false;
  /* the name's last module-level binding must be an absolute import; a
   * relative one is the user's own package, never triton */
  int b = fe_modindex_find(&mod->ix, e->name);
  if (b < 0) return false;
  const fe_bind *bind = &mod->ix.binds[b];
  if (bind->kind != FE_BIND_IMPORT || bind->imp.level > 0 || !bind->imp.module) return false;
  if (bind->imp.attr && strcmp(bind->imp.attr, "*") == 0) return false;
  if (bind->imp.attr)
    snprintf(path, cap, "%s.%s", bind->imp.module, bind->imp.attr);
  else
    snprintf(path, cap, "%s", bind->imp.module);
  for (int j = n - 1; j >= 0; j--) {
    size_t len = strlen(path);
    snprintf(path + len, cap - len, ".%s", parts[j]);
  }
  return true;
}

static bool names_path(const fe_module *mod, const fe_expr *e, const char *want) {
  char path[256];
  return import_path(mod, e, path, sizeof path) && strcmp(path, want) == 0;
}

/* The value expression of a module constant (a VALUE binding), parsed on
 * demand from the index; NULL if `name` is not bound to one or it does not
 * parse. */
static const fe_expr *module_value(ir_context *ctx, ir_arena *arena, const fe_module *mod,
                                   const fe_bind *bind) {
  if (bind->kind != FE_BIND_VALUE) return NULL;
  fe_parser p;
  fe_parser_init(&p, ctx, arena, &mod->ix, bind->at);
  p.quiet = true;
  fe_expr *value = fe_parse_value(&p);
  return p.nerrors ? NULL : value;
}

/* A literal scalar: a number, True/False/None, a negated number, or a
 * module constant bound to one. */
static bool literal_value(decl_reader *r, const fe_expr *e, fe_cval *out, int depth) {
  memset(out, 0, sizeof *out);
  if (!e || depth > 8) return false;
  switch (e->kind) {
  case FE_EX_INT:
    out->kind = FE_CVAL_INT;
    out->i = (int64_t)e->ival;
    return true;
  case FE_EX_FLOAT:
    out->kind = FE_CVAL_FLOAT;
    out->f = e->fval;
    return true;
  case FE_EX_TRUE:
    out->kind = FE_CVAL_BOOL;
    out->i = 1;
    return true;
  case FE_EX_FALSE: out->kind = FE_CVAL_BOOL; return true;
  case FE_EX_NONE: return true;
  case FE_EX_UNARY:
    if (e->op != FE_OP_NEG || !literal_value(r, e->a, out, depth + 1)) return false;
    if (out->kind == FE_CVAL_INT)
      out->i = -out->i;
    else if (out->kind == FE_CVAL_FLOAT)
      out->f = -out->f;
    else
      return false;
    return true;
  case FE_EX_NAME: {
    int b = fe_modindex_find(&r->mod->ix, e->name);
    if (b < 0) return false;
    const fe_expr *v = module_value(r->ctx, r->arena, r->mod, &r->mod->ix.binds[b]);
    return v && literal_value(r, v, out, depth + 1);
  }
  default: return false;
  }
}

/* A string literal's text, or NULL. */
static const char *string_of(const fe_expr *e) { return e && e->kind == FE_EX_STR ? e->str : NULL; }

/* The keyword argument `name` of a call, or NULL. */
static const fe_expr *kwarg(const fe_expr *call, const char *name) {
  for (int i = 0; i < call->nkw; i++)
    if (strcmp(call->kwnames[i], name) == 0) return call->kwvals[i];
  return NULL;
}

/* The index of parameter `name`, or -1. */
static int param_index(const fe_func *fn, const char *name) {
  for (int i = 0; i < fn->nparams; i++)
    if (strcmp(fn->params[i].name, name) == 0) return i;
  return -1;
}

/* A list (or tuple) of parameter names (or, where `allow_index`, indices),
 * each checked against the kernel's parameters; *out receives the names. */
static int read_param_list(decl_reader *r, const fe_expr *e, const char *what, bool allow_index,
                           const char ***out) {
  *out = NULL;
  if (!e || e->kind == FE_EX_NONE) return 0;
  if (e->kind != FE_EX_LIST && e->kind != FE_EX_TUPLE) {
    decl_error(r, e->loc, "unsupported: '%s' must be a list of parameter names", what);
    return 0;
  }
  /* each parameter once: a repeated name adds nothing, and the launch keys
   * are sized for one entry a parameter */
  const char **names = decl_alloc(r, (size_t)e->n, sizeof *names);
  int n = 0;
  for (int i = 0; i < e->n; i++) {
    const fe_expr *it = e->items[i];
    const char *s = string_of(it);
    int idx = s ? param_index(r->fn, s) : -1;
    if (!s && allow_index && it->kind == FE_EX_INT && it->ival < (uint64_t)r->fn->nparams)
      idx = (int)it->ival;
    if (idx < 0) {
      if (s)
        decl_error(r, it->loc, "'%s' names '%s', which is not a parameter of '%s'", what, s,
                   r->fn->name);
      else
        decl_error(r, it->loc, "unsupported: '%s' entries must be parameter names%s", what,
                   allow_index ? " or indices" : "");
      continue;
    }
    const char *name = r->fn->params[idx].name;
    bool seen = false;
    for (int j = 0; j < n && !seen; j++)
      seen = names[j] == name;
    if (!seen) names[n++] = name;
  }
  *out = names;
  return n;
}

/* ---- @triton.jit ----------------------------------------------------------------- */

static void read_jit(decl_reader *r, const fe_expr *call) {
  fe_jit_decl *d = r->d;
  if (!call) return;
  const char **names = NULL;
  int n = read_param_list(r, kwarg(call, "do_not_specialize"), "do_not_specialize", true, &names);
  for (int i = 0; i < n; i++)
    for (int p = 0; names[i] && p < d->nparams; p++)
      if (d->params[p].name == names[i]) d->params[p].do_not_specialize = true;
  n = read_param_list(r, kwarg(call, "do_not_specialize_on_alignment"),
                      "do_not_specialize_on_alignment", true, &names);
  for (int i = 0; i < n; i++)
    for (int p = 0; names[i] && p < d->nparams; p++)
      if (d->params[p].name == names[i]) d->params[p].do_not_specialize_on_alignment = true;
  const fe_expr *dbg = kwarg(call, "debug");
  fe_cval v;
  if (dbg && literal_value(r, dbg, &v, 0) && v.kind == FE_CVAL_BOOL) d->debug = v.i != 0;
}

/* ---- @triton.autotune ------------------------------------------------------------- */

static int read_int_kw(decl_reader *r, const fe_expr *call, const char *name, int pos) {
  const fe_expr *e = kwarg(call, name);
  if (!e && pos >= 0 && pos < call->n) e = call->items[pos];
  if (!e) return 0;
  fe_cval v;
  if (!literal_value(r, e, &v, 0) || (v.kind != FE_CVAL_INT && v.kind != FE_CVAL_NONE) || v.i < 0 ||
      v.i > 1 << 20) {
    decl_error(r, e->loc, "unsupported: '%s' must be an integer literal", name);
    return 0;
  }
  return (int)v.i;
}

/* triton.Config({'BLOCK': 128, ...}, num_warps=4, num_stages=3) */
static void read_config(decl_reader *r, const fe_expr *e, fe_jit_config *c) {
  c->loc = e->loc;
  if (e->kind != FE_EX_CALL || !names_path(r->mod, e->a, "triton.Config")) {
    decl_error(r, e->loc,
               "unsupported: autotune configs must be triton.Config(...) calls "
               "(ttc does not run host code)");
    return;
  }
  const fe_expr *kw = e->n > 0 ? e->items[0] : kwarg(e, "kwargs");
  if (!kw || kw->kind != FE_EX_DICT) {
    decl_error(r, e->loc, "unsupported: triton.Config needs a dict literal of constexpr values");
    return;
  }
  c->nkv = kw->n / 2;
  c->kv = decl_alloc(r, (size_t)c->nkv, sizeof *c->kv);
  for (int i = 0; i < c->nkv; i++) {
    const fe_expr *k = kw->items[2 * i], *v = kw->items[2 * i + 1];
    const char *name = string_of(k);
    if (!name || param_index(r->fn, name) < 0) {
      decl_error(r, k->loc, "triton.Config key must name a parameter of '%s'", r->fn->name);
      continue;
    }
    c->kv[i].name = r->fn->params[param_index(r->fn, name)].name;
    if (!literal_value(r, v, &c->kv[i].value, 0))
      decl_error(r, v->loc, "unsupported: the value of '%s' in triton.Config must be a literal",
                 name);
  }
  c->num_warps = read_int_kw(r, e, "num_warps", 1);
  c->num_stages = read_int_kw(r, e, "num_stages", 2);
  int num_ctas = read_int_kw(r, e, "num_ctas", 3);
  if (num_ctas > 1)
    decl_error(r, e->loc, "unsupported: num_ctas=%d (ttc launches one CTA per program)", num_ctas);
  const fe_expr *hook = kwarg(e, "pre_hook");
  if (hook && hook->kind != FE_EX_NONE)
    decl_error(r, hook->loc, "unsupported: a config pre_hook (host code)");
}

static void read_autotune(decl_reader *r, const fe_expr *call) {
  fe_jit_decl *d = r->d;
  d->has_autotune = true;
  d->autotune_loc = call->loc;
  const fe_expr *configs = kwarg(call, "configs");
  if (!configs && call->n > 0) configs = call->items[0];
  if (!configs || (configs->kind != FE_EX_LIST && configs->kind != FE_EX_TUPLE) ||
      configs->n == 0) {
    decl_error(r, call->loc,
               "unsupported: @triton.autotune needs configs=[triton.Config(...), ...] "
               "as a non-empty list literal");
    return;
  }
  d->nconfigs = configs->n;
  d->configs = decl_alloc(r, (size_t)d->nconfigs, sizeof *d->configs);
  for (int i = 0; i < configs->n; i++)
    read_config(r, configs->items[i], &d->configs[i]);
  const fe_expr *key = kwarg(call, "key");
  if (!key && call->n > 1) key = call->items[1];
  d->nkey = read_param_list(r, key, "key", false, &d->key);
  d->nreset =
      read_param_list(r, kwarg(call, "reset_to_zero"), "reset_to_zero", false, &d->reset_to_zero);
  d->nrestore =
      read_param_list(r, kwarg(call, "restore_value"), "restore_value", false, &d->restore_value);
  const fe_expr *prune = kwarg(call, "prune_configs_by");
  d->has_prune = prune && prune->kind != FE_EX_NONE;
  d->warmup_ms = read_int_kw(r, call, "warmup", -1);
  d->rep_ms = read_int_kw(r, call, "rep", -1);
}

/* ---- @triton.heuristics ---------------------------------------------------------- */

static const fe_hexpr *read_hexpr(decl_reader *r, const fe_expr *e);

static fe_hexpr *new_hexpr(decl_reader *r, fe_hx_kind kind, const fe_expr *e) {
  fe_hexpr *h = decl_alloc(r, 1, sizeof *h);
  h->kind = kind;
  h->loc = e->loc;
  return h;
}

/* The functions a heuristic may call, by the name lib/driver evaluates. */
static const char *hexpr_callee(const fe_module *mod, const fe_expr *callee) {
  static const char *const builtins[] = {"min", "max", "abs", "int", "float", "bool"};
  if (callee->kind == FE_EX_NAME) {
    int b = fe_modindex_find(&mod->ix, callee->name);
    bool shadowed = b >= 0 && mod->ix.binds[b].kind == FE_BIND_IMPORT;
    for (size_t i = 0; !shadowed && i < sizeof builtins / sizeof builtins[0]; i++)
      if (strcmp(callee->name, builtins[i]) == 0) return builtins[i];
  }
  char path[256];
  if (!import_path(mod, callee, path, sizeof path)) return NULL;
  if (strcmp(path, "triton.next_power_of_2") == 0) return "next_power_of_2";
  if (strcmp(path, "triton.cdiv") == 0 || strcmp(path, "triton.language.cdiv") == 0) return "cdiv";
  return NULL;
}

static const fe_hexpr *read_hexpr(decl_reader *r, const fe_expr *e) {
  fe_hexpr *h;
  fe_cval c;
  switch (e->kind) {
  case FE_EX_SUBSCRIPT:
    /* args['name']: whatever the lambda's parameter is called */
    if (e->a->kind == FE_EX_NAME && string_of(e->b)) {
      h = new_hexpr(r, FE_HX_ARG, e);
      h->name = ir_intern_cstr(r->ctx, string_of(e->b));
      return h;
    }
    break;
  case FE_EX_UNARY:
    h = new_hexpr(r, FE_HX_UNARY, e);
    h->op = e->op;
    h->a = read_hexpr(r, e->a);
    return h;
  case FE_EX_BINARY:
    if (e->op == FE_OP_MATMUL) break;
    h = new_hexpr(r, FE_HX_BINARY, e);
    h->op = e->op;
    h->a = read_hexpr(r, e->a);
    h->b = read_hexpr(r, e->b);
    return h;
  case FE_EX_COMPARE: {
    /* a < b < c is (a < b) and (b < c) */
    const fe_hexpr *acc = NULL;
    for (int i = 0; i + 1 < e->n; i++) {
      if (e->cmpops[i] >= FE_OP_IS) break;
      fe_hexpr *cmp = new_hexpr(r, FE_HX_BINARY, e);
      cmp->op = e->cmpops[i];
      cmp->a = read_hexpr(r, e->items[i]);
      cmp->b = read_hexpr(r, e->items[i + 1]);
      if (!acc) {
        acc = cmp;
        continue;
      }
      fe_hexpr *conj = new_hexpr(r, FE_HX_BINARY, e);
      conj->op = FE_OP_AND;
      conj->a = acc;
      conj->b = cmp;
      acc = conj;
    }
    if (acc && e->n >= 2) return acc;
    break;
  }
  case FE_EX_IFEXP:
    h = new_hexpr(r, FE_HX_IFEXP, e);
    h->a = read_hexpr(r, e->a);
    h->b = read_hexpr(r, e->b);
    h->c3 = read_hexpr(r, e->c);
    return h;
  case FE_EX_CALL: {
    const char *callee = hexpr_callee(r->mod, e->a);
    if (!callee || e->nkw) break;
    h = new_hexpr(r, FE_HX_CALL, e);
    h->name = callee;
    h->n = e->n;
    h->args = decl_alloc(r, (size_t)e->n, sizeof *h->args);
    for (int i = 0; i < e->n; i++)
      h->args[i] = read_hexpr(r, e->items[i]);
    return h;
  }
  default:
    if (literal_value(r, e, &c, 0)) {
      h = new_hexpr(r, FE_HX_CONST, e);
      h->c = c;
      return h;
    }
    break;
  }
  decl_error(r, e->loc,
             "unsupported in a heuristic: ttc evaluates arithmetic, comparisons, "
             "args['name'], triton.next_power_of_2, triton.cdiv, min, max, abs, int, float "
             "and bool");
  h = new_hexpr(r, FE_HX_CONST, e); /* a placeholder; the decl is refused */
  return h;
}

static void read_heuristics(decl_reader *r, const fe_expr *call) {
  fe_jit_decl *d = r->d;
  const fe_expr *dict = kwarg(call, "values");
  if (!dict && call->n > 0) dict = call->items[0];
  if (!dict || dict->kind != FE_EX_DICT) {
    decl_error(r, call->loc,
               "unsupported: @triton.heuristics needs a dict literal "
               "{'NAME': lambda args: ...}");
    return;
  }
  int n = dict->n / 2, added = 0;
  fe_jit_heuristic *hs = decl_alloc(r, (size_t)(d->nheuristics + n), sizeof *hs);
  if (d->nheuristics) memcpy(hs, d->heuristics, sizeof *hs * (size_t)d->nheuristics);
  for (int i = 0; i < n; i++) {
    const fe_expr *k = dict->items[2 * i], *v = dict->items[2 * i + 1];
    const char *name = string_of(k);
    if (!name || param_index(r->fn, name) < 0) {
      decl_error(r, k->loc, "heuristic key must name a parameter of '%s'", r->fn->name);
      continue;
    }
    name = r->fn->params[param_index(r->fn, name)].name;
    /* as in a Python dict, a repeated key keeps its place and takes the
     * last value */
    fe_jit_heuristic *h = NULL;
    for (int j = d->nheuristics; j < d->nheuristics + added && !h; j++)
      if (hs[j].name == name) h = &hs[j];
    if (!h) h = &hs[d->nheuristics + added++];
    h->loc = k->loc;
    h->name = name;
    if (v->kind != FE_EX_LAMBDA) {
      decl_error(r, v->loc, "unsupported: a heuristic must be a lambda");
      continue;
    }
    /* the parser makes a lambda a function whose body is one `return` */
    const fe_func *lf = v->fn;
    const fe_stmt *ret = lf && lf->body.n == 1 ? lf->body.stmts[0] : NULL;
    if (!ret || ret->kind != FE_ST_RETURN || !ret->value) {
      decl_error(r, v->loc, "unsupported: a heuristic must be a lambda");
      continue;
    }
    h->expr = read_hexpr(r, ret->value);
  }
  d->heuristics = hs;
  d->nheuristics += added;
  if (d->nheuristics > FE_MAX_PARAMS)
    decl_error(r, call->loc, "more than %d heuristics (stacked @triton.heuristics included)",
               FE_MAX_PARAMS);
}

/* ---- dependencies ------------------------------------------------------------ */

/* The names an AST refers to (every NAME node), appended to a growing set
 * with a hash index (a linear membership test made long kernels quadratic). */
typedef struct name_set {
  const char **names;
  int n, cap;
  int *table; /* tcap slots: index into names, or -1 */
  int tcap;
} name_set;

static uint32_t name_hash32(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 16777619u;
  return h ^ (h >> 15);
}

static void names_add(name_set *s, const char *name) {
  uint32_t h = name_hash32(name);
  for (int i = s->tcap ? (int)(h & (uint32_t)(s->tcap - 1)) : 0; s->tcap && s->table[i] >= 0;
       i = (i + 1) & (s->tcap - 1))
    if (strcmp(s->names[s->table[i]], name) == 0) return;
  if (s->n == s->cap) {
    int ncap = s->cap ? s->cap * 2 : 64;
    const char **nn = realloc(s->names, sizeof *nn * (size_t)ncap);
    if (!nn) IR_UNREACHABLE("out of memory reading a kernel declaration");
    s->names = nn;
    s->cap = ncap;
  }
  s->names[s->n++] = name;
  if (2 * s->n > s->tcap) { /* rebuild at twice the names */
    int tcap = 128;
    while (tcap < 4 * s->n)
      tcap *= 2;
    int *t = realloc(s->table, sizeof *t * (size_t)tcap);
    if (!t) IR_UNREACHABLE("out of memory reading a kernel declaration");
    s->table = t;
    s->tcap = tcap;
    for (int i = 0; i < tcap; i++)
      t[i] = -1;
    for (int k = 0; k < s->n; k++) {
      int i = (int)(name_hash32(s->names[k]) & (uint32_t)(tcap - 1));
      while (t[i] >= 0)
        i = (i + 1) & (tcap - 1);
      t[i] = k;
    }
    return;
  }
  int i = (int)(h & (uint32_t)(s->tcap - 1));
  while (s->table[i] >= 0)
    i = (i + 1) & (s->tcap - 1);
  s->table[i] = s->n - 1;
}

static void collect_func(name_set *s, const fe_func *fn);

static void collect_expr(name_set *s, const fe_expr *e) {
  if (!e) return;
  if (e->kind == FE_EX_NAME) names_add(s, e->name);
  if (e->kind == FE_EX_LAMBDA && e->fn) collect_func(s, e->fn);
  collect_expr(s, e->a);
  collect_expr(s, e->b);
  collect_expr(s, e->c);
  for (int i = 0; i < e->n && e->items; i++)
    collect_expr(s, e->items[i]);
  for (int i = 0; i < e->nkw; i++)
    collect_expr(s, e->kwvals[i]);
}

static void collect_body(name_set *s, const fe_body *b);

static void collect_stmt(name_set *s, const fe_stmt *st) {
  for (int i = 0; i < st->ntargets; i++)
    collect_expr(s, st->targets[i]);
  collect_expr(s, st->value);
  collect_expr(s, st->annotation);
  collect_expr(s, st->cond);
  collect_expr(s, st->target);
  collect_expr(s, st->iter);
  collect_expr(s, st->msg);
  collect_body(s, &st->body);
  collect_body(s, &st->orelse);
}

static void collect_body(name_set *s, const fe_body *b) {
  for (int i = 0; i < b->n; i++)
    collect_stmt(s, b->stmts[i]);
}

static void collect_func(name_set *s, const fe_func *fn) {
  for (int i = 0; i < fn->nparams; i++) {
    collect_expr(s, fn->params[i].annotation);
    collect_expr(s, fn->params[i].dflt);
  }
  for (int i = 0; i < fn->ndecorators; i++)
    collect_expr(s, fn->decorators[i]);
  collect_body(s, &fn->body);
}

/* One top-level statement of the file: [start, end) bytes, a decorated
 * definition counted as one statement with its decorators. */
typedef struct top_stmt {
  size_t start, end;
  uint32_t line;
  bool is_import;
} top_stmt;

static size_t offset_of(const ir_source *src, const size_t *line_start, uint32_t nlines,
                        ir_loc loc) {
  if (loc.line == 0 || loc.line > nlines) return src->len;
  size_t off = line_start[loc.line - 1] + (loc.col ? loc.col - 1 : 0);
  return off > src->len ? src->len : off;
}

/* Splits the file into top-level statements from its tokens: one starts
 * at a token outside every indented block that follows a NEWLINE or a
 * DEDENT (or opens the file). Returns the count; *out is malloc'd. */
static int top_statements(decl_reader *r, const ir_source *src, top_stmt **out) {
  *out = NULL;
  fe_tokens toks;
  if (!fe_lex(r->ctx, src, r->arena, &toks)) {
    fe_tokens_free(&toks);
    return -1;
  }
  uint32_t nlines = 1;
  for (size_t i = 0; i < src->len; i++)
    nlines += src->text[i] == '\n';
  size_t *line_start = malloc(sizeof *line_start * (nlines + 1));
  top_stmt *stmts = malloc(sizeof *stmts * (size_t)(toks.n + 1));
  if (!line_start || !stmts) IR_UNREACHABLE("out of memory reading a kernel declaration");
  uint32_t l = 0;
  line_start[l++] = 0;
  for (size_t i = 0; i < src->len; i++)
    if (src->text[i] == '\n') line_start[l++] = i + 1;
  int n = 0, depth = 0;
  bool at_start = true, in_decorators = false;
  for (int i = 0; i < toks.n; i++) {
    const fe_token *t = &toks.toks[i];
    if (t->kind == FE_TOK_INDENT) depth++;
    if (t->kind == FE_TOK_DEDENT) depth--;
    if (t->kind == FE_TOK_NEWLINE || t->kind == FE_TOK_DEDENT || t->kind == FE_TOK_INDENT) {
      at_start = t->kind != FE_TOK_INDENT;
      continue;
    }
    if (t->kind == FE_TOK_EOF) break;
    bool starts = at_start && depth == 0;
    at_start = false;
    if (!starts) continue;
    size_t off = offset_of(src, line_start, nlines, t->loc);
    if (!in_decorators) { /* decorators join the definition they decorate */
      if (n) stmts[n - 1].end = off;
      stmts[n] = (top_stmt){off, src->len, t->loc.line,
                            t->kind == FE_TOK_KW_IMPORT || t->kind == FE_TOK_KW_FROM};
      n++;
    }
    in_decorators = t->kind == FE_TOK_AT;
  }
  free(line_start);
  fe_tokens_free(&toks);
  *out = stmts;
  return n;
}

/* The statement starting on `line`, or -1. */
static int stmt_at(const top_stmt *stmts, int n, uint32_t line) {
  for (int i = 0; i < n; i++)
    if (stmts[i].line == line) return i;
  return -1;
}

static uint32_t func_first_line(const fe_func *fn) {
  uint32_t line = fn->loc.line;
  for (int i = 0; i < fn->ndecorators; i++)
    if (fn->decorators[i]->start.line && fn->decorators[i]->start.line < line)
      line = fn->decorators[i]->start.line;
  return line;
}

/* The kernel, the module functions and constants its names reach
 * (transitively), and every import statement, as sorted byte spans in
 * the arena; -1 when the file does not lex. */
static int read_spans(ir_context *ctx, ir_arena *arena, const fe_module *mod, const fe_func *fn,
                      fe_span **out) {
  decl_reader r = {ctx, arena, mod, fn, NULL, 0};
  top_stmt *stmts = NULL;
  int nstmts = top_statements(&r, mod->src, &stmts);
  if (nstmts < 0) return -1;
  bool *used = calloc((size_t)nstmts + 1, sizeof *used);
  if (!used) IR_UNREACHABLE("out of memory reading a kernel declaration");
  for (int i = 0; i < nstmts; i++)
    used[i] = stmts[i].is_import;
  name_set names = {0};
  int si = stmt_at(stmts, nstmts, func_first_line(fn));
  if (si >= 0) used[si] = true;
  collect_func(&names, fn);
  /* names grows while it is walked: each new name is resolved once */
  for (int k = 0; k < names.n; k++) {
    const char *name = names.names[k];
    for (int i = 0; i < mod->nfuncs; i++) {
      const fe_func *f = mod->funcs[i];
      if (strcmp(f->name, name) != 0 || f == fn) continue;
      int s = stmt_at(stmts, nstmts, func_first_line(f));
      if (s >= 0) used[s] = true;
      collect_func(&names, f);
    }
    for (int i = 0; i < mod->ix.nbinds; i++) {
      const fe_bind *g = &mod->ix.binds[i];
      if (g->kind != FE_BIND_VALUE || strcmp(g->name, name) != 0) continue;
      int s = stmt_at(stmts, nstmts, g->loc.line);
      if (s >= 0) used[s] = true;
      collect_expr(&names, module_value(ctx, arena, mod, g));
    }
  }
  int n = 0;
  for (int i = 0; i < nstmts; i++)
    n += used[i];
  fe_span *spans = decl_alloc(&r, (size_t)n, sizeof *spans);
  n = 0;
  for (int i = 0; i < nstmts; i++)
    if (used[i])
      spans[n++] = (fe_span){stmts[i].start, stmts[i].end - stmts[i].start, stmts[i].line};
  free(names.names);
  free(names.table);
  free(used);
  free(stmts);
  *out = spans;
  return n;
}

int fe_kernel_spans(ir_context *ctx, const ir_source *src, ir_arena *arena, const char *name,
                    fe_span **spans) {
  *spans = NULL;
  fe_module *mod = fe_parse(ctx, src, arena);
  const fe_func *fn = mod ? fe_module_find_func(mod, name) : NULL;
  return fn ? read_spans(ctx, arena, mod, fn, spans) : -1;
}

/* ---- entry point -------------------------------------------------------------- */

const fe_jit_decl *fe_read_jit_decl(ir_context *ctx, const ir_source *src, ir_arena *arena,
                                    const char *name) {
  fe_module *mod = fe_parse(ctx, src, arena);
  if (!mod) return NULL;
  const fe_func *fn = fe_module_find_func(mod, name);
  ir_loc none = {src, 0, 0};
  if (!fn) {
    ir_error(ctx, none, "no function '%s' in '%s'", name, src->name);
    return NULL;
  }
  decl_reader r = {ctx, arena, mod, fn, NULL, 0};
  fe_jit_decl *d = decl_alloc(&r, 1, sizeof *d);
  r.d = d;
  d->src = src;
  d->name = fn->name;
  d->loc = fn->loc;
  d->nparams = fn->nparams;
  d->params = decl_alloc(&r, (size_t)fn->nparams, sizeof *d->params);
  for (int i = 0; i < fn->nparams; i++) {
    const fe_param_decl *pd = &fn->params[i];
    fe_jit_param *p = &d->params[i];
    p->name = pd->name;
    p->is_constexpr = fe_is_constexpr_annotation(pd->annotation);
    p->has_default = pd->dflt && literal_value(&r, pd->dflt, &p->dflt, 0);
  }
  bool is_jit = false;
  int autotune_at = -1, heuristics_at = -1;
  for (int i = 0; i < fn->ndecorators; i++) {
    const fe_expr *deco = fn->decorators[i];
    const fe_expr *call = deco->kind == FE_EX_CALL ? deco : NULL;
    char path[256];
    if (!import_path(mod, call ? call->a : deco, path, sizeof path)) continue;
    if (strcmp(path, "triton.jit") == 0) {
      is_jit = true;
      read_jit(&r, call);
    } else if (strcmp(path, "triton.autotune") == 0 && call) {
      if (autotune_at < 0) autotune_at = i;
      read_autotune(&r, call);
    } else if (strcmp(path, "triton.heuristics") == 0 && call) {
      if (heuristics_at < 0) heuristics_at = i;
      read_heuristics(&r, call);
    }
  }
  if (!is_jit) {
    ir_error(ctx, fn->loc, "'%s' is not a @triton.jit function", name);
    return NULL;
  }
  d->heuristics_first = heuristics_at >= 0 && autotune_at >= 0 && heuristics_at < autotune_at;
  d->nspans = read_spans(ctx, arena, mod, fn, &d->spans);
  return r.nerrors || d->nspans < 0 ? NULL : d;
}
