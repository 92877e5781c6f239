# RUN: not %ttc %s -k k -s '*fp32,16' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    pass
# CHECK: <signature>:1:7: error: parameter 'n' needs a type in the signature, found value '16'
