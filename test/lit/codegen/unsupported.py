# Ops codegen cannot lower fail with a located error, not a crash: the
# shared-memory scan holds at most 48 KiB, and the error points at the
# user's call even though tl.cumsum is written in the prelude.
# RUN: not %ttc %s -k k -s '*fp32:16' --emit ptx 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    offs = tl.arange(0, 16384)
    tl.store(x_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), 0))

# CHECK: unsupported.py:12:28: error: unsupported in codegen: tt.scan of 65536 bytes (the shared-memory scan holds at most 49152)
# CHECK-NEXT: tl.store(x_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), 0))
# CHECK-NEXT: ^
