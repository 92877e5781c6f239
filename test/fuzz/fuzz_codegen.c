// SPDX-License-Identifier: MIT
/* fuzz_codegen.c - libFuzzer target for .ttir / .ttgir text all the way to
 * LLVM IR (at -O0, so that the time goes to ttc's own lowering): parsed,
 * verified, converted and lowered, with LLVM's verifier on what codegen
 * built. An input the IR verifier accepts must lower to valid LLVM IR, so
 * beyond a crash, a hang or a sanitizer report, an "internal error" among
 * the diagnostics is a finding too (it means the IR verifier let through
 * something codegen cannot lower): the target aborts on it. Errors about
 * the input (located diagnostics, unsupported features) are fine. An input
 * that holds the words itself is not checked: its echo in a located
 * diagnostic would read the same. */
#define _GNU_SOURCE /* memmem */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/ttc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ttc_ir_options o;
  ttc_ir_options_init(&o);
  o.emit = TTC_LEVEL_LLIR;
  o.opt_level = 0;
  o.arch = "sm_90a";
  ttc_ir_result *r = NULL;
  ttc_ir_run((const char *)data, size, "fuzz.ttir", &o, &r);
  static const char words[] = "internal error";
  const char *diag = r ? ttc_ir_result_diagnostics(r) : NULL;
  if (diag && strstr(diag, words) && !memmem(data, size, words, sizeof words - 1)) {
    fprintf(stderr, "fuzz_codegen: the IR verifier accepted what codegen cannot lower:\n%s\n",
            diag);
    abort();
  }
  ttc_ir_result_destroy(r);
  return 0;
}
