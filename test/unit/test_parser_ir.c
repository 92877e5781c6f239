// SPDX-License-Identifier: MIT
/* test_parser_ir.c - the IR text parser and the IR tool API: a module built
 * with the builder prints, parses and prints identically; types and float
 * constants parse back to the same uniqued objects and bits; malformed text
 * (every truncation and random byte changes of a real kernel) gives a
 * located error and never crashes; ttc_ir_run runs passes and keeps
 * reproducers; ttc_verify_diagnostics matches and reports; the op limit
 * (IR_MAX_OPS, lowered here through the context's test hook) stops IR
 * text and kernel lowering with a located error naming it. */
#include "ttc_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/fe.h"
#include "ir-tt/ir.h"
#include "ttc/ttc.h"

/* Parses `text` in a new context; *ctx_out receives the context. */
static ir_module *parse(const char *text, ir_context **ctx_out) {
  ir_context *ctx = ir_context_create();
  const ir_source *src = ir_context_add_source(ctx, "t.ttir", text, strlen(text));
  *ctx_out = ctx;
  return ir_parse_module(ctx, src);
}

static char *print(const ir_module *m, bool locs) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_print_options po = {.locations = locs};
  ir_print_module(m, &po, &sb);
  return ir_sb_take(&sb);
}

/* The vector-add kernel built through the builder, in ctx. */
static ir_module *build_add(ir_context *ctx) {
  const ir_source *src = ir_context_add_source(ctx, "add.py", "x\ny\n", 4);
  ir_module *m = ir_module_create(ctx, (ir_loc){src, 1, 1});
  ir_builder b;
  ir_builder_init(&b, m);
  ir_builder_set_end(&b, ir_module_body(m));
  const ir_type *pf = ir_type_ptr(ctx, ir_type_f32(ctx), 1);
  const ir_type *args[] = {pf, pf, ir_type_i32(ctx)};
  ir_op *f = ir_build_func(&b, "add", 3, args);
  ir_block *body = f->regions[0].first;
  body->args[0]->name = ir_intern_cstr(ctx, "x_ptr");
  body->args[0]->divisibility = 16;
  ir_builder_set_end(&b, body);
  b.loc = (ir_loc){src, 2, 7};
  ir_value *pid = ir_build_program_id(&b, 0);
  ir_value *c = ir_build_const_int(&b, ir_type_i32(ctx), 1024);
  ir_value *start = ir_build_binary(&b, IR_OP_ARITH_MULI, pid, c);
  ir_value *r = ir_build_make_range(&b, 0, 1024);
  ir_value *s = ir_build_splat(&b, start, r->type);
  ir_value *offs = ir_build_binary(&b, IR_OP_ARITH_ADDI, s, r);
  ir_value *n = ir_build_splat(&b, body->args[2], r->type);
  ir_value *mask = ir_build_cmpi(&b, IR_CMPI_SLT, offs, n);
  const int64_t shape[] = {1024};
  ir_value *p = ir_build_splat(&b, body->args[0], ir_type_tensor(ctx, 1, shape, pf, NULL));
  ir_value *ops[] = {p, offs};
  ir_value *ptrs = ir_build1(&b, IR_OP_TT_ADDPTR, p->type, 2, ops);
  ir_value *lops[] = {ptrs, mask};
  ir_value *x =
      ir_build1(&b, IR_OP_TT_LOAD, ir_type_with_elem(ctx, r->type, ir_type_f32(ctx)), 2, lops);
  x->name = ir_intern_cstr(ctx, "x");
  ir_value *y = ir_build_binary(&b, IR_OP_ARITH_ADDF, x, x);
  ir_value *sops[] = {ptrs, y, mask};
  ir_build(&b, IR_OP_TT_STORE, 0, NULL, 3, sops, 0);
  ir_build(&b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0);
  return m;
}

static void test_roundtrip_built_module(void **state) {
  (void)state;
  for (int locs = 0; locs < 2; locs++) {
    ir_context *ctx = ir_context_create();
    ir_module *m = build_add(ctx);
    assert_true(ir_verify(m));
    char *a = print(m, locs);
    ir_context *ctx2;
    ir_module *m2 = parse(a, &ctx2);
    assert_non_null(m2);
    assert_int_equal(ir_context_num_errors(ctx2), 0);
    assert_true(ir_verify(m2));
    char *b = print(m2, locs);
    assert_string_equal(a, b);
    /* Structure, not just text: names, divisibility and kinds came back. */
    ir_op *f = ir_module_lookup_func(m2, "add");
    assert_non_null(f);
    assert_int_equal(f->regions[0].first->args[0]->divisibility, 16);
    assert_string_equal(f->regions[0].first->args[0]->name, "x_ptr");
    assert_int_equal(f->regions[0].first->first->kind, IR_OP_TT_GET_PROGRAM_ID);
    if (locs) {
      assert_int_equal(f->regions[0].first->first->loc.line, 2);
      assert_int_equal(f->regions[0].first->first->loc.col, 7);
      assert_string_equal(f->regions[0].first->first->loc.src->name, "add.py");
    }
    free(a);
    free(b);
    ir_module_destroy(m2);
    ir_context_destroy(ctx2);
    ir_module_destroy(m);
    ir_context_destroy(ctx);
  }
}

static const ir_type *parse_type(ir_context *ctx, const char *text) {
  const ir_source *src = ir_context_add_source(ctx, "type", text, strlen(text));
  return ir_parse_type(ctx, src);
}

static void test_types_are_uniqued(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  const unsigned spt[] = {1, 4}, tpw[] = {2, 16}, wpc[] = {4, 1}, ord[] = {1, 0};
  const ir_attr *bl = ir_attr_blocked(ctx, 2, spt, tpw, wpc, ord);
  const int64_t shape[] = {32, 64};
  const ir_type *want = ir_type_tensor(ctx, 2, shape, ir_type_ptr(ctx, ir_type_f16(ctx), 1), bl);
  const ir_type *got = parse_type(
      ctx,
      "tensor<32x64x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], "
      "warpsPerCTA = [4, 1], order = [1, 0]}>>");
  assert_ptr_equal(got, want);
  const int64_t s1[] = {32};
  const ir_type *sl = ir_type_tensor(ctx, 1, s1, ir_type_bf16(ctx), ir_attr_slice(ctx, 1, bl));
  assert_ptr_equal(parse_type(ctx, "tensor<32xbf16, #ttg.slice<{dim = 1, parent = #ttg.blocked<{"
                                   "sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA "
                                   "= [4, 1], order = [1, 0]}>}>>"),
                   sl);
  assert_ptr_equal(parse_type(ctx, "!tt.ptr<i8, 3>"), ir_type_ptr(ctx, ir_type_int(ctx, 8), 3));
  assert_ptr_equal(parse_type(ctx, "i1"), ir_type_i1(ctx));
  assert_null(parse_type(ctx, "i7"));
  assert_null(parse_type(ctx, "tensor<0xf32>"));
  assert_null(parse_type(ctx, "tensor<1x1x1x1x1xf32>"));
  assert_int_equal(ir_context_num_errors(ctx), 3);
  ir_context_destroy(ctx);
}

/* Random values of each float type print and parse back to the same bits. */
static void test_float_constants_roundtrip(void **state) {
  (void)state;
  srand(1234);
  ir_context *ctx = ir_context_create();
  const ir_type *types[] = {ir_type_f16(ctx), ir_type_bf16(ctx), ir_type_f32(ctx),
                            ir_type_f64(ctx)};
  const char *names[] = {"f16", "bf16", "f32", "f64"};
  for (int t = 0; t < 4; t++) {
    for (int i = 0; i < 200; i++) {
      double v;
      if (i == 0)
        v = INFINITY;
      else if (i == 1)
        v = -INFINITY;
      else if (i == 2)
        v = -0.0;
      else if (i == 3)
        v = 1e-7;
      else
        v = ldexp((double)rand() / RAND_MAX - 0.5, rand() % 60 - 30);
      const ir_attr *a = ir_attr_float(ctx, types[t], v);
      ir_strbuf sb;
      ir_sb_init(&sb);
      ir_sb_printf(&sb, "tt.func @f() {\n  %%c = arith.constant ");
      ir_attr_print(a, &sb);
      ir_sb_puts(&sb, "\n  tt.return\n}\n");
      ir_context *c2;
      ir_module *m = parse(sb.data, &c2);
      assert_non_null(m);
      const ir_op *op = ir_module_body(m)->first->regions[0].first->first;
      const ir_attr *back = ir_op_get_attr(op, "value");
      assert_int_equal(back->kind, IR_ATTR_FLOAT);
      assert_string_equal(names[t], back->type->is_bf16       ? "bf16"
                                    : back->type->width == 16 ? "f16"
                                    : back->type->width == 32 ? "f32"
                                                              : "f64");
      assert_memory_equal(&back->f, &a->f, sizeof a->f);
      ir_module_destroy(m);
      ir_context_destroy(c2);
      ir_sb_free(&sb);
    }
  }
  ir_context_destroy(ctx);
}

static void test_error_is_located(void **state) {
  (void)state;
  ir_context *ctx;
  const char *text = "tt.func @f(%a: i32) {\n  %0 = arith.addi %a %a : i32\n  tt.return\n}\n";
  ir_module *m = parse(text, &ctx);
  assert_null(m);
  assert_int_equal(ir_context_num_errors(ctx), 1);
  const ir_diag *d = ir_context_diag(ctx, 0);
  assert_int_equal(d->loc.line, 2);
  assert_int_equal(d->loc.col, 22);
  assert_string_equal(d->msg, "expected ',' in operand list");
  ir_context_destroy(ctx);
  m = parse("module {\n  %x = arith.nope : i32\n}\n", &ctx);
  assert_null(m);
  assert_string_equal(ir_context_diag(ctx, 0)->msg, "unknown operation 'arith.nope'");
  ir_context_destroy(ctx);
}

static const char kernel[] =
    "#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"
    "module attributes {\"ttg.num-warps\" = 4 : i32, ttg.target = \"cuda:90\"} {\n"
    "  tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) attributes {noinline = false} {\n"
    "    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>\n"
    "    %c0 = arith.constant 0 : i32\n"
    "    %acc = scf.for %i = %c0 to %n step %n iter_args(%a = %r) -> (tensor<512xi32, #blocked>)  : i32 {\n"
    "      %s = tt.splat %i : i32 -> tensor<512xi32, #blocked>\n"
    "      %b = arith.addi %a, %s : tensor<512xi32, #blocked>\n"
    "      scf.yield %b : tensor<512xi32, #blocked>\n"
    "    } loc(\"k.py\":3:4)\n"
    "    %x:2 = \"tt.reduce\"(%acc, %r) <{axis = 0 : i32}> ({\n"
    "    ^bb0(%u: i32, %v: i32, %w: i32, %z: i32):\n"
    "      %m = arith.maxsi %u, %w : i32\n"
    "      tt.reduce.return %m, %v : i32, i32\n"
    "    }) : (tensor<512xi32, #blocked>, tensor<512xi32, #blocked>) -> (i32, i32)\n"
    "    %f = arith.constant dense<1.500000e+00> : tensor<512xf32, #blocked>\n"
    "    %q = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>\n"
    "    %q2 = tt.addptr %q, %r : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>\n"
    "    tt.store %q2, %f : tensor<512x!tt.ptr<f32>, #blocked>\n"
    "    tt.return\n"
    "  }\n"
    "}\n";

/* Every prefix and random corruptions of a kernel: a module or a located
 * error, nothing else (the sanitizer build checks memory). */
static void test_malformed_never_crashes(void **state) {
  (void)state;
  ir_context *ctx;
  ir_module *whole = parse(kernel, &ctx);
  assert_non_null(whole);
  assert_true(ir_verify(whole));
  ir_module_destroy(whole);
  ir_context_destroy(ctx);
  size_t n = strlen(kernel);
  char *buf = malloc(n + 1);
  assert_non_null(buf);
  int failures = 0;
  for (size_t cut = 0; cut < n; cut++) {
    memcpy(buf, kernel, cut);
    buf[cut] = '\0';
    ir_module *m = parse(buf, &ctx);
    if (!m) {
      failures++;
      assert_int_equal(ir_context_num_errors(ctx), 1);
      assert_non_null(ir_context_diag(ctx, 0)->loc.src);
    }
    ir_module_destroy(m);
    ir_context_destroy(ctx);
  }
  assert_true(failures > (int)n / 2);
  srand(99);
  static const char junk[] = "%#@^!{}()<>[],:=*\"x0-9 \n";
  for (int i = 0; i < 3000; i++) {
    memcpy(buf, kernel, n + 1);
    for (int k = 0; k < 1 + i % 3; k++)
      buf[rand() % n] = junk[rand() % (sizeof junk - 1)];
    ir_module *m = parse(buf, &ctx);
    assert_true(m != NULL || ir_context_num_errors(ctx) == 1);
    if (m) {
      (void)ir_verify(m); /* corrupt but parsed IR must not crash the verifier */
      if (ir_context_num_errors(ctx) == 0) free(print(m, true));
    }
    ir_module_destroy(m);
    ir_context_destroy(ctx);
  }
  free(buf);
}

static void test_ir_run_passes_and_reproducer(void **state) {
  (void)state;
  const char *text = "tt.func @f(%a: i32) -> i32 {\n"
                     "  %0 = arith.addi %a, %a : i32\n"
                     "  %1 = arith.addi %a, %a : i32\n"
                     "  %2 = arith.muli %0, %1 : i32\n"
                     "  tt.return %2 : i32\n"
                     "}\n";
  ttc_ir_options o;
  ttc_ir_options_init(&o);
  o.passes = "cse";
  o.print_after = "cse";
  ttc_ir_result *r = NULL;
  assert_int_equal(ttc_ir_run(text, strlen(text), "f.ttir", &o, &r), TTC_OK);
  const char *out = ttc_ir_result_output(r, NULL);
  assert_non_null(strstr(out, "%1 = arith.muli %0, %0 : i32"));
  assert_null(strstr(out, "%2"));
  assert_non_null(strstr(ttc_ir_result_dump(r), "IR Dump After cse"));
  assert_null(ttc_ir_result_reproducer(r, NULL));
  ttc_ir_result_destroy(r);

  o.passes = "cse,test-break-verifier,dce";
  o.print_after = NULL;
  o.verify_each = 1;
  o.keep_reproducer = 1;
  assert_int_equal(ttc_ir_run(text, strlen(text), "f.ttir", &o, &r), TTC_ERROR_INPUT);
  const char *passes = NULL;
  const char *repro = ttc_ir_result_reproducer(r, &passes);
  assert_non_null(repro);
  assert_string_equal(passes, "test-break-verifier");
  assert_non_null(strstr(repro, "arith.muli %0, %0 : i32 loc(\"f.ttir\":4:3)"));
  assert_non_null(
      strstr(ttc_ir_result_diagnostics(r), "verification failed after pass 'test-break-verifier'"));
  /* The reproducer fails alone with the pass it names. */
  char *again = strdup(repro), *again_passes = strdup(passes);
  o.passes = again_passes;
  ttc_ir_result_destroy(r);
  assert_int_equal(ttc_ir_run(again, strlen(again), "r.ttir", &o, &r), TTC_ERROR_INPUT);
  assert_non_null(strstr(ttc_ir_result_diagnostics(r),
                         "f.ttir:1:1: error: 'arith.addi' op expects 2 operands, got 0"));
  free(again);
  free(again_passes);
  ttc_ir_result_destroy(r);

  o.passes = "nope";
  assert_int_equal(ttc_ir_run(text, strlen(text), "f.ttir", &o, &r), TTC_ERROR_ARGUMENT);
  assert_non_null(strstr(ttc_ir_result_diagnostics(r), "unknown pass 'nope'"));
  ttc_ir_result_destroy(r);
  assert_int_equal(ttc_ir_pass_count(), 16);
  assert_string_equal(ttc_ir_pass_name(3), "version-bounded-stores");
  assert_string_equal(ttc_ir_pass_name(5), "tritongpu-coalesce");
  assert_string_equal(ttc_ir_pass_name(6), "tritongpu-remove-layout-conversions");
  assert_string_equal(ttc_ir_pass_name(7), "tritongpu-accelerate-matmul");
  assert_string_equal(ttc_ir_pass_name(8), "tritongpu-optimize-dot-operands");
  assert_string_equal(ttc_ir_pass_name(10), "tritongpu-fuse-nested-loops");
  assert_string_equal(ttc_ir_pass_name(12), "tritongpu-pipeline");
  assert_string_equal(ttc_ir_pass_name(15), "test-break-verifier");
  assert_null(ttc_ir_pass_name(16));
}

static void test_split_keeps_line_numbers(void **state) {
  (void)state;
  const char *text =
      "tt.func @a() {\n  tt.return\n}\n// -----\ntt.func @b() {\n  %0 = arith.nope\n}\n";
  ttc_ir_options o;
  ttc_ir_options_init(&o);
  o.split_input_file = 1;
  ttc_ir_result *r = NULL;
  assert_int_equal(ttc_ir_run(text, strlen(text), "s.ttir", &o, &r), TTC_ERROR_INPUT);
  assert_non_null(
      strstr(ttc_ir_result_diagnostics(r), "s.ttir:6:8: error: unknown operation 'arith.nope'"));
  assert_non_null(strstr(ttc_ir_result_output(r, NULL), "tt.func @a()"));
  ttc_ir_result_destroy(r);
}

static void test_verify_diagnostics(void **state) {
  (void)state;
  const char *src = "line one\n# expected-error@+1 {{bad thing}}\nline three\n"
                    "x  // expected-warning {{careful}}\n# expected-error@unknown {{global}}\n";
  const char *diags = "k.py:3:5: error: a bad thing happened\nline three\n    ^\n"
                      "k.py:4:1: warning: be careful\nx  // expected-warning {{careful}}\n^\n"
                      "k.py:3:1: note: ignored unless expected\n"
                      "error: global failure\n";
  char *report = NULL;
  assert_int_equal(ttc_verify_diagnostics(src, strlen(src), "k.py", diags, &report), TTC_OK);
  assert_string_equal(report, "");
  free(report);
  const char *wrong = "k.py:2:1: error: elsewhere\n";
  assert_int_equal(ttc_verify_diagnostics(src, strlen(src), "k.py", wrong, &report),
                   TTC_ERROR_INPUT);
  assert_non_null(strstr(report, "k.py:2:1: error: unexpected error: elsewhere"));
  assert_non_null(strstr(report, "k.py:2: error: expected error \"bad thing\" was not produced"));
  assert_non_null(strstr(report, "k.py:4: error: expected warning \"careful\" was not produced"));
  free(report);
}

/* A function of `n` ops: n - 1 constants and the return. */
static char *ops_text(int n) {
  char *s = malloc((size_t)n * 48 + 64), *p = s;
  p += sprintf(p, "tt.func @f() {\n");
  for (int i = 0; i < n - 1; i++)
    p += sprintf(p, "  %%c%d = arith.constant %d : i32\n", i, i);
  sprintf(p, "  tt.return\n}\n");
  return s;
}

static void test_op_limit(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  assert_int_equal(ir_context_max_ops(ctx), (int64_t)1 << 20);
  ir_context_destroy(ctx);
  /* at the limit (the module op, the function and 62 ops: 64) it parses */
  char *text = ops_text(62);
  ctx = ir_context_create();
  ir_context_set_max_ops(ctx, 64);
  const ir_source *src = ir_context_add_source(ctx, "t.ttir", text, strlen(text));
  ir_module *m = ir_parse_module(ctx, src);
  assert_non_null(m);
  assert_int_equal(m->nops, 64);
  ir_module_destroy(m);
  ir_context_destroy(ctx);
  free(text);
  /* one more is a located error naming the limit, at the op past it */
  text = ops_text(63);
  ctx = ir_context_create();
  ir_context_set_max_ops(ctx, 64);
  src = ir_context_add_source(ctx, "t.ttir", text, strlen(text));
  assert_null(ir_parse_module(ctx, src));
  assert_int_equal(ir_context_num_errors(ctx), 1);
  const ir_diag *d = ir_context_diag(ctx, 0);
  assert_string_equal(d->msg, "the IR has more than the limit of 64 (2^6) operations");
  assert_int_equal(d->loc.line, 64);
  assert_int_equal(d->loc.col, 3);
  ir_context_destroy(ctx);
  free(text);
  /* a kernel that lowers to more: located at the first statement past it */
  const char *py = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                   "def k(x_ptr):\n    x = tl.load(x_ptr)\n"
                   "    x = x + 1.0\n    x = x * 2.0\n    x = x - 3.0\n    x = x + 4.0\n"
                   "    x = x * 5.0\n    x = x - 6.0\n    tl.store(x_ptr, x)\n";
  ctx = ir_context_create();
  ir_context_set_max_ops(ctx, 10);
  src = ir_context_add_source(ctx, "k.py", py, strlen(py));
  fe_kernel_info info = {0};
  assert_null(fe_lower_kernel(ctx, src, "k", "*fp32", NULL, &info));
  assert_int_equal(ir_context_num_errors(ctx), 1);
  d = ir_context_diag(ctx, 0);
  assert_string_equal(d->msg, "the kernel lowers to more than the limit of 10 operations");
  assert_true(d->loc.line >= 8 && d->loc.line <= 12);
  ir_context_destroy(ctx);
  /* and the same kernel under the default limit lowers */
  ctx = ir_context_create();
  src = ir_context_add_source(ctx, "k.py", py, strlen(py));
  m = fe_lower_kernel(ctx, src, "k", "*fp32", NULL, &info);
  assert_non_null(m);
  ir_module_destroy(m);
  ir_context_destroy(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_roundtrip_built_module),
      cmocka_unit_test(test_types_are_uniqued),
      cmocka_unit_test(test_float_constants_roundtrip),
      cmocka_unit_test(test_error_is_located),
      cmocka_unit_test(test_malformed_never_crashes),
      cmocka_unit_test(test_ir_run_passes_and_reproducer),
      cmocka_unit_test(test_split_keeps_line_numbers),
      cmocka_unit_test(test_verify_diagnostics),
      cmocka_unit_test(test_op_limit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
