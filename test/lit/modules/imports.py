# Imports between kernel modules: absolute (through -I), relative inside a
# package, `import a.b as c`, `from pkg import module`, a package's
# re-export, star imports; modules are read only for the names used.
# RUN: %ttc %s -I %S/Inputs -k k -s '*fp32:16,*fp32:16,i32,128' --emit ttir | FileCheck %s
# RUN: %ttc %s -I %S/Inputs -k k -s '*fp32:16,*fp32:16,i32,128' --emit cubin -o %t.cubin
# RUN: not %ttc %s -k k -s '*fp32:16,*fp32:16,i32,128' --emit ttir 2>&1 | FileCheck %s --check-prefix=NOPATH
import triton
import triton.language as tl

import mypkg.helpers as h
from mypkg import helpers
from mypkg import twice_alias
from mypkg.sub.deep import twice_gain
from starmod import *  # noqa: F403


@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = h.gain(x) + helpers.twice(x) + twice_alias(x) + twice_gain(x) + star_add(x)
    tl.static_assert(h.GAIN == 3)
    tl.store(y_ptr + offs, y, mask=m)

# CHECK: tt.func public @k
# CHECK: arith.constant dense<3.000000e+00>
# CHECK: arith.constant dense<2.000000e+00>
# CHECK: arith.constant dense<7.000000e+00>
# NOPATH: imports.py:22:9: error: cannot use 'h' in a kernel: module 'mypkg.helpers' is not found (ttc reads kernel modules from the importing file's package and the -I search path)
# NOPATH: imports.py:10:8: note: 'h' is imported here
# SPDX-License-Identifier: MIT
