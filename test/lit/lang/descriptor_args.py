# A tensor descriptor argument (Triton's host TensorDescriptor) is passed as
# base, shape (i32) and strides (i64). The kernel assumes what Triton's
# TensorDescriptor asserts: a 16-byte aligned base, leading strides that are
# 16-byte multiples (8 fp16 elements) and a last stride of 1, which it does
# not read (launches check all three). The matmul's loads then become a
# cp.async ring feeding wgmma, 16 bytes per copy: without a hint as bounded
# copies (the bound along a row, shape1, taken out of the mask: each copy
# reads the elements before it and zero-fills the rest), with ttc's ':16'
# hint (shapes multiples of 16) as plain masked copies. The store outside
# the loop is 16 bytes wide only with the hint.
# RUN: %ttc %s -k mm -s 'tensordesc<fp16[128,64]>,tensordesc<fp16[64,128]>,tensordesc<fp16[128,128]>,i32:16,128,128,64' --emit ttir | FileCheck %s --check-prefix=TTIR
# RUN: %ttc %s -k mm -s 'tensordesc<fp16[128,64]>:16,tensordesc<fp16[64,128]>:16,tensordesc<fp16[128,128]>:16,i32:16,128,128,64' --emit ttir | FileCheck %s --check-prefix=HINT
# RUN: %ttc %s -k mm -s 'tensordesc<fp16[128,64]>:16,tensordesc<fp16[64,128]>:16,tensordesc<fp16[128,128]>:16,i32:16,128,128,64' --arch sm_90a --num-stages 3 --emit ptx | FileCheck %s --check-prefix=PTX
# RUN: %ttc %s -k mm -s 'tensordesc<fp16[128,64]>,tensordesc<fp16[64,128]>,tensordesc<fp16[128,128]>,i32:16,128,128,64' --arch sm_90a --num-stages 3 --emit ptx | FileCheck %s --check-prefix=NOHINT
# RUN: %ttc %s -k mm -s 'tensordesc<fp16[128,64]>:16,tensordesc<fp16[64,128]>:16,tensordesc<fp16[128,128]>:16,i32:16,128,128,64' --arch sm_90a --emit ptx -o %t.ptx --emit-metadata %t.json
# RUN: FileCheck %s --check-prefix=META --input-file=%t.json
import triton
import triton.language as tl


@triton.jit
def mm(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc = tl.dot(a_desc.load([om, k * BK]), b_desc.load([k * BK, on]), acc)
    c_desc.store([om, on], acc.to(tl.float16))

# TTIR: tt.func public @mm(%a_desc: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %a_desc_shape0: i32, %a_desc_shape1: i32, %a_desc_stride0: i64 {tt.divisibility = 8 : i32}, %a_desc_stride1: i64,
# A block's row addresses are offset * stride (one scalar product per block)
# plus range * stride (the same for every block), so a loop adds to them.
# TTIR: scf.for
# TTIR: arith.muli %{{[^ ]+}}, %a_desc_stride0 : i64
# TTIR: %[[R:[^ ]+]] = arith.muli %{{[^ ]+}}, %{{[^ ]+}} : tensor<128xi64>
# TTIR-NOT: a_desc_stride1 :
# TTIR-NOT: %a_desc_stride1
# HINT: %a_desc_shape0: i32 {tt.divisibility = 16 : i32}, %a_desc_shape1: i32 {tt.divisibility = 16 : i32}, %a_desc_stride0: i64 {tt.divisibility = 8 : i32}, %a_desc_stride1: i64,
# PTX-NOT: min.s64
# PTX: cp.async.cg.shared.global
# PTX: wgmma.mma_async
# PTX-NOT: ld.global.b16
# PTX: st.global.v4.b32
# NOHINT: max.s64
# NOHINT: min.s64 {{.*}}, 8;
# NOHINT: cp.async.cg.shared.global [ {{.*}} ], [ {{.*}} ], 0x10, %r
# NOHINT: wgmma.mma_async
# NOHINT-NOT: ld.global.b16
# NOHINT: st.global.b16
# META: "name": "a_desc_shape1", "type": "i32", "divisibility": 16
# META: "name": "a_desc_stride0", "type": "i64", "divisibility": 8
# META: "name": "a_desc_stride1", "type": "i64"}
# SPDX-License-Identifier: MIT
