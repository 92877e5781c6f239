# starmod.py - names reached through `from starmod import *`.
import triton

STAR_CONST = 7


@triton.jit
def star_add(x):
    return x + STAR_CONST
# SPDX-License-Identifier: MIT
