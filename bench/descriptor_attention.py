# SPDX-License-Identifier: MIT
"""Attention forward through host tensor descriptors, as Triton's Hopper
attention tutorial writes it: Q, K, V and O are 2-D descriptors over
(batch * heads * N_CTX, HEAD_DIM), and K is loaded BLOCK_N x HEAD_DIM and
transposed (`.T`) for Q K^T. This file's kernel runs through ttc (Triton's
signature, and ttc's ':16' hint) and Triton (TMA) in the same run, beside
examples/attention/attention.py through both (pointer loads, K read
transposed) and torch's SDPA. Outputs are checked against SDPA first
(max abs error 2e-2); times as bench/triton_attention.py.

usage: python3 bench/descriptor_attention.py [--ctx 4096,16384] [--dims 64,128] [--causal 0,1]
           [--stages 3] [--rounds R] [--check-only]
prints "descriptor_attention case=D/N/CAUSAL side=T ..." in TFLOP/s, and a table.
Environment: TTC_BUILD (default <repo>/build).
"""
import argparse
import math
import os
import sys

import torch
import triton
import triton.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


@triton.jit
def attention_kernel_descriptor(desc_q, desc_k, desc_v, desc_o, sm_scale, N_CTX,
                                HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                                BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    block_m = tl.program_id(0)
    head = tl.program_id(1)
    row0 = head * N_CTX + block_m * BLOCK_M  # this block's first row of the 2-D views
    q = desc_q.load([row0, 0])
    scale = sm_scale * 1.4426950408889634  # log2(e)
    rows = block_m * BLOCK_M + tl.arange(0, BLOCK_M)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    end = (block_m + 1) * BLOCK_M if CAUSAL else N_CTX
    for start in range(0, end, BLOCK_N):
        k = desc_k.load([head * N_CTX + start, 0]).T
        s = tl.dot(q, k) * scale
        if CAUSAL:
            cols = start + tl.arange(0, BLOCK_N)
            s = tl.where(rows[:, None] >= cols[None, :], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = desc_v.load([head * N_CTX + start, 0])
        acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])
        m_i = m_new
    desc_o.store([row0, 0], (acc / l_i[:, None]).to(tl.float16))


def main():
    sys.path.insert(0, os.path.join(ROOT, "test", "gpu"))
    sys.path.insert(0, os.path.join(ROOT, "examples", "attention"))
    sys.path.insert(0, HERE)
    from compare_triton import TTC_F32, TTC_I32, TTC_I64, TTC_PTR, Ttc
    from attention import attention_kernel
    from bench_timing import timed_pair
    from triton.tools.tensor_descriptor import TensorDescriptor

    ap = argparse.ArgumentParser()
    ap.add_argument("--ctx", default="4096,16384")
    ap.add_argument("--dims", default="64,128")
    ap.add_argument("--causal", default="0,1")
    ap.add_argument("--stages", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--check-only", action="store_true")
    opt = ap.parse_args()
    ttc, build = Ttc.beside_torch(ROOT)
    print(f"# triton {triton.__version__}, torch {torch.__version__}, {torch.cuda.get_device_name()}; "
          f"ttc from {build}")
    sides = ["ttc", "ttc:16", "triton", "ttc-pointers", "triton-pointers", "sdpa"]
    pointer_kernel = os.path.join(ROOT, "examples", "attention", "attention.py")
    rows = []
    for d in (int(x) for x in opt.dims.split(",")):
        bm, bn, warps = (128, 64, 4) if d == 64 else (128, 64, 8)  # Triton's tutorial tiles on Hopper
        for n in (int(x) for x in opt.ctx.split(",")):
            bh = max(1, 64 * 1024 // n)
            for causal in (int(x) for x in opt.causal.split(",")):
                gen = torch.Generator(device="cuda").manual_seed(n * 131 + d)
                q, k, v = (torch.randn(bh, n, d, device="cuda", dtype=torch.float16, generator=gen)
                           for _ in range(3))
                sm_scale = 1.0 / math.sqrt(d)
                outs = {s: torch.full_like(q, float("nan")) for s in sides if s != "sdpa"}
                grid = (n // bm, bh, 1)
                flat = lambda t: t.view(bh * n, d)  # noqa: E731
                runs = {}
                for side, hint in (("ttc", ""), ("ttc:16", ":16")):
                    sig = (f"tensordesc<fp16[{bm},{d}]>{hint},tensordesc<fp16[{bn},{d}]>{hint},"
                           f"tensordesc<fp16[{bn},{d}]>{hint},tensordesc<fp16[{bm},{d}]>{hint},fp32,i32:16,"
                           f"{d},{bm},{bn},{causal}")
                    mod = ttc.module(os.path.abspath(__file__), "attention_kernel_descriptor", sig, warps,
                                     opt.stages)
                    args = []
                    for t in (q, k, v, outs[side]):
                        args += [(TTC_PTR, t.data_ptr()), (TTC_I32, bh * n), (TTC_I32, d), (TTC_I64, d),
                                 (TTC_I64, 1)]
                    runs[side] = ttc.launcher(mod, grid, args + [(TTC_F32, sm_scale), (TTC_I32, n)])
                descs = [TensorDescriptor.from_tensor(flat(t), [bm if i in (0, 3) else bn, d])
                         for i, t in enumerate((q, k, v, outs["triton"]))]
                runs["triton"] = lambda descs=descs: attention_kernel_descriptor[grid[:2]](
                    *descs, sm_scale, n, HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal,
                    num_warps=warps, num_stages=opt.stages)
                strides = [q.stride(0), q.stride(1), k.stride(0), k.stride(1), v.stride(0), v.stride(1),
                           q.stride(0), q.stride(1)]
                o_tp = outs["triton-pointers"]
                runs["triton-pointers"] = lambda: attention_kernel[grid[:2]](
                    q, k, v, o_tp, sm_scale, *strides, n, HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn,
                    CAUSAL=causal, num_warps=warps, num_stages=opt.stages)
                psig = ",".join(["*fp16:16"] * 4 + ["fp32"] + ["i32:16"] * 9 + [str(d), str(bm), str(bn),
                                                                                 str(causal)])
                pmod = ttc.module(pointer_kernel, "attention_kernel", psig, warps, opt.stages)
                pvals = [(TTC_PTR, t.data_ptr()) for t in (q, k, v, outs["ttc-pointers"])]
                runs["ttc-pointers"] = ttc.launcher(pmod, grid, pvals + [(TTC_F32, sm_scale)] +
                                                    [(TTC_I32, s) for s in strides] + [(TTC_I32, n)])
                q4, k4, v4 = (t.view(1, bh, n, d) for t in (q, k, v))
                runs["sdpa"] = lambda: torch.nn.functional.scaled_dot_product_attention(
                    q4, k4, v4, is_causal=bool(causal))
                for side in sides:
                    runs[side]()
                torch.cuda.synchronize()
                ref = runs["sdpa"]().view(bh, n, d).float()
                errs = {s: (o.float() - ref).abs().max().item() for s, o in outs.items()}
                for s, e in errs.items():
                    if not e <= 2e-2:
                        raise SystemExit(f"descriptor_attention: {s} at d={d} n={n} causal={causal}: "
                                         f"max abs error vs SDPA {e}")
                name = f"{d}/{n}/{causal}"
                if opt.check_only:
                    print(f"descriptor_attention check={name} " + " ".join(f"{s}={e:.1e}" for s, e in errs.items()),
                          flush=True)
                    continue
                flops = 4.0 * bh * n * n * d * (0.5 if causal else 1.0)
                ms = timed_pair(runs, opt.rounds)
                tf = {s: flops / (ms[s] * 1e-3) / 1e12 for s in sides}
                print(f"descriptor_attention case={name} " + " ".join(f"{s}={tf[s]:.1f}" for s in sides),
                      flush=True)
                rows.append((name, tf))
    if not rows:
        return
    print("\n-- attention through host tensor descriptors (TFLOP/s, stages "
          f"{opt.stages}); *-pointers: examples/attention/attention.py")
    print(f"{'d/N_CTX/causal':16} | " + " | ".join(f"{s:>15}" for s in sides) + " | ttc/triton")
    for name, tf in rows:
        print(f"{name:16} | " + " | ".join(f"{tf[s]:15.1f}" for s in sides)
              + f" | {tf['ttc'] / tf['triton']:10.3f}")


if __name__ == "__main__":
    main()
