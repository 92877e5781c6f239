# Triton's rules for tl.make_tensor_descriptor: the last stride is the
# constant 1, and a block row holds 16 bytes or more.
# RUN: not %ttc %s -k unit -s '*fp16:16,i32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=UNIT
# RUN: not %ttc %s -k runtime -s '*fp16:16,i32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=RUNTIME
# RUN: not %ttc %s -k narrow -s '*fp16:16,i32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=NARROW
import triton
import triton.language as tl


@triton.jit
def unit(p, M, N):
    d = tl.make_tensor_descriptor(p, shape=[M, N], strides=[1, M], block_shape=[16, 16])
    d.store([0, 0], d.load([0, 0]))


@triton.jit
def runtime(p, M, N):
    d = tl.make_tensor_descriptor(p, shape=[M, N], strides=[N, M], block_shape=[16, 16])
    d.store([0, 0], d.load([0, 0]))


@triton.jit
def narrow(p, M, N):
    d = tl.make_tensor_descriptor(p, shape=[M, N], strides=[N, 1], block_shape=[16, 4])
    d.store([0, 0], d.load([0, 0]))

# UNIT: {{.*}}descriptor_rules.py:12:60: error: Tensor descriptor last dim must be 1, a constant, but got a runtime i32
# RUNTIME: {{.*}}descriptor_rules.py:18:60: error: Tensor descriptor last dim must be 1, a constant, but got a runtime i32
# NARROW: {{.*}}descriptor_rules.py:24:80: error: Descriptor block shape must have at least 16 bytes in the last dimension, but got 4 * 2 = 8 bytes
# SPDX-License-Identifier: MIT
