# RUN: not %ttc %s -k k -s '*fp32' --emit ttir 2>&1 | FileCheck %s
# RUN: not %ttc %s -k g -s '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=GLOBAL
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
# CHECK: {{.*}}unsupported_statements.py:9:5: error: unsupported statement 'class'
# CHECK: {{.*}}unsupported_statements.py:11:5: error: unsupported statement 'with'
# CHECK: {{.*}}unsupported_statements.py:13:5: error: unsupported statement 'try'


# global and nonlocal are fine in host code, not in a kernel (as Triton).
@triton.jit
def g(x_ptr):
    global G
    tl.store(x_ptr, 1.0)
# GLOBAL: {{.*}}unsupported_statements.py:[[@LINE-2]]:5: error: unsupported: 'global' or 'nonlocal' in a jit function
# SPDX-License-Identifier: MIT
