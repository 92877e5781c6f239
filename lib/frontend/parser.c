/* parser.c - recursive-descent parser for kernel files: imports, module
 * constants, decorated functions and their statements (expressions are in
 * parse_expr.c). Each parse function carries its grammar rule.
 *
 * Errors are reported once per statement; the parser then skips to the next
 * statement (and over any block it opened), so one run reports many errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/fe.h"

/* ---- token access ---------------------------------------------------------- */

const fe_token *fe_peek(const fe_parser *p) { return &p->toks[p->pos]; }

const fe_token *fe_peek_at(const fe_parser *p, int ahead) {
  int i = p->pos + ahead;
  return &p->toks[i < p->ntoks ? i : p->ntoks - 1];
}

/* Never moves past EOF, so loops that stop at EOF always terminate. */
const fe_token *fe_next(fe_parser *p) {
  const fe_token *t = &p->toks[p->pos];
  if (t->kind != FE_TOK_EOF) p->pos++;
  return t;
}

bool fe_accept(fe_parser *p, fe_tok_kind k) {
  if (fe_peek(p)->kind != k) return false;
  fe_next(p);
  return true;
}

const char *fe_tok_desc(fe_parser *p, const fe_token *t) {
  char buf[96];
  switch (t->kind) {
  case FE_TOK_NAME:
    snprintf(buf, sizeof buf, "'%s'", t->text);
    return ir_intern_cstr(p->ctx, buf);
  case FE_TOK_INT: return "integer literal";
  case FE_TOK_FLOAT: return "float literal";
  case FE_TOK_STRING: return "string literal";
  default: return fe_tok_kind_name(t->kind);
  }
}

void fe_parse_error(fe_parser *p, ir_loc loc, const char *fmt, ...) {
  if (p->panic) return;
  p->panic = true;
  p->nerrors++;
  va_list ap;
  va_start(ap, fmt);
  ir_vemit(p->ctx, IR_SEV_ERROR, loc, fmt, ap);
  va_end(ap);
}

bool fe_expect(fe_parser *p, fe_tok_kind k, const char *what) {
  if (fe_accept(p, k)) return true;
  const fe_token *t = fe_peek(p);
  fe_parse_error(p, t->loc, "expected %s, found %s", what, fe_tok_desc(p, t));
  return false;
}

/* ---- recovery ----------------------------------------------------------------- */

/* Skips an INDENT ... DEDENT block (the INDENT is the next token). */
static void skip_block(fe_parser *p) {
  int depth = 0;
  do {
    fe_tok_kind k = fe_next(p)->kind;
    if (k == FE_TOK_INDENT) depth++;
    else if (k == FE_TOK_DEDENT) depth--;
    else if (k == FE_TOK_EOF) return;
  } while (depth > 0);
}

/* After an error: skips the rest of the logical line and any block it
 * opened, and the clauses (elif/else/except/finally) that belong to it. */
static void sync_statement(fe_parser *p, int start) {
  /* A simple statement that consumed its NEWLINE is already behind us. */
  if (p->pos > start && p->toks[p->pos - 1].kind == FE_TOK_NEWLINE) {
    p->panic = false;
    return;
  }
  for (;;) {
    while (fe_peek(p)->kind != FE_TOK_NEWLINE && fe_peek(p)->kind != FE_TOK_EOF &&
           fe_peek(p)->kind != FE_TOK_DEDENT && fe_peek(p)->kind != FE_TOK_INDENT)
      fe_next(p);
    fe_accept(p, FE_TOK_NEWLINE);
    if (fe_peek(p)->kind == FE_TOK_INDENT) skip_block(p);
    fe_tok_kind k = fe_peek(p)->kind;
    if (k != FE_TOK_KW_EXCEPT && k != FE_TOK_KW_FINALLY && k != FE_TOK_KW_ELSE &&
        k != FE_TOK_KW_ELIF)
      break;
  }
  p->panic = false;
}

/* ---- statements ------------------------------------------------------------------- */

/* A growable array of statements in the arena. */
typedef struct stmt_list {
  fe_stmt **items;
  int n, cap;
} stmt_list;

static void stmts_push(fe_parser *p, stmt_list *l, fe_stmt *s) {
  if (l->n == l->cap) {
    int ncap = l->cap ? l->cap * 2 : 8;
    fe_stmt **ni = ir_arena_alloc(p->arena, sizeof *ni * (size_t)ncap);
    if (!ni) IR_UNREACHABLE("out of memory in the parser");
    if (l->n) memcpy(ni, l->items, sizeof *ni * (size_t)l->n);
    l->items = ni;
    l->cap = ncap;
  }
  l->items[l->n++] = s;
}

static fe_stmt *new_stmt(fe_parser *p, fe_stmt_kind kind, ir_loc loc) {
  fe_stmt *s = ir_arena_alloc(p->arena, sizeof *s);
  if (!s) IR_UNREACHABLE("out of memory in the parser");
  s->kind = kind;
  s->loc = loc;
  return s;
}

static void parse_stmt(fe_parser *p, stmt_list *out);

/* suite: simple_stmt | NEWLINE INDENT stmt+ DEDENT */
static fe_body parse_suite(fe_parser *p) {
  stmt_list l = {0};
  if (fe_peek(p)->kind != FE_TOK_NEWLINE) {
    parse_stmt(p, &l); /* one-line suite: `if c: x = 1` */
  } else {
    fe_next(p);
    if (fe_peek(p)->kind != FE_TOK_INDENT) {
      fe_parse_error(p, fe_peek(p)->loc, "expected an indented block, found %s",
                     fe_tok_desc(p, fe_peek(p)));
    } else {
      fe_next(p);
      while (fe_peek(p)->kind != FE_TOK_DEDENT && fe_peek(p)->kind != FE_TOK_EOF) {
        int before = p->pos;
        parse_stmt(p, &l);
        if (p->pos == before) fe_next(p); /* guarantees progress */
      }
      fe_accept(p, FE_TOK_DEDENT);
    }
  }
  fe_body b = {l.n, l.items};
  return b;
}

/* Checks that an expression can be assigned to. */
static void check_target(fe_parser *p, const fe_expr *e) {
  switch (e->kind) {
  case FE_EX_NAME: case FE_EX_ATTR: case FE_EX_SUBSCRIPT: case FE_EX_ERROR:
    return;
  case FE_EX_TUPLE: case FE_EX_LIST:
    for (int i = 0; i < e->n; i++) check_target(p, e->items[i]);
    return;
  case FE_EX_CALL:
    fe_parse_error(p, e->loc, "cannot assign to function call");
    return;
  default:
    fe_parse_error(p, e->loc, "cannot assign to expression");
    return;
  }
}

static bool aug_op(fe_tok_kind k, fe_op *op) {
  switch (k) {
  case FE_TOK_PLUSEQ: *op = FE_OP_ADD; return true;
  case FE_TOK_MINUSEQ: *op = FE_OP_SUB; return true;
  case FE_TOK_STAREQ: *op = FE_OP_MUL; return true;
  case FE_TOK_SLASHEQ: *op = FE_OP_DIV; return true;
  case FE_TOK_FLOORDIVEQ: *op = FE_OP_FLOORDIV; return true;
  case FE_TOK_PERCENTEQ: *op = FE_OP_MOD; return true;
  case FE_TOK_POWEQ: *op = FE_OP_POW; return true;
  case FE_TOK_ATEQ: *op = FE_OP_MATMUL; return true;
  case FE_TOK_SHLEQ: *op = FE_OP_SHL; return true;
  case FE_TOK_SHREQ: *op = FE_OP_SHR; return true;
  case FE_TOK_AMPEQ: *op = FE_OP_BITAND; return true;
  case FE_TOK_PIPEEQ: *op = FE_OP_BITOR; return true;
  case FE_TOK_CARETEQ: *op = FE_OP_BITXOR; return true;
  default: return false;
  }
}

/* expr_stmt: testlist (annassign | augassign testlist | ('=' testlist)*)
 * annassign: ':' test ['=' testlist] */
static fe_stmt *parse_expr_stmt(fe_parser *p) {
  ir_loc loc = fe_peek(p)->loc;
  fe_expr *first = fe_parse_testlist(p);
  const fe_token *t = fe_peek(p);
  fe_op op;
  if (t->kind == FE_TOK_COLON) {
    fe_next(p);
    fe_stmt *s = new_stmt(p, FE_ST_ANNASSIGN, loc);
    if (first->kind != FE_EX_NAME)
      fe_parse_error(p, first->loc, "unsupported: annotated assignment to a non-name");
    s->ntargets = 1;
    s->targets = ir_arena_alloc(p->arena, sizeof(fe_expr *));
    s->targets[0] = first;
    s->annotation = fe_parse_test(p);
    if (fe_accept(p, FE_TOK_ASSIGN)) s->value = fe_parse_testlist(p);
    return s;
  }
  if (aug_op(t->kind, &op)) {
    fe_next(p);
    fe_stmt *s = new_stmt(p, FE_ST_AUGASSIGN, loc);
    if (first->kind != FE_EX_NAME && first->kind != FE_EX_ATTR && first->kind != FE_EX_SUBSCRIPT)
      fe_parse_error(p, first->loc, "illegal expression for augmented assignment");
    s->op = op;
    s->ntargets = 1;
    s->targets = ir_arena_alloc(p->arena, sizeof(fe_expr *));
    s->targets[0] = first;
    s->value = fe_parse_testlist(p);
    return s;
  }
  if (t->kind == FE_TOK_WALRUS) {
    fe_parse_error(p, t->loc, "unsupported: assignment expression ':='");
    return new_stmt(p, FE_ST_PASS, loc);
  }
  if (t->kind != FE_TOK_ASSIGN) {
    fe_stmt *s = new_stmt(p, FE_ST_EXPR, loc);
    s->value = first;
    return s;
  }
  /* Chained assignment: every expression but the last is a target. */
  fe_expr *chain[32];
  int n = 0;
  chain[n++] = first;
  while (fe_accept(p, FE_TOK_ASSIGN)) {
    if (n == 32) {
      fe_parse_error(p, t->loc, "assignment chain too long");
      break;
    }
    chain[n++] = fe_parse_testlist(p);
  }
  fe_stmt *s = new_stmt(p, FE_ST_ASSIGN, loc);
  s->ntargets = n - 1;
  s->targets = ir_arena_alloc(p->arena, sizeof(fe_expr *) * (size_t)n);
  for (int i = 0; i < n - 1; i++) {
    check_target(p, chain[i]);
    s->targets[i] = chain[i];
  }
  s->value = chain[n - 1];
  return s;
}

/* small_stmt: expr_stmt | 'pass' | 'break' | 'continue' | 'return' [testlist]
 *           | 'assert' test [',' test]
 * (del, global, nonlocal, raise, import, yield: unsupported) */
static fe_stmt *parse_small_stmt(fe_parser *p) {
  const fe_token *t = fe_peek(p);
  fe_stmt *s;
  switch (t->kind) {
  case FE_TOK_KW_PASS: fe_next(p); return new_stmt(p, FE_ST_PASS, t->loc);
  case FE_TOK_KW_BREAK: fe_next(p); return new_stmt(p, FE_ST_BREAK, t->loc);
  case FE_TOK_KW_CONTINUE: fe_next(p); return new_stmt(p, FE_ST_CONTINUE, t->loc);
  case FE_TOK_KW_RETURN:
    fe_next(p);
    s = new_stmt(p, FE_ST_RETURN, t->loc);
    if (fe_tok_starts_expr(fe_peek(p)->kind)) s->value = fe_parse_testlist(p);
    return s;
  case FE_TOK_KW_ASSERT:
    fe_next(p);
    s = new_stmt(p, FE_ST_ASSERT, t->loc);
    s->cond = fe_parse_test(p);
    if (fe_accept(p, FE_TOK_COMMA)) s->msg = fe_parse_test(p);
    return s;
  case FE_TOK_KW_DEL: case FE_TOK_KW_GLOBAL: case FE_TOK_KW_NONLOCAL: case FE_TOK_KW_RAISE:
  case FE_TOK_KW_IMPORT: case FE_TOK_KW_FROM: case FE_TOK_KW_YIELD:
    fe_parse_error(p, t->loc, "unsupported statement '%s'", t->text);
    return new_stmt(p, FE_ST_PASS, t->loc);
  default:
    return parse_expr_stmt(p);
  }
}

/* simple_stmt: small_stmt (';' small_stmt)* [';'] NEWLINE */
static void parse_simple_stmt(fe_parser *p, stmt_list *out) {
  for (;;) {
    stmts_push(p, out, parse_small_stmt(p));
    if (!fe_accept(p, FE_TOK_SEMI)) break;
    if (fe_peek(p)->kind == FE_TOK_NEWLINE) break;
  }
  if (fe_peek(p)->kind != FE_TOK_EOF) fe_expect(p, FE_TOK_NEWLINE, "end of statement");
}

/* if_stmt: 'if' test ':' suite ('elif' test ':' suite)* ['else' ':' suite] */
static fe_stmt *parse_if(fe_parser *p) {
  const fe_token *t = fe_next(p); /* 'if' or 'elif' */
  fe_stmt *s = new_stmt(p, FE_ST_IF, t->loc);
  s->cond = fe_parse_test(p);
  if (!fe_expect(p, FE_TOK_COLON, "':' after the condition")) return s;
  s->body = parse_suite(p);
  if (fe_peek(p)->kind == FE_TOK_KW_ELIF) {
    fe_stmt *e = parse_if(p);
    s->orelse.n = 1;
    s->orelse.stmts = ir_arena_alloc(p->arena, sizeof(fe_stmt *));
    s->orelse.stmts[0] = e;
  } else if (fe_peek(p)->kind == FE_TOK_KW_ELSE) {
    fe_next(p);
    if (fe_expect(p, FE_TOK_COLON, "':' after 'else'")) s->orelse = parse_suite(p);
  }
  return s;
}

/* while_stmt: 'while' test ':' suite
 * for_stmt: 'for' exprlist 'in' testlist ':' suite
 * (an `else` clause on loops is unsupported) */
static fe_stmt *parse_loop(fe_parser *p) {
  const fe_token *t = fe_next(p);
  fe_stmt *s;
  if (t->kind == FE_TOK_KW_WHILE) {
    s = new_stmt(p, FE_ST_WHILE, t->loc);
    s->cond = fe_parse_test(p);
  } else {
    s = new_stmt(p, FE_ST_FOR, t->loc);
    s->target = fe_parse_exprlist(p);
    check_target(p, s->target);
    if (!fe_expect(p, FE_TOK_KW_IN, "'in' in for statement")) return s;
    s->iter = fe_parse_testlist(p);
  }
  if (!fe_expect(p, FE_TOK_COLON, "':'")) return s;
  s->body = parse_suite(p);
  if (fe_peek(p)->kind == FE_TOK_KW_ELSE)
    fe_parse_error(p, fe_peek(p)->loc, "unsupported: 'else' clause on a loop");
  return s;
}

/* stmt: simple_stmt | if_stmt | while_stmt | for_stmt
 * (class, def, with, try, async and decorators inside a function: unsupported) */
static void parse_stmt(fe_parser *p, stmt_list *out) {
  int start = p->pos;
  const fe_token *t = fe_peek(p);
  switch (t->kind) {
  case FE_TOK_KW_IF: stmts_push(p, out, parse_if(p)); break;
  case FE_TOK_KW_WHILE: case FE_TOK_KW_FOR: stmts_push(p, out, parse_loop(p)); break;
  case FE_TOK_KW_CLASS: case FE_TOK_KW_DEF: case FE_TOK_KW_WITH: case FE_TOK_KW_TRY:
  case FE_TOK_KW_ASYNC:
    fe_parse_error(p, t->loc, "unsupported statement '%s'", t->text);
    break;
  case FE_TOK_KW_EXCEPT: case FE_TOK_KW_FINALLY: case FE_TOK_KW_ELSE: case FE_TOK_KW_ELIF:
    fe_parse_error(p, t->loc, "unexpected '%s'", t->text);
    break;
  case FE_TOK_AT:
    fe_parse_error(p, t->loc, "unsupported: decorator inside a function");
    break;
  case FE_TOK_INDENT:
    fe_parse_error(p, t->loc, "unexpected indent");
    skip_block(p);
    p->panic = false;
    return;
  case FE_TOK_NEWLINE:
    fe_next(p); /* stray empty statement (after ';') */
    return;
  default:
    parse_simple_stmt(p, out);
    break;
  }
  if (p->panic) sync_statement(p, start);
}

/* ---- module level ------------------------------------------------------------------ */

/* dotted_name: NAME ('.' NAME)* -> interned "a.b.c" */
static const char *parse_dotted_name(fe_parser *p) {
  char buf[256];
  size_t n = 0;
  do {
    const fe_token *t = fe_peek(p);
    if (!fe_expect(p, FE_TOK_NAME, "a module name")) return NULL;
    size_t l = strlen(t->text);
    if (n + l + 2 >= sizeof buf) {
      fe_parse_error(p, t->loc, "module name too long");
      return NULL;
    }
    if (n) buf[n++] = '.';
    memcpy(buf + n, t->text, l);
    n += l;
  } while (fe_accept(p, FE_TOK_DOT));
  return ir_intern(p->ctx, buf, n);
}

typedef struct module_builder {
  fe_import imports[128];
  int nimports;
  fe_global globals[256];
  int nglobals;
  fe_func *funcs[256];
  int nfuncs;
} module_builder;

static void add_import(fe_parser *p, module_builder *mb, const char *alias, const char *path,
                       ir_loc loc) {
  if (mb->nimports == 128) {
    fe_parse_error(p, loc, "too many imports");
    return;
  }
  fe_import *im = &mb->imports[mb->nimports++];
  im->alias = alias;
  im->path = path;
  im->loc = loc;
}

/* import_name: 'import' dotted_name ['as' NAME] (',' dotted_name ['as' NAME])*
 * import_from: 'from' dotted_name 'import' ('(' import_as_names ')' | import_as_names)
 * import_as_names: NAME ['as' NAME] (',' NAME ['as' NAME])* [','] */
static void parse_import(fe_parser *p, module_builder *mb) {
  const fe_token *t = fe_next(p);
  if (t->kind == FE_TOK_KW_IMPORT) {
    do {
      ir_loc loc = fe_peek(p)->loc;
      const char *path = parse_dotted_name(p);
      if (!path) return;
      const char *alias;
      if (fe_accept(p, FE_TOK_KW_AS)) {
        const fe_token *a = fe_peek(p);
        if (!fe_expect(p, FE_TOK_NAME, "a name after 'as'")) return;
        alias = a->text;
      } else { /* `import a.b` binds `a` */
        const char *dot = strchr(path, '.');
        alias = dot ? ir_intern(p->ctx, path, (size_t)(dot - path)) : path;
        if (dot) path = alias;
      }
      add_import(p, mb, alias, path, loc);
    } while (fe_accept(p, FE_TOK_COMMA));
  } else {
    const char *from = parse_dotted_name(p);
    if (!from || !fe_expect(p, FE_TOK_KW_IMPORT, "'import'")) return;
    if (fe_peek(p)->kind == FE_TOK_STAR) {
      fe_parse_error(p, fe_peek(p)->loc, "unsupported: 'import *'");
      return;
    }
    bool paren = fe_accept(p, FE_TOK_LPAREN);
    do {
      if (paren && fe_peek(p)->kind == FE_TOK_RPAREN) break;
      const fe_token *n = fe_peek(p);
      if (!fe_expect(p, FE_TOK_NAME, "a name to import")) return;
      const char *alias = n->text;
      if (fe_accept(p, FE_TOK_KW_AS)) {
        const fe_token *a = fe_peek(p);
        if (!fe_expect(p, FE_TOK_NAME, "a name after 'as'")) return;
        alias = a->text;
      }
      char buf[320];
      snprintf(buf, sizeof buf, "%s.%s", from, n->text);
      add_import(p, mb, alias, ir_intern_cstr(p->ctx, buf), n->loc);
    } while (fe_accept(p, FE_TOK_COMMA));
    if (paren) fe_expect(p, FE_TOK_RPAREN, "')'");
  }
  if (fe_peek(p)->kind != FE_TOK_EOF) fe_expect(p, FE_TOK_NEWLINE, "end of statement");
}

/* parameters: '(' [tfpdef ['=' test] (',' tfpdef ['=' test])* [',']] ')'
 * tfpdef: NAME [':' test] */
static void parse_params(fe_parser *p, fe_func *fn) {
  fe_param_decl params[128];
  int n = 0;
  if (!fe_expect(p, FE_TOK_LPAREN, "'(' after the function name")) return;
  while (fe_peek(p)->kind != FE_TOK_RPAREN && fe_peek(p)->kind != FE_TOK_EOF) {
    const fe_token *t = fe_peek(p);
    if (t->kind == FE_TOK_STAR || t->kind == FE_TOK_POW || t->kind == FE_TOK_SLASH) {
      fe_parse_error(p, t->loc, "unsupported: '%s' in a parameter list", fe_tok_kind_name(t->kind));
      return;
    }
    if (!fe_expect(p, FE_TOK_NAME, "a parameter name")) return;
    if (n == 128) {
      fe_parse_error(p, t->loc, "too many parameters");
      return;
    }
    fe_param_decl *pd = &params[n++];
    memset(pd, 0, sizeof *pd);
    pd->name = t->text;
    pd->loc = t->loc;
    for (int i = 0; i < n - 1; i++)
      if (params[i].name == pd->name)
        fe_parse_error(p, t->loc, "duplicate parameter '%s'", pd->name);
    if (fe_accept(p, FE_TOK_COLON)) pd->annotation = fe_parse_test(p);
    if (fe_accept(p, FE_TOK_ASSIGN)) pd->dflt = fe_parse_test(p);
    else if (n > 1 && params[n - 2].dflt)
      fe_parse_error(p, t->loc, "parameter without a default follows parameter with a default");
    if (!fe_accept(p, FE_TOK_COMMA)) break;
  }
  fe_expect(p, FE_TOK_RPAREN, "')' after the parameters");
  fn->nparams = n;
  fn->params = ir_arena_alloc(p->arena, sizeof *fn->params * (size_t)(n ? n : 1));
  if (!fn->params) IR_UNREACHABLE("out of memory in the parser");
  memcpy(fn->params, params, sizeof *params * (size_t)n);
}

/* decorated: decorator+ funcdef
 * decorator: '@' test NEWLINE
 * funcdef: 'def' NAME parameters ['->' test] ':' suite */
static void parse_funcdef(fe_parser *p, module_builder *mb) {
  fe_expr *decos[16];
  int ndecos = 0;
  while (fe_peek(p)->kind == FE_TOK_AT) {
    const fe_token *at = fe_next(p);
    fe_expr *d = fe_parse_test(p);
    if (ndecos == 16) fe_parse_error(p, at->loc, "too many decorators");
    else decos[ndecos++] = d;
    if (!fe_expect(p, FE_TOK_NEWLINE, "newline after decorator")) return;
  }
  const fe_token *def = fe_peek(p);
  if (def->kind == FE_TOK_KW_CLASS) {
    fe_parse_error(p, def->loc, "unsupported statement 'class'");
    return;
  }
  if (!fe_expect(p, FE_TOK_KW_DEF, "'def' after decorators")) return;
  fe_func *fn = ir_arena_alloc(p->arena, sizeof *fn);
  if (!fn) IR_UNREACHABLE("out of memory in the parser");
  fn->loc = def->loc;
  const fe_token *name = fe_peek(p);
  if (!fe_expect(p, FE_TOK_NAME, "a function name after 'def'")) return;
  fn->name = name->text;
  parse_params(p, fn);
  if (p->panic) return;
  if (fe_accept(p, FE_TOK_ARROW)) fn->ret_annotation = fe_parse_test(p);
  if (!fe_expect(p, FE_TOK_COLON, "':' after the function signature")) return;
  fn->ndecorators = ndecos;
  fn->decorators = ir_arena_alloc(p->arena, sizeof(fe_expr *) * (size_t)(ndecos ? ndecos : 1));
  memcpy(fn->decorators, decos, sizeof(fe_expr *) * (size_t)ndecos);
  fn->body = parse_suite(p);
  for (int i = 0; i < mb->nfuncs; i++)
    if (mb->funcs[i]->name == fn->name) {
      fe_parse_error(p, name->loc, "function '%s' is defined twice", fn->name);
      return;
    }
  if (mb->nfuncs == 256) {
    fe_parse_error(p, def->loc, "too many functions");
    return;
  }
  mb->funcs[mb->nfuncs++] = fn;
}

/* global: NAME [':' test] '=' test NEWLINE */
static void parse_global(fe_parser *p, module_builder *mb) {
  const fe_token *name = fe_next(p);
  fe_global g = {name->text, name->loc, NULL, NULL};
  if (fe_accept(p, FE_TOK_COLON)) g.annotation = fe_parse_test(p);
  if (!fe_expect(p, FE_TOK_ASSIGN, "'=' in a module-level constant")) return;
  g.value = fe_parse_test(p);
  if (fe_peek(p)->kind == FE_TOK_ASSIGN || fe_peek(p)->kind == FE_TOK_COMMA) {
    fe_parse_error(p, fe_peek(p)->loc,
                   "unsupported: module-level statement other than 'NAME = constant'");
    return;
  }
  if (fe_peek(p)->kind != FE_TOK_EOF) fe_expect(p, FE_TOK_NEWLINE, "end of statement");
  if (mb->nglobals == 256) {
    fe_parse_error(p, name->loc, "too many module-level constants");
    return;
  }
  mb->globals[mb->nglobals++] = g;
}

/* file_input: (NEWLINE | import | global | decorated | docstring)* ENDMARKER */
static void parse_module_stmt(fe_parser *p, module_builder *mb) {
  int start = p->pos;
  const fe_token *t = fe_peek(p);
  switch (t->kind) {
  case FE_TOK_KW_IMPORT: case FE_TOK_KW_FROM: parse_import(p, mb); break;
  case FE_TOK_AT: case FE_TOK_KW_DEF: parse_funcdef(p, mb); break;
  case FE_TOK_NAME:
    if (fe_peek_at(p, 1)->kind == FE_TOK_ASSIGN || fe_peek_at(p, 1)->kind == FE_TOK_COLON) {
      parse_global(p, mb);
      break;
    }
    fe_parse_error(p, t->loc, "unsupported: module-level statement other than 'NAME = constant'");
    break;
  case FE_TOK_STRING: /* module docstring */
    (void)fe_parse_test(p);
    if (fe_peek(p)->kind != FE_TOK_EOF) fe_expect(p, FE_TOK_NEWLINE, "end of statement");
    break;
  case FE_TOK_NEWLINE: fe_next(p); break;
  case FE_TOK_INDENT:
    fe_parse_error(p, t->loc, "unexpected indent");
    skip_block(p);
    p->panic = false;
    return;
  case FE_TOK_DEDENT: fe_next(p); break;
  case FE_TOK_KW_CLASS: case FE_TOK_KW_WITH: case FE_TOK_KW_TRY: case FE_TOK_KW_IF:
  case FE_TOK_KW_FOR: case FE_TOK_KW_WHILE: case FE_TOK_KW_ASYNC: case FE_TOK_KW_DEL:
  case FE_TOK_KW_GLOBAL: case FE_TOK_KW_RAISE: case FE_TOK_KW_ASSERT:
    fe_parse_error(p, t->loc, "unsupported statement '%s' at module level", t->text);
    break;
  default:
    fe_parse_error(p, t->loc, "unsupported: module-level statement other than 'NAME = constant'");
    break;
  }
  if (p->panic) sync_statement(p, start);
}

fe_module *fe_parse(ir_context *ctx, const ir_source *src, ir_arena *arena) {
  fe_tokens toks;
  bool lex_ok = fe_lex(ctx, src, arena, &toks);
  if (!lex_ok) {
    fe_tokens_free(&toks);
    return NULL;
  }
  fe_parser p;
  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  p.arena = arena;
  p.src = src;
  p.toks = toks.toks;
  p.ntoks = toks.n;
  module_builder *mb = calloc(1, sizeof *mb);
  if (!mb) IR_UNREACHABLE("out of memory in the parser");
  while (fe_peek(&p)->kind != FE_TOK_EOF) {
    int before = p.pos;
    parse_module_stmt(&p, mb);
    if (p.pos == before) fe_next(&p); /* guarantees progress */
  }
  fe_module *mod = NULL;
  if (p.nerrors == 0) {
    mod = ir_arena_alloc(arena, sizeof *mod);
    mod->src = src;
    mod->nimports = mb->nimports;
    mod->imports = ir_arena_alloc(arena, sizeof(fe_import) * (size_t)(mb->nimports + 1));
    memcpy(mod->imports, mb->imports, sizeof(fe_import) * (size_t)mb->nimports);
    mod->nglobals = mb->nglobals;
    mod->globals = ir_arena_alloc(arena, sizeof(fe_global) * (size_t)(mb->nglobals + 1));
    memcpy(mod->globals, mb->globals, sizeof(fe_global) * (size_t)mb->nglobals);
    mod->nfuncs = mb->nfuncs;
    mod->funcs = ir_arena_alloc(arena, sizeof(fe_func *) * (size_t)(mb->nfuncs + 1));
    memcpy(mod->funcs, mb->funcs, sizeof(fe_func *) * (size_t)mb->nfuncs);
  }
  free(mb);
  fe_tokens_free(&toks);
  return mod;
}

fe_func *fe_module_find_func(const fe_module *mod, const char *name) {
  for (int i = 0; i < mod->nfuncs; i++)
    if (strcmp(mod->funcs[i]->name, name) == 0) return mod->funcs[i];
  return NULL;
}
