# RUN: not %ttc %s -k k -s '*fp32, *fp33,1024' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, BLOCK: tl.constexpr):
    pass
# CHECK: <signature>:1:9: error: unknown type 'fp33' in signature
# CHECK-NEXT: *fp32, *fp33,1024
# CHECK-NEXT: {{^        \^$}}
# SPDX-License-Identifier: MIT
