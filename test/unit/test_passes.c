// SPDX-License-Identifier: MIT
/* test_passes.c - the verifier (arity, dominance, terminators, shapes,
 * located messages), the pass manager (lookup, order, print-before/after,
 * verify-each, timing, failure) and the canonicalize, cse and dce passes. */
#include "ttc_test.h"

#include "ir-ttgpu/ttg.h"

#include <stdlib.h>
#include <string.h>

#include "ir-tt/ir.h"

typedef struct fixture {
  ir_context *ctx;
  ir_module *m;
  ir_builder b;
  ir_op *func;
  ir_block *entry;
  const ir_type *i32, *f32;
} fixture;

static void fx_init(fixture *fx, int nargs, const ir_type *const *types) {
  fx->ctx = ir_context_create();
  fx->m = ir_module_create(fx->ctx, (ir_loc){0});
  ir_builder_init(&fx->b, fx->m);
  fx->i32 = ir_type_i32(fx->ctx);
  fx->f32 = ir_type_f32(fx->ctx);
  if (nargs < 0) { /* (i32 %n) */
    const ir_type *t = fx->i32;
    fx->func = ir_build_func(&fx->b, "f", 1, &t);
  } else {
    fx->func = ir_build_func(&fx->b, "f", nargs, types);
  }
  fx->entry = ir_region_entry(&fx->func->regions[0]);
  if (fx->entry->nargs) fx->entry->args[0]->name = ir_intern_cstr(fx->ctx, "n");
  ir_builder_set_end(&fx->b, fx->entry);
}

static void fx_fini(fixture *fx) {
  ir_module_destroy(fx->m);
  ir_context_destroy(fx->ctx);
}

static char *print(const ir_module *m) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_print_module(m, NULL, &sb);
  return ir_sb_take(&sb);
}

static char *diags(const ir_context *ctx) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_render_diags(ctx, &sb);
  return ir_sb_take(&sb);
}

static const ir_type *tensor1(fixture *fx, int64_t n, const ir_type *elem) {
  return ir_type_tensor(fx->ctx, 1, &n, elem, NULL);
}

static int count_kind(ir_module *m, ir_op_kind k);

typedef struct kind_count {
  ir_op_kind k;
  int n;
} kind_count;

static void count_one(ir_op *op, void *user) {
  kind_count *kc = user;
  if (op->kind == kc->k) kc->n++;
}

static int count_kind(ir_module *m, ir_op_kind k) {
  kind_count kc = {k, 0};
  ir_walk(m->op, count_one, &kc);
  return kc.n;
}

/* ---- verifier ------------------------------------------------------- */

static void test_verify_ok(void **state) {
  (void)state;
  fixture fx;
  fx_init(&fx, -1, NULL);
  ir_value *c = ir_build_const_int(&fx.b, fx.i32, 3);
  ir_value *s = ir_build_binary(&fx.b, IR_OP_ARITH_ADDI, fx.entry->args[0], c);
  ir_value *t = ir_build_splat(&fx.b, s, tensor1(&fx, 8, fx.i32));
  ir_value *r = ir_build_make_range(&fx.b, 0, 8);
  ir_build_cmpi(&fx.b, IR_CMPI_SLT, t, r);
  ir_build(&fx.b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0);
  assert_true(ir_verify(fx.m));
  assert_int_equal(ir_context_num_diags(fx.ctx), 0);
  fx_fini(&fx);
}

static void test_verify_errors_located(void **state) {
  (void)state;
  fixture fx;
  fx_init(&fx, -1, NULL);
  const char *text = "def f(n):\n    y = n + n\n";
  const ir_source *src = ir_context_add_source(fx.ctx, "f.py", text, strlen(text));
  fx.b.loc = (ir_loc){src, 2, 11};
  ir_value *n = fx.entry->args[0];
  ir_build1(&fx.b, IR_OP_ARITH_ADDI, fx.i32, 1, &n); /* one operand */
  ir_build(&fx.b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0);
  assert_false(ir_verify(fx.m));
  char *s = diags(fx.ctx);
  assert_string_equal(s, "f.py:2:11: error: 'arith.addi' op expects 2 operands, got 1\n"
                         "    y = n + n\n"
                         "          ^\n");
  free(s);
  fx_fini(&fx);
}

static void test_verify_dominance_terminator_shape(void **state) {
  (void)state;
  fixture fx;
  fx_init(&fx, -1, NULL);
  ir_value *n = fx.entry->args[0];
  ir_value *a = ir_build_binary(&fx.b, IR_OP_ARITH_ADDI, n, n);
  ir_value *b2 = ir_build_binary(&fx.b, IR_OP_ARITH_MULI, a, n);
  ir_op *ret = ir_build(&fx.b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0);
  /* Use before definition: move the muli above the addi. */
  ir_op_unlink(b2->def);
  ir_op_insert_before(a->def, b2->def);
  /* A terminator in the middle of the block. */
  ir_op_unlink(ret);
  ir_op_insert_after(a->def, ret);
  ir_builder_set_end(&fx.b, fx.entry);
  /* Elementwise shape mismatch: tensor<8> + tensor<4>. */
  ir_value *r8 = ir_build_make_range(&fx.b, 0, 8), *r4 = ir_build_make_range(&fx.b, 0, 4);
  ir_build_binary(&fx.b, IR_OP_ARITH_ADDI, r8, r4);
  /* scf.for without a yield although it carries a value. */
  ir_value *c0 = ir_build_const_int(&fx.b, fx.i32, 0);
  ir_value *fops[4] = {c0, n, c0, c0};
  ir_op *loop = ir_build(&fx.b, IR_OP_SCF_FOR, 1, &fx.i32, 4, fops, 1);
  const ir_type *bt[2] = {fx.i32, fx.i32};
  ir_region_append_block(&loop->regions[0], ir_block_create(fx.m, 2, bt));
  assert_false(ir_verify(fx.m));
  char *s = diags(fx.ctx);
  assert_non_null(strstr(s, "error: 'arith.muli' op operand #0 does not dominate this use\n"));
  assert_non_null(strstr(s, "error: 'tt.return' op must be the last operation in its block\n"));
  assert_non_null(
      strstr(s, "error: 'arith.addi' op requires the same shape for all operands and results\n"));
  assert_non_null(strstr(s, "error: 'scf.for' op expects its region to end with 'scf.yield'\n"));
  assert_non_null(strstr(s, "error: 'tt.func' op expects its region to end with 'tt.return'\n"));
  free(s);
  fx_fini(&fx);
}

/* ---- pass manager --------------------------------------------------- */

static void test_pass_registry(void **state) {
  (void)state;
  assert_int_equal(ir_pass_count(), 4);
  assert_string_equal(ir_pass_at(0)->name, "canonicalize");
  assert_string_equal(ir_pass_at(1)->name, "cse");
  assert_string_equal(ir_pass_at(2)->name, "dce");
  assert_string_equal(ir_pass_at(3)->name, "version-bounded-stores");
  assert_null(ir_pass_at(4));
  assert_ptr_equal(ir_pass_lookup("cse", 3), ir_pass_at(1));
  assert_null(ir_pass_lookup("nope", 4));
  assert_null(ir_pass_lookup("cs", 2)); /* a prefix is not a name */
  assert_non_null(ir_pass_at(0)->summary);
  assert_ptr_equal(ir_pass_at(2)->run, ir_pass_dce);
  /* The one registry: ttir passes first, then ttgir ones, all by name. */
  assert_int_equal(ttg_pass_count(), 4 + 11);
  assert_ptr_equal(ttg_pass_at(1), ir_pass_at(1));
  assert_string_equal(ttg_pass_at(4)->name, "convert-triton-to-tritongpu");
  assert_ptr_equal(ttg_pass_lookup("tritongpu-coalesce", 18), ttg_pass_at(5));
  assert_ptr_equal(ttg_pass_lookup("dce", 3), ir_pass_at(2));
  for (int i = 0; i < ttg_pass_count(); i++)
    assert_non_null(ttg_pass_at(i)->run);
}

/* Pipeline text: names, options in braces, errors for unknown names and
 * options, and the built-in pipeline parses. */
static void test_pipeline_parse(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  ir_pipeline pl;
  assert_true(ir_pipeline_parse(ctx,
                                "cse, convert-triton-to-tritongpu{num-warps=8 target=cuda:80},dce",
                                ttg_pass_lookup, &pl));
  assert_int_equal(pl.n, 3);
  assert_string_equal(pl.steps[1].pass->name, "convert-triton-to-tritongpu");
  assert_string_equal(pl.steps[1].spec, "convert-triton-to-tritongpu{num-warps=8 target=cuda:80}");
  int64_t v = 0;
  assert_true(ir_pass_arg_int(&pl.steps[1].args, "num-warps", &v));
  assert_int_equal(v, 8);
  assert_true(ir_pass_arg_int(&pl.steps[1].args, "target", &v));
  assert_int_equal(v, 80);
  assert_false(ir_pass_arg_int(&pl.steps[1].args, "num-ctas", &v));
  assert_int_equal(pl.steps[0].args.n, 0);
  ir_pipeline_free(&pl);
  assert_false(ir_pipeline_parse(ctx, "cse,frobnicate", ttg_pass_lookup, &pl));
  ir_pipeline_free(&pl);
  assert_false(ir_pipeline_parse(ctx, "cse{x=1}", ttg_pass_lookup, &pl));
  ir_pipeline_free(&pl);
  assert_false(
      ir_pipeline_parse(ctx, "convert-triton-to-tritongpu{num-warps=8", ttg_pass_lookup, &pl));
  ir_pipeline_free(&pl);
  char *s = diags(ctx);
  assert_non_null(strstr(s, "unknown pass 'frobnicate'"));
  assert_non_null(strstr(s, "unknown option 'x' for pass 'cse' (it takes none)"));
  assert_non_null(strstr(s, "malformed pass options"));
  free(s);
  char text[512];
  ttg_options o = {4, 32, 1, 90, 3, false};
  assert_true(ttg_pipeline_text(&o, text, sizeof text));
  assert_true(ir_pipeline_parse(ctx, text, ttg_pass_lookup, &pl));
  assert_true(pl.n >= 3);
  ir_pipeline_free(&pl);
  assert_false(ttg_pipeline_text(&o, text, 16));
  ir_context_destroy(ctx);
}

static bool pass_fail(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)scratch;
  (void)args;
  ir_error(m->ctx, (ir_loc){0}, "pass failed on purpose");
  return false;
}

/* Breaks the IR: the return gets a duplicate after it. */
static bool pass_break(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)args;
  assert_non_null(ir_arena_alloc(scratch, 100)); /* scratch is usable */
  ir_op *f = ir_module_lookup_func(m, "f");
  ir_block *e = ir_region_entry(&f->regions[0]);
  ir_block_append(e, ir_op_create(m, IR_OP_TT_RETURN, (ir_loc){0}, 0, NULL, 0, NULL, 0));
  return true;
}

static const ir_pass fail_pass = {"fail", "fails", NULL, pass_fail};
static const ir_pass break_pass = {"break", "breaks the IR", NULL, pass_break};

static const ir_pass *test_lookup(const char *name, size_t len) {
  if (len == 4 && memcmp(name, "fail", 4) == 0) return &fail_pass;
  if (len == 5 && memcmp(name, "break", 5) == 0) return &break_pass;
  return ir_pass_lookup(name, len);
}

static void test_run_passes_dump_and_failures(void **state) {
  (void)state;
  fixture fx;
  fx_init(&fx, -1, NULL);
  ir_value *c = ir_build_const_int(&fx.b, fx.i32, 3);
  ir_build_binary(&fx.b, IR_OP_ARITH_ADDI, fx.entry->args[0], c);
  ir_build(&fx.b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0);
  ir_strbuf dump;
  ir_sb_init(&dump);
  ir_pipeline pl;
  assert_true(ir_pipeline_parse(fx.ctx, "cse,dce", test_lookup, &pl));
  ir_pass_timing tm = {0};
  ir_pass_options opts = {"cse", "all", false, true, NULL, &dump, NULL, NULL, &tm};
  assert_true(ir_run_pipeline(fx.m, &pl, &opts));
  ir_pipeline_free(&pl);
  const char *before = strstr(dump.data, "// -----// IR Dump Before cse //----- //\nmodule {\n");
  const char *after_cse = strstr(dump.data, "// -----// IR Dump After cse //----- //\n");
  const char *after_dce = strstr(dump.data, "// -----// IR Dump After dce //----- //\n");
  assert_non_null(before);
  assert_non_null(after_cse);
  assert_non_null(after_dce);
  assert_true(before < after_cse && after_cse < after_dce);
  assert_null(strstr(dump.data, "Dump Before dce"));
  /* dce removed the unused addi and constant. */
  assert_null(strstr(after_dce, "arith.addi"));
  assert_non_null(strstr(after_cse, "arith.addi"));
  assert_int_equal(tm.n, 2);
  assert_string_equal(tm.names[1], "dce");
  ir_sb_free(&dump);

  /* A failing pass stops the pipeline; the reproducer is the IR it got. */
  char *repro = NULL;
  const char *repro_spec = NULL;
  ir_pass_options r = {NULL, NULL, false, false, NULL, NULL, &repro, &repro_spec, NULL};
  assert_true(ir_pipeline_parse(fx.ctx, "cse,fail,dce", test_lookup, &pl));
  assert_false(ir_run_pipeline(fx.m, &pl, &r));
  assert_int_equal(ir_context_num_errors(fx.ctx), 1);
  assert_non_null(repro);
  assert_non_null(strstr(repro, "tt.func"));
  assert_string_equal(repro_spec, "fail");
  free(repro);
  ir_pipeline_free(&pl);
  /* verify_each catches broken IR. */
  ir_pass_options v = {NULL, NULL, false, true, NULL, NULL, NULL, NULL, NULL};
  assert_true(ir_pipeline_parse(fx.ctx, "break", test_lookup, &pl));
  assert_false(ir_run_pipeline(fx.m, &pl, &v));
  ir_pipeline_free(&pl);
  char *s = diags(fx.ctx);
  assert_non_null(strstr(s, "'tt.return' op must be the last operation in its block"));
  assert_non_null(strstr(s, "verification failed after pass 'break'"));
  free(s);
  fx_fini(&fx);
}

/* ---- canonicalize / cse / dce --------------------------------------- */

static void test_canonicalize(void **state) {
  (void)state;
  fixture fx;
  fx_init(&fx, -1, NULL);
  ir_builder *b = &fx.b;
  ir_value *n = fx.entry->args[0];
  ir_value *c2 = ir_build_const_int(b, fx.i32, 2), *c3 = ir_build_const_int(b, fx.i32, 3);
  ir_value *six = ir_build_binary(b, IR_OP_ARITH_MULI, c2, c3);
  ir_value *seven = ir_build_binary(b, IR_OP_ARITH_ADDI, six, ir_build_const_int(b, fx.i32, 1));
  ir_value *zero = ir_build_const_int(b, fx.i32, 0);
  ir_value *x = ir_build_binary(b, IR_OP_ARITH_ADDI, n, zero);                             /* n */
  ir_value *y = ir_build_binary(b, IR_OP_ARITH_MULI, ir_build_const_int(b, fx.i32, 1), x); /* n */
  ir_value *z = ir_build_binary(b, IR_OP_ARITH_MULI, y, zero);                             /* 0 */
  ir_value *q = ir_build_binary(b, IR_OP_ARITH_DIVSI, seven, zero); /* not folded */
  ir_value *sp = ir_build_splat(b, seven, tensor1(&fx, 4, fx.i32)); /* dense<7> */
  sp->name = ir_intern_cstr(fx.ctx, "v");
  ir_value *cmp = ir_build_cmpi(b, IR_CMPI_SLT, c3, c2);        /* false: picks neg */
  ir_value *neg = ir_build_binary(b, IR_OP_ARITH_SUBI, c2, c3); /* -1 */
  ir_value *sel = ir_build1(b, IR_OP_ARITH_SELECT, fx.i32, 3, (ir_value *[]){cmp, n, neg});
  ir_value *fs = ir_build_splat(b, ir_build_const_float(b, fx.f32, 0.5), tensor1(&fx, 4, fx.f32));
  ir_value *rets[6] = {y, z, q, sp, sel, fs};
  ir_build(b, IR_OP_TT_RETURN, 0, NULL, 6, rets, 0);
  ir_arena scratch;
  ir_arena_init(&scratch);
  assert_true(ir_pass_canonicalize(fx.m, &scratch, NULL));
  ir_arena_free(&scratch);
  assert_true(ir_verify(fx.m));
  char *s = print(fx.m);
  assert_string_equal(
      s, "module {\n"
         "  tt.func public @f(%n: i32) -> (i32, i32, i32, tensor<4xi32>, i32, tensor<4xf32>) "
         "attributes {noinline = false} {\n"
         "    %c7_i32 = arith.constant 7 : i32\n"
         "    %c0_i32 = arith.constant 0 : i32\n"
         "    %c0_i32_0 = arith.constant 0 : i32\n"
         "    %0 = arith.divsi %c7_i32, %c0_i32 : i32\n"
         "    %v = arith.constant dense<7> : tensor<4xi32>\n"
         "    %c-1_i32 = arith.constant -1 : i32\n"
         "    %cst = arith.constant dense<5.000000e-01> : tensor<4xf32>\n"
         "    tt.return %n, %c0_i32_0, %0, %v, %c-1_i32, %cst : i32, i32, i32, tensor<4xi32>, i32, "
         "tensor<4xf32>\n"
         "  }\n"
         "}\n");
  free(s);
  fx_fini(&fx);
}

static void test_cse_scopes(void **state) {
  (void)state;
  fixture fx;
  fx_init(&fx, -1, NULL);
  ir_builder *b = &fx.b;
  ir_value *n = fx.entry->args[0];
  ir_value *a1 = ir_build_binary(b, IR_OP_ARITH_ADDI, n, n);
  ir_value *r1 = ir_build_make_range(b, 0, 16), *r2 = ir_build_make_range(b, 0, 16);
  ir_value *r3 = ir_build_make_range(b, 0, 32); /* different attrs: kept */
  ir_value *c1 = ir_build_const_int(b, fx.i32, 5);
  ir_value *m1 = ir_build_binary(b, IR_OP_ARITH_MULI, a1, c1);
  ir_value *m2 = ir_build_binary(b, IR_OP_ARITH_MULI, c1, a1); /* commutes with m1 */
  ir_value *s1 = ir_build_binary(b, IR_OP_ARITH_SUBI, a1, c1);
  ir_value *s2 = ir_build_binary(b, IR_OP_ARITH_SUBI, c1, a1); /* does not commute */
  /* An scf.if: the then-region's copy of a1 goes; the else-region's own
   * computation is not visible to the op after the if. */
  ir_value *cond = ir_build_cmpi(b, IR_CMPI_SLT, n, c1);
  ir_op *iff = ir_build(b, IR_OP_SCF_IF, 1, &fx.i32, 1, &cond, 2);
  ir_block *thn = ir_block_create(fx.m, 0, NULL), *els = ir_block_create(fx.m, 0, NULL);
  ir_region_append_block(&iff->regions[0], thn);
  ir_region_append_block(&iff->regions[1], els);
  ir_builder_set_end(b, thn);
  ir_value *a2 = ir_build_binary(b, IR_OP_ARITH_ADDI, n, n);
  ir_build(b, IR_OP_SCF_YIELD, 0, NULL, 1, &a2, 0);
  ir_builder_set_end(b, els);
  ir_value *e1 = ir_build_binary(b, IR_OP_ARITH_SUBI, n, n);
  ir_build(b, IR_OP_SCF_YIELD, 0, NULL, 1, &e1, 0);
  ir_builder_set_end(b, fx.entry);
  ir_value *e2 = ir_build_binary(b, IR_OP_ARITH_SUBI, n, n);
  ir_value *rets[9] = {r1, r2, r3, m1, m2, s1, s2, &iff->results[0], e2};
  ir_build(b, IR_OP_TT_RETURN, 0, NULL, 9, rets, 0);
  ir_arena scratch;
  ir_arena_init(&scratch);
  assert_true(ir_pass_cse(fx.m, &scratch, NULL));
  ir_arena_free(&scratch);
  assert_true(ir_verify(fx.m));
  ir_op *ret = fx.entry->last;
  assert_ptr_equal(ret->operands[1], r1);
  assert_ptr_equal(ret->operands[2], r3);
  assert_ptr_equal(ret->operands[4], m1);
  assert_ptr_not_equal(ret->operands[6], s1);
  assert_ptr_equal(thn->first->operands[0], a1); /* the yield now yields a1 */
  assert_ptr_equal(thn->first->kind, IR_OP_SCF_YIELD);
  assert_ptr_equal(ret->operands[8], e2); /* e1 was in a sibling scope */
  assert_int_equal(count_kind(fx.m, IR_OP_TT_MAKE_RANGE), 2);
  assert_int_equal(count_kind(fx.m, IR_OP_ARITH_ADDI), 1);
  assert_int_equal(count_kind(fx.m, IR_OP_ARITH_SUBI), 4);
  fx_fini(&fx);
}

static void test_dce_keeps_side_effects(void **state) {
  (void)state;
  fixture fx;
  const ir_type *pf = NULL;
  fx_init(&fx, -1, NULL);
  pf = ir_type_ptr(fx.ctx, fx.f32, 1);
  ir_value *p = ir_block_add_arg(fx.m, fx.entry, pf);
  ir_builder *b = &fx.b;
  ir_value *n = fx.entry->args[0];
  /* A dead chain: a -> b -> c, none used. */
  ir_value *a = ir_build_binary(b, IR_OP_ARITH_ADDI, n, n);
  ir_value *bb = ir_build_binary(b, IR_OP_ARITH_MULI, a, a);
  ir_build_splat(b, bb, tensor1(&fx, 4, fx.i32));
  /* An unused load and a store: both have effects and stay. */
  ir_value *ld = ir_build1(b, IR_OP_TT_LOAD, fx.f32, 1, &p);
  ir_value *sv[2] = {p, ld};
  ir_build(b, IR_OP_TT_STORE, 0, NULL, 2, sv, 0);
  ir_value *ldu = ir_build1(b, IR_OP_TT_LOAD, fx.f32, 1, &p);
  (void)ldu;
  ir_build(b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0);
  ir_arena scratch;
  ir_arena_init(&scratch);
  assert_true(ir_pass_dce(fx.m, &scratch, NULL));
  ir_arena_free(&scratch);
  assert_int_equal(count_kind(fx.m, IR_OP_ARITH_ADDI), 0);
  assert_int_equal(count_kind(fx.m, IR_OP_ARITH_MULI), 0);
  assert_int_equal(count_kind(fx.m, IR_OP_TT_SPLAT), 0);
  assert_int_equal(count_kind(fx.m, IR_OP_TT_LOAD), 2);
  assert_int_equal(count_kind(fx.m, IR_OP_TT_STORE), 1);
  assert_int_equal(count_kind(fx.m, IR_OP_TT_RETURN), 1);
  assert_true(ir_verify(fx.m));
  fx_fini(&fx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_verify_ok),
      cmocka_unit_test(test_verify_errors_located),
      cmocka_unit_test(test_verify_dominance_terminator_shape),
      cmocka_unit_test(test_pass_registry),
      cmocka_unit_test(test_pipeline_parse),
      cmocka_unit_test(test_run_passes_dump_and_failures),
      cmocka_unit_test(test_canonicalize),
      cmocka_unit_test(test_cse_scopes),
      cmocka_unit_test(test_dce_keeps_side_effects),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
