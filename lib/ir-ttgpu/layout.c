// SPDX-License-Identifier: MIT
/* layout.c - construction of #ttg.blocked layouts, as Triton's
 * BlockedEncodingAttr builder: sizePerThread given, lanes then warps spread
 * from the fastest dim (order[0]) outwards as far as each dim has room, the
 * slowest dim taking what is left (replicating when the tensor is small). */
#include "ir-ttgpu/ttg.h"

static unsigned clamp_u(int64_t v, unsigned lo, unsigned hi) {
  if (v < (int64_t)lo) return lo;
  if (v > (int64_t)hi) return hi;
  return (unsigned)v;
}

const ir_attr *ttg_blocked_layout(ir_context *ctx, int rank, const int64_t *shape,
                                  const unsigned *size_per_thread, const unsigned *order,
                                  int num_warps, int threads_per_warp) {
  unsigned tpw[IR_MAX_RANK], wpc[IR_MAX_RANK];
  IR_ASSERT(rank >= 1 && rank <= IR_MAX_RANK);
  unsigned rem_lanes = (unsigned)threads_per_warp, rem_warps = (unsigned)num_warps;
  unsigned rem_threads = rem_lanes * rem_warps, prev_lanes = 1, prev_warps = 1;
  for (int i = 0; i < rank - 1; i++) {
    unsigned d = order[i];
    int64_t room = shape[d] / size_per_thread[d];
    unsigned per_cta = clamp_u(rem_threads, 1, room > 1 ? clamp_u(room, 1, 1u << 30) : 1);
    tpw[d] = clamp_u(per_cta, 1, rem_lanes);
    wpc[d] = clamp_u(per_cta / tpw[d], 1, rem_warps);
    rem_warps /= wpc[d];
    rem_lanes /= tpw[d];
    rem_threads /= per_cta;
    prev_lanes *= tpw[d];
    prev_warps *= wpc[d];
  }
  tpw[order[rank - 1]] = (unsigned)threads_per_warp / prev_lanes;
  wpc[order[rank - 1]] = (unsigned)num_warps / prev_warps;
  return ir_attr_blocked(ctx, rank, size_per_thread, tpw, wpc, order);
}

const ir_attr *ttg_default_blocked(ir_context *ctx, int rank, const int64_t *shape,
                                   unsigned size_per_thread_fast, int num_warps,
                                   int threads_per_warp) {
  unsigned spt[IR_MAX_RANK], order[IR_MAX_RANK];
  IR_ASSERT(rank >= 1 && rank <= IR_MAX_RANK);
  for (int i = 0; i < rank; i++) {
    order[i] = (unsigned)(rank - 1 - i);
    spt[i] = 1;
  }
  spt[rank - 1] = size_per_thread_fast ? size_per_thread_fast : 1;
  return ttg_blocked_layout(ctx, rank, shape, spt, order, num_warps, threads_per_warp);
}
