# RUN: not %ttc %s -k k -s '*fp32,i32,48' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # CHECK: {{.*}}bad_arange.py:8:25: error: arange size must be a power of two, got 48
    # CHECK-NEXT: offs = tl.arange(0, BLOCK)
    # CHECK: {{.*}}bad_arange.py:7:1: note: in kernel 'k'
# SPDX-License-Identifier: MIT
