# SPDX-License-Identifier: MIT
"""Triton's cold compile of the kernels bench_compile times with ttc: each
kernel is compiled in a fresh process with an empty TRITON_CACHE_DIR, through
the first call (compile + load + one launch, the launch synchronized) minus a
second call's time. Needs a GPU, torch and Triton.

With --no-gpu, on a machine without a GPU or torch: triton.compile of the
same kernel and specialization for sm_90 (source to cubin, Triton's own
ptxas), after `import triton`, in a fresh process with an empty cache; no
launcher is built and nothing is loaded, so this is the compiler alone.

usage: python3 bench/triton_compile.py [--no-gpu]
prints: "triton-compile KERNEL ms=T" per kernel (median of 3 fresh processes).
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CHILD = r'''
import math, sys, time, torch, triton
sys.path.insert(0, sys.argv[2])
which = sys.argv[1]
if which == "matmul_128x128x64":
    sys.path.insert(0, sys.argv[3] + "/matmul")
    from matmul import matmul_kernel as k
    s = 1024
    a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn_like(a); c = torch.empty_like(a)
    run = lambda: k[(64,)](a, b, c, s, s, s, s, 1, s, 1, s, 1, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128,
                           BLOCK_SIZE_K=64, GROUP_SIZE_M=8, num_warps=4, num_stages=3)
else:
    sys.path.insert(0, sys.argv[3] + "/attention")
    from attention import attention_kernel as k
    bh, n, d = 4, 1024, 128
    q = torch.randn(bh, n, d, device="cuda", dtype=torch.float16); kk = torch.randn_like(q)
    v = torch.randn_like(q); o = torch.empty_like(q)
    st = [q.stride(0), q.stride(1)] * 4
    run = lambda: k[(n // 128, bh)](q, kk, v, o, 1 / math.sqrt(d), *st, n, HEAD_DIM=d, BLOCK_M=128,
                                    BLOCK_N=64, CAUSAL=0, num_warps=8, num_stages=3)
torch.cuda.synchronize()
t0 = time.perf_counter(); run(); torch.cuda.synchronize(); t1 = time.perf_counter()
run(); torch.cuda.synchronize(); t2 = time.perf_counter()
print((t1 - t0 - (t2 - t1)) * 1e3)
'''

# triton.compile for sm_90 without a GPU: the JIT's specialization of the
# first call's arguments (pointers and integers divisible by 16, unit
# strides as constexpr 1), spelled out.
CHILD_NO_GPU = r'''
import sys, time
import triton
from triton.backends.compiler import GPUTarget
which = sys.argv[1]
if which == "matmul_128x128x64":
    sys.path.insert(0, sys.argv[3] + "/matmul")
    from matmul import matmul_kernel as k
    consts = {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8,
              "stride_ak": 1, "stride_bn": 1, "stride_cn": 1}
    kind = lambda i, n: "*fp16" if i < 3 else "i32"
    opts = {"num_warps": 4, "num_stages": 3}
else:
    sys.path.insert(0, sys.argv[3] + "/attention")
    from attention import attention_kernel as k
    consts = {"HEAD_DIM": 128, "BLOCK_M": 128, "BLOCK_N": 64, "CAUSAL": 0}
    kind = lambda i, n: "*fp16" if i < 4 else "fp32" if n == "sm_scale" else "i32"
    opts = {"num_warps": 8, "num_stages": 3}
sig = {n: "constexpr" if n in consts else kind(i, n) for i, n in enumerate(k.arg_names)}
attrs = {(i,): [["tt.divisibility", 16]] for i, n in enumerate(k.arg_names) if sig[n] in ("*fp16", "i32")}
src = triton.compiler.ASTSource(fn=k, signature=sig, constexprs=consts, attrs=attrs)
t0 = time.perf_counter()
triton.compile(src, target=GPUTarget("cuda", 90, 32), options=opts)
print((time.perf_counter() - t0) * 1e3)
'''


def main():
    child = CHILD_NO_GPU if "--no-gpu" in sys.argv[1:] else CHILD
    for name in ("matmul_128x128x64", "attention_d128"):
        times = []
        for _ in range(3):
            with tempfile.TemporaryDirectory() as cache:
                env = dict(os.environ, TRITON_CACHE_DIR=cache)
                out = subprocess.run([sys.executable, "-c", child, name, HERE, os.path.join(ROOT, "examples")],
                                     env=env, capture_output=True, text=True, check=True)
                times.append(float(out.stdout.strip().splitlines()[-1]))
        times.sort()
        print(f"triton-compile {name} ms={times[1]:.1f}", flush=True)


if __name__ == "__main__":
    main()
