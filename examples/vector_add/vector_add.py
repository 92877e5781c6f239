# Vector addition, as in Triton's tutorial 01: each program adds one block of
# BLOCK_SIZE elements; the mask keeps the last block inside the vectors.
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr,  # pointer to the first input vector
               y_ptr,  # pointer to the second input vector
               output_ptr,  # pointer to the output vector
               n_elements,  # size of the vectors
               BLOCK_SIZE: tl.constexpr,  # elements each program processes
               ):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)
# SPDX-License-Identifier: MIT
