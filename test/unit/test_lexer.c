/* test_lexer.c - the kernel-file lexer: token kinds, values, locations,
 * INDENT/DEDENT structure, line joining, every Python 3 token form
 * (f-strings, prefixes, escapes, number forms, operators, soft keywords),
 * and located lexical errors. */
#include <stdbool.h>
#include <string.h>

#include "ttc_test.h"

#include "frontend/fe.h"

typedef struct lex_fixture {
  ir_context *ctx;
  ir_arena arena;
  fe_tokens toks;
  bool ok;
} lex_fixture;

static void lex_text(lex_fixture *f, const char *text) {
  f->ctx = ir_context_create();
  assert_non_null(f->ctx);
  ir_arena_init(&f->arena);
  const ir_source *src = ir_context_add_source(f->ctx, "t.py", text, strlen(text));
  f->ok = fe_lex(f->ctx, src, &f->arena, &f->toks);
}

static void lex_done(lex_fixture *f) {
  fe_tokens_free(&f->toks);
  ir_arena_free(&f->arena);
  ir_context_destroy(f->ctx);
}

/* Asserts the token kinds in order (ending with EOF). */
static void expect_kinds(const lex_fixture *f, const fe_tok_kind *kinds, int n) {
  assert_int_equal(f->toks.n, n);
  for (int i = 0; i < n; i++) {
    if (f->toks.toks[i].kind != kinds[i])
      fail_msg("token %d: expected %s, got %s", i, fe_tok_kind_name(kinds[i]),
               fe_tok_kind_name(f->toks.toks[i].kind));
  }
}

/* Asserts token i is the name `name`. */
static void expect_name(const lex_fixture *f, int i, const char *name) {
  assert_int_equal(f->toks.toks[i].kind, FE_TOK_NAME);
  assert_int_equal(f->toks.toks[i].len, strlen(name));
  assert_memory_equal(f->toks.toks[i].text, name, strlen(name));
}

/* Asserts the single error has this line, col and message. */
static void expect_error(const lex_fixture *f, unsigned line, unsigned col, const char *msg) {
  assert_false(f->ok);
  assert_true(ir_context_num_errors(f->ctx) >= 1);
  const ir_diag *d = ir_context_diag(f->ctx, 0);
  assert_int_equal(d->sev, IR_SEV_ERROR);
  assert_string_equal(d->msg, msg);
  assert_int_equal(d->loc.line, line);
  assert_int_equal(d->loc.col, col);
}

static void test_simple_line(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "x = a + 12\n");
  assert_true(f.ok);
  fe_tok_kind k[] = {FE_TOK_NAME, FE_TOK_ASSIGN,  FE_TOK_NAME, FE_TOK_PLUS,
                     FE_TOK_INT,  FE_TOK_NEWLINE, FE_TOK_EOF};
  expect_kinds(&f, k, 7);
  expect_name(&f, 0, "x");
  assert_int_equal(f.toks.toks[4].ival, 12);
  assert_int_equal(f.toks.toks[4].loc.line, 1);
  assert_int_equal(f.toks.toks[4].loc.col, 9);
  lex_done(&f);
}

static void test_indent_dedent(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "def f():\n    if a:\n        b\n\n    # c\n    c\nd\n");
  assert_true(f.ok);
  fe_tok_kind k[] = {FE_TOK_KW_DEF,  FE_TOK_NAME,    FE_TOK_LPAREN, FE_TOK_RPAREN,  FE_TOK_COLON,
                     FE_TOK_NEWLINE, FE_TOK_INDENT,  FE_TOK_KW_IF,  FE_TOK_NAME,    FE_TOK_COLON,
                     FE_TOK_NEWLINE, FE_TOK_INDENT,  FE_TOK_NAME,   FE_TOK_NEWLINE, FE_TOK_DEDENT,
                     FE_TOK_NAME,    FE_TOK_NEWLINE, FE_TOK_DEDENT, FE_TOK_NAME,    FE_TOK_NEWLINE,
                     FE_TOK_EOF};
  expect_kinds(&f, k, 21);
  /* `c` on line 6, col 5 */
  assert_int_equal(f.toks.toks[15].loc.line, 6);
  assert_int_equal(f.toks.toks[15].loc.col, 5);
  lex_done(&f);
}

static void test_dedents_at_eof_without_newline(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "if a:\n  b");
  assert_true(f.ok);
  fe_tok_kind k[] = {FE_TOK_KW_IF, FE_TOK_NAME,    FE_TOK_COLON,  FE_TOK_NEWLINE, FE_TOK_INDENT,
                     FE_TOK_NAME,  FE_TOK_NEWLINE, FE_TOK_DEDENT, FE_TOK_EOF};
  expect_kinds(&f, k, 9);
  lex_done(&f);
}

static void test_implicit_line_joining(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "x = f(a,\n      b)\ny = [1,\n2]\n");
  assert_true(f.ok);
  fe_tok_kind k[] = {FE_TOK_NAME,     FE_TOK_ASSIGN,   FE_TOK_NAME,   FE_TOK_LPAREN,  FE_TOK_NAME,
                     FE_TOK_COMMA,    FE_TOK_NAME,     FE_TOK_RPAREN, FE_TOK_NEWLINE, FE_TOK_NAME,
                     FE_TOK_ASSIGN,   FE_TOK_LBRACKET, FE_TOK_INT,    FE_TOK_COMMA,   FE_TOK_INT,
                     FE_TOK_RBRACKET, FE_TOK_NEWLINE,  FE_TOK_EOF};
  expect_kinds(&f, k, 18);
  assert_int_equal(f.toks.toks[6].loc.line, 2);
  assert_int_equal(f.toks.toks[6].loc.col, 7);
  lex_done(&f);
}

static void test_backslash_continuation(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "x = a + \\\n    b\n");
  assert_true(f.ok);
  fe_tok_kind k[] = {FE_TOK_NAME, FE_TOK_ASSIGN,  FE_TOK_NAME, FE_TOK_PLUS,
                     FE_TOK_NAME, FE_TOK_NEWLINE, FE_TOK_EOF};
  expect_kinds(&f, k, 7);
  assert_int_equal(f.toks.toks[4].loc.line, 2);
  assert_int_equal(f.toks.toks[4].loc.col, 5);
  lex_done(&f);
}

static void test_int_literals(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "1_000 0x1F 0o17 0b101 0 00 18446744073709551615\n");
  assert_true(f.ok);
  uint64_t want[] = {1000, 31, 15, 5, 0, 0, 18446744073709551615ull};
  for (int i = 0; i < 7; i++) {
    assert_int_equal(f.toks.toks[i].kind, FE_TOK_INT);
    assert_true(f.toks.toks[i].ival == want[i]);
  }
  lex_done(&f);
}

static void test_float_literals(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "1.0 1e-3 .5 2. 1_0.5e1 inf\n");
  assert_true(f.ok);
  double want[] = {1.0, 1e-3, 0.5, 2.0, 105.0};
  for (int i = 0; i < 5; i++) {
    assert_int_equal(f.toks.toks[i].kind, FE_TOK_FLOAT);
    assert_true(f.toks.toks[i].fval == want[i]);
  }
  assert_int_equal(f.toks.toks[5].kind, FE_TOK_NAME); /* inf is a name */
  lex_done(&f);
}

static void test_string_literals(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "'a\\n' \"b'c\" r'\\d' b'x' '''l1\nl2''' \"\"\"q\"\"\"\n");
  assert_true(f.ok);
  assert_int_equal(f.toks.toks[0].kind, FE_TOK_STRING);
  assert_string_equal(f.toks.toks[0].text, "a\n");
  assert_string_equal(f.toks.toks[1].text, "b'c");
  assert_string_equal(f.toks.toks[2].text, "\\d");
  assert_true(f.toks.toks[3].is_bytes);
  assert_string_equal(f.toks.toks[4].text, "l1\nl2");
  assert_string_equal(f.toks.toks[5].text, "q");
  assert_int_equal(f.toks.toks[5].loc.line, 2);
  assert_int_equal(f.toks.toks[6].kind, FE_TOK_NEWLINE);
  lex_done(&f);
}

static void test_operators(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "** // << >> -> += **= //= >>= <<= @ != <= == ~ ...\n");
  assert_true(f.ok);
  fe_tok_kind k[] = {
      FE_TOK_POW,   FE_TOK_FLOORDIV,   FE_TOK_SHL,   FE_TOK_SHR,      FE_TOK_ARROW,   FE_TOK_PLUSEQ,
      FE_TOK_POWEQ, FE_TOK_FLOORDIVEQ, FE_TOK_SHREQ, FE_TOK_SHLEQ,    FE_TOK_AT,      FE_TOK_NE,
      FE_TOK_LE,    FE_TOK_EQEQ,       FE_TOK_TILDE, FE_TOK_ELLIPSIS, FE_TOK_NEWLINE, FE_TOK_EOF};
  expect_kinds(&f, k, 18);
  lex_done(&f);
}

static void test_keywords_and_comments(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "if not x: # trailing\n    pass\n");
  assert_true(f.ok);
  fe_tok_kind k[] = {FE_TOK_KW_IF,  FE_TOK_KW_NOT,  FE_TOK_NAME,    FE_TOK_COLON,  FE_TOK_NEWLINE,
                     FE_TOK_INDENT, FE_TOK_KW_PASS, FE_TOK_NEWLINE, FE_TOK_DEDENT, FE_TOK_EOF};
  expect_kinds(&f, k, 10);
  lex_done(&f);
}

static void test_walrus_is_a_token(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "(y := 1)\n");
  assert_true(f.ok);
  assert_int_equal(f.toks.toks[2].kind, FE_TOK_WALRUS);
  lex_done(&f);
}

static void test_error_unterminated_string(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "x = 1\ny = 'abc\n");
  expect_error(&f, 2, 5, "unterminated string literal");
  lex_done(&f);
}

static void test_error_unterminated_triple_string(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "x = \"\"\"abc\n\n");
  expect_error(&f, 1, 5, "unterminated triple-quoted string literal (started at line 1)");
  lex_done(&f);
}

/* f"a{x!r:>{w}}b": start, text, field with conversion and a nested spec field. */
static void test_fstring_tokens(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "s = f'a{x!r:>{w}}b{{c}}'\n");
  assert_true(f.ok);
  fe_tok_kind k[] = {FE_TOK_NAME,           FE_TOK_ASSIGN,  FE_TOK_FSTRING_START,
                     FE_TOK_FSTRING_MIDDLE, FE_TOK_LBRACE,  FE_TOK_NAME,
                     FE_TOK_EXCL,           FE_TOK_NAME,    FE_TOK_COLON,
                     FE_TOK_FSTRING_MIDDLE, FE_TOK_LBRACE,  FE_TOK_NAME,
                     FE_TOK_RBRACE,         FE_TOK_RBRACE,  FE_TOK_FSTRING_MIDDLE,
                     FE_TOK_FSTRING_END,    FE_TOK_NEWLINE, FE_TOK_EOF};
  expect_kinds(&f, k, 18);
  assert_string_equal(f.toks.toks[3].text, "a");
  assert_string_equal(f.toks.toks[9].text, ">");
  assert_string_equal(f.toks.toks[14].text, "b{c}");
  assert_int_equal(f.toks.toks[5].loc.col, 9); /* x */
  lex_done(&f);
}

/* Python 3.12: a nested f-string may reuse the quote; fields may hold
 * strings, dicts and calls with colons inside brackets. */
static void test_fstring_nested(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "f\"{f\"{d['k']}\"}{g(a=1)[1:2]}\" rf'\\{x}' F'''q{1}\n'''\n");
  assert_true(f.ok);
  int starts = 0, ends = 0, colons = 0;
  for (int i = 0; i < f.toks.n; i++) {
    starts += f.toks.toks[i].kind == FE_TOK_FSTRING_START;
    ends += f.toks.toks[i].kind == FE_TOK_FSTRING_END;
    colons += f.toks.toks[i].kind == FE_TOK_COLON;
  }
  assert_int_equal(starts, 4);
  assert_int_equal(ends, 4);
  assert_int_equal(colons, 1); /* the slice's, inside brackets */
  lex_done(&f);
}

static void test_error_fstring_unterminated(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "x = f'{a}\ny = 1\n");
  expect_error(&f, 1, 5, "unterminated f-string");
  lex_done(&f);
}

static void test_error_fstring_single_brace(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "x = f'a}b'\n");
  expect_error(&f, 1, 8, "f-string: single '}' is not allowed");
  lex_done(&f);
}

/* Every prefix and escape: r, u, b, rb/BR, octal, \x, \u, \U, \N{...}. */
static void test_string_prefixes_and_escapes(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "u'\\101\\x42\\u00e9' Rb'\\d' bR'x' B'\\xff' '\\N{DASH}' U'\\U0001F600'\n");
  assert_true(f.ok);
  assert_string_equal(f.toks.toks[0].text, "AB\xc3\xa9");
  assert_string_equal(f.toks.toks[1].text, "\\d");
  assert_true(f.toks.toks[1].is_bytes);
  assert_true(f.toks.toks[2].is_bytes);
  assert_int_equal(f.toks.toks[3].len, 1);
  assert_int_equal((unsigned char)f.toks.toks[3].text[0], 0xff);
  assert_string_equal(f.toks.toks[4].text, "\\N{DASH}");
  assert_string_equal(f.toks.toks[5].text, "\xf0\x9f\x98\x80");
  lex_done(&f);
}

/* Imaginary literals, digits after 0x_, 0o, 0B and exponents all lex. */
static void test_number_forms(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "2j 1.5J 0x_ff 0o777 0B1 1_000.5e-3 1E5 10.j\n");
  assert_true(f.ok);
  assert_int_equal(f.toks.toks[0].kind, FE_TOK_IMAG);
  assert_true(f.toks.toks[1].kind == FE_TOK_IMAG && f.toks.toks[1].fval == 1.5);
  assert_true(f.toks.toks[2].kind == FE_TOK_INT && f.toks.toks[2].ival == 255);
  assert_true(f.toks.toks[3].ival == 511 && f.toks.toks[4].ival == 1);
  assert_true(f.toks.toks[5].kind == FE_TOK_FLOAT && f.toks.toks[5].fval == 1.0005);
  assert_true(f.toks.toks[6].kind == FE_TOK_FLOAT && f.toks.toks[6].fval == 1e5);
  assert_int_equal(f.toks.toks[7].kind, FE_TOK_IMAG);
  lex_done(&f);
}

/* Every Python 3 operator and delimiter. */
static void test_every_operator(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "+ - * ** / // % @ << >> & | ^ ~ := < > <= >= == != ( ) [ ] { } , : . ; = -> "
               "+= -= *= /= //= %= @= &= |= ^= >>= <<= **= ...\n");
  assert_true(f.ok);
  fe_tok_kind k[] = {
      FE_TOK_PLUS,     FE_TOK_MINUS,    FE_TOK_STAR,       FE_TOK_POW,       FE_TOK_SLASH,
      FE_TOK_FLOORDIV, FE_TOK_PERCENT,  FE_TOK_AT,         FE_TOK_SHL,       FE_TOK_SHR,
      FE_TOK_AMP,      FE_TOK_PIPE,     FE_TOK_CARET,      FE_TOK_TILDE,     FE_TOK_WALRUS,
      FE_TOK_LT,       FE_TOK_GT,       FE_TOK_LE,         FE_TOK_GE,        FE_TOK_EQEQ,
      FE_TOK_NE,       FE_TOK_LPAREN,   FE_TOK_RPAREN,     FE_TOK_LBRACKET,  FE_TOK_RBRACKET,
      FE_TOK_LBRACE,   FE_TOK_RBRACE,   FE_TOK_COMMA,      FE_TOK_COLON,     FE_TOK_DOT,
      FE_TOK_SEMI,     FE_TOK_ASSIGN,   FE_TOK_ARROW,      FE_TOK_PLUSEQ,    FE_TOK_MINUSEQ,
      FE_TOK_STAREQ,   FE_TOK_SLASHEQ,  FE_TOK_FLOORDIVEQ, FE_TOK_PERCENTEQ, FE_TOK_ATEQ,
      FE_TOK_AMPEQ,    FE_TOK_PIPEEQ,   FE_TOK_CARETEQ,    FE_TOK_SHREQ,     FE_TOK_SHLEQ,
      FE_TOK_POWEQ,    FE_TOK_ELLIPSIS, FE_TOK_NEWLINE,    FE_TOK_EOF};
  expect_kinds(&f, k, (int)(sizeof k / sizeof k[0]));
  lex_done(&f);
}

/* Soft keywords are names; every hard keyword is its own token. */
static void test_soft_keywords_and_keywords(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "match case type _ async await nonlocal yield lambda del global\n");
  assert_true(f.ok);
  expect_name(&f, 0, "match");
  expect_name(&f, 1, "case");
  expect_name(&f, 2, "type");
  expect_name(&f, 3, "_");
  fe_tok_kind k[] = {FE_TOK_KW_ASYNC,  FE_TOK_KW_AWAIT, FE_TOK_KW_NONLOCAL, FE_TOK_KW_YIELD,
                     FE_TOK_KW_LAMBDA, FE_TOK_KW_DEL,   FE_TOK_KW_GLOBAL};
  for (int i = 0; i < 7; i++)
    assert_int_equal(f.toks.toks[4 + i].kind, k[i]);
  lex_done(&f);
}

/* A byte-order mark, Unicode identifiers, and a continuation on a blank line. */
static void test_bom_unicode_and_blank_continuation(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "\xEF\xBB\xBF\xc3\xa9t\xc3\xa9 = 1\n\\\nx = 2\n");
  assert_true(f.ok);
  expect_name(&f, 0, "\xc3\xa9t\xc3\xa9");
  assert_int_equal(f.toks.toks[0].loc.col, 1); /* the BOM is not a column */
  expect_name(&f, 4, "x");
  lex_done(&f);
}

static void test_error_bad_dedent(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "if a:\n    b\n  c\n");
  expect_error(&f, 3, 3, "unindent does not match any outer indentation level");
  lex_done(&f);
}

static void test_error_tab_space_mix(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "if a:\n        b\n\tc\n");
  expect_error(&f, 3, 2, "inconsistent use of tabs and spaces in indentation");
  lex_done(&f);
}

static void test_error_unclosed_paren(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "x = f(a,\n  b\n");
  expect_error(&f, 1, 6, "'(' was never closed");
  lex_done(&f);
}

static void test_error_unmatched_paren(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "x = a)\n");
  expect_error(&f, 1, 6, "unmatched ')'");
  lex_done(&f);
}

static void test_error_mismatched_paren(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "x = (a]\n");
  expect_error(&f, 1, 7, "closing parenthesis ']' does not match opening parenthesis '('");
  lex_done(&f);
}

static void test_error_bad_number(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "x = 12abc\n");
  expect_error(&f, 1, 5, "invalid integer literal '12abc'");
  lex_done(&f);
}

static void test_error_leading_zero(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "x = 012\n");
  expect_error(&f, 1, 5, "leading zeros in decimal integer literals are not permitted");
  lex_done(&f);
}

/* Python's ints have no limit: a literal past 64 bits lexes, flagged. */
static void test_big_int(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "x = 18446744073709551616\n");
  assert_true(f.ok);
  assert_int_equal(f.toks.toks[2].kind, FE_TOK_INT);
  assert_true(f.toks.toks[2].is_big);
  lex_done(&f);
}

static void test_error_bad_char_keeps_going(void **state) {
  (void)state;
  lex_fixture f;
  lex_text(&f, "x = a $ b\ny = c ? d\n");
  expect_error(&f, 1, 7, "unexpected character '$'");
  assert_int_equal(ir_context_num_errors(f.ctx), 2);
  assert_int_equal(ir_context_diag(f.ctx, 1)->loc.line, 2);
  assert_int_equal(ir_context_diag(f.ctx, 1)->loc.col, 7);
  lex_done(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_simple_line),
      cmocka_unit_test(test_indent_dedent),
      cmocka_unit_test(test_dedents_at_eof_without_newline),
      cmocka_unit_test(test_implicit_line_joining),
      cmocka_unit_test(test_backslash_continuation),
      cmocka_unit_test(test_int_literals),
      cmocka_unit_test(test_float_literals),
      cmocka_unit_test(test_string_literals),
      cmocka_unit_test(test_operators),
      cmocka_unit_test(test_keywords_and_comments),
      cmocka_unit_test(test_walrus_is_a_token),
      cmocka_unit_test(test_error_unterminated_string),
      cmocka_unit_test(test_error_unterminated_triple_string),
      cmocka_unit_test(test_fstring_tokens),
      cmocka_unit_test(test_fstring_nested),
      cmocka_unit_test(test_error_fstring_unterminated),
      cmocka_unit_test(test_error_fstring_single_brace),
      cmocka_unit_test(test_string_prefixes_and_escapes),
      cmocka_unit_test(test_number_forms),
      cmocka_unit_test(test_every_operator),
      cmocka_unit_test(test_soft_keywords_and_keywords),
      cmocka_unit_test(test_bom_unicode_and_blank_continuation),
      cmocka_unit_test(test_error_bad_dedent),
      cmocka_unit_test(test_error_tab_space_mix),
      cmocka_unit_test(test_error_unclosed_paren),
      cmocka_unit_test(test_error_unmatched_paren),
      cmocka_unit_test(test_error_mismatched_paren),
      cmocka_unit_test(test_error_bad_number),
      cmocka_unit_test(test_error_leading_zero),
      cmocka_unit_test(test_big_int),
      cmocka_unit_test(test_error_bad_char_keeps_going),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
