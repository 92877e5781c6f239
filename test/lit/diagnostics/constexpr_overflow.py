# Constexpr integer arithmetic past 64 bits is a located error, not undefined
# behaviour (INT64_MIN // -1 used to trap with SIGFPE); powers are exact for
# any exponent ((-1) ** 65 used to stop multiplying after 64 steps); a
# static_range whose next value passes 2**63-1 ends there.
# RUN: not %ttc %s -k floordiv -s '*i64' --emit ttir 2>&1 | FileCheck %s --check-prefix=DIV
# RUN: not %ttc %s -k add -s '*i64' --emit ttir 2>&1 | FileCheck %s --check-prefix=ADD
# RUN: not %ttc %s -k power -s '*i64' --emit ttir 2>&1 | FileCheck %s --check-prefix=POW
# RUN: not %ttc %s -k negate -s '*i64' --emit ttir 2>&1 | FileCheck %s --check-prefix=NEG
# RUN: %ttc %s -k exact -s '*i64' --emit ttir 2>&1 | FileCheck %s --check-prefix=EXACT
# RUN: %ttc %s -k static_big -s '*i64' --emit ttir 2>&1 | FileCheck %s --check-prefix=RANGE
# Shifts and float-to-int conversions follow Python too: exact, or an error,
# never a different number (1 << 64 was 0, int(1e30) was INT64_MIN, a full
# of 2**40 into int32 was 0).
# RUN: not %ttc %s -k shifts -s '*i64' --emit ttir 2>&1 | FileCheck %s --check-prefix=SHIFT
# RUN: %ttc %s -k shifts_exact -s '*i64' --emit ttir 2>&1 | FileCheck %s --check-prefix=SHIFTOK
# RUN: not %ttc %s -k conversions -s '*i64' --emit ttir 2>&1 | FileCheck %s --check-prefix=CONV
import triton
import triton.language as tl


@triton.jit
def floordiv(X):
    # DIV: constexpr_overflow.py:[[@LINE+1]]:{{[0-9]+}}: error: integer overflow in constant expression: '//' does not fit in 64 bits
    tl.store(X, (-9223372036854775807 - 1) // -1)


@triton.jit
def add(X):
    # ADD: constexpr_overflow.py:[[@LINE+1]]:{{[0-9]+}}: error: integer overflow in constant expression: '+' does not fit in 64 bits
    tl.store(X, 9223372036854775807 + 1)


@triton.jit
def power(X):
    # POW: constexpr_overflow.py:[[@LINE+1]]:{{[0-9]+}}: error: integer overflow in constant expression: '**' does not fit in 64 bits
    tl.store(X, 3 ** 50)


@triton.jit
def negate(X):
    # NEG: error: integer overflow in constant expression: '-' does not fit in 64 bits
    tl.store(X, -(-9223372036854775807 - 1))


@triton.jit
def exact(X):
    # EXACT-DAG: arith.constant -1 : i64
    # EXACT-DAG: arith.constant 0 : i64
    # EXACT-DAG: arith.constant 4052555153018976267 : i64
    tl.store(X, (-1) ** 65)
    tl.store(X + 1, (-9223372036854775807 - 1) % -1)
    tl.store(X + 2, 3 ** 39)


@triton.jit
def static_big(X):
    # RANGE: tt.store %X, %c0_i64
    # RANGE: tt.store %X, %c4611686018427387904_i64
    # RANGE-NOT: tt.store
    for i in tl.static_range(0, 9223372036854775807, 4611686018427387904):
        tl.store(X, i)


@triton.jit
def shifts(X):
    # SHIFT: constexpr_overflow.py:[[@LINE+1]]:{{[0-9]+}}: error: integer overflow in constant expression: '<<' does not fit in 64 bits
    tl.store(X, 1 << 63)
    # SHIFT: constexpr_overflow.py:[[@LINE+1]]:{{[0-9]+}}: error: integer overflow in constant expression: '<<' does not fit in 64 bits
    tl.store(X, 1 << 100)
    # SHIFT: constexpr_overflow.py:[[@LINE+1]]:{{[0-9]+}}: error: negative shift count in constant expression
    tl.store(X, 1 >> -1)


@triton.jit
def shifts_exact(X):
    # SHIFTOK-DAG: arith.constant -9223372036854775808 : i64
    # SHIFTOK-DAG: arith.constant 6917529027641081856 : i64
    # SHIFTOK-DAG: arith.constant -1 : i64
    # SHIFTOK-DAG: arith.constant 0 : i64
    tl.store(X, -1 << 63)
    tl.store(X + 1, 3 << 61)
    tl.store(X + 2, -5 >> 100)
    tl.store(X + 3, 5 >> 100)


@triton.jit
def conversions(X):
    # CONV: constexpr_overflow.py:[[@LINE+1]]:{{[0-9]+}}: error: integer overflow in constant expression: 'int' of 1e+30 does not fit in 64 bits
    tl.store(X, int(1e30))
    # CONV: constexpr_overflow.py:[[@LINE+1]]:{{[0-9]+}}: error: integer overflow in constant expression: 'abs' does not fit in 64 bits
    tl.store(X, abs(-9223372036854775807 - 1))
    # CONV: constexpr_overflow.py:[[@LINE+1]]:{{[0-9]+}}: error: cannot convert float NaN to integer in 'int'
    tl.store(X, int(float("nan")))
    # CONV: constexpr_overflow.py:[[@LINE+1]]:{{[0-9]+}}: error: float overflow in constant expression: '**' is out of range
    tl.store(X, 2.0 ** 10000)
    # CONV: constexpr_overflow.py:[[@LINE+1]]:{{[0-9]+}}: error: constant 1099511627776 is out of range for 'i32'
    tl.store(X + tl.arange(0, 16), tl.full((16,), 2 ** 40, tl.int32))

# SPDX-License-Identifier: MIT
