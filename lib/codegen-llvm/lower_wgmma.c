// SPDX-License-Identifier: MIT
/* lower_wgmma.c - ttng.warp_group_dot on Hopper's wgmma, as Triton lowers
 * it. Each warpgroup (4 consecutive warps) issues
 *   wgmma.mma_async.sync.aligned.m64nNkK.<d>.<a>.<b>
 * per (M repetition, N repetition, K step), reading B (and A unless A sits
 * in registers as a dot_op of the accumulator's mma) from shared memory
 * through 64-bit matrix descriptors: start address >> 4 in bits 0-13, the
 * leading-dimension byte offset >> 4 in 16-29 (the distance between swizzle
 * atoms along the contiguous dim: swizzle bytes x rows), the stride byte
 * offset >> 4 in 32-45 (8 rows of swizzle bytes), the swizzle mode in
 * 62-63 (1: 128 B, 2: 64 B, 3: 32 B). The tile's start element comes from the
 * buffer's nvmma_shared layout, so swizzle atoms and K-major or MN-major
 * storage need no special cases. wgmma.fence precedes the group, a commit
 * ends it, and a synchronous dot waits for it; ttng.warp_group_dot_wait
 * waits for all but `pendings` groups, tying the accumulators to the wait.
 * An fp8 dot whose maxNumImpreciseAcc is at most K accumulates each run of
 * that many K elements in a zeroed partial accumulator, waits for it and
 * adds it to the accumulator in f32 (Triton's needsPartialAccumulator). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

typedef struct wg_kind {
  const char *types; /* "f32.f16.f16" */
  int k;             /* instruction K */
  bool is_int, transposable, scaled;
  bool f16_acc; /* D is f16: two accumulators per 32-bit register */
} wg_kind;

static bool pick_kind(const ir_op *op, wg_kind *k) {
  const ir_type *a = ir_type_scalar(op->operands[0]->type);
  const ir_type *c = ir_type_scalar(op->results[0].type);
  bool f32acc = c->kind == IR_TY_FLOAT && c->width == 32;
  if (a->kind == IR_TY_FLOAT && a->width == 16 && f32acc) {
    *k = (wg_kind){a->is_bf16 ? "f32.bf16.bf16" : "f32.f16.f16", 16, false, true, true, false};
    return true;
  }
  if (a->kind == IR_TY_FLOAT && a->width == 16 && !a->is_bf16 && c == a) {
    *k = (wg_kind){"f16.f16.f16", 16, false, true, true, true};
    return true;
  }
  if (a->kind == IR_TY_FLOAT && a->width == 32 && f32acc) {
    *k = (wg_kind){"f32.tf32.tf32", 8, false, false, true, false};
    return true;
  }
  if (a->kind == IR_TY_INT && a->width == 8 && c->kind == IR_TY_INT && c->width == 32) {
    *k = (wg_kind){"s32.s8.s8", 32, true, false, false, false};
    return true;
  }
  const ir_type *b = ir_type_scalar(op->operands[1]->type);
  if (ir_type_is_fp8(a) && ir_type_is_fp8(b) && f32acc) {
    static const char *const fp8[2][2] = {{"f32.e4m3.e4m3", "f32.e4m3.e5m2"},
                                          {"f32.e5m2.e4m3", "f32.e5m2.e5m2"}};
    *k = (wg_kind){fp8[a->is_e5m2][b->is_e5m2], 32, false, false, true, false};
    return true;
  }
  return false;
}

/* The descriptor bits that do not depend on the tile: swizzle mode, stride
 * and leading byte offsets, for a buffer of `t` (memdesc). */
static uint64_t desc_template(const ir_type *t) {
  const ir_attr *e = t->layout;
  unsigned sw = e->swizzle_bytes;
  int fast = e->transposed ? 0 : 1;
  uint64_t rows = (uint64_t)t->shape[1 - fast];
  uint64_t mode = sw == 128 ? 1 : sw == 64 ? 2 : sw == 32 ? 3 : 0;
  uint64_t sbo = (uint64_t)(sw * 8) >> 4, lbo = ((uint64_t)sw * rows) >> 4;
  return (mode << 62) | ((sbo & 0x3FFF) << 32) | ((lbo & 0x3FFF) << 16);
}

/* Descriptors of one operand buffer: the run-time part (the buffer's
 * address and this warpgroup's offset, usually bits disjoint from the
 * tiles' constant offsets: the layout is linear) is computed once as
 * d0 = template | start address; a tile's descriptor is d0 plus its
 * constant offset >> 4, one add as in Triton (the 14-bit start field cannot
 * carry: shared memory ends below 2^18 bytes). */
typedef struct wg_desc {
  LLVMValueRef d0, base; /* i64 descriptor of this warpgroup's origin; i32 buffer address */
  cg_part dyn;           /* the warpgroup's element offset */
  const ir_type *t;
  const ttg_ll *inv;
} wg_desc;

/* template | ((base + elem_off * bytes) >> 4 & 0x3FFF) */
static LLVMValueRef desc_at(cg *c, const wg_desc *d, LLVMValueRef elem_off) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c->lc);
  LLVMValueRef bytes = LLVMBuildMul(c->b, elem_off, cg_i32(c, ir_type_bytes(d->t->elem)), "");
  LLVMValueRef addr = LLVMBuildAdd(c->b, d->base, bytes, "");
  LLVMValueRef start =
      LLVMBuildAnd(c->b, LLVMBuildLShr(c->b, addr, cg_i32(c, 4), ""), cg_i32(c, 0x3FFF), "");
  return LLVMBuildOr(c->b, LLVMConstInt(i64, desc_template(d->t), 0),
                     LLVMBuildZExt(c->b, start, i64, ""), "");
}

/* The buffer of `t` at `base` as seen by warpgroup w of nw along `dim`,
 * whose tiles start `unit` rows (dim 0) or columns (dim 1) apart: its
 * element offset is the XOR of the layout's offsets for w's set bits. */
static wg_desc desc_init(cg *c, LLVMValueRef base, const ir_type *t, const ttg_ll *inv, int dim,
                         unsigned unit, LLVMValueRef w, unsigned nw) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c->lc);
  wg_desc d = {NULL, NULL, {NULL, 0}, t, inv};
  for (unsigned j = 0; w && (1u << j) < nw; j++) {
    uint32_t in[2] = {0, 0};
    in[dim] = unit << j;
    int32_t o[1];
    ttg_ll_apply(inv, in, o);
    LLVMValueRef bit =
        LLVMBuildAnd(c->b, LLVMBuildLShr(c->b, w, cg_i32(c, j), ""), cg_i32(c, 1), "");
    cg_part term = {LLVMBuildMul(c->b, bit, cg_i32(c, o[0]), ""), o[0]};
    d.dyn = cg_part_xor(c, d.dyn, term);
  }
  d.base = LLVMBuildPtrToInt(c->b, base, i32, "");
  d.d0 = desc_at(c, &d, d.dyn.v ? d.dyn.v : cg_i32(c, 0));
  return d;
}

/* The descriptor of the tile starting at (row, col). */
static LLVMValueRef descriptor(cg *c, const wg_desc *d, int64_t row, int64_t col) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c->lc);
  uint32_t in[2] = {(uint32_t)row, (uint32_t)col};
  int32_t off[1];
  ttg_ll_apply(d->inv, in, off);
  int64_t bytes = (int64_t)off[0] * ir_type_bytes(d->t->elem);
  if (!(off[0] & d->dyn.mask) && bytes % 16 == 0)
    return off[0] ? LLVMBuildAdd(c->b, d->d0, LLVMConstInt(i64, (uint64_t)(bytes >> 4), 0), "")
                  : d->d0;
  return desc_at(c, d, cg_part_xor_const(c, d->dyn, off[0])); /* shared bits: XOR */
}

static bool is_zero_const(const ir_value *v) {
  const ir_op *d = v->def;
  while (d && d->kind == IR_OP_TTG_CONVERT_LAYOUT)
    d = d->operands[0]->def;
  if (!d || d->kind != IR_OP_ARITH_CONSTANT) return false;
  const ir_attr *a = ir_op_get_attr(d, "value");
  if (a && a->kind == IR_ATTR_DENSE) a = a->elem;
  return a && ((a->kind == IR_ATTR_FLOAT && a->f == 0) || (a->kind == IR_ATTR_INT && a->i == 0));
}

/* The accumulator registers as one `{...}` asm operand list: "+f" each. */
static void put(char *buf, size_t cap, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t cap, size_t *n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(buf + *n, cap - *n, fmt, ap);
  va_end(ap);
  if (k > 0) *n += (size_t)k < cap - *n ? (size_t)k : cap - *n - 1;
}

/* `code` as a volatile asm statement with every register of v[0..n) as an
 * in/out operand, replaced by its result: no computation of them moves below
 * it and no use above it. Chunks of 64 keep each statement small; `code`
 * goes into the first or (code_last) the last, the others are empty. */
static void asm_tied(cg *c, const char *code, bool code_last, LLVMValueRef *v, int n) {
  if (n == 0) {
    if (*code) cg_asm(c, LLVMVoidTypeInContext(c->lc), code, "", NULL, 0, true);
    return;
  }
  for (int s0 = 0; s0 < n; s0 += 64) {
    int cnt = n - s0 < 64 ? n - s0 : 64;
    bool here = code_last ? s0 + cnt == n : s0 == 0;
    char cons[1024];
    size_t nc = 0;
    LLVMTypeRef tys[64];
    for (int i = 0; i < cnt; i++)
      tys[i] = LLVMTypeOf(v[s0 + i]);
    for (int i = 0; i < cnt; i++) {
      LLVMTypeKind k = LLVMGetTypeKind(tys[i]);
      put(cons, sizeof cons, &nc, "%s=%c", i ? "," : "",
          k == LLVMFloatTypeKind    ? 'f'
          : k == LLVMDoubleTypeKind ? 'd'
          : k == LLVMHalfTypeKind   ? 'h'
                                    : 'r');
    }
    for (int i = 0; i < cnt; i++)
      put(cons, sizeof cons, &nc, ",%d", i);
    LLVMTypeRef ret = LLVMStructTypeInContext(c->lc, tys, (unsigned)cnt, 0);
    LLVMValueRef res = cg_asm(c, ret, here ? code : "", cons, &v[s0], (unsigned)cnt, true);
    for (int i = 0; i < cnt; i++)
      v[s0 + i] = LLVMBuildExtractValue(c->b, res, (unsigned)i, "");
  }
}

/* d[i] += part[i] for a partial accumulator's registers (d = part when
 * !have_d): its group is committed and waited for first, with the
 * accumulator's registers tied to that wait too (an asynchronous wgmma of
 * the previous iteration may still be writing them). */
static void add_partial(cg *c, LLVMValueRef *part, LLVMValueRef *d, int n, bool have_d) {
  LLVMValueRef *both = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)(2 * n + 1));
  for (int i = 0; i < n; i++) {
    both[i] = part[i];
    both[n + i] = d[i];
  }
  asm_tied(c, "wgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;", false, both,
           have_d ? 2 * n : n);
  for (int i = 0; i < n; i++)
    d[i] = have_d ? LLVMBuildFAdd(c->b, both[n + i], both[i], "") : both[i];
}

bool cg_lower_wgmma(cg *c, ir_op *op) {
  const ir_type *at = op->operands[0]->type, *bt = op->operands[1]->type;
  const ir_type *ct = op->results[0].type;
  const ir_attr *mma = ct->layout;
  wg_kind wk;
  if (!pick_kind(op, &wk) || !mma || mma->kind != IR_ATTR_NVIDIA_MMA || mma->version_major != 3 ||
      !ir_type_is_memdesc(bt) || bt->layout->kind != IR_ATTR_NVMMA_SHARED)
    return cg_unsupported(c, op);
  bool a_shared = ir_type_is_memdesc(at);
  if (a_shared && at->layout->kind != IR_ATTR_NVMMA_SHARED) return cg_unsupported(c, op);
  cg_vals a, b, acc;
  if (!cg_get(c, op, 0, &a) || !cg_get(c, op, 1, &b) || !cg_get(c, op, 2, &acc)) return false;
  unsigned instr_n = mma->instr_shape[1];
  unsigned wm = mma->warps_per_cta[0], wn = mma->warps_per_cta[1];
  int64_t M = ct->shape[0], N = ct->shape[1], K = bt->shape[0];
  int64_t rep_m = M / (16 * wm) > 0 ? M / (16 * wm) : 1;
  int64_t rep_n = N / ((int64_t)instr_n * wn) > 0 ? N / ((int64_t)instr_n * wn) : 1;
  int64_t rep_k = K / wk.k;
  int acc_size = (int)instr_n / 2;
  /* Layouts of the buffers, inverted: (row, col) -> element offset. */
  ttg_ll as, ainv, bs, binv, cl, al;
  int ebits = (int)ir_type_bytes(bt->elem) * 8;
  if (!ttg_ll_of_shared(bt->layout, 2, bt->shape, ebits, &bs) || !ttg_ll_invert(&bs, &binv))
    return cg_unsupported(c, op);
  if (a_shared &&
      (!ttg_ll_of_shared(at->layout, 2, at->shape, ebits, &as) || !ttg_ll_invert(&as, &ainv)))
    return cg_unsupported(c, op);
  if (!a_shared && !cg_ll_of(c, at, op->loc, &al)) return false;
  if (!cg_ll_of(c, ct, op->loc, &cl)) return false;
  /* This warpgroup's first row (of its 64) and first column. */
  LLVMValueRef wg = LLVMBuildLShr(c->b, c->warp, cg_i32(c, 2), "");
  unsigned nwg_m = wm / 4 > 0 ? wm / 4 : 1;
  LLVMValueRef wg_m = LLVMBuildURem(c->b, wg, cg_i32(c, nwg_m), "");
  LLVMValueRef wg_n = wn > 1 ? LLVMBuildURem(c->b, LLVMBuildUDiv(c->b, c->warp, cg_i32(c, wm), ""),
                                             cg_i32(c, wn), "")
                             : NULL;
  /* Accumulator registers by (rep m, rep n, slot). */
  LLVMValueRef *d = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)(acc.n + 1));
  int *dreg = ir_arena_alloc(&c->arena, sizeof(int) * (size_t)(acc.n + 1));
  int64_t tile_m_stride = 16 * (int64_t)wm, tile_n_stride = (int64_t)instr_n * wn;
  for (int64_t j = 0; j < acc.n; j++) {
    int32_t co[2];
    ttg_ll_apply1(&cl, TTG_IN_REG, (uint32_t)j, co);
    int64_t im = co[0] / tile_m_stride, in = co[1] / tile_n_stride;
    int32_t n_in = co[1] % (int32_t)instr_n;
    int64_t slot = (n_in / 8) * 4 + ((co[0] & 8) ? 2 : 0) + (n_in & 1);
    int64_t s = (im * rep_n + in) * acc_size + slot;
    if (s < 0 || s >= acc.n) return cg_unsupported(c, op);
    d[s] = acc.v[j];
    dreg[s] = (int)j;
  }
  bool zero = is_zero_const(op->operands[2]);
  /* useC (tritongpu-optimize-accumulator-init): false makes the first K
   * step's scale-d 0, so D = A x B without reading the accumulator. */
  LLVMValueRef use_c = NULL;
  if (op->noperands > 3 && !zero) {
    cg_vals u;
    if (!cg_get(c, op, 3, &u)) return false;
    use_c = u.v[0];
  }
  /* Triton's needsPartialAccumulator: fp8 operands, an f32 accumulator and
   * max_num_imprecise_acc at most K. */
  int64_t max_imprecise = ir_op_get_int(op, "maxNumImpreciseAcc", (int64_t)1 << 30);
  bool split =
      ir_type_is_fp8(ir_type_scalar(bt)) && !wk.f16_acc && !wk.is_int && max_imprecise <= K;
  if (split && use_c) return cg_unsupported(c, op); /* the pass leaves these alone */
  LLVMTypeRef cty = cg_type(c, ct), i32 = LLVMInt32TypeInContext(c->lc);
  LLVMTypeRef void_ty = LLVMVoidTypeInContext(c->lc);
  /* The registers of one wgmma's D: f32/s32 accumulators one each, f16
   * ones two to a 32-bit register (the columns n and n + 1 of slots 2i and
   * 2i + 1), kept packed across the K steps. */
  int nregs = wk.f16_acc ? acc_size / 2 : acc_size;
  LLVMTypeRef rty = wk.f16_acc ? i32 : cty;
  LLVMTypeRef *ftys = ir_arena_alloc(&c->arena, sizeof(LLVMTypeRef) * (size_t)(nregs + 1));
  for (int i = 0; i < nregs; i++)
    ftys[i] = rty;
  LLVMTypeRef ret = LLVMStructTypeInContext(c->lc, ftys, (unsigned)nregs, 0);
  char code[4096], cons[2048];
  size_t n = 0, nc = 0;
  int pd = nregs + (a_shared ? 2 : 5); /* scale-d: an i1 operand in a predicate register */
  put(code, sizeof code, &n, "wgmma.mma_async.sync.aligned.m64n%uk%d.%s {", instr_n, wk.k,
      wk.types);
  for (int i = 0; i < nregs; i++)
    put(code, sizeof code, &n, "%s$%d", i ? ", " : "", i);
  if (a_shared)
    put(code, sizeof code, &n, "}, $%d, $%d, $%d", nregs, nregs + 1, pd);
  else
    put(code, sizeof code, &n, "}, {$%d, $%d, $%d, $%d}, $%d, $%d", nregs, nregs + 1, nregs + 2,
        nregs + 3, nregs + 4, pd);
  bool trans_a = a_shared && at->layout->transposed, trans_b = !bt->layout->transposed;
  if (wk.scaled) put(code, sizeof code, &n, ", 1, 1");
  if (wk.transposable) {
    if (a_shared) put(code, sizeof code, &n, ", %d", trans_a ? 1 : 0);
    put(code, sizeof code, &n, ", %d", trans_b ? 1 : 0);
  } else if ((a_shared && trans_a) || trans_b) {
    ir_error(c->ictx, op->loc,
             "unsupported in codegen: this wgmma element type needs both "
             "operands K-major in shared memory");
    return false;
  }
  put(code, sizeof code, &n, ";");
  /* Constraints: D's registers as outputs, then A (descriptor or four
   * words), B's descriptor and scale-d. A K step that accumulates ties its
   * outputs to trailing inputs; the first K step of a zero accumulator
   * (scale-d 0) only writes D, so no zeros are moved in (cons0). With A in
   * registers those outputs are early-clobber: the asynchronous wgmma still
   * reads A after it has started writing D. */
  char cons0[2048];
  size_t nc0 = 0;
  const char *ins = a_shared ? ",l,l,b" : ",r,r,r,r,l,b";
  char rc = wk.is_int || wk.f16_acc ? 'r' : 'f';
  for (int i = 0; i < nregs; i++) {
    put(cons, sizeof cons, &nc, "%s=%c", i ? "," : "", rc);
    put(cons0, sizeof cons0, &nc0, "%s=%s%c", i ? "," : "", a_shared ? "" : "&", rc);
  }
  put(cons, sizeof cons, &nc, "%s", ins);
  put(cons0, sizeof cons0, &nc0, "%s", ins);
  for (int i = 0; i < nregs; i++)
    put(cons, sizeof cons, &nc, ",%d", i);
  LLVMValueRef *args = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)(acc_size + 8));
  /* A in registers: every tile's four words, packed before the fence and
   * tied to it (wgmma must not read registers written after it). */
  LLVMValueRef *awords = NULL;
  if (!a_shared) {
    awords = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)(rep_m * rep_k * 4 + 1));
    LLVMValueRef *elems =
        ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)(rep_m * rep_k * 16 + 1));
    int kw = (int)at->layout->k_width;
    for (int64_t j = 0; j < a.n; j++) {
      int32_t co[2];
      ttg_ll_apply1(&al, TTG_IN_REG, (uint32_t)j, co);
      int64_t im = co[0] / tile_m_stride, ik = co[1] / wk.k;
      if (im >= rep_m || ik >= rep_k || kw > 4) return cg_unsupported(c, op);
      int w = ((co[0] & 8) ? 1 : 0) + ((co[1] & (wk.k / 2)) ? 2 : 0);
      elems[((im * rep_k + ik) * 4 + w) * 4 + co[1] % kw] = a.v[j];
    }
    for (int64_t t = 0; t < rep_m * rep_k * 4; t++) {
      LLVMValueRef *el = &elems[t * 4];
      if (!el[0]) return cg_unsupported(c, op);
      LLVMValueRef word;
      if (kw == 1) {
        word = LLVMBuildBitCast(c->b, el[0], i32, "");
      } else {
        LLVMValueRef v = LLVMGetUndef(LLVMVectorType(LLVMTypeOf(el[0]), (unsigned)kw));
        for (int k = 0; k < kw; k++)
          v = LLVMBuildInsertElement(c->b, v, el[k], cg_i32(c, k), "");
        word = LLVMBuildBitCast(c->b, v, i32, "");
      }
      awords[t] = word;
    }
  }
  wg_desc ad = {0}, bd = desc_init(c, b.v[0], bt, &binv, 1, instr_n, wg_n, wg_n ? wn : 1);
  if (a_shared) ad = desc_init(c, a.v[0], at, &ainv, 0, 64, wg_m, nwg_m);
  asm_tied(c, "wgmma.fence.sync.aligned;", true, awords, awords ? (int)(rep_m * rep_k * 4) : 0);
  LLVMValueRef zero_acc = wk.is_int ? LLVMConstInt(cty, 0, 0) : LLVMConstReal(cty, 0.0);
  for (int64_t im = 0; im < rep_m; im++) {
    for (int64_t in = 0; in < rep_n; in++) {
      LLVMValueRef *dd = &d[(im * rep_n + in) * acc_size];
      if (zero)
        for (int i = 0; i < acc_size; i++)
          dd[i] = zero_acc;
      /* D's registers: the accumulators themselves, or their own array when
       * they are packed (f16) or a partial accumulator (split). */
      LLVMValueRef *regs =
          wk.f16_acc || split
              ? ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)(nregs + 1))
              : dd;
      if (wk.f16_acc) {
        for (int i = 0; !zero && i < nregs; i++) {
          LLVMValueRef v = LLVMGetUndef(LLVMVectorType(cty, 2));
          v = LLVMBuildInsertElement(c->b, v, dd[2 * i], cg_i32(c, 0), "");
          v = LLVMBuildInsertElement(c->b, v, dd[2 * i + 1], cg_i32(c, 1), "");
          regs[i] = LLVMBuildBitCast(c->b, v, i32, "");
        }
      }
      /* Split accumulation: the K steps accumulate in a zeroed partial D
       * for at most max_imprecise elements of K, then that is waited for
       * and added to the accumulator in f32. */
      bool have_d = !zero;
      int64_t low = 0;
      for (int64_t ik = 0; ik < rep_k; ik++) {
        unsigned na = 0;
        /* Operand lists: "=f"... outputs are tied to the trailing inputs. */
        if (a_shared) {
          args[na++] = descriptor(c, &ad, im * tile_m_stride, ik * wk.k);
        } else {
          for (int w = 0; w < 4; w++)
            args[na++] = awords[(im * rep_k + ik) * 4 + w];
        }
        args[na++] = descriptor(c, &bd, ik * wk.k, in * tile_n_stride);
        bool first = split ? low == 0 : zero && ik == 0;
        args[na++] =
            use_c && ik == 0 ? use_c : LLVMConstInt(LLVMInt1TypeInContext(c->lc), first ? 0 : 1, 0);
        for (int i = 0; !first && i < nregs; i++)
          args[na++] = regs[i];
        LLVMValueRef res = cg_asm(c, ret, code, first ? cons0 : cons, args, na, true);
        for (int i = 0; i < nregs; i++)
          regs[i] = LLVMBuildExtractValue(c->b, res, (unsigned)i, "");
        low += wk.k;
        if (split && (low >= max_imprecise || ik == rep_k - 1)) {
          add_partial(c, regs, dd, nregs, have_d);
          have_d = true;
          low = 0;
        }
      }
      for (int i = 0; wk.f16_acc && i < nregs; i++) {
        LLVMValueRef v = LLVMBuildBitCast(c->b, regs[i], LLVMVectorType(cty, 2), "");
        dd[2 * i] = LLVMBuildExtractElement(c->b, v, cg_i32(c, 0), "");
        dd[2 * i + 1] = LLVMBuildExtractElement(c->b, v, cg_i32(c, 1), "");
      }
    }
  }
  cg_asm(c, void_ty, "wgmma.commit_group.sync.aligned;", "", NULL, 0, true);
  cg_vals r = cg_vals_new(c, acc.n);
  for (int64_t s = 0; s < acc.n; s++)
    r.v[dreg[s]] = d[s];
  const ir_attr *is_async = ir_op_get_attr(op, "isAsync");
  if (!is_async || !is_async->i) {
    /* Synchronous: wait for this group, the accumulators tied to the wait. */
    cg_vals w = cg_vals_new(c, acc.n);
    for (int64_t s = 0; s < acc.n; s++)
      w.v[s] = r.v[s];
    cg_map_set(c, &op->results[0], w);
    return cg_wgmma_wait_vals(c, 0, &op->results[0]);
  }
  cg_map_set(c, &op->results[0], r);
  return true;
}

/* Whether v is `extractelement (bitcast <2 x half> W), lane` of a 32-bit
 * word W: an f16 accumulator as the wgmma left it, two to a register. */
static bool packed_half(LLVMValueRef v, LLVMValueRef *word, unsigned *lane) {
  if (!LLVMIsAExtractElementInst(v)) return false;
  LLVMValueRef vec = LLVMGetOperand(v, 0), idx = LLVMGetOperand(v, 1);
  if (!LLVMIsABitCastInst(vec) || !LLVMIsAConstantInt(idx)) return false;
  LLVMValueRef w = LLVMGetOperand(vec, 0);
  if (LLVMGetTypeKind(LLVMTypeOf(w)) != LLVMIntegerTypeKind) return false;
  *word = w;
  *lane = (unsigned)LLVMConstIntGetZExtValue(idx);
  return true;
}

bool cg_wgmma_wait_vals(cg *c, int pendings, const ir_value *v) {
  cg_vals x = cg_map_get(c, v);
  if (!x.v) return false;
  char code[64] = "";
  if (pendings >= 0) snprintf(code, sizeof code, "wgmma.wait_group.sync.aligned %d;", pendings);
  /* Packed f16 accumulators: their 32-bit words, not the halves, are tied
   * to the wait (the halves' extraction reads the wgmma's registers, which
   * must wait for it), and the halves are taken again from the tied words. */
  LLVMValueRef *tie = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)(x.n + 1));
  int *from = ir_arena_alloc(&c->arena, sizeof(int) * (size_t)(x.n + 1));
  unsigned *lane = ir_arena_alloc(&c->arena, sizeof(unsigned) * (size_t)(x.n + 1));
  int nt = 0;
  for (int i = 0; i < x.n; i++) {
    LLVMValueRef w = x.v[i];
    if (!packed_half(x.v[i], &w, &lane[i])) lane[i] = ~0u;
    int j = nt - 1;
    while (j >= 0 && tie[j] != w)
      j--;
    if (j < 0) tie[j = nt++] = w;
    from[i] = j;
  }
  asm_tied(c, code, false, tie, nt);
  for (int i = 0; i < x.n; i++) {
    LLVMValueRef t = tie[from[i]];
    if (lane[i] != ~0u)
      t = LLVMBuildExtractElement(
          c->b, LLVMBuildBitCast(c->b, t, LLVMVectorType(LLVMTypeOf(x.v[i]), 2), ""),
          cg_i32(c, lane[i]), "");
    x.v[i] = t;
  }
  return true;
}

bool cg_lower_wgmma_wait(cg *c, ir_op *op) {
  int pendings = (int)ir_op_get_int(op, "pendings", 0);
  for (int i = 0; i < op->noperands; i++) {
    cg_vals v;
    if (!cg_get(c, op, i, &v)) return false;
    cg_vals r = cg_vals_new(c, v.n);
    for (int j = 0; j < v.n; j++)
      r.v[j] = v.v[j];
    cg_map_set(c, &op->results[i], r);
  }
  /* One wait; the tensor results tied to it. */
  bool waited = false;
  for (int i = 0; i < op->nresults; i++) {
    if (!ir_type_is_tensor(op->results[i].type)) continue;
    if (!cg_wgmma_wait_vals(c, waited ? -1 : pendings, &op->results[i])) return false;
    waited = true;
  }
  if (!waited) {
    char code[64];
    snprintf(code, sizeof code, "wgmma.wait_group.sync.aligned %d;", pendings);
    cg_asm(c, LLVMVoidTypeInContext(c->lc), code, "", NULL, 0, true);
  }
  return true;
}
