# SPDX-License-Identifier: MIT
import triton
import triton.language as tl


@triton.jit
def negabs_kernel(x_ptr, cmp_ptr, neg_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    n = -tl.abs(x)
    tl.store(cmp_ptr + offs, (n > -17).to(tl.int32))
    tl.store(neg_ptr + offs, n)
