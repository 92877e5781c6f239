// SPDX-License-Identifier: MIT
/* ttc/function.h - kernel functions: what Triton's kernel[grid](...) gives a
 * Python program, for a C host.
 *
 * A ttc_function is a @triton.jit kernel bound to a device, made from a
 * kernel file (or source text), the kernel's name and its constexpr values
 * by name ("BLOCK_SIZE=1024"). It is launched with typed arguments, one per
 * non-constexpr parameter, and no signature string: each launch derives the
 * specialization from the argument values as Triton's JIT does (a pointer
 * 16-byte aligned, an integer divisible by 16 or equal to 1, unless the
 * parameter is in @triton.jit(do_not_specialize=...)), compiles it on its
 * first launch (through the on-disk cache, so a later process does not
 * compile again) and reuses the loaded kernel afterwards.
 * @triton.autotune and @triton.heuristics on the kernel are honoured
 * (docs/api.md says which forms).
 *
 * Threads: ttc_function_launch and ttc_function_launch_grid may be called
 * from several threads at once, on one function or several; a launch that
 * finds its kernel loaded takes no lock. Compiling and autotuning take the
 * function's lock, so they happen once per specialization. Creating and
 * destroying a function are not concurrent with its use. */
#ifndef TTC_FUNCTION_H
#define TTC_FUNCTION_H

#include "ttc/base.h"
#include "ttc/compile.h"
#include "ttc/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ttc_function ttc_function;

/* Receives the function's messages, one whole message per call (cache
 * remarks; autotuning timings and choices). `message` is borrowed for the
 * call; the callback may run on any launching thread, under the function's
 * lock (it must not call back into the same function). */
typedef void (*ttc_message_fn)(void *user, const char *message);

typedef struct ttc_function_options {
  size_t size;       /* sizeof(ttc_function_options) as the caller knows it (the init sets it) */
  int num_warps;     /* default 4; an autotune config's num_warps wins */
  int num_stages;    /* default 3; an autotune config's num_stages wins */
  const char *arch;  /* NULL: the device's ("sm_90") */
  const char *ptxas; /* NULL: $TTC_PTXAS, PATH, /usr/local/cuda/bin */
  int cache;         /* default 1: the on-disk cache; 0: none ($TTC_CACHE=0 also) */
  const char *cache_dir; /* NULL: $TTC_CACHE_DIR, $XDG_CACHE_HOME/ttc, ~/.cache/ttc */
  int autotune;          /* default 1; 0: an autotuned kernel runs its first config */
  /* NULL: messages are kept (ttc_function_messages) and, with
   * $TTC_PRINT_AUTOTUNING=1, autotuning reports are also written to stderr. */
  ttc_message_fn on_message;
  void *message_user;
} ttc_function_options;

/* Fills the first `size` bytes of *opts with the defaults above and sets
 * opts->size; call it through ttc_function_options_init (ttc/compile.h,
 * ttc_compile_options, says why). */
TTC_API void ttc_function_options_init_sized(ttc_function_options *opts, size_t size);
#define ttc_function_options_init(opts) ttc_function_options_init_sized((opts), sizeof *(opts))

/* Makes a kernel function of @triton.jit function `name` in the kernel file
 * held in `source` (need not be NUL-terminated; `filename` names it in
 * messages and in PTX line info). `constexprs` gives constexpr parameters
 * their values: "BLOCK_SIZE=1024, EVEN=True, SCALE=0.5" (NULL or "": none);
 * a constexpr without one takes its default, an autotune config's or a
 * heuristic's value. The source, its decorators and constexprs are checked
 * now; nothing is compiled until the first launch. `opts` may be NULL.
 * On return *out is a new function owned by the caller (also on failure:
 * ttc_function_error says why, and launches return the same status), NULL
 * only for NULL or dead handles, options whose size field is not one this
 * library knows (TTC_ERROR_ARGUMENT), or OOM. ttc_device_destroy is refused
 * while a function made on the device is alive. */
TTC_API ttc_status ttc_function_create(ttc_device *dev, const char *source, size_t source_len,
                                       const char *filename, const char *name,
                                       const char *constexprs, const ttc_function_options *opts,
                                       ttc_function **out);

/* Same, reading the kernel file at `path` (TTC_ERROR_IO when it cannot). */
TTC_API ttc_status ttc_function_create_file(ttc_device *dev, const char *path, const char *name,
                                            const char *constexprs,
                                            const ttc_function_options *opts, ttc_function **out);

/* Unloads every kernel the function loaded and frees it. NULL is accepted.
 * Returns TTC_ERROR_ARGUMENT, touching nothing, for a handle already destroyed
 * (docs/api.md, "Misuse"). */
TTC_API ttc_status ttc_function_destroy(ttc_function *f);

/* The status the function was created with. */
TTC_API ttc_status ttc_function_status(const ttc_function *f);

/* The launch arguments: the kernel's non-constexpr parameters in order.
 * Names are borrowed from the function; NULL for an index out of range. */
TTC_API int ttc_function_num_args(const ttc_function *f);
TTC_API const char *ttc_function_arg_name(const ttc_function *f, int i);

/* Launches the kernel on `grid` (each >= 1) on `stream` (a CUstream; NULL:
 * the default stream). args[i] is launch argument i: ttc_arg_ptr_to for a
 * pointer (the element type is part of the specialization, as a tensor's
 * dtype is in Triton), ttc_arg_i32 / _i64 / _f32 ... for scalars, whose
 * type is the parameter's. Compiles on the first launch of a
 * specialization; autotunes on the first launch for each value of the
 * autotune key (the grid must then not depend on the config: use
 * ttc_function_launch_grid). */
TTC_API ttc_status ttc_function_launch(ttc_function *f, const unsigned grid[3], void *stream,
                                       const ttc_arg *args, size_t nargs);

/* What a grid callback can ask about a launch: the value of a constexpr
 * (the config's, a heuristic's, the function's) or of an integer argument,
 * by parameter name. */
typedef struct ttc_launch_meta ttc_launch_meta;

/* Stores the value in *value and returns 1; 0 when `name` is no parameter
 * or its value is not an integer (a bool is 0 or 1). */
TTC_API int ttc_launch_meta_int(const ttc_launch_meta *meta, const char *name, int64_t *value);

/* Fills grid[0..2] for a launch, as Triton's `grid` lambda over META. */
typedef void (*ttc_grid_fn)(const ttc_launch_meta *meta, void *user, unsigned grid[3]);

/* ttc_function_launch with the grid computed by `grid(meta, user, g)` once
 * the config is known (also for each config timed while autotuning). */
TTC_API ttc_status ttc_function_launch_grid(ttc_function *f, ttc_grid_fn grid, void *user,
                                            void *stream, const ttc_arg *args, size_t nargs);

/* The specialization launching with `args` would use, as a Triton AOT
 * signature ("*fp32:16,*fp32:16,*fp32:16,i32:16,1024"), without compiling
 * or autotuning (an autotuned kernel: its first config unless tuned).
 * *signature is caller-freed; NULL on failure. */
TTC_API ttc_status ttc_function_signature(ttc_function *f, const ttc_arg *args, size_t nargs,
                                          char **signature);

/* The compiled kernel launching with `args` would run (compiled, or loaded
 * from the cache, now if needed; an autotuned kernel: as for
 * ttc_function_signature). Borrowed: valid until ttc_function_destroy. */
TTC_API ttc_status ttc_function_kernel(ttc_function *f, const ttc_arg *args, size_t nargs,
                                       const ttc_kernel **kernel);

/* The message of the last failure on f (creation, compile diagnostics,
 * launch), "" if none. Caller frees. */
TTC_API char *ttc_function_error(const ttc_function *f);

/* The messages kept so far (when no on_message was given), one per line.
 * Caller frees. */
TTC_API char *ttc_function_messages(const ttc_function *f);

/* Counts since creation, for tests and benchmarks. */
typedef struct ttc_function_stats {
  int variants;       /* specializations loaded (each: a compile or a cache hit) */
  int compiles;       /* of them, compiled in this process */
  int cache_hits;     /* of them, loaded from the on-disk cache */
  int tunings;        /* autotune key values tuned by benchmarking */
  int tunings_cached; /* autotune key values whose choice came from the cache */
  int benchmark_runs; /* timed launches while autotuning */
} ttc_function_stats;

TTC_API void ttc_function_stats_get(const ttc_function *f, ttc_function_stats *out);

#ifdef __cplusplus
}
#endif
#endif
