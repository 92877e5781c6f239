# SPDX-License-Identifier: MIT
# K loops for tritongpu-pipeline-dot-operands.test: a wgmma that reads a
# shared buffer stored in the loop body must stay synchronous.
import triton
import triton.language as tl


# B is loaded N x K and transposed: tritongpu-optimize-dot-operands copies
# it untransposed and views it transposed, so a ring fills it after all.
@triton.jit
def dot_trans_b(a_ptr, b_ptr, c_ptr, K, stride_am, stride_bn,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    pa = a_ptr + rm[:, None] * stride_am + rk[None, :]
    pb = b_ptr + rn[:, None] * stride_bn + rk[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(tl.load(pa), tl.trans(tl.load(pb)), acc)
        pa += BK
        pb += BK
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc.to(tl.float16))


# B scaled in registers before the dot: its buffer is stored in the body.
@triton.jit
def dot_scaled_b(a_ptr, b_ptr, c_ptr, K, stride_am, stride_bk,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    pa = a_ptr + rm[:, None] * stride_am + rk[None, :]
    pb = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(tl.load(pa), tl.load(pb) * 2.0, acc)
        pa += BK
        pb += BK * stride_bk
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc.to(tl.float16))


# A feeds two dots; the second one's result is only carried, but A's
# buffer is stored in the body.
@triton.jit
def two_dots(a_ptr, b_ptr, d_ptr, c_ptr, K, stride_am, stride_bk,
             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    pa = a_ptr + rm[:, None] * stride_am + rk[None, :]
    pb = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    pd = d_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    acc2 = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(pa)
        acc = tl.dot(a, tl.load(pb), acc)
        acc2 = tl.dot(a, tl.load(pd), acc2)
        pa += BK
        pb += BK * stride_bk
        pd += BK * stride_bk
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], (acc + acc2).to(tl.float16))


# The transposed B is also stored: tritongpu-optimize-dot-operands leaves
# its tt.trans and local_alloc as they are.
@triton.jit
def trans_also_stored(a_ptr, b_ptr, c_ptr, t_ptr, K, stride_am, stride_bn,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :])
    bt = tl.trans(tl.load(b_ptr + rn[:, None] * stride_bn + rk[None, :]))
    tl.store(t_ptr + rk[:, None] * BN + rn[None, :], bt)
    acc = tl.dot(a, bt)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc.to(tl.float16))
