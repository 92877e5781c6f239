/* pipeline.c - the ttgir pass pipeline: one list shared by the compile
 * driver and the IR tool, so both lower ttir to ttgir the same way. */
#include <string.h>

#include "ir-ttgpu/ttg.h"

const char *const ttg_pipeline_names[] = {
    "ttg-coalesce",   /* widest coalesced accesses per shape */
    "ttg-remove-layout-conversions", /* recompute instead of converting */
    "cse",            /* clones of the same chain become one */
    "dce",            /* the originals that lost their uses */
};
const int ttg_pipeline_len = (int)(sizeof ttg_pipeline_names / sizeof ttg_pipeline_names[0]);

static const ir_pass *const ttg_passes[] = {
    &ttg_pass_convert_info,
    &ttg_pass_coalesce_info,
    &ttg_pass_remove_convert_info,
};

const ir_pass *ttg_pass_lookup(const char *name) {
  for (size_t i = 0; i < sizeof ttg_passes / sizeof ttg_passes[0]; i++)
    if (strcmp(ttg_passes[i]->name, name) == 0) return ttg_passes[i];
  return ir_pass_lookup(name);
}
