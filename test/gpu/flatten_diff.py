# SPDX-License-Identifier: MIT
"""Differential test of tritongpu-fuse-nested-loops on random loop nests.

Each seed makes a kernel with a `tl.range(..., flatten=True)` loop holding
one inner loop. The nests vary: lower bounds (0, 1, the program id), steps,
trip counts that can be zero, a carried sum in the outer loop, pure
prologue ops (a division), a carried pointer, an `if` in the inner body or
the epilogue, and a 16x16 `tl.dot` on half of the seeds. Two signatures are
tried for each kernel, with and without `:16` on n and m. For each
(kernel, signature), ttc compiles:
  - "plain": the default pipeline (no fusion);
  - "fused": the same ttgir passes with tritongpu-fuse-nested-loops and
    tritongpu-optimize-accumulator-init before tritongpu-pipeline, with
    --verify-each.

--compile-only (no GPU): each fused compile must succeed (verifier after
every pass), and its PTX must pass ptxas when --ptxas is given. Prints
"flatten_diff: N kernels, F fused, K kept (pipelined), 0 failed".

On a GPU (torch, and bench/ptx_ab.py for loading PTX): for each kernel
whose fused loop was kept, the plain and fused PTX run on the same inputs
for several (n, m) (multiples of 16 for the signature that says `:16`), on
one program and on two (each stores to its own part of y); every output
element is compared bit for bit.
Prints "flatten_diff: R runs, M mismatches". Exits 1 on any failure.

usage: flatten_diff.py [--compile-only] [--ttc PATH] [--ptxas PATH] [--seeds A-B] [--keep DIR]
  (ttc defaults to $TTC_BUILD/bin/ttc, else build/bin/ttc; seeds 1-120)
"""
import argparse
import json
import os
import re
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FUSED = ("convert-triton-to-tritongpu{num-warps=4 target=cuda:90},tritongpu-coalesce,"
         "tritongpu-remove-layout-conversions,tritongpu-accelerate-matmul,"
         "tritongpu-remove-layout-conversions,tritongpu-reduce-data-duplication,"
         "tritongpu-fuse-nested-loops{remarks=1},tritongpu-optimize-accumulator-init,"
         "tritongpu-pipeline{num-stages=3 remarks=1},cse,dce")


def kernel(seed):
    """(source, uses_dot) of the kernel for seed."""
    r = random.Random(seed)
    blk = r.choice([16, 32, 64, 128])
    dot = r.random() < 0.4
    out = ["import triton", "import triton.language as tl", "", "", "@triton.jit",
           "def k(x_ptr, y_ptr, w_ptr, n, m):",
           "    y_ptr += tl.program_id(0) * 65536  # each program its own outputs"]
    carry = r.random() < 0.5
    if carry:
        out.append("    s = 0")
    lb, ub, step = r.choice(["0", "tl.program_id(0)", "1"]), r.choice(["n", "8", "n + 3"]), r.choice([1, 2, 3])
    out.append(f"    for i in tl.range({lb}, {ub}, {step}, flatten=True):")
    body = [f"offs = tl.arange(0, {blk}) + i * {blk}", r.choice(["q = i // (m + 1)", "q = i"])]
    if dot:
        body += ["rr = tl.arange(0, 16)", "acc = tl.zeros((16, 16), tl.float32)"]
    else:
        body.append(r.choice([f"acc = tl.zeros(({blk},), tl.float32)",
                              f"acc = tl.zeros(({blk},), tl.float32) + q"]))
    carried_ptr = r.random() < 0.5
    if carried_ptr:
        body.append("p = x_ptr + offs")
    body.append(f"for j in range({r.choice(['0', '1', '2'])}, {r.choice(['m', '4', 'm * 2'])}, {r.choice([1, 2])}):")
    inner = []
    if dot:
        inner += ["a = tl.load(x_ptr + (rr[:, None] + j) * 16 + rr[None, :])",
                  "b = tl.load(w_ptr + rr[:, None] * 16 + rr[None, :] + q * 16)",
                  "acc = tl.dot(a, b, acc)"]
    else:
        if carried_ptr:
            inner += ["acc += tl.load(p, mask=offs < n * 64, other=0.0)", "p += 1"]
        else:
            inner.append("acc += tl.load(x_ptr + offs + j)")
        if r.random() < 0.3:
            inner += ["if j > 1:", "    acc = acc * 0.5"]
    body += ["    " + x for x in inner]
    body.append("tl.store(y_ptr + i * 256 + rr[:, None] * 16 + rr[None, :], acc)" if dot
                else "tl.store(y_ptr + offs, acc)")
    if carry:
        body.append("s += q")
    if r.random() < 0.3:
        body += ["if q > 2:", "    tl.store(y_ptr + q, 1.0)"]
    out += ["        " + x for x in body]
    if carry:
        out.append("    tl.store(y_ptr, s.to(tl.float32))")
    return "\n".join(out) + "\n", dot


def signatures(dot):
    x = "*fp16:16" if dot else "*fp32:16"
    return [f"{x},*fp32:16,{x},i32,i32", f"{x},*fp32:16,{x},i32:16,i32:16"]


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stderr


def compile_pair(ttc, path, sig, stem):
    """Compiles path both ways: (status, plain ptx, fused ptx, shared bytes
    plain, fused) with status one of failed:<why>, not-fused, unfused, kept."""
    ttir = stem + ".ttir"
    rc, err = run([ttc, path, "-k", "k", "-s", sig, "--emit", "ttir", "-o", ttir])
    if rc != 0:
        return ("failed: frontend: " + err.strip().splitlines()[0],) + (None,) * 4
    ttgir = stem + ".ttgir"
    rc, err = run([ttc, ttir, "--passes=" + FUSED, "--verify-each", "-o", ttgir])
    if rc != 0 or "runtime error" in err or "ERROR:" in err:
        return ("failed: passes: " + err.strip()[-300:],) + (None,) * 4
    if "loop flattened" not in err:
        return ("not-fused",) + (None,) * 4
    kept = "flattened loop not pipelined" not in err
    fused = stem + ".fused.ptx"
    rc, err = run([ttc, ttgir, "--emit", "ptx", "-o", fused])
    if rc != 0 or "runtime error" in err or "ERROR:" in err:
        return ("failed: codegen: " + err.strip()[-300:],) + (None,) * 4
    p = subprocess.run([ttc, ttgir, "--passes=allocate-shared-memory"], capture_output=True, text=True)
    m = re.search(r"ttg\.shared = (\d+) : i32", p.stdout)
    if p.returncode != 0 or not m:
        return ("failed: allocate-shared-memory: " + p.stderr.strip()[-300:],) + (None,) * 4
    shared_f = int(m.group(1))
    plain, meta = stem + ".plain.ptx", stem + ".json"
    rc, err = run([ttc, path, "-k", "k", "-s", sig, "--emit", "ptx", "-o", plain, "--emit-metadata", meta])
    if rc != 0:
        return ("failed: plain compile: " + err.strip()[-300:],) + (None,) * 4
    with open(meta) as f:
        shared_p = json.load(f)["shared"]
    return ("kept" if kept else "unfused", plain, fused, shared_p, shared_f)


def gpu_compare(cases):
    import torch
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    from ptx_ab import Module, driver, default_ptxas
    cu, ptxas = driver(), default_ptxas()
    runs = bad = 0
    for name, dot, div16, plain, fused, sh_p, sh_f in cases:
        mods = {"plain": Module(cu, ptxas, plain, sh_p), "fused": Module(cu, ptxas, fused, sh_f)}
        g = torch.Generator(device="cuda").manual_seed(len(name))
        dt = torch.float16 if dot else torch.float32
        x = torch.randn(1 << 20, device="cuda", generator=g).to(dt)
        w = torch.randn(1 << 20, device="cuda", generator=g).to(dt)
        sizes = ((16, 16), (32, 0), (0, 16), (16, 32)) if div16 else ((5, 3), (7, 1), (4, 0), (3, 5), (0, 2))
        for grid in (1, 2):
            for n, m in sizes:
                ys = {}
                for side, mod in mods.items():
                    y = torch.zeros(1 << 20, device="cuda")
                    mod.launcher((grid, 1, 1), [x.data_ptr(), y.data_ptr(), w.data_ptr()], [n, m])()
                    torch.cuda.synchronize()
                    ys[side] = y.view(torch.int32)
                runs += 1
                if not torch.equal(ys["plain"], ys["fused"]):
                    bad += 1
                    first = (ys["plain"] != ys["fused"]).nonzero()[:4].flatten().tolist()
                    print(f"MISMATCH {name} grid={grid} n={n} m={m}: elements {first}", flush=True)
    print(f"flatten_diff: {runs} runs, {bad} mismatches", flush=True)
    return bad == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compile-only", action="store_true")
    build = os.environ.get("TTC_BUILD", os.path.join(ROOT, "build"))
    ap.add_argument("--ttc", default=os.path.join(build, "bin", "ttc"))
    ap.add_argument("--ptxas", default=None)
    ap.add_argument("--seeds", default="1-120")
    ap.add_argument("--keep", default=None)
    opt = ap.parse_args()
    lo, hi = (int(v) for v in opt.seeds.split("-"))
    work = opt.keep or tempfile.mkdtemp(prefix="flatten_diff.")
    os.makedirs(work, exist_ok=True)
    counts = {"kernels": 0, "fused": 0, "kept": 0, "failed": 0}
    cases = []
    for seed in range(lo, hi + 1):
        src, dot = kernel(seed)
        path = os.path.join(work, f"k{seed}.py")
        with open(path, "w") as f:
            f.write(src)
        for v, sig in enumerate(signatures(dot)):
            name = f"s{seed}v{v}"
            counts["kernels"] += 1
            st, plain, fused, sh_p, sh_f = compile_pair(opt.ttc, path, sig, os.path.join(work, name))
            if st.startswith("failed"):
                counts["failed"] += 1
                print(f"FAIL {name} ({sig}): {st}", flush=True)
                continue
            if st in ("kept", "unfused"):
                counts["fused"] += 1
            if st == "kept":
                counts["kept"] += 1
                if opt.ptxas:
                    rc, err = run([opt.ptxas, "-arch=sm_90a", fused, "-o", os.devnull])
                    if rc != 0:
                        counts["failed"] += 1
                        print(f"FAIL {name}: ptxas: {err.strip()[:300]}", flush=True)
                        continue
                cases.append((name, dot, sig.endswith("i32:16,i32:16"), plain, fused, sh_p, sh_f))
    print(f"flatten_diff: {counts['kernels']} kernels, {counts['fused']} fused, {counts['kept']} kept "
          f"(pipelined), {counts['failed']} failed", flush=True)
    ok = counts["failed"] == 0
    if not opt.compile_only:
        ok = gpu_compare(cases) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
