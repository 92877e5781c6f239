# RUN: not %ttc %s -k k -s '*fp32,i32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    tl.store(n, 1.0)
# CHECK: {{.*}}store_non_pointer.py:8:14: error: 'pointer' argument of 'tl.store' must be a pointer or a tensor of pointers, found 'i32'
# SPDX-License-Identifier: MIT
