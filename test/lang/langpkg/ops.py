# langpkg/ops.py - a jit helper built on a relative import.
import triton

from .util import twice


@triton.jit
def double_it(x):
    return twice(x)
# SPDX-License-Identifier: MIT
