# RUN: not %ttc %s -k k -s '*fp32,i32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    pass
# CHECK: {{.*}}signature_arity.py:7:1: error: signature has 2 entries but kernel 'k' has 3 parameters
# SPDX-License-Identifier: MIT
