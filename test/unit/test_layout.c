// SPDX-License-Identifier: MIT
/* test_layout.c - the linear layouts of lib/ir-ttgpu against indices
 * computed by hand from Triton's definitions: blocked (repetition, broadcast,
 * 2-D order), slices, nvidia_mma v2/v3 accumulators and their dot operands
 * (the PTX ISA's mma.sync / wgmma fragments), the shared encodings' swizzles,
 * the algebra codegen builds on (inverse, composition, solving), and
 * conversions split into passes. */
#include <stdlib.h>

#include "ttc_test.h"

#include "codegen-llvm/cg.h"
#include "ir-ttgpu/ttg.h"

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

/* Coordinates of register j of thread tid. */
static void at(const ttg_ll *l, unsigned tid, unsigned j, int32_t *co) {
  uint32_t in[3] = {j, tid % 32, tid / 32};
  ttg_ll_apply(l, in, co);
}

/* Every element of the shape held exactly `copies` times over nthreads. */
static void expect_cover(const ttg_ll *l, unsigned nthreads, int copies) {
  int64_t numel = 1;
  for (int d = 0; d < l->nout; d++)
    numel *= l->out_size[d];
  int *seen = calloc((size_t)numel, sizeof *seen);
  for (unsigned t = 0; t < nthreads; t++) {
    for (int64_t j = 0; j < ttg_ll_num_regs(l); j++) {
      int32_t co[IR_MAX_RANK];
      at(l, t, (unsigned)j, co);
      int64_t lin = 0;
      for (int d = 0; d < l->nout; d++) {
        assert_true(co[d] >= 0 && co[d] < l->out_size[d]);
        lin = lin * l->out_size[d] + co[d];
      }
      seen[lin]++;
    }
  }
  for (int64_t i = 0; i < numel; i++)
    assert_int_equal(seen[i], copies);
  free(seen);
}

/* Vector add's layout: [4] x [32] x [4] over 1024 repeats twice. */
static void test_repeat_1d(void **state) {
  fixture *f = *state;
  int64_t shape = 1024;
  ttg_ll l;
  int32_t co[1];
  assert_true(ttg_ll_of_tensor(blocked1(f->ctx, 4, 32, 4), 1, &shape, &l));
  assert_int_equal(ttg_ll_num_regs(&l), 8);
  for (unsigned j = 0; j < 8; j++) {
    at(&l, 0, j, co);
    assert_int_equal(co[0], (j < 4 ? 0 : 512) + j % 4);
  }
  at(&l, 1, 2, co);
  assert_int_equal(co[0], 6);
  at(&l, 37, 5, co); /* warp 1, lane 5: 4*37 + 512 + 1 */
  assert_int_equal(co[0], 661);
  at(&l, 127, 7, co);
  assert_int_equal(co[0], 1023);
  expect_cover(&l, 128, 1);
}

/* The same layout over 64 elements: lanes 16 apart hold the same elements
 * (zero lane bases), and over 2 elements a thread keeps just 2 registers. */
static void test_broadcast_1d(void **state) {
  fixture *f = *state;
  const ir_attr *enc = blocked1(f->ctx, 4, 32, 4);
  int64_t shape = 64, tiny = 2;
  ttg_ll l;
  int32_t co[1], co2[1];
  assert_true(ttg_ll_of_tensor(enc, 1, &shape, &l));
  assert_int_equal(ttg_ll_num_regs(&l), 4);
  at(&l, 16, 0, co);
  assert_int_equal(co[0], 0);
  at(&l, 33, 3, co); /* (32+1)*4 % 64 + 3 */
  assert_int_equal(co[0], 7);
  at(&l, 5, 1, co);
  at(&l, 5 + 16, 1, co2);
  assert_int_equal(co[0], 21);
  assert_int_equal(co2[0], 21);
  assert_true(ttg_ll_basis_is_zero(&l, TTG_IN_LANE, 4));
  assert_false(ttg_ll_basis_is_zero(&l, TTG_IN_LANE, 3));
  expect_cover(&l, 128, 8); /* lane bit 4 and both warp bits repeat */
  assert_true(ttg_ll_of_tensor(enc, 1, &tiny, &l));
  assert_int_equal(ttg_ll_num_regs(&l), 2);
  at(&l, 9, 1, co);
  assert_int_equal(co[0], 1);
}

static void test_repeat_2d(void **state) {
  fixture *f = *state;
  int64_t shape[2] = {64, 64}, small[2] = {8, 16};
  ttg_ll l;
  int32_t co[2];
  /* Registers: [0,1] [0,2], then repetitions along dim 1 ([0,32]) before dim 0. */
  assert_true(ttg_ll_of_tensor(blocked2(f->ctx), 2, shape, &l));
  assert_int_equal(ttg_ll_num_regs(&l), 32);
  /* tid 77: lane 13 (lane1 = 5, lane0 = 1), warp 2; j 13: k1 1, rep1 1, rep0 1. */
  at(&l, 77, 13, co);
  assert_int_equal(co[0], 16 + 2 * 4 + 1);
  assert_int_equal(co[1], 32 + 5 * 4 + 1);
  at(&l, 0, 31, co);
  assert_int_equal(co[0], 48);
  assert_int_equal(co[1], 35);
  expect_cover(&l, 128, 1);
  /* Smaller than the tile in both dims: lanes and warps broadcast. */
  assert_true(ttg_ll_of_tensor(blocked2(f->ctx), 2, small, &l));
  assert_int_equal(ttg_ll_num_regs(&l), 4);
  at(&l, 77, 3, co);
  assert_int_equal(co[0], 9 % 8);
  assert_int_equal(co[1], (20 + 3) % 16);
}

static void test_slice(void **state) {
  fixture *f = *state;
  const ir_attr *p = blocked2(f->ctx);
  int64_t shape = 64;
  ttg_ll l;
  int32_t co[1];
  /* slice(dim 0): the dim-1 indices of the parent. */
  assert_true(ttg_ll_of_tensor(ir_attr_slice(f->ctx, 0, p), 1, &shape, &l));
  assert_int_equal(ttg_ll_num_regs(&l), 8);
  at(&l, 77, 6, co); /* k1 2, rep1 1 */
  assert_int_equal(co[0], 32 + 20 + 2);
  /* slice(dim 1): the dim-0 indices, one per repetition. */
  assert_true(ttg_ll_of_tensor(ir_attr_slice(f->ctx, 1, p), 1, &shape, &l));
  assert_int_equal(ttg_ll_num_regs(&l), 4);
  at(&l, 77, 2, co);
  assert_int_equal(co[0], 32 + 9);
  expect_cover(&l, 128, 8);
}

/* mma.sync m16n8 accumulator: c0,c1 at (lane/4, 2*(lane%4) + {0,1}), c2,c3
 * eight rows down; Ampere puts warps along N first. */
static void test_mma_v2(void **state) {
  fixture *f = *state;
  unsigned wpc[2] = {2, 2}, instr[2] = {16, 8};
  const ir_attr *mma = ir_attr_nvidia_mma(f->ctx, 2, 0, 2, wpc, 2, instr);
  int64_t shape[2] = {32, 32};
  ttg_ll l;
  int32_t co[2];
  assert_true(ttg_ll_of_tensor(mma, 2, shape, &l));
  assert_int_equal(ttg_ll_num_regs(&l), 8);
  static const int32_t want[4][2] = {{1, 2}, {1, 3}, {9, 2}, {9, 3}};
  for (unsigned j = 0; j < 4; j++) {
    at(&l, 5, j, co);
    assert_int_equal(co[0], want[j][0]);
    assert_int_equal(co[1], want[j][1]);
  }
  at(&l, 32 + 5, 0, co); /* warp 1: next 8 columns */
  assert_int_equal(co[0], 1);
  assert_int_equal(co[1], 10);
  at(&l, 64 + 5, 4, co); /* warp 2: 16 rows down; register 4 repeats along N */
  assert_int_equal(co[0], 17);
  assert_int_equal(co[1], 18);
  expect_cover(&l, 128, 1);

  /* Operand A (kWidth 2): a0..a7 at rows g, g+8 and columns 2t, 2t+8. */
  ttg_ll a, b;
  int64_t ashape[2] = {32, 16}, bshape[2] = {16, 16};
  assert_true(ttg_ll_of_tensor(ir_attr_dot_op(f->ctx, 0, mma, 2), 2, ashape, &a));
  assert_int_equal(ttg_ll_num_regs(&a), 8);
  static const int32_t wa[8][2] = {{1, 2},  {1, 3},  {9, 2},  {9, 3},
                                   {1, 10}, {1, 11}, {9, 10}, {9, 11}};
  for (unsigned j = 0; j < 8; j++) {
    at(&a, 5, j, co);
    assert_int_equal(co[0], wa[j][0]);
    assert_int_equal(co[1], wa[j][1]);
  }
  assert_true(ttg_ll_basis_is_zero(&a, TTG_IN_WARP, 0)); /* N warps hold copies of A */
  expect_cover(&a, 128, 2);
  /* Operand B: b0,b1 at k = 2t + {0,1}, n = g; b2,b3 at k + 8. */
  assert_true(ttg_ll_of_tensor(ir_attr_dot_op(f->ctx, 1, mma, 2), 2, bshape, &b));
  static const int32_t wb[4][2] = {{2, 1}, {3, 1}, {10, 1}, {11, 1}};
  for (unsigned j = 0; j < 4; j++) {
    at(&b, 5, j, co);
    assert_int_equal(co[0], wb[j][0]);
    assert_int_equal(co[1], wb[j][1]);
  }
  assert_true(ttg_ll_basis_is_zero(&b, TTG_IN_WARP, 1)); /* M warps hold copies of B */
  expect_cover(&b, 128, 2);
}

/* wgmma m64nN accumulator: warp w of a warpgroup owns rows 16w..16w+15;
 * d[4i + j] sits at column 8i + 2*(lane%4) + (j & 1), row lane/4 + 8*(j >> 1). */
static void test_mma_v3(void **state) {
  fixture *f = *state;
  unsigned wpc[2] = {8, 1}, instr[3] = {16, 64, 16};
  const ir_attr *mma = ir_attr_nvidia_mma(f->ctx, 3, 0, 2, wpc, 3, instr);
  int64_t shape[2] = {128, 64};
  ttg_ll l;
  int32_t co[2];
  assert_true(ttg_ll_of_tensor(mma, 2, shape, &l));
  assert_int_equal(ttg_ll_num_regs(&l), 32);
  for (unsigned i = 0; i < 8; i++) {
    for (unsigned j = 0; j < 4; j++) {
      at(&l, 3 * 32 + 6, 4 * i + j, co); /* warp 3, lane 6: g 1, t 2 */
      assert_int_equal(co[0], 48 + 1 + 8 * (int)(j >> 1));
      assert_int_equal(co[1], 8 * (int)i + 4 + (int)(j & 1));
    }
  }
  expect_cover(&l, 256, 1);
  /* The A operand from registers (attention's second dot) has the same lanes
   * and warps as an accumulator of N = its K: a register permutation. */
  unsigned instr2[3] = {16, 128, 16};
  const ir_attr *mma2 = ir_attr_nvidia_mma(f->ctx, 3, 0, 2, wpc, 3, instr2);
  ttg_ll a;
  assert_true(ttg_ll_of_tensor(ir_attr_dot_op(f->ctx, 0, mma2, 2), 2, shape, &a));
  int proj[2] = {0, 1};
  int64_t map[32];
  assert_true(ttg_ll_reg_map(&l, &a, proj, map));
  for (int j = 0; j < 32; j++)
    assert_int_equal(map[j], j);
}

/* Shared encodings: offset -> coordinates, inverted to coordinates -> offset. */
static void test_shared(void **state) {
  fixture *f = *state;
  int64_t shape[2] = {64, 64};
  unsigned order[2] = {1, 0};
  ttg_ll s, inv;
  uint32_t in[2];
  int32_t off[1];
  assert_true(ttg_ll_of_shared(ir_attr_nvmma_shared(f->ctx, 128, false, 16), 2, shape, 16, &s));
  assert_true(ttg_ll_invert(&s, &inv));
  for (unsigned r = 0; r < 64; r += 3)
    for (unsigned c = 0; c < 64; c += 5) {
      in[0] = r;
      in[1] = c;
      ttg_ll_apply(&inv, in, off);
      assert_int_equal(off[0], (int)(r * 64 + (((c / 8) ^ (r % 8)) * 8) + c % 8));
    }
  /* The same swizzle as a swizzled_shared layout. */
  ttg_ll s2;
  assert_true(
      ttg_ll_of_shared(ir_attr_swizzled_shared(f->ctx, 8, 1, 8, 2, order), 2, shape, 16, &s2));
  assert_true(ttg_ll_equal(&s, &s2));
  /* 128 columns of f16 are two 64-column atoms, each all rows first. */
  int64_t wide[2] = {16, 128};
  assert_true(ttg_ll_of_shared(ir_attr_nvmma_shared(f->ctx, 128, false, 16), 2, wide, 16, &s));
  assert_true(ttg_ll_invert(&s, &inv));
  in[0] = 3;
  in[1] = 70; /* atom 1, row 3, chunk 0 ^ 3, element 6 */
  ttg_ll_apply(&inv, in, off);
  assert_int_equal(off[0], 16 * 64 + 3 * 64 + 3 * 8 + 6);
  /* Transposed: dim 0 is the contiguous one. */
  assert_true(ttg_ll_of_shared(ir_attr_nvmma_shared(f->ctx, 64, true, 16), 2, shape, 16, &s));
  assert_true(ttg_ll_invert(&s, &inv));
  in[0] = 9; /* row 1 of the 32-element lines, chunk 1 */
  in[1] = 5; /* line 5: phase (5 / 2) % 4 = 2 */
  ttg_ll_apply(&inv, in, off);
  assert_int_equal(off[0], 5 * 32 + ((1 ^ 2) * 8) + 1);
  /* Composition: a register layout's offsets, and solving back. */
  ttg_ll d, comp;
  assert_true(ttg_ll_of_tensor(blocked2(f->ctx), 2, shape, &d));
  assert_true(ttg_ll_of_shared(ir_attr_nvmma_shared(f->ctx, 128, false, 16), 2, shape, 16, &s));
  assert_true(ttg_ll_invert(&s, &inv));
  assert_true(ttg_ll_compose(&d, &inv, &comp));
  int32_t co[2];
  at(&d, 77, 13, co); /* (25, 53) */
  uint32_t cin[3] = {13, 77 % 32, 77 / 32};
  ttg_ll_apply(&comp, cin, off);
  assert_int_equal(off[0], 25 * 64 + ((53 / 8) ^ (25 % 8)) * 8 + 53 % 8);
}

/* A conversion split into passes (ttg_convert_split): the 128x256 f16 wgmma
 * accumulator to the store layout, 64 KB in one pass, moves in two of
 * 32 KB along row bit 3, the one row bit registers alone select in both.
 * Simulated over every thread: each pass's writes land on distinct
 * offsets, and every destination register of every thread reads the
 * element its layout says it holds, exactly once over the passes. */
static void check_passes(ir_context *ctx, const ir_type *st, const ir_type *dt,
                         const ttg_cvt_split *sp, unsigned nthreads) {
  ttg_ll sl, dl, wmap, rmap;
  unsigned order[2] = {1, 0};
  unsigned eb = ir_type_bytes(ir_type_scalar(st));
  /* codegen's scratch encoding: 16-byte chunks XORed with the row mod 8 */
  const ir_attr *enc = ir_attr_swizzled_shared(ctx, 16 / eb, 1, 8, 2, order);
  assert_true(ttg_ll_of_type(st, &sl) && ttg_ll_of_type(dt, &dl));
  assert_true(ttg_convert_pass_maps(st, dt, enc, sp, &wmap, &rmap));
  int64_t cols = st->shape[1], cells = st->shape[0] * cols >> sp->n;
  int64_t *buf = malloc(sizeof *buf * (size_t)cells);
  int64_t nd = ttg_ll_num_regs(&dl);
  int *got = calloc((size_t)(nd * nthreads), sizeof *got);
  for (int r = 0; r < 1 << sp->n; r++) {
    for (int64_t i = 0; i < cells; i++)
      buf[i] = -1;
    for (unsigned t = 0; t < nthreads; t++)
      for (int64_t j = 0; j < ttg_ll_num_regs(&wmap); j++) {
        int32_t co[2], off[1];
        at(&sl, t, (unsigned)ttg_cvt_pass_reg(sp, sp->src_reg, sl.nbits[TTG_IN_REG], j, r), co);
        uint32_t in[3] = {(uint32_t)j, t % 32, t / 32};
        ttg_ll_apply(&wmap, in, off);
        assert_true(off[0] >= 0 && off[0] < cells);
        int64_t lin = co[0] * cols + co[1];
        assert_true(buf[off[0]] == -1 || buf[off[0]] == lin);
        buf[off[0]] = lin;
      }
    /* each pass fills the whole buffer: the numel >> n elements scratch.c
     * reserves, no more and no less */
    for (int64_t i = 0; i < cells; i++)
      assert_true(buf[i] >= 0);
    for (unsigned t = 0; t < nthreads; t++)
      for (int64_t j = 0; j < ttg_ll_num_regs(&rmap); j++) {
        int64_t jd = ttg_cvt_pass_reg(sp, sp->dst_reg, dl.nbits[TTG_IN_REG], j, r);
        int32_t co[2], off[1];
        at(&dl, t, (unsigned)jd, co);
        uint32_t in[3] = {(uint32_t)j, t % 32, t / 32};
        ttg_ll_apply(&rmap, in, off);
        assert_true(off[0] >= 0 && off[0] < cells);
        assert_int_equal(buf[off[0]], co[0] * cols + co[1]);
        got[t * nd + jd]++;
      }
  }
  for (int64_t i = 0; i < nd * nthreads; i++)
    assert_int_equal(got[i], 1);
  free(got);
  free(buf);
}

/* The split of converting a 2-D tensor of `shape` and `elem` from layout
 * src to dst, checked by simulation when it has passes. */
static ttg_cvt_split split_checked(ir_context *ctx, const int64_t *shape, const ir_type *elem,
                                   const ir_attr *src, const ir_attr *dst) {
  const ir_type *st = ir_type_tensor(ctx, 2, shape, elem, src);
  const ir_type *dt = ir_type_tensor(ctx, 2, shape, elem, dst);
  ttg_cvt_split sp;
  ttg_convert_split(st, dt, TTG_CVT_PASS_BYTES, &sp);
  if (sp.n > 0) check_passes(ctx, st, dt, &sp, 256);
  return sp;
}

static void test_convert_passes(void **state) {
  fixture *f = *state;
  unsigned wpc[2] = {8, 1}, instr[3] = {16, 256, 16};
  unsigned spt[2] = {1, 8}, tpw[2] = {1, 32}, order[2] = {1, 0};
  const ir_attr *mma = ir_attr_nvidia_mma(f->ctx, 3, 0, 2, wpc, 3, instr);
  const ir_attr *blocked = ir_attr_blocked(f->ctx, 2, spt, tpw, wpc, order);
  const ir_type *f16 = ir_type_f16(f->ctx), *f32 = ir_type_f32(f->ctx);
  int64_t shape[2] = {128, 256}, big[2] = {256, 256}, small[2] = {64, 256};
  ttg_cvt_split sp = split_checked(f->ctx, shape, f16, mma, blocked);
  assert_int_equal(sp.n, 1);
  assert_int_equal(sp.dim[0], 0);
  assert_int_equal(sp.bit[0], 3);
  /* and back: the same bit qualifies */
  assert_int_equal(split_checked(f->ctx, shape, f16, blocked, mma).n, 1);
  /* f32, 128 KB: no second row bit qualifies, and columns (the vector dim)
   * are never split */
  assert_int_equal(split_checked(f->ctx, shape, f32, mma, blocked).n, 1);
  /* 256 x 256 f16, 128 KB: row bits 7 and 3, four passes */
  sp = split_checked(f->ctx, big, f16, mma, blocked);
  assert_int_equal(sp.n, 2);
  assert_int_equal(sp.bit[0], 7);
  assert_int_equal(sp.bit[1], 3);
  /* 32 KB or less: one pass */
  assert_int_equal(split_checked(f->ctx, small, f16, mma, blocked).n, 0);
}

static void test_solver(void **state) {
  fixture *f = *state;
  int64_t shape[2] = {64, 64};
  ttg_ll l;
  ttg_ll_solver s;
  assert_true(ttg_ll_of_tensor(blocked2(f->ctx), 2, shape, &l));
  ttg_ll_solver_init(&s, &l, TTG_IN_REG);
  for (uint32_t j = 0; j < 32; j++) {
    int32_t co[2];
    uint32_t back = 99;
    ttg_ll_apply1(&l, TTG_IN_REG, j, co);
    assert_true(ttg_ll_solve(&s, co, &back));
    assert_int_equal(back, j);
  }
  int32_t lane_only[2] = {1, 0}; /* row 1 comes from a lane, not a register */
  uint32_t x;
  assert_false(ttg_ll_solve(&s, lane_only, &x));
  int dim = -1;
  assert_int_equal(cg_contig_regs(&l, &dim), 4);
  assert_int_equal(dim, 1);
}

static void test_unsupported(void **state) {
  fixture *f = *state;
  ttg_ll l;
  int64_t shape[2] = {16, 16}, odd[1] = {48};
  assert_false(ttg_ll_of_tensor(NULL, 1, shape, &l));
  assert_false(ttg_ll_of_tensor(blocked1(f->ctx, 1, 32, 4), 2, shape, &l)); /* rank mismatch */
  assert_false(ttg_ll_of_tensor(blocked1(f->ctx, 1, 32, 4), 1, odd, &l));   /* not a power of 2 */
  assert_false(ttg_ll_of_tensor(blocked1(f->ctx, 1, 16, 4), 1, shape, &l)); /* 16 lanes */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_repeat_1d, setup, teardown),
      cmocka_unit_test_setup_teardown(test_broadcast_1d, setup, teardown),
      cmocka_unit_test_setup_teardown(test_repeat_2d, setup, teardown),
      cmocka_unit_test_setup_teardown(test_slice, setup, teardown),
      cmocka_unit_test_setup_teardown(test_mma_v2, setup, teardown),
      cmocka_unit_test_setup_teardown(test_mma_v3, setup, teardown),
      cmocka_unit_test_setup_teardown(test_shared, setup, teardown),
      cmocka_unit_test_setup_teardown(test_convert_passes, setup, teardown),
      cmocka_unit_test_setup_teardown(test_solver, setup, teardown),
      cmocka_unit_test_setup_teardown(test_unsupported, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
