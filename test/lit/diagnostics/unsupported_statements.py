# RUN: not %ttc %s -k k -s '*fp32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    class A:
        pass
    with x_ptr:
        pass
    try:
        pass
    except Exception:
        pass
# CHECK: {{.*}}unsupported_statements.py:8:5: error: unsupported statement 'class'
# CHECK: {{.*}}unsupported_statements.py:10:5: error: unsupported statement 'with'
# CHECK: {{.*}}unsupported_statements.py:12:5: error: unsupported statement 'try'
# SPDX-License-Identifier: MIT
