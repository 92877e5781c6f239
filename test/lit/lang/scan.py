# tl.cumsum / tl.cumprod / tl.associative_scan: prelude functions over the
# tt.scan primitive (attrs axis, reverse; the combiner inlined); codegen is a
# Hillis-Steele scan through shared memory (log2(n) rounds, one barrier pair
# each).
# RUN: %ttc %s -k k -s '*i32,*fp32,*i32,256' --emit ttir | FileCheck %s
# RUN: %ttc %s -k k -s '*i32,*fp32,*i32,256' --arch sm_80 --emit ptx -o %t80.ptx
# RUN: %ttc %s -k k -s '*i32,*fp32,*i32,256' --arch sm_90a --emit ptx -o %t90.ptx
# RUN: FileCheck %s --check-prefix=PTX --input-file %t90.ptx
# RUN: %if ptxas %{ %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin %}
# RUN: %if ptxas %{ %ptxas -arch=sm_90a %t90.ptx -o %t90.cubin %}
import triton
import triton.language as tl


@triton.jit
def running_max(a, b):
    return tl.maximum(a, b)


@triton.jit
def k(x_ptr, y_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + offs, tl.cumsum(x, 0))
    y = tl.load(y_ptr + offs)
    tl.store(y_ptr + offs, tl.cumprod(y, 0, reverse=True))
    tl.store(o_ptr + N + offs, tl.associative_scan(x, 0, running_max))
    m = tl.reshape(x, (16, 16))
    tl.store(o_ptr + 2 * N + offs, tl.reshape(tl.cumsum(m, axis=1), (N,)))

# CHECK-LABEL: tt.func public @k
# CHECK: "tt.scan"(%{{.*}}) <{axis = 0 : i32, reverse = false}> ({
# CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
# CHECK-NEXT: %[[S:.*]] = arith.addi %[[A]], %[[B]] : i32
# CHECK-NEXT: tt.scan.return %[[S]] : i32
# CHECK-NEXT: }) : (tensor<256xi32>) -> tensor<256xi32>
# CHECK: "tt.scan"(%{{.*}}) <{axis = 0 : i32, reverse = true}>
# CHECK: arith.mulf
# CHECK: "tt.scan"(%{{.*}}) <{axis = 0 : i32, reverse = false}>
# CHECK: arith.maxsi
# CHECK: tt.reshape %{{.*}} : tensor<256xi32> -> tensor<16x16xi32>
# CHECK: "tt.scan"(%{{.*}}) <{axis = 1 : i32, reverse = false}>
# CHECK: (tensor<16x16xi32>) -> tensor<16x16xi32>

# PTX-LABEL: .visible .entry k(
# PTX: st.shared
# PTX: bar.sync 0;
# PTX: ld.shared
# SPDX-License-Identifier: MIT
