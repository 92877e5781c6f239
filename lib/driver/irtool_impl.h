/* irtool_impl.h - the parts of the IR tool (ttc_ir_run, include/ttc/irtool.h)
 * shared between its files: irtool.c (running a module through a pipeline,
 * results), irtool_passes.c (the registry of every pass the tool can name,
 * pipeline strings, the test-only passes) and irtool_verify.c (checking
 * expected diagnostics). */
#ifndef TTC_DRIVER_IRTOOL_IMPL_H
#define TTC_DRIVER_IRTOOL_IMPL_H

#include "driver/driver.h"
#include "ttc/irtool.h"

/* ---- irtool_passes.c ------------------------------------------------------ */

typedef enum irt_kind {
  IRT_TTIR,    /* a passes.def pass */
  IRT_CONVERT, /* convert-triton-to-tritongpu, with options */
  IRT_PASS,    /* a ttgir pass without options (ttg-coalesce, ...) */
  IRT_BREAK    /* test-break-verifier */
} irt_kind;

/* One pass of a pipeline, with its options (-1: not given). */
typedef struct irt_step {
  irt_kind kind;
  const char *name;  /* registry name; static */
  char *spec;        /* as written, options included; malloc'd */
  const ir_pass *pass; /* IRT_TTIR, IRT_PASS */
  int num_warps, threads_per_warp, num_ctas, cc;
} irt_step;

typedef struct irt_pipeline {
  irt_step *steps; /* malloc'd */
  int n;
} irt_pipeline;

/* Parses "cse,convert-triton-to-tritongpu{num-warps=8 target=cuda:80}".
 * Errors (unknown pass, bad option) are emitted on ctx without a location;
 * returns false then. The caller frees *out with irt_pipeline_free (also
 * after a failure). */
bool irt_pipeline_parse(ir_context *ctx, const char *text, irt_pipeline *out);
void irt_pipeline_free(irt_pipeline *pl);
/* Appends one step by registry name with convert options (-1: from the module). */
bool irt_pipeline_add(irt_pipeline *pl, const char *name, int num_warps, int cc);
/* Runs one step; false when the pass failed (it has emitted a diagnostic). */
bool irt_step_run(const irt_step *s, ir_module *m, ir_arena *scratch);

#endif
