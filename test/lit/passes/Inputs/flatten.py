# SPDX-License-Identifier: MIT
# Loop nests for tritongpu-fuse-nested-loops (tritongpu-fuse-nested-loops.test).
import triton
import triton.language as tl


# A store before the inner loop would run on every fused iteration.
@triton.jit
def impure_prologue(x_ptr, n, m):
    for i in tl.range(0, n, 1, flatten=True):
        tl.store(x_ptr + i, 0.0)
        acc = 0.0
        for j in range(0, m):
            acc += tl.load(x_ptr + j)
        tl.store(x_ptr + i, acc)


# The inner loop's bound changes with the outer loop.
@triton.jit
def varying_bound(x_ptr, n):
    for i in tl.range(0, n, 1, flatten=True):
        acc = 0.0
        for j in range(0, i):
            acc += tl.load(x_ptr + j)
        tl.store(x_ptr + i, acc)


# Two inner loops.
@triton.jit
def two_loops(x_ptr, n, m):
    for i in tl.range(0, n, 1, flatten=True):
        acc = 0.0
        for j in range(0, m):
            acc += tl.load(x_ptr + j)
        for j in range(0, m):
            acc += tl.load(x_ptr + j)
        tl.store(x_ptr + i, acc)


# Fused: a scalar sum; its starting value made before the loop restarts
# through arith.select on each outer iteration's first inner one.
@triton.jit
def scalar_nest(x_ptr, y_ptr, n, m):
    for i in tl.range(0, n, 2, flatten=True):
        acc = 0.0
        for j in range(1, m, 3):
            acc += tl.load(x_ptr + i * m + j)
        tl.store(y_ptr + i, acc)


# flatten takes a constexpr bool.
@triton.jit
def bad_flatten(x_ptr, n):
    for i in tl.range(0, n, flatten=1):
        tl.store(x_ptr + i, 0.0)

