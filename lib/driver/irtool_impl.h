// SPDX-License-Identifier: MIT
/* irtool_impl.h - the parts of the IR tool (ttc_ir_run, include/ttc/irtool.h)
 * shared between its files: irtool.c (running a module through a pipeline,
 * results), irtool_passes.c (the passes the tool can name, the test-only
 * ones included) and irtool_verify.c (checking
 * expected diagnostics). */
#ifndef TTC_DRIVER_IRTOOL_IMPL_H
#define TTC_DRIVER_IRTOOL_IMPL_H

#include "driver/driver.h"
#include "ttc/irtool.h"

/* ---- irtool_passes.c ------------------------------------------------------ */

/* Any pass the tool can name (the registry and its test-only passes); an
 * ir_pass_lookup_fn for ir_pipeline_parse. */
const ir_pass *irt_pass_lookup(const char *name, size_t len);

#endif
