# A value for a runtime parameter specializes it (Triton's AOT constants and
# its JIT's `== 1` specialization): the value is baked in and the parameter
# leaves the kernel's ABI. With the inner stride given as 1, the 2-D loads
# along it become 128-bit.
# RUN: %ttc %s -k copy2d -s '*fp32:16,*fp32:16,i32:16,1,64,64' --emit ttir | FileCheck %s --check-prefix=TTIR
# RUN: %ttc %s -k copy2d -s '*fp32:16,*fp32:16,i32:16,1,64,64' --emit ptx | FileCheck %s --check-prefix=PTX
# RUN: %ttc %s -k copy2d -s '*fp32:16,*fp32:16,i32:16,i32,64,64' --emit ptx | FileCheck %s --check-prefix=RUNTIME
import triton
import triton.language as tl


@triton.jit
def copy2d(x_ptr, y_ptr, stride_m, stride_n, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * stride_m + rn[None, :] * stride_n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs))

# TTIR: tt.func public @copy2d(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride_m: i32 {tt.divisibility = 16 : i32})
# PTX: .entry copy2d(
# PTX-NOT: _param_3
# PTX: ld.global.v4.b32
# PTX: st.global.v4.b32
# RUNTIME: .entry copy2d(
# RUNTIME: _param_3
# RUNTIME-NOT: ld.global.v4
# SPDX-License-Identifier: MIT
