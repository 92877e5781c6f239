// SPDX-License-Identifier: MIT
/* test_ir.c - the IR core: arena, strings, uniqued types and attributes,
 * ops/blocks/regions, walking, use replacement, the builder and the printer
 * (the vector-add kernel built by hand must print as Triton prints it). */
#include "ttc_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir-tt/ir.h"

static void test_arena_alignment_and_zero(void **state) {
  (void)state;
  ir_arena a;
  ir_arena_init(&a);
  for (int i = 1; i < 2000; i += 37) {
    unsigned char *p = ir_arena_alloc(&a, (size_t)i);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % 16, 0);
    for (int j = 0; j < i; j++)
      assert_int_equal(p[j], 0);
    memset(p, 0xAB, (size_t)i);
  }
  char *big = ir_arena_alloc(&a, 1 << 20); /* larger than a chunk */
  assert_non_null(big);
  memset(big, 1, 1 << 20);
  char *s = ir_arena_strdup(&a, "hello world", 5);
  assert_string_equal(s, "hello");
  ir_arena_free(&a);
  assert_null(a.head);
}

static void test_strbuf(void **state) {
  (void)state;
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_sb_puts(&sb, "a");
  ir_sb_printf(&sb, "%d-%s", 42, "x");
  ir_sb_putc(&sb, '!');
  for (int i = 0; i < 100; i++)
    ir_sb_printf(&sb, "%0300d", 0); /* forces growth */
  assert_int_equal(sb.len, 6 + 100 * 300);
  assert_memory_equal(sb.data, "a42-x!", 6);
  char *s = ir_sb_take(&sb);
  assert_null(sb.data);
  free(s);
  s = ir_sb_take(&sb); /* empty: "" not NULL */
  assert_string_equal(s, "");
  free(s);
}

static void test_intern(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  const char *a = ir_intern_cstr(ctx, "offs");
  char buf[] = "offsets";
  const char *b = ir_intern(ctx, buf, 4);
  assert_ptr_equal(a, b);
  assert_string_equal(b, "offs");
  assert_ptr_not_equal(a, ir_intern_cstr(ctx, "off"));
  /* Many strings: the table grows and keeps earlier pointers valid. */
  char name[32];
  const char *first = NULL;
  for (int i = 0; i < 5000; i++) {
    snprintf(name, sizeof name, "v%d", i);
    const char *p = ir_intern_cstr(ctx, name);
    if (i == 0) first = p;
  }
  assert_ptr_equal(first, ir_intern_cstr(ctx, "v0"));
  assert_ptr_equal(a, ir_intern_cstr(ctx, "offs"));
  ir_context_destroy(ctx);
}

static void test_types_uniqued(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  const ir_type *i32 = ir_type_i32(ctx), *f32 = ir_type_f32(ctx);
  assert_ptr_equal(i32, ir_type_int(ctx, 32));
  assert_ptr_not_equal(i32, ir_type_i64(ctx));
  assert_ptr_not_equal(ir_type_f16(ctx), ir_type_bf16(ctx));
  const ir_type *p = ir_type_ptr(ctx, f32, 1);
  assert_ptr_equal(p, ir_type_ptr(ctx, ir_type_f32(ctx), 1));
  assert_ptr_not_equal(p, ir_type_ptr(ctx, f32, 3));
  int64_t shape[2] = {64, 32};
  const ir_type *t = ir_type_tensor(ctx, 2, shape, f32, NULL);
  int64_t shape2[2] = {64, 32};
  assert_ptr_equal(t, ir_type_tensor(ctx, 2, shape2, f32, NULL));
  assert_ptr_not_equal(t, ir_type_tensor(ctx, 1, shape2, f32, NULL));
  assert_true(ir_type_is_tensor(t));
  assert_true(ir_type_is_float(t));
  assert_false(ir_type_is_int(t));
  assert_int_equal(ir_type_numel(t), 2048);
  assert_int_equal(ir_type_numel(f32), 1);
  assert_ptr_equal(ir_type_scalar(t), f32);
  const ir_type *ti = ir_type_with_elem(ctx, t, i32);
  assert_ptr_equal(ti, ir_type_tensor(ctx, 2, shape, i32, NULL));
  unsigned spt[2] = {1, 4}, tpw[2] = {8, 4}, wpc[2] = {4, 1}, ord[2] = {1, 0};
  const ir_attr *bl = ir_attr_blocked(ctx, 2, spt, tpw, wpc, ord);
  const ir_type *tl = ir_type_with_layout(ctx, t, bl);
  assert_ptr_equal(tl->layout, bl);
  assert_ptr_equal(tl, ir_type_tensor(ctx, 2, shape, f32, bl));
  assert_int_equal(ir_type_bytes(f32), 4);
  assert_int_equal(ir_type_bytes(ir_type_i1(ctx)), 1);
  assert_int_equal(ir_type_bytes(p), 8);
  assert_int_equal(ir_type_bytes(ir_type_bf16(ctx)), 2);

  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_type_print(ir_type_tensor(ctx, 1, shape, p, NULL), &sb);
  assert_string_equal(sb.data, "tensor<64x!tt.ptr<f32>>");
  sb.len = 0;
  ir_type_print(tl, &sb);
  assert_string_equal(sb.data,
                      "tensor<64x32xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = "
                      "[8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>");
  sb.len = 0;
  ir_type_print(ir_type_ptr(ctx, ir_type_bf16(ctx), 3), &sb);
  assert_string_equal(sb.data, "!tt.ptr<bf16, 3>");
  ir_sb_free(&sb);
  ir_context_destroy(ctx);
}

static char *attr_str(const ir_attr *a) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_attr_print(a, &sb);
  return ir_sb_take(&sb);
}

#define ASSERT_ATTR(a, text)                                                                       \
  do {                                                                                             \
    char *s_ = attr_str(a);                                                                        \
    assert_string_equal(s_, text);                                                                 \
    free(s_);                                                                                      \
  } while (0)

static void test_attrs(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  const ir_type *i32 = ir_type_i32(ctx), *f32 = ir_type_f32(ctx);
  assert_ptr_equal(ir_attr_int(ctx, i32, 16), ir_attr_int(ctx, i32, 16));
  assert_ptr_not_equal(ir_attr_int(ctx, i32, 16), ir_attr_int(ctx, ir_type_i64(ctx), 16));
  /* i32 values wrap to their width, so 2^32 + 5 is 5. */
  assert_ptr_equal(ir_attr_int(ctx, i32, (1ll << 32) + 5), ir_attr_int(ctx, i32, 5));
  assert_int_equal(ir_attr_int(ctx, i32, 0xFFFFFFFFll)->i, -1);
  assert_ptr_equal(ir_attr_string(ctx, "cuda:90"), ir_attr_string(ctx, "cuda:90"));
  int64_t ord[2] = {1, 0};
  assert_ptr_equal(ir_attr_array(ctx, 2, ord), ir_attr_array(ctx, 2, (int64_t[]){1, 0}));
  assert_ptr_equal(ir_attr_cmpi(ctx, IR_CMPI_SLT), ir_attr_enum(ctx, "slt", 2));
  assert_string_equal(ir_cmpi_name(IR_CMPI_UGE), "uge");
  assert_string_equal(ir_cmpf_name(IR_CMPF_OLT), "olt");
  assert_string_equal(ir_cmpf_name(IR_CMPF_UNO), "uno");

  ASSERT_ATTR(ir_attr_int(ctx, i32, 16), "16 : i32");
  ASSERT_ATTR(ir_attr_bool(ctx, false), "false");
  ASSERT_ATTR(ir_attr_bool(ctx, true), "true");
  ASSERT_ATTR(ir_attr_float(ctx, f32, 1.0), "1.000000e+00 : f32");
  ASSERT_ATTR(ir_attr_string(ctx, "a\"b"), "\"a\\\"b\"");
  ASSERT_ATTR(ir_attr_array(ctx, 2, ord), "array<i32: 1, 0>");
  int64_t n = 1024;
  const ir_type *t = ir_type_tensor(ctx, 1, &n, f32, NULL);
  ASSERT_ATTR(ir_attr_dense(ctx, t, ir_attr_float(ctx, f32, 0.0)),
              "dense<0.000000e+00> : tensor<1024xf32>");
  ASSERT_ATTR(ir_attr_dense(ctx, t, ir_attr_float(ctx, f32, -INFINITY)),
              "dense<0xFF800000> : tensor<1024xf32>");
  ASSERT_ATTR(ir_attr_float(ctx, ir_type_f64(ctx), 0.1), "1.000000e-01 : f64");
  /* Not exact in 6 digits: the shortest round-tripping decimal. */
  ASSERT_ATTR(ir_attr_float(ctx, f32, 3.14159274f), "3.14159274 : f32");
  ASSERT_ATTR(ir_attr_float(ctx, ir_type_f16(ctx), INFINITY), "0x7C00 : f16");
  /* f16 keeps 11 significant bits: 1 + 2^-12 rounds to 1. */
  assert_true(ir_attr_float(ctx, ir_type_f16(ctx), 1.0 + 1.0 / 4096)->f == 1.0);
  assert_true(ir_float_round(ir_type_bf16(ctx), 1.0 + 1.0 / 256) == 1.0);
  assert_true(ir_float_round(ir_type_f16(ctx), 70000.0) == INFINITY);
  unsigned spt[1] = {4}, tpw[1] = {32}, wpc[1] = {4}, o1[1] = {0};
  const ir_attr *bl = ir_attr_blocked(ctx, 1, spt, tpw, wpc, o1);
  assert_ptr_equal(bl, ir_attr_blocked(ctx, 1, spt, tpw, wpc, o1));
  ASSERT_ATTR(bl, "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], "
                  "order = [0]}>");
  const ir_attr *sl = ir_attr_slice(ctx, 0, bl);
  assert_ptr_equal(sl, ir_attr_slice(ctx, 0, bl));
  assert_ptr_not_equal(sl, ir_attr_slice(ctx, 1, bl));
  ir_context_destroy(ctx);
}

static void test_op_info(void **state) {
  (void)state;
  ir_op_kind k;
  assert_true(ir_op_kind_lookup("tt.addptr", 9, &k));
  assert_int_equal(k, IR_OP_TT_ADDPTR);
  assert_true(ir_op_kind_lookup("tt.reduce.return", 16, &k));
  assert_int_equal(k, IR_OP_TT_REDUCE_RETURN);
  assert_false(ir_op_kind_lookup("tt.reduce.returnx", 17, &k));
  assert_false(ir_op_kind_lookup("tt.add", 6, &k));
  const ir_op_info *info = ir_op_kind_info(IR_OP_ARITH_ADDI);
  assert_string_equal(info->name, "arith.addi");
  assert_int_equal(info->min_operands, 2);
  assert_true(info->traits & IR_T_COMMUTATIVE);
  assert_true(ir_op_kind_info(IR_OP_SCF_YIELD)->traits & IR_T_TERMINATOR);
  assert_int_equal(ir_op_kind_info(IR_OP_TT_LOAD)->max_operands, 3);
}

static void count_op(ir_op *op, void *user) {
  (void)op;
  ++*(int *)user;
}

static void test_ops_link_walk_replace(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  ir_module *m = ir_module_create(ctx, (ir_loc){0});
  ir_builder b;
  ir_builder_init(&b, m);
  const ir_type *i32 = ir_type_i32(ctx);
  const ir_type *args[2] = {i32, i32};
  ir_op *f = ir_build_func(&b, "f", 2, args);
  assert_ptr_equal(ir_module_lookup_func(m, "f"), f);
  assert_null(ir_module_lookup_func(m, "g"));
  ir_block *entry = ir_region_entry(&f->regions[0]);
  assert_int_equal(entry->nargs, 2);
  assert_ptr_equal(entry->args[1]->owner, entry);
  assert_int_equal(entry->args[1]->index, 1);
  ir_builder_set_end(&b, entry);
  ir_value *s = ir_build_binary(&b, IR_OP_ARITH_ADDI, entry->args[0], entry->args[1]);
  ir_value *t = ir_build_binary(&b, IR_OP_ARITH_MULI, s, s);
  ir_op *ret = ir_build(&b, IR_OP_TT_RETURN, 0, NULL, 1, &t, 0);
  assert_ptr_equal(s->def->next, t->def);
  assert_ptr_equal(entry->last, ret);
  assert_ptr_equal(ir_op_block(t->def), entry);
  assert_ptr_equal(ir_op_parent_of_kind(t->def, IR_OP_TT_FUNC), f);
  assert_ptr_equal(ir_op_parent_of_kind(t->def, IR_OP_MODULE), m->op);
  assert_null(ir_op_parent_of_kind(t->def, IR_OP_SCF_FOR));
  assert_int_equal(ir_count_uses(m->op, s), 2);

  /* Insert a constant before the muli and route the muli through it. */
  ir_builder_set_before(&b, t->def);
  ir_value *c = ir_build_const_int(&b, i32, 7);
  assert_ptr_equal(c->def->next, t->def);
  ir_replace_all_uses(m->op, s, c);
  assert_int_equal(ir_count_uses(m->op, s), 0);
  assert_int_equal(ir_count_uses(m->op, c), 2);
  ir_op_erase(s->def);
  assert_ptr_equal(entry->first, c->def);
  int nops = 0;
  ir_walk(m->op, count_op, &nops);
  assert_int_equal(nops, 4); /* func, constant, muli, return */

  /* Attributes: set replaces, remove removes, get_int falls back. */
  ir_op_set_attr(m, t->def, "k", ir_attr_int(ctx, i32, 1));
  ir_op_set_attr(m, t->def, "k", ir_attr_int(ctx, i32, 2));
  ir_op_set_attr(m, t->def, "j", ir_attr_int(ctx, i32, 3));
  assert_int_equal(t->def->nattrs, 2);
  assert_int_equal(ir_op_get_int(t->def, "k", -1), 2);
  ir_op_remove_attr(t->def, "k");
  assert_int_equal(ir_op_get_int(t->def, "k", -1), -1);
  assert_int_equal(ir_op_get_int(t->def, "j", -1), 3);

  /* Operands can grow; unlink + insert_after moves an op. */
  ir_value *ops3[3] = {c, c, c};
  ir_op_set_operands(m, ret, 3, ops3);
  assert_int_equal(ret->noperands, 3);
  ir_op_unlink(c->def);
  ir_op_insert_after(t->def, c->def);
  assert_ptr_equal(entry->first, t->def);
  assert_ptr_equal(t->def->next, c->def);
  assert_ptr_equal(c->def->next, ret);
  ir_value *extra = ir_block_add_arg(m, entry, ir_type_f32(ctx));
  assert_int_equal(entry->nargs, 3);
  assert_int_equal(extra->index, 2);
  ir_module_destroy(m);
  ir_context_destroy(ctx);
}

static ir_value *named(ir_context *ctx, ir_value *v, const char *s) {
  v->name = ir_intern_cstr(ctx, s);
  return v;
}

/* Builds add.ttir of /work/shared/reference/triton-ir by hand. */
static ir_module *build_vector_add(ir_context *ctx) {
  ir_module *m = ir_module_create(ctx, (ir_loc){0});
  ir_builder b;
  ir_builder_init(&b, m);
  const ir_type *i32 = ir_type_i32(ctx), *f32 = ir_type_f32(ctx);
  const ir_type *pf32 = ir_type_ptr(ctx, f32, 1);
  const ir_type *args[4] = {pf32, pf32, pf32, i32};
  const char *names[4] = {"x_ptr", "y_ptr", "z_ptr", "n"};
  ir_op *f = ir_build_func(&b, "add_kernel", 4, args);
  ir_block *e = ir_region_entry(&f->regions[0]);
  for (int i = 0; i < 4; i++) {
    e->args[i]->name = ir_intern_cstr(ctx, names[i]);
    e->args[i]->divisibility = 16;
  }
  ir_builder_set_end(&b, e);
  int64_t n = 1024;
  const ir_type *ti = ir_type_tensor(ctx, 1, &n, i32, NULL);
  const ir_type *tf = ir_type_tensor(ctx, 1, &n, f32, NULL);
  const ir_type *tp = ir_type_tensor(ctx, 1, &n, pf32, NULL);
  ir_value *c = ir_build_const_int(&b, i32, 1024);
  ir_value *pid = named(ctx, ir_build_program_id(&b, 0), "pid");
  ir_value *o = named(ctx, ir_build_binary(&b, IR_OP_ARITH_MULI, pid, c), "offs");
  ir_value *r = named(ctx, ir_build_make_range(&b, 0, 1024), "offs");
  ir_value *os = named(ctx, ir_build_splat(&b, o, ti), "offs");
  ir_value *offs = named(ctx, ir_build_binary(&b, IR_OP_ARITH_ADDI, os, r), "offs");
  ir_value *ns = named(ctx, ir_build_splat(&b, e->args[3], ti), "m");
  ir_value *mask = named(ctx, ir_build_cmpi(&b, IR_CMPI_SLT, offs, ns), "m");
  ir_value *loaded[2];
  for (int i = 0; i < 2; i++) {
    const char *nm = i ? "y" : "x";
    ir_value *ps = named(ctx, ir_build_splat(&b, e->args[i], tp), nm);
    ir_value *pa = named(ctx, ir_build_binary(&b, IR_OP_TT_ADDPTR, ps, offs), nm);
    ir_value *lops[2] = {pa, mask};
    loaded[i] = named(ctx, ir_build1(&b, IR_OP_TT_LOAD, tf, 2, lops), nm);
  }
  ir_value *zs = ir_build_splat(&b, e->args[2], tp);
  ir_value *za = ir_build_binary(&b, IR_OP_TT_ADDPTR, zs, offs);
  ir_value *sum = ir_build_binary(&b, IR_OP_ARITH_ADDF, loaded[0], loaded[1]);
  ir_value *sops[3] = {za, sum, mask};
  ir_build(&b, IR_OP_TT_STORE, 0, NULL, 3, sops, 0);
  ir_build(&b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0);
  return m;
}

static const char add_ttir[] =
    "module {\n"
    "  tt.func public @add_kernel(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y_ptr: "
    "!tt.ptr<f32> {tt.divisibility = 16 : i32}, %z_ptr: !tt.ptr<f32> {tt.divisibility = 16 : "
    "i32}, %n: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {\n"
    "    %c1024_i32 = arith.constant 1024 : i32\n"
    "    %pid = tt.get_program_id x : i32\n"
    "    %offs = arith.muli %pid, %c1024_i32 : i32\n"
    "    %offs_0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>\n"
    "    %offs_1 = tt.splat %offs : i32 -> tensor<1024xi32>\n"
    "    %offs_2 = arith.addi %offs_1, %offs_0 : tensor<1024xi32>\n"
    "    %m = tt.splat %n : i32 -> tensor<1024xi32>\n"
    "    %m_3 = arith.cmpi slt, %offs_2, %m : tensor<1024xi32>\n"
    "    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>\n"
    "    %x_4 = tt.addptr %x, %offs_2 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>\n"
    "    %x_5 = tt.load %x_4, %m_3 : tensor<1024x!tt.ptr<f32>>\n"
    "    %y = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>\n"
    "    %y_6 = tt.addptr %y, %offs_2 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>\n"
    "    %y_7 = tt.load %y_6, %m_3 : tensor<1024x!tt.ptr<f32>>\n"
    "    %0 = tt.splat %z_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>\n"
    "    %1 = tt.addptr %0, %offs_2 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>\n"
    "    %2 = arith.addf %x_5, %y_7 : tensor<1024xf32>\n"
    "    tt.store %1, %2, %m_3 : tensor<1024x!tt.ptr<f32>>\n"
    "    tt.return\n"
    "  }\n"
    "}\n";

static char *print_module(const ir_module *m, bool locations) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_print_options opts = {.locations = locations};
  ir_print_module(m, &opts, &sb);
  return ir_sb_take(&sb);
}

/* A print with locations and, from the same print, the text without them:
 * the located text must equal a located print, the copy a plain print. */
static void check_print_pair(const ir_module *m) {
  ir_strbuf located, plain;
  ir_sb_init(&located);
  ir_sb_init(&plain);
  ir_print_options opts = {.locations = true, .without_locations = &plain};
  ir_print_module(m, &opts, &located);
  char *want_located = print_module(m, true), *want_plain = print_module(m, false);
  assert_string_equal(located.data, want_located);
  assert_string_equal(plain.data, want_plain);
  free(want_located);
  free(want_plain);
  ir_sb_free(&located);
  ir_sb_free(&plain);
}

static void test_print_vector_add(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  ir_module *m = build_vector_add(ctx);
  char *s = print_module(m, false);
  assert_string_equal(s, add_ttir);
  char *s2 = print_module(m, false); /* deterministic */
  assert_string_equal(s, s2);
  free(s);
  free(s2);
  ir_module_destroy(m);
  ir_context_destroy(ctx);
}

/* ir_module_compact: the copy prints as the original (names, attributes,
 * the arguments' divisibility), takes less memory once ops were erased,
 * keeps the op bound's count, and maps an operand used before its
 * definition (which the verifier refuses) to the copy of that definition. */
static void test_compact(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  ir_module *m = build_vector_add(ctx);
  char *before = print_module(m, false);
  ir_op *f = ir_module_lookup_func(m, "add_kernel");
  ir_block *e = ir_region_entry(&f->regions[0]);
  ir_builder b;
  ir_builder_init(&b, m);
  ir_builder_set_before(&b, e->first);
  for (int i = 0; i < 1000; i++)
    ir_op_erase(ir_build_const_int(&b, ir_type_i32(ctx), i)->def);
  size_t bytes = m->arena.total;
  int64_t nops = m->nops;
  assert_true(ir_module_compact(m));
  assert_true(m->arena.total < bytes / 4);
  assert_int_equal(m->nops, nops);
  char *after = print_module(m, false);
  assert_string_equal(after, before);
  free(before);
  free(after);

  /* a use before its definition: the copy's operand is the copy's value */
  f = ir_module_lookup_func(m, "add_kernel");
  e = ir_region_entry(&f->regions[0]);
  ir_builder_set_before(&b, e->first);
  ir_value *c = ir_build_const_int(&b, ir_type_i32(ctx), 5);
  ir_value *sum = ir_build_binary(&b, IR_OP_ARITH_ADDI, c, c);
  ir_op_unlink(c->def);
  ir_op_insert_after(sum->def, c->def); /* now: sum = c + c; c = 5 */
  assert_true(ir_module_compact(m));
  f = ir_module_lookup_func(m, "add_kernel");
  e = ir_region_entry(&f->regions[0]);
  ir_op *add = e->first, *cst = add->next;
  assert_int_equal(add->kind, IR_OP_ARITH_ADDI);
  assert_int_equal(cst->kind, IR_OP_ARITH_CONSTANT);
  assert_ptr_equal(add->operands[0], &cst->results[0]);
  assert_ptr_equal(add->operands[1], &cst->results[0]);

  /* an erased op's result still in use: refused with an internal error,
   * the module and its op count as they were */
  ir_op_erase(cst);
  before = print_module(m, false);
  nops = m->nops;
  assert_int_equal(ir_context_num_errors(ctx), 0);
  assert_false(ir_module_compact(m));
  assert_int_equal(ir_context_num_errors(ctx), 1);
  assert_int_equal(m->nops, nops);
  assert_ptr_equal(ir_module_lookup_func(m, "add_kernel"), f);
  after = print_module(m, false);
  assert_string_equal(after, before);
  free(before);
  free(after);
  ir_module_destroy(m);
  ir_context_destroy(ctx);
}

/* Nested regions, block arguments, results of several values and
 * locations survive a compaction, printed the same way. */
static void test_compact_regions(void **state) {
  (void)state;
  static const char text[] =
      "module {\n"
      "  tt.func public @k(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %n: i32) {\n"
      "    %c0 = arith.constant 0 : i32\n"
      "    %c1 = arith.constant 1 : i32\n"
      "    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %n) -> (i32, i32) : i32 {\n"
      "      %lt = arith.cmpi slt, %a, %i : i32\n"
      "      %x = scf.if %lt -> (i32) {\n"
      "        %s = arith.addi %a, %b : i32\n"
      "        scf.yield %s : i32\n"
      "      } else {\n"
      "        scf.yield %b : i32\n"
      "      }\n"
      "      scf.yield %x, %a : i32, i32\n"
      "    }\n"
      "    %w:2 = scf.while (%u = %r#0, %v = %r#1) : (i32, i32) -> (i32, i32) {\n"
      "      %lt2 = arith.cmpi ult, %u, %v : i32\n"
      "      scf.condition(%lt2) %u, %v : i32, i32\n"
      "    } do {\n"
      "    ^bb0(%u2: i32, %v2: i32):\n"
      "      %u3 = arith.addi %u2, %c1 : i32\n"
      "      scf.yield %u3, %v2 : i32, i32\n"
      "    }\n"
      "    tt.store %p, %w#0 : !tt.ptr<i32>\n"
      "    tt.return\n"
      "  }\n"
      "}\n";
  ir_context *ctx = ir_context_create();
  const ir_source *src = ir_context_add_source(ctx, "t.ttir", text, strlen(text));
  ir_module *m = ir_parse_module(ctx, src);
  assert_non_null(m);
  assert_true(ir_verify(m));
  char *plain = print_module(m, false), *located = print_module(m, true);
  assert_non_null(strstr(plain, "scf.while"));
  assert_true(ir_module_compact(m));
  assert_true(ir_verify(m));
  char *plain2 = print_module(m, false), *located2 = print_module(m, true);
  assert_string_equal(plain2, plain);
  assert_string_equal(located2, located);
  free(plain);
  free(located);
  free(plain2);
  free(located2);
  ir_module_destroy(m);
  ir_context_destroy(ctx);
}

/* ttgir: the same kernel with a blocked layout and module attributes. */
static void test_print_layouts_and_module_attrs(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  ir_module *m = ir_module_create(ctx, (ir_loc){0});
  const ir_type *i32 = ir_type_i32(ctx);
  ir_op_set_attr(m, m->op, "ttg.num-warps", ir_attr_int(ctx, i32, 4));
  ir_op_set_attr(m, m->op, "ttg.target", ir_attr_string(ctx, "cuda:90"));
  ir_op_set_attr(m, m->op, "ttg.threads-per-warp", ir_attr_int(ctx, i32, 32));
  ir_op_set_attr(m, m->op, "ttg.num-ctas", ir_attr_int(ctx, i32, 1));
  unsigned s4[1] = {4}, s1[2] = {1, 8}, t32[1] = {32}, t2[2] = {2, 16}, w4[1] = {4}, w8[2] = {8, 1},
           o0[1] = {0}, o10[2] = {1, 0};
  const ir_attr *bl = ir_attr_blocked(ctx, 1, s4, t32, w4, o0);
  const ir_attr *bl2 = ir_attr_blocked(ctx, 2, s1, t2, w8, o10);
  ir_builder b;
  ir_builder_init(&b, m);
  ir_op *f = ir_build_func(&b, "k", 0, NULL);
  ir_builder_set_end(&b, ir_region_entry(&f->regions[0]));
  int64_t n = 128;
  const ir_type *t2d = ir_type_tensor(ctx, 2, (int64_t[]){128, 64}, ir_type_f16(ctx), bl2);
  ir_build_const_float(&b, t2d, 0.0);
  ir_value *r = ir_build_make_range(&b, 0, 128);
  r->type = ir_type_tensor(ctx, 1, &n, i32, ir_attr_slice(ctx, 1, bl2));
  ir_value *r2 = ir_build_make_range(&b, 0, 128);
  r2->type = ir_type_tensor(ctx, 1, &n, i32, bl);
  ir_build_const_int(&b, r2->type, 64);
  ir_build_const_int(&b, ir_type_i1(ctx), 1);
  ir_build_const_int(&b, i32, -1);
  ir_build(&b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0);
  char *s = print_module(m, false);
  const char *want =
      "#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = "
      "[8, 1], order = [1, 0]}>\n"
      "#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], "
      "order = [0]}>\n"
      "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = "
      "\"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
      "  tt.func public @k() attributes {noinline = false} {\n"
      "    %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked>\n"
      "    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, "
      "#ttg.slice<{dim = 1, parent = #blocked}>>\n"
      "    %1 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked1>\n"
      "    %cst_0 = arith.constant dense<64> : tensor<128xi32, #blocked1>\n"
      "    %true = arith.constant true\n"
      "    %c-1_i32 = arith.constant -1 : i32\n"
      "    tt.return\n"
      "  }\n"
      "}\n";
  assert_string_equal(s, want);
  free(s);
  check_print_pair(m); /* layout aliases ahead of the body in both */
  ir_module_destroy(m);
  ir_context_destroy(ctx);
}

/* scf.for with iter_args, a tt.reduce in generic form, locations. */
static void test_print_regions_and_locs(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  const ir_source *src = ir_context_add_source(ctx, "k.py", "x\n", 2);
  ir_module *m = ir_module_create(ctx, (ir_loc){0});
  ir_builder b;
  ir_builder_init(&b, m);
  const ir_type *i32 = ir_type_i32(ctx), *f32 = ir_type_f32(ctx);
  int64_t n = 16;
  const ir_type *tf = ir_type_tensor(ctx, 1, &n, f32, NULL);
  const ir_type *args[1] = {tf};
  ir_op *f = ir_build_func(&b, "k", 1, args);
  ir_op_set_attr(m, f, "sym_visibility", ir_attr_string(ctx, "private"));
  ir_block *e = ir_region_entry(&f->regions[0]);
  ir_builder_set_end(&b, e);
  b.loc = (ir_loc){src, 3, 5};
  ir_value *lb = ir_build_const_int(&b, i32, 0);
  ir_value *ub = ir_build_const_int(&b, i32, 10);
  ir_value *st = ir_build_const_int(&b, i32, 1);
  ir_value *init = ir_build_const_float(&b, f32, 0.0);
  ir_value *fops[4] = {lb, ub, st, init};
  ir_op *loop = ir_build(&b, IR_OP_SCF_FOR, 1, &f32, 4, fops, 1);
  loop->results[0].name = ir_intern_cstr(ctx, "acc");
  const ir_type *bargs[2] = {i32, f32};
  ir_block *body = ir_block_create(m, 2, bargs);
  body->args[1]->name = ir_intern_cstr(ctx, "acc");
  ir_region_append_block(&loop->regions[0], body);
  ir_builder_set_end(&b, body);
  ir_value *red_in = e->args[0];
  ir_op *red = ir_build(&b, IR_OP_TT_REDUCE, 1, &f32, 1, &red_in, 1);
  ir_op_set_attr(m, red, "axis", ir_attr_int(ctx, i32, 0));
  const ir_type *rargs[2] = {f32, f32};
  ir_block *rb = ir_block_create(m, 2, rargs);
  ir_region_append_block(&red->regions[0], rb);
  ir_builder_set_end(&b, rb);
  ir_value *mx = ir_build_binary(&b, IR_OP_ARITH_MAXNUMF, rb->args[0], rb->args[1]);
  ir_build(&b, IR_OP_TT_REDUCE_RETURN, 0, NULL, 1, &mx, 0);
  ir_builder_set_end(&b, body);
  ir_value *sum = ir_build_binary(&b, IR_OP_ARITH_ADDF, body->args[1], &red->results[0]);
  ir_build(&b, IR_OP_SCF_YIELD, 0, NULL, 1, &sum, 0);
  ir_builder_set_end(&b, e);
  b.loc = (ir_loc){0};
  ir_value *res = &loop->results[0];
  ir_build(&b, IR_OP_TT_RETURN, 0, NULL, 1, &res, 0);

  char *s = print_module(m, false);
  const char *want =
      "module {\n"
      "  tt.func private @k(%arg0: tensor<16xf32>) -> f32 attributes {noinline = false} {\n"
      "    %c0_i32 = arith.constant 0 : i32\n"
      "    %c10_i32 = arith.constant 10 : i32\n"
      "    %c1_i32 = arith.constant 1 : i32\n"
      "    %cst = arith.constant 0.000000e+00 : f32\n"
      "    %acc = scf.for %arg1 = %c0_i32 to %c10_i32 step %c1_i32 iter_args(%acc_0 = %cst) -> "
      "(f32)  : i32 {\n"
      "      %0 = \"tt.reduce\"(%arg0) <{axis = 0 : i32}> ({\n"
      "      ^bb0(%arg3: f32, %arg4: f32):\n"
      "        %2 = arith.maxnumf %arg3, %arg4 : f32\n"
      "        tt.reduce.return %2 : f32\n"
      "      }) : (tensor<16xf32>) -> f32\n"
      "      %1 = arith.addf %acc_0, %0 : f32\n"
      "      scf.yield %1 : f32\n"
      "    }\n"
      "    tt.return %acc : f32\n"
      "  }\n"
      "}\n";
  assert_string_equal(s, want);
  free(s);
  s = print_module(m, true);
  assert_non_null(strstr(s, "%c0_i32 = arith.constant 0 : i32 loc(\"k.py\":3:5)\n"));
  assert_non_null(strstr(s, "tt.return %acc : f32 loc(unknown)\n"));
  assert_non_null(strstr(s, "  } loc(unknown)\n} loc(unknown)\n"));
  free(s);
  check_print_pair(m);

  /* ir_print_op names values as the module print does. */
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_print_op(sum->def, NULL, &sb);
  assert_string_equal(sb.data, "%1 = arith.addf %acc_0, %0 : f32");
  ir_sb_free(&sb);
  ir_module_destroy(m);
  ir_context_destroy(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_arena_alignment_and_zero),
      cmocka_unit_test(test_strbuf),
      cmocka_unit_test(test_intern),
      cmocka_unit_test(test_types_uniqued),
      cmocka_unit_test(test_attrs),
      cmocka_unit_test(test_op_info),
      cmocka_unit_test(test_ops_link_walk_replace),
      cmocka_unit_test(test_print_vector_add),
      cmocka_unit_test(test_compact),
      cmocka_unit_test(test_compact_regions),
      cmocka_unit_test(test_print_layouts_and_module_attrs),
      cmocka_unit_test(test_print_regions_and_locs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
