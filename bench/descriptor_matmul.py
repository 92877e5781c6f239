# SPDX-License-Identifier: MIT
"""Matmul through tensor descriptors made on the host (Triton's
TensorDescriptor; the kernel is tutorial 09's descriptor matmul, non-
persistent), this file's kernel through ttc and through Triton in the same
run, against the pointer matmul of examples/matmul/matmul.py through Triton
and cuBLAS. Triton turns a descriptor load into TMA; ttc (no TMA yet) into
pointer loads that assume what Triton's TensorDescriptor asserts (16-byte
aligned base and strides, a last stride of 1). Two ttc kernels: the Triton
signature (tensordesc<fp16[BM,BK]>), and ttc's ':16' hint (every shape a
multiple of 16, which lets a row's bounds check stay 16 bytes wide, so the
loads become the same cp.async ring as the pointer matmul's). Outputs are
checked against an fp32 product first; times as bench/compare_matmul.py
(bench_timing.timed_pair, L2 flushed before each launch).

usage: python3 bench/descriptor_matmul.py [--sizes 4096,8192] [--configs 128x128x64/w4/s3,...] [--rounds R]
prints "descriptor_matmul case=S/CONFIG side=T ..." in TFLOP/s per case, and a table.
Environment: TTC_BUILD (default <repo>/build).
"""
import argparse
import os
import sys

import torch
import triton
import triton.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


@triton.jit
def matmul_kernel_descriptor(a_desc, b_desc, c_desc, M, N, K,
                             BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                             BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = pid_m * BLOCK_SIZE_M
    offs_bn = pid_n * BLOCK_SIZE_N
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = a_desc.load([offs_am, k * BLOCK_SIZE_K])
        b = b_desc.load([k * BLOCK_SIZE_K, offs_bn])
        accumulator = tl.dot(a, b, accumulator)
    c_desc.store([offs_am, offs_bn], accumulator.to(tl.float16))


def main():
    sys.path.insert(0, os.path.join(ROOT, "test", "gpu"))
    sys.path.insert(0, HERE)
    from compare_triton import TTC_I32, TTC_I64, TTC_PTR, Ttc
    from triton_matmul import parse_config, runner
    from bench_timing import timed_pair
    from triton.tools.tensor_descriptor import TensorDescriptor

    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="4096,8192")
    ap.add_argument("--configs", default="128x128x64/w4/s3,128x256x64/w8/s3")
    ap.add_argument("--rounds", type=int, default=3)
    opt = ap.parse_args()
    ttc, build = Ttc.beside_torch(ROOT)
    print(f"# triton {triton.__version__}, torch {torch.__version__}, {torch.cuda.get_device_name()}; "
          f"ttc from {build}")
    sides = ["ttc", "ttc:16", "triton", "triton-pointers"]
    rows = []
    for size in opt.sizes.split(","):
        m = n = k = int(size)
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16)
        ref = a.float() @ b.float()
        for text in opt.configs.split(","):
            cfg = parse_config(text)
            bm, bn, bk, gm, w, st = cfg
            grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
            outs = {s: torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16) for s in sides}
            runs = {}
            for side, hint in (("ttc", ""), ("ttc:16", ":16")):
                sig = (f"tensordesc<fp16[{bm},{bk}]>{hint},tensordesc<fp16[{bk},{bn}]>{hint},"
                       f"tensordesc<fp16[{bm},{bn}]>{hint},i32:16,i32:16,i32:16,{bm},{bn},{bk},{gm}")
                mod = ttc.module(os.path.abspath(__file__), "matmul_kernel_descriptor", sig, w, st)
                args = []
                for t, rows_, cols in ((a, m, k), (b, k, n), (outs[side], m, n)):
                    args += [(TTC_PTR, t.data_ptr()), (TTC_I32, rows_), (TTC_I32, cols), (TTC_I64, cols),
                             (TTC_I64, 1)]
                runs[side] = ttc.launcher(mod, (grid[0], 1, 1), args + [(TTC_I32, m), (TTC_I32, n), (TTC_I32, k)])
            da = TensorDescriptor.from_tensor(a, [bm, bk])
            db = TensorDescriptor.from_tensor(b, [bk, bn])
            dc = TensorDescriptor.from_tensor(outs["triton"], [bm, bn])
            runs["triton"] = lambda da=da, db=db, dc=dc, cfg=cfg: matmul_kernel_descriptor[grid](
                da, db, dc, m, n, k, BLOCK_SIZE_M=cfg[0], BLOCK_SIZE_N=cfg[1], BLOCK_SIZE_K=cfg[2],
                GROUP_SIZE_M=cfg[3], num_warps=cfg[4], num_stages=cfg[5])
            runs["triton-pointers"] = runner(a, b, outs["triton-pointers"], cfg)
            for side in sides:
                runs[side]()
            torch.cuda.synchronize()
            errs = {s: ((outs[s].float() - ref).norm() / ref.norm()).item() for s in sides}
            for s, e in errs.items():
                if not e < 1e-2:
                    raise SystemExit(f"descriptor_matmul: {s} at {size} {text}: relative error {e}")
            times = timed_pair(runs, opt.rounds)
            tf = {s: 2.0 * m * n * k / (times[s] * 1e-3) / 1e12 for s in sides}
            print(f"descriptor_matmul case={size}/{text} " + " ".join(f"{s}={tf[s]:.1f}" for s in sides),
                  flush=True)
            rows.append((size, text, tf))
        cublas = 2.0 * m * n * k / (triton.testing.do_bench(lambda: torch.matmul(a, b), return_mode="median")
                                    * 1e-3) / 1e12
        print(f"descriptor_matmul cublas={size} {cublas:.1f}", flush=True)
    print("\n-- matmul through host tensor descriptors (TFLOP/s); triton-pointers: examples/matmul/matmul.py")
    print(f"{'size/config':24} | " + " | ".join(f"{s:>15}" for s in sides) + " | ttc:16/triton")
    for size, text, tf in rows:
        print(f"{size + '/' + text:24} | " + " | ".join(f"{tf[s]:15.1f}" for s in sides)
              + f" | {tf['ttc:16'] / tf['triton']:13.3f}")


if __name__ == "__main__":
    main()
