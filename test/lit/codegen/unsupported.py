# A kernel that needs more shared memory than the target has fails with a
# located error naming the bytes, not a failed launch: the shared-memory
# scan of 2^17 floats needs 512 KiB, and the error points at the user's call
# even though tl.cumsum is written in the prelude.
# RUN: not %ttc %s -k k -s '*fp32:16' --emit ptx 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    offs = tl.arange(0, 131072)
    tl.store(x_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), 0))

# CHECK: unsupported.py:13:28: error: the kernel needs 524288 bytes of shared memory, more than the 232448 bytes a block can have on compute capability 9.0 (smaller tiles or fewer stages need less)
# CHECK-NEXT: tl.store(x_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), 0))
# CHECK-NEXT: ^
# SPDX-License-Identifier: MIT
