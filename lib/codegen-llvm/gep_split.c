// SPDX-License-Identifier: MIT
/* gep_split.c - cg_split_gep_offsets: after O3 and before NVPTX, rewrites
 * each `getelementptr T, P, ext(X + C)` (C a constant, the addition an
 * `add nsw`/`or disjoint` under sext, `add nuw`/`or disjoint` under zext, or
 * any i64 add) into `getelementptr i8, B, C * sizeof(T)` on one shared
 * `B = getelementptr T, P, ext(X)` per block, pointer, type and X.
 *
 * Why: a tile of N elements per thread gives N pointers that differ by
 * constants. NVPTX's straight-line strength reduction (LLVM 22) looks for a
 * basis of each such GEP among all the earlier ones of its block and, unable
 * to prove the difference of two sign-extended sums constant, scans them all
 * with ScalarEvolution poison queries: quadratic (vector add at BLOCK 2^17
 * spent 2.7 s there, at 2^20 about 4 minutes). In the split form the offsets
 * are plain constants and the pass has nothing to search. NVPTX splits the
 * constant offsets out of GEPs anyway (SeparateConstOffsetFromGEP), so the
 * PTX does not change. Linear: one walk, one hash lookup per GEP. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>

#include "codegen-llvm/cg.h"

/* How the index widens X: none (an i64 add), sext or zext. */
enum { EXT_NONE, EXT_SIGN, EXT_ZERO };

typedef struct base_key {
  LLVMValueRef ptr, x;
  LLVMTypeRef ty;
  int ext;
} base_key;

typedef struct base_slot {
  base_key key;
  LLVMValueRef base; /* NULL: empty */
} base_slot;

/* The bases of one block: open addressing, cleared per block. */
typedef struct base_table {
  base_slot *slots;
  size_t cap, len;
} base_table;

static size_t key_hash(const base_key *k) {
  uint64_t h = (uint64_t)(uintptr_t)k->ptr * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t)(uintptr_t)k->x * 0xC2B2AE3D27D4EB4Full;
  h ^= (uint64_t)(uintptr_t)k->ty * 0x165667B19E3779F9ull + (uint64_t)k->ext;
  return (size_t)(h ^ (h >> 29));
}

static bool key_eq(const base_key *a, const base_key *b) {
  return a->ptr == b->ptr && a->x == b->x && a->ty == b->ty && a->ext == b->ext;
}

/* The slot of k: its entry or the empty slot it would take. Needs cap > 0. */
static base_slot *table_find(base_table *t, const base_key *k) {
  size_t mask = t->cap - 1, j = key_hash(k) & mask;
  while (t->slots[j].base && !key_eq(&t->slots[j].key, k))
    j = (j + 1) & mask;
  return &t->slots[j];
}

/* Room for one more entry; false on OOM (the rewrite is an optimization:
 * the caller stops rewriting). */
static bool table_reserve(base_table *t) {
  if ((t->len + 1) * 2 <= t->cap) return true;
  size_t ocap = t->cap, ncap = ocap ? ocap * 2 : 64;
  base_slot *old = t->slots, *slots = calloc(ncap, sizeof *slots);
  if (!slots) return false;
  t->slots = slots;
  t->cap = ncap;
  for (size_t i = 0; i < ocap; i++)
    if (old[i].base) *table_find(t, &old[i].key) = old[i];
  free(old);
  return true;
}

static void table_put(base_table *t, base_slot *s, const base_key *k, LLVMValueRef base) {
  t->len++;
  s->key = *k;
  s->base = base;
}

/* `X + C`: an add (with nsw / nuw when asked) or a disjoint or, with a
 * constant operand; sets *x and *c (C read as unsigned under a zext, where
 * the sum is unsigned). */
static bool match_add_const(LLVMValueRef v, bool need_nsw, bool need_nuw, LLVMValueRef *x,
                            long long *c) {
  if (!LLVMIsAInstruction(v)) return false;
  LLVMOpcode opc = LLVMGetInstructionOpcode(v);
  if (opc == LLVMOr) {
    if (!LLVMGetIsDisjoint(v)) return false;
  } else if (opc == LLVMAdd) {
    if ((need_nsw && !LLVMGetNSW(v)) || (need_nuw && !LLVMGetNUW(v))) return false;
  } else {
    return false;
  }
  LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
  if (!LLVMIsAConstantInt(b) || LLVMGetIntTypeWidth(LLVMTypeOf(b)) > 64) return false;
  long long k = LLVMConstIntGetSExtValue(b);
  /* A disjoint or adds C only while C leaves the sign bit alone (then its
   * signed and unsigned readings agree); an unsigned sum needs C >= 0 too. */
  if ((opc == LLVMOr || need_nuw) && k < 0) return false;
  *x = a;
  *c = k;
  return true;
}

/* Decomposes a GEP's single index into ext(X) + C; false when it is not of
 * that form (then the GEP may still serve as the base for X = index). */
static bool split_index(LLVMValueRef idx, base_key *k, long long *c) {
  k->ext = EXT_NONE;
  k->x = idx;
  *c = 0;
  if (!LLVMIsAInstruction(idx) || LLVMGetTypeKind(LLVMTypeOf(idx)) != LLVMIntegerTypeKind)
    return false;
  LLVMOpcode opc = LLVMGetInstructionOpcode(idx);
  if (opc == LLVMSExt || opc == LLVMZExt) {
    bool sign = opc == LLVMSExt;
    LLVMValueRef y = LLVMGetOperand(idx, 0), x;
    if (!match_add_const(y, sign, !sign, &x, c)) {
      k->ext = sign ? EXT_SIGN : EXT_ZERO;
      k->x = y;
      return false;
    }
    k->ext = sign ? EXT_SIGN : EXT_ZERO;
    k->x = x;
    return true;
  }
  /* A 64-bit index: GEP arithmetic wraps at 64 bits as the add does (a
   * narrower one would be sign-extended, so it needs nsw). */
  bool wide = LLVMGetIntTypeWidth(LLVMTypeOf(idx)) == 64;
  return match_add_const(idx, !wide, false, &k->x, c);
}

/* Removes v and then its operand chain while nothing uses them. */
static void erase_if_dead(LLVMValueRef v) {
  for (int depth = 0; depth < 2 && v && LLVMIsAInstruction(v) && !LLVMGetFirstUse(v); depth++) {
    LLVMValueRef next = LLVMGetNumOperands(v) ? LLVMGetOperand(v, 0) : NULL;
    LLVMInstructionEraseFromParent(v);
    v = next;
  }
}

static void rewrite_gep(cg *c, LLVMTargetDataRef dl, base_table *t, LLVMValueRef gep) {
  if (LLVMGetNumIndices(gep) != 1 || LLVMGEPGetNoWrapFlags(gep) != 0 ||
      LLVMGetTypeKind(LLVMTypeOf(gep)) != LLVMPointerTypeKind)
    return;
  LLVMValueRef idx = LLVMGetOperand(gep, 1);
  base_key k;
  memset(&k, 0, sizeof k);
  k.ptr = LLVMGetOperand(gep, 0);
  k.ty = LLVMGetGEPSourceElementType(gep);
  long long off;
  bool split = split_index(idx, &k, &off);
  base_slot *s = table_find(t, &k);
  if (!split) {
    /* Already ext(X) or X: the base for later GEPs of X + C. */
    if (!s->base) table_put(t, s, &k, gep);
    return;
  }
  long long bytes;
  if (__builtin_mul_overflow(off, (long long)LLVMABISizeOfType(dl, k.ty), &bytes)) return;
  LLVMPositionBuilderBefore(c->b, gep);
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(gep);
  LLVMValueRef base = s->base;
  if (!base) {
    LLVMValueRef xi = k.x;
    if (k.ext == EXT_SIGN) xi = LLVMBuildSExt(c->b, k.x, LLVMTypeOf(idx), "");
    if (k.ext == EXT_ZERO) xi = LLVMBuildZExt(c->b, k.x, LLVMTypeOf(idx), "");
    base = LLVMBuildGEP2(c->b, k.ty, k.ptr, &xi, 1, "");
    if (loc && xi != k.x) LLVMInstructionSetDebugLoc(xi, loc);
    if (loc) LLVMInstructionSetDebugLoc(base, loc);
    table_put(t, s, &k, base);
  }
  LLVMValueRef rep = base;
  if (bytes) {
    LLVMValueRef cb = LLVMConstInt(LLVMInt64TypeInContext(c->lc), (unsigned long long)bytes, 1);
    rep = LLVMBuildGEP2(c->b, LLVMInt8TypeInContext(c->lc), base, &cb, 1, "");
    if (loc) LLVMInstructionSetDebugLoc(rep, loc);
  }
  LLVMReplaceAllUsesWith(gep, rep);
  LLVMInstructionEraseFromParent(gep);
  erase_if_dead(idx);
}

void cg_split_gep_offsets(cg *c) {
  LLVMTargetDataRef dl = LLVMGetModuleDataLayout(c->mod);
  base_table t = {0};
  for (LLVMValueRef fn = LLVMGetFirstFunction(c->mod); fn; fn = LLVMGetNextFunction(fn)) {
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
      if (t.slots) memset(t.slots, 0, t.cap * sizeof *t.slots);
      t.len = 0;
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        if (LLVMGetInstructionOpcode(i) == LLVMGetElementPtr && table_reserve(&t))
          rewrite_gep(c, dl, &t, i);
      }
    }
  }
  free(t.slots);
}
