/* cuda_stub.h - what the stand-in libcuda (cuda_stub.c) records, for the
 * tests of generated AOT launchers on machines without a GPU. */
#ifndef TTC_CUDA_STUB_H
#define TTC_CUDA_STUB_H

#include <stdint.h>

#define STUB_MAX_PARAMS 16

typedef struct stub_launch {
  int module; /* load order of the function's module, from 0 */
  unsigned grid[3], block[3], shared;
  void *stream;
  int nparams;                      /* as set by stub_expect_params */
  uint64_t params[STUB_MAX_PARAMS]; /* each parameter's bytes, zero-extended */
} stub_launch;

/* The byte sizes of the parameters the next launches pass (the driver
 * knows them from the kernel; the stub must be told). */
void stub_expect_params(const int *sizes, int n);
/* Launches so far, and the last one. */
int stub_launch_count(void);
const stub_launch *stub_last_launch(void);
/* Modules loaded and not unloaded; whether every image began with ELF's magic. */
int stub_modules_loaded(void);
int stub_images_are_elf(void);

#endif
