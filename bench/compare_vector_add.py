# SPDX-License-Identifier: MIT
"""Vector add (examples/vector_add/vector_add.py) through ttc and through
Triton in one process, timed together as bench/compare_softmax.py times
softmax: bench_timing.timed_pair interleaves the two compilers' launches,
each after an L2 flush, and the samples take --buffers (default 8) sets of
x, y and output in turn, the same sets in the same order on both sides.
BLOCK_SIZE 1024 and 4 warps on both sides, as bench/run.sh's vector_add.

usage: python3 bench/compare_vector_add.py [--sizes N,...] [--rounds R] [--buffers B]
  (defaults 1048576,16777216,268435456; 3 rounds; 8 buffer sets, fewer where
  8 would not fit in a quarter of the GPU's memory)
prints "compare_vector_add size=N ttc=G triton=G ratio=X" in GB/s (two reads
and one write of each fp32 element) per size, then a table.
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
sys.path.insert(0, os.path.join(ROOT, "examples", "vector_add"))
sys.path.insert(0, HERE)
from compare_triton import TTC_I32, TTC_PTR, Ttc  # noqa: E402
from vector_add import add_kernel  # noqa: E402
from bench_timing import print_bandwidth_table, print_run_header, timed_pair  # noqa: E402

KERNEL = os.path.join(ROOT, "examples", "vector_add", "vector_add.py")
BLOCK = 1024


def case(ttc, n, rounds, nbufs):
    per_set = 3 * 4 * n
    nbufs = max(1, min(nbufs, torch.cuda.get_device_properties(0).total_memory // 4 // per_set))
    gen = torch.Generator(device="cuda").manual_seed(n)
    bufs = [(torch.rand(n, device="cuda", generator=gen), torch.rand(n, device="cuda", generator=gen),
             torch.full((n,), float("nan"), device="cuda")) for _ in range(nbufs)]
    m = ttc.module(KERNEL, "add_kernel", f"*fp32:16,*fp32:16,*fp32:16,{'i32:16' if n % 16 == 0 else 'i32'},{BLOCK}", 4)
    grid = triton.cdiv(n, BLOCK)

    def ttc_on(x, y, out):
        return ttc.launcher(m, (grid, 1, 1), [(TTC_PTR, t.data_ptr()) for t in (x, y, out)] + [(TTC_I32, n)])

    def triton_on(x, y, out):
        return lambda: add_kernel[(grid,)](x, y, out, n, BLOCK_SIZE=BLOCK, num_warps=4)

    runs = {"ttc": [ttc_on(*b) for b in bufs], "triton": [triton_on(*b) for b in bufs]}
    for side, fns in runs.items():  # each side's result, checked on every buffer set
        for f, (x, y, out) in zip(fns, bufs):
            out.fill_(float("nan"))
            f()
            if not torch.equal(out, x + y):
                raise SystemExit(f"compare_vector_add: {side}: wrong result at {n}")
    ms = timed_pair(runs, rounds)
    return {side: per_set / (t * 1e-3) / 1e9 for side, t in ms.items()}, nbufs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1048576,16777216,268435456")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--buffers", type=int, default=8)
    opt = ap.parse_args()
    ttc, build = Ttc.beside_torch(ROOT)
    print_run_header(build, opt.rounds)
    rows = []
    for n in (int(s) for s in opt.sizes.split(",")):
        gb, nbufs = case(ttc, n, opt.rounds, opt.buffers)
        print(f"compare_vector_add size={n} buffers={nbufs} ttc={gb['ttc']:.1f} triton={gb['triton']:.1f} "
              f"ratio={gb['ttc'] / gb['triton']:.3f}", flush=True)
        rows.append((n, gb))
    print_bandwidth_table("vector add", "size", 10, rows)


if __name__ == "__main__":
    main()
