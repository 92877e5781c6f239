# A kernel using a name that only host code binds gets an error at the use,
# naming the name and the construct, with a note where it is bound.
# RUN: not %ttc %s -k k -s '*fp32' --emit ttir 2>&1 | FileCheck %s
import numpy as np
import torch
import triton
import triton.language as tl

DEVICE = torch.device("cuda")


class Options:
    block = 64


for i in range(3):
    pass

if torch.cuda.is_available():
    ONLY_ON_GPU = 1


@triton.jit
def k(x_ptr):
    a = DEVICE
    b = Options
    c = i
    d = np.float32
    e = ONLY_ON_GPU
    f = host_fn(1)


def host_fn(v):
    return v

# CHECK: host_names.py:25:9: error: cannot use 'DEVICE' in a kernel: cannot use 'torch': module 'torch' is not found (ttc reads kernel modules from the importing file's package and the -I search path)
# CHECK: host_names.py:9:1: note: 'DEVICE' is bound here
# CHECK: host_names.py:5:8: note: the reason is here
# CHECK: host_names.py:26:9: error: cannot use 'Options' in a kernel: it is bound by a class, which ttc does not run
# CHECK: host_names.py:12:7: note: 'Options' is bound here
# CHECK: host_names.py:27:9: error: cannot use 'i' in a kernel: it is bound by a for loop, which ttc does not run
# CHECK: host_names.py:16:5: note: 'i' is bound here
# CHECK: host_names.py:28:9: error: cannot use 'np' in a kernel: module 'numpy' is not found
# CHECK: host_names.py:4:8: note: 'np' is imported here
# CHECK: host_names.py:19:4: remark: this module-level condition depends on host state ttc cannot evaluate at compile time: taken as false
# CHECK: host_names.py:29:9: error: cannot use 'ONLY_ON_GPU' in a kernel: it is bound only under a module-level condition ttc cannot evaluate at compile time (taken as false)
# CHECK: host_names.py:20:5: note: 'ONLY_ON_GPU' is bound here
# CHECK: host_names.py:30:9: error: 'host_fn' is not a @triton.jit function (a kernel can call only jit functions and @triton.constexpr_function helpers)
# CHECK: host_names.py:33:1: note: 'host_fn' is defined here
# SPDX-License-Identifier: MIT
