// SPDX-License-Identifier: MIT
/* emit.c - cg_emit_ptx: sets up the NVPTX target machine (triple
 * nvptx64-nvidia-cuda, CPU = arch, +ptxNN), lowers the ttgir module into a
 * fresh LLVM context, verifies it, runs default<ON>, splits constant GEP
 * offsets out for NVPTX (gep_split.c), works around ptxas (ptxas_fixup.c,
 * wide_index.c) and prints both the optimized LLVM IR and the PTX. Every
 * LLVM object lives only in this call. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <llvm-c/Core.h>
#include <llvm-c/Support.h>

#include "codegen-llvm/cg.h"

static const char cg_triple[] = "nvptx64-nvidia-cuda";

/* The NVPTX processors LLVM 22 knows from sm_50 on (llc -mcpu=help). Any
 * other name makes LLVM print an "unrecognized processor" warning on stderr
 * and fall back to a generic CPU, which then aborts the process when an
 * intrinsic cannot be selected ("LLVM ERROR: Cannot select"). */
static const char *const cg_known_archs[] = {
    "sm_50",   "sm_52",  "sm_53",   "sm_60",   "sm_61",  "sm_62",   "sm_70",   "sm_72",  "sm_75",
    "sm_80",   "sm_86",  "sm_87",   "sm_88",   "sm_89",  "sm_90",   "sm_90a",  "sm_100", "sm_100a",
    "sm_100f", "sm_101", "sm_101a", "sm_101f", "sm_103", "sm_103a", "sm_103f", "sm_110", "sm_110a",
    "sm_110f", "sm_120", "sm_120a", "sm_120f", "sm_121", "sm_121a", "sm_121f",
};

int cg_num_targets(void) {
  int n = 0;
  for (size_t i = 0; i < sizeof cg_known_archs / sizeof cg_known_archs[0]; i++)
    n += atoi(cg_known_archs[i] + 3) >= 80;
  return n;
}

const char *cg_target_name(int index) {
  for (size_t i = 0; index >= 0 && i < sizeof cg_known_archs / sizeof cg_known_archs[0]; i++)
    if (atoi(cg_known_archs[i] + 3) >= 80 && index-- == 0) return cg_known_archs[i];
  return NULL;
}

/* The PTX ISA a target needs at least: 8.7 (CUDA 12.8), as Triton 3.6
 * emits, for sm_80 to sm_101 and sm_120; 8.8 for sm_103, sm_121 and the
 * family-specific 'f' targets; 9.0 (CUDA 13) for sm_88 and sm_110. LLVM's
 * NVPTX reports a lower version as a fatal error, which exits the process. */
static int min_ptx_version(const char *arch) {
  int sm = atoi(arch + 3);
  if (sm == 88 || sm == 110) return 90;
  if (sm == 103 || sm == 121 || strchr(arch + 3, 'f')) return 88;
  return 87;
}

static bool arch_ok(const char *arch) {
  for (size_t i = 0; i < sizeof cg_known_archs / sizeof cg_known_archs[0]; i++)
    if (strcmp(arch, cg_known_archs[i]) == 0) return true;
  return false;
}

/* LLVM's NVPTX backend takes time quadratic in the global memory operations
 * of one block (its MachineInstr peephole pass: 8192 scalar stores 0.26 s,
 * 16384 0.88 s, 262144 past 100 s; 16384 scalar loads 4.7 s, and 10 s more in
 * ptxas), so a kernel with more than this many is
 * a located error at the first one past it rather than a compile without
 * end. Real kernels have tens; the compile benchmarks two. */
#define CG_MAX_MEMORY_OPS (1 << 13)

/* The LLVM code of a kernel grows with the elements each thread holds of
 * every op's tiles, not with its ops alone: 100 elementwise statements on a
 * 2^20 tile with 4 warps (8192 elements a thread) took 32 s and 2.4 GB to
 * PTX, with every tile inside the limits. So the kernel's cost, the sum of
 * cg_op_cost over its ops (a loop body counts once), is bounded too. At the
 * bound, kernels of several shapes took 5 to 9 s and under 1 GB to PTX on a
 * 2-core machine; the 100k-statement benchmark kernel (one element a
 * thread) costs about 200k, the examples' matmul, attention and softmax
 * about 5k. */
#define CG_MAX_THREAD_OPS ((int64_t)1 << 18)

typedef struct budget {
  cg *c;
  int memory_ops;
  int64_t thread_ops;
  bool reported;
} budget;

static void count_op(ir_op *op, void *user) {
  budget *b = user;
  if (b->reported) return;
  b->thread_ops += cg_op_cost(b->c, op);
  if (b->thread_ops > CG_MAX_THREAD_OPS) {
    ir_error(b->c->ictx, op->loc,
             "the kernel lowers to more than the limit of %lld (2^18) scalar operations per "
             "thread (each op counts the elements a thread holds of its largest tile); LLVM's "
             "time grows with them: use smaller tiles, fewer ops or more warps",
             (long long)CG_MAX_THREAD_OPS);
    b->reported = true;
    return;
  }
  if (op->kind != IR_OP_TT_LOAD && op->kind != IR_OP_TT_STORE && op->kind != IR_OP_TT_ATOMIC_RMW &&
      op->kind != IR_OP_TT_ATOMIC_CAS)
    return;
  if (++b->memory_ops <= CG_MAX_MEMORY_OPS) return;
  ir_error(b->c->ictx, op->loc,
           "the kernel has more than %d global loads, stores and atomics (LLVM's backend takes "
           "time quadratic in them)",
           CG_MAX_MEMORY_OPS);
  b->reported = true;
}

/* The two limits above, checked before any LLVM IR is built. */
static bool check_budget(cg *c, const ir_module *m) {
  budget b = {c, 0, 0, false};
  ir_walk(m->op, count_op, &b);
  return !b.reported;
}

/* LLVM reports codegen problems (bad inline asm, ...) through the context;
 * without a handler it would print and exit. Errors become diagnostics. */
static void on_llvm_diag(LLVMDiagnosticInfoRef info, void *user) {
  cg *c = user;
  if (LLVMGetDiagInfoSeverity(info) != LLVMDSError || c->reading_libdevice) return;
  char *msg = LLVMGetDiagInfoDescription(info);
  ir_loc none = {0};
  ir_error(c->ictx, none, "internal error: LLVM: %s", msg);
  LLVMDisposeMessage(msg);
  c->failed = true;
}

static char *dup_n(const char *s, size_t n) {
  char *r = malloc(n + 1);
  if (!r) return NULL;
  memcpy(r, s, n);
  r[n] = '\0';
  return r;
}

static bool optimize(cg *c, LLVMTargetMachineRef tm, int level) {
  char pipeline[32];
  snprintf(pipeline, sizeof pipeline, "default<O%d>", level < 0 ? 0 : level > 3 ? 3 : level);
  LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
  LLVMErrorRef err = LLVMRunPasses(c->mod, pipeline, tm, pbo);
  LLVMDisposePassBuilderOptions(pbo);
  if (!err) return true;
  char *msg = LLVMGetErrorMessage(err);
  ir_loc none = {0};
  ir_error(c->ictx, none, "internal error: LLVM passes failed: %s", msg);
  LLVMDisposeErrorMessage(msg);
  return false;
}

static bool emit_ptx_text(cg *c, LLVMTargetMachineRef tm, char **ptx) {
  char *err = NULL;
  LLVMMemoryBufferRef buf = NULL;
  ir_loc none = {0};
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, c->mod, LLVMAssemblyFile, &err, &buf)) {
    ir_error(c->ictx, none, "internal error: PTX emission failed: %s", err ? err : "?");
    LLVMDisposeMessage(err);
    return false;
  }
  *ptx = dup_n(LLVMGetBufferStart(buf), LLVMGetBufferSize(buf));
  LLVMDisposeMemoryBuffer(buf);
  return *ptx != NULL && !c->failed;
}

/* The kernel's threads: the module's "ttg.num-warps", else the option. */
static int module_num_warps(const ir_module *m, const cg_options *opts) {
  int64_t nw = ir_op_get_int(m->op, "ttg.num-warps", 0);
  if (nw <= 0) nw = opts && opts->num_warps > 0 ? opts->num_warps : 4;
  return (int)nw;
}

/* The NVPTX target, once per process, with Triton's two options:
 * -nvptx-short-ptr, 32-bit pointers to shared, constant and local memory
 * (shared-memory addresses are 32-bit registers and their arithmetic
 * 32-bit), and -nvptx-mad-wide-opt, which selects `base + sext(x) * 2^k`
 * as one mad.wide.s32 (ptxas: LEA + LEA.HI.X.SX32 on the integer pipe)
 * rather than mul.wide.s32 and add.s64 (an IMAD.WIDE on the FMA pipe,
 * which a kernel's floating-point work also needs). */
static void init_nvptx(void) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  const char *argv[] = {"ttc", "-nvptx-short-ptr", "-nvptx-mad-wide-opt"};
  LLVMParseCommandLineOptions(3, argv, NULL);
}

/* With debug info NVPTX writes ".target sm_90a, debug", which makes ptxas
 * compile for the debugger (and refuse -O3: "optimized debugging not
 * supported"). Line tables need only the .loc lines, so the flag goes, as
 * Triton removes it. */
static void strip_target_debug(char *ptx) {
  char *t = strstr(ptx, "\n.target ");
  char *eol = t ? strchr(t + 1, '\n') : NULL;
  if (!eol) return;
  static const char flag[] = ", debug";
  for (char *p = t; p + sizeof flag - 1 <= eol; p++) {
    if (memcmp(p, flag, sizeof flag - 1) != 0) continue;
    memmove(p, p + sizeof flag - 1, strlen(p + sizeof flag - 1) + 1);
    return;
  }
}

/* The source file the module came from: its first op with a location. */
static const char *module_file(const ir_module *m) {
  if (m->op->loc.src) return m->op->loc.src->name;
  for (const ir_op *op = ir_module_body(m)->first; op; op = op->next)
    if (op->loc.src) return op->loc.src->name;
  return NULL;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

bool cg_emit_ptx(const ir_module *m, const cg_options *opts, char **llir, char **ptx) {
  double t0 = now_ms();
  *llir = NULL;
  *ptx = NULL;
  const char *arch = opts && opts->arch ? opts->arch : "sm_90";
  int ptx_version = opts && opts->ptx_version > 0 ? opts->ptx_version : min_ptx_version(arch);
  int level = opts ? opts->opt_level : 3;
  ir_loc none = {0};
  if (!arch_ok(arch)) {
    ir_error(m->ctx, none,
             "unsupported target architecture '%s', expected one LLVM knows "
             "(sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, ...)",
             arch);
    return false;
  }
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, init_nvptx);
  LLVMTargetRef target;
  char *err = NULL;
  if (LLVMGetTargetFromTriple(cg_triple, &target, &err)) {
    ir_error(m->ctx, none, "internal error: no NVPTX target in LLVM: %s", err ? err : "?");
    LLVMDisposeMessage(err);
    return false;
  }
  char features[32];
  snprintf(features, sizeof features, "+ptx%d", ptx_version);
  LLVMTargetMachineRef tm =
      LLVMCreateTargetMachine(target, cg_triple, arch, features, LLVMCodeGenLevelAggressive,
                              LLVMRelocDefault, LLVMCodeModelDefault);

  cg c;
  memset(&c, 0, sizeof c);
  c.ictx = m->ctx;
  c.im = m;
  c.num_warps = module_num_warps(m, opts);
  ir_arena_init(&c.arena);
  ir_arena_init(&c.axis_arena);
  c.lc = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(c.lc, on_llvm_diag, &c);
  c.mod = LLVMModuleCreateWithNameInContext("ttc", c.lc);
  c.b = LLVMCreateBuilderInContext(c.lc);
  LLVMSetTarget(c.mod, cg_triple);
  LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(c.mod, dl);
  LLVMDisposeTargetData(dl);
  /* As Triton: libdevice's __nvvm_reflect("__CUDA_FTZ") answers 1. */
  LLVMValueRef one = LLVMConstInt(LLVMInt32TypeInContext(c.lc), 1, 0);
  LLVMAddModuleFlag(c.mod, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 16,
                    LLVMValueAsMetadata(one));

  if (opts && opts->line_info) cg_debug_begin(&c, module_file(m));
  bool ok = check_budget(&c, m);
  ok = ok && cg_build_module(&c, m);
  double t_llvm = now_ms(); /* from here LLVM's: debug info, libdevice, verifier, optimizer */
  cg_debug_finish(&c);
  /* cg_link_libdevice reports why; the caller learns that the setup, not
   * the kernel, failed (a missing, unreadable or damaged file) */
  if (ok && !cg_link_libdevice(&c, opts ? opts->libdevice : NULL)) {
    ok = false;
    if (opts && opts->libdevice_missing) *opts->libdevice_missing = true;
  }
  if (ok) {
    char *msg = NULL;
    if (LLVMVerifyModule(c.mod, LLVMReturnStatusAction, &msg)) {
      ir_error(m->ctx, none, "internal error: invalid LLVM IR from codegen: %s", msg);
      ok = false;
    }
    LLVMDisposeMessage(msg);
  }
  ok = ok && optimize(&c, tm, level);
  t_llvm = now_ms() - t_llvm;
  if (ok) cg_split_gep_offsets(&c);
  if (ok) cg_ptxas_fixups(&c);
  if (ok && level > 0) cg_keep_wide_indices(&c);
  if (ok) {
    double tp = now_ms();
    char *text = LLVMPrintModuleToString(c.mod);
    *llir = dup_n(text, strlen(text));
    LLVMDisposeMessage(text);
    double t1 = now_ms();
    t_llvm += t1 - tp; /* LLVM's printer */
    ok = *llir != NULL && emit_ptx_text(&c, tm, ptx);
    if (ok && opts && opts->line_info) strip_target_debug(*ptx);
    if (opts && opts->stage_ms) {
      opts->stage_ms[0] = t1 - t0 - t_llvm;
      opts->stage_ms[1] = t_llvm;
      opts->stage_ms[2] = now_ms() - t1;
    }
  }
  if (!ok) {
    free(*llir);
    free(*ptx);
    *llir = *ptx = NULL;
  }
  LLVMDisposeBuilder(c.b);
  LLVMDisposeModule(c.mod);
  LLVMContextDispose(c.lc);
  LLVMDisposeTargetMachine(tm);
  free(c.map);
  ir_arena_free(&c.arena);
  ir_arena_free(&c.axis_arena);
  return ok;
}
