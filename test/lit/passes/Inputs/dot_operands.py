# SPDX-License-Identifier: MIT
# K loops whose wgmma reads a shared buffer stored in the loop body, for
# tritongpu-pipeline-dot-operands.test: the dot must stay synchronous.
import triton
import triton.language as tl


# B is loaded N x K and transposed in registers: its buffer is stored in
# the body, not filled by a ring.
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
