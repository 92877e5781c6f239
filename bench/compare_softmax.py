# SPDX-License-Identifier: MIT
"""Row softmax (examples/softmax/softmax.py) through ttc and through Triton in
one process, on the same torch tensors, timed the same way and together:
bench_timing.timed_pair interleaves the two compilers' launches, each after
an L2 flush (as triton.testing.do_bench), for R rounds, and a time is the
median launch. The samples take --buffers (default 8) input and output
pairs in turn, the same pairs in the same order on both sides: at a few
microseconds, where a buffer sits moves a launch's time by up to 5%
(bench/bench_timing.py). bench/run.sh compares bench_softmax (C, ttc's runtime)
with bench/triton_softmax.py (Python): two timing loops, which at a few
microseconds per launch can differ by more than the kernels do; this script
takes the loop out of the comparison. ttc is driven through libttc.so
(ctypes), with the signature Triton's JIT specializes these arguments to;
launch shape as in bench_softmax.c and bench/triton_softmax.py (one program
per row, BLOCK_SIZE the next power of two, 4 warps up to 2048, 8 up to 4096,
16 above).

usage: python3 bench/compare_softmax.py [--cols C,...] [--rows R] [--rounds R] [--buffers B]
  (defaults 256,1024,4096,16384; 4096 rows; 3 rounds; 8 buffer pairs)
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
from bench_timing import print_bandwidth_table, print_run_header, timed_pair  # noqa: E402

KERNEL = os.path.join(ROOT, "examples", "softmax", "softmax.py")


def case(ttc, rows, cols, rounds, nbufs):
    block = triton.next_power_of_2(cols)
    warps = 4 if block <= 2048 else 8 if block <= 4096 else 16
    gen = torch.Generator(device="cuda").manual_seed(cols)
    # nbufs input and output pairs, which both sides' samples take in the same order
    bufs = [(torch.rand(rows, cols, device="cuda", generator=gen) * 8 - 4,
             torch.full((rows, cols), float("nan"), device="cuda")) for _ in range(nbufs)]
    hint = "i32:16" if cols % 16 == 0 else "i32"
    m = ttc.module(KERNEL, "softmax_kernel", f"*fp32:16,*fp32:16,{hint},{hint},{hint},{block}", warps)

    def ttc_on(x, out):
        vals = [(TTC_PTR, out.data_ptr()), (TTC_PTR, x.data_ptr())]
        return ttc.launcher(m, (rows, 1, 1), vals + [(TTC_I32, v) for v in (x.stride(0), out.stride(0), cols)])

    def triton_on(x, out):
        return lambda: softmax_kernel[(rows,)](out, x, x.stride(0), out.stride(0), cols, BLOCK_SIZE=block,
                                               num_warps=warps)

    runs = {"ttc": [ttc_on(x, o) for x, o in bufs], "triton": [triton_on(x, o) for x, o in bufs]}
    for side, fns in runs.items():  # each side's result, checked on every buffer
        for f, (x, out) in zip(fns, bufs):
            out.fill_(float("nan"))
            f()
            ref = torch.softmax(x.double(), dim=1)
            if not torch.allclose(out.double(), ref, rtol=1e-5, atol=0):
                raise SystemExit(f"compare_softmax: {side}: wrong result at {rows} x {cols}")
    ms = timed_pair(runs, rounds)
    return {side: 2 * 4 * rows * cols / (t * 1e-3) / 1e9 for side, t in ms.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cols", default="256,1024,4096,16384")
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--buffers", type=int, default=8)
    opt = ap.parse_args()
    ttc, build = Ttc.beside_torch(ROOT)
    print_run_header(build, opt.rounds)
    rows = []
    for cols in (int(c) for c in opt.cols.split(",")):
        gb = case(ttc, opt.rows, cols, opt.rounds, opt.buffers)
        print(f"compare_softmax rows={opt.rows} cols={cols} ttc={gb['ttc']:.1f} triton={gb['triton']:.1f} "
              f"ratio={gb['ttc'] / gb['triton']:.3f}", flush=True)
        rows.append((cols, gb))
    print_bandwidth_table(f"softmax, {opt.rows} rows", "cols", 6, rows)


if __name__ == "__main__":
    main()
