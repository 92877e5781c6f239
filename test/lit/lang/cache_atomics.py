# cache_modifier / eviction_policy become tt.load / tt.store attributes and
# PTX qualifiers (ld.global.L1::evict_last, ld.global.cg, st.global.cs; ptxas
# rejects .cg with an L1 policy, for Triton too); float
# atomic_max / atomic_min lower, as in Triton, to a signed max on the bits
# where the value is non-negative and an unsigned min where it is negative.
# RUN: %ttc %s -k k -s '*fp32,*fp32,*fp32' --emit ttir | FileCheck %s
# RUN: %ttc %s -k k -s '*fp32,*fp32,*fp32' --arch sm_90a --emit ptx -o %t90.ptx
# RUN: FileCheck %s --check-prefix=PTX --input-file %t90.ptx
# RUN: %if ptxas %{ %ptxas -arch=sm_90a %t90.ptx -o %t90.cubin %}
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, o_ptr, m_ptr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs, eviction_policy="evict_last")
    x += tl.load(x_ptr + 128 + offs, cache_modifier=".cg")
    tl.store(o_ptr + offs, x, cache_modifier=".cs")
    old = tl.atomic_max(m_ptr + offs % 4, x, mask=offs < 100)
    tl.store(o_ptr + 128 + offs, old)

# CHECK: tt.load %{{.*}} evictionPolicy = evict_last : tensor<128x!tt.ptr<f32>>
# CHECK: tt.load %{{.*}} cacheModifier = cg : tensor<128x!tt.ptr<f32>>
# CHECK: tt.store %{{.*}}, %{{.*}} cacheModifier = cs : tensor<128x!tt.ptr<f32>>
# CHECK: tt.bitcast %{{.*}} : tensor<128x!tt.ptr<f32>> -> tensor<128x!tt.ptr<i32>>
# CHECK: tt.bitcast %{{.*}} : tensor<128xf32> -> tensor<128xi32>
# CHECK: %[[POS:.*]] = arith.cmpf oge
# CHECK: arith.cmpf olt
# CHECK: %[[A:.*]] = tt.atomic_rmw max, acq_rel, gpu
# CHECK: %[[B:.*]] = tt.atomic_rmw umin, acq_rel, gpu
# CHECK: arith.select %[[POS]], %[[A]], %[[B]]

# PTX: ld.global.L1::evict_last.b32
# PTX: ld.global.cg.b32
# PTX: st.global.cs.b32
# PTX: atom.acq_rel.gpu.global.max.s32
# PTX: atom.acq_rel.gpu.global.min.u32
# SPDX-License-Identifier: MIT
