#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Mutation fuzzing of ttc on malformed input: nothing may crash.

Takes kernel files (whole modules with host code and imports among them),
applies random edits (delete/insert/duplicate characters, tokens and lines,
host-code fragments such as f-strings, classes, try, comprehensions and
decorators, break indentation, truncate, swap lines), compiles each mutant
with ttc (-I at the seed's folder, so its imports still resolve) and checks
the outcome: exit 0 (still valid) or 1 (a located 'error:' diagnostic). Any
other status (an abort, a sanitizer report, a signal) or an 'internal error'
fails the run; the mutant is kept for replay.

usage: fuzz_ttc.py TTC OUTDIR ITERATIONS SEED KERNEL.py:NAME:SIG [...]
"""
import os
import random
import subprocess
import sys

TOKENS = ["(", ")", "[", "]", ":", ",", "=", "+", "*", "**", "//", "%", "<<", "None",
          "tl.", "tl.arange(0, 48)", "tl.load(", "if ", "for ", "while ", "\n", "    ",
          "\t", "'", '"', "\\", "0x", "1e", "@triton.jit\n", "def ", "return ", ".to(",
          "tl.float16", "[:, None]", "lambda", "class ", "1.5", "-", "~", "not ", "and ",
          "f'{x!r:>{w}}'", "f\"{f'{a}'}\"", "try:\n", "except Exception as e:\n",
          "finally:\n", "with open(p) as f:\n", "[i for i in range(3) if i]", "{k: v for k, v in d}",
          "*args", "**kwargs", "async def ", "await ", "match x:\n    case 1:\n", "(y := 2)",
          "@functools.lru_cache(maxsize=None)\n", "if __name__ == '__main__':\n", "global g\n",
          "from .util import *\n", "import torch\n", "raise ValueError(f'{1}')\n", "b'\\x00'",
          "rb'\\d'", "0x_ff", "1_000j", "yield ", "del x\n", "nonlocal z\n", "\\\n", "...",
          "tl.sort(", "tl.make_block_ptr(", "triton.Config({'B': 1}, num_warps=4)"]


def mutate(text, rng):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(8)
        if op == 0 and text:
            i = rng.randrange(len(text))
            text = text[:i] + text[i + rng.randint(1, 4):]
        elif op == 1:
            i = rng.randrange(len(text) + 1)
            text = text[:i] + rng.choice(TOKENS) + text[i:]
        elif op == 2 and lines:
            i = rng.randrange(len(lines))
            lines.insert(i, lines[rng.randrange(len(lines))])
            text = "\n".join(lines)
        elif op == 3 and lines:
            i = rng.randrange(len(lines))
            lines[i] = " " * rng.choice([1, 2, 3, 5, 8]) + lines[i].lstrip()
            text = "\n".join(lines)
        elif op == 4:
            text = text[:rng.randrange(len(text) + 1)]
        elif op == 5 and len(lines) > 1:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif op == 6 and text:
            i = rng.randrange(len(text))
            text = text[:i] + chr(rng.randrange(1, 256)) + text[i + 1:]
        elif op == 7 and lines:
            del lines[rng.randrange(len(lines))]
            text = "\n".join(lines)
        lines = text.split("\n")
    return text


def main():
    ttc, outdir, iters, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    seeds = [s.split(":", 2) for s in sys.argv[5:]]
    rng = random.Random(seed)
    os.makedirs(outdir, exist_ok=True)
    failures, valid = 0, 0
    for it in range(iters):
        path, name, sig = rng.choice(seeds)
        with open(path, encoding="utf-8") as f:
            text = mutate(f.read(), rng)
        mutant = os.path.join(outdir, "mutant_%d.py" % it)
        with open(mutant, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        level = rng.choice(["ttir", "ttgir", "llir"])
        cmd = [ttc, mutant, "-I", os.path.dirname(os.path.abspath(path)), "-k", name, "-s", sig,
               "--emit", level, "-o", os.devnull]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=60)
        except subprocess.TimeoutExpired:
            print("TIMEOUT:", " ".join(cmd))
            failures += 1
            continue
        bad = p.returncode not in (0, 1) or "internal error" in p.stderr or \
            "Sanitizer" in p.stderr or "runtime error" in p.stderr or \
            (p.returncode == 1 and "error:" not in p.stderr)
        if bad:
            failures += 1
            print("FAIL (exit %d): %s" % (p.returncode, " ".join(cmd)))
            print(p.stderr[-2000:])
        else:
            valid += p.returncode == 0
            os.remove(mutant)
    print("fuzz: %d mutants, %d still valid, %d crashes" % (iters, valid, failures))
    print("%d passed, %d failed" % (iters - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
