// SPDX-License-Identifier: MIT
/* libdevice.c - NVIDIA's libdevice (math in LLVM bitcode) on demand: math
 * lowering calls __nv_* functions through cg_libdevice_call, which only
 * declares them; cg_link_libdevice then parses libdevice.10.bc, links it into
 * the kernel's module and internalizes every function but the kernel, so
 * that O3 inlines what is used and drops the rest. Kernels without such
 * calls never read the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/Linker.h>

#include "codegen-llvm/cg.h"

#ifndef TTC_DEFAULT_CUDA_HOME
#define TTC_DEFAULT_CUDA_HOME "/usr/local/cuda"
#endif

LLVMValueRef cg_libdevice_call_typed(cg *c, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                                     LLVMValueRef *args, unsigned nargs) {
  LLVMTypeRef fty = LLVMFunctionType(ret, params, nargs, 0);
  LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
  if (!f) f = LLVMAddFunction(c->mod, name, fty);
  c->needs_libdevice = true;
  return LLVMBuildCall2(c->b, fty, f, args, nargs, "");
}

LLVMValueRef cg_libdevice_call(cg *c, const char *name, LLVMTypeRef ty, LLVMValueRef *args,
                               unsigned nargs) {
  LLVMTypeRef ptys[3] = {ty, ty, ty};
  return cg_libdevice_call_typed(c, name, ty, ptys, args, nargs);
}

/* The bitcode path: the option, then $TTC_LIBDEVICE, then the CUDA home's. */
const char *cg_libdevice_path(const char *path, char *buf, size_t cap) {
  if (path && *path) return path;
  const char *env = getenv("TTC_LIBDEVICE");
  if (env && *env) return env;
  snprintf(buf, cap, "%s/nvvm/libdevice/libdevice.10.bc", TTC_DEFAULT_CUDA_HOME);
  return buf;
}

bool cg_link_libdevice(cg *c, const char *path) {
  if (!c->needs_libdevice) return true;
  char buf[1024];
  path = cg_libdevice_path(path, buf, sizeof buf);
  ir_loc none = {0};
  LLVMMemoryBufferRef mb = NULL;
  char *msg = NULL;
  /* a FIFO would block the read, a device read forever: only a regular file
   * of a plausible size (libdevice.10.bc: 470 KB) */
  struct stat st;
  if (stat(path, &st) == 0 && (!S_ISREG(st.st_mode) || st.st_size > ((off_t)64 << 20))) {
    ir_error(c->ictx, none, "cannot read libdevice '%s': %s (set TTC_LIBDEVICE)", path,
             S_ISREG(st.st_mode) ? "larger than 64 MiB" : "not a regular file");
    return false;
  }
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &mb, &msg)) {
    ir_error(c->ictx, none, "cannot read libdevice '%s': %s (set TTC_LIBDEVICE)", path,
             msg ? msg : "?");
    LLVMDisposeMessage(msg);
    return false;
  }
  LLVMModuleRef lib = NULL;
  c->reading_libdevice = true;
  bool bad = LLVMParseBitcodeInContext2(c->lc, mb, &lib) != 0;
  c->reading_libdevice = false;
  LLVMDisposeMemoryBuffer(mb);
  if (bad) {
    ir_error(c->ictx, none, "cannot parse libdevice '%s' as LLVM bitcode", path);
    return false;
  }
  /* Same triple and layout as the kernel, so the linker does not warn. */
  LLVMSetTarget(lib, LLVMGetTarget(c->mod));
  LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(c->mod));
  if (LLVMLinkModules2(c->mod, lib)) { /* `lib` is consumed either way */
    ir_error(c->ictx, none, "internal error: linking libdevice '%s' failed", path);
    return false;
  }
  /* Internalize: only the kernel stays visible. */
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f))
    if (f != c->fn && !LLVMIsDeclaration(f)) LLVMSetLinkage(f, LLVMInternalLinkage);
  for (LLVMValueRef g = LLVMGetFirstGlobal(c->mod); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) != LLVMInternalLinkage &&
        LLVMGetLinkage(g) != LLVMPrivateLinkage)
      LLVMSetLinkage(g, LLVMInternalLinkage);
  return true;
}
