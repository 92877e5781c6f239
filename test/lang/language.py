# Language tests for whole-module files (cases_language.c): sort, topk,
# flip, gather, histogram, cat; block pointers and tensor descriptors;
# libdevice by name and tl.debug_barrier; imports from a sibling module and
# a package; string, dtype and None constexprs; @triton.constexpr_function;
# pointers passed as integers; idioms of real kernel files. Host code below
# the kernels is skipped.
import itertools

import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.standard import _is_power_of_two, _log2

from lang_helpers import OFFSET, SCALE, scaled
from langpkg.ops import double_it

ROW_CONFIGS = [triton.Config({"R": r, "N": n}, num_warps=w)
               for r, n, w in itertools.product([4], [16, 32], [1, 4])]


# Each program sorts one row of N; DESC sorts down.
@triton.jit
def sort_kernel(x_ptr, out_ptr, N: tl.constexpr, DESC: tl.constexpr):
    offs = tl.program_id(0) * N + tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.sort(x, descending=DESC))


# An R x N tile: rows sorted up (out[0 : R*N]), then each row's top 4
# largest first (out[R*N : R*N + 4*R]).
@triton.jit
def sort2d_kernel(x_ptr, out_ptr, R: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.sort(x))
    top = tl.arange(0, R)[:, None] * 4 + tl.arange(0, 4)[None, :]
    tl.store(out_ptr + R * N + top, tl.topk(x, 4))


# Rows reversed (dim 1), then the rows' order reversed (dim 0).
@triton.jit
def flip_kernel(x_ptr, out_ptr, R: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.flip(x, 1))
    tl.store(out_ptr + R * N + offs, tl.flip(x, 0))


# out[i][j] = x[i][col[i][j]] then out[i][j] = x[row[i][j]][j].
@triton.jit
def gather_kernel(x_ptr, col_ptr, row_ptr, out_ptr, R: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.gather(x, tl.load(col_ptr + offs), 1))
    tl.store(out_ptr + R * N + offs, tl.gather(x, tl.load(row_ptr + offs), 0))


# Counts of 0 .. B-1 among N values.
@triton.jit
def histogram_kernel(x_ptr, out_ptr, N: tl.constexpr, B: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(out_ptr + tl.arange(0, B), tl.histogram(x, B))


# cat may reorder (as Triton): only order-free results are stored.
@triton.jit
def cat_kernel(x_ptr, out_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    c = tl.cat(x, x * 2, can_reorder=True)
    tl.store(out_ptr, tl.sum(c, 0))
    tl.store(out_ptr + 1, tl.max(c, 0))


# Row sums of an M x N matrix through a block pointer advanced BLOCK_N
# columns at a time; out-of-bounds elements are padded with zeros.
@triton.jit
def block_ptr_kernel(a_ptr, out_ptr, M, N, stride_m, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    a = tl.make_block_ptr(a_ptr, shape=(M, N), strides=(stride_m, 1), offsets=(pid * BLOCK_M, 0),
                          block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    acc = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for _ in range(0, N, BLOCK_N):
        acc += tl.sum(tl.load(a, boundary_check=(0, 1), padding_option="zero"), 1)
        a = tl.advance(a, (0, BLOCK_N))
    o = tl.make_block_ptr(out_ptr, shape=(M,), strides=(1,), offsets=(pid * BLOCK_M,),
                          block_shape=(BLOCK_M,), order=(0,))
    tl.store(o, acc.to(o.dtype.element_ty), boundary_check=(0,))


# out = 2 * a through tensor descriptors, tile by tile (edge tiles clipped).
@triton.jit
def descriptor_kernel(a_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[N, 1],
                                  block_shape=[BLOCK_M, BLOCK_N])
    o = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1],
                                  block_shape=[BLOCK_M, BLOCK_N])
    x = a.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    o.store([pid_m * BLOCK_M, pid_n * BLOCK_N], x * 2)


# Descriptors made by the host (TensorDescriptor in Triton), passed to the
# kernel as base pointer, shape (i32) and strides (i64): out = a + 1.
@triton.jit
def descriptor_arg_kernel(a_desc, out_desc, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x = a_desc.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    out_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], x + 1)


# libdevice functions by name: tanh, pow, erfc, isnan; and a barrier.
@triton.jit
def libdevice_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(out_ptr + offs, libdevice.tanh(x), mask=m)
    tl.store(out_ptr + n + offs, libdevice.pow(x, 3.0), mask=m)
    tl.store(out_ptr + 2 * n + offs, libdevice.erfc(x), mask=m)
    tl.debug_barrier()
    tl.store(out_ptr + 3 * n + offs, libdevice.isnan(x).to(tl.float32), mask=m)


@triton.constexpr_function
def half_of(n):
    return triton.next_power_of_2(n) // 2


# ACT ('relu' or 'scaled'), OUT_DTYPE and BIAS (None or a number) are
# constexprs; helpers come from lang_helpers.py and langpkg; out[n + pid]
# holds half_of(BLOCK) computed at compile time.
@triton.jit
def module_kernel(x_ptr, out_ptr, n, ACT: tl.constexpr, OUT_DTYPE: tl.constexpr,
                  BIAS: tl.constexpr, BLOCK: tl.constexpr):
    HALF: tl.constexpr = half_of(BLOCK)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if ACT == "relu":
        y = tl.maximum(x, 0.0)
    elif ACT == "scaled":
        y = scaled(x) + OFFSET
    else:
        raise ValueError(f"unknown activation {ACT}")
    if BIAS is not None:
        y = y + BIAS
    y = double_it(y)
    tl.store(out_ptr + offs, y.to(OUT_DTYPE), mask=m)
    tl.store(out_ptr + n + tl.program_id(0), tl.full((), HALF, OUT_DTYPE))
    tl.static_assert(SCALE == 0.5)


# A pointer passed as an integer address, cast back with tl.pointer_type;
# dtypes inspected at compile time.
@triton.jit
def int_pointer_kernel(addr, out_ptr, n, BLOCK: tl.constexpr):
    p = addr.to(tl.pointer_type(tl.float32))
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(p + offs, mask=m)
    tl.static_assert(out_ptr.dtype.element_ty == tl.float32)
    tl.static_assert(x.type.is_block() and x.type.element_ty == tl.float32)
    tl.store(out_ptr + offs, x + triton.cdiv(BLOCK, 64), mask=m)


@triton.jit
def _lowest(dtype):
    d = dtype.value  # a constexpr's .value is the constexpr itself
    if d.is_floating():
        return float(" -1e8 ")
    return 0


# Idioms of real kernel files: a number assigned and then used as a tensor
# (base = 0; base.to(...)), a pointer's truth (w_ptr may be null), a block
# pointer's advance method, tl.where between pointers, tl.static_range
# variables inside a runtime loop, a Python bool in tl.where, float() of a
# string, Triton's private helpers that kernel files import.
@triton.jit
def idioms_kernel(x_ptr, w_ptr, out_ptr, n, BLOCK: tl.constexpr, INV: tl.constexpr):
    pid = tl.program_id(0)
    base = 0
    base = base.to(tl.int64) + pid * BLOCK
    offs = base + tl.arange(0, BLOCK)
    m = offs < n
    src = tl.where(n > 0, x_ptr, w_ptr)  # a select between pointers
    x = tl.load(src + offs, mask=m, other=0.0)
    if w_ptr:
        x = x * tl.load(w_ptr + offs, mask=m, other=0.0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for t in range(0, 2):
        for i in tl.static_range(0, 3):
            acc += x * i
    pos = tl.where(m, x > 0, INV)
    tl.static_assert(_log2(BLOCK) == 7 and _is_power_of_two(BLOCK))
    tl.static_assert(tl.core.get_int_dtype(16, False) == tl.uint16)
    y = tl.where(pos, acc, _lowest(x.dtype))
    p = tl.make_block_ptr(out_ptr, (n,), (1,), (0,), (BLOCK,), (0,))
    p = p.advance((pid * BLOCK,))
    tl.store(p, y, boundary_check=(0,))


if __name__ == "__main__":
    import torch  # host code: never run by ttc
    print({c.kwargs["N"] for c in ROW_CONFIGS})
# SPDX-License-Identifier: MIT
