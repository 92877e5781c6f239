// SPDX-License-Identifier: MIT
/* fuzz_signature.c - libFuzzer target for signature strings (Triton's AOT
 * format, "*fp32:16,i32,1024") and constexpr strings ("BLOCK=64, EVEN=True"):
 * a fixed kernel is compiled to ttir with the input as its signature, and a
 * kernel function is created with it as its constexprs. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/ttc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char src[] =
    "import triton\nimport triton.language as tl\n\n"
    "@triton.jit\n"
    "def k(x_ptr, y_ptr, n, scale, BLOCK: tl.constexpr, MODE: tl.constexpr = 'add'):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    m = offs < n\n"
    "    x = tl.load(x_ptr + offs, mask=m)\n"
    "    if MODE == 'add':\n"
    "        x = x + scale\n"
    "    tl.store(y_ptr + offs, x, mask=m)\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  char *s = malloc(size + 1);
  if (!s) return 0;
  memcpy(s, data, size);
  s[size] = '\0';
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = TTC_LEVEL_TTIR;
  o.cache = 0;
  ttc_kernel *k = NULL;
  ttc_compile(src, sizeof src - 1, "sig.py", "k", s, &o, &k);
  ttc_kernel_destroy(k);
  static ttc_device *dev;
  char err[128];
  if (!dev) ttc_device_open_interpreter(&dev, err, sizeof err);
  ttc_function_options fo;
  ttc_function_options_init(&fo);
  fo.cache = 0;
  ttc_function *f = NULL;
  if (dev) ttc_function_create(dev, src, sizeof src - 1, "sig.py", "k", s, &fo, &f);
  ttc_function_destroy(f);
  free(s);
  return 0;
}
