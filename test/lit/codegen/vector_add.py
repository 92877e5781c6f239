# Codegen of vector add: Triton's 128-bit predicated accesses, ptx_kernel with
# reqntid, only the non-constexpr parameters, and ptxas accepts the PTX.
# RUN: %ttc %s -k add_kernel -s '*fp32:16,*fp32:16,*fp32:16,i32:16,1024' --arch sm_90a --emit llir | FileCheck %s --check-prefix=LLIR
# RUN: %ttc %s -k add_kernel -s '*fp32:16,*fp32:16,*fp32:16,i32:16,1024' --arch sm_90a --emit ptx | FileCheck %s --check-prefix=PTX
# Constant offsets split out after O3 (gep_split.c): one `getelementptr float`
# per pointer and thread, the other accesses `i8` GEPs at constant byte
# offsets from it (without the split, NVPTX's strength reduction is
# quadratic in the elements a thread holds).
# RUN: %ttc %s -k add_kernel -s '*fp32:16,*fp32:16,*fp32:16,i32:16,4096' --arch sm_90a --emit llir | FileCheck %s --check-prefix=SPLIT
# RUN: %ttc %s -k add_kernel -s '*fp32:16,*fp32:16,*fp32:16,i32:16,4096' --arch sm_90a --emit ptx | FileCheck %s --check-prefix=SPLIT-PTX
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(z_ptr + offs, x + y, mask=m)

# LLIR: define ptx_kernel void @add_kernel(ptr addrspace(1) {{.*}}, ptr addrspace(1) {{.*}}, ptr addrspace(1) {{.*}}, i32 {{[^,]*}})
# LLIR: @llvm.nvvm.read.ptx.sreg.tid.x
# LLIR: asm sideeffect "mov.u32 $0, 0x0;{{.*}}@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b"
# LLIR: fadd contract float
# LLIR: asm sideeffect "@$5 st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l,b"
# LLIR: "nvvm.reqntid"="128"
# LLIR: !{i32 4, !"nvvm-reflect-ftz", i32 1}

# PTX: .target sm_90a
# PTX-LABEL: .visible .entry add_kernel(
# PTX-COUNT-3: .param .u64 .ptr .global .align 1 add_kernel_param_{{[0-2]}},
# PTX-NEXT: .param .u32 add_kernel_param_3
# PTX-NEXT: )
# PTX-NEXT: .reqntid 128
# PTX-COUNT-4: ld.global.v4.b32
# PTX-COUNT-8: add.f32
# PTX-COUNT-2: st.global.v4.b32
# PTX: ret;
# SPDX-License-Identifier: MIT

# 4096 elements on 128 threads: 32 a thread, 8 chunks of 4, 2048 bytes apart.
# SPLIT: [[X:%[0-9]+]] = getelementptr float, ptr addrspace(1) %x_ptr, i64 [[I:%[0-9]+]]
# SPLIT-NEXT: getelementptr i8, ptr addrspace(1) [[X]], i64 2048
# SPLIT-NEXT: getelementptr i8, ptr addrspace(1) [[X]], i64 4096
# SPLIT: [[Y:%[0-9]+]] = getelementptr float, ptr addrspace(1) %y_ptr, i64 [[I]]
# SPLIT-NEXT: getelementptr i8, ptr addrspace(1) [[Y]], i64 2048
# SPLIT: getelementptr float, ptr addrspace(1) %z_ptr, i64 [[I]]
# SPLIT-NOT: getelementptr float
# SPLIT-PTX-COUNT-16: ld.global.v4.b32
# SPLIT-PTX-COUNT-8: st.global.v4.b32
