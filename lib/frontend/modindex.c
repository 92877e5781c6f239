/* modindex.c - the top level of a module, skimmed over its tokens: which
 * names each statement binds and where, without parsing or running it.
 *
 * A kernel file is any Python module: host statements (classes, host
 * functions, `try`, `with`, benchmarks, `if __name__ == "__main__":`) are
 * skipped as token runs, a statement and its indented block. Imports are
 * recorded as they are written; `def` and `NAME = value` record where their
 * tokens start, so the parser reads them only if a kernel reaches them.
 * Bindings under a module-level `if` carry its clause (conds), bindings in
 * `except` handlers are fallbacks, bindings made by loops, classes and other
 * host constructs are recorded as host bindings: an error where a kernel
 * uses them, naming the line. Skimming accepts any token sequence. */
#include <string.h>

#include "frontend/fe.h"

typedef struct skim {
  ir_context *ctx;
  ir_arena *arena;
  fe_modindex *ix;
  const fe_token *t;
  int n;
  int cap_binds, cap_conds, cap_tests, cap_stars;
} skim;

/* Grows an arena array to hold one more element. */
static void *grow(skim *s, void *arr, int n, int *cap, size_t elem) {
  if (n < *cap) return arr;
  int ncap = *cap ? *cap * 2 : 16;
  void *na = ir_arena_alloc(s->arena, elem * (size_t)ncap);
  if (!na) IR_UNREACHABLE("out of memory indexing a module");
  if (n) memcpy(na, arr, elem * (size_t)n);
  *cap = ncap;
  return na;
}

static const char *copy_name(skim *s, const fe_token *tok) {
  return ir_arena_strdup(s->arena, tok->text, tok->len);
}

/* FNV-1a over a NUL-terminated name. */
static uint32_t name_hash(const char *name) {
  uint32_t h = 2166136261u;
  for (const unsigned char *p = (const unsigned char *)name; *p; p++)
    h = (h ^ *p) * 16777619u;
  return h;
}

typedef struct ctx_flags {
  int cond;         /* enclosing `if` clause, -1 */
  bool fallback;    /* inside an `except` handler */
  const char *host; /* inside a loop / class / match: bindings are host bindings */
} ctx_flags;

static fe_bind *add_bind(skim *s, const char *name, fe_bind_kind kind, const fe_token *at,
                         const ctx_flags *cf) {
  fe_modindex *ix = s->ix;
  ix->binds = grow(s, ix->binds, ix->nbinds, &s->cap_binds, sizeof *ix->binds);
  fe_bind *b = &ix->binds[ix->nbinds++];
  memset(b, 0, sizeof *b);
  b->name = name;
  b->kind = cf->host ? FE_BIND_HOST : kind;
  b->what = cf->host;
  b->loc = at->loc;
  b->at = b->ann = -1;
  b->cond = cf->cond;
  b->fallback = cf->fallback;
  b->prev = -1;
  return b;
}

/* ---- token structure ------------------------------------------------------------ */

static bool is_open(fe_tok_kind k) {
  return k == FE_TOK_LPAREN || k == FE_TOK_LBRACKET || k == FE_TOK_LBRACE;
}
static bool is_close(fe_tok_kind k) {
  return k == FE_TOK_RPAREN || k == FE_TOK_RBRACKET || k == FE_TOK_RBRACE;
}

/* The NEWLINE (or EOF/DEDENT/INDENT) that ends the logical line from i. */
static int line_end(const skim *s, int i) {
  while (i < s->n - 1) {
    fe_tok_kind k = s->t[i].kind;
    if (k == FE_TOK_NEWLINE || k == FE_TOK_INDENT || k == FE_TOK_DEDENT || k == FE_TOK_EOF) break;
    i++;
  }
  return i;
}

/* i at INDENT: the index after its matching DEDENT. */
static int block_end(const skim *s, int i) {
  int depth = 0;
  for (; i < s->n - 1; i++) {
    if (s->t[i].kind == FE_TOK_INDENT)
      depth++;
    else if (s->t[i].kind == FE_TOK_DEDENT && --depth == 0)
      return i + 1;
  }
  return s->n - 1;
}

/* The ':' ending a compound statement's header from i, at bracket depth 0
 * (a `lambda` there takes the next colon), or -1 if the line has none. */
static int header_colon(const skim *s, int i) {
  int depth = 0, lambdas = 0;
  int end = line_end(s, i);
  for (; i < end; i++) {
    fe_tok_kind k = s->t[i].kind;
    if (is_open(k))
      depth++;
    else if (is_close(k) && depth > 0)
      depth--;
    else if (depth == 0 && k == FE_TOK_KW_LAMBDA)
      lambdas++;
    else if (depth == 0 && k == FE_TOK_COLON) {
      if (lambdas == 0) return i;
      lambdas--;
    }
  }
  return -1;
}

/* The first top-level ';' in [i, end), or end. */
static int simple_end(const skim *s, int i, int end) {
  int depth = 0;
  for (; i < end; i++) {
    fe_tok_kind k = s->t[i].kind;
    if (is_open(k))
      depth++;
    else if (is_close(k) && depth > 0)
      depth--;
    else if (depth == 0 && k == FE_TOK_SEMI)
      return i;
  }
  return end;
}

static void skim_block(skim *s, int i, int end, const ctx_flags *cf);

/* A clause's suite after its header colon c: an indented block or the rest
 * of the line. Returns the index after it. */
static int skim_suite(skim *s, int c, const ctx_flags *cf) {
  int i = c + 1;
  if (i < s->n - 1 && s->t[i].kind == FE_TOK_NEWLINE) {
    i++;
    if (i < s->n - 1 && s->t[i].kind == FE_TOK_INDENT) {
      int e = block_end(s, i);
      if (cf) skim_block(s, i + 1, e - 1, cf);
      return e;
    }
    return i; /* a missing block: nothing bound */
  }
  int e = line_end(s, i);
  if (cf) skim_block(s, i, e, cf);
  return e < s->n - 1 && s->t[e].kind == FE_TOK_NEWLINE ? e + 1 : e;
}

/* ---- statements ------------------------------------------------------------------- */

/* dotted_name at *i -> arena string; false if there is none. */
static const char *dotted(skim *s, int *i, int end) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  while (*i < end && s->t[*i].kind == FE_TOK_NAME) {
    if (sb.len) ir_sb_putc(&sb, '.');
    ir_sb_append(&sb, s->t[*i].text, s->t[*i].len);
    (*i)++;
    if (*i < end && s->t[*i].kind == FE_TOK_DOT)
      (*i)++;
    else
      break;
  }
  const char *r = sb.len ? ir_arena_strdup(s->arena, sb.data, sb.len) : NULL;
  ir_sb_free(&sb);
  return r;
}

/* import a.b [as c], ... | from [.]*a.b import (x [as y], ... | *) */
static void skim_import(skim *s, int i, int end, const ctx_flags *cf) {
  fe_modindex *ix = s->ix;
  if (s->t[i].kind == FE_TOK_KW_IMPORT) {
    i++;
    while (i < end) {
      const fe_token *first = &s->t[i];
      const char *mod = dotted(s, &i, end);
      if (!mod) return;
      const char *alias = NULL;
      if (i + 1 < end && s->t[i].kind == FE_TOK_KW_AS && s->t[i + 1].kind == FE_TOK_NAME) {
        alias = copy_name(s, &s->t[i + 1]);
        i += 2;
      }
      fe_bind *b;
      if (alias) {
        b = add_bind(s, alias, FE_BIND_IMPORT, first, cf);
        b->imp.module = mod;
      } else { /* `import a.b` binds `a` to the package a */
        const char *dot = strchr(mod, '.');
        const char *root = dot ? ir_arena_strdup(s->arena, mod, (size_t)(dot - mod)) : mod;
        b = add_bind(s, root, FE_BIND_IMPORT, first, cf);
        b->imp.module = root;
      }
      if (i >= end || s->t[i].kind != FE_TOK_COMMA) return;
      i++;
    }
    return;
  }
  i++; /* from */
  int level = 0;
  while (i < end && (s->t[i].kind == FE_TOK_DOT || s->t[i].kind == FE_TOK_ELLIPSIS))
    level += s->t[i++].kind == FE_TOK_DOT ? 1 : 3;
  const char *mod = dotted(s, &i, end);
  if (!mod) mod = "";
  if (level == 0 && strcmp(mod, "__future__") == 0) return;
  if (i >= end || s->t[i].kind != FE_TOK_KW_IMPORT) return;
  i++;
  if (i < end && s->t[i].kind == FE_TOK_LPAREN) i++;
  while (i < end && s->t[i].kind != FE_TOK_RPAREN) {
    const fe_token *nt = &s->t[i];
    if (nt->kind == FE_TOK_STAR) {
      fe_bind *b = add_bind(s, "*", FE_BIND_IMPORT, nt, cf);
      b->imp = (fe_import_spec){level, mod, "*"};
      ix->stars = grow(s, ix->stars, ix->nstars, &s->cap_stars, sizeof *ix->stars);
      ix->stars[ix->nstars++] = ix->nbinds - 1;
      return;
    }
    if (nt->kind != FE_TOK_NAME) return;
    const char *attr = copy_name(s, nt), *alias = attr;
    i++;
    if (i + 1 < end && s->t[i].kind == FE_TOK_KW_AS && s->t[i + 1].kind == FE_TOK_NAME) {
      alias = copy_name(s, &s->t[i + 1]);
      i += 2;
    }
    fe_bind *b = add_bind(s, alias, FE_BIND_IMPORT, nt, cf);
    b->imp = (fe_import_spec){level, mod, attr};
    if (i >= end || s->t[i].kind != FE_TOK_COMMA) return;
    i++;
  }
}

/* Names bound by an assignment target list in [i, end): every NAME that is
 * not an attribute, subscript or call base (a, (b, c), [d, *e]), made host
 * bindings (`what`). Brackets after a name or a closing bracket are
 * trailers (calls, subscripts): nothing inside them is bound. */
static void bind_target_names(skim *s, int i, int end, const char *what, const ctx_flags *cf) {
  ctx_flags host = *cf;
  host.host = what;
  int skip = 0;
  for (int k = i; k < end; k++) {
    fe_tok_kind tk = s->t[k].kind;
    if (skip > 0) {
      if (is_open(tk))
        skip++;
      else if (is_close(tk))
        skip--;
      continue;
    }
    fe_tok_kind prev = k > i ? s->t[k - 1].kind : FE_TOK_EOF;
    if (is_open(tk)) {
      if (prev == FE_TOK_NAME || prev == FE_TOK_STRING || is_close(prev)) skip = 1;
      continue;
    }
    if (tk != FE_TOK_NAME || prev == FE_TOK_DOT) continue;
    fe_tok_kind next = k + 1 < end ? s->t[k + 1].kind : FE_TOK_EOF;
    if (next == FE_TOK_DOT || next == FE_TOK_LBRACKET || next == FE_TOK_LPAREN) continue;
    add_bind(s, copy_name(s, &s->t[k]), FE_BIND_HOST, &s->t[k], &host);
  }
}

static bool is_augassign(fe_tok_kind k) {
  switch (k) {
  case FE_TOK_POWEQ:
  case FE_TOK_FLOORDIVEQ:
  case FE_TOK_SHREQ:
  case FE_TOK_SHLEQ:
  case FE_TOK_PLUSEQ:
  case FE_TOK_MINUSEQ:
  case FE_TOK_STAREQ:
  case FE_TOK_SLASHEQ:
  case FE_TOK_PERCENTEQ:
  case FE_TOK_AMPEQ:
  case FE_TOK_PIPEEQ:
  case FE_TOK_CARETEQ:
  case FE_TOK_ATEQ: return true;
  default: return false;
  }
}

#define MAX_CHAIN 32

/* expr_stmt in [i, end): `NAME = ... = value`, `NAME: ann [= value]`,
 * augmented and tuple assignments (host bindings), or an expression. */
static void skim_expr_stmt(skim *s, int i, int end, const ctx_flags *cf) {
  int depth = 0, neq = 0, colon = -1, eqs[MAX_CHAIN];
  for (int k = i; k < end; k++) {
    fe_tok_kind tk = s->t[k].kind;
    if (is_open(tk))
      depth++;
    else if (is_close(tk) && depth > 0)
      depth--;
    else if (depth > 0)
      continue;
    else if (tk == FE_TOK_KW_LAMBDA)
      break; /* `f = lambda x: ...`: its colon is not ours */
    else if (tk == FE_TOK_ASSIGN && neq < MAX_CHAIN)
      eqs[neq++] = k;
    else if (tk == FE_TOK_COLON && colon < 0 && neq == 0)
      colon = k;
    else if (is_augassign(tk) && neq == 0) {
      bind_target_names(s, i, k, "an augmented assignment", cf);
      return;
    }
  }
  if (colon == i + 1 && s->t[i].kind == FE_TOK_NAME) { /* NAME: ann [= value] */
    fe_bind *b = add_bind(s, copy_name(s, &s->t[i]), FE_BIND_VALUE, &s->t[i], cf);
    b->ann = colon + 1;
    b->at = neq > 0 && eqs[neq - 1] + 1 < end ? eqs[neq - 1] + 1 : -1;
    if (b->at < 0 && b->kind == FE_BIND_VALUE)
      b->kind = FE_BIND_HOST, b->what = "a bare annotation";
    return;
  }
  if (neq == 0 || eqs[neq - 1] + 1 >= end) return; /* an expression statement */
  /* Targets: each run between `=` signs; plain names bind the value. */
  for (int t = 0, start = i; t < neq; start = eqs[t] + 1, t++) {
    if (eqs[t] == start + 1 && s->t[start].kind == FE_TOK_NAME) {
      fe_bind *b = add_bind(s, copy_name(s, &s->t[start]), FE_BIND_VALUE, &s->t[start], cf);
      b->at = eqs[neq - 1] + 1;
    } else {
      bind_target_names(s, start, eqs[t], "a tuple assignment", cf);
    }
  }
}

/* def / async def / class, with their decorators from `first`. */
static int skim_def(skim *s, int first, int i, const ctx_flags *cf) {
  if (s->t[i].kind == FE_TOK_KW_ASYNC) i++;
  bool is_class = s->t[i].kind == FE_TOK_KW_CLASS;
  if ((s->t[i].kind == FE_TOK_KW_DEF || is_class) && i + 1 < s->n &&
      s->t[i + 1].kind == FE_TOK_NAME) {
    const fe_token *name = &s->t[i + 1];
    fe_bind *b = add_bind(s, copy_name(s, name), FE_BIND_FUNC, is_class ? name : &s->t[i], cf);
    if (is_class) {
      b->kind = FE_BIND_HOST;
      b->what = cf->host ? cf->host : "a class";
    } else {
      b->at = first;
    }
  }
  int c = header_colon(s, i);
  if (c < 0) {
    int e = line_end(s, i);
    return e < s->n - 1 && s->t[e].kind == FE_TOK_NEWLINE ? e + 1 : e;
  }
  return skim_suite(s, c, NULL); /* the body is not indexed: names inside are local */
}

static int add_cond(skim *s, int parent, int first, int clause, ir_loc loc) {
  fe_modindex *ix = s->ix;
  ix->conds = grow(s, ix->conds, ix->nconds, &s->cap_conds, sizeof *ix->conds);
  ix->conds[ix->nconds] = (fe_cond){parent, first, clause, loc};
  return ix->nconds++;
}

/* if / elif / else: each clause's bindings carry their clause. The chain's
 * tests are recorded together first (a clause's condition reads the tests
 * of the clauses before it), then the clause bodies are indexed. */
static int skim_if(skim *s, int i, const ctx_flags *cf) {
  fe_modindex *ix = s->ix;
  int first = ix->ntests, start = i, end = i;
  for (;;) { /* the tests */
    fe_tok_kind k = s->t[i].kind;
    ix->tests = grow(s, ix->tests, ix->ntests, &s->cap_tests, sizeof *ix->tests);
    ix->tests[ix->ntests++] = k == FE_TOK_KW_ELSE ? -1 : i + 1;
    int c = header_colon(s, i);
    if (c < 0) {
      end = line_end(s, i);
      break;
    }
    i = end = skim_suite(s, c, NULL);
    if (k == FE_TOK_KW_ELSE || i >= s->n - 1) break;
    k = s->t[i].kind;
    if (k != FE_TOK_KW_ELIF && k != FE_TOK_KW_ELSE) break;
  }
  for (int clause = 0, n = ix->ntests - first; clause < n; clause++) { /* the bodies */
    int c = header_colon(s, start);
    if (c < 0) break;
    ctx_flags inner = *cf;
    inner.cond = add_cond(s, cf->cond, first, clause, s->t[start].loc);
    start = skim_suite(s, c, &inner);
  }
  return end;
}

/* Any other compound statement: try / with / for / while / match. Bindings
 * in `try`, `else`, `finally` and `with` bodies count; `except` handlers are
 * fallbacks; loops and match cases make host bindings. */
static int skim_compound(skim *s, int i, const ctx_flags *cf) {
  for (;;) {
    fe_tok_kind k = s->t[i].kind;
    ctx_flags inner = *cf;
    if (k == FE_TOK_KW_EXCEPT) inner.fallback = true;
    if (k == FE_TOK_KW_FOR || k == FE_TOK_KW_WHILE) inner.host = "a loop";
    if (k == FE_TOK_NAME) inner.host = "a match statement";
    int c = header_colon(s, i);
    if (c < 0) {
      int e = line_end(s, i);
      return e < s->n - 1 && s->t[e].kind == FE_TOK_NEWLINE ? e + 1 : e;
    }
    if (k == FE_TOK_KW_FOR) bind_target_names(s, i + 1, c, "a for loop", cf);
    if (k == FE_TOK_KW_WITH || (k == FE_TOK_KW_EXCEPT)) {
      for (int j = i + 1; j + 1 < c; j++) /* `as NAME` targets */
        if (s->t[j].kind == FE_TOK_KW_AS && s->t[j + 1].kind == FE_TOK_NAME) {
          ctx_flags h = *cf;
          h.host = k == FE_TOK_KW_WITH ? "a with statement" : "an except clause";
          add_bind(s, copy_name(s, &s->t[j + 1]), FE_BIND_HOST, &s->t[j + 1], &h);
        }
    }
    i = skim_suite(s, c, &inner);
    if (i >= s->n - 1) return i;
    k = s->t[i].kind;
    if (k != FE_TOK_KW_EXCEPT && k != FE_TOK_KW_ELSE && k != FE_TOK_KW_FINALLY) return i;
  }
}

/* Statements in [i, end) at one indentation level. */
static void skim_block(skim *s, int i, int end, const ctx_flags *cf) {
  while (i < end) {
    const fe_token *t = &s->t[i];
    switch (t->kind) {
    case FE_TOK_NEWLINE:
    case FE_TOK_DEDENT:
    case FE_TOK_SEMI: i++; continue;
    case FE_TOK_EOF: return;
    case FE_TOK_INDENT: /* an unexpected indent: the parser reports it if reached */
      i = block_end(s, i);
      continue;
    case FE_TOK_AT: { /* decorators, then def or class */
      int first = i;
      while (i < end && s->t[i].kind == FE_TOK_AT) {
        i = line_end(s, i);
        if (i < end && s->t[i].kind == FE_TOK_NEWLINE)
          i++;
        else
          break;
      }
      if (i < end && (s->t[i].kind == FE_TOK_KW_DEF || s->t[i].kind == FE_TOK_KW_CLASS ||
                      s->t[i].kind == FE_TOK_KW_ASYNC))
        i = skim_def(s, first, i, cf);
      continue;
    }
    case FE_TOK_KW_DEF:
    case FE_TOK_KW_CLASS: i = skim_def(s, i, i, cf); continue;
    case FE_TOK_KW_ASYNC:
      if (i + 1 < end && s->t[i + 1].kind == FE_TOK_KW_DEF)
        i = skim_def(s, i, i, cf);
      else
        i = skim_compound(s, i + 1, cf);
      continue;
    case FE_TOK_KW_IF: i = skim_if(s, i, cf); continue;
    case FE_TOK_KW_TRY:
    case FE_TOK_KW_WITH:
    case FE_TOK_KW_FOR:
    case FE_TOK_KW_WHILE: i = skim_compound(s, i, cf); continue;
    case FE_TOK_KW_ELIF:
    case FE_TOK_KW_ELSE:
    case FE_TOK_KW_EXCEPT:
    case FE_TOK_KW_FINALLY:
      i = skim_compound(s, i, cf); /* a stray clause: skipped like its statement */
      continue;
    default: break;
    }
    /* `match x:` (a soft keyword) opens a block like a compound statement. */
    if (t->kind == FE_TOK_NAME && t->len == 5 && memcmp(t->text, "match", 5) == 0 && i + 1 < end &&
        fe_tok_starts_expr(s->t[i + 1].kind)) {
      int c = header_colon(s, i);
      if (c >= 0 && c + 1 < s->n && s->t[c + 1].kind == FE_TOK_NEWLINE) {
        i = skim_compound(s, i, cf);
        continue;
      }
    }
    int le = line_end(s, i);
    if (le > end) le = end;
    int se = simple_end(s, i, le);
    if (t->kind == FE_TOK_KW_IMPORT || t->kind == FE_TOK_KW_FROM)
      skim_import(s, i, se, cf);
    else if (t->kind != FE_TOK_KW_DEL && t->kind != FE_TOK_KW_GLOBAL && t->kind != FE_TOK_KW_RAISE)
      skim_expr_stmt(s, i, se, cf);
    int next = se < le ? se + 1 : (le < end && s->t[le].kind == FE_TOK_NEWLINE ? le + 1 : le);
    i = next > i ? next : i + 1;
  }
}

/* The hash table: the last binding per name; earlier ones chain via prev. */
static void build_table(skim *s) {
  fe_modindex *ix = s->ix;
  int cap = 16;
  while (cap < ix->nbinds * 2 + 1)
    cap *= 2;
  ix->table_cap = cap;
  ix->table = ir_arena_alloc(s->arena, sizeof(int) * (size_t)cap);
  if (!ix->table) IR_UNREACHABLE("out of memory indexing a module");
  for (int i = 0; i < cap; i++)
    ix->table[i] = -1;
  for (int b = 0; b < ix->nbinds; b++) {
    uint32_t h = name_hash(ix->binds[b].name) & (uint32_t)(cap - 1);
    for (;; h = (h + 1) & (uint32_t)(cap - 1)) {
      int cur = ix->table[h];
      if (cur < 0) {
        ix->table[h] = b;
        break;
      }
      if (strcmp(ix->binds[cur].name, ix->binds[b].name) == 0) {
        ix->binds[b].prev = cur;
        ix->table[h] = b;
        break;
      }
    }
  }
}

int fe_modindex_find(const fe_modindex *ix, const char *name) {
  if (!ix->table_cap) return -1;
  uint32_t mask = (uint32_t)(ix->table_cap - 1);
  for (uint32_t h = name_hash(name) & mask;; h = (h + 1) & mask) {
    int cur = ix->table[h];
    if (cur < 0) return -1;
    if (strcmp(ix->binds[cur].name, name) == 0) return cur;
  }
}

bool fe_modindex_build(ir_context *ctx, const ir_source *src, ir_arena *arena, fe_modindex *ix) {
  memset(ix, 0, sizeof *ix);
  ix->src = src;
  ix->lex_ok = fe_lex(ctx, src, arena, &ix->toks);
  skim s;
  memset(&s, 0, sizeof s);
  s.ctx = ctx;
  s.arena = arena;
  s.ix = ix;
  s.n = ix->toks.n;
  /* The tokens move into the arena: an index lives as long as its arena. */
  if (ix->toks.n) {
    fe_token *copy = ir_arena_alloc(arena, sizeof *copy * (size_t)ix->toks.n);
    if (!copy) IR_UNREACHABLE("out of memory indexing a module");
    memcpy(copy, ix->toks.toks, sizeof *copy * (size_t)ix->toks.n);
    fe_tokens_free(&ix->toks);
    ix->toks.toks = copy;
    ix->toks.n = s.n;
  }
  s.t = ix->toks.toks;
  ctx_flags cf = {-1, false, NULL};
  if (ix->lex_ok) skim_block(&s, 0, s.n - 1, &cf);
  build_table(&s);
  return ix->lex_ok;
}
