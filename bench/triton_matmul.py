# SPDX-License-Identifier: MIT
"""Times Triton's compile of examples/matmul/matmul.py, the same kernel file
bench_matmul times with ttc, with triton.testing.do_bench (median, L2 flushed),
on fp16 square matrices:
  - "triton" rows: each configuration BMxBNxBK/wW/sS that bench_matmul
    times (GROUP_SIZE_M 8), so the kernel and tiling match;
  - "triton-best" rows: the best of a few configurations from Triton's matmul
    tutorial (its autotune list for CUDA fp16), timed the same way.

usage: python3 bench/triton_matmul.py [SIZE,SIZE,...] [CONFIG,CONFIG,...] [f16|bf16]
  (defaults 1024,2048,4096, bench_matmul's configurations, f16; with bf16 the
  lines say "matmul_bf16")
prints: "triton matmul case=S/CONFIG size=S ms=T tflops=F" per size and
configuration and "triton-best matmul size=S ... config=..." per size, the
format of bench_matmul, so bench/run.sh can join them.
"""
import copy
import os
import sys

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples", "matmul"))
from matmul import matmul_kernel  # noqa: E402

# BM, BN, BK, GROUP_SIZE_M, num_warps, num_stages
DEFAULT_CONFIGS = "128x128x64/w4/s3,128x256x64/w8/s3,64x64x32/w4/s3"


def parse_config(text):
    blocks, w, s = text.split("/")
    bm, bn, bk = (int(v) for v in blocks.split("x"))
    return (bm, bn, bk, 8, int(w[1:]), int(s[1:]))


def parse_shape(text):
    """(M, N, K) from a size S (S x S times S x S) or a shape MxNxK."""
    parts = text.split("x")
    if len(parts) == 1:
        parts *= 3
    if len(parts) != 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise SystemExit(f"size {text!r}: expected S or MxNxK (positive integers)")
    return tuple(int(p) for p in parts)


# From the tutorial's get_cuda_autotune_config() (fp16 part).
BEST_CANDIDATES = [
    (128, 256, 64, 8, 8, 3),
    (64, 256, 32, 8, 4, 4),
    (128, 128, 32, 8, 4, 4),
    (128, 64, 32, 8, 4, 4),
    (64, 128, 32, 8, 4, 4),
    (128, 256, 64, 8, 8, 4),
]


def runner(a, b, c, cfg):
    m, k = a.shape
    _, n = b.shape
    bm, bn, bk, gm, warps, stages = cfg
    grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
    extra = {} if stages is None else {"num_stages": stages}

    def run():  # returns the compiled kernel (bench/compare_matmul.py --loads)
        return matmul_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                   c.stride(0), c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn,
                                   BLOCK_SIZE_K=bk, GROUP_SIZE_M=gm, num_warps=warps, **extra)
    return run


def reloaded(run, a, b, c, cfg):
    """Triton's launch of its compiled kernel (what run() launches) loaded
    once more: a module of its own, launched through the kernel's own
    launcher with the same arguments."""
    m, k = a.shape
    _, n = b.shape
    bm, bn, bk, gm, warps, _ = cfg
    kern = copy.copy(run())
    kern.module = kern.function = kern._run = None
    kern._init_handles()
    launch = kern[(triton.cdiv(m, bm) * triton.cdiv(n, bn), 1, 1)]
    args = (a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
            bm, bn, bk, gm)
    return lambda: launch(*args)


def time_config(a, b, ref, cfg):
    c = torch.full((a.shape[0], b.shape[1]), float("nan"), device="cuda", dtype=a.dtype)
    run = runner(a, b, c, cfg)
    run()
    torch.cuda.synchronize()
    err = ((c.float() - ref).norm() / ref.norm()).item()
    if not err <= 1e-2:
        raise SystemExit(f"triton matmul: wrong result with {cfg}: relative error {err}")
    return triton.testing.do_bench(run, return_mode="median")


def main():
    sizes = [1024, 2048, 4096]
    if len(sys.argv) > 1:
        sizes = [int(s) for s in sys.argv[1].split(",")]
    configs = (sys.argv[2] if len(sys.argv) > 2 else DEFAULT_CONFIGS).split(",")
    bf16 = len(sys.argv) > 3 and sys.argv[3] == "bf16"
    dtype, name = (torch.bfloat16, "matmul_bf16") if bf16 else (torch.float16, "matmul")
    print(f"# triton {triton.__version__} {name} ({dtype}) on {torch.cuda.get_device_name()}, "
          "do_bench median")
    for s in sizes:
        gen = torch.Generator(device="cuda").manual_seed(0)
        a = (torch.rand(s, s, device="cuda", generator=gen) * 2 - 1).to(dtype)
        b = (torch.rand(s, s, device="cuda", generator=gen) * 2 - 1).to(dtype)
        ref = a.float() @ b.float()
        flops = 2.0 * s * s * s
        for cfg_name in configs:
            ms = time_config(a, b, ref, parse_config(cfg_name))
            print(f"triton {name} case={s}/{cfg_name} size={s} ms={ms:.6f} "
                  f"tflops={flops / (ms * 1e-3) / 1e12:.3f}", flush=True)
        best = None
        for cfg in BEST_CANDIDATES:
            try:
                t = time_config(a, b, ref, cfg)
            except Exception as e:  # e.g. out of shared memory on a smaller GPU
                print(f"# config {cfg} failed: {type(e).__name__}", flush=True)
                continue
            if best is None or t < best[0]:
                best = (t, cfg)
        if best:
            t, cfg = best
            best_name = "x".join(str(v) for v in cfg[:3]) + f"/g{cfg[3]}/w{cfg[4]}/s{cfg[5]}"
            print(f"triton-best {name} size={s} ms={t:.6f} "
                  f"tflops={flops / (t * 1e-3) / 1e12:.3f} config={best_name}", flush=True)
        del a, b, ref
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
