# SPDX-License-Identifier: MIT
"""A/B of flash-attention PTX through one launcher: ttc's and Triton's PTX of
examples/attention/attention.py at one head dim, tiling and num_stages, and
any hand-edited variants, are assembled by the same ptxas and launched by
the same driver calls (bench/ptx_ab.py), so a speed difference between them
is in the code, not in either compiler's launch path. Each is checked
against torch's SDPA first, then all are timed together by
bench_timing.timed_pair (launches interleaved, L2 flushed before each,
R rounds).

usage: python3 bench/attention_ptx_ab.py [--dim 64] [--tile 128x64w4] [--stages 3]
           [--causal] [--ctx 4096,16384] [--rounds 3] [--dump DIR] [--ptxas PATH]
           [--settings S,...] [--assemble A,...] [--copies N] [NAME=FILE.ptx ...]
  --dump DIR: also write ttc.ptx and triton.ptx there (to edit into variants)
  --settings, --assemble, --copies: as bench/matmul_ptx_ab.py (each copy
    its own output; the table lists every copy)
prints "attention_ab name=N ctx=C tflops=T err=E" per PTX and N_CTX, and a
table. Shapes as bench/triton_attention.py: (64K / N_CTX) heads of N_CTX x D.
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
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "examples", "attention"))
from attention import attention_kernel  # noqa: E402
from ptx_ab import add_arguments, load, ttc_ptx  # noqa: E402
from bench_timing import timed_pair  # noqa: E402

KERNEL = os.path.join(ROOT, "examples", "attention", "attention.py")


def strides(q, o):
    return [q.stride(0), q.stride(1)] * 3 + [o.stride(0), o.stride(1)]


def triton_ptx(d, bm, bn, warps, stages, causal, out):
    n, bh = 256, 1
    q = torch.randn(bh, n, d, device="cuda", dtype=torch.float16)
    o = torch.empty_like(q)
    k = attention_kernel[(n // bm, bh)](q, q, q, o, 1.0, *strides(q, o), n, HEAD_DIM=d, BLOCK_M=bm,
                                        BLOCK_N=bn, CAUSAL=causal, num_warps=warps, num_stages=stages)
    with open(out, "w") as f:
        f.write(k.asm["ptx"])
    with open(out + ".cubin", "wb") as f:  # Triton's own cubin, for --assemble own
        f.write(k.asm["cubin"])
    return k.metadata.shared


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dim", type=int, default=64)
    ap.add_argument("--tile", default="128x64w4")
    ap.add_argument("--stages", type=int, default=3)
    ap.add_argument("--causal", action="store_true")
    ap.add_argument("--ctx", default="4096,16384")
    ap.add_argument("--rounds", type=int, default=3)
    add_arguments(ap)
    opt = ap.parse_args()
    bm, bn, warps = (int(x) for x in opt.tile.replace("w", "x").split("x"))
    d, causal = opt.dim, int(opt.causal)
    sig = ",".join(["*fp16:16"] * 4 + ["fp32"] + ["i32:16"] * 9 + [str(d), str(bm), str(bn), str(causal)])
    mods, shared = load(opt, lambda out: ttc_ptx(KERNEL, "attention_kernel", sig, warps, opt.stages, out),
                        lambda out: triton_ptx(d, bm, bn, warps, opt.stages, causal, out))
    print(f"# triton {triton.__version__}, {torch.cuda.get_device_name()}, D={d} tile {opt.tile} "
          f"s{opt.stages} causal={causal}, shared bytes {shared}, ptxas {opt.ptxas}, {opt.rounds} rounds")
    rows = []
    for n in (int(x) for x in opt.ctx.split(",")):
        bh = max(1, 64 * 1024 // n)
        q, k, v = (torch.randn(bh, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
        ref = torch.nn.functional.scaled_dot_product_attention(
            *(t.view(1, bh, n, d) for t in (q, k, v)), is_causal=bool(causal)).view(bh, n, d).float()
        runs = []
        for name, m in mods:
            o = torch.full_like(q, float("nan"))
            run = m.launcher((n // bm, bh, 1), [t.data_ptr() for t in (q, k, v, o)], strides(q, o) + [n],
                             [1.0 / math.sqrt(d)])
            run()
            torch.cuda.synchronize()
            runs.append((name, run, (o.float() - ref).abs().max().item(), o))  # o: each its own output
        times = timed_pair({name: run for name, run, _, _ in runs}, opt.rounds)
        flops = 4.0 * bh * n * n * d * (0.5 if causal else 1.0)
        for name, _, err, _ in runs:
            tf = flops / (times[name] * 1e-3) / 1e12
            print(f"attention_ab name={name} ctx={n} tflops={tf:.1f} err={err:.2e}", flush=True)
            rows.append((name, n, tf, err))
    print(f"\n-- attention D={d} {opt.tile} s{opt.stages} causal={causal} through one launcher (TFLOP/s)")
    print(f"{'name':16} | {'N_CTX':>6} | {'TFLOP/s':>8} | {'max err':>9}")
    for name, n, tf, err in rows:
        print(f"{name:16} | {n:6d} | {tf:8.1f} | {err:9.2e}")


if __name__ == "__main__":
    main()
