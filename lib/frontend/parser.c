// SPDX-License-Identifier: MIT
/* parser.c - recursive-descent parser for the functions and values a kernel
 * reaches: decorated defs and their statements, module-level values, and
 * whole modules for tests (expressions are in parse_expr.c and
 * parse_atom.c). Each parse function carries its grammar rule.
 *
 * The parser starts where the module index (modindex.c) says a function or
 * value begins. Errors are reported once per statement; the parser then
 * skips to the next statement (and over any block it opened), so one run
 * reports many errors. In quiet mode (host code evaluated for decorators)
 * errors are only counted and the first is kept for a remark. */
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

const char *fe_parse_name(fe_parser *p, const fe_token *t) { return fe_tok_name(p->ctx, t); }

void *fe_parse_alloc(fe_parser *p, size_t size) {
  void *m = ir_arena_alloc(p->arena, size ? size : 1);
  if (!m) IR_UNREACHABLE("out of memory in the parser");
  return m;
}

const char *fe_tok_desc(fe_parser *p, const fe_token *t) {
  char buf[96];
  switch (t->kind) {
  case FE_TOK_NAME:
    snprintf(buf, sizeof buf, "'%.*s'", (int)(t->len < 80 ? t->len : 80), t->text);
    return ir_intern_cstr(p->ctx, buf);
  case FE_TOK_INT: return "integer literal";
  case FE_TOK_FLOAT: return "float literal";
  case FE_TOK_IMAG: return "imaginary literal";
  case FE_TOK_STRING: return "string literal";
  case FE_TOK_FSTRING_START: return "f-string";
  default: return fe_tok_kind_name(t->kind);
  }
}

void fe_parse_error(fe_parser *p, ir_loc loc, const char *fmt, ...) {
  if (p->panic) return;
  p->panic = true;
  va_list ap;
  va_start(ap, fmt);
  if (p->quiet) {
    if (p->nerrors == 0) {
      vsnprintf(p->first_error, sizeof p->first_error, fmt, ap);
      p->first_error_loc = loc;
    }
  } else {
    ir_vemit(p->ctx, IR_SEV_ERROR, loc, fmt, ap);
  }
  va_end(ap);
  p->nerrors++;
}

bool fe_expect(fe_parser *p, fe_tok_kind k, const char *what) {
  if (fe_accept(p, k)) return true;
  const fe_token *t = fe_peek(p);
  fe_parse_error(p, t->loc, "expected %s, found %s", what, fe_tok_desc(p, t));
  return false;
}

void fe_parser_init(fe_parser *p, ir_context *ctx, ir_arena *arena, const fe_modindex *ix,
                    int pos) {
  memset(p, 0, sizeof *p);
  p->ctx = ctx;
  p->arena = arena;
  p->src = ix->src;
  p->toks = ix->toks.toks;
  p->ntoks = ix->toks.n;
  p->pos = pos < 0 ? 0 : pos < p->ntoks ? pos : p->ntoks - 1;
}

/* ---- recovery ----------------------------------------------------------------- */

/* Skips an INDENT ... DEDENT block (the INDENT is the next token). */
static void skip_block(fe_parser *p) {
  int depth = 0;
  do {
    fe_tok_kind k = fe_next(p)->kind;
    if (k == FE_TOK_INDENT)
      depth++;
    else if (k == FE_TOK_DEDENT)
      depth--;
    else if (k == FE_TOK_EOF)
      return;
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
    fe_stmt **ni = fe_parse_alloc(p, sizeof *ni * (size_t)ncap);
    if (l->n) memcpy(ni, l->items, sizeof *ni * (size_t)l->n);
    l->items = ni;
    l->cap = ncap;
  }
  l->items[l->n++] = s;
}

static fe_stmt *new_stmt(fe_parser *p, fe_stmt_kind kind, ir_loc loc) {
  fe_stmt *s = fe_parse_alloc(p, sizeof *s);
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
  case FE_EX_NAME:
  case FE_EX_ATTR:
  case FE_EX_SUBSCRIPT:
  case FE_EX_ERROR: return;
  case FE_EX_STARRED: check_target(p, e->a); return;
  case FE_EX_TUPLE:
  case FE_EX_LIST:
    for (int i = 0; i < e->n; i++)
      check_target(p, e->items[i]);
    return;
  case FE_EX_CALL: fe_parse_error(p, e->loc, "cannot assign to function call"); return;
  default: fe_parse_error(p, e->loc, "cannot assign to expression"); return;
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

static fe_expr **one_target(fe_parser *p, fe_expr *e) {
  fe_expr **t = fe_parse_alloc(p, sizeof(fe_expr *));
  t[0] = e;
  return t;
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
    s->targets = one_target(p, first);
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
    s->targets = one_target(p, first);
    s->value = fe_parse_testlist(p);
    return s;
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
  s->targets = fe_parse_alloc(p, sizeof(fe_expr *) * (size_t)n);
  for (int i = 0; i < n - 1; i++) {
    check_target(p, chain[i]);
    s->targets[i] = chain[i];
  }
  s->value = chain[n - 1];
  return s;
}

/* small_stmt: expr_stmt | 'pass' | 'break' | 'continue' | 'return' [testlist]
 *           | 'assert' test [',' test] | 'raise' [test ['from' test]]
 *           | ('global' | 'nonlocal') NAME (',' NAME)*
 * (del, import, yield: unsupported) */
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
  case FE_TOK_KW_RAISE:
    fe_next(p);
    s = new_stmt(p, FE_ST_RAISE, t->loc);
    if (fe_tok_starts_expr(fe_peek(p)->kind)) s->value = fe_parse_test(p);
    if (s->value && fe_accept(p, FE_TOK_KW_FROM)) (void)fe_parse_test(p);
    return s;
  case FE_TOK_KW_GLOBAL:
  case FE_TOK_KW_NONLOCAL:
    fe_next(p);
    do
      fe_expect(p, FE_TOK_NAME, "a name");
    while (fe_accept(p, FE_TOK_COMMA));
    return new_stmt(p, FE_ST_GLOBAL, t->loc);
  case FE_TOK_KW_DEL:
  case FE_TOK_KW_IMPORT:
  case FE_TOK_KW_FROM:
  case FE_TOK_KW_YIELD:
    fe_parse_error(p, t->loc, "unsupported statement %s", fe_tok_kind_name(t->kind));
    return new_stmt(p, FE_ST_PASS, t->loc);
  default: return parse_expr_stmt(p);
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
    s->orelse.stmts = fe_parse_alloc(p, sizeof(fe_stmt *));
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

/* stmt: simple_stmt | if_stmt | while_stmt | for_stmt | funcdef (nested)
 * (class, with, try, async, match: unsupported inside functions) */
static void parse_stmt(fe_parser *p, stmt_list *out) {
  int start = p->pos;
  const fe_token *t = fe_peek(p);
  switch (t->kind) {
  case FE_TOK_KW_IF: stmts_push(p, out, parse_if(p)); break;
  case FE_TOK_KW_WHILE:
  case FE_TOK_KW_FOR: stmts_push(p, out, parse_loop(p)); break;
  case FE_TOK_KW_DEF:
  case FE_TOK_AT: {
    fe_func *fn = fe_parse_funcdef(p);
    if (fn) {
      fe_stmt *s = new_stmt(p, FE_ST_DEF, t->loc);
      s->fn = fn;
      stmts_push(p, out, s);
    }
    break;
  }
  case FE_TOK_KW_CLASS:
  case FE_TOK_KW_WITH:
  case FE_TOK_KW_TRY:
  case FE_TOK_KW_ASYNC:
    fe_parse_error(p, t->loc, "unsupported statement %s", fe_tok_kind_name(t->kind));
    break;
  case FE_TOK_KW_EXCEPT:
  case FE_TOK_KW_FINALLY:
  case FE_TOK_KW_ELSE:
  case FE_TOK_KW_ELIF: fe_parse_error(p, t->loc, "unexpected %s", fe_tok_kind_name(t->kind)); break;
  case FE_TOK_INDENT:
    fe_parse_error(p, t->loc, "unexpected indent");
    skip_block(p);
    p->panic = false;
    return;
  case FE_TOK_NEWLINE:
    fe_next(p); /* stray empty statement (after ';') */
    return;
  default:
    if (t->kind == FE_TOK_NAME && t->len == 5 && memcmp(t->text, "match", 5) == 0 &&
        fe_tok_starts_expr(fe_peek_at(p, 1)->kind) && fe_peek_at(p, 1)->kind != FE_TOK_LPAREN) {
      /* `match x:` cannot be an expression statement */
      int save = p->pos;
      fe_parser q = *p;
      q.quiet = true;
      q.nerrors = 0;
      fe_next(&q);
      (void)fe_parse_testlist(&q);
      if (fe_peek(&q)->kind == FE_TOK_COLON) {
        fe_parse_error(p, t->loc, "unsupported statement 'match'");
        break;
      }
      p->pos = save;
    }
    parse_simple_stmt(p, out);
    break;
  }
  if (p->panic) sync_statement(p, start);
}

/* ---- functions ---------------------------------------------------------------------- */

/* parameters: '(' [param (',' param)*] ')' for a def, or up to ':' for a
 * lambda. param: NAME [':' test] ['=' test] | '*' [NAME] | '**' NAME | '/' */
void fe_parse_params(fe_parser *p, fe_func *fn, fe_tok_kind close) {
  fe_param_decl params[FE_MAX_PARAMS];
  int n = 0;
  bool kwonly = false, has_kwargs = false;
  bool is_def = close == FE_TOK_RPAREN;
  while (fe_peek(p)->kind != close && fe_peek(p)->kind != FE_TOK_EOF &&
         fe_peek(p)->kind != FE_TOK_NEWLINE) {
    const fe_token *t = fe_peek(p);
    if (t->kind == FE_TOK_SLASH) { /* positional-only marker: no effect here */
      fe_next(p);
      if (!fe_accept(p, FE_TOK_COMMA)) break;
      continue;
    }
    fe_param_kind kind = FE_PARAM_PLAIN;
    if (t->kind == FE_TOK_STAR || t->kind == FE_TOK_POW) {
      fe_next(p);
      kind = t->kind == FE_TOK_STAR ? FE_PARAM_VARARGS : FE_PARAM_KWARGS;
      if (kind == FE_PARAM_VARARGS && fe_peek(p)->kind != FE_TOK_NAME) { /* bare `*` */
        kwonly = true;
        if (!fe_accept(p, FE_TOK_COMMA)) break;
        continue;
      }
    }
    const fe_token *nt = fe_peek(p);
    if (!fe_expect(p, FE_TOK_NAME, "a parameter name")) return;
    if (n == FE_MAX_PARAMS) {
      fe_parse_error(p, nt->loc, "too many parameters (more than %d)", FE_MAX_PARAMS);
      return;
    }
    if (has_kwargs) fe_parse_error(p, nt->loc, "parameter after '**%s'", params[n - 1].name);
    fe_param_decl *pd = &params[n++];
    memset(pd, 0, sizeof *pd);
    pd->name = fe_parse_name(p, nt);
    pd->loc = nt->loc;
    pd->kind = kind;
    pd->kwonly = kwonly;
    if (kind == FE_PARAM_VARARGS) kwonly = true;
    if (kind == FE_PARAM_KWARGS) has_kwargs = true;
    for (int i = 0; i < n - 1; i++)
      if (params[i].name == pd->name)
        fe_parse_error(p, nt->loc, "duplicate parameter '%s'", pd->name);
    if (is_def && fe_accept(p, FE_TOK_COLON)) pd->annotation = fe_parse_test(p);
    if (kind == FE_PARAM_PLAIN && fe_accept(p, FE_TOK_ASSIGN))
      pd->dflt = fe_parse_test(p);
    else if (kind == FE_PARAM_PLAIN && !kwonly && n > 1 && params[n - 2].dflt &&
             params[n - 2].kind == FE_PARAM_PLAIN)
      fe_parse_error(p, nt->loc, "parameter without a default follows parameter with a default");
    if (!fe_accept(p, FE_TOK_COMMA)) break;
  }
  fn->nparams = n;
  fn->params = fe_parse_alloc(p, sizeof *fn->params * (size_t)(n ? n : 1));
  memcpy(fn->params, params, sizeof *params * (size_t)n);
}

/* decorated: decorator* funcdef
 * decorator: '@' test NEWLINE
 * funcdef: 'def' NAME '(' parameters ')' ['->' test] ':' suite */
fe_func *fe_parse_funcdef(fe_parser *p) {
  fe_expr *decos[16];
  int ndecos = 0;
  int errors = p->nerrors;
  while (fe_peek(p)->kind == FE_TOK_AT) {
    const fe_token *at = fe_next(p);
    fe_expr *d = fe_parse_test(p);
    if (ndecos == 16)
      fe_parse_error(p, at->loc, "too many decorators");
    else
      decos[ndecos++] = d;
    if (!fe_expect(p, FE_TOK_NEWLINE, "newline after decorator")) return NULL;
  }
  const fe_token *def = fe_peek(p);
  if (def->kind == FE_TOK_KW_ASYNC) {
    fe_parse_error(p, def->loc, "unsupported: 'async def'");
    return NULL;
  }
  if (!fe_expect(p, FE_TOK_KW_DEF, "'def' after decorators")) return NULL;
  fe_func *fn = fe_parse_alloc(p, sizeof *fn);
  fn->loc = def->loc;
  const fe_token *name = fe_peek(p);
  if (!fe_expect(p, FE_TOK_NAME, "a function name after 'def'")) return NULL;
  fn->name = fe_parse_name(p, name);
  if (!fe_expect(p, FE_TOK_LPAREN, "'(' after the function name")) return NULL;
  fe_parse_params(p, fn, FE_TOK_RPAREN);
  if (p->panic) return NULL;
  fe_expect(p, FE_TOK_RPAREN, "')' after the parameters");
  if (p->panic) return NULL;
  if (fe_accept(p, FE_TOK_ARROW)) fn->ret_annotation = fe_parse_test(p);
  if (!fe_expect(p, FE_TOK_COLON, "':' after the function signature")) return NULL;
  fn->ndecorators = ndecos;
  fn->decorators = fe_parse_alloc(p, sizeof(fe_expr *) * (size_t)(ndecos ? ndecos : 1));
  memcpy(fn->decorators, decos, sizeof(fe_expr *) * (size_t)ndecos);
  fn->body = parse_suite(p);
  return p->nerrors == errors ? fn : NULL;
}

/* The value of NAME = value: a testlist ending the statement. */
fe_expr *fe_parse_value(fe_parser *p) {
  fe_expr *e = fe_parse_testlist(p);
  fe_tok_kind k = fe_peek(p)->kind;
  if (k != FE_TOK_NEWLINE && k != FE_TOK_EOF && k != FE_TOK_SEMI && k != FE_TOK_DEDENT)
    fe_parse_error(p, fe_peek(p)->loc, "expected end of statement, found %s",
                   fe_tok_desc(p, fe_peek(p)));
  return e;
}

/* ---- whole modules ----------------------------------------------------------------- */

fe_module *fe_parse(ir_context *ctx, const ir_source *src, ir_arena *arena) {
  fe_module *mod = ir_arena_alloc(arena, sizeof *mod);
  if (!mod) IR_UNREACHABLE("out of memory in the parser");
  mod->src = src;
  if (!fe_modindex_build(ctx, src, arena, &mod->ix)) return NULL;
  int errors = 0;
  mod->funcs = ir_arena_alloc(arena, sizeof(fe_func *) * (size_t)(mod->ix.nbinds + 1));
  for (int i = 0; i < mod->ix.nbinds; i++) {
    const fe_bind *b = &mod->ix.binds[i];
    if (b->kind != FE_BIND_FUNC && b->kind != FE_BIND_VALUE) continue;
    /* undecorated defs are host functions: parsed only if something runs them */
    if (b->kind == FE_BIND_FUNC && mod->ix.toks.toks[b->at].kind != FE_TOK_AT) continue;
    fe_parser p;
    fe_parser_init(&p, ctx, arena, &mod->ix, b->at);
    if (b->kind == FE_BIND_FUNC) {
      fe_func *fn = fe_parse_funcdef(&p);
      if (fn) mod->funcs[mod->nfuncs++] = fn;
    } else {
      (void)fe_parse_value(&p);
    }
    errors += p.nerrors;
  }
  return errors ? NULL : mod;
}

fe_func *fe_module_find_func(const fe_module *mod, const char *name) {
  for (int i = mod->nfuncs - 1; i >= 0; i--)
    if (strcmp(mod->funcs[i]->name, name) == 0) return mod->funcs[i];
  return NULL;
}
