# A masked load's `other`: a constant goes into the instruction as an
# immediate, as Triton writes it (passed as an operand, one register feeds
# every load of the kernel and LLVM's peephole pass is quadratic in its
# uses: 7 masked loads of 8192 elements a thread took 27 s, now 9 s); a
# runtime value is an operand; without `other` the registers start at 0.
# RUN: %ttc %s -k k -s '*fp32:16,*fp32:16,fp32,i32:16' --emit llir | FileCheck %s
# RUN: %ttc %s -k k -s '*fp32:16,*fp32:16,fp32,i32:16' --emit cubin -o %t.cubin
# CHECK: asm sideeffect "mov.u32 $0, 0x3fc00000;\0A\09mov.u32 $1, 0x3fc00000;{{.*}}@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b"
# CHECK: asm sideeffect "mov.u32 $0, $4;\0A\09mov.u32 $1, $5;{{.*}}@$9 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $8 + 0 ];", "=r,=r,=r,=r,r,r,r,r,l,b"
# CHECK: asm sideeffect "mov.u32 $0, 0x0;{{.*}}@$5 ld.global.v4.b32
# Two f16 elements a 32-bit word (1.5 is 0x3e00), and i1 True as a byte.
# RUN: %ttc %s -k k16 -s '*fp16:16,*fp16:16,i32:16' --emit llir | FileCheck %s --check-prefix=F16
# F16: asm sideeffect "mov.u32 $0, 0x3e003e00;\0A\09mov.u32 $1, 0x3e003e00;{{.*}}@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b"
# F16: asm sideeffect "mov.u32 $0, 0x1010101;{{.*}}@$3 ld.global.v2.b32 { $0, $1 }, [ $2 + 0 ];", "=r,=r,l,b"
# SPDX-License-Identifier: MIT
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, fill, n):
    offs = tl.arange(0, 512)
    m = offs < n
    a = tl.load(x_ptr + offs, mask=m, other=1.5)
    b = tl.load(x_ptr + 512 + offs, mask=m, other=fill)
    c = tl.load(x_ptr + 1024 + offs, mask=m)
    tl.store(y_ptr + offs, a + b + c, mask=m)


@triton.jit
def k16(x_ptr, y_ptr, n):
    offs = tl.arange(0, 1024)
    m = offs < n
    a = tl.load(x_ptr + offs, mask=m, other=1.5)
    b = tl.load((x_ptr + 1024 + offs).to(tl.pointer_type(tl.int1)), mask=m, other=True)
    tl.store(y_ptr + offs, tl.where(b, a, a + 1), mask=m)
