// SPDX-License-Identifier: MIT
/* dump.c - $TTC_DUMP_DIR, as Triton's TRITON_KERNEL_DUMP / TRITON_DUMP_DIR:
 * every kernel the library compiles (ttc_compile, kernel functions, the
 * CLI) leaves each stage in DIR/KEY/ (KEY: its cache key) as NAME.ttir,
 * .ttgir, .llir, .ptx, .cubin and .json, and NAME.log with the diagnostics
 * when there are any. A kernel that holds fewer levels (a compile that
 * stopped early, one from the cache) is compiled again to the cubin for the
 * dump alone; that compile's failure costs only the levels it missed. A
 * dump that cannot be written is a remark, never an error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "driver/driver.h"

/* mkdir -p; false when a component cannot be made. */
static bool make_dirs(const char *path) {
  char buf[DRV_PATH_MAX + DRV_KEY_LEN + 2];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return false;
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0755) != 0 && errno != EEXIST) return false;
    *p = '/';
  }
  return mkdir(buf, 0755) == 0 || errno == EEXIST;
}

static bool write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

static bool has_every_level(const ttc_kernel *k) {
  for (int l = 0; l < TTC_NUM_LEVELS; l++)
    if (!k->out[l]) return false;
  return true;
}

/* Writes what k holds into folder `dir`; false at the first failure. */
static bool write_kernel(const char *dir, const ttc_kernel *k) {
  static const char *const ext[TTC_NUM_LEVELS] = {"ttir", "ttgir", "llir", "ptx", "cubin"};
  char path[DRV_PATH_MAX + DRV_KEY_LEN + 300];
  const char *name = k->name && *k->name ? k->name : "kernel";
  for (int l = 0; l < TTC_NUM_LEVELS; l++) {
    if (!k->out[l]) continue;
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext[l]);
    if (!write_file(path, k->out[l], k->out_size[l])) return false;
  }
  if (k->metadata) {
    snprintf(path, sizeof path, "%s/%s.json", dir, name);
    if (!write_file(path, k->metadata, strlen(k->metadata))) return false;
  }
  if (k->diagnostics && *k->diagnostics) {
    snprintf(path, sizeof path, "%s/%s.log", dir, name);
    if (!write_file(path, k->diagnostics, strlen(k->diagnostics))) return false;
  }
  return true;
}

void drv_dump_key(const char *source, size_t source_len, const char *filename, const char *name,
                  const char *signature, const ttc_compile_options *opts,
                  char key[DRV_KEY_LEN + 1]) {
  uint8_t digest[DRV_DIGEST_LEN];
  /* the cache's digest where the file parses, else the bytes themselves */
  if (!drv_source_digest_of(filename, source, source_len, name, digest))
    drv_sha256_of(source, source_len, digest);
  drv_compile_key(digest, name, signature, opts, key);
}

void drv_dump_kernel(const char *key, const ttc_kernel *k, const char *source, size_t source_len,
                     const char *filename, const char *name, const char *signature,
                     const ttc_compile_options *opts, ir_strbuf *remarks) {
  const char *root = getenv("TTC_DUMP_DIR");
  if (!root || !*root || !k) return;
  char dir[DRV_PATH_MAX + DRV_KEY_LEN + 2];
  if (snprintf(dir, sizeof dir, "%s/%s", root, key) >= (int)sizeof dir) {
    ir_sb_printf(remarks, "remark: TTC_DUMP_DIR '%s' is too long: no dump\n", root);
    return;
  }
  ttc_kernel *full = NULL;
  if (!has_every_level(k) && k->status == TTC_OK) {
    ttc_compile_options o = *opts;
    o.stop_after = TTC_LEVEL_CUBIN;
    o.cache = 0;
    drv_compile_now(source, source_len, filename, name, signature, &o, &full);
  }
  const ttc_kernel *what = full ? full : k;
  if (!make_dirs(dir) || !write_kernel(dir, what))
    ir_sb_printf(remarks, "remark: cannot write the dump of '%s' in '%s': %s\n", name, dir,
                 strerror(errno));
  ttc_kernel_destroy(full);
}
