/* lower_names.c - name resolution across modules: a function's own scope,
 * then its module's bindings (modindex.c) resolved on first use - functions
 * parsed, values evaluated, imports followed into other modules found
 * through the importing file's package and the search path (-I) - then
 * Python's builtins; and the prelude's functions, parsed on demand.
 *
 * A name bound by host code ttc does not run, or to a value it cannot
 * evaluate, or by an import it cannot follow, is an error at the use, with
 * a note at the binding. Module-level `if` conditions are evaluated when a
 * binding under them is used; `except` handlers supply a name when the
 * `try` body's binding cannot be resolved. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "frontend/lower_impl.h"

#define MAX_PRELUDE 16
#define MAX_IMPORT_DEPTH 32

/* ---- units ------------------------------------------------------------------------ */

fe_unit *fe_unit_new(fe_lower *l, const fe_modindex *ix, const char *path, const char *name) {
  fe_unit *u = ir_arena_alloc(l->arena, sizeof *u);
  if (!u) IR_UNREACHABLE("out of memory in the lowering");
  u->ix = ix;
  u->st = ir_arena_alloc(l->arena, sizeof(fe_bstate) * (size_t)(ix->nbinds + 1));
  u->conds = ir_arena_alloc(l->arena, (size_t)(ix->nconds + 1));
  if (!u->st || !u->conds) IR_UNREACHABLE("out of memory in the lowering");
  u->path = path ? path : "";
  u->name = name ? name : "";
  fe_unit **tail = &l->units;
  while (*tail)
    tail = &(*tail)->next;
  *tail = u;
  return u;
}

bool fe_prelude_load(fe_lower *l) {
  const fe_modindex *ix[MAX_PRELUDE];
  const char *err = NULL;
  int n = fe_prelude_indexes(ix, &err);
  if (err) {
    ir_loc none = {NULL, 0, 0};
    ir_error(l->ctx, none, "internal error: ttc's prelude does not tokenize: %s", err);
    return false;
  }
  l->prelude = ir_arena_alloc(l->arena, sizeof(fe_unit *) * (size_t)(n + 1));
  for (int i = 0; i < n; i++) {
    l->prelude[i] = fe_unit_new(l, ix[i], ix[i]->src->name, "triton.language");
    l->prelude[i]->is_prelude = true;
  }
  l->nprelude = n;
  return true;
}

/* The function of FUNC binding b, parsed on first use (NULL after errors,
 * which are reported unless the lowering is quiet). */
static fe_func *unit_func(fe_lower *l, fe_unit *u, int b) {
  fe_bstate *st = &u->st[b];
  if (st->parsed) return st->fn;
  fe_parser p;
  fe_parser_init(&p, l->ctx, l->arena, u->ix, u->ix->binds[b].at);
  p.quiet = l->quiet > 0;
  st->fn = fe_parse_funcdef(&p);
  if (p.quiet && p.nerrors) { /* not cached: a later, loud use reports it */
    fe_quiet_fail(l, p.first_error_loc, "%s", p.first_error);
    return NULL;
  }
  st->parsed = true;
  if (st->fn)
    st->fn->unit = u;
  else
    l->nerrors++;
  return st->fn;
}

const fe_func *fe_prelude_func(fe_lower *l, const char *name) {
  /* private helpers are not part of tl, but for those of Triton's that
   * kernel files import (triton.language.standard._log2) */
  if (name[0] == '_' && strcmp(name, "_log2") != 0 && strcmp(name, "_is_power_of_two") != 0)
    return NULL;
  for (int i = 0; i < l->nprelude; i++) {
    fe_unit *u = l->prelude[i];
    int b = fe_modindex_find(u->ix, name);
    if (b >= 0 && u->ix->binds[b].kind == FE_BIND_FUNC) return unit_func(l, u, b);
  }
  return NULL;
}

/* ---- module files ---------------------------------------------------------------------- */

static bool is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The directory part of a path into buf ("." when there is none). */
static void dir_of(const char *path, char *buf, size_t cap) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    snprintf(buf, cap, ".");
  else if (slash == path)
    snprintf(buf, cap, "/");
  else
    snprintf(buf, cap, "%.*s", (int)(slash - path), path);
}

/* DIR/a/b/c.py or DIR/a/b/c/__init__.py for the dotted name a.b.c ("" means
 * DIR's own __init__.py). */
static bool module_file(const char *dir, const char *dotted, char *out, size_t cap, bool *is_pkg) {
  char rel[1024];
  size_t n = 0;
  for (const char *p = dotted; *p && n + 1 < sizeof rel; p++)
    rel[n++] = *p == '.' ? '/' : *p;
  rel[n] = '\0';
  if (n) {
    snprintf(out, cap, "%s/%s.py", dir, rel);
    if (is_file(out)) {
      *is_pkg = false;
      return true;
    }
  }
  snprintf(out, cap, n ? "%s/%s/__init__.py" : "%s%s/__init__.py", dir, rel);
  *is_pkg = true;
  return is_file(out);
}

/* The directory above the outermost package holding `path` (walking up
 * while __init__.py files continue): where absolute imports of its own
 * package start. */
static void package_root(const char *path, char *out, size_t cap) {
  char dir[1024], probe[1100];
  dir_of(path, dir, sizeof dir);
  for (int guard = 0; guard < 64; guard++) {
    snprintf(probe, sizeof probe, "%s/__init__.py", dir);
    if (!is_file(probe)) break;
    char up[1024];
    dir_of(dir, up, sizeof up);
    if (strcmp(up, dir) == 0) break;
    snprintf(dir, sizeof dir, "%s", up);
  }
  snprintf(out, cap, "%s", dir);
}

/* Reads and indexes a module file, once per lowering. NULL (and an error at
 * `loc`) when it cannot be read or does not tokenize. */
static fe_unit *load_module(fe_lower *l, const char *path, const char *name, bool is_pkg,
                            ir_loc loc) {
  for (fe_unit *u = l->units; u; u = u->next)
    if (strcmp(u->path, path) == 0) return u;
  FILE *f = fopen(path, "rb");
  if (!f) {
    fe_error(l, loc, "cannot read module '%s' (%s)", name, path);
    return NULL;
  }
  ir_strbuf sb;
  ir_sb_init(&sb);
  char buf[65536];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, f)) > 0)
    ir_sb_append(&sb, buf, got);
  fclose(f);
  const ir_source *src = ir_context_add_source(l->ctx, path, sb.data ? sb.data : "", sb.len);
  ir_sb_free(&sb);
  if (!src) IR_UNREACHABLE("out of memory reading a module");
  fe_modindex *ix = ir_arena_alloc(l->arena, sizeof *ix);
  if (!ix) IR_UNREACHABLE("out of memory reading a module");
  if (!fe_modindex_build(l->ctx, src, l->arena, ix)) {
    l->nerrors++;
    fe_error(l, loc, "module '%s' imported here does not tokenize", name);
    return NULL;
  }
  fe_unit *u = fe_unit_new(l, ix, ir_intern_cstr(l->ctx, path), ir_intern_cstr(l->ctx, name));
  u->is_package = is_pkg;
  return u;
}

/* Finds module `dotted` imported from unit `from` with `level` leading dots.
 * Relative imports start at the importing file's package; absolute ones at
 * the root of the importing file's package, its directory, then the search
 * path. NULL when not found (no diagnostic). */
static fe_unit *find_module(fe_lower *l, fe_unit *from, int level, const char *dotted, ir_loc loc) {
  char path[2048], dir[1024];
  bool is_pkg;
  const char *name = dotted;
  if (level > 0) {
    if (!from->path[0]) return NULL;
    dir_of(from->path, dir, sizeof dir);
    for (int i = 1; i < level; i++) {
      char up[1024];
      dir_of(dir, up, sizeof up);
      snprintf(dir, sizeof dir, "%s", up);
    }
    if (!module_file(dir, dotted, path, sizeof path, &is_pkg)) return NULL;
    return load_module(l, path, name[0] ? name : dir, is_pkg, loc);
  }
  const char *bases[3 + 64];
  char root[1024], own[1024];
  int nb = 0;
  if (from->path[0]) {
    package_root(from->path, root, sizeof root);
    dir_of(from->path, own, sizeof own);
    bases[nb++] = root;
    if (strcmp(own, root) != 0) bases[nb++] = own;
  }
  for (int i = 0; i < l->search.n && nb < (int)(sizeof bases / sizeof bases[0]); i++)
    bases[nb++] = l->search.dirs[i];
  for (int i = 0; i < nb; i++)
    if (module_file(bases[i], dotted, path, sizeof path, &is_pkg))
      return load_module(l, path, name, is_pkg, loc);
  return NULL;
}

/* ---- conditions ------------------------------------------------------------------------ */

/* The truth of a module-level test at token `at`: 1, 0, or -1 when it cannot
 * be decided at compile time. Evaluated quietly in the module's scope. */
static int test_truth(fe_lower *l, fe_unit *u, int at) {
  fe_parser p;
  fe_parser_init(&p, l->ctx, l->arena, u->ix, at);
  p.quiet = true;
  fe_expr *e = fe_parse_test(&p);
  if (p.nerrors) return -1;
  /* the test's own failure is not the enclosing evaluation's: count and
   * message are restored */
  int before = l->nquiet;
  char saved_msg[sizeof l->quiet_msg];
  ir_loc saved_loc = l->quiet_loc;
  memcpy(saved_msg, l->quiet_msg, sizeof saved_msg);
  l->quiet++;
  fe_val v = fe_eval_in_unit(l, u, e);
  l->quiet--;
  bool failed = l->nquiet != before;
  l->nquiet = before;
  memcpy(l->quiet_msg, saved_msg, sizeof saved_msg);
  l->quiet_loc = saved_loc;
  if (failed || v.kind == FE_V_ERROR || v.kind == FE_V_TENSOR) return -1;
  return fe_const_truth(&v) > 0;
}

/* Whether clause `ci` (and every enclosing one) runs: 1, 0, or -1. A test
 * that depends on host state ttc cannot know (a device query) counts as
 * false, with a remark: the `else` branch - the generic path, as a rule -
 * is the one compiled; a name bound only under such a test stays unbound. */
static int cond_holds(fe_lower *l, fe_unit *u, int ci) {
  if (ci < 0) return 1;
  signed char *cache = &u->conds[ci];
  if (*cache) return *cache == 1 ? 1 : *cache == 2 || *cache == 4 ? 0 : -1;
  *cache = 3; /* while evaluating: a cycle is undecidable */
  const fe_cond *c = &u->ix->conds[ci];
  int r = cond_holds(l, u, c->parent);
  bool assumed = false;
  for (int k = 0; r == 1 && k <= c->clause; k++) {
    int at = u->ix->tests[c->first + k];
    if (at < 0) break; /* else */
    int t = test_truth(l, u, at);
    if (t < 0) {
      t = 0;
      if (!assumed) /* once per condition (cached), even during a quiet evaluation */
        ir_emit(l->ctx, IR_SEV_REMARK, u->ix->toks.toks[at].loc,
                "this module-level condition "
                "depends on host state ttc cannot evaluate at compile time: taken as false");
      assumed = true;
    }
    if (k < c->clause && t)
      r = 0; /* an earlier clause runs */
    else if (k == c->clause && !t)
      r = 0; /* this one does not */
  }
  *cache = r == 1 ? 1 : r == 0 ? (assumed ? 4 : 2) : 3;
  return r;
}

/* Whether clause ci was found false only because a test was assumed false. */
static bool cond_assumed(const fe_unit *u, int ci) {
  for (; ci >= 0; ci = u->ix->conds[ci].parent)
    if (u->conds[ci] == 4) return true;
  return false;
}

/* ---- bindings ---------------------------------------------------------------------------- */

/* Records the first failure of a quiet evaluation (fe_error does this for
 * errors met while quiet). */
void fe_quiet_fail(fe_lower *l, ir_loc loc, const char *fmt, ...) {
  if (l->nquiet++ == 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->quiet_msg, sizeof l->quiet_msg, fmt, ap);
    va_end(ap);
    l->quiet_loc = loc;
  }
}

static fe_val resolve_import(fe_lower *l, fe_unit *u, const fe_bind *b, ir_loc loc);

/* The value of binding bi. Quiet: a failure is recorded by fe_quiet_fail
 * (the caller reports it at the use). */
static fe_val binding_value(fe_lower *l, fe_unit *u, int bi, ir_loc loc) {
  const fe_bind *b = &u->ix->binds[bi];
  fe_bstate *st = &u->st[bi];
  switch (b->kind) {
  case FE_BIND_HOST:
    fe_quiet_fail(l, b->loc, "it is bound by %s, which ttc does not run", b->what);
    return fe_val_error();
  case FE_BIND_FUNC: {
    fe_func *fn = unit_func(l, u, bi);
    if (!fn) return fe_val_error();
    fe_val v = fe_val_error();
    v.kind = FE_V_FUNC;
    v.fn = fn;
    return v;
  }
  case FE_BIND_IMPORT:
    if (st->done) return st->val;
    st->val = resolve_import(l, u, b, loc);
    st->done = st->val.kind != FE_V_ERROR;
    return st->val;
  case FE_BIND_VALUE: break;
  }
  if (st->done) {
    if (st->val.kind == FE_V_ERROR) fe_quiet_fail(l, b->loc, "%s", st->why ? st->why : "");
    return st->val;
  }
  if (st->busy) {
    fe_quiet_fail(l, b->loc, "its definition is circular");
    return fe_val_error();
  }
  st->busy = true;
  fe_parser p;
  fe_parser_init(&p, l->ctx, l->arena, u->ix, b->at);
  p.quiet = true;
  fe_expr *value = fe_parse_value(&p);
  fe_expr *ann = NULL;
  if (b->ann >= 0 && !p.nerrors) {
    fe_parser_init(&p, l->ctx, l->arena, u->ix, b->ann);
    p.quiet = true;
    ann = fe_parse_test(&p);
  }
  fe_val v;
  int before = l->nquiet;
  if (p.nerrors) {
    fe_quiet_fail(l, p.first_error_loc, "%s", p.first_error);
    v = fe_val_error();
  } else {
    v = fe_eval_in_unit(l, u, value);
    if (v.kind == FE_V_TENSOR) {
      fe_quiet_fail(l, value->loc, "a module-level value must be a constant expression");
      v = fe_val_error();
    }
    if (v.kind == FE_V_ERROR && l->nquiet == before)
      fe_quiet_fail(l, value->loc, "it has no value");
  }
  (void)ann; /* `N: tl.constexpr = 4` and `N = 4` bind the same constant */
  st->busy = false;
  st->done = true;
  st->val = v;
  if (v.kind == FE_V_ERROR) st->why = ir_intern_cstr(l->ctx, l->quiet_msg);
  return v;
}

/* Runs binding bi quietly: true with *out, or false with the reason in
 * l->quiet_msg. */
static bool try_binding(fe_lower *l, fe_unit *u, int bi, ir_loc loc, fe_val *out) {
  /* A fresh count and message for this binding; an enclosing quiet
   * evaluation sees the failure added to its count. */
  int saved = l->nquiet;
  char saved_msg[sizeof l->quiet_msg];
  ir_loc saved_loc = l->quiet_loc;
  memcpy(saved_msg, l->quiet_msg, sizeof saved_msg);
  l->nquiet = 0;
  l->quiet_msg[0] = '\0';
  l->quiet++;
  *out = binding_value(l, u, bi, loc);
  l->quiet--;
  bool ok = out->kind != FE_V_ERROR && l->nquiet == 0;
  if (!ok && l->nquiet == 0) fe_quiet_fail(l, loc, "it has no value");
  if (ok) {
    memcpy(l->quiet_msg, saved_msg, sizeof saved_msg);
    l->quiet_loc = saved_loc;
    l->nquiet = saved;
  } else {
    l->nquiet += saved;
  }
  return ok;
}

/* Reports a binding that cannot be used, at the use. */
static fe_val report_binding(fe_lower *l, fe_unit *u, int bi, ir_loc loc) {
  const fe_bind *b = &u->ix->binds[bi];
  if (l->quiet) { /* nested quiet evaluation: this name with the innermost reason (and its
                   * place, quiet_loc) go up; names in between are dropped */
    const char *why = l->quiet_msg;
    if (strncmp(why, "cannot use '", 12) == 0) {
      const char *end = strstr(why + 12, "': ");
      if (end) why = end + 3;
    }
    char buf[sizeof l->quiet_msg];
    snprintf(buf, sizeof buf, "cannot use '%.60s': %.180s", b->name, why);
    memcpy(l->quiet_msg, buf, sizeof buf);
    if (l->nquiet == 0) l->nquiet = 1;
    return fe_val_error();
  }
  char why[256], same[96];
  snprintf(same, sizeof same, "cannot use '%.60s': ", b->name);
  bool repeats = strncmp(l->quiet_msg, same, strlen(same)) == 0; /* an import of the same name */
  snprintf(why, sizeof why, "%s", l->quiet_msg + (repeats ? strlen(same) : 0));
  ir_loc where = l->quiet_loc;
  fe_error(l, loc, "cannot use '%s' in a kernel: %s", b->name, why);
  ir_note(l->ctx, b->loc, "'%s' is %s here", b->name,
          b->kind == FE_BIND_IMPORT ? "imported" : "bound");
  if (where.src && (where.src != loc.src || where.line != loc.line || where.col != loc.col) &&
      (where.src != b->loc.src || where.line != b->loc.line))
    ir_note(l->ctx, where, "the reason is here");
  return fe_val_error();
}

fe_val fe_unit_lookup(fe_lower *l, fe_unit *u, const char *name, ir_loc loc, bool *found) {
  const fe_modindex *ix = u->ix;
  *found = true;
  /* except-handler bindings, latest first: tried in source order when the
   * binding of the try body fails (a nested try in a handler goes first) */
  int fallbacks[8], nfb = 0, assumed = -1;
  for (int bi = fe_modindex_find(ix, name); bi >= 0; bi = ix->binds[bi].prev) {
    const fe_bind *b = &ix->binds[bi];
    if (b->fallback) {
      if (nfb < 8 && cond_holds(l, u, b->cond) == 1) fallbacks[nfb++] = bi;
      continue;
    }
    int c = cond_holds(l, u, b->cond);
    if (c == 0 && assumed < 0 && cond_assumed(u, b->cond)) assumed = bi;
    if (c == 0) continue;
    if (c < 0) {
      const fe_cond *cd = &ix->conds[b->cond];
      if (l->quiet) {
        fe_quiet_fail(l, loc, "'%s' is bound under a condition ttc cannot evaluate", name);
        return fe_val_error();
      }
      fe_error(l, loc,
               "cannot use '%s' in a kernel: it is bound under a module-level condition "
               "ttc cannot evaluate at compile time",
               name);
      ir_note(l->ctx, cd->loc, "the condition is here");
      ir_note(l->ctx, b->loc, "'%s' is bound here", name);
      return fe_val_error();
    }
    fe_val v;
    if (b->kind == FE_BIND_FUNC) /* syntax errors in a def are reported where they are */
      return binding_value(l, u, bi, loc);
    int before = l->nquiet;
    if (try_binding(l, u, bi, loc, &v)) return v;
    char why[256];
    snprintf(why, sizeof why, "%s", l->quiet_msg);
    ir_loc where = l->quiet_loc;
    int failed = l->nquiet;
    for (int i = nfb - 1; i >= 0; i--) { /* the try body raised: its handlers run */
      l->nquiet = before;
      if (try_binding(l, u, fallbacks[i], loc, &v)) return v;
    }
    snprintf(l->quiet_msg, sizeof l->quiet_msg, "%s", why);
    l->quiet_loc = where;
    l->nquiet = failed;
    if (l->quiet) l->nquiet = l->nquiet ? l->nquiet : 1;
    return report_binding(l, u, bi, loc);
  }
  if (nfb > 0) {
    fe_val v;
    int before = l->nquiet;
    for (int i = nfb - 1; i > 0; i--) {
      if (try_binding(l, u, fallbacks[i], loc, &v)) return v;
      l->nquiet = before;
    }
    if (try_binding(l, u, fallbacks[0], loc, &v)) return v;
    return report_binding(l, u, fallbacks[0], loc);
  }
  if (assumed >= 0) { /* bound only where an undecidable condition was taken as false */
    snprintf(l->quiet_msg, sizeof l->quiet_msg,
             "it is bound only under a module-level condition "
             "ttc cannot evaluate at compile time (taken as false)");
    if (l->quiet) l->nquiet = l->nquiet ? l->nquiet : 1;
    return report_binding(l, u, assumed, loc);
  }
  /* `from m import *` */
  for (int i = 0; i < ix->nstars && l->depth < FE_MAX_INLINE_DEPTH; i++) {
    const fe_bind *b = &ix->binds[ix->stars[i]];
    fe_val m = resolve_import(l, u, b, loc);
    if (m.kind != FE_V_MODULE || !m.unit || m.unit == u) continue;
    bool f2;
    l->depth++;
    fe_val v = fe_unit_lookup(l, m.unit, name, loc, &f2);
    l->depth--;
    if (f2) return v;
  }
  *found = false;
  return fe_val_error();
}

/* ---- imports ----------------------------------------------------------------------------- */

static fe_val module_val(fe_unit *u) {
  fe_val v = fe_val_error();
  v.kind = FE_V_MODULE;
  v.unit = u;
  v.path = u->name;
  return v;
}

/* Modules ttc models itself: Triton's language (and its namespaces), and
 * the host modules decorator arguments use. */
static bool is_builtin_module(const char *mod) {
  static const char *const mods[] = {"triton",    "math", "itertools", "typing",
                                     "functools", "os",   "sys"};
  for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) {
    size_t n = strlen(mods[i]);
    if (strncmp(mod, mods[i], n) == 0 && (mod[n] == '\0' || mod[n] == '.')) return true;
  }
  return false;
}

static fe_val resolve_import(fe_lower *l, fe_unit *u, const fe_bind *b, ir_loc loc) {
  const fe_import_spec *im = &b->imp;
  if (im->level == 0 && is_builtin_module(im->module)) {
    char path[512];
    if (im->attr && strcmp(im->attr, "*") != 0)
      snprintf(path, sizeof path, "%s.%s", im->module, im->attr);
    else
      snprintf(path, sizeof path, "%s", im->module);
    fe_val v = fe_resolve_path(l, path);
    if (v.kind == FE_V_ERROR)
      fe_quiet_fail(l, b->loc, "'%s' is not part of the Triton language that ttc compiles", path);
    return v;
  }
  if (l->depth >= MAX_IMPORT_DEPTH) {
    fe_quiet_fail(l, b->loc, "imports nest more than %d deep (a cycle?)", MAX_IMPORT_DEPTH);
    return fe_val_error();
  }
  fe_unit *m = find_module(l, u, im->level, im->module, loc);
  char dots[8] = "";
  for (int i = 0; i < im->level && i < 7; i++)
    dots[i] = '.';
  if (!im->attr || strcmp(im->attr, "*") == 0) {
    if (!m) {
      fe_quiet_fail(l, b->loc,
                    "module '%s%s' is not found (ttc reads kernel modules from the "
                    "importing file's package and the -I search path)",
                    dots, im->module);
      return fe_val_error();
    }
    return module_val(m);
  }
  if (m) {
    bool found;
    l->depth++;
    fe_val v = fe_unit_lookup(l, m, im->attr, loc, &found);
    l->depth--;
    if (found) return v;
  }
  /* `from pkg import submodule` */
  char sub[512];
  snprintf(sub, sizeof sub, "%s%s%s", im->module, im->module[0] ? "." : "", im->attr);
  fe_unit *sm = find_module(l, u, im->level, sub, loc);
  if (sm) return module_val(sm);
  if (!m)
    fe_quiet_fail(l, b->loc,
                  "module '%s%s' is not found (ttc reads kernel modules from the "
                  "importing file's package and the -I search path)",
                  dots, im->module);
  else
    fe_quiet_fail(l, b->loc, "cannot import name '%s' from '%s%s'", im->attr, dots, im->module);
  return fe_val_error();
}

/* Attribute `name` of a loaded module: its binding, or a submodule. */
fe_val fe_module_attr(fe_lower *l, fe_unit *m, const char *name, ir_loc loc) {
  bool found;
  fe_val v = fe_unit_lookup(l, m, name, loc, &found);
  if (found) return v;
  if (m->is_package) {
    fe_unit *sm = find_module(l, m, 1, name, loc);
    if (sm) return module_val(sm);
  }
  return fe_error(l, loc, "module '%s' has no attribute '%s'", m->name, name);
}

/* ---- lookup -------------------------------------------------------------------------------- */

/* The unit of the innermost frame (the kernel file outside any frame). */
fe_unit *fe_cur_unit(fe_lower *l) { return l->frame && l->frame->unit ? l->frame->unit : l->user; }

/* Python's lookup order: locals, the module's bindings, then builtins. */
fe_val fe_lookup(fe_lower *l, const char *name, ir_loc loc) {
  if (l->frame) {
    fe_val *v = fe_scope_get(&l->frame->scope, name);
    if (v) return *v;
  }
  bool found;
  fe_val v = fe_unit_lookup(l, fe_cur_unit(l), name, loc, &found);
  if (found) return v;
  v = fe_py_builtin(l, name);
  if (v.kind != FE_V_ERROR) return v;
  return fe_error(l, loc, "undefined name '%s'", name);
}
