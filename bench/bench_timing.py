# SPDX-License-Identifier: MIT
"""Timing shared by the Python benchmarks that put ttc and Triton side by side."""
import triton


def timed_pair(runs, rounds):
    """Median times (ms) of each side's run over `rounds` rounds of
    do_bench medians, the side that goes first alternating round by round
    (a fixed order favours one side as clocks and power settle). `runs` maps
    a side's name to its launch function; any number of sides."""
    times = {side: [] for side in runs}
    order = list(runs)
    for r in range(rounds):
        for side in (order if r % 2 == 0 else order[::-1]):
            times[side].append(triton.testing.do_bench(runs[side], return_mode="median"))
    return {side: sorted(t)[len(t) // 2] for side, t in times.items()}
