// SPDX-License-Identifier: MIT
/* parse_expr.c - recursive-descent parser for Python expressions, with
 * Python's precedence: operators, calls (with *args and **kwargs),
 * subscripts and slices, conditional expressions, lambdas, walrus, starred
 * test lists. Atoms (literals, displays, comprehensions, f-strings) are in
 * parse_atom.c. Each function carries its grammar rule.
 *
 * The whole expression language parses, so that decorator arguments and
 * host helpers can be evaluated; the lowering decides what a kernel may use. */
#include <string.h>

#include "frontend/fe.h"

const char *fe_op_str(fe_op op) {
  switch (op) {
  case FE_OP_ADD: return "+";
  case FE_OP_SUB: return "-";
  case FE_OP_MUL: return "*";
  case FE_OP_DIV: return "/";
  case FE_OP_FLOORDIV: return "//";
  case FE_OP_MOD: return "%";
  case FE_OP_POW: return "**";
  case FE_OP_MATMUL: return "@";
  case FE_OP_SHL: return "<<";
  case FE_OP_SHR: return ">>";
  case FE_OP_BITAND: return "&";
  case FE_OP_BITOR: return "|";
  case FE_OP_BITXOR: return "^";
  case FE_OP_AND: return "and";
  case FE_OP_OR: return "or";
  case FE_OP_NEG: return "-";
  case FE_OP_POS: return "+";
  case FE_OP_INVERT: return "~";
  case FE_OP_NOT: return "not";
  case FE_OP_EQ: return "==";
  case FE_OP_NE: return "!=";
  case FE_OP_LT: return "<";
  case FE_OP_LE: return "<=";
  case FE_OP_GT: return ">";
  case FE_OP_GE: return ">=";
  case FE_OP_IS: return "is";
  case FE_OP_ISNOT: return "is not";
  case FE_OP_IN: return "in";
  case FE_OP_NOTIN: return "not in";
  }
  return "?";
}

fe_expr *fe_new_expr(fe_parser *p, fe_expr_kind kind, ir_loc loc) {
  fe_expr *e = fe_parse_alloc(p, sizeof *e);
  e->kind = kind;
  e->loc = loc;
  e->start = loc;
  return e;
}

void fe_list_init(fe_expr_list *l) {
  l->items = l->inline_items;
  l->n = 0;
  l->cap = 16;
}
void fe_list_push(fe_parser *p, fe_expr_list *l, fe_expr *e) {
  if (l->n == l->cap) {
    fe_expr **ni = fe_parse_alloc(p, sizeof *ni * (size_t)l->cap * 2);
    memcpy(ni, l->items, sizeof *ni * (size_t)l->n);
    l->items = ni;
    l->cap *= 2;
  }
  l->items[l->n++] = e;
}
fe_expr **fe_list_finish(fe_parser *p, fe_expr_list *l) {
  fe_expr **out = fe_parse_alloc(p, sizeof *out * (size_t)(l->n ? l->n : 1));
  memcpy(out, l->items, sizeof *out * (size_t)l->n);
  return out;
}

bool fe_tok_starts_expr(fe_tok_kind k) {
  switch (k) {
  case FE_TOK_NAME:
  case FE_TOK_INT:
  case FE_TOK_FLOAT:
  case FE_TOK_IMAG:
  case FE_TOK_STRING:
  case FE_TOK_FSTRING_START:
  case FE_TOK_LPAREN:
  case FE_TOK_LBRACKET:
  case FE_TOK_LBRACE:
  case FE_TOK_MINUS:
  case FE_TOK_PLUS:
  case FE_TOK_TILDE:
  case FE_TOK_KW_NOT:
  case FE_TOK_KW_NONE:
  case FE_TOK_KW_TRUE:
  case FE_TOK_KW_FALSE:
  case FE_TOK_KW_LAMBDA:
  case FE_TOK_ELLIPSIS:
  case FE_TOK_KW_AWAIT:
  case FE_TOK_KW_YIELD:
  case FE_TOK_STAR: return true;
  default: return false;
  }
}

static fe_expr *parse_expr(fe_parser *p);

/* subscript: test | [test] ':' [test] [':' [test]] */
static fe_expr *parse_subscript(fe_parser *p) {
  ir_loc loc = fe_peek(p)->loc;
  fe_expr *lo = NULL;
  if (fe_peek(p)->kind != FE_TOK_COLON) {
    lo = fe_parse_test(p);
    if (fe_peek(p)->kind != FE_TOK_COLON) return lo;
  }
  fe_next(p); /* ':' */
  fe_expr *s = fe_new_expr(p, FE_EX_SLICE, loc);
  s->a = lo;
  fe_tok_kind k = fe_peek(p)->kind;
  if (k != FE_TOK_COLON && k != FE_TOK_COMMA && k != FE_TOK_RBRACKET) s->b = fe_parse_test(p);
  if (fe_accept(p, FE_TOK_COLON)) {
    k = fe_peek(p)->kind;
    if (k != FE_TOK_COMMA && k != FE_TOK_RBRACKET) s->c = fe_parse_test(p);
  }
  return s;
}

/* trailer: '(' [arglist] ')'
 * arglist: argument (',' argument)* [',']
 * argument: test [comp_for] | NAME '=' test | '*' test | '**' test */
static fe_expr *parse_call(fe_parser *p, fe_expr *fn) {
  fe_expr *call = fe_new_expr(p, FE_EX_CALL, fn->loc);
  call->start = fn->start;
  call->a = fn;
  fe_next(p); /* '(' */
  fe_expr_list args, kwvals;
  fe_list_init(&args);
  fe_list_init(&kwvals);
  const char *kwnames[64];
  while (fe_peek(p)->kind != FE_TOK_RPAREN && fe_peek(p)->kind != FE_TOK_EOF) {
    const fe_token *t = fe_peek(p);
    if (t->kind == FE_TOK_STAR) {
      fe_next(p);
      fe_expr *st = fe_new_expr(p, FE_EX_STARRED, t->loc);
      st->a = fe_parse_test(p);
      if (kwvals.n > 0 && !kwnames[kwvals.n - 1] && kwvals.n < 64)
        fe_parse_error(p, t->loc, "iterable argument unpacking follows keyword argument unpacking");
      fe_list_push(p, &args, st);
    } else if (t->kind == FE_TOK_POW ||
               (t->kind == FE_TOK_NAME && fe_peek_at(p, 1)->kind == FE_TOK_ASSIGN)) {
      fe_next(p);
      const char *name = NULL;
      if (t->kind == FE_TOK_NAME) {
        fe_next(p);
        name = fe_parse_name(p, t);
      }
      fe_expr *v = fe_parse_test(p);
      if (kwvals.n == 64) {
        fe_parse_error(p, t->loc, "too many keyword arguments");
      } else {
        for (int i = 0; name && i < kwvals.n; i++)
          if (kwnames[i] == name)
            fe_parse_error(p, t->loc, "keyword argument repeated: '%s'", name);
        kwnames[kwvals.n] = name;
        fe_list_push(p, &kwvals, v);
      }
    } else {
      fe_expr *v = fe_parse_test(p);
      if (fe_peek(p)->kind == FE_TOK_WALRUS) {
        ir_loc wl = fe_next(p)->loc;
        fe_expr *w = fe_new_expr(p, FE_EX_WALRUS, wl);
        w->a = v;
        w->b = fe_parse_test(p);
        v = w;
      }
      if (fe_peek(p)->kind == FE_TOK_KW_FOR || fe_peek(p)->kind == FE_TOK_KW_ASYNC) {
        /* f(x for x in y): a generator as the only argument */
        fe_expr *g = fe_new_expr(p, FE_EX_COMP, v->start);
        g->ival = FE_COMP_GEN;
        g->a = v;
        fe_parse_comp_clauses(p, g);
        v = g;
      }
      if (kwvals.n > 0) fe_parse_error(p, v->loc, "positional argument follows keyword argument");
      fe_list_push(p, &args, v);
    }
    if (!fe_accept(p, FE_TOK_COMMA)) break;
  }
  fe_expect(p, FE_TOK_RPAREN, "')' after call arguments");
  call->n = args.n;
  call->items = fe_list_finish(p, &args);
  call->nkw = kwvals.n;
  call->kwvals = fe_list_finish(p, &kwvals);
  call->kwnames = fe_parse_alloc(p, sizeof(char *) * (size_t)(kwvals.n ? kwvals.n : 1));
  memcpy(call->kwnames, kwnames, sizeof(char *) * (size_t)kwvals.n);
  return call;
}

/* atom_expr: atom trailer*
 * trailer: '(' [arglist] ')' | '[' subscriptlist ']' | '.' NAME */
static fe_expr *parse_atom_expr(fe_parser *p) {
  if (fe_peek(p)->kind == FE_TOK_KW_AWAIT) {
    const fe_token *t = fe_next(p);
    fe_parse_error(p, t->loc, "unsupported: 'await'");
    return fe_new_expr(p, FE_EX_ERROR, t->loc);
  }
  fe_expr *e = fe_parse_atom(p);
  for (;;) {
    const fe_token *t = fe_peek(p);
    if (t->kind == FE_TOK_LPAREN) {
      e = parse_call(p, e);
    } else if (t->kind == FE_TOK_DOT) {
      fe_next(p);
      const fe_token *n = fe_peek(p);
      fe_expr *a = fe_new_expr(p, FE_EX_ATTR, e->loc);
      a->start = e->start;
      a->a = e;
      if (fe_expect(p, FE_TOK_NAME, "an attribute name after '.'"))
        a->name = fe_parse_name(p, n);
      else
        a->name = ir_intern_cstr(p->ctx, "?");
      e = a;
    } else if (t->kind == FE_TOK_LBRACKET) {
      /* subscriptlist: subscript (',' subscript)* [','] */
      fe_next(p);
      fe_expr_list idx;
      fe_list_init(&idx);
      bool had_comma = false;
      while (fe_peek(p)->kind != FE_TOK_RBRACKET && fe_peek(p)->kind != FE_TOK_EOF) {
        fe_list_push(p, &idx, parse_subscript(p));
        if (!fe_accept(p, FE_TOK_COMMA)) break;
        had_comma = true;
      }
      if (idx.n == 0) fe_parse_error(p, fe_peek(p)->loc, "expected an index, found ']'");
      fe_expect(p, FE_TOK_RBRACKET, "']' after subscript");
      fe_expr *s = fe_new_expr(p, FE_EX_SUBSCRIPT, e->loc);
      s->start = e->start;
      s->a = e;
      if (idx.n == 1 && !had_comma) {
        s->b = idx.items[0];
      } else {
        s->b = fe_new_expr(p, FE_EX_TUPLE, t->loc);
        s->b->n = idx.n;
        s->b->items = fe_list_finish(p, &idx);
      }
      e = s;
    } else {
      return e;
    }
  }
}

static fe_expr *make_binary(fe_parser *p, fe_op op, ir_loc loc, fe_expr *a, fe_expr *b) {
  fe_expr *e = fe_new_expr(p, FE_EX_BINARY, loc);
  e->op = op;
  e->a = a;
  e->b = b;
  e->start = a->start;
  return e;
}

static fe_expr *parse_factor(fe_parser *p);

/* Guards the parser's recursion (unary operators, `not`, nested tests):
 * false, with an error, once FE_MAX_EXPR_DEPTH levels are open. A caller
 * that got true calls parse_leave when done. */
bool fe_parse_enter(fe_parser *p, ir_loc loc) {
  if (p->depth >= FE_MAX_EXPR_DEPTH) {
    fe_parse_error(p, loc, "expression nested too deeply (more than %d levels)", FE_MAX_EXPR_DEPTH);
    return false;
  }
  p->depth++;
  return true;
}
void fe_parse_leave(fe_parser *p) { p->depth--; }

/* Depth of the tree at e, counted up to `limit` + 1 and no further, so the
 * walk itself recurses at most that deep. */
static int expr_depth(const fe_expr *e, int limit) {
  if (!e) return 0;
  if (limit <= 0) return 1;
  int d = 0, k;
  const fe_expr *kids[3] = {e->a, e->b, e->c};
  for (int i = 0; i < 3 && d <= limit; i++)
    if ((k = expr_depth(kids[i], limit - 1)) > d) d = k;
  for (int i = 0; e->items && i < e->n && d <= limit; i++)
    if ((k = expr_depth(e->items[i], limit - 1)) > d) d = k;
  for (int i = 0; e->kwvals && i < e->nkw && d <= limit; i++)
    if ((k = expr_depth(e->kwvals[i], limit - 1)) > d) d = k;
  return d + 1;
}

/* A whole expression: left-nested chains (a+b+..., x.a.b..., f()()...) are
 * built by loops, not recursion, but lowering them recurses; too deep a
 * tree is an error here instead of a stack overflow there. */
static fe_expr *check_depth(fe_parser *p, fe_expr *e) {
  if (p->depth == 0 && expr_depth(e, FE_MAX_EXPR_DEPTH) > FE_MAX_EXPR_DEPTH) {
    fe_parse_error(p, e->start.src ? e->start : e->loc,
                   "expression nested too deeply (more than %d levels)", FE_MAX_EXPR_DEPTH);
    return fe_new_expr(p, FE_EX_ERROR, e->loc);
  }
  return e;
}

/* power: atom_expr ['**' factor] */
static fe_expr *parse_power(fe_parser *p) {
  fe_expr *e = parse_atom_expr(p);
  if (fe_peek(p)->kind == FE_TOK_POW) {
    /* right-associative: a ** b ** c recurses once per operator */
    ir_loc loc = fe_next(p)->loc;
    if (!fe_parse_enter(p, loc)) return fe_new_expr(p, FE_EX_ERROR, loc);
    e = make_binary(p, FE_OP_POW, loc, e, parse_factor(p));
    fe_parse_leave(p);
  }
  return e;
}

/* factor: ('+'|'-'|'~') factor | power */
static fe_expr *parse_factor(fe_parser *p) {
  const fe_token *t = fe_peek(p);
  fe_op op;
  if (t->kind == FE_TOK_MINUS)
    op = FE_OP_NEG;
  else if (t->kind == FE_TOK_PLUS)
    op = FE_OP_POS;
  else if (t->kind == FE_TOK_TILDE)
    op = FE_OP_INVERT;
  else
    return parse_power(p);
  if (!fe_parse_enter(p, t->loc)) return fe_new_expr(p, FE_EX_ERROR, t->loc);
  fe_next(p);
  fe_expr *e = fe_new_expr(p, FE_EX_UNARY, t->loc);
  e->op = op;
  e->a = parse_factor(p);
  fe_parse_leave(p);
  return e;
}

/* One level of left-associative binary operators. */
typedef struct binlevel {
  fe_tok_kind tok;
  fe_op op;
} binlevel;

static fe_expr *parse_binary_level(fe_parser *p, int level);

/* term: factor (('*'|'@'|'/'|'%'|'//') factor)*
 * arith_expr: term (('+'|'-') term)*
 * shift_expr: arith_expr (('<<'|'>>') arith_expr)*
 * and_expr: shift_expr ('&' shift_expr)*
 * xor_expr: and_expr ('^' and_expr)*
 * expr: xor_expr ('|' xor_expr)*
 * Level 0 is `expr`, level 5 is `term`. */
static fe_expr *parse_binary_level(fe_parser *p, int level) {
  static const binlevel levels[6][5] = {
      {{FE_TOK_PIPE, FE_OP_BITOR}},
      {{FE_TOK_CARET, FE_OP_BITXOR}},
      {{FE_TOK_AMP, FE_OP_BITAND}},
      {{FE_TOK_SHL, FE_OP_SHL}, {FE_TOK_SHR, FE_OP_SHR}},
      {{FE_TOK_PLUS, FE_OP_ADD}, {FE_TOK_MINUS, FE_OP_SUB}},
      {{FE_TOK_STAR, FE_OP_MUL},
       {FE_TOK_AT, FE_OP_MATMUL},
       {FE_TOK_SLASH, FE_OP_DIV},
       {FE_TOK_PERCENT, FE_OP_MOD},
       {FE_TOK_FLOORDIV, FE_OP_FLOORDIV}},
  };
  fe_expr *e = level == 5 ? parse_factor(p) : parse_binary_level(p, level + 1);
  for (;;) {
    const fe_token *t = fe_peek(p);
    int found = -1;
    for (int i = 0; i < 5; i++)
      if (levels[level][i].tok == t->kind && t->kind != FE_TOK_EOF) found = i;
    if (found < 0) return e;
    fe_next(p);
    fe_expr *rhs = level == 5 ? parse_factor(p) : parse_binary_level(p, level + 1);
    e = make_binary(p, levels[level][found].op, t->loc, e, rhs);
  }
}

static fe_expr *parse_expr(fe_parser *p) { return parse_binary_level(p, 0); }

/* comparison: expr (comp_op expr)*
 * comp_op: '<'|'>'|'=='|'>='|'<='|'!='|'in'|'not' 'in'|'is'|'is' 'not' */
static fe_expr *parse_comparison(fe_parser *p) {
  fe_expr *first = parse_expr(p);
  fe_expr_list operands;
  fe_list_init(&operands);
  fe_op ops[64];
  ir_loc loc = first->loc;
  for (;;) {
    const fe_token *t = fe_peek(p);
    fe_op op;
    switch (t->kind) {
    case FE_TOK_LT: op = FE_OP_LT; break;
    case FE_TOK_GT: op = FE_OP_GT; break;
    case FE_TOK_EQEQ: op = FE_OP_EQ; break;
    case FE_TOK_GE: op = FE_OP_GE; break;
    case FE_TOK_LE: op = FE_OP_LE; break;
    case FE_TOK_NE: op = FE_OP_NE; break;
    case FE_TOK_KW_IN: op = FE_OP_IN; break;
    case FE_TOK_KW_IS: op = fe_peek_at(p, 1)->kind == FE_TOK_KW_NOT ? FE_OP_ISNOT : FE_OP_IS; break;
    case FE_TOK_KW_NOT:
      if (fe_peek_at(p, 1)->kind != FE_TOK_KW_IN) goto done;
      op = FE_OP_NOTIN;
      break;
    default: goto done;
    }
    fe_next(p);
    if (op == FE_OP_ISNOT || op == FE_OP_NOTIN) fe_next(p);
    if (operands.n == 0) {
      fe_list_push(p, &operands, first);
      loc = t->loc;
    }
    if (operands.n > 63) {
      fe_parse_error(p, t->loc, "comparison chain too long");
      break;
    }
    ops[operands.n - 1] = op;
    fe_list_push(p, &operands, parse_expr(p));
  }
done:
  if (operands.n == 0) return first;
  fe_expr *e = fe_new_expr(p, FE_EX_COMPARE, loc);
  e->start = first->start;
  e->n = operands.n;
  e->items = fe_list_finish(p, &operands);
  e->cmpops = fe_parse_alloc(p, sizeof(fe_op) * (size_t)(operands.n - 1));
  memcpy(e->cmpops, ops, sizeof(fe_op) * (size_t)(operands.n - 1));
  return e;
}

/* not_test: 'not' not_test | comparison */
static fe_expr *parse_not_test(fe_parser *p) {
  const fe_token *t = fe_peek(p);
  if (t->kind != FE_TOK_KW_NOT) return parse_comparison(p);
  if (!fe_parse_enter(p, t->loc)) return fe_new_expr(p, FE_EX_ERROR, t->loc);
  fe_next(p);
  fe_expr *e = fe_new_expr(p, FE_EX_UNARY, t->loc);
  e->op = FE_OP_NOT;
  e->a = parse_not_test(p);
  fe_parse_leave(p);
  return e;
}

/* and_test: not_test ('and' not_test)* */
static fe_expr *parse_and_test(fe_parser *p) {
  fe_expr *e = parse_not_test(p);
  while (fe_peek(p)->kind == FE_TOK_KW_AND) {
    ir_loc loc = fe_next(p)->loc;
    e = make_binary(p, FE_OP_AND, loc, e, parse_not_test(p));
  }
  return e;
}

/* or_test: and_test ('or' and_test)* */
static fe_expr *parse_or_test(fe_parser *p) {
  fe_expr *e = parse_and_test(p);
  while (fe_peek(p)->kind == FE_TOK_KW_OR) {
    ir_loc loc = fe_next(p)->loc;
    e = make_binary(p, FE_OP_OR, loc, e, parse_and_test(p));
  }
  return e;
}

/* lambdef: 'lambda' [parameters] ':' test -> a function whose body returns
 * the test (lambdas appear in decorator arguments: @triton.heuristics). */
static fe_expr *parse_lambda(fe_parser *p) {
  ir_loc loc = fe_next(p)->loc;
  fe_func *fn = fe_parse_alloc(p, sizeof *fn);
  fn->loc = loc;
  fn->name = ir_intern_cstr(p->ctx, "<lambda>");
  fn->is_lambda = true;
  fe_parse_params(p, fn, FE_TOK_COLON);
  fe_expect(p, FE_TOK_COLON, "':' after lambda parameters");
  fe_stmt *ret = fe_parse_alloc(p, sizeof *ret);
  ret->kind = FE_ST_RETURN;
  ret->loc = fe_peek(p)->loc;
  ret->value = fe_parse_test(p);
  fn->body.n = 1;
  fn->body.stmts = fe_parse_alloc(p, sizeof(fe_stmt *));
  fn->body.stmts[0] = ret;
  fe_expr *e = fe_new_expr(p, FE_EX_LAMBDA, loc);
  e->fn = fn;
  return e;
}

static fe_expr *parse_test(fe_parser *p);

fe_expr *fe_parse_or_test(fe_parser *p) {
  ir_loc loc = fe_peek(p)->loc;
  if (!fe_parse_enter(p, loc)) return fe_new_expr(p, FE_EX_ERROR, loc);
  fe_expr *e = parse_or_test(p);
  fe_parse_leave(p);
  return e;
}

/* Every nested test (parentheses, call arguments, lambda bodies, the else
 * of a conditional) comes through here: the recursion guard and, for the
 * outermost, the depth of the finished tree. */
fe_expr *fe_parse_test(fe_parser *p) {
  ir_loc loc = fe_peek(p)->loc;
  if (!fe_parse_enter(p, loc)) return fe_new_expr(p, FE_EX_ERROR, loc);
  fe_expr *e = parse_test(p);
  fe_parse_leave(p);
  return check_depth(p, e);
}

/* test: or_test ['if' or_test 'else' test] */
static fe_expr *parse_test(fe_parser *p) {
  if (fe_peek(p)->kind == FE_TOK_KW_LAMBDA) return parse_lambda(p);
  fe_expr *e = parse_or_test(p);
  if (fe_peek(p)->kind != FE_TOK_KW_IF) return e;
  fe_next(p);
  fe_expr *x = fe_new_expr(p, FE_EX_IFEXP, e->loc);
  x->start = e->start;
  x->a = e;
  x->b = parse_or_test(p);
  fe_expect(p, FE_TOK_KW_ELSE, "'else' in conditional expression");
  x->c = fe_parse_test(p);
  return x;
}

fe_expr *fe_parse_star_test(fe_parser *p) {
  if (fe_peek(p)->kind != FE_TOK_STAR) return fe_parse_test(p);
  ir_loc loc = fe_next(p)->loc;
  fe_expr *e = fe_new_expr(p, FE_EX_STARRED, loc);
  e->a = check_depth(p, parse_expr(p));
  return e;
}

/* testlist: (test | star_expr) (',' (test | star_expr))* [','] */
fe_expr *fe_parse_testlist(fe_parser *p) {
  fe_expr *first = fe_parse_star_test(p);
  if (fe_peek(p)->kind != FE_TOK_COMMA) return first;
  fe_expr_list items;
  fe_list_init(&items);
  fe_list_push(p, &items, first);
  while (fe_accept(p, FE_TOK_COMMA)) {
    if (!fe_tok_starts_expr(fe_peek(p)->kind)) break;
    fe_list_push(p, &items, fe_parse_star_test(p));
  }
  fe_expr *t = fe_new_expr(p, FE_EX_TUPLE, first->loc);
  t->start = first->start;
  t->n = items.n;
  t->items = fe_list_finish(p, &items);
  return t;
}

/* exprlist: expr (',' expr)* [','] -- for-loop targets, where `in` must not
 * be taken as a comparison. */
fe_expr *fe_parse_exprlist(fe_parser *p) {
  fe_expr *first = check_depth(p, parse_expr(p));
  if (fe_peek(p)->kind != FE_TOK_COMMA) return first;
  fe_expr_list items;
  fe_list_init(&items);
  fe_list_push(p, &items, first);
  while (fe_accept(p, FE_TOK_COMMA)) {
    if (fe_peek(p)->kind == FE_TOK_KW_IN) break;
    fe_list_push(p, &items, check_depth(p, parse_expr(p)));
  }
  fe_expr *t = fe_new_expr(p, FE_EX_TUPLE, first->loc);
  t->start = first->start;
  t->n = items.n;
  t->items = fe_list_finish(p, &items);
  return t;
}
