# sort.py - tl functions that permute or select elements, written over ttc's
# primitives (reshape, reduce, where): tl.sort, tl.topk, tl.flip, tl.gather,
# tl.histogram and tl.cat. Triton writes sort and flip the same way, over
# reshapes of the sorted dimension; here the reshapes stay within rank 4
# (one size-2 axis at a time), so inputs of rank 1 and 2 are supported.
import triton
import triton.language as tl


@triton.jit
def _log2(n: tl.constexpr):
    # log2 of a power of two, at compile time
    r: tl.constexpr = 0
    for i in tl.static_range(1, 31):
        if (1 << i) <= n:
            r = i
    return r


@triton.jit
def _is_power_of_two(n: tl.constexpr):
    return n != 0 and (n & (n - 1)) == 0


@triton.jit
def _last_dim(x, dim):
    # the (non-negative) dimension sort and flip work on; None is the last
    rank: tl.constexpr = len(x.shape)
    if dim is None:
        return rank - 1
    if dim < 0:
        return dim + rank
    return dim


@triton.jit
def _as_int(x):
    # the bits of x as an integer tensor of the same width (bools as int8)
    bits: tl.constexpr = x.dtype.primitive_bitwidth
    if bits == 1:
        return x.to(tl.int8)
    if x.dtype.is_int():
        return x
    if bits == 16:
        return x.to(tl.int16, bitcast=True)
    if bits == 32:
        return x.to(tl.int32, bitcast=True)
    return x.to(tl.int64, bitcast=True)


@triton.jit
def _from_int(ix, dtype: tl.constexpr):
    # the inverse of _as_int
    if dtype.primitive_bitwidth == 1:
        return ix != 0
    if dtype.is_int():
        return ix.to(dtype, bitcast=True)
    return ix.to(dtype, bitcast=True)


@triton.jit
def _partner(x, axis: tl.constexpr):
    # along an axis of size 2: each element's neighbour (a ^ b ^ a == b)
    ix = _as_int(x)
    return _from_int(ix ^ tl.xor_sum(ix, axis, keep_dims=True), x.dtype)


@triton.jit
def _split_shape(shape, dim: tl.constexpr, s: tl.constexpr):
    # shape with dimension dim (of size n) split into (n // (2 * s), 2, s)
    n: tl.constexpr = shape[dim]
    return shape[:dim] + (n // (2 * s), 2, s) + shape[dim + 1:]


@triton.jit
def _index_along(size: tl.constexpr, axis: tl.constexpr, rank: tl.constexpr):
    # arange(0, size) shaped to run along `axis` of a rank-`rank` tensor
    idx = tl.arange(0, size)
    for d in tl.static_range(rank):
        if d < axis:
            idx = tl.expand_dims(idx, 0)
        elif d > axis:
            idx = tl.expand_dims(idx, len(idx.shape))
    return idx


@triton.jit
def flip(x, dim=None):
    # x reversed along dim: swapping partners across every bit of the index
    _dim: tl.constexpr = _last_dim(x, dim)
    tl.static_assert(len(x.shape) <= 2, "tl.flip supports tensors of rank 1 and 2")
    n: tl.constexpr = x.shape[_dim]
    for j in tl.static_range(_log2(n)):
        y = tl.reshape(x, _split_shape(x.shape, _dim, 1 << j))
        x = tl.reshape(_partner(y, _dim + 1), x.shape)
    return x


@triton.jit
def _bitonic_step(x, dim: tl.constexpr, k: tl.constexpr, j: tl.constexpr, descending: tl.constexpr):
    # one compare-and-swap step of a bitonic network: distance 2**j inside
    # blocks of 2**k, which sort down when bit k of the index is set
    s: tl.constexpr = 1 << j
    shape = _split_shape(x.shape, dim, s)
    rank: tl.constexpr = len(shape)
    y = tl.reshape(x, shape)
    p = _partner(y, dim + 1)
    right = _index_along(2, dim + 1, rank)
    block = (_index_along(shape[dim], dim, rank) >> (k - j - 1)) & 1
    if descending:
        block = block ^ 1
    swap = (y > p) != ((right ^ block) == 1)
    return tl.reshape(tl.where(swap, p, y), x.shape)


@triton.jit
def sort(x, dim=None, descending: tl.constexpr = False):
    # a bitonic sort along the last dimension (as Triton, the only one supported)
    _dim: tl.constexpr = _last_dim(x, dim)
    tl.static_assert(_dim == len(x.shape) - 1, "tl.sort supports only the last dimension")
    tl.static_assert(len(x.shape) <= 2, "tl.sort supports tensors of rank 1 and 2")
    m: tl.constexpr = _log2(x.shape[_dim])
    for k in tl.static_range(1, m + 1):
        for jj in tl.static_range(k):
            x = _bitonic_step(x, _dim, k, k - 1 - jj, descending)
    return x


@triton.jit
def _take_first(x, k: tl.constexpr):
    # the first k elements along the last dimension, exactly (by their bits)
    n: tl.constexpr = x.shape[len(x.shape) - 1]
    shape = x.shape[:len(x.shape) - 1] + (n // k, k)
    rank: tl.constexpr = len(shape)
    y = _as_int(tl.reshape(x, shape))
    first = _index_along(n // k, rank - 2, rank) == 0
    return _from_int(tl.xor_sum(tl.where(first, y, 0), rank - 2), x.dtype)


@triton.jit
def topk(x, k: tl.constexpr, dim=None):
    # the k largest elements along the last dimension, largest first
    _dim: tl.constexpr = _last_dim(x, dim)
    tl.static_assert(_dim == len(x.shape) - 1, "tl.topk supports only the last dimension")
    return _take_first(sort(x, _dim, descending=True), k)


@triton.jit
def gather(src, index, axis):
    # out[..., i, ...] = src[..., index[..., i, ...], ...] along axis: every
    # candidate compared with the index, the match selected by its bits
    rank: tl.constexpr = len(src.shape)
    _axis: tl.constexpr = axis + rank if axis < 0 else axis
    tl.static_assert(rank <= 2, "tl.gather supports tensors of rank 1 and 2")
    n: tl.constexpr = src.shape[_axis]
    # a new axis after `_axis` runs over the candidates
    cand = _index_along(n, _axis + 1, rank + 1)
    hit = tl.expand_dims(index, _axis + 1) == cand
    bits = tl.expand_dims(_as_int(src), _axis)
    return _from_int(tl.xor_sum(tl.where(hit, bits, 0), _axis + 1), src.dtype)


@triton.jit
def histogram(input, num_bins: tl.constexpr, mask=None):
    # counts of the values 0 .. num_bins - 1 (others are not counted), int32
    x = tl.expand_dims(input, 1)
    bins = tl.expand_dims(tl.arange(0, num_bins), 0)
    hit = x == bins
    if mask is not None:
        hit = hit & tl.expand_dims(mask, 1)
    return tl.sum(hit.to(tl.int32), 0)


@triton.jit
def cat(input, other, can_reorder=False):
    # input then other along the first dimension
    c = tl.join(input, other)
    rank: tl.constexpr = len(c.shape)
    if rank == 2:
        return tl.reshape(tl.permute(c, (1, 0)), (2 * input.shape[0],))
    if rank == 3:
        return tl.reshape(tl.permute(c, (2, 0, 1)), (2 * input.shape[0], input.shape[1]))
    tl.static_assert(rank <= 3, "tl.cat supports tensors of rank 1 and 2")
# SPDX-License-Identifier: MIT
