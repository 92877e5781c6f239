# Control flow the language allows: an early `return` under a runtime `if`
# (the rest of the function moves into the scf.if's else arm, and a helper's
# returned values become the scf.if's results), `break` / `continue` in
# tl.static_range loops under constexpr conditions, and a negative range
# step (the loop runs upward over swapped bounds; i = ub + lb - iv).
# RUN: %ttc %s -k k -s '*fp32,i32,64' --emit ttir | FileCheck %s
# RUN: %ttc %s -k k -s '*fp32,i32,64' --arch sm_90a --emit ptx -o %t90.ptx
# RUN: %if ptxas %{ %ptxas -arch=sm_90a %t90.ptx -o %t90.cubin %}
import triton
import triton.language as tl


@triton.jit
def scale(x, n):
    if n > 4:
        return x * 2
    y = x + 1
    return y


@triton.jit
def k(x_ptr, n, N: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= n:
        return
    offs = tl.arange(0, N)
    acc = tl.zeros((N,), tl.float32)
    for i in range(10, 0, -3):
        acc += i
    for j in tl.static_range(8):
        if j == 5:
            break
        if j % 2 == 1:
            continue
        acc += j
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, scale(x, n) + acc)

# CHECK-LABEL: tt.func public @k
# CHECK: %[[C:.*]] = arith.cmpi sge, %pid, %n : i32
# CHECK-NEXT: scf.if %[[C]] {
# CHECK-NEXT: } else {
# CHECK: scf.for %i = %c0_i32 to %c10_i32 step %c3_i32
# CHECK-NEXT: %[[I:.*]] = arith.subi %c10_i32, %i : i32
# CHECK-NEXT: arith.sitofp %[[I]] : i32 to f32
# static_range: j = 0, 2, 4 only (1 and 3 continue, 5 breaks).
# CHECK: scf.yield
# CHECK-NEXT: }
# CHECK-NEXT: arith.addf %{{.*}}, %cst
# CHECK-NEXT: arith.constant dense<2.000000e+00>
# CHECK-NEXT: arith.addf
# CHECK-NEXT: arith.constant dense<4.000000e+00>
# CHECK-NEXT: arith.addf
# CHECK-NOT: dense<6.0
# CHECK: %[[R:.*]] = scf.if %{{.*}} -> (tensor<64xf32>) {
# CHECK: arith.mulf
# CHECK: scf.yield
# CHECK: } else {
# CHECK: arith.addf
# CHECK: scf.yield
# CHECK: arith.addf %[[R]]
# CHECK: tt.store
# CHECK: tt.return
# SPDX-License-Identifier: MIT
