// SPDX-License-Identifier: MIT
/* driver.h - the internal header of lib/driver: the compile pipeline behind
 * the public ttc_compile API and the ttc_kernel object it fills. */
#ifndef TTC_DRIVER_H
#define TTC_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ttc/ttc.h"
#include "ir-tt/ir.h"
#include "runtime/rt.h"

/* The compile result. Every pointer is owned by the kernel (malloc'd). */
/* A zeroed kernel registered as a live handle (ttc_kernel_destroy frees it);
 * NULL on OOM. Every ttc_kernel is made here. */
ttc_kernel *drv_kernel_new(void);
/* A failed kernel whose diagnostics are "error: MESSAGE"; NULL on OOM. */
ttc_kernel *drv_kernel_failed(const char *name, ttc_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The largest kernel file or IR text the library takes (docs/api.md). */
#define DRV_MAX_SOURCE_BYTES ((size_t)64 << 20)
/* Reads a regular file of at most `max` bytes into a malloc'd,
 * NUL-terminated buffer (caller frees); NULL with the reason in `why` for a
 * missing or unreadable file, a non-regular file (/dev/zero, a FIFO: opened
 * without blocking, never read) or one past the limit, which `what` names
 * ("source": "the source limit"). */
char *drv_read_file(const char *path, size_t max, const char *what, size_t *len, char *why,
                    size_t whylen);
/* drv_read_file with DRV_MAX_SOURCE_BYTES, for kernel files and IR text. */
char *drv_read_source(const char *path, size_t *len, char *why, size_t whylen);

/* param_divisibility of a parameter whose argument must be 1 (a tensor
 * descriptor's last stride); launches check it. */
#define TTC_PARAM_ONE (-1)

struct ttc_kernel {
  ttc_status status;
  char *diagnostics;         /* rendered, "" when none */
  void *out[TTC_NUM_LEVELS]; /* text levels NUL-terminated */
  size_t out_size[TTC_NUM_LEVELS];
  char *metadata;  /* JSON or NULL */
  char *pass_dump; /* IR printed around passes and the time report; NULL or "" when none */
  char *name;
  char arch[16];
  int num_warps, num_stages, shared_bytes;
  int nparams;
  ttc_type *param_types;
  ttc_type *param_pointees;
  /* What each parameter was specialized for: 16 for ':16' (a pointer's
   * address or an integer's value divisible by 16), the elements in 16 bytes
   * for a tensor descriptor's leading strides, TTC_PARAM_ONE for its last
   * stride (the argument must be 1), else 1. Launches check it. */
  int *param_divisibility;
  /* What the kernel was compiled from (NULL when the source could not be
   * read): the AOT generator reads the declaration again from them. */
  char *source;
  size_t source_len;
  char *filename;
  char *signature;
  /* The ttir printed with locations, which the interpreter loads. */
  char *ttir_located;
  size_t ttir_located_size;
  bool from_cache;     /* loaded from the disk cache, not compiled */
  char **include_dirs; /* copies of the options' include directories */
  int ninclude_dirs;
  /* Modules the kernel read from files other than its own (and the
   * prelude), or its host code read the environment: the cache key does not
   * cover them, so it is not stored. */
  int imports;
  bool reads_environment;
  /* What ptxas -v reported (num_regs < 0: it did not run for this kernel)
   * and the wall milliseconds spent producing each level (negative: not
   * produced by this compile). */
  int num_regs, spill_store_bytes, spill_load_bytes, shared_static, local_bytes;
  double time_ms[TTC_NUM_LEVELS];
  double llvm_ms; /* inside LLVM (part of time_ms's llir and ptx); -1: not compiled here */
};

/* ---- hash.c: SHA-256 for cache keys, XXH64 for entry checksums ------------ */

#define DRV_DIGEST_LEN 32

typedef struct drv_sha256 {
  uint32_t h[8];
  uint64_t len;
  uint8_t buf[64];
  size_t nbuf;
} drv_sha256;

void drv_sha256_init(drv_sha256 *s);
void drv_sha256_update(drv_sha256 *s, const void *data, size_t n);
void drv_sha256_final(drv_sha256 *s, uint8_t out[DRV_DIGEST_LEN]);
void drv_sha256_of(const void *data, size_t n, uint8_t out[DRV_DIGEST_LEN]);
/* n bytes as 2n lowercase hex digits and a NUL into out. */
void drv_hex(const uint8_t *bytes, size_t n, char *out);
/* XXH64 of n bytes with `seed` (xxHash's reference values). */
uint64_t drv_xxh64(const void *data, size_t n, uint64_t seed);

/* ---- ttc_build_id.c, generated at build time (build_id.cmake) ------------ */

/* A hash of every source file of the library: cache entries made by another
 * build of ttc never match, whatever the version number says. */
extern const char drv_build_id[];

/* ---- cache.c: the on-disk cache --------------------------------------------- */

#define DRV_PATH_MAX 4096
#define DRV_KEY_LEN (2 * DRV_DIGEST_LEN) /* keys are SHA-256 digests in hex */

/* Where the cache is and whether it is used. */
typedef struct drv_cache {
  bool enabled;
  bool too_long; /* asked for, but the folder's path leaves no room for entries */
  char dir[DRV_PATH_MAX];
} drv_cache;

/* enable 0 disables the cache; otherwise it is used unless $TTC_CACHE is
 * "0" (or "off", "false"), in `dir` when given, else $TTC_CACHE_DIR, else
 * $XDG_CACHE_HOME/ttc, else $HOME/.cache/ttc (no HOME: disabled). */
void drv_cache_init(drv_cache *c, int enable, const char *dir);

/* One part of an entry: a tag (DRV_TAG('P','T','X',' ')) and its bytes. */
typedef struct drv_section {
  uint32_t tag;
  const void *data;
  size_t size;
} drv_section;
#define DRV_TAG(a, b, c, d)                                                                        \
  ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define DRV_MAX_SECTIONS 16

/* Reads entry `key`: returns a malloc'd buffer holding the file, which
 * sec[0..*n) point into (caller frees the buffer). NULL when there is no
 * such entry, or when it is truncated or corrupt: then a remark is
 * appended to `remarks` and the entry is removed, so that it is rebuilt. */
void *drv_cache_read(const drv_cache *c, const char *key, drv_section *sec, int *n,
                     ir_strbuf *remarks);

/* Writes entry `key` atomically (a temporary file renamed into place), so
 * that readers in other processes see the old entry or the new one, never
 * a torn one. False, with a remark, when it cannot: the cache is only an
 * optimization, so callers carry on. */
bool drv_cache_write(const drv_cache *c, const char *key, const drv_section *sec, int n,
                     ir_strbuf *remarks);

/* The digest of what a kernel's code depends on: the file name (PTX line
 * info names it) and each span of source the kernel reaches, with its first
 * line. `spans` come from fe_read_jit_decl. */
struct fe_span;
void drv_source_digest(const ir_source *src, const struct fe_span *spans, int nspans,
                       uint8_t out[DRV_DIGEST_LEN]);

/* Parses the kernel file in a scratch context for the spans only; false
 * when it does not parse (the compile will say why). */
bool drv_source_digest_of(const char *filename, const char *source, size_t len, const char *name,
                          uint8_t out[DRV_DIGEST_LEN]);

/* The key of a compile: the source digest, kernel name, signature, the
 * options that change the output, the build of ttc and (for cubins) the
 * ptxas file, (for PTX) the libdevice file. Written as hex to key. */
void drv_compile_key(const uint8_t src_digest[DRV_DIGEST_LEN], const char *name,
                     const char *signature, const ttc_compile_options *o,
                     char key[DRV_KEY_LEN + 1]);

/* Whether a compile that stops at `level` is cached (ttir, ptx, cubin). */
bool drv_level_cached(ttc_level level);

/* The compute capability of a target name ("sm_90a" -> 90), or 0 when it
 * is not one LLVM's NVPTX knows (DRV_ARCH_LIST; ptxas 13 lacks sm_101). */
int drv_arch_cc(const char *arch);
#define DRV_ARCH_LIST                                                                              \
  "sm_80, sm_86, sm_87, sm_88, sm_89, sm_90, sm_90a, sm_100, sm_101, sm_103, sm_110, sm_120 "      \
  "or sm_121 (from sm_100 on also with 'a' or 'f')"

/* A kernel from entry `key`, or NULL (absent, corrupt: see drv_cache_read).
 * The kernel holds what the entry holds: metadata, located ttir and the
 * level outputs that were stored; it is marked from_cache. NULL too when a
 * section is repeated, the facts are not what a compile makes, or the entry
 * lacks `level`, the one asked for. */
ttc_kernel *drv_cache_load_kernel(const drv_cache *c, const char *key, ttc_level level,
                                  ir_strbuf *remarks);

/* Stores a successfully compiled kernel under `key` (see drv_cache_write). */
void drv_cache_store_kernel(const drv_cache *c, const char *key, const ttc_kernel *k,
                            ir_strbuf *remarks);

/* ---- names.c: options structs that grow ----------------------------------- */

/* The size of an options struct's first version: its fields up to `last`.
 * Fields added later lie after it, so the minimum never changes. */
#define DRV_V1_SIZE(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))

/* Writes the defaults `def` (def_size bytes, its size field first) into a
 * caller's struct of `size` bytes: the bytes both know, zeros past the
 * library's, and size in its size field. Nothing when size cannot hold the
 * size field. */
void drv_options_init(void *opts, size_t size, const void *def, size_t def_size);

/* Reads a caller's options `in` (its size field first) over the defaults
 * already in `out` (out_size bytes): the bytes both know; out's size field
 * becomes out_size. False (nothing read) when in's size is below
 * `min_size`, the struct's first version. */
bool drv_options_read(void *out, size_t out_size, const void *in, size_t min_size);

/* Whether a compile emits line info: not asked off, and not
 * $TTC_DISABLE_LINE_INFO (1, true, yes, on). */
bool drv_line_info(int no_line_info);

/* ---- dump.c: $TTC_DUMP_DIR --------------------------------------------------- */

/* The key a compile is dumped under: its cache key (the source's digest when
 * the file parses, else a digest of its bytes). */
void drv_dump_key(const char *source, size_t source_len, const char *filename, const char *name,
                  const char *signature, const ttc_compile_options *opts,
                  char key[DRV_KEY_LEN + 1]);

/* With $TTC_DUMP_DIR set: writes every level of k (compiling again to the
 * cubin when k holds fewer; the inputs and opts are k's) into
 * $TTC_DUMP_DIR/key/. Failures become remarks. Does nothing without it. */
void drv_dump_kernel(const char *key, const ttc_kernel *k, const char *source, size_t source_len,
                     const char *filename, const char *name, const char *signature,
                     const ttc_compile_options *opts, ir_strbuf *remarks);

/* ---- compile.c -------------------------------------------------------------- */

/* The compile itself, no cache and no dump: *out is set unless memory ran out. */
ttc_status drv_compile_now(const char *source, size_t source_len, const char *filename,
                           const char *name, const char *signature, const ttc_compile_options *opts,
                           ttc_kernel **out);

/* ttc_compile through cache `c`: the kernel of key (src_digest, name,
 * signature, opts) from the cache, else compiled and stored. `opts` is
 * complete (arch set). Cache remarks are appended to `remarks`, or, when
 * it is NULL, to the kernel's diagnostics. *out as for ttc_compile. */
ttc_status drv_compile_cached(const drv_cache *c, const uint8_t src_digest[DRV_DIGEST_LEN],
                              const char *source, size_t source_len, const char *filename,
                              const char *name, const char *signature,
                              const ttc_compile_options *opts, ttc_kernel **out,
                              ir_strbuf *remarks);

#endif
