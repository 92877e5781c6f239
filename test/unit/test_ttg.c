// SPDX-License-Identifier: MIT
/* test_ttg.c - the ttgir layer: Triton's default blocked layouts (values
 * taken from Triton 3.6's dumps in shared/reference) and per-thread counts. */
#include "ttc_test.h"

#include "ir-ttgpu/ttg.h"

static void expect_blocked(const ir_attr *l, int rank, const unsigned *spt, const unsigned *tpw,
                           const unsigned *wpc, const unsigned *order) {
  assert_non_null(l);
  assert_int_equal(l->kind, IR_ATTR_BLOCKED);
  assert_int_equal(l->rank, rank);
  for (int d = 0; d < rank; d++) {
    assert_int_equal(l->size_per_thread[d], spt[d]);
    assert_int_equal(l->threads_per_warp[d], tpw[d]);
    assert_int_equal(l->warps_per_cta[d], wpc[d]);
    assert_int_equal(l->order[d], order[d]);
  }
}

/* add.ttgir: 1024 f32, 4 warps, coalesced to 4 per thread. */
static void test_default_1d(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  int64_t shape[1] = {1024};
  const ir_attr *l = ttg_default_blocked(ctx, 1, shape, 4, 4, 32);
  expect_blocked(l, 1, (unsigned[]){4}, (unsigned[]){32}, (unsigned[]){4}, (unsigned[]){0});
  /* Uniqued: the same request gives the same pointer. */
  assert_ptr_equal(l, ttg_default_blocked(ctx, 1, shape, 4, 4, 32));
  ir_context_destroy(ctx);
}

/* A shape smaller than the CTA: warps still all go to the only dim. */
static void test_small_1d(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  int64_t shape[1] = {64};
  const ir_attr *l = ttg_default_blocked(ctx, 1, shape, 1, 4, 32);
  expect_blocked(l, 1, (unsigned[]){1}, (unsigned[]){32}, (unsigned[]){4}, (unsigned[]){0});
  ttg_ll ll;
  assert_true(ttg_ll_of_tensor(l, 1, shape, &ll));
  assert_int_equal(ttg_ll_num_regs(&ll), 1);
  ir_context_destroy(ctx);
}

/* matmul.ttgir: A tile 128x64 and B tile 64x128 of f16, 8 warps, 8 per thread. */
static void test_default_2d_matmul_tiles(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  int64_t a[2] = {128, 64}, b[2] = {64, 128};
  expect_blocked(ttg_default_blocked(ctx, 2, a, 8, 8, 32), 2, (unsigned[]){1, 8},
                 (unsigned[]){4, 8}, (unsigned[]){8, 1}, (unsigned[]){1, 0});
  expect_blocked(ttg_default_blocked(ctx, 2, b, 8, 8, 32), 2, (unsigned[]){1, 8},
                 (unsigned[]){2, 16}, (unsigned[]){8, 1}, (unsigned[]){1, 0});
  ir_context_destroy(ctx);
}

/* Elements per thread: repetition when the tensor is larger than the tile. */
static void test_elems_per_thread(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  int64_t big[1] = {4096}, a[2] = {128, 64};
  ttg_ll ll;
  const ir_attr *l = ttg_default_blocked(ctx, 1, big, 4, 4, 32); /* tile 512 */
  assert_true(ttg_ll_of_tensor(l, 1, big, &ll));
  assert_int_equal(ttg_ll_num_regs(&ll), 32);
  const ir_attr *l2 = ttg_default_blocked(ctx, 2, a, 8, 8, 32); /* tile 32x64 */
  assert_true(ttg_ll_of_tensor(l2, 2, a, &ll));
  assert_int_equal(ttg_ll_num_regs(&ll), 32);
  ir_context_destroy(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_default_1d),
      cmocka_unit_test(test_small_1d),
      cmocka_unit_test(test_default_2d_matmul_tiles),
      cmocka_unit_test(test_elems_per_thread),
  };
  return cmocka_run_group_tests_name("ttg", tests, NULL, NULL);
}
