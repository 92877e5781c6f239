// SPDX-License-Identifier: MIT
/* test_robust.c - robustness of the public API against hostile or extreme
 * input: inputs at the documented nesting limits compile on a thread with a
 * 128 KiB stack (the library runs deep work on its own stack), and inputs
 * past them are located errors naming the limit. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ttc_test.h"

#include "ttc/ttc.h"

/* ---- a growable string for generated inputs ---------------------------------- */

typedef struct gen {
  char *s;
  size_t len, cap;
} gen;

static void gen_puts(gen *g, const char *t) {
  size_t n = strlen(t);
  if (g->len + n + 1 > g->cap) {
    g->cap = (g->len + n + 1) * 2;
    g->s = realloc(g->s, g->cap);
    assert_non_null(g->s);
  }
  memcpy(g->s + g->len, t, n + 1);
  g->len += n;
}

static void gen_rep(gen *g, const char *t, int n) {
  for (int i = 0; i < n; i++)
    gen_puts(g, t);
}

static const char head[] = "import triton\nimport triton.language as tl\n\n";

/* ---- running on a small stack -------------------------------------------------- */

#define SMALL_STACK ((size_t)128 << 10)

typedef struct small_call {
  void (*fn)(void *);
  void *arg;
} small_call;

static void *small_main(void *p) {
  small_call *c = p;
  c->fn(c->arg);
  return NULL;
}

/* Runs fn(arg) on a thread whose stack is 128 KiB, as a host thread pool's. */
static void on_small_stack(void (*fn)(void *), void *arg) {
  pthread_attr_t attr;
  pthread_t th;
  small_call c = {fn, arg};
  assert_int_equal(pthread_attr_init(&attr), 0);
  assert_int_equal(pthread_attr_setstacksize(&attr, SMALL_STACK), 0);
  assert_int_equal(pthread_create(&th, &attr, small_main, &c), 0);
  pthread_attr_destroy(&attr);
  assert_int_equal(pthread_join(th, NULL), 0);
}

typedef struct compile_job {
  const char *src, *name, *sig;
  ttc_level level;
  ttc_status st;
  char *diags;
} compile_job;

static void compile_main(void *arg) {
  compile_job *j = arg;
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = j->level;
  ttc_kernel *k = NULL;
  j->st = ttc_compile(j->src, strlen(j->src), "deep.py", j->name, j->sig, &o, &k);
  j->diags = strdup(k ? ttc_kernel_diagnostics(k) : "");
  ttc_kernel_destroy(k);
}

/* Compiles src on a 128 KiB stack; returns the status, *diags caller-freed. */
static ttc_status compile_small(const char *src, const char *name, const char *sig, ttc_level level,
                                char **diags) {
  compile_job j = {src, name, sig, level, TTC_OK, NULL};
  on_small_stack(compile_main, &j);
  if (j.st != TTC_OK && !diags) fprintf(stderr, "%s", j.diags);
  if (diags)
    *diags = j.diags;
  else
    free(j.diags);
  return j.st;
}

/* A kernel `k(x_ptr)` storing the expression `expr` (over the loaded x). */
static char *kernel_with(const char *expr) {
  gen g = {0};
  gen_puts(&g, head);
  gen_puts(&g, "@triton.jit\ndef k(x_ptr):\n    offs = tl.arange(0, 16)\n"
               "    x = tl.load(x_ptr + offs)\n    y = ");
  gen_puts(&g, expr);
  gen_puts(&g, "\n    tl.store(x_ptr + offs, y)\n");
  return g.s;
}

/* ---- the frontend's limits hold on a small stack --------------------------------- */

/* 999 terms of '+' (a left-nested tree 998 deep), to PTX. */
static void test_long_sum_small_stack(void **state) {
  (void)state;
  gen e = {0};
  gen_puts(&e, "x");
  gen_rep(&e, " + x", 998);
  char *src = kernel_with(e.s);
  assert_int_equal(compile_small(src, "k", "*fp32:16", TTC_LEVEL_PTX, NULL), TTC_OK);
  free(src);
  free(e.s);
}

/* 199 nested parentheses (the lexer allows 200 open brackets). */
static void test_nested_parens_small_stack(void **state) {
  (void)state;
  gen e = {0};
  gen_rep(&e, "(x + ", 199);
  gen_puts(&e, "x");
  gen_rep(&e, ")", 199);
  char *src = kernel_with(e.s);
  assert_int_equal(compile_small(src, "k", "*fp32:16", TTC_LEVEL_PTX, NULL), TTC_OK);
  free(src);
  free(e.s);
}

/* Unary chains, `not` chains, `**` chains and conditional chains just
 * inside the expression depth limit (1000). */
static void test_unary_chains_small_stack(void **state) {
  (void)state;
  static const char *const pre[] = {"-", "~", "not "};
  for (int i = 0; i < 3; i++) {
    gen e = {0};
    if (i > 0) gen_puts(&e, "(");
    gen_rep(&e, pre[i], 990);
    gen_puts(&e, i == 0 ? "x" : "(x > 0).to(tl.int32)");
    if (i > 0) gen_puts(&e, ").to(tl.float32)");
    char *src = kernel_with(e.s);
    assert_int_equal(compile_small(src, "k", "*fp32:16", TTC_LEVEL_TTGIR, NULL), TTC_OK);
    free(src);
    free(e.s);
  }
  gen e = {0};
  gen_puts(&e, "x * 1");
  gen_rep(&e, " ** 1", 990);
  char *src = kernel_with(e.s);
  assert_int_equal(compile_small(src, "k", "*fp32:16", TTC_LEVEL_TTGIR, NULL), TTC_OK);
  free(src);
  free(e.s);
  e = (gen){0};
  gen_rep(&e, "x if x_ptr else ", 990);
  gen_puts(&e, "x");
  src = kernel_with(e.s);
  assert_int_equal(compile_small(src, "k", "*fp32:16", TTC_LEVEL_TTGIR, NULL), TTC_OK);
  free(src);
  free(e.s);
}

/* Past the limit: a located error naming it, for every chain form (the
 * `**` chain used to recurse before counting). */
static void test_too_deep_is_located_error(void **state) {
  (void)state;
  static const char *const forms[][3] = {
      {"", " ** 1", "x * 1"}, {"-", "", "x"}, {"", " + x", "x"}, {"(", ")", "x"}};
  for (int i = 0; i < 4; i++) {
    gen e = {0};
    if (i == 3) {
      gen_rep(&e, "(", 5000);
      gen_puts(&e, "x");
      gen_rep(&e, ")", 5000);
    } else if (i == 0) {
      gen_puts(&e, forms[i][2]);
      gen_rep(&e, forms[i][1], 200000);
    } else if (i == 1) {
      gen_rep(&e, "-", 200000);
      gen_puts(&e, "x");
    } else {
      gen_puts(&e, "x");
      gen_rep(&e, " + x", 5000);
    }
    char *src = kernel_with(e.s);
    char *diags = NULL;
    assert_int_equal(compile_small(src, "k", "*fp32:16", TTC_LEVEL_TTIR, &diags), TTC_ERROR_INPUT);
    assert_non_null(strstr(diags, "deep.py:8:"));
    assert_true(strstr(diags, "more than 1000 levels") || strstr(diags, "more than 200"));
    free(diags);
    free(src);
    free(e.s);
  }
}

/* Statements nested 99 deep (the lexer allows 100 indents) and helpers
 * inlined 31 deep (the limit is 32). */
static void test_nesting_and_inlining_small_stack(void **state) {
  (void)state;
  gen g = {0};
  gen_puts(&g, head);
  gen_puts(&g, "@triton.jit\ndef k(x_ptr, n):\n    offs = tl.arange(0, 16)\n"
               "    x = tl.load(x_ptr + offs)\n");
  char ind[256];
  for (int d = 1; d < 99; d++) {
    memset(ind, ' ', (size_t)d);
    ind[d] = '\0';
    gen_puts(&g, "   ");
    gen_puts(&g, ind);
    gen_puts(&g, "if n > 0:\n");
  }
  gen_puts(&g, "   ");
  gen_puts(&g, ind);
  gen_puts(&g, " tl.store(x_ptr + offs, x + 1)\n");
  assert_int_equal(compile_small(g.s, "k", "*fp32:16,i32", TTC_LEVEL_PTX, NULL), TTC_OK);
  free(g.s);

  g = (gen){0};
  gen_puts(&g, head);
  char line[256];
  gen_puts(&g, "@triton.jit\ndef h0(x):\n    return x + 1\n\n");
  for (int i = 1; i < 31; i++) {
    snprintf(line, sizeof line, "@triton.jit\ndef h%d(x):\n    return h%d(x) * 2\n\n", i, i - 1);
    gen_puts(&g, line);
  }
  gen_puts(&g, "@triton.jit\ndef k(x_ptr):\n    offs = tl.arange(0, 16)\n"
               "    tl.store(x_ptr + offs, h30(tl.load(x_ptr + offs)))\n");
  assert_int_equal(compile_small(g.s, "k", "*fp32:16", TTC_LEVEL_PTX, NULL), TTC_OK);
  free(g.s);
}

/* Every limit at once: 31 helpers inlined into each other, each body 97
 * loops (for and while alternating) deep; the library's stack holds it. */
static void test_limits_combined_small_stack(void **state) {
  (void)state;
  gen g = {0};
  char line[256];
  gen_puts(&g, head);
  gen_puts(&g, "@triton.jit\ndef h0(x, n):\n    return x + 1\n\n");
  for (int i = 1; i < 31; i++) {
    snprintf(line, sizeof line, "@triton.jit\ndef h%d(x, n):\n", i);
    gen_puts(&g, line);
    for (int d = 1; d < 98; d++) {
      gen_rep(&g, "    ", d);
      snprintf(line, sizeof line, d % 2 ? "for j%d in range(n):\n" : "while n > %d:\n", d);
      gen_puts(&g, line);
    }
    gen_rep(&g, "    ", 98);
    snprintf(line, sizeof line, "x = h%d(x, n) * 2\n    return x\n\n", i - 1);
    gen_puts(&g, line);
  }
  gen_puts(&g, "@triton.jit\ndef k(x_ptr, n):\n    offs = tl.arange(0, 16)\n"
               "    tl.store(x_ptr + offs, h30(tl.load(x_ptr + offs), n))\n");
  assert_int_equal(compile_small(g.s, "k", "*fp32:16,i32", TTC_LEVEL_TTGIR, NULL), TTC_OK);
  free(g.s);
}

/* ---- the IR parser and printers ------------------------------------------------- */

typedef struct ir_job {
  const char *text;
  ttc_status st;
  char *out;
} ir_job;

static void ir_main(void *arg) {
  ir_job *j = arg;
  ttc_ir_options o;
  ttc_ir_options_init(&o);
  o.passes = "canonicalize";
  ttc_ir_result *r = NULL;
  j->st = ttc_ir_run(j->text, strlen(j->text), "deep.ttir", &o, &r);
  const char *out = r ? (j->st == TTC_OK ? (const char *)ttc_ir_result_output(r, NULL)
                                         : ttc_ir_result_diagnostics(r))
                      : "";
  j->out = strdup(out ? out : "");
  ttc_ir_result_destroy(r);
}

/* scf.if regions nested `depth` deep around a store. */
static char *nested_ifs(int depth) {
  gen g = {0};
  gen_puts(&g, "module {\n  tt.func public @k(%p: !tt.ptr<f32>, %c: i1) {\n");
  gen_puts(&g, "    %v = arith.constant 1.0 : f32\n");
  for (int i = 0; i < depth; i++)
    gen_puts(&g, "    scf.if %c {\n");
  gen_puts(&g, "    tt.store %p, %v : !tt.ptr<f32>\n");
  for (int i = 0; i < depth; i++)
    gen_puts(&g, "    }\n");
  gen_puts(&g, "    tt.return\n  }\n}\n");
  return g.s;
}

static void test_ir_nesting_small_stack(void **state) {
  (void)state;
  char *text = nested_ifs(250);
  ir_job j = {text, TTC_OK, NULL};
  on_small_stack(ir_main, &j);
  if (j.st != TTC_OK) fprintf(stderr, "%s", j.out);
  assert_int_equal(j.st, TTC_OK);
  assert_non_null(strstr(j.out, "tt.store"));
  free(j.out);
  free(text);
  text = nested_ifs(20000);
  j = (ir_job){text, TTC_OK, NULL};
  on_small_stack(ir_main, &j);
  assert_int_not_equal(j.st, TTC_OK);
  assert_non_null(strstr(j.out, "deep.ttir:"));
  assert_non_null(strstr(j.out, "256"));
  free(j.out);
  free(text);
}

/* ---- C API misuse --------------------------------------------------------------- */

static const char add_src[] =
    "import triton\nimport triton.language as tl\n\n@triton.jit\n"
    "def add(x_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)\n";

static ttc_kernel *compile_add(void) {
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = TTC_LEVEL_TTIR;
  ttc_kernel *k = NULL;
  assert_int_equal(ttc_compile(add_src, strlen(add_src), "add.py", "add", "*fp32,i32,64", &o, &k),
                   TTC_OK);
  return k;
}

/* A second destroy, and a use after destroy, are refused with a status
 * (the registry of live handles is consulted; nothing freed is read, so
 * AddressSanitizer stays quiet). */
static void test_double_destroy_and_use_after_destroy(void **state) {
  (void)state;
  ttc_kernel *k = compile_add();
  assert_int_equal(ttc_kernel_destroy(k), TTC_OK);
  assert_int_equal(ttc_kernel_destroy(k), TTC_ERROR_ARGUMENT);
  assert_int_equal(ttc_kernel_status(k), TTC_ERROR_ARGUMENT);
  assert_string_equal(ttc_kernel_diagnostics(k), "");
  assert_null(ttc_kernel_output(k, TTC_LEVEL_TTIR, NULL));
  assert_int_equal(ttc_kernel_destroy(NULL), TTC_OK);

  ttc_ir_result *r = NULL;
  assert_int_equal(ttc_ir_run("module {\n}\n", 11, "a.ttir", NULL, &r), TTC_OK);
  assert_int_equal(ttc_ir_result_destroy(r), TTC_OK);
  assert_int_equal(ttc_ir_result_destroy(r), TTC_ERROR_ARGUMENT);
  assert_null(ttc_ir_result_output(r, NULL));

  char err[256];
  ttc_device *dev = NULL;
  assert_int_equal(ttc_device_open_interpreter(&dev, err, sizeof err), TTC_OK);
  k = compile_add();
  ttc_module *mod = NULL;
  assert_int_equal(ttc_module_load(dev, k, &mod), TTC_OK);
  ttc_kernel_destroy(k);
  uint64_t buf = 0;
  assert_int_equal(ttc_device_alloc(dev, 256, &buf), TTC_OK);
  ttc_arg args[] = {ttc_arg_ptr(buf), ttc_arg_i32(64)};
  unsigned grid[3] = {1, 1, 1};
  assert_int_equal(ttc_module_launch(mod, grid, NULL, args, 2), TTC_OK);
  /* the device outlives its modules: destroying it first is refused */
  assert_int_equal(ttc_device_destroy(dev), TTC_ERROR_ARGUMENT);
  assert_non_null(
      strstr(ttc_device_error(dev), "1 modules and 0 kernel functions are still alive"));
  assert_int_equal(ttc_module_destroy(mod), TTC_OK);
  assert_int_equal(ttc_module_destroy(mod), TTC_ERROR_ARGUMENT);
  assert_int_equal(ttc_module_launch(mod, grid, NULL, args, 2), TTC_ERROR_ARGUMENT);
  int per_sm = -1;
  assert_int_equal(ttc_module_programs_per_sm(mod, &per_sm), TTC_ERROR_ARGUMENT);
  assert_int_equal(per_sm, 0);
  ttc_event *ev = NULL;
  assert_int_equal(ttc_event_create(dev, &ev), TTC_OK);
  assert_int_equal(ttc_event_destroy(dev, ev), TTC_OK);
  assert_int_equal(ttc_event_destroy(dev, ev), TTC_ERROR_ARGUMENT);
  assert_int_equal(ttc_event_record(dev, ev, NULL), TTC_ERROR_ARGUMENT);
  ttc_function *f = NULL;
  assert_int_equal(
      ttc_function_create(dev, add_src, strlen(add_src), "add.py", "add", "BLOCK=64", NULL, &f),
      TTC_OK);
  assert_int_equal(ttc_function_destroy(f), TTC_OK);
  assert_int_equal(ttc_function_destroy(f), TTC_ERROR_ARGUMENT);
  assert_int_equal(ttc_function_launch(f, grid, NULL, args, 2), TTC_ERROR_ARGUMENT);
  assert_int_equal(ttc_device_free(dev, buf), TTC_OK);
  assert_int_equal(ttc_device_destroy(dev), TTC_OK);
  assert_int_equal(ttc_device_destroy(dev), TTC_ERROR_ARGUMENT);
  assert_int_equal(ttc_device_alloc(dev, 256, &buf), TTC_ERROR_ARGUMENT);
}

/* A length of SIZE_MAX (or anything past the 64 MiB source limit) is
 * refused before any length arithmetic. */
static void test_huge_lengths(void **state) {
  (void)state;
  ttc_kernel *k = NULL;
  assert_int_equal(ttc_compile(add_src, SIZE_MAX, "add.py", "add", "*fp32,i32,64", NULL, &k),
                   TTC_ERROR_INPUT);
  assert_non_null(strstr(ttc_kernel_diagnostics(k), "exceeds the limit of 64 MiB"));
  ttc_kernel_destroy(k);
  assert_int_equal(ttc_kernel_create_from_ttir("module {}", SIZE_MAX, "a.ttir", "k", &k),
                   TTC_ERROR_INPUT);
  assert_non_null(strstr(ttc_kernel_diagnostics(k), "exceeds the limit of 64 MiB"));
  ttc_kernel_destroy(k);
  ttc_ir_result *r = NULL;
  assert_int_equal(ttc_ir_run("module {}", SIZE_MAX, "a.ttir", NULL, &r), TTC_ERROR_ARGUMENT);
  assert_non_null(strstr(ttc_ir_result_diagnostics(r), "exceeds the limit of 64 MiB"));
  ttc_ir_result_destroy(r);
  char *report = NULL; /* source + SIZE_MAX wrapped: an empty source matched */
  assert_int_equal(ttc_verify_diagnostics("// x", SIZE_MAX, "a.ttir", "", &report),
                   TTC_ERROR_ARGUMENT);
  assert_null(report);
  char err[256];
  ttc_device *dev = NULL;
  assert_int_equal(ttc_device_open_interpreter(&dev, err, sizeof err), TTC_OK);
  ttc_function *f = NULL;
  assert_int_equal(ttc_function_create(dev, add_src, SIZE_MAX, "add.py", "add", NULL, NULL, &f),
                   TTC_ERROR_INPUT);
  char *e = ttc_function_error(f);
  assert_non_null(strstr(e, "exceeds the limit of 64 MiB"));
  free(e);
  ttc_function_destroy(f);
  ttc_device_destroy(dev);
}

/* Files: a device (/dev/zero would never end), a directory and a file past
 * the limit are refused with a reason, without reading them whole. */
static void test_files_refused(void **state) {
  (void)state;
  ttc_kernel *k = NULL;
  assert_int_equal(ttc_compile_file("/dev/zero", "add", "i32", NULL, &k), TTC_ERROR_IO);
  assert_non_null(strstr(ttc_kernel_diagnostics(k), "'/dev/zero': not a regular file"));
  ttc_kernel_destroy(k);
  assert_int_equal(ttc_compile_file("/tmp", "add", "i32", NULL, &k), TTC_ERROR_IO);
  ttc_kernel_destroy(k);
  char path[] = "/tmp/ttc_big_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(ftruncate(fd, ((off_t)64 << 20) + 1), 0); /* sparse: no disk used */
  close(fd);
  assert_int_equal(ttc_compile_file(path, "add", "i32", NULL, &k), TTC_ERROR_IO);
  assert_non_null(strstr(ttc_kernel_diagnostics(k), "larger than the source limit of 64 MiB"));
  ttc_kernel_destroy(k);
  unlink(path);
  char err[256];
  ttc_device *dev = NULL;
  assert_int_equal(ttc_device_open_interpreter(&dev, err, sizeof err), TTC_OK);
  ttc_function *f = NULL;
  assert_int_equal(ttc_function_create_file(dev, "/dev/zero", "add", NULL, NULL, &f), TTC_ERROR_IO);
  char *e = ttc_function_error(f);
  assert_non_null(strstr(e, "not a regular file"));
  free(e);
  ttc_function_destroy(f);
  ttc_device_destroy(dev);
}

/* ---- launches check the specialization ---------------------------------------- */

/* A tensor descriptor argument assumes what Triton's TensorDescriptor
 * asserts: 16-byte aligned leading strides and a last stride of 1; with
 * ttc's ':16' hint, shapes divisible by 16. Launches refuse the rest, and a
 * kernel read back from the disk cache keeps the checks. */
static const char desc_src[] = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                               "def inc(d, B: tl.constexpr):\n"
                               "    x = d.load([tl.program_id(0) * B, 0])\n"
                               "    d.store([tl.program_id(0) * B, 0], x + 1)\n";

static void test_launch_checks_descriptor(void **state) {
  (void)state;
  char dir[] = "/tmp/ttc_cache_XXXXXX";
  assert_non_null(mkdtemp(dir));
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = TTC_LEVEL_TTIR;
  o.cache = 1;
  o.cache_dir = dir;
  char err[256];
  ttc_device *dev = NULL;
  assert_int_equal(ttc_device_open_interpreter(&dev, err, sizeof err), TTC_OK);
  uint64_t buf = 0;
  assert_int_equal(ttc_device_alloc(dev, 64 * 64 * 2, &buf), TTC_OK);
  unsigned grid[3] = {4, 1, 1};
  for (int i = 0; i < 2; i++) { /* compiled, then from the cache */
    ttc_kernel *k = NULL;
    assert_int_equal(ttc_compile(desc_src, strlen(desc_src), "inc.py", "inc",
                                 "tensordesc<fp16[16,16]>:16,16", &o, &k),
                     TTC_OK);
    assert_int_equal(ttc_kernel_from_cache(k), i == 1);
    assert_int_equal(ttc_kernel_param_divisibility(k, 0), 16); /* base */
    assert_int_equal(ttc_kernel_param_divisibility(k, 1), 16); /* shapes (':16') */
    assert_int_equal(ttc_kernel_param_divisibility(k, 3), 8);  /* stride 0: 16 bytes of fp16 */
    assert_int_equal(ttc_kernel_param_must_be_one(k, 4), 1);   /* stride 1 */
    assert_int_equal(ttc_kernel_param_must_be_one(k, 3), 0);
    ttc_module *mod = NULL;
    assert_int_equal(ttc_module_load(dev, k, &mod), TTC_OK);
    ttc_arg ok[] = {ttc_arg_ptr(buf), ttc_arg_i32(64), ttc_arg_i32(16), ttc_arg_i64(64),
                    ttc_arg_i64(1)};
    assert_int_equal(ttc_module_launch(mod, grid, NULL, ok, 5), TTC_OK);
    ttc_arg pitch[] = {ttc_arg_ptr(buf), ttc_arg_i32(64), ttc_arg_i32(16), ttc_arg_i64(60),
                       ttc_arg_i64(1)};
    assert_int_equal(ttc_module_launch(mod, grid, NULL, pitch, 5), TTC_ERROR_ARGUMENT);
    assert_non_null(strstr(ttc_device_error(dev), "argument 3 ('d_stride0'): i64 value 60 is "
                                                  "not divisible by 8"));
    ttc_arg strided[] = {ttc_arg_ptr(buf), ttc_arg_i32(64), ttc_arg_i32(16), ttc_arg_i64(64),
                         ttc_arg_i64(2)};
    assert_int_equal(ttc_module_launch(mod, grid, NULL, strided, 5), TTC_ERROR_ARGUMENT);
    assert_non_null(strstr(ttc_device_error(dev), "argument 4 ('d_stride1'): the last stride of "
                                                  "a tensor descriptor is 2, but it must be 1"));
    ttc_arg ragged[] = {ttc_arg_ptr(buf), ttc_arg_i32(60), ttc_arg_i32(16), ttc_arg_i64(64),
                        ttc_arg_i64(1)};
    assert_int_equal(ttc_module_launch(mod, grid, NULL, ragged, 5), TTC_ERROR_ARGUMENT);
    assert_non_null(strstr(ttc_device_error(dev), "i32 value 60 is not divisible by 16"));
    ttc_module_destroy(mod);
    ttc_kernel_destroy(k);
  }
  ttc_device_free(dev, buf);
  ttc_device_destroy(dev);
  char cmd[64];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  assert_int_equal(system(cmd), 0);
}

/* A kernel compiled for '*fp32:16' and 'i32:16' refuses a misaligned pointer
 * and an n not divisible by 16 (on a GPU its vector stores would pass n),
 * naming the argument and the value; the same check runs for the GPU and
 * the interpreter (rt_check_specialization). */
static void test_launch_checks_specialization(void **state) {
  (void)state;
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = TTC_LEVEL_TTIR;
  ttc_kernel *k = NULL;
  assert_int_equal(
      ttc_compile(add_src, strlen(add_src), "add.py", "add", "*fp32:16,i32:16,64", &o, &k), TTC_OK);
  assert_int_equal(ttc_kernel_param_divisibility(k, 0), 16);
  assert_int_equal(ttc_kernel_param_divisibility(k, 1), 16);
  char err[256];
  ttc_device *dev = NULL;
  assert_int_equal(ttc_device_open_interpreter(&dev, err, sizeof err), TTC_OK);
  ttc_module *mod = NULL;
  assert_int_equal(ttc_module_load(dev, k, &mod), TTC_OK);
  uint64_t buf = 0;
  assert_int_equal(ttc_device_alloc(dev, 4096, &buf), TTC_OK);
  unsigned grid[3] = {16, 1, 1};
  ttc_arg ok[] = {ttc_arg_ptr(buf), ttc_arg_i32(992)};
  assert_int_equal(ttc_module_launch(mod, grid, NULL, ok, 2), TTC_OK);
  ttc_arg misaligned[] = {ttc_arg_ptr(buf + 4), ttc_arg_i32(992)};
  assert_int_equal(ttc_module_launch(mod, grid, NULL, misaligned, 2), TTC_ERROR_ARGUMENT);
  assert_non_null(strstr(ttc_device_error(dev), "argument 0 ('x_ptr'): pointer 0x"));
  assert_non_null(strstr(ttc_device_error(dev), "is not 16-byte aligned"));
  ttc_arg odd[] = {ttc_arg_ptr(buf), ttc_arg_i32(996)};
  assert_int_equal(ttc_module_launch(mod, grid, NULL, odd, 2), TTC_ERROR_ARGUMENT);
  assert_non_null(
      strstr(ttc_device_error(dev), "argument 1 ('n'): i32 value 996 is not divisible by 16"));
  ttc_arg negative[] = {ttc_arg_ptr(buf), ttc_arg_i32(-32)};
  assert_int_equal(ttc_module_launch(mod, grid, NULL, negative, 2), TTC_OK);
  /* grid limits are the GPU's: y and z up to 65535 */
  unsigned tall[3] = {1, 65536, 1}, deep[3] = {1, 1, 65536}, edge[3] = {1, 65535, 1};
  assert_int_equal(ttc_module_launch(mod, tall, NULL, ok, 2), TTC_ERROR_ARGUMENT);
  assert_non_null(strstr(ttc_device_error(dev), "exceeds the GPU's limits"));
  assert_int_equal(ttc_module_launch(mod, deep, NULL, ok, 2), TTC_ERROR_ARGUMENT);
  assert_int_equal(ttc_module_launch(mod, edge, NULL, ok, 2), TTC_OK);
  ttc_module_destroy(mod);

  /* a kernel made from ttir keeps {tt.divisibility = 16} and is checked too */
  size_t n = 0;
  const char *ttir = ttc_kernel_ttir_located(k, &n);
  ttc_kernel *k2 = NULL;
  assert_int_equal(ttc_kernel_create_from_ttir(ttir, n, "add.ttir", "add", &k2), TTC_OK);
  assert_int_equal(ttc_kernel_param_divisibility(k2, 1), 16);
  assert_int_equal(ttc_module_load(dev, k2, &mod), TTC_OK);
  assert_int_equal(ttc_module_launch(mod, grid, NULL, odd, 2), TTC_ERROR_ARGUMENT);
  ttc_module_destroy(mod);
  ttc_kernel_destroy(k2);
  ttc_kernel_destroy(k);

  /* a kernel read back from the disk cache keeps what it assumes */
  char dir[] = "/tmp/ttc_cache_XXXXXX";
  assert_non_null(mkdtemp(dir));
  o.cache = 1;
  o.cache_dir = dir;
  for (int i = 0; i < 2; i++) {
    assert_int_equal(
        ttc_compile(add_src, strlen(add_src), "add.py", "add", "*fp32:16,i32:16,64", &o, &k2),
        TTC_OK);
    assert_int_equal(ttc_kernel_from_cache(k2), i == 1);
    assert_int_equal(ttc_kernel_param_divisibility(k2, 0), 16);
    assert_int_equal(ttc_kernel_param_divisibility(k2, 1), 16);
    ttc_kernel_destroy(k2);
  }
  char cmd[64];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  assert_int_equal(system(cmd), 0);

  /* without ':16' nothing is assumed, so nothing is refused */
  k = compile_add();
  assert_int_equal(ttc_kernel_param_divisibility(k, 0), 1);
  assert_int_equal(ttc_module_load(dev, k, &mod), TTC_OK);
  assert_int_equal(ttc_module_launch(mod, grid, NULL, misaligned, 2), TTC_OK);
  ttc_module_destroy(mod);
  ttc_kernel_destroy(k);
  ttc_device_free(dev, buf);
  ttc_device_destroy(dev);
}

/* ---- interpreter: pointer provenance -------------------------------------------- */

/* A store through x_ptr whose offset lands inside another allocation is
 * reported (it used to overwrite that buffer silently), with the location,
 * the program id, the buffer and the offset; through a loop-carried pointer
 * too. */
static void test_interp_provenance(void **state) {
  (void)state;
  static const char src[] = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                            "def k(x_ptr, off):\n"
                            "    offs = tl.arange(0, 16)\n"
                            "    tl.store(x_ptr + off + offs, tl.full((16,), 1.0, tl.float32))\n"
                            "\n@triton.jit\n"
                            "def loop(x_ptr, off):\n"
                            "    p = x_ptr + tl.arange(0, 16)\n"
                            "    for i in range(2):\n"
                            "        p += off * i\n"
                            "        tl.store(p, tl.full((16,), 2.0, tl.float32))\n";
  char err[256];
  ttc_device *dev = NULL;
  assert_int_equal(ttc_device_open_interpreter(&dev, err, sizeof err), TTC_OK);
  uint64_t a = 0, b = 0;
  assert_int_equal(ttc_device_alloc(dev, 1024, &a), TTC_OK);
  assert_int_equal(ttc_device_alloc(dev, 1024, &b), TTC_OK);
  int64_t off = ((int64_t)b - (int64_t)a) / 4; /* x_ptr + off is b's first element */
  static const char *const names[] = {"k", "loop"};
  static const char *const lines[] = {"prov.py:7:", "prov.py:14:"};
  for (int t = 0; t < 2; t++) {
    ttc_compile_options o;
    ttc_compile_options_init(&o);
    o.stop_after = TTC_LEVEL_TTIR;
    ttc_kernel *k = NULL;
    assert_int_equal(ttc_compile(src, strlen(src), "prov.py", names[t], "*fp32,i64", &o, &k),
                     TTC_OK);
    ttc_module *mod = NULL;
    assert_int_equal(ttc_module_load(dev, k, &mod), TTC_OK);
    unsigned grid[3] = {1, 1, 1};
    ttc_arg inside[] = {ttc_arg_ptr(a), ttc_arg_i64(8)};
    assert_int_equal(ttc_module_launch(mod, grid, NULL, inside, 2), TTC_OK);
    ttc_arg other[] = {ttc_arg_ptr(a), ttc_arg_i64(off)};
    assert_int_equal(ttc_module_launch(mod, grid, NULL, other, 2), TTC_ERROR_OUT_OF_BOUNDS);
    const char *e = ttc_device_error(dev);
    assert_non_null(strstr(e, lines[t]));
    assert_non_null(strstr(e, "in program (0, 0, 0)"));
    assert_non_null(strstr(e, "the 1024-byte allocation at 0x"));
    assert_non_null(strstr(e, "that argument 'x_ptr' points into, inside another allocation"));
    char want[64];
    snprintf(want, sizeof want, "at offset %lld", (long long)(b - a));
    assert_non_null(strstr(e, want));
    /* b was not written */
    float got[4] = {0};
    assert_int_equal(ttc_device_copy_from(dev, got, b, sizeof got), TTC_OK);
    assert_true(got[0] == 0.0f);
    ttc_module_destroy(mod);
    ttc_kernel_destroy(k);
  }
  ttc_device_free(dev, a);
  ttc_device_free(dev, b);
  ttc_device_destroy(dev);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_long_sum_small_stack),
      cmocka_unit_test(test_nested_parens_small_stack),
      cmocka_unit_test(test_unary_chains_small_stack),
      cmocka_unit_test(test_too_deep_is_located_error),
      cmocka_unit_test(test_nesting_and_inlining_small_stack),
      cmocka_unit_test(test_limits_combined_small_stack),
      cmocka_unit_test(test_ir_nesting_small_stack),
      cmocka_unit_test(test_double_destroy_and_use_after_destroy),
      cmocka_unit_test(test_huge_lengths),
      cmocka_unit_test(test_files_refused),
      cmocka_unit_test(test_launch_checks_specialization),
      cmocka_unit_test(test_launch_checks_descriptor),
      cmocka_unit_test(test_interp_provenance),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
