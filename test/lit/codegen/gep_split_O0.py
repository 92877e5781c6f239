# At -O0 too, constant offsets are split out of the GEPs (gep_split.c): the
# code NVPTX's strength reduction sees at -O0 is the unoptimized lowering,
# where it was quadratic in the elements a thread holds (two masked loads of
# a 262144-element tile took 70 s to PTX at -O0, 0.4 s at -O3).
# RUN: %ttc %s -k k -s '*fp16,*fp16' --emit llir -O0 | FileCheck %s
# 4096 elements on 128 threads: 32 a thread, 256 bytes apart.
# CHECK: [[X:%[0-9]+]] = getelementptr half, ptr addrspace(1) %x_ptr, i64 %{{[0-9]+}}
# CHECK-NEXT: getelementptr i8, ptr addrspace(1) [[X]], i64 256
# CHECK-NEXT: getelementptr i8, ptr addrspace(1) [[X]], i64 512
# SPDX-License-Identifier: MIT
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr):
    offs = tl.arange(0, 4096)
    acc = tl.load(x_ptr + offs)
    acc += tl.load(x_ptr + offs + 4096, mask=offs < 7, other=1.0)
    tl.store(y_ptr + offs, acc)
