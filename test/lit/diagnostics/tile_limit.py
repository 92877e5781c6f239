# Every tensor the frontend makes stays within the 2^20-element tile limit, and
# going past it is an input error (status 1) at the expression that asks for
# more, not a verifier failure after lowering (status 2, "internal error").
# RUN: not %ttc %s -k bcast -s '*fp32' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=BCAST %s
# RUN: %ttc %s -k bcast -s '*fp32' --emit ttir -o /dev/null 2>/dev/null; test $? -eq 1
# RUN: not %ttc %s -k full -s '*fp32' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=FULL %s
# RUN: %ttc %s -k full -s '*fp32' --emit ttir -o /dev/null 2>/dev/null; test $? -eq 1
# RUN: not %ttc %s -k to -s '*fp32' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=TO %s
# RUN: not %ttc %s -k join -s '*fp32' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=JOIN %s
# RUN: not %ttc %s -k dot -s '*fp32' --emit ttir 2>&1 > /dev/null | FileCheck --check-prefix=DOT %s
# RUN: %ttc %s -k dot -s '*fp32' --emit ttir -o /dev/null 2>/dev/null; test $? -eq 1
# RUN: %ttc %s -k edge -s '*fp32' --emit ttir -o /dev/null
# A tile at the limit over too few threads: more than 16384 elements each.
# RUN: not %ttc %s -k perthread -s '*fp32' -w 1 --emit ttgir 2>&1 > /dev/null | FileCheck --check-prefix=PERTHREAD %s
# RUN: %ttc %s -k perthread -s '*fp32' -w 2 --emit ttgir -o /dev/null
# BCAST-NOT: internal error
# FULL-NOT: internal error
# DOT-NOT: internal error
import triton
import triton.language as tl


@triton.jit
def bcast(x_ptr):
    o = tl.arange(0, 1024)
    p = o[:, None] + o[None, :]
    q = p[:, :, None] + o[None, None, :]
    # BCAST: tile_limit.py:[[@LINE-1]]:23: error: a tensor of shape [1024, 1024, 1024] has more than the maximum of 1048576 (2^20) elements
    tl.store(x_ptr, tl.sum(tl.sum(tl.sum(q, 0), 0), 0))


@triton.jit
def full(x_ptr):
    o = tl.full((4294967296, 4294967296), 1.0, tl.float32)
    # FULL: tile_limit.py:[[@LINE-1]]:17: error: a tensor of shape [4294967296, 4294967296] has more than the maximum of 1048576 (2^20) elements
    tl.store(x_ptr, tl.sum(tl.sum(o, 0), 0))


@triton.jit
def to(x_ptr):
    o = tl.arange(0, 16)
    p = tl.broadcast_to(o[None, :], (1 << 60, 16))
    # TO: tile_limit.py:[[@LINE-1]]:37: error: a tensor of shape [1152921504606846976, 16] has more than the maximum of 1048576 (2^20) elements
    tl.store(x_ptr, tl.sum(tl.sum(p, 0), 0))


@triton.jit
def join(x_ptr):
    o = tl.full((1024, 1024), 1.0, tl.float32)
    j = tl.join(o, o)
    # JOIN: tile_limit.py:[[@LINE-1]]:9: error: a tensor of shape [1024, 1024, 2] has more than the maximum of 1048576 (2^20) elements
    tl.store(x_ptr, tl.sum(tl.sum(tl.sum(j, 0), 0), 0))


@triton.jit
def dot(x_ptr):
    a = tl.full((2048, 16), 1.0, tl.float16)
    b = tl.full((16, 1024), 1.0, tl.float16)
    c = tl.dot(a, b)
    # DOT: tile_limit.py:[[@LINE-1]]:9: error: a tensor of shape [2048, 1024] has more than the maximum of 1048576 (2^20) elements
    tl.store(x_ptr, tl.sum(tl.sum(c, 0), 0))


@triton.jit
def edge(x_ptr):
    o = tl.full((1024, 1024), 1.0, tl.float32)
    tl.store(x_ptr, tl.sum(tl.sum(o, 0), 0))


@triton.jit
def perthread(x_ptr):
    o = tl.arange(0, 1048576)
    # PERTHREAD: tile_limit.py:[[@LINE-1]]:9: error: a tensor of 1048576 elements gives each of the 32 threads 32768 elements, above the limit of 16384; use at least 2 warps
    tl.store(x_ptr + o, 1.0)
# SPDX-License-Identifier: MIT
