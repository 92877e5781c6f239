// SPDX-License-Identifier: MIT
/* test_axis.c - the AxisInfo analysis on the vector-add kernel (the facts
 * that drive 128-bit vectorization), on 2-d matmul-style pointer grids, on
 * division/remainder/compare rules and through scf.for iter_args. */
#include "ttc_test.h"

#include "ir-tt/ir.h"

typedef struct fixture {
  ir_context *ctx;
  ir_module *m;
  ir_builder b;
  ir_block *entry;
  ir_arena arena;
  const ir_type *i32, *f32, *f16;
} fixture;

static void fx_init(fixture *fx) {
  fx->ctx = ir_context_create();
  fx->m = ir_module_create(fx->ctx, (ir_loc){0});
  ir_builder_init(&fx->b, fx->m);
  ir_arena_init(&fx->arena);
  fx->i32 = ir_type_i32(fx->ctx);
  fx->f32 = ir_type_f32(fx->ctx);
  fx->f16 = ir_type_f16(fx->ctx);
}

/* Starts function `k` with the given argument types and divisibilities. */
static ir_op *fx_func(fixture *fx, int nargs, const ir_type *const *types, const int *div) {
  ir_op *f = ir_build_func(&fx->b, "k", nargs, types);
  fx->entry = ir_region_entry(&f->regions[0]);
  for (int i = 0; i < nargs; i++)
    fx->entry->args[i]->divisibility = div[i];
  ir_builder_set_end(&fx->b, fx->entry);
  return f;
}

static void fx_fini(fixture *fx) {
  ir_arena_free(&fx->arena);
  ir_module_destroy(fx->m);
  ir_context_destroy(fx->ctx);
}

static const ir_type *tensor1(fixture *fx, int64_t n, const ir_type *elem) {
  return ir_type_tensor(fx->ctx, 1, &n, elem, NULL);
}

static const ir_type *tensor2(fixture *fx, int64_t a, int64_t b, const ir_type *elem) {
  int64_t shape[2] = {a, b};
  return ir_type_tensor(fx->ctx, 2, shape, elem, NULL);
}

static ir_value *expand(fixture *fx, ir_value *x, int axis, const ir_type *ty) {
  ir_value *r = ir_build1(&fx->b, IR_OP_TT_EXPAND_DIMS, ty, 1, &x);
  ir_op_set_attr(fx->m, r->def, "axis", ir_attr_int(fx->ctx, fx->i32, axis));
  return r;
}

static ir_value *bcast(fixture *fx, ir_value *x, const ir_type *ty) {
  return ir_build1(&fx->b, IR_OP_TT_BROADCAST, ty, 1, &x);
}

/* offs = pid * 1024 + arange(0, 1024); x_ptr + offs; offs < n. */
static void test_vector_add_facts(void **state) {
  (void)state;
  fixture fx;
  fx_init(&fx);
  const ir_type *pf32 = ir_type_ptr(fx.ctx, fx.f32, 1);
  const ir_type *args[3] = {pf32, fx.i32, fx.i32};
  int div[3] = {16, 16, 0};
  ir_op *f = fx_func(&fx, 3, args, div);
  ir_builder *b = &fx.b;
  const ir_type *ti = tensor1(&fx, 1024, fx.i32), *tp = tensor1(&fx, 1024, pf32);
  ir_value *c = ir_build_const_int(b, fx.i32, 1024);
  ir_value *pid = ir_build_program_id(b, 0);
  ir_value *base = ir_build_binary(b, IR_OP_ARITH_MULI, pid, c);
  ir_value *range = ir_build_make_range(b, 0, 1024);
  ir_value *offs = ir_build_binary(b, IR_OP_ARITH_ADDI, ir_build_splat(b, base, ti), range);
  ir_value *nsplat = ir_build_splat(b, fx.entry->args[1], ti);
  ir_value *mask = ir_build_cmpi(b, IR_CMPI_SLT, offs, nsplat);
  ir_value *ptr =
      ir_build_binary(b, IR_OP_TT_ADDPTR, ir_build_splat(b, fx.entry->args[0], tp), offs);
  ir_value *m2 = ir_build_cmpi(b, IR_CMPI_SLT, offs, ir_build_splat(b, fx.entry->args[2], ti));
  ir_build(b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0);

  ir_axis_analysis *a = ir_axis_analyze(f, &fx.arena);
  assert_non_null(a);
  ir_axis_info i = ir_axis_get(a, pid);
  assert_int_equal(i.rank, 0);
  assert_int_equal(i.divisibility[0], 1);
  assert_int_equal(ir_axis_get(a, c).divisibility[0], 1024);
  assert_int_equal(ir_axis_get(a, base).divisibility[0], 1024);
  i = ir_axis_get(a, range);
  assert_int_equal(i.rank, 1);
  assert_int_equal(i.contiguity[0], 1024);
  assert_int_equal(i.divisibility[0], (int64_t)1 << 62);
  assert_int_equal(i.constancy[0], 1);
  i = ir_axis_get(a, offs);
  assert_int_equal(i.contiguity[0], 1024);
  assert_int_equal(i.divisibility[0], 1024);
  assert_int_equal(i.constancy[0], 1);
  /* The key facts: 1024 contiguous f32 at a 16-byte-aligned address... */
  i = ir_axis_get(a, ptr);
  assert_int_equal(i.contiguity[0], 1024);
  assert_int_equal(i.divisibility[0], 16);
  assert_int_equal(i.constancy[0], 1);
  /* ...and a mask constant over runs of 16. */
  i = ir_axis_get(a, mask);
  assert_int_equal(i.constancy[0], 16);
  assert_int_equal(i.contiguity[0], 1);
  assert_int_equal(ir_axis_get(a, nsplat).constancy[0], 1024);
  assert_int_equal(ir_axis_get(a, nsplat).divisibility[0], 16);
  /* n without tt.divisibility: the mask may flip anywhere. */
  assert_int_equal(ir_axis_get(a, m2).constancy[0], 1);
  /* A value the analysis never saw: the pessimistic default. */
  ir_value *stray = ir_build_make_range(b, 0, 8);
  i = ir_axis_get(a, stray);
  assert_int_equal(i.contiguity[0], 1);
  assert_int_equal(i.divisibility[0], 1);
  fx_fini(&fx);
}

/* a_ptr + rm[:, None] * sam + rk[None, :] with f16 elements. */
static void test_2d_pointer_grid(void **state) {
  (void)state;
  fixture fx;
  fx_init(&fx);
  const ir_type *pf16 = ir_type_ptr(fx.ctx, fx.f16, 1);
  const ir_type *args[3] = {pf16, fx.i32, fx.i32};
  int div[3] = {16, 16, 16};
  ir_op *f = fx_func(&fx, 3, args, div);
  ir_builder *b = &fx.b;
  ir_value *sam = fx.entry->args[1], *M = fx.entry->args[2];
  const ir_type *t128 = tensor1(&fx, 128, fx.i32);
  /* rm = (pid * 128 + arange(128)) % M */
  ir_value *pid = ir_build_program_id(b, 0);
  ir_value *base = ir_build_binary(b, IR_OP_ARITH_MULI, pid, ir_build_const_int(b, fx.i32, 128));
  ir_value *rm0 = ir_build_binary(b, IR_OP_ARITH_ADDI, ir_build_splat(b, base, t128),
                                  ir_build_make_range(b, 0, 128));
  ir_value *rm = ir_build_binary(b, IR_OP_ARITH_REMSI, rm0, ir_build_splat(b, M, t128));
  ir_value *rows = expand(&fx, rm, 1, tensor2(&fx, 128, 1, fx.i32));
  ir_value *rows_s = ir_build_binary(b, IR_OP_ARITH_MULI, rows,
                                     ir_build_splat(b, sam, tensor2(&fx, 128, 1, fx.i32)));
  ir_value *cols = expand(&fx, ir_build_make_range(b, 0, 64), 0, tensor2(&fx, 1, 64, fx.i32));
  const ir_type *grid = tensor2(&fx, 128, 64, fx.i32);
  ir_value *offs =
      ir_build_binary(b, IR_OP_ARITH_ADDI, bcast(&fx, rows_s, grid), bcast(&fx, cols, grid));
  const ir_type *pgrid = tensor2(&fx, 128, 64, pf16);
  ir_value *ptrs =
      ir_build_binary(b, IR_OP_TT_ADDPTR, ir_build_splat(b, fx.entry->args[0], pgrid), offs);
  ir_build(b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0);

  ir_axis_analysis *a = ir_axis_analyze(f, &fx.arena);
  assert_non_null(a);
  ir_axis_info i = ir_axis_get(a, rm);
  assert_int_equal(i.contiguity[0], 16); /* gcd(128, gcd(128, 16)) */
  assert_int_equal(i.divisibility[0], 16);
  i = ir_axis_get(a, rows_s);
  assert_int_equal(i.rank, 2);
  assert_int_equal(i.contiguity[0], 1);
  assert_int_equal(i.divisibility[0], 16);
  assert_int_equal(i.divisibility[1], 16);
  i = ir_axis_get(a, cols);
  assert_int_equal(i.contiguity[1], 64);
  assert_int_equal(i.divisibility[0], 1); /* new dim over a contiguous run */
  i = ir_axis_get(a, offs);
  assert_int_equal(i.contiguity[1], 64);
  assert_int_equal(i.divisibility[1], 16);
  assert_int_equal(i.constancy[0], 1);
  i = ir_axis_get(a, ptrs);
  assert_int_equal(i.contiguity[0], 1);
  assert_int_equal(i.contiguity[1], 64);
  assert_int_equal(i.divisibility[1], 16); /* gcd(16 bytes, 16 * 2 bytes) */
  assert_int_equal(i.constancy[1], 1);
  fx_fini(&fx);
}

static void test_div_rem_const_and_logic(void **state) {
  (void)state;
  fixture fx;
  fx_init(&fx);
  ir_op *f = fx_func(&fx, 0, NULL, NULL);
  ir_builder *b = &fx.b;
  const ir_type *t = tensor1(&fx, 256, fx.i32);
  ir_value *r = ir_build_make_range(b, 0, 256);
  ir_value *c8 = ir_build_const_int(b, t, 8);
  ir_value *q = ir_build_binary(b, IR_OP_ARITH_DIVSI, r, c8);
  ir_value *qu = ir_build_binary(b, IR_OP_ARITH_DIVUI, r, c8);
  ir_value *m = ir_build_binary(b, IR_OP_ARITH_REMSI, r, c8);
  ir_value *c6 = ir_build_const_int(b, fx.i32, 6), *c4 = ir_build_const_int(b, fx.i32, 4);
  ir_value *k = ir_build_binary(b, IR_OP_ARITH_ADDI, c6, c4); /* 10 */
  ir_value *k2 = ir_build_binary(b, IR_OP_ARITH_MULI, k, c4); /* 40 */
  ir_value *sh = ir_build_binary(b, IR_OP_ARITH_SHLI, r, ir_build_const_int(b, t, 2));
  ir_value *r1 = ir_build_binary(b, IR_OP_ARITH_MULI, r, ir_build_const_int(b, t, 1));
  ir_value *both = ir_build_binary(b, IR_OP_ARITH_ANDI, ir_build_cmpi(b, IR_CMPI_SLT, r, c8),
                                   ir_build_cmpi(b, IR_CMPI_SGE, r, c8));
  ir_value *fz = ir_build_const_float(b, tensor1(&fx, 256, fx.f32), 0.0);
  ir_build(b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0);
  ir_axis_analysis *a = ir_axis_analyze(f, &fx.arena);
  ir_axis_info i = ir_axis_get(a, q);
  /* signed division truncates: runs of negatives would split ([-16, -1] / 16
   * is -1, 0, ..., 0), and the analysis does not know the range's sign */
  assert_int_equal(i.constancy[0], 1);
  assert_int_equal(i.contiguity[0], 1);
  assert_int_equal(ir_axis_get(a, qu).constancy[0], 8); /* [0..255] / 8 unsigned: runs of 8 */
  i = ir_axis_get(a, m);
  assert_int_equal(i.contiguity[0], 8); /* [0..255] % 8 restarts every 8 */
  assert_int_equal(i.divisibility[0], 8);
  assert_int_equal(ir_axis_get(a, k2).divisibility[0], 8); /* 40 = 8 * 5 */
  assert_int_equal(ir_axis_get(a, k).divisibility[0], 2);
  i = ir_axis_get(a, sh);
  assert_int_equal(i.divisibility[0], 4);
  assert_int_equal(i.contiguity[0], 1);
  assert_int_equal(ir_axis_get(a, r1).contiguity[0], 256);
  assert_int_equal(ir_axis_get(a, both).constancy[0], 8);
  assert_int_equal(ir_axis_get(a, fz).constancy[0], 256);
  assert_int_equal(ir_axis_get(a, c8).constancy[0], 256);
  assert_int_equal(ir_axis_get(a, c8).divisibility[0], 8);
  fx_fini(&fx);
}

/* for k in range(0, n): ptrs += 64 keeps contiguity and alignment. */
static void test_for_iter_args(void **state) {
  (void)state;
  fixture fx;
  fx_init(&fx);
  const ir_type *pf32 = ir_type_ptr(fx.ctx, fx.f32, 1);
  const ir_type *args[2] = {pf32, fx.i32};
  int div[2] = {16, 0};
  ir_op *f = fx_func(&fx, 2, args, div);
  ir_builder *b = &fx.b;
  const ir_type *tp = tensor1(&fx, 64, pf32), *ti = tensor1(&fx, 64, fx.i32);
  ir_value *ptrs = ir_build_binary(b, IR_OP_TT_ADDPTR, ir_build_splat(b, fx.entry->args[0], tp),
                                   ir_build_make_range(b, 0, 64));
  ir_value *lb = ir_build_const_int(b, fx.i32, 0), *st = ir_build_const_int(b, fx.i32, 4);
  ir_value *odd = ir_build_binary(b, IR_OP_TT_ADDPTR, ptrs, ir_build_const_int(b, ti, 1));
  ir_value *ops[5] = {lb, fx.entry->args[1], st, ptrs, odd};
  const ir_type *rt[2] = {tp, tp};
  ir_op *loop = ir_build(b, IR_OP_SCF_FOR, 2, rt, 5, ops, 1);
  const ir_type *bt[3] = {fx.i32, tp, tp};
  ir_block *body = ir_block_create(fx.m, 3, bt);
  ir_region_append_block(&loop->regions[0], body);
  ir_builder_set_end(b, body);
  ir_value *next =
      ir_build_binary(b, IR_OP_TT_ADDPTR, body->args[1], ir_build_const_int(b, ti, 64));
  /* The second iter arg alternates between an aligned and an odd start. */
  ir_value *ys[2] = {next, body->args[1]};
  ir_build(b, IR_OP_SCF_YIELD, 0, NULL, 2, ys, 0);
  ir_builder_set_end(b, fx.entry);
  ir_build(b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0);

  ir_axis_analysis *a = ir_axis_analyze(f, &fx.arena);
  ir_axis_info i = ir_axis_get(a, &loop->results[0]);
  assert_int_equal(i.contiguity[0], 64);
  assert_int_equal(i.divisibility[0], 16);
  assert_int_equal(ir_axis_get(a, body->args[0]).divisibility[0], 4); /* gcd(lb 0, step 4) */
  i = ir_axis_get(a, &loop->results[1]);
  assert_int_equal(i.contiguity[0], 64);
  assert_int_equal(i.divisibility[0], 4); /* joined with ptrs + 1 element */
  fx_fini(&fx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vector_add_facts),
      cmocka_unit_test(test_2d_pointer_grid),
      cmocka_unit_test(test_div_rem_const_and_logic),
      cmocka_unit_test(test_for_iter_args),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
