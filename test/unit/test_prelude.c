/* test_prelude.c - the tl surface built on the prelude (tl functions written
 * in the kernel language and embedded into libttc) and the language features
 * around it: the embedded files parse, prelude reductions and scans lower to
 * tt.reduce / tt.scan with inlined combiners, errors inside the prelude are
 * reported at the user's call, Philox matches Triton's constants, and the
 * control flow added for it (early return, static_range break) lowers. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttc_test.h"

#include "lower_fixture.h"

/* The first error's message and position. */
static void expect_error(const lower_fixture *f, const char *file, unsigned line, unsigned col,
                         const char *msg) {
  for (size_t k = 0; k < ir_context_num_diags(f->ctx); k++) {
    const ir_diag *d = ir_context_diag(f->ctx, k);
    if (d->sev != IR_SEV_ERROR) continue;
    assert_string_equal(d->msg, msg);
    assert_string_equal(d->loc.src->name, file);
    assert_int_equal(d->loc.line, line);
    assert_int_equal(d->loc.col, col);
    return;
  }
  fail_msg("no error reported:\n%s", f->diags);
}

/* Every embedded file parses and defines the functions the docs promise. */
static void test_prelude_embedded(void **state) {
  (void)state;
  assert_true(fe_prelude_nfiles >= 2);
  const char *want[] = {"def sum(",     "def argmax(",    "def cumsum(",
                        "def softmax(", "def rand(",      "def randn(",
                        "def randint(", "def swizzle2d(", "def zeros_like("};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    bool found = false;
    for (int k = 0; k < fe_prelude_nfiles; k++)
      found |= strstr(fe_prelude_files[k].text, want[i]) != NULL;
    if (!found) fail_msg("'%s' missing from the prelude", want[i]);
  }
  for (int k = 0; k < fe_prelude_nfiles; k++) {
    assert_int_equal(strlen(fe_prelude_files[k].text), fe_prelude_files[k].len);
    ir_context *ctx = ir_context_create();
    ir_arena a;
    ir_arena_init(&a);
    const ir_source *src = ir_context_add_source(ctx, fe_prelude_files[k].name,
                                                 fe_prelude_files[k].text, fe_prelude_files[k].len);
    assert_non_null(fe_parse(ctx, src, &a));
    assert_int_equal(ir_context_num_errors(ctx), 0);
    ir_arena_free(&a);
    ir_context_destroy(ctx);
  }
}

/* sum of int8 accumulates in int32; max with indices reduces two operands;
 * methods (x.sum()) reach the prelude too. */
static void test_prelude_reductions(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef k(a, o, i):\n"
                    "    r = tl.arange(0, 64)\n"
                    "    x = tl.load(a + r)\n"
                    "    tl.store(o, x.sum())\n"
                    "    m, j = tl.max(x, 0, return_indices=True)\n"
                    "    tl.store(i, j)\n"
                    "    tl.store(o + 1, m + tl.argmin(x, 0))\n",
                    "k", "*i8,*i32,*i32"));
  expect_ir(&f, "arith.extsi %x_1 : tensor<64xi8> to tensor<64xi32>");
  expect_ir(&f, "(tensor<64xi8>, tensor<64xi32>) -> (i8, i32)"); /* indices: no promotion */
  assert_int_equal(count_ir(&f, "\"tt.reduce\""), 3);
  assert_int_equal(count_ir(&f, "tt.reduce.return"), 3);
  lower_done(&f);
}

/* A user combine function over a tuple, and a scan. */
static void test_reduce_combine_fn(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef both(a, b, c, d):\n    return a + c, tl.maximum(b, d)\n\n"
                    "@triton.jit\ndef k(p):\n"
                    "    r = tl.arange(0, 32)\n"
                    "    x = tl.load(p + r)\n"
                    "    s, m = tl.reduce((x, r), 0, both)\n"
                    "    tl.store(p, s + m)\n"
                    "    tl.store(p + r, tl.cumsum(x, 0, reverse=True))\n",
                    "k", "*fp32"));
  expect_ir(&f, "^bb0(%arg1: f32, %arg2: i32, %arg3: f32, %arg4: i32):");
  expect_ir(&f, "arith.maxsi %arg2, %arg4 : i32");
  expect_ir(&f, "<{axis = 0 : i32, reverse = true}>");
  expect_ir(&f, "tt.scan.return");
  lower_done(&f);
  /* A combine function returning the wrong number of values. */
  assert_false(lower(&f,
                     "@triton.jit\ndef one(a, b, c, d):\n    return a\n\n"
                     "@triton.jit\ndef k(p):\n"
                     "    r = tl.arange(0, 32)\n"
                     "    x = tl.reduce((r, r), 0, one)\n",
                     "k", "*fp32"));
  expect_error(&f, "k.py", 11, 9, "combine function returns 1 values, expected 2");
  lower_done(&f);
}

/* An error inside a prelude function points at the user's call, with a note
 * pointing into the prelude. */
static void test_prelude_error_location(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f,
                     "@triton.jit\ndef k(p):\n"
                     "    x = tl.load(p + tl.arange(0, 16))\n"
                     "    y = tl.xor_sum(x)\n",
                     "k", "*fp32"));
  expect_error(&f, "k.py", 7, 9, "static assertion failed: xor_sum only supported for integers");
  assert_non_null(strstr(f.diags, "note: inside 'tl.xor_sum' (ttc's prelude)"));
  assert_non_null(strstr(f.diags, "<prelude>/standard.py"));
  lower_done(&f);
}

/* Philox: ten unrolled rounds with Triton's constants. */
static void test_philox(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef k(o, seed):\n"
                    "    r = tl.arange(0, 16)\n"
                    "    tl.store(o + r, tl.randint(seed, r))\n",
                    "k", "*u32,i32"));
  assert_true(count_ir(&f, "tt.mulhiui") >= 18);
  expect_ir(&f, "-766435501");           /* 0xD2511F53 */
  expect_ir(&f, "-845247145");           /* 0xCD9E8D57 */
  expect_ir(&f, "constant -1640531527"); /* 0x9E3779B9 */
  expect_ir(&f, "constant -1150833019"); /* 0xBB67AE85 */
  lower_done(&f);
}

/* Early return under a runtime if; break/continue in static_range;
 * tuple slices; static_print as a remark. */
static void test_control_flow(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef k(p, n):\n"
                    "    if tl.program_id(0) >= n:\n"
                    "        return\n"
                    "    acc = 0\n"
                    "    for i in tl.static_range(10):\n"
                    "        if i == 3:\n"
                    "            continue\n"
                    "        if i == 5:\n"
                    "            break\n"
                    "        acc += i\n"
                    "    t = (1, 2, 3, 4)[1:-1]\n"
                    "    tl.static_print(acc, t)\n"
                    "    tl.store(p, acc + t[0] + t[1])\n",
                    "k", "*i32,i32"));
  expect_ir(&f, "scf.if");
  expect_ir(&f, "} else {");
  expect_ir(&f, "arith.constant 12 : i32"); /* 0+1+2+4 + 2 + 3 */
  assert_non_null(strstr(f.diags, "remark: static_print: 7 (2, 3)"));
  lower_done(&f);
  assert_false(lower(&f,
                     "@triton.jit\ndef k(p, n):\n"
                     "    for i in tl.static_range(4):\n"
                     "        if n > i:\n"
                     "            break\n",
                     "k", "*i32,i32"));
  expect_error(&f, "k.py", 8, 13,
               "unsupported: 'break' under a runtime condition (only "
               "constexpr conditions can end a tl.static_range iteration)");
  lower_done(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_prelude_embedded),
      cmocka_unit_test(test_prelude_reductions),
      cmocka_unit_test(test_reduce_combine_fn),
      cmocka_unit_test(test_prelude_error_location),
      cmocka_unit_test(test_philox),
      cmocka_unit_test(test_control_flow),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
