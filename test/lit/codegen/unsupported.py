# Ops codegen cannot lower yet fail with a located error, not a crash
# (math.erf needs libdevice, which codegen does not link yet).
# RUN: not %ttc %s -k k -s '*fp32:16' --emit ptx 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    offs = tl.arange(0, 128)
    tl.store(x_ptr + offs, tl.erf(tl.load(x_ptr + offs)))

# CHECK: unsupported.py:11:28: error: unsupported in codegen: 'math.erf'
# CHECK-NEXT: tl.store(x_ptr + offs, tl.erf(tl.load(x_ptr + offs)))
# CHECK-NEXT: ^
