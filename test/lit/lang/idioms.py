# Idioms of real kernel files that are ttc-only here (the GPU comparison
# with Triton covers test/lang/language.py): a dtype called on a value
# (tl.float32(x)), tl.dtype("fp32"), @tl.constexpr on a helper (run at
# compile time like @triton.constexpr_function), dtype width predicates,
# a runtime value passed to a helper's tl.constexpr parameter.
# RUN: %ttc %s -k k -s '*i32,*fp32,i32,64' --emit ttir | FileCheck %s
# RUN: %ttc %s -k k -s '*i32,*fp32,i32,64' --emit cubin -o %t.cubin
import triton
import triton.language as tl


def unwrap(o):
    return o.value if isinstance(o, tl.constexpr) else o


@tl.constexpr
def int_type(bits: tl.constexpr, signed: tl.constexpr):
    return tl.core.get_int_dtype(unwrap(bits), unwrap(signed))


@triton.jit
def scaled(x, factor: tl.constexpr):
    return x * factor


@triton.jit
def k(idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    i = tl.load(idx_ptr + offs, mask=m, other=0)
    tl.static_assert(i.dtype.is_int32() and not i.dtype.is_int64() and not i.dtype.is_uint32())
    udt: tl.constexpr = int_type(32, False)
    u = i.to(udt, bitcast=True)
    lo = tl.float32(-float("inf"))
    acc = tl.maximum(u.to(tl.dtype("fp32")), lo)
    tl.store(out_ptr + offs, scaled(acc, n), mask=m)

# CHECK-LABEL: tt.func public @k
# CHECK: arith.uitofp
# CHECK: arith.constant dense<0xFF800000> : tensor<64xf32>
# CHECK: arith.maxnumf
# CHECK: arith.sitofp %n
# CHECK: arith.mulf
# SPDX-License-Identifier: MIT
