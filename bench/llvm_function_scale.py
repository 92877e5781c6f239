# SPDX-License-Identifier: MIT
"""LLVM alone on the LLVM IR that ttc hands it, to tell how LLVM's own time
grows with the length of one function: the control for the compile-time
ratio of bench_compile_scale (issue 13).

The kernels are bench_compile_scale's straight-line statements
(x{i} = x{i-1} * 2.0 + i.0 on a 128-element tile). ttc lowers each to LLVM IR
without optimizing it (-O0 --emit llir --no-line-info); then LLVM's own tools
run the two stages ttc runs in process: `opt -passes='default<O3>'` and
`llc -O3 -mcpu=sm_90a -mattr=+ptx87` with the two NVPTX options ttc sets
(-nvptx-short-ptr, -nvptx-mad-wide-opt), on
  - one function of N statements (N = 10k, the base),
  - one module of R copies of that function (R = 10: as many instructions as
    the big kernel, in functions of the base's size),
  - one function of R * N statements.
If LLVM's time grew with the number of instructions alone, the last two
would take the same time.

It is a control, not the in-process pipeline: ttc's own rewrites of the
optimized IR (splitting GEP offsets, ptxas fix-ups) run here before `opt`
rather than after it, and each tool parses its input and starts a process,
which the base's ratio absorbs. In process, `ttc_kernel_stats.llvm_ms`
(bench_compile_scale's llvm_s) is the measure.

usage: python3 bench/llvm_function_scale.py [--ttc PATH] [--llvm-bin DIR] [-n N] [-r R] [--reps K]
prints: "llvm-scale CASE instrs=I opt_s=T llc_s=T ratio_opt=X ratio_llc=Y" per
case (the ratios against the base; medians of K runs), then a summary line.
No GPU needed.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def kernel_source(n):
    lines = ["import triton", "import triton.language as tl", "", "@triton.jit",
             "def k(x_ptr, y_ptr):", "    offs = tl.arange(0, 128)",
             "    x0 = tl.load(x_ptr + offs)"]
    lines += ["    x%d = x%d * 2.0 + %d.0" % (i, i - 1, i) for i in range(1, n)]
    lines.append("    tl.store(y_ptr + offs, x%d)" % (n - 1))
    return "\n".join(lines) + "\n"


def lower(ttc, n, tmp):
    py = os.path.join(tmp, "k%d.py" % n)
    ll = os.path.join(tmp, "k%d.ll" % n)
    with open(py, "w") as f:
        f.write(kernel_source(n))
    env = dict(os.environ, TTC_CACHE="0")
    subprocess.run([ttc, py, "-k", "k", "-s", "*fp32:16,*fp32:16", "-O0", "--emit", "llir",
                    "--no-line-info", "-o", ll], check=True, env=env)
    with open(ll) as f:
        return f.read()


def copies(ir, r):
    """R renamed copies of the module's one function, in one module."""
    start = ir.index("define ")
    end = ir.index("\n}\n", start) + 3
    fn = ir[start:end]
    if not re.search(r"@k\(", fn):
        sys.exit("llvm_function_scale: unexpected function name in ttc's LLVM IR")
    body = "".join(fn.replace("@k(", "@k%d(" % c, 1) for c in range(r))
    return ir[:start] + body + ir[end:]


def timed(cmd, reps):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        subprocess.run(cmd, check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ttc", default=os.path.join(ROOT, "build", "bin", "ttc"))
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("-n", type=int, default=10000, help="statements of the base function")
    ap.add_argument("-r", type=int, default=10, help="copies, and the big function's factor")
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    opt = os.path.join(a.llvm_bin, "opt")
    llc = os.path.join(a.llvm_bin, "llc")
    with tempfile.TemporaryDirectory() as tmp:
        base = lower(a.ttc, a.n, tmp)
        cases = [("one-function-%d" % a.n, base),
                 ("%d-functions-of-%d" % (a.r, a.n), copies(base, a.r)),
                 ("one-function-%d" % (a.n * a.r), lower(a.ttc, a.n * a.r, tmp))]
        rows = []
        for name, ir in cases:
            ll = os.path.join(tmp, name + ".ll")
            bc = os.path.join(tmp, name + ".bc")
            with open(ll, "w") as f:
                f.write(ir)
            instrs = sum(1 for line in ir.splitlines() if line.startswith("  ") and "=" in line)
            t_opt = timed([opt, "-passes=default<O3>", ll, "-o", bc], a.reps)
            t_llc = timed([llc, "-O3", "-mcpu=sm_90a", "-mattr=+ptx87", "-nvptx-short-ptr",
                           "-nvptx-mad-wide-opt", bc, "-o", os.devnull], a.reps)
            rows.append((name, instrs, t_opt, t_llc))
        b_opt, b_llc = rows[0][2], rows[0][3]
        for name, instrs, t_opt, t_llc in rows:
            print("llvm-scale %s instrs=%d opt_s=%.3f llc_s=%.3f ratio_opt=%.2f ratio_llc=%.2f"
                  % (name, instrs, t_opt, t_llc, t_opt / b_opt, t_llc / b_llc))
        many, big = rows[1], rows[2]
        print("llvm-scale summary: one function of %d against %d functions of %d: opt %.2fx, llc %.2fx"
              % (a.n * a.r, a.r, a.n, big[2] / many[2], big[3] / many[3]))


if __name__ == "__main__":
    main()
