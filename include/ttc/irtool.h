// SPDX-License-Identifier: MIT
/* ttc/irtool.h - ttc as an IR tool, as triton-opt and mlir-opt are: parse
 * ttir / ttgir text, run named passes in order, print the IR before and
 * after passes, verify, time, check expected diagnostics, and keep the IR
 * a failing pass received so that the failure can be reproduced alone. */
#ifndef TTC_IRTOOL_H
#define TTC_IRTOOL_H

#include "ttc/base.h"
#include "ttc/compile.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ttc_ir_options {
  size_t size; /* sizeof(ttc_ir_options) as the caller knows it (the init sets it) */
  /* Comma-separated pass pipeline, run exactly in this order: "cse,dce",
   * "convert-triton-to-tritongpu{num-warps=8 target=cuda:80},tritongpu-coalesce".
   * NULL or "": no passes. */
  const char *passes;
  const char *print_before; /* pass name or "all": dump the IR before it; NULL: none */
  const char *print_after;  /* same, after the pass */
  int verify_each;     /* nonzero: verify after every pass (always: after parsing and at the end) */
  int time_passes;     /* nonzero: a timing report in the dump */
  int print_locations; /* nonzero: ttir/ttgir output carries loc(...) */
  /* Output level; -1 (the default): print the IR where the passes leave it.
   * TTC_LEVEL_TTGIR on ttir converts it (convert-triton-to-tritongpu with
   * num_warps and arch, then tritongpu-coalesce); LLIR, PTX and CUBIN continue
   * to codegen and ptxas. */
  int emit;
  int num_warps;     /* for the conversion --emit adds; default 4 */
  const char *arch;  /* "sm_90a"; NULL: the module's ttg.target, else sm_90 */
  const char *ptxas; /* NULL: $TTC_PTXAS, PATH, the CUDA toolkit */
  /* Cases separated by lines holding `// -----` are processed one by one;
   * outputs are joined with "// -----\n". Line numbers stay those of the file. */
  int split_input_file;
  /* Checks the diagnostics against `expected-error {{...}}` comments (see
   * ttc_verify_diagnostics) instead of reporting them; the status is TTC_OK
   * exactly when they match, and the diagnostics text lists the differences. */
  int verify_diagnostics;
  /* Nonzero: keep the IR each pass receives (one print per pass), so that
   * ttc_ir_result_reproducer can return it when a pass fails. */
  int keep_reproducer;
  int opt_level; /* LLVM's optimization level for llir/ptx/cubin output, 0..3; default 3 */
  /* Added after the first version (which ended at opt_level). */
  int no_line_info; /* nonzero: no .file/.loc from the IR's loc(...) (as ttc_compile_options) */
} ttc_ir_options;

/* Fills the first `size` bytes of *opts with the defaults above (no
 * passes, emit -1, 4 warps, opt_level 3) and sets opts->size; call it
 * through ttc_ir_options_init. */
TTC_API void ttc_ir_options_init_sized(ttc_ir_options *opts, size_t size);
#define ttc_ir_options_init(opts) ttc_ir_options_init_sized((opts), sizeof *(opts))

typedef struct ttc_ir_result ttc_ir_result;

/* Parses `text` (ttir or ttgir, need not be NUL-terminated; `filename`
 * names it in diagnostics), verifies it, runs opts->passes and produces the
 * opts->emit level. On return *out is a new result owned by the caller (also
 * on failure; NULL only when memory ran out or an argument was NULL).
 * Returns TTC_ERROR_INPUT for malformed IR, a failing pass or a verifier
 * error, TTC_ERROR_ARGUMENT for an unknown pass or bad pass options. */
TTC_API ttc_status ttc_ir_run(const char *text, size_t len, const char *filename,
                              const ttc_ir_options *opts, ttc_ir_result **out);

/* Frees the result; NULL is accepted.
 * Returns TTC_ERROR_ARGUMENT, touching nothing, for a handle already destroyed
 * (docs/api.md, "Misuse"). */
TTC_API ttc_status ttc_ir_result_destroy(ttc_ir_result *r);
/* The output (IR text, LLVM IR, PTX: NUL-terminated; cubin: bytes), or NULL
 * when processing failed before producing it. Borrowed. */
TTC_API const void *ttc_ir_result_output(const ttc_ir_result *r, size_t *size);
/* Rendered diagnostics ("file:line:col: error: msg", source line, caret),
 * or the verify-diagnostics report; "" when none. Borrowed. */
TTC_API const char *ttc_ir_result_diagnostics(const ttc_ir_result *r);
/* The --print-before/--print-after dumps and the --time-passes report; ""
 * when none. Borrowed. */
TTC_API const char *ttc_ir_result_dump(const ttc_ir_result *r);
/* With opts->keep_reproducer, when a pass failed or the verifier rejected
 * the IR after it: the IR that pass received (printed with locations) and,
 * in *passes, the pipeline that reproduces the failure on it. NULL when
 * nothing failed. Borrowed. */
TTC_API const char *ttc_ir_result_reproducer(const ttc_ir_result *r, const char **passes);
/* Kernel metadata JSON for --emit cubin, else NULL. Borrowed. */
TTC_API const char *ttc_ir_result_metadata_json(const ttc_ir_result *r);

/* Every pass --passes can name, in pipeline order: ttir passes, then ttgir
 * passes, then test passes. Names and summaries are static strings; NULL
 * for an index out of range. */
TTC_API int ttc_ir_pass_count(void);
TTC_API const char *ttc_ir_pass_name(int i);
TTC_API const char *ttc_ir_pass_summary(int i);

/* Compares rendered diagnostics (as ttc_kernel_diagnostics gives them)
 * against the expectations written in `source`, as MLIR's
 * -verify-diagnostics does: `expected-error {{text}}` (also -warning,
 * -note, -remark) expects a diagnostic of that severity whose message
 * contains text on the comment's own line; `expected-error@+1`, `@-2`
 * shift the line, `@unknown` expects one without a location. Comments may
 * start with `//` or `#`. Every error, warning and remark must be expected;
 * notes are checked only where expected. Returns TTC_OK when all match,
 * else TTC_ERROR_INPUT with *report (caller frees; "" on a match) listing
 * each difference located in `filename` (TTC_ERROR_OUT_OF_MEMORY when the
 * report could not be built; TTC_ERROR_ARGUMENT for NULL arguments or a
 * source over 64 MiB). */
TTC_API ttc_status ttc_verify_diagnostics(const char *source, size_t len, const char *filename,
                                          const char *diagnostics, char **report);

#ifdef __cplusplus
}
#endif
#endif
