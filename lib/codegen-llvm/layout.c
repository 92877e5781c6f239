/* layout.c - which tensor elements each thread holds under a blocked layout
 * (or a slice of one), as Triton's blocked layout: sizePerThread contiguous
 * elements per thread, threads then warps tiled in `order`, the tile repeated
 * over larger shapes and wrapped (broadcast) over smaller ones. Pure C; the
 * LLVM index emission in lower_tensor.c follows the same formulas. */
#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

bool cg_layout_init(cg_layout *l, const ir_attr *enc, int rank, const int64_t *shape) {
  int64_t cur[IR_MAX_RANK];
  int origin[IR_MAX_RANK];
  int r = rank;
  if (!enc || rank < 1 || rank > IR_MAX_RANK) return false;
  for (int i = 0; i < rank; i++) {
    cur[i] = shape[i];
    origin[i] = i;
  }
  /* Peel slices: each re-inserts its removed dim as a size-1 sliced dim. */
  while (enc->kind == IR_ATTR_SLICE) {
    int dim = enc->dim;
    if (r >= IR_MAX_RANK || dim < 0 || dim > r || !enc->parent) return false;
    for (int i = r; i > dim; i--) {
      cur[i] = cur[i - 1];
      origin[i] = origin[i - 1];
    }
    cur[dim] = 1;
    origin[dim] = -1;
    r++;
    enc = enc->parent;
  }
  if (enc->kind != IR_ATTR_BLOCKED || enc->rank != r) return false;
  l->rank = rank;
  l->root = enc;
  l->prank = r;
  l->nelems = 1;
  for (int d = 0; d < r; d++) {
    l->pshape[d] = cur[d];
    l->sliced[d] = origin[d] < 0;
    l->tdim[d] = origin[d];
    l->tile[d] = (int64_t)enc->size_per_thread[d] * enc->threads_per_warp[d] *
                 enc->warps_per_cta[d];
    if (l->tile[d] <= 0 || cur[d] <= 0) return false;
    if (l->sliced[d]) {
      l->nk[d] = 1;
      l->nrep[d] = 1;
    } else {
      l->nk[d] = enc->size_per_thread[d];
      l->nrep[d] = cur[d] > l->tile[d] ? (cur[d] + l->tile[d] - 1) / l->tile[d] : 1;
    }
    l->nelems *= l->nk[d] * l->nrep[d];
  }
  return true;
}

void cg_layout_reg_coords(const cg_layout *l, int64_t j, int64_t *k, int64_t *rep) {
  int64_t kprod = 1;
  for (int d = 0; d < l->prank; d++) kprod *= l->nk[d];
  int64_t kpart = j % kprod, rpart = j / kprod;
  for (int i = 0; i < l->prank; i++) {
    int d = (int)l->root->order[i];
    k[d] = kpart % l->nk[d];
    kpart /= l->nk[d];
    rep[d] = rpart % l->nrep[d];
    rpart /= l->nrep[d];
  }
}

int64_t cg_layout_reg_number(const cg_layout *l, const int64_t *k, const int64_t *rep) {
  int64_t kprod = 1, kpart = 0, rpart = 0, ks = 1, rs = 1;
  for (int d = 0; d < l->prank; d++) kprod *= l->nk[d];
  for (int i = 0; i < l->prank; i++) {
    int d = (int)l->root->order[i];
    kpart += k[d] * ks;
    ks *= l->nk[d];
    rpart += rep[d] * rs;
    rs *= l->nrep[d];
  }
  return kpart + kprod * rpart;
}

bool cg_layout_reg_is_first(const cg_layout *l, int d, int64_t k, int64_t rep) {
  /* Below one tile, nrep is 1 and register k repeats register k mod pshape. */
  (void)rep;
  return l->pshape[d] >= l->tile[d] || k < l->pshape[d];
}

/* Product of `counts` over the dims that come before d in `order`. */
static unsigned order_stride(const ir_attr *root, const unsigned *counts, int d) {
  unsigned s = 1;
  for (int i = 0; i < root->rank; i++) {
    int od = (int)root->order[i];
    if (od == d) break;
    s *= counts[od];
  }
  return s;
}

unsigned cg_layout_lane_stride(const cg_layout *l, int d) {
  return order_stride(l->root, l->root->threads_per_warp, d);
}

unsigned cg_layout_warp_stride(const cg_layout *l, int d) {
  return order_stride(l->root, l->root->warps_per_cta, d);
}

void cg_layout_thread_offsets(const cg_layout *l, unsigned tid, int64_t *off) {
  const ir_attr *b = l->root;
  unsigned lane = tid % 32, warp = tid / 32;
  for (int d = 0; d < l->prank; d++) {
    unsigned lane_d = (lane / cg_layout_lane_stride(l, d)) % b->threads_per_warp[d];
    unsigned warp_d = (warp / cg_layout_warp_stride(l, d)) % b->warps_per_cta[d];
    off[d] = ((int64_t)warp_d * b->threads_per_warp[d] + lane_d) * b->size_per_thread[d];
  }
}

void cg_layout_elem_index(const cg_layout *l, unsigned tid, int64_t j, int64_t *idx) {
  int64_t k[IR_MAX_RANK], rep[IR_MAX_RANK], off[IR_MAX_RANK];
  cg_layout_reg_coords(l, j, k, rep);
  cg_layout_thread_offsets(l, tid, off);
  for (int d = 0; d < l->prank; d++) {
    if (l->sliced[d]) continue;
    idx[l->tdim[d]] = (rep[d] * l->tile[d] + off[d] + k[d]) % l->pshape[d];
  }
}

int64_t cg_blocked_num_elems(const ir_attr *layout, int rank, const int64_t *shape) {
  cg_layout l;
  return cg_layout_init(&l, layout, rank, shape) ? l.nelems : -1;
}

void cg_blocked_elem_index(const ir_attr *layout, int rank, const int64_t *shape, unsigned tid,
                           unsigned j, int64_t *idx) {
  cg_layout l;
  if (!cg_layout_init(&l, layout, rank, shape)) IR_UNREACHABLE("unsupported layout");
  cg_layout_elem_index(&l, tid, j, idx);
}
