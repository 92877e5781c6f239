/* test_signature.c - Triton AOT signatures (parsing, located errors,
 * matching against parameters) and fe_lower_kernel end to end: the kernel
 * ABI, the ttir it produces for each language feature, and its located
 * diagnostics. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttc_test.h"

#include "frontend/fe.h"
#include "lower_fixture.h"

/* ---- signature parsing --------------------------------------------------------- */

typedef struct sig_fixture {
  ir_context *ctx;
  ir_arena arena;
  fe_sig_entry *e;
  int n;
} sig_fixture;

static void sig_parse(sig_fixture *f, const char *sig) {
  f->ctx = ir_context_create();
  ir_arena_init(&f->arena);
  f->n = fe_parse_signature(f->ctx, sig, &f->arena, &f->e);
}

static void sig_done(sig_fixture *f) {
  ir_arena_free(&f->arena);
  ir_context_destroy(f->ctx);
}

static void expect_first_error(ir_context *ctx, const char *file, unsigned line, unsigned col,
                               const char *msg) {
  for (size_t k = 0; k < ir_context_num_diags(ctx); k++) {
    const ir_diag *d = ir_context_diag(ctx, k);
    if (d->sev != IR_SEV_ERROR) continue;
    assert_string_equal(d->msg, msg);
    assert_non_null(d->loc.src);
    assert_string_equal(d->loc.src->name, file);
    assert_int_equal(d->loc.line, line);
    assert_int_equal(d->loc.col, col);
    return;
  }
  fail_msg("no error reported");
}

static void test_sig_types(void **state) {
  (void)state;
  sig_fixture f;
  sig_parse(&f, "*fp32:16, *i8,*bf16,i1,i64:16,u8,fp16,fp64");
  assert_int_equal(f.n, 8);
  assert_int_equal(f.e[0].type, TTC_TYPE_PTR);
  assert_int_equal(f.e[0].pointee, TTC_TYPE_F32);
  assert_int_equal(f.e[0].divisibility, 16);
  assert_int_equal(f.e[1].pointee, TTC_TYPE_I8);
  assert_int_equal(f.e[1].divisibility, 0);
  assert_int_equal(f.e[2].pointee, TTC_TYPE_BF16);
  assert_int_equal(f.e[3].type, TTC_TYPE_I1);
  assert_int_equal(f.e[4].type, TTC_TYPE_I64);
  assert_int_equal(f.e[4].divisibility, 16);
  assert_int_equal(f.e[5].type, TTC_TYPE_U8);
  assert_int_equal(f.e[6].type, TTC_TYPE_F16);
  assert_int_equal(f.e[7].type, TTC_TYPE_F64);
  assert_false(f.e[7].is_value);
  assert_int_equal(f.e[1].loc.col, 11); /* after ", " */
  sig_done(&f);
}

static void test_sig_values(void **state) {
  (void)state;
  sig_fixture f;
  sig_parse(&f, "1024,0.5,True,False,-3");
  assert_int_equal(f.n, 5);
  assert_true(f.e[0].is_value);
  assert_int_equal(f.e[0].const_kind, FE_CONST_INT);
  assert_int_equal(f.e[0].ival, 1024);
  assert_string_equal(f.e[0].text, "1024");
  assert_int_equal(f.e[1].const_kind, FE_CONST_FLOAT);
  assert_true(f.e[1].fval == 0.5);
  assert_int_equal(f.e[2].const_kind, FE_CONST_BOOL);
  assert_int_equal(f.e[2].ival, 1);
  assert_int_equal(f.e[3].ival, 0);
  assert_int_equal(f.e[4].ival, -3);
  sig_done(&f);
}

static void test_sig_empty(void **state) {
  (void)state;
  sig_fixture f;
  sig_parse(&f, "");
  assert_int_equal(f.n, 0);
  assert_int_equal(ir_context_num_errors(f.ctx), 0);
  sig_done(&f);
}

static void test_sig_error_unknown_type(void **state) {
  (void)state;
  sig_fixture f;
  sig_parse(&f, "*fp32,*fp33,i32");
  assert_int_equal(f.n, -1);
  expect_first_error(f.ctx, "<signature>", 1, 8,
                     "unknown type 'fp33' in signature, expected one of i1, i8, i16, i32, i64, "
                     "u8, u16, u32, u64, fp16, bf16, fp32, fp64, or a constexpr value (a number, "
                     "True, False, None, 'a string', tl.float16)");
  sig_done(&f);
}

static void test_sig_error_bad_number(void **state) {
  (void)state;
  sig_fixture f;
  sig_parse(&f, "i32, 12x4");
  assert_int_equal(f.n, -1);
  expect_first_error(f.ctx, "<signature>", 1, 6, "invalid number '12x4' in signature");
  sig_done(&f);
}

static void test_sig_error_bad_hint(void **state) {
  (void)state;
  sig_fixture f;
  sig_parse(&f, "*fp32:8");
  assert_int_equal(f.n, -1);
  expect_first_error(f.ctx, "<signature>", 1, 7,
                     "invalid specialization hint ':8', expected ':16'");
  sig_done(&f);
}

static void test_sig_error_empty_entry(void **state) {
  (void)state;
  sig_fixture f;
  sig_parse(&f, "i32,,i32");
  assert_int_equal(f.n, -1);
  expect_first_error(f.ctx, "<signature>", 1, 5, "empty signature entry");
  sig_done(&f);
}

/* ---- lowering ------------------------------------------------------------------ */

static void expect_no_ir(const lower_fixture *f, const char *needle) {
  if (f->ir && strstr(f->ir, needle)) fail_msg("'%s' unexpectedly in IR:\n%s", needle, f->ir);
}

static const char *const add_src = "@triton.jit\n"
                                   "def add(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):\n"
                                   "    pid = tl.program_id(0)\n"
                                   "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
                                   "    m = offs < n\n"
                                   "    x = tl.load(x_ptr + offs, mask=m)\n"
                                   "    y = tl.load(y_ptr + offs, mask=m)\n"
                                   "    tl.store(z_ptr + offs, x + y, mask=m)\n";

static void test_lower_vector_add(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f, add_src, "add", "*fp32:16,*fp32:16,*fp32:16,i32,1024"));
  expect_ir(&f, "tt.func public @add(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, "
                "%y_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %z_ptr: !tt.ptr<f32> "
                "{tt.divisibility = 16 : i32}, %n: i32)");
  expect_ir(&f, "%pid = tt.get_program_id x : i32");
  expect_ir(&f, "arith.constant 1024 : i32");
  expect_ir(&f, "%offs = arith.muli %pid, %c1024_i32 : i32");
  expect_ir(&f, "tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>");
  expect_ir(&f, "arith.cmpi slt");
  expect_ir(&f, "tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>");
  expect_ir(&f, "tt.addptr");
  expect_ir(&f, "tt.load");
  expect_ir(&f, "arith.addf");
  expect_ir(&f, "tt.store");
  expect_ir(&f, "tt.return");
  assert_int_equal(count_ir(&f, "tt.load"), 2);
  /* the ABI: constexprs are not arguments */
  assert_int_equal(f.info.nparams, 5);
  assert_true(f.info.params[4].is_constexpr);
  assert_string_equal(f.info.params[4].value_text, "1024");
  assert_int_equal(f.info.params[0].type, TTC_TYPE_PTR);
  assert_int_equal(f.info.params[0].pointee, TTC_TYPE_F32);
  assert_int_equal(f.info.params[0].divisibility, 16);
  assert_int_equal(f.info.params[3].type, TTC_TYPE_I32);
  ir_op *fn = ir_module_lookup_func(f.m, "add");
  assert_non_null(fn);
  assert_int_equal(ir_region_entry(&fn->regions[0])->nargs, 4);
  assert_int_equal(f.m->op->loc.line, 5); /* the module points at the def */
  lower_done(&f);
}

static void test_lower_missing_kernel(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f, add_src, "mul", "*fp32"));
  expect_first_error(f.ctx, "k.py", 1, 1, "no function named 'mul' in 'k.py'");
  lower_done(&f);
}

static void test_lower_arity_mismatch(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f, add_src, "add", "*fp32,*fp32,*fp32,i32"));
  expect_first_error(f.ctx, "k.py", 5, 1,
                     "signature has 4 entries but kernel 'add' has 5 parameters");
  lower_done(&f);
}

static void test_lower_constexpr_needs_value(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f, add_src, "add", "*fp32,*fp32,*fp32,i32,*i32"));
  expect_first_error(
      f.ctx, "<signature>", 1, 23,
      "constexpr parameter 'BLOCK' needs a value in the signature, found type '*i32'");
  lower_done(&f);
}

/* A value for a runtime parameter specializes it: baked in, out of the ABI. */
static void test_lower_runtime_param_specialized(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f, add_src, "add", "*fp32,*fp32,*fp32,5,64"));
  assert_int_equal(f.info.nparams, 5);
  assert_true(f.info.params[3].is_constexpr);
  assert_true(f.info.params[3].is_specialized);
  assert_string_equal(f.info.params[3].value_text, "5");
  lower_done(&f);
}

static void test_lower_arange_not_pow2(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f, "@triton.jit\ndef k(p):\n    offs = tl.arange(0, 48)\n", "k", "*fp32"));
  expect_first_error(f.ctx, "k.py", 6, 25, "arange size must be a power of two, got 48");
  assert_non_null(strstr(f.diags, "k.py:5:1: note: in kernel 'k'"));
  lower_done(&f);
}

static void test_lower_unknown_tl_function(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f, "@triton.jit\ndef k(p):\n    x = tl.foo(1)\n", "k", "*fp32"));
  expect_first_error(f.ctx, "k.py", 6, 9, "unknown function 'tl.foo'");
  lower_done(&f);
}

static void test_lower_undefined_name(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f, "@triton.jit\ndef k(p):\n    x = y + 1\n    z = w\n", "k", "*fp32"));
  expect_first_error(f.ctx, "k.py", 6, 9, "undefined name 'y'");
  assert_int_equal(ir_context_num_errors(f.ctx), 2); /* keeps going */
  lower_done(&f);
}

static void test_lower_pointer_plus_pointer(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f, "@triton.jit\ndef k(p, q):\n    x = p + q\n", "k", "*fp32,*fp32"));
  expect_first_error(f.ctx, "k.py", 6, 11,
                     "invalid operands to '+': 'pointer<fp32>' and 'pointer<fp32>'");
  lower_done(&f);
}

static void test_lower_store_non_pointer(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f, "@triton.jit\ndef k(p, n):\n    tl.store(n, 1.0)\n", "k", "*fp32,i32"));
  expect_first_error(f.ctx, "k.py", 6, 14,
                     "'pointer' argument of 'tl.store' must be a pointer "
                     "or a tensor of pointers, found 'i32'");
  lower_done(&f);
}

static void test_lower_float_mask(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f,
                     "@triton.jit\ndef k(p):\n    o = tl.arange(0, 16)\n"
                     "    x = tl.load(p + o, mask=o * 1.0)\n",
                     "k", "*fp32"));
  expect_first_error(f.ctx, "k.py", 7, 29, "mask must have boolean type, found 'tensor<16xfp32>'");
  lower_done(&f);
}

static void test_lower_shape_mismatch(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f,
                     "@triton.jit\ndef k(p):\n    a = tl.arange(0, 16)\n"
                     "    b = tl.arange(0, 32)\n    c = a + b\n",
                     "k", "*fp32"));
  expect_first_error(f.ctx, "k.py", 8, 11, "incompatible shapes for broadcast: [16] and [32]");
  lower_done(&f);
}

static void test_lower_type_promotion(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef k(p, q, n):\n"
                    "    o = tl.arange(0, 16)\n"
                    "    x = tl.load(p + o)\n"       /* i8 */
                    "    y = x + 1\n"                /* scalar int does not promote: i8 */
                    "    z = x * n\n"                /* i8 * i64 -> i64 */
                    "    h = tl.load(q + o)\n"       /* fp16 */
                    "    w = h + 1.5\n"              /* fp16 */
                    "    v = h / h\n"                /* fp16 division -> fp32 */
                    "    u = z.to(tl.float32) + w\n" /* fp32 */
                    "    tl.store(q + o, u)\n",
                    "k", "*i8,*fp16,i64"));
  expect_ir(&f, "%y_2 = arith.addi %x_1, %y : tensor<16xi8>");
  expect_ir(&f, "%z = arith.extsi %x_1 : tensor<16xi8> to tensor<16xi64>");
  expect_ir(&f, "%w_7 = arith.addf %h_6, %w : tensor<16xf16>");
  expect_ir(&f, "%v = arith.extf %h_6 : tensor<16xf16> to tensor<16xf32>");
  expect_ir(&f, "arith.divf %v, %v_8 : tensor<16xf32>");
  expect_ir(&f, "%u = arith.sitofp %z_4 : tensor<16xi64> to tensor<16xf32>");
  expect_ir(&f, "arith.truncf %u_11 : tensor<16xf32> to tensor<16xf16>");
  lower_done(&f);
}

static void test_lower_unsigned_compare(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef k(p, n):\n"
                    "    o = tl.arange(0, 16)\n"
                    "    x = tl.load(p + o)\n"
                    "    tl.store(p + o, x, mask=x < n)\n",
                    "k", "*u32,u32"));
  expect_ir(&f, "arith.cmpi ult");
  lower_done(&f);
}

static void test_lower_expand_dims_broadcast(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef k(p):\n"
                    "    r = tl.arange(0, 16)\n    c = tl.arange(0, 32)\n"
                    "    off = r[:, None] * 32 + c[None, :]\n"
                    "    tl.store(p + off, 0.0)\n",
                    "k", "*fp32"));
  expect_ir(&f, "tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>");
  expect_ir(&f, "tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>");
  expect_ir(&f, "tt.broadcast");
  expect_ir(&f, "tensor<16x32x!tt.ptr<f32>>");
  lower_done(&f);
}

static void test_lower_for_loop_carried(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef k(p, n):\n"
                    "    o = tl.arange(0, 16)\n"
                    "    acc = tl.zeros((16,), dtype=tl.float32)\n"
                    "    s = 0\n"
                    "    for i in range(0, n):\n"
                    "        acc += tl.load(p + o + i * 16)\n"
                    "        s = s + i\n"
                    "    tl.store(p + o, acc + s)\n",
                    "k", "*fp32,i32"));
  expect_ir(&f, "%acc, %s = scf.for %i = ");
  expect_ir(&f, "iter_args(");
  expect_ir(&f, "-> (tensor<16xf32>, i32)");
  expect_ir(&f, "scf.yield");
  lower_done(&f);
}

static void test_lower_loop_type_change(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f,
                     "@triton.jit\ndef k(p, n):\n"
                     "    s = 0\n"
                     "    for i in range(n):\n"
                     "        s = s + 0.5\n",
                     "k", "*fp32,i32"));
  expect_first_error(f.ctx, "k.py", 7, 5,
                     "loop-carried variable: variable 's' has type 'i32' "
                     "before and 'fp32' after; its type must stay the same");
  lower_done(&f);
}

static void test_lower_static_range_unrolled(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef k(p):\n"
                    "    x = tl.load(p)\n"
                    "    for i in tl.static_range(3):\n"
                    "        x = x * 2.0\n"
                    "    tl.store(p, x)\n",
                    "k", "*fp32"));
  expect_no_ir(&f, "scf.for");
  assert_int_equal(count_ir(&f, "arith.mulf"), 3);
  lower_done(&f);
}

static void test_lower_constexpr_if_folded(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef k(p, FLAG: tl.constexpr):\n"
                    "    x = tl.load(p)\n"
                    "    if FLAG > 1:\n        x = tl.exp(x)\n"
                    "    elif FLAG == 1:\n        x = tl.log(x)\n"
                    "    else:\n        x = tl.sqrt(x)\n"
                    "    tl.store(p, x)\n",
                    "k", "*fp32,1"));
  expect_ir(&f, "math.log");
  expect_no_ir(&f, "math.exp");
  expect_no_ir(&f, "math.sqrt");
  expect_no_ir(&f, "scf.if");
  lower_done(&f);
}

static void test_lower_runtime_if(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef k(p, n):\n"
                    "    x = tl.load(p)\n"
                    "    if n > 0:\n        x = x + 1.0\n"
                    "    else:\n        x = x - 1.0\n"
                    "    tl.store(p, x)\n",
                    "k", "*fp32,i32"));
  expect_ir(&f, "%x_");
  expect_ir(&f, "= scf.if %");
  expect_ir(&f, "-> (f32)");
  expect_ir(&f, "} else {");
  assert_int_equal(count_ir(&f, "scf.yield"), 2);
  lower_done(&f);
}

static void test_lower_while(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef k(p, n):\n"
                    "    i = 0\n"
                    "    while i < n:\n        i += 2\n"
                    "    tl.store(p, i)\n",
                    "k", "*i32,i32"));
  expect_ir(&f, "scf.while");
  expect_ir(&f, "scf.condition");
  lower_done(&f);
}

static void test_lower_jit_helper_inlined(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef twice(x, SCALE: tl.constexpr = 2):\n"
                    "    return x * SCALE\n\n"
                    "@triton.jit\ndef k(p):\n"
                    "    x = tl.load(p)\n"
                    "    y = twice(x)\n"
                    "    z = twice(y, SCALE=3)\n"
                    "    tl.store(p, z)\n",
                    "k", "*fp32"));
  expect_no_ir(&f, "tt.call");
  assert_int_equal(count_ir(&f, "arith.mulf"), 2);
  expect_ir(&f, "2.000000e+00");
  expect_ir(&f, "3.000000e+00");
  lower_done(&f);
}

static void test_lower_module_constant_and_dtype(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "BLOCK = 64\n@triton.jit\ndef k(p):\n"
                    "    o = tl.arange(0, BLOCK)\n"
                    "    x = tl.load(p + o)\n"
                    "    y = x.to(tl.float16).to(p.dtype.element_ty)\n"
                    "    tl.store(p + o, tl.where(o < 10, y, tl.maximum(y, 0.0)))\n",
                    "k", "*fp32"));
  expect_ir(&f, "tensor<64xi32>");
  expect_ir(&f, "arith.truncf");
  expect_ir(&f, "arith.extf");
  expect_ir(&f, "arith.select");
  expect_ir(&f, "arith.maxnumf");
  lower_done(&f);
}

static void test_lower_reduce_and_dot(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef k(a, c):\n"
                    "    r = tl.arange(0, 16)\n"
                    "    t = tl.load(a + r[:, None] * 16 + r[None, :])\n"
                    "    d = tl.dot(t, t)\n"
                    "    s = tl.sum(d, axis=1)\n"
                    "    m = tl.max(s, axis=0)\n"
                    "    tl.store(c, m)\n",
                    "k", "*fp16,*fp32"));
  expect_ir(&f, "tt.dot");
  expect_ir(&f, "tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>");
  expect_ir(&f, "\"tt.reduce\"");
  expect_ir(&f, "arith.addf");
  expect_ir(&f, "arith.maxnumf");
  expect_ir(&f, "tt.reduce.return");
  lower_done(&f);
}

static void test_lower_unsupported_break(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f,
                     "@triton.jit\ndef k(p, n):\n"
                     "    for i in range(n):\n        break\n",
                     "k", "*fp32,i32"));
  expect_first_error(f.ctx, "k.py", 7, 9,
                     "unsupported: 'break' in a runtime loop (Triton "
                     "rejects it as well; use a 'while' loop with a flag)");
  lower_done(&f);
}

static void test_lower_wrong_arg_count(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f, "@triton.jit\ndef k(p):\n    x = tl.arange(0)\n", "k", "*fp32"));
  expect_first_error(f.ctx, "k.py", 6, 9, "missing argument 'end' in call to 'tl.arange'");
  lower_done(&f);
}

static void test_lower_not_jit(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f, "def k(p):\n    pass\n", "k", "*fp32"));
  expect_first_error(f.ctx, "k.py", 4, 1, "function 'k' is not decorated with @triton.jit");
  lower_done(&f);
}

static void test_lower_atomics(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef k(p, c, n):\n"
                    "    o = tl.arange(0, 64)\n"
                    "    x = tl.load(p + o)\n"
                    "    tl.atomic_add(c, 1)\n"
                    "    old = tl.atomic_max(p + o, x, mask=o < n, sem='relaxed')\n"
                    "    tl.atomic_cas(c, 0, 1)\n",
                    "k", "*u32,*i32,i32"));
  expect_ir(&f, "tt.atomic_rmw add, acq_rel, gpu, %c, %");
  expect_ir(&f, "tt.atomic_rmw umax, relaxed, gpu, ");
  expect_ir(&f, "tt.atomic_cas acq_rel, gpu, %c, ");
  lower_done(&f);
}

static void test_lower_runtime_ternary(void **state) {
  (void)state;
  lower_fixture f;
  assert_true(lower(&f,
                    "@triton.jit\ndef k(p):\n"
                    "    pid = tl.program_id(0)\n"
                    "    n = tl.num_programs(2)\n"
                    "    v = pid if pid < n else 0\n"
                    "    tl.store(p, v)\n",
                    "k", "*i32"));
  expect_ir(&f, "tt.get_num_programs z : i32");
  expect_ir(&f, "%v_0 = scf.if %v -> (i32)");
  expect_ir(&f, "-> (i32)");
  lower_done(&f);
}

static void test_lower_constant_out_of_range(void **state) {
  (void)state;
  lower_fixture f;
  assert_false(lower(&f, "@triton.jit\ndef k(p, n):\n    x = n + 2**40\n", "k", "*i32,i32"));
  expect_first_error(f.ctx, "k.py", 6, 11, "constant 1099511627776 is out of range for 'i32'");
  lower_done(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sig_types),
      cmocka_unit_test(test_sig_values),
      cmocka_unit_test(test_sig_empty),
      cmocka_unit_test(test_sig_error_unknown_type),
      cmocka_unit_test(test_sig_error_bad_number),
      cmocka_unit_test(test_sig_error_bad_hint),
      cmocka_unit_test(test_sig_error_empty_entry),
      cmocka_unit_test(test_lower_vector_add),
      cmocka_unit_test(test_lower_missing_kernel),
      cmocka_unit_test(test_lower_arity_mismatch),
      cmocka_unit_test(test_lower_constexpr_needs_value),
      cmocka_unit_test(test_lower_runtime_param_specialized),
      cmocka_unit_test(test_lower_arange_not_pow2),
      cmocka_unit_test(test_lower_unknown_tl_function),
      cmocka_unit_test(test_lower_undefined_name),
      cmocka_unit_test(test_lower_pointer_plus_pointer),
      cmocka_unit_test(test_lower_store_non_pointer),
      cmocka_unit_test(test_lower_float_mask),
      cmocka_unit_test(test_lower_shape_mismatch),
      cmocka_unit_test(test_lower_type_promotion),
      cmocka_unit_test(test_lower_unsigned_compare),
      cmocka_unit_test(test_lower_expand_dims_broadcast),
      cmocka_unit_test(test_lower_for_loop_carried),
      cmocka_unit_test(test_lower_loop_type_change),
      cmocka_unit_test(test_lower_static_range_unrolled),
      cmocka_unit_test(test_lower_constexpr_if_folded),
      cmocka_unit_test(test_lower_runtime_if),
      cmocka_unit_test(test_lower_while),
      cmocka_unit_test(test_lower_jit_helper_inlined),
      cmocka_unit_test(test_lower_module_constant_and_dtype),
      cmocka_unit_test(test_lower_reduce_and_dot),
      cmocka_unit_test(test_lower_unsupported_break),
      cmocka_unit_test(test_lower_wrong_arg_count),
      cmocka_unit_test(test_lower_not_jit),
      cmocka_unit_test(test_lower_atomics),
      cmocka_unit_test(test_lower_runtime_ternary),
      cmocka_unit_test(test_lower_constant_out_of_range),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
