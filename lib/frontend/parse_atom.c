/* parse_atom.c - atoms of Python expressions: names, numbers, strings and
 * f-strings (adjacent literals concatenate), parenthesized expressions,
 * tuple / list / set / dict displays, comprehensions and generator
 * expressions. Each function carries its grammar rule. */
#include <string.h>

#include "frontend/fe.h"

/* comp_for: ['async'] 'for' exprlist 'in' or_test (comp_for | comp_if)*
 * comp_if: 'if' or_test */
void fe_parse_comp_clauses(fe_parser *p, fe_expr *e) {
  fe_expr_list clauses;
  fe_list_init(&clauses);
  while (fe_peek(p)->kind == FE_TOK_KW_FOR || fe_peek(p)->kind == FE_TOK_KW_ASYNC) {
    if (fe_accept(p, FE_TOK_KW_ASYNC))
      fe_parse_error(p, fe_peek(p)->loc, "unsupported: asynchronous comprehension");
    const fe_token *t = fe_next(p);
    if (t->kind != FE_TOK_KW_FOR) break;
    fe_expr *c = fe_new_expr(p, FE_EX_COMP_FOR, t->loc);
    c->a = fe_parse_exprlist(p);
    if (!fe_expect(p, FE_TOK_KW_IN, "'in' in a comprehension")) break;
    c->b = fe_parse_or_test(p);
    fe_expr_list conds;
    fe_list_init(&conds);
    while (fe_accept(p, FE_TOK_KW_IF))
      fe_list_push(p, &conds, fe_parse_or_test(p));
    c->n = conds.n;
    c->items = fe_list_finish(p, &conds);
    fe_list_push(p, &clauses, c);
  }
  e->n = clauses.n;
  e->items = fe_list_finish(p, &clauses);
}

/* namedexpr_test: test [':=' test] | star_expr */
static fe_expr *parse_element(fe_parser *p) {
  fe_expr *e = fe_parse_star_test(p);
  if (fe_peek(p)->kind != FE_TOK_WALRUS) return e;
  ir_loc loc = fe_next(p)->loc;
  if (e->kind != FE_EX_NAME)
    fe_parse_error(p, e->loc, "cannot use assignment expressions with this target");
  fe_expr *w = fe_new_expr(p, FE_EX_WALRUS, loc);
  w->start = e->start;
  w->a = e;
  w->b = fe_parse_test(p);
  return w;
}

static const char *closer_name(fe_tok_kind close) {
  return close == FE_TOK_RPAREN ? "')'" : close == FE_TOK_RBRACKET ? "']'" : "'}'";
}

/* A comprehension `kind` of element `elem` (already parsed), up to `close`. */
static fe_expr *finish_comp(fe_parser *p, int kind, ir_loc loc, fe_expr *elem, fe_expr *val,
                            fe_tok_kind close) {
  fe_expr *c = fe_new_expr(p, FE_EX_COMP, loc);
  c->ival = (uint64_t)kind;
  c->a = elem;
  c->b = val;
  fe_parse_comp_clauses(p, c);
  fe_expect(p, close, closer_name(close));
  return c;
}

/* Elements after an opener up to `close`: testlist_comp. Sets *had_comma. */
static fe_expr *parse_elements(fe_parser *p, fe_expr_kind kind, ir_loc loc, fe_tok_kind close,
                               bool *had_comma) {
  fe_expr_list items;
  fe_list_init(&items);
  *had_comma = false;
  while (fe_peek(p)->kind != close && fe_peek(p)->kind != FE_TOK_EOF) {
    fe_expr *e = parse_element(p);
    if (items.n == 0 &&
        (fe_peek(p)->kind == FE_TOK_KW_FOR || fe_peek(p)->kind == FE_TOK_KW_ASYNC)) {
      int ck = kind == FE_EX_LIST ? FE_COMP_LIST : kind == FE_EX_SET ? FE_COMP_SET : FE_COMP_GEN;
      return finish_comp(p, ck, loc, e, NULL, close);
    }
    fe_list_push(p, &items, e);
    if (!fe_accept(p, FE_TOK_COMMA)) break;
    *had_comma = true;
  }
  fe_expect(p, close, closer_name(close));
  fe_expr *e = fe_new_expr(p, kind, loc);
  e->n = items.n;
  e->items = fe_list_finish(p, &items);
  return e;
}

/* dictorsetmaker: '{' ['}' | (test ':' test | '**' expr) (comp_for | (',' ...)* [','])
 *                 | (test | star_expr) (comp_for | (',' ...)* [','])] '}' */
static fe_expr *parse_braces(fe_parser *p, ir_loc loc) {
  if (fe_accept(p, FE_TOK_RBRACE)) return fe_new_expr(p, FE_EX_DICT, loc);
  bool is_dict = fe_peek(p)->kind == FE_TOK_POW;
  fe_expr *first = NULL;
  if (!is_dict) {
    first = parse_element(p);
    is_dict = fe_peek(p)->kind == FE_TOK_COLON;
  }
  if (!is_dict) {
    if (fe_peek(p)->kind == FE_TOK_KW_FOR || fe_peek(p)->kind == FE_TOK_KW_ASYNC)
      return finish_comp(p, FE_COMP_SET, loc, first, NULL, FE_TOK_RBRACE);
    fe_expr_list items;
    fe_list_init(&items);
    fe_list_push(p, &items, first);
    while (fe_accept(p, FE_TOK_COMMA) && fe_peek(p)->kind != FE_TOK_RBRACE)
      fe_list_push(p, &items, parse_element(p));
    fe_expect(p, FE_TOK_RBRACE, "'}'");
    fe_expr *e = fe_new_expr(p, FE_EX_SET, loc);
    e->n = items.n;
    e->items = fe_list_finish(p, &items);
    return e;
  }
  fe_expr_list items;
  fe_list_init(&items);
  for (bool first_pair = true;; first_pair = false) {
    fe_expr *k = NULL, *v;
    if (first_pair && first) {
      k = first;
      fe_next(p); /* ':' */
      v = fe_parse_test(p);
      if (fe_peek(p)->kind == FE_TOK_KW_FOR || fe_peek(p)->kind == FE_TOK_KW_ASYNC)
        return finish_comp(p, FE_COMP_DICT, loc, k, v, FE_TOK_RBRACE);
    } else if (fe_accept(p, FE_TOK_POW)) {
      v = fe_parse_or_test(p);
    } else {
      k = fe_parse_test(p);
      if (!fe_expect(p, FE_TOK_COLON, "':' in a dict display")) break;
      v = fe_parse_test(p);
    }
    fe_list_push(p, &items, k);
    fe_list_push(p, &items, v);
    if (!fe_accept(p, FE_TOK_COMMA) || fe_peek(p)->kind == FE_TOK_RBRACE) break;
  }
  fe_expect(p, FE_TOK_RBRACE, "'}'");
  fe_expr *e = fe_new_expr(p, FE_EX_DICT, loc);
  e->n = items.n;
  e->items = fe_list_finish(p, &items);
  return e;
}

/* ---- strings ----------------------------------------------------------------------- */

/* The source text of [from, to) given as locations on one line (for the
 * self-documenting f"{x=}"); "" when they span lines. */
static const char *source_between(fe_parser *p, ir_loc from, ir_loc to) {
  if (!from.src || from.line != to.line || to.col < from.col) return "";
  const char *t = from.src->text, *end = t + from.src->len;
  for (uint32_t line = 1; line < from.line && t < end; t++)
    if (*t == '\n') line++;
  if (t + (to.col - 1) > end) return "";
  return ir_intern(p->ctx, t + from.col - 1, to.col - from.col);
}

static fe_expr *str_piece(fe_parser *p, ir_loc loc, const char *s, size_t n) {
  fe_expr *e = fe_new_expr(p, FE_EX_STR, loc);
  e->str = ir_arena_strdup(p->arena, s, n);
  e->slen = n;
  return e;
}

static void parse_fstring(fe_parser *p, fe_expr_list *parts, bool in_spec);

/* replacement_field: '{' testlist ['='] ['!' NAME] [':' spec] '}' */
static fe_expr *parse_field(fe_parser *p, fe_expr_list *parts) {
  const fe_token *open = fe_next(p); /* '{' */
  fe_expr *f = fe_new_expr(p, FE_EX_FORMAT, open->loc);
  ir_loc expr_loc = fe_peek(p)->loc;
  f->a = fe_parse_testlist(p);
  if (fe_peek(p)->kind == FE_TOK_ASSIGN) { /* f"{x=}": the text, then the value's repr */
    const fe_token *eq = fe_next(p);
    const char *txt = source_between(p, expr_loc, eq->loc);
    size_t n = strlen(txt);
    char *with_eq = fe_parse_alloc(p, n + 2);
    memcpy(with_eq, txt, n);
    with_eq[n] = '=';
    fe_list_push(p, parts, str_piece(p, expr_loc, with_eq, n + 1));
    f->ival = 'r';
  }
  if (fe_accept(p, FE_TOK_EXCL)) {
    const fe_token *c = fe_peek(p);
    if (fe_expect(p, FE_TOK_NAME, "a conversion (r, s or a) after '!'")) {
      if (c->len != 1 || !strchr("rsa", c->text[0]))
        fe_parse_error(p, c->loc,
                       "f-string: invalid conversion character: expected 's', 'r', or 'a'");
      else
        f->ival = (uint64_t)c->text[0];
    }
  }
  if (fe_accept(p, FE_TOK_COLON)) {
    fe_expr *spec = fe_new_expr(p, FE_EX_FSTR, fe_peek(p)->loc);
    fe_expr_list sp;
    fe_list_init(&sp);
    parse_fstring(p, &sp, true);
    spec->n = sp.n;
    spec->items = fe_list_finish(p, &sp);
    f->b = spec;
  }
  fe_expect(p, FE_TOK_RBRACE, "'}' in f-string");
  return f;
}

/* The pieces of an f-string after FSTRING_START (or of a format spec after
 * its ':'), up to FSTRING_END (or the field's '}', left for the caller). */
static void parse_fstring(fe_parser *p, fe_expr_list *parts, bool in_spec) {
  for (;;) {
    const fe_token *t = fe_peek(p);
    if (t->kind == FE_TOK_FSTRING_MIDDLE) {
      fe_next(p);
      fe_list_push(p, parts, str_piece(p, t->loc, t->text, t->len));
    } else if (t->kind == FE_TOK_LBRACE) {
      fe_list_push(p, parts, parse_field(p, parts));
    } else if (t->kind == FE_TOK_FSTRING_END && !in_spec) {
      fe_next(p);
      return;
    } else if (in_spec && t->kind == FE_TOK_RBRACE) {
      return;
    } else {
      fe_parse_error(p, t->loc, "expected f-string text, found %s", fe_tok_desc(p, t));
      return;
    }
  }
}

/* STRING+ (with f-strings): adjacent literals concatenate; with an f-string
 * among them the result is an FSTR of pieces, else one STR. */
static fe_expr *parse_strings(fe_parser *p) {
  const fe_token *first = fe_peek(p);
  fe_expr_list parts;
  fe_list_init(&parts);
  bool is_f = false, is_bytes = first->kind == FE_TOK_STRING && first->is_bytes;
  while (fe_peek(p)->kind == FE_TOK_STRING || fe_peek(p)->kind == FE_TOK_FSTRING_START) {
    const fe_token *t = fe_next(p);
    if (t->kind == FE_TOK_STRING) {
      fe_list_push(p, &parts, str_piece(p, t->loc, t->text, t->len));
    } else {
      is_f = true;
      parse_fstring(p, &parts, false);
      if (p->panic) break;
    }
  }
  if (!is_f) { /* one string: concatenate the pieces */
    ir_strbuf sb;
    ir_sb_init(&sb);
    for (int i = 0; i < parts.n; i++)
      ir_sb_append(&sb, parts.items[i]->str, parts.items[i]->slen);
    fe_expr *e = str_piece(p, first->loc, sb.data ? sb.data : "", sb.len);
    e->is_bytes = is_bytes;
    ir_sb_free(&sb);
    return e;
  }
  fe_expr *e = fe_new_expr(p, FE_EX_FSTR, first->loc);
  e->n = parts.n;
  e->items = fe_list_finish(p, &parts);
  return e;
}

/* ---- atoms ------------------------------------------------------------------------- */

/* atom: '(' [yield_expr | testlist_comp] ')' | '[' [testlist_comp] ']'
 *     | '{' [dictorsetmaker] '}' | NAME | NUMBER | STRING+ | '...' | 'None'
 *     | 'True' | 'False' */
fe_expr *fe_parse_atom(fe_parser *p) {
  const fe_token *t = fe_peek(p);
  fe_expr *e;
  bool had_comma;
  switch (t->kind) {
  case FE_TOK_NAME:
    fe_next(p);
    e = fe_new_expr(p, FE_EX_NAME, t->loc);
    e->name = fe_parse_name(p, t);
    return e;
  case FE_TOK_INT:
    fe_next(p);
    e = fe_new_expr(p, FE_EX_INT, t->loc);
    e->ival = t->ival;
    e->is_big = t->is_big;
    return e;
  case FE_TOK_FLOAT:
  case FE_TOK_IMAG:
    fe_next(p);
    e = fe_new_expr(p, t->kind == FE_TOK_FLOAT ? FE_EX_FLOAT : FE_EX_IMAG, t->loc);
    e->fval = t->fval;
    return e;
  case FE_TOK_STRING:
  case FE_TOK_FSTRING_START: return parse_strings(p);
  case FE_TOK_KW_NONE: fe_next(p); return fe_new_expr(p, FE_EX_NONE, t->loc);
  case FE_TOK_KW_TRUE: fe_next(p); return fe_new_expr(p, FE_EX_TRUE, t->loc);
  case FE_TOK_KW_FALSE: fe_next(p); return fe_new_expr(p, FE_EX_FALSE, t->loc);
  case FE_TOK_ELLIPSIS: fe_next(p); return fe_new_expr(p, FE_EX_ELLIPSIS, t->loc);
  case FE_TOK_LPAREN:
    fe_next(p);
    if (fe_peek(p)->kind == FE_TOK_KW_YIELD) {
      fe_parse_error(p, fe_peek(p)->loc, "unsupported: 'yield'");
      return fe_new_expr(p, FE_EX_ERROR, t->loc);
    }
    e = parse_elements(p, FE_EX_TUPLE, t->loc, FE_TOK_RPAREN, &had_comma);
    if (e->kind == FE_EX_TUPLE && e->n == 1 && !had_comma && e->items[0]->kind != FE_EX_STARRED)
      return e->items[0]; /* parenthesized expression */
    return e;
  case FE_TOK_LBRACKET:
    fe_next(p);
    return parse_elements(p, FE_EX_LIST, t->loc, FE_TOK_RBRACKET, &had_comma);
  case FE_TOK_LBRACE: fe_next(p); return parse_braces(p, t->loc);
  case FE_TOK_KW_YIELD:
    fe_parse_error(p, t->loc, "unsupported: 'yield'");
    return fe_new_expr(p, FE_EX_ERROR, t->loc);
  default:
    fe_parse_error(p, t->loc, "expected an expression, found %s", fe_tok_desc(p, t));
    return fe_new_expr(p, FE_EX_ERROR, t->loc);
  }
}
