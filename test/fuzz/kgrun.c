// SPDX-License-Identifier: MIT
/* kgrun.c - kernelgen: differential testing of the compiler on random
 * valid kernels (kernelgen.c). Each kernel runs on the same inputs along
 * several paths and every output must agree with the reference path:
 *   ttir      the kernel's ttir (canonicalize, cse, dce): the reference
 *   raw       the frontend's ttir before any pass
 *   passes    the raw ttir through a random pipeline of ttir passes
 *   ttgir     the ttgir (layouts, coalesce, remove-layout-conversions, ...
 *             at a random num_warps), shared memory and barriers: the
 *             interpreter runs it as it runs ttir
 *   ptx       (--ptx) compiled to PTX at -O0 / -O3 (codegen must not fail),
 *             its ttir run: the GPU path's code, compared as the GPU's
 *   gpu       (--gpu) cubins at -O0 / -O3 and random num_warps on GPU 0
 * On the interpreter every path must give the same bits. A GPU must give
 * the same bits for every output the generator knows to be exact, and
 * agree within a tolerance elsewhere (approximate math, FMA contraction,
 * reduction order). A mismatch prints the seed and the path and writes
 * the kernel file to the output folder.
 *
 * usage: kernelgen [--gpu] [--ptx] [-n COUNT] [-s FIRST_SEED] [-o DIR] [-v]
 *        kernelgen --self-test [-n COUNT] [-s FIRST_SEED]
 *        kernelgen --emit SEED     (the kernel file on stdout)
 * Exit: 0 all agreed, 1 a mismatch or a failed compile or launch, 2 usage. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, mkdir */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "kernelgen.h"

typedef enum route { P_TTIR, P_RAW, P_PASSES, P_TTGIR, P_PTX, P_GPU } route;

typedef struct variant {
  route p;
  const char *passes; /* P_PASSES */
  int num_warps;      /* P_TTGIR, P_PTX, P_GPU */
  int opt_level;      /* P_PTX, P_GPU */
} variant;

typedef struct opts {
  bool gpu, ptx, verbose, self_test, corrupt;
  long count;
  uint64_t first;
  const char *out_dir;
} opts;

/* One kernel's host buffers: inputs, and the outputs of one path. */
typedef struct bufs {
  void *host[KG_MAX_BUFS];
} bufs;

static size_t esize(ttc_type t) { return t == TTC_TYPE_F16 ? 2 : 4; }

/* ---- f16 values (the generator keeps inputs exact in f16) ---------------------- */

static double half_to_double(uint16_t h) {
  int e = (h >> 10) & 31, f = h & 1023;
  double s = h & 0x8000 ? -1 : 1;
  if (e == 31) return f ? NAN : s * INFINITY;
  return e ? s * ldexp(1024 + f, e - 25) : s * ldexp(f, -24);
}

/* x must be an f16 value (normal or zero): the inputs are. */
static uint16_t half_from_exact(double x) {
  uint16_t s = signbit(x) ? 0x8000 : 0;
  x = fabs(x);
  if (x == 0) return s;
  int e;
  double m = frexp(x, &e); /* x = m * 2^e, m in [0.5, 1) */
  return s | (uint16_t)((e + 14) << 10) | (uint16_t)((int)ldexp(m, 11) - 1024);
}

static double get_f(const kg_buf *b, const void *p, size_t i) {
  if (b->type == TTC_TYPE_F16) return half_to_double(((const uint16_t *)p)[i]);
  if (b->type == TTC_TYPE_F32) return ((const float *)p)[i];
  return ((const int32_t *)p)[i];
}

/* ---- the comparison (shared by every path) ------------------------------------- */

/* Tolerance of an inexact float output on a GPU: |got - want| <= atol +
 * rtol |want|, atol relative to the generator's bound on the values. */
static bool close_enough(const kg_buf *b, double got, double want) {
  if (isnan(got) && isnan(want)) return true;
  bool f16 = b->type == TTC_TYPE_F16;
  double atol = b->bound * (f16 ? 0x1p-8 : 0x1p-16), rtol = f16 ? 0x1p-5 : 0x1p-10;
  return fabs(got - want) <= atol + rtol * fabs(want);
}

/* Every output of `got` against `want`: bitwise, or with `tolerant` (a GPU
 * against the interpreter) bitwise for exact outputs (+0 and -0 equal) and
 * within close_enough for the others. True when they agree; else *why says
 * where. */
static bool compare_outputs(const kg_kernel *k, const bufs *want, const bufs *got, bool tolerant,
                            char *why, size_t cap) {
  for (int o = 0; o < k->nbufs; o++) {
    const kg_buf *b = &k->bufs[o];
    if (!b->is_output) continue;
    size_t es = esize(b->type);
    for (size_t i = 0; i < b->n; i++) {
      const char *x = (const char *)got->host[o] + i * es,
                 *y = (const char *)want->host[o] + i * es;
      if (!memcmp(x, y, es)) continue;
      double gx = get_f(b, got->host[o], i), wy = get_f(b, want->host[o], i);
      if (tolerant && b->type != TTC_TYPE_I32) {
        if (b->exact ? gx == wy : close_enough(b, gx, wy)) continue;
      }
      snprintf(why, cap, "output %d (%s, %s) element %zu: got %.9g, want %.9g", o,
               ttc_type_name(b->type), b->exact ? "exact" : "inexact", i, gx, wy);
      return false;
    }
  }
  return true;
}

/* ---- running one path ---------------------------------------------------------- */

static void fail(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(char *why, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, cap, fmt, ap);
  va_end(ap);
}

static void variant_name(const variant *v, char *out, size_t cap) {
  static const char *const names[] = {"ttir", "raw", "passes", "ttgir", "ptx", "gpu"};
  if (v->p == P_PASSES)
    snprintf(out, cap, "passes=%s", v->passes);
  else if (v->p == P_TTGIR)
    snprintf(out, cap, "ttgir -w %d", v->num_warps);
  else if (v->p == P_PTX || v->p == P_GPU)
    snprintf(out, cap, "%s -O%d -w %d", names[v->p], v->opt_level, v->num_warps);
  else
    snprintf(out, cap, "%s", names[v->p]);
}

/* IR text through `passes` (ttc_ir_run); caller frees. */
static char *run_passes(const char *text, const char *passes, char *why, size_t cap) {
  ttc_ir_options io;
  ttc_ir_options_init(&io);
  io.passes = passes;
  ttc_ir_result *r = NULL;
  ttc_status st = ttc_ir_run(text, strlen(text), "<kernelgen>", &io, &r);
  size_t len = 0;
  const char *out = r ? ttc_ir_result_output(r, &len) : NULL;
  char *copy = st == TTC_OK && out ? malloc(len + 1) : NULL;
  if (copy) {
    memcpy(copy, out, len);
    copy[len] = '\0';
  } else {
    fail(why, cap, "passes %s failed: %s\n%s", passes, ttc_status_string(st),
         r ? ttc_ir_result_diagnostics(r) : "");
  }
  ttc_ir_result_destroy(r);
  return copy;
}

/* The kernel of path v: compiled from the source, or made from IR text. */
static ttc_kernel *make_kernel(const kg_kernel *kg, const variant *v, ttc_device *dev, char *why,
                               size_t cap) {
  ttc_compile_options o;
  ttc_compile_options_init(&o);
  o.stop_after = TTC_LEVEL_TTIR;
  if (v->p == P_RAW || v->p == P_PASSES) o.print_before = "canonicalize";
  if (v->p == P_TTGIR) o.stop_after = TTC_LEVEL_TTGIR;
  if (v->num_warps) o.num_warps = v->num_warps;
  o.opt_level = v->opt_level;
  if (v->p == P_PTX) o.stop_after = TTC_LEVEL_PTX;
  if (v->p == P_GPU) {
    o.stop_after = TTC_LEVEL_CUBIN;
    o.arch = ttc_device_arch(dev);
  }
  ttc_kernel *k = NULL;
  ttc_status st =
      ttc_compile(kg->src, strlen(kg->src), "kernelgen.py", KG_KERNEL_NAME, kg->sig, &o, &k);
  if (st != TTC_OK) {
    fail(why, cap, "compile failed: %s\n%s", ttc_status_string(st),
         k ? ttc_kernel_diagnostics(k) : "");
    ttc_kernel_destroy(k);
    return NULL;
  }
  if (v->p != P_RAW && v->p != P_PASSES && v->p != P_TTGIR) return k;
  /* IR text -> a kernel the interpreter loads */
  char *text = NULL;
  if (v->p == P_TTGIR) {
    text = run_passes(ttc_kernel_output(k, TTC_LEVEL_TTGIR, NULL),
                      "allocate-shared-memory,tritongpu-membar", why, cap);
  } else {
    const char *dump = ttc_kernel_pass_dump(k), *nl = strchr(dump, '\n');
    /* "// -----// IR Dump Before canonicalize //----- //" and the module */
    if (!nl || strncmp(dump, "// -----// IR Dump Before", 25)) {
      fail(why, cap, "no ttir before the first pass");
    } else if (v->p == P_PASSES) {
      text = run_passes(nl + 1, v->passes, why, cap);
    } else {
      size_t len = strlen(nl + 1);
      text = malloc(len + 1);
      if (text) memcpy(text, nl + 1, len + 1);
    }
  }
  ttc_kernel_destroy(k);
  if (!text) return NULL;
  k = NULL;
  st = ttc_kernel_create_from_ttir(text, strlen(text), "<kernelgen ir>", KG_KERNEL_NAME, &k);
  if (st != TTC_OK) {
    fail(why, cap, "the IR does not load: %s\n%s\n%s", ttc_status_string(st),
         k ? ttc_kernel_diagnostics(k) : "", text);
    ttc_kernel_destroy(k);
    k = NULL;
  }
  free(text);
  return k;
}

/* Uploads the inputs and poisoned outputs, runs path v on dev and copies
 * the outputs into out (allocated here; the caller frees them). */
static bool run_variant(const kg_kernel *kg, const bufs *in, const variant *v, ttc_device *dev,
                        bufs *out, char *why, size_t cap) {
  memset(out, 0, sizeof *out);
  ttc_kernel *k = make_kernel(kg, v, dev, why, cap);
  if (!k) return false;
  ttc_module *m = NULL;
  ttc_status st = ttc_module_load(dev, k, &m);
  ttc_kernel_destroy(k);
  uint64_t ptr[KG_MAX_BUFS] = {0};
  ttc_arg args[KG_MAX_BUFS + 2];
  for (int i = 0; st == TTC_OK && i < kg->nbufs; i++) {
    const kg_buf *b = &kg->bufs[i];
    size_t bytes = b->n * esize(b->type);
    out->host[i] = malloc(bytes);
    if (!out->host[i]) {
      st = TTC_ERROR_OUT_OF_MEMORY;
      break;
    }
    if (b->is_output)
      memset(out->host[i], b->type == TTC_TYPE_I32 ? 0xa5 : 0xff, bytes); /* poison: NaN */
    else
      memcpy(out->host[i], in->host[i], bytes);
    st = ttc_device_alloc(dev, bytes, &ptr[i]);
    if (st == TTC_OK) st = ttc_device_copy_to(dev, ptr[i], out->host[i], bytes);
    args[i] = ttc_arg_ptr(ptr[i]);
  }
  args[kg->nbufs] = ttc_arg_i32(kg->n);
  args[kg->nbufs + 1] = ttc_arg_i32(kg->k);
  const unsigned grid[3] = {kg->grid, 1, 1};
  if (st == TTC_OK) st = ttc_module_launch(m, grid, NULL, args, (size_t)kg->nbufs + 2);
  if (st == TTC_OK) st = ttc_device_synchronize(dev);
  for (int i = 0; st == TTC_OK && i < kg->nbufs; i++)
    if (kg->bufs[i].is_output)
      st = ttc_device_copy_from(dev, out->host[i], ptr[i], kg->bufs[i].n * esize(kg->bufs[i].type));
  if (st != TTC_OK)
    fail(why, cap, "load or launch failed: %s: %s", ttc_status_string(st), ttc_device_error(dev));
  for (int i = 0; i < kg->nbufs; i++)
    if (ptr[i]) ttc_device_free(dev, ptr[i]);
  ttc_module_destroy(m);
  return st == TTC_OK;
}

static void free_bufs(bufs *b) {
  for (int i = 0; i < KG_MAX_BUFS; i++) {
    free(b->host[i]);
    b->host[i] = NULL;
  }
}

/* Inputs of the kernel: values j * 2^q within the bound, from its seed. */
static bool make_inputs(const kg_kernel *kg, bufs *in) {
  memset(in, 0, sizeof *in);
  uint64_t s = kg->seed * 0xd1342543de82ef95ull + 1;
  for (int i = 0; i < kg->nbufs && !kg->bufs[i].is_output; i++) {
    const kg_buf *b = &kg->bufs[i];
    in->host[i] = malloc(b->n * esize(b->type) + 1);
    if (!in->host[i]) return false;
    for (size_t j = 0; j < b->n; j++) {
      uint64_t r = kg_rand(&s);
      if (b->type == TTC_TYPE_I32) {
        int64_t span = (int64_t)b->bound;
        ((int32_t *)in->host[i])[j] =
            (int32_t)(uint32_t)(span >= 2147483647
                                    ? r
                                    : (uint64_t)((int64_t)(r % (uint64_t)(2 * span + 1)) - span));
        continue;
      }
      int64_t steps = (int64_t)ldexp(b->bound, -b->q);
      double x = ldexp((double)((int64_t)(r % (uint64_t)(2 * steps + 1)) - steps), b->q);
      if (b->type == TTC_TYPE_F32)
        ((float *)in->host[i])[j] = (float)x;
      else
        ((uint16_t *)in->host[i])[j] = half_from_exact(x);
    }
  }
  return true;
}

/* ---- one kernel, every path --------------------------------------------------------- */

static const char *const pipelines[] = {"cse",
                                        "dce",
                                        "canonicalize",
                                        "canonicalize,cse",
                                        "cse,canonicalize,dce",
                                        "dce,cse",
                                        "canonicalize,canonicalize,cse,cse,dce,dce"};

static int pick_variants(const kg_kernel *kg, const opts *o, variant *v) {
  uint64_t s = kg->seed * 0x9e3779b97f4a7c15ull + 7;
  int n = 0;
  v[n++] = (variant){P_TTIR, NULL, 0, 3};
  v[n++] = (variant){P_RAW, NULL, 0, 3};
  v[n++] = (variant){P_PASSES, pipelines[kg_rand(&s) % 7], 0, 3};
  v[n++] = (variant){P_TTGIR, NULL, 1 << (kg_rand(&s) % 4), 3};
  if (o->ptx) {
    v[n++] = (variant){P_PTX, NULL, 1 << (kg_rand(&s) % 4), 0};
    v[n++] = (variant){P_PTX, NULL, 1 << (kg_rand(&s) % 4), 3};
  }
  if (o->gpu) {
    v[n++] = (variant){P_GPU, NULL, 4, 3};
    v[n++] = (variant){P_GPU, NULL, 1 << (kg_rand(&s) % 4), 0};
    v[n++] = (variant){P_GPU, NULL, 1 << (kg_rand(&s) % 4), 3};
  }
  return n;
}

static void save_kernel(const kg_kernel *kg, const opts *o) {
  char path[1024];
  snprintf(path, sizeof path, "%s/kg_%llu.py", o->out_dir ? o->out_dir : ".",
           (unsigned long long)kg->seed);
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(kg->src, f);
    fclose(f);
  }
  printf(
      "     kernel: %s (signature '%s', grid (%u,), n=%d, k=%d; rerun: kernelgen -s %llu -n 1%s)\n",
      f ? path : kg->src, kg->sig, kg->grid, kg->n, kg->k, (unsigned long long)kg->seed,
      o->gpu ? " --gpu" : "");
}

typedef struct stats {
  long kernels, runs, mismatches, errors;
} stats;

/* Runs every path of one kernel; false on any mismatch or error. */
static bool check_kernel(const kg_kernel *kg, const opts *o, ttc_device *cpu, ttc_device *gpu,
                         stats *st) {
  bufs in, ref;
  char why[4096] = "";
  variant v[12];
  int nv = pick_variants(kg, o, v);
  if (!make_inputs(kg, &in)) return false;
  bool ok = run_variant(kg, &in, &v[0], cpu, &ref, why, sizeof why);
  st->runs++;
  if (!ok) {
    printf("ERROR seed %llu: ttir: %s\n", (unsigned long long)kg->seed, why);
    st->errors++;
  }
  for (int i = 1; ok && i < nv; i++) {
    bufs got;
    char name[64];
    variant_name(&v[i], name, sizeof name);
    bool ran = run_variant(kg, &in, &v[i], v[i].p == P_GPU ? gpu : cpu, &got, why, sizeof why);
    st->runs++;
    if (!ran) {
      printf("ERROR seed %llu: %s: %s\n", (unsigned long long)kg->seed, name, why);
      st->errors++;
      ok = false;
    } else {
      if (o->corrupt) { /* the self-test: a wrong bit must be reported */
        for (int b = 0; b < kg->nbufs; b++)
          if (kg->bufs[b].is_output) ((unsigned char *)got.host[b])[0] ^= 1;
      }
      bool tolerant = v[i].p == P_GPU || v[i].p == P_PTX;
      if (!compare_outputs(kg, &ref, &got, tolerant, why, sizeof why)) {
        printf("MISMATCH seed %llu: %s against ttir: %s\n", (unsigned long long)kg->seed, name,
               why);
        st->mismatches++;
        ok = false;
      } else if (o->verbose) {
        printf("     seed %llu: %s agrees\n", (unsigned long long)kg->seed, name);
      }
    }
    free_bufs(&got);
  }
  if (!ok && !o->corrupt) save_kernel(kg, o);
  free_bufs(&in);
  free_bufs(&ref);
  return ok;
}

/* ---- the self-test: the comparison catches what it must --------------------------- */

/* For each kernel: a flipped bit in any output fails the bitwise compare;
 * the lowest bit of an exact output fails the tolerant one; an inexact
 * output one unit in the last place off passes it, and one its bound off
 * fails it. Returns the number of expectations that did not hold. */
static int self_test(const kg_kernel *kg, ttc_device *cpu) {
  bufs in, ref, bad;
  char why[4096];
  variant v = {P_TTIR, NULL, 0, 3};
  int failures = 0;
  if (!make_inputs(kg, &in) || !run_variant(kg, &in, &v, cpu, &ref, why, sizeof why)) {
    printf("self-test: seed %llu does not run: %s\n", (unsigned long long)kg->seed, why);
    free_bufs(&in);
    return 1;
  }
  for (int o = 0; o < kg->nbufs; o++) {
    const kg_buf *b = &kg->bufs[o];
    if (!b->is_output) continue;
    size_t es = esize(b->type), i = (size_t)kg->seed % b->n;
    memset(&bad, 0, sizeof bad);
    for (int j = 0; j < kg->nbufs; j++) {
      if (!kg->bufs[j].is_output) continue;
      size_t bytes = kg->bufs[j].n * esize(kg->bufs[j].type);
      bad.host[j] = malloc(bytes);
      if (bad.host[j]) memcpy(bad.host[j], ref.host[j], bytes);
    }
    unsigned char *p = (unsigned char *)bad.host[o] + i * es;
    double want = get_f(b, ref.host[o], i);
    p[0] ^= 1; /* the lowest bit */
    bool poisoned = isnan(want);
    if (compare_outputs(kg, &ref, &bad, false, why, sizeof why)) {
      printf("self-test: seed %llu output %d: a flipped bit passed the bitwise compare\n",
             (unsigned long long)kg->seed, o);
      failures++;
    }
    bool tol_ok = compare_outputs(kg, &ref, &bad, true, why, sizeof why);
    if (!poisoned && (b->exact ? tol_ok : !tol_ok)) {
      printf("self-test: seed %llu output %d (%s): one unit in the last place %s the tolerant "
             "compare\n",
             (unsigned long long)kg->seed, o, b->exact ? "exact" : "inexact",
             b->exact ? "passed" : "failed");
      failures++;
    }
    p[0] ^= 1;
    if (!poisoned && b->type != TTC_TYPE_I32) { /* off by more than the bound */
      float x = (float)(want + 2 * b->bound + 1);
      uint16_t h = want < 30000 ? 0x7bff : 0xfbff; /* +-65504, beyond any f16 bound */
      memcpy(p, b->type == TTC_TYPE_F32 ? (const void *)&x : (const void *)&h, es);
      if (compare_outputs(kg, &ref, &bad, true, why, sizeof why)) {
        printf("self-test: seed %llu output %d: a value far off passed the tolerant compare\n",
               (unsigned long long)kg->seed, o);
        failures++;
      }
    }
    free_bufs(&bad);
  }
  free_bufs(&in);
  free_bufs(&ref);
  return failures;
}

/* ---- main ----------------------------------------------------------------------------- */

static int usage(void) {
  fprintf(stderr, "usage: kernelgen [--gpu] [--ptx] [-n COUNT] [-s FIRST_SEED] [-o DIR] [-v]\n"
                  "       kernelgen --self-test [-n COUNT] [-s FIRST_SEED]\n"
                  "       kernelgen --emit SEED\n");
  return 2;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  opts o = {.count = 50, .first = 1};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--gpu"))
      o.gpu = true;
    else if (!strcmp(a, "--ptx"))
      o.ptx = true;
    else if (!strcmp(a, "-v"))
      o.verbose = true;
    else if (!strcmp(a, "--self-test"))
      o.self_test = true;
    else if (!strcmp(a, "--emit") && val) {
      kg_kernel kg;
      if (!kg_generate(strtoull(val, NULL, 10), &kg)) return 1;
      fputs(kg.src, stdout);
      kg_kernel_free(&kg);
      return 0;
    } else if (!strcmp(a, "-n") && val)
      o.count = strtol(argv[++i], NULL, 10);
    else if (!strcmp(a, "-s") && val)
      o.first = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(a, "-o") && val)
      o.out_dir = argv[++i];
    else
      return usage();
  }
  ttc_device *cpu = NULL, *gpu = NULL;
  char err[512] = "";
  if (ttc_device_open_interpreter(&cpu, err, sizeof err) != TTC_OK) {
    fprintf(stderr, "kernelgen: cannot open the interpreter: %s\n", err);
    return 1;
  }
  if (o.gpu &&
      (ttc_device_open(0, &gpu, err, sizeof err) != TTC_OK || ttc_device_is_interpreter(gpu))) {
    fprintf(stderr, "kernelgen: --gpu: no GPU: %s\n", gpu ? "TTC_INTERPRET is set" : err);
    ttc_device_destroy(gpu);
    ttc_device_destroy(cpu);
    return 1;
  }
  if (o.out_dir) mkdir(o.out_dir, 0777); /* may exist */
  stats st = {0};
  int failed = 0;
  double t0 = now_s();
  for (long i = 0; i < o.count; i++) {
    kg_kernel kg;
    if (!kg_generate(o.first + (uint64_t)i, &kg)) {
      printf("ERROR seed %llu: the generator failed\n",
             (unsigned long long)(o.first + (uint64_t)i));
      failed++;
      continue;
    }
    st.kernels++;
    if (o.self_test) {
      failed += self_test(&kg, cpu);
      /* and through a whole check: a corrupted path must be reported */
      opts c = o;
      c.corrupt = true;
      stats cs = {0};
      if (check_kernel(&kg, &c, cpu, NULL, &cs) || cs.mismatches == 0) {
        printf("self-test: seed %llu: a corrupted output was not reported\n",
               (unsigned long long)kg.seed);
        failed++;
      }
    } else if (!check_kernel(&kg, &o, cpu, gpu, &st)) {
      failed++;
    }
    kg_kernel_free(&kg);
    fflush(stdout);
  }
  if (o.self_test)
    printf("kernelgen self-test: %ld kernels, %d failures, %.1f s\n", st.kernels, failed,
           now_s() - t0);
  else
    printf(
        "kernelgen: seeds %llu..%llu: %ld kernels, %ld runs, %ld mismatches, %ld errors, %.1f s\n",
        (unsigned long long)o.first, (unsigned long long)(o.first + (uint64_t)o.count - 1),
        st.kernels, st.runs, st.mismatches, st.errors, now_s() - t0);
  ttc_device_destroy(gpu);
  ttc_device_destroy(cpu);
  return failed ? 1 : 0;
}
