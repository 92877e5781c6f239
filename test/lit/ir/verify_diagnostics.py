# --verify-diagnostics on a kernel file: the frontend's diagnostics against
# the `# expected-...` comments (the note is checked because it is expected).
# RUN: %ttc %s -k k -s '*fp32,i32,48' --emit ttir --verify-diagnostics
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):  # expected-note {{in kernel 'k'}}
    # expected-error@+1 {{arange size must be a power of two, got 48}}
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, offs)
# SPDX-License-Identifier: MIT
