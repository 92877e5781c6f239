// SPDX-License-Identifier: MIT
/* lower.c - the lowering driver: builds the kernel function (ptx_kernel,
 * nvvm.reqntid, global pointer params), keeps the map from IR values to
 * per-thread register arrays, and dispatches each op to its family's file.
 * Needs a ttgir module with one tt.func; leaves an unoptimized LLVM module. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

/* ---- value map ---------------------------------------------------------- */

/* The value map: open addressing keyed by ir_value pointers, load factor at
 * most 1/2; entries are never removed during one kernel. */
static size_t map_slot(const void *key, size_t cap) {
  uintptr_t h = (uintptr_t)key;
  h ^= h >> 17;
  h *= 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 7) & (cap - 1);
}

static void map_grow(cg *c) {
  size_t ncap = c->map_cap ? c->map_cap * 2 : 256;
  cg_map_entry *nmap = calloc(ncap, sizeof *nmap);
  if (!nmap) IR_UNREACHABLE("out of memory");
  for (size_t i = 0; i < c->map_cap; i++) {
    if (!c->map[i].key) continue;
    size_t s = map_slot(c->map[i].key, ncap);
    while (nmap[s].key)
      s = (s + 1) & (ncap - 1);
    nmap[s] = c->map[i];
  }
  free(c->map);
  c->map = nmap;
  c->map_cap = ncap;
}

void cg_map_set(cg *c, const ir_value *v, cg_vals vals) {
  if ((c->map_len + 1) * 2 > c->map_cap) map_grow(c);
  size_t s = map_slot(v, c->map_cap);
  while (c->map[s].key && c->map[s].key != v)
    s = (s + 1) & (c->map_cap - 1);
  if (!c->map[s].key) c->map_len++;
  c->map[s].key = v;
  c->map[s].vals = vals;
}

cg_vals cg_map_get(const cg *c, const ir_value *v) {
  cg_vals none = {0, NULL};
  if (!c->map_cap) return none;
  size_t s = map_slot(v, c->map_cap);
  while (c->map[s].key) {
    if (c->map[s].key == v) return c->map[s].vals;
    s = (s + 1) & (c->map_cap - 1);
  }
  return none;
}

bool cg_get(cg *c, const ir_op *op, int i, cg_vals *out) {
  *out = cg_map_get(c, op->operands[i]);
  if (out->v) return true;
  ir_error(c->ictx, op->loc, "internal error: operand %d of '%s' was not lowered", i,
           ir_op_name(op));
  return false;
}

cg_vals cg_vals_new(cg *c, int n) {
  cg_vals r;
  r.n = n;
  r.v = ir_arena_alloc(&c->arena, sizeof(LLVMValueRef) * (size_t)(n > 0 ? n : 1));
  if (!r.v) IR_UNREACHABLE("out of memory");
  return r;
}

/* ---- small helpers ------------------------------------------------------ */

LLVMTypeRef cg_type(cg *c, const ir_type *t) {
  t = ir_type_scalar(t);
  switch (t->kind) {
  case IR_TY_INT: return LLVMIntTypeInContext(c->lc, t->width);
  case IR_TY_FLOAT:
    if (t->width == 8) return LLVMInt8TypeInContext(c->lc); /* fp8: its bits */
    if (t->width == 16)
      return t->is_bf16 ? LLVMBFloatTypeInContext(c->lc) : LLVMHalfTypeInContext(c->lc);
    return t->width == 64 ? LLVMDoubleTypeInContext(c->lc) : LLVMFloatTypeInContext(c->lc);
  case IR_TY_PTR: return LLVMPointerTypeInContext(c->lc, (unsigned)t->addrspace);
  case IR_TY_TENSOR:
  case IR_TY_MEMDESC:
  case IR_TY_TOKEN: break;
  }
  IR_UNREACHABLE("no scalar LLVM type for this IR type");
}

LLVMValueRef cg_i32(cg *c, int64_t v) {
  return LLVMConstInt(LLVMInt32TypeInContext(c->lc), (unsigned long long)v, 1);
}

LLVMValueRef cg_intrinsic(cg *c, const char *name, LLVMTypeRef *otys, unsigned notys,
                          LLVMValueRef *args, unsigned nargs) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  if (!id) IR_UNREACHABLE("unknown intrinsic %s", name);
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(c->mod, id, otys, notys);
  LLVMTypeRef fty = LLVMIntrinsicGetType(c->lc, id, otys, notys);
  return LLVMBuildCall2(c->b, fty, f, args, nargs, "");
}

LLVMValueRef cg_asm(cg *c, LLVMTypeRef ret, const char *code, const char *cons, LLVMValueRef *args,
                    unsigned nargs, bool side_effects) {
  LLVMTypeRef atys[512];
  IR_ASSERT(nargs <= 512);
  for (unsigned i = 0; i < nargs; i++)
    atys[i] = LLVMTypeOf(args[i]);
  LLVMTypeRef fty = LLVMFunctionType(ret, atys, nargs, 0);
  LLVMValueRef asmv = LLVMGetInlineAsm(fty, code, strlen(code), cons, strlen(cons), side_effects, 0,
                                       LLVMInlineAsmDialectATT, 0);
  return LLVMBuildCall2(c->b, fty, asmv, args, nargs, "");
}

void cg_barrier(cg *c) {
  LLVMValueRef zero = cg_i32(c, 0);
  cg_intrinsic(c, "llvm.nvvm.barrier.cta.sync.aligned.all", NULL, 0, &zero, 1);
}

bool cg_unsupported(cg *c, const ir_op *op) {
  ir_error(c->ictx, op->loc, "unsupported in codegen: '%s'", ir_op_name(op));
  return false;
}

/* ---- dispatch ----------------------------------------------------------- */

/* The exhaustive switch over op kinds (no default, so -Wswitch reports a
 * new op): each family has its own file. */
static bool lower_op(cg *c, ir_op *op) {
  cg_debug_loc(c, op->loc);
  switch (op->kind) {
  case IR_OP_ARITH_ADDI:
  case IR_OP_ARITH_SUBI:
  case IR_OP_ARITH_MULI:
  case IR_OP_ARITH_DIVSI:
  case IR_OP_ARITH_DIVUI:
  case IR_OP_ARITH_REMSI:
  case IR_OP_ARITH_REMUI:
  case IR_OP_ARITH_ANDI:
  case IR_OP_ARITH_ORI:
  case IR_OP_ARITH_XORI:
  case IR_OP_ARITH_SHLI:
  case IR_OP_ARITH_SHRSI:
  case IR_OP_ARITH_SHRUI:
  case IR_OP_ARITH_MAXSI:
  case IR_OP_ARITH_MINSI:
  case IR_OP_ARITH_MAXUI:
  case IR_OP_ARITH_MINUI:
  case IR_OP_ARITH_ADDF:
  case IR_OP_ARITH_SUBF:
  case IR_OP_ARITH_MULF:
  case IR_OP_ARITH_DIVF:
  case IR_OP_ARITH_REMF:
  case IR_OP_ARITH_MAXNUMF:
  case IR_OP_ARITH_MINNUMF:
  case IR_OP_ARITH_MAXIMUMF:
  case IR_OP_ARITH_MINIMUMF:
  case IR_OP_ARITH_NEGF:
  case IR_OP_ARITH_CMPI:
  case IR_OP_ARITH_CMPF:
  case IR_OP_ARITH_SELECT:
  case IR_OP_ARITH_EXTSI:
  case IR_OP_ARITH_EXTUI:
  case IR_OP_ARITH_TRUNCI:
  case IR_OP_ARITH_EXTF:
  case IR_OP_ARITH_TRUNCF:
  case IR_OP_ARITH_SITOFP:
  case IR_OP_ARITH_UITOFP:
  case IR_OP_ARITH_FPTOSI:
  case IR_OP_ARITH_FPTOUI:
  case IR_OP_ARITH_BITCAST:
  case IR_OP_MATH_EXP:
  case IR_OP_MATH_EXP2:
  case IR_OP_MATH_LOG:
  case IR_OP_MATH_LOG2:
  case IR_OP_MATH_SQRT:
  case IR_OP_MATH_RSQRT:
  case IR_OP_MATH_ABSF:
  case IR_OP_MATH_ABSI:
  case IR_OP_MATH_SIN:
  case IR_OP_MATH_COS:
  case IR_OP_MATH_ERF:
  case IR_OP_MATH_FLOOR:
  case IR_OP_MATH_CEIL:
  case IR_OP_MATH_FMA:
  case IR_OP_TT_BITCAST:
  case IR_OP_TT_INT_TO_PTR:
  case IR_OP_TT_PTR_TO_INT:
  case IR_OP_TT_FP_TO_FP:
  case IR_OP_TT_MULHIUI:
  case IR_OP_TT_PRECISE_SQRT:
  case IR_OP_TT_PRECISE_DIVF:
  case IR_OP_TT_CLAMPF:
  case IR_OP_TT_EXTERN_ELEMENTWISE: return cg_lower_elementwise(c, op);

  case IR_OP_ARITH_CONSTANT:
  case IR_OP_TT_GET_PROGRAM_ID:
  case IR_OP_TT_GET_NUM_PROGRAMS:
  case IR_OP_TT_MAKE_RANGE:
  case IR_OP_TT_SPLAT:
  case IR_OP_TT_BROADCAST:
  case IR_OP_TT_EXPAND_DIMS:
  case IR_OP_TTG_CONVERT_LAYOUT: return cg_lower_tensor_op(c, op);

  case IR_OP_TT_RESHAPE:
  case IR_OP_TT_TRANS:
  case IR_OP_TT_JOIN:
  case IR_OP_TT_SPLIT: return cg_lower_relayout(c, op);

  case IR_OP_TT_SCAN: return cg_lower_scan(c, op);

  case IR_OP_TT_PRINT:
  case IR_OP_TT_ASSERT: return cg_lower_debug(c, op);

  case IR_OP_TT_ADDPTR:
  case IR_OP_TT_LOAD:
  case IR_OP_TT_STORE: return cg_lower_memory_op(c, op);

  case IR_OP_SCF_FOR:
  case IR_OP_SCF_IF:
  case IR_OP_SCF_WHILE: return cg_lower_scf_op(c, op);

  case IR_OP_TT_REDUCE: return cg_lower_reduce(c, op);

  case IR_OP_TT_ATOMIC_RMW:
  case IR_OP_TT_ATOMIC_CAS: return cg_lower_atomic(c, op);

  case IR_OP_TT_DOT: {
    const ir_attr *l = op->results[0].type->layout;
    return l && l->kind == IR_ATTR_NVIDIA_MMA ? cg_lower_mma(c, op) : cg_lower_dot(c, op);
  }

  case IR_OP_TTG_LOCAL_ALLOC:
  case IR_OP_TTG_LOCAL_LOAD:
  case IR_OP_TTG_LOCAL_STORE:
  case IR_OP_TTG_LOCAL_DEALLOC:
  case IR_OP_TTG_MEMDESC_TRANS:
  case IR_OP_TTG_MEMDESC_INDEX:
  case IR_OP_TTNG_FENCE_ASYNC_SHARED:
  case IR_OP_GPU_BARRIER: return cg_lower_shared_op(c, op);

  case IR_OP_TTNG_WARP_GROUP_DOT: return cg_lower_wgmma(c, op);
  case IR_OP_TTNG_WARP_GROUP_DOT_WAIT: return cg_lower_wgmma_wait(c, op);

  case IR_OP_TTG_ASYNC_COPY:
  case IR_OP_TTG_ASYNC_COMMIT_GROUP:
  case IR_OP_TTG_ASYNC_WAIT: return cg_lower_async(c, op);

  case IR_OP_TT_RETURN: /* a kernel: IR input may give it values, which a .entry cannot return */
    if (op->noperands > 0) {
      ir_error(c->ictx, op->loc, "a kernel returns no values, but this 'tt.return' has %d",
               op->noperands);
      return false;
    }
    LLVMBuildRetVoid(c->b);
    return true;

  /* Terminators other than tt.return are consumed by their parent op. */
  case IR_OP_SCF_YIELD:
  case IR_OP_SCF_CONDITION:
  case IR_OP_TT_REDUCE_RETURN:
  case IR_OP_TT_SCAN_RETURN:
  case IR_OP_MODULE:
  case IR_OP_TT_FUNC:
  case IR_NUM_OPS: return cg_unsupported(c, op);
  }
  return cg_unsupported(c, op);
}

static int64_t type_regs(cg *c, const ir_type *t) {
  if (!ir_type_is_tensor(t)) return 1;
  size_t h = ((uintptr_t)t >> 4) % (sizeof c->regs_key / sizeof c->regs_key[0]);
  if (c->regs_key[h] == t) return c->regs_val[h];
  ttg_ll l;
  int64_t n = ttg_ll_of_type(t, &l) ? ttg_ll_num_regs(&l) : 1; /* lowering reports it */
  c->regs_key[h] = t;
  c->regs_val[h] = n;
  return n;
}

/* Scalar shared-memory accesses cost LLVM more than their count: its
 * vector-combine pass splits vector loads of them and its load-store
 * vectorizer merges them again, each change renumbering the whole block.
 * Four rounds of max / exp / sum / divide on 512x512 tiles took 25 s to
 * PTX, eight 171 s, before this weight. */
#define CG_SHARED_WEIGHT 4

int64_t cg_op_cost(cg *c, const ir_op *op) {
  if (op->kind == IR_OP_ARITH_CONSTANT) return 0;
  int64_t n = 1;
  for (int i = 0; i < op->nresults; i++) {
    int64_t r = type_regs(c, op->results[i].type);
    n = r > n ? r : n;
  }
  for (int i = 0; i < op->noperands; i++) {
    int64_t r = type_regs(c, op->operands[i]->type);
    n = r > n ? r : n;
  }
  switch (op->kind) {
  case IR_OP_TT_REDUCE:
  case IR_OP_TT_SCAN: {
    /* The combiner once per element, and the moves between threads, which
     * go through shared memory (see below). */
    int64_t body = 1;
    const ir_block *combiner = op->nregions ? ir_region_entry(&op->regions[0]) : NULL;
    for (const ir_op *o = combiner ? combiner->first : NULL; o; o = o->next)
      body++;
    return CG_SHARED_WEIGHT * n * body;
  }
  case IR_OP_TTG_CONVERT_LAYOUT: return CG_SHARED_WEIGHT * n;
  case IR_OP_TT_DOT:
  case IR_OP_TTNG_WARP_GROUP_DOT: {
    /* Tensor-core instructions cover k = 16 (8 bits: 32) of the inner
     * dimension at once; an FMA dot does one multiply-add a step. */
    const ir_type *a = op->operands[0]->type;
    const ir_type *r = op->results[0].type;
    /* A is a tensor, or a shared-memory view for a wgmma reading it there. */
    int64_t k =
        (ir_type_is_tensor(a) || ir_type_is_memdesc(a)) && a->rank > 0 ? a->shape[a->rank - 1] : 1;
    bool mma = r->layout && r->layout->kind == IR_ATTR_NVIDIA_MMA;
    return n * (mma ? (k + 15) / 16 : k);
  }
  case IR_OP_MATH_EXP:
  case IR_OP_MATH_EXP2:
  case IR_OP_MATH_LOG:
  case IR_OP_MATH_LOG2:
  case IR_OP_MATH_SIN:
  case IR_OP_MATH_COS:
  case IR_OP_MATH_RSQRT: return 2 * n;
  case IR_OP_MATH_ERF:
  case IR_OP_TT_EXTERN_ELEMENTWISE: return 16 * n; /* libdevice functions, inlined */
  default: return n;
  }
}

bool cg_lower_block(cg *c, ir_block *blk, ir_op **term) {
  *term = NULL;
  for (ir_op *op = blk->first; op; op = op->next) {
    bool is_term = (ir_op_info_of(op)->traits & IR_T_TERMINATOR) != 0;
    if (is_term && op->kind != IR_OP_TT_RETURN) {
      *term = op;
      return true;
    }
    if (!lower_op(c, op)) return false;
    if (is_term) {
      *term = op;
      return true;
    }
  }
  return true;
}

/* ---- the kernel function ------------------------------------------------ */

static ir_op *find_func(const ir_module *m) {
  for (ir_op *op = ir_module_body(m)->first; op; op = op->next)
    if (op->kind == IR_OP_TT_FUNC) return op;
  return NULL;
}

static void add_fn_string_attr(cg *c, const char *k, const char *v) {
  LLVMAttributeRef a =
      LLVMCreateStringAttribute(c->lc, k, (unsigned)strlen(k), v, (unsigned)strlen(v));
  LLVMAddAttributeAtIndex(c->fn, LLVMAttributeFunctionIndex, a);
}

static void add_fn_enum_attr(cg *c, const char *k) {
  unsigned kind = LLVMGetEnumAttributeKindForName(k, strlen(k));
  LLVMAddAttributeAtIndex(c->fn, LLVMAttributeFunctionIndex,
                          LLVMCreateEnumAttribute(c->lc, kind, 0));
}

/* A PTX identifier: a letter then letters, digits, '_' and '$', or one of
 * '_', '$', '%' then at least one of those (PTX ISA, "Identifiers"). LLVM's
 * NVPTX backend aborts the process on any other kernel name, and an IR
 * symbol may hold any character. */
static bool ptx_identifier(const char *s) {
  bool letter = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z');
  if (!letter && *s != '_' && *s != '$' && *s != '%') return false;
  if (!letter && !s[1]) return false;
  for (const char *p = s + 1; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
          *p == '_' || *p == '$'))
      return false;
  return true;
}

/* The kernel: one LLVM function, ptx_kernel calling convention, exactly
 * num_warps * 32 threads (nvvm.reqntid), then the body in program order. */
bool cg_build_module(cg *c, const ir_module *m) {
  ir_op *func = find_func(m);
  if (!func) {
    ir_error(c->ictx, m->op->loc, "no tt.func in the module");
    return false;
  }
  const ir_attr *name_attr = ir_op_get_attr(func, "sym_name");
  const char *name = name_attr && name_attr->s ? name_attr->s : "kernel";
  if (!ptx_identifier(name)) {
    ir_error(c->ictx, func->loc,
             "kernel name '%s' is not a PTX identifier (a letter, '_', '$' or '%%' first, then "
             "letters, digits, '_' and '$')",
             name);
    return false;
  }
  ir_block *entry = ir_region_entry(&func->regions[0]);
  if (!entry) {
    ir_error(c->ictx, func->loc, "tt.func '%s' has no body", name);
    return false;
  }
  c->axis = ir_axis_analyze(func, &c->axis_arena);

  /* Parameters: the function's arguments, pointers in their address space. */
  int nargs = entry->nargs;
  LLVMTypeRef *ptys = ir_arena_alloc(&c->arena, sizeof(LLVMTypeRef) * (size_t)(nargs + 1));
  for (int i = 0; i < nargs; i++) {
    if (ir_type_is_tensor(entry->args[i]->type)) {
      ir_error(c->ictx, func->loc, "unsupported in codegen: tensor kernel argument %d", i);
      return false;
    }
    ptys[i] = cg_type(c, entry->args[i]->type);
  }
  LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->lc), ptys, (unsigned)nargs, 0);
  c->fn = LLVMAddFunction(c->mod, name, fty);
  LLVMSetFunctionCallConv(c->fn, LLVMPTXKernelCallConv);
  cg_debug_function(c, func, name);
  char nthreads[32];
  snprintf(nthreads, sizeof nthreads, "%d", c->num_warps * 32);
  add_fn_string_attr(c, "nvvm.reqntid", nthreads);
  add_fn_enum_attr(c, "nounwind");

  LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(c->lc, c->fn, "entry");
  LLVMPositionBuilderAtEnd(c->b, bb);
  for (int i = 0; i < nargs; i++) {
    cg_vals v = cg_vals_new(c, 1);
    v.v[0] = LLVMGetParam(c->fn, (unsigned)i);
    if (entry->args[i]->name)
      LLVMSetValueName2(v.v[0], entry->args[i]->name, strlen(entry->args[i]->name));
    cg_map_set(c, entry->args[i], v);
  }
  c->tid = cg_intrinsic(c, "llvm.nvvm.read.ptx.sreg.tid.x", NULL, 0, NULL, 0);
  c->lane = LLVMBuildAnd(c->b, c->tid, cg_i32(c, 31), "lane");
  c->warp = LLVMBuildLShr(c->b, c->tid, cg_i32(c, 5), "warp");

  ir_op *term = NULL;
  if (!cg_lower_block(c, entry, &term)) return false;
  if (!term || term->kind != IR_OP_TT_RETURN) LLVMBuildRetVoid(c->b);

  return !c->failed;
}
