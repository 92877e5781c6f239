# SPDX-License-Identifier: MIT
"""Triton's cold compile of the kernels bench_compile times with ttc: each
kernel is compiled in a fresh process with an empty TRITON_CACHE_DIR, through
the first call (compile + load + one launch, the launch synchronized) minus a
second call's time. Needs a GPU, torch and Triton.

usage: python3 bench/triton_compile.py
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


def main():
    for name in ("matmul_128x128x64", "attention_d128"):
        times = []
        for _ in range(3):
            with tempfile.TemporaryDirectory() as cache:
                env = dict(os.environ, TRITON_CACHE_DIR=cache)
                out = subprocess.run([sys.executable, "-c", CHILD, name, HERE, os.path.join(ROOT, "examples")],
                                     env=env, capture_output=True, text=True, check=True)
                times.append(float(out.stdout.strip().splitlines()[-1]))
        times.sort()
        print(f"triton-compile {name} ms={times[1]:.1f}", flush=True)


if __name__ == "__main__":
    main()
