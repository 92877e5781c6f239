# RUN: not %ttc %s -k k -s '*fp32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr, y)
# CHECK: {{.*}}undefined_name.py:8:25: error: undefined name 'offs'
# CHECK: {{.*}}undefined_name.py:9:21: error: undefined name 'y'
# SPDX-License-Identifier: MIT
