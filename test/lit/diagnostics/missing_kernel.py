# RUN: not %ttc %s -k nope -s '*fp32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    pass
# CHECK: error: no function named 'nope' in '{{.*}}missing_kernel.py'
# CHECK: {{.*}}missing_kernel.py:7:1: note: 'k' is defined here
# SPDX-License-Identifier: MIT
