// SPDX-License-Identifier: MIT
/* test_compile.c - the public compile API: levels, stop_after, parameters,
 * metadata, diagnostics on bad input, argument checks; kernels made from
 * ttir text and run on the interpreter. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ttc_test.h"

#include "ttc/ttc.h"

static const char add_src[] = "import triton\n"
                              "import triton.language as tl\n"
                              "\n"
                              "@triton.jit\n"
                              "def add(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):\n"
                              "    pid = tl.program_id(0)\n"
                              "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
                              "    m = offs < n\n"
                              "    x = tl.load(x_ptr + offs, mask=m)\n"
                              "    y = tl.load(y_ptr + offs, mask=m)\n"
                              "    tl.store(z_ptr + offs, x + y, mask=m)\n";

static const char *sig = "*fp32:16,*fp32:16,*fp32:16,i32,1024";

static void test_levels_up_to_ptx(void **state) {
  (void)state;
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = TTC_LEVEL_PTX;
  ttc_kernel *k = NULL;
  ttc_status st = ttc_compile(add_src, strlen(add_src), "add.py", "add", sig, &o, &k);
  assert_non_null(k);
  if (st != TTC_OK) fprintf(stderr, "%s", ttc_kernel_diagnostics(k));
  assert_int_equal(st, TTC_OK);
  size_t n = 0;
  const char *ttir = ttc_kernel_output(k, TTC_LEVEL_TTIR, &n);
  assert_non_null(ttir);
  assert_int_equal(n, strlen(ttir));
  assert_non_null(strstr(ttir, "tt.func public @add"));
  assert_null(strstr(ttir, "#ttg.blocked"));
  const char *ttgir = ttc_kernel_output(k, TTC_LEVEL_TTGIR, NULL);
  assert_non_null(strstr(ttgir, "sizePerThread = [4]"));
  const char *ptx = ttc_kernel_output(k, TTC_LEVEL_PTX, NULL);
  assert_non_null(strstr(ptx, ".entry add("));
  assert_null(ttc_kernel_output(k, TTC_LEVEL_CUBIN, &n));
  assert_int_equal(n, 0);
  assert_string_equal(ttc_kernel_diagnostics(k), "");
  assert_string_equal(ttc_kernel_pass_dump(k), ""); /* no reports asked for */
  /* Runtime parameters: the four non-constexpr ones. */
  assert_int_equal(ttc_kernel_num_params(k), 4);
  ttc_type pointee;
  assert_int_equal(ttc_kernel_param_type(k, 0, &pointee), TTC_TYPE_PTR);
  assert_int_equal(pointee, TTC_TYPE_F32);
  assert_int_equal(ttc_kernel_param_type(k, 3, NULL), TTC_TYPE_I32);
  assert_int_equal(ttc_kernel_num_warps(k), 4);
  const char *md = ttc_kernel_metadata_json(k);
  assert_non_null(md);
  assert_non_null(strstr(md, "\"BLOCK\""));
  ttc_kernel_destroy(k);
}

/* The add kernel compiled as far as ttir. */
static ttc_kernel *compile_add_ttir(void) {
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = TTC_LEVEL_TTIR;
  ttc_kernel *k = NULL;
  assert_int_equal(ttc_compile(add_src, strlen(add_src), "add.py", "add", sig, &o, &k), TTC_OK);
  return k;
}

static void test_stop_after_ttir(void **state) {
  (void)state;
  ttc_kernel *k = compile_add_ttir();
  assert_non_null(ttc_kernel_output(k, TTC_LEVEL_TTIR, NULL));
  assert_null(ttc_kernel_output(k, TTC_LEVEL_TTGIR, NULL));
  /* the metadata exists at every level; ptxas's numbers are null without a cubin */
  const char *md = ttc_kernel_metadata_json(k);
  assert_non_null(md);
  assert_non_null(strstr(md, "\"num_regs\": null, \"spills_store_bytes\": null"));
  assert_non_null(strstr(md, "\"times_ms\": {\"ttir\": "));
  assert_null(strstr(md, "\"ttgir\": "));
  ttc_kernel_stats stats = TTC_KERNEL_STATS_INIT;
  assert_int_equal(ttc_kernel_get_stats(k, &stats), TTC_OK);
  assert_int_equal(stats.num_regs, -1);
  assert_true(stats.time_ms[TTC_LEVEL_TTIR] >= 0);
  assert_true(stats.time_ms[TTC_LEVEL_TTGIR] < 0);
  assert_true(stats.llvm_ms < 0); /* LLVM never ran */
  ttc_kernel_destroy(k);
}

/* With a cubin: ptxas's registers and spills, every stage timed, and the
 * size field honoured both ways (an older, smaller struct is refused only
 * below the first version's size; a newer, larger one keeps its tail). */
static void test_stats_with_cubin(void **state) {
  (void)state;
  if (access(TTC_CUDA_HOME "/bin/ptxas", X_OK) != 0 && !getenv("TTC_PTXAS")) skip();
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  ttc_kernel *k = NULL;
  assert_int_equal(ttc_compile(add_src, strlen(add_src), "add.py", "add", sig, &o, &k), TTC_OK);
  struct {
    ttc_kernel_stats s;
    int future_field;
  } big;
  memset(&big, 0x5a, sizeof big);
  big.s.size = sizeof big;
  big.future_field = 77;
  assert_int_equal(ttc_kernel_get_stats(k, &big.s), TTC_OK);
  assert_int_equal(big.s.size, sizeof big);
  assert_int_equal(big.future_field, 77);
  assert_true(big.s.num_regs > 0 && big.s.num_regs <= 255);
  assert_int_equal(big.s.spills_store_bytes, 0);
  assert_int_equal(big.s.spills_load_bytes, 0);
  assert_int_equal(big.s.local, 0);
  assert_int_equal(big.s.shared, ttc_kernel_shared_bytes(k));
  for (int l = 0; l < TTC_NUM_LEVELS; l++)
    assert_true(big.s.time_ms[l] >= 0);
  /* LLVM's share is part of the llir and ptx levels' time, and NVPTX's
   * code generation alone is inside it */
  assert_true(big.s.llvm_ms >= big.s.time_ms[TTC_LEVEL_PTX]);
  assert_true(big.s.llvm_ms <= big.s.time_ms[TTC_LEVEL_LLIR] + big.s.time_ms[TTC_LEVEL_PTX]);
  /* a caller built before llvm_ms existed gets the fields it knows */
  struct {
    ttc_kernel_stats s;
  } v1;
  memset(&v1, 0x5a, sizeof v1);
  v1.s.size = offsetof(ttc_kernel_stats, llvm_ms);
  assert_int_equal(ttc_kernel_get_stats(k, &v1.s), TTC_OK);
  assert_int_equal(v1.s.num_regs, big.s.num_regs);
  unsigned char tail[sizeof v1.s.llvm_ms];
  memset(tail, 0x5a, sizeof tail);
  assert_memory_equal(&v1.s.llvm_ms, tail, sizeof tail); /* untouched */
  char want[64];
  snprintf(want, sizeof want, "\"num_regs\": %d, ", big.s.num_regs);
  assert_non_null(strstr(ttc_kernel_metadata_json(k), want));
  assert_non_null(strstr(ttc_kernel_metadata_json(k), "\"cubin\": "));
  ttc_kernel_stats small = TTC_KERNEL_STATS_INIT;
  small.size = sizeof(size_t) + sizeof(int);
  assert_int_equal(ttc_kernel_get_stats(k, &small), TTC_ERROR_ARGUMENT);
  assert_int_equal(ttc_kernel_get_stats(NULL, &big.s), TTC_ERROR_ARGUMENT);
  ttc_kernel_destroy(k);
}

static void test_bad_input_has_located_diagnostic(void **state) {
  (void)state;
  ttc_kernel *k = NULL;
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = TTC_LEVEL_TTIR;
  ttc_status st = ttc_compile(add_src, strlen(add_src), "add.py", "add",
                              "*fp32:16,*fp32:16,*fp32:16,i32,48", &o, &k);
  assert_int_equal(st, TTC_ERROR_INPUT);
  assert_int_equal(ttc_kernel_status(k), TTC_ERROR_INPUT);
  const char *d = ttc_kernel_diagnostics(k);
  assert_non_null(strstr(d, "add.py:7:"));
  assert_non_null(strstr(d, "error: "));
  assert_non_null(strstr(d, "^"));
  assert_null(ttc_kernel_output(k, TTC_LEVEL_TTIR, NULL));
  ttc_kernel_destroy(k);
}

static void test_bad_options(void **state) {
  (void)state;
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  ttc_kernel *k = NULL;
  o.arch = "sm_70";
  assert_int_equal(ttc_compile(add_src, strlen(add_src), "add.py", "add", sig, &o, &k),
                   TTC_ERROR_ARGUMENT);
  assert_non_null(strstr(ttc_kernel_diagnostics(k), "sm_70"));
  ttc_kernel_destroy(k);
  ttc_compile_options_init(&o);
  o.num_warps = 3;
  assert_int_equal(ttc_compile(add_src, strlen(add_src), "add.py", "add", sig, &o, &k),
                   TTC_ERROR_ARGUMENT);
  assert_non_null(strstr(ttc_kernel_diagnostics(k), "power of two"));
  ttc_kernel_destroy(k);
  /* num_stages and stop_after out of range are refused, naming the value */
  static const int stages[] = {-1, 17};
  for (int i = 0; i < 2; i++) {
    ttc_compile_options_init(&o);
    o.num_stages = stages[i];
    assert_int_equal(ttc_compile(add_src, strlen(add_src), "add.py", "add", sig, &o, &k),
                     TTC_ERROR_ARGUMENT);
    char want[64];
    snprintf(want, sizeof want, "num_stages must be in 0..16, got %d", stages[i]);
    assert_non_null(strstr(ttc_kernel_diagnostics(k), want));
    ttc_kernel_destroy(k);
  }
  ttc_compile_options_init(&o);
  o.stop_after = (ttc_level)99;
  assert_int_equal(ttc_compile(add_src, strlen(add_src), "add.py", "add", sig, &o, &k),
                   TTC_ERROR_ARGUMENT);
  assert_non_null(strstr(ttc_kernel_diagnostics(k), "stop_after must be a ttc_level"));
  assert_non_null(strstr(ttc_kernel_diagnostics(k), "got 99"));
  ttc_kernel_destroy(k);
  /* the IR tool's emit level too */
  ttc_ir_options io;
  ttc_ir_options_init(&io);
  io.emit = 42;
  ttc_ir_result *r = NULL;
  assert_int_equal(ttc_ir_run("module {\n}\n", 11, "a.ttir", &io, &r), TTC_ERROR_ARGUMENT);
  assert_non_null(strstr(ttc_ir_result_diagnostics(r), "emit must be -1 or a ttc_level"));
  ttc_ir_result_destroy(r);
}

/* A UTF-8 byte-order mark at the start of a kernel file or of IR text is
 * skipped, as Python and MLIR tools skip it. */
static void test_byte_order_mark(void **state) {
  (void)state;
  char src[sizeof add_src + 3] = "\xEF\xBB\xBF";
  memcpy(src + 3, add_src, sizeof add_src);
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = TTC_LEVEL_TTIR;
  ttc_kernel *k = NULL;
  assert_int_equal(ttc_compile(src, strlen(src), "bom.py", "add", sig, &o, &k), TTC_OK);
  size_t n = 0;
  const char *ttir = ttc_kernel_output(k, TTC_LEVEL_TTIR, &n);
  char *text = malloc(n + 4);
  memcpy(text, "\xEF\xBB\xBF", 3);
  memcpy(text + 3, ttir, n + 1);
  ttc_kernel *k2 = NULL;
  assert_int_equal(ttc_kernel_create_from_ttir(text, n + 3, "bom.ttir", "add", &k2), TTC_OK);
  ttc_kernel_destroy(k2);
  ttc_ir_result *r = NULL;
  assert_int_equal(ttc_ir_run(text, n + 3, "bom.ttir", NULL, &r), TTC_OK);
  ttc_ir_result_destroy(r);
  /* a mark elsewhere is still an error, located */
  memcpy(text + 3, "\n", 1);
  memcpy(text, "\n\n\n", 3);
  text[1] = '\xEF';
  assert_int_equal(ttc_ir_run(text, n + 3, "bom.ttir", NULL, &r), TTC_ERROR_INPUT);
  assert_non_null(strstr(ttc_ir_result_diagnostics(r), "bom.ttir:2:1"));
  ttc_ir_result_destroy(r);
  free(text);
  ttc_kernel_destroy(k);
}

static void test_null_arguments(void **state) {
  (void)state;
  ttc_kernel *k = (ttc_kernel *)1;
  assert_int_equal(ttc_compile(NULL, 0, "a.py", "add", sig, NULL, &k), TTC_ERROR_ARGUMENT);
  assert_null(k);
  assert_int_equal(ttc_compile(add_src, 3, "a.py", "add", sig, NULL, NULL), TTC_ERROR_ARGUMENT);
  assert_int_equal(ttc_compile_file("/nonexistent/x.py", "add", sig, NULL, &k), TTC_ERROR_IO);
  assert_non_null(strstr(ttc_kernel_diagnostics(k), "/nonexistent/x.py"));
  ttc_kernel_destroy(k);
  ttc_kernel_destroy(NULL);
  assert_string_equal(ttc_status_string(TTC_OK), "ok");
  assert_string_equal(ttc_type_name(TTC_TYPE_BF16), "bf16");
  assert_string_equal(ttc_level_name(TTC_LEVEL_TTGIR), "ttgir");
}

/* Adds 1000 floats through the kernel on an interpreter device. */
static void run_add_on_interpreter(const ttc_kernel *k) {
  char err[128];
  ttc_device *dev = NULL;
  assert_int_equal(ttc_device_open_interpreter(&dev, err, sizeof err), TTC_OK);
  ttc_module *mod = NULL;
  if (ttc_module_load(dev, k, &mod) != TTC_OK) fprintf(stderr, "%s\n", ttc_device_error(dev));
  assert_non_null(mod);
  int per_sm = -1;
  assert_int_equal(ttc_module_programs_per_sm(mod, &per_sm), TTC_OK);
  assert_int_equal(per_sm, 1); /* the interpreter runs one program at a time */
  assert_int_equal(ttc_module_programs_per_sm(mod, NULL), TTC_ERROR_ARGUMENT);
  enum { N = 1000 };
  float x[N], z[N];
  for (int i = 0; i < N; i++)
    x[i] = (float)i;
  uint64_t dx, dz;
  ttc_device_alloc(dev, sizeof x, &dx);
  ttc_device_alloc(dev, sizeof z, &dz);
  ttc_device_copy_to(dev, dx, x, sizeof x);
  const ttc_arg args[4] = {ttc_arg_ptr(dx), ttc_arg_ptr(dx), ttc_arg_ptr(dz), ttc_arg_i32(N)};
  const unsigned grid[3] = {1, 1, 1};
  assert_int_equal(ttc_module_launch(mod, grid, NULL, args, 4), TTC_OK);
  ttc_device_copy_from(dev, z, dz, sizeof z);
  for (int i = 0; i < N; i++)
    assert_true(z[i] == 2.0f * (float)i);
  /* an access out of bounds names the kernel file's line, carried by the ttir */
  const ttc_arg bad[4] = {ttc_arg_ptr(dx), ttc_arg_ptr(dx), ttc_arg_ptr(dz + 64), ttc_arg_i32(N)};
  assert_int_equal(ttc_module_launch(mod, grid, NULL, bad, 4), TTC_ERROR_OUT_OF_BOUNDS);
  assert_non_null(strstr(ttc_device_error(dev), "add.py:11:"));
  ttc_module_destroy(mod);
  ttc_device_destroy(dev);
}

static void test_kernel_from_ttir(void **state) {
  (void)state;
  ttc_kernel *k = compile_add_ttir();
  size_t n = 0;
  const char *located = ttc_kernel_ttir_located(k, &n);
  assert_non_null(strstr(located, "loc(\"add.py\":"));
  assert_null(strstr(ttc_kernel_output(k, TTC_LEVEL_TTIR, NULL), "loc("));
  ttc_kernel *from = NULL;
  assert_int_equal(ttc_kernel_create_from_ttir(located, n, "add.ttir", NULL, &from), TTC_OK);
  assert_string_equal(ttc_kernel_name(from), "add");
  assert_int_equal(ttc_kernel_num_params(from), 4);
  ttc_type pointee;
  assert_int_equal(ttc_kernel_param_type(from, 2, &pointee), TTC_TYPE_PTR);
  assert_int_equal(pointee, TTC_TYPE_F32);
  assert_int_equal(ttc_kernel_param_type(from, 3, NULL), TTC_TYPE_I32);
  assert_null(ttc_kernel_output(from, TTC_LEVEL_PTX, NULL));
  run_add_on_interpreter(from);
  ttc_kernel_destroy(from);
  /* the compile's own kernel runs the same way */
  run_add_on_interpreter(k);
  /* named, wrongly named, malformed */
  assert_int_equal(ttc_kernel_create_from_ttir(located, n, "add.ttir", "add", &from), TTC_OK);
  ttc_kernel_destroy(from);
  assert_int_equal(ttc_kernel_create_from_ttir(located, n, "add.ttir", "nope", &from),
                   TTC_ERROR_INPUT);
  assert_non_null(strstr(ttc_kernel_diagnostics(from), "no tt.func 'nope'"));
  ttc_kernel_destroy(from);
  assert_int_equal(
      ttc_kernel_create_from_ttir("module {\n  tt.func @f(\n", 20, "bad.ttir", NULL, &from),
      TTC_ERROR_INPUT);
  assert_non_null(strstr(ttc_kernel_diagnostics(from), "bad.ttir:"));
  ttc_kernel_destroy(from);
  ttc_kernel_destroy(k);
}

/* The versions and targets `ttc --version` shows. */
static void test_versions_and_targets(void **state) {
  (void)state;
  assert_int_equal(ttc_version_number(), TTC_VERSION_NUMBER);
  assert_int_equal(TTC_VERSION_NUMBER,
                   TTC_VERSION_MAJOR * 10000 + TTC_VERSION_MINOR * 100 + TTC_VERSION_PATCH);
  assert_string_equal(ttc_version(), TTC_VERSION_STRING);
  assert_true(strncmp(ttc_llvm_version(), "22.", 3) == 0);
  int n = ttc_num_targets();
  assert_true(n >= 7);
  assert_string_equal(ttc_target_name(0), "sm_80");
  bool has_90a = false;
  for (int i = 0; i < n; i++)
    has_90a |= strcmp(ttc_target_name(i), "sm_90a") == 0;
  assert_true(has_90a);
  assert_null(ttc_target_name(n));
  assert_null(ttc_target_name(-1));
  char buf[64];
  assert_int_equal(ttc_ptxas_version("/nonexistent/ptxas", buf, sizeof buf), TTC_ERROR_TOOL);
  assert_int_equal(ttc_ptxas_version(NULL, buf, 0), TTC_ERROR_ARGUMENT);
  if (access(TTC_CUDA_HOME "/bin/ptxas", X_OK) == 0) {
    assert_int_equal(ttc_ptxas_version(TTC_CUDA_HOME "/bin/ptxas", buf, sizeof buf), TTC_OK);
    assert_true(buf[0] >= '1' && buf[0] <= '9' && strchr(buf, '.'));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_levels_up_to_ptx),
      cmocka_unit_test(test_stop_after_ttir),
      cmocka_unit_test(test_stats_with_cubin),
      cmocka_unit_test(test_versions_and_targets),
      cmocka_unit_test(test_bad_input_has_located_diagnostic),
      cmocka_unit_test(test_bad_options),
      cmocka_unit_test(test_byte_order_mark),
      cmocka_unit_test(test_null_arguments),
      cmocka_unit_test(test_kernel_from_ttir),
  };
  return cmocka_run_group_tests_name("compile", tests, NULL, NULL);
}
