// SPDX-License-Identifier: MIT
/* fuzz_source.c - libFuzzer target for kernel source: the input is a header
 * line "NAME SIGNATURE" and then a kernel file; it is compiled to ttgir (the
 * frontend, the ttir passes and the ttgir conversion; not LLVM, for speed).
 * Any status is fine; a crash, a hang, a sanitizer report or an internal
 * error is a finding. Built by -DTTC_FUZZ=ON with clang (test/fuzz/README). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/ttc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  const char *nl = memchr(text, '\n', size);
  if (!nl || nl - text > 512) return 0;
  char header[513];
  memcpy(header, text, (size_t)(nl - text));
  header[nl - text] = '\0';
  char *sig = strchr(header, ' ');
  if (!sig) return 0;
  *sig++ = '\0';
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = TTC_LEVEL_TTGIR;
  o.cache = 0;
  ttc_kernel *k = NULL;
  ttc_compile(nl + 1, size - (size_t)(nl + 1 - text), "fuzz.py", header, sig, &o, &k);
  ttc_kernel_destroy(k);
  return 0;
}
