# Row softmax, as in Triton's fused-softmax tutorial (02): each program loads
# one whole row (BLOCK_SIZE >= n_cols, a power of two), subtracts its maximum
# for numerical stability, exponentiates, divides by the sum and stores it.
# Padding lanes load -inf, so they add exp(-inf) = 0 to the sum.
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr,  # pointer to the output matrix (n_rows x n_cols)
                   input_ptr,  # pointer to the input matrix
                   input_row_stride,  # elements between two input rows
                   output_row_stride,  # elements between two output rows
                   n_cols,  # columns in each row
                   BLOCK_SIZE: tl.constexpr,  # next power of two >= n_cols
                   ):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    mask = col_offsets < n_cols
    row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    output_ptrs = output_row_start_ptr + col_offsets
    tl.store(output_ptrs, softmax_output, mask=mask)
# SPDX-License-Identifier: MIT
