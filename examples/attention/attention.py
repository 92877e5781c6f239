# Flash-attention forward: O = softmax(Q K^T * sm_scale) V for each (batch,
# head) slice, one BLOCK_M block of query rows per program. K and V are
# walked in BLOCK_N blocks with the online softmax (running row maximum m_i
# and row sum l_i, rescaled as the maximum grows), in base 2: the scale is
# folded with log2(e) so that exp2 does the exponentials. Q, K, V and O are
# fp16, laid out (batch * heads, N_CTX, HEAD_DIM) with the head dimension
# contiguous; N_CTX must be a multiple of BLOCK_M and BLOCK_N. With CAUSAL,
# query row i sees key columns 0..i only.
import triton
import triton.language as tl


@triton.jit
def attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale,
                     stride_qh, stride_qm, stride_kh, stride_kn,
                     stride_vh, stride_vn, stride_oh, stride_om,
                     N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    block_m = tl.program_id(0)
    head = tl.program_id(1)
    rows = block_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols0 = tl.arange(0, BLOCK_N)
    dims = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + head * stride_qh + rows[:, None] * stride_qm + dims[None, :])
    scale = sm_scale * 1.4426950408889634  # log2(e)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    end = (block_m + 1) * BLOCK_M if CAUSAL else N_CTX
    k_head = k_ptr + head * stride_kh
    v_head = v_ptr + head * stride_vh
    for start in range(0, end, BLOCK_N):
        cols = start + cols0
        # K^T block: HEAD_DIM x BLOCK_N, read with the head dimension contiguous
        kt = tl.load(k_head + cols[None, :] * stride_kn + dims[:, None])
        s = tl.dot(q, kt) * scale
        if CAUSAL:
            s = tl.where(rows[:, None] >= cols[None, :], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_head + cols[:, None] * stride_vn + dims[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + head * stride_oh + rows[:, None] * stride_om + dims[None, :], out.to(tl.float16))
# SPDX-License-Identifier: MIT
