/* ttg.h - the internal header of lib/ir-ttgpu: GPU layouts and the passes
 * that turn ttir into ttgir. Sections follow the defining files. */
#ifndef TTC_TTG_H
#define TTC_TTG_H

#include "ir-tt/ir.h"

/* ---- layout.c: blocked layouts ----------------------------------------- */

/* Triton's default blocked layout for a tensor shape: the given elements per
 * thread along the fastest dim (order[0] = rank-1), lanes then warps spread
 * from the fastest dim outwards, leftovers on the slowest dim. */
const ir_attr *ttg_default_blocked(ir_context *ctx, int rank, const int64_t *shape,
                                   unsigned size_per_thread_fast, int num_warps,
                                   int threads_per_warp);
/* Elements of `shape` each thread holds under a blocked layout (with wrap-around
 * when the shape is larger than one layout tile and broadcast when smaller). */
int64_t ttg_elems_per_thread(const ir_attr *layout, int rank, const int64_t *shape);

/* ---- convert.c: ttir -> ttgir -------------------------------------------- */

typedef struct ttg_options {
  int num_warps;        /* power of two, 1..32 */
  int threads_per_warp; /* 32 */
  int num_ctas;         /* 1 */
  int compute_capability; /* 80, 90, ... -> ttg.target = "cuda:90" */
} ttg_options;

/* Gives every tensor type in the module a default blocked layout and sets the
 * module attributes ttg.num-warps, ttg.threads-per-warp, ttg.num-ctas and
 * ttg.target. In place; false (diagnosed) on tensors ttgir cannot lay out. */
bool ttg_convert_to_ttgir(ir_module *m, const ttg_options *opts);

/* Reads the options back from a ttgir module's attributes (defaults if absent). */
ttg_options ttg_module_options(const ir_module *m);

/* True when the options describe a launch ttc can lay out: num_warps a power
 * of two in 1..32, 32 threads per warp, at least one CTA. Otherwise reports
 * an error at the module's location and returns false. */
bool ttg_options_check(ir_module *m, const ttg_options *opts);

/* ---- coalesce.c ---------------------------------------------------------- */

/* Chooses sizePerThread for each tensor shape from the axis info of the
 * loads and stores of that shape (contiguity, alignment; at most 16 bytes per
 * access), so that each thread issues the widest coalesced accesses, and
 * re-lays out every tensor of that shape. */
bool ttg_coalesce(ir_module *m, ir_arena *scratch);

/* ---- remove_convert.c ---------------------------------------------------- */

/* Erases ttg.convert_layout ops whose source chain (make_range, splat,
 * constants, elementwise index math, broadcast, expand_dims) can be
 * recomputed directly in the wanted layout. */
bool ttg_remove_layout_conversions(ir_module *m, ir_arena *scratch);

/* ---- pipeline.c: the ttgir passes ------------------------------------------ */
bool ttg_pass_convert(ir_module *m, ir_arena *scratch); /* options from module attrs */
extern const ir_pass ttg_pass_convert_info;
extern const ir_pass ttg_pass_coalesce_info;
extern const ir_pass ttg_pass_remove_convert_info;

/* The passes run on ttgir after convert-triton-to-tritongpu, in order. */
extern const char *const ttg_pipeline_names[];
extern const int ttg_pipeline_len;
/* A ttgir pass by name, or a ttir pass (ir_pass_lookup) that also applies
 * to ttgir (cse, dce); NULL if unknown. */
const ir_pass *ttg_pass_lookup(const char *name);

#endif
