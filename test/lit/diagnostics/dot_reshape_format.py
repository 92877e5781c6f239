# Input errors that once failed later, as verifier or LLVM errors reported as
# internal (status 2), or overflowed an int: each is now a located input error
# (status 1). A dot of f64 operands gives f64, as Triton's does; an accumulator
# needs out_dtype equal to its element type.
# RUN: not %ttc %s -k dot3d -s '*fp32' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=DOT3D %s
# RUN: %ttc %s -k dot3d -s '*fp32' --emit ttir -o /dev/null 2>/dev/null; test $? -eq 1
# RUN: not %ttc %s -k idot32 -s '*i32' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=IDOT32 %s
# RUN: not %ttc %s -k outbf16 -s '*fp32' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=OUTBF16 %s
# RUN: not %ttc %s -k reshape0 -s '*fp32' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=RESHAPE0 %s
# RUN: %ttc %s -k reshape0 -s '*fp32' --emit ttir -o /dev/null 2>/dev/null; test $? -eq 1
# RUN: not %ttc %s -k fmt -s '*fp32,8' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=FMT %s
# RUN: %ttc %s -k ddot -s '*fp64' --emit ttir | FileCheck --check-prefix=DDOT %s
# RUN: %ttc %s -k fmtint -s '*fp32' --emit ttir -o /dev/null 2>&1 | FileCheck --check-prefix=FMTINT %s
# RUN: not %ttc %s -k fmtd -s '*fp32' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=FMTD %s
# RUN: %ttc %s -k fdot -s '*fp32' --emit ttir | FileCheck --check-prefix=FDOT %s
# RUN: not %ttc %s -k ddotacc -s '*fp64' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=DDOTACC %s
# RUN: %ttc %s -k ddotout -s '*fp64' --emit ttir | FileCheck --check-prefix=DDOTOUT %s
# RUN: not %ttc %s -k idotacc -s '*i32' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=IDOTACC %s
import triton
import triton.language as tl


@triton.jit
def dot3d(x_ptr):
    a = tl.zeros((2, 32, 32), tl.float16)
    c = tl.dot(a, a)
    # DOT3D: dot_reshape_format.py:[[@LINE-1]]:16: error: unsupported: a batched tl.dot (3-d operand 'tensor<2x32x32xfp16>')
    tl.store(x_ptr, tl.sum(tl.sum(tl.sum(c, 0), 0), 0))


@triton.jit
def idot32(x_ptr):
    a = tl.zeros((32, 32), tl.int32)
    c = tl.dot(a, a)
    # IDOT32: dot_reshape_format.py:[[@LINE-1]]:9: error: an integer tl.dot takes int8 operands, found 'tensor<32x32xi32>'
    tl.store(x_ptr, tl.sum(tl.sum(c, 0), 0))


@triton.jit
def outbf16(x_ptr):
    a = tl.zeros((32, 32), tl.float16)
    c = tl.dot(a, a, out_dtype=tl.bfloat16)
    # OUTBF16: dot_reshape_format.py:[[@LINE-1]]:32: error: out_dtype=bfloat16 is unsupported
    tl.store(x_ptr, tl.sum(tl.sum(c, 0), 0))


@triton.jit
def reshape0(x_ptr):
    b = tl.reshape(tl.arange(0, 1), ())
    # RESHAPE0: dot_reshape_format.py:[[@LINE-1]]:37: error: cannot reshape to a 0-d shape
    tl.store(x_ptr, b)


@triton.jit
def fmt(x_ptr, N: tl.constexpr):
    tl.static_print(f'{N:.99999999999f}')
    # FMT: dot_reshape_format.py:[[@LINE-1]]:23: error: format spec '.99999999999f': width and precision go up to 1000


# Integers format as Python formats them: a sign, then the magnitude's digits.
# FMTINT: static_print: -ff|FF|-10|-1000000000000000000000000000000000000000000000000000000000000000|+5| 5|-0000005|True|2.500|   ab
@triton.jit
def fmtint(x_ptr):
    tl.static_print(f'{-255:x}|{255:X}|{-8:o}|{(-9223372036854775807-1):b}|{5:+d}|{5: d}|{-5:08d}|{True}|{2.5:.3f}|{"ab":>5}')


@triton.jit
def fmtd(x_ptr):
    tl.static_print(f'{1.5:d}')
    # FMTD: dot_reshape_format.py:[[@LINE-1]]:23: error: unknown format code 'd' for object of type 'float'


# DDOT: tt.dot {{.*}} : tensor<16x16xf64> * tensor<16x16xf64> -> tensor<16x16xf64>
@triton.jit
def ddot(x_ptr):
    a = tl.full((16, 16), 1.5, tl.float64)
    tl.store(x_ptr, tl.sum(tl.sum(tl.dot(a, a), 0), 0))


# A dot of f32 operands stays f32 whatever out_dtype says, as in Triton.
# FDOT: tt.dot {{.*}} : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
@triton.jit
def fdot(x_ptr):
    a = tl.full((16, 16), 1.5, tl.float32)
    tl.store(x_ptr, tl.sum(tl.sum(tl.dot(a, a, out_dtype=tl.float16), 0), 0))
# SPDX-License-Identifier: MIT


# Triton asserts that an accumulator's element type is out_dtype (float32
# unless given): an f64 or int32 accumulator needs out_dtype.
@triton.jit
def ddotacc(x_ptr):
    a = tl.full((16, 16), 1.5, tl.float64)
    c = tl.dot(a, a, a)
    # DDOTACC: dot_reshape_format.py:[[@LINE-1]]:22: error: a dot accumulator's element type must equal out_dtype: accumulator 'fp64', out_dtype 'fp32' (the default; pass out_dtype=)
    tl.store(x_ptr, tl.sum(tl.sum(c, 0), 0))


# DDOTOUT: tt.dot {{.*}} : tensor<16x16xf64> * tensor<16x16xf64> -> tensor<16x16xf64>
@triton.jit
def ddotout(x_ptr):
    a = tl.full((16, 16), 1.5, tl.float64)
    tl.store(x_ptr, tl.sum(tl.sum(tl.dot(a, a, a, out_dtype=tl.float64), 0), 0))


@triton.jit
def idotacc(x_ptr):
    a = tl.zeros((32, 32), tl.int8)
    c = tl.dot(a, a, tl.zeros((32, 32), tl.int32))
    # IDOTACC: dot_reshape_format.py:[[@LINE-1]]:22: error: a dot accumulator's element type must equal out_dtype: accumulator 'i32', out_dtype 'fp32'
    tl.store(x_ptr, tl.sum(tl.sum(c, 0), 0))
