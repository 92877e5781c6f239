# A kernel module with host code of every kind around its kernels: ttc
# skips what it does not need (classes, host functions with any syntax,
# try / with / match / async, loops, module-level conditions, decorators with
# any expression, comprehensions, nested f-strings, walrus, lambdas, global,
# del, assert) and compiles the kernels, whose helpers and constants are
# found around it.
# RUN: %ttc %s -k scale_kernel -s '*fp32:16,*fp32:16,i32,256' --emit cubin -o %t.a.cubin 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
# RUN: %ttc %s -k autotuned_kernel -s '*fp16:16,*fp16:16,i32,64,"gelu"' --emit cubin -o %t.b.cubin
# RUN: %ttc %s -k scale_kernel -s '*fp32:16,*fp32:16,i32,256' --emit ttir | FileCheck %s
from __future__ import annotations

import dataclasses
import functools
import itertools
import os
import sys
from typing import TYPE_CHECKING, Optional

import triton
import triton.language as tl

if TYPE_CHECKING:
    import torch

try:
    import numpy as np
    HAS_NUMPY = True
except ImportError:
    HAS_NUMPY = False
finally:
    LOADED = True

if sys.version_info >= (3, 8) and os.environ.get("HOST_CODE_NEVER_SET") is None:
    SCALE = 2.0
else:
    SCALE = -1.0

EPS: tl.constexpr = tl.constexpr(1e-6)
BLOCKS = [16 * 2**i for i in range(4)]
TABLE = {name: len(name) for name in ("relu", "gelu")}
MESSAGE = f"{'nested {SCALE:.1f}'!r:>{len(BLOCKS) + 10}} and {f'{EPS=}'}"
_ = (w := 3) + w
counter = 0
counter += 1
del _
assert SCALE > 0, f"bad scale {SCALE}"


@dataclasses.dataclass
class Options:
    block: int = 128
    names: list = dataclasses.field(default_factory=list)

    @property
    def doubled(self) -> int:
        return self.block * 2

    async def run(self, *args, **kwargs):
        async with self as s:
            return [x async for x in s]


def host_wrapper(x: "torch.Tensor", *args, scale: Optional[float] = None, **kwargs):
    global counter
    match kwargs:
        case {"mode": "fast", **rest}:
            counter += len(rest)
        case _:
            pass
    try:
        out = x.new_empty(x.shape)
    except (RuntimeError, ValueError) as e:
        raise RuntimeError("no output") from e
    else:
        grid = lambda meta: (triton.cdiv(x.numel(), meta["BLOCK"]),)
        scale_kernel[grid](x, out, x.numel(), BLOCK=256)
    with open(os.devnull, "w") as f, open(os.devnull) as g:
        print(f"{x.shape!s}", file=f)
    return out


@functools.lru_cache(maxsize=None)
def cached_configs():
    return [triton.Config({"BLOCK": b}, num_warps=w) for b, w in itertools.product(BLOCKS, [4, 8])]


@triton.jit
def _gelu(x):
    return 0.5 * x * (1 + tl.math.erf(x * 0.7071067811865476))


@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, x * SCALE + EPS, mask=m)


@triton.autotune(configs=cached_configs(), key=["n"])
@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def autotuned_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, ACT: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m).to(tl.float32)
    if ACT == "gelu":
        x = _gelu(x)
    tl.static_assert(TABLE[ACT] == 4, f"unexpected activation {ACT}")
    tl.store(y_ptr + offs, x.to(y_ptr.dtype.element_ty), mask=m)


if __name__ == "__main__":
    import torch
    opts = Options()
    for block in BLOCKS:
        print(host_wrapper(torch.randn(1000, device="cuda"), scale=float(block)))

# QUIET-NOT: error
# CHECK: tt.func public @scale_kernel
# CHECK: arith.constant dense<2.000000e+00>
# SPDX-License-Identifier: MIT
