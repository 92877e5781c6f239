# RUN: not %ttc %s -k k -s '*fp32,*i32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    pass
# CHECK: <signature>:1:7: error: constexpr parameter 'BLOCK' needs a value in the signature, found type '*i32'
# CHECK: {{.*}}constexpr_without_value.py:7:14: note: parameter 'BLOCK' declared here
# SPDX-License-Identifier: MIT
