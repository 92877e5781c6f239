# RUN: not %ttc %s -k k -s '*fp32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    a = tl.arange(0, 16)
    b = tl.arange(0, 32)
    c = a[:, None] + b[:, None]
# CHECK: {{.*}}shape_mismatch.py:10:20: error: incompatible shapes for broadcast: [16, 1] and [32, 1]
# SPDX-License-Identifier: MIT
