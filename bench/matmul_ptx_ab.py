# SPDX-License-Identifier: MIT
"""A/B of matmul PTX through one launcher: ttc's and Triton's PTX of
examples/matmul/matmul.py at one tile configuration, and any hand-edited
variants, are assembled by the same ptxas and launched by the same driver
calls (ctypes: cuModuleLoadData, cuLaunchKernel on torch's stream), so a
speed difference between them is in the code, not in either compiler's
launch path. Each is checked against an fp32 product, then all are timed
together by bench_timing.timed_pair (launches interleaved, L2 flushed
before each, 3 rounds).

usage: python3 bench/matmul_ptx_ab.py [--config 128x128x64/w4/s3] [--sizes 4096,8192,MxNxK,...]
           [--dump DIR] [--ptxas PATH] [--settings exact,ttc,triton,triton-ex]
           [--assemble plain,lineinfo,own] [--copies N]
           [NAME=FILE.ptx ...]
  --sizes: square sizes S (S x S times S x S), or shapes MxNxK; multiples of
    16 (both PTXs are specialized for sizes and strides divisible by 16)
  --dump DIR: also write ttc.ptx and triton.ptx there (to edit into variants)
  --settings: load every PTX once per launch setting (bench/ptx_ab.py: the
    shared-memory opt-in and carveout of ttc's runtime, of Triton's launcher,
    the same launched through cuLaunchKernelEx as Triton does, or the
    kernel's bytes alone, the default) and time all together
  --assemble: each PTX through --ptxas with no flags (plain, the default) or
    with -lineinfo, or ttc's and Triton's own cubins (own: each compiler's
    ptxas and flags), one load per choice, all timed together
  --copies N: each kernel loaded N times (each with its own output buffer),
    and a second table of each one's mean, min and max over its copies
prints "ptx_ab name=N size=S tflops=T us=U err=E" per PTX and size, and a table.
The kernel's parameters are read from each PTX's .entry: the three pointers
(A, B, C), then the 32-bit M, N, K and the non-unit strides, then any
further pointers (Triton's scratch buffers) as null.
Environment: TTC_BUILD (default <repo>/build).
"""
import argparse
import os
import sys

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "examples", "matmul"))
from triton_matmul import parse_config, parse_shape  # noqa: E402
from matmul import matmul_kernel  # noqa: E402
from ptx_ab import add_arguments, load, ttc_ptx  # noqa: E402
from bench_timing import timed_pair  # noqa: E402

KERNEL = os.path.join(ROOT, "examples", "matmul", "matmul.py")


def ttc_matmul_ptx(cfg, out):
    bm, bn, bk, gm, w, st = cfg
    sig = f"*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,1,i32:16,1,{bm},{bn},{bk},{gm}"
    return ttc_ptx(KERNEL, "matmul_kernel", sig, w, st, out)


def triton_ptx(cfg, out):
    bm, bn, bk, gm, w, st = cfg
    s = 256
    a = torch.randn(s, s, device="cuda", dtype=torch.float16)
    c = torch.empty_like(a)
    k = matmul_kernel[(triton.cdiv(s, bm) * triton.cdiv(s, bn),)](
        a, a, c, s, s, s, s, 1, s, 1, s, 1, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
        GROUP_SIZE_M=gm, num_warps=w, num_stages=st)
    with open(out, "w") as f:
        f.write(k.asm["ptx"])
    with open(out + ".cubin", "wb") as f:  # Triton's own cubin, for --assemble own
        f.write(k.asm["cubin"])
    return k.metadata.shared


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="128x128x64/w4/s3")
    ap.add_argument("--sizes", default="4096,8192")
    add_arguments(ap)
    opt = ap.parse_args()
    cfg = parse_config(opt.config)
    mods, shared = load(opt, lambda out: ttc_matmul_ptx(cfg, out), lambda out: triton_ptx(cfg, out))
    print(f"# triton {triton.__version__}, {torch.cuda.get_device_name()}, config {opt.config}, "
          f"shared bytes {shared}, ptxas {opt.ptxas}")
    rows = []
    for size in opt.sizes.split(","):
        m, n, k = parse_shape(size)
        if m % 16 or n % 16 or k % 16:  # both PTXs take every size and stride as a multiple of 16
            raise SystemExit(f"matmul_ptx_ab: size {size}: M, N and K must be multiples of 16")
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16)
        ref = a.float() @ b.float()
        outs, runs = {}, {}
        for name, mod in mods:
            outs[name] = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
            # M, N, K, stride_am, stride_bk, stride_cm (the unit strides are constants)
            runs[name] = mod.launcher((triton.cdiv(m, cfg[0]) * triton.cdiv(n, cfg[1]), 1, 1),
                                      [a.data_ptr(), b.data_ptr(), outs[name].data_ptr()], [m, n, k, k, n, n])
            runs[name]()
        torch.cuda.synchronize()
        times = timed_pair(runs, 3)
        for name, _ in mods:
            err = ((outs[name].float() - ref).norm() / ref.norm()).item()
            tf = 2.0 * m * n * k / (times[name] * 1e-3) / 1e12
            print(f"ptx_ab name={name} size={size} tflops={tf:.1f} us={times[name] * 1e3:.2f} err={err:.2e}",
                  flush=True)
            rows.append((name, size, tf, err))
    print(f"\n-- matmul {opt.config} through one launcher (TFLOP/s)")
    print(f"{'name':16} | {'size':>14} | {'TFLOP/s':>8} | {'rel err':>9}")
    for name, s, tf, err in rows:
        print(f"{name:16} | {s:>14} | {tf:8.1f} | {err:9.2e}")
    if opt.copies > 1:
        print(f"\n-- the {opt.copies} copies of each (TFLOP/s)")
        print(f"{'name':16} | {'size':>14} | {'mean':>8} | {'min':>8} | {'max':>8}")
        groups = {}
        for name, s, tf, _ in rows:
            groups.setdefault((name.split("#")[0], s), []).append(tf)
        for (name, s), tfs in groups.items():
            print(f"{name:16} | {s:>14} | {sum(tfs) / len(tfs):8.1f} | {min(tfs):8.1f} | {max(tfs):8.1f}")


if __name__ == "__main__":
    main()
