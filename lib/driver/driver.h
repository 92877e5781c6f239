/* driver.h - the internal header of lib/driver: the compile pipeline behind
 * the public ttc_compile API and the ttc_kernel object it fills. */
#ifndef TTC_DRIVER_H
#define TTC_DRIVER_H

#include "ttc/ttc.h"
#include "ir-tt/ir.h"

/* The compile result. Every pointer is owned by the kernel (malloc'd). */
struct ttc_kernel {
  ttc_status status;
  char *diagnostics;                  /* rendered, "" when none */
  void *out[TTC_NUM_LEVELS];          /* text levels NUL-terminated */
  size_t out_size[TTC_NUM_LEVELS];
  char *metadata;                     /* JSON or NULL */
  char *name;
  char arch[16];
  int num_warps, num_stages, shared_bytes;
  int nparams;
  ttc_type *param_types;
  ttc_type *param_pointees;
  /* What the kernel was compiled from, kept so the interpreter can lower it
   * to ttir again (NULL when the source could not be read). */
  char *source;
  size_t source_len;
  char *filename;
  char *signature;
  char **include_dirs; /* copies of the options' include directories */
  int ninclude_dirs;
};

/* ---- compile.c ----------------------------------------------------------- */

/* Lowers the kernel's source to ttir again and runs the ttir passes, in a
 * new context. On success returns the module and sets *ctx_out; the caller
 * destroys the module, then the context. On failure returns NULL and
 * *ctx_out is NULL (the kernel compiled before, so only OOM fails here). */
ir_module *drv_lower_ttir(const ttc_kernel *k, ir_context **ctx_out);

#endif
