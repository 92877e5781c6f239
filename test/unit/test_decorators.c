// SPDX-License-Identifier: MIT
/* test_decorators.c - decorator arguments evaluated as Python at compile
 * time (decorators.c): autotune configs from comprehensions,
 * itertools.product and module helpers, keys, heuristics lambdas run on
 * launch arguments, jit options; host-state arguments give a remark and
 * contribute nothing. */
#include <stdbool.h>
#include <string.h>

#include "ttc_test.h"

#include "frontend/fe.h"

static fe_decorators *eval(const char *src, const char *kernel) {
  fe_decorators *d = fe_decorators_eval(src, strlen(src), "dec.py", kernel, NULL);
  assert_non_null(d);
  return d;
}

static const fe_cvalue *config_value(const fe_autotune_config *c, const char *name) {
  for (int i = 0; i < c->nkw; i++)
    if (strcmp(c->names[i], name) == 0) return &c->values[i];
  fail_msg("config has no '%s'", name);
  return NULL;
}

static const char *comprehension_src =
    "import itertools\n"
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "def helper_configs(stages):\n"
    "    out = []\n"
    "    for bm, bn in itertools.product([32, 64], [16, 128]):\n"
    "        if bm * bn <= 4096:\n"
    "            out.append(triton.Config({'BM': bm, 'BN': bn, 'ACT': 'gelu'}, num_warps=4,\n"
    "                                     num_stages=stages))\n"
    "    return out\n"
    "\n"
    "EXTRA = [triton.Config({'BM': b, 'BN': 2 * b, 'ACT': None}, num_warps=w)\n"
    "         for b in (16,) for w in range(2, 5, 2)]\n"
    "\n"
    "@triton.autotune(configs=helper_configs(3) + EXTRA, key=['M', 'N'])\n"
    "@triton.heuristics({'EVEN': lambda args: args['M'] % args['BM'] == 0,\n"
    "                    'DT': lambda args: tl.float16 if args['M'] > 100 else tl.float32})\n"
    "@triton.jit(debug=True, do_not_specialize=['M'])\n"
    "def k(x, M, N, BM: tl.constexpr, BN: tl.constexpr, ACT: tl.constexpr,\n"
    "      EVEN: tl.constexpr, DT: tl.constexpr):\n"
    "    pass\n";

static void test_autotune_configs_built_by_python(void **state) {
  (void)state;
  fe_decorators *d = eval(comprehension_src, "k");
  assert_true(d->found);
  assert_true(d->has_autotune);
  if (!d->autotune_evaluated) fail_msg("not evaluated: %s\n%s", d->autotune_why, d->diagnostics);
  /* 32x16, 32x128, 64x16 (64x128 is over 4096), then two EXTRA configs */
  assert_int_equal(d->nconfigs, 5);
  assert_int_equal(config_value(&d->configs[1], "BM")->ival, 32);
  assert_int_equal(config_value(&d->configs[1], "BN")->ival, 128);
  assert_int_equal(config_value(&d->configs[2], "BM")->ival, 64);
  assert_int_equal(config_value(&d->configs[0], "ACT")->kind, FE_CONST_STR);
  assert_string_equal(config_value(&d->configs[0], "ACT")->sval, "gelu");
  assert_int_equal(d->configs[0].num_stages, 3);
  assert_int_equal(d->configs[0].num_warps, 4);
  assert_int_equal(config_value(&d->configs[3], "ACT")->kind, FE_CONST_NONE);
  assert_int_equal(config_value(&d->configs[4], "BN")->ival, 32);
  assert_int_equal(d->configs[3].num_warps, 2);
  assert_int_equal(d->configs[4].num_warps, 4);
  assert_int_equal(d->configs[4].num_stages, 0); /* not given */
  assert_int_equal(d->nkeys, 2);
  assert_string_equal(d->keys[1], "N");
  assert_true(d->debug);
  assert_int_equal(d->ndo_not_specialize, 1);
  assert_string_equal(d->do_not_specialize[0], "M");
  fe_decorators_free(d);
}

static void test_heuristics_run_on_arguments(void **state) {
  (void)state;
  fe_decorators *d = eval(comprehension_src, "k");
  assert_true(d->heuristics_evaluated);
  assert_int_equal(d->nheuristics, 2);
  assert_string_equal(d->heuristics[0], "EVEN");
  const char *names[] = {"M", "BM"};
  fe_cvalue vals[2] = {{FE_CONST_INT, 256, 0, NULL, 0}, {FE_CONST_INT, 64, 0, NULL, 0}};
  fe_cvalue out;
  char err[256];
  assert_true(fe_decorators_heuristic(d, "EVEN", 2, names, vals, &out, err, sizeof err));
  assert_int_equal(out.kind, FE_CONST_BOOL);
  assert_int_equal(out.ival, 1);
  vals[0].ival = 100;
  assert_true(fe_decorators_heuristic(d, "EVEN", 2, names, vals, &out, err, sizeof err));
  assert_int_equal(out.ival, 0);
  assert_true(fe_decorators_heuristic(d, "DT", 2, names, vals, &out, err, sizeof err));
  assert_int_equal(out.kind, FE_CONST_DTYPE);
  assert_int_equal(out.dtype, TTC_TYPE_F32);
  /* a missing argument: the lambda fails, with the reason */
  assert_false(fe_decorators_heuristic(d, "EVEN", 1, names + 1, vals + 1, &out, err, sizeof err));
  assert_non_null(strstr(err, "'M'"));
  assert_false(fe_decorators_heuristic(d, "NOPE", 0, NULL, NULL, &out, err, sizeof err));
  fe_decorators_free(d);
}

/* Configs from a device query: a remark, nothing evaluated, no error. */
static void test_host_state_configs_are_a_remark(void **state) {
  (void)state;
  const char *src = "import torch\nimport triton\n"
                    "SMS = torch.cuda.get_device_properties(0).multi_processor_count\n"
                    "@triton.autotune(configs=[triton.Config({'B': SMS})], key=[])\n"
                    "@triton.jit\ndef k(x, B: 'tl.constexpr'):\n    pass\n";
  fe_decorators *d = eval(src, "k");
  assert_true(d->has_autotune);
  assert_false(d->autotune_evaluated);
  assert_int_equal(d->nconfigs, 0);
  assert_non_null(strstr(d->diagnostics, "remark: autotune configs of kernel 'k' not evaluated"));
  assert_non_null(strstr(d->autotune_why, "SMS"));
  assert_null(strstr(d->diagnostics, "error:"));
  fe_decorators_free(d);
}

static void test_missing_kernel(void **state) {
  (void)state;
  fe_decorators *d = eval("import triton\n", "k");
  assert_false(d->found);
  assert_non_null(strstr(d->diagnostics, "no function named 'k'"));
  fe_decorators_free(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_autotune_configs_built_by_python),
      cmocka_unit_test(test_heuristics_run_on_arguments),
      cmocka_unit_test(test_host_state_configs_are_a_remark),
      cmocka_unit_test(test_missing_kernel),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
