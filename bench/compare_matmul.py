# SPDX-License-Identifier: MIT
"""Matmul (examples/matmul/matmul.py) through ttc and through Triton on the
same GPU, the same torch tensors and in the same run, so that both see the
same data (tensor-core power, and so clocks, depend on the bits multiplied)
and the same GPU state: per size, each configuration BMxBNxBK/wW/sS on both
sides, the best of Triton's tutorial configurations (and of those given) on
each side, and torch.matmul (cuBLAS). Results are checked against an fp32
product first; a time is the median of R rounds of launches that
bench_timing.timed_pair interleaves side by side, each after an L2 flush
(as triton.testing.do_bench); cuBLAS by do_bench.

usage: python3 bench/compare_matmul.py [--sizes S|MxNxK,...] [--configs C,...] [--dtype f16|bf16|fp8] [--persistent] [--rounds R] [--loads N]
  (defaults 2048,4096,8192; 128x128x64/w4/s3,128x256x64/w8/s3,128x256x64/w8/s4; f16; 3; 1)
  --sizes: square sizes S, or shapes MxNxK (a small K shows the fixed cost of
  a tile: address setup, the pipeline's fill, the epilogue)
  --loads N: each side's plain kernel loaded N times (each load a module of
  its own, launched by that side's own launcher on the same buffers), its
  samples taken in turn from the loads: the same code measured 1 to 1.5%
  apart in two loads at 2048 (docs/results.md, seventh session), so one
  load per side compares where the driver put each module as well
  --persistent: also the persistent kernel (matmul_kernel_persistent) with
  each configuration, on both sides with the same program count: one per
  multiprocessor (case .../persistent), and, where more fit, as many as the
  GPU runs at once (ttc_module_programs_per_sm; case .../persistent-P)
prints "compare_matmul case=DT/S/CONFIG ttc=T triton=T ratio=R" in TFLOP/s per
case, "compare_matmul best=DT/S ttc=T (CONFIG) triton=T (CONFIG) cublas=T" per
size, and a table. Environment: TTC_BUILD (default <repo>/build).
"""
import argparse
import ctypes
import os
import sys

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "test", "gpu"))
sys.path.insert(0, HERE)
from compare_triton import TTC_I32, TTC_PTR, Ttc  # noqa: E402
from triton_matmul import BEST_CANDIDATES, parse_config, parse_shape, reloaded, runner  # noqa: E402
from matmul import matmul_kernel_persistent  # noqa: E402
from bench_timing import timed_pair  # noqa: E402

KERNEL = os.path.join(ROOT, "examples", "matmul", "matmul.py")


def hint(x):
    return "i32:16" if x % 16 == 0 else ("1" if x == 1 else "i32")


def num_sms():
    return torch.cuda.get_device_properties(0).multi_processor_count


def ttc_runner(ttc, a, b, c, cfg, tnames, persistent=None, load=0):
    """ttc's launch of the plain kernel, or (persistent "sm") of the
    persistent one with one program per multiprocessor, or ("full") with as
    many as the GPU runs at once (ttc_module_programs_per_sm, which needs the
    compiled kernel: compiled once per multiprocessor, again if more fit).
    Returns (run, programs)."""
    m, k = a.shape
    _, n = b.shape
    bm, bn, bk, gm, warps, stages = cfg
    ints = [m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1)]
    vals = [(TTC_PTR, t.data_ptr()) for t in (a, b, c)] + [(TTC_I32, x) for x in ints if x != 1]
    tiles = triton.cdiv(m, bm) * triton.cdiv(n, bn)

    def load(programs):
        consts = [bm, bn, bk, gm] + ([programs] if persistent else [])
        sig = ",".join([f"*{t}:16" for t in tnames] + [hint(x) for x in ints] + [str(x) for x in consts])
        return ttc.module(KERNEL, "matmul_kernel_persistent" if persistent else "matmul_kernel", sig,
                          warps, stages, load)
    if not persistent:
        return ttc.launcher(load(None), (tiles, 1, 1), vals), tiles
    programs = ttc.lib.ttc_device_num_sms(ttc.dev)
    mod = load(programs)
    if persistent == "full":
        per_sm = ctypes.c_int()
        st = ttc.lib.ttc_module_programs_per_sm(mod, ctypes.byref(per_sm))
        if st != 0:
            raise RuntimeError(f"ttc_module_programs_per_sm: {ttc.status(st)}: "
                               f"{ttc.lib.ttc_device_error(ttc.dev).decode()}")
        if per_sm.value > 1:
            programs *= per_sm.value
            mod = load(programs)
    return ttc.launcher(mod, (min(tiles, programs), 1, 1), vals), programs


def triton_persistent(a, b, c, cfg, programs):
    """Triton's launch of the same persistent kernel with `programs` programs
    (its NUM_SMS)."""
    m, k = a.shape
    _, n = b.shape
    bm, bn, bk, gm, warps, stages = cfg
    grid = (min(programs, triton.cdiv(m, bm) * triton.cdiv(n, bn)),)

    def run():
        matmul_kernel_persistent[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                                       b.stride(1), c.stride(0), c.stride(1), BLOCK_SIZE_M=bm,
                                       BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=gm,
                                       NUM_SMS=programs, num_warps=warps, num_stages=stages)
    return run


def checked(run, c, ref, what):
    """run (or each of a list of runs) after checking its result once
    against the fp32 product."""
    for r in run if isinstance(run, list) else [run]:
        c.fill_(float("nan"))
        r()
        torch.cuda.synchronize()
        err = ((c.float() - ref).norm() / ref.norm()).item()
        if not err <= 1e-2:
            raise SystemExit(f"compare_matmul: {what}: relative error {err}")
    return run


def loads_of(opt, first, again):
    """first, or with --loads N > 1 [first, again(1), ..., again(N-1)]: the
    same compiled kernel loaded N times, each a module of its own, which
    timed_pair's samples take in turn."""
    return first if opt.loads == 1 else [first] + [again(i) for i in range(1, opt.loads)]


def cfg_name(cfg):
    return "x".join(str(v) for v in cfg[:3]) + f"/w{cfg[4]}/s{cfg[5]}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="2048,4096,8192")
    ap.add_argument("--configs", default="128x128x64/w4/s3,128x256x64/w8/s3,128x256x64/w8/s4")
    ap.add_argument("--dtype", default="f16", choices=("f16", "bf16", "fp8"))
    ap.add_argument("--persistent", action="store_true")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--loads", type=int, default=1)
    opt = ap.parse_args()
    # fp8: e4m3 A and B (B K-major, as Triton's tutorial passes it: b.T of a
    # row-major N x K tensor), f16 C
    dtype, tname = {"bf16": (torch.bfloat16, "bf16"), "fp8": (torch.float8_e4m3fn, "fp8e4nv")}.get(
        opt.dtype, (torch.float16, "fp16"))
    tnames = (tname, tname, "fp16" if opt.dtype == "fp8" else tname)
    ttc, build = Ttc.beside_torch(ROOT)
    ttc.lib.ttc_device_num_sms.restype = ctypes.c_int
    ttc.lib.ttc_device_num_sms.argtypes = [ctypes.c_void_p]
    ttc.lib.ttc_module_programs_per_sm.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
    print(f"# triton {triton.__version__}, torch {torch.__version__}, {torch.cuda.get_device_name()}; "
          f"ttc from {build}; {opt.dtype}, uniform(-1, 1) inputs")
    configs = [parse_config(x) for x in opt.configs.split(",")]
    rows, bests = [], []
    for s in opt.sizes.split(","):
        m, n, k = parse_shape(s)
        gen = torch.Generator(device="cuda").manual_seed(0)
        a = (torch.rand(m, k, device="cuda", generator=gen) * 2 - 1).to(dtype)
        b = (torch.rand(k, n, device="cuda", generator=gen) * 2 - 1).to(dtype)
        if opt.dtype == "fp8":
            b = b.T.contiguous().T  # K contiguous
        c = torch.empty(m, n, device="cuda", dtype=torch.float16 if opt.dtype == "fp8" else dtype)
        ref = a.float() @ b.float()
        tflops = lambda ms: 2.0 * m * n * k / (ms * 1e-3) / 1e12  # noqa: E731
        best = {"ttc": (0.0, None), "triton": (0.0, None)}
        seen = set()
        for cfg in configs + [x for x in BEST_CANDIDATES if x not in configs]:
            if cfg in seen:
                continue
            seen.add(cfg)
            runs = {}
            def ttc_make():
                return loads_of(opt, ttc_runner(ttc, a, b, c, cfg, tnames)[0],
                                lambda i: ttc_runner(ttc, a, b, c, cfg, tnames, load=i)[0])

            def triton_make():
                run = runner(a, b, c, cfg)
                return loads_of(opt, run, lambda i: reloaded(run, a, b, c, cfg))
            for side, make in (("ttc", ttc_make), ("triton", triton_make)):
                try:
                    runs[side] = checked(make(), c, ref, f"{side} {cfg_name(cfg)}")
                except (RuntimeError, triton.runtime.errors.OutOfResources) as e:
                    print(f"# {side} {cfg_name(cfg)} at {s}: {type(e).__name__}: {e}", flush=True)
            tf = {side: tflops(ms) for side, ms in timed_pair(runs, opt.rounds).items()}
            for side in tf:
                if tf[side] > best[side][0]:
                    best[side] = (tf[side], cfg)
            if cfg in configs and len(tf) == 2:
                name = f"{opt.dtype}/{s}/{cfg_name(cfg)}"
                print(f"compare_matmul case={name} ttc={tf['ttc']:.1f} triton={tf['triton']:.1f} "
                      f"ratio={tf['ttc'] / tf['triton']:.3f}", flush=True)
                rows.append((name, tf))
            # The persistent kernel with one program per multiprocessor (as
            # Triton's tutorial launches it), then with as many programs as
            # the GPU runs at once; Triton runs the same kernel file with the
            # same program count.
            for grid in (("sm", "full") if cfg in configs and opt.persistent and len(tf) == 2 else ()):
                run, programs = ttc_runner(ttc, a, b, c, cfg, tnames, grid)
                if grid == "full" and programs == num_sms():
                    continue  # no more than one program fits a multiprocessor: measured above
                runs = {"ttc": checked(run, c, ref, f"ttc persistent {cfg_name(cfg)}"),
                        "triton": checked(triton_persistent(a, b, c, cfg, programs), c, ref,
                                          f"triton persistent {cfg_name(cfg)}")}
                pf = {side: tflops(ms) for side, ms in timed_pair(runs, opt.rounds).items()}
                suffix = "" if grid == "sm" else f"-{programs}"
                name = f"{opt.dtype}/{s}/{cfg_name(cfg)}/persistent{suffix}"
                print(f"compare_matmul case={name} ttc={pf['ttc']:.1f} triton={pf['triton']:.1f} "
                      f"ratio={pf['ttc'] / pf['triton']:.3f} vs_ttc_plain={pf['ttc'] / tf['ttc']:.3f}",
                      flush=True)
                rows.append((name, pf))
        if opt.dtype == "fp8":  # cuBLASLt's fp8 GEMM, unit scales
            one = torch.ones((), device="cuda")
            cublas = tflops(triton.testing.do_bench(
                lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.float16),
                return_mode="median"))
        else:
            cublas = tflops(triton.testing.do_bench(lambda: torch.matmul(a, b, out=c), return_mode="median"))
        (bt, bc), (rt, rc) = best["ttc"], best["triton"]
        print(f"compare_matmul best={opt.dtype}/{s} ttc={bt:.1f} ({cfg_name(bc)}) triton={rt:.1f} "
              f"({cfg_name(rc)}) cublas={cublas:.1f}", flush=True)
        bests.append((f"{opt.dtype}/{s}", bt, cfg_name(bc), rt, cfg_name(rc), cublas))
        del a, b, c, ref
        torch.cuda.empty_cache()
    print(f"\n-- matmul {opt.dtype} (TFLOP/s), same tiles and num_stages on both sides")
    w = max([28] + [len(name) for name, _ in rows])
    print(f"{'dtype/size/config':{w}} | {'ttc':>7} | {'triton':>7} | {'ttc/triton':>10}")
    for name, tf in rows:
        print(f"{name:{w}} | {tf['ttc']:7.1f} | {tf['triton']:7.1f} | {tf['ttc'] / tf['triton']:10.3f}")
    print(f"\n-- matmul {opt.dtype}, best configuration per size (TFLOP/s)")
    w = max([12] + [len(b[0]) for b in bests])
    print(f"{'dtype/size':{w}} | {'ttc':>7} | {'ttc config':18} | {'triton':>7} | {'triton config':18} | "
          f"{'ttc/best':>8} | {'cublas':>7}")
    for name, bt, bc, rt, rc, cb in bests:
        print(f"{name:{w}} | {bt:7.1f} | {bc:18} | {rt:7.1f} | {rc:18} | {bt / rt:8.3f} | {cb:7.1f}")


if __name__ == "__main__":
    main()
