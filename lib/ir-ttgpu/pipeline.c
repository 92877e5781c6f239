// SPDX-License-Identifier: MIT
/* pipeline.c - the one registry of passes (ttir passes from
 * lib/ir-tt/passes.def, then the ttgir passes of passes.def here, in
 * pipeline order) and the default ttgir pipeline, shared by the compile
 * driver and the IR tool so both lower ttir to ttgir the same way. */
#include <stdio.h>
#include <string.h>

#include "ir-ttgpu/ttg.h"

const char *const ttg_convert_options[] = {"num-warps", "threads-per-warp", "num-ctas", "target",
                                           NULL};

static const ir_pass ttg_table[] = {
#define TTG_PASS(ID, NAME, SUMMARY, OPTIONS) {NAME, SUMMARY, OPTIONS, ttg_pass_##ID},
#include "ir-ttgpu/passes.def"
};

enum { NUM_TTG = sizeof ttg_table / sizeof ttg_table[0] };

int ttg_pass_count(void) { return ir_pass_count() + NUM_TTG; }

const ir_pass *ttg_pass_at(int i) {
  int nt = ir_pass_count();
  if (i < nt) return ir_pass_at(i);
  return i - nt < NUM_TTG ? &ttg_table[i - nt] : NULL;
}

const ir_pass *ttg_pass_lookup(const char *name, size_t len) {
  for (int i = 0; i < NUM_TTG; i++)
    if (strlen(ttg_table[i].name) == len && memcmp(ttg_table[i].name, name, len) == 0)
      return &ttg_table[i];
  return ir_pass_lookup(name, len);
}

bool ttg_pipeline_text(const ttg_options *o, char *buf, size_t n) {
  int k = snprintf(buf, n,
                   "convert-triton-to-tritongpu{num-warps=%d threads-per-warp=%d num-ctas=%d "
                   "target=cuda:%d},"
                   "tritongpu-coalesce,"
                   "tritongpu-remove-layout-conversions,"
                   "tritongpu-accelerate-matmul,"
                   "tritongpu-remove-layout-conversions,"
                   "tritongpu-optimize-dot-operands,"
                   "tritongpu-reduce-data-duplication,"
                   "tritongpu-optimize-accumulator-init,"
                   "tritongpu-pipeline{num-stages=%d remarks=%d},"
                   "cse,dce",
                   o->num_warps, o->threads_per_warp, o->num_ctas, o->compute_capability,
                   o->num_stages > 0 ? o->num_stages : 3, o->remarks ? 1 : 0);
  return k > 0 && (size_t)k < n;
}
