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
  /* What the kernel was compiled from (NULL when the source could not be
   * read): the AOT generator reads the declaration again from them. */
  char *source;
  size_t source_len;
  char *filename;
  char *signature;
  /* The ttir printed with locations, which the interpreter loads. */
  char *ttir_located;
  size_t ttir_located_size;
};

#endif
