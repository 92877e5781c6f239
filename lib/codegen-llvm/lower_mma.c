// SPDX-License-Identifier: MIT
/* lower_mma.c - tt.dot with an nvidia_mma v2 result: mma.sync.aligned
 * m16n8k16 (f16, bf16; an f16 accumulator as two f16x2 words per tile),
 * m16n8k8 (tf32) and m16n8k32 (int8). The operands are
 * in the dot_op layouts of the accumulator's mma, so each thread already
 * holds the fragments the PTX ISA assigns it; the linear layouts say which
 * of its registers sit in which 16x8 (or 16xK, Kx8) tile and which slot of
 * the fragment they fill:
 *   A (m, k): word ((m & 8) != 0) + 2 * ((k & KT/2) != 0), element k % kWidth
 *   B (k, n): word ((k & KT/2) != 0), element k % kWidth
 *   C (m, n): slot 2 * ((m & 8) != 0) + (n & 1)
 * where KT is the instruction's K and kWidth the elements per 32-bit word.
 * The register part of a coordinate (lane and warp parts left out) names
 * the tile, since lanes and warps move within and between tiles in steps
 * the tiles are aligned to. */
#include <stdio.h>

#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

enum { MAX_TILES = 4096 };

/* Index of value v in a small sorted-unique list. */
static int tile_index(const int32_t *list, int n, int32_t v) {
  for (int i = 0; i < n; i++)
    if (list[i] == v) return i;
  return -1;
}

static void add_unique(int32_t *list, int *n, int32_t v) {
  if (tile_index(list, *n, v) >= 0) return;
  int i = (*n)++;
  while (i > 0 && list[i - 1] > v) {
    list[i] = list[i - 1];
    i--;
  }
  list[i] = v;
}

typedef struct mma_kind {
  const char *shape, *types; /* "m16n8k16", "f32.f16.f16.f32" */
  int kt, kwidth;            /* instruction K, elements per 32-bit word */
  int awords, bwords;
  bool is_int;
  bool f16_acc; /* C and D are two f16x2 words, rows m and m + 8 */
} mma_kind;

static bool pick_kind(const ir_type *a, const ir_type *c, const ir_op *op, mma_kind *k) {
  a = ir_type_scalar(a);
  c = ir_type_scalar(c);
  const ir_type *b = ir_type_scalar(op->operands[1]->type);
  if (ir_type_is_fp8(a) && ir_type_is_fp8(b) && c->kind == IR_TY_FLOAT && c->width == 32) {
    static const char *const fp8[2][2] = {{"f32.e4m3.e4m3.f32", "f32.e4m3.e5m2.f32"},
                                          {"f32.e5m2.e4m3.f32", "f32.e5m2.e5m2.f32"}};
    *k = (mma_kind){"m16n8k32", fp8[a->is_e5m2][b->is_e5m2], 32, 4, 4, 2, false, false};
    return true;
  }
  if (a->kind == IR_TY_FLOAT && a->width == 16 && c->kind == IR_TY_FLOAT && c->width == 32) {
    *k = (mma_kind){
        "m16n8k16", a->is_bf16 ? "f32.bf16.bf16.f32" : "f32.f16.f16.f32", 16, 2, 4, 2, false,
        false};
    return true;
  }
  if (a->kind == IR_TY_FLOAT && a->width == 16 && !a->is_bf16 && c == a) {
    *k = (mma_kind){"m16n8k16", "f16.f16.f16.f16", 16, 2, 4, 2, false, true};
    return true;
  }
  if (a->kind == IR_TY_FLOAT && a->width == 32 && c->kind == IR_TY_FLOAT && c->width == 32) {
    *k = (mma_kind){"m16n8k8", "f32.tf32.tf32.f32", 8, 1, 4, 2, false, false};
    return true;
  }
  if (a->kind == IR_TY_INT && a->width == 8 && c->kind == IR_TY_INT && c->width == 32) {
    *k = (mma_kind){"m16n8k32", "s32.s8.s8.s32", 32, 4, 4, 2, true, false};
    return true;
  }
  return false;
}

/* Packs `kwidth` elements into an i32 word (a tf32 word is its f32 bits). */
static LLVMValueRef pack_word(cg *c, LLVMValueRef *elems, int kwidth) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c->lc);
  if (kwidth == 1) return LLVMBuildBitCast(c->b, elems[0], i32, "");
  LLVMTypeRef vty = LLVMVectorType(LLVMTypeOf(elems[0]), (unsigned)kwidth);
  LLVMValueRef v = LLVMGetUndef(vty);
  for (int i = 0; i < kwidth; i++)
    v = LLVMBuildInsertElement(c->b, v, elems[i], cg_i32(c, i), "");
  return LLVMBuildBitCast(c->b, v, i32, "");
}

bool cg_lower_mma(cg *c, ir_op *op) {
  const ir_type *at = op->operands[0]->type, *bt = op->operands[1]->type;
  const ir_type *ct = op->results[0].type;
  mma_kind mk;
  if (!pick_kind(at, ct, op, &mk)) return cg_unsupported(c, op);
  cg_vals a, b, acc;
  if (!cg_get(c, op, 0, &a) || !cg_get(c, op, 1, &b) || !cg_get(c, op, 2, &acc)) return false;
  ttg_ll al, bl, cl;
  if (!cg_ll_of(c, at, op->loc, &al) || !cg_ll_of(c, bt, op->loc, &bl) ||
      !cg_ll_of(c, ct, op->loc, &cl))
    return false;
  int32_t tm[MAX_TILES], tn[MAX_TILES], tk[MAX_TILES];
  int nm = 0, nn = 0, nk = 0;
  int32_t half = mk.kt / 2;
  /* Tiles of the accumulator and of A's K. */
  for (int64_t j = 0; j < acc.n; j++) {
    int32_t co[2];
    ttg_ll_apply1(&cl, TTG_IN_REG, (uint32_t)j, co);
    if (nm == MAX_TILES || nn == MAX_TILES) return cg_unsupported(c, op);
    add_unique(tm, &nm, co[0] & ~15);
    add_unique(tn, &nn, co[1] & ~7);
  }
  for (int64_t j = 0; j < a.n; j++) {
    int32_t co[2];
    ttg_ll_apply1(&al, TTG_IN_REG, (uint32_t)j, co);
    if (nk == MAX_TILES) return cg_unsupported(c, op);
    add_unique(tk, &nk, co[1] & ~(mk.kt - 1));
  }
  /* Fragment words: A[m][k][4], B[k][n][2] (elements first), C[m][n][4]. */
  size_t na = (size_t)nm * (size_t)nk * 4 * (size_t)mk.kwidth;
  size_t nb = (size_t)nk * (size_t)nn * 2 * (size_t)mk.kwidth;
  LLVMValueRef *ae = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (na + 1));
  LLVMValueRef *be = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (nb + 1));
  LLVMValueRef *ce = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * ((size_t)nm * nn * 4 + 1));
  int *creg = ir_arena_alloc(&c->arena, sizeof(int) * ((size_t)nm * nn * 4 + 1));
  for (int64_t j = 0; j < a.n; j++) {
    int32_t co[2];
    ttg_ll_apply1(&al, TTG_IN_REG, (uint32_t)j, co);
    int im = tile_index(tm, nm, co[0] & ~15), ik = tile_index(tk, nk, co[1] & ~(mk.kt - 1));
    if (im < 0 || ik < 0) continue; /* rows no accumulator tile uses */
    int w = ((co[0] & 8) ? 1 : 0) + ((co[1] & half) ? 2 : 0);
    ae[(((size_t)im * nk + ik) * 4 + w) * mk.kwidth + (co[1] % mk.kwidth)] = a.v[j];
  }
  for (int64_t j = 0; j < b.n; j++) {
    int32_t co[2];
    ttg_ll_apply1(&bl, TTG_IN_REG, (uint32_t)j, co);
    int ik = tile_index(tk, nk, co[0] & ~(mk.kt - 1)), in = tile_index(tn, nn, co[1] & ~7);
    if (ik < 0 || in < 0) continue;
    int w = (co[0] & half) ? 1 : 0;
    be[(((size_t)ik * nn + in) * 2 + w) * mk.kwidth + (co[0] % mk.kwidth)] = b.v[j];
  }
  for (int64_t j = 0; j < acc.n; j++) {
    int32_t co[2];
    ttg_ll_apply1(&cl, TTG_IN_REG, (uint32_t)j, co);
    size_t s = ((size_t)tile_index(tm, nm, co[0] & ~15) * nn + tile_index(tn, nn, co[1] & ~7)) * 4 +
               ((co[0] & 8) ? 2 : 0) + (co[1] & 1);
    ce[s] = acc.v[j];
    creg[s] = (int)j;
  }
  char code[256];
  if (mk.f16_acc)
    snprintf(code, sizeof code,
             "mma.sync.aligned.%s.row.col.%s {$0, $1}, {$2, $3, $4, $5}, {$6, $7}, {$8, $9};",
             mk.shape, mk.types);
  else
    snprintf(code, sizeof code,
             "mma.sync.aligned.%s.row.col.%s {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, "
             "{$10, $11, $12, $13};",
             mk.shape, mk.types);
  const char *cons = mk.f16_acc  ? "=r,=r,r,r,r,r,r,r,0,1"
                     : mk.is_int ? "=r,=r,=r,=r,r,r,r,r,r,r,0,1,2,3"
                                 : "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3";
  int nd = mk.f16_acc ? 2 : 4; /* D registers per instruction */
  LLVMTypeRef cty = mk.f16_acc ? LLVMInt32TypeInContext(c->lc) : cg_type(c, ct);
  LLVMTypeRef f4[4] = {cty, cty, cty, cty};
  LLVMTypeRef ret = LLVMStructTypeInContext(c->lc, f4, (unsigned)nd, 0);
  /* tf32 operands are f32 words: the tensor cores ignore the low 13
   * mantissa bits (truncation), as in Triton's lowering. */
  /* Packed operand words, built once. */
  LLVMValueRef *aw = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * ((size_t)nm * nk * 4 + 1));
  LLVMValueRef *bw = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * ((size_t)nk * nn * 2 + 1));
  for (size_t w = 0; w < (size_t)nm * nk * 4; w++) {
    LLVMValueRef *el = &ae[w * mk.kwidth];
    if (!el[0]) return cg_unsupported(c, op);
    aw[w] = pack_word(c, el, mk.kwidth);
  }
  for (size_t w = 0; w < (size_t)nk * nn * 2; w++) {
    LLVMValueRef *el = &be[w * mk.kwidth];
    if (!el[0]) return cg_unsupported(c, op);
    bw[w] = pack_word(c, el, mk.kwidth);
  }
  cg_vals r = cg_vals_new(c, acc.n);
  for (int im = 0; im < nm; im++) {
    for (int in = 0; in < nn; in++) {
      LLVMValueRef *d = &ce[((size_t)im * nn + in) * 4];
      LLVMValueRef dw[4] = {d[0], d[1], d[2], d[3]};
      if (mk.f16_acc) /* slots (0, 1) and (2, 3) as f16x2 words */
        for (int i = 0; i < 2; i++)
          dw[i] = pack_word(c, &d[2 * i], 2);
      for (int ik = 0; ik < nk; ik++) {
        LLVMValueRef args[10];
        for (int i = 0; i < 4; i++)
          args[i] = aw[((size_t)im * nk + ik) * 4 + i];
        for (int i = 0; i < 2; i++)
          args[4 + i] = bw[((size_t)ik * nn + in) * 2 + i];
        for (int i = 0; i < nd; i++)
          args[6 + i] = dw[i];
        LLVMValueRef res = cg_asm(c, ret, code, cons, args, (unsigned)(6 + nd), false);
        for (int i = 0; i < nd; i++)
          dw[i] = LLVMBuildExtractValue(c->b, res, (unsigned)i, "");
      }
      if (mk.f16_acc) {
        LLVMTypeRef v2 = LLVMVectorType(cg_type(c, ct), 2);
        for (int i = 0; i < 4; i++)
          d[i] = LLVMBuildExtractElement(c->b, LLVMBuildBitCast(c->b, dw[i / 2], v2, ""),
                                         cg_i32(c, i % 2), "");
      } else {
        for (int i = 0; i < 4; i++)
          d[i] = dw[i];
      }
      for (int i = 0; i < 4; i++)
        r.v[creg[((size_t)im * nn + in) * 4 + i]] = d[i];
    }
  }
  cg_map_set(c, &op->results[0], r);
  return true;
}
