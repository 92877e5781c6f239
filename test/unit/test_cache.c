// SPDX-License-Identifier: MIT
/* test_cache.c - the on-disk cache behind ttc_compile (opts.cache) and
 * kernel functions: hits and misses, what the key covers (the kernel, the
 * helpers and constants it reaches, not the rest of the file), entries that
 * are truncated or corrupt (recompiled, with a remark), kernels importing
 * other files (never stored), two processes
 * compiling into one cache at the same time, and TTC_CACHE=0. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ttc_test.h"

#include "driver/driver.h"
#include "ttc/ttc.h"

/* A kernel calling a helper that reads a module constant; `other` is not
 * reached by `k`. */
static const char src_template[] = "import triton\n"
                                   "import triton.language as tl\n"
                                   "\n"
                                   "SCALE = %d\n"
                                   "\n"
                                   "@triton.jit\n"
                                   "def helper(x):\n"
                                   "    return x * SCALE + %d\n"
                                   "\n"
                                   "@triton.jit\n"
                                   "def other(x):\n"
                                   "    return x - %d\n"
                                   "\n"
                                   "@triton.jit\n"
                                   "def k(x_ptr, n, BLOCK: tl.constexpr):\n"
                                   "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                                   "    x = tl.load(x_ptr + offs, mask=offs < n)\n"
                                   "    tl.store(x_ptr + offs, helper(x), mask=offs < n)\n";

static char *make_src(int scale, int bias, int other) {
  static char buf[2048];
  snprintf(buf, sizeof buf, src_template, scale, bias, other);
  return buf;
}

/* A fresh cache folder per test (removed at the end). */
static char cache_dir[256];

static int setup(void **state) {
  (void)state;
  snprintf(cache_dir, sizeof cache_dir, "/tmp/ttc-test-cache-XXXXXX");
  return mkdtemp(cache_dir) ? 0 : -1;
}

static void remove_tree(const char *path) {
  DIR *d = opendir(path);
  if (!d) {
    unlink(path);
    return;
  }
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
    remove_tree(sub);
  }
  closedir(d);
  rmdir(path);
}

static int teardown(void **state) {
  (void)state;
  remove_tree(cache_dir);
  return 0;
}

/* Every entry file of the cache (up to max), paths into out. */
static int list_entries(char out[][1024], int max) {
  int n = 0;
  DIR *d = opendir(cache_dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char sub[512];
    snprintf(sub, sizeof sub, "%.255s/%.200s", cache_dir, e->d_name);
    DIR *s = opendir(sub);
    struct dirent *f;
    while (s && (f = readdir(s)))
      if (f->d_name[0] != '.' && n < max) snprintf(out[n++], 1024, "%s/%.256s", sub, f->d_name);
    if (s) closedir(s);
  }
  if (d) closedir(d);
  return n;
}

/* Compiles k with the cache, to `level`; returns whether it came from it. */
static int compile_cached(const char *src, const char *sig, ttc_level level, ttc_kernel **out) {
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = level;
  o.cache = 1;
  o.cache_dir = cache_dir;
  ttc_kernel *k = NULL;
  ttc_status st = ttc_compile(src, strlen(src), "k.py", "k", sig, &o, &k);
  if (st != TTC_OK) fprintf(stderr, "%s", ttc_kernel_diagnostics(k));
  assert_int_equal(st, TTC_OK);
  int hit = ttc_kernel_from_cache(k);
  if (out)
    *out = k;
  else
    ttc_kernel_destroy(k);
  return hit;
}

/* Entries with a valid checksum that no compile writes are misses, not
 * kernels: a section twice (the first's copy leaked), a level tag near one
 * ttc writes, facts that are not a compile's (0 warps), or no output at the
 * level asked for (an empty PTX came back with status 0). */
static void test_crafted_entries(void **state) {
  (void)state;
  drv_cache c;
  drv_cache_init(&c, 1, cache_dir);
  const char key[] = "00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa";
  const char facts[] = "name=k\narch=sm_90a\nwarps=4\nstages=3\nshared=0\nparams=*fp32:16,i32\n";
  const char bad_facts[] = "name=k\narch=sm_90a\nwarps=0\nstages=3\nshared=0\nparams=*fp32\n";
  const char ptx[] = ".version 8.7\n";
  drv_section fs = {DRV_TAG('F', 'C', 'T', 'S'), facts, strlen(facts)};
  drv_section bf = {DRV_TAG('F', 'C', 'T', 'S'), bad_facts, strlen(bad_facts)};
  drv_section lv = {DRV_TAG('L', 'V', 'L', '0' + TTC_LEVEL_PTX), ptx, strlen(ptx)};
  drv_section near = {DRV_TAG('Z', 'Z', 'Z', '0' + TTC_LEVEL_PTX), ptx, strlen(ptx)};
  drv_section good[] = {fs, lv}, twice[] = {fs, lv, lv}, facts_only[] = {fs},
              odd_tag[] = {fs, near}, zero_warps[] = {bf, lv};
  struct {
    const drv_section *sec;
    int n;
    bool loads;
  } cases[] = {{good, 2, true},
               {twice, 3, false},
               {facts_only, 1, false},
               {odd_tag, 2, false},
               {zero_warps, 2, false}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    assert_true(drv_cache_write(&c, key, cases[i].sec, cases[i].n, NULL));
    ttc_kernel *k = drv_cache_load_kernel(&c, key, TTC_LEVEL_PTX, NULL);
    if ((k != NULL) != cases[i].loads) fprintf(stderr, "case %zu\n", i);
    assert_true((k != NULL) == cases[i].loads);
    if (k) assert_string_equal(ttc_kernel_output(k, TTC_LEVEL_PTX, NULL), ptx);
    ttc_kernel_destroy(k);
  }
}

/* A cubin's ptxas report (registers, spills) survives the cache. */
static void test_cubin_stats_cached(void **state) {
  (void)state;
  if (access(TTC_CUDA_HOME "/bin/ptxas", X_OK) != 0) skip();
  const char *src = make_src(4, 1, 0);
  ttc_kernel *a = NULL, *b = NULL;
  assert_false(compile_cached(src, "*fp32:16,i32,256", TTC_LEVEL_CUBIN, &a));
  assert_true(compile_cached(src, "*fp32:16,i32,256", TTC_LEVEL_CUBIN, &b));
  ttc_kernel_stats sa = TTC_KERNEL_STATS_INIT, sb = TTC_KERNEL_STATS_INIT;
  assert_int_equal(ttc_kernel_get_stats(a, &sa), TTC_OK);
  assert_int_equal(ttc_kernel_get_stats(b, &sb), TTC_OK);
  assert_true(sa.num_regs > 0);
  assert_int_equal(sb.num_regs, sa.num_regs);
  assert_int_equal(sb.spills_store_bytes, sa.spills_store_bytes);
  assert_int_equal(sb.local, sa.local);
  assert_int_equal(sb.shared_static, sa.shared_static);
  ttc_kernel_destroy(a);
  ttc_kernel_destroy(b);
}

static void test_hit_and_outputs(void **state) {
  (void)state;
  const char *src = make_src(3, 1, 0);
  ttc_kernel *a = NULL, *b = NULL;
  assert_false(compile_cached(src, "*fp32:16,i32,256", TTC_LEVEL_PTX, &a));
  assert_true(compile_cached(src, "*fp32:16,i32,256", TTC_LEVEL_PTX, &b));
  /* the cached kernel carries what a launch and the caller need */
  assert_string_equal(ttc_kernel_output(a, TTC_LEVEL_PTX, NULL),
                      ttc_kernel_output(b, TTC_LEVEL_PTX, NULL));
  assert_string_equal(ttc_kernel_output(a, TTC_LEVEL_TTIR, NULL),
                      ttc_kernel_output(b, TTC_LEVEL_TTIR, NULL));
  assert_string_equal(ttc_kernel_metadata_json(a), ttc_kernel_metadata_json(b));
  assert_string_equal(ttc_kernel_ttir_located(a, NULL), ttc_kernel_ttir_located(b, NULL));
  assert_null(ttc_kernel_output(b, TTC_LEVEL_TTGIR, NULL)); /* not kept */
  assert_int_equal(ttc_kernel_num_params(b), 2);
  ttc_type pointee = TTC_TYPE_I1;
  assert_int_equal(ttc_kernel_param_type(b, 0, &pointee), TTC_TYPE_PTR);
  assert_int_equal(pointee, TTC_TYPE_F32);
  assert_int_equal(ttc_kernel_param_type(b, 1, NULL), TTC_TYPE_I32);
  /* nothing was compiled for the cached kernel: no stage times */
  ttc_kernel_stats sa = TTC_KERNEL_STATS_INIT, sb = TTC_KERNEL_STATS_INIT;
  assert_int_equal(ttc_kernel_get_stats(a, &sa), TTC_OK);
  assert_int_equal(ttc_kernel_get_stats(b, &sb), TTC_OK);
  assert_true(sa.time_ms[TTC_LEVEL_PTX] >= 0);
  assert_true(sb.time_ms[TTC_LEVEL_PTX] < 0);
  assert_true(sa.llvm_ms >= 0);
  assert_true(sb.llvm_ms < 0);
  assert_int_equal(ttc_kernel_num_warps(b), 4);
  assert_string_equal(ttc_kernel_name(b), "k");
  ttc_kernel_destroy(a);
  ttc_kernel_destroy(b);
  /* a blank in the signature is the same key; another value is not */
  assert_true(compile_cached(src, "*fp32:16, i32, 256", TTC_LEVEL_PTX, NULL));
  assert_false(compile_cached(src, "*fp32:16,i32,512", TTC_LEVEL_PTX, NULL));
  assert_false(compile_cached(src, "*fp32:16,i32,256", TTC_LEVEL_TTIR, NULL));
}

/* The key covers the helper and the constant the kernel reaches, and only
 * them: editing `other` keeps the entry. */
static void test_key_covers_reached_source(void **state) {
  (void)state;
  assert_false(compile_cached(make_src(3, 1, 0), "*fp32,i32,256", TTC_LEVEL_PTX, NULL));
  assert_true(compile_cached(make_src(3, 1, 7), "*fp32,i32,256", TTC_LEVEL_PTX, NULL));
  assert_false(compile_cached(make_src(3, 2, 0), "*fp32,i32,256", TTC_LEVEL_PTX, NULL));
  assert_false(compile_cached(make_src(4, 1, 0), "*fp32,i32,256", TTC_LEVEL_PTX, NULL));
  assert_true(compile_cached(make_src(3, 1, 9), "*fp32,i32,256", TTC_LEVEL_PTX, NULL));
}

/* A kernel importing a helper from another file (through an include
 * directory) is compiled each time and never stored: the key covers the
 * kernel's file only, and an edit of the helper's file must be seen. */
static void test_imports_not_stored(void **state) {
  (void)state;
  char inc[256];
  snprintf(inc, sizeof inc, "/tmp/ttc-test-inc-XXXXXX");
  assert_non_null(mkdtemp(inc));
  char mod[512];
  snprintf(mod, sizeof mod, "%s/cachemod.py", inc);
  static const char src[] = "import triton\n"
                            "import triton.language as tl\n"
                            "from cachemod import helper\n"
                            "\n"
                            "@triton.jit\n"
                            "def k(x_ptr, n, BLOCK: tl.constexpr):\n"
                            "    offs = tl.arange(0, BLOCK)\n"
                            "    tl.store(x_ptr + offs, helper(tl.load(x_ptr + offs)))\n";
  const char *dirs[1] = {inc};
  const char *gains[2] = {"3.0", "5.0"};
  for (int i = 0; i < 2; i++) {
    FILE *f = fopen(mod, "w");
    assert_non_null(f);
    fprintf(f, "import triton\n\n@triton.jit\ndef helper(x):\n    return x * %s\n", gains[i]);
    fclose(f);
    ttc_compile_options o;
    ttc_compile_options_init(&o);
    o.stop_after = TTC_LEVEL_TTIR;
    o.cache = 1;
    o.cache_dir = cache_dir;
    o.include_dirs = dirs;
    o.num_include_dirs = 1;
    ttc_kernel *k = NULL;
    ttc_status st = ttc_compile(src, strlen(src), "k.py", "k", "*fp32,i32,64", &o, &k);
    if (st != TTC_OK) fprintf(stderr, "%s", ttc_kernel_diagnostics(k));
    assert_int_equal(st, TTC_OK);
    assert_false(ttc_kernel_from_cache(k));
    const char *ttir = ttc_kernel_output(k, TTC_LEVEL_TTIR, NULL);
    assert_non_null(ttir);
    assert_non_null(strstr(ttir, i ? "5.000000e+00" : "3.000000e+00"));
    ttc_kernel_destroy(k);
  }
  char entries[4][1024];
  assert_int_equal(list_entries(entries, 4), 0);
  unlink(mod);
  remove_tree(inc);
}

/* Rewrites one entry with its first `keep` bytes (or flips a byte). */
static void damage(const char *path, long keep, bool flip) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  assert_true(n > 64);
  if (flip) buf[n / 2] ^= 0x40;
  f = fopen(path, "wb");
  fwrite(buf, 1, keep >= 0 && (size_t)keep < n ? (size_t)keep : n, f);
  fclose(f);
}

static void test_damaged_entries_recompile(void **state) {
  (void)state;
  const char *src = make_src(5, 5, 5);
  char entries[8][1024];
  for (int round = 0; round < 3; round++) {
    assert_false(compile_cached(src, "*fp32:16,i32:16,128", TTC_LEVEL_PTX, NULL));
    assert_int_equal(list_entries(entries, 8), 1);
    /* truncated anywhere, or one byte changed */
    damage(entries[0], round == 0 ? 10 : round == 1 ? 200 : -1, round == 2);
    ttc_kernel *k = NULL;
    assert_false(compile_cached(src, "*fp32:16,i32:16,128", TTC_LEVEL_PTX, &k));
    const char *diag = ttc_kernel_diagnostics(k);
    assert_non_null(strstr(diag, "remark: cache entry '"));
    assert_non_null(strstr(diag, round == 0 ? "truncated" : "checksum mismatch"));
    assert_non_null(strstr(ttc_kernel_output(k, TTC_LEVEL_PTX, NULL), ".entry k("));
    ttc_kernel_destroy(k);
    /* the rebuilt entry is good again */
    assert_true(compile_cached(src, "*fp32:16,i32:16,128", TTC_LEVEL_PTX, NULL));
    unlink(entries[0]);
  }
}

static void test_disabled(void **state) {
  (void)state;
  const char *src = make_src(6, 6, 6);
  setenv("TTC_CACHE", "0", 1);
  assert_false(compile_cached(src, "*fp32,i32,64", TTC_LEVEL_PTX, NULL));
  assert_false(compile_cached(src, "*fp32,i32,64", TTC_LEVEL_PTX, NULL));
  char entries[4][1024];
  assert_int_equal(list_entries(entries, 4), 0);
  unsetenv("TTC_CACHE");
  /* levels the cache does not keep are compiled every time */
  assert_false(compile_cached(src, "*fp32,i32,64", TTC_LEVEL_TTGIR, NULL));
  assert_false(compile_cached(src, "*fp32,i32,64", TTC_LEVEL_TTGIR, NULL));
  assert_int_equal(list_entries(entries, 4), 0);
}

/* Two processes compile the same kernels into one cache at the same time
 * (started together through a pipe, each signature compiled by both):
 * both succeed every time and every entry left behind is whole. */
static void test_two_processes(void **state) {
  (void)state;
  enum { ROUNDS = 12 };
  int go[2];
  assert_int_equal(pipe(go), 0);
  pid_t kids[2];
  for (int p = 0; p < 2; p++) {
    kids[p] = fork();
    assert_true(kids[p] >= 0);
    if (kids[p] == 0) {
      char c;
      close(go[1]);
      if (read(go[0], &c, 1) != 0) _exit(3); /* wait for the start (EOF) */
      int bad = 0;
      for (int r = 0; r < ROUNDS; r++) {
        char sig[64];
        snprintf(sig, sizeof sig, "*fp32:16,i32,%d", 1 << (r % 6 + 4));
        const char *src = make_src(r, 0, 0);
        ttc_compile_options o;
        ttc_compile_options_init(&o);
        o.stop_after = TTC_LEVEL_PTX;
        o.cache = 1;
        o.cache_dir = cache_dir;
        ttc_kernel *k = NULL;
        ttc_status st = ttc_compile(src, strlen(src), "k.py", "k", sig, &o, &k);
        const char *ptx = k ? ttc_kernel_output(k, TTC_LEVEL_PTX, NULL) : NULL;
        if (st != TTC_OK || !ptx || !strstr(ptx, ".entry k(") ||
            strstr(ttc_kernel_diagnostics(k), "remark"))
          bad++;
        ttc_kernel_destroy(k);
      }
      _exit(bad ? 1 : 0);
    }
  }
  close(go[0]);
  close(go[1]); /* both start now */
  for (int p = 0; p < 2; p++) {
    int status = 0;
    assert_int_equal(waitpid(kids[p], &status, 0), kids[p]);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
  }
  /* every entry loads: each round's kernel is a hit now, no remark */
  char entries[64][1024];
  assert_int_equal(list_entries(entries, 64), ROUNDS);
  for (int r = 0; r < ROUNDS; r++) {
    char sig[64];
    snprintf(sig, sizeof sig, "*fp32:16,i32,%d", 1 << (r % 6 + 4));
    ttc_kernel *k = NULL;
    assert_true(compile_cached(make_src(r, 0, 0), sig, TTC_LEVEL_PTX, &k));
    assert_string_equal(ttc_kernel_diagnostics(k), "");
    ttc_kernel_destroy(k);
  }
}

/* A folder that cannot be written is a remark, not a failure. */
static void test_unwritable_folder(void **state) {
  (void)state;
  const char *src = make_src(8, 8, 8);
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = TTC_LEVEL_PTX;
  o.cache = 1;
  o.cache_dir = "/proc/ttc-no-such-folder";
  ttc_kernel *k = NULL;
  assert_int_equal(ttc_compile(src, strlen(src), "k.py", "k", "*fp32,i32,64", &o, &k), TTC_OK);
  assert_non_null(strstr(ttc_kernel_diagnostics(k), "remark: cannot"));
  ttc_kernel_destroy(k);
}

/* The hashes against reference values (FIPS 180-4's "abc" and the
 * two-block message; xxHash's own library for XXH64). */
static void test_hashes(void **state) {
  (void)state;
  uint8_t d[DRV_DIGEST_LEN];
  char hex[2 * DRV_DIGEST_LEN + 1];
  drv_sha256_of("abc", 3, d);
  drv_hex(d, sizeof d, hex);
  assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  drv_sha256 s; /* fed in uneven pieces */
  drv_sha256_init(&s);
  drv_sha256_update(&s, two, 5);
  drv_sha256_update(&s, two + 5, 50);
  drv_sha256_update(&s, two + 55, strlen(two) - 55);
  drv_sha256_final(&s, d);
  drv_hex(d, sizeof d, hex);
  assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  uint8_t bytes[768];
  for (int i = 0; i < 768; i++)
    bytes[i] = (uint8_t)i;
  assert_true(drv_xxh64("", 0, 0) == 0xef46db3751d8e999ull);
  assert_true(drv_xxh64("abc", 3, 0) == 0x44bc2cf5ad770999ull);
  assert_true(drv_xxh64(bytes, 37, 0) == 0xd93fa2dfee5c24c9ull);
  assert_true(drv_xxh64(bytes, 768, 7) == 0xb1e10f6c5294cd6bull);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hashes),
      cmocka_unit_test_setup_teardown(test_crafted_entries, setup, teardown),
      cmocka_unit_test_setup_teardown(test_cubin_stats_cached, setup, teardown),
      cmocka_unit_test_setup_teardown(test_hit_and_outputs, setup, teardown),
      cmocka_unit_test_setup_teardown(test_key_covers_reached_source, setup, teardown),
      cmocka_unit_test_setup_teardown(test_imports_not_stored, setup, teardown),
      cmocka_unit_test_setup_teardown(test_damaged_entries_recompile, setup, teardown),
      cmocka_unit_test_setup_teardown(test_disabled, setup, teardown),
      cmocka_unit_test_setup_teardown(test_two_processes, setup, teardown),
      cmocka_unit_test_setup_teardown(test_unwritable_folder, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
