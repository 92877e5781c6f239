# SPDX-License-Identifier: MIT
import triton
import triton.language as tl


@triton.jit
def bad_kernel(x_ptr, h_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(h_ptr + offs, tl.load(x_ptr + offs).to(tl.float16, fp_downcast_rounding="rtn"))
