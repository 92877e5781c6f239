/* scratch.c - which ops need shared memory of their own while they run, and
 * how much: ops that move elements between threads (layout conversions that
 * are not register permutations, transposes, reshapes, joins and splits,
 * broadcasts between unrelated layouts), reductions across warps, scans,
 * FMA dots, and scalar atomics (whose result one thread broadcasts). The
 * sizes are the layouts codegen uses for those buffers; allocate-shared-
 * memory places them and codegen reads the offsets. One owner, so the two
 * never disagree. */
#include <stdlib.h>

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

/* Scratch of ops that remap elements: none when every thread already holds
 * what it needs, else the source tensor once. */
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
  return ttg_moves_between_threads(st, dt, proj) ? (uint64_t)ir_type_numel(st) * elem_bytes(st) : 0;
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
