# SPDX-License-Identifier: MIT
# A kernel whose tile size comes from the environment, read by host code.
import os

import triton
import triton.language as tl

BLOCK = int(os.getenv("TTC_TEST_BLOCK", "128"))
SCALE = float(os.environ.get("TTC_TEST_SCALE", "1.0"))


@triton.jit
def k(x_ptr, n):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, SCALE, mask=offs < n)
