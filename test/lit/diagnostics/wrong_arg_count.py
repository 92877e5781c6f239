# RUN: not %ttc %s -k k -s '*fp32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def helper(a, b):
    return a + b


@triton.jit
def k(x_ptr):
    x = tl.program_id(0, 1)
    y = helper(1)
# CHECK: {{.*}}wrong_arg_count.py:13:26: error: too many arguments to 'tl.program_id': expected at most 1, found 2
# CHECK: {{.*}}wrong_arg_count.py:14:9: error: missing argument 'b' in call to 'helper'
# SPDX-License-Identifier: MIT
