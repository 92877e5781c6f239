# tl.rand / tl.randint / tl.randn: Triton's Philox 4x32-10 written in the
# prelude (prelude/random.py) exactly as triton/language/random.py, so the
# integers are bit-identical: ten rounds of two umulhi (tt.mulhiui) with the
# round constants 0xD2511F53 / 0xCD9E8D57 and key increments 0x9E3779B9 /
# 0xBB67AE85 on the seed's low and high words.
# RUN: %ttc %s -k k -s '*fp32,*u32,*fp32,i32,128' --emit ttir | FileCheck %s
# RUN: %ttc %s -k k -s '*fp32,*u32,*fp32,i32,128' --emit ttir | grep -c tt.mulhiui | FileCheck %s --check-prefix=COUNT
# RUN: %ttc %s -k k -s '*fp32,*u32,*fp32,i32,128' --arch sm_80 --emit ptx -o %t80.ptx
# RUN: %ttc %s -k k -s '*fp32,*u32,*fp32,i32,128' --arch sm_90a --emit ptx -o %t90.ptx
# RUN: FileCheck %s --check-prefix=PTX --input-file %t90.ptx
# RUN: %if ptxas %{ %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin %}
# RUN: %if ptxas %{ %ptxas -arch=sm_90a %t90.ptx -o %t90.cubin %}
import triton
import triton.language as tl


@triton.jit
def k(u_ptr, i_ptr, n_ptr, seed, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(u_ptr + offs, tl.rand(seed, offs))
    tl.store(i_ptr + offs, tl.randint(seed, offs))
    tl.store(n_ptr + offs, tl.randn(seed, offs))

# The seed splits into 32-bit key words (sign-extended first, as Triton).
# CHECK: %[[S64:.*]] = arith.extsi %seed : i32 to i64
# CHECK: arith.shrui %[[S64]], %c32_i64 : i64
# CHECK: arith.constant dense<-845247145> : tensor<128xi32>
# CHECK: tt.mulhiui
# CHECK: arith.constant dense<-766435501> : tensor<128xi32>
# CHECK: arith.constant -1640531527 : i32
# CHECK: arith.constant -1150833019 : i32
# uint -> uniform float: where(x < 0, -x - 1, x) * 4.6566127342e-10
# CHECK: arith.select
# CHECK: arith.sitofp
# CHECK: arith.constant dense<4.6566{{[0-9]*}}{{[eE]}}-10> : tensor<128xf32>
# Box-Muller for randn.
# CHECK: math.log
# CHECK: math.cos
# 10 rounds x 2 umulhi for randint4x, shared by the three calls after CSE;
# the two of the first round whose counter word is the constant 0 fold.
# COUNT: {{^(18|19|20)$}}

# PTX: mul.hi.u32
# SPDX-License-Identifier: MIT
