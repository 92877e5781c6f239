// SPDX-License-Identifier: MIT
/* scratch.c - which ops need shared memory of their own while they run, and
 * how much: ops that move elements between threads (layout conversions that
 * are not register permutations, transposes, reshapes, joins and splits,
 * broadcasts between unrelated layouts), reductions across warps, scans,
 * FMA dots, and scalar atomics (whose result one thread broadcasts). The
 * sizes are the layouts codegen uses for those buffers; allocate-shared-
 * memory places them and codegen reads the offsets. One owner, so the two
 * never disagree. Also the total a block's ops need (buffers and scratch),
 * which tritongpu-pipeline sizes its rings beside. */
#include <stdlib.h>
#include <string.h>

#include "ir-ttgpu/ttg.h"

static uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/* Bytes one element takes in shared memory (i1 as a byte). */
static uint64_t elem_bytes(const ir_type *t) { return ir_type_bytes(ir_type_scalar(t)); }

bool ttg_moves_between_threads(const ir_type *src, const ir_type *dst, const int *proj) {
  ttg_ll sl, dl;
  if (!ttg_ll_of_type(src, &sl) || !ttg_ll_of_type(dst, &dl)) return true;
  int64_t n = ttg_ll_num_regs(&dl);
  if (n > (1 << 16)) return true;
  int64_t buf[256];
  int64_t *map = n <= 256 ? buf : malloc(sizeof(int64_t) * (size_t)n);
  if (!map) return true;
  bool ok = ttg_ll_reg_map(&sl, &dl, proj, map);
  if (map != buf) free(map);
  return !ok;
}

/* The src dim of each dst dim of a broadcast or expand_dims (-1: dropped). */
static void remap_proj(const ir_op *op, int *proj) {
  const ir_type *st = op->operands[0]->type, *dt = op->results[0].type;
  if (op->kind == IR_OP_TT_EXPAND_DIMS) {
    int axis = (int)ir_op_get_int(op, "axis", 0);
    for (int d = 0, k = 0; d < dt->rank; d++)
      proj[d] = d == axis ? -1 : k++;
    return;
  }
  for (int d = 0; d < dt->rank; d++)
    proj[d] = st->shape[d] == 1 && dt->shape[d] != 1 ? -1 : d;
}

/* Warps whose basis lies along `axis`: the partials a reduction exchanges. */
static int64_t warps_along(const ir_type *t, int axis) {
  ttg_ll l;
  if (!ttg_ll_of_type(t, &l)) return 1;
  int64_t n = 1;
  for (int b = 0; b < l.nbits[TTG_IN_WARP]; b++)
    if (l.basis[TTG_IN_WARP][b][axis]) n *= 2;
  return n;
}

/* The register basis of l that sets exactly coordinate bit `bit` of dim d,
 * when no other basis of any input touches that bit; -1 otherwise. */
static int register_only_bit(const ttg_ll *l, int d, int bit) {
  int found = -1;
  for (int in = 0; in < l->nin; in++)
    for (int b = 0; b < l->nbits[in]; b++) {
      const int32_t *v = l->basis[in][b];
      if (!(v[d] >> bit & 1)) continue;
      bool single = v[d] == 1 << bit;
      for (int o = 0; o < l->nout && single; o++)
        single = o == d || v[o] == 0;
      if (in != TTG_IN_REG || !single || found >= 0) return -1;
      found = b;
    }
  return found;
}

/* Whether an op in the body of loop (at any depth) reads a buffer that a
 * ttg.local_alloc made outside loop: such a buffer (a pipelined loop's
 * ring) is live in every iteration. A ring allocated inside the body, as
 * a persistent matmul's K loop's is in the tile loop, is not. */
static bool reads_outer_buffer(const ir_op *scope, const ir_op *loop) {
  for (int r = 0; r < scope->nregions; r++)
    for (ir_block *b = scope->regions[r].first; b; b = b->next)
      for (ir_op *in = b->first; in; in = in->next) {
        for (int i = 0; i < in->noperands; i++) {
          const ir_value *v = in->operands[i];
          const ir_op *def = v ? v->def : NULL;
          if (def && def->kind == IR_OP_TTG_LOCAL_ALLOC && !ir_op_is_inside(def, loop)) return true;
        }
        if (in->nregions > 0 && reads_outer_buffer(in, loop)) return true;
      }
  return false;
}

uint64_t ttg_convert_pass_bytes(const ir_op *op) {
  /* The bounds differ only for a tensor above the smaller one: smaller
   * conversions (nearly all) skip the walk of the enclosing loops. */
  const ir_type *t = op->noperands > 0 && op->operands[0] ? op->operands[0]->type : NULL;
  if (!t || !ir_type_is_tensor(t) ||
      (uint64_t)ir_type_numel(t) * elem_bytes(t) <= TTG_CVT_PASS_BYTES_RINGS)
    return TTG_CVT_PASS_BYTES;
  for (const ir_op *p = ir_op_parent_of_kind(op, IR_OP_SCF_FOR); p;
       p = ir_op_parent_of_kind(p, IR_OP_SCF_FOR))
    if (reads_outer_buffer(p, p)) return TTG_CVT_PASS_BYTES_RINGS;
  return TTG_CVT_PASS_BYTES;
}

void ttg_convert_split(const ir_type *src, const ir_type *dst, uint64_t max_bytes,
                       ttg_cvt_split *out) {
  out->n = 0;
  ttg_ll sl, dl;
  if (!ir_type_is_tensor(src) || !ttg_ll_of_type(src, &sl) || !ttg_ll_of_type(dst, &dl) ||
      sl.nout != dl.nout)
    return;
  uint64_t bytes = (uint64_t)ir_type_numel(src) * elem_bytes(src);
  /* dims from the slowest (row-major: dim 0), each from its highest bit;
   * never the contiguous last dim, whose low register bits make the
   * vector accesses */
  for (int d = 0; d < sl.nout - 1 && bytes > max_bytes; d++)
    for (int bit = 30; bit >= 0 && bytes > max_bytes; bit--) {
      if (sl.out_size[d] <= 1 << bit) continue;
      int rs = register_only_bit(&sl, d, bit), rd = register_only_bit(&dl, d, bit);
      if (rs < 0 || rd < 0 || out->n == TTG_LL_MAX_BITS) continue;
      out->dim[out->n] = d, out->bit[out->n] = bit;
      out->src_reg[out->n] = rs, out->dst_reg[out->n] = rd;
      out->n++;
      bytes /= 2;
    }
}

/* v without coordinate bit `bit`: the bits above it move down one. */
static int32_t drop_bit(int32_t v, int bit) {
  return (v & ((1 << bit) - 1)) | ((v >> (bit + 1)) << bit);
}

/* l without the split's bits: the register bases `regs` (src_reg or
 * dst_reg) removed, the other bases keeping their order, and each split
 * bit dropped from its dim's coordinate (the dim's size halves). */
static void drop_split(const ttg_ll *l, const ttg_cvt_split *sp, const int *regs, ttg_ll *out) {
  *out = *l;
  out->nbits[TTG_IN_REG] = 0;
  for (int b = 0; b < l->nbits[TTG_IN_REG]; b++) {
    bool split = false;
    for (int i = 0; i < sp->n; i++)
      split = split || regs[i] == b;
    if (split) continue;
    memcpy(out->basis[TTG_IN_REG][out->nbits[TTG_IN_REG]++], l->basis[TTG_IN_REG][b],
           sizeof l->basis[TTG_IN_REG][b]);
  }
  /* ttg_convert_split lists a dim's bits highest first: dropping them in
   * that order leaves the positions of the lower ones as they were */
  for (int i = 0; i < sp->n; i++) {
    int d = sp->dim[i], bit = sp->bit[i];
    for (int in = 0; in < out->nin; in++)
      for (int b = 0; b < out->nbits[in]; b++)
        out->basis[in][b][d] = drop_bit(out->basis[in][b][d], bit);
    out->out_size[d] /= 2;
  }
}

bool ttg_convert_pass_maps(const ir_type *src, const ir_type *dst, const ir_attr *enc,
                           const ttg_cvt_split *sp, ttg_ll *wmap, ttg_ll *rmap) {
  int64_t shape[IR_MAX_RANK];
  for (int d = 0; d < src->rank; d++)
    shape[d] = src->shape[d];
  for (int i = 0; i < sp->n; i++)
    shape[sp->dim[i]] /= 2;
  ttg_ll sl, dl, ssl, sdl, sh, inv;
  if (!ttg_ll_of_type(src, &sl) || !ttg_ll_of_type(dst, &dl)) return false;
  drop_split(&sl, sp, sp->src_reg, &ssl);
  drop_split(&dl, sp, sp->dst_reg, &sdl);
  int bits = (int)elem_bytes(src) * 8;
  return ttg_ll_of_shared(enc, src->rank, shape, bits, &sh) && ttg_ll_invert(&sh, &inv) &&
         ttg_ll_compose(&ssl, &inv, wmap) && ttg_ll_compose(&sdl, &inv, rmap);
}

int64_t ttg_cvt_pass_reg(const ttg_cvt_split *sp, const int *regs, int nbits, int64_t jr, int r) {
  int64_t j = 0;
  for (int b = 0, k = 0; b < nbits; b++) {
    int i = -1;
    for (int t = 0; t < sp->n; t++)
      if (regs[t] == b) i = t;
    int64_t v = i >= 0 ? (r >> i) & 1 : (jr >> k++) & 1;
    j |= v << b;
  }
  return j;
}

/* Scratch of ops that remap elements: none when every thread already holds
 * what it needs, else the source tensor once (a conversion split into
 * passes: one pass's share). */
static uint64_t remap_bytes(const ir_op *op) {
  const ir_type *st = op->operands[0]->type, *dt = op->results[0].type;
  int proj[IR_MAX_RANK];
  if (!ir_type_is_tensor(st)) return 0;
  if (op->kind == IR_OP_TTG_CONVERT_LAYOUT) {
    if (st->layout == dt->layout) return 0;
    for (int d = 0; d < st->rank; d++)
      proj[d] = d;
  } else {
    remap_proj(op, proj);
  }
  if (!ttg_moves_between_threads(st, dt, proj)) return 0;
  uint64_t bytes = (uint64_t)ir_type_numel(st) * elem_bytes(st);
  if (op->kind == IR_OP_TTG_CONVERT_LAYOUT) {
    ttg_cvt_split sp;
    ttg_convert_split(st, dt, ttg_convert_pass_bytes(op), &sp);
    bytes >>= sp.n;
  }
  return bytes;
}

static uint64_t reduce_bytes(const ir_op *op) {
  const ir_type *st = op->operands[0]->type;
  if (!ir_type_is_tensor(st)) return 0;
  int64_t nwarps = warps_along(st, (int)ir_op_get_int(op, "axis", 0));
  if (nwarps <= 1) return 0;
  const ir_type *rt = op->results[0].type;
  uint64_t numel = ir_type_is_tensor(rt) ? (uint64_t)ir_type_numel(rt) : 1, total = 0;
  for (int i = 0; i < op->noperands; i++)
    total = round_up(total, 8) + numel * (uint64_t)nwarps * elem_bytes(op->operands[i]->type);
  return total;
}

static uint64_t scan_bytes(const ir_op *op) {
  uint64_t total = 0;
  for (int i = 0; i < op->noperands; i++)
    total += round_up(
        (uint64_t)ir_type_numel(op->operands[i]->type) * elem_bytes(op->operands[i]->type), 8);
  return total;
}

static uint64_t fma_dot_bytes(const ir_op *op) {
  const ir_type *at = op->operands[0]->type, *bt = op->operands[1]->type;
  const ir_attr *rl = op->results[0].type->layout;
  if (rl && rl->kind == IR_ATTR_NVIDIA_MMA) return 0;
  return round_up((uint64_t)ir_type_numel(at) * elem_bytes(at), 16) +
         (uint64_t)ir_type_numel(bt) * elem_bytes(bt);
}

/* An if-chain, not a switch over op kinds: ops not named need none. */
uint64_t ttg_scratch_bytes(const ir_op *op) {
  ir_op_kind k = op->kind;
  if (k == IR_OP_TTG_CONVERT_LAYOUT || k == IR_OP_TT_BROADCAST || k == IR_OP_TT_EXPAND_DIMS)
    return remap_bytes(op);
  if (k == IR_OP_TT_TRANS || k == IR_OP_TT_RESHAPE || k == IR_OP_TT_JOIN)
    return (uint64_t)ir_type_numel(op->results[0].type) * elem_bytes(op->results[0].type);
  if (k == IR_OP_TT_SPLIT)
    return (uint64_t)ir_type_numel(op->operands[0]->type) * elem_bytes(op->operands[0]->type);
  if (k == IR_OP_TT_REDUCE) return reduce_bytes(op);
  if (k == IR_OP_TT_SCAN) return scan_bytes(op);
  if (k == IR_OP_TT_DOT) return fma_dot_bytes(op);
  if (k == IR_OP_TT_ATOMIC_RMW || k == IR_OP_TT_ATOMIC_CAS)
    return ir_type_is_tensor(op->operands[0]->type) ? 0 : 8;
  return 0;
}

static uint64_t op_shared(const ir_op *op) {
  if (op->kind == IR_OP_TTG_LOCAL_ALLOC)
    return (uint64_t)ir_type_numel(op->results[0].type) * ir_type_bytes(op->results[0].type->elem);
  return ttg_scratch_bytes(op);
}

static void add_shared(ir_op *op, void *user) { *(uint64_t *)user += op_shared(op); }

uint64_t ttg_shared_bytes_in(const ir_block *body) {
  uint64_t most = 0;
  for (ir_op *op = body->first; op; op = op->next) {
    most += op_shared(op);
    if (op->nregions) ir_walk(op, add_shared, &most);
  }
  return most;
}
