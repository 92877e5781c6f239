# RUN: not %ttc %s -k k -s '*fp32,*fp32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr):
    z = x_ptr + y_ptr
# CHECK: {{.*}}pointer_plus_pointer.py:8:15: error: invalid operands to '+': 'pointer<fp32>' and 'pointer<fp32>'
# SPDX-License-Identifier: MIT
