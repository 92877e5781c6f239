/* run_lang.c - runs the language test kernels of test/lang (*.py, and the
 * examples' kernels) and checks their numbers against references computed
 * in plain C from the same random inputs (fixed seeds; outputs poisoned
 * with NaN / 0xa5 first). The cases live in cases_*.c; lang_util.c holds
 * the machinery (lang.h).
 *
 * usage: run_lang [--interp | --gpu | --compare] [--ptxas] [-v] [-l] [FILTER]
 *   --interp   on ttc's CPU interpreter (default; what ctest runs)
 *   --ptxas    on the interpreter, but compile every kernel to a cubin first
 *              (codegen and ptxas for sm_90a at the case's num_warps)
 *   --gpu      on GPU 0
 *   --compare  on both, then GPU against interpreter: bitwise where the
 *              case says exact, else within the case's tolerance
 *   -l         list the case names and exit
 *   FILTER     run only the cases whose name contains it
 * Prints one line per case and "N passed, N failed"; exit 1 on any failure.
 * A deliberately wrong kernel must be caught: that case passes only when
 * its check fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"

/* ---- driver ------------------------------------------------------------------------ */

/* Runs one case on dev into *c (the caller releases it); true when it
 * passed on its own terms (a wrong kernel must mismatch). */
static bool run_case(const lcase *k, ttc_device *dev, lctx *c, const char *dir, bool verbose,
                     bool full_compile) {
  memset(c, 0, sizeof *c);
  c->dir = dir;
  c->dev = dev;
  c->verbose = verbose;
  c->seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)k->name[0] * 0x100000001b3ull;
  for (const char *p = k->name; *p; p++)
    c->seed = (c->seed ^ (uint8_t)*p) * 0x100000001b3ull;
  if (c->seed == 0) c->seed = 1;
  c->num_warps = k->num_warps;
  c->full_compile = full_compile;
  k->fn(c, &k->p);
  return k->expect_mismatch ? (c->failed && strstr(c->why, "expected") != NULL) : !c->failed;
}

/* GPU against interpreter, output by output. */
static bool compare_runs(const lctx *gpu, const lctx *cpu, char *why, size_t cap) {
  for (int k = 0; k < cpu->nbufs && k < gpu->nbufs; k++) {
    const buf *b = &cpu->bufs[k];
    if (!b->ref) continue;
    for (size_t i = 0; i < b->n; i++) {
      if (lang_agree(b, gpu->bufs[k].host, b->host, i)) continue;
      if (lang_is_float(b->type))
        snprintf(why, cap,
                 "GPU and interpreter differ: output %d element %zu: GPU %.9g, interpreter %.9g", k,
                 i, lang_get_f(b, gpu->bufs[k].host, i), lang_get_f(b, b->host, i));
      else
        snprintf(why, cap,
                 "GPU and interpreter differ: output %d element %zu: GPU %lld, interpreter %lld", k,
                 i, (long long)lang_get_i(b, gpu->bufs[k].host, i),
                 (long long)lang_get_i(b, b->host, i));
      return false;
    }
  }
  return true;
}

static int open_device(bool gpu, ttc_device **dev) {
  char err[512] = "";
  ttc_status st = gpu ? ttc_device_open(0, dev, err, sizeof err)
                      : ttc_device_open_interpreter(dev, err, sizeof err);
  if (st == TTC_OK && gpu && ttc_device_is_interpreter(*dev)) {
    fprintf(stderr, "run_lang: --gpu with TTC_INTERPRET set: unset it\n");
    return 1;
  }
  if (st != TTC_OK)
    fprintf(stderr, "run_lang: cannot open the %s: %s\n", gpu ? "GPU" : "interpreter", err);
  return st == TTC_OK ? 0 : 1;
}

int main(int argc, char **argv) {
  bool use_gpu = false, use_cpu = true, verbose = false, list = false, ptxas = false;
  const char *filter = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--gpu") == 0)
      use_gpu = true, use_cpu = false;
    else if (strcmp(argv[i], "--interp") == 0)
      use_gpu = false, use_cpu = true;
    else if (strcmp(argv[i], "--compare") == 0)
      use_gpu = use_cpu = true;
    else if (strcmp(argv[i], "-v") == 0)
      verbose = true;
    else if (strcmp(argv[i], "-l") == 0)
      list = true;
    else if (strcmp(argv[i], "--ptxas") == 0)
      ptxas = true;
    else if (argv[i][0] == '-') {
      fprintf(stderr,
              "usage: run_lang [--interp | --gpu | --compare] [--ptxas] [-v] [-l] [FILTER]\n");
      return 2;
    } else
      filter = argv[i];
  }
  lcase_list cases = {NULL, 0, 0};
  lang_cases_basic(&cases);
  lang_cases_table(&cases);
  lang_cases_layernorm(&cases);
  lang_cases_language(&cases);
  if (list) {
    for (size_t i = 0; i < cases.n; i++)
      if (!filter || strstr(cases.v[i].name, filter)) printf("%s\n", cases.v[i].name);
    free(cases.v);
    return 0;
  }
  ttc_device *cpu = NULL, *gpu = NULL;
  char *dir = lang_find_dir(argv[0]);
  if (!dir || (use_cpu && open_device(false, &cpu)) || (use_gpu && open_device(true, &gpu))) {
    ttc_device_destroy(cpu);
    free(cases.v);
    free(dir);
    return 1;
  }
  int passed = 0, failed = 0;
  for (size_t i = 0; i < cases.n; i++) {
    const lcase *k = &cases.v[i];
    if (filter && !strstr(k->name, filter)) continue;
    lctx a, b;
    bool ok = true;
    char why[600] = "";
    if (cpu) {
      ok = run_case(k, cpu, &a, dir, verbose, ptxas);
      if (!ok)
        snprintf(why, sizeof why, "interpreter: %s", a.failed ? a.why : "mismatch not detected");
    }
    if (gpu && !(k->interp_only && cpu)) {
      if (k->interp_only) {
        memset(&b, 0, sizeof b);
      } else {
        bool gok = run_case(k, gpu, &b, dir, verbose, false);
        if (ok && !gok) {
          ok = false;
          snprintf(why, sizeof why, "GPU: %s", b.failed ? b.why : "mismatch not detected");
        }
        if (ok && cpu) ok = compare_runs(&b, &a, why, sizeof why);
        lang_release(&b);
      }
    }
    if (cpu) lang_release(&a);
    printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", k->name, ok ? "" : ": ", why);
    if (ok && verbose && k->expect_mismatch) printf("     (caught: %s)\n", a.why);
    ok ? passed++ : failed++;
    fflush(stdout); /* a hang or crash later still shows the cases so far */
  }
  printf("%d passed, %d failed\n", passed, failed);
  ttc_device_destroy(cpu);
  ttc_device_destroy(gpu);
  free(cases.v);
  free(dir);
  return failed ? 1 : 0;
}
