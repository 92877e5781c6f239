# tl.max/min with return_indices, tl.argmax/argmin and tl.reduce with a
# @triton.jit combine function over a tuple: the prelude's reductions lower
# to one tt.reduce with two operands whose combiner is the inlined function;
# the PTX assembles for sm_80 and sm_90a.
# RUN: %ttc %s -k k -s '*fp32,*fp32,*i32,128' --emit ttir | FileCheck %s
# RUN: %ttc %s -k k2d -s '*fp16,*i32,32,64' --emit ttir | FileCheck %s --check-prefix=TWOD
# RUN: %ttc %s -k k -s '*fp32,*fp32,*i32,128' --arch sm_80 --emit ptx -o %t80.ptx
# RUN: %ttc %s -k k2d -s '*fp16,*i32,32,64' --arch sm_90a --emit ptx -o %t90.ptx
# RUN: %if ptxas %{ %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin %}
# RUN: %if ptxas %{ %ptxas -arch=sm_90a %t90.ptx -o %t90.cubin %}
# RUN: FileCheck %s --check-prefix=PTX --input-file %t80.ptx
import triton
import triton.language as tl


@triton.jit
def pick_min_abs(a, ia, b, ib):
    # keeps the element of smaller magnitude and its index
    take_a = tl.abs(a) < tl.abs(b)
    return tl.where(take_a, a, b), tl.where(take_a, ia, ib)


@triton.jit
def k(x_ptr, o_ptr, i_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    m, i = tl.max(x, axis=0, return_indices=True)
    tl.store(o_ptr, m)
    tl.store(i_ptr, i)
    tl.store(i_ptr + 1, tl.argmin(x, 0))
    v, j = tl.reduce((x, offs), 0, pick_min_abs)
    tl.store(o_ptr + 1, v)
    tl.store(i_ptr + 2, j)


@triton.jit
def k2d(x_ptr, i_ptr, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    idx = tl.argmax(x, axis=1, keep_dims=True)
    tl.store(i_ptr + rows, idx)

# CHECK-LABEL: tt.func public @k
# CHECK: %[[R:.*]]:2 = "tt.reduce"(%{{.*}}, %offs) <{axis = 0 : i32}> ({
# CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[IA:.*]]: i32, %[[B:.*]]: f32, %[[IB:.*]]: i32):
# CHECK: arith.cmpf oeq, %[[A]], %[[B]] : f32
# CHECK: arith.cmpi slt, %[[IA]], %[[IB]] : i32
# CHECK: arith.cmpf ogt, %[[A]], %[[B]] : f32
# CHECK: tt.reduce.return %{{.*}}, %{{.*}} : f32, i32
# CHECK-NEXT: }) : (tensor<128xf32>, tensor<128xi32>) -> (f32, i32)
# CHECK: tt.store %o_ptr, %[[R]]#0
# CHECK: tt.store %i_ptr, %[[R]]#1
# CHECK: "tt.reduce"
# CHECK: arith.cmpf olt
# CHECK: tt.reduce.return
# CHECK: "tt.reduce"
# CHECK: math.absf
# CHECK: math.absf
# CHECK: arith.cmpf olt
# CHECK: tt.reduce.return

# argmax over axis 1 of a 2-d fp16 tensor: the index broadcasts over rows,
# keep_dims restores the reduced axis.
# TWOD-LABEL: tt.func public @k2d
# TWOD: tt.broadcast %{{.*}} : tensor<1x64xi32> -> tensor<32x64xi32>
# TWOD: "tt.reduce"(%{{.*}}, %{{.*}}) <{axis = 1 : i32}>
# TWOD: ^bb0(%{{.*}}: f16, %{{.*}}: i32, %{{.*}}: f16, %{{.*}}: i32):
# TWOD: (tensor<32x64xf16>, tensor<32x64xi32>) -> (tensor<32xf16>, tensor<32xi32>)
# TWOD: tt.expand_dims %{{.*}}#1 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>

# PTX: .visible .entry k(
# PTX: shfl.sync.bfly.b32
# PTX: bar.sync 0;
# SPDX-License-Identifier: MIT
