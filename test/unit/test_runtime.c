// SPDX-License-Identifier: MIT
/* test_runtime.c - the runtime without a GPU: launch-argument packing (types,
 * truncation, f16/bf16 rounding, mismatch messages), device opening on a
 * machine without libcuda.so.1, and NULL-argument checks of the public API. */
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ttc_test.h"

#include "runtime/rt.h"

/* ---- helpers -------------------------------------------------------------- */

/* Packs one argument for one parameter and returns the storage. */
static rt_arg_storage pack1(ttc_type param, ttc_arg arg) {
  rt_arg_storage storage[1];
  void *slots[1] = {NULL};
  char err[128] = "";
  memset(storage, 0xa5, sizeof storage); /* poison: packing must clear it */
  assert_int_equal(rt_pack_args(&param, 1, &arg, 1, storage, slots, err, sizeof err), TTC_OK);
  assert_ptr_equal(slots[0], &storage[0]);
  assert_string_equal(err, "");
  return storage[0];
}

static ttc_arg arg_int(ttc_type type, int64_t v) {
  ttc_arg a = ttc_arg_make(type);
  a.v.i = v;
  return a;
}

static ttc_arg arg_float(ttc_type type, double v) {
  ttc_arg a = ttc_arg_make(type);
  a.v.f = v;
  return a;
}

/* The value of an IEEE half-width bit pattern (ebits, mbits), as a double. */
static double decode_half(uint16_t bits, int ebits, int mbits) {
  int bias = (1 << (ebits - 1)) - 1;
  unsigned exp = (bits >> mbits) & ((1u << ebits) - 1u);
  unsigned frac = bits & ((1u << mbits) - 1u);
  double sign = (bits >> (ebits + mbits)) & 1u ? -1.0 : 1.0;
  if (exp == (1u << ebits) - 1u) return frac ? NAN : sign * INFINITY;
  if (exp == 0) return sign * ldexp((double)frac, 1 - bias - mbits);
  return sign * ldexp((double)(frac | 1u << mbits), (int)exp - bias - mbits);
}

/* ---- packing: every type -------------------------------------------------- */

static void test_pack_pointer(void **state) {
  (void)state;
  rt_arg_storage s = pack1(TTC_TYPE_PTR, ttc_arg_ptr(0x7f0012345680ull));
  assert_true(s.u64 == 0x7f0012345680ull);
}

static void test_pack_integers_truncate(void **state) {
  (void)state;
  assert_true(pack1(TTC_TYPE_I32, ttc_arg_i32(-1)).u64 == 0xffffffffull);
  assert_true(pack1(TTC_TYPE_I32, ttc_arg_i64(0x123456789ll)).u64 == 0x23456789ull);
  assert_true(pack1(TTC_TYPE_U32, ttc_arg_i32(7)).u64 == 7);
  assert_true(pack1(TTC_TYPE_I64, ttc_arg_i32(-5)).u64 == (uint64_t)-5ll);
  assert_true(pack1(TTC_TYPE_U64, ttc_arg_i64(INT64_MIN)).u64 == 0x8000000000000000ull);
  assert_true(pack1(TTC_TYPE_I16, arg_int(TTC_TYPE_I64, 70000)).u64 == (70000u & 0xffffu));
  assert_true(pack1(TTC_TYPE_U16, arg_int(TTC_TYPE_I16, -2)).u64 == 0xfffeu);
  assert_true(pack1(TTC_TYPE_I8, arg_int(TTC_TYPE_I32, 0x1ff)).u64 == 0xffu);
  assert_true(pack1(TTC_TYPE_U8, arg_int(TTC_TYPE_U8, 200)).u64 == 200u);
  /* i1 is a bool: any nonzero value is true, not just odd ones. */
  assert_true(pack1(TTC_TYPE_I1, arg_int(TTC_TYPE_I1, 2)).u64 == 1);
  assert_true(pack1(TTC_TYPE_I1, arg_int(TTC_TYPE_I32, 0)).u64 == 0);
  /* Little endian: the parameter's bytes come first. */
  rt_arg_storage s = pack1(TTC_TYPE_I16, arg_int(TTC_TYPE_I32, 0x1234));
  unsigned char bytes[8];
  memcpy(bytes, &s, sizeof bytes);
  assert_int_equal(bytes[0], 0x34);
  assert_int_equal(bytes[1], 0x12);
  assert_int_equal(bytes[2], 0);
}

static void test_pack_float_widths(void **state) {
  (void)state;
  assert_true(pack1(TTC_TYPE_F32, ttc_arg_f32(1.5f)).f32 == 1.5f);
  assert_true(pack1(TTC_TYPE_F32, ttc_arg_f64(0.1)).f32 == 0.1f);
  assert_true(pack1(TTC_TYPE_F64, ttc_arg_f64(0.1)).f64 == 0.1);
  assert_true(pack1(TTC_TYPE_F64, ttc_arg_f32(0.25f)).f64 == 0.25);
  rt_arg_storage s = pack1(TTC_TYPE_F32, ttc_arg_f64(-2.0));
  assert_true((s.u64 >> 32) == 0); /* upper bytes stay clear */
  assert_int_equal(pack1(TTC_TYPE_F16, ttc_arg_f32(1.0f)).u16, 0x3c00);
  assert_int_equal(pack1(TTC_TYPE_F16, arg_float(TTC_TYPE_F16, -2.0)).u16, 0xc000);
  assert_int_equal(pack1(TTC_TYPE_BF16, arg_float(TTC_TYPE_BF16, 1.0)).u16, 0x3f80);
  assert_int_equal(pack1(TTC_TYPE_BF16, ttc_arg_f64(3.14159265358979)).u16, 0x4049);
  assert_true((pack1(TTC_TYPE_BF16, ttc_arg_f64(1.0)).u64 >> 16) == 0);
}

/* ---- f16 / bf16 rounding -------------------------------------------------- */

static void test_f16_rounding(void **state) {
  (void)state;
  assert_int_equal(rt_round_half(1.0 / 3.0, 5, 10), 0x3555);
  assert_int_equal(rt_round_half(65504.0, 5, 10), 0x7bff);  /* largest finite */
  assert_int_equal(rt_round_half(65519.99, 5, 10), 0x7bff); /* below the midpoint */
  assert_int_equal(rt_round_half(65520.0, 5, 10), 0x7c00);  /* tie to even: inf */
  assert_int_equal(rt_round_half(1e10, 5, 10), 0x7c00);
  assert_int_equal(rt_round_half(-INFINITY, 5, 10), 0xfc00);
  assert_int_equal(rt_round_half(-0.0, 5, 10), 0x8000);
  assert_int_equal(rt_round_half(NAN, 5, 10) & 0x7c00, 0x7c00);
  assert_true((rt_round_half(NAN, 5, 10) & 0x03ff) != 0);
  /* Ties: 1 + 2^-11 is halfway between 0x3c00 and 0x3c01 -> even 0x3c00;
   * 1 + 3 * 2^-11 is halfway between 0x3c01 and 0x3c02 -> even 0x3c02. */
  assert_int_equal(rt_round_half(1.0 + ldexp(1, -11), 5, 10), 0x3c00);
  assert_int_equal(rt_round_half(1.0 + 3 * ldexp(1, -11), 5, 10), 0x3c02);
  /* Just above a tie rounds up: going through float first would round to the
   * tie and then down, so this catches double rounding. */
  assert_int_equal(rt_round_half(1.0 + ldexp(1, -11) + ldexp(1, -40), 5, 10), 0x3c01);
  /* Subnormals, their ties, and the carry into the smallest normal. */
  assert_int_equal(rt_round_half(ldexp(1, -24), 5, 10), 0x0001);
  assert_int_equal(rt_round_half(ldexp(1, -25), 5, 10), 0x0000);
  assert_int_equal(rt_round_half(3 * ldexp(1, -25), 5, 10), 0x0002);
  assert_int_equal(rt_round_half(ldexp(1, -14) - ldexp(1, -26), 5, 10), 0x0400);
  assert_int_equal(rt_round_half(1e-300, 5, 10), 0x0000);
  /* Carry out of the fraction into the exponent. */
  assert_int_equal(rt_round_half(2.0 - ldexp(1, -12), 5, 10), 0x4000);
}

static void test_bf16_rounding(void **state) {
  (void)state;
  assert_int_equal(rt_round_half(1.0 + ldexp(1, -8), 8, 7), 0x3f80);     /* tie -> even */
  assert_int_equal(rt_round_half(1.0 + 3 * ldexp(1, -8), 8, 7), 0x3f82); /* tie -> even */
  assert_int_equal(rt_round_half(1.0 + ldexp(1, -8) + ldexp(1, -30), 8, 7), 0x3f81);
  assert_int_equal(rt_round_half(-1.0, 8, 7), 0xbf80);
  assert_int_equal(rt_round_half(3.3895e38, 8, 7), 0x7f7f); /* largest finite */
  assert_int_equal(rt_round_half(3.38e38, 8, 7), 0x7f7e);
  assert_int_equal(rt_round_half(3.4e38, 8, 7), 0x7f80);
  assert_int_equal(rt_round_half(ldexp(1, -133), 8, 7), 0x0001); /* smallest subnormal */
}

/* Against a definition: for random doubles, the result is a nearest
 * representable value, and of two nearest ones the even. */
static void check_nearest(int ebits, int mbits, uint64_t seed) {
  uint64_t x = seed;
  int max_exp = (1 << (ebits - 1)) + 1;
  for (int i = 0; i < 20000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    double mant = (double)(x >> 11) * ldexp(1, -53);
    int e = (int)((x >> 3) % (unsigned)(2 * max_exp + mbits + 4)) - max_exp - mbits - 2;
    double v = (x & 1 ? -1 : 1) * ldexp(1.0 + mant, e);
    uint16_t r = rt_round_half(v, ebits, mbits);
    double got = decode_half(r, ebits, mbits);
    uint16_t mag = r & (uint16_t)((1u << (ebits + mbits)) - 1u);
    uint16_t sign = r & (uint16_t)(1u << (ebits + mbits));
    assert_true(signbit(got) == signbit(v) || got == 0);
    if (isinf(got)) {
      /* Overflow: v is at least halfway past the largest finite value. */
      double top = decode_half((uint16_t)(mag - 1), ebits, mbits);
      double ulp = top - decode_half((uint16_t)(mag - 2), ebits, mbits);
      assert_true(fabs(v) >= top + ulp / 2);
      continue;
    }
    double err = fabs(v - got);
    if (mag > 0) {
      double below = decode_half((uint16_t)(sign | (mag - 1)), ebits, mbits);
      assert_true(err <= fabs(v - below));
      if (err == fabs(v - below)) assert_int_equal(mag & 1, 0);
    }
    double above = decode_half((uint16_t)(sign | (mag + 1)), ebits, mbits);
    if (!isinf(above)) {
      assert_true(err <= fabs(v - above));
      if (err == fabs(v - above)) assert_int_equal(mag & 1, 0);
    }
  }
}

static void test_half_rounding_is_nearest_even(void **state) {
  (void)state;
  check_nearest(5, 10, 0x9e3779b97f4a7c15ull);
  check_nearest(8, 7, 0x2545f4914f6cdd1dull);
}

/* ---- packing: mismatches -------------------------------------------------- */

static void test_pack_several(void **state) {
  (void)state;
  const ttc_type params[5] = {TTC_TYPE_PTR, TTC_TYPE_PTR, TTC_TYPE_PTR, TTC_TYPE_I32, TTC_TYPE_F16};
  ttc_arg args[5] = {ttc_arg_ptr(0x1000), ttc_arg_ptr(0x2000), ttc_arg_ptr(0x3000),
                     ttc_arg_i32(1 << 24), ttc_arg_f32(0.5f)};
  rt_arg_storage storage[5];
  void *slots[5];
  assert_int_equal(rt_pack_args(params, 5, args, 5, storage, slots, NULL, 0), TTC_OK);
  for (int i = 0; i < 5; i++)
    assert_ptr_equal(slots[i], &storage[i]);
  assert_true(storage[2].u64 == 0x3000);
  assert_true(*(const int32_t *)slots[3] == 1 << 24);
  assert_int_equal(*(const uint16_t *)slots[4], 0x3800);
}

static void test_pack_type_mismatch(void **state) {
  (void)state;
  const ttc_type params[4] = {TTC_TYPE_PTR, TTC_TYPE_PTR, TTC_TYPE_PTR, TTC_TYPE_I32};
  ttc_arg args[4] = {ttc_arg_ptr(16), ttc_arg_ptr(32), ttc_arg_ptr(48), ttc_arg_ptr(64)};
  rt_arg_storage storage[4];
  void *slots[4];
  char err[128] = "";
  assert_int_equal(rt_pack_args(params, 4, args, 4, storage, slots, err, sizeof err),
                   TTC_ERROR_ARGUMENT);
  assert_string_equal(err, "argument 3 expects i32, got pointer");

  args[3] = ttc_arg_f32(1.0f);
  assert_int_equal(rt_pack_args(params, 4, args, 4, storage, slots, err, sizeof err),
                   TTC_ERROR_ARGUMENT);
  assert_string_equal(err, "argument 3 expects i32, got fp32");

  args[3] = ttc_arg_i32(5);
  args[0] = ttc_arg_i64(16);
  assert_int_equal(rt_pack_args(params, 4, args, 4, storage, slots, err, sizeof err),
                   TTC_ERROR_ARGUMENT);
  assert_string_equal(err, "argument 0 expects pointer, got i64");

  const ttc_type fparam = TTC_TYPE_BF16;
  ttc_arg iarg = ttc_arg_i32(1);
  assert_int_equal(rt_pack_args(&fparam, 1, &iarg, 1, storage, slots, err, sizeof err),
                   TTC_ERROR_ARGUMENT);
  assert_string_equal(err, "argument 0 expects bf16, got i32");

  /* A NULL message buffer is allowed. */
  assert_int_equal(rt_pack_args(&fparam, 1, &iarg, 1, storage, slots, NULL, 0), TTC_ERROR_ARGUMENT);
}

static void test_pack_count_mismatch(void **state) {
  (void)state;
  const ttc_type params[4] = {TTC_TYPE_PTR, TTC_TYPE_PTR, TTC_TYPE_PTR, TTC_TYPE_I32};
  ttc_arg args[5] = {ttc_arg_ptr(16), ttc_arg_ptr(32), ttc_arg_ptr(48), ttc_arg_i32(1),
                     ttc_arg_i32(2)};
  rt_arg_storage storage[5];
  void *slots[5];
  char err[128] = "";
  assert_int_equal(rt_pack_args(params, 4, args, 3, storage, slots, err, sizeof err),
                   TTC_ERROR_ARGUMENT);
  assert_string_equal(err, "expected 4 arguments, got 3");
  assert_int_equal(rt_pack_args(params, 4, args, 5, storage, slots, err, sizeof err),
                   TTC_ERROR_ARGUMENT);
  assert_string_equal(err, "expected 4 arguments, got 5");
  assert_int_equal(rt_pack_args(params, 1, args, 0, storage, slots, err, sizeof err),
                   TTC_ERROR_ARGUMENT);
  assert_string_equal(err, "expected 1 argument, got 0");
  assert_int_equal(rt_pack_args(params, 0, NULL, 0, storage, slots, err, sizeof err), TTC_OK);
}

/* ---- devices -------------------------------------------------------------- */

static void test_device_open_without_driver(void **state) {
  (void)state;
  void *dl = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (dl) { /* a GPU machine: this test is about machines without the driver */
    dlclose(dl);
    skip();
  }
  ttc_device *dev = (ttc_device *)&dev; /* poison: must become NULL */
  char err[256] = "unchanged";
  assert_int_equal(ttc_device_open(0, &dev, err, sizeof err), TTC_ERROR_NO_DEVICE);
  assert_null(dev);
  assert_string_equal(err, "no CUDA driver: libcuda.so.1 not found");
  /* Also without a message buffer, and a tiny one stays NUL-terminated. */
  dev = (ttc_device *)&dev;
  assert_int_equal(ttc_device_open(0, &dev, NULL, 0), TTC_ERROR_NO_DEVICE);
  assert_null(dev);
  char tiny[4] = "xxx";
  assert_int_equal(ttc_device_open(0, &dev, tiny, sizeof tiny), TTC_ERROR_NO_DEVICE);
  assert_string_equal(tiny, "no ");
}

static void test_null_arguments(void **state) {
  (void)state;
  char err[128] = "";
  assert_int_equal(ttc_device_open(0, NULL, err, sizeof err), TTC_ERROR_ARGUMENT);
  assert_true(strlen(err) > 0);
  ttc_device *dev = (ttc_device *)&dev;
  assert_int_equal(ttc_device_open(-1, &dev, err, sizeof err), TTC_ERROR_ARGUMENT);
  assert_null(dev);
  assert_string_equal(err, "device ordinal -1 is negative");

  uint64_t p = 1;
  char host[4];
  assert_int_equal(ttc_device_alloc(NULL, 16, &p), TTC_ERROR_ARGUMENT);
  assert_int_equal(ttc_device_free(NULL, 0), TTC_ERROR_ARGUMENT);
  assert_int_equal(ttc_device_copy_to(NULL, 0, host, sizeof host), TTC_ERROR_ARGUMENT);
  assert_int_equal(ttc_device_copy_from(NULL, host, 0, sizeof host), TTC_ERROR_ARGUMENT);
  assert_int_equal(ttc_device_synchronize(NULL), TTC_ERROR_ARGUMENT);

  ttc_event *ev = (ttc_event *)&ev;
  assert_int_equal(ttc_event_create(NULL, &ev), TTC_ERROR_ARGUMENT);
  assert_null(ev);
  assert_int_equal(ttc_event_record(NULL, NULL, NULL), TTC_ERROR_ARGUMENT);
  float ms = -1;
  assert_int_equal(ttc_event_elapsed(NULL, NULL, NULL, &ms), TTC_ERROR_ARGUMENT);

  const unsigned grid[3] = {1, 1, 1};
  assert_int_equal(ttc_module_launch(NULL, grid, NULL, NULL, 0), TTC_ERROR_ARGUMENT);
  int per_sm = -1;
  assert_int_equal(ttc_module_programs_per_sm(NULL, &per_sm), TTC_ERROR_ARGUMENT);
  assert_int_equal(per_sm, 0);

  /* Destroying NULL is a no-op; getters on NULL give "". */
  ttc_device_destroy(NULL);
  ttc_event_destroy(NULL, NULL);
  ttc_module_destroy(NULL);
  assert_string_equal(ttc_device_error(NULL), "");
  assert_string_equal(ttc_device_name(NULL), "");
  assert_string_equal(ttc_device_arch(NULL), "");
}

static void test_module_load_null(void **state) {
  (void)state;
  ttc_module *mod = (ttc_module *)&mod;
  assert_int_equal(ttc_module_load(NULL, NULL, &mod), TTC_ERROR_ARGUMENT);
  assert_null(mod);
  assert_int_equal(ttc_module_load(NULL, NULL, NULL), TTC_ERROR_ARGUMENT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pack_pointer),
      cmocka_unit_test(test_pack_integers_truncate),
      cmocka_unit_test(test_pack_float_widths),
      cmocka_unit_test(test_f16_rounding),
      cmocka_unit_test(test_bf16_rounding),
      cmocka_unit_test(test_half_rounding_is_nearest_even),
      cmocka_unit_test(test_pack_several),
      cmocka_unit_test(test_pack_type_mismatch),
      cmocka_unit_test(test_pack_count_mismatch),
      cmocka_unit_test(test_device_open_without_driver),
      cmocka_unit_test(test_null_arguments),
      cmocka_unit_test(test_module_load_null),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
