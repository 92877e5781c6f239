# mypkg/helpers.py - jit helpers and constants, with host code around them.
import triton
import triton.language as tl

GAIN = 3
NAMES = [f"g{i}" for i in range(GAIN)]


@triton.jit
def twice(x):
    return x * 2


@triton.jit
def gain(x):
    return x * GAIN


def host_only(*args, **kwargs):
    with open(__file__) as f:
        return f.read()
# SPDX-License-Identifier: MIT
