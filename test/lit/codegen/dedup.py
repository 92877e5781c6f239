# Elementwise ops compute one register per run of equal values (Triton's
# maybeDeduplicate): each thread holds 16 of the 64 rows of `rk < K` (rows
# w, w + 4, ..., w + 60); with K divisible by 16 (i32:16) the axis analysis
# finds the compare constant over aligned runs of 16 rows, so a thread
# computes one compare per run (4); without the divisibility, one per row
# (16). The 16 row loads and stores then share the 4 predicates.
# RUN: %ttc %s -k masked_copy -s '*fp32:16,*fp32:16,i32:16,64,128' --emit ptx | FileCheck %s --check-prefix=DIV16
# RUN: %ttc %s -k masked_copy -s '*fp32:16,*fp32:16,i32,64,128' --emit ptx | FileCheck %s --check-prefix=ANY
# DIV16-COUNT-4: setp.lt.s32
# DIV16-NOT: setp.lt.s32
# DIV16-COUNT-16: ld.global.v4.b32
# ANY-COUNT-16: setp.lt.s32
# ANY-NOT: setp.lt.s32
import triton
import triton.language as tl


@triton.jit
def masked_copy(x_ptr, y_ptr, K, BK: tl.constexpr, BN: tl.constexpr):
    rk = tl.arange(0, BK)
    rn = tl.arange(0, BN)
    m = rk[:, None] < K
    offs = rk[:, None] * BN + rn[None, :]
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, x, mask=m)
# SPDX-License-Identifier: MIT
