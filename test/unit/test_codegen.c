// SPDX-License-Identifier: MIT
/* test_codegen.c - ttgir built by hand with the IR builder, lowered to LLVM
 * IR and PTX: vector add reaches Triton's 128-bit predicated accesses, output
 * is deterministic, ptxas accepts it for sm_80 and sm_90a, reductions, scans,
 * loops, 2-D layouts, printf, libdevice and transposes compile, and
 * unsupported ops get located diagnostics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ttc_test.h"

#include "codegen-llvm/cg.h"
#include "ir-ttgpu/ttg.h"

#ifndef TTC_CUDA_HOME
#define TTC_CUDA_HOME "/usr/local/cuda"
#endif

typedef struct kb {
  ir_context *ctx;
  ir_module *m;
  ir_builder b;
  ir_op *func;
  ir_block *entry;
  const ir_type *i32, *f32, *pf32;
} kb;

static int setup(void **state) {
  kb *k = calloc(1, sizeof *k);
  k->ctx = ir_context_create();
  ir_loc loc = {0};
  k->m = ir_module_create(k->ctx, loc);
  k->i32 = ir_type_i32(k->ctx);
  k->f32 = ir_type_f32(k->ctx);
  k->pf32 = ir_type_ptr(k->ctx, k->f32, 1);
  ir_op_set_attr(k->m, k->m->op, "ttg.num-ctas", ir_attr_int(k->ctx, k->i32, 1));
  ir_op_set_attr(k->m, k->m->op, "ttg.num-warps", ir_attr_int(k->ctx, k->i32, 4));
  ir_op_set_attr(k->m, k->m->op, "ttg.target", ir_attr_string(k->ctx, "cuda:90"));
  ir_op_set_attr(k->m, k->m->op, "ttg.threads-per-warp", ir_attr_int(k->ctx, k->i32, 32));
  ir_builder_init(&k->b, k->m);
  *state = k;
  return 0;
}

static int teardown(void **state) {
  kb *k = *state;
  ir_module_destroy(k->m);
  ir_context_destroy(k->ctx);
  free(k);
  return 0;
}

static void begin_func(kb *k, const char *name, int nargs, const ir_type *const *tys) {
  ir_builder_set_end(&k->b, ir_module_body(k->m));
  k->func = ir_build_func(&k->b, name, nargs, tys);
  k->entry = ir_region_entry(&k->func->regions[0]);
  for (int i = 0; i < nargs; i++)
    k->entry->args[i]->divisibility = 16;
  ir_builder_set_end(&k->b, k->entry);
}

static const ir_attr *blocked1(kb *k, unsigned spt, unsigned tpw, unsigned wpc) {
  unsigned order = 0;
  return ir_attr_blocked(k->ctx, 1, &spt, &tpw, &wpc, &order);
}

static const ir_type *tensor1(kb *k, int64_t n, const ir_type *elem, const ir_attr *layout) {
  return ir_type_tensor(k->ctx, 1, &n, elem, layout);
}

static ir_value *make_range(kb *k, const ir_type *ty) {
  ir_value *r = ir_build1(&k->b, IR_OP_TT_MAKE_RANGE, ty, 0, NULL);
  ir_op_set_attr(k->m, r->def, "start", ir_attr_int(k->ctx, k->i32, 0));
  ir_op_set_attr(k->m, r->def, "end", ir_attr_int(k->ctx, k->i32, ty->shape[0]));
  return r;
}

static ir_value *addptr(kb *k, ir_value *base, ir_value *offs, const ir_type *pty) {
  ir_value *ops[2] = {ir_build_splat(&k->b, base, pty), offs};
  return ir_build1(&k->b, IR_OP_TT_ADDPTR, pty, 2, ops);
}

static ir_value *load(kb *k, ir_value *ptr, ir_value *mask, ir_value *other, const ir_type *ty) {
  ir_value *ops[3] = {ptr, mask, other};
  return ir_build1(&k->b, IR_OP_TT_LOAD, ty, other ? 3 : mask ? 2 : 1, ops);
}

static void store(kb *k, ir_value *ptr, ir_value *val, ir_value *mask) {
  ir_value *ops[3] = {ptr, val, mask};
  ir_build(&k->b, IR_OP_TT_STORE, 0, NULL, mask ? 3 : 2, ops, 0);
}

static void ret(kb *k) { ir_build(&k->b, IR_OP_TT_RETURN, 0, NULL, 0, NULL, 0); }

/* Triton's add_kernel: z = x + y over BLOCK 1024, layout [4] x [32] x [4]. */
static void build_vector_add(kb *k) {
  const ir_type *args[4] = {k->pf32, k->pf32, k->pf32, k->i32};
  begin_func(k, "add_kernel", 4, args);
  const ir_attr *bl = blocked1(k, 4, 32, 4);
  const ir_type *ti = tensor1(k, 1024, k->i32, bl), *tf = tensor1(k, 1024, k->f32, bl);
  const ir_type *tp = tensor1(k, 1024, k->pf32, bl);
  ir_value *c1024 = ir_build_const_int(&k->b, k->i32, 1024);
  ir_value *pid = ir_build_program_id(&k->b, 0);
  ir_value *off = ir_build_binary(&k->b, IR_OP_ARITH_MULI, pid, c1024);
  ir_value *range = make_range(k, ti);
  ir_value *offs = ir_build_binary(&k->b, IR_OP_ARITH_ADDI, ir_build_splat(&k->b, off, ti), range);
  ir_value *mask =
      ir_build_cmpi(&k->b, IR_CMPI_SLT, offs, ir_build_splat(&k->b, k->entry->args[3], ti));
  ir_value *x = load(k, addptr(k, k->entry->args[0], offs, tp), mask, NULL, tf);
  ir_value *y = load(k, addptr(k, k->entry->args[1], offs, tp), mask, NULL, tf);
  ir_value *zp = addptr(k, k->entry->args[2], offs, tp);
  store(k, zp, ir_build_binary(&k->b, IR_OP_ARITH_ADDF, x, y), mask);
  ret(k);
}

static int count(const char *hay, const char *needle) {
  int n = 0;
  for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
    n++;
  return n;
}

static bool has_ptxas(void) { return access(TTC_CUDA_HOME "/bin/ptxas", X_OK) == 0; }

static const char *first_diag(kb *k) {
  return ir_context_num_diags(k->ctx) ? ir_context_diag(k->ctx, 0)->msg : "";
}

/* Shared memory and barriers, as the driver does before codegen. */
static bool prepare(kb *k) {
  ir_pipeline pl;
  bool ok = ir_pipeline_parse(k->ctx, TTG_CODEGEN_PREP_PIPELINE, ttg_pass_lookup, &pl) &&
            ir_run_pipeline(k->m, &pl, NULL);
  ir_pipeline_free(&pl);
  return ok;
}

static void emit_ok(kb *k, const char *arch, char **llir, char **ptx) {
  if (!prepare(k)) fail_msg("preparing for codegen failed: %s", first_diag(k));
  cg_options o = {.arch = arch, .num_warps = 4, .opt_level = 3};
  bool ok = cg_emit_ptx(k->m, &o, llir, ptx);
  if (!ok) fail_msg("cg_emit_ptx failed: %s", first_diag(k));
  assert_non_null(*llir);
  assert_non_null(*ptx);
}

/* With $CG_SAVE_DIR set, also writes DIR/<kernel>.cubin for sm_90a, for
 * running the kernels on a GPU machine by hand. */
static void save_cubin(kb *k, const char *ptx) {
  const char *dir = getenv("CG_SAVE_DIR");
  void *cubin = NULL;
  size_t size = 0;
  if (!dir || !cg_run_ptxas(k->ctx, ptx, "sm_90a", NULL, &cubin, &size)) return;
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.cubin", dir, ir_op_get_attr(k->func, "sym_name")->s);
  FILE *f = fopen(path, "wb");
  if (f) {
    fwrite(cubin, 1, size, f);
    fclose(f);
  }
  free(cubin);
}

static void assert_ptxas_ok(kb *k, const char *ptx, const char *arch) {
  void *cubin = NULL;
  size_t size = 0;
  if (!cg_run_ptxas(k->ctx, ptx, arch, NULL, &cubin, &size))
    fail_msg("ptxas %s failed: %s", arch, first_diag(k));
  assert_true(size > 64);
  assert_memory_equal(cubin,
                      "\x7f"
                      "ELF",
                      4);
  free(cubin);
  save_cubin(k, ptx);
}

static void test_vector_add_ptx(void **state) {
  kb *k = *state;
  char *llir, *ptx;
  build_vector_add(k);
  emit_ok(k, "sm_90a", &llir, &ptx);
  if (getenv("CG_DUMP")) printf("%s\n%s\n", llir, ptx);
  assert_non_null(strstr(llir, "define ptx_kernel void @add_kernel(ptr addrspace(1)"));
  assert_non_null(strstr(llir, "\"nvvm.reqntid\"=\"128\""));
  assert_non_null(strstr(ptx, ".visible .entry add_kernel("));
  assert_non_null(strstr(ptx, ".target sm_90a"));
  assert_non_null(strstr(ptx, ".reqntid 128"));
  assert_int_equal(count(ptx, "ld.global.v4.b32"), 4);
  assert_int_equal(count(ptx, "st.global.v4.b32"), 2);
  assert_int_equal(count(ptx, "add.f32"), 8);
  assert_int_equal(count(ptx, "add_kernel_param_"), 4 + 4); /* 4 params, each read once */
  free(llir);
  free(ptx);
}

static void test_deterministic(void **state) {
  kb *k = *state;
  char *l1, *p1, *l2, *p2;
  build_vector_add(k);
  emit_ok(k, "sm_90a", &l1, &p1);
  emit_ok(k, "sm_90a", &l2, &p2);
  assert_string_equal(l1, l2);
  assert_string_equal(p1, p2);
  free(l1);
  free(p1);
  free(l2);
  free(p2);
}

static void test_ptxas_vector_add(void **state) {
  kb *k = *state;
  if (!has_ptxas()) skip();
  build_vector_add(k);
  static const char *const archs[] = {"sm_80", "sm_90a"};
  for (int i = 0; i < 2; i++) {
    char *llir, *ptx;
    emit_ok(k, archs[i], &llir, &ptx);
    assert_ptxas_ok(k, ptx, archs[i]);
    free(llir);
    free(ptx);
  }
}

static void test_ptxas_errors(void **state) {
  kb *k = *state;
  void *cubin = (void *)1;
  size_t size = 7;
  assert_false(cg_run_ptxas(k->ctx, "x", "sm_90a", "/nonexistent/ptxas", &cubin, &size));
  assert_null(cubin);
  assert_int_equal(size, 0);
  assert_non_null(strstr(first_diag(k), "ptxas not found"));
  if (!has_ptxas()) return;
  assert_false(cg_run_ptxas(k->ctx, ".version 8.7\n.target sm_90a\nbogus;\n", "sm_90a", NULL,
                            &cubin, &size));
  assert_int_equal(ir_context_num_diags(k->ctx), 2);
  const char *msg = ir_context_diag(k->ctx, 1)->msg;
  assert_non_null(strstr(msg, "ptxas failed: "));
  assert_non_null(strstr(msg, "bogus"));
}

/* Writes an executable file at dir/name with the given content. */
static void write_exe(char *path, size_t cap, const char *dir, const char *name, const char *text) {
  snprintf(path, cap, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  assert_int_equal(chmod(path, 0755), 0);
}

/* ptxas that cannot start, exits nonzero silently, or writes no cubin: each
 * is a located diagnostic, and the private temporary directory is removed
 * on every path (TMPDIR is left empty). */
static void test_ptxas_spawn_failures(void **state) {
  kb *k = *state;
  char tools[] = "/tmp/ttc-test-tools-XXXXXX", tmp[] = "/tmp/ttc-test-tmp-XXXXXX";
  assert_non_null(mkdtemp(tools));
  assert_non_null(mkdtemp(tmp));
  const char *old_tmp = getenv("TMPDIR");
  char *saved = old_tmp ? strdup(old_tmp) : NULL;
  setenv("TMPDIR", tmp, 1);
  char bad[512], silent[512], noout[512];
  write_exe(bad, sizeof bad, tools, "bad", "\x01\x02 not a program");
  write_exe(silent, sizeof silent, tools, "silent", "#!/bin/sh\nexit 3\n");
  write_exe(noout, sizeof noout, tools, "noout", "#!/bin/sh\nexit 0\n");
  const char *exes[3] = {bad, silent, noout};
  const char *want[3] = {"cannot run '", "ptxas failed with exit status 3 and no message",
                         "ptxas failed: no output written to '"};
  for (int i = 0; i < 3; i++) {
    void *cubin = (void *)1;
    size_t size = 7;
    assert_false(cg_run_ptxas(k->ctx, ".version 8.7\n", "sm_90", exes[i], &cubin, &size));
    assert_null(cubin);
    assert_int_equal(size, 0);
    const char *msg = ir_context_diag(k->ctx, ir_context_num_diags(k->ctx) - 1)->msg;
    if (!strstr(msg, want[i])) fail_msg("%s: got '%s'", exes[i], msg);
  }
  assert_non_null(strstr(ir_context_diag(k->ctx, 0)->msg, "Exec format error"));
  assert_int_equal(rmdir(tmp), 0); /* fails (ENOTEMPTY) if a temp dir was left */
  if (saved)
    setenv("TMPDIR", saved, 1);
  else
    unsetenv("TMPDIR");
  free(saved);
  unlink(bad);
  unlink(silent);
  unlink(noout);
  rmdir(tools);
}

/* Adds a tt.scan (axis 0) of x with a one-op combiner. */
static ir_value *scan(kb *k, ir_value *x, ir_op_kind combiner, bool reverse) {
  const ir_type *t = x->type;
  ir_op *op = ir_build(&k->b, IR_OP_TT_SCAN, 1, &t, 1, &x, 1);
  ir_op_set_attr(k->m, op, "axis", ir_attr_int(k->ctx, k->i32, 0));
  ir_op_set_attr(k->m, op, "reverse", ir_attr_bool(k->ctx, reverse));
  const ir_type *et = ir_type_scalar(t), *ets[2] = {et, et};
  ir_block *blk = ir_block_create(k->m, 2, ets);
  ir_region_append_block(&op->regions[0], blk);
  ir_builder_set_end(&k->b, blk);
  ir_value *r = ir_build_binary(&k->b, combiner, blk->args[0], blk->args[1]);
  ir_build(&k->b, IR_OP_TT_SCAN_RETURN, 0, NULL, 1, &r, 0);
  ir_builder_set_end(&k->b, k->entry);
  return &op->results[0];
}

static void test_unsupported_op(void **state) {
  kb *k = *state;
  static const char src[] = "import triton\n\ndef k():\n    tl.cumsum(x)\n";
  const ir_source *s = ir_context_add_source(k->ctx, "k.py", src, sizeof src - 1);
  const ir_type *args[1] = {k->pf32};
  begin_func(k, "k", 1, args);
  ir_loc loc = {s, 4, 5};
  k->b.loc = loc;
  /* 2^17 f32 need 512 KiB: more shared memory than a block has. */
  const ir_attr *bl = blocked1(k, 4, 32, 4);
  const ir_type *tf = tensor1(k, 131072, k->f32, bl);
  scan(k, ir_build_const_float(&k->b, tf, 1.0), IR_OP_ARITH_ADDF, false);
  ret(k);
  assert_false(prepare(k));
  assert_int_equal(ir_context_num_errors(k->ctx), 1);
  const ir_diag *d = ir_context_diag(k->ctx, 0);
  assert_string_equal(d->msg, "the kernel needs 524288 bytes of shared memory, more than the "
                              "232448 bytes a block can have on compute capability 9.0 "
                              "(smaller tiles or fewer stages need less)");
  assert_int_equal(d->loc.line, 4);
  assert_int_equal(d->loc.col, 5);
  char *llir = (char *)1, *ptx = (char *)1;
  cg_options o = {.arch = "sm_90a", .num_warps = 4, .opt_level = 3};
  /* A bad architecture is a diagnostic too, not an LLVM warning on stderr. */
  o.arch = "gfx90a";
  assert_false(cg_emit_ptx(k->m, &o, &llir, &ptx));
  assert_non_null(strstr(ir_context_diag(k->ctx, 1)->msg, "'gfx90a'"));
}

/* An inclusive scan over 256 elements (2 per thread, 4 warps): log2(256) = 8
 * rounds through shared memory, each with a barrier after the writes and
 * one before the next writes; a reverse scan compares pos + d < n. */
static void test_scan(void **state) {
  kb *k = *state;
  const ir_type *args[1] = {k->pf32};
  begin_func(k, "scan_kernel", 1, args);
  const ir_attr *bl = blocked1(k, 2, 32, 4);
  const ir_type *ti = tensor1(k, 256, k->i32, bl), *tf = tensor1(k, 256, k->f32, bl);
  const ir_type *tp = tensor1(k, 256, k->pf32, bl);
  ir_value *offs = make_range(k, ti);
  ir_value *x = load(k, addptr(k, k->entry->args[0], offs, tp), NULL, NULL, tf);
  ir_value *y = scan(k, x, IR_OP_ARITH_ADDF, false);
  ir_value *z = scan(k, y, IR_OP_ARITH_MAXNUMF, true);
  store(k, addptr(k, k->entry->args[0], offs, tp), z, NULL);
  ret(k);
  char *llir, *ptx;
  emit_ok(k, "sm_80", &llir, &ptx);
  if (getenv("CG_DUMP")) printf("%s\n%s\n", llir, ptx);
  /* 2 scans x 8 rounds: one barrier after each round's writes, one before
   * every write but the first. */
  assert_int_equal(count(ptx, "bar.sync") + count(ptx, "barrier.sync"), 31);
  assert_true(count(ptx, "st.shared") >= 16); /* 2 registers, stored as one v2 */
  assert_true(count(ptx, "add.f32") >= 16);
  assert_true(count(ptx, "max.f32") >= 16);
  if (has_ptxas()) assert_ptxas_ok(k, ptx, "sm_80");
  free(llir);
  free(ptx);
}

/* tt.print becomes one vprintf per element; math.erf and f64 sin link
 * libdevice (no __nv_ symbol left after internalize + O3); tt.trans goes
 * through shared memory. An unreadable libdevice is a diagnostic. */
static void test_print_libdevice_trans(void **state) {
  kb *k = *state;
  const ir_type *f64 = ir_type_f64(k->ctx), *pf64 = ir_type_ptr(k->ctx, f64, 1);
  const ir_type *args[2] = {k->pf32, pf64};
  begin_func(k, "misc", 2, args);
  const ir_attr *bl = blocked1(k, 1, 32, 4);
  const ir_type *ti = tensor1(k, 128, k->i32, bl), *tf = tensor1(k, 128, k->f32, bl);
  ir_value *offs = make_range(k, ti);
  ir_value *x =
      load(k, addptr(k, k->entry->args[0], offs, tensor1(k, 128, k->pf32, bl)), NULL, NULL, tf);
  ir_op *pr = ir_build(&k->b, IR_OP_TT_PRINT, 0, NULL, 1, &x, 0);
  ir_op_set_attr(k->m, pr, "prefix", ir_attr_string(k->ctx, " x%"));
  ir_value *e = ir_build_unary(&k->b, IR_OP_MATH_ERF, tf, x);
  store(k, addptr(k, k->entry->args[0], offs, tensor1(k, 128, k->pf32, bl)), e, NULL);
  ir_value *d = load(k, k->entry->args[1], NULL, NULL, f64);
  store(k, k->entry->args[1], ir_build_unary(&k->b, IR_OP_MATH_SIN, f64, d), NULL);
  unsigned spt[2] = {1, 1}, tpw[2] = {4, 8}, wpc[2] = {4, 1}, order[2] = {1, 0};
  const ir_attr *b2 = ir_attr_blocked(k->ctx, 2, spt, tpw, wpc, order);
  int64_t sh[2] = {8, 16}, tsh[2] = {16, 8}, perm[2] = {1, 0};
  ir_value *m =
      ir_build1(&k->b, IR_OP_TT_RESHAPE, ir_type_tensor(k->ctx, 2, sh, k->f32, b2), 1, &x);
  ir_value *t = ir_build1(&k->b, IR_OP_TT_TRANS, ir_type_tensor(k->ctx, 2, tsh, k->f32, b2), 1, &m);
  ir_op_set_attr(k->m, t->def, "order", ir_attr_array(k->ctx, 2, perm));
  ir_value *back = ir_build1(&k->b, IR_OP_TT_RESHAPE, tf, 1, &t);
  store(k, addptr(k, k->entry->args[0], offs, tensor1(k, 128, k->pf32, bl)), back, NULL);
  ret(k);
  char *llir, *ptx;
  emit_ok(k, "sm_90a", &llir, &ptx);
  if (getenv("CG_DUMP")) printf("%s\n%s\n", llir, ptx);
  assert_int_equal(count(llir, "call i32 @vprintf"), 1); /* one register per thread */
  assert_non_null(strstr(llir, "x%%: %f"));              /* '%' in the prefix doubled */
  assert_null(strstr(llir, "@__nv_"));
  assert_true(count(ptx, "st.shared") >= 3);
  if (has_ptxas()) assert_ptxas_ok(k, ptx, "sm_90a");
  free(llir);
  free(ptx);
  cg_options o = {.arch = "sm_90a",
                  .num_warps = 4,
                  .opt_level = 3,
                  .libdevice = "/nonexistent/libdevice.10.bc"};
  assert_false(cg_emit_ptx(k->m, &o, &llir, &ptx));
  size_t n = ir_context_num_diags(k->ctx);
  assert_non_null(strstr(ir_context_diag(k->ctx, n - 1)->msg, "cannot read libdevice"));
}

/* Adds a tt.reduce of x with a one-op combiner. */
static ir_value *reduce(kb *k, ir_value *x, ir_op_kind combiner, const ir_type *rty) {
  ir_op *op = ir_build(&k->b, IR_OP_TT_REDUCE, 1, &rty, 1, &x, 1);
  ir_op_set_attr(k->m, op, "axis", ir_attr_int(k->ctx, k->i32, 0));
  const ir_type *et = ir_type_scalar(x->type), *ets[2] = {et, et};
  ir_block *blk = ir_block_create(k->m, 2, ets);
  ir_region_append_block(&op->regions[0], blk);
  ir_builder_set_end(&k->b, blk);
  ir_value *r = ir_build_binary(&k->b, combiner, blk->args[0], blk->args[1]);
  ir_build(&k->b, IR_OP_TT_REDUCE_RETURN, 0, NULL, 1, &r, 0);
  ir_builder_set_end(&k->b, k->entry);
  return &op->results[0];
}

/* Row softmax over 1024 columns: loads with other = -inf, max and sum
 * reductions across 4 warps, exp, divide, store. */
static void test_softmax(void **state) {
  kb *k = *state;
  const ir_type *args[3] = {k->pf32, k->pf32, k->i32};
  begin_func(k, "softmax_kernel", 3, args);
  const ir_attr *bl = blocked1(k, 4, 32, 4);
  const ir_type *ti = tensor1(k, 1024, k->i32, bl), *tf = tensor1(k, 1024, k->f32, bl);
  const ir_type *tp = tensor1(k, 1024, k->pf32, bl);
  ir_value *cols = make_range(k, ti);
  ir_value *mask =
      ir_build_cmpi(&k->b, IR_CMPI_SLT, cols, ir_build_splat(&k->b, k->entry->args[2], ti));
  ir_value *ninf = ir_build_const_float(&k->b, tf, -1.0 / 0.0);
  ir_value *x = load(k, addptr(k, k->entry->args[1], cols, tp), mask, ninf, tf);
  ir_value *mx = reduce(k, x, IR_OP_ARITH_MAXNUMF, k->f32);
  ir_value *sh = ir_build_binary(&k->b, IR_OP_ARITH_SUBF, x, ir_build_splat(&k->b, mx, tf));
  ir_value *num = ir_build_unary(&k->b, IR_OP_MATH_EXP, tf, sh);
  ir_value *den = reduce(k, num, IR_OP_ARITH_ADDF, k->f32);
  ir_value *y = ir_build_binary(&k->b, IR_OP_ARITH_DIVF, num, ir_build_splat(&k->b, den, tf));
  store(k, addptr(k, k->entry->args[0], cols, tp), y, mask);
  ret(k);
  char *llir, *ptx;
  emit_ok(k, "sm_90a", &llir, &ptx);
  if (getenv("CG_DUMP")) printf("%s\n%s\n", llir, ptx);
  assert_true(count(ptx, "shfl.sync.bfly.b32") >= 10); /* 5 per reduction */
  assert_true(count(ptx, "ex2.approx") >= 8);
  /* The first write needs no barrier; the second reduction and both reads do. */
  assert_int_equal(count(ptx, "bar.sync") + count(ptx, "barrier.sync"), 3);
  assert_non_null(strstr(ptx, ".shared"));
  /* other = -inf initialises the destination registers, as an immediate
   * (a register would feed every load: quadratic in LLVM's peephole pass). */
  assert_non_null(strstr(llir, "mov.u32 $0, 0xff800000;"));
  if (has_ptxas()) assert_ptxas_ok(k, ptx, "sm_90a");
  free(llir);
  free(ptx);
}

/* acc = sum over i < n of x[i*256 + offs], a loop-carried tensor. */
static void test_for_loop(void **state) {
  kb *k = *state;
  const ir_type *args[3] = {k->pf32, k->pf32, k->i32};
  begin_func(k, "loop_kernel", 3, args);
  const ir_attr *bl = blocked1(k, 2, 32, 4);
  const ir_type *ti = tensor1(k, 256, k->i32, bl), *tf = tensor1(k, 256, k->f32, bl);
  const ir_type *tp = tensor1(k, 256, k->pf32, bl);
  ir_value *offs = make_range(k, ti);
  ir_value *init = ir_build_const_float(&k->b, tf, 0.0);
  ir_value *ops[4] = {ir_build_const_int(&k->b, k->i32, 0), k->entry->args[2],
                      ir_build_const_int(&k->b, k->i32, 1), init};
  ir_op *loop = ir_build(&k->b, IR_OP_SCF_FOR, 1, &tf, 4, ops, 1);
  const ir_type *bt[2] = {k->i32, tf};
  ir_block *body = ir_block_create(k->m, 2, bt);
  ir_region_append_block(&loop->regions[0], body);
  ir_builder_set_end(&k->b, body);
  ir_value *base = ir_build_binary(&k->b, IR_OP_ARITH_MULI, body->args[0],
                                   ir_build_const_int(&k->b, k->i32, 256));
  ir_value *o = ir_build_binary(&k->b, IR_OP_ARITH_ADDI, ir_build_splat(&k->b, base, ti), offs);
  ir_value *v = load(k, addptr(k, k->entry->args[1], o, tp), NULL, NULL, tf);
  ir_value *acc = ir_build_binary(&k->b, IR_OP_ARITH_ADDF, body->args[1], v);
  ir_build(&k->b, IR_OP_SCF_YIELD, 0, NULL, 1, &acc, 0);
  ir_builder_set_end(&k->b, k->entry);
  store(k, addptr(k, k->entry->args[0], offs, tp), &loop->results[0], NULL);
  ret(k);
  char *llir, *ptx;
  emit_ok(k, "sm_80", &llir, &ptx);
  if (getenv("CG_DUMP")) printf("%s\n%s\n", llir, ptx);
  assert_non_null(strstr(llir, "phi float"));
  assert_true(count(ptx, "add.f32") >= 2);
  if (has_ptxas()) assert_ptxas_ok(k, ptx, "sm_80");
  free(llir);
  free(ptx);
}

/* out[i, j] = in[i, j] * 2 over 32 x 64 with 2-D offsets built from sliced
 * ranges, expand_dims and broadcast. */
static void test_2d(void **state) {
  kb *k = *state;
  const ir_type *args[2] = {k->pf32, k->pf32};
  begin_func(k, "copy2d", 2, args);
  unsigned spt[2] = {1, 4}, tpw[2] = {4, 8}, wpc[2] = {4, 1}, order[2] = {1, 0};
  const ir_attr *bl = ir_attr_blocked(k->ctx, 2, spt, tpw, wpc, order);
  int64_t sh[2] = {32, 64}, rows_sh[2] = {32, 1}, cols_sh[2] = {1, 64};
  const ir_type *t2i = ir_type_tensor(k->ctx, 2, sh, k->i32, bl);
  const ir_type *t2f = ir_type_tensor(k->ctx, 2, sh, k->f32, bl);
  const ir_type *t2p = ir_type_tensor(k->ctx, 2, sh, k->pf32, bl);
  ir_value *r = make_range(k, tensor1(k, 32, k->i32, ir_attr_slice(k->ctx, 1, bl)));
  ir_value *c = make_range(k, tensor1(k, 64, k->i32, ir_attr_slice(k->ctx, 0, bl)));
  ir_value *r2 =
      ir_build1(&k->b, IR_OP_TT_EXPAND_DIMS, ir_type_tensor(k->ctx, 2, rows_sh, k->i32, bl), 1, &r);
  ir_op_set_attr(k->m, r2->def, "axis", ir_attr_int(k->ctx, k->i32, 1));
  ir_value *c2 =
      ir_build1(&k->b, IR_OP_TT_EXPAND_DIMS, ir_type_tensor(k->ctx, 2, cols_sh, k->i32, bl), 1, &c);
  ir_op_set_attr(k->m, c2->def, "axis", ir_attr_int(k->ctx, k->i32, 0));
  ir_value *rs =
      ir_build_binary(&k->b, IR_OP_ARITH_MULI, r2, ir_build_const_int(&k->b, r2->type, 64));
  ir_value *rb = ir_build1(&k->b, IR_OP_TT_BROADCAST, t2i, 1, &rs);
  ir_value *cb = ir_build1(&k->b, IR_OP_TT_BROADCAST, t2i, 1, &c2);
  ir_value *offs = ir_build_binary(&k->b, IR_OP_ARITH_ADDI, rb, cb);
  ir_value *v = load(k, addptr(k, k->entry->args[1], offs, t2p), NULL, NULL, t2f);
  ir_value *two = ir_build_const_float(&k->b, t2f, 2.0);
  store(k, addptr(k, k->entry->args[0], offs, t2p),
        ir_build_binary(&k->b, IR_OP_ARITH_MULF, v, two), NULL);
  ret(k);
  char *llir, *ptx;
  emit_ok(k, "sm_90a", &llir, &ptx);
  /* 32 x 64 over 128 threads: 16 elements each, 4 per 16-byte access. */
  assert_int_equal(count(ptx, "mul.f32") + count(ptx, "add.f32"), 16);
  if (has_ptxas()) assert_ptxas_ok(k, ptx, "sm_90a");
  free(llir);
  free(ptx);
}

/* Narrow and odd element types: f16 loads (8 halves per 16 bytes), i1
 * tensors stored as bytes, scalar i8 load/store, f64 math. */
static void test_dtypes(void **state) {
  kb *k = *state;
  const ir_type *f16 = ir_type_f16(k->ctx), *i8 = ir_type_int(k->ctx, 8);
  const ir_type *i1 = ir_type_i1(k->ctx);
  const ir_type *ph = ir_type_ptr(k->ctx, f16, 1), *pb = ir_type_ptr(k->ctx, i1, 1);
  const ir_type *pi8 = ir_type_ptr(k->ctx, i8, 1);
  const ir_type *args[5] = {ph, k->pf32, pb, pi8, k->i32};
  begin_func(k, "dtypes", 5, args);
  const ir_attr *bl = blocked1(k, 8, 32, 4);
  const ir_type *ti = tensor1(k, 1024, k->i32, bl);
  ir_value *offs = make_range(k, ti);
  ir_value *mask =
      ir_build_cmpi(&k->b, IR_CMPI_SLT, offs, ir_build_splat(&k->b, k->entry->args[4], ti));
  ir_value *h = load(k, addptr(k, k->entry->args[0], offs, tensor1(k, 1024, ph, bl)), mask, NULL,
                     tensor1(k, 1024, f16, bl));
  ir_value *e = ir_build_unary(&k->b, IR_OP_MATH_EXP, tensor1(k, 1024, f16, bl), h);
  ir_value *f = ir_build_unary(&k->b, IR_OP_ARITH_EXTF, tensor1(k, 1024, k->f32, bl), e);
  store(k, addptr(k, k->entry->args[1], offs, tensor1(k, 1024, k->pf32, bl)), f, mask);
  store(k, addptr(k, k->entry->args[2], offs, tensor1(k, 1024, pb, bl)), mask, NULL);
  ir_value *sc = load(k, k->entry->args[3], NULL, NULL, i8);
  ir_value *sc2 = ir_build_binary(&k->b, IR_OP_ARITH_ADDI, sc, ir_build_const_int(&k->b, i8, 1));
  store(k, k->entry->args[3], sc2, NULL);
  ret(k);
  char *llir, *ptx;
  emit_ok(k, "sm_90a", &llir, &ptx);
  if (getenv("CG_DUMP")) printf("%s\n%s\n", llir, ptx);
  assert_int_equal(count(ptx, "ld.global.v4.b32"), 1); /* 8 halves in 16 bytes */
  assert_non_null(strstr(ptx, "ld.global.b8"));
  assert_non_null(strstr(ptx, "st.global.b8"));
  if (has_ptxas()) assert_ptxas_ok(k, ptx, "sm_90a");
  free(llir);
  free(ptx);
}

/* Atomics: a masked tensor fadd over a layout wider than the tensor (only
 * first holders act), a scalar add whose old value is used, and a cas. */
static void test_atomics(void **state) {
  kb *k = *state;
  const ir_type *pi32 = ir_type_ptr(k->ctx, k->i32, 1);
  const ir_type *args[3] = {k->pf32, pi32, k->i32};
  begin_func(k, "atomics", 3, args);
  const ir_attr *bl = blocked1(k, 1, 32, 4); /* 128 threads over 64 elements */
  const ir_type *ti = tensor1(k, 64, k->i32, bl), *tf = tensor1(k, 64, k->f32, bl);
  ir_value *offs = make_range(k, ti);
  ir_value *mask =
      ir_build_cmpi(&k->b, IR_CMPI_SLT, offs, ir_build_splat(&k->b, k->entry->args[2], ti));
  ir_value *one = ir_build_const_float(&k->b, tf, 1.0);
  ir_value *ops[3] = {addptr(k, k->entry->args[0], offs, tensor1(k, 64, k->pf32, bl)), one, mask};
  ir_value *old = ir_build1(&k->b, IR_OP_TT_ATOMIC_RMW, tf, 3, ops);
  ir_op_set_attr(k->m, old->def, "atomic_rmw_op", ir_attr_enum(k->ctx, "fadd", 4));
  ir_value *c1 = ir_build_const_int(&k->b, k->i32, 1);
  ir_value *sops[2] = {k->entry->args[1], c1};
  ir_value *ticket = ir_build1(&k->b, IR_OP_TT_ATOMIC_RMW, k->i32, 2, sops);
  ir_op_set_attr(k->m, ticket->def, "atomic_rmw_op", ir_attr_enum(k->ctx, "add", 3));
  ir_value *cops[3] = {k->entry->args[1], ticket, c1};
  ir_value *prev = ir_build1(&k->b, IR_OP_TT_ATOMIC_CAS, k->i32, 3, cops);
  store(k, k->entry->args[1], prev, NULL);
  ret(k);
  char *llir, *ptx;
  emit_ok(k, "sm_80", &llir, &ptx);
  if (getenv("CG_DUMP")) printf("%s\n%s\n", llir, ptx);
  assert_int_equal(count(ptx, "atom.acq_rel.gpu.global.add.f32"), 1);
  assert_int_equal(count(ptx, "atom.acq_rel.gpu.global.add.u32"), 1);
  assert_int_equal(count(ptx, "atom.acq_rel.gpu.global.cas.b32"), 1);
  assert_true(count(ptx, "bar.sync") >= 1); /* the scalar results are broadcast */
  if (has_ptxas()) assert_ptxas_ok(k, ptx, "sm_80");
  free(llir);
  free(ptx);
}

/* Row-major offsets r * shape[1] + c of a 2-D tensor in layout bl, built
 * from sliced ranges, expand_dims and broadcast. */
static ir_value *offsets2d(kb *k, const ir_attr *bl, const int64_t *sh) {
  int64_t rows_sh[2] = {sh[0], 1}, cols_sh[2] = {1, sh[1]};
  ir_value *r = make_range(k, tensor1(k, sh[0], k->i32, ir_attr_slice(k->ctx, 1, bl)));
  ir_value *c = make_range(k, tensor1(k, sh[1], k->i32, ir_attr_slice(k->ctx, 0, bl)));
  ir_value *r2 =
      ir_build1(&k->b, IR_OP_TT_EXPAND_DIMS, ir_type_tensor(k->ctx, 2, rows_sh, k->i32, bl), 1, &r);
  ir_op_set_attr(k->m, r2->def, "axis", ir_attr_int(k->ctx, k->i32, 1));
  ir_value *c2 =
      ir_build1(&k->b, IR_OP_TT_EXPAND_DIMS, ir_type_tensor(k->ctx, 2, cols_sh, k->i32, bl), 1, &c);
  ir_op_set_attr(k->m, c2->def, "axis", ir_attr_int(k->ctx, k->i32, 0));
  ir_value *rs =
      ir_build_binary(&k->b, IR_OP_ARITH_MULI, r2, ir_build_const_int(&k->b, r2->type, sh[1]));
  const ir_type *t2i = ir_type_tensor(k->ctx, 2, sh, k->i32, bl);
  ir_value *rb = ir_build1(&k->b, IR_OP_TT_BROADCAST, t2i, 1, &rs);
  ir_value *cb = ir_build1(&k->b, IR_OP_TT_BROADCAST, t2i, 1, &c2);
  return ir_build_binary(&k->b, IR_OP_ARITH_ADDI, rb, cb);
}

/* c = a @ b for 32x16 f16 times 16x32 f16 into f32, blocked layouts. */
static void test_dot_fma(void **state) {
  kb *k = *state;
  const ir_type *f16 = ir_type_f16(k->ctx), *ph = ir_type_ptr(k->ctx, f16, 1);
  const ir_type *args[3] = {ph, ph, k->pf32};
  begin_func(k, "dot_kernel", 3, args);
  unsigned spt[2] = {1, 4}, tpw[2] = {4, 8}, wpc[2] = {4, 1}, order[2] = {1, 0};
  const ir_attr *bl = ir_attr_blocked(k->ctx, 2, spt, tpw, wpc, order);
  int64_t sh[3][2] = {{32, 16}, {16, 32}, {32, 32}};
  const ir_type *elem[3] = {f16, f16, k->f32}, *ptrs[3] = {ph, ph, k->pf32};
  ir_value *vals[2], *offs[3];
  for (int t = 0; t < 3; t++) {
    offs[t] = offsets2d(k, bl, sh[t]);
    if (t == 2) break;
    ir_value *p =
        addptr(k, k->entry->args[t], offs[t], ir_type_tensor(k->ctx, 2, sh[t], ptrs[t], bl));
    vals[t] = load(k, p, NULL, NULL, ir_type_tensor(k->ctx, 2, sh[t], elem[t], bl));
  }
  const ir_type *tc = ir_type_tensor(k->ctx, 2, sh[2], k->f32, bl);
  ir_value *ops[3] = {vals[0], vals[1], ir_build_const_float(&k->b, tc, 0.0)};
  ir_value *c = ir_build1(&k->b, IR_OP_TT_DOT, tc, 3, ops);
  store(k, addptr(k, k->entry->args[2], offs[2], ir_type_tensor(k->ctx, 2, sh[2], k->pf32, bl)), c,
        NULL);
  ret(k);
  char *llir, *ptx;
  emit_ok(k, "sm_90a", &llir, &ptx);
  /* 8 accumulator registers per thread, 16 fmas each (the first may fold). */
  assert_true(count(ptx, "fma.rn.f32") + count(ptx, "mul.rn.f32") >= 8 * 16);
  if (has_ptxas()) assert_ptxas_ok(k, ptx, "sm_90a");
  free(llir);
  free(ptx);
}

/* Row sums of a 32 x 64 tile (reduce along dim 1 into a slice layout), then
 * x - rowsum broadcast back, and column sums (reduce along dim 0). */
static void test_reduce_2d(void **state) {
  kb *k = *state;
  const ir_type *args[3] = {k->pf32, k->pf32, k->pf32};
  begin_func(k, "reduce2d", 3, args);
  unsigned spt[2] = {1, 4}, tpw[2] = {4, 8}, wpc[2] = {2, 2}, order[2] = {1, 0};
  const ir_attr *bl = ir_attr_blocked(k->ctx, 2, spt, tpw, wpc, order);
  int64_t sh[2] = {32, 64}, rows_sh[2] = {32, 1};
  const ir_type *t2f = ir_type_tensor(k->ctx, 2, sh, k->f32, bl);
  const ir_type *t2p = ir_type_tensor(k->ctx, 2, sh, k->pf32, bl);
  ir_value *offs = offsets2d(k, bl, sh);
  ir_value *x = load(k, addptr(k, k->entry->args[0], offs, t2p), NULL, NULL, t2f);
  const ir_attr *s1 = ir_attr_slice(k->ctx, 1, bl), *s0 = ir_attr_slice(k->ctx, 0, bl);
  ir_value *rsum = reduce(k, x, IR_OP_ARITH_ADDF, tensor1(k, 32, k->f32, s1));
  ir_op_set_attr(k->m, rsum->def, "axis", ir_attr_int(k->ctx, k->i32, 1));
  ir_value *r2 = ir_build1(&k->b, IR_OP_TT_EXPAND_DIMS,
                           ir_type_tensor(k->ctx, 2, rows_sh, k->f32, bl), 1, &rsum);
  ir_op_set_attr(k->m, r2->def, "axis", ir_attr_int(k->ctx, k->i32, 1));
  ir_value *rb = ir_build1(&k->b, IR_OP_TT_BROADCAST, t2f, 1, &r2);
  ir_value *y = ir_build_binary(&k->b, IR_OP_ARITH_SUBF, x, rb);
  store(k, addptr(k, k->entry->args[1], offs, t2p), y, NULL);
  ir_value *csum = reduce(k, x, IR_OP_ARITH_ADDF, tensor1(k, 64, k->f32, s0));
  ir_value *cols = make_range(k, tensor1(k, 64, k->i32, s0));
  store(k, addptr(k, k->entry->args[2], cols, tensor1(k, 64, k->pf32, s0)), csum, NULL);
  ret(k);
  char *llir, *ptx;
  emit_ok(k, "sm_90a", &llir, &ptx);
  if (getenv("CG_DUMP")) printf("%s\n%s\n", llir, ptx);
  /* Rows: 4 per thread, 8 lanes wide (3 shuffles each); columns: 4 per
   * thread, 4 lanes high (2 shuffles each); both then cross 2 warps. */
  assert_int_equal(count(ptx, "shfl.sync.bfly.b32"), 4 * 3 + 4 * 2);
  if (has_ptxas()) assert_ptxas_ok(k, ptx, "sm_90a");
  free(llir);
  free(ptx);
}

/* ttg.convert_layout between two blocked layouts (through shared memory),
 * and scf.if choosing between two tensors on a scalar condition. */
static void test_convert_and_if(void **state) {
  kb *k = *state;
  const ir_type *args[3] = {k->pf32, k->pf32, k->i32};
  begin_func(k, "convert_if", 3, args);
  const ir_attr *b4 = blocked1(k, 4, 32, 4), *b1 = blocked1(k, 1, 32, 4);
  const ir_type *ti4 = tensor1(k, 1024, k->i32, b4), *tf4 = tensor1(k, 1024, k->f32, b4);
  const ir_type *tf1 = tensor1(k, 1024, k->f32, b1), *ti1 = tensor1(k, 1024, k->i32, b1);
  ir_value *offs4 = make_range(k, ti4), *offs1 = make_range(k, ti1);
  ir_value *x =
      load(k, addptr(k, k->entry->args[1], offs4, tensor1(k, 1024, k->pf32, b4)), NULL, NULL, tf4);
  ir_value *xc = ir_build1(&k->b, IR_OP_TTG_CONVERT_LAYOUT, tf1, 1, &x);
  ir_value *cond =
      ir_build_cmpi(&k->b, IR_CMPI_SGT, k->entry->args[2], ir_build_const_int(&k->b, k->i32, 0));
  ir_op *iff = ir_build(&k->b, IR_OP_SCF_IF, 1, &tf1, 1, &cond, 2);
  for (int r = 0; r < 2; r++) {
    ir_block *blk = ir_block_create(k->m, 0, NULL);
    ir_region_append_block(&iff->regions[r], blk);
    ir_builder_set_end(&k->b, blk);
    ir_value *v = r == 0 ? ir_build_binary(&k->b, IR_OP_ARITH_MULF, xc, xc)
                         : ir_build_unary(&k->b, IR_OP_ARITH_NEGF, tf1, xc);
    ir_build(&k->b, IR_OP_SCF_YIELD, 0, NULL, 1, &v, 0);
  }
  ir_builder_set_end(&k->b, k->entry);
  store(k, addptr(k, k->entry->args[0], offs1, tensor1(k, 1024, k->pf32, b1)), &iff->results[0],
        NULL);
  ret(k);
  char *llir, *ptx;
  emit_ok(k, "sm_90a", &llir, &ptx);
  if (getenv("CG_DUMP")) printf("%s\n%s\n", llir, ptx);
  assert_int_equal(count(ptx, "ld.global.v4.b32"), 2);
  assert_int_equal(count(ptx, "st.global.b32"), 8); /* one element per access in [1] x 32 x 4 */
  assert_int_equal(count(ptx, "bar.sync"), 1);
  assert_non_null(strstr(llir, "phi float"));
  if (has_ptxas()) assert_ptxas_ok(k, ptx, "sm_90a");
  free(llir);
  free(ptx);
}

static void test_metadata(void **state) {
  (void)state;
  cg_param_info params[2] = {{"x_ptr", "*fp32:16"}, {"n", "i32"}};
  cg_constexpr_info cx[1] = {{"BLOCK", "1024"}};
  cg_metadata md = {"add_kernel", 4, 3,  0,       "cuda:90", "sm_90a", 2,
                    params,       1, cx, "0.1.0", "",        NULL,     NULL};
  char *json = cg_metadata_json(&md);
  assert_string_equal(
      json, "{\"name\": \"add_kernel\", \"num_warps\": 4, \"num_stages\": 3, \"shared\": 0, "
            "\"num_regs\": null, \"spills_store_bytes\": null, \"spills_load_bytes\": null, "
            "\"shared_static\": null, \"local\": null, "
            "\"target\": {\"backend\": \"cuda\", \"arch\": 90, \"name\": \"sm_90a\"}, "
            "\"params\": [{\"name\": \"x_ptr\", \"type\": \"*fp32\", \"divisibility\": 16}, "
            "{\"name\": \"n\", \"type\": \"i32\"}], \"constexprs\": {\"BLOCK\": \"1024\"}, "
            "\"version\": \"0.1.0\", \"hash\": \"cbf29ce484222325\", \"times_ms\": {}}");
  free(json);
  /* with ptxas's report and the levels reached */
  cg_ptxas_info pi = {40, 8, 12, 0, 24};
  double ms[5] = {1.5, 2.25, -1, -1, -1};
  md.ptxas = &pi;
  md.times_ms = ms;
  json = cg_metadata_json(&md);
  assert_non_null(strstr(json, "\"shared\": 0, \"num_regs\": 40, \"spills_store_bytes\": 8, "
                               "\"spills_load_bytes\": 12, \"shared_static\": 0, \"local\": 24, "));
  assert_non_null(strstr(json, "\"times_ms\": {\"ttir\": 1.500, \"ttgir\": 2.250}}"));
  free(json);
  assert_int_equal(cg_fnv1a64("a", 1), 0xaf63dc4c8601ec8cull);
}

/* ptxas -v reports as CUDA 12 and 13 print them. */
static void test_parse_ptxas_info(void **state) {
  (void)state;
  cg_ptxas_info pi;
  const char *spilling =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'attention_kernel' for 'sm_90a'\n"
      "ptxas info    : Function properties for attention_kernel\n"
      "    104 bytes stack frame, 96 bytes spill stores, 88 bytes spill loads\n"
      "ptxas info    : Used 255 registers, used 1 barriers, 1024 bytes smem, 104 bytes cumulative "
      "stack size\n"
      "ptxas info    : Compile time = 212.641 ms\n";
  assert_true(cg_parse_ptxas_info(spilling, &pi));
  assert_int_equal(pi.num_regs, 255);
  assert_int_equal(pi.spill_store_bytes, 96);
  assert_int_equal(pi.spill_load_bytes, 88);
  assert_int_equal(pi.shared_static, 1024);
  assert_int_equal(pi.local, 104);
  const char *old = "ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
                    "ptxas info    : Used 16 registers, 8 bytes lmem, 380 bytes cmem[0]\n"
                    "ptxas info    : Compiling entry function 'other' for 'sm_80'\n"
                    "ptxas info    : Used 99 registers, 380 bytes cmem[0]\n";
  assert_true(cg_parse_ptxas_info(old, &pi));
  assert_int_equal(pi.num_regs, 16); /* the first entry's, not the second's */
  assert_int_equal(pi.spill_store_bytes, 0);
  assert_int_equal(pi.shared_static, 0);
  assert_int_equal(pi.local, 8);
  assert_false(cg_parse_ptxas_info("ptxas fatal   : Unresolved extern function 'f'\n", &pi));
  assert_int_equal(pi.num_regs, -1);
  /* a ptxas that prints nothing (ASan once saw a read past the log's end) */
  char *empty = calloc(1, 1);
  assert_non_null(empty);
  assert_false(cg_parse_ptxas_info(empty, &pi));
  assert_int_equal(pi.num_regs, -1);
  free(empty);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_ptxas_info),
      cmocka_unit_test_setup_teardown(test_vector_add_ptx, setup, teardown),
      cmocka_unit_test_setup_teardown(test_deterministic, setup, teardown),
      cmocka_unit_test_setup_teardown(test_ptxas_vector_add, setup, teardown),
      cmocka_unit_test_setup_teardown(test_ptxas_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(test_ptxas_spawn_failures, setup, teardown),
      cmocka_unit_test_setup_teardown(test_unsupported_op, setup, teardown),
      cmocka_unit_test_setup_teardown(test_scan, setup, teardown),
      cmocka_unit_test_setup_teardown(test_print_libdevice_trans, setup, teardown),
      cmocka_unit_test_setup_teardown(test_softmax, setup, teardown),
      cmocka_unit_test_setup_teardown(test_for_loop, setup, teardown),
      cmocka_unit_test_setup_teardown(test_2d, setup, teardown),
      cmocka_unit_test_setup_teardown(test_dtypes, setup, teardown),
      cmocka_unit_test_setup_teardown(test_atomics, setup, teardown),
      cmocka_unit_test_setup_teardown(test_dot_fma, setup, teardown),
      cmocka_unit_test_setup_teardown(test_reduce_2d, setup, teardown),
      cmocka_unit_test_setup_teardown(test_convert_and_if, setup, teardown),
      cmocka_unit_test_setup_teardown(test_metadata, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
