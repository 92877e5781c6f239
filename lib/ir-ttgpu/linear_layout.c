// SPDX-License-Identifier: MIT
/* linear_layout.c - what every ttgir layout means, as a linear map over
 * GF(2) (Triton's LinearLayout): each bit of each input (a thread's register
 * number, its lane, its warp; or an element offset in shared memory) selects
 * a basis vector of tensor coordinates, and an input maps to the XOR of the
 * bases of its set bits. Blocked, slice, nvidia_mma (v2, v3) and dot_op
 * layouts are built here exactly as Triton builds them, so codegen, the
 * passes and the tests all read one definition. Shapes are powers of two. */
#include <string.h>

#include "ir-ttgpu/ttg.h"

static int log2i(int64_t v) {
  int k = 0;
  while (((int64_t)1 << k) < v)
    k++;
  return k;
}

static bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

void ttg_ll_init(ttg_ll *l, int nin, int nout, const int32_t *out_size) {
  memset(l, 0, sizeof *l);
  l->nin = nin;
  l->nout = nout;
  for (int d = 0; d < nout; d++)
    l->out_size[d] = out_size ? out_size[d] : 1;
}

/* Appends a basis to input dim `in`: `value` along output dim `dim` (-1: a
 * zero basis). */
static void ll_push(ttg_ll *l, int in, int dim, int32_t value) {
  IR_ASSERT(l->nbits[in] < TTG_LL_MAX_BITS);
  int32_t *b = l->basis[in][l->nbits[in]++];
  for (int d = 0; d < l->nout; d++)
    b[d] = 0;
  if (dim >= 0) b[dim] = value;
}

/* Appends log2(n) bases along `dim` to input `in`, starting at `start`. */
static void ll_push_range(ttg_ll *l, int in, int dim, int64_t n, int64_t start) {
  for (int64_t v = start; v < start * n; v *= 2)
    ll_push(l, in, dim, (int32_t)v);
}

/* Largest coordinate span along each output dim: the layout's "size". */
static void ll_span(const ttg_ll *l, int64_t *span) {
  for (int d = 0; d < l->nout; d++) {
    int32_t acc = 0;
    for (int i = 0; i < l->nin; i++)
      for (int b = 0; b < l->nbits[i]; b++)
        acc |= l->basis[i][b][d];
    span[d] = acc ? (int64_t)1 << log2i((int64_t)acc + 1) : 1;
  }
}

/* Triton's ensureLayoutNotLargerThan then ensureLayoutNotSmallerThan for
 * layouts whose bases each point along one dim: register bases past the
 * shape are dropped, lane and warp bases past it become zero (broadcast);
 * then register bases repeat the tile until it covers the shape, dims in
 * `rep_order` (fastest first). */
static void ll_fit(ttg_ll *l, const int64_t *shape, const int *rep_order) {
  for (int i = 0; i < l->nin; i++) {
    int keep = 0;
    for (int b = 0; b < l->nbits[i]; b++) {
      bool past = false;
      for (int d = 0; d < l->nout; d++)
        if (l->basis[i][b][d] >= shape[d]) past = true;
      if (past && i == TTG_IN_REG) continue;
      if (past) memset(l->basis[i][b], 0, sizeof l->basis[i][b]);
      if (keep != b) memcpy(l->basis[i][keep], l->basis[i][b], sizeof l->basis[i][b]);
      keep++;
    }
    l->nbits[i] = keep;
  }
  int64_t span[IR_MAX_RANK];
  ll_span(l, span);
  for (int k = 0; k < l->nout; k++) {
    int d = rep_order[k];
    if (span[d] < shape[d]) ll_push_range(l, TTG_IN_REG, d, shape[d] / span[d], span[d]);
  }
  for (int d = 0; d < l->nout; d++)
    l->out_size[d] = (int32_t)shape[d];
}

static int64_t product(const unsigned *v, int n) {
  int64_t p = 1;
  for (int i = 0; i < n; i++)
    p *= v[i];
  return p;
}

/* Whether order[0..rank) is a permutation of 0..rank-1. */
static bool is_perm(const unsigned *order, int rank) {
  unsigned seen = 0;
  for (int i = 0; i < rank; i++) {
    if (order[i] >= (unsigned)rank || (seen >> order[i] & 1)) return false;
    seen |= 1u << order[i];
  }
  return true;
}

static bool blocked_ll(const ir_attr *e, int rank, const int64_t *shape, ttg_ll *l) {
  if (e->rank != rank || !is_perm(e->order, rank)) return false;
  int order[IR_MAX_RANK];
  for (int i = 0; i < rank; i++) {
    order[i] = (int)e->order[i];
    if (order[i] < 0 || order[i] >= rank || !is_pow2(e->size_per_thread[i]) ||
        !is_pow2(e->threads_per_warp[i]) || !is_pow2(e->warps_per_cta[i]))
      return false;
  }
  if (product(e->threads_per_warp, rank) != 32) return false;
  ttg_ll_init(l, 3, rank, NULL);
  for (int i = 0; i < rank; i++)
    ll_push_range(l, TTG_IN_REG, order[i], e->size_per_thread[order[i]], 1);
  for (int i = 0; i < rank; i++) {
    int d = order[i];
    ll_push_range(l, TTG_IN_LANE, d, e->threads_per_warp[d], e->size_per_thread[d]);
  }
  for (int i = 0; i < rank; i++) {
    int d = order[i];
    ll_push_range(l, TTG_IN_WARP, d, e->warps_per_cta[d],
                  (int64_t)e->size_per_thread[d] * e->threads_per_warp[d]);
  }
  ll_fit(l, shape, order);
  return true;
}

/* Triton's nvidiaMmaTile: kWidth registers along `inner`, 4 lanes along
 * inner, 8 lanes along `outer`, m/8 registers along outer, then n/(4*kWidth)
 * registers along inner (m x n the tile, outer x inner). */
static void mma_tile(ttg_ll *l, int inner, int outer, int64_t m, int64_t n, int kwidth) {
  ll_push_range(l, TTG_IN_REG, inner, kwidth, 1);
  ll_push_range(l, TTG_IN_LANE, inner, 4, kwidth);
  ll_push_range(l, TTG_IN_LANE, outer, 8, 1);
  ll_push_range(l, TTG_IN_REG, outer, m / 8, 8);
  ll_push_range(l, TTG_IN_REG, inner, n / (4 * kwidth), 4 * kwidth);
}

/* Warps over the mma tile: Ampere orders them N first, Hopper M first.
 * `bcast_dim` (a dot operand's K dim) gets zero bases: its warps hold copies. */
static void mma_warps(ttg_ll *l, const ir_attr *mma, const int64_t *tile, int bcast_dim) {
  int order[2] = {1, 0};
  if (mma->version_major == 3) order[0] = 0, order[1] = 1;
  for (int i = 0; i < 2; i++) {
    int d = order[i];
    int64_t n = mma->warps_per_cta[d];
    for (int64_t v = 1; v < n; v *= 2)
      ll_push(l, TTG_IN_WARP, d == bcast_dim ? -1 : d, (int32_t)(tile[d] * v));
  }
}

static bool mma_ok(const ir_attr *mma, int rank) {
  if (mma->kind != IR_ATTR_NVIDIA_MMA || rank != 2 || mma->rank != 2) return false;
  if (mma->version_major != 2 && mma->version_major != 3) return false;
  for (int d = 0; d < 2; d++)
    if (!is_pow2(mma->warps_per_cta[d])) return false;
  if (mma->version_major == 3 && (mma->instr_shape[0] != 16 || !is_pow2(mma->instr_shape[1]) ||
                                  mma->instr_shape[1] < 8 || mma->instr_shape[1] > 256))
    return false;
  return true;
}

static bool mma_ll(const ir_attr *e, int rank, const int64_t *shape, ttg_ll *l) {
  if (!mma_ok(e, rank)) return false;
  int64_t tile[2] = {16, e->version_major == 3 ? e->instr_shape[1] : 8};
  int rep_order[2] = {1, 0};
  ttg_ll_init(l, 3, 2, NULL);
  mma_tile(l, 1, 0, tile[0], tile[1], 2);
  mma_warps(l, e, tile, -1);
  ll_fit(l, shape, rep_order);
  return true;
}

/* A dot operand of an mma: A is [M, K] with K contiguous in registers, B is
 * [K, N] with K contiguous; warps along the other operand's dim broadcast. */
static bool dot_op_ll(const ir_attr *e, int rank, const int64_t *shape, ttg_ll *l) {
  const ir_attr *mma = e->parent;
  if (!mma || !mma_ok(mma, rank) || e->k_width < 1 || !is_pow2(e->k_width)) return false;
  bool is_a = e->op_idx == 0;
  if (!is_a && mma->version_major == 3) return false; /* Hopper takes B from shared memory */
  int kdim = is_a ? 1 : 0, other = is_a ? 0 : 1;
  int64_t tile[2];
  tile[other] = is_a ? 16 : 8;
  tile[kdim] = (int64_t)e->k_width * 8;
  int rep_order[2] = {kdim, other};
  ttg_ll_init(l, 3, 2, NULL);
  mma_tile(l, kdim, other, tile[other], tile[kdim], (int)e->k_width);
  mma_warps(l, mma, tile, kdim);
  ll_fit(l, shape, rep_order);
  return true;
}

/* The slice drops dim `dim` of its parent laid out over the shape with a 1
 * inserted there, then the register bases that became zero. */
static bool slice_ll(const ir_attr *e, int rank, const int64_t *shape, ttg_ll *l) {
  int dim = e->dim;
  if (rank + 1 > IR_MAX_RANK || dim < 0 || dim > rank || !e->parent) return false;
  int64_t pshape[IR_MAX_RANK];
  for (int i = 0, j = 0; i < rank + 1; i++)
    pshape[i] = i == dim ? 1 : shape[j++];
  ttg_ll parent;
  if (!ttg_ll_of_tensor(e->parent, rank + 1, pshape, &parent)) return false;
  int32_t size[IR_MAX_RANK];
  for (int i = 0; i < rank; i++)
    size[i] = (int32_t)shape[i];
  ttg_ll_init(l, 3, rank, size);
  for (int in = 0; in < 3; in++) {
    for (int b = 0; b < parent.nbits[in]; b++) {
      int32_t v[IR_MAX_RANK];
      bool zero = true;
      for (int i = 0, j = 0; i < rank + 1; i++) {
        if (i == dim) continue;
        v[j] = parent.basis[in][b][i];
        zero = zero && v[j] == 0;
        j++;
      }
      if (zero && in == TTG_IN_REG) continue;
      IR_ASSERT(l->nbits[in] < TTG_LL_MAX_BITS);
      memcpy(l->basis[in][l->nbits[in]++], v, sizeof(int32_t) * (size_t)rank);
    }
  }
  return true;
}

bool ttg_ll_of_tensor(const ir_attr *enc, int rank, const int64_t *shape, ttg_ll *out) {
  if (!enc || rank < 1 || rank > IR_MAX_RANK) return false;
  for (int d = 0; d < rank; d++)
    if (!is_pow2(shape[d]) || shape[d] > (1 << 24)) return false;
  switch (enc->kind) {
  case IR_ATTR_BLOCKED: return blocked_ll(enc, rank, shape, out);
  case IR_ATTR_SLICE: return slice_ll(enc, rank, shape, out);
  case IR_ATTR_NVIDIA_MMA: return mma_ll(enc, rank, shape, out);
  case IR_ATTR_DOT_OP: return dot_op_ll(enc, rank, shape, out);
  default: return false;
  }
}

bool ttg_ll_of_type(const ir_type *t, ttg_ll *out) {
  return ir_type_is_tensor(t) && ttg_ll_of_tensor(t->layout, t->rank, t->shape, out);
}

int64_t ttg_ll_num_regs(const ttg_ll *l) { return (int64_t)1 << l->nbits[TTG_IN_REG]; }

void ttg_ll_apply1(const ttg_ll *l, int in, uint32_t x, int32_t *out) {
  for (int d = 0; d < l->nout; d++)
    out[d] = 0;
  for (int b = 0; b < l->nbits[in]; b++)
    if (x >> b & 1)
      for (int d = 0; d < l->nout; d++)
        out[d] ^= l->basis[in][b][d];
}

void ttg_ll_apply(const ttg_ll *l, const uint32_t *in, int32_t *out) {
  int32_t part[IR_MAX_RANK];
  for (int d = 0; d < l->nout; d++)
    out[d] = 0;
  for (int i = 0; i < l->nin; i++) {
    ttg_ll_apply1(l, i, in[i], part);
    for (int d = 0; d < l->nout; d++)
      out[d] ^= part[d];
  }
}

bool ttg_ll_equal(const ttg_ll *a, const ttg_ll *b) {
  if (a->nin != b->nin || a->nout != b->nout) return false;
  for (int d = 0; d < a->nout; d++)
    if (a->out_size[d] != b->out_size[d]) return false;
  for (int i = 0; i < a->nin; i++) {
    if (a->nbits[i] != b->nbits[i]) return false;
    for (int k = 0; k < a->nbits[i]; k++)
      for (int d = 0; d < a->nout; d++)
        if (a->basis[i][k][d] != b->basis[i][k][d]) return false;
  }
  return true;
}

bool ttg_ll_basis_is_zero(const ttg_ll *l, int in, int bit) {
  for (int d = 0; d < l->nout; d++)
    if (l->basis[in][bit][d]) return false;
  return true;
}

/* ---- shared-memory layouts --------------------------------------------- */

/* Element offset -> coordinates of a #ttg.swizzled_shared buffer: `order`
 * gives the dims from fastest; rows of the two fastest dims are split into
 * vec-element chunks whose index is XORed with (row / perPhase) % maxPhase. */
static bool swizzled_ll(const ir_attr *e, int rank, const int64_t *shape, ttg_ll *l) {
  if (e->rank != rank || !is_perm(e->order, rank) || !is_pow2(e->vec) || !is_pow2(e->per_phase) ||
      !is_pow2(e->max_phase))
    return false;
  int32_t size[IR_MAX_RANK];
  for (int d = 0; d < rank; d++)
    size[d] = (int32_t)shape[d];
  ttg_ll_init(l, 1, rank, size);
  int fast = (int)e->order[0];
  for (int64_t v = 1; v < shape[fast]; v *= 2)
    ll_push(l, 0, fast, (int32_t)v);
  if (rank == 1) return true;
  int row = (int)e->order[1];
  int64_t nchunks = shape[fast] / e->vec;
  if (nchunks < 1) nchunks = 1;
  for (int64_t r = 1; r < shape[row]; r *= 2) {
    /* Row bit r flips chunk bits ((r / perPhase) % maxPhase) * vec. */
    int64_t phase = (r / e->per_phase) % e->max_phase;
    int32_t *b = l->basis[0][l->nbits[0]++];
    memset(b, 0, sizeof(int32_t) * IR_MAX_RANK);
    b[row] = (int32_t)r;
    b[fast] = (int32_t)(((phase % nchunks) * e->vec) % shape[fast]);
  }
  for (int i = 2; i < rank; i++) {
    int d = (int)e->order[i];
    for (int64_t v = 1; v < shape[d]; v *= 2)
      ll_push(l, 0, d, (int32_t)v);
  }
  return true;
}

/* #ttg.nvmma_shared: the layout wgmma reads through a matrix descriptor.
 * The contiguous dim (dim 1, or dim 0 when transposed) is cut into atoms of
 * swizzle-width bytes; a row of an atom is one swizzle line, 8 lines form a
 * phase cycle, and 16-byte chunk c of line r sits at chunk c ^ (r % 8 /
 * (128 / swizzle bytes) ...) as the hardware's 128/64/32-byte modes do.
 * Atoms follow each other along the other dim first (all rows of one
 * K-slab), then along the contiguous dim. */
static bool nvmma_ll(const ir_attr *e, int rank, const int64_t *shape, int elem_bits, ttg_ll *l) {
  if (rank != 2 || (e->swizzle_bytes != 0 && e->swizzle_bytes != 32 && e->swizzle_bytes != 64 &&
                    e->swizzle_bytes != 128))
    return false;
  int ebits = e->elem_bits ? (int)e->elem_bits : elem_bits;
  if (ebits < 8 || !is_pow2(ebits)) return false;
  int fast = e->transposed ? 0 : 1, slow = 1 - fast;
  int64_t line = e->swizzle_bytes ? (int64_t)e->swizzle_bytes * 8 / ebits : 16 * 8 / ebits;
  int64_t chunk = 128 / ebits; /* elements per 16 bytes */
  if (line > shape[fast]) return false;
  int32_t size[2] = {(int32_t)shape[0], (int32_t)shape[1]};
  ttg_ll_init(l, 1, 2, size);
  for (int64_t v = 1; v < line; v *= 2)
    ll_push(l, 0, fast, (int32_t)v);
  /* Lines of the other dim; line r XORs its 16-byte chunk index with
   * (r / per_phase) % max_phase, per_phase = 128 / swizzle bytes. */
  int64_t nchunk = line / chunk;
  int64_t per_phase = e->swizzle_bytes ? 128 / e->swizzle_bytes : 1;
  int64_t max_phase = e->swizzle_bytes ? e->swizzle_bytes / 16 : 1;
  for (int64_t r = 1; r < shape[slow]; r *= 2) {
    int32_t *b = l->basis[0][l->nbits[0]++];
    memset(b, 0, sizeof(int32_t) * IR_MAX_RANK);
    b[slow] = (int32_t)r;
    int64_t phase = (r / per_phase) % max_phase;
    b[fast] = (int32_t)((phase % nchunk) * chunk);
  }
  for (int64_t v = line; v < shape[fast]; v *= 2)
    ll_push(l, 0, fast, (int32_t)v);
  return true;
}

bool ttg_ll_of_shared(const ir_attr *enc, int rank, const int64_t *shape, int elem_bits,
                      ttg_ll *out) {
  if (!enc || rank < 1 || rank > IR_MAX_RANK) return false;
  for (int d = 0; d < rank; d++)
    if (!is_pow2(shape[d]) || shape[d] > (1 << 24)) return false;
  if (enc->kind == IR_ATTR_SWIZZLED_SHARED) return swizzled_ll(enc, rank, shape, out);
  if (enc->kind == IR_ATTR_NVMMA_SHARED) return nvmma_ll(enc, rank, shape, elem_bits, out);
  return false;
}

/* ---- algebra ------------------------------------------------------------ */

/* Flattened bit position of output bit k of dim d: dims in order, low bits first. */
static int flat_bit(const ttg_ll *l, int d, int k) {
  int pos = 0;
  for (int i = 0; i < d; i++)
    pos += log2i(l->out_size[i]);
  return pos + k;
}

static uint32_t flatten(const ttg_ll *l, const int32_t *v) {
  uint32_t x = 0;
  for (int d = 0; d < l->nout; d++)
    for (int k = 0; k < log2i(l->out_size[d]); k++)
      if (v[d] >> k & 1) x |= 1u << flat_bit(l, d, k);
  return x;
}

bool ttg_ll_invert(const ttg_ll *l, ttg_ll *inv) {
  if (l->nin != 1) return false;
  int n = l->nbits[0], total = 0;
  for (int d = 0; d < l->nout; d++)
    total += log2i(l->out_size[d]);
  if (n != total || n > 30) return false;
  /* Gauss-Jordan on rows [image bits | input bit], over GF(2). */
  uint32_t row[32], src[32];
  for (int b = 0; b < n; b++) {
    row[b] = flatten(l, l->basis[0][b]);
    src[b] = 1u << b;
  }
  for (int col = 0; col < n; col++) {
    int piv = -1;
    for (int r = col; r < n && piv < 0; r++)
      if (row[r] >> col & 1) piv = r;
    if (piv < 0) return false; /* not a bijection */
    uint32_t t = row[piv];
    row[piv] = row[col];
    row[col] = t;
    t = src[piv];
    src[piv] = src[col];
    src[col] = t;
    for (int r = 0; r < n; r++)
      if (r != col && (row[r] >> col & 1)) row[r] ^= row[col], src[r] ^= src[col];
  }
  /* Now row[c] = bit c alone, reached from inputs src[c]. */
  int32_t size = (int32_t)1 << n;
  ttg_ll_init(inv, l->nout, 1, &size);
  for (int d = 0; d < l->nout; d++)
    for (int k = 0; k < log2i(l->out_size[d]); k++)
      ll_push(inv, d, 0, (int32_t)src[flat_bit(l, d, k)]);
  return true;
}

bool ttg_ll_compose(const ttg_ll *a, const ttg_ll *b, ttg_ll *out) {
  if (b->nin != a->nout) return false;
  for (int d = 0; d < a->nout; d++)
    if (b->nbits[d] != log2i(a->out_size[d])) return false;
  ttg_ll_init(out, a->nin, b->nout, b->out_size);
  for (int i = 0; i < a->nin; i++) {
    for (int k = 0; k < a->nbits[i]; k++) {
      int32_t *o = out->basis[i][out->nbits[i]++];
      for (int e = 0; e < b->nout; e++)
        o[e] = 0;
      for (int d = 0; d < a->nout; d++)
        for (int j = 0; j < b->nbits[d]; j++)
          if (a->basis[i][k][d] >> j & 1)
            for (int e = 0; e < b->nout; e++)
              o[e] ^= b->basis[d][j][e];
    }
  }
  return true;
}

void ttg_ll_print(const ttg_ll *l, ir_strbuf *out) {
  static const char *const names[] = {"register", "lane", "warp", "in3"};
  for (int i = 0; i < l->nin; i++) {
    ir_sb_printf(out, "%s%s = [", i ? ", " : "", l->nin == 1 ? "offset" : names[i]);
    for (int k = 0; k < l->nbits[i]; k++) {
      ir_sb_puts(out, k ? ", [" : "[");
      for (int d = 0; d < l->nout; d++)
        ir_sb_printf(out, "%s%d", d ? ", " : "", l->basis[i][k][d]);
      ir_sb_putc(out, ']');
    }
    ir_sb_putc(out, ']');
  }
}

/* ---- solving for an input ---------------------------------------------- */

void ttg_ll_solver_init(ttg_ll_solver *s, const ttg_ll *l, int in) {
  memset(s, 0, sizeof *s);
  s->nout = l->nout;
  for (int d = 0; d < l->nout; d++)
    s->out_size[d] = l->out_size[d];
  /* Row echelon form, each new row reduced by the earlier ones: solving
   * clears the pivots in insertion order, and no later row sets an earlier
   * pivot again. */
  for (int b = 0; b < l->nbits[in]; b++) {
    uint32_t v = flatten(l, l->basis[in][b]), src = 1u << b;
    for (int i = 0; i < s->n; i++)
      if (v >> s->pivot[i] & 1) v ^= s->row[i], src ^= s->src[i];
    if (!v) continue; /* dependent: a zero or repeated basis */
    int piv = 0;
    while (!(v >> piv & 1))
      piv++;
    s->row[s->n] = v;
    s->src[s->n] = src;
    s->pivot[s->n] = piv;
    s->n++;
  }
}

bool ttg_ll_solve(const ttg_ll_solver *s, const int32_t *coords, uint32_t *x) {
  ttg_ll shape;
  ttg_ll_init(&shape, 1, s->nout, s->out_size);
  uint32_t v = flatten(&shape, coords);
  *x = 0;
  for (int i = 0; i < s->n; i++)
    if (v >> s->pivot[i] & 1) v ^= s->row[i], *x ^= s->src[i];
  return v == 0;
}

/* ---- moving between layouts --------------------------------------------- */

bool ttg_ll_reg_map(const ttg_ll *src, const ttg_ll *dst, const int *proj, int64_t *src_reg) {
  /* Project dst's bases into src's dims: proj[d] is the src dim of dst dim d
   * (-1: dropped, a broadcast or a unit dim). */
  ttg_ll p;
  ttg_ll_init(&p, 3, src->nout, src->out_size);
  for (int in = 0; in < 3; in++) {
    p.nbits[in] = dst->nbits[in];
    for (int b = 0; b < dst->nbits[in]; b++)
      for (int d = 0; d < dst->nout; d++)
        if (proj[d] >= 0) p.basis[in][b][proj[d]] = dst->basis[in][b][d];
  }
  /* Each thread must already hold what it needs: same lane and warp maps. */
  for (int in = TTG_IN_LANE; in <= TTG_IN_WARP; in++) {
    if (p.nbits[in] != src->nbits[in]) return false;
    for (int b = 0; b < p.nbits[in]; b++)
      for (int d = 0; d < src->nout; d++)
        if (p.basis[in][b][d] != src->basis[in][b][d]) return false;
  }
  ttg_ll_solver s;
  ttg_ll_solver_init(&s, src, TTG_IN_REG);
  int64_t n = ttg_ll_num_regs(&p);
  for (int64_t j = 0; j < n; j++) {
    int32_t co[IR_MAX_RANK];
    uint32_t r;
    ttg_ll_apply1(&p, TTG_IN_REG, (uint32_t)j, co);
    if (!ttg_ll_solve(&s, co, &r)) return false;
    src_reg[j] = r;
  }
  return true;
}

bool ttg_shared_map_bits(const ir_type *t, const ir_attr *enc, const int64_t *shape, int elem_bits,
                         ttg_ll *map) {
  ttg_ll d, s, inv;
  return ttg_ll_of_type(t, &d) && ttg_ll_of_shared(enc, t->rank, shape, elem_bits, &s) &&
         ttg_ll_invert(&s, &inv) && ttg_ll_compose(&d, &inv, map);
}

bool ttg_shared_map(const ir_type *t, const ir_attr *enc, const int64_t *shape, ttg_ll *map) {
  return ttg_shared_map_bits(t, enc, shape, (int)ir_type_bytes(ir_type_scalar(t)) * 8, map);
}

int ttg_ll_vector_regs(const ttg_ll *map, unsigned elem_bytes) {
  int k = 0;
  while (k < map->nbits[TTG_IN_REG] && map->basis[TTG_IN_REG][k][0] == 1 << k)
    k++;
  int32_t low = (1 << k) - 1;
  for (int in = 0; in < map->nin; in++)
    for (int b = in == TTG_IN_REG ? k : 0; b < map->nbits[in]; b++)
      while (k > 0 && (map->basis[in][b][0] & low)) {
        k--;
        low >>= 1;
      }
  while (k > 0 && (elem_bytes << k) > 16)
    k--;
  return 1 << k;
}
