# random.py - Triton's counter-based Philox random numbers
# (triton/language/random.py), bit for bit: the same rounds, constants and
# conversions, so that a kernel draws the same numbers under ttc and Triton
# for the same seed and offsets. 32-bit offsets only (uint64 Philox: not yet).
import triton
import triton.language as tl

N_ROUNDS_DEFAULT = 10  # rounds of Philox


@triton.jit
def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    # n_rounds rounds of Philox 4x32 on counter (c0, c1, c2, c3), key (k0, k1).
    tl.static_assert(c0.dtype == tl.uint32, "unsupported: 64-bit Philox")
    PHILOX_KEY_A: tl.constexpr = 0x9E3779B9
    PHILOX_KEY_B: tl.constexpr = 0xBB67AE85
    PHILOX_ROUND_A: tl.constexpr = 0xD2511F53
    PHILOX_ROUND_B: tl.constexpr = 0xCD9E8D57
    for _ in tl.static_range(n_rounds):
        A = PHILOX_ROUND_A
        B = PHILOX_ROUND_B
        _c0, _c2 = c0, c2
        c0 = tl.umulhi(B, _c2) ^ c1 ^ k0
        c2 = tl.umulhi(A, _c0) ^ c3 ^ k1
        c1 = B * _c2
        c3 = A * _c0
        # raise the key
        k0 = k0 + PHILOX_KEY_A
        k1 = k1 + PHILOX_KEY_B
    return c0, c1, c2, c3


@triton.jit
def philox(seed, c0, c1, c2, c3, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    seed = tl.to_tensor(seed)
    c0 = tl.to_tensor(c0)
    c1 = tl.to_tensor(c1)
    c2 = tl.to_tensor(c2)
    c3 = tl.to_tensor(c3)
    seed = seed.to(tl.uint64)
    tl.static_assert(c0.dtype.primitive_bitwidth == 32, "unsupported: 64-bit offsets in philox")
    seed_hi = ((seed >> 32) & 0xffffffff).to(tl.uint32)
    seed_lo = (seed & 0xffffffff).to(tl.uint32)
    c0 = c0.to(tl.uint32, bitcast=True)
    c1 = c1.to(tl.uint32, bitcast=True)
    c2 = c2.to(tl.uint32, bitcast=True)
    c3 = c3.to(tl.uint32, bitcast=True)
    return philox_impl(c0, c1, c2, c3, seed_lo, seed_hi, n_rounds)


@triton.jit
def randint(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    # One block of random uint32 for a seed scalar and a block of offsets.
    ret, _, _, _ = randint4x(seed, offset, n_rounds)
    return ret


@triton.jit
def randint4x(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    # Four blocks of random uint32: the cheapest entry point.
    _0 = offset * 0
    return philox(seed, offset, _0, _0, _0, n_rounds)


@triton.jit
def uint_to_uniform_float(x):
    # A random uint32 -> a float in [0, 1): the largest scale such that
    # MAX_INT * scale < 1.0 after rounding.
    tl.static_assert(x.dtype == tl.uint32 or x.dtype == tl.int32, "unsupported: 64-bit random")
    x = x.to(tl.int32, bitcast=True)
    scale = 4.6566127342e-10
    x = tl.where(x < 0, -x - 1, x)
    return x * scale


@triton.jit
def rand(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    # A block of float32 in U(0, 1).
    source = randint(seed, offset, n_rounds)
    return uint_to_uniform_float(source)


@triton.jit
def rand4x(seed, offsets, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    i1, i2, i3, i4 = randint4x(seed, offsets, n_rounds)
    u1 = uint_to_uniform_float(i1)
    u2 = uint_to_uniform_float(i2)
    u3 = uint_to_uniform_float(i3)
    u4 = uint_to_uniform_float(i4)
    return u1, u2, u3, u4


@triton.jit
def pair_uniform_to_normal(u1, u2):
    # Box-Muller transform.
    u1 = tl.maximum(1.0e-7, u1)
    th = 6.283185307179586 * u2
    r = tl.sqrt(-2.0 * tl.log(u1))
    return r * tl.cos(th), r * tl.sin(th)


@triton.jit
def randn(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    # A block of float32 in N(0, 1).
    i1, i2, _, _ = randint4x(seed, offset, n_rounds)
    u1 = uint_to_uniform_float(i1)
    u2 = uint_to_uniform_float(i2)
    n1, _ = pair_uniform_to_normal(u1, u2)
    return n1


@triton.jit
def randn4x(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    u1, u2, u3, u4 = rand4x(seed, offset, n_rounds)
    n1, n2 = pair_uniform_to_normal(u1, u2)
    n3, n4 = pair_uniform_to_normal(u3, u4)
    return n1, n2, n3, n4
# SPDX-License-Identifier: MIT
