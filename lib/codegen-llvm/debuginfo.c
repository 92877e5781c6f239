// SPDX-License-Identifier: MIT
/* debuginfo.c - line tables, as Triton emits them: a DICompileUnit with
 * line tables only, a DISubprogram for the kernel, and before each op is
 * lowered the builder's debug location set to the op's source position, so
 * that NVPTX writes .file/.loc and profilers, compute-sanitizer and
 * cuda-gdb name kernel-file lines. Ops from jit helpers (inlined at the ttir
 * level) keep their own positions; one in another file is scoped by a
 * DILexicalBlockFile of that file inside the kernel's subprogram. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include "codegen-llvm/cg.h"

#define MAX_FILES 64

struct cg_debug {
  LLVMDIBuilderRef di;
  LLVMMetadataRef cu, sp;
  /* the files seen so far and their scopes (the first: the subprogram's) */
  int nfiles;
  const char *names[MAX_FILES];
  LLVMMetadataRef files[MAX_FILES], scopes[MAX_FILES];
  unsigned last_line, last_col;
  const char *last_name;
};

/* The DIFile of a source name: "dir/f.py" as directory "dir", file "f.py". */
static LLVMMetadataRef make_file(LLVMDIBuilderRef di, const char *name) {
  const char *slash = strrchr(name, '/');
  if (!slash) return LLVMDIBuilderCreateFile(di, name, strlen(name), "", 0);
  size_t dlen = slash == name ? 1 : (size_t)(slash - name);
  return LLVMDIBuilderCreateFile(di, slash + 1, strlen(slash + 1), name, dlen);
}

void cg_debug_begin(cg *c, const char *main_file) {
  cg_debug *d = calloc(1, sizeof *d);
  if (!d) return; /* no line info rather than no kernel */
  d->di = LLVMCreateDIBuilder(c->mod);
  const char *name = main_file && *main_file ? main_file : "<unknown>";
  d->names[0] = name;
  d->files[0] = make_file(d->di, name);
  d->nfiles = 1;
  static const char producer[] = "ttc";
  d->cu = LLVMDIBuilderCreateCompileUnit(d->di, LLVMDWARFSourceLanguagePython, d->files[0],
                                         producer, sizeof producer - 1, 1, "", 0, 0, "", 0,
                                         LLVMDWARFEmissionLineTablesOnly, 0, 0, 0, "", 0, "", 0);
  LLVMMetadataRef version = LLVMValueAsMetadata(
      LLVMConstInt(LLVMInt32TypeInContext(c->lc), LLVMDebugMetadataVersion(), 0));
  LLVMAddModuleFlag(c->mod, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18, version);
  LLVMMetadataRef dwarf = LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(c->lc), 2, 0));
  LLVMAddModuleFlag(c->mod, LLVMModuleFlagBehaviorWarning, "Dwarf Version", 13, dwarf);
  c->dbg = d;
}

/* Creates the DILocation of every op under `op`, in program order, before
 * any instruction exists: LLVM allocates each one (about 50 bytes) on first
 * use, and created between instructions they spread the instruction list
 * over twice the memory; on a 100k-op kernel that made every LLVM pass's
 * walk over the instructions miss the caches (3x slower codegen). Created
 * here, they sit together and the instructions lie densely after them. */
static void make_locs(cg *c, const ir_op *op) {
  for (int r = 0; r < op->nregions; r++)
    for (const ir_block *b = op->regions[r].first; b; b = b->next)
      for (const ir_op *o = b->first; o; o = o->next) {
        cg_debug_loc(c, o->loc);
        make_locs(c, o);
      }
}

void cg_debug_function(cg *c, const ir_op *func, const char *name) {
  cg_debug *d = c->dbg;
  if (!d) return;
  LLVMMetadataRef ty = LLVMDIBuilderCreateSubroutineType(d->di, d->files[0], NULL, 0, 0);
  unsigned line = func->loc.src ? func->loc.line : 0;
  d->sp = LLVMDIBuilderCreateFunction(d->di, d->files[0], name, strlen(name), name, strlen(name),
                                      d->files[0], line, ty, 0, 1, line, 0, 1);
  LLVMSetSubprogram(c->fn, d->sp);
  d->scopes[0] = d->sp;
  make_locs(c, func);
  cg_debug_loc(c, func->loc);
}

/* The scope of positions in file `name`: the subprogram for the kernel's
 * own file, a lexical block file for another (a jit helper's module). */
static LLVMMetadataRef scope_of(cg_debug *d, const char *name) {
  for (int i = 0; i < d->nfiles; i++)
    if (d->names[i] == name || strcmp(d->names[i], name) == 0) return d->scopes[i];
  if (d->nfiles == MAX_FILES) return d->sp;
  int i = d->nfiles++;
  d->names[i] = name;
  d->files[i] = make_file(d->di, name);
  d->scopes[i] = LLVMDIBuilderCreateLexicalBlockFile(d->di, d->sp, d->files[i], 0);
  return d->scopes[i];
}

void cg_debug_loc(cg *c, ir_loc loc) {
  cg_debug *d = c->dbg;
  if (!d || !d->sp) return;
  const char *name = loc.src ? loc.src->name : d->names[0];
  unsigned line = loc.src ? loc.line : 0, col = loc.src ? loc.col : 0;
  if (line == d->last_line && col == d->last_col && name == d->last_name) return;
  d->last_line = line;
  d->last_col = col;
  d->last_name = name;
  LLVMMetadataRef at = LLVMDIBuilderCreateDebugLocation(c->lc, line, col, scope_of(d, name), NULL);
  LLVMSetCurrentDebugLocation2(c->b, at);
}

void cg_debug_finish(cg *c) {
  cg_debug *d = c->dbg;
  if (!d) return;
  LLVMDIBuilderFinalize(d->di);
  LLVMDisposeDIBuilder(d->di);
  free(d);
  c->dbg = NULL;
}
