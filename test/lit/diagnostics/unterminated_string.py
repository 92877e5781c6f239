# RUN: not %ttc %s -k k -s '*fp32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    tl.static_assert(True, 'oops)
# CHECK: {{.*}}unterminated_string.py:8:28: error: unterminated string literal
# SPDX-License-Identifier: MIT
