// SPDX-License-Identifier: MIT
/* cache.c - the on-disk cache: where it lives, keys, and entries.
 *
 * An entry is one file, <dir>/<first two hex digits>/<key>, holding tagged
 * sections (kernel facts, metadata, located ttir, PTX, cubin, or an
 * autotuning choice) and an XXH64 checksum of everything before it. It is written
 * to a temporary file in the same folder and renamed into place, so a
 * reader in another process sees the old file or the new one, never a torn
 * one; a truncated or corrupt file fails its checksum, is reported as a
 * remark, removed and rebuilt. Failing to write is a remark, not an error. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "codegen-llvm/cg.h"
#include "driver/driver.h"
#include "frontend/fe.h"

/* Entry layout (little-endian): magic, format, section count, then per
 * section tag (u32), reserved (u32), size (u64); the payloads in order; the
 * XXH64 of all of it (u64). */
static const char entry_magic[8] = {'T', 'T', 'C', 'C', 'A', 'C', 'H', 'E'};
#define ENTRY_FORMAT 2u
#define ENTRY_SUM 8u
#define ENTRY_HEADER 16u
#define ENTRY_SECTION_HEADER 16u
/* A folder path, "/xx/" and a key, with room to spare for a temporary suffix. */
#define ENTRY_PATH_MAX (DRV_PATH_MAX + 2 * DRV_KEY_LEN)

/* ---- where ------------------------------------------------------------------------ */

static bool env_off(const char *v) {
  return v && (strcmp(v, "0") == 0 || strcmp(v, "off") == 0 || strcmp(v, "false") == 0 ||
               strcmp(v, "no") == 0);
}

void drv_cache_init(drv_cache *c, int enable, const char *dir) {
  memset(c, 0, sizeof *c);
  if (!enable || env_off(getenv("TTC_CACHE"))) return;
  const char *env = getenv("TTC_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"),
             *home = getenv("HOME");
  int n;
  if (dir && *dir)
    n = snprintf(c->dir, sizeof c->dir, "%s", dir);
  else if (env && *env)
    n = snprintf(c->dir, sizeof c->dir, "%s", env);
  else if (xdg && *xdg)
    n = snprintf(c->dir, sizeof c->dir, "%s/ttc", xdg);
  else if (home && *home)
    n = snprintf(c->dir, sizeof c->dir, "%s/.cache/ttc", home);
  else
    return;
  /* room for "/xx/<key>.tmp.<pid>.<n>" after the folder */
  c->enabled = n > 0 && (size_t)n + DRV_KEY_LEN + 64 < sizeof c->dir;
  c->too_long = !c->enabled;
}

/* <dir>/<xx>/<key>; with `sub_only` just <dir>/<xx>. */
static void entry_path(const drv_cache *c, const char *key, bool sub_only, char *out, size_t cap) {
  if (sub_only)
    snprintf(out, cap, "%s/%.2s", c->dir, key);
  else
    snprintf(out, cap, "%s/%.2s/%s", c->dir, key, key);
}

/* mkdir -p for the cache folder and its subfolder (0700: entries hold code). */
static bool make_dirs(const char *path) {
  char buf[ENTRY_PATH_MAX];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0700) != 0 && errno != EEXIST) return false;
    *p = '/';
  }
  return mkdir(buf, 0700) == 0 || errno == EEXIST;
}

/* ---- entries ------------------------------------------------------------------------ */

static void put_u32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get_u32(const uint8_t *p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++)
    v |= (uint32_t)p[i] << (8 * i);
  return v;
}
static uint64_t get_u64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* The largest entry read: far above any kernel's (a 100k-statement kernel's
 * PTX and cubin take about 15 MB); a larger file is not one ttc wrote. */
#define ENTRY_MAX_BYTES ((size_t)1 << 30)

/* Checks the layout and checksum of an entry's bytes; fills sec. NULL when
 * it is fine, else why not. */
static const char *parse_entry(const uint8_t *buf, size_t size, drv_section *sec, int *n) {
  if (size < ENTRY_HEADER + ENTRY_SUM) return "truncated";
  if (memcmp(buf, entry_magic, sizeof entry_magic) != 0) return "not a ttc cache entry";
  if (get_u32(buf + 8) != ENTRY_FORMAT) return "written by another format version";
  if (drv_xxh64(buf, size - ENTRY_SUM, 0) != get_u64(buf + size - ENTRY_SUM))
    return "truncated or corrupt (checksum mismatch)";
  uint32_t count = get_u32(buf + 12);
  if (count > DRV_MAX_SECTIONS) return "corrupt (section count)";
  size_t at = ENTRY_HEADER + (size_t)count * ENTRY_SECTION_HEADER, end = size - ENTRY_SUM;
  if (at > end) return "corrupt (section table)";
  for (uint32_t i = 0; i < count; i++) {
    const uint8_t *h = buf + ENTRY_HEADER + i * ENTRY_SECTION_HEADER;
    uint64_t len = get_u64(h + 8);
    if (len > end - at) return "corrupt (section size)";
    sec[i] = (drv_section){get_u32(h), buf + at, (size_t)len};
    at += (size_t)len;
  }
  if (at != end) return "corrupt (trailing bytes)";
  *n = (int)count;
  return NULL;
}

void *drv_cache_read(const drv_cache *c, const char *key, drv_section *sec, int *n,
                     ir_strbuf *remarks) {
  *n = 0;
  if (!c->enabled) return NULL;
  char path[ENTRY_PATH_MAX];
  entry_path(c, key, false, path, sizeof path);
  size_t size = 0;
  char unread[DRV_PATH_MAX + 64]; /* a miss either way: the entry is compiled again */
  uint8_t *buf =
      (uint8_t *)drv_read_file(path, ENTRY_MAX_BYTES, "cache entry", &size, unread, sizeof unread);
  if (!buf) return NULL;
  const char *why = parse_entry(buf, size, sec, n);
  if (!why) return buf;
  free(buf);
  *n = 0;
  if (remarks) ir_sb_printf(remarks, "remark: cache entry '%s' is %s: recompiling\n", path, why);
  unlink(path); /* a concurrent writer's rename may already have replaced it: harmless */
  return NULL;
}

static bool write_all(int fd, const void *data, size_t n) {
  const uint8_t *p = data;
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= (size_t)w;
  }
  return true;
}

bool drv_cache_write(const drv_cache *c, const char *key, const drv_section *sec, int n,
                     ir_strbuf *remarks) {
  if (!c->enabled || n < 0 || n > DRV_MAX_SECTIONS) return false;
  char dir[ENTRY_PATH_MAX], path[ENTRY_PATH_MAX], tmp[ENTRY_PATH_MAX + 64];
  entry_path(c, key, true, dir, sizeof dir);
  entry_path(c, key, false, path, sizeof path);
  if (!make_dirs(dir)) {
    if (remarks)
      ir_sb_printf(remarks, "remark: cannot create cache folder '%s': %s\n", dir, strerror(errno));
    return false;
  }
  /* A name no other writer uses: pid, a clock reading and the key. */
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%ld%09ld", path, (long)getpid(), (long)ts.tv_sec,
           (long)ts.tv_nsec);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (remarks)
      ir_sb_printf(remarks, "remark: cannot write cache entry '%s': %s\n", tmp, strerror(errno));
    return false;
  }
  /* the whole entry in one buffer: one checksum pass, one write */
  size_t total = ENTRY_HEADER + (size_t)n * ENTRY_SECTION_HEADER + ENTRY_SUM;
  for (int i = 0; i < n; i++)
    total += sec[i].size;
  uint8_t *buf = malloc(total);
  bool ok = buf != NULL;
  if (ok) {
    memcpy(buf, entry_magic, sizeof entry_magic);
    put_u32(buf + 8, ENTRY_FORMAT);
    put_u32(buf + 12, (uint32_t)n);
    size_t at = ENTRY_HEADER + (size_t)n * ENTRY_SECTION_HEADER;
    for (int i = 0; i < n; i++) {
      uint8_t *h = buf + ENTRY_HEADER + (size_t)i * ENTRY_SECTION_HEADER;
      put_u32(h, sec[i].tag);
      put_u32(h + 4, 0);
      put_u64(h + 8, sec[i].size);
      if (sec[i].size) memcpy(buf + at, sec[i].data, sec[i].size);
      at += sec[i].size;
    }
    put_u64(buf + at, drv_xxh64(buf, at, 0));
    ok = write_all(fd, buf, total);
  }
  free(buf);
  ok = close(fd) == 0 && ok;
  if (ok && rename(tmp, path) == 0) return true;
  if (remarks)
    ir_sb_printf(remarks, "remark: cannot write cache entry '%s': %s\n", path, strerror(errno));
  unlink(tmp);
  return false;
}

/* ---- keys ------------------------------------------------------------------------- */

void drv_source_digest(const ir_source *src, const fe_span *spans, int nspans,
                       uint8_t out[DRV_DIGEST_LEN]) {
  drv_sha256 s;
  drv_sha256_init(&s);
  drv_sha256_update(&s, src->name, strlen(src->name) + 1);
  for (int i = 0; i < nspans; i++) {
    char line[32];
    int n = snprintf(line, sizeof line, "\n@%u:%zu\n", (unsigned)spans[i].line, spans[i].len);
    drv_sha256_update(&s, line, (size_t)n);
    drv_sha256_update(&s, src->text + spans[i].offset, spans[i].len);
  }
  drv_sha256_final(&s, out);
}

bool drv_source_digest_of(const char *filename, const char *source, size_t len, const char *name,
                          uint8_t out[DRV_DIGEST_LEN]) {
  ir_context *ctx = ir_context_create();
  if (!ctx) return false;
  ir_arena arena;
  ir_arena_init(&arena);
  const ir_source *src = ir_context_add_source(ctx, filename, source, len);
  fe_span *spans = NULL;
  int n = src ? fe_kernel_spans(ctx, src, &arena, name, &spans) : -1;
  if (n >= 0) drv_source_digest(src, spans, n, out);
  ir_arena_free(&arena);
  ir_context_destroy(ctx);
  return n >= 0;
}

/* A file's identity for a key: its path, size and modification time (a
 * new ptxas or libdevice changes at least one of them). */
static void hash_file_identity(drv_sha256 *s, const char *what, const char *path) {
  struct stat st;
  char buf[DRV_PATH_MAX + 128];
  int n;
  if (path && stat(path, &st) == 0)
    n = snprintf(buf, sizeof buf, "%s=%s:%lld:%lld.%09ld\n", what, path, (long long)st.st_size,
                 (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
  else
    n = snprintf(buf, sizeof buf, "%s=none\n", what);
  drv_sha256_update(s, buf, n > 0 && (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

bool drv_level_cached(ttc_level level) {
  return level == TTC_LEVEL_TTIR || level == TTC_LEVEL_PTX || level == TTC_LEVEL_CUBIN;
}

void drv_compile_key(const uint8_t src_digest[DRV_DIGEST_LEN], const char *name,
                     const char *signature, const ttc_compile_options *o,
                     char key[DRV_KEY_LEN + 1]) {
  drv_sha256 s;
  drv_sha256_init(&s);
  char buf[512];
  int n = snprintf(buf, sizeof buf, "ttc-kernel\n%s\n%s\n", TTC_VERSION_STRING, drv_build_id);
  drv_sha256_update(&s, buf, (size_t)n);
  drv_sha256_update(&s, src_digest, DRV_DIGEST_LEN);
  drv_sha256_update(&s, name, strlen(name) + 1);
  /* the signature without blanks: "*fp32:16, i32" and "*fp32:16,i32" agree */
  for (const char *p = signature; *p; p++)
    if (*p != ' ' && *p != '\t') drv_sha256_update(&s, p, 1);
  n = snprintf(buf, sizeof buf, "\nwarps=%d stages=%d arch=%s level=%d loc=%d O=%d lines=%d\n",
               o->num_warps, o->num_stages, o->arch ? o->arch : "sm_90", (int)o->stop_after,
               o->emit_locations != 0, o->opt_level, drv_line_info(o->no_line_info));
  drv_sha256_update(&s, buf, (size_t)n);
  /* the include directories decide which modules an import finds */
  for (int i = 0; o->include_dirs && i < o->num_include_dirs; i++) {
    const char *d = o->include_dirs[i] ? o->include_dirs[i] : ".";
    drv_sha256_update(&s, "I", 1);
    drv_sha256_update(&s, d, strlen(d) + 1);
  }
  if (o->stop_after >= TTC_LEVEL_LLIR) {
    char lib[DRV_PATH_MAX];
    hash_file_identity(&s, "libdevice", cg_libdevice_path(NULL, lib, sizeof lib));
  }
  if (o->stop_after == TTC_LEVEL_CUBIN) {
    char exe[DRV_PATH_MAX];
    hash_file_identity(&s, "ptxas", cg_find_ptxas(o->ptxas, exe, sizeof exe) ? exe : NULL);
  }
  uint8_t digest[DRV_DIGEST_LEN];
  drv_sha256_final(&s, digest);
  drv_hex(digest, DRV_DIGEST_LEN, key);
}

/* ---- kernels in entries ------------------------------------------------------------- */

#define TAG_FACTS DRV_TAG('F', 'C', 'T', 'S')
#define TAG_META DRV_TAG('M', 'E', 'T', 'A')
#define TAG_TTIR_LOC DRV_TAG('T', 'I', 'R', 'L')
#define TAG_LEVEL(l) DRV_TAG('L', 'V', 'L', '0' + (l))

/* The type named by Triton's spelling ("i32", "fp16"); false if none. */
static bool type_named(const char *s, size_t n, ttc_type *out) {
  for (int t = TTC_TYPE_PTR; t <= TTC_TYPE_FP8E5; t++) {
    const char *name = ttc_type_name((ttc_type)t);
    if (strlen(name) == n && memcmp(name, s, n) == 0) {
      *out = (ttc_type)t;
      return true;
    }
  }
  return false;
}

/* Facts: "name=...\narch=...\nwarps=N\nstages=N\nshared=N\nparams=*fp32,i32\n", then
 * "regs=N\nspill_st=N\nspill_ld=N\nsmem=N\nlmem=N\n" when ptxas ran. */
static char *kernel_facts(const ttc_kernel *k) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_sb_printf(&sb, "name=%s\narch=%s\nwarps=%d\nstages=%d\nshared=%d\nparams=", k->name, k->arch,
               k->num_warps, k->num_stages, k->shared_bytes);
  for (int i = 0; i < k->nparams; i++) {
    ttc_type t = k->param_types[i];
    if (t == TTC_TYPE_PTR)
      ir_sb_printf(&sb, "%s*%s", i ? "," : "", ttc_type_name(k->param_pointees[i]));
    else
      ir_sb_printf(&sb, "%s%s", i ? "," : "", ttc_type_name(t));
    int d = k->param_divisibility ? k->param_divisibility[i] : 1;
    if (d > 1) ir_sb_printf(&sb, ":%d", d);
    if (d == TTC_PARAM_ONE) ir_sb_puts(&sb, ":=1");
  }
  ir_sb_putc(&sb, '\n');
  if (k->num_regs >= 0)
    ir_sb_printf(&sb, "regs=%d\nspill_st=%d\nspill_ld=%d\nsmem=%d\nlmem=%d\n", k->num_regs,
                 k->spill_store_bytes, k->spill_load_bytes, k->shared_static, k->local_bytes);
  return ir_sb_take(&sb);
}

/* The value of `field=` in facts, as [*v, *v + *n). */
static bool fact(const drv_section *f, const char *field, const char **v, size_t *n) {
  const char *p = f->data, *end = p + f->size;
  size_t flen = strlen(field);
  while (p < end) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) return false;
    if ((size_t)(eol - p) > flen && memcmp(p, field, flen) == 0 && p[flen] == '=') {
      *v = p + flen + 1;
      *n = (size_t)(eol - *v);
      return true;
    }
    p = eol + 1;
  }
  return false;
}

static bool fact_int(const drv_section *f, const char *field, int *out) {
  const char *v;
  size_t n;
  char buf[32];
  if (!fact(f, field, &v, &n) || n == 0 || n >= sizeof buf) return false;
  memcpy(buf, v, n);
  buf[n] = '\0';
  char *end;
  long x = strtol(buf, &end, 10);
  if (*end || x < 0 || x > 1 << 24) return false;
  *out = (int)x;
  return true;
}

static char *dup_bytes(const void *p, size_t n) {
  char *s = malloc(n + 1);
  if (!s) return NULL;
  memcpy(s, p, n);
  s[n] = '\0';
  return s;
}

/* Fills k from the facts; false when they do not parse. */
static bool kernel_from_facts(ttc_kernel *k, const drv_section *f) {
  const char *v;
  size_t n;
  if (!fact(f, "name", &v, &n) || n == 0 || !(k->name = dup_bytes(v, n))) return false;
  if (!fact(f, "arch", &v, &n) || n >= sizeof k->arch) return false;
  memcpy(k->arch, v, n);
  if (!fact_int(f, "warps", &k->num_warps) || !fact_int(f, "stages", &k->num_stages) ||
      !fact_int(f, "shared", &k->shared_bytes) || !fact(f, "params", &v, &n))
    return false;
  /* what a compile makes: a launch trusts these */
  if (k->num_warps < 1 || k->num_warps > 32 || (k->num_warps & (k->num_warps - 1)) ||
      k->num_stages < 0 || k->shared_bytes < 0)
    return false;
  int count = n ? 1 : 0;
  for (size_t i = 0; i < n; i++)
    count += v[i] == ',';
  if (count > 256) return false; /* a tensor descriptor adds arguments past the 128 parameters */
  k->param_types = calloc((size_t)count + 1, sizeof *k->param_types);
  k->param_pointees = calloc((size_t)count + 1, sizeof *k->param_pointees);
  k->param_divisibility = calloc((size_t)count + 1, sizeof *k->param_divisibility);
  if (!k->param_types || !k->param_pointees || !k->param_divisibility) return false;
  const char *p = v, *end = v + n;
  for (int i = 0; i < count; i++) {
    const char *comma = memchr(p, ',', (size_t)(end - p));
    const char *e = comma ? comma : end, *next = e + 1;
    /* "*fp32:16", "i64:=1": the specialization a launch checks */
    const char *colon = memchr(p, ':', (size_t)(e - p));
    k->param_divisibility[i] = 1;
    if (colon) {
      bool one = e - colon == 3 && colon[1] == '=' && colon[2] == '1';
      int d = one ? TTC_PARAM_ONE : atoi(colon + 1);
      if (d != TTC_PARAM_ONE && (d < 1 || d > 1024)) return false;
      k->param_divisibility[i] = d;
      e = colon;
    }
    bool is_ptr = p < e && *p == '*';
    ttc_type t;
    if (!type_named(p + is_ptr, (size_t)(e - p - is_ptr), &t)) return false;
    k->param_types[i] = is_ptr ? TTC_TYPE_PTR : t;
    k->param_pointees[i] = is_ptr ? t : TTC_TYPE_I32;
    p = next;
  }
  k->nparams = count;
  /* ptxas's report, when the entry holds a cubin */
  k->num_regs = k->spill_store_bytes = k->spill_load_bytes = k->shared_static = k->local_bytes = -1;
  if (fact_int(f, "regs", &k->num_regs) &&
      !(fact_int(f, "spill_st", &k->spill_store_bytes) &&
        fact_int(f, "spill_ld", &k->spill_load_bytes) && fact_int(f, "smem", &k->shared_static) &&
        fact_int(f, "lmem", &k->local_bytes)))
    return false;
  for (int l = 0; l < TTC_NUM_LEVELS; l++)
    k->time_ms[l] = -1; /* nothing compiled */
  return true;
}

/* Which of the sections ttc writes `tag` is (0 facts, 1 metadata, 2 the
 * located ttir, 3 + l level l), or -1. */
static int section_slot(uint32_t tag) {
  if (tag == TAG_FACTS) return 0;
  if (tag == TAG_META) return 1;
  if (tag == TAG_TTIR_LOC) return 2;
  for (int l = 0; l < TTC_NUM_LEVELS; l++)
    if (tag == TAG_LEVEL(l)) return 3 + l;
  return -1;
}

ttc_kernel *drv_cache_load_kernel(const drv_cache *c, const char *key, ttc_level level,
                                  ir_strbuf *remarks) {
  drv_section sec[DRV_MAX_SECTIONS];
  int n = 0;
  void *buf = drv_cache_read(c, key, sec, &n, remarks);
  if (!buf) return NULL;
  ttc_kernel *k = drv_kernel_new();
  bool ok = k && (k->diagnostics = dup_bytes("", 0));
  bool seen[3 + TTC_NUM_LEVELS] = {false};
  /* each section once (a second one leaked the first's copy), the facts
   * first-class, and the level asked for not empty */
  for (int i = 0; ok && i < n; i++) {
    const drv_section *s = &sec[i];
    int slot = section_slot(s->tag);
    if (slot < 0) continue; /* a later format's section */
    ok = !seen[slot];
    seen[slot] = true;
    if (!ok) break;
    if (slot == 0) {
      ok = kernel_from_facts(k, s);
    } else if (slot == 1) {
      ok = (k->metadata = dup_bytes(s->data, s->size)) != NULL;
    } else if (slot == 2) {
      ok = (k->ttir_located = dup_bytes(s->data, s->size)) != NULL;
      k->ttir_located_size = s->size;
    } else {
      ok = s->size > 0 && (k->out[slot - 3] = dup_bytes(s->data, s->size)) != NULL;
      k->out_size[slot - 3] = s->size;
    }
  }
  free(buf);
  bool has_facts = seen[0];
  if (ok && ((int)level < 0 || level >= TTC_NUM_LEVELS || !k->out[level])) ok = false;
  if (ok && has_facts) {
    k->status = TTC_OK;
    k->from_cache = true;
    return k;
  }
  if (remarks)
    ir_sb_printf(remarks, "remark: cache entry '%s' does not hold a kernel: recompiling\n", key);
  ttc_kernel_destroy(k);
  return NULL;
}

void drv_cache_store_kernel(const drv_cache *c, const char *key, const ttc_kernel *k,
                            ir_strbuf *remarks) {
  if (!c->enabled || k->status != TTC_OK) return;
  char *facts = kernel_facts(k);
  if (!facts) return;
  drv_section sec[DRV_MAX_SECTIONS];
  int n = 0;
  sec[n++] = (drv_section){TAG_FACTS, facts, strlen(facts)};
  if (k->metadata) sec[n++] = (drv_section){TAG_META, k->metadata, strlen(k->metadata)};
  if (k->ttir_located)
    sec[n++] = (drv_section){TAG_TTIR_LOC, k->ttir_located, k->ttir_located_size};
  /* the levels a launch or a caller of this compile needs, not ttgir/llir */
  for (int l = 0; l < TTC_NUM_LEVELS; l++)
    if (k->out[l] && drv_level_cached((ttc_level)l))
      sec[n++] = (drv_section){TAG_LEVEL(l), k->out[l], k->out_size[l]};
  drv_cache_write(c, key, sec, n, remarks);
  free(facts);
}
