/* parse_expr.c - recursive-descent parser for Python expressions, with
 * Python's precedence; each function carries its grammar rule.
 *
 * Constructs outside the kernel language (lambda, comprehensions, dicts, sets,
 * starred arguments, ':=') are reported as located "unsupported" errors and
 * parsed past so that the statement-level recovery stays in sync. */
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
  fe_expr *e = ir_arena_alloc(p->arena, sizeof *e);
  if (!e) IR_UNREACHABLE("out of memory in the parser");
  e->kind = kind;
  e->loc = loc;
  e->start = loc;
  return e;
}

/* A growable list of expressions built in the arena (copied on finish). */
typedef struct expr_list {
  fe_expr *inline_items[16];
  fe_expr **items;
  int n, cap;
} expr_list;

static void list_init(expr_list *l) {
  l->items = l->inline_items;
  l->n = 0;
  l->cap = 16;
}
static void list_push(fe_parser *p, expr_list *l, fe_expr *e) {
  if (l->n == l->cap) {
    fe_expr **ni = ir_arena_alloc(p->arena, sizeof *ni * (size_t)l->cap * 2);
    if (!ni) IR_UNREACHABLE("out of memory in the parser");
    memcpy(ni, l->items, sizeof *ni * (size_t)l->n);
    l->items = ni;
    l->cap *= 2;
  }
  l->items[l->n++] = e;
}
static fe_expr **list_finish(fe_parser *p, expr_list *l) {
  fe_expr **out = ir_arena_alloc(p->arena, sizeof *out * (size_t)(l->n ? l->n : 1));
  if (!out) IR_UNREACHABLE("out of memory in the parser");
  memcpy(out, l->items, sizeof *out * (size_t)l->n);
  return out;
}

bool fe_tok_starts_expr(fe_tok_kind k) {
  switch (k) {
  case FE_TOK_NAME: case FE_TOK_INT: case FE_TOK_FLOAT: case FE_TOK_STRING:
  case FE_TOK_LPAREN: case FE_TOK_LBRACKET: case FE_TOK_LBRACE: case FE_TOK_MINUS:
  case FE_TOK_PLUS: case FE_TOK_TILDE: case FE_TOK_KW_NOT: case FE_TOK_KW_NONE:
  case FE_TOK_KW_TRUE: case FE_TOK_KW_FALSE: case FE_TOK_KW_LAMBDA: case FE_TOK_ELLIPSIS:
  case FE_TOK_KW_AWAIT: case FE_TOK_KW_YIELD:
    return true;
  default:
    return false;
  }
}

/* Reports a comprehension if one starts here, and skips to the closing
 * bracket `close` so that parsing can continue. */
static bool parse_reject_comprehension(fe_parser *p, fe_tok_kind close) {
  if (fe_peek(p)->kind != FE_TOK_KW_FOR && fe_peek(p)->kind != FE_TOK_KW_ASYNC) return false;
  fe_parse_error(p, fe_peek(p)->loc, "unsupported: comprehension");
  int depth = 0;
  while (fe_peek(p)->kind != FE_TOK_EOF && fe_peek(p)->kind != FE_TOK_NEWLINE) {
    fe_tok_kind k = fe_peek(p)->kind;
    if (k == FE_TOK_LPAREN || k == FE_TOK_LBRACKET || k == FE_TOK_LBRACE) depth++;
    if (k == FE_TOK_RPAREN || k == FE_TOK_RBRACKET || k == FE_TOK_RBRACE) {
      if (depth == 0 && k == close) break;
      depth--;
    }
    fe_next(p);
  }
  return true;
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
 * argument: test | NAME '=' test */
static fe_expr *parse_call(fe_parser *p, fe_expr *fn) {
  fe_expr *call = fe_new_expr(p, FE_EX_CALL, fn->loc);
  call->start = fn->start;
  call->a = fn;
  fe_next(p); /* '(' */
  expr_list args, kwvals;
  list_init(&args);
  list_init(&kwvals);
  const char *kwnames[64];
  while (fe_peek(p)->kind != FE_TOK_RPAREN && fe_peek(p)->kind != FE_TOK_EOF) {
    const fe_token *t = fe_peek(p);
    if (t->kind == FE_TOK_STAR || t->kind == FE_TOK_POW) {
      fe_parse_error(p, t->loc, "unsupported: '%s' argument unpacking",
                     t->kind == FE_TOK_STAR ? "*" : "**");
      fe_next(p);
      (void)fe_parse_test(p);
    } else if (t->kind == FE_TOK_NAME && fe_peek_at(p, 1)->kind == FE_TOK_ASSIGN) {
      fe_next(p);
      fe_next(p);
      fe_expr *v = fe_parse_test(p);
      if (kwvals.n == 64) {
        fe_parse_error(p, t->loc, "too many keyword arguments");
      } else {
        for (int i = 0; i < kwvals.n; i++)
          if (kwnames[i] == t->text)
            fe_parse_error(p, t->loc, "keyword argument repeated: '%s'", t->text);
        kwnames[kwvals.n] = t->text;
        list_push(p, &kwvals, v);
      }
    } else {
      fe_expr *v = fe_parse_test(p);
      if (parse_reject_comprehension(p, FE_TOK_RPAREN)) break;
      if (kwvals.n > 0)
        fe_parse_error(p, v->loc, "positional argument follows keyword argument");
      list_push(p, &args, v);
    }
    if (!fe_accept(p, FE_TOK_COMMA)) break;
  }
  fe_expect(p, FE_TOK_RPAREN, "')' after call arguments");
  call->n = args.n;
  call->items = list_finish(p, &args);
  call->nkw = kwvals.n;
  call->kwvals = list_finish(p, &kwvals);
  call->kwnames = ir_arena_alloc(p->arena, sizeof(char *) * (size_t)(kwvals.n ? kwvals.n : 1));
  if (!call->kwnames) IR_UNREACHABLE("out of memory in the parser");
  memcpy(call->kwnames, kwnames, sizeof(char *) * (size_t)kwvals.n);
  return call;
}

/* Parses a parenthesized or bracketed element list after the opener:
 * testlist_comp: test (',' test)* [',']. Sets *had_comma. */
static fe_expr *parse_elements(fe_parser *p, fe_expr_kind kind, ir_loc loc, fe_tok_kind close,
                               bool *had_comma) {
  expr_list items;
  list_init(&items);
  *had_comma = false;
  while (fe_peek(p)->kind != close && fe_peek(p)->kind != FE_TOK_EOF) {
    if (fe_peek(p)->kind == FE_TOK_STAR) {
      fe_parse_error(p, fe_peek(p)->loc, "unsupported: starred expression");
      fe_next(p);
    }
    fe_expr *e = fe_parse_test(p);
    if (fe_peek(p)->kind == FE_TOK_WALRUS) {
      fe_parse_error(p, fe_peek(p)->loc, "unsupported: assignment expression ':='");
      fe_next(p);
      e = fe_parse_test(p);
    }
    list_push(p, &items, e);
    if (parse_reject_comprehension(p, close)) break;
    if (!fe_accept(p, FE_TOK_COMMA)) break;
    *had_comma = true;
  }
  fe_expect(p, close, close == FE_TOK_RPAREN ? "')'" : close == FE_TOK_RBRACKET ? "']'" : "'}'");
  fe_expr *e = fe_new_expr(p, kind, loc);
  e->n = items.n;
  e->items = list_finish(p, &items);
  return e;
}

/* dictmaker: '{' [test ':' test (',' test ':' test)* [',']] '}'
 * Dicts appear in decorator arguments (@triton.autotune configs), which are
 * parsed but never lowered; set displays are not supported. */
static fe_expr *parse_dict(fe_parser *p, ir_loc loc) {
  expr_list items;
  list_init(&items);
  while (fe_peek(p)->kind != FE_TOK_RBRACE && fe_peek(p)->kind != FE_TOK_EOF) {
    fe_expr *k = fe_parse_test(p);
    if (!fe_accept(p, FE_TOK_COLON)) {
      fe_parse_error(p, fe_peek(p)->loc, "unsupported: set display");
      break;
    }
    list_push(p, &items, k);
    list_push(p, &items, fe_parse_test(p));
    if (!fe_accept(p, FE_TOK_COMMA)) break;
  }
  fe_expect(p, FE_TOK_RBRACE, "'}'");
  fe_expr *e = fe_new_expr(p, FE_EX_DICT, loc);
  e->n = items.n;
  e->items = list_finish(p, &items);
  return e;
}

/* atom: '(' [testlist_comp] ')' | '[' [testlist_comp] ']' | NAME | NUMBER
 *     | STRING+ | '...' | 'None' | 'True' | 'False' */
static fe_expr *parse_atom(fe_parser *p) {
  const fe_token *t = fe_peek(p);
  fe_expr *e;
  bool had_comma;
  switch (t->kind) {
  case FE_TOK_NAME:
    fe_next(p);
    e = fe_new_expr(p, FE_EX_NAME, t->loc);
    e->name = t->text;
    return e;
  case FE_TOK_INT:
    fe_next(p);
    e = fe_new_expr(p, FE_EX_INT, t->loc);
    e->ival = t->ival;
    return e;
  case FE_TOK_FLOAT:
    fe_next(p);
    e = fe_new_expr(p, FE_EX_FLOAT, t->loc);
    e->fval = t->fval;
    return e;
  case FE_TOK_STRING: {
    /* Adjacent literals concatenate. */
    e = fe_new_expr(p, FE_EX_STR, t->loc);
    ir_strbuf sb;
    ir_sb_init(&sb);
    while (fe_peek(p)->kind == FE_TOK_STRING) {
      const fe_token *s = fe_next(p);
      ir_sb_append(&sb, s->text, s->len);
    }
    e->slen = sb.len;
    e->str = ir_arena_strdup(p->arena, sb.data ? sb.data : "", sb.len);
    ir_sb_free(&sb);
    return e;
  }
  case FE_TOK_KW_NONE: fe_next(p); return fe_new_expr(p, FE_EX_NONE, t->loc);
  case FE_TOK_KW_TRUE: fe_next(p); return fe_new_expr(p, FE_EX_TRUE, t->loc);
  case FE_TOK_KW_FALSE: fe_next(p); return fe_new_expr(p, FE_EX_FALSE, t->loc);
  case FE_TOK_ELLIPSIS: fe_next(p); return fe_new_expr(p, FE_EX_ELLIPSIS, t->loc);
  case FE_TOK_LPAREN:
    fe_next(p);
    e = parse_elements(p, FE_EX_TUPLE, t->loc, FE_TOK_RPAREN, &had_comma);
    if (e->n == 1 && !had_comma) return e->items[0]; /* parenthesized expression */
    return e;
  case FE_TOK_LBRACKET:
    fe_next(p);
    return parse_elements(p, FE_EX_LIST, t->loc, FE_TOK_RBRACKET, &had_comma);
  case FE_TOK_LBRACE:
    fe_next(p);
    return parse_dict(p, t->loc);
  case FE_TOK_KW_LAMBDA:
    fe_parse_error(p, t->loc, "unsupported: lambda");
    return fe_new_expr(p, FE_EX_ERROR, t->loc);
  case FE_TOK_KW_YIELD:
  case FE_TOK_KW_AWAIT:
    fe_parse_error(p, t->loc, "unsupported: '%s'", t->text);
    return fe_new_expr(p, FE_EX_ERROR, t->loc);
  default:
    fe_parse_error(p, t->loc, "expected an expression, found %s", fe_tok_desc(p, t));
    return fe_new_expr(p, FE_EX_ERROR, t->loc);
  }
}

/* atom_expr: atom trailer*
 * trailer: '(' [arglist] ')' | '[' subscriptlist ']' | '.' NAME */
static fe_expr *parse_atom_expr(fe_parser *p) {
  fe_expr *e = parse_atom(p);
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
      if (fe_expect(p, FE_TOK_NAME, "an attribute name after '.'")) a->name = n->text;
      else a->name = ir_intern_cstr(p->ctx, "?");
      e = a;
    } else if (t->kind == FE_TOK_LBRACKET) {
      /* subscriptlist: subscript (',' subscript)* [','] */
      fe_next(p);
      expr_list idx;
      list_init(&idx);
      bool had_comma = false;
      while (fe_peek(p)->kind != FE_TOK_RBRACKET && fe_peek(p)->kind != FE_TOK_EOF) {
        list_push(p, &idx, parse_subscript(p));
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
        s->b->items = list_finish(p, &idx);
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
static bool parse_enter(fe_parser *p, ir_loc loc) {
  if (p->depth >= FE_MAX_EXPR_DEPTH) {
    fe_parse_error(p, loc, "expression nested too deeply (more than %d levels)",
                   FE_MAX_EXPR_DEPTH);
    return false;
  }
  p->depth++;
  return true;
}
static void parse_leave(fe_parser *p) { p->depth--; }

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
    ir_loc loc = fe_next(p)->loc;
    e = make_binary(p, FE_OP_POW, loc, e, parse_factor(p));
  }
  return e;
}

/* factor: ('+'|'-'|'~') factor | power */
static fe_expr *parse_factor(fe_parser *p) {
  const fe_token *t = fe_peek(p);
  fe_op op;
  if (t->kind == FE_TOK_MINUS) op = FE_OP_NEG;
  else if (t->kind == FE_TOK_PLUS) op = FE_OP_POS;
  else if (t->kind == FE_TOK_TILDE) op = FE_OP_INVERT;
  else return parse_power(p);
  if (!parse_enter(p, t->loc)) return fe_new_expr(p, FE_EX_ERROR, t->loc);
  fe_next(p);
  fe_expr *e = fe_new_expr(p, FE_EX_UNARY, t->loc);
  e->op = op;
  e->a = parse_factor(p);
  parse_leave(p);
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
  expr_list operands;
  list_init(&operands);
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
    case FE_TOK_KW_IS:
      op = fe_peek_at(p, 1)->kind == FE_TOK_KW_NOT ? FE_OP_ISNOT : FE_OP_IS;
      break;
    case FE_TOK_KW_NOT:
      if (fe_peek_at(p, 1)->kind != FE_TOK_KW_IN) goto done;
      op = FE_OP_NOTIN;
      break;
    default:
      goto done;
    }
    fe_next(p);
    if (op == FE_OP_ISNOT || op == FE_OP_NOTIN) fe_next(p);
    if (operands.n == 0) {
      list_push(p, &operands, first);
      loc = t->loc;
    }
    if (operands.n > 63) {
      fe_parse_error(p, t->loc, "comparison chain too long");
      break;
    }
    ops[operands.n - 1] = op;
    list_push(p, &operands, parse_expr(p));
  }
done:
  if (operands.n == 0) return first;
  fe_expr *e = fe_new_expr(p, FE_EX_COMPARE, loc);
  e->start = first->start;
  e->n = operands.n;
  e->items = list_finish(p, &operands);
  e->cmpops = ir_arena_alloc(p->arena, sizeof(fe_op) * (size_t)(operands.n - 1));
  if (!e->cmpops) IR_UNREACHABLE("out of memory in the parser");
  memcpy(e->cmpops, ops, sizeof(fe_op) * (size_t)(operands.n - 1));
  return e;
}

/* not_test: 'not' not_test | comparison */
static fe_expr *parse_not_test(fe_parser *p) {
  const fe_token *t = fe_peek(p);
  if (t->kind != FE_TOK_KW_NOT) return parse_comparison(p);
  if (!parse_enter(p, t->loc)) return fe_new_expr(p, FE_EX_ERROR, t->loc);
  fe_next(p);
  fe_expr *e = fe_new_expr(p, FE_EX_UNARY, t->loc);
  e->op = FE_OP_NOT;
  e->a = parse_not_test(p);
  parse_leave(p);
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

/* lambdef: 'lambda' [NAME (',' NAME)*] ':' test
 * Lambdas appear in decorator arguments (@triton.heuristics), which are
 * parsed but never lowered; the lowering rejects one in a kernel. */
static fe_expr *parse_lambda(fe_parser *p) {
  ir_loc loc = fe_peek(p)->loc;
  fe_next(p);
  while (fe_peek(p)->kind == FE_TOK_NAME) {
    fe_next(p);
    if (!fe_accept(p, FE_TOK_COMMA)) break;
  }
  fe_expect(p, FE_TOK_COLON, "':' after lambda parameters");
  fe_expr *e = fe_new_expr(p, FE_EX_LAMBDA, loc);
  e->a = fe_parse_test(p);
  return e;
}

static fe_expr *parse_test(fe_parser *p);

/* Every nested test (parentheses, call arguments, lambda bodies, the else
 * of a conditional) comes through here: the recursion guard and, for the
 * outermost, the depth of the finished tree. */
fe_expr *fe_parse_test(fe_parser *p) {
  ir_loc loc = fe_peek(p)->loc;
  if (!parse_enter(p, loc)) return fe_new_expr(p, FE_EX_ERROR, loc);
  fe_expr *e = parse_test(p);
  parse_leave(p);
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

/* testlist: test (',' test)* [','] */
fe_expr *fe_parse_testlist(fe_parser *p) {
  fe_expr *first = fe_parse_test(p);
  if (fe_peek(p)->kind != FE_TOK_COMMA) return first;
  expr_list items;
  list_init(&items);
  list_push(p, &items, first);
  while (fe_accept(p, FE_TOK_COMMA)) {
    if (!fe_tok_starts_expr(fe_peek(p)->kind)) break;
    list_push(p, &items, fe_parse_test(p));
  }
  fe_expr *t = fe_new_expr(p, FE_EX_TUPLE, first->loc);
  t->n = items.n;
  t->items = list_finish(p, &items);
  return t;
}

/* exprlist: expr (',' expr)* [','] -- for-loop targets, where `in` must not
 * be taken as a comparison. */
fe_expr *fe_parse_exprlist(fe_parser *p) {
  fe_expr *first = check_depth(p, parse_expr(p));
  if (fe_peek(p)->kind != FE_TOK_COMMA) return first;
  expr_list items;
  list_init(&items);
  list_push(p, &items, first);
  while (fe_accept(p, FE_TOK_COMMA)) {
    if (fe_peek(p)->kind == FE_TOK_KW_IN) break;
    list_push(p, &items, check_depth(p, parse_expr(p)));
  }
  fe_expr *t = fe_new_expr(p, FE_EX_TUPLE, first->loc);
  t->n = items.n;
  t->items = list_finish(p, &items);
  return t;
}
