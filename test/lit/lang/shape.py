# Shape ops that move elements between threads: tl.join / tl.split (tt.join,
# tt.split), tl.trans / tl.permute (tt.trans), tl.reshape (tt.reshape) and the
# prelude's tl.interleave; codegen routes each through shared memory.
# RUN: %ttc %s -k k -s '*fp32,*fp32,32' --emit ttir | FileCheck %s
# RUN: %ttc %s -k k -s '*fp32,*fp32,32' --arch sm_80 --emit ptx -o %t80.ptx
# RUN: %ttc %s -k k -s '*fp32,*fp32,32' --arch sm_90a --emit ptx -o %t90.ptx
# RUN: FileCheck %s --check-prefix=PTX --input-file %t90.ptx
# RUN: %if ptxas %{ %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin %}
# RUN: %if ptxas %{ %ptxas -arch=sm_90a %t90.ptx -o %t90.cubin %}
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(x_ptr + offs)
    b = tl.load(x_ptr + N + offs)
    j = tl.join(a, b)
    lo, hi = tl.split(j)
    tl.store(o_ptr + offs, lo - hi)
    m = tl.reshape(tl.interleave(a, b), (16, 4))
    t = tl.trans(m)
    p = tl.permute(t, (1, 0))
    tl.store(o_ptr + N + tl.arange(0, 64), tl.reshape(t, (64,)) + tl.reshape(p, (64,)))

# CHECK-LABEL: tt.func public @k
# CHECK: %[[J:.*]] = tt.join %{{.*}}, %{{.*}} : tensor<32xf32> -> tensor<32x2xf32>
# CHECK: tt.split %[[J]] : tensor<32x2xf32> -> tensor<32xf32>
# CHECK: tt.reshape %{{.*}} : tensor<32x2xf32> -> tensor<64xf32>
# CHECK: tt.reshape %{{.*}} : tensor<64xf32> -> tensor<16x4xf32>
# CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x4xf32> -> tensor<4x16xf32>

# PTX-LABEL: .visible .entry k(
# PTX: st.shared
# PTX: bar.sync 0;
# PTX: ld.shared
# SPDX-License-Identifier: MIT
