# SPDX-License-Identifier: MIT
"""Row softmax (examples/softmax/softmax.py) through ttc and through Triton in
one process, on the same torch tensors, timed the same way: both launches
are timed by triton.testing.do_bench (L2 flushed before each launch), a time
is the median over R rounds of do_bench medians, and the two compilers take
turns going first. bench/run.sh compares bench_softmax (C, ttc's runtime)
with bench/triton_softmax.py (Python): two timing loops, which at a few
microseconds per launch can differ by more than the kernels do; this script
takes the loop out of the comparison. ttc is driven through libttc.so
(ctypes), with the signature Triton's JIT specializes these arguments to;
launch shape as in bench_softmax.c and bench/triton_softmax.py (one program
per row, BLOCK_SIZE the next power of two, 4 warps up to 2048, 8 up to 4096,
16 above).

usage: python3 bench/compare_softmax.py [--cols C,...] [--rows R] [--rounds R]
  (defaults 256,1024,4096,16384; 4096 rows; 3 rounds)
prints "compare_softmax rows=R cols=C ttc=G triton=G ratio=X" in GB/s (one
read and one write of each fp32 element) per size, then a table.
Environment: TTC_BUILD (default <repo>/build).
"""
import argparse
import os
import sys

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "test", "gpu"))
sys.path.insert(0, os.path.join(ROOT, "examples", "softmax"))
sys.path.insert(0, HERE)
from compare_triton import TTC_I32, TTC_PTR, Ttc  # noqa: E402
from softmax import softmax_kernel  # noqa: E402
from bench_timing import timed_pair  # noqa: E402

KERNEL = os.path.join(ROOT, "examples", "softmax", "softmax.py")


def case(ttc, rows, cols, rounds):
    block = triton.next_power_of_2(cols)
    warps = 4 if block <= 2048 else 8 if block <= 4096 else 16
    gen = torch.Generator(device="cuda").manual_seed(cols)
    x = torch.rand(rows, cols, device="cuda", generator=gen) * 8 - 4
    outs = {side: torch.full_like(x, float("nan")) for side in ("ttc", "triton")}
    hint = "i32:16" if cols % 16 == 0 else "i32"
    m = ttc.module(KERNEL, "softmax_kernel", f"*fp32:16,*fp32:16,{hint},{hint},{hint},{block}", warps)
    vals = [(TTC_PTR, outs["ttc"].data_ptr()), (TTC_PTR, x.data_ptr())]
    vals += [(TTC_I32, v) for v in (x.stride(0), outs["ttc"].stride(0), cols)]
    run_ttc = ttc.launcher(m, (rows, 1, 1), vals)

    def run_triton():
        softmax_kernel[(rows,)](outs["triton"], x, x.stride(0), outs["triton"].stride(0), cols,
                                BLOCK_SIZE=block, num_warps=warps)

    run_ttc()
    run_triton()
    torch.cuda.synchronize()
    ref = torch.softmax(x.double(), dim=1)
    for side, o in outs.items():
        if not torch.allclose(o.double(), ref, rtol=1e-5, atol=0):
            raise SystemExit(f"compare_softmax: {side}: wrong result at {rows} x {cols}")
    ms = timed_pair({"ttc": run_ttc, "triton": run_triton}, rounds)
    return {side: 2 * 4 * rows * cols / (t * 1e-3) / 1e9 for side, t in ms.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cols", default="256,1024,4096,16384")
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--rounds", type=int, default=3)
    opt = ap.parse_args()
    build = os.environ.get("TTC_BUILD", os.path.join(ROOT, "build"))
    torch.zeros(1, device="cuda")  # torch's context first: ttc uses the same primary context
    ttc = Ttc(build, False)
    print(f"# triton {triton.__version__}, torch {torch.__version__}, {torch.cuda.get_device_name()}; "
          f"ttc from {build}; {opt.rounds} rounds of do_bench medians")
    rows = []
    for cols in (int(c) for c in opt.cols.split(",")):
        gb = case(ttc, opt.rows, cols, opt.rounds)
        print(f"compare_softmax rows={opt.rows} cols={cols} ttc={gb['ttc']:.1f} triton={gb['triton']:.1f} "
              f"ratio={gb['ttc'] / gb['triton']:.3f}", flush=True)
        rows.append((cols, gb))
    print(f"\n-- softmax, {opt.rows} rows (GB/s), one timing loop for both")
    print(f"{'cols':>6} | {'ttc':>8} | {'triton':>8} | {'ttc/triton':>10}")
    for cols, gb in rows:
        print(f"{cols:6d} | {gb['ttc']:8.1f} | {gb['triton']:8.1f} | {gb['ttc'] / gb['triton']:10.3f}")


if __name__ == "__main__":
    main()
