/* test_parser.c - the kernel-file parser: module structure (imports,
 * constants, decorated functions), statements, expression precedence, and
 * located errors with recovery at the next statement. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ttc_test.h"

#include "frontend/fe.h"

typedef struct parse_fixture {
  ir_context *ctx;
  ir_arena arena;
  fe_module *mod;
} parse_fixture;

static void parse_text(parse_fixture *f, const char *text) {
  f->ctx = ir_context_create();
  assert_non_null(f->ctx);
  ir_arena_init(&f->arena);
  const ir_source *src = ir_context_add_source(f->ctx, "k.py", text, strlen(text));
  f->mod = fe_parse(f->ctx, src, &f->arena);
}

static void parse_done(parse_fixture *f) {
  ir_arena_free(&f->arena);
  ir_context_destroy(f->ctx);
}

/* Asserts error number i (counting errors only) has this location and message. */
static void expect_error(const parse_fixture *f, size_t i, unsigned line, unsigned col,
                         const char *msg) {
  size_t seen = 0;
  for (size_t k = 0; k < ir_context_num_diags(f->ctx); k++) {
    const ir_diag *d = ir_context_diag(f->ctx, k);
    if (d->sev != IR_SEV_ERROR) continue;
    if (seen++ != i) continue;
    assert_string_equal(d->msg, msg);
    assert_int_equal(d->loc.line, line);
    assert_int_equal(d->loc.col, col);
    return;
  }
  fail_msg("error %zu not found (%zu errors)", i, ir_context_num_errors(f->ctx));
}

/* Parses `def f():\n    <body>` and returns the first statement of f. */
static const fe_stmt *first_stmt(parse_fixture *f, const char *body) {
  char buf[1024];
  snprintf(buf, sizeof buf, "import triton\n@triton.jit\ndef f(x):\n    %s\n", body);
  parse_text(f, buf);
  assert_non_null(f->mod);
  assert_int_equal(f->mod->nfuncs, 1);
  assert_true(f->mod->funcs[0]->body.n >= 1);
  return f->mod->funcs[0]->body.stmts[0];
}

static void test_module_structure(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "\"\"\"doc\"\"\"\n"
                 "import triton\n"
                 "import triton.language as tl\n"
                 "from triton.language import arange, load as ld\n"
                 "BLOCK = 1024\n"
                 "SCALE: tl.constexpr = 0.5\n"
                 "\n"
                 "@triton.jit\n"
                 "def add(x_ptr, n, BLOCK: tl.constexpr = 64) -> None:\n"
                 "    pass\n"
                 "@triton.jit(do_not_specialize=['n'])\n"
                 "def helper(a):\n"
                 "    return a\n");
  assert_non_null(f.mod);
  assert_int_equal(f.mod->nimports, 4);
  assert_string_equal(f.mod->imports[0].alias, "triton");
  assert_string_equal(f.mod->imports[0].path, "triton");
  assert_string_equal(f.mod->imports[1].alias, "tl");
  assert_string_equal(f.mod->imports[1].path, "triton.language");
  assert_string_equal(f.mod->imports[2].alias, "arange");
  assert_string_equal(f.mod->imports[2].path, "triton.language.arange");
  assert_string_equal(f.mod->imports[3].alias, "ld");
  assert_string_equal(f.mod->imports[3].path, "triton.language.load");
  assert_int_equal(f.mod->nglobals, 2);
  assert_string_equal(f.mod->globals[0].name, "BLOCK");
  assert_int_equal(f.mod->globals[0].value->ival, 1024);
  assert_non_null(f.mod->globals[1].annotation);
  assert_int_equal(f.mod->nfuncs, 2);
  const fe_func *fn = f.mod->funcs[0];
  assert_string_equal(fn->name, "add");
  assert_int_equal(fn->loc.line, 9);
  assert_int_equal(fn->loc.col, 1);
  assert_int_equal(fn->nparams, 3);
  assert_string_equal(fn->params[2].name, "BLOCK");
  assert_true(fe_is_constexpr_annotation(fn->params[2].annotation));
  assert_false(fe_is_constexpr_annotation(fn->params[0].annotation));
  assert_int_equal(fn->params[2].dflt->ival, 64);
  assert_non_null(fn->ret_annotation);
  assert_int_equal(fn->ndecorators, 1);
  assert_int_equal(f.mod->funcs[1]->decorators[0]->kind, FE_EX_CALL);
  assert_ptr_equal(fe_module_find_func(f.mod, "helper"), f.mod->funcs[1]);
  assert_null(fe_module_find_func(f.mod, "nope"));
  parse_done(&f);
}

static void test_import_dotted_binds_first_name(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton.language\nfrom triton import jit\n");
  assert_non_null(f.mod);
  assert_string_equal(f.mod->imports[0].alias, "triton");
  assert_string_equal(f.mod->imports[0].path, "triton");
  assert_string_equal(f.mod->imports[1].alias, "jit");
  assert_string_equal(f.mod->imports[1].path, "triton.jit");
  parse_done(&f);
}

static void test_precedence_arith(void **state) {
  (void)state;
  parse_fixture f;
  /* a + b * c ** -d  ==  a + (b * (c ** (-d))) */
  const fe_stmt *s = first_stmt(&f, "y = a + b * c ** -d");
  assert_int_equal(s->kind, FE_ST_ASSIGN);
  const fe_expr *e = s->value;
  assert_int_equal(e->kind, FE_EX_BINARY);
  assert_int_equal(e->op, FE_OP_ADD);
  assert_int_equal(e->b->op, FE_OP_MUL);
  assert_int_equal(e->b->b->op, FE_OP_POW);
  assert_int_equal(e->b->b->b->kind, FE_EX_UNARY);
  assert_int_equal(e->b->b->b->op, FE_OP_NEG);
  /* the '+' operator's location is the node's */
  assert_int_equal(e->loc.line, 4);
  assert_int_equal(e->loc.col, 11);
  parse_done(&f);
}

static void test_precedence_bitwise_and_shift(void **state) {
  (void)state;
  parse_fixture f;
  /* a | b ^ c & d << 1 + 2  ==  a | (b ^ (c & (d << (1 + 2)))) */
  const fe_stmt *s = first_stmt(&f, "y = a | b ^ c & d << 1 + 2");
  const fe_expr *e = s->value;
  assert_int_equal(e->op, FE_OP_BITOR);
  assert_int_equal(e->b->op, FE_OP_BITXOR);
  assert_int_equal(e->b->b->op, FE_OP_BITAND);
  assert_int_equal(e->b->b->b->op, FE_OP_SHL);
  assert_int_equal(e->b->b->b->b->op, FE_OP_ADD);
  parse_done(&f);
}

static void test_precedence_boolean_and_ternary(void **state) {
  (void)state;
  parse_fixture f;
  /* p if not a and b or c < d else q */
  const fe_stmt *s = first_stmt(&f, "y = p if not a and b or c < d else q");
  const fe_expr *e = s->value;
  assert_int_equal(e->kind, FE_EX_IFEXP);
  assert_string_equal(e->a->name, "p");
  assert_string_equal(e->c->name, "q");
  const fe_expr *c = e->b;
  assert_int_equal(c->op, FE_OP_OR);
  assert_int_equal(c->a->op, FE_OP_AND);
  assert_int_equal(c->a->a->kind, FE_EX_UNARY);
  assert_int_equal(c->a->a->op, FE_OP_NOT);
  assert_int_equal(c->b->kind, FE_EX_COMPARE);
  parse_done(&f);
}

static void test_left_associativity(void **state) {
  (void)state;
  parse_fixture f;
  const fe_stmt *s = first_stmt(&f, "y = a - b - c // d % e");
  const fe_expr *e = s->value; /* (a - b) - ((c // d) % e) */
  assert_int_equal(e->op, FE_OP_SUB);
  assert_int_equal(e->a->op, FE_OP_SUB);
  assert_int_equal(e->b->op, FE_OP_MOD);
  assert_int_equal(e->b->a->op, FE_OP_FLOORDIV);
  parse_done(&f);
}

static void test_chained_comparison(void **state) {
  (void)state;
  parse_fixture f;
  const fe_stmt *s = first_stmt(&f, "y = 0 <= x < n is not None");
  const fe_expr *e = s->value;
  assert_int_equal(e->kind, FE_EX_COMPARE);
  assert_int_equal(e->n, 4);
  assert_int_equal(e->cmpops[0], FE_OP_LE);
  assert_int_equal(e->cmpops[1], FE_OP_LT);
  assert_int_equal(e->cmpops[2], FE_OP_ISNOT);
  parse_done(&f);
}

static void test_call_with_keywords(void **state) {
  (void)state;
  parse_fixture f;
  const fe_stmt *s = first_stmt(&f, "x = tl.load(p + o, mask=m, other=0.0,)");
  const fe_expr *e = s->value;
  assert_int_equal(e->kind, FE_EX_CALL);
  assert_int_equal(e->a->kind, FE_EX_ATTR);
  assert_string_equal(e->a->name, "load");
  assert_int_equal(e->n, 1);
  assert_int_equal(e->nkw, 2);
  assert_string_equal(e->kwnames[0], "mask");
  assert_string_equal(e->kwnames[1], "other");
  assert_int_equal(e->kwvals[1]->kind, FE_EX_FLOAT);
  parse_done(&f);
}

static void test_subscripts(void **state) {
  (void)state;
  parse_fixture f;
  const fe_stmt *s = first_stmt(&f, "y = x[:, None] + t[0] + z[1:2:3]");
  const fe_expr *e = s->value;
  const fe_expr *a = e->a->a; /* x[:, None] */
  assert_int_equal(a->kind, FE_EX_SUBSCRIPT);
  assert_int_equal(a->b->kind, FE_EX_TUPLE);
  assert_int_equal(a->b->n, 2);
  assert_int_equal(a->b->items[0]->kind, FE_EX_SLICE);
  assert_null(a->b->items[0]->a);
  assert_int_equal(a->b->items[1]->kind, FE_EX_NONE);
  assert_int_equal(e->a->b->b->kind, FE_EX_INT);
  const fe_expr *z = e->b->b;
  assert_int_equal(z->kind, FE_EX_SLICE);
  assert_int_equal(z->a->ival, 1);
  assert_int_equal(z->b->ival, 2);
  assert_int_equal(z->c->ival, 3);
  parse_done(&f);
}

static void test_tuples_and_lists(void **state) {
  (void)state;
  parse_fixture f;
  const fe_stmt *s = first_stmt(&f, "a, b = (1, 2), [3]");
  assert_int_equal(s->kind, FE_ST_ASSIGN);
  assert_int_equal(s->targets[0]->kind, FE_EX_TUPLE);
  assert_int_equal(s->value->kind, FE_EX_TUPLE);
  assert_int_equal(s->value->items[0]->kind, FE_EX_TUPLE);
  assert_int_equal(s->value->items[1]->kind, FE_EX_LIST);
  parse_done(&f);
}

static void test_string_concatenation(void **state) {
  (void)state;
  parse_fixture f;
  const fe_stmt *s = first_stmt(&f, "'ab' \"cd\"");
  assert_int_equal(s->kind, FE_ST_EXPR);
  assert_string_equal(s->value->str, "abcd");
  parse_done(&f);
}

static void test_assignment_forms(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x):\n"
                 "    a = b = x\n"
                 "    a += 1\n"
                 "    c: tl.constexpr = 4\n"
                 "    d: tl.float32\n");
  assert_non_null(f.mod);
  const fe_body *b = &f.mod->funcs[0]->body;
  assert_int_equal(b->n, 4);
  assert_int_equal(b->stmts[0]->kind, FE_ST_ASSIGN);
  assert_int_equal(b->stmts[0]->ntargets, 2);
  assert_int_equal(b->stmts[1]->kind, FE_ST_AUGASSIGN);
  assert_int_equal(b->stmts[1]->op, FE_OP_ADD);
  assert_int_equal(b->stmts[2]->kind, FE_ST_ANNASSIGN);
  assert_non_null(b->stmts[2]->value);
  assert_null(b->stmts[3]->value);
  parse_done(&f);
}

static void test_compound_statements(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x):\n"
                 "    '''doc'''\n"
                 "    if x:\n        a = 1\n    elif y:\n        a = 2\n    else:\n        a = 3\n"
                 "    for i in range(0, 10, 2):\n        pass\n"
                 "    while a < 3: a += 1\n"
                 "    assert a, 'msg'\n"
                 "    return\n");
  assert_non_null(f.mod);
  const fe_body *b = &f.mod->funcs[0]->body;
  assert_int_equal(b->n, 6);
  const fe_stmt *s = b->stmts[1];
  assert_int_equal(s->kind, FE_ST_IF);
  assert_int_equal(s->orelse.n, 1);
  assert_int_equal(s->orelse.stmts[0]->kind, FE_ST_IF); /* elif */
  assert_int_equal(s->orelse.stmts[0]->orelse.n, 1);
  assert_int_equal(b->stmts[2]->kind, FE_ST_FOR);
  assert_string_equal(b->stmts[2]->target->name, "i");
  assert_int_equal(b->stmts[2]->iter->n, 3);
  assert_int_equal(b->stmts[3]->kind, FE_ST_WHILE);
  assert_int_equal(b->stmts[3]->body.n, 1);
  assert_int_equal(b->stmts[4]->kind, FE_ST_ASSERT);
  assert_non_null(b->stmts[4]->msg);
  assert_int_equal(b->stmts[5]->kind, FE_ST_RETURN);
  assert_null(b->stmts[5]->value);
  parse_done(&f);
}

static void test_break_continue_parse(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x):\n    while x:\n        break\n        continue\n");
  assert_non_null(f.mod);
  const fe_stmt *w = f.mod->funcs[0]->body.stmts[0];
  assert_int_equal(w->body.stmts[0]->kind, FE_ST_BREAK);
  assert_int_equal(w->body.stmts[1]->kind, FE_ST_CONTINUE);
  parse_done(&f);
}

static void test_semicolons(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x):\n    a = 1; b = 2;\n");
  assert_non_null(f.mod);
  assert_int_equal(f.mod->funcs[0]->body.n, 2);
  parse_done(&f);
}

/* ---- errors ------------------------------------------------------------------ */

static void test_error_class_in_function(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x):\n    class A:\n        pass\n    y = 1\n");
  assert_null(f.mod);
  assert_int_equal(ir_context_num_errors(f.ctx), 1);
  expect_error(&f, 0, 4, 5, "unsupported statement 'class'");
  parse_done(&f);
}

static void test_error_with_and_try_recover(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x):\n"
                 "    with x:\n        pass\n"
                 "    try:\n        pass\n    except E:\n        pass\n    finally:\n        pass\n"
                 "    y = 1\n");
  assert_null(f.mod);
  assert_int_equal(ir_context_num_errors(f.ctx), 2);
  expect_error(&f, 0, 4, 5, "unsupported statement 'with'");
  expect_error(&f, 1, 6, 5, "unsupported statement 'try'");
  parse_done(&f);
}

static void test_error_module_level(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\nclass K:\n    pass\nprint(1)\nx = 1\n");
  assert_null(f.mod);
  assert_int_equal(ir_context_num_errors(f.ctx), 2);
  expect_error(&f, 0, 2, 1, "unsupported statement 'class' at module level");
  expect_error(&f, 1, 4, 1, "unsupported: module-level statement other than 'NAME = constant'");
  parse_done(&f);
}

static void test_error_comprehension_and_dict(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x):\n"
                 "    a = [i for i in x]\n"
                 "    b = {1, 2}\n"
                 "    global g\n");
  assert_null(f.mod);
  assert_int_equal(ir_context_num_errors(f.ctx), 3);
  expect_error(&f, 0, 4, 12, "unsupported: comprehension");
  expect_error(&f, 1, 5, 11, "unsupported: set display");
  expect_error(&f, 2, 6, 5, "unsupported statement 'global'");
  parse_done(&f);
}

/* Decorator arguments may hold dicts and lambdas (@triton.autotune,
 * @triton.heuristics): they parse into FE_EX_DICT / FE_EX_LAMBDA nodes. */
static void test_decorator_dict_and_lambda(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.heuristics({'E': lambda a, b: a['n'] % 2 == 0, 'F': 1})\n"
                 "@triton.jit\ndef f(x):\n    pass\n");
  assert_non_null(f.mod);
  assert_int_equal(ir_context_num_errors(f.ctx), 0);
  const fe_expr *d = f.mod->funcs[0]->decorators[0];
  assert_int_equal(d->kind, FE_EX_CALL);
  const fe_expr *dict = d->items[0];
  assert_int_equal(dict->kind, FE_EX_DICT);
  assert_int_equal(dict->n, 4);
  assert_int_equal(dict->items[1]->kind, FE_EX_LAMBDA);
  assert_int_equal(dict->items[1]->a->kind, FE_EX_COMPARE);
  parse_done(&f);
}

static void test_error_walrus(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x):\n    y = (z := 1)\n");
  assert_null(f.mod);
  expect_error(&f, 0, 4, 12, "unsupported: assignment expression ':='");
  parse_done(&f);
}

static void test_error_missing_colon(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x):\n    if x\n        y = 1\n    z = 2 +\n");
  assert_null(f.mod);
  assert_int_equal(ir_context_num_errors(f.ctx), 2);
  expect_error(&f, 0, 4, 9, "expected ':' after the condition, found newline");
  expect_error(&f, 1, 6, 12, "expected an expression, found newline");
  parse_done(&f);
}

static void test_error_unexpected_indent(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x):\n    a = 1\n        b = 2\n    c = 3\n");
  assert_null(f.mod);
  assert_int_equal(ir_context_num_errors(f.ctx), 1);
  expect_error(&f, 0, 5, 9, "unexpected indent");
  parse_done(&f);
}

static void test_error_expected_block(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x):\nreturn x\n");
  assert_null(f.mod);
  expect_error(&f, 0, 4, 1, "expected an indented block, found 'return'");
  parse_done(&f);
}

static void test_error_bad_targets(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x):\n    g(x) = 1\n    1 += x\n");
  assert_null(f.mod);
  assert_int_equal(ir_context_num_errors(f.ctx), 2);
  expect_error(&f, 0, 4, 5, "cannot assign to function call");
  expect_error(&f, 1, 5, 5, "illegal expression for augmented assignment");
  parse_done(&f);
}

static void test_error_positional_after_keyword(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x):\n    g(a=1, x)\n");
  assert_null(f.mod);
  expect_error(&f, 0, 4, 12, "positional argument follows keyword argument");
  parse_done(&f);
}

static void test_error_duplicate_parameter(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x, x):\n    pass\n");
  assert_null(f.mod);
  expect_error(&f, 0, 3, 10, "duplicate parameter 'x'");
  parse_done(&f);
}

static void test_error_lexical_stops_parse(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\nx = 'abc\n");
  assert_null(f.mod);
  assert_int_equal(ir_context_num_errors(f.ctx), 1);
  expect_error(&f, 0, 2, 5, "unterminated string literal");
  parse_done(&f);
}

static void test_error_loop_else(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x):\n    for i in range(3):\n        pass\n    else:\n        pass\n");
  assert_null(f.mod);
  assert_int_equal(ir_context_num_errors(f.ctx), 1);
  expect_error(&f, 0, 6, 5, "unsupported: 'else' clause on a loop");
  parse_done(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_module_structure),
      cmocka_unit_test(test_import_dotted_binds_first_name),
      cmocka_unit_test(test_precedence_arith),
      cmocka_unit_test(test_precedence_bitwise_and_shift),
      cmocka_unit_test(test_precedence_boolean_and_ternary),
      cmocka_unit_test(test_left_associativity),
      cmocka_unit_test(test_chained_comparison),
      cmocka_unit_test(test_call_with_keywords),
      cmocka_unit_test(test_subscripts),
      cmocka_unit_test(test_tuples_and_lists),
      cmocka_unit_test(test_string_concatenation),
      cmocka_unit_test(test_assignment_forms),
      cmocka_unit_test(test_compound_statements),
      cmocka_unit_test(test_break_continue_parse),
      cmocka_unit_test(test_semicolons),
      cmocka_unit_test(test_error_class_in_function),
      cmocka_unit_test(test_error_with_and_try_recover),
      cmocka_unit_test(test_error_module_level),
      cmocka_unit_test(test_error_comprehension_and_dict),
      cmocka_unit_test(test_decorator_dict_and_lambda),
      cmocka_unit_test(test_error_walrus),
      cmocka_unit_test(test_error_missing_colon),
      cmocka_unit_test(test_error_unexpected_indent),
      cmocka_unit_test(test_error_expected_block),
      cmocka_unit_test(test_error_bad_targets),
      cmocka_unit_test(test_error_positional_after_keyword),
      cmocka_unit_test(test_error_duplicate_parameter),
      cmocka_unit_test(test_error_lexical_stops_parse),
      cmocka_unit_test(test_error_loop_else),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
