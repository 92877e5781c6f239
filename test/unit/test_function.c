// SPDX-License-Identifier: MIT
/* test_function.c - kernel functions (ttc/function.h) on the CPU
 * interpreter: the specialization derived from argument values (Triton's
 * JIT rules, do_not_specialize) and the same ttir as the hand-written
 * signature; launches, reuse, the disk cache; heuristics with Python's
 * semantics; autotuning (the choice, reset_to_zero and restore_value, the
 * choice read back by another process without timing); launches from
 * several threads; and the errors. */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ttc_test.h"

#include "ttc/ttc.h"

#define EXAMPLES TTC_SOURCE_DIR "/examples"

static ttc_device *dev;
static char cache_dir[256];

static int setup(void **state) {
  (void)state;
  char err[256];
  snprintf(cache_dir, sizeof cache_dir, "/tmp/ttc-test-function-XXXXXX");
  if (!mkdtemp(cache_dir)) return -1;
  return ttc_device_open_interpreter(&dev, err, sizeof err) == TTC_OK ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  ttc_device_destroy(dev);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir);
  return system(cmd) == 0 ? 0 : -1;
}

static ttc_function_options options(void) {
  ttc_function_options o;
  ttc_function_options_init(&o);
  o.cache_dir = cache_dir;
  return o;
}

static ttc_function *make(const char *src, const char *name, const char *cexprs) {
  ttc_function_options o = options();
  ttc_function *f = NULL;
  ttc_status st = ttc_function_create(dev, src, strlen(src), "k.py", name, cexprs, &o, &f);
  if (st != TTC_OK) {
    char *e = ttc_function_error(f);
    fprintf(stderr, "create: %s\n", e);
    free(e);
  }
  assert_int_equal(st, TTC_OK);
  return f;
}

static ttc_function *make_file(const char *path, const char *name, const char *cexprs) {
  ttc_function_options o = options();
  ttc_function *f = NULL;
  assert_int_equal(ttc_function_create_file(dev, path, name, cexprs, &o, &f), TTC_OK);
  return f;
}

/* The signature a launch would use, checked against `want`. */
static void check_sig(ttc_function *f, const ttc_arg *args, size_t n, const char *want) {
  char *sig = NULL;
  ttc_status st = ttc_function_signature(f, args, n, &sig);
  if (st != TTC_OK) {
    char *e = ttc_function_error(f);
    fprintf(stderr, "signature: %s\n", e);
    free(e);
  }
  assert_int_equal(st, TTC_OK);
  assert_string_equal(sig, want);
  free(sig);
}

static ttc_function_stats stats(const ttc_function *f) {
  ttc_function_stats s;
  ttc_function_stats_get(f, &s);
  return s;
}

/* ---- specialization ----------------------------------------------------------------- */

#define F32(p) ttc_arg_ptr_to(TTC_TYPE_F32, (p))

static void test_specialization(void **state) {
  (void)state;
  ttc_function *f =
      make_file(EXAMPLES "/vector_add/vector_add.py", "add_kernel", "BLOCK_SIZE=1024");
  assert_int_equal(ttc_function_num_args(f), 4);
  assert_string_equal(ttc_function_arg_name(f, 3), "n_elements");
  assert_null(ttc_function_arg_name(f, 4));
  const uint64_t a = 0x10000, u = 0x10004; /* 16-byte aligned, and not */
  ttc_arg args[4] = {F32(a), F32(a), F32(a), ttc_arg_i32(4096)};
  check_sig(f, args, 4, "*fp32:16,*fp32:16,*fp32:16,i32:16,1024");
  args[3] = ttc_arg_i32(1000003);
  check_sig(f, args, 4, "*fp32:16,*fp32:16,*fp32:16,i32,1024");
  args[3] = ttc_arg_i32(1); /* equal to 1: a constant */
  check_sig(f, args, 4, "*fp32:16,*fp32:16,*fp32:16,1,1024");
  args[3] = ttc_arg_i32(0); /* 0 is divisible by 16 */
  check_sig(f, args, 4, "*fp32:16,*fp32:16,*fp32:16,i32:16,1024");
  args[3] = ttc_arg_i64(1LL << 40);
  args[1] = F32(u);
  args[2] = ttc_arg_ptr_to(TTC_TYPE_F16, a);
  check_sig(f, args, 4, "*fp32:16,*fp32,*fp16:16,i64:16,1024");
  args[3] = ttc_arg_u32(0x80000010u);
  check_sig(f, args, 4, "*fp32:16,*fp32,*fp16:16,u32:16,1024");
  ttc_function_destroy(f);

  static const char src[] =
      "import triton\nimport triton.language as tl\n\n"
      "@triton.jit(do_not_specialize=['n'], do_not_specialize_on_alignment=[0, 'm'])\n"
      "def k(x_ptr, n, m, s, f, BLOCK: tl.constexpr = 64):\n"
      "    offs = tl.arange(0, BLOCK)\n"
      "    tl.store(x_ptr + offs, offs.to(tl.float32) * f + n + m + s)\n";
  f = make(src, "k", "BLOCK=0x1e");
  ttc_arg c[5] = {F32(a), ttc_arg_i32(3), ttc_arg_i32(3), ttc_arg_i32(3), ttc_arg_f32(1.0f)};
  check_sig(f, c, 5, "*fp32,i32,i32,i32,fp32,30"); /* hex, not a float */
  ttc_function_destroy(f);
  f = make(src, "k", NULL);
  ttc_arg b[5] = {F32(a), ttc_arg_i32(32), ttc_arg_i32(32), ttc_arg_i32(32), ttc_arg_f32(1.0f)};
  check_sig(f, b, 5, "*fp32,i32,i32,i32:16,fp32,64");
  b[1] = ttc_arg_i32(1);
  b[2] = ttc_arg_i32(1);
  b[3] = ttc_arg_i32(1);
  check_sig(f, b, 5, "*fp32,i32,1,1,fp32,64");
  ttc_function_destroy(f);
}

/* The kernel a function compiles for given arguments is the kernel the
 * hand-written signature gives (the same ttir: specialization attributes,
 * folded constants and all). */
static void same_ttir(const char *path, const char *name, const char *cexprs, const ttc_arg *args,
                      size_t n, const char *sig) {
  ttc_function *f = make_file(path, name, cexprs);
  const ttc_kernel *fk = NULL;
  assert_int_equal(ttc_function_kernel(f, args, n, &fk), TTC_OK);
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = TTC_LEVEL_TTIR;
  ttc_kernel *k = NULL;
  assert_int_equal(ttc_compile_file(path, name, sig, &o, &k), TTC_OK);
  assert_string_equal(ttc_kernel_output(fk, TTC_LEVEL_TTIR, NULL),
                      ttc_kernel_output(k, TTC_LEVEL_TTIR, NULL));
  check_sig(f, args, n, sig);
  ttc_kernel_destroy(k);
  ttc_function_destroy(f);
}

static void test_same_kernel_as_signature(void **state) {
  (void)state;
  const uint64_t a = 0x20000;
  ttc_arg add[4] = {F32(a), F32(a), F32(a), ttc_arg_i32(1 << 20)};
  same_ttir(EXAMPLES "/vector_add/vector_add.py", "add_kernel", "BLOCK_SIZE=1024", add, 4,
            "*fp32:16,*fp32:16,*fp32:16,i32:16,1024");
  ttc_arg sm[5] = {F32(a), F32(a), ttc_arg_i32(781), ttc_arg_i32(781), ttc_arg_i32(781)};
  same_ttir(EXAMPLES "/softmax/softmax.py", "softmax_kernel", "BLOCK_SIZE=1024", sm, 5,
            "*fp32:16,*fp32:16,i32,i32,i32,1024");
  ttc_arg mm[12] = {ttc_arg_ptr_to(TTC_TYPE_F16, a),
                    ttc_arg_ptr_to(TTC_TYPE_F16, a),
                    ttc_arg_ptr_to(TTC_TYPE_F16, a),
                    ttc_arg_i32(512),
                    ttc_arg_i32(512),
                    ttc_arg_i32(100),
                    ttc_arg_i32(100),
                    ttc_arg_i32(1),
                    ttc_arg_i32(512),
                    ttc_arg_i32(1),
                    ttc_arg_i32(512),
                    ttc_arg_i32(1)};
  same_ttir(EXAMPLES "/matmul/matmul.py", "matmul_kernel",
            "BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, GROUP_SIZE_M=8", mm, 12,
            "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32,i32,1,i32:16,1,i32:16,1,64,64,32,8");
}

/* ---- launching ------------------------------------------------------------------------ */

/* Adds two vectors of n floats through f; checks every element. */
static void run_add(ttc_function *f, int n, int offset) {
  size_t bytes = (size_t)(n + offset) * sizeof(float);
  float *x = malloc(bytes), *y = malloc(bytes), *z = malloc(bytes);
  for (int i = 0; i < n + offset; i++) {
    x[i] = (float)i;
    y[i] = 0.5f * (float)i;
    z[i] = NAN;
  }
  uint64_t dx, dy, dz;
  assert_int_equal(ttc_device_alloc(dev, bytes, &dx), TTC_OK);
  assert_int_equal(ttc_device_alloc(dev, bytes, &dy), TTC_OK);
  assert_int_equal(ttc_device_alloc(dev, bytes, &dz), TTC_OK);
  ttc_device_copy_to(dev, dx, x, bytes);
  ttc_device_copy_to(dev, dy, y, bytes);
  ttc_device_copy_to(dev, dz, z, bytes);
  uint64_t o = (uint64_t)offset * sizeof(float);
  ttc_arg args[4] = {F32(dx + o), F32(dy + o), F32(dz + o), ttc_arg_i32(n)};
  unsigned grid[3] = {(unsigned)(n + 1023) / 1024, 1, 1};
  ttc_status st = ttc_function_launch(f, grid, NULL, args, 4);
  if (st != TTC_OK) {
    char *e = ttc_function_error(f);
    fprintf(stderr, "launch: %s\n", e);
    free(e);
  }
  assert_int_equal(st, TTC_OK);
  ttc_device_copy_from(dev, z, dz, bytes);
  for (int i = 0; i < n; i++)
    assert_true(z[offset + i] == x[offset + i] + y[offset + i]);
  ttc_device_free(dev, dx);
  ttc_device_free(dev, dy);
  ttc_device_free(dev, dz);
  free(x);
  free(y);
  free(z);
}

static void test_launch_and_reuse(void **state) {
  (void)state;
  ttc_function *f =
      make_file(EXAMPLES "/vector_add/vector_add.py", "add_kernel", "BLOCK_SIZE=1024");
  run_add(f, 4096, 0);
  run_add(f, 2048, 0);
  assert_int_equal(stats(f).variants, 1); /* same specialization */
  run_add(f, 3001, 0);
  run_add(f, 1, 0);  /* n == 1: the specialized-away argument */
  run_add(f, 64, 1); /* unaligned pointers */
  ttc_function_stats s = stats(f);
  assert_int_equal(s.variants, 4);
  assert_int_equal(s.compiles + s.cache_hits, 4);
  ttc_function_destroy(f);
  /* a new function finds them all in the disk cache */
  f = make_file(EXAMPLES "/vector_add/vector_add.py", "add_kernel", "BLOCK_SIZE=1024");
  run_add(f, 4096, 0);
  run_add(f, 1, 0);
  s = stats(f);
  assert_int_equal(s.cache_hits, 2);
  assert_int_equal(s.compiles, 0);
  ttc_function_destroy(f);
}

static void test_errors(void **state) {
  (void)state;
  static const char src[] = "import triton\nimport triton.language as tl\n\n"
                            "@triton.jit\n"
                            "def k(x_ptr, n, BLOCK: tl.constexpr, FLAG: tl.constexpr = True):\n"
                            "    offs = tl.arange(0, BLOCK)\n"
                            "    tl.store(x_ptr + offs, offs.to(tl.float32), mask=offs < n)\n";
  ttc_function_options o = options();
  ttc_function *f = NULL;
  struct {
    const char *cexprs, *want;
  } bad[] = {
      {NULL, "constexpr parameter 'BLOCK' of 'k' has no value"},
      {"BLOCK=64, NOPE=1", "'NOPE' is not a constexpr parameter of 'k'"},
      {"BLOCK=64, n=3", "'n' is not a constexpr parameter"},
      {"BLOCK", "expected NAME=VALUE"},
      {"BLOCK=sixty", "expected NAME=VALUE"},
      /* past 64 bits (it was cut to INT64_MAX), and a name given twice
       * (the last one won) */
      {"BLOCK=99999999999999999999", "expected NAME=VALUE"},
      {"BLOCK=64, BLOCK=128", "'BLOCK' is given twice"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_int_equal(ttc_function_create(dev, src, strlen(src), "k.py", "k", bad[i].cexprs, &o, &f),
                     TTC_ERROR_ARGUMENT);
    char *e = ttc_function_error(f);
    if (!strstr(e, bad[i].want)) fprintf(stderr, "got: %s\n", e);
    assert_non_null(strstr(e, bad[i].want));
    free(e);
    ttc_arg a = F32(0x1000);
    unsigned g[3] = {1, 1, 1};
    assert_int_equal(ttc_function_launch(f, g, NULL, &a, 1), TTC_ERROR_ARGUMENT);
    ttc_function_destroy(f);
  }
  assert_int_equal(ttc_function_create(dev, src, strlen(src), "k.py", "nope", "BLOCK=64", &o, &f),
                   TTC_ERROR_INPUT);
  ttc_function_destroy(f);

  f = make(src, "k", "BLOCK=64");
  uint64_t buf;
  assert_int_equal(ttc_device_alloc(dev, 256, &buf), TTC_OK);
  unsigned g[3] = {1, 1, 1};
  ttc_arg args[2] = {ttc_arg_ptr(buf), ttc_arg_i32(64)};
  assert_int_equal(ttc_function_launch(f, g, NULL, args, 2), TTC_ERROR_ARGUMENT);
  char *e = ttc_function_error(f);
  assert_non_null(strstr(e, "argument 0 ('x_ptr') is a pointer without an element type"));
  free(e);
  args[0] = F32(buf);
  assert_int_equal(ttc_function_launch(f, g, NULL, args, 1), TTC_ERROR_ARGUMENT);
  e = ttc_function_error(f);
  assert_non_null(strstr(e, "'k' takes 2 arguments, got 1"));
  free(e);
  args[1] = ttc_arg_f32(3.0f); /* a float where the kernel wants... whatever it is given */
  assert_int_equal(ttc_function_launch(f, g, NULL, args, 2), TTC_OK);
  args[1] = ttc_arg_i32(64);
  assert_int_equal(ttc_function_launch(f, g, NULL, args, 2), TTC_OK);
  ttc_device_free(dev, buf);
  ttc_function_destroy(f);

  /* a compile error surfaces at the launch that compiles, with diagnostics */
  static const char broken[] = "import triton\nimport triton.language as tl\n\n"
                               "@triton.jit\n"
                               "def k(x_ptr, BLOCK: tl.constexpr):\n"
                               "    offs = tl.arange(0, BLOCK)\n"
                               "    tl.store(x_ptr + offs, offs)\n";
  f = make(broken, "k", "BLOCK=48");
  ttc_arg one = F32(0x4000);
  assert_int_equal(ttc_function_launch(f, g, NULL, &one, 1), TTC_ERROR_INPUT);
  e = ttc_function_error(f);
  assert_non_null(strstr(e, "compiling 'k' for signature '*fp32:16,48'"));
  assert_non_null(strstr(e, "arange size must be a power of two"));
  free(e);
  ttc_function_destroy(f);
}

/* Decorator arguments that are not literals are refused at creation, with
 * the location. */
static void test_unsupported_decorators(void **state) {
  (void)state;
  static const char src[] =
      "import triton\nimport triton.language as tl\n\n"
      "@triton.autotune(configs=[triton.Config({'B': b}) for b in [32, 64]], key=['n'])\n"
      "@triton.jit\n"
      "def k(x_ptr, n, B: tl.constexpr):\n"
      "    tl.store(x_ptr + tl.arange(0, B), 1.0)\n";
  ttc_function_options o = options();
  ttc_function *f = NULL;
  ttc_status st = ttc_function_create(dev, src, strlen(src), "k.py", "k", NULL, &o, &f);
  assert_int_not_equal(st, TTC_OK);
  char *e = ttc_function_error(f);
  assert_non_null(strstr(e, "k.py:4:"));
  free(e);
  ttc_function_destroy(f);
  static const char heur[] =
      "import triton\nimport triton.language as tl\n\n"
      "@triton.heuristics({'B': lambda args: args['x_ptr'].dtype.itemsize * 8})\n"
      "@triton.jit\n"
      "def k(x_ptr, n, B: tl.constexpr):\n"
      "    tl.store(x_ptr + tl.arange(0, B), 1.0)\n";
  st = ttc_function_create(dev, heur, strlen(heur), "k.py", "k", NULL, &o, &f);
  assert_int_equal(st, TTC_ERROR_INPUT);
  e = ttc_function_error(f);
  assert_non_null(strstr(e, "k.py:4:"));
  assert_non_null(strstr(e, "unsupported in a heuristic"));
  free(e);
  ttc_function_destroy(f);
}

/* ---- heuristics ---------------------------------------------------------------------- */

static const char heur_src[] =
    "import triton\nimport triton.language as tl\n\n"
    "@triton.heuristics({'BLOCK': lambda args: min(triton.next_power_of_2(args['n']), 1024),\n"
    "                    'EVEN': lambda args: args['n'] % args['BLOCK'] == 0,\n"
    "                    'Q': lambda args: -7 // 2 if args['n'] > 5 and not args['n'] == 9 else (-7 % 3) * 10,\n"
    "                    'R': lambda args: triton.cdiv(args['n'], 3) + max(args['s'], 2.5) // 1 + abs(-2) ** 3})\n"
    "@triton.jit\n"
    "def h(x_ptr, n, s, BLOCK: tl.constexpr, EVEN: tl.constexpr, Q: tl.constexpr, R: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    if EVEN:\n"
    "        tl.store(x_ptr + offs, offs.to(tl.float32) + Q + R)\n"
    "    else:\n"
    "        tl.store(x_ptr + offs, offs.to(tl.float32) + Q + R, mask=offs < n)\n";

static void test_heuristics(void **state) {
  (void)state;
  ttc_function *f = make(heur_src, "h", NULL);
  uint64_t buf;
  assert_int_equal(ttc_device_alloc(dev, 4096, &buf), TTC_OK);
  ttc_arg a[3] = {F32(buf), ttc_arg_i32(100), ttc_arg_f32(1.0f)};
  /* n=100: BLOCK 128, 100 % 128 != 0, Q = -7 // 2 = -4, R = 34 + 2.0 + 8 = 44.0 */
  check_sig(f, a, 3, "*fp32:16,i32,fp32,128,False,-4,44.0");
  a[1] = ttc_arg_i32(3); /* BLOCK 4, Q = (-7 % 3) * 10 = 20, R = 1 + 2.0 + 8 */
  check_sig(f, a, 3, "*fp32:16,i32,fp32,4,False,20,11.0");
  a[1] = ttc_arg_i32(9); /* the `and not` sends 9 to the else branch */
  check_sig(f, a, 3, "*fp32:16,i32,fp32,16,False,20,13.0");
  a[1] = ttc_arg_i32(16);
  a[2] = ttc_arg_f32(7.0f); /* max(7.0, 2.5) // 1 = 7.0 */
  check_sig(f, a, 3, "*fp32:16,i32:16,fp32,16,True,-4,21.0");
  /* and it runs: EVEN stores every lane */
  unsigned g[3] = {1, 1, 1};
  assert_int_equal(ttc_function_launch(f, g, NULL, a, 3), TTC_OK);
  float out[16];
  ttc_device_copy_from(dev, out, buf, sizeof out);
  for (int i = 0; i < 16; i++)
    assert_true(out[i] == (float)i - 4 + 21);
  a[1] = ttc_arg_i32(100);
  assert_int_equal(ttc_function_launch(f, g, NULL, a, 3), TTC_OK);
  assert_int_equal(stats(f).variants, 2);
  ttc_device_free(dev, buf);
  ttc_function_destroy(f);
}

/* Python's ints have no bound: heuristics evaluate in 128 bits, and an
 * operation whose result does not fit there is a located error at its
 * operator, never a wrapped value; cdiv near the top still works. One
 * heuristic, its case picked by s. */
static const char heur_overflow_src[] =
    "import triton\nimport triton.language as tl\n\n"
    "@triton.heuristics({'B': lambda args: args['n'] * args['n'] * args['n'] * args['n'] if\n"
    "    args['s'] == 0 else args['n'] ** 100 if args['s'] == 1 else\n"
    "    triton.cdiv(args['n'], 64) if args['s'] == 2 else abs(args['n'] * 2**64) if args['s'] == 3\n"
    "    else triton.next_power_of_2(args['n'] * 2**64) if args['s'] == 4 else\n"
    "    -(args['n'] * 2**64) if args['s'] == 5 else args['n'] << 66 if args['s'] == 6 else\n"
    "    int(args['n'] * 1e300) if args['s'] == 7 else args['n'] * 2**64 // -1})\n"
    "@triton.jit\n"
    "def h(x_ptr, n, s, B: tl.constexpr):\n"
    "    tl.store(x_ptr, B)\n";

static void test_heuristic_overflow(void **state) {
  (void)state;
  ttc_function *f = make(heur_overflow_src, "h", NULL);
  struct {
    int s;
    int64_t n;
    const char *at; /* the operator's line */
  } bad[] = {{0, INT64_C(1) << 32, "k.py:4:"},
             {1, 3, "k.py:5:"},
             {3, INT64_MIN, "k.py:6:"},
             {4, (INT64_C(1) << 62) + 1, "k.py:7:"},
             {5, INT64_MIN, "k.py:8:"},
             {6, INT64_C(1) << 62, "k.py:8:"},
             {7, 1, "k.py:9:"},
             {8, INT64_MIN, "k.py:9:"}};
  for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
    ttc_arg a[3] = {ttc_arg_ptr_to(TTC_TYPE_I64, 4096), ttc_arg_i64(bad[c].n),
                    ttc_arg_i32(bad[c].s)};
    char *sig = NULL;
    assert_int_not_equal(ttc_function_signature(f, a, 3, &sig), TTC_OK);
    char *e = ttc_function_error(f);
    if (!strstr(e, bad[c].at) || !strstr(e, "does not fit in 128 bits"))
      fprintf(stderr, "case %d: %s\n", bad[c].s, e);
    assert_non_null(strstr(e, bad[c].at));
    assert_non_null(strstr(e, "the integer result does not fit in 128 bits"));
    free(e);
  }
  ttc_arg a[3] = {ttc_arg_ptr_to(TTC_TYPE_I64, 4096), ttc_arg_i64(INT64_MAX), ttc_arg_i32(2)};
  check_sig(f, a, 3, "*i64:16,i64,i32,144115188075855872"); /* cdiv(2^63 - 1, 64) */
  a[1] = ttc_arg_i64(INT64_C(1) << 62);
  a[2] = ttc_arg_i32(0); /* (2^62)^4 = 2^248: the first product past 2^127 fails */
  char *sig = NULL;
  assert_int_not_equal(ttc_function_signature(f, a, 3, &sig), TTC_OK);
  ttc_function_destroy(f);
}

/* Values past 2^63 in between, as Python computes them: a u64 argument
 * above 2^63 - 1, and a product that only a later division brings back; a
 * heuristic's value outside 64 bits (ttc's constexprs) is a located error
 * that prints the value. */
static void test_heuristic_wide(void **state) {
  (void)state;
  static const char src[] =
      "import triton\nimport triton.language as tl\n\n"
      "@triton.heuristics({'B': lambda args: args['n'] // 4 if args['s'] == 0 else\n"
      "    args['n'] * 2 // 4 if args['s'] == 1 else\n"
      "    args['n'] - 2**64 if args['s'] == 2 else args['n'] > 2**63 if args['s'] == 3 else\n"
      "    args['n']})\n"
      "@triton.jit\n"
      "def h(x_ptr, n, s, B: tl.constexpr):\n"
      "    tl.store(x_ptr, B)\n";
  ttc_function *f = make(src, "h", NULL);
  ttc_arg a[3] = {ttc_arg_ptr_to(TTC_TYPE_I64, 4096), ttc_arg_u64(UINT64_MAX), ttc_arg_i32(0)};
  check_sig(f, a, 3, "*i64:16,u64,i32:16,4611686018427387903");
  a[2] = ttc_arg_i32(1);
  check_sig(f, a, 3, "*i64:16,u64,1,9223372036854775807");
  a[2] = ttc_arg_i32(2);
  check_sig(f, a, 3, "*i64:16,u64,i32,-1");
  a[2] = ttc_arg_i32(3);
  check_sig(f, a, 3, "*i64:16,u64,i32,True");
  a[2] = ttc_arg_i32(4);
  char *sig = NULL;
  assert_int_not_equal(ttc_function_signature(f, a, 3, &sig), TTC_OK);
  char *e = ttc_function_error(f);
  assert_non_null(strstr(e, "k.py:4:"));
  assert_non_null(strstr(e, "the value 18446744073709551615 does not fit in a 64-bit constexpr"));
  free(e);
  /* a signed argument at the bottom: -2^64 fits in between */
  a[1] = ttc_arg_i64(INT64_MIN);
  a[2] = ttc_arg_i32(1); /* -2^63 * 2 // 4 = -2^62 */
  check_sig(f, a, 3, "*i64:16,i64:16,1,-4611686018427387904");
  ttc_function_destroy(f);
}

/* triton.cdiv(n, d) is (n + d - 1) // d as Python computes it, for every
 * sign and up to the ends of 64 bits, without the sum that may not fit
 * (d = INT64_MIN gave -1 for n = 0 and an error for n = 5). */
static void test_heuristic_cdiv(void **state) {
  (void)state;
  static const char src[] =
      "import triton\nimport triton.language as tl\n\n"
      "@triton.heuristics({'B': lambda args: triton.cdiv(args['n'], args['d'])})\n"
      "@triton.jit\n"
      "def h(x_ptr, n, d, B: tl.constexpr):\n"
      "    tl.store(x_ptr, B)\n";
  ttc_function *f = make(src, "h", NULL);
  struct {
    int64_t n, d;
    const char *sig;
  } cases[] = {{0, INT64_MIN, "*i64:16,i64:16,i64:16,1"},
               {5, INT64_MIN, "*i64:16,i64,i64:16,0"},
               {INT64_MIN, -2, "*i64:16,i64:16,i64,4611686018427387905"},
               {7, -2, "*i64:16,i64,i64,-2"},
               {-7, 2, "*i64:16,i64,i64,-3"},
               {INT64_MAX, 1, "*i64:16,i64,1,9223372036854775807"},
               {-1, INT64_MIN, "*i64:16,i64,i64:16,1"}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    ttc_arg a[3] = {ttc_arg_ptr_to(TTC_TYPE_I64, 4096), ttc_arg_i64(cases[c].n),
                    ttc_arg_i64(cases[c].d)};
    check_sig(f, a, 3, cases[c].sig);
  }
  ttc_function_destroy(f);
}

/* Repeated keys of a heuristics dict and of an autotune key list: as in
 * Python, a repeated dict key keeps its place and takes the last value; the
 * launch keys are sized for one entry a parameter (300 repeats overflowed
 * them on the stack). */
static void test_repeated_keys(void **state) {
  (void)state;
  static char src[32768];
  size_t n = (size_t)snprintf(src, sizeof src,
                              "import triton\nimport triton.language as tl\n\n"
                              "@triton.autotune(configs=[triton.Config({})], key=[");
  for (int i = 0; i < 300; i++)
    n += (size_t)snprintf(src + n, sizeof src - n, "'n', ");
  n += (size_t)snprintf(src + n, sizeof src - n, "])\n@triton.heuristics({");
  for (int i = 0; i < 300; i++)
    n += (size_t)snprintf(src + n, sizeof src - n, "'B': lambda args: %d, ", i + 1);
  snprintf(src + n, sizeof src - n,
           "})\n@triton.jit\ndef k(x_ptr, n, B: tl.constexpr):\n"
           "    tl.store(x_ptr + tl.arange(0, 4), n + B)\n");
  ttc_function *f = make(src, "k", NULL);
  uint64_t buf;
  assert_int_equal(ttc_device_alloc(dev, 16, &buf), TTC_OK);
  ttc_arg a[2] = {ttc_arg_ptr_to(TTC_TYPE_I32, buf), ttc_arg_i32(7)};
  check_sig(f, a, 2, "*i32:16,i32,300");
  unsigned g[3] = {1, 1, 1};
  assert_int_equal(ttc_function_launch(f, g, NULL, a, 2), TTC_OK);
  int32_t out[4];
  ttc_device_copy_from(dev, out, buf, sizeof out);
  assert_int_equal(out[3], 307);
  ttc_device_free(dev, buf);
  ttc_function_destroy(f);
}

/* A device refuses destroy while a kernel function made on it is alive,
 * launched or not (before, only loaded modules counted, so a function that
 * had not launched yet kept a dangling device). */
static void test_device_outlives_functions(void **state) {
  (void)state;
  ttc_device *d2 = NULL;
  char err[256];
  assert_int_equal(ttc_device_open_interpreter(&d2, err, sizeof err), TTC_OK);
  ttc_function_options o = options();
  ttc_function *f = NULL;
  assert_int_equal(ttc_function_create(d2, heur_src, strlen(heur_src), "k.py", "h", NULL, &o, &f),
                   TTC_OK);
  assert_int_equal(ttc_device_destroy(d2), TTC_ERROR_ARGUMENT);
  assert_non_null(strstr(ttc_device_error(d2), "0 modules and 1 kernel functions are still alive"));
  assert_int_equal(ttc_function_destroy(f), TTC_OK);
  assert_int_equal(ttc_device_destroy(d2), TTC_OK);
  /* a destroyed device makes no function */
  assert_int_equal(ttc_function_create(d2, heur_src, strlen(heur_src), "k.py", "h", NULL, &o, &f),
                   TTC_ERROR_ARGUMENT);
  assert_null(f);
}

/* ---- autotuning ---------------------------------------------------------------------- */

static const char tune_src[] =
    "import triton\nimport triton.language as tl\n\n"
    "@triton.autotune(configs=[triton.Config({'BLOCK': 32}, num_warps=1),\n"
    "                          triton.Config({'BLOCK': 64}, num_warps=2),\n"
    "                          triton.Config({'BLOCK': 128}, num_warps=4, num_stages=2)],\n"
    "                 key=['n'])\n"
    "@triton.jit\n"
    "def twice(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    m = offs < n\n"
    "    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2.0, mask=m)\n";

/* Triton's grid lambda: (cdiv(n, META['BLOCK']),). */
static void grid_n_block(const ttc_launch_meta *meta, void *user, unsigned grid[3]) {
  int64_t n = 0, block = 0;
  assert_true(ttc_launch_meta_int(meta, "n", &n));
  assert_true(ttc_launch_meta_int(meta, "BLOCK", &block));
  assert_false(ttc_launch_meta_int(meta, "x_ptr", &n)); /* a pointer is no integer */
  assert_false(ttc_launch_meta_int(meta, "nope", &n));
  grid[0] = (unsigned)((n + block - 1) / block);
  (*(int *)user)++;
}

static void run_twice(ttc_function *f, int n) {
  size_t bytes = (size_t)n * sizeof(float);
  float *x = malloc(bytes), *y = malloc(bytes);
  for (int i = 0; i < n; i++) {
    x[i] = (float)i;
    y[i] = NAN;
  }
  uint64_t dx, dy;
  ttc_device_alloc(dev, bytes, &dx);
  ttc_device_alloc(dev, bytes, &dy);
  ttc_device_copy_to(dev, dx, x, bytes);
  ttc_device_copy_to(dev, dy, y, bytes);
  ttc_arg args[3] = {F32(dx), F32(dy), ttc_arg_i32(n)};
  int calls = 0;
  ttc_status st = ttc_function_launch_grid(f, grid_n_block, &calls, NULL, args, 3);
  if (st != TTC_OK) {
    char *e = ttc_function_error(f);
    fprintf(stderr, "launch: %s\n", e);
    free(e);
  }
  assert_int_equal(st, TTC_OK);
  assert_true(calls >= 1);
  ttc_device_copy_from(dev, y, dy, bytes);
  for (int i = 0; i < n; i++)
    assert_true(y[i] == 2.0f * (float)i);
  ttc_device_free(dev, dx);
  ttc_device_free(dev, dy);
  free(x);
  free(y);
}

static void on_message(void *user, const char *msg) {
  char *log = user;
  strncat(log, msg, 8191 - strlen(log));
  strncat(log, "\n", 8191 - strlen(log));
}

static void test_autotune(void **state) {
  (void)state;
  static char log[8192];
  log[0] = '\0';
  ttc_function_options o = options();
  o.on_message = on_message;
  o.message_user = log;
  ttc_function *f = NULL;
  assert_int_equal(
      ttc_function_create(dev, tune_src, strlen(tune_src), "t.py", "twice", NULL, &o, &f), TTC_OK);
  run_twice(f, 1000);
  ttc_function_stats s = stats(f);
  assert_int_equal(s.tunings, 1);
  assert_int_equal(s.tunings_cached, 0);
  assert_true(s.benchmark_runs >= 3);
  assert_int_equal(s.variants, 3); /* every config compiled */
  /* the report: each config timed, then the choice */
  assert_non_null(strstr(
      log, "autotune twice (n=1000): config 0 {{'BLOCK': 32}, num_warps=1, num_stages=3}: "));
  assert_non_null(strstr(log, "config 2 {{'BLOCK': 128}, num_warps=4, num_stages=2}"));
  assert_non_null(strstr(log, "autotune twice (n=1000): chose config "));
  /* the same key: no timing; another key: tuned again */
  run_twice(f, 1000);
  assert_int_equal(stats(f).tunings, 1);
  run_twice(f, 1024);
  s = stats(f);
  assert_int_equal(s.tunings, 2);
  ttc_function_destroy(f);

  /* Another process: the choices come from the cache, nothing is timed. */
  pid_t kid = fork();
  assert_true(kid >= 0);
  if (kid == 0) {
    char err[128];
    ttc_device *d2 = NULL;
    ttc_function *g = NULL;
    ttc_function_options o2 = options();
    if (ttc_device_open_interpreter(&d2, err, sizeof err) != TTC_OK) _exit(10);
    if (ttc_function_create(d2, tune_src, strlen(tune_src), "t.py", "twice", NULL, &o2, &g) !=
        TTC_OK)
      _exit(11);
    dev = d2;
    run_twice(g, 1000);
    run_twice(g, 1024);
    ttc_function_stats cs;
    ttc_function_stats_get(g, &cs);
    char *m = ttc_function_messages(g);
    int ok = cs.tunings == 0 && cs.tunings_cached == 2 && cs.benchmark_runs == 0 &&
             cs.variants == 2 && cs.compiles == 0 && strstr(m, "from the cache");
    free(m);
    ttc_function_destroy(g);
    ttc_device_destroy(d2);
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  assert_int_equal(waitpid(kid, &status, 0), kid);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 0);

  /* autotune off: the first config, nothing timed */
  o = options();
  o.autotune = 0;
  assert_int_equal(
      ttc_function_create(dev, tune_src, strlen(tune_src), "t.py", "twice", NULL, &o, &f), TTC_OK);
  run_twice(f, 777);
  s = stats(f);
  assert_int_equal(s.tunings + s.tunings_cached + s.benchmark_runs, 0);
  ttc_arg args[3] = {F32(0x100), F32(0x100), ttc_arg_i32(777)};
  check_sig(f, args, 3, "*fp32:16,*fp32:16,i32,32");
  ttc_function_destroy(f);
}

/* reset_to_zero: the accumulated output is zeroed before every timed run
 * and before the real one; restore_value: an in-place update is undone
 * after every timed run. Either way the result is one launch's. */
static void test_autotune_hooks(void **state) {
  (void)state;
  static const char src[] =
      "import triton\nimport triton.language as tl\n\n"
      "@triton.autotune(configs=[triton.Config({'BLOCK': 32}), triton.Config({'BLOCK': 64})],\n"
      "                 key=['n'], reset_to_zero=['out'])\n"
      "@triton.jit\n"
      "def total(x_ptr, out, n, BLOCK: tl.constexpr):\n"
      "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
      "    tl.atomic_add(out, tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0))\n"
      "\n"
      "@triton.autotune(configs=[triton.Config({'BLOCK': 32}), triton.Config({'BLOCK': 64})],\n"
      "                 key=['n'], restore_value=['x_ptr'])\n"
      "@triton.jit\n"
      "def inc(x_ptr, n, BLOCK: tl.constexpr):\n"
      "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
      "    m = offs < n\n"
      "    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=m) + 1.0, mask=m)\n";
  enum { N = 1000 };
  float x[N], out = 123.0f;
  for (int i = 0; i < N; i++)
    x[i] = 1.0f;
  uint64_t dx, dout;
  ttc_device_alloc(dev, sizeof x, &dx);
  ttc_device_alloc(dev, sizeof out, &dout);
  ttc_device_copy_to(dev, dx, x, sizeof x);
  ttc_device_copy_to(dev, dout, &out, sizeof out);
  int calls = 0;
  ttc_function *f = make(src, "total", NULL);
  ttc_arg a[3] = {F32(dx), F32(dout), ttc_arg_i32(N)};
  assert_int_equal(ttc_function_launch_grid(f, grid_n_block, &calls, NULL, a, 3), TTC_OK);
  assert_true(stats(f).benchmark_runs >= 2);
  ttc_device_copy_from(dev, &out, dout, sizeof out);
  assert_true(out == (float)N);
  ttc_function_destroy(f);

  f = make(src, "inc", NULL);
  ttc_arg b[2] = {F32(dx), ttc_arg_i32(N)};
  assert_int_equal(ttc_function_launch_grid(f, grid_n_block, &calls, NULL, b, 2), TTC_OK);
  assert_true(stats(f).benchmark_runs >= 2);
  ttc_device_copy_from(dev, x, dx, sizeof x);
  for (int i = 0; i < N; i++)
    assert_true(x[i] == 2.0f);
  ttc_function_destroy(f);
  ttc_device_free(dev, dx);
  ttc_device_free(dev, dout);
}

/* ---- threads ----------------------------------------------------------------------- */

typedef struct thread_job {
  ttc_function *f;
  uint64_t x, y, z;
  int n, failures;
} thread_job;

static void *thread_main(void *p) {
  thread_job *j = p;
  for (int r = 0; r < 20; r++) {
    int n = j->n - (r % 2) * 7; /* two specializations per thread */
    ttc_arg args[4] = {F32(j->x), F32(j->y), F32(j->z), ttc_arg_i32(n)};
    unsigned grid[3] = {(unsigned)(n + 1023) / 1024, 1, 1};
    if (ttc_function_launch(j->f, grid, NULL, args, 4) != TTC_OK) j->failures++;
  }
  return NULL;
}

static void test_threads(void **state) {
  (void)state;
  enum { T = 4, N = 4096 };
  ttc_function *f =
      make_file(EXAMPLES "/vector_add/vector_add.py", "add_kernel", "BLOCK_SIZE=1024");
  thread_job jobs[T];
  pthread_t tids[T];
  float x[N], y[N], z[N];
  for (int i = 0; i < N; i++) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }
  for (int t = 0; t < T; t++) {
    jobs[t] = (thread_job){f, 0, 0, 0, N - 16 * t, 0};
    ttc_device_alloc(dev, sizeof x, &jobs[t].x);
    ttc_device_alloc(dev, sizeof y, &jobs[t].y);
    ttc_device_alloc(dev, sizeof z, &jobs[t].z);
    ttc_device_copy_to(dev, jobs[t].x, x, sizeof x);
    ttc_device_copy_to(dev, jobs[t].y, y, sizeof y);
  }
  for (int t = 0; t < T; t++)
    assert_int_equal(pthread_create(&tids[t], NULL, thread_main, &jobs[t]), 0);
  for (int t = 0; t < T; t++)
    pthread_join(tids[t], NULL);
  for (int t = 0; t < T; t++) {
    assert_int_equal(jobs[t].failures, 0);
    ttc_device_copy_from(dev, z, jobs[t].z, sizeof z);
    for (int i = 0; i < jobs[t].n; i++)
      assert_true(z[i] == x[i] + 1.0f);
    ttc_device_free(dev, jobs[t].x);
    ttc_device_free(dev, jobs[t].y);
    ttc_device_free(dev, jobs[t].z);
  }
  /* n divisible by 16 and not: two specializations, each built once */
  assert_int_equal(stats(f).variants, 2);
  ttc_function_destroy(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_specialization),
      cmocka_unit_test(test_same_kernel_as_signature),
      cmocka_unit_test(test_launch_and_reuse),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_unsupported_decorators),
      cmocka_unit_test(test_heuristics),
      cmocka_unit_test(test_heuristic_overflow),
      cmocka_unit_test(test_heuristic_wide),
      cmocka_unit_test(test_heuristic_cdiv),
      cmocka_unit_test(test_repeated_keys),
      cmocka_unit_test(test_device_outlives_functions),
      cmocka_unit_test(test_autotune),
      cmocka_unit_test(test_autotune_hooks),
      cmocka_unit_test(test_threads),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
