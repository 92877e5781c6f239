// SPDX-License-Identifier: MIT
/* names.c - static names of the public enums (statuses, levels): the one
 * table of each, used by the CLI, messages and metadata alike; and the
 * versions and targets (ttc's, LLVM's, ptxas's) that `ttc --version` shows.
 * Type names belong to the signature format (lib/frontend/signature.c). */
#include <stdlib.h>
#include <string.h>

#include <llvm/Config/llvm-config.h>

#include "codegen-llvm/cg.h"
#include "driver/driver.h"

const char *ttc_status_string(ttc_status status) {
  switch (status) {
  case TTC_OK: return "ok";
  case TTC_ERROR_INPUT: return "input error";
  case TTC_ERROR_ARGUMENT: return "invalid argument";
  case TTC_ERROR_UNSUPPORTED: return "unsupported";
  case TTC_ERROR_IO: return "i/o error";
  case TTC_ERROR_TOOL: return "external tool failed";
  case TTC_ERROR_LLVM: return "llvm error";
  case TTC_ERROR_NO_DEVICE: return "no device";
  case TTC_ERROR_CUDA: return "cuda error";
  case TTC_ERROR_OUT_OF_MEMORY: return "out of memory";
  case TTC_ERROR_INTERNAL: return "internal error";
  case TTC_ERROR_OUT_OF_BOUNDS: return "out-of-bounds access";
  }
  return "unknown status";
}

const char *ttc_version(void) { return TTC_VERSION_STRING; }

bool drv_line_info(int no_line_info) {
  const char *e = getenv("TTC_DISABLE_LINE_INFO");
  bool off = e && (strcmp(e, "1") == 0 || strcmp(e, "true") == 0 || strcmp(e, "yes") == 0 ||
                   strcmp(e, "on") == 0);
  return !no_line_info && !off;
}

void drv_options_init(void *opts, size_t size, const void *def, size_t def_size) {
  if (!opts || size < sizeof(size_t)) return;
  memset(opts, 0, size);
  memcpy(opts, def, size < def_size ? size : def_size);
  memcpy(opts, &size, sizeof size);
}

bool drv_options_read(void *out, size_t out_size, const void *in, size_t min_size) {
  size_t size;
  memcpy(&size, in, sizeof size);
  if (size < min_size) return false;
  memcpy(out, in, size < out_size ? size : out_size);
  memcpy(out, &out_size, sizeof out_size);
  return true;
}

unsigned long ttc_version_number(void) { return TTC_VERSION_NUMBER; }

const char *ttc_llvm_version(void) { return LLVM_VERSION_STRING; }

ttc_status ttc_ptxas_version(const char *ptxas, char *buf, size_t cap) {
  if (!buf || cap == 0) return TTC_ERROR_ARGUMENT;
  return cg_ptxas_version(ptxas, buf, cap) ? TTC_OK : TTC_ERROR_TOOL;
}

int ttc_num_targets(void) { return cg_num_targets(); }

const char *ttc_target_name(int index) { return cg_target_name(index); }

const char *ttc_level_name(ttc_level level) {
  switch (level) {
  case TTC_LEVEL_TTIR: return "ttir";
  case TTC_LEVEL_TTGIR: return "ttgir";
  case TTC_LEVEL_LLIR: return "llir";
  case TTC_LEVEL_PTX: return "ptx";
  case TTC_LEVEL_CUBIN: return "cubin";
  }
  return "?";
}
