# A helper module choosing its math functions the way real projects do:
# through version checks on modules ttc cannot read (taken as false, so the
# `else` branches are used), nested conditions inside a clause, and a try
# whose body calls host code, with nested try / except fallbacks.
import triton
import triton.language as tl
from not_a_kernel_module import Version, backend  # never found: only host code uses it

if Version(triton.__version__) >= Version("3.0.0"):
    if backend.name == "xpu":
        fast_exp = tl.extra.intel.libdevice.exp
    else:
        fast_exp = backend.libdevice.exp
    LEVEL = 3
else:
    fast_exp = tl.exp
    LEVEL = 2

try:
    math_shim = backend.get_math_module()
except ImportError:
    try:
        math_shim = triton.language.math
    except ImportError:
        math_shim = triton.language.libdevice
# SPDX-License-Identifier: MIT
