// SPDX-License-Identifier: MIT
/* fuzz_ir.c - libFuzzer target for .ttir / .ttgir text: parsed, verified,
 * run through the ttir passes (canonicalize, cse, dce, version-bounded-stores),
 * printed; then through the ttgir passes
 * as `ttc --emit ttgir` runs them on ttir, with tritongpu-fuse-nested-loops
 * (not in the default pipeline) before the pipeliner and shared-memory
 * allocation after it, verified after each; the same text is then made
 * into a kernel (ttc_kernel_create_from_ttir) and loaded on the interpreter
 * (not run: a fuzzed kernel may loop). Any status is fine; a crash, a hang
 * or a sanitizer report is a finding. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/ttc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  ttc_ir_options o;
  ttc_ir_options_init(&o);
  o.passes = "canonicalize,cse,dce,version-bounded-stores";
  ttc_ir_result *r = NULL;
  ttc_ir_run(text, size, "fuzz.ttir", &o, &r);
  ttc_ir_result_destroy(r);
  o.passes =
      "convert-triton-to-tritongpu{num-warps=4 target=cuda:90},tritongpu-coalesce,"
      "tritongpu-remove-layout-conversions,tritongpu-accelerate-matmul,"
      "tritongpu-remove-layout-conversions,tritongpu-optimize-dot-operands,"
      "tritongpu-reduce-data-duplication,tritongpu-fuse-nested-loops,tritongpu-optimize-accumulator-init,"
      "tritongpu-pipeline{num-stages=3},cse,dce,allocate-shared-memory,tritongpu-membar";
  o.verify_each = 1;
  r = NULL;
  ttc_ir_run(text, size, "fuzz.ttir", &o, &r);
  ttc_ir_result_destroy(r);
  ttc_kernel *k = NULL;
  if (ttc_kernel_create_from_ttir(text, size, "fuzz.ttir", NULL, &k) == TTC_OK) {
    static ttc_device *dev; /* one interpreter for the whole run */
    char err[128];
    if (!dev) ttc_device_open_interpreter(&dev, err, sizeof err);
    ttc_module *mod = NULL;
    if (dev && ttc_module_load(dev, k, &mod) == TTC_OK) ttc_module_destroy(mod);
  }
  ttc_kernel_destroy(k);
  return 0;
}
