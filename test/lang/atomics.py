# Language tests: atomics. Every result here is independent of the order in
# which programs run (integer sums, max, compare-and-swap on private slots),
# except the float sum, which the harness compares with a tolerance.
import triton
import triton.language as tl


@triton.jit
def atomic_kernel(x_ptr, f_ptr, sum_ptr, max_ptr, fsum_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    f = tl.load(f_ptr + offs, mask=mask)
    tl.atomic_add(sum_ptr + (offs % 4), x, mask=mask)
    tl.atomic_max(max_ptr + tl.zeros([BLOCK], dtype=tl.int32), x, mask=mask)
    tl.atomic_add(fsum_ptr + (offs % 4), f, mask=mask)


# Program p swaps 7 into slot p when it holds 0 and records the old value.
@triton.jit
def cas_kernel(slot_ptr, old_ptr):
    pid = tl.program_id(0)
    old = tl.atomic_cas(slot_ptr + pid, 0, 7)
    tl.store(old_ptr + pid, old)
# SPDX-License-Identifier: MIT
