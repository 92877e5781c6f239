# Module-level conditions and try / except around the names a kernel uses:
# a test ttc cannot evaluate counts as false (with a remark) without failing
# the module it is in, an if / elif / else chain with nested conditions picks
# its clause, and a try body that calls host code falls back to its except
# handlers in source order (a nested try first).
# RUN: %ttc %s -I %S/Inputs -k k -s '*fp32:16,*fp32:16,i32,128' --emit ttir 2>&1 | FileCheck %s
# RUN: %ttc %s -I %S/Inputs -k k -s '*fp32:16,*fp32:16,i32,128' --emit cubin -o %t.cubin
# RUN: not %ttc %s -I %S/Inputs -k bad -s '*fp32:16,i32,128' --emit ttir 2>&1 | FileCheck %s --check-prefix=BAD
import triton
import triton.language as tl

from shim import LEVEL, fast_exp, math_shim
from shim import backend


@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = fast_exp(x) + math_shim.pow(x, 2.0) * LEVEL
    tl.store(y_ptr + offs, y, mask=m)


@triton.jit
def bad(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, backend.scale(tl.load(x_ptr + offs)))


# CHECK: shim.py:9:4: remark: this module-level condition depends on host state ttc cannot evaluate at compile time: taken as false
# CHECK-NOT: error
# CHECK: tt.func public @k
# CHECK: math.exp
# CHECK: tt.extern_elementwise
# CHECK-SAME: __nv_powf
# BAD: conditions.py:28:28: error: cannot use 'backend' in a kernel: module 'not_a_kernel_module' is not found
# BAD: note: 'backend' is imported here
# BAD: shim.py:7:42: note: the reason is here
# SPDX-License-Identifier: MIT
