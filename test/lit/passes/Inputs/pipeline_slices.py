# SPDX-License-Identifier: MIT
# Loops for tritongpu-pipeline-slices.test.
import triton
import triton.language as tl


# The pointers a scf.if picks are read by a second load, which is not
# pipelined: the if's result must not run ahead with the slice.
@triton.jit
def if_second_reader(a_ptr, b_ptr, c_ptr, d_ptr, K, flag, BM: tl.constexpr, BN: tl.constexpr,
                     BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * BN + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        if flag > 0:
            p = a_ptrs
        else:
            p = a_ptrs + BK
        acc = tl.dot(tl.load(p), tl.load(b_ptrs), acc)
        tl.store(d_ptr + k + rk, tl.sum(tl.load(p), axis=0))
        a_ptrs += BK
        b_ptrs += BK * BN
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


# An unmasked load as the loop's first op.
@triton.jit
def first_load(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * BN + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kk in range(0, K, BK):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * BN
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


# A flattened nest whose inner body reads 19 values of the prologue: the
# scf.if that remakes them yields 19 values.
@triton.jit
def many_values(a_ptr, b_ptr, c_ptr, n, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    for t in tl.range(0, n, 1, flatten=True):
        q0 = t * 3
        q1 = t * 5
        q2 = t * 7
        q3 = t * 11
        q4 = t * 13
        q5 = t * 17
        q6 = t * 19
        q7 = t * 23
        q8 = t * 29
        q9 = t * 31
        q10 = t * 37
        q11 = t * 41
        q12 = t * 43
        q13 = t * 47
        q14 = t * 53
        q15 = t * 59
        q16 = t * 61
        q17 = t * 67
        q18 = t * 71
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kk in range(0, K, BK):
            off = (q0 + q1 + q2 + q3 + q4 + q5 + q6 + q7 + q8 + q9 + q10 + q11 + q12 + q13 + q14 +
                   q15 + q16 + q17 + q18)
            a = tl.load(a_ptr + off * 64 + kk + rm[:, None] * K + rk[None, :])
            b = tl.load(b_ptr + kk * BN + rk[:, None] * BN + rn[None, :])
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + t * BM * BN + rm[:, None] * BN + rn[None, :], acc)
