# RUN: not %ttc %s -k k -s '*fp32,i32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    acc = 0
    for i in range(n):
        acc += tl.load(x_ptr + i)
# CHECK: {{.*}}loop_type_change.py:9:5: error: loop-carried variable: variable 'acc' has type 'i32' before and 'fp32' after; its type must stay the same
# SPDX-License-Identifier: MIT
