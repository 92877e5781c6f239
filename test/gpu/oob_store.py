# SPDX-License-Identifier: MIT
# Vector add whose store has no mask: the last program writes past the end
# of the output. test/gpu/run.sh runs it under compute-sanitizer, which must
# name this file and the store's line (PTX line info).
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    output = tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, output)  # no mask: out of bounds past n_elements
