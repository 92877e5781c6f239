# SPDX-License-Identifier: MIT
"""Triton's first call in a new process, for test/gpu/jit.sh: the vector-add
kernel of examples/vector_add/vector_add.py launched once through
add_kernel[grid](...) with whatever TRITON_CACHE_DIR holds (run it twice: the
second run has a warm cache). The phases are timed apart, as bench_jit first
times ttc's: importing torch and triton, creating the CUDA context (the first
tensor), and the first call itself (Triton's specialization, cache lookup,
module load, launch), synchronized.

usage: python3 bench/triton_first_call.py
prints: "triton_first_call import_ms=I ctx_ms=C first_call_ms=F"
"""
import os
import sys
import time

t0 = time.perf_counter()
import torch  # noqa: E402
import triton  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples", "vector_add"))
from vector_add import add_kernel  # noqa: E402

t_import = time.perf_counter()
x = torch.ones(4096, device="cuda")
torch.cuda.synchronize()
t_ctx = time.perf_counter()
y = torch.ones(4096, device="cuda")
out = torch.empty(4096, device="cuda")
torch.cuda.synchronize()
t1 = time.perf_counter()
add_kernel[(4,)](x, y, out, 4096, BLOCK_SIZE=1024)
torch.cuda.synchronize()
t2 = time.perf_counter()
if not torch.equal(out, x + y):
    raise SystemExit("triton_first_call: wrong result")
print(f"# triton {triton.__version__} on {torch.cuda.get_device_name()}")
print(f"triton_first_call import_ms={(t_import - t0) * 1e3:.1f} ctx_ms={(t_ctx - t_import) * 1e3:.1f} "
      f"first_call_ms={(t2 - t1) * 1e3:.2f}")
