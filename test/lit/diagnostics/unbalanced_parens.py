# RUN: not %ttc %s -k k -s '*fp32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    x = tl.load((x_ptr + 1)
    y = x]
# CHECK: {{.*}}unbalanced_parens.py:9:10: error: closing parenthesis ']' does not match opening parenthesis '('
# CHECK: {{.*}}unbalanced_parens.py:8:16: error: '(' was never closed
# SPDX-License-Identifier: MIT
