// SPDX-License-Identifier: MIT
/* shared.c - shared memory in codegen: the kernel's one dynamic buffer
 * (global_smem, sized at launch from ttg.shared), the offsets
 * allocate-shared-memory gave each op, and moving a distributed tensor to
 * and from a buffer laid out by a shared encoding. Both directions compose
 * the register layout with the inverse of the buffer's layout, which maps a
 * thread's registers to element offsets (a constant per register XOR a lane
 * and warp term); registers that land on consecutive, aligned offsets move
 * as one vector access. */
#include <stdio.h>

#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

LLVMValueRef cg_shared_base(cg *c) {
  if (!c->smem) {
    /* Dynamic shared memory: its size comes with the launch. */
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c->lc);
    c->smem = LLVMAddGlobalInAddressSpace(c->mod, LLVMArrayType2(i8, 0), "global_smem", 3);
    LLVMSetLinkage(c->smem, LLVMExternalLinkage);
    LLVMSetAlignment(c->smem, 16);
  }
  return c->smem;
}

LLVMValueRef cg_shared_at(cg *c, LLVMValueRef byte_offset) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(c->lc);
  return LLVMBuildGEP2(c->b, i8, cg_shared_base(c), &byte_offset, 1, "");
}

LLVMValueRef cg_scratch(cg *c, const ir_op *op) {
  const ir_attr *off = ir_op_get_attr(op, "allocation.offset");
  if (!off) {
    /* reachable from IR input whose pass list allocates before a pass that
     * adds buffers (tritongpu-pipeline after allocate-shared-memory) */
    ir_error(c->ictx, op->loc,
             "'%s' needs shared memory but has no allocation: run allocate-shared-memory "
             "after every pass that adds shared buffers",
             ir_op_name(op));
    c->failed = true;
    off = ir_attr_int(c->ictx, ir_type_i32(c->ictx), 0);
  }
  return cg_shared_at(c, cg_i32(c, off->i));
}

/* i1 lives in shared memory as a byte. */
static LLVMTypeRef mem_type(cg *c, const ir_type *elem, bool *is_bool) {
  *is_bool = elem->kind == IR_TY_INT && elem->width == 1;
  return *is_bool ? LLVMInt8TypeInContext(c->lc) : cg_type(c, elem);
}

bool cg_shared_store(cg *c, LLVMValueRef base, const ir_type *t, const ttg_ll *map, cg_vals v) {
  const ir_type *et = ir_type_scalar(t);
  bool is_bool;
  LLVMTypeRef mty = mem_type(c, et, &is_bool);
  unsigned eb = ir_type_bytes(et);
  int vec = ttg_ll_vector_regs(map, eb);
  cg_part part = cg_thread_part(c, map, 0);
  LLVMTypeRef vty = vec > 1 ? LLVMVectorType(mty, (unsigned)vec) : mty;
  for (int j0 = 0; j0 < v.n; j0 += vec) {
    int32_t co[1];
    ttg_ll_apply1(map, TTG_IN_REG, (uint32_t)j0, co);
    LLVMValueRef off = cg_part_xor_const(c, part, co[0]);
    LLVMValueRef p = LLVMBuildGEP2(c->b, mty, base, &off, 1, "");
    LLVMValueRef x;
    if (vec == 1) {
      x = is_bool ? LLVMBuildZExt(c->b, v.v[j0], mty, "") : v.v[j0];
    } else {
      x = LLVMGetUndef(vty);
      for (int k = 0; k < vec; k++) {
        LLVMValueRef e = is_bool ? LLVMBuildZExt(c->b, v.v[j0 + k], mty, "") : v.v[j0 + k];
        x = LLVMBuildInsertElement(c->b, x, e, cg_i32(c, k), "");
      }
    }
    LLVMValueRef st = LLVMBuildStore(c->b, x, p);
    LLVMSetAlignment(st, eb * (unsigned)vec);
  }
  return true;
}

cg_vals cg_shared_load(cg *c, LLVMValueRef base, const ir_type *t, const ttg_ll *map) {
  const ir_type *et = ir_type_scalar(t);
  bool is_bool;
  LLVMTypeRef mty = mem_type(c, et, &is_bool);
  unsigned eb = ir_type_bytes(et);
  int vec = ttg_ll_vector_regs(map, eb);
  int64_t n = ttg_ll_num_regs(map);
  cg_vals r = cg_vals_new(c, (int)n);
  cg_part part = cg_thread_part(c, map, 0);
  LLVMTypeRef vty = vec > 1 ? LLVMVectorType(mty, (unsigned)vec) : mty;
  for (int64_t j0 = 0; j0 < n; j0 += vec) {
    int32_t co[1];
    ttg_ll_apply1(map, TTG_IN_REG, (uint32_t)j0, co);
    LLVMValueRef off = cg_part_xor_const(c, part, co[0]);
    LLVMValueRef p = LLVMBuildGEP2(c->b, mty, base, &off, 1, "");
    LLVMValueRef x = LLVMBuildLoad2(c->b, vty, p, "");
    LLVMSetAlignment(x, eb * (unsigned)vec);
    for (int k = 0; k < vec; k++) {
      LLVMValueRef e = vec == 1 ? x : LLVMBuildExtractElement(c->b, x, cg_i32(c, k), "");
      r.v[j0 + k] = is_bool ? LLVMBuildTrunc(c->b, e, LLVMInt1TypeInContext(c->lc), "") : e;
    }
  }
  return r;
}

/* ---- ldmatrix ------------------------------------------------------------- */

/* An auxiliary map from the lane to the offset of the row it addresses:
 * lane bit i takes basis `pick[i]` (an input and bit of map). */
static ttg_ll row_address_map(const ttg_ll *map, const int pick[5][2]) {
  ttg_ll a;
  int32_t size = map->out_size[0];
  ttg_ll_init(&a, 3, 1, &size);
  a.nbits[TTG_IN_LANE] = 5;
  for (int i = 0; i < 5; i++)
    a.basis[TTG_IN_LANE][i][0] = map->basis[pick[i][0]][pick[i][1]][0];
  a.nbits[TTG_IN_WARP] = map->nbits[TTG_IN_WARP];
  for (int b = 0; b < map->nbits[TTG_IN_WARP]; b++)
    a.basis[TTG_IN_WARP][b][0] = map->basis[TTG_IN_WARP][b][0];
  return a;
}

/* Whether map's bases `which` (input, bit) are the offsets 1, 2, 4, ... in
 * elements of `unit` (so they walk one contiguous 16-byte row). */
static bool steps(const ttg_ll *map, const int (*which)[2], int n, int32_t unit) {
  for (int i = 0; i < n; i++) {
    if (which[i][1] >= map->nbits[which[i][0]]) return false;
    if (map->basis[which[i][0]][which[i][1]][0] != unit << i) return false;
  }
  return true;
}

/* Every basis other than those listed leaves the low `mask` bits alone. */
static bool row_aligned(const ttg_ll *map, const int (*skip)[2], int nskip, int32_t mask) {
  for (int in = 0; in < map->nin; in++)
    for (int b = 0; b < map->nbits[in]; b++) {
      bool skipped = false;
      for (int i = 0; i < nskip; i++)
        skipped = skipped || (skip[i][0] == in && skip[i][1] == b);
      if (!skipped && (map->basis[in][b][0] & mask)) return false;
    }
  return true;
}

/* Whether map (registers -> offsets of 16-bit or narrower elements) has
 * the structure of 8x8 matrices ldmatrix and stmatrix move, four at a
 * time; fills pick (the map bases that address each lane's row), *trans
 * and the elements per 32-bit word (*e, log2 in *le). */
static bool matrix_shape(const ttg_ll *map, const ir_type *et, int pick[5][2], bool *trans, int *e,
                         int *le) {
  unsigned eb = ir_type_bytes(et);
  int64_t n = ttg_ll_num_regs(map);
  if (eb > 4 || et->kind == IR_TY_PTR || (et->kind == IR_TY_INT && et->width == 1)) return false;
  *e = (int)(4 / eb), *le = *e == 1 ? 0 : *e == 2 ? 1 : 2; /* elements per 32-bit word */
  if (map->nbits[TTG_IN_LANE] != 5 || n < 4 * *e) return false;
  *trans = false;
  /* Plain: a word's elements, then lane bits 0 and 1, walk a 16-byte row;
   * lane bits 2..4 pick the row; register bits le, le+1 the matrix. */
  int walk[4][2], nw = 0;
  for (int i = 0; i < *le; i++)
    walk[nw][0] = TTG_IN_REG, walk[nw][1] = i, nw++;
  walk[nw][0] = TTG_IN_LANE, walk[nw][1] = 0, nw++;
  walk[nw][0] = TTG_IN_LANE, walk[nw][1] = 1, nw++;
  int32_t row_mask = (int32_t)(16 / eb) - 1;
  if (steps(map, (const int(*)[2])walk, nw, 1) &&
      row_aligned(map, (const int(*)[2])walk, nw, row_mask)) {
    int p[5][2] = {{TTG_IN_LANE, 2},
                   {TTG_IN_LANE, 3},
                   {TTG_IN_LANE, 4},
                   {TTG_IN_REG, *le},
                   {TTG_IN_REG, *le + 1}};
    for (int i = 0; i < 5; i++)
      pick[i][0] = p[i][0], pick[i][1] = p[i][1];
  } else if (eb == 2) {
    /* Transposed: lane bits 2..4 walk the row (8 halves), register bit 0
     * and lane bits 0, 1 pick the row, register bits 1, 2 the matrix. */
    int twalk[3][2] = {{TTG_IN_LANE, 2}, {TTG_IN_LANE, 3}, {TTG_IN_LANE, 4}};
    if (!steps(map, (const int(*)[2])twalk, 3, 1) ||
        !row_aligned(map, (const int(*)[2])twalk, 3, row_mask))
      return false;
    int p[5][2] = {
        {TTG_IN_REG, 0}, {TTG_IN_LANE, 0}, {TTG_IN_LANE, 1}, {TTG_IN_REG, 1}, {TTG_IN_REG, 2}};
    for (int i = 0; i < 5; i++)
      pick[i][0] = p[i][0], pick[i][1] = p[i][1];
    *trans = true;
  } else {
    return false;
  }
  for (int i = 0; i < 5; i++)
    if (pick[i][1] >= map->nbits[pick[i][0]]) return false;
  return true;
}

/* Register j of word w, element k of a matrix group starting at g. */
static int64_t matrix_reg(int64_t g, int w, int k, bool trans, int le) {
  return trans ? g + ((int64_t)w << 1) + k : g + ((int64_t)w << le) + k;
}

/* The address operand of an ldmatrix or stmatrix: register `reg` plus the
 * bytes of the offset that the thread's own bits leave alone, which ptxas
 * folds into the instruction (one register serves every matrix group whose
 * offsets differ only there). */
static void matrix_address(char *buf, size_t size, const char *reg, int32_t imm) {
  if (imm)
    snprintf(buf, size, "[%s+%d]", reg, (int)imm);
  else
    snprintf(buf, size, "[%s]", reg);
}

bool cg_stmatrix(cg *c, LLVMValueRef base, const ir_type *t, const ttg_ll *map, cg_vals v) {
  const ir_type *et = ir_type_scalar(t);
  int pick[5][2], e, le;
  bool trans;
  if (ir_type_bytes(et) != 2 || !matrix_shape(map, et, pick, &trans, &e, &le)) return false;
  int64_t n = ttg_ll_num_regs(map);
  if (v.n != n) return false;
  ttg_ll amap = row_address_map(map, pick);
  cg_part part = cg_thread_part(c, &amap, 0);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(c->lc), i32 = LLVMInt32TypeInContext(c->lc);
  LLVMTypeRef vty = LLVMVectorType(cg_type(c, et), 2);
  for (int64_t g = 0; g < n; g += 8) {
    int32_t co[1], rest;
    ttg_ll_apply1(map, TTG_IN_REG, (uint32_t)g, co);
    LLVMValueRef off =
        LLVMBuildMul(c->b, cg_part_xor_split(c, part, co[0], &rest), cg_i32(c, 2), "");
    LLVMValueRef args[5] = {LLVMBuildGEP2(c->b, i8, base, &off, 1, "")};
    char code[96], at[16];
    matrix_address(at, sizeof at, "$0", rest * 2);
    snprintf(code, sizeof code, "stmatrix.sync.aligned.m8n8.x4%s.shared.b16 %s, {$1, $2, $3, $4};",
             trans ? ".trans" : "", at);
    for (int w = 0; w < 4; w++) {
      LLVMValueRef x = LLVMGetUndef(vty);
      for (int k = 0; k < 2; k++)
        x = LLVMBuildInsertElement(c->b, x, v.v[matrix_reg(g, w, k, trans, le)], cg_i32(c, k), "");
      args[1 + w] = LLVMBuildBitCast(c->b, x, i32, "");
    }
    cg_asm(c, LLVMVoidTypeInContext(c->lc), code, "r,r,r,r,r", args, 5, true);
  }
  return true;
}

bool cg_ldmatrix(cg *c, LLVMValueRef base, const ir_type *t, const ttg_ll *map, cg_vals *out) {
  const ir_type *et = ir_type_scalar(t);
  unsigned eb = ir_type_bytes(et);
  int64_t n = ttg_ll_num_regs(map);
  int pick[5][2], e, le;
  bool trans;
  if (!matrix_shape(map, et, pick, &trans, &e, &le)) return false;
  int group = 4 * e; /* registers one ldmatrix.x4 fills */
  ttg_ll amap = row_address_map(map, pick);
  cg_part part = cg_thread_part(c, &amap, 0);
  const ir_type *i32t = ir_type_i32(c->ictx);
  LLVMTypeRef i32 = cg_type(c, i32t), mty = cg_type(c, et);
  LLVMTypeRef f4[4] = {i32, i32, i32, i32};
  LLVMTypeRef ret = LLVMStructTypeInContext(c->lc, f4, 4, 0);
  *out = cg_vals_new(c, (int)n);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(c->lc);
  for (int64_t g = 0; g < n; g += group) {
    int32_t co[1], rest;
    ttg_ll_apply1(map, TTG_IN_REG, (uint32_t)g, co);
    LLVMValueRef off = cg_part_xor_split(c, part, co[0], &rest);
    off = LLVMBuildMul(c->b, off, cg_i32(c, eb), "");
    LLVMValueRef p = LLVMBuildGEP2(c->b, i8, base, &off, 1, "");
    char code[96], at[16];
    matrix_address(at, sizeof at, "$4", rest * (int32_t)eb);
    snprintf(code, sizeof code, "ldmatrix.sync.aligned.m8n8.x4%s.shared.b16 {$0, $1, $2, $3}, %s;",
             trans ? ".trans" : "", at);
    LLVMValueRef res = cg_asm(c, ret, code, "=r,=r,=r,=r,r", &p, 1, true);
    for (int w = 0; w < 4; w++) {
      LLVMValueRef word = LLVMBuildExtractValue(c->b, res, (unsigned)w, "");
      LLVMValueRef vec =
          e == 1 ? word : LLVMBuildBitCast(c->b, word, LLVMVectorType(mty, (unsigned)e), "");
      for (int k = 0; k < e; k++) {
        /* Word w of the matrix: register bits (le, le+1) = w, low bits = k
         * (plain); for .trans the word's halves are register bit 0. */
        int64_t j = matrix_reg(g, w, k, trans, le);
        LLVMValueRef x = e == 1 ? LLVMBuildBitCast(c->b, vec, mty, "")
                                : LLVMBuildExtractElement(c->b, vec, cg_i32(c, k), "");
        out->v[j] = x;
      }
    }
  }
  return true;
}
