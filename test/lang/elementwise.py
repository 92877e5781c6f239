# Language tests: elementwise arithmetic, masks, `other` and casts. Each
# kernel handles BLOCK elements per program; run_lang.c holds the references.
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


# Deliberately wrong: the harness checks it against x + y and must fail.
@triton.jit
def wrong_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x - y, mask=mask)


# Integer ops at the pointee's type; out holds 13 rows of n results.
@triton.jit
def int_ops(x_ptr, y_ptr, s_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask, other=1)
    s = tl.load(s_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)
    tl.store(out_ptr + n + offs, x - y, mask=mask)
    tl.store(out_ptr + 2 * n + offs, x * y, mask=mask)
    tl.store(out_ptr + 3 * n + offs, x // y, mask=mask)
    tl.store(out_ptr + 4 * n + offs, x % y, mask=mask)
    tl.store(out_ptr + 5 * n + offs, x & y, mask=mask)
    tl.store(out_ptr + 6 * n + offs, x | y, mask=mask)
    tl.store(out_ptr + 7 * n + offs, x ^ y, mask=mask)
    tl.store(out_ptr + 8 * n + offs, tl.maximum(x, y), mask=mask)
    tl.store(out_ptr + 9 * n + offs, tl.minimum(x, y), mask=mask)
    tl.store(out_ptr + 10 * n + offs, tl.where(x < y, x, y + y), mask=mask)
    tl.store(out_ptr + 11 * n + offs, x << s, mask=mask)
    tl.store(out_ptr + 12 * n + offs, x >> s, mask=mask)


# Float ops that IEEE rounds exactly: bitwise-comparable on every path.
@triton.jit
def float_ops(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)
    tl.store(out_ptr + n + offs, x - y, mask=mask)
    tl.store(out_ptr + 2 * n + offs, x * y, mask=mask)
    if x.dtype == tl.float32:  # Triton's div_rn takes fp32 only
        tl.store(out_ptr + 3 * n + offs, tl.div_rn(x, y), mask=mask)
    else:  # exactly rounded too: f16 / bf16 through f32 (rounded once more), f64 div.rn
        tl.store(out_ptr + 3 * n + offs, x / y, mask=mask)
    tl.store(out_ptr + 4 * n + offs, tl.maximum(x, y), mask=mask)
    tl.store(out_ptr + 5 * n + offs, tl.where(x < y, -x, y), mask=mask)
    tl.store(out_ptr + 6 * n + offs, tl.abs(x), mask=mask)


# -|x| compared with constants and stored too: ptxas 13.0 and 12.8 fold these
# comparisons to constants when they see neg.s32(abs.s32 x) (ttc emits
# min(x, -x)).
@triton.jit
def neg_abs_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = -tl.abs(x)
    tl.store(out_ptr + offs, (y > -17).to(tl.int32), mask=mask)
    tl.store(out_ptr + n + offs, (y == -5).to(tl.int32), mask=mask)
    tl.store(out_ptr + 2 * n + offs, (y < -30).to(tl.int32), mask=mask)
    tl.store(out_ptr + 3 * n + offs, y, mask=mask)


# Math functions (f32): compared with a tolerance.
@triton.jit
def math_ops(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.exp(x), mask=mask)
    tl.store(out_ptr + n + offs, tl.log(x + 2.0), mask=mask)
    tl.store(out_ptr + 2 * n + offs, tl.sqrt(x + 2.0), mask=mask)
    tl.store(out_ptr + 3 * n + offs, tl.sin(x), mask=mask)
    tl.store(out_ptr + 4 * n + offs, tl.cos(x), mask=mask)
    tl.store(out_ptr + 5 * n + offs, 1.0 / (1.0 + tl.exp(-x)), mask=mask)
    tl.store(out_ptr + 6 * n + offs, tl.floor(x * 4.0), mask=mask)
    tl.store(out_ptr + 7 * n + offs, tl.fma(x, x, x), mask=mask)


# Masked lanes read `other` and every lane is stored: out has grid * BLOCK.
@triton.jit
def other_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=-7.0)
    tl.store(out_ptr + offs, x * 2.0)


# Casts: f32 -> f16 / bf16 (round to nearest even), f32 -> i32 (toward
# zero), i32 -> f32.
@triton.jit
def cast_kernel(x_ptr, i_ptr, h_ptr, b_ptr, xi_ptr, if_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    i = tl.load(i_ptr + offs, mask=mask)
    tl.store(h_ptr + offs, x.to(tl.float16), mask=mask)
    tl.store(b_ptr + offs, x.to(tl.bfloat16), mask=mask)
    tl.store(xi_ptr + offs, x.to(tl.int32), mask=mask)
    tl.store(if_ptr + offs, i.to(tl.float32), mask=mask)


# Writes far past its buffer in program 3: the interpreter must stop it.
@triton.jit
def oob_kernel(out_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs + (pid == 3) * 4096, offs)
# SPDX-License-Identifier: MIT
