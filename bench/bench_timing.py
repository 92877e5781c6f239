# SPDX-License-Identifier: MIT
"""Timing shared by the Python benchmarks that put ttc and Triton side by side.

Each launch is timed as triton.testing.do_bench times it: the L2 cache is
flushed (a 256 MB buffer zeroed) and CUDA events record the launch alone.
But the sides' launches are interleaved, one launch of each side after the
other, rather than timed in separate do_bench calls. Measured on an H200
(docs/results.md, fifth session), a do_bench call's median lands on one of
two levels about 6% apart (softmax at 4096 x 256: 7.4 or 8.1 us), for
Triton's kernel and ttc's alike and for the same PTX through the same
launcher, and stays there for the whole call; a ratio of two calls' medians
then measures which level each call drew. Interleaved, both sides sample the
same levels at the same times.

At a few microseconds per launch, the buffers' addresses matter too: the
same softmax kernel at 4096 x 256 measured 7.7 and 8.1 us on two output
buffers allocated one after the other, in the same process. A side may give
a list of launch functions, each on its own buffers, which its samples take
in turn; the benchmarks give both sides the same buffers, in the same
order."""
import statistics

import torch
import triton

FLUSH_BYTES = 256 * 1024 * 1024  # as triton.testing.do_bench


def timed_pair(runs, rounds, rep_ms=100.0):
    """Median times (ms) of each side's launch. `runs` maps a side's name to
    its launch function, or to a list of them that its samples take in turn;
    any number of sides. Each of `rounds` rounds takes about rep_ms per side:
    launches interleaved side by side, each after an L2 flush, the side that
    goes first alternating round by round."""
    flush = torch.empty(FLUSH_BYTES // 4, dtype=torch.int32, device="cuda")
    sides = list(runs)
    fns = {side: f if isinstance(f, (list, tuple)) else [f] for side, f in runs.items()}
    for fs in fns.values():  # compile, load, warm up
        for f in fs:
            f()
    torch.cuda.synchronize()
    est = 0.0
    for side in sides:  # one flushed launch per side, five times: the sample count
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for j in range(5):
            flush.zero_()
            fns[side][j % len(fns[side])]()
        b.record()
        torch.cuda.synchronize()
        est = max(est, a.elapsed_time(b) / 5)
    n = max(10, min(2000, int(rep_ms / max(est, 1e-3))))
    times = {side: [] for side in sides}
    for r in range(rounds):
        order = sides if r % 2 == 0 else sides[::-1]
        events = [(side, j, torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
                  for j in range(n) for side in order]
        for side, j, a, b in events:
            flush.zero_()
            a.record()
            fns[side][j % len(fns[side])]()
            b.record()
        torch.cuda.synchronize()
        for side, _, a, b in events:
            times[side].append(a.elapsed_time(b))
    return {side: statistics.median(t) for side, t in times.items()}


def print_run_header(build, rounds):
    """The versions, the GPU and the timing, first line of a comparison's output."""
    print(f"# triton {triton.__version__}, torch {torch.__version__}, {torch.cuda.get_device_name()}; "
          f"ttc from {build}; {rounds} rounds of interleaved launches")


def print_bandwidth_table(title, key, width, rows):
    """The closing table of a bandwidth comparison: rows of (size, {side: GB/s})."""
    print(f"\n-- {title} (GB/s), one timing loop for both")
    print(f"{key:>{width}} | {'ttc':>8} | {'triton':>8} | {'ttc/triton':>10}")
    for size, gb in rows:
        print(f"{size:{width}d} | {gb['ttc']:8.1f} | {gb['triton']:8.1f} | {gb['ttc'] / gb['triton']:10.3f}")
