# RUN: not %ttc %s -k k -s '*fp32,*fp32' --emit ttir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, m_ptr):
    offs = tl.arange(0, 128)
    m = tl.load(m_ptr + offs)
    x = tl.load(x_ptr + offs, mask=m)
# CHECK: {{.*}}bad_mask_type.py:10:36: error: mask must have boolean type, found 'tensor<128xfp32>'
# SPDX-License-Identifier: MIT
