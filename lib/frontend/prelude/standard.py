# standard.py - the tl functions that Triton writes in Triton itself
# (triton/language/standard.py), written here the same way over ttc's C
# primitives: tl.reduce, tl.associative_scan, tl.where, tl.maximum, tl.full,
# tl.reshape, tl.join ... This file is compiled into libttc at build time
# (embed.cmake) and parsed by ttc's own frontend for every kernel; public
# names (no leading underscore) become tl.NAME and tensor methods.
import triton
import triton.language as tl


@triton.jit
def cdiv(x, div):
    # Ceiling division; folds when both operands are constexprs.
    return (x + div - 1) // div


@triton.jit
def sigmoid(x):
    return 1 / (1 + tl.exp(-x))


@triton.jit
def softmax(x, dim=None, keep_dims=False, ieee_rounding=False):
    if dim is None:
        _dim: tl.constexpr = 0
    else:
        _dim: tl.constexpr = dim
    z = x - max(x, _dim, keep_dims=keep_dims)
    num = tl.exp(z)
    den = sum(num, _dim, keep_dims=keep_dims)
    return tl.fdiv(num, den, ieee_rounding)


@triton.jit
def ravel(x):
    # A flattened view of x (row-major order).
    return tl.reshape(x, x.numel)


@triton.jit
def swizzle2d(i, j, size_i, size_j, size_g):
    # Row-major (i, j) of a size_i x size_j matrix -> indices that are
    # column-major within each group of size_g rows (grouped program order).
    ij = i * size_j + j
    size_gj = size_g * size_j
    group_id = ij // size_gj
    off_i = group_id * size_g
    # the last group may have fewer rows
    size_g = tl.minimum(size_i - off_i, size_g)
    new_i = off_i + (ij % size_g)
    new_j = (ij % size_gj) // size_g
    return new_i, new_j


@triton.jit
def zeros(shape, dtype):
    return tl.full(shape, 0, dtype)


@triton.jit
def zeros_like(input):
    return zeros(input.shape, input.dtype)


# ---- reductions ------------------------------------------------------------

@triton.jit
def _promote_bf16(x):
    # Reductions of bf16 run in fp32, as in Triton.
    if x.dtype == tl.bfloat16:
        return x.to(tl.float32)
    return x


@triton.jit
def _reduce_with_indices(input, axis, combine_fn, keep_dims):
    # Reduces (value, index) pairs; the index counts along `axis` (int32).
    if axis is None:
        input = ravel(input)
        _axis: tl.constexpr = 0
    else:
        _axis: tl.constexpr = axis
    index = tl.arange(0, input.shape[_axis])
    rank: tl.constexpr = len(input.shape)
    if rank > 1:
        # the index broadcasts across the other axes
        for d in tl.static_range(rank):
            if d != _axis and d - rank != _axis:
                index = tl.expand_dims(index, d)
        index = tl.broadcast_to(index, input.shape)
    return tl.reduce((input, index), _axis, combine_fn, keep_dims=keep_dims)


@triton.jit
def _argmax_combine(value1, index1, value2, index2, tie_break_left):
    if tie_break_left:
        tie = value1 == value2 and index1 < index2
    else:
        tie = False
    gt = value1 > value2 or tie
    v_ret = tl.where(gt, value1, value2)
    i_ret = tl.where(gt, index1, index2)
    return v_ret, i_ret


@triton.jit
def _argmax_combine_tie_break_left(value1, index1, value2, index2):
    return _argmax_combine(value1, index1, value2, index2, True)


@triton.jit
def _argmax_combine_tie_break_fast(value1, index1, value2, index2):
    return _argmax_combine(value1, index1, value2, index2, False)


@triton.jit
def _elementwise_max(a, b):
    return tl.maximum(a, b)


@triton.jit
def max(input, axis=None, return_indices=False, return_indices_tie_break_left=True,
        keep_dims=False):
    input = _promote_bf16(input)
    if return_indices:
        if return_indices_tie_break_left:
            return _reduce_with_indices(input, axis, _argmax_combine_tie_break_left, keep_dims)
        else:
            return _reduce_with_indices(input, axis, _argmax_combine_tie_break_fast, keep_dims)
    else:
        # narrow types reduce in 32 bits
        if input.dtype.primitive_bitwidth < 32:
            if input.dtype.is_floating():
                input = input.to(tl.float32)
            else:
                input = input.to(tl.int32)
        return tl.reduce(input, axis, _elementwise_max, keep_dims=keep_dims)


@triton.jit
def argmax(input, axis, tie_break_left=True, keep_dims=False):
    _, ret = max(input, axis, return_indices=True, return_indices_tie_break_left=tie_break_left,
                 keep_dims=keep_dims)
    return ret


@triton.jit
def _argmin_combine(value1, index1, value2, index2, tie_break_left):
    if tie_break_left:
        tie = value1 == value2 and index1 < index2
    else:
        tie = False
    lt = value1 < value2 or tie
    value_ret = tl.where(lt, value1, value2)
    index_ret = tl.where(lt, index1, index2)
    return value_ret, index_ret


@triton.jit
def _argmin_combine_tie_break_left(value1, index1, value2, index2):
    return _argmin_combine(value1, index1, value2, index2, True)


@triton.jit
def _argmin_combine_tie_break_fast(value1, index1, value2, index2):
    return _argmin_combine(value1, index1, value2, index2, False)


@triton.jit
def _elementwise_min(a, b):
    return tl.minimum(a, b)


@triton.jit
def min(input, axis=None, return_indices=False, return_indices_tie_break_left=True,
        keep_dims=False):
    input = _promote_bf16(input)
    if return_indices:
        if return_indices_tie_break_left:
            return _reduce_with_indices(input, axis, _argmin_combine_tie_break_left, keep_dims)
        else:
            return _reduce_with_indices(input, axis, _argmin_combine_tie_break_fast, keep_dims)
    else:
        if input.dtype.primitive_bitwidth < 32:
            if input.dtype.is_floating():
                input = input.to(tl.float32)
            else:
                input = input.to(tl.int32)
        return tl.reduce(input, axis, _elementwise_min, keep_dims=keep_dims)


@triton.jit
def argmin(input, axis, tie_break_left=True, keep_dims=False):
    _, ret = min(input, axis, return_indices=True, return_indices_tie_break_left=tie_break_left,
                 keep_dims=keep_dims)
    return ret


@triton.jit
def _sum_combine(a, b):
    return a + b


@triton.jit
def sum(input, axis=None, keep_dims=False, dtype: tl.constexpr = None):
    # Integers narrower than 32 bits accumulate in 32 bits of their sign.
    if dtype is not None:
        input = input.to(dtype)
    elif input.dtype.is_int_signed() and input.dtype.int_bitwidth < 32:
        input = input.to(tl.int32)
    elif input.dtype.is_int_unsigned() and input.dtype.int_bitwidth < 32:
        input = input.to(tl.uint32)
    return tl.reduce(input, axis, _sum_combine, keep_dims=keep_dims)


@triton.jit
def _xor_combine(a, b):
    return a ^ b


@triton.jit
def xor_sum(input, axis=None, keep_dims=False):
    tl.static_assert(input.dtype.is_int(), "xor_sum only supported for integers")
    return tl.reduce(input, axis, _xor_combine, keep_dims=keep_dims)


# ---- scans -----------------------------------------------------------------

@triton.jit
def cumsum(input, axis=0, reverse=False):
    input = _promote_bf16(input)
    return tl.associative_scan(input, axis, _sum_combine, reverse)


@triton.jit
def _prod_combine(a, b):
    return a * b


@triton.jit
def cumprod(input, axis=0, reverse=False):
    input = _promote_bf16(input)
    return tl.associative_scan(input, axis, _prod_combine, reverse)


# ---- shape helpers ---------------------------------------------------------

@triton.jit
def interleave(a, b):
    # The values of a and b alternating along their last dimension.
    c = tl.join(a, b)
    if len(c.shape) == 1:
        return c
    return tl.reshape(c, c.shape[:-2] + (2 * c.shape[-2],))
# SPDX-License-Identifier: MIT
