// SPDX-License-Identifier: MIT
/* lower_memory.c - tt.addptr (GEP), tt.load and tt.store as predicated,
 * vectorized PTX inline asm exactly as Triton emits it: registers grouped
 * `vec` at a time along the layout's contiguous register run, where vec is
 * bounded by that run, the pointer's contiguity and alignment, the mask's
 * constancy and 16 bytes, then packed into 32-bit (or 64/16-bit) words. */
#include <stdio.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

/* A fixed-size text accumulator for the asm strings (bounded: <= 4 words). */
typedef struct text {
  char s[1024];
  size_t n;
} text;

static void tput(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tput(text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap);
  va_end(ap);
  if (k > 0) t->n += (size_t)k < sizeof t->s - t->n ? (size_t)k : sizeof t->s - t->n - 1;
}

static bool lower_addptr(cg *c, ir_op *op) {
  cg_vals p, o;
  if (!cg_get(c, op, 0, &p) || !cg_get(c, op, 1, &o)) return false;
  const ir_type *pt = ir_type_scalar(op->operands[0]->type);
  const ir_type *ot = ir_type_scalar(op->operands[1]->type);
  const ir_type *elem = pt->elem;
  bool is_bool = elem->kind == IR_TY_INT && elem->width == 1;
  LLVMTypeRef ety = is_bool ? LLVMInt8TypeInContext(c->lc) : cg_type(c, elem);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c->lc);
  int64_t n = cg_num_regs(c, op->results[0].type, op->loc);
  if (n < 0) return false;
  cg_vals r = cg_vals_new(c, (int)n);
  for (int64_t j = 0; j < n; j++) {
    LLVMValueRef off = o.v[o.n == 1 ? 0 : j];
    if (ot->width < 64) off = LLVMBuildSExt(c->b, off, i64, "");
    r.v[j] = LLVMBuildGEP2(c->b, ety, p.v[p.n == 1 ? 0 : j], &off, 1, "");
  }
  cg_map_set(c, &op->results[0], r);
  return true;
}

/* The access shape of one load/store. */
typedef struct access {
  int vec;              /* elements per asm instruction */
  int eb;               /* element bits in memory (i1 is a byte) */
  int wb;               /* word bits: 64, 32, 16 or 8 */
  int rb;               /* register bits of a word in the asm (>= 16) */
  int nw;               /* words per instruction (1, 2, 4) */
  LLVMTypeRef mty;      /* element type in memory */
  LLVMTypeRef wty, rty; /* word and register integer types */
  bool is_bool, is_ptr;
} access;

static int64_t floor_pow2(int64_t v) {
  int64_t p = 1;
  while (p * 2 <= v)
    p *= 2;
  return p;
}

/* Vector width along the layout's contiguous register run (Triton's
 * getVectorSize): bounded by the registers, the pointer's contiguity and
 * alignment, the mask's constancy and 16 bytes. */
static int vector_width(cg *c, const ir_op *op, const ir_type *ptr_ty, const ir_value *mask,
                        unsigned elem_bytes) {
  ttg_ll l;
  if (!ir_type_is_tensor(ptr_ty) || !c->axis || !ttg_ll_of_type(ptr_ty, &l)) return 1;
  int td;
  int64_t vec = cg_contig_regs(&l, &td);
  if (td < 0) return 1;
  ir_axis_info pi = ir_axis_get(c->axis, op->operands[0]);
  if (pi.contiguity[td] < vec) vec = pi.contiguity[td];
  /* Pointer divisibility is in bytes, as Triton's. */
  int64_t align = pi.divisibility[td] / elem_bytes;
  if (align < 1) align = 1;
  if (align < vec) vec = align;
  if (mask) {
    ir_axis_info mi = ir_axis_get(c->axis, mask);
    if (mi.constancy[td] < vec) vec = mi.constancy[td];
  }
  if ((int64_t)elem_bytes * vec > 16) vec = 16 / elem_bytes;
  return (int)floor_pow2(vec < 1 ? 1 : vec);
}

static void access_init(cg *c, access *a, const ir_type *elem, int vec) {
  a->is_bool = elem->kind == IR_TY_INT && elem->width == 1;
  a->is_ptr = elem->kind == IR_TY_PTR;
  a->mty = a->is_bool ? LLVMInt8TypeInContext(c->lc) : cg_type(c, elem);
  a->eb = (int)ir_type_bytes(elem) * 8;
  a->vec = vec;
  int total = a->eb * vec;
  if (a->eb == 64)
    a->wb = 64;
  else if (total >= 32)
    a->wb = 32;
  else
    a->wb = total;
  a->nw = total / a->wb;
  a->rb = a->wb < 16 ? 16 : a->wb;
  a->wty = LLVMIntTypeInContext(c->lc, (unsigned)a->wb);
  a->rty = LLVMIntTypeInContext(c->lc, (unsigned)a->rb);
}

static char reg_letter(int rb) { return rb == 64 ? 'l' : rb == 32 ? 'r' : 'h'; }

/* Packs elements e[0..vec) into words (register-typed). */
static void pack(cg *c, const access *a, LLVMValueRef *e, LLVMValueRef *w) {
  int per = a->wb / a->eb;
  for (int i = 0; i < a->nw; i++) {
    LLVMValueRef word;
    if (per == 1) {
      LLVMValueRef x = e[i];
      if (a->is_bool) x = LLVMBuildZExt(c->b, x, a->mty, "");
      word = a->is_ptr ? LLVMBuildPtrToInt(c->b, x, a->wty, "")
                       : LLVMBuildBitCast(c->b, x, a->wty, "");
    } else {
      LLVMTypeRef vty = LLVMVectorType(a->mty, (unsigned)per);
      LLVMValueRef v = LLVMGetUndef(vty);
      for (int k = 0; k < per; k++) {
        LLVMValueRef x = e[i * per + k];
        if (a->is_bool) x = LLVMBuildZExt(c->b, x, a->mty, "");
        v = LLVMBuildInsertElement(c->b, v, x, cg_i32(c, k), "");
      }
      word = LLVMBuildBitCast(c->b, v, a->wty, "");
    }
    w[i] = a->rb > a->wb ? LLVMBuildZExt(c->b, word, a->rty, "") : word;
  }
}

/* The bits of word i of e[0..vec) when every element of it is a constant
 * (pack's result for constants may stay a constant expression). */
static bool constant_word(cg *c, const access *a, LLVMValueRef *e, int i, uint64_t *bits) {
  int per = a->wb / a->eb;
  LLVMTypeRef ity = LLVMIntTypeInContext(c->lc, (unsigned)a->eb);
  *bits = 0;
  if (a->is_ptr) return false;
  for (int k = 0; k < per; k++) {
    LLVMValueRef x = e[i * per + k];
    if (!LLVMIsConstant(x)) return false;
    x = a->is_bool ? LLVMBuildZExt(c->b, x, ity, "") : LLVMBuildBitCast(c->b, x, ity, "");
    if (!LLVMIsAConstantInt(x)) return false;
    uint64_t v = LLVMConstIntGetZExtValue(x);
    *bits |= (a->eb < 64 ? v & ((1ull << a->eb) - 1) : v) << (k * a->eb);
  }
  return true;
}

/* Unpacks register-typed words into elements e[0..vec). */
static void unpack(cg *c, const access *a, LLVMValueRef *w, LLVMValueRef *e) {
  int per = a->wb / a->eb;
  for (int i = 0; i < a->nw; i++) {
    LLVMValueRef word = a->rb > a->wb ? LLVMBuildTrunc(c->b, w[i], a->wty, "") : w[i];
    if (per == 1) {
      e[i] = a->is_ptr ? LLVMBuildIntToPtr(c->b, word, a->mty, "")
                       : LLVMBuildBitCast(c->b, word, a->mty, "");
    } else {
      LLVMValueRef v = LLVMBuildBitCast(c->b, word, LLVMVectorType(a->mty, (unsigned)per), "");
      for (int k = 0; k < per; k++)
        e[i * per + k] = LLVMBuildExtractElement(c->b, v, cg_i32(c, k), "");
    }
  }
  if (a->is_bool)
    for (int k = 0; k < a->vec; k++)
      e[k] = LLVMBuildICmp(c->b, LLVMIntNE, e[k], LLVMConstInt(a->mty, 0, 0), "");
}

/* ".ca"/".cg"/".cs"/".cv" and ".L1::evict_first"/".L1::evict_last" from the
 * op's cache / evict attributes when present. */
static void cache_suffix(const ir_op *op, text *t) {
  const ir_attr *cache = ir_op_get_attr(op, "cache");
  const ir_attr *evict = ir_op_get_attr(op, "evict");
  if (cache && cache->s) {
    static const char *const ok[] = {"ca", "cg", "cs", "cv", "wb", "wt"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
      if (strcmp(cache->s, ok[i]) == 0) tput(t, ".%s", ok[i]);
  }
  if (evict && evict->s &&
      (strcmp(evict->s, "evict_first") == 0 || strcmp(evict->s, "evict_last") == 0))
    tput(t, ".L1::%s", evict->s);
}

/* "ld.global.ca.v4.b32" / "st.global..." : the instruction of one access
 * up to the operands. */
static void put_insn(text *t, const char *insn, const ir_op *op, const access *a) {
  tput(t, "%s.global", insn);
  cache_suffix(op, t);
  if (a->nw > 1) tput(t, ".v%d", a->nw);
  tput(t, ".b%d", a->wb);
}

static LLVMValueRef inline_asm(cg *c, LLVMTypeRef ret, LLVMValueRef *args, unsigned nargs,
                               const text *code, const text *cons) {
  LLVMTypeRef atys[16];
  for (unsigned i = 0; i < nargs; i++)
    atys[i] = LLVMTypeOf(args[i]);
  LLVMTypeRef fty = LLVMFunctionType(ret, atys, nargs, 0);
  LLVMValueRef asmv =
      LLVMGetInlineAsm(fty, code->s, code->n, cons->s, cons->n, 1, 0, LLVMInlineAsmDialectATT, 0);
  return LLVMBuildCall2(c->b, fty, asmv, args, nargs, "");
}

static bool lower_load(cg *c, ir_op *op) {
  cg_vals p, m = {0, NULL}, o = {0, NULL};
  if (!cg_get(c, op, 0, &p)) return false;
  if (op->noperands > 1 && !cg_get(c, op, 1, &m)) return false;
  if (op->noperands > 2 && !cg_get(c, op, 2, &o)) return false;
  const ir_type *pty = op->operands[0]->type;
  const ir_type *elem = ir_type_scalar(pty)->elem;
  access a;
  int vec =
      vector_width(c, op, pty, op->noperands > 1 ? op->operands[1] : NULL, ir_type_bytes(elem));
  access_init(c, &a, elem, vec);
  cg_vals r = cg_vals_new(c, p.n);
  LLVMTypeRef ret = a.rty;
  if (a.nw > 1) {
    LLVMTypeRef f[4] = {a.rty, a.rty, a.rty, a.rty};
    ret = LLVMStructTypeInContext(c->lc, f, (unsigned)a.nw, 0);
  }
  for (int j0 = 0; j0 < p.n; j0 += vec) {
    text code = {{0}, 0}, cons = {{0}, 0};
    LLVMValueRef args[12], words[4];
    unsigned na = 0;
    bool has_other = o.v != NULL && m.v != NULL;
    if (has_other) {
      LLVMValueRef e[16];
      for (int k = 0; k < vec; k++)
        e[k] = o.v[o.n == 1 ? 0 : j0 + k];
      /* A constant goes into the instruction, as Triton writes it: as an
       * operand, one register would feed every load of the kernel, and
       * LLVM's peephole pass clears its kill flags over all its uses once
       * per load (quadratic: 7 masked loads of 8192 elements a thread took
       * 27 s). */
      uint64_t bits[4];
      bool constant = true;
      for (int i = 0; i < a.nw; i++)
        constant = constant && constant_word(c, &a, e, i, &bits[i]);
      if (constant) {
        for (int i = 0; i < a.nw; i++)
          tput(&code, "mov.u%d $%d, 0x%llx;\n\t", a.rb, i, (unsigned long long)bits[i]);
        has_other = false;
      } else {
        pack(c, &a, e, words);
        for (int i = 0; i < a.nw; i++) {
          tput(&code, "mov.u%d $%d, $%d;\n\t", a.rb, i, a.nw + i);
          args[na++] = words[i];
        }
      }
    } else if (m.v) {
      for (int i = 0; i < a.nw; i++)
        tput(&code, "mov.u%d $%d, 0x0;\n\t", a.rb, i);
    }
    int addr = a.nw + (has_other ? a.nw : 0);
    if (m.v) tput(&code, "@$%d ", addr + 1);
    put_insn(&code, "ld", op, &a);
    tput(&code, " { ");
    for (int i = 0; i < a.nw; i++)
      tput(&code, "%s$%d", i ? ", " : "", i);
    tput(&code, " }, [ $%d + 0 ];", addr);
    for (int i = 0; i < a.nw; i++)
      tput(&cons, "%s=%c", i ? "," : "", reg_letter(a.rb));
    if (has_other)
      for (int i = 0; i < a.nw; i++)
        tput(&cons, ",%c", reg_letter(a.rb));
    tput(&cons, ",l");
    args[na++] = p.v[j0];
    if (m.v) {
      tput(&cons, ",b");
      args[na++] = m.v[m.n == 1 ? 0 : j0];
    }
    LLVMValueRef res = inline_asm(c, ret, args, na, &code, &cons);
    for (int i = 0; i < a.nw; i++)
      words[i] = a.nw > 1 ? LLVMBuildExtractValue(c->b, res, (unsigned)i, "") : res;
    unpack(c, &a, words, &r.v[j0]);
  }
  cg_map_set(c, &op->results[0], r);
  return true;
}

static bool lower_store(cg *c, ir_op *op) {
  cg_vals p, v, m = {0, NULL};
  if (!cg_get(c, op, 0, &p) || !cg_get(c, op, 1, &v)) return false;
  if (op->noperands > 2 && !cg_get(c, op, 2, &m)) return false;
  const ir_type *pty = op->operands[0]->type;
  const ir_type *elem = ir_type_scalar(pty)->elem;
  access a;
  int vec =
      vector_width(c, op, pty, op->noperands > 2 ? op->operands[2] : NULL, ir_type_bytes(elem));
  access_init(c, &a, elem, vec);
  LLVMTypeRef void_ty = LLVMVoidTypeInContext(c->lc);
  /* As Triton: only the first holder of an element writes it. */
  LLVMValueRef owner = cg_owner_pred(c, pty, op->loc);
  for (int j0 = 0; j0 < p.n; j0 += vec) {
    text code = {{0}, 0}, cons = {{0}, 0};
    LLVMValueRef args[8], e[16];
    unsigned na = 0;
    LLVMValueRef pred = m.v ? m.v[m.n == 1 ? 0 : j0] : NULL;
    if (owner) pred = pred ? LLVMBuildAnd(c->b, pred, owner, "") : owner;
    for (int k = 0; k < vec; k++)
      e[k] = v.v[v.n == 1 ? 0 : j0 + k];
    pack(c, &a, e, args);
    na = (unsigned)a.nw;
    if (pred) tput(&code, "@$%d ", a.nw + 1);
    put_insn(&code, "st", op, &a);
    tput(&code, " [ $%d + 0 ], { ", a.nw);
    for (int i = 0; i < a.nw; i++)
      tput(&code, "%s$%d", i ? ", " : "", i);
    tput(&code, " };");
    for (int i = 0; i < a.nw; i++)
      tput(&cons, "%s%c", i ? "," : "", reg_letter(a.rb));
    tput(&cons, ",l");
    args[na++] = p.v[j0];
    if (pred) {
      tput(&cons, ",b");
      args[na++] = pred;
    }
    inline_asm(c, void_ty, args, na, &code, &cons);
  }
  return true;
}

bool cg_lower_memory_op(cg *c, ir_op *op) {
  /* An if-chain, not a switch: the exhaustive switch lives in lower.c. */
  if (op->kind == IR_OP_TT_ADDPTR) return lower_addptr(c, op);
  if (op->kind == IR_OP_TT_LOAD) return lower_load(c, op);
  if (op->kind == IR_OP_TT_STORE) return lower_store(c, op);
  return cg_unsupported(c, op);
}
