# SPDX-License-Identifier: MIT
"""Flash-attention forward (examples/attention/attention.py) through ttc and
through Triton on the same GPU, same torch tensors, same run: checks both
against torch's scaled_dot_product_attention, then times ttc, Triton with
the same block sizes and num_stages, and torch's SDPA together
(bench_timing.timed_pair: R rounds of launches interleaved side by side,
each after an L2 flush, as triton.testing.do_bench flushes it). ttc is driven through libttc.so (ctypes),
with the signature Triton's JIT specializes these arguments to.

usage: python3 bench/triton_attention.py [--stages S,...] [--ctx N,...] [--dims D,...] [--tiles T,...]
           [--rounds R]
  (defaults 1,3; 1024,4096,16384; 64,128; Triton's tutorial tiles for the
  head dim); batch 4 x 16 heads at 1024, scaled down so that every N_CTX
  does the same work per launch. --tiles BMxBNwW,... times each tiling too
  and adds a table of each side's best (tiling and stages) per shape.
  --rounds R: rounds of timing per case (default 3).
prints one line per case: "attention case=D/N/causal/sS ttc=T triton=T sdpa=T
ratio=R" in TFLOP/s (4 * BH * N^2 * D flops, half with causal), and a table.
Environment: TTC_BUILD (default <repo>/build).
"""
import argparse
import math
import os
import sys

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "test", "gpu"))
sys.path.insert(0, os.path.join(ROOT, "examples", "attention"))
from compare_triton import TTC_F32, TTC_I32, TTC_PTR, Ttc  # noqa: E402
from attention import attention_kernel  # noqa: E402
sys.path.insert(0, HERE)
from bench_timing import timed_pair  # noqa: E402

KERNEL = os.path.join(ROOT, "examples", "attention", "attention.py")


def tiles(d):
    """Block sizes and warps as Triton's tutorial picks them on Hopper."""
    return (128, 64, 4) if d == 64 else (128, 64, 8)


def case(ttc, bh, n, d, causal, stages, tile=None, rounds=3):
    bm, bn, warps = tile or tiles(d)
    gen = torch.Generator(device="cuda").manual_seed(n * 131 + d)
    q, k, v = (torch.randn(bh, n, d, device="cuda", dtype=torch.float16, generator=gen) for _ in range(3))
    sm_scale = 1.0 / math.sqrt(d)
    o_tri = torch.full_like(q, float("nan"))
    o_ttc = torch.full_like(q, float("nan"))
    grid = (n // bm, bh, 1)
    strides = [q.stride(0), q.stride(1), k.stride(0), k.stride(1), v.stride(0), v.stride(1),
               o_tri.stride(0), o_tri.stride(1)]

    def run_triton():
        attention_kernel[grid[:2]](q, k, v, o_tri, sm_scale, *strides, n, HEAD_DIM=d, BLOCK_M=bm,
                                   BLOCK_N=bn, CAUSAL=causal, num_warps=warps, num_stages=stages)

    hint = lambda x: "i32:16" if x % 16 == 0 else ("1" if x == 1 else "i32")  # noqa: E731
    sig = ",".join(["*fp16:16"] * 4 + ["fp32"] + [hint(s) for s in strides] + [hint(n)] +
                   [str(d), str(bm), str(bn), str(int(causal))])
    m = ttc.module(KERNEL, "attention_kernel", sig, warps, stages)
    vals = [(TTC_PTR, t.data_ptr()) for t in (q, k, v, o_ttc)] + [(TTC_F32, sm_scale)]
    vals += [(TTC_I32, s) for s in strides if s != 1] + ([(TTC_I32, n)] if n != 1 else [])
    run_ttc = ttc.launcher(m, grid, vals)

    q4, k4, v4 = (t.view(1, bh, n, d) for t in (q, k, v))  # (batch, heads, N, D): the flash path

    def run_sdpa():
        return torch.nn.functional.scaled_dot_product_attention(q4, k4, v4, is_causal=bool(causal))

    run_triton()
    run_ttc()
    torch.cuda.synchronize()
    ref = run_sdpa().view(bh, n, d).float()
    err_tri = (o_tri.float() - ref).abs().max().item()
    err_ttc = (o_ttc.float() - ref).abs().max().item()
    if not err_ttc <= 2e-2 or not err_tri <= 2e-2:
        raise SystemExit(f"attention d={d} n={n} causal={causal}: max abs error vs SDPA: "
                         f"ttc {err_ttc}, triton {err_tri}")
    flops = 4.0 * bh * n * n * d * (0.5 if causal else 1.0)
    ms = timed_pair({"ttc": run_ttc, "triton": run_triton, "sdpa": run_sdpa}, rounds)
    return {side: flops / (t * 1e-3) / 1e12 for side, t in ms.items()}, err_ttc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stages", default="1,3")
    ap.add_argument("--ctx", default="1024,4096,16384")
    ap.add_argument("--dims", default="64,128")
    ap.add_argument("--tiles", default="")
    ap.add_argument("--rounds", type=int, default=3)
    opt = ap.parse_args()
    tilings = [None] + [tuple(int(x) for x in t.replace("w", "x").split("x")) for t in opt.tiles.split(",") if t]
    ttc, build = Ttc.beside_torch(ROOT)
    print(f"# triton {triton.__version__}, torch {torch.__version__}, {torch.cuda.get_device_name()}; "
          f"ttc from {build}")
    rows, bests = [], []
    for d in (int(x) for x in opt.dims.split(",")):
        for n in (int(x) for x in opt.ctx.split(",")):
            bh = max(1, 64 * 1024 // n)
            for causal in (0, 1):
                best = {"ttc": (0.0, ""), "triton": (0.0, "")}
                sdpa = 0.0
                for tile in tilings:
                    tname = "x".join(str(x) for x in (tile or tiles(d))[:2]) + f"w{(tile or tiles(d))[2]}"
                    for s in (int(x) for x in opt.stages.split(",")):
                        try:
                            tf, err = case(ttc, bh, n, d, causal, s, tile, opt.rounds)
                        except (RuntimeError, triton.runtime.errors.OutOfResources) as e:
                            print(f"# {d}/{n}/{tname}/s{s}: {type(e).__name__}: {e}", flush=True)
                            continue
                        sdpa = max(sdpa, tf["sdpa"])
                        for side in ("ttc", "triton"):
                            if tf[side] > best[side][0]:
                                best[side] = (tf[side], f"{tname}/s{s}")
                        if tile is not None:
                            continue
                        name = f"{d}/{n}/{'causal' if causal else 'full'}/s{s}"
                        print(f"attention case={name} bh={bh} ttc={tf['ttc']:.1f} triton={tf['triton']:.1f} "
                              f"sdpa={tf['sdpa']:.1f} ratio={tf['ttc'] / tf['triton']:.3f} err={err:.2e}",
                              flush=True)
                        rows.append((name, tf))
                if len(tilings) > 1:
                    name = f"{d}/{n}/{'causal' if causal else 'full'}"
                    print(f"attention best={name} ttc={best['ttc'][0]:.1f} ({best['ttc'][1]}) "
                          f"triton={best['triton'][0]:.1f} ({best['triton'][1]}) sdpa={sdpa:.1f}", flush=True)
                    bests.append((name, best, sdpa))
    print("\n-- attention forward, fp16 (TFLOP/s); Triton with the same tiles and num_stages")
    print(f"{'D/N_CTX/mask/stages':26} | {'ttc':>7} | {'triton':>7} | {'ttc/triton':>10} | {'sdpa':>7}")
    for name, tf in rows:
        print(f"{name:26} | {tf['ttc']:7.1f} | {tf['triton']:7.1f} | {tf['ttc'] / tf['triton']:10.3f} | "
              f"{tf['sdpa']:7.1f}")
    if bests:
        print("\n-- attention forward, best tiling and num_stages on each side (TFLOP/s)")
        print(f"{'D/N_CTX/mask':18} | {'ttc':>7} | {'ttc config':14} | {'triton':>7} | {'triton config':14} | "
              f"{'ttc/best':>8} | {'sdpa':>7}")
        for name, best, sdpa in bests:
            (bt, bc), (rt, rc) = best["ttc"], best["triton"]
            print(f"{name:18} | {bt:7.1f} | {bc:14} | {rt:7.1f} | {rc:14} | {bt / rt:8.3f} | {sdpa:7.1f}")


if __name__ == "__main__":
    main()
