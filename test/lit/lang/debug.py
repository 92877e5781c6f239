# Debugging builtins: tl.static_print is a compile-time remark; tl.device_print
# becomes tt.print and vprintf calls (one per element a thread holds);
# tl.device_assert and runtime `assert` become tt.assert and __assertfail only
# under @triton.jit(debug=True), as in Triton.
# RUN: %ttc %s -k dbg -s '*i32,16' --emit ttir 2>&1 | FileCheck %s
# RUN: %ttc %s -k dbg -s '*i32,16' --arch sm_90a --emit ptx 2>/dev/null | FileCheck %s --check-prefix=PTX
# RUN: %ttc %s -k nodbg -s '*i32,16' --emit ttir | FileCheck %s --check-prefix=NODBG
# RUN: %ttc %s -k dbg -s '*i32,16' --arch sm_80 --emit ptx -o %t80.ptx
# RUN: %if ptxas %{ %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin %}
import triton
import triton.language as tl


@triton.jit(debug=True)
def dbg(x_ptr, N: tl.constexpr):
    tl.static_print("block", N, (1, 2.5))
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.device_print("x = ", x)
    tl.device_assert(x >= 0, "negative input")
    assert x < 100, "too big"


@triton.jit
def nodbg(x_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.device_assert(x >= 0, "negative input")
    tl.store(x_ptr + offs, x)

# CHECK: debug.py:16:5: remark: static_print: block 16 (1, 2.5)
# CHECK-LABEL: tt.func public @dbg
# CHECK: "tt.print"(%{{.*}}) <{hex = false, isSigned = array<i32: 1>, prefix = " x = "}> : (tensor<16xi32>) -> ()
# CHECK: tt.assert %{{.*}}, "negative input" : tensor<16xi1>
# CHECK: tt.assert %{{.*}}, "too big" : tensor<16xi1>

# PTX: .extern .func  (.param .b32 func_retval0) vprintf
# PTX: .extern .func __assertfail
# PTX: call.uni (retval0), vprintf,
# PTX: call.uni __assertfail,

# NODBG-LABEL: tt.func public @nodbg
# NODBG-NOT: tt.assert
# NODBG: tt.return
# SPDX-License-Identifier: MIT
