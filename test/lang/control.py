# Language tests: program ids on three axes, loops, branches, reductions,
# 2-D tiles, transposes and dot. run_lang.c holds the references.
import triton
import triton.language as tl


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _max(a, b):
    return tl.maximum(a, b)


@triton.jit
def _min(a, b):
    return tl.minimum(a, b)


@triton.jit
def pid_kernel(out_ptr):
    x = tl.program_id(0)
    y = tl.program_id(1)
    z = tl.program_id(2)
    nx = tl.num_programs(0)
    ny = tl.num_programs(1)
    nz = tl.num_programs(2)
    idx = (z * ny + y) * nx + x
    tl.store(out_ptr + idx, x + 10 * y + 100 * z + 1000 * (nx + ny + nz))


# out[i] = sum over k < K of x[k * n + i], with a for loop; then a while
# loop and a branch on a scalar.
@triton.jit
def loop_kernel(x_ptr, out_ptr, n, K, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(K):
        acc += tl.load(x_ptr + k * n + offs, mask=mask, other=0.0)
    j = 0
    while j < 3:
        acc = acc * 2.0
        j += 1
    if K > 2:
        acc = acc + 1.0
    tl.store(out_ptr + offs, acc, mask=mask)


# Row sums, row maxima and column sums of a ROWS x COLS tile per program.
@triton.jit
def reduce_kernel(x_ptr, rsum_ptr, rmax_ptr, csum_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    pid = tl.program_id(0)
    r = tl.arange(0, ROWS)
    c = tl.arange(0, COLS)
    x = tl.load(x_ptr + pid * ROWS * COLS + r[:, None] * COLS + c[None, :])
    tl.store(rsum_ptr + pid * ROWS + r, tl.reduce(x, 1, _add))
    tl.store(rmax_ptr + pid * ROWS + r, tl.reduce(x, 1, _max))
    tl.store(csum_ptr + pid * COLS + c, tl.reduce(x, 0, _add))


# Integer reductions are exact on every path: a whole-tile sum and min.
@triton.jit
def ireduce_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK))
    tl.store(out_ptr + 2 * pid, tl.reduce(x, 0, _add))
    tl.store(out_ptr + 2 * pid + 1, tl.reduce(x, 0, _min))


# Transpose of an M x N tile through tl.trans, and a reshape to 1-D.
@triton.jit
def trans_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    t = tl.trans(x)
    tl.store(out_ptr + tl.arange(0, M * N), tl.reshape(t, (M * N,)))


# C = A @ B (+ C0) for one M x N tile, f32 accumulate: f16, bf16, tf32
# inputs, or any two fp8 types.
@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    _dot_tile(a_ptr, b_ptr, c_ptr, out_ptr, M, N, K, None, tl.float32)


# fp8 x fp8 with max_num_imprecise_acc = IMP: on wgmma, every IMP elements of
# K accumulate in a zeroed partial accumulator that is then added to C in f32.
@triton.jit
def dot_imprecise_kernel(a_ptr, b_ptr, c_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                         K: tl.constexpr, IMP: tl.constexpr):
    _dot_tile(a_ptr, b_ptr, c_ptr, out_ptr, M, N, K, IMP, tl.float32)


# f64 x f64 + f64: Triton's dot gives f64 and takes an f64 accumulator only
# with out_dtype=tl.float64.
@triton.jit
def ddot_kernel(a_ptr, b_ptr, c_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    _dot_tile(a_ptr, b_ptr, c_ptr, out_ptr, M, N, K, None, tl.float64)


@triton.jit
def _dot_tile(a_ptr, b_ptr, c_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
              IMP: tl.constexpr, OUT: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.load(c_ptr + rm[:, None] * N + rn[None, :])
    acc = tl.dot(a, b, c, max_num_imprecise_acc=IMP, out_dtype=OUT)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], acc)


# int8 x int8 -> int32 (mma.sync / wgmma .s8 on the tensor cores), then C
# added in int32: the form Triton 3.6 takes for integer dots.
@triton.jit
def idot_kernel(a_ptr, b_ptr, c_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.load(c_ptr + rm[:, None] * N + rn[None, :])
    acc = tl.dot(a, b, out_dtype=tl.int32)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], acc + c)


# f16 x f16 accumulated in f16 (out_dtype=tl.float16).
@triton.jit
def hdot_kernel(a_ptr, b_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    acc = tl.dot(a, b, out_dtype=tl.float16)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], acc)


# O = (Q @ K^T * scale).to(Q's type) @ V for one tile: K is read transposed
# (its D dimension contiguous), and the second dot's A operand is a computed
# value, not a load (on tensor cores it stays in registers).
@triton.jit
def dot_chain_kernel(q_ptr, k_ptr, v_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                     D: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :])
    kt = tl.load(k_ptr + rd[:, None] + rn[None, :] * D)
    s = tl.dot(q, kt)
    p = (s * 0.125).to(q.dtype)
    v = tl.load(v_ptr + rn[:, None] * D + rd[None, :])
    o = tl.dot(p, v)
    tl.store(out_ptr + rm[:, None] * D + rd[None, :], o)


# Inclusive prefix sums of each row, forward and reversed (tl.associative_scan).
@triton.jit
def scan_kernel(x_ptr, fwd_ptr, rev_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    r = tl.arange(0, ROWS)
    c = tl.arange(0, COLS)
    offs = r[:, None] * COLS + c[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(fwd_ptr + offs, tl.associative_scan(x, 1, _add))
    tl.store(rev_ptr + offs, tl.associative_scan(x, 1, _add, reverse=True))
# SPDX-License-Identifier: MIT


# f32 to both fp8 types (rounded to nearest even, saturating) and back.
@triton.jit
def f8cvt_kernel(x_ptr, e4_ptr, e5_ptr, back_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    e4 = x.to(tl.float8e4nv)
    e5 = x.to(tl.float8e5)
    tl.store(e4_ptr + offs, e4)
    tl.store(e5_ptr + offs, e5)
    tl.store(back_ptr + offs, e4.to(tl.float32) + e5.to(tl.float16).to(tl.float32) * 1024.0)


# f16 accumulation carried through a K loop (pipelined: asynchronous wgmma
# .f16 with its accumulators waited for in f16 registers).
@triton.jit
def hdot_loop_kernel(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float16)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc, out_dtype=tl.float16)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


# f32 to f16 and bf16 truncating toward zero (fp_downcast_rounding="rtz").
@triton.jit
def rtz_kernel(x_ptr, h_ptr, b_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(h_ptr + offs, x.to(tl.float16, fp_downcast_rounding="rtz"))
    tl.store(b_ptr + offs, x.to(tl.bfloat16, fp_downcast_rounding="rtz"))
