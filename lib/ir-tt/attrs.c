// SPDX-License-Identifier: MIT
/* attrs.c - uniqued attributes: scalars, strings, arrays, splat constants,
 * enum keywords and the ttg layouts (blocked, slice, nvidia_mma, dot_op, the
 * shared encodings and the shared memory space). They are stored here as
 * data; lib/ir-ttgpu says what each layout means.
 *
 * Like types, an attribute is built zeroed on the stack and hash-consed in
 * the context; nested data (strings, int arrays) is uniqued first so that
 * byte equality of the struct is value equality. */
#include <math.h>
#include <string.h>

#include "ir-tt/context_impl.h"

static const ir_attr *attr_unique(ir_context *ctx, const ir_attr *proto) {
  return ir_ctx_unique(ctx, IR_UNIQ_ATTR, proto, sizeof *proto);
}

static ir_attr attr_proto(ir_attr_kind kind) {
  ir_attr a;
  memset(&a, 0, sizeof a);
  a.kind = kind;
  return a;
}

/* Keeps the value as the type holds it: i1 is 0/1, narrower ints are
 * sign-extended from their width, so equal values unique alike. */
static int64_t int_normalize(const ir_type *ty, int64_t v) {
  unsigned w = ty ? ty->width : 64;
  if (w == 1) return v & 1;
  if (w >= 64 || w == 0) return v;
  uint64_t m = 1ull << (w - 1);
  uint64_t u = (uint64_t)v & ((1ull << w) - 1);
  return (int64_t)((u ^ m) - m);
}

const ir_attr *ir_attr_int(ir_context *ctx, const ir_type *ty, int64_t v) {
  ir_attr a = attr_proto(IR_ATTR_INT);
  a.type = ty;
  a.i = int_normalize(ty, v);
  return attr_unique(ctx, &a);
}

const ir_attr *ir_attr_bool(ir_context *ctx, bool v) {
  return ir_attr_int(ctx, ir_type_i1(ctx), v ? 1 : 0);
}

/* Rounds v to a binary float with `p` significand bits and minimum normal
 * exponent `emin` (frexp convention), round-to-nearest-even, as a narrow
 * type would hold it. */
static double round_bits(double v, int p, int emin, int emax) {
  if (v == 0 || isnan(v) || isinf(v)) return v;
  int e;
  frexp(v, &e);
  if (e > emax) return v > 0 ? INFINITY : -INFINITY;
  int keep = e < emin ? p - (emin - e) : p; /* subnormals lose bits */
  double scale = ldexp(1.0, keep - e);
  double r = nearbyint(v * scale) / scale;
  int e2;
  frexp(r, &e2);
  if (r != 0 && e2 > emax) return v > 0 ? INFINITY : -INFINITY;
  return r;
}

double ir_fp8_round(double v, bool e5m2) {
  if (isnan(v)) return v;
  double max = e5m2 ? 57344.0 : 448.0;
  if (isinf(v)) return v > 0 ? max : -max;
  double r = round_bits(v, e5m2 ? 3 : 4, e5m2 ? -13 : -5, 1024);
  return fabs(r) > max ? copysign(max, v) : r;
}

uint8_t ir_fp8_bits(double v, bool e5m2) {
  v = ir_fp8_round(v, e5m2);
  unsigned sign = signbit(v) ? 0x80u : 0;
  if (isnan(v)) return 0x7F;
  double m = fabs(v);
  if (m == 0) return (uint8_t)sign;
  int mbits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7, e;
  frexp(m, &e); /* m = f * 2^e with f in [0.5, 1) */
  int biased = e - 1 + bias;
  unsigned bits;
  if (biased >= 1)
    bits = (unsigned)biased << mbits | (unsigned)((ldexp(m, 1 - e) - 1) * (1 << mbits));
  else /* subnormal */
    bits = (unsigned)ldexp(m, bias - 1 + mbits);
  return (uint8_t)(sign | bits);
}

double ir_fp8_value(uint8_t b, bool e5m2) {
  int mbits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  unsigned ex = (b & 0x7Fu) >> mbits, man = b & ((1u << mbits) - 1);
  double v;
  if (!e5m2 && (b & 0x7F) == 0x7F)
    v = NAN;
  else if (e5m2 && ex == 31)
    v = man ? NAN : INFINITY;
  else if (ex == 0)
    v = ldexp(man, 1 - bias - mbits);
  else
    v = ldexp(man | (1u << mbits), (int)ex - bias - mbits);
  return (b & 0x80) ? -v : v;
}

double ir_float_round(const ir_type *ty, double v) {
  ty = ir_type_scalar(ty);
  if (ty->kind != IR_TY_FLOAT) return v;
  if (ty->width == 8) return ir_fp8_round(v, ty->is_e5m2);
  if (ty->width == 64) return v;
  if (ty->width == 32) return (double)(float)v;
  if (ty->is_bf16) return round_bits(v, 8, -125, 128);
  return round_bits(v, 11, -13, 16);
}

const ir_attr *ir_attr_float(ir_context *ctx, const ir_type *ty, double v) {
  ir_attr a = attr_proto(IR_ATTR_FLOAT);
  a.type = ty;
  a.f = ir_float_round(ty, v);
  if (a.f == 0 && signbit(a.f) == 0) a.f = 0.0; /* one +0 bit pattern */
  return attr_unique(ctx, &a);
}

const ir_attr *ir_attr_string(ir_context *ctx, const char *s) {
  ir_attr a = attr_proto(IR_ATTR_STRING);
  a.s = ir_intern_cstr(ctx, s);
  return attr_unique(ctx, &a);
}

const ir_attr *ir_attr_unit(ir_context *ctx) {
  ir_attr a = attr_proto(IR_ATTR_UNIT);
  return attr_unique(ctx, &a);
}

const ir_attr *ir_attr_array(ir_context *ctx, int n, const int64_t *ints) {
  ir_attr a = attr_proto(IR_ATTR_ARRAY);
  a.n = n;
  a.ints = n > 0 ? ir_ctx_unique(ctx, IR_UNIQ_BYTES, ints, (size_t)n * sizeof *ints) : NULL;
  return attr_unique(ctx, &a);
}

const ir_attr *ir_attr_dense(ir_context *ctx, const ir_type *tensor_ty, const ir_attr *splat) {
  ir_attr a = attr_proto(IR_ATTR_DENSE);
  a.type = tensor_ty;
  a.elem = splat;
  return attr_unique(ctx, &a);
}

const ir_attr *ir_attr_enum(ir_context *ctx, const char *keyword, int64_t value) {
  ir_attr a = attr_proto(IR_ATTR_ENUM);
  a.s = ir_intern_cstr(ctx, keyword);
  a.i = value;
  return attr_unique(ctx, &a);
}

const ir_attr *ir_attr_blocked(ir_context *ctx, int rank, const unsigned *size_per_thread,
                               const unsigned *threads_per_warp, const unsigned *warps_per_cta,
                               const unsigned *order) {
  IR_ASSERT(rank >= 1 && rank <= IR_MAX_RANK);
  ir_attr a = attr_proto(IR_ATTR_BLOCKED);
  a.rank = rank;
  for (int i = 0; i < rank; i++) {
    a.size_per_thread[i] = size_per_thread[i];
    a.threads_per_warp[i] = threads_per_warp[i];
    a.warps_per_cta[i] = warps_per_cta[i];
    a.order[i] = order[i];
  }
  return attr_unique(ctx, &a);
}

const ir_attr *ir_attr_slice(ir_context *ctx, int dim, const ir_attr *parent) {
  ir_attr a = attr_proto(IR_ATTR_SLICE);
  a.dim = dim;
  a.parent = parent;
  return attr_unique(ctx, &a);
}

const ir_attr *ir_attr_nvidia_mma(ir_context *ctx, unsigned version_major, unsigned version_minor,
                                  int rank, const unsigned *warps_per_cta, int ninstr,
                                  const unsigned *instr_shape) {
  IR_ASSERT(rank >= 1 && rank <= IR_MAX_RANK && ninstr >= 0 && ninstr <= 3);
  ir_attr a = attr_proto(IR_ATTR_NVIDIA_MMA);
  a.version_major = version_major;
  a.version_minor = version_minor;
  a.rank = rank;
  for (int i = 0; i < rank; i++)
    a.warps_per_cta[i] = warps_per_cta[i];
  a.ninstr = ninstr;
  for (int i = 0; i < ninstr; i++)
    a.instr_shape[i] = instr_shape[i];
  return attr_unique(ctx, &a);
}

const ir_attr *ir_attr_dot_op(ir_context *ctx, int op_idx, const ir_attr *parent,
                              unsigned k_width) {
  ir_attr a = attr_proto(IR_ATTR_DOT_OP);
  a.op_idx = op_idx;
  a.parent = parent;
  a.k_width = k_width;
  return attr_unique(ctx, &a);
}

const ir_attr *ir_attr_swizzled_shared(ir_context *ctx, unsigned vec, unsigned per_phase,
                                       unsigned max_phase, int rank, const unsigned *order) {
  IR_ASSERT(rank >= 1 && rank <= IR_MAX_RANK);
  ir_attr a = attr_proto(IR_ATTR_SWIZZLED_SHARED);
  a.vec = vec;
  a.per_phase = per_phase;
  a.max_phase = max_phase;
  a.rank = rank;
  for (int i = 0; i < rank; i++)
    a.order[i] = order[i];
  return attr_unique(ctx, &a);
}

const ir_attr *ir_attr_nvmma_shared(ir_context *ctx, unsigned swizzle_bytes, bool transposed,
                                    unsigned elem_bits) {
  ir_attr a = attr_proto(IR_ATTR_NVMMA_SHARED);
  a.swizzle_bytes = swizzle_bytes;
  a.transposed = transposed;
  a.elem_bits = elem_bits;
  return attr_unique(ctx, &a);
}

const ir_attr *ir_attr_shared_memory(ir_context *ctx) {
  ir_attr a = attr_proto(IR_ATTR_SHARED_MEMORY);
  return attr_unique(ctx, &a);
}

bool ir_attr_is_shared_layout(const ir_attr *a) {
  return a && (a->kind == IR_ATTR_SWIZZLED_SHARED || a->kind == IR_ATTR_NVMMA_SHARED);
}

static const char *const cmpi_names[] = {"eq",  "ne",  "slt", "sle", "sgt",
                                         "sge", "ult", "ule", "ugt", "uge"};
static const char *const cmpf_names[] = {"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                                         "ueq",   "ugt", "uge", "ult", "ule", "une", "uno", "true"};

const char *ir_cmpi_name(ir_cmpi_pred p) {
  return (unsigned)p < sizeof cmpi_names / sizeof *cmpi_names ? cmpi_names[p] : "?";
}

const char *ir_cmpf_name(ir_cmpf_pred p) {
  return (unsigned)p < sizeof cmpf_names / sizeof *cmpf_names ? cmpf_names[p] : "?";
}

const ir_attr *ir_attr_cmpi(ir_context *ctx, ir_cmpi_pred p) {
  return ir_attr_enum(ctx, ir_cmpi_name(p), p);
}

const ir_attr *ir_attr_cmpf(ir_context *ctx, ir_cmpf_pred p) {
  return ir_attr_enum(ctx, ir_cmpf_name(p), p);
}
