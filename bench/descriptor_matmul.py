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

usage: python3 bench/descriptor_matmul.py [--sizes 4096,8192,MxNxK] [--configs 128x128x64/w4/s3,...]
           [--rounds R] [--check-only]
  --sizes: square sizes S, or shapes MxNxK; a row whose length is not a
    multiple of 8 gets a pitch that is (a descriptor's strides are 16-byte
    multiples), so its tiles' last copies are partial
  --check-only: check every kernel's output against an fp32 product, no timing
    (test/gpu/run.sh's step descriptor_matmul)
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


# The same tiles through block pointers (tl.make_block_ptr, tl.advance,
# boundary_check), whose row ends are carried with the pointers.
@triton.jit
def matmul_kernel_block_ptr(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                            BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                            BLOCK_SIZE_K: tl.constexpr):
    pid_m = tl.program_id(0) // tl.cdiv(N, BLOCK_SIZE_N)
    pid_n = tl.program_id(0) % tl.cdiv(N, BLOCK_SIZE_N)
    a_bp = tl.make_block_ptr(a_ptr, (M, K), (stride_am, 1), (pid_m * BLOCK_SIZE_M, 0),
                             (BLOCK_SIZE_M, BLOCK_SIZE_K), (1, 0))
    b_bp = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, 1), (0, pid_n * BLOCK_SIZE_N),
                             (BLOCK_SIZE_K, BLOCK_SIZE_N), (1, 0))
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_bp, boundary_check=(0, 1))
        b = tl.load(b_bp, boundary_check=(0, 1))
        accumulator = tl.dot(a, b, accumulator)
        a_bp = tl.advance(a_bp, (0, BLOCK_SIZE_K))
        b_bp = tl.advance(b_bp, (BLOCK_SIZE_K, 0))
    c_bp = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (pid_m * BLOCK_SIZE_M, pid_n * BLOCK_SIZE_N),
                             (BLOCK_SIZE_M, BLOCK_SIZE_N), (1, 0))
    tl.store(c_bp, accumulator.to(tl.float16), boundary_check=(0, 1))


def main():
    sys.path.insert(0, os.path.join(ROOT, "test", "gpu"))
    sys.path.insert(0, HERE)
    from compare_triton import TTC_I32, TTC_I64, TTC_PTR, Ttc
    from triton_matmul import parse_config, parse_shape, runner
    from bench_timing import timed_pair
    from triton.tools.tensor_descriptor import TensorDescriptor

    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="4096,8192")
    ap.add_argument("--configs", default="128x128x64/w4/s3,128x256x64/w8/s3")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--check-only", action="store_true")
    opt = ap.parse_args()
    ttc, build = Ttc.beside_torch(ROOT)
    print(f"# triton {triton.__version__}, torch {torch.__version__}, {torch.cuda.get_device_name()}; "
          f"ttc from {build}")
    all_sides = ["ttc", "ttc:16", "triton", "triton-pointers", "ttc-block-ptr", "triton-block-ptr"]
    rows = []
    def padded(rows, cols):  # rows x cols with a pitch of a multiple of 8 elements
        pitch = (cols + 7) // 8 * 8
        return torch.randn(rows, pitch, device="cuda", dtype=torch.float16)[:, :cols]

    for size in opt.sizes.split(","):
        m, n, k = parse_shape(size)
        a, b = padded(m, k), padded(k, n)
        ref = a.float() @ b.float()
        # ':16' needs every shape a multiple of 16 (launches check it)
        sides = [x for x in all_sides if x != "ttc:16" or (m % 16, n % 16, k % 16) == (0, 0, 0)]
        for text in opt.configs.split(","):
            cfg = parse_config(text)
            bm, bn, bk, gm, w, st = cfg
            grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
            outs = {s: padded(m, n).fill_(float("nan")) for s in sides}
            runs = {}
            for side, hint in (("ttc", ""), ("ttc:16", ":16")):
                if side not in sides:
                    continue
                ints = ",".join("i32:16" if v % 16 == 0 else "i32" for v in (m, n, k))
                sig = (f"tensordesc<fp16[{bm},{bk}]>{hint},tensordesc<fp16[{bk},{bn}]>{hint},"
                       f"tensordesc<fp16[{bm},{bn}]>{hint},{ints},{bm},{bn},{bk},{gm}")
                mod = ttc.module(os.path.abspath(__file__), "matmul_kernel_descriptor", sig, w, st)
                args = []
                for t in (a, b, outs[side]):
                    args += [(TTC_PTR, t.data_ptr()), (TTC_I32, t.shape[0]), (TTC_I32, t.shape[1]),
                             (TTC_I64, t.stride(0)), (TTC_I64, 1)]
                runs[side] = ttc.launcher(mod, (grid[0], 1, 1), args + [(TTC_I32, m), (TTC_I32, n), (TTC_I32, k)])
            da = TensorDescriptor.from_tensor(a, [bm, bk])
            db = TensorDescriptor.from_tensor(b, [bk, bn])
            dc = TensorDescriptor.from_tensor(outs["triton"], [bm, bn])
            runs["triton"] = lambda da=da, db=db, dc=dc, cfg=cfg: matmul_kernel_descriptor[grid](
                da, db, dc, m, n, k, BLOCK_SIZE_M=cfg[0], BLOCK_SIZE_N=cfg[1], BLOCK_SIZE_K=cfg[2],
                GROUP_SIZE_M=cfg[3], num_warps=cfg[4], num_stages=cfg[5])
            runs["triton-pointers"] = runner(a, b, outs["triton-pointers"], cfg)
            # block pointers: the row strides as the kernel's i32 arguments
            bp_args = (m, n, k, a.stride(0), b.stride(0), outs["triton-block-ptr"].stride(0))
            bp_sig = ",".join(["*fp16:16"] * 3 + ["i32:16" if v % 16 == 0 else "i32" for v in bp_args]
                              + [str(bm), str(bn), str(bk)])
            bp_mod = ttc.module(os.path.abspath(__file__), "matmul_kernel_block_ptr", bp_sig, w, st)
            runs["ttc-block-ptr"] = ttc.launcher(
                bp_mod, (grid[0], 1, 1),
                [(TTC_PTR, t.data_ptr()) for t in (a, b, outs["ttc-block-ptr"])] +
                [(TTC_I32, v) for v in bp_args])
            runs["triton-block-ptr"] = lambda cfg=cfg, bp_args=bp_args: matmul_kernel_block_ptr[grid](
                a, b, outs["triton-block-ptr"], *bp_args, BLOCK_SIZE_M=cfg[0], BLOCK_SIZE_N=cfg[1],
                BLOCK_SIZE_K=cfg[2], num_warps=cfg[4], num_stages=cfg[5])
            for side in sides:
                runs[side]()
            torch.cuda.synchronize()
            errs = {s: ((outs[s].float() - ref).norm() / ref.norm()).item() for s in sides}
            for s, e in errs.items():
                if not e < 1e-2:
                    raise SystemExit(f"descriptor_matmul: {s} at {size} {text}: relative error {e}")
            if opt.check_only:
                print(f"descriptor_matmul check={size}/{text} " + " ".join(f"{s}={e:.1e}" for s, e in errs.items()),
                      flush=True)
                continue
            times = timed_pair(runs, opt.rounds)
            tf = {s: 2.0 * m * n * k / (times[s] * 1e-3) / 1e12 for s in sides}
            print(f"descriptor_matmul case={size}/{text} " + " ".join(f"{s}={tf[s]:.1f}" for s in sides),
                  flush=True)
            rows.append((size, text, tf))
        if opt.check_only:
            continue
        cublas = 2.0 * m * n * k / (triton.testing.do_bench(lambda: torch.matmul(a, b), return_mode="median")
                                    * 1e-3) / 1e12
        print(f"descriptor_matmul cublas={size} {cublas:.1f}", flush=True)
    print("\n-- matmul through host tensor descriptors (TFLOP/s); triton-pointers: examples/matmul/matmul.py")
    print(f"{'size/config':24} | " + " | ".join(f"{s:>15}" for s in all_sides) + " | ttc/triton")
    for size, text, tf in rows:
        print(f"{size + '/' + text:24} | " + " | ".join(f"{tf.get(s, float('nan')):15.1f}" for s in all_sides)
              + f" | {tf['ttc'] / tf['triton']:10.3f}")


if __name__ == "__main__":
    main()
