// SPDX-License-Identifier: MIT
/* test_interp.c - the ttir interpreter below the language tests: its heap
 * and bounds reports, f16/bf16 rounding (exhaustively), ops the frontend
 * cannot produce yet (atomics, join/split, assert, print, edge cases of
 * integer and float conversions) built with the IR builder, and the public
 * device API in interpreter mode (TTC_INTERPRET, copies, events). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttc_test.h"

#include "runtime/interp_impl.h"

/* ---- building small kernels -------------------------------------------------- */

typedef struct tb {
  ir_context *ctx;
  ir_module *m;
  ir_builder b;
  ir_op *func;
  ir_block *entry;
} tb;

static void tb_begin(tb *t, int nargs, const ir_type *const *args) {
  t->ctx = ir_context_create();
  ir_loc loc = {ir_context_add_source(t->ctx, "k.py", "x\n", 2), 3, 7};
  t->m = ir_module_create(t->ctx, loc);
  ir_builder_init(&t->b, t->m);
  t->b.loc = loc;
  ir_builder_set_end(&t->b, ir_module_body(t->m));
  t->func = ir_build_func(&t->b, "k", nargs, args);
  t->entry = ir_region_entry(&t->func->regions[0]);
  ir_builder_set_end(&t->b, t->entry);
}

/* ptr + offset as a scalar or tensor address. */
static ir_value *addptr(tb *t, ir_value *p, ir_value *off) {
  ir_value *ops[2] = {p, off};
  const ir_type *ty = p->type;
  if (ir_type_is_tensor(off->type) && !ir_type_is_tensor(p->type)) {
    ty = ir_type_with_elem(t->ctx, off->type, p->type);
    ops[0] = ir_build_splat(&t->b, p, ty);
  }
  return ir_build1(&t->b, IR_OP_TT_ADDPTR, ty, 2, ops);
}

static void store(tb *t, ir_value *p, ir_value *v) {
  ir_value *ops[2] = {p, v};
  ir_build(&t->b, IR_OP_TT_STORE, 0, NULL, 2, ops, 0);
}

static rt_interp *tb_end(tb *t, char *err, size_t cap) {
  ir_build(&t->b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0);
  return rt_interp_prepare(t->func, err, cap);
}

static void tb_free(tb *t, rt_interp *ip) {
  rt_interp_destroy(ip);
  ir_module_destroy(t->m);
  ir_context_destroy(t->ctx);
}

static ttc_status run1(rt_interp *ip, rt_heap *h, unsigned gx, const uint64_t *args, int nargs,
                       ir_strbuf *print, char *err, size_t cap) {
  rt_arg_storage st[8];
  for (int i = 0; i < nargs; i++)
    st[i].u64 = args[i];
  const unsigned grid[3] = {gx, 1, 1};
  return rt_interp_run(ip, h, grid, st, nargs, print, err, cap);
}

/* ---- heap --------------------------------------------------------------------- */

static void test_heap_bounds(void **state) {
  (void)state;
  rt_heap h;
  rt_heap_init(&h);
  uint64_t a = 0, b = 0;
  assert_int_equal(rt_heap_alloc(&h, 100, &a), TTC_OK);
  assert_int_equal(rt_heap_alloc(&h, 4096, &b), TTC_OK);
  assert_true(a % 256 == 0 && b % 256 == 0);
  rt_heap_block blk = {0, 0, NULL};
  assert_true(rt_heap_find(&h, a, 100, &blk));
  assert_true(blk.base == a && blk.size == 100);
  assert_false(rt_heap_find(&h, a + 97, 4, NULL)); /* straddles the end */
  assert_true(rt_heap_find(&h, b + 4092, 4, &blk));
  assert_true(blk.base == b && blk.size == 4096);
  assert_false(rt_heap_find(&h, b + 4096, 4, NULL));
  char why[256];
  rt_heap_describe(&h, b + 4100, 4, why, sizeof why);
  assert_non_null(strstr(why, "is 4 bytes past the end of a 4096-byte allocation"));
  rt_heap_describe(&h, 0, 4, why, sizeof why);
  assert_non_null(strstr(why, "null"));
  assert_true(rt_heap_free(&h, a));
  assert_false(rt_heap_free(&h, a));
  assert_false(rt_heap_find(&h, a, 4, NULL));
  rt_heap_destroy(&h);
}

/* Allocations, lookups and frees from several threads at once on one heap
 * (autotuning allocates inside launches while other threads launch): each
 * thread's blocks stay findable with their own sizes, and nothing is lost
 * or freed twice. Without the heap's lock this corrupted the block table. */
typedef struct heap_worker {
  rt_heap *h;
  int seed, bad;
} heap_worker;

static void *heap_churn(void *arg) {
  heap_worker *w = arg;
  uint64_t mine[8] = {0};
  for (int it = 0; it < 3000; it++) {
    int k = (it * 7 + w->seed) % 8;
    size_t size = 64 + (size_t)(w->seed * 8 + k) * 16;
    rt_heap_block blk;
    if (mine[k]) {
      if (!rt_heap_find(w->h, mine[k], size, &blk) || blk.base != mine[k] || blk.size != size)
        w->bad++;
      if (!rt_heap_free(w->h, mine[k])) w->bad++;
      mine[k] = 0;
    } else if (rt_heap_alloc(w->h, size, &mine[k]) != TTC_OK) {
      w->bad++;
    }
  }
  for (int k = 0; k < 8; k++)
    if (mine[k] && !rt_heap_free(w->h, mine[k])) w->bad++;
  return NULL;
}

static void test_heap_threads(void **state) {
  (void)state;
  rt_heap h;
  rt_heap_init(&h);
  pthread_t t[8];
  heap_worker w[8];
  for (int i = 0; i < 8; i++) {
    w[i] = (heap_worker){&h, i, 0};
    assert_int_equal(pthread_create(&t[i], NULL, heap_churn, &w[i]), 0);
  }
  for (int i = 0; i < 8; i++) {
    pthread_join(t[i], NULL);
    assert_int_equal(w[i].bad, 0);
  }
  assert_int_equal(h.n, 0);
  rt_heap_destroy(&h);
}

/* ---- f16 / bf16 rounding, exhaustively against the neighbours ------------------- */

static void check_half_rounding(bool bf16) {
  for (uint32_t h = 0; h < 0x7c00u; h++) { /* every finite non-negative pattern below inf */
    if (bf16 && h >= 0x7f80u) break;
    float lo = bf16 ? rt_bf16_to_f32((uint16_t)h) : rt_f16_to_f32((uint16_t)h);
    float hi = bf16 ? rt_bf16_to_f32((uint16_t)(h + 1)) : rt_f16_to_f32((uint16_t)(h + 1));
    uint16_t (*enc)(float) = bf16 ? rt_f32_to_bf16 : rt_f32_to_f16;
    assert_int_equal(enc(lo), h); /* exact values round-trip */
    assert_int_equal(enc(-lo), h | 0x8000u);
    if (isinf(hi)) continue;
    float mid = (float)(((double)lo + (double)hi) / 2); /* exact in f32 */
    assert_int_equal(enc(mid), (h & 1) ? h + 1 : h);    /* ties to even */
    assert_int_equal(enc(nextafterf(mid, 0)), h);
    assert_int_equal(enc(nextafterf(mid, INFINITY)), h + 1);
  }
  assert_int_equal(rt_f32_to_f16(65520.0f), 0x7c00); /* rounds up to inf */
  assert_int_equal(rt_f32_to_f16(65519.0f), 0x7bff);
  assert_true(isnan(rt_f16_to_f32(rt_f32_to_f16(NAN))));
}

static void test_f16_rounding(void **state) {
  (void)state;
  check_half_rounding(false);
}
static void test_bf16_rounding(void **state) {
  (void)state;
  check_half_rounding(true);
}

/* ---- atomics: one program after another, sequentially consistent ---------------- */

/* Each program does old = atomic_<op>(p, val) and stores old to out[pid];
 * the element type is f32 when is_float, else i32. */
static void run_atomic(const char *kind, bool is_float, double val, void *init, unsigned grid,
                       void *final, void *olds) {
  tb t;
  tb_begin(&t, 0, NULL);
  const ir_type *et = is_float ? ir_type_f32(t.ctx) : ir_type_i32(t.ctx);
  const ir_type *ptr = ir_type_ptr(t.ctx, et, 1);
  ir_value *p = ir_block_add_arg(t.m, t.entry, ptr), *out = ir_block_add_arg(t.m, t.entry, ptr);
  ir_value *v =
      is_float ? ir_build_const_float(&t.b, et, val) : ir_build_const_int(&t.b, et, (int64_t)val);
  ir_value *ops[2] = {p, v};
  ir_op *op = ir_build(&t.b, IR_OP_TT_ATOMIC_RMW, 1, &et, 2, ops, 0);
  ir_op_set_attr(t.m, op, "atomic_rmw_op", ir_attr_enum(t.ctx, kind, 0));
  store(&t, addptr(&t, out, ir_build_program_id(&t.b, 0)), ir_op_result(op, 0));
  char err[256];
  rt_interp *ip = tb_end(&t, err, sizeof err);
  assert_non_null(ip);
  rt_heap h;
  rt_heap_init(&h);
  uint64_t args[2];
  rt_heap_alloc(&h, 4, &args[0]);
  rt_heap_alloc(&h, 4 * grid, &args[1]);
  memcpy((void *)(uintptr_t)args[0], init, 4);
  assert_int_equal(run1(ip, &h, grid, args, 2, NULL, err, sizeof err), TTC_OK);
  memcpy(final, (void *)(uintptr_t)args[0], 4);
  memcpy(olds, (void *)(uintptr_t)args[1], 4 * grid);
  rt_heap_destroy(&h);
  tb_free(&t, ip);
}

static void test_atomics(void **state) {
  (void)state;
  int32_t init = 5, fin = 0, olds[6];
  run_atomic("add", false, 3, &init, 6, &fin, olds);
  assert_int_equal(fin, 5 + 6 * 3);
  for (int i = 0; i < 6; i++)
    assert_int_equal(olds[i], 5 + 3 * i); /* program order */
  init = -10;
  run_atomic("max", false, -3, &init, 2, &fin, olds);
  assert_int_equal(fin, -3);
  assert_int_equal(olds[0], -10);
  assert_int_equal(olds[1], -3);
  run_atomic("xchg", false, 77, &init, 3, &fin, olds);
  assert_int_equal(fin, 77);
  assert_int_equal(olds[0], -10);
  assert_int_equal(olds[1], 77);
  float finit = 1.5f, ffin = 0, folds[4];
  run_atomic("fadd", true, 2.0, &finit, 4, &ffin, folds);
  assert_true(ffin == 9.5f);
  assert_true(folds[3] == 7.5f);
}

/* ---- join / split, assert, print ------------------------------------------------- */

static void test_join_split(void **state) {
  (void)state;
  tb t;
  tb_begin(&t, 0, NULL);
  ir_value *out = ir_block_add_arg(t.m, t.entry, ir_type_ptr(t.ctx, ir_type_i32(t.ctx), 1));
  ir_value *r = ir_build_make_range(&t.b, 0, 8);
  ir_value *hundred = ir_build_const_int(&t.b, r->type, 100);
  ir_value *r2 = ir_build_binary(&t.b, IR_OP_ARITH_ADDI, r, hundred);
  int64_t shape[2] = {8, 2};
  const ir_type *jt = ir_type_tensor(t.ctx, 2, shape, ir_type_i32(t.ctx), NULL);
  ir_value *jops[2] = {r, r2};
  ir_value *j = ir_build1(&t.b, IR_OP_TT_JOIN, jt, 2, jops);
  const ir_type *rts[2] = {r->type, r->type};
  ir_op *sp = ir_build(&t.b, IR_OP_TT_SPLIT, 2, rts, 1, &j, 0);
  /* out[0..8) = second half of the split (r + 100); out[8..24) = join flat. */
  store(&t, addptr(&t, out, r), ir_op_result(sp, 1));
  int64_t flat = 16;
  const ir_type *ft = ir_type_tensor(t.ctx, 1, &flat, ir_type_i32(t.ctx), NULL);
  ir_value *jf = ir_build1(&t.b, IR_OP_TT_RESHAPE, ft, 1, &j);
  ir_value *r16 = ir_build_make_range(&t.b, 8, 24);
  store(&t, addptr(&t, out, r16), jf);
  char err[256];
  rt_interp *ip = tb_end(&t, err, sizeof err);
  assert_non_null(ip);
  rt_heap h;
  rt_heap_init(&h);
  uint64_t a;
  rt_heap_alloc(&h, 24 * 4, &a);
  assert_int_equal(run1(ip, &h, 1, &a, 1, NULL, err, sizeof err), TTC_OK);
  const int32_t *o = (const int32_t *)(uintptr_t)a;
  for (int i = 0; i < 8; i++) {
    assert_int_equal(o[i], 100 + i);
    assert_int_equal(o[8 + 2 * i], i);
    assert_int_equal(o[9 + 2 * i], 100 + i);
  }
  rt_heap_destroy(&h);
  tb_free(&t, ip);
}

static void test_assert_and_print(void **state) {
  (void)state;
  tb t;
  tb_begin(&t, 0, NULL);
  ir_value *pid = ir_build_program_id(&t.b, 0);
  ir_op *pr = ir_build(&t.b, IR_OP_TT_PRINT, 0, NULL, 1, &pid, 0);
  ir_op_set_attr(t.m, pr, "prefix", ir_attr_string(t.ctx, "pid: "));
  ir_value *two = ir_build_const_int(&t.b, ir_type_i32(t.ctx), 2);
  ir_value *ok = ir_build_cmpi(&t.b, IR_CMPI_SLT, pid, two);
  ir_op *as = ir_build(&t.b, IR_OP_TT_ASSERT, 0, NULL, 1, &ok, 0);
  ir_op_set_attr(t.m, as, "message", ir_attr_string(t.ctx, "pid < 2"));
  char err[512];
  rt_interp *ip = tb_end(&t, err, sizeof err);
  assert_non_null(ip);
  rt_heap h;
  rt_heap_init(&h);
  ir_strbuf sb;
  ir_sb_init(&sb);
  assert_int_equal(run1(ip, &h, 5, NULL, 0, &sb, err, sizeof err), TTC_ERROR_INPUT);
  assert_non_null(strstr(err, "assertion failed at k.py:3:7 in program (2, 0, 0)"));
  assert_non_null(strstr(err, "pid < 2"));
  assert_non_null(strstr(sb.data, "pid (1, 0, 0) idx (0) pid: 1\n"));
  assert_non_null(strstr(sb.data, "pid (2, 0, 0) idx (0) pid: 2\n"));
  assert_null(strstr(sb.data, "pid: 3")); /* the launch stopped at program 2 */
  ir_sb_free(&sb);
  rt_heap_destroy(&h);
  tb_free(&t, ip);
}

/* ---- integer and conversion edge cases ---------------------------------------------- */

/* Stores f(x, y) for one scalar binary op of type ty, returns the bits. */
static uint64_t scalar_binop(ir_op_kind kind, unsigned width, int64_t x, int64_t y) {
  tb t;
  tb_begin(&t, 0, NULL);
  const ir_type *ty = ir_type_int(t.ctx, width);
  ir_value *out = ir_block_add_arg(t.m, t.entry, ir_type_ptr(t.ctx, ty, 1));
  ir_value *a = ir_build_const_int(&t.b, ty, x), *b = ir_build_const_int(&t.b, ty, y);
  store(&t, out, ir_build_binary(&t.b, kind, a, b));
  char err[256];
  rt_interp *ip = tb_end(&t, err, sizeof err);
  assert_non_null(ip);
  rt_heap h;
  rt_heap_init(&h);
  uint64_t p, r = 0;
  rt_heap_alloc(&h, 8, &p);
  assert_int_equal(run1(ip, &h, 1, &p, 1, NULL, err, sizeof err), TTC_OK);
  memcpy(&r, (void *)(uintptr_t)p, (width + 7) / 8);
  rt_heap_destroy(&h);
  tb_free(&t, ip);
  return r;
}

static void test_integer_edges(void **state) {
  (void)state;
  assert_int_equal(scalar_binop(IR_OP_ARITH_DIVSI, 32, 7, 0), 0xffffffffu); /* PTX: all ones */
  assert_int_equal(scalar_binop(IR_OP_ARITH_DIVSI, 32, INT32_MIN, -1), 0x80000000u);
  assert_int_equal(scalar_binop(IR_OP_ARITH_REMUI, 16, 9, 0), 9);
  assert_int_equal(scalar_binop(IR_OP_ARITH_SHLI, 8, 1, 8), 0);
  assert_int_equal(scalar_binop(IR_OP_ARITH_SHRSI, 8, -128, 9), 0xff);
  assert_int_equal(scalar_binop(IR_OP_ARITH_ADDI, 8, 200, 100), 44); /* wraps */
  assert_int_equal(scalar_binop(IR_OP_ARITH_MULI, 64, INT64_MAX, 2), (uint64_t)-2);
  assert_int_equal(scalar_binop(IR_OP_TT_MULHIUI, 32, 0xffffffff, 0xffffffff), 0xfffffffe);
  /* i1: add is xor, signed max sees true as -1 */
  assert_int_equal(scalar_binop(IR_OP_ARITH_ADDI, 1, 1, 1), 0);
  assert_int_equal(scalar_binop(IR_OP_ARITH_MAXSI, 1, 1, 0), 0);
  assert_int_equal(scalar_binop(IR_OP_ARITH_MAXUI, 1, 1, 0), 1);
}

static void test_fptosi_saturates(void **state) {
  (void)state;
  const double in[] = {1e10, -1e10, NAN, -2.9, 2.9};
  const int32_t want[] = {INT32_MAX, INT32_MIN, 0, -2, 2};
  for (int i = 0; i < 5; i++) {
    tb t;
    tb_begin(&t, 0, NULL);
    ir_value *out = ir_block_add_arg(t.m, t.entry, ir_type_ptr(t.ctx, ir_type_i32(t.ctx), 1));
    ir_value *x = ir_build_const_float(&t.b, ir_type_f32(t.ctx), in[i]);
    store(&t, out, ir_build_unary(&t.b, IR_OP_ARITH_FPTOSI, ir_type_i32(t.ctx), x));
    char err[256];
    rt_interp *ip = tb_end(&t, err, sizeof err);
    rt_heap h;
    rt_heap_init(&h);
    uint64_t p;
    rt_heap_alloc(&h, 4, &p);
    assert_int_equal(run1(ip, &h, 1, &p, 1, NULL, err, sizeof err), TTC_OK);
    assert_int_equal(*(int32_t *)(uintptr_t)p, want[i]);
    rt_heap_destroy(&h);
    tb_free(&t, ip);
  }
}

/* ---- control flow from ttir text ------------------------------------------------- */

/* Prepares the first function of a ttir module; the context and module are
 * returned for tb-style freeing. */
static rt_interp *prepare_text(tb *t, const char *text, char *err, size_t cap) {
  memset(t, 0, sizeof *t);
  t->ctx = ir_context_create();
  const ir_source *src = ir_context_add_source(t->ctx, "k.ttir", text, strlen(text));
  t->m = ir_parse_module(t->ctx, src);
  assert_non_null(t->m);
  return rt_interp_prepare(ir_module_body(t->m)->first, err, cap);
}

/* scf.if without an else region: the untaken then-arm runs nothing, and the
 * missing else reads as an empty block. */
static void test_if_without_else(void **state) {
  (void)state;
  static const char text[] = "module {\n"
                             "  tt.func public @k(%out: !tt.ptr<i32>, %flag: i32) {\n"
                             "    %c0 = arith.constant 0 : i32\n"
                             "    %c = arith.cmpi ne, %flag, %c0 : i32\n"
                             "    scf.if %c {\n"
                             "      %c5 = arith.constant 5 : i32\n"
                             "      tt.store %out, %c5 : !tt.ptr<i32>\n"
                             "    }\n"
                             "    tt.return\n"
                             "  }\n"
                             "}\n";
  tb t;
  char err[256];
  rt_interp *ip = prepare_text(&t, text, err, sizeof err);
  assert_non_null(ip);
  const rt_ins *if_ins = NULL;
  for (int i = 0; i < ip->body.nins; i++)
    if (ip->body.ins[i].op->kind == IR_OP_SCF_IF) if_ins = &ip->body.ins[i];
  assert_non_null(if_ins);
  assert_int_equal(if_ins->regions[1].nins, 0);
  rt_heap h;
  rt_heap_init(&h);
  uint64_t args[2] = {0, 0};
  rt_heap_alloc(&h, 4, &args[0]);
  *(int32_t *)(uintptr_t)args[0] = -1;
  assert_int_equal(run1(ip, &h, 1, args, 2, NULL, err, sizeof err), TTC_OK);
  assert_int_equal(*(int32_t *)(uintptr_t)args[0], -1);
  args[1] = 1;
  assert_int_equal(run1(ip, &h, 1, args, 2, NULL, err, sizeof err), TTC_OK);
  assert_int_equal(*(int32_t *)(uintptr_t)args[0], 5);
  rt_heap_destroy(&h);
  tb_free(&t, ip);
}

/* An f32 dot truncates its inputs to tf32 as the tensor cores do, unless it
 * asks for ieee: 1 + 3 * 2^-12 becomes 1, and sixteen products of it with 1
 * sum to 16 instead of 16.01171875. */
static void test_dot_tf32(void **state) {
  (void)state;
#define DOT_TEXT(precision)                                                                        \
  "module {\n"                                                                                     \
  "  tt.func public @k(%out: !tt.ptr<f32>) {\n"                                                    \
  "    %a = arith.constant dense<1.000732421875> : tensor<1x16xf32>\n"                             \
  "    %b = arith.constant dense<1.0> : tensor<16x1xf32>\n"                                        \
  "    %c = arith.constant dense<0.0> : tensor<1x1xf32>\n"                                         \
  "    %d = tt.dot %a, %b, %c, inputPrecision = " precision                                        \
  " : tensor<1x16xf32> * tensor<16x1xf32> -> tensor<1x1xf32>\n"                                    \
  "    %r = tt.reshape %d : tensor<1x1xf32> -> tensor<1xf32>\n"                                    \
  "    %o = tt.splat %out : !tt.ptr<f32> -> tensor<1x!tt.ptr<f32>>\n"                              \
  "    tt.store %o, %r : tensor<1x!tt.ptr<f32>>\n"                                                 \
  "    tt.return\n"                                                                                \
  "  }\n"                                                                                          \
  "}\n"
  static const char *const texts[2] = {DOT_TEXT("tf32"), DOT_TEXT("ieee")};
#undef DOT_TEXT
  const float want[2] = {16.0f, 16.01171875f};
  for (int i = 0; i < 2; i++) {
    const char *text = texts[i];
    tb t;
    char err[256];
    rt_interp *ip = prepare_text(&t, text, err, sizeof err);
    assert_non_null(ip);
    rt_heap h;
    rt_heap_init(&h);
    uint64_t p;
    rt_heap_alloc(&h, 4, &p);
    assert_int_equal(run1(ip, &h, 1, &p, 1, NULL, err, sizeof err), TTC_OK);
    assert_true(*(float *)(uintptr_t)p == want[i]);
    rt_heap_destroy(&h);
    tb_free(&t, ip);
  }
}

/* An i64 scf.for whose last iv + step passes INT64_MAX stops there instead
 * of overflowing (undefined behaviour, then a near-endless loop). */
static void test_for_near_int64_max(void **state) {
  (void)state;
  static const char text[] =
      "module {\n"
      "  tt.func public @k(%out: !tt.ptr<i64>, %lb: i64, %ub: i64, %step: i64) {\n"
      "    %c0 = arith.constant 0 : i64\n"
      "    %c1 = arith.constant 1 : i64\n"
      "    %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %c0) -> (i64)  : i64 {\n"
      "      %n = arith.addi %acc, %c1 : i64\n"
      "      scf.yield %n : i64\n"
      "    }\n"
      "    tt.store %out, %r : !tt.ptr<i64>\n"
      "    tt.return\n"
      "  }\n"
      "}\n";
  tb t;
  char err[256];
  rt_interp *ip = prepare_text(&t, text, err, sizeof err);
  assert_non_null(ip);
  rt_heap h;
  rt_heap_init(&h);
  uint64_t args[4] = {0, (uint64_t)(INT64_MAX - 3), (uint64_t)INT64_MAX, 2};
  rt_heap_alloc(&h, 8, &args[0]);
  assert_int_equal(run1(ip, &h, 1, args, 4, NULL, err, sizeof err), TTC_OK);
  assert_int_equal(*(int64_t *)(uintptr_t)args[0], 2); /* MAX-3, MAX-1 */
  args[1] = (uint64_t)INT64_MIN;
  args[3] = (uint64_t)INT64_MAX;
  assert_int_equal(run1(ip, &h, 1, args, 4, NULL, err, sizeof err), TTC_OK);
  assert_int_equal(*(int64_t *)(uintptr_t)args[0], 3); /* MIN, -1, MAX-1 */
  rt_heap_destroy(&h);
  tb_free(&t, ip);
}

/* A launch's print output stops at 64 MiB with one line saying so (65000
 * programs printing 1024 values each held 2 GB). */
static void test_print_bounded(void **state) {
  (void)state;
  static const char text[] =
      "module {\n"
      "  tt.func public @p(%n: i32) {\n"
      "    %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>\n"
      "    %1 = tt.splat %n : i32 -> tensor<1024xi32>\n"
      "    %2 = arith.addi %0, %1 : tensor<1024xi32>\n"
      "    \"tt.print\"(%2) <{hex = false, isSigned = array<i32: 1>, prefix = \"v\"}> : "
      "(tensor<1024xi32>) -> ()\n"
      "    tt.return\n"
      "  }\n"
      "}\n";
  tb t;
  char err[256];
  rt_interp *ip = prepare_text(&t, text, err, sizeof err);
  assert_non_null(ip);
  rt_heap h;
  rt_heap_init(&h);
  ir_strbuf out;
  ir_sb_init(&out);
  uint64_t args[1] = {5};
  assert_int_equal(run1(ip, &h, 2500, args, 1, &out, err, sizeof err), TTC_OK);
  static const char cut[] = "... (print output past 64 MiB dropped)\n";
  assert_true(out.len >= ((size_t)64 << 20) && out.len < ((size_t)64 << 20) + 4096);
  assert_memory_equal(out.data + out.len - (sizeof cut - 1), cut, sizeof cut - 1);
  assert_ptr_equal(strstr(out.data, cut), out.data + out.len - (sizeof cut - 1)); /* once */
  ir_sb_free(&out);
  rt_heap_destroy(&h);
  tb_free(&t, ip);
}

/* The text of a kernel of 600 statements on a 2^20-element tile, each value
 * either used by the next statement only (a chain) or by the last ones too
 * (all live at the end); caller frees. */
static char *statements_text(bool all_live) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_sb_puts(&sb, "module {\n  tt.func public @k(%p: !tt.ptr<f32>) {\n"
                  "    %c = arith.constant dense<1.0> : tensor<1048576xf32>\n"
                  "    %x0 = arith.addf %c, %c : tensor<1048576xf32>\n");
  for (int i = 1; i < 600; i++)
    ir_sb_printf(&sb, "    %%x%d = arith.addf %%x%d, %%c : tensor<1048576xf32>\n", i,
                 all_live ? 0 : i - 1);
  if (all_live) { /* s1 = x0 + x1, s2 = s1 + x2, ...: every x is live until the sum */
    ir_sb_puts(&sb, "    %s1 = arith.addf %x0, %x1 : tensor<1048576xf32>\n");
    for (int i = 2; i < 600; i++)
      ir_sb_printf(&sb, "    %%s%d = arith.addf %%s%d, %%x%d : tensor<1048576xf32>\n", i, i - 1, i);
  } else {
    ir_sb_puts(&sb, "    %s = arith.addf %x599, %x599 : tensor<1048576xf32>\n");
  }
  ir_sb_puts(&sb, "    tt.return\n  }\n}\n");
  return ir_sb_take(&sb);
}

/* Values share storage when they are never live at once: 600 chained
 * statements on a 2^20-element tile need a few tiles, not 600 (2.4 GB).
 * When they are all live at once the kernel is refused when prepared,
 * before anything is allocated, with the sizes. */
static void test_values_bounded(void **state) {
  (void)state;
  tb t;
  char err[512];
  char *text = statements_text(false);
  rt_interp *ip = prepare_text(&t, text, err, sizeof err);
  if (!ip) fprintf(stderr, "%s\n", err);
  assert_non_null(ip);
  assert_true(ip->storage_bytes <= 4 * ((size_t)4 << 20)); /* a few 4 MiB tiles */
  tb_free(&t, ip);
  free(text);
  text = statements_text(true);
  ip = prepare_text(&t, text, err, sizeof err);
  assert_null(ip);
  assert_non_null(strstr(err, "above the interpreter's limit of 2048 MiB"));
  tb_free(&t, ip);
  free(text);
}

/* TTC_INTERP_TIMEOUT stops a launch that runs past it (a loop of 2^40
 * iterations would run for days inside the caller), with a located error;
 * without it the same loop of 1000 iterations finishes. */
static void test_timeout(void **state) {
  (void)state;
  static const char text[] =
      "module {\n"
      "  tt.func public @k(%y: !tt.ptr<i64>, %n: i64) {\n"
      "    %s = arith.constant 0 : i64\n"
      "    %c1 = arith.constant 1 : i64\n"
      "    %r = scf.for %i = %s to %n step %c1 iter_args(%a = %s) -> (i64) : i64 {\n"
      "      %b = arith.addi %a, %i : i64\n"
      "      scf.yield %b : i64\n"
      "    }\n"
      "    tt.store %y, %r : !tt.ptr<i64>\n"
      "    tt.return\n"
      "  }\n"
      "}\n";
  tb t;
  char err[512];
  rt_interp *ip = prepare_text(&t, text, err, sizeof err);
  assert_non_null(ip);
  rt_heap h;
  rt_heap_init(&h);
  uint64_t args[2] = {0, 1000};
  rt_heap_alloc(&h, 8, &args[0]);
  assert_int_equal(run1(ip, &h, 1, args, 2, NULL, err, sizeof err), TTC_OK);
  assert_int_equal(*(int64_t *)(uintptr_t)args[0], 499500);
  setenv("TTC_INTERP_TIMEOUT", "1", 1);
  args[1] = (uint64_t)1 << 40;
  assert_int_equal(run1(ip, &h, 1, args, 2, NULL, err, sizeof err), TTC_ERROR_INPUT);
  unsetenv("TTC_INTERP_TIMEOUT");
  assert_non_null(strstr(err, "k.ttir:5:"));
  assert_non_null(strstr(err, "the launch ran past 1 s (TTC_INTERP_TIMEOUT) and was stopped"));
  rt_heap_destroy(&h);
  tb_free(&t, ip);
}

/* ---- the public API in interpreter mode ---------------------------------------------- */

static void test_public_api(void **state) {
  (void)state;
  setenv("TTC_INTERPRET", "1", 1);
  ttc_device *dev = NULL;
  char err[256];
  assert_int_equal(ttc_device_open(0, &dev, err, sizeof err), TTC_OK);
  unsetenv("TTC_INTERPRET");
  assert_true(ttc_device_is_interpreter(dev));
  assert_string_equal(ttc_device_name(dev), "ttc interpreter (CPU)");
  assert_string_equal(ttc_device_arch(dev), "interpreter");
  assert_string_equal(ttc_device_print_output(dev), "");
  uint64_t p = 0;
  assert_int_equal(ttc_device_alloc(dev, 64, &p), TTC_OK);
  char buf[80] = {0};
  assert_int_equal(ttc_device_copy_to(dev, p, buf, 64), TTC_OK);
  assert_int_equal(ttc_device_copy_to(dev, p + 8, buf, 64), TTC_ERROR_OUT_OF_BOUNDS);
  assert_non_null(strstr(ttc_device_error(dev), "ttc_device_copy_to"));
  assert_int_equal(ttc_device_copy_from(dev, buf, p, 80), TTC_ERROR_OUT_OF_BOUNDS);
  assert_int_equal(ttc_device_free(dev, p + 4), TTC_ERROR_ARGUMENT);
  assert_int_equal(ttc_device_synchronize(dev), TTC_OK);
  ttc_event *a = NULL, *b = NULL;
  float ms = -1;
  assert_int_equal(ttc_event_create(dev, &a), TTC_OK);
  assert_int_equal(ttc_event_create(dev, &b), TTC_OK);
  assert_int_equal(ttc_event_record(dev, a, NULL), TTC_OK);
  assert_int_equal(ttc_event_record(dev, b, NULL), TTC_OK);
  assert_int_equal(ttc_event_elapsed(dev, a, b, &ms), TTC_OK);
  assert_true(ms >= 0 && ms < 1000);
  ttc_event_destroy(dev, a);
  ttc_event_destroy(dev, b);
  assert_string_equal(ttc_status_string(TTC_ERROR_OUT_OF_BOUNDS), "out-of-bounds access");
  /* memset, device-to-device copies, the allocation holding an address */
  uint64_t q = 0, base = 0;
  size_t size = 0;
  assert_int_equal(ttc_device_alloc(dev, 32, &q), TTC_OK);
  assert_int_equal(ttc_device_memset(dev, p, 0x5a, 64, NULL), TTC_OK);
  assert_int_equal(ttc_device_memset(dev, p + 16, 0, 8, NULL), TTC_OK);
  assert_int_equal(ttc_device_copy(dev, q, p + 12, 32, NULL), TTC_OK);
  assert_int_equal(ttc_device_copy_from(dev, buf, q, 32), TTC_OK);
  for (int i = 0; i < 32; i++)
    assert_int_equal((unsigned char)buf[i], i >= 4 && i < 12 ? 0 : 0x5a);
  assert_int_equal(ttc_device_memset(dev, q, 0, 33, NULL), TTC_ERROR_OUT_OF_BOUNDS);
  assert_int_equal(ttc_device_copy(dev, q, p, 64, NULL), TTC_ERROR_OUT_OF_BOUNDS);
  assert_int_equal(ttc_device_address_range(dev, p + 40, &base, &size), TTC_OK);
  assert_true(base == p && size == 64);
  assert_int_equal(ttc_device_address_range(dev, 16, &base, &size), TTC_ERROR_ARGUMENT);
  ttc_device_destroy(dev); /* frees p and q */
}

/* A kernel whose combine region reads an outer value is refused at load,
 * with the op's location. */
static void test_prepare_rejects_outer_values(void **state) {
  (void)state;
  tb t;
  tb_begin(&t, 0, NULL);
  ir_value *r = ir_build_make_range(&t.b, 0, 8);
  ir_value *outer = ir_build_const_int(&t.b, ir_type_i32(t.ctx), 3);
  const ir_type *i32 = ir_type_i32(t.ctx);
  ir_op *red = ir_build(&t.b, IR_OP_TT_REDUCE, 1, &i32, 1, &r, 1);
  ir_op_set_attr(t.m, red, "axis", ir_attr_int(t.ctx, i32, 0));
  const ir_type *two[2] = {i32, i32};
  ir_block *blk = ir_block_create(t.m, 2, two);
  ir_region_append_block(&red->regions[0], blk);
  ir_builder inner = t.b;
  ir_builder_set_end(&inner, blk);
  ir_value *s = ir_build_binary(&inner, IR_OP_ARITH_ADDI, blk->args[0], outer);
  ir_build(&inner, IR_OP_TT_REDUCE_RETURN, 0, NULL, 1, &s, 0);
  char err[256];
  rt_interp *ip = tb_end(&t, err, sizeof err);
  assert_null(ip);
  assert_non_null(strstr(err, "k.py:3:7: interpreter: a combine region may not use values"));
  tb_free(&t, ip);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_heap_bounds),
      cmocka_unit_test(test_heap_threads),
      cmocka_unit_test(test_print_bounded),
      cmocka_unit_test(test_values_bounded),
      cmocka_unit_test(test_timeout),
      cmocka_unit_test(test_f16_rounding),
      cmocka_unit_test(test_bf16_rounding),
      cmocka_unit_test(test_dot_tf32),
      cmocka_unit_test(test_atomics),
      cmocka_unit_test(test_join_split),
      cmocka_unit_test(test_assert_and_print),
      cmocka_unit_test(test_integer_edges),
      cmocka_unit_test(test_fptosi_saturates),
      cmocka_unit_test(test_public_api),
      cmocka_unit_test(test_prepare_rejects_outer_values),
      cmocka_unit_test(test_if_without_else),
      cmocka_unit_test(test_for_near_int64_max),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
