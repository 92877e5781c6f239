// SPDX-License-Identifier: MIT
/* old_header.c - a program built against an older ttc header, linked with
 * the current library: the options structs it knows are smaller than the
 * library's (they end where the first version with a size field ended,
 * before opt_level, print_before, print_after and time_passes were added),
 * and the library must read no more than their size and give the newer
 * fields their defaults. The struct is followed by poison that, were it
 * read as the newer fields, would ask for pass dumps (print_after "all")
 * and -O0, which the checks below would see. It includes none of ttc's headers:
 * what it declares is that older header. Exit status 0 on success. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef struct ttc_kernel ttc_kernel;

/* ttc/compile.h as of the first version with a size field */
typedef struct old_compile_options {
  size_t size;
  int num_warps;
  int num_stages;
  const char *arch;
  int stop_after; /* ttc_level: 3 is TTC_LEVEL_PTX */
  const char *ptxas;
  int emit_locations;
  int cache;
  const char *cache_dir;
  const char *const *include_dirs;
  int num_include_dirs;
} old_compile_options;

void ttc_compile_options_init_sized(old_compile_options *opts, size_t size);
int ttc_compile(const char *source, size_t source_len, const char *filename, const char *name,
                const char *signature, const old_compile_options *opts, ttc_kernel **out);
const void *ttc_kernel_output(const ttc_kernel *kernel, int level, size_t *size);
const char *ttc_kernel_pass_dump(const ttc_kernel *kernel);
const char *ttc_kernel_diagnostics(const ttc_kernel *kernel);
void ttc_kernel_destroy(ttc_kernel *kernel);

static const char src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "@triton.jit\n"
    "def add(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    m = offs < n\n"
    "    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2.0, mask=m)\n";

/* The old struct and, after it, what a newer library would read as
 * opt_level, print_before, print_after, time_passes if it overran. */
typedef struct padded {
  old_compile_options o;
  long long poison[16];
} padded;

static int fail(const char *what) {
  fprintf(stderr, "old_header: %s\n", what);
  return 1;
}

static void poison(padded *p) {
  static const char all[] = "all";
  for (int i = 0; i < 16; i++)
    p->poison[i] = 0;
  /* every pointer-sized slot points at "all"; ints read from it are nonzero */
  for (int i = 0; i < 16; i++)
    memcpy(&p->poison[i], &(const char *){all}, sizeof(const char *));
}

int main(void) {
  padded p;
  poison(&p);
  ttc_compile_options_init_sized(&p.o, sizeof p.o);
  if (p.o.size != sizeof p.o) return fail("init did not set the caller's size");
  if (p.o.num_warps != 4 || p.o.num_stages != 3 || !p.o.arch || strcmp(p.o.arch, "sm_90") != 0)
    return fail("init did not fill the defaults the old struct knows");
  const char *all;
  memcpy(&all, &p.poison[0], sizeof all);
  if (!all || strcmp(all, "all") != 0) return fail("init wrote past the caller's struct");

  p.o.num_warps = 8;
  p.o.stop_after = 3; /* TTC_LEVEL_PTX */
  ttc_kernel *k = NULL;
  int st =
      ttc_compile(src, strlen(src), "add.py", "add", "*fp32:16,*fp32:16,i32:16,1024", &p.o, &k);
  if (st != 0 || !k) {
    if (k) fputs(ttc_kernel_diagnostics(k), stderr);
    return fail("the compile failed");
  }
  const char *ptx = ttc_kernel_output(k, 3, NULL);
  if (!ptx || !strstr(ptx, ".reqntid 256")) return fail("num_warps = 8 was not honoured");
  if (*ttc_kernel_pass_dump(k)) return fail("the library read the poison as print_after");
  /* opt_level, unknown to this header, must be the default 3: LLVM's O3
   * marks the kernel local_unnamed_addr, -O0 (what the poison would say)
   * does not */
  const char *llir = ttc_kernel_output(k, 2, NULL); /* TTC_LEVEL_LLIR */
  if (!llir || !strstr(llir, "local_unnamed_addr"))
    return fail("opt_level was not the default (3)");
  ttc_kernel_destroy(k);

  /* a size below the first version's is refused, not read */
  p.o.size = sizeof(size_t) + sizeof(int);
  k = NULL;
  st = ttc_compile(src, strlen(src), "add.py", "add", "*fp32:16,*fp32:16,i32:16,1024", &p.o, &k);
  if (st == 0 || k) return fail("a too-small size was accepted");
  puts("old_header: a program built against the older, smaller options struct works");
  return 0;
}
