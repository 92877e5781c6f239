# SPDX-License-Identifier: MIT
"""A/B of matmul PTX through one launcher: ttc's and Triton's PTX of
examples/matmul/matmul.py at one tile configuration, and any hand-edited
variants, are assembled by the same ptxas and launched by the same driver
calls (ctypes: cuModuleLoadData, cuLaunchKernel on torch's stream), so a
speed difference between them is in the code, not in either compiler's
launch path. Each is checked against an fp32 product, then timed with
triton.testing.do_bench (median of 3 medians).

usage: python3 bench/matmul_ptx_ab.py [--config 128x128x64/w4/s3] [--sizes 4096,8192]
           [--dump DIR] [--ptxas PATH] [NAME=FILE.ptx ...]
  --dump DIR: also write ttc.ptx and triton.ptx there (to edit into variants)
prints "ptx_ab name=N size=S tflops=T err=E" per PTX and size, and a table.
The kernel's parameters are read from each PTX's .entry: the three pointers
(A, B, C), then the 32-bit M, N, K and the non-unit strides, then any
further pointers (Triton's scratch buffers) as null.
Environment: TTC_BUILD (default <repo>/build).
"""
import argparse
import ctypes
import json
import os
import re
import subprocess
import sys
import tempfile

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "examples", "matmul"))
from triton_matmul import parse_config  # noqa: E402
from matmul import matmul_kernel  # noqa: E402

KERNEL = os.path.join(ROOT, "examples", "matmul", "matmul.py")


def ttc_ptx(cfg, out):
    bm, bn, bk, gm, w, st = cfg
    ttc = os.path.join(os.environ.get("TTC_BUILD", os.path.join(ROOT, "build")), "bin", "ttc")
    sig = f"*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,1,i32:16,1,{bm},{bn},{bk},{gm}"
    common = [ttc, KERNEL, "-k", "matmul_kernel", "-s", sig, "-w", str(w), "--num-stages", str(st),
              "--arch", "sm_90a", "--no-cache"]
    subprocess.run(common + ["--emit", "ptx", "-o", out], check=True)
    subprocess.run(common + ["--emit", "cubin", "-o", out + ".cubin"], check=True)
    with open(out + ".cubin.json") as f:
        return json.load(f)["shared"]


def triton_ptx(cfg, out):
    bm, bn, bk, gm, w, st = cfg
    s = 256
    a = torch.randn(s, s, device="cuda", dtype=torch.float16)
    c = torch.empty_like(a)
    k = matmul_kernel[(triton.cdiv(s, bm) * triton.cdiv(s, bn),)](
        a, a, c, s, s, s, s, 1, s, 1, s, 1, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
        GROUP_SIZE_M=gm, num_warps=w, num_stages=st)
    with open(out, "w") as f:
        f.write(k.asm["ptx"])
    return k.metadata.shared


class Module:
    def __init__(self, cu, ptxas, path, shared):
        text = open(path).read()
        entry = re.search(r"\.entry\s+(\w+)\s*\((.*?)\)", text, re.S)
        self.params = re.findall(r"\.param\s+\.(u64|u32|b64|b32)", entry.group(2))
        cubin = tempfile.mktemp(suffix=".cubin")
        subprocess.run([ptxas, "-arch=sm_90a", path, "-o", cubin], check=True)
        img = open(cubin, "rb").read()
        os.unlink(cubin)
        self.mod, self.fn = ctypes.c_void_p(), ctypes.c_void_p()
        self.keep = img
        assert cu.cuModuleLoadData(ctypes.byref(self.mod), img) == 0, path
        assert cu.cuModuleGetFunction(ctypes.byref(self.fn), self.mod, entry.group(1).encode()) == 0
        if shared > 48 * 1024:
            assert cu.cuFuncSetAttribute(self.fn, 8, shared) == 0  # MAX_DYNAMIC_SHARED_SIZE_BYTES
        self.threads = int(re.search(r"\.(?:reqntid|maxntid)\s+(\d+)", text).group(1))
        self.shared = shared


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="128x128x64/w4/s3")
    ap.add_argument("--sizes", default="4096,8192")
    ap.add_argument("--dump")
    ap.add_argument("--ptxas", default=os.environ.get("TTC_PTXAS", "/usr/local/cuda/bin/ptxas"))
    ap.add_argument("variants", nargs="*")
    opt = ap.parse_args()
    cfg = parse_config(opt.config)
    torch.zeros(1, device="cuda")
    cu = ctypes.CDLL("libcuda.so.1")
    work = opt.dump or tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    files = [("ttc", os.path.join(work, "ttc.ptx")), ("triton", os.path.join(work, "triton.ptx"))]
    shared = {"ttc": ttc_ptx(cfg, files[0][1]), "triton": triton_ptx(cfg, files[1][1])}
    for v in opt.variants:
        name, path = v.split("=", 1)
        files.append((name, path))
    # a variant gets the larger of the two compilers' shared memory
    mods = [(name, Module(cu, opt.ptxas, path, shared.get(name, max(shared.values()))))
            for name, path in files]
    print(f"# triton {triton.__version__}, {torch.cuda.get_device_name()}, config {opt.config}, "
          f"shared bytes {shared}, ptxas {opt.ptxas}")
    rows = []
    for s in (int(x) for x in opt.sizes.split(",")):
        a = torch.randn(s, s, device="cuda", dtype=torch.float16)
        b = torch.randn(s, s, device="cuda", dtype=torch.float16)
        ref = a.float() @ b.float()
        for name, m in mods:
            c = torch.full_like(a, float("nan"))
            ptrs = [a.data_ptr(), b.data_ptr(), c.data_ptr()]
            ints = [s, s, s, s, s, s]  # M, N, K, stride_am, stride_bk, stride_cm
            vals = []
            for i, p in enumerate(m.params):
                if p in ("u64", "b64"):
                    vals.append(ctypes.c_uint64(ptrs[i] if i < 3 else 0))
                else:
                    vals.append(ctypes.c_int32(ints[i - 3]))
            args = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p)
                                                   for v in vals])
            grid = triton.cdiv(s, cfg[0]) * triton.cdiv(s, cfg[1])

            def run(m=m, args=args, grid=grid):
                r = cu.cuLaunchKernel(m.fn, grid, 1, 1, m.threads, 1, 1, m.shared,
                                      ctypes.c_void_p(torch.cuda.current_stream().cuda_stream), args, None)
                if r != 0:
                    raise RuntimeError(f"cuLaunchKernel: {r}")
            run()
            torch.cuda.synchronize()
            err = ((c.float() - ref).norm() / ref.norm()).item()
            ms = sorted(triton.testing.do_bench(run, return_mode="median") for _ in range(3))[1]
            tf = 2.0 * s ** 3 / (ms * 1e-3) / 1e12
            print(f"ptx_ab name={name} size={s} tflops={tf:.1f} err={err:.2e}", flush=True)
            rows.append((name, s, tf, err))
    print(f"\n-- matmul {opt.config} through one launcher (TFLOP/s)")
    print(f"{'name':16} | {'size':>6} | {'TFLOP/s':>8} | {'rel err':>9}")
    for name, s, tf, err in rows:
        print(f"{name:16} | {s:6d} | {tf:8.1f} | {err:9.2e}")


if __name__ == "__main__":
    main()
