// SPDX-License-Identifier: MIT
/* ttc/compile.h - compile a Triton kernel file into a ttc_kernel.
 *
 * A ttc_kernel holds the text (or bytes) of every level the compile reached
 * (ttir, ttgir, LLVM IR, PTX, cubin), the kernel's metadata and every
 * diagnostic. It is created even when compilation fails, so that the caller
 * can read the diagnostics; the caller frees it with ttc_kernel_destroy. */
#ifndef TTC_COMPILE_H
#define TTC_COMPILE_H

#include "ttc/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ttc_level {
  TTC_LEVEL_TTIR,  /* block-level IR after the ttir passes (text) */
  TTC_LEVEL_TTGIR, /* IR with GPU layouts after the ttgir passes (text) */
  TTC_LEVEL_LLIR,  /* LLVM IR after O3 (text) */
  TTC_LEVEL_PTX,   /* PTX assembly (text) */
  TTC_LEVEL_CUBIN  /* ptxas output (binary ELF) */
} ttc_level;

#define TTC_NUM_LEVELS 5

/* Triton's name of a level: "ttir", "ttgir", "llir", "ptx", "cubin"; "?" for
 * a value out of range. Static storage. */
TTC_API const char *ttc_level_name(ttc_level level);

/* Options structs (this one, ttc_function_options, ttc_ir_options,
 * ttc_aot_options) start with `size`, the sizeof the caller was built
 * with, which the _init macro sets. Fields are only ever added at the end:
 * the library reads no more than `size` bytes and gives the fields a caller
 * does not know their defaults, so programs built against an older header
 * keep working with a newer library (docs/api.md, "ABI"). A new field
 * starts at or after the previous version's sizeof, never in its tail
 * padding, which an older caller's size covers without knowing it. */
typedef struct ttc_compile_options {
  size_t size;          /* sizeof(ttc_compile_options) as the caller knows it */
  int num_warps;        /* warps per program, a power of two in 1..32; default 4 */
  int num_stages;       /* software pipelining depth; default 3 */
  const char *arch;     /* "sm_80", "sm_90", "sm_90a", ...; default "sm_90" */
  ttc_level stop_after; /* last level produced; default TTC_LEVEL_CUBIN */
  const char *ptxas;    /* ptxas path; NULL: $TTC_PTXAS, PATH, /usr/local/cuda/bin */
  int emit_locations;   /* nonzero: ttir/ttgir text carries loc(...) entries */
  /* The on-disk cache (docs/api.md): nonzero looks the kernel up there and
   * stores it after compiling; default 0. Only compiles stopping at
   * TTC_LEVEL_TTIR, PTX or CUBIN are cached, and a kernel from the cache
   * has no ttgir or LLVM IR text. $TTC_CACHE=0 turns it off whatever this
   * says. */
  int cache;
  const char *cache_dir; /* NULL: $TTC_CACHE_DIR, $XDG_CACHE_HOME/ttc, ~/.cache/ttc */
  /* Directories searched, in order, for modules the kernel file imports
   * (`from mypkg.utils import helper`), after the kernel file's own package
   * and directory; as `-I DIR` on the command line. Borrowed for the
   * duration of the call; may be NULL when num_include_dirs is 0. */
  const char *const *include_dirs;
  int num_include_dirs;
  /* Added after the first version (which ended at num_include_dirs). */
  /* The pass manager's reports, collected in ttc_kernel_pass_dump (as the
   * IR tool's --print-before/--print-after/--time-passes): a pass name
   * (`tritongpu-coalesce`) or "all" to print the IR before / after it; NULL:
   * none. time_passes nonzero: a time report of every pass and of the
   * LLVM, NVPTX and ptxas stages. Any of them compiles without the cache. */
  const char *print_before;
  const char *print_after;
  /* LLVM's optimization level, 0..3 (as -O0..-O3); default 3, Triton's.
   * ptxas always runs with -O3. */
  int opt_level;
  int time_passes;
  /* Nonzero: no line info. By default the PTX carries .file/.loc entries
   * pointing into the kernel file (line tables only, as Triton), which
   * profilers, compute-sanitizer and cuda-gdb show; $TTC_DISABLE_LINE_INFO=1
   * turns it off too. */
  int no_line_info;
  /* Nonzero: the compiler's remarks join the kernel's diagnostics (as
   * "remark:" lines): which loops tritongpu-pipeline pipelined, with how
   * many stages and bytes of shared memory, and why it left a loop alone.
   * Compiles without the cache. */
  int remarks;
} ttc_compile_options;

/* Fills the first `size` bytes of *opts with the defaults above and sets
 * opts->size = size. Call it through ttc_compile_options_init. */
TTC_API void ttc_compile_options_init_sized(ttc_compile_options *opts, size_t size);
#define ttc_compile_options_init(opts) ttc_compile_options_init_sized((opts), sizeof *(opts))

typedef struct ttc_kernel ttc_kernel;

/* Compiles the @triton.jit function `name` of a kernel file held in memory.
 * `source` need not be NUL-terminated; `filename` names it in diagnostics
 * and locates it for relative imports (`from .utils import f`).
 * `signature` uses Triton's AOT format, one entry per parameter:
 * "*fp32:16,*fp32:16,*fp32:16,i32,1024". `opts` may be NULL (defaults).
 * On return *out is a new kernel owned by the caller (also on failure, unless
 * memory ran out, an argument was NULL or opts->size is below the first
 * version's, in which case *out is NULL). */
TTC_API ttc_status ttc_compile(const char *source, size_t source_len, const char *filename,
                               const char *name, const char *signature,
                               const ttc_compile_options *opts, ttc_kernel **out);

/* Same, reading the kernel file from `path`. */
TTC_API ttc_status ttc_compile_file(const char *path, const char *name, const char *signature,
                                    const ttc_compile_options *opts, ttc_kernel **out);

/* A kernel of ttir text (a .ttir file; what TTC_LEVEL_TTIR or
 * ttc_kernel_ttir_located give): tt.func `name`, or the only one when name
 * is NULL. Its parameters come from the function's arguments (integers
 * signless, so i32 rather than u32), num_warps from "ttg.num-warps" (else
 * 4); it holds the text as its ttir and nothing else, so an interpreter
 * device runs it (ttc_module_load) and a GPU cannot. Locations the text
 * carries (loc(...)) name the interpreter's reports. *out as for
 * ttc_compile: caller-owned, also on failure (TTC_ERROR_INPUT for text that
 * does not parse or verify, with diagnostics). */
TTC_API ttc_status ttc_kernel_create_from_ttir(const char *text, size_t len, const char *filename,
                                               const char *name, ttc_kernel **out);

/* Frees the kernel and everything it owns (outputs, diagnostics, metadata).
 * NULL is accepted. Modules loaded from it (ttc_module) stay valid.
 * Returns TTC_ERROR_ARGUMENT, touching nothing, for a handle already destroyed
 * (docs/api.md, "Misuse"). */
TTC_API ttc_status ttc_kernel_destroy(ttc_kernel *kernel);

/* The status the compile returned. */
TTC_API ttc_status ttc_kernel_status(const ttc_kernel *kernel);

/* All diagnostics, rendered as "file:line:col: error: msg", source line and
 * caret, one after the other; "" when there are none. Borrowed from the kernel. */
TTC_API const char *ttc_kernel_diagnostics(const ttc_kernel *kernel);

/* The output of one level, or NULL if the compile did not reach it. Text
 * levels are NUL-terminated (the size excludes the NUL). Borrowed. */
TTC_API const void *ttc_kernel_output(const ttc_kernel *kernel, ttc_level level, size_t *size);

/* Metadata as a JSON object (entry name, num_warps, num_stages, shared bytes,
 * registers, spills, static shared and local memory (null without a cubin),
 * target, parameters, constexprs, compiler version, hash of the PTX, stage
 * times; docs/api.md). Borrowed; NULL when the compile did not reach ttir.
 * A kernel from the cache gives the JSON written when it was compiled. */
TTC_API const char *ttc_kernel_metadata_json(const ttc_kernel *kernel);

/* What opts.print_before, print_after and time_passes asked for: the IR
 * printed around passes ("// -----// IR Dump After ... //----- //" headers,
 * as MLIR) and the time report; "" when none. Borrowed. */
TTC_API const char *ttc_kernel_pass_dump(const ttc_kernel *kernel);

/* The ttir with a loc("file":line:col) after every op, whatever
 * opts->emit_locations said about the TTIR level: what the CPU interpreter
 * loads, so that its reports name source lines. NULL (and *size 0) when
 * the compile did not reach ttir. Borrowed; size may be NULL. */
TTC_API const char *ttc_kernel_ttir_located(const ttc_kernel *kernel, size_t *size);

/* The kernel's entry name (the function name). Borrowed. */
TTC_API const char *ttc_kernel_name(const ttc_kernel *kernel);

/* Nonzero when the kernel was loaded from the on-disk cache rather than
 * compiled (opts.cache). */
TTC_API int ttc_kernel_from_cache(const ttc_kernel *kernel);

/* Launch shape facts. */
TTC_API int ttc_kernel_num_warps(const ttc_kernel *kernel);
TTC_API int ttc_kernel_shared_bytes(const ttc_kernel *kernel);

/* Resources and compile times of a kernel. The caller sets `size` to the
 * size of the struct it was built with (TTC_KERNEL_STATS_INIT does), and the
 * library fills only that many bytes, so the struct can grow at its end
 * without breaking callers built against an older header. */
typedef struct ttc_kernel_stats {
  size_t size;            /* sizeof(ttc_kernel_stats) as the caller knows it */
  int num_regs;           /* registers per thread (ptxas); -1 without a cubin */
  int spills_store_bytes; /* bytes stored to local memory by register spills; -1 without a cubin */
  int spills_load_bytes;  /* bytes loaded back from spills; -1 without a cubin */
  int shared;        /* dynamic shared memory bytes a launch passes (ttc_kernel_shared_bytes) */
  int shared_static; /* static shared memory bytes (ptxas); -1 without a cubin */
  int local;         /* local memory bytes per thread (ptxas); -1 without a cubin */
  /* Wall milliseconds this compile spent producing each level (index:
   * ttc_level); ttir includes the frontend, llir the shared-memory
   * allocation and LLVM's optimizer, cubin ptxas. -1 for a level this call
   * did not produce, and for every level of a kernel from the cache. */
  double time_ms[TTC_NUM_LEVELS];
  /* Of time_ms's llir and ptx, the wall milliseconds spent inside LLVM
   * (linking libdevice, the verifier, the optimizer, the NVPTX backend);
   * the rest is ttc's own work. -1 when this call did not reach PTX. */
  double llvm_ms;
} ttc_kernel_stats;

#define TTC_KERNEL_STATS_INIT                                                                      \
  { sizeof(ttc_kernel_stats), 0, 0, 0, 0, 0, 0, {0}, -1 }

/* Fills *stats (its first stats->size bytes; the size field is kept).
 * TTC_ERROR_ARGUMENT for NULL pointers or a size smaller than the first
 * version's. */
TTC_API ttc_status ttc_kernel_get_stats(const ttc_kernel *kernel, ttc_kernel_stats *stats);

/* The runtime parameters: the non-constexpr arguments in declaration order. */
TTC_API int ttc_kernel_num_params(const ttc_kernel *kernel);
/* Type of parameter i (0-based); for pointers, *pointee receives the element
 * type (pointee may be NULL). Returns TTC_TYPE_I32 for an out-of-range i. */
TTC_API ttc_type ttc_kernel_param_type(const ttc_kernel *kernel, int i, ttc_type *pointee);
/* What parameter i was specialized for: 16 for ':16' (a pointer's address,
 * an integer's value divisible by 16); for the leading strides of a tensor
 * descriptor (tensordesc<...>), the elements in 16 bytes (8 for fp16), as
 * Triton's descriptors require; else 1. Launches check it. */
TTC_API int ttc_kernel_param_divisibility(const ttc_kernel *kernel, int i);
/* 1 when parameter i's argument must be 1: the last stride of a tensor
 * descriptor, which the kernel takes as 1 (Triton's descriptors require a
 * contiguous last dimension); else 0. Launches check it. */
TTC_API int ttc_kernel_param_must_be_one(const ttc_kernel *kernel, int i);

#ifdef __cplusplus
}
#endif
#endif
