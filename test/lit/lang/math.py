# Math builtins and the prelude's elementwise helpers: tl.erf and fp64
# sin/cos call libdevice (__nv_erff, __nv_sin, __nv_cos), which codegen links
# only when used and internalizes (no __nv_ symbol survives; fp64 sin/cos
# keep libdevice's internal slow-path reduction as a call); tl.umulhi is
# tt.mulhiui, tl.clamp tt.clampf; sigmoid, softmax, cdiv come from the prelude.
# RUN: %ttc %s -k k -s '*fp32,*fp64,*u32,i32,128' --emit ttir | FileCheck %s
# RUN: %ttc %s -k k -s '*fp32,*fp64,*u32,i32,128' --emit llir | FileCheck %s --check-prefix=LLIR
# RUN: %ttc %s -k k -s '*fp32,*fp64,*u32,i32,128' --arch sm_80 --emit ptx -o %t80.ptx
# RUN: %ttc %s -k k -s '*fp32,*fp64,*u32,i32,128' --arch sm_90a --emit ptx -o %t90.ptx
# RUN: FileCheck %s --check-prefix=PTX --input-file %t90.ptx
# RUN: %if ptxas %{ %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin %}
# RUN: %if ptxas %{ %ptxas -arch=sm_90a %t90.ptx -o %t90.cubin %}
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, d_ptr, u_ptr, n, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y = tl.erf(x) + tl.sigmoid(x) + tl.clamp(x, -1.0, 1.0) + tl.softmax(x)
    tl.store(x_ptr + offs, y)
    d = tl.load(d_ptr + offs)
    tl.store(d_ptr + offs, tl.sin(d) + tl.cos(d))
    u = tl.load(u_ptr + offs)
    tl.store(u_ptr + offs, tl.umulhi(u, 0x9E3779B9))
    tl.store(u_ptr + N + offs, u * 0 + tl.cdiv(n, 16) + tl.cdiv(100, 16))

# CHECK-LABEL: tt.func public @k
# CHECK: math.erf %{{.*}} : tensor<128xf32>
# CHECK: math.exp
# CHECK: tt.clampf
# CHECK: "tt.reduce"
# CHECK: arith.maxnumf
# CHECK: math.sin %{{.*}} : tensor<128xf64>
# CHECK: math.cos %{{.*}} : tensor<128xf64>
# CHECK: tt.mulhiui
# cdiv(n, 16) = (n + 16 - 1) // 16 at run time; cdiv(100, 16) folds to 7.
# CHECK: arith.addi %n, %c16_i32 : i32
# CHECK-NEXT: arith.constant 1 : i32
# CHECK-NEXT: arith.subi
# CHECK-NEXT: arith.divsi
# CHECK: arith.constant dense<7> : tensor<128xi32>

# LLIR-NOT: declare {{.*}}@__nv_
# LLIR: define {{.*}}void @k(

# PTX-LABEL: .visible .entry k(
# PTX-NOT: __nv_
# PTX: mul.hi.u32
# SPDX-License-Identifier: MIT
