# Codegen of a row softmax: tt.reduce as in-thread combines, five butterfly
# shuffles and one shared-memory exchange across the 4 warps; exp through
# ex2.approx; f32 division through div.full; loads filled with -inf.
# RUN: %ttc %s -k softmax_kernel -s '*fp32:16,*fp32:16,i32,i32,i32,1024' --arch sm_90a --emit ptx | FileCheck %s
# RUN: %ttc %s -k softmax_kernel -s '*fp32:16,*fp32:16,i32,i32,i32,1024' --arch sm_90a --emit llir | FileCheck %s --check-prefix=LLIR
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_stride + cols, y, mask=cols < n_cols)

# CHECK: .extern .shared .align 16 .b8 global_smem[];
# CHECK-LABEL: .visible .entry softmax_kernel(
# CHECK: .reqntid 128
# CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
# CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
# CHECK: bar.sync 0;
# CHECK: ex2.approx.f32
# CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
# CHECK: div.full.f32
# CHECK: st.global

# LLIR: mov.u32 $0, 0xff800000;
# LLIR: @llvm.maxnum.f32
# LLIR: @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %{{.*}}, i32 16, i32 31)
# LLIR: @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
# LLIR: @llvm.nvvm.ex2.approx.f32
# LLIR: @llvm.nvvm.div.full
# SPDX-License-Identifier: MIT
