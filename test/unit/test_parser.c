/* test_parser.c - the kernel-file parser: the module index (imports,
 * values, functions, host code skipped with what it binds), statements,
 * expressions (precedence, comprehensions, displays, f-strings, lambdas,
 * starred arguments), and located errors with recovery at the next
 * statement. */
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

/* The binding of `name` in the module's index (the last one), or NULL. */
static const fe_bind *bind_of(const parse_fixture *f, const char *name) {
  int b = fe_modindex_find(&f->mod->ix, name);
  return b >= 0 ? &f->mod->ix.binds[b] : NULL;
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
  const fe_bind *b = bind_of(&f, "triton");
  assert_int_equal(b->kind, FE_BIND_IMPORT);
  assert_string_equal(b->imp.module, "triton");
  assert_null(b->imp.attr);
  b = bind_of(&f, "tl");
  assert_string_equal(b->imp.module, "triton.language");
  b = bind_of(&f, "arange");
  assert_string_equal(b->imp.module, "triton.language");
  assert_string_equal(b->imp.attr, "arange");
  b = bind_of(&f, "ld");
  assert_string_equal(b->imp.attr, "load");
  assert_int_equal(b->loc.line, 4);
  b = bind_of(&f, "BLOCK");
  assert_int_equal(b->kind, FE_BIND_VALUE);
  assert_int_equal(f.mod->ix.toks.toks[b->at].ival, 1024);
  b = bind_of(&f, "SCALE");
  assert_int_equal(b->kind, FE_BIND_VALUE);
  assert_true(b->ann >= 0);
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

static void test_import_forms(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton.language\nfrom triton import jit\nimport a.b as c, d\n"
                 "from ..utils import (f as g,\n    h,)\nfrom . import sib\nfrom .m import *\n"
                 "from __future__ import annotations\n");
  assert_non_null(f.mod);
  const fe_bind *b = bind_of(&f, "triton"); /* `import a.b` binds a */
  assert_string_equal(b->imp.module, "triton");
  b = bind_of(&f, "jit");
  assert_string_equal(b->imp.module, "triton");
  assert_string_equal(b->imp.attr, "jit");
  assert_string_equal(bind_of(&f, "c")->imp.module, "a.b");
  assert_string_equal(bind_of(&f, "d")->imp.module, "d");
  b = bind_of(&f, "g");
  assert_int_equal(b->imp.level, 2);
  assert_string_equal(b->imp.module, "utils");
  assert_string_equal(b->imp.attr, "f");
  assert_non_null(bind_of(&f, "h"));
  b = bind_of(&f, "sib");
  assert_int_equal(b->imp.level, 1);
  assert_string_equal(b->imp.module, "");
  assert_int_equal(f.mod->ix.nstars, 1);
  assert_null(bind_of(&f, "annotations"));
  parse_done(&f);
}

/* Host code is skipped, never parsed: classes, host functions with any
 * syntax, try/with/if blocks, loops; what they bind is recorded. */
static void test_module_host_code(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(
      &f,
      "import torch\n"
      "class K(torch.nn.Module):\n    def forward(self, *a, **k):\n        return f'{a!r}'\n"
      "print(1); torch.manual_seed(0)\n"
      "try:\n    from fast import op\nexcept ImportError:\n    op = None\n"
      "with open('x') as fh:\n    DATA = fh.read()\n"
      "for i in range(3):\n    LAST = i\n"
      "if __name__ == '__main__':\n    MAIN = 1\nelse:\n    MAIN = 2\n"
      "A, B = 1, 2\nC += 1\n"
      "match C:\n    case 1:\n        pass\n"
      "def host(x, *args, key=1, **kw):\n    with x as y:\n        return [i async for i in y]\n");
  assert_non_null(f.mod);
  assert_int_equal(ir_context_num_errors(f.ctx), 0);
  const fe_bind *b = bind_of(&f, "K");
  assert_int_equal(b->kind, FE_BIND_HOST);
  assert_string_equal(b->what, "a class");
  b = bind_of(&f, "op"); /* the except handler's binding is a fallback */
  assert_true(b->fallback);
  assert_int_equal(f.mod->ix.binds[b->prev].kind, FE_BIND_IMPORT);
  assert_false(f.mod->ix.binds[b->prev].fallback);
  assert_int_equal(bind_of(&f, "fh")->kind, FE_BIND_HOST);
  assert_int_equal(bind_of(&f, "DATA")->kind, FE_BIND_VALUE);
  assert_string_equal(bind_of(&f, "LAST")->what, "a loop");
  assert_string_equal(bind_of(&f, "i")->what, "a for loop");
  b = bind_of(&f, "MAIN");
  assert_int_equal(f.mod->ix.conds[b->cond].clause, 1);
  assert_int_equal(f.mod->ix.conds[f.mod->ix.binds[b->prev].cond].clause, 0);
  assert_string_equal(bind_of(&f, "A")->what, "a tuple assignment");
  assert_string_equal(bind_of(&f, "C")->what, "an augmented assignment");
  assert_int_equal(bind_of(&f, "host")->kind, FE_BIND_FUNC);
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
  parse_text(
      &f, "import triton\n@triton.jit\ndef f(x):\n    while x:\n        break\n        continue\n");
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

/* Host code that does not tokenize is an error; host code that merely is
 * not the kernel language is not. */
static void test_error_module_level(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\nclass K:\n    x = $\n");
  assert_null(f.mod);
  assert_int_equal(ir_context_num_errors(f.ctx), 1);
  expect_error(&f, 0, 3, 9, "unexpected character '$'");
  parse_done(&f);
}

/* Comprehensions, sets, dicts and f-strings parse into their nodes (the
 * lowering decides where they may be used). */
static void test_comprehensions_and_displays(void **state) {
  (void)state;
  const fe_stmt *s;
  parse_fixture f;
  s = first_stmt(&f, "a = [i * 2 for i in x if i for j in y]");
  assert_int_equal(s->value->kind, FE_EX_COMP);
  assert_int_equal(s->value->ival, FE_COMP_LIST);
  assert_int_equal(s->value->n, 2);
  assert_int_equal(s->value->items[0]->n, 1);
  parse_done(&f);
  s = first_stmt(&f, "a = {k: v for k, v in x}");
  assert_int_equal(s->value->ival, FE_COMP_DICT);
  assert_int_equal(s->value->items[0]->a->kind, FE_EX_TUPLE);
  parse_done(&f);
  s = first_stmt(&f, "a = ({1, *b}, {**d, 'k': 2}, sum(i for i in x), {})");
  assert_int_equal(s->value->items[0]->kind, FE_EX_SET);
  assert_int_equal(s->value->items[0]->items[1]->kind, FE_EX_STARRED);
  assert_int_equal(s->value->items[1]->kind, FE_EX_DICT);
  assert_null(s->value->items[1]->items[0]);
  assert_int_equal(s->value->items[2]->items[0]->ival, FE_COMP_GEN);
  assert_int_equal(s->value->items[3]->kind, FE_EX_DICT);
  parse_done(&f);
  s = first_stmt(&f, "a = f'x{y!r:>{w}} {z=}' 'tail'");
  assert_int_equal(s->value->kind, FE_EX_FSTR);
  assert_int_equal(s->value->n, 6);
  assert_int_equal(s->value->items[1]->kind, FE_EX_FORMAT);
  assert_int_equal(s->value->items[1]->ival, 'r');
  assert_int_equal(s->value->items[1]->b->kind, FE_EX_FSTR);
  assert_string_equal(s->value->items[3]->str, "z=");
  assert_string_equal(s->value->items[5]->str, "tail");
  parse_done(&f);
  s = first_stmt(&f, "g(*a, k=1, **kw)");
  assert_int_equal(s->value->items[0]->kind, FE_EX_STARRED);
  assert_int_equal(s->value->nkw, 2);
  assert_null(s->value->kwnames[1]);
  parse_done(&f);
}

static void test_error_unsupported_in_function(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f, "import triton\n@triton.jit\ndef f(x):\n"
                 "    del x\n"
                 "    y = (yield 1)\n");
  assert_null(f.mod);
  assert_int_equal(ir_context_num_errors(f.ctx), 2);
  expect_error(&f, 0, 4, 5, "unsupported statement 'del'");
  expect_error(&f, 1, 5, 10, "unsupported: 'yield'");
  parse_done(&f);
}

/* Decorator arguments may hold dicts and lambdas (@triton.autotune,
 * @triton.heuristics): a lambda is a function returning its body. */
static void test_decorator_dict_and_lambda(void **state) {
  (void)state;
  parse_fixture f;
  parse_text(&f,
             "import triton\n@triton.heuristics({'E': lambda a, b=2: a['n'] % 2 == 0, 'F': 1})\n"
             "@triton.jit\ndef f(x):\n    pass\n");
  assert_non_null(f.mod);
  assert_int_equal(ir_context_num_errors(f.ctx), 0);
  const fe_expr *d = f.mod->funcs[0]->decorators[0];
  assert_int_equal(d->kind, FE_EX_CALL);
  const fe_expr *dict = d->items[0];
  assert_int_equal(dict->kind, FE_EX_DICT);
  assert_int_equal(dict->n, 4);
  assert_int_equal(dict->items[1]->kind, FE_EX_LAMBDA);
  const fe_func *lam = dict->items[1]->fn;
  assert_int_equal(lam->nparams, 2);
  assert_non_null(lam->params[1].dflt);
  assert_int_equal(lam->body.stmts[0]->kind, FE_ST_RETURN);
  assert_int_equal(lam->body.stmts[0]->value->kind, FE_EX_COMPARE);
  parse_done(&f);
}

static void test_walrus_and_raise(void **state) {
  (void)state;
  parse_fixture f;
  const fe_stmt *s = first_stmt(&f, "y = (z := 1)");
  assert_int_equal(s->value->kind, FE_EX_WALRUS);
  parse_done(&f);
  s = first_stmt(&f, "raise ValueError('bad') from None");
  assert_int_equal(s->kind, FE_ST_RAISE);
  assert_int_equal(s->value->kind, FE_EX_CALL);
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
  parse_text(
      &f,
      "import triton\n@triton.jit\ndef f(x):\n    for i in range(3):\n        pass\n    else:\n        pass\n");
  assert_null(f.mod);
  assert_int_equal(ir_context_num_errors(f.ctx), 1);
  expect_error(&f, 0, 6, 5, "unsupported: 'else' clause on a loop");
  parse_done(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_module_structure),
      cmocka_unit_test(test_import_forms),
      cmocka_unit_test(test_module_host_code),
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
      cmocka_unit_test(test_comprehensions_and_displays),
      cmocka_unit_test(test_error_unsupported_in_function),
      cmocka_unit_test(test_decorator_dict_and_lambda),
      cmocka_unit_test(test_walrus_and_raise),
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
