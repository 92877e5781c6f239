# RUN: not %ttc %s -k k -s '*fp32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    x = tl.load(x_ptr)
    y = tl.fancy_exp(x)
# CHECK: {{.*}}unknown_tl_function.py:9:9: error: unknown function 'tl.fancy_exp'
# CHECK: note: in kernel 'k'
# SPDX-License-Identifier: MIT
