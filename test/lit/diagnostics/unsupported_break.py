# RUN: not %ttc %s -k k -s '*fp32,i32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    for i in range(n):
        if i > 3:
            break
# CHECK: {{.*}}unsupported_break.py:10:13: error: unsupported: 'break'
# SPDX-License-Identifier: MIT
