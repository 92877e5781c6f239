/* test_layout.c - codegen's blocked-layout index math against indices
 * computed by hand from Triton's definition: repetition over larger shapes,
 * wrapping (broadcast) over smaller ones, 2-D order, and slices. */
#include <stdlib.h>

#include "ttc_test.h"

#include "codegen-llvm/cg.h"

typedef struct fixture {
  ir_context *ctx;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  f->ctx = ir_context_create();
  *state = f;
  return f->ctx ? 0 : -1;
}

static int teardown(void **state) {
  fixture *f = *state;
  ir_context_destroy(f->ctx);
  free(f);
  return 0;
}

static const ir_attr *blocked1(ir_context *ctx, unsigned spt, unsigned tpw, unsigned wpc) {
  unsigned order = 0;
  return ir_attr_blocked(ctx, 1, &spt, &tpw, &wpc, &order);
}

/* spt [1,4], tpw [4,8], wpc [4,1], order [1,0]: tile 16 x 32. */
static const ir_attr *blocked2(ir_context *ctx) {
  unsigned spt[2] = {1, 4}, tpw[2] = {4, 8}, wpc[2] = {4, 1}, order[2] = {1, 0};
  return ir_attr_blocked(ctx, 2, spt, tpw, wpc, order);
}

/* Vector add's layout: [4] x [32] x [4] over 1024 repeats twice. */
static void test_repeat_1d(void **state) {
  fixture *f = *state;
  const ir_attr *l = blocked1(f->ctx, 4, 32, 4);
  int64_t shape = 1024, idx = -1;
  assert_int_equal(cg_blocked_num_elems(l, 1, &shape), 8);
  for (unsigned j = 0; j < 8; j++) {
    cg_blocked_elem_index(l, 1, &shape, 0, j, &idx);
    assert_int_equal(idx, (j < 4 ? 0 : 512) + j % 4);
  }
  cg_blocked_elem_index(l, 1, &shape, 1, 2, &idx);
  assert_int_equal(idx, 6);
  cg_blocked_elem_index(l, 1, &shape, 37, 5, &idx); /* warp 1, lane 5: 4*37 + 512 + 1 */
  assert_int_equal(idx, 661);
  cg_blocked_elem_index(l, 1, &shape, 127, 7, &idx);
  assert_int_equal(idx, 1023);
  /* Every element is held exactly once over the 128 threads. */
  int seen[1024] = {0};
  for (unsigned t = 0; t < 128; t++)
    for (unsigned j = 0; j < 8; j++) {
      cg_blocked_elem_index(l, 1, &shape, t, j, &idx);
      assert_true(idx >= 0 && idx < 1024);
      seen[idx]++;
    }
  for (int i = 0; i < 1024; i++) assert_int_equal(seen[i], 1);
}

/* The same layout over 64 elements wraps: threads 16 apart hold the same. */
static void test_broadcast_1d(void **state) {
  fixture *f = *state;
  const ir_attr *l = blocked1(f->ctx, 4, 32, 4);
  int64_t shape = 64, idx = -1, idx2 = -1;
  assert_int_equal(cg_blocked_num_elems(l, 1, &shape), 4);
  cg_blocked_elem_index(l, 1, &shape, 16, 0, &idx);
  assert_int_equal(idx, 0);
  cg_blocked_elem_index(l, 1, &shape, 33, 3, &idx); /* (32+1)*4 % 64 + 3 */
  assert_int_equal(idx, 7);
  cg_blocked_elem_index(l, 1, &shape, 5, 1, &idx);
  cg_blocked_elem_index(l, 1, &shape, 5 + 16, 1, &idx2);
  assert_int_equal(idx, 21);
  assert_int_equal(idx2, 21);
  /* Fewer elements than one thread's registers: registers repeat. */
  int64_t tiny = 2;
  cg_blocked_elem_index(l, 1, &tiny, 9, 3, &idx);
  assert_int_equal(idx, 1);
}

static void test_repeat_2d(void **state) {
  fixture *f = *state;
  const ir_attr *l = blocked2(f->ctx);
  int64_t shape[2] = {64, 64}, idx[2] = {-1, -1};
  /* nk = [1, 4], nrep = [4, 2]: 32 registers, j = k1 + 4 * (rep1 + 2 * rep0). */
  assert_int_equal(cg_blocked_num_elems(l, 2, shape), 32);
  /* tid 77: lane 13 (lane1 = 5, lane0 = 1), warp 2; j 13: k1 1, rep1 1, rep0 1. */
  cg_blocked_elem_index(l, 2, shape, 77, 13, idx);
  assert_int_equal(idx[0], 16 + 2 * 4 + 1);
  assert_int_equal(idx[1], 32 + 5 * 4 + 1);
  cg_blocked_elem_index(l, 2, shape, 0, 31, idx);
  assert_int_equal(idx[0], 48);
  assert_int_equal(idx[1], 35);
  /* Smaller than the tile in both dims: wraps. */
  int64_t small[2] = {8, 16};
  assert_int_equal(cg_blocked_num_elems(l, 2, small), 4);
  cg_blocked_elem_index(l, 2, small, 77, 3, idx);
  assert_int_equal(idx[0], 9 % 8);
  assert_int_equal(idx[1], (20 + 3) % 16);
}

static void test_slice(void **state) {
  fixture *f = *state;
  const ir_attr *p = blocked2(f->ctx);
  int64_t shape = 64, idx = -1;
  /* slice(dim 0): the dim-1 indices of the parent. */
  const ir_attr *s0 = ir_attr_slice(f->ctx, 0, p);
  assert_int_equal(cg_blocked_num_elems(s0, 1, &shape), 8);
  cg_blocked_elem_index(s0, 1, &shape, 77, 6, &idx); /* k1 2, rep1 1 */
  assert_int_equal(idx, 32 + 20 + 2);
  /* slice(dim 1): the dim-0 indices, one per repetition. */
  const ir_attr *s1 = ir_attr_slice(f->ctx, 1, p);
  assert_int_equal(cg_blocked_num_elems(s1, 1, &shape), 4);
  cg_blocked_elem_index(s1, 1, &shape, 77, 2, &idx);
  assert_int_equal(idx, 32 + 9);
  /* A slice register agrees with the parent element it was taken from. */
  cg_layout sl, pl;
  int64_t pshape[2] = {64, 1};
  assert_true(cg_layout_init(&sl, s1, 1, &shape));
  assert_true(cg_layout_init(&pl, p, 2, pshape));
  assert_ptr_equal(sl.root, p);
  assert_true(sl.sliced[1]);
  assert_int_equal(sl.tdim[0], 0);
}

static void test_unsupported(void **state) {
  fixture *f = *state;
  cg_layout l;
  int64_t shape[2] = {16, 16};
  assert_false(cg_layout_init(&l, NULL, 1, shape));
  assert_false(cg_layout_init(&l, blocked1(f->ctx, 1, 32, 4), 2, shape)); /* rank mismatch */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_repeat_1d, setup, teardown),
      cmocka_unit_test_setup_teardown(test_broadcast_1d, setup, teardown),
      cmocka_unit_test_setup_teardown(test_repeat_2d, setup, teardown),
      cmocka_unit_test_setup_teardown(test_slice, setup, teardown),
      cmocka_unit_test_setup_teardown(test_unsupported, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
