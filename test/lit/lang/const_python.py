# Compile-time values follow Python: int/float comparisons are exact, round()
# rounds the exact binary value (to negative digits too, and keeps ints ints),
# float repr is Python's, int() of a too-large literal is an error rather than
# a clamp, and a string past 1 MiB is an error rather than cut. Also (the
# checks of test/fuzz/constexpr_diff.py against CPython): float // and % as
# CPython's divmod (1 // 0.1 is 9.0, zeros signed), int / int correctly
# rounded, the math module's integer functions exact or an overflow error and
# its float functions an error where Python raises (no NaN or inf from
# numbers), int() of a string as Python parses it, repr of strings (quotes,
# escapes), chains that stop at the first false link, bool() of empty values,
# pow(b, e, m), and sequence repetition without a loop for empty ones. The
# expected lines are what CPython prints for the same expressions.
# RUN: %ttc %s -k cmp -s '*i32' --emit ttir -o /dev/null 2>&1 | FileCheck --check-prefix=CMP %s
# RUN: %ttc %s -k rnd -s '*i32' --emit ttir -o /dev/null 2>&1 | FileCheck --check-prefix=RND %s
# RUN: %ttc %s -k rep -s '*i32' --emit ttir -o /dev/null 2>&1 | FileCheck --check-prefix=REP %s
# RUN: %ttc %s -k fmt -s '*i32' --emit ttir -o /dev/null 2>&1 | FileCheck --check-prefix=FMT %s
# RUN: %ttc %s -k rnd2 -s '*i32' --emit ttir -o /dev/null 2>&1 | FileCheck --check-prefix=RND2 %s
# RUN: %ttc %s -k srt -s '*i32' --emit ttir -o /dev/null 2>&1 | FileCheck --check-prefix=SRT %s
# RUN: not %ttc %s -k bigint -s '*i32' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=BIGINT %s
# RUN: %ttc %s -k num -s '*i32' --emit ttir -o /dev/null 2>&1 | FileCheck --check-prefix=NUM %s
# RUN: not %ttc %s -k numerr -s '*i32' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=NUMERR %s
# RUN: %ttc %s -k fmt2 -s '*i32' --emit ttir -o /dev/null 2>&1 | FileCheck --check-prefix=FMT2 %s
# RUN: not %ttc %s -k fmterr -s '*i32' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=FMTERR %s
# RUN: not %ttc %s -k bigstr -s '*i32' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=BIGSTR %s
import math

import triton
import triton.language as tl


# CMP: static_print: False False False True True True False 2 2 2.0 nan 1
@triton.jit
def cmp(y_ptr):
    tl.static_print(9007199254740993 == 9007199254740992.0, 9223372036854775807 == 9223372036854775808.0,
                    1 < float('nan'), 3 == 3.0, 2**53 + 1 > 2.0**53, 9007199254740993 != 9007199254740992,
                    9007199254740993 == 9007199254740992, min(2, 2.0), max(2, 2.0), min(2.0, 2),
                    max(float('nan'), 1), max(1, float('nan')))


# RND: static_print: 2.67 5 1200 1200 1400 -1200 2 4 0.12 1e+300 120.0
@triton.jit
def rnd(y_ptr):
    tl.static_print(round(2.675, 2), round(5, 0), round(1234, -2), round(1250, -2), round(1350, -2),
                    round(-1250, -2), round(2.5), round(3.5), round(0.125, 2), round(1e300, 2),
                    round(123.456, -1))
    o = tl.arange(0, round(16, 0))


# REP: static_print: 120.0 1e+16 1.5e-05 0.0001234 -0.0 0.1 0.3333333333333333 123456789012345.6 1000000000000000.0 0.00025 5e-324 1.7976931348623157e+308 7.678447687145631e-239 5.758609657015292e+163 0.0
@triton.jit
def rep(y_ptr):
    tl.static_print(120.0, 1e16, 1.5e-5, 0.0001234, -0.0, 0.1, 1 / 3, 123456789012345.6, 1e15, 2.5e-4,
                    5e-324, 1.7976931348623157e308, 7.678447687145631e-239, 5.758609657015292e+163, 0.0)


# Format specs as CPython: ' ' and '+' signs, '=' after a sign, a bool as an
# int under a spec, an explicit fill beside '0', grouping; long strings whole.
# FMT: static_print:  0005| 1.50|+1.5| 1.5|    1|5****|1,000,000|-1_234_567|ff|True|-    5|+2.5|1_0000_0000_0000_0000|2000
@triton.jit
def fmt(y_ptr):
    s = "a" * 2000
    tl.static_print(f"{5: 05}|{1.5: .2f}|{1.5:+}|{1.5: }|{True:5}|{5:*<05}|{1000000:,}|{-1234567:_}|{255:_x}|{True}|"
                    f"{-5:=+6}|{2.5:+.1f}|{65536:_b}|{len(f'{s}')}")


# round() of an int is exact at any magnitude.
# RND2: static_print: 9007199254740993 9223372036854775807 0 2 1 -9000000000000000000
@triton.jit
def rnd2(y_ptr):
    tl.static_print(round(9007199254740993), round(9223372036854775807), round(4000000000000000000, -19),
                    round(2.5, None), round(True), round(-9223372036854775807 - 1, -18))


# sorted() is stable (reverse too) and compares ints with floats exactly.
# SRT: static_print: 1.0 1 9007199254740992.0 9007199254740993 2 2.0 1 1.0
@triton.jit
def srt(y_ptr):
    s = sorted([9007199254740993, 1.0, 1, 9007199254740992.0])
    r = sorted([2, 1, 2.0, 1.0], reverse=True)
    tl.static_print(s[0], s[1], s[2], s[3], r[0], r[1], r[2], r[3])


@triton.jit
def bigint(y_ptr):
    tl.static_print(int("9" * 30))
    # BIGINT: const_python.py:[[@LINE-1]]:21: error: int('999999999999999999999999999999'): the value does not fit in 64 bits


@triton.jit
def bigstr(y_ptr):
    tl.static_print(len("a" * (1 << 40)))
    # BIGSTR: const_python.py:[[@LINE-1]]:29: error: string longer than 1048576 bytes
# SPDX-License-Identifier: MIT


# NUM: static_print: 9.0 3999.0 nan -1.0 0.0 -0.0 (-4.0, 0.0) (-4.0, -0.5)
# NUM: static_print: 3002399751580331.0 1.5372286728091292e+18 2.0 -3.5 -0.0 0.0 inf 8.345878170483788e+20 -0.0 20.0
# NUM: static_print: 9007199254740993 1 2432902008176640000 12103014 0 12 6 -31 15 1000 12 () () ab
# NUM: static_print: "a'b" 'a"b' 'a\nb\\c\t' 'both\'"' ('x', "y'z") '\x01\x7f' 6
# NUM: static_print: False False False False True 2 2 -2 0 -9223372036854775683
# NUM: static_print: 24 1 3.0 12
@triton.jit
def num(y_ptr):
    tl.static_print(1 // 0.1, 10 // 0.0025, float('inf') // 1, -1 // float('inf'), -4.0 % 1.0, 0.0 % -1.0,
                    divmod(-4.0, 1.0), divmod(7.5, -2))
    tl.static_print(9007199254740993 / 3, 2**62 / 3, (2**62 + (2**62 - 1)) / (2**62 + 1), -7 / 2, 0 / -5,
                    abs(-0.0), 0.0 ** float('-inf'), round(8.345878170483788e+20, -1), round(-4.0, -1),
                    round(15.0, -1))
    tl.static_print(math.floor(9007199254740993), math.ceil(True), math.factorial(20), math.comb(70, 5),
                    math.comb(5, 7), math.lcm(4, 6), math.gcd(-12, 18), int(' -0x_1f ', 0), int('0o17', 0),
                    int('1_000'), int('012'), (1, 2) * 0, () * 2**40, 'ab' * True)
    tl.static_print(repr("a'b"), repr('a"b'), repr('a\nb\\c\t'), repr("both'\""), ("x", 'y\'z'),
                    repr('\x01\x7f'), len(repr("a\nb")))
    tl.static_print(1 == 2 < 'a', bool(''), bool(()), bool(None), bool((0,)), pow(3, 200, 7), pow(-3, 5, 7),
                    pow(3, 5, -7), pow(0, 0, 1), pow(5, 3, -2**62 - 2**62))
    tl.static_print(math.prod((2, 3, 4)), math.prod(()), math.prod((1.5, 2)), '{12}'.format(*range(13)))


# NUMERR: error: a negative number to a fractional power is complex
# NUMERR: error: math.sqrt: math domain error
# NUMERR: error: math.exp: math range error
# NUMERR: error: math.log: math domain error
# NUMERR: error: integer overflow in constant expression: 'math.factorial' does not fit in 64 bits
# NUMERR: error: integer overflow in constant expression: 'math.comb' does not fit in 64 bits
# NUMERR: error: integer overflow in constant expression: 'math.lcm' does not fit in 64 bits
# NUMERR: error: math.gcd: 'float' object cannot be interpreted as an integer
# NUMERR: error: invalid literal for int() with base 0: '012'
# NUMERR: error: sequence too long
@triton.jit
def numerr(y_ptr):
    tl.static_print((-8.0) ** 0.5)
    tl.static_print(math.sqrt(-1))
    tl.static_print(math.exp(1000))
    tl.static_print(math.log(0))
    tl.static_print(math.factorial(21))
    tl.static_print(math.comb(70, 35))
    tl.static_print(math.lcm(2**62, 3))
    tl.static_print(math.gcd(2.5, 1))
    tl.static_print(int('012', 0))
    tl.static_print((1, 2) * 2**62)


# FMT2: static_print:   True|1|1.0|1.23e+02|ab000|nan|0.00012|1.5e+10|2e+00|1e+02|-0.0|inf|1234.57|+0.5|
# FMT2: static_print:     1|1.00|'a'|   q|0002.500|{}
# FMT2: static_print: ab7ab True ff 1,234,567
# FMT2: static_print:     a|1    |005|'a'|    'aBc'| -1e+300r|+2.50|ff|0xff|1.234568e+04|100.0%|A|(1, 2)
# FMT2: static_print:            -001|-20000000000000|-4a|-0000000000330|-5B|-7c |-0xff|-00000ff|-0x000ff|-0XFF   |  -10|
# FMT2: static_print: <000_000|960_468_857_458_672.4|-0_009_931_143.0|00_0001|000,000,094,988,372|00,000,123|1_234.5|1,234.50|-1,234,567|ff|1_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000|1e+20|0.5|-0,001,234.5|
# FMT2: static_print:  0_000_000_000_000_001|-24,500.000000%|000_001.82995e+15|000,001|2,473,027|
@triton.jit
def fmt2(y_ptr):
    tl.static_print(f'{True!s:>6}|{12!s:.1}|{1.0:.3}|{123.0:.3}|{"ab":05}|{-math.nan:.2f}|{0.0001234:.2}|'
                    f'{1.5e10:.3}|{2.5:.1}|{100.0:.3}|{-0.0:.2}|{math.inf:.3}|{1234.5678:.6}|{0.5:+.2}|')
    tl.static_print('{:5}|{:.2f}|{!r}|{x:>4}|{:08.3f}|{{}}'.format(1, 1, 'a', 2.5, x='q'))
    tl.static_print('{0}{1}{0}'.format('ab', 7), '{!s:>3}'.format(True), '{:x}'.format(255),
                    '{:,}'.format(1234567))
    tl.static_print('%5s|%-5d|%.3d|%r|%09.7r|%8sr|%+.2f|%x|%#x|%e|%5.1f%%|%c|%s' %
                    ('a', 1, 5, 'a', 'aBc', repr(-1e300), 2.5, 255, 255, 12345.678, 99.95, 65, (1, 2)))
    tl.static_print('%15.3x|%.6X|% 01x|%.13o|%+0X|%-4.0x|%#x|%08x|%#08x|%-#8X|%5o|' %
                    (-1, -0x20000000000000, -74, -0o330, -91, -124, -255, -255, -255, -255, -8))
    tl.static_print(f'<{(False):07_d}|{960468857458672.4:3_}|{-9931143.0:015_}|{1:07_X}|{94988372:019,}|'
                    f'{123:010,}|{1234.5:_}|{1234.5:,.2f}|{-1234567:,}|{255:_x}|{2**40:_b}|{1e20:,}|{0.5:,}|'
                    f'{-1234.5:+012,.1f}|')
    tl.static_print(f'{1: 021_.1g}|{-245.0:=,%}|{1829945425638078:017_g}|{1:-07,g}|{2473027:,.13g}|')


# FMTERR: error: Unknown format code 's' for object of type 'int'
# FMTERR: error: Precision not allowed in integer format specifier
# FMTERR: error: Sign not allowed in string format specifier
# FMTERR: error: unsupported format string passed to NoneType.__format__
# FMTERR: error: str.format: no argument for the field '{}'
# FMTERR: error: cannot switch between automatic field numbering and manual field specification
# FMTERR: error: not all arguments converted during string formatting
# FMTERR: error: not enough arguments for format string
# FMTERR: error: str.format: no argument for the field '{4294967295}'
# FMTERR: error: unsupported: the replacement field '{0.x}' in str.format
# FMTERR: error: '%' format: width and precision go up to
@triton.jit
def fmterr(y_ptr):
    tl.static_print(f'{5:s}')
    tl.static_print(f'{5:.3}')
    tl.static_print(f'{"x":+}')
    tl.static_print(f'{None:5}')
    tl.static_print('{}'.format())
    tl.static_print('{}{0}'.format(1, 2))
    tl.static_print('Hello' % 3)
    tl.static_print('%d %d' % (1,))
    tl.static_print('{4294967295}'.format(1))
    tl.static_print('{0.x}'.format(1))
    tl.static_print('%99999999999d' % 1)
