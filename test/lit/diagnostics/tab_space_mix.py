# RUN: not %ttc %s -k k -s '*fp32' --emit ttir 2>&1 | FileCheck %s
import triton


@triton.jit
def k(x_ptr):
        x = 1
	y = 2
# CHECK: {{.*}}tab_space_mix.py:8:2: error: inconsistent use of tabs and spaces in indentation
# SPDX-License-Identifier: MIT
