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
# SPDX-License-Identifier: MIT
