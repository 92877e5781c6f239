# SPDX-License-Identifier: MIT
# Kernels whose parameter names clash with the generated C or C++, and one
# with constexprs that are no C numbers.
import triton
import triton.language as tl


@triton.jit
def cxx_kw(x_ptr, new):
    tl.store(x_ptr, new)


@triton.jit
def c_type(x_ptr, int32_t):
    tl.store(x_ptr, int32_t)


@triton.jit
def own(x_ptr, own_functions):
    tl.store(x_ptr, own_functions)


@triton.jit
def act(x_ptr, n, ACT: tl.constexpr, DT: tl.constexpr, NONE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if ACT == "relu":
        x = tl.maximum(x, 0.0)
    tl.store(x_ptr + offs, x.to(DT).to(tl.float32), mask=offs < n)


@triton.jit
def varlen(x_ptr, cu_seqlens, stride_t, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + o, cu_seqlens + stride_t, mask=o < n)
