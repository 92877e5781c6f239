/* function_impl.h - kernel functions inside lib/driver: the ttc_function
 * object and what its files share. function.c makes functions and runs the
 * launch path; specialize.c derives specialization keys and signatures and
 * builds variants; heuristics.c evaluates @triton.heuristics; autotune.c
 * times configs and keeps the choices.
 *
 * Concurrency: the launch path reads two tables (variants, tunings)
 * through atomic pointers and takes no lock. Everything that changes the
 * function (compiling, tuning, inserting, errors, messages, counts) holds
 * `lock`; an insert publishes a new copy of a table and retires the old
 * one, which stays allocated until the function is destroyed, so a reader
 * holding an old table is never left with freed memory. */
#ifndef TTC_FUNCTION_IMPL_H
#define TTC_FUNCTION_IMPL_H

#include <pthread.h>
#include <stdatomic.h>

#include "driver/driver.h"
#include "frontend/fe.h"
#include "ttc/function.h"

/* Where a constexpr's value comes from, in increasing precedence. */
typedef enum fn_source {
  FN_FROM_NONE,     /* no value: the function is refused */
  FN_FROM_DEFAULT,  /* the parameter's default */
  FN_FROM_CREATE,   /* the constexprs string */
  FN_FROM_CONFIG,   /* every autotune config gives it */
  FN_FROM_HEURISTIC /* a @triton.heuristics entry */
} fn_source;

typedef struct fn_param {
  const char *name; /* interned in the function's context */
  bool is_constexpr;
  int arg;          /* launch argument index; -1 for a constexpr */
  fn_source source; /* constexpr: where the value comes from */
  fe_cval value;    /* constexpr: DEFAULT and CREATE values */
  int heuristic;    /* HEURISTIC: the index in decl->heuristics */
  bool no_specialize, no_align;
} fn_param;

/* The most parameters a kernel has (the parser's limit) and the longest
 * key: 2 bytes per argument, a config index, 9 bytes per heuristic value,
 * 8 bytes per autotune key value. */
#define FN_MAX_PARAMS 128
#define FN_MAX_KEY (2 * FN_MAX_PARAMS + 2 + 9 * FN_MAX_PARAMS + 8 * FN_MAX_PARAMS)

/* Flags of a specialization key's argument byte (the low 4 bits: ttc_type). */
#define FN_KEY_DIV16 0x10 /* pointer 16-byte aligned / integer divisible by 16 */
#define FN_KEY_ONE 0x20   /* integer equal to 1: specialized away */

/* One loaded specialization. Immutable once published. */
typedef struct fn_variant {
  uint8_t *key;
  size_t keylen;
  ttc_kernel *kernel;
  ttc_module *mod;
  int config;      /* the autotune config, -1 without autotuning */
  bool identity;   /* every launch argument is a kernel argument */
  int *kernel_arg; /* per launch argument: its kernel argument or -1 */
  fe_cval *values; /* per parameter: the constexpr value (NONE for runtime ones) */
  char *signature;
} fn_variant;

/* An open-addressing table of byte keys to values (variants or config
 * indices). Copied on insert; readers never see it change. */
typedef struct fn_entry {
  uint64_t hash;
  const uint8_t *key;
  size_t keylen;
  void *value; /* fn_variant *, or (intptr_t)(config + 1) */
} fn_entry;

typedef struct fn_table {
  size_t cap, n;            /* cap a power of two; n < cap / 2 */
  struct fn_table *retired; /* the table this one replaced */
  fn_entry entries[];
} fn_table;

struct ttc_function {
  ttc_status status;
  ttc_device *dev;
  bool on_interpreter;
  ttc_compile_options copts; /* num_warps, stages, arch, ptxas, stop level */
  char *arch, *ptxas;        /* owned copies behind copts */
  drv_cache cache;
  bool autotune_enabled;
  ttc_message_fn on_message;
  void *message_user;
  bool print_autotuning; /* $TTC_PRINT_AUTOTUNING and no on_message */
  /* the kernel file and what it declares */
  char *source, *filename, *name;
  size_t source_len;
  char *constexprs; /* as given, normalized: part of the autotune cache key */
  ir_context *ctx;  /* owns the interned names and the source copy */
  ir_arena arena;   /* owns decl */
  const fe_jit_decl *decl;
  uint8_t src_digest[DRV_DIGEST_LEN];
  int nparams, nargs;
  fn_param *params;
  int *arg_param; /* launch argument -> parameter */
  /* autotune: key parameters, buffers to zero / restore (parameter indices) */
  int *key_params;
  /* the tables the launch path reads */
  _Atomic(fn_table *) variants;
  _Atomic(fn_table *) tunings;
  pthread_mutex_t lock; /* recursive */
  char *error;          /* under lock */
  ir_strbuf messages;   /* under lock */
  ttc_function_stats stats;
  /* every variant ever built (the tables point at them), for destroy */
  fn_variant **all;
  int nall, capall;
};

/* The launch meta a grid callback reads. */
struct ttc_launch_meta {
  const ttc_function *f;
  const fe_cval *values; /* per parameter, constexprs */
  const ttc_arg *args;
};

/* ---- function.c ------------------------------------------------------------- */

/* Records an error message on f (under its lock) and returns st. */
ttc_status fn_fail(ttc_function *f, ttc_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Delivers one message (on_message, else kept; stderr when printing
 * autotuning and `is_autotune`). Call with the lock held. */
void fn_message(ttc_function *f, bool is_autotune, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* FNV-1a over a key. */
uint64_t fn_hash(const uint8_t *key, size_t len);
/* The value stored under key, or NULL. Lock-free. */
void *fn_table_find(const fn_table *t, uint64_t hash, const uint8_t *key, size_t len);
/* Publishes a copy of *slot with key -> value added (key copied into the
 * function's arena). Lock held. False on OOM. */
bool fn_table_insert(ttc_function *f, _Atomic(fn_table *) *slot, const uint8_t *key, size_t len,
                     void *value);

/* ---- specialize.c ----------------------------------------------------------- */

/* Writes the specialization part of a key (2 bytes per launch argument)
 * into key; returns its length, or (size_t)-1 after fn_fail when an
 * argument cannot be specialized (a pointer without an element type, a
 * wrong count). */
size_t fn_spec_key(ttc_function *f, const ttc_arg *args, size_t nargs, uint8_t *key);

/* The constexpr values of every parameter for a launch with `args` under
 * autotune config `config` (-1: none), heuristics evaluated, into
 * values[nparams]. False after fn_fail. */
bool fn_constexpr_values(ttc_function *f, const ttc_arg *args, int config, fe_cval *values);

/* Appends what the heuristics produced (their parameters' values) to a key. */
size_t fn_key_append_values(const ttc_function *f, const fe_cval *values, uint8_t *key, size_t len);

/* The AOT signature of a specialization: caller frees; NULL after fn_fail. */
char *fn_signature(ttc_function *f, const uint8_t *spec, const fe_cval *values);

/* The variant for (spec key, config, values): found in the table, else
 * compiled (or read from the disk cache), loaded and published. `key` is
 * the full variant key. Takes the lock on a miss. NULL after fn_fail, with
 * the status in *st. */
fn_variant *fn_variant_get(ttc_function *f, const uint8_t *key, size_t keylen, const uint8_t *spec,
                           int config, const fe_cval *values, ttc_status *st);

/* Launches a variant: grid from `grid_fn` (or `grid`), arguments mapped to
 * the kernel's. */
ttc_status fn_variant_launch(ttc_function *f, const fn_variant *v, const unsigned grid[3],
                             ttc_grid_fn grid_fn, void *user, void *stream, const ttc_arg *args);

/* Frees a variant (unloading its module). */
void fn_variant_free(fn_variant *v);

/* ---- heuristics.c ---------------------------------------------------------------- */

/* Evaluates a heuristic's expression over the launch: `args['x']` reads
 * runtime argument x (integers, floats, pointers as their address) or the
 * constexpr values known so far (values[], NONE where unknown). False
 * after fn_fail (an unknown name, a division by zero, a type Python would
 * reject). */
bool fn_heuristic_eval(ttc_function *f, const fe_hexpr *e, const ttc_arg *args,
                       const fe_cval *values, fe_cval *out);

/* ---- autotune.c -------------------------------------------------------------------- */

/* The config index for a launch of an autotuned function: from the
 * tunings table, else from the disk cache, else by timing every config on
 * this launch's arguments (grid from grid_fn or grid). -1 after fn_fail,
 * with the status in *st. */
int fn_autotune(ttc_function *f, const uint8_t *spec, size_t speclen, const ttc_arg *args,
                const unsigned grid[3], ttc_grid_fn grid_fn, void *user, void *stream,
                ttc_status *st);

/* The autotune part of a tuning key: the spec key and each key argument's
 * value (8 bytes each); returns the new length. */
size_t fn_tune_key(const ttc_function *f, const uint8_t *spec, size_t speclen, const ttc_arg *args,
                   const fe_cval *values, uint8_t *key);

#endif
