# lang_helpers.py - a sibling module that language.py imports from: a module
# constant, a jit helper, and host code around them that ttc skips.
import os

import triton
import triton.language as tl

SCALE = 0.5
LABEL = f"scale={SCALE}"  # host code: an f-string ttc never needs


class Unused:
    def method(self, *args, **kwargs):
        return {k: v for k, v in kwargs.items()}


@triton.jit
def scaled(x):
    return x * SCALE


if os.environ.get("TTC_LANG_HELPERS_NEVER_SET", "0") == "1":
    OFFSET = 100.0
else:
    OFFSET = 1.0
# SPDX-License-Identifier: MIT
