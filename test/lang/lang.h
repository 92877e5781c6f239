// SPDX-License-Identifier: MIT
/* lang.h - the language test suite's shared pieces: host buffers mirrored on
 * a device, random inputs, references, launches and checks (lang_util.c),
 * and the case list the case files add to (cases_*.c) and run_lang.c runs.
 * A case draws inputs, computes its reference in plain C (double where it
 * can), launches one kernel file's kernel and checks every output. */
#ifndef TTC_TEST_LANG_H
#define TTC_TEST_LANG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ttc/ttc.h"

#define LANG_MAX_BUFS 24

/* A host array mirrored on the device; outputs also hold the reference. */
typedef struct buf {
  ttc_type type;
  size_t n, esize;
  void *host, *ref; /* ref: outputs only (owned; freed by lang_release) */
  uint64_t dev;
  /* Outputs: all zero: bitwise. tol: |got - want| <= tol * max(1, |got|, |want|).
   * atol / rtol (when either is set): |got - want| <= atol + rtol * |want|. */
  double tol, atol, rtol;
} buf;

typedef struct lctx {
  ttc_device *dev;
  const char *dir; /* the kernel files' folder (test/lang) */
  buf bufs[LANG_MAX_BUFS];
  int nbufs;
  uint64_t seed;
  int num_warps; /* 0: the compiler's default (4) */
  /* On the interpreter: compile to a cubin anyway (codegen and ptxas for
   * sm_90a at num_warps), then run the ttir. */
  bool full_compile;
  bool failed, verbose;
  char why[512];
} lctx;

/* What a table-driven case varies; each case reads the fields it needs. */
typedef struct lparams {
  ttc_type t, t2; /* element types */
  int m, n, k;    /* shape */
  int block;      /* BLOCK constexpr */
  int axis;       /* reduction / scan axis */
  int variant;    /* case-specific switch */
} lparams;

typedef struct lcase {
  char name[96];
  void (*fn)(lctx *c, const lparams *p);
  lparams p;
  int num_warps;        /* compile option; 0: default */
  bool expect_mismatch; /* a wrong kernel: passes when its check fails */
  bool interp_only;
} lcase;

/* A growable list of cases (owned by the caller; free v). */
typedef struct lcase_list {
  lcase *v;
  size_t n, cap;
} lcase_list;

/* ---- lang_util.c --------------------------------------------------------- */

/* Appends a case named by the printf format; returns it (owned by the list)
 * so that the caller can set flags, or NULL when memory ran out. */
lcase *lang_add(lcase_list *l, void (*fn)(lctx *, const lparams *), const lparams *p, int num_warps,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

size_t lang_type_size(ttc_type t);
bool lang_is_float(ttc_type t);
bool lang_is_signed(ttc_type t);
/* Triton's short name ("fp32", "i8", "u16"): ttc_type_name. */
const char *lang_tn(ttc_type t);

/* Rounds x to f16 (eb 5, mb 10) or bf16 (8, 7) bits, nearest even. */
uint16_t lang_half_encode(double x, int eb, int mb);
double lang_half_decode(uint16_t h, int eb, int mb);
double lang_fp8_decode(uint8_t b, bool e5);
uint8_t lang_fp8_encode(double x, bool e5);
/* x rounded to the float type t (exactly: one rounding from double). */
double lang_round_to(ttc_type t, double x);

/* Element i of p (the buffer's host, ref or any array of its type). */
double lang_get_f(const buf *b, const void *p, size_t i);
void lang_set_f(const buf *b, void *p, size_t i, double x);
/* Integers as int64: sign- or zero-extended by the buffer's type. */
int64_t lang_get_i(const buf *b, const void *p, size_t i);
void lang_set_i(const buf *b, void *p, size_t i, int64_t x);

uint64_t lang_rnd(lctx *c);
double lang_rnd_unit(lctx *c); /* [0, 1) */

/* Records the first failure of the case (later ones are dropped). */
void lang_fail(lctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A zeroed buffer of n elements (no reference: not checked). */
buf *lang_buf(lctx *c, ttc_type t, size_t n);
/* Random input: floats uniform in [lo, hi) rounded to the type; integers
 * uniform in [lo, hi) when hi > lo, else over the type's whole range. */
buf *lang_input(lctx *c, ttc_type t, size_t n, double lo, double hi);
/* An output, poisoned (NaN for floats, 0xa5 bytes for integers), with a
 * zeroed reference and the old-style tolerance `tol` (0: bitwise). */
buf *lang_output(lctx *c, ttc_type t, size_t n, double tol);
/* The same with atol / rtol. */
buf *lang_output_tol(lctx *c, ttc_type t, size_t n, double atol, double rtol);

/* Allocates and uploads every buffer made so far; false (and a failure)
 * when the device refused. */
bool lang_upload(lctx *c);
/* Compiles file:kernel (file relative to c->dir) with c->num_warps,
 * runs it on the grid and copies every buffer back. */
ttc_status lang_launch(lctx *c, const char *file, const char *kernel, const char *sig, unsigned gx,
                       unsigned gy, unsigned gz, const ttc_arg *args, size_t nargs);
/* lang_launch, recording a failure; true when it ran. */
bool lang_run(lctx *c, const char *file, const char *kernel, const char *sig, unsigned gx,
              unsigned gy, unsigned gz, const ttc_arg *args, size_t nargs);
/* Two values of an output agree under its tolerance (NaN matches NaN). */
bool lang_agree(const buf *b, const void *x, const void *y, size_t i);
/* Every output against its reference; the first difference fails the case. */
void lang_check(lctx *c);
/* Frees every buffer (device and host) of the case. */
void lang_release(lctx *c);
/* The line of `needle` in a test kernel file (1-based), 0 if absent. */
int lang_line_of(const lctx *c, const char *file, const char *needle);
/* The folder of the kernel files: $TTC_LANG_DIR, else the source folder
 * the program was built from, else ../../test/lang from the program's own
 * folder (a build folder carried to another machine). Caller frees. */
char *lang_find_dir(const char *argv0);

static inline ttc_arg lang_arg(const buf *b) { return ttc_arg_ptr(b->dev); }

/* ---- case files: each appends its cases ------------------------------------ */

void lang_cases_basic(lcase_list *l);     /* cases_basic.c: one kernel per feature */
void lang_cases_table(lcase_list *l);     /* cases_table.c: dtype x shape x warps */
void lang_cases_layernorm(lcase_list *l); /* cases_layernorm.c: layer norm, softmax, matmul */
void lang_cases_language(lcase_list *l);  /* cases_language.c: whole modules, sort, block ptrs */

#endif
