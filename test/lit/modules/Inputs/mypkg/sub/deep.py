# mypkg/sub/deep.py - relative imports one and two levels up.
import triton

from .. import helpers
from ..helpers import GAIN as G


@triton.jit
def twice_gain(x):
    return helpers.twice(x) * G
# SPDX-License-Identifier: MIT
