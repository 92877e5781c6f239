# SPDX-License-Identifier: MIT
"""Times Triton's compile of examples/vector_add/vector_add.py, the same kernel
file bench_vector_add times with ttc, with triton.testing.do_bench (median).

usage: python3 bench/triton_vector_add.py [LOG2,LOG2,...]   (default 20,24,28)
prints: "triton vector_add size=N ms=T gbps=G" per size, the format of
bench_vector_add, so bench/run.sh can join the two.
"""
import os
import sys

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples", "vector_add"))
from vector_add import add_kernel  # noqa: E402

BLOCK_SIZE = 1024


def bench(n):
    gen = torch.Generator(device="cuda").manual_seed(0)
    x = torch.rand(n, device="cuda", generator=gen)
    y = torch.rand(n, device="cuda", generator=gen)
    out = torch.full_like(x, float("nan"))
    grid = (triton.cdiv(n, BLOCK_SIZE),)

    def run():
        add_kernel[grid](x, y, out, n, BLOCK_SIZE=BLOCK_SIZE)

    run()
    torch.cuda.synchronize()
    if not torch.equal(out, x + y):
        raise SystemExit(f"triton vector_add: wrong result at size {n}")
    ms = triton.testing.do_bench(run, return_mode="median")
    del x, y, out
    torch.cuda.empty_cache()
    return ms


def main():
    sizes = [20, 24, 28]
    if len(sys.argv) > 1:
        sizes = [int(s) for s in sys.argv[1].split(",")]
    print(f"# triton {triton.__version__} vector_add on {torch.cuda.get_device_name()}, "
          "do_bench median")
    for log2 in sizes:
        n = 1 << log2
        ms = bench(n)
        gbps = 3 * 4 * n / (ms * 1e-3) / 1e9
        print(f"triton vector_add size={n} ms={ms:.6f} gbps={gbps:.1f}", flush=True)


if __name__ == "__main__":
    main()
