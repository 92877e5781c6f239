/* layout.c - construction and queries of #ttg.blocked layouts.
 * A blocked layout tiles a tensor with sizePerThread x threadsPerWarp x
 * warpsPerCTA elements per dim; the tile repeats when the tensor is larger and
 * several threads share an element when it is smaller. */
#include "ir-ttgpu/ttg.h"

static unsigned clamp_u(int64_t v, unsigned lo, unsigned hi) {
  if (v < (int64_t)lo) return lo;
  if (v > (int64_t)hi) return hi;
  return (unsigned)v;
}

const ir_attr *ttg_default_blocked(ir_context *ctx, int rank, const int64_t *shape,
                                   unsigned size_per_thread_fast, int num_warps,
                                   int threads_per_warp) {
  unsigned spt[IR_MAX_RANK], tpw[IR_MAX_RANK], wpc[IR_MAX_RANK], order[IR_MAX_RANK];
  IR_ASSERT(rank >= 1 && rank <= IR_MAX_RANK);
  for (int i = 0; i < rank; i++) {
    order[i] = (unsigned)(rank - 1 - i);
    spt[i] = 1;
  }
  spt[rank - 1] = size_per_thread_fast ? size_per_thread_fast : 1;
  /* Lanes and warps go to the fastest dims first, as far as each dim has
   * room; the slowest dim takes whatever is left (replicating when the
   * tensor is small). This is Triton's BlockedEncodingAttr builder. */
  unsigned rem_lanes = (unsigned)threads_per_warp, rem_warps = (unsigned)num_warps;
  unsigned rem_threads = rem_lanes * rem_warps, prev_lanes = 1, prev_warps = 1;
  for (int i = 0; i < rank - 1; i++) {
    unsigned d = order[i];
    int64_t room = shape[d] / spt[d];
    unsigned per_cta = clamp_u(rem_threads, 1, room > 1 ? (unsigned)clamp_u(room, 1, 1u << 30) : 1);
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
  return ir_attr_blocked(ctx, rank, spt, tpw, wpc, order);
}
