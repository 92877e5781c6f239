# RUN: not %ttc %s -k k -s '*fp32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    if True:
        x = 1
      y = 2
# CHECK: {{.*}}bad_indent.py:10:7: error: unindent does not match any outer indentation level
# SPDX-License-Identifier: MIT
