# SPDX-License-Identifier: MIT
"""Times Triton's compile of examples/softmax/softmax.py, the same kernel file
bench_softmax times with ttc, with triton.testing.do_bench (median, L2 flushed).
Launch shape as in bench_softmax.c: one program per row, BLOCK_SIZE the next
power of two >= n_cols, num_warps 4 up to 2048, 8 up to 4096, 16 above.

usage: python3 bench/triton_softmax.py [COLS,COLS,...] [ROWS]
       (default 256,1024,4096,16384 and 4096)
prints: "triton softmax rows=R cols=C ms=T gbps=G" per size, the format of
bench_softmax, so bench/run.sh can join the two. With TRITON_DUMP_DIR set, the
PTX and cubin Triton compiled for each size are written there
(softmax_<cols>.ptx / .cubin), to compare with ttc's.
"""
import os
import sys

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples", "softmax"))
from softmax import softmax_kernel  # noqa: E402


def launch_shape(n_cols):
    block = triton.next_power_of_2(n_cols)
    num_warps = 4 if block <= 2048 else 8 if block <= 4096 else 16
    return block, num_warps


def bench(rows, cols):
    gen = torch.Generator(device="cuda").manual_seed(0)
    x = torch.rand(rows, cols, device="cuda", generator=gen) * 8 - 4
    out = torch.full_like(x, float("nan"))
    block, num_warps = launch_shape(cols)

    def run():
        return softmax_kernel[(rows,)](out, x, x.stride(0), out.stride(0), cols,
                                       BLOCK_SIZE=block, num_warps=num_warps)

    compiled = run()
    torch.cuda.synchronize()
    dump = os.environ.get("TRITON_DUMP_DIR")
    if dump and hasattr(compiled, "asm"):
        with open(os.path.join(dump, f"softmax_{cols}.ptx"), "w") as f:
            f.write(compiled.asm["ptx"])
        with open(os.path.join(dump, f"softmax_{cols}.cubin"), "wb") as f:
            f.write(compiled.asm["cubin"])
    ref = torch.softmax(x.double(), dim=1)
    if not torch.allclose(out.double(), ref, rtol=1e-5, atol=0):
        raise SystemExit(f"triton softmax: wrong result at {rows} x {cols}")
    ms = triton.testing.do_bench(run, return_mode="median")
    del x, out, ref
    torch.cuda.empty_cache()
    return ms


def main():
    cols_list = [256, 1024, 4096, 16384]
    rows = 4096
    if len(sys.argv) > 1:
        cols_list = [int(s) for s in sys.argv[1].split(",")]
    if len(sys.argv) > 2:
        rows = int(sys.argv[2])
    print(f"# triton {triton.__version__} softmax on {torch.cuda.get_device_name()}, "
          "do_bench median")
    for cols in cols_list:
        ms = bench(rows, cols)
        gbps = 2 * 4 * rows * cols / (ms * 1e-3) / 1e9
        print(f"triton softmax rows={rows} cols={cols} ms={ms:.6f} gbps={gbps:.1f}", flush=True)


if __name__ == "__main__":
    main()
