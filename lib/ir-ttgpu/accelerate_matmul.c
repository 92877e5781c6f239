// SPDX-License-Identifier: MIT
/* accelerate_matmul.c - tritongpu-accelerate-matmul: puts tt.dot on the
 * tensor cores, as Triton's AccelerateMatmul does.
 * Needs: ttgir whose dots have blocked results. For each dot it picks
 *  - mma v3 (wgmma) on sm_90 when the shape and types allow (M a multiple
 *    of 64, N of 8, K of at least 32 bytes, warps a multiple of 4; f16, bf16,
 *    tf32, int8): operand B (and A when it comes from a load) is written to
 *    shared memory in an nvmma_shared layout and the dot becomes a
 *    ttng.warp_group_dot, preceded by ttng.fence_async_shared; an A computed
 *    in registers stays there as a dot_op of the mma;
 *  - mma v2 (mma.sync) on sm_80 and newer otherwise: operands are converted
 *    to dot_op layouts (tritongpu-reduce-data-duplication later routes those
 *    conversions through swizzled shared memory);
 *  - the FMA path (the dot left as it is) for fp64, ieee f32 and shapes
 *    below one instruction.
 * Warps per CTA and the instruction shape are chosen as Triton chooses
 * them. Leaves: the new dot with an mma result, a conversion of the
 * accumulator into the mma layout and of the result back, for
 * tritongpu-remove-layout-conversions to clean up. */
#include "ir-ttgpu/ttg.h"

enum { MAX_DOTS = 256 };

typedef struct accel_state {
  ir_module *m;
  ir_context *ctx;
  ttg_options opts;
  ir_op *dots[MAX_DOTS];
  int ndots;
} accel_state;

static void collect_dots(ir_op *op, void *user) {
  accel_state *st = user;
  if (op->kind == IR_OP_TT_DOT && st->ndots < MAX_DOTS) st->dots[st->ndots++] = op;
}

static int elem_bits(const ir_type *t) { return (int)ir_type_bytes(ir_type_scalar(t)) * 8; }

static bool is_f32(const ir_type *t) {
  const ir_type *e = ir_type_scalar(t);
  return e->kind == IR_TY_FLOAT && e->width == 32;
}

/* "tf32" is the default input precision of an f32 dot (Triton's). */
static bool is_tf32(const ir_op *dot) {
  const ir_attr *p = ir_op_get_attr(dot, "inputPrecision");
  if (!p) return true;
  if (p->kind == IR_ATTR_ENUM) return p->i == 0;
  return p->kind == IR_ATTR_INT && p->i == 0;
}

/* Operand types mma.sync and wgmma take (Triton's supportMMA). */
static bool mma_types_ok(const ir_op *dot) {
  const ir_type *a = ir_type_scalar(dot->operands[0]->type);
  const ir_type *b = ir_type_scalar(dot->operands[1]->type);
  const ir_type *c = ir_type_scalar(dot->results[0].type);
  /* fp8 x fp8 (any two of e4m3, e5m2) accumulates in f32, on sm_89+ */
  if (ir_type_is_fp8(a) && ir_type_is_fp8(b)) return is_f32(c);
  if (a != b) return false;
  /* f16 x f16 accumulates in f32 or (out_dtype=tl.float16) in f16 */
  if (a->kind == IR_TY_FLOAT && a->width == 16) return is_f32(c) || (c == a && !a->is_bf16);
  if (a->kind == IR_TY_FLOAT && a->width == 32) return is_tf32(dot) && is_f32(c);
  if (a->kind == IR_TY_INT && a->width == 8) return c->kind == IR_TY_INT && c->width == 32;
  return false;
}

/* Triton's warpsPerTileV2: all warps along M (or N) when the dot feeds
 * another dot; otherwise double the dim with more 16x8 tiles left. */
static void warps_v2(const int64_t *shape, int nw, bool chained, unsigned *w) {
  if (chained) {
    w[0] = shape[0] >= shape[1] ? (unsigned)nw : 1;
    w[1] = shape[0] >= shape[1] ? 1 : (unsigned)nw;
    return;
  }
  w[0] = w[1] = 1;
  while ((int)(w[0] * w[1]) < nw) {
    if (shape[0] / 16 / w[0] >= shape[1] / 8 / w[1]) {
      if (w[0] < shape[0] / 16)
        w[0] *= 2;
      else
        w[1] *= 2;
    } else {
      w[1] *= 2;
    }
  }
}

/* Triton's warpsPerTileV3: warpgroups (4 warps) along M, then N. */
static void warps_v3(const int64_t *shape, int nw, bool chained, unsigned instr_n, unsigned *w) {
  if (chained) {
    w[0] = (unsigned)nw;
    w[1] = 1;
    return;
  }
  w[0] = 4;
  w[1] = 1;
  while ((int)(w[0] * w[1]) < nw) {
    if (shape[0] > 16 * (int64_t)w[0])
      w[0] *= 2;
    else
      w[1] *= 2;
  }
  (void)instr_n;
}

/* The widest wgmma N that divides the tile once the warps along M are
 * placed (Triton's mmaVersionToInstrShape). */
static unsigned instr_n_v3(const int64_t *shape, int nw, bool is_int8) {
  int64_t mwarps = shape[0] / 16 > 1 ? shape[0] / 16 : 1;
  int64_t nwarps = nw / mwarps > 1 ? nw / mwarps : 1;
  int64_t maxn = shape[1] / nwarps > 8 ? shape[1] / nwarps : 8;
  for (int n = 256; n >= 8; n -= 8) {
    if (is_int8 && (n > 224 || (n > 16 && n % 16))) continue;
    if (shape[1] % n == 0 && n <= maxn) return (unsigned)n;
  }
  return 8;
}

/* Whether the dot's result flows into another dot in the same region
 * (attention): then warps all go along M so rows stay within a warp. */
static bool feeds_dot(const ir_op *dot, int depth) {
  const ir_block *b = dot->parent;
  if (depth > 32 || !b) return false;
  for (const ir_op *op = dot->next; op; op = op->next) {
    for (int i = 0; i < op->noperands; i++) {
      for (int r = 0; r < dot->nresults; r++) {
        if (op->operands[i] != &dot->results[r]) continue;
        if (op->kind == IR_OP_TT_DOT || op->kind == IR_OP_TTNG_WARP_GROUP_DOT) return true;
        if (op->nresults && feeds_dot(op, depth + 1)) return true;
      }
    }
  }
  return false;
}

/* The value under conversions and transposes, and whether it was loaded
 * (Triton's comesFromLoadOrBlockArg). */
static bool from_load(const ir_value *v) {
  while (v->def && (v->def->kind == IR_OP_TTG_CONVERT_LAYOUT || v->def->kind == IR_OP_TT_TRANS))
    v = v->def->operands[0];
  return !v->def || v->def->kind == IR_OP_TT_LOAD;
}

/* Triton's NVMMASharedEncodingAttr for a tile with the given order: the
 * widest swizzle the contiguous dim fills. */
const ir_attr *ttg_nvmma_shared_for(ir_context *ctx, int rank, const int64_t *shape,
                                    const unsigned *order, int ebits) {
  int64_t bytes = shape[order[0]] * ebits / 8;
  unsigned sw = bytes >= 128 && bytes % 128 == 0 ? 128
                : bytes >= 64 && bytes % 64 == 0 ? 64
                : bytes >= 32 && bytes % 32 == 0 ? 32
                                                 : 0;
  int64_t outer = 1;
  for (int i = 1; i < rank; i++)
    outer *= shape[order[i]];
  if (rank < 2 || outer < 8) sw = 0;
  return ir_attr_nvmma_shared(ctx, sw, order[0] == 0, (unsigned)ebits);
}

/* The order a tensor's layout keeps its elements in (fastest first). */
static void layout_order(const ir_type *t, unsigned *order) {
  const ir_attr *l = t->layout;
  if (l && l->kind == IR_ATTR_BLOCKED) {
    for (int i = 0; i < t->rank; i++)
      order[i] = l->order[i];
    return;
  }
  for (int i = 0; i < t->rank; i++)
    order[i] = (unsigned)(t->rank - 1 - i);
}

/* The operand in shared memory for wgmma: a local_alloc right after the
 * value it copies; tf32 and int8 need K contiguous. */
static ir_value *to_shared(accel_state *st, ir_op *dot, int idx, bool allow_transpose) {
  ir_value *v = dot->operands[idx];
  while (v->def && v->def->kind == IR_OP_TTG_CONVERT_LAYOUT)
    v = v->def->operands[0];
  unsigned order[2];
  layout_order(v->type, order);
  if (!allow_transpose) {
    order[0] = idx == 1 ? 0 : 1; /* K contiguous */
    order[1] = 1 - order[0];
  }
  const ir_attr *enc = ttg_nvmma_shared_for(st->ctx, 2, v->type->shape, order, elem_bits(v->type));
  const ir_type *mt =
      ir_type_memdesc(st->ctx, 2, v->type->shape, ir_type_scalar(v->type), enc, false);
  ir_op *alloc = ir_op_create(st->m, IR_OP_TTG_LOCAL_ALLOC, dot->loc, 1, &mt, 1, &v, 0);
  alloc->results[0].name = v->name;
  if (v->def)
    ir_op_insert_after(v->def, alloc);
  else
    ir_op_insert_before(dot, alloc);
  return &alloc->results[0];
}

static void accelerate(accel_state *st, ir_op *dot) {
  const ir_type *ct = dot->results[0].type;
  const ir_type *at = dot->operands[0]->type;
  if (!ct->layout || ct->layout->kind != IR_ATTR_BLOCKED || ct->rank != 2 || !mma_types_ok(dot))
    return;
  int cc = st->opts.compute_capability, nw = st->opts.num_warps;
  int bits = elem_bits(at);
  int64_t m = ct->shape[0], n = ct->shape[1], k = at->shape[1];
  bool chained = feeds_dot(dot, 0);
  bool is_int8 = ir_type_scalar(at)->kind == IR_TY_INT && bits == 8; /* fp8 takes every N */
  bool v3 = cc == 90 && nw % 4 == 0 && m % 64 == 0 && n % 8 == 0 && k * bits >= 256;
  bool v2 = cc >= 80 && m >= 16 && n >= 8 && k * bits >= 256;
  if (!v3 && !v2) return;
  unsigned w[2], instr[3];
  int ninstr;
  if (v3) {
    instr[0] = 16;
    instr[1] = instr_n_v3(ct->shape, nw, is_int8);
    instr[2] = (unsigned)(256 / bits);
    ninstr = 3;
    warps_v3(ct->shape, nw, chained, instr[1], w);
  } else {
    instr[0] = 16;
    instr[1] = 8;
    ninstr = 2;
    warps_v2(ct->shape, nw, chained, w);
  }
  const ir_attr *mma = ir_attr_nvidia_mma(st->ctx, v3 ? 3 : 2, 0, 2, w, ninstr, instr);
  const ir_type *rt = ir_type_with_layout(st->ctx, ct, mma);
  ir_value *acc = ttg_convert_before(st->m, dot, dot->operands[2], mma);
  ir_value *ops[3];
  unsigned kwidth = (unsigned)(32 / bits);
  ir_op *nd;
  if (v3) {
    bool allow_transpose = bits == 16;
    if (from_load(dot->operands[0]))
      ops[0] = to_shared(st, dot, 0, allow_transpose);
    else
      ops[0] =
          ttg_convert_before(st->m, dot, dot->operands[0], ir_attr_dot_op(st->ctx, 0, mma, kwidth));
    ops[1] = to_shared(st, dot, 1, allow_transpose);
    ops[2] = acc;
    ir_op *fence =
        ir_op_create(st->m, IR_OP_TTNG_FENCE_ASYNC_SHARED, dot->loc, 0, NULL, 0, NULL, 0);
    ir_op_set_attr(st->m, fence, "bCluster", ir_attr_bool(st->ctx, false));
    ir_op_insert_before(dot, fence);
    nd = ir_op_create(st->m, IR_OP_TTNG_WARP_GROUP_DOT, dot->loc, 1, &rt, 3, ops, 0);
    const ir_type *i32 = ir_type_i32(st->ctx);
    ir_op_set_attr(st->m, nd, "inputPrecision", ir_attr_int(st->ctx, i32, is_tf32(dot) ? 0 : 2));
    ir_op_set_attr(st->m, nd, "maxNumImpreciseAcc",
                   ir_attr_int(st->ctx, i32, ir_op_get_int(dot, "maxNumImpreciseAcc", 0)));
    ir_op_set_attr(st->m, nd, "isAsync", ir_attr_bool(st->ctx, false));
  } else {
    for (int i = 0; i < 2; i++)
      ops[i] =
          ttg_convert_before(st->m, dot, dot->operands[i], ir_attr_dot_op(st->ctx, i, mma, kwidth));
    ops[2] = acc;
    nd = ir_op_create(st->m, IR_OP_TT_DOT, dot->loc, 1, &rt, 3, ops, 0);
    for (int i = 0; i < dot->nattrs; i++)
      ir_op_set_attr(st->m, nd, dot->attrs[i].name, dot->attrs[i].value);
  }
  nd->results[0].name = dot->results[0].name;
  ir_op_insert_before(dot, nd);
  /* The old result's users read the new one converted back; the
   * conversion takes the old op's place. */
  ir_value *res = &nd->results[0];
  ir_op *back = ir_op_create(st->m, IR_OP_TTG_CONVERT_LAYOUT, dot->loc, 1, &ct, 1, &res, 0);
  back->results[0].name = dot->results[0].name;
  ir_op_insert_before(dot, back);
  ir_op *scope = ir_op_parent_of_kind(dot, IR_OP_TT_FUNC);
  ir_replace_all_uses(scope ? scope : st->m->op, &dot->results[0], &back->results[0]);
  ir_op_erase(dot);
}

bool ttg_pass_accelerate_matmul(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)scratch;
  (void)args;
  accel_state st;
  st.m = m;
  st.ctx = m->ctx;
  st.opts = ttg_module_options(m);
  st.ndots = 0;
  ir_walk(m->op, collect_dots, &st);
  for (int i = 0; i < st.ndots; i++)
    accelerate(&st, st.dots[i]);
  return true;
}
