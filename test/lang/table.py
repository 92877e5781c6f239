# Language tests, table-driven in the manner of Triton's test_core.py: each
# kernel here is run by run_lang (cases_table.c) over element types, shapes
# (constexprs) and num_warps, and by test/gpu/compare_triton.py through
# Triton. Every kernel's outputs are exact (bitwise) unless the case says
# otherwise: float sums and cumsums depend on the order of additions.
import triton
import triton.language as tl


# Elementwise binary ops at the inputs' type; out holds one row of n
# results per op (6 rows, then 1 more for floats, 5 more for integers).
@triton.jit
def binop_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1)
    y = tl.load(y_ptr + offs, mask=mask, other=1)
    tl.store(out_ptr + offs, x + y, mask=mask)
    tl.store(out_ptr + n + offs, x - y, mask=mask)
    tl.store(out_ptr + 2 * n + offs, x * y, mask=mask)
    tl.store(out_ptr + 3 * n + offs, tl.maximum(x, y), mask=mask)
    tl.store(out_ptr + 4 * n + offs, tl.minimum(x, y), mask=mask)
    tl.store(out_ptr + 5 * n + offs, tl.where(x >= y, x - y, y - x), mask=mask)
    if x.dtype == tl.float32:  # Triton's div_rn takes fp32 only; `/` is div.full there
        tl.store(out_ptr + 6 * n + offs, tl.div_rn(x, y), mask=mask)
    elif x.dtype.is_floating():  # f16, bf16: computed in f32, rounded once more; f64: div.rn
        tl.store(out_ptr + 6 * n + offs, x / y, mask=mask)
    else:
        tl.store(out_ptr + 6 * n + offs, x // y, mask=mask)
        tl.store(out_ptr + 7 * n + offs, x % y, mask=mask)
        tl.store(out_ptr + 8 * n + offs, x & y, mask=mask)
        tl.store(out_ptr + 9 * n + offs, x | y, mask=mask)
        tl.store(out_ptr + 10 * n + offs, x ^ y, mask=mask)


# where / maximum / minimum / clamp on floats; x holds NaNs (y does not):
# maximum and minimum ignore a NaN operand by default and propagate it with
# PropagateNan.ALL. clamp's bounds are asymmetric (Triton lowers symmetric
# ones to min.xorsign.abs). out holds 6 rows of n.
@triton.jit
def minmax_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.where(x < y, x, y), mask=mask)
    tl.store(out_ptr + n + offs, tl.maximum(x, y), mask=mask)
    tl.store(out_ptr + 2 * n + offs, tl.minimum(y, x), mask=mask)
    tl.store(out_ptr + 3 * n + offs, tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL), mask=mask)
    tl.store(out_ptr + 4 * n + offs, tl.minimum(y, x, propagate_nan=tl.PropagateNan.ALL), mask=mask)
    tl.store(out_ptr + 5 * n + offs, tl.clamp(y, -0.5, 0.25), mask=mask)


# Reductions of one BLOCK per program: sum, max, min into out[3 * pid + k],
# argmax, argmin (first index on ties) into idx[2 * pid + k].
@triton.jit
def reduce1d_kernel(x_ptr, out_ptr, idx_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK))
    tl.store(out_ptr + 3 * pid, tl.sum(x, axis=0))
    tl.store(out_ptr + 3 * pid + 1, tl.max(x, axis=0))
    tl.store(out_ptr + 3 * pid + 2, tl.min(x, axis=0))
    tl.store(idx_ptr + 2 * pid, tl.argmax(x, axis=0))
    tl.store(idx_ptr + 2 * pid + 1, tl.argmin(x, axis=0))


# Reductions of an M x N tile per program along AXIS; L = N if AXIS == 0
# else M results per reduction: out[(3 * pid + k) * L + i] for sum, max,
# min, idx[(2 * pid + k) * L + i] for argmax, argmin.
@triton.jit
def reduce2d_kernel(x_ptr, out_ptr, idx_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr):
    pid = tl.program_id(0)
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + pid * M * N + rm[:, None] * N + rn[None, :])
    if AXIS == 0:
        L = N
        r = rn
    else:
        L = M
        r = rm
    tl.store(out_ptr + (3 * pid) * L + r, tl.sum(x, axis=AXIS))
    tl.store(out_ptr + (3 * pid + 1) * L + r, tl.max(x, axis=AXIS))
    tl.store(out_ptr + (3 * pid + 2) * L + r, tl.min(x, axis=AXIS))
    tl.store(idx_ptr + (2 * pid) * L + r, tl.argmax(x, axis=AXIS))
    tl.store(idx_ptr + (2 * pid + 1) * L + r, tl.argmin(x, axis=AXIS))


# Inclusive prefix sums of an M x N tile along AXIS, forward and reversed.
@triton.jit
def cumsum_kernel(x_ptr, out_ptr, rev_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    offs = rm[:, None] * N + rn[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.cumsum(x, axis=AXIS))
    tl.store(rev_ptr + offs, tl.cumsum(x, axis=AXIS, reverse=True))


# The same on a 1-D block.
@triton.jit
def cumsum1d_kernel(x_ptr, out_ptr, rev_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.cumsum(x, axis=0))
    tl.store(rev_ptr + offs, tl.cumsum(x, axis=0, reverse=True))


# Conversions from the inputs' type to every integer and float type. x8,
# x16 and x32 hold values of that type in ranges chosen by the harness:
# float sources fit 8-, 16- and 32-bit integers (float -> int is undefined
# out of range), and unsigned targets of a float source take |x|; integer
# sources cover the whole range in x8 and x32, |x| < 65504 in x16 (which
# feeds the fp16 target, to stay finite).
@triton.jit
def cast_all_kernel(x8_ptr, x16_ptr, x32_ptr,
                    o_i8, o_i16, o_i32, o_i64, o_u8, o_u16, o_u32, o_u64,
                    o_f16, o_bf16, o_f32, o_f64, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x8 = tl.load(x8_ptr + offs, mask=mask)
    x16 = tl.load(x16_ptr + offs, mask=mask)
    x32 = tl.load(x32_ptr + offs, mask=mask)
    if x8.dtype.is_floating():
        u8 = tl.abs(x8)
        u16 = tl.abs(x16)
        u32 = tl.abs(x32)
    else:
        u8 = x8
        u16 = x16
        u32 = x32
    tl.store(o_i8 + offs, x8.to(tl.int8), mask=mask)
    tl.store(o_i16 + offs, x16.to(tl.int16), mask=mask)
    tl.store(o_i32 + offs, x32.to(tl.int32), mask=mask)
    tl.store(o_i64 + offs, x32.to(tl.int64), mask=mask)
    tl.store(o_u8 + offs, u8.to(tl.uint8), mask=mask)
    tl.store(o_u16 + offs, u16.to(tl.uint16), mask=mask)
    tl.store(o_u32 + offs, u32.to(tl.uint32), mask=mask)
    tl.store(o_u64 + offs, u32.to(tl.uint64), mask=mask)
    tl.store(o_f16 + offs, x16.to(tl.float16), mask=mask)
    tl.store(o_bf16 + offs, x32.to(tl.bfloat16), mask=mask)
    tl.store(o_f32 + offs, x32.to(tl.float32), mask=mask)
    tl.store(o_f64 + offs, x32.to(tl.float64), mask=mask)


# More f32 math, one row of n per function: exp2, log2, rsqrt, sqrt_rn,
# erf, ceil, sigmoid, and `/` (div.full in Triton: not exactly rounded).
@triton.jit
def math2_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.exp2(x), mask=mask)
    tl.store(out_ptr + n + offs, tl.log2(x + 2.0), mask=mask)
    tl.store(out_ptr + 2 * n + offs, tl.rsqrt(x + 2.0), mask=mask)
    tl.store(out_ptr + 3 * n + offs, tl.sqrt_rn(x + 2.0), mask=mask)
    tl.store(out_ptr + 4 * n + offs, tl.erf(x), mask=mask)
    tl.store(out_ptr + 5 * n + offs, tl.ceil(x * 4.0), mask=mask)
    tl.store(out_ptr + 6 * n + offs, tl.sigmoid(x), mask=mask)
    tl.store(out_ptr + 7 * n + offs, x / y, mask=mask)


# Philox random numbers (tl.randint, tl.rand, tl.randn) for offsets 0..n-1:
# the integers and the uniform floats are exact, bit for bit; randn goes
# through log, sqrt and cos.
@triton.jit
def random_kernel(int_ptr, uni_ptr, norm_ptr, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(int_ptr + offs, tl.randint(seed, offs), mask=mask)
    tl.store(uni_ptr + offs, tl.rand(seed, offs), mask=mask)
    tl.store(norm_ptr + offs, tl.randn(seed, offs), mask=mask)
# SPDX-License-Identifier: MIT
