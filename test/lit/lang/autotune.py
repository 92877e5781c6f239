# @triton.autotune and @triton.heuristics decorators (dict displays in their
# arguments included) are accepted and ignored: the signature picks the
# config. Dicts and lambdas are compile-time values in a kernel: a runtime
# value in a dict, or a lambda called on one, is a located error.
# RUN: %ttc %s -k k -s '*fp32,i32,128' --emit ttir | FileCheck %s
# RUN: not %ttc %s -k bad -s '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=ERR
# RUN: not %ttc %s -k bad2 -s '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=ERR2
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_warps=4),
                          triton.Config({'BLOCK': 256}, num_warps=8)], key=['n'])
@triton.heuristics({'EVEN': lambda args: args['n'] % 128 == 0})
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, offs.to(tl.float32), mask=offs < n)


@triton.jit
def bad(x_ptr):
    d = {'a': x_ptr}


@triton.jit
def bad2(x_ptr):
    f = lambda v: v + 1
    f(x_ptr)

# CHECK: tt.func public @k(%x_ptr: !tt.ptr<f32>, %n: i32)
# CHECK: tt.make_range {end = 128 : i32, start = 0 : i32}
# ERR: autotune.py:23:9: error: unsupported: runtime values in a dict
# ERR2: autotune.py:29:7: error: '<lambda>' runs at compile time: its arguments must be constexprs, found 'pointer<fp32>'
# SPDX-License-Identifier: MIT
