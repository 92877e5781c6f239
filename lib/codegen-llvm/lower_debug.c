/* lower_debug.c - tt.print (tl.device_print) through CUDA's vprintf, one line
 * per element a thread holds: "pid (x, y, z) idx (i, j)<prefix>: <value>";
 * and tt.assert (tl.device_assert under debug=True) through __assertfail,
 * called by every thread that holds a false element, with the message and
 * the op's source file and line. */
#include <stdio.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

/* An alloca in the kernel's entry block (so loops do not grow the stack). */
static LLVMValueRef entry_alloca(cg *c, LLVMTypeRef ty) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(c->fn);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->lc);
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  if (first)
    LLVMPositionBuilderBefore(b, first);
  else
    LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef a = LLVMBuildAlloca(b, ty, "printf.args");
  LLVMDisposeBuilder(b);
  return a;
}

/* The declaration of `name` with type fty, added on first use. */
static LLVMValueRef extern_fn(cg *c, const char *name, LLVMTypeRef fty) {
  LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
  return f ? f : LLVMAddFunction(c->mod, name, fty);
}

/* Appends the printf conversion of one element and its promoted value. */
static LLVMValueRef format_value(cg *c, const ir_type *et, bool is_signed, bool hex, LLVMValueRef v,
                                 char *fmt, size_t cap) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c->lc), i64 = LLVMInt64TypeInContext(c->lc);
  size_t n = strlen(fmt);
  if (et->kind == IR_TY_FLOAT) { /* C varargs promote floats to double */
    snprintf(fmt + n, cap - n, "%s", hex ? "%a" : "%f");
    return et->width == 64 ? v : LLVMBuildFPExt(c->b, v, LLVMDoubleTypeInContext(c->lc), "");
  }
  if (et->kind == IR_TY_PTR) {
    snprintf(fmt + n, cap - n, "%%p");
    return v;
  }
  if (et->width == 64) {
    snprintf(fmt + n, cap - n, "%s", hex ? "0x%llx" : is_signed ? "%lld" : "%llu");
    return v;
  }
  snprintf(fmt + n, cap - n, "%s", hex ? "0x%x" : is_signed && et->width > 1 ? "%d" : "%u");
  (void)i64;
  return is_signed && et->width > 1 ? LLVMBuildSExt(c->b, v, i32, "")
                                    : LLVMBuildZExt(c->b, v, i32, "");
}

/* One vprintf(fmt, &args) with the given argument values. */
static void emit_vprintf(cg *c, const char *fmt, LLVMValueRef *vals, unsigned n) {
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c->lc, 0), i32 = LLVMInt32TypeInContext(c->lc);
  LLVMTypeRef ptys[2] = {ptr, ptr};
  LLVMTypeRef fty = LLVMFunctionType(i32, ptys, 2, 0);
  LLVMValueRef f = extern_fn(c, "vprintf", fty);
  LLVMValueRef str = LLVMBuildGlobalStringPtr(c->b, fmt, "printf.fmt");
  LLVMValueRef buf = LLVMConstPointerNull(ptr);
  if (n) {
    LLVMTypeRef tys[16];
    for (unsigned i = 0; i < n; i++)
      tys[i] = LLVMTypeOf(vals[i]);
    LLVMTypeRef sty = LLVMStructTypeInContext(c->lc, tys, n, 0);
    buf = entry_alloca(c, sty);
    for (unsigned i = 0; i < n; i++)
      LLVMBuildStore(c->b, vals[i], LLVMBuildStructGEP2(c->b, sty, buf, i, ""));
  }
  LLVMValueRef args[2] = {str, buf};
  LLVMBuildCall2(c->b, fty, f, args, 2, "");
}

/* Copies the prefix with '%' doubled, so printf prints it verbatim. */
static void escape_prefix(const char *s, char *out, size_t cap) {
  size_t n = 0;
  for (; s && *s && n + 3 < cap; s++) {
    if (*s == '%') out[n++] = '%';
    out[n++] = *s;
  }
  out[n] = '\0';
}

/* One printf per held register and operand: Triton's format with the
 * program id, the element's index and the prefix (a per-thread order, so
 * lines of different threads interleave). */
static bool lower_print(cg *c, ir_op *op) {
  const ir_attr *pa = ir_op_get_attr(op, "prefix"), *ha = ir_op_get_attr(op, "hex");
  const ir_attr *sa = ir_op_get_attr(op, "isSigned");
  char prefix[256];
  escape_prefix(pa ? pa->s : "", prefix, sizeof prefix);
  bool hex = ha && ha->i != 0;
  LLVMValueRef pid[3];
  for (int a = 0; a < 3; a++) {
    char name[48];
    snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.ctaid.%c", "xyz"[a]);
    pid[a] = cg_intrinsic(c, name, NULL, 0, NULL, 0);
  }
  if (op->noperands == 0) {
    char fmt[320];
    snprintf(fmt, sizeof fmt, "pid (%%u, %%u, %%u)%s\n", prefix);
    emit_vprintf(c, fmt, pid, 3);
    return true;
  }
  for (int o = 0; o < op->noperands; o++) {
    const ir_type *t = op->operands[o]->type;
    cg_vals v;
    if (!cg_get(c, op, o, &v)) return false;
    LLVMValueRef *idx[IR_MAX_RANK];
    int rank = ir_type_is_tensor(t) ? t->rank : 0;
    if (rank && !cg_emit_indices(c, t, op->loc, idx)) return false;
    bool is_signed = sa && o < sa->n ? sa->ints[o] != 0 : true;
    for (int64_t j = 0; j < v.n; j++) {
      char fmt[512];
      LLVMValueRef vals[3 + IR_MAX_RANK + 1];
      unsigned nv = 0;
      for (int a = 0; a < 3; a++)
        vals[nv++] = pid[a];
      size_t n = (size_t)snprintf(fmt, sizeof fmt, "pid (%%u, %%u, %%u) idx (");
      for (int d = 0; d < rank; d++) {
        n += (size_t)snprintf(fmt + n, sizeof fmt - n, "%s%%d", d ? ", " : "");
        vals[nv++] = idx[d][j];
      }
      n += (size_t)snprintf(fmt + n, sizeof fmt - n, ")%s", prefix);
      if (op->noperands > 1) n += (size_t)snprintf(fmt + n, sizeof fmt - n, " (operand %d)", o);
      snprintf(fmt + n, sizeof fmt - n, ": ");
      vals[nv++] = format_value(c, ir_type_scalar(t), is_signed, hex, v.v[j], fmt, sizeof fmt);
      n = strlen(fmt);
      snprintf(fmt + n, sizeof fmt - n, "\n");
      emit_vprintf(c, fmt, vals, nv);
    }
  }
  return true;
}

/* if (any register of cond is false) __assertfail(msg, file, line, func, 1). */
static bool lower_assert(cg *c, ir_op *op) {
  cg_vals v;
  if (!cg_get(c, op, 0, &v)) return false;
  LLVMValueRef bad = NULL;
  for (int64_t j = 0; j < v.n; j++) {
    LLVMValueRef nb = LLVMBuildNot(c->b, v.v[j], "");
    bad = bad ? LLVMBuildOr(c->b, bad, nb, "") : nb;
  }
  const ir_attr *ma = ir_op_get_attr(op, "message");
  char line_file[512];
  snprintf(line_file, sizeof line_file, "%s", op->loc.src ? op->loc.src->name : "<unknown>");
  LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(c->lc, c->fn, "assert.fail");
  LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(c->lc, c->fn, "assert.cont");
  LLVMBuildCondBr(c->b, bad, fail, cont);
  LLVMPositionBuilderAtEnd(c->b, fail);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c->lc, 0), i32 = LLVMInt32TypeInContext(c->lc);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c->lc);
  LLVMTypeRef ptys[5] = {ptr, ptr, i32, ptr, i64};
  LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->lc), ptys, 5, 0);
  LLVMValueRef f = extern_fn(c, "__assertfail", fty);
  char fname[256];
  snprintf(fname, sizeof fname, "%s", LLVMGetValueName(c->fn));
  LLVMValueRef args[5] = {
      LLVMBuildGlobalStringPtr(c->b, ma && ma->s ? ma->s : "", "assert.msg"),
      LLVMBuildGlobalStringPtr(c->b, line_file, "assert.file"), LLVMConstInt(i32, op->loc.line, 0),
      LLVMBuildGlobalStringPtr(c->b, fname, "assert.func"), LLVMConstInt(i64, 1, 0)};
  LLVMBuildCall2(c->b, fty, f, args, 5, "");
  LLVMBuildBr(c->b, cont);
  LLVMPositionBuilderAtEnd(c->b, cont);
  return true;
}

/* An if-chain, not a switch: the exhaustive switch lives in lower.c. */
bool cg_lower_debug(cg *c, ir_op *op) {
  if (op->kind == IR_OP_TT_PRINT) return lower_print(c, op);
  if (op->kind == IR_OP_TT_ASSERT) return lower_assert(c, op);
  return cg_unsupported(c, op);
}
