# Round trip of kernels with loops, while, if, reductions, scans, dot,
# atomics, casts and math at ttir and ttgir, with and without --print-loc.
# (two_d also round-trips at ttgir, whose convert_layout ops it exercises.)
# RUN: sh %S/Inputs/roundtrip.sh %ttc %t %s loops '*fp32:16,*fp32:16,i32,128' | FileCheck %s --check-prefix=LOOPS
# RUN: sh %S/Inputs/roundtrip.sh %ttc %t %s two_d '*fp32:16,*fp32:16,32,64' | FileCheck %s --check-prefix=TWOD
# RUN: sh %S/Inputs/roundtrip.sh %ttc %t %s many '*fp32:16,*fp32:16,*fp32:16,*i32,i32,256' | FileCheck %s --check-prefix=MANY
# LOOPS: round trip ok: loops
# TWOD: round trip ok: two_d
# MANY: round trip ok: many
import triton
import triton.language as tl


@triton.jit
def loops(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(0, n, BLOCK):
        m = offs + i < n
        acc += tl.load(x_ptr + offs + i, mask=m, other=0.0)
    j = 0
    while j < n:
        j += 2
    if pid > 3:
        acc = acc * 2.0
    s = tl.sum(acc, axis=0)
    t = tl.where(acc > 1.5, acc, 0.5)
    tl.store(y_ptr + offs, t + s + j)

@triton.jit
def two_d(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    p = x_ptr + rm[:, None] * N + rn[None, :]
    x = tl.load(p)
    r = tl.max(x, axis=1)
    tl.store(y_ptr + rm, r.to(tl.float16).to(tl.float32))


@triton.jit
def many(x_ptr, y_ptr, z_ptr, w_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0, cache_modifier=".cg", eviction_policy="evict_last")
    y = tl.load(y_ptr + offs, volatile=True)
    a = tl.dot(tl.reshape(x, (16, 16)), tl.trans(tl.reshape(y, (16, 16))))
    s = tl.cumsum(x, axis=0)
    i = x.to(tl.int32)
    u = i // 3 + i % 5 - (i << 2) + (i >> 1)
    f = tl.sqrt(tl.abs(x)) + tl.exp2(x) + tl.log(x) + tl.sin(x) + tl.cos(x) + tl.floor(x) + tl.ceil(x)
    g = tl.maximum(x, y) + tl.minimum(x, y) + tl.fma(x, y, x) + tl.clamp(x, 0.0, 1.0)
    h = x.to(tl.float16).to(tl.float32) + x.to(tl.bfloat16).to(tl.float32)
    tl.atomic_add(z_ptr + offs, x)
    tl.atomic_max(w_ptr + offs, i, sem="relaxed")
    tl.atomic_cas(z_ptr, 0.0, 1.0)
    tl.store(z_ptr + offs, s + u + f + g + h + tl.reshape(a, (BLOCK,)) + tl.argmax(x, 0), cache_modifier=".wb")
    tl.device_assert(n > 0, "n must be positive")
# SPDX-License-Identifier: MIT
