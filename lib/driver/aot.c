// SPDX-License-Identifier: MIT
/* aot.c - ttc_aot_generate: C launchers for compiled specializations of a
 * kernel (triton.tools.compile and triton.tools.link in one step). Each
 * kernel's declaration and signature are read again from what it was
 * compiled from; the launcher takes the kernel's runtime parameters, tries
 * the specializations from the most specialized to the least (a pointer or
 * integer with ":16" needs `% 16 == 0`, a parameter specialized to a value
 * needs that value) and launches the first that accepts them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"
#include "frontend/fe.h"
#include "ttc/aot.h"

/* One parameter of one specialization. */
typedef struct aot_param {
  char *name;
  bool is_constexpr; /* annotated tl.constexpr */
  bool is_value;     /* a runtime parameter specialized to a value */
  ttc_type type, pointee;
  int divisibility;
  int const_kind; /* FE_CONST_* of a value */
  char value[64];
} aot_param;

typedef struct aot_spec {
  const ttc_kernel *k;
  int index; /* in the input: ties keep this order */
  int nparams, nconds;
  aot_param *params;
} aot_spec;

typedef struct aot_gen {
  const char *name;
  const char *grid[3]; /* NULL: the launcher's gx/gy/gz */
  char *grid_buf;
  aot_spec *specs;
  int nspecs;
  const char **ctypes; /* per parameter: the launcher's C type (runtime ones) */
  ir_strbuf *err;
} aot_gen;

void ttc_aot_options_init_sized(ttc_aot_options *opts, size_t size) {
  ttc_aot_options def = {0};
  drv_options_init(opts, size, &def, sizeof def);
}

static bool aot_fail(aot_gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool aot_fail(aot_gen *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (!g->err->len) ir_sb_vprintf(g->err, fmt, ap);
  va_end(ap);
  return false;
}

/* ---- reading the specializations --------------------------------------------------- */

/* The kernel's declaration and signature, parsed again in a scratch
 * context (the kernel compiled, so they parse). */
static bool read_spec(aot_gen *g, const ttc_kernel *k, int index, aot_spec *s) {
  s->k = k;
  s->index = index;
  if (!k->source || !k->signature)
    return aot_fail(g, "kernel '%s' does not carry its source", k->name);
  ir_context *ctx = ir_context_create();
  ir_arena arena;
  ir_arena_init(&arena);
  const ir_source *src =
      ctx ? ir_context_add_source(ctx, k->filename, k->source, k->source_len) : NULL;
  fe_module *mod = src ? fe_parse(ctx, src, &arena) : NULL;
  fe_func *fn = mod ? fe_module_find_func(mod, k->name) : NULL;
  fe_sig_entry *entries = NULL;
  int n = fn ? fe_parse_signature(ctx, k->signature, &arena, &entries) : -1;
  fe_kernel_info info = {0};
  bool ok = n >= 0 && fe_apply_signature(ctx, fn, entries, n, &arena, &info);
  if (ok) {
    s->nparams = info.nparams;
    s->params = calloc((size_t)info.nparams + 1, sizeof *s->params);
    ok = s->params != NULL;
  }
  for (int i = 0; ok && i < info.nparams; i++) {
    const fe_param *p = &info.params[i];
    aot_param *a = &s->params[i];
    a->name = strdup(p->name);
    a->is_constexpr = p->is_constexpr && !p->is_specialized;
    a->is_value = p->is_specialized;
    a->type = p->type;
    a->pointee = p->pointee;
    a->divisibility = p->divisibility;
    a->const_kind = p->const_kind;
    snprintf(a->value, sizeof a->value, "%s", p->value_text[0] ? p->value_text : entries[i].text);
    ok = a->name != NULL;
    if (!a->is_constexpr) s->nconds += a->is_value || a->divisibility;
  }
  ir_arena_free(&arena);
  ir_context_destroy(ctx);
  return ok || aot_fail(g, "cannot read the declaration of kernel '%s' again", k->name);
}

static bool is_c_keyword(const char *s) {
  static const char *const kw[] = {
      "auto",     "break",  "case",   "char",     "const",    "continue", "default",  "do",
      "double",   "else",   "enum",   "extern",   "float",    "for",      "goto",     "if",
      "inline",   "int",    "long",   "register", "restrict", "return",   "short",    "signed",
      "sizeof",   "static", "struct", "switch",   "typedef",  "union",    "unsigned", "void",
      "volatile", "while",  "bool",   "true",     "false"};
  for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
    if (strcmp(s, kw[i]) == 0) return true;
  return strncmp(s, "ttc_", 4) == 0 || strncmp(s, "_", 1) == 0;
}

/* The C type a launcher takes for a runtime parameter; NULL if none. */
static const char *c_type(ttc_type t) {
  switch (t) {
  case TTC_TYPE_PTR: return "CUdeviceptr";
  case TTC_TYPE_I1: return "uint8_t";
  case TTC_TYPE_I8: return "int8_t";
  case TTC_TYPE_I16: return "int16_t";
  case TTC_TYPE_I32: return "int32_t";
  case TTC_TYPE_I64: return "int64_t";
  case TTC_TYPE_U8: return "uint8_t";
  case TTC_TYPE_U16: return "uint16_t";
  case TTC_TYPE_U32: return "uint32_t";
  case TTC_TYPE_U64: return "uint64_t";
  case TTC_TYPE_F32: return "float";
  case TTC_TYPE_F64: return "double";
  case TTC_TYPE_F16:
  case TTC_TYPE_BF16:
  case TTC_TYPE_FP8E4NV:
  case TTC_TYPE_FP8E5: return NULL; /* no portable C type */
  }
  return NULL;
}

/* Every specialization must have the same parameters; a runtime
 * parameter's C type comes from the specializations that keep it. */
static bool check_specs(aot_gen *g) {
  const aot_spec *s0 = &g->specs[0];
  g->ctypes = calloc((size_t)s0->nparams + 1, sizeof *g->ctypes);
  if (!g->ctypes) return aot_fail(g, "out of memory");
  for (int i = 0; i < s0->nparams; i++) {
    const char *name = s0->params[i].name;
    if (is_c_keyword(name))
      return aot_fail(g, "parameter '%s' of '%s' cannot be a C parameter name", name, s0->k->name);
    for (int j = 0; j < g->nspecs; j++) {
      const aot_param *p = &g->specs[j].params[i];
      if (p->is_constexpr != s0->params[i].is_constexpr || strcmp(p->name, name) != 0)
        return aot_fail(g, "specialization %d is not of the same kernel as specialization 0", j);
      if (p->is_constexpr || p->is_value) continue;
      const char *t = c_type(p->type);
      if (!t)
        return aot_fail(g, "parameter '%s' is a %s scalar, which a C launcher cannot take", name,
                        ttc_type_name(p->type));
      if (g->ctypes[i] && strcmp(g->ctypes[i], t) != 0)
        return aot_fail(g, "specializations disagree on the type of '%s' (%s and %s)", name,
                        g->ctypes[i], t);
      g->ctypes[i] = t;
    }
    if (!s0->params[i].is_constexpr && !g->ctypes[i]) /* specialized to a value everywhere */
      g->ctypes[i] = s0->params[i].const_kind == FE_CONST_FLOAT ? "double" : "int64_t";
  }
  return true;
}

/* ---- writing ---------------------------------------------------------------------- */

/* "CUdeviceptr x_ptr, int32_t n" (with the grid first when it is taken). */
static void put_params(const aot_gen *g, ir_strbuf *sb) {
  ir_sb_puts(sb, "CUstream ttc_stream");
  if (!g->grid[0]) ir_sb_puts(sb, ", unsigned ttc_gx, unsigned ttc_gy, unsigned ttc_gz");
  const aot_spec *s0 = &g->specs[0];
  for (int i = 0; i < s0->nparams; i++)
    if (!s0->params[i].is_constexpr) ir_sb_printf(sb, ", %s %s", g->ctypes[i], s0->params[i].name);
}

static void put_args(const aot_gen *g, ir_strbuf *sb) {
  ir_sb_puts(sb, "ttc_stream");
  if (!g->grid[0]) ir_sb_puts(sb, ", ttc_gx, ttc_gy, ttc_gz");
  const aot_spec *s0 = &g->specs[0];
  for (int i = 0; i < s0->nparams; i++)
    if (!s0->params[i].is_constexpr) ir_sb_printf(sb, ", %s", s0->params[i].name);
}

/* "x_ptr % 16 == 0 && n == 1", or "1". */
static void put_conditions(const aot_spec *s, ir_strbuf *sb) {
  int n = 0;
  for (int i = 0; i < s->nparams; i++) {
    const aot_param *p = &s->params[i];
    if (p->is_constexpr || (!p->is_value && !p->divisibility)) continue;
    if (n++) ir_sb_puts(sb, " && ");
    if (p->is_value)
      ir_sb_printf(sb, "%s == %s", p->name,
                   p->const_kind == FE_CONST_BOOL ? (strcmp(p->value, "True") == 0 ? "1" : "0")
                                                  : p->value);
    else
      ir_sb_printf(sb, "%s %% 16 == 0", p->name);
  }
  if (!n) ir_sb_puts(sb, "1");
}

static void put_comment_list(const aot_gen *g, ir_strbuf *sb) {
  for (int j = 0; j < g->nspecs; j++) {
    const ttc_kernel *k = g->specs[j].k;
    ir_sb_printf(sb, " *   %d: %s (num_warps %d, %d bytes of shared memory)\n", j, k->signature,
                 k->num_warps, k->shared_bytes);
    if (g->specs[j].nconds) {
      ir_sb_puts(sb, " *      when ");
      put_conditions(&g->specs[j], sb);
      ir_sb_putc(sb, '\n');
    }
  }
}

static void write_header(const aot_gen *g, const char *file, ir_strbuf *h) {
  const ttc_kernel *k0 = g->specs[0].k;
  char guard[256];
  snprintf(guard, sizeof guard, "TTC_AOT_%s_H", g->name);
  for (char *c = guard; *c; c++)
    if (*c >= 'a' && *c <= 'z') *c = (char)(*c - 'a' + 'A');
  ir_sb_printf(h,
               "/* %s.h - generated by ttc %s (ttc --aot) from %s, kernel '%s': do not edit.\n"
               " * Needs only cuda.h and libcuda. %d specialization%s, tried in this order:\n",
               g->name, TTC_VERSION_STRING, file, k0->name, g->nspecs, g->nspecs == 1 ? "" : "s");
  put_comment_list(g, h);
  ir_sb_printf(h,
               " */\n#ifndef %s\n#define %s\n\n#include <stdint.h>\n\n#include <cuda.h>\n\n"
               "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n",
               guard, guard);
  ir_sb_printf(h,
               "/* Loads every specialization into the current CUDA context; on failure\n"
               " * nothing stays loaded. Not thread-safe: call it once, before %s. */\n"
               "CUresult load_%s(void);\n\n",
               g->name, g->name);
  ir_sb_printf(h, "/* Unloads them (their context must be current). */\nvoid unload_%s(void);\n\n",
               g->name);
  ir_sb_printf(h,
               "/* Launches '%s' on `ttc_stream` with the first specialization whose\n"
               " * conditions hold, %s.\n"
               " * Returns the CUresult of cuLaunchKernel (CUDA_SUCCESS without a launch\n"
               " * for an empty grid), CUDA_ERROR_INVALID_VALUE when no specialization\n"
               " * accepts the arguments, CUDA_ERROR_NOT_INITIALIZED before load_%s.\n"
               " * Never exits. */\nCUresult %s(",
               k0->name,
               g->grid[0] ? "on the grid computed from the arguments"
                          : "on the grid (ttc_gx, ttc_gy, ttc_gz)",
               g->name, g->name);
  put_params(g, h);
  ir_sb_printf(h, ");\n\n#ifdef __cplusplus\n}\n#endif\n#endif\n");
}

static void write_cubin(const aot_gen *g, int j, ir_strbuf *c) {
  const ttc_kernel *k = g->specs[j].k;
  const unsigned char *bytes = k->out[TTC_LEVEL_CUBIN];
  size_t n = k->out_size[TTC_LEVEL_CUBIN];
  ir_sb_printf(c, "/* %d: %s */\nstatic const unsigned char %s_cubin_%d[%zu] = {", j, k->signature,
               g->name, j, n);
  for (size_t i = 0; i < n; i++)
    ir_sb_printf(c, "%s0x%02x,", i % 16 ? " " : "\n    ", bytes[i]);
  ir_sb_puts(c, "\n};\n\n");
}

/* One specialization's launch function. */
static void write_launch(const aot_gen *g, int j, ir_strbuf *c) {
  const aot_spec *s = &g->specs[j];
  ir_sb_printf(c, "/* %d: %s */\nstatic CUresult %s_launch_%d(", j, s->k->signature, g->name, j);
  put_params(g, c);
  ir_sb_puts(c, ") {\n");
  for (int i = 0; i < s->nparams; i++) {
    const aot_param *p = &s->params[i];
    if (p->is_constexpr)
      ir_sb_printf(c, "  const %s %s = %s;\n",
                   p->const_kind == FE_CONST_FLOAT ? "double" : "int64_t", p->name,
                   p->const_kind == FE_CONST_BOOL ? (strcmp(p->value, "True") == 0 ? "1" : "0")
                                                  : p->value);
    ir_sb_printf(c, "  (void)%s;\n", p->name);
  }
  if (g->grid[0])
    ir_sb_printf(
        c, "  const unsigned ttc_grid[3] = {(unsigned)(%s), (unsigned)(%s), (unsigned)(%s)};\n",
        g->grid[0], g->grid[1], g->grid[2]);
  else
    ir_sb_puts(c, "  const unsigned ttc_grid[3] = {ttc_gx, ttc_gy, ttc_gz};\n");
  ir_sb_puts(c, "  void *ttc_params[] = {");
  int n = 0;
  for (int i = 0; i < s->nparams; i++) {
    const aot_param *p = &s->params[i];
    if (!p->is_constexpr && !p->is_value) ir_sb_printf(c, "%s&%s", n++ ? ", " : "", p->name);
  }
  ir_sb_printf(c, "%s};\n", n ? "" : "NULL");
  ir_sb_printf(c, "  if (!%s_functions[%d]) return CUDA_ERROR_NOT_INITIALIZED;\n", g->name, j);
  ir_sb_puts(
      c, "  if (ttc_grid[0] == 0 || ttc_grid[1] == 0 || ttc_grid[2] == 0) return CUDA_SUCCESS;\n");
  ir_sb_printf(c,
               "  return cuLaunchKernel(%s_functions[%d], ttc_grid[0], ttc_grid[1], ttc_grid[2], "
               "%d, 1, 1, %d, ttc_stream, %s, NULL);\n}\n\n",
               g->name, j, 32 * s->k->num_warps, s->k->shared_bytes, n ? "ttc_params" : "NULL");
}

static void write_source(const aot_gen *g, const char *file, const char *header, ir_strbuf *c) {
  const ttc_kernel *k0 = g->specs[0].k;
  const char *nm = g->name;
  int n = g->nspecs;
  ir_sb_printf(
      c,
      "/* %s.c - generated by ttc %s (ttc --aot) from %s, kernel '%s': do not edit.\n"
      " * The cubins of %d specialization%s (%s), the loader and the launcher. */\n"
      "#include <stddef.h>\n#include <stdint.h>\n\n#include <cuda.h>\n\n#include \"%s\"\n\n",
      nm, TTC_VERSION_STRING, file, k0->name, n, n == 1 ? "" : "s", k0->arch, header);
  for (int j = 0; j < n; j++)
    write_cubin(g, j, c);
  ir_sb_printf(c, "static CUmodule %s_modules[%d];\nstatic CUfunction %s_functions[%d];\n\n", nm, n,
               nm, n);
  ir_sb_printf(c,
               "void unload_%s(void) {\n  for (int i = 0; i < %d; i++) {\n"
               "    if (%s_modules[i]) cuModuleUnload(%s_modules[i]);\n"
               "    %s_modules[i] = NULL;\n    %s_functions[i] = NULL;\n  }\n}\n\n",
               nm, n, nm, nm, nm, nm);
  ir_sb_printf(c, "CUresult load_%s(void) {\n  static const unsigned char *const images[%d] = {",
               nm, n);
  for (int j = 0; j < n; j++)
    ir_sb_printf(c, "%s%s_cubin_%d", j ? ", " : "", nm, j);
  ir_sb_printf(c, "};\n  static const int shared[%d] = {", n);
  for (int j = 0; j < n; j++)
    ir_sb_printf(c, "%s%d", j ? ", " : "", g->specs[j].k->shared_bytes);
  ir_sb_printf(c,
               "};\n  for (int i = 0; i < %d; i++) {\n"
               "    CUresult r = cuModuleLoadData(&%s_modules[i], images[i]);\n"
               "    if (r == CUDA_SUCCESS)\n"
               "      r = cuModuleGetFunction(&%s_functions[i], %s_modules[i], \"%s\");\n"
               "    if (r == CUDA_SUCCESS && shared[i] > 48 * 1024)\n"
               "      r = cuFuncSetAttribute(%s_functions[i], "
               "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared[i]);\n"
               "    if (r == CUDA_SUCCESS && shared[i] > 48 * 1024)\n"
               "      r = cuFuncSetAttribute(%s_functions[i], "
               "CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, "
               "CU_SHAREDMEM_CARVEOUT_MAX_SHARED);\n"
               "    if (r != CUDA_SUCCESS) {\n      unload_%s();\n      return r;\n    }\n"
               "  }\n  return CUDA_SUCCESS;\n}\n\n",
               n, nm, nm, nm, k0->name, nm, nm, nm);
  ir_sb_printf(c,
               "static inline int64_t %s_cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }\n"
               "#define cdiv(a, b) %s_cdiv((a), (b))\n\n",
               nm, nm);
  for (int j = 0; j < n; j++)
    write_launch(g, j, c);
  ir_sb_puts(c, "#undef cdiv\n\n");
  ir_sb_printf(c, "CUresult %s(", nm);
  put_params(g, c);
  ir_sb_puts(c, ") {\n");
  for (int j = 0; j < n; j++) {
    ir_sb_puts(c, "  if (");
    put_conditions(&g->specs[j], c);
    ir_sb_printf(c, ") return %s_launch_%d(", nm, j);
    put_args(g, c);
    ir_sb_puts(c, ");\n");
  }
  ir_sb_puts(c, "  return CUDA_ERROR_INVALID_VALUE;\n}\n");
}

/* A grid dimension goes into the generated C as written, so it must be an
 * expression and nothing more: integer literals, the kernel's parameters
 * (runtime ones and constexprs), cdiv(a, b), arithmetic, shift, bitwise,
 * comparison and conditional operators, and balanced parentheses. */
static bool check_grid_expr(aot_gen *g, const char *e, const char *grid) {
  const aot_spec *s0 = &g->specs[0];
  int depth = 0;
  for (const char *p = e; *p;) {
    if (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) {
      const char *q = p;
      while (*q == '_' || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
             (*q >= '0' && *q <= '9'))
        q++;
      size_t n = (size_t)(q - p);
      bool known = n == 4 && memcmp(p, "cdiv", 4) == 0;
      for (int i = 0; !known && i < s0->nparams; i++)
        known = strlen(s0->params[i].name) == n && memcmp(s0->params[i].name, p, n) == 0;
      if (!known)
        return aot_fail(g, "grid '%s': '%.*s' is not a parameter of the kernel or cdiv", grid,
                        (int)n, p);
      p = q;
    } else if (*p >= '0' && *p <= '9') {
      while ((*p >= '0' && *p <= '9') || *p == 'x' || *p == 'X' || (*p >= 'a' && *p <= 'f') ||
             (*p >= 'A' && *p <= 'F') || *p == 'u' || *p == 'U' || *p == 'l' || *p == 'L')
        p++;
    } else if (*p == '(' || *p == ')') {
      depth += *p == '(' ? 1 : -1;
      if (depth < 0) return aot_fail(g, "grid '%s': unbalanced parentheses", grid);
      p++;
    } else if (strchr(" \t+-*/%<>=!&|^~?:,", *p)) {
      /* operators only: no assignment (=, <<=, ++), comment, digraph or trigraph */
      static const char *const banned[] = {"//", "/*", "*/", "++", "--", "<%",
                                           "%>", "<:", ":>", "%:", "??"};
      for (size_t k = 0; k < sizeof banned / sizeof banned[0]; k++)
        if (p[0] == banned[k][0] && p[1] == banned[k][1])
          return aot_fail(g, "grid '%s': '%s' has no place in a grid expression", grid, banned[k]);
      bool cmp = (p[0] == '<' || p[0] == '>' || p[0] == '=' || p[0] == '!') && p[1] == '=' &&
                 !(p > e && (p[-1] == '<' || p[-1] == '>') && p[0] == p[-1]);
      if (p[1] == '=' && !cmp && strchr("+-*/%&|^<>", p[0]))
        return aot_fail(g, "grid '%s': an assignment has no place in a grid expression", grid);
      if (*p == '=' && !(p > e && strchr("<>=!", p[-1])) && p[1] != '=')
        return aot_fail(g, "grid '%s': an assignment has no place in a grid expression", grid);
      p += cmp ? 2 : 1;
    } else {
      return aot_fail(g, "grid '%s': '%c' has no place in a grid expression", grid, *p);
    }
  }
  if (depth != 0) return aot_fail(g, "grid '%s': unbalanced parentheses", grid);
  return true;
}

/* Splits "a, f(b, c), d" at top-level commas into at most three parts. */
static bool split_grid(aot_gen *g, const char *grid) {
  g->grid_buf = strdup(grid);
  if (!g->grid_buf) return aot_fail(g, "out of memory");
  int n = 0, depth = 0;
  char *start = g->grid_buf;
  for (char *p = g->grid_buf;; p++) {
    if (*p == '(' || *p == '[') depth++;
    if (*p == ')' || *p == ']') depth--;
    if ((*p == ',' && depth == 0) || *p == '\0') {
      bool end = *p == '\0';
      *p = '\0';
      if (n == 3) return aot_fail(g, "the grid has more than three dimensions: '%s'", grid);
      while (*start == ' ')
        start++;
      if (!*start) return aot_fail(g, "empty grid dimension in '%s'", grid);
      if (!check_grid_expr(g, start, grid)) return false;
      g->grid[n++] = start;
      start = p + 1;
      if (end) break;
    }
  }
  for (; n < 3; n++)
    g->grid[n] = "1";
  return true;
}

static int spec_order(const void *a, const void *b) {
  const aot_spec *x = a, *y = b;
  if (x->nconds != y->nconds) return y->nconds - x->nconds;
  return x->index - y->index; /* qsort is not stable */
}

ttc_status ttc_aot_generate(const ttc_kernel *const *kernels, int nkernels,
                            const ttc_aot_options *opts, char **source, char **header,
                            char **error) {
  if (source) *source = NULL;
  if (header) *header = NULL;
  if (error) *error = NULL;
  if (!kernels || nkernels < 1 || !source || !header) return TTC_ERROR_ARGUMENT;
  ttc_aot_options o;
  ttc_aot_options_init(&o);
  if (opts && !drv_options_read(&o, sizeof o, opts, DRV_V1_SIZE(ttc_aot_options, header_name)))
    return TTC_ERROR_ARGUMENT;
  ir_strbuf err, c, h;
  ir_sb_init(&err);
  ir_sb_init(&c);
  ir_sb_init(&h);
  aot_gen g = {o.name       ? o.name
               : kernels[0] ? kernels[0]->name
                            : "",
               {NULL, NULL, NULL},
               NULL,
               calloc((size_t)nkernels, sizeof(aot_spec)),
               0,
               NULL,
               &err};
  ttc_status st = TTC_ERROR_ARGUMENT;
  bool ok = g.specs != NULL;
  for (int j = 0; ok && j < nkernels; j++) {
    const ttc_kernel *k = kernels[j];
    if (!k || k->status != TTC_OK || !k->out[TTC_LEVEL_CUBIN])
      ok = aot_fail(&g, "specialization %d has no cubin (compile it to TTC_LEVEL_CUBIN)", j);
    else if (strcmp(k->name, kernels[0]->name) != 0)
      ok = aot_fail(&g, "specialization %d is of kernel '%s', not '%s'", j, k->name,
                    kernels[0]->name);
    else if ((ok = read_spec(&g, k, j, &g.specs[j])))
      g.nspecs++;
  }
  if (ok && (!g.name[0] || is_c_keyword(g.name) ||
             strspn(g.name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
                 strlen(g.name)))
    ok = aot_fail(&g, "'%s' is not a usable C name for the launcher", g.name);
  if (ok && o.grid) ok = split_grid(&g, o.grid);
  if (ok && !(ok = check_specs(&g))) st = TTC_ERROR_UNSUPPORTED;
  if (ok) {
    qsort(g.specs, (size_t)g.nspecs, sizeof *g.specs, spec_order);
    const char *file = kernels[0]->filename ? kernels[0]->filename : "?";
    const char *slash = strrchr(file, '/');
    char hname[300];
    snprintf(hname, sizeof hname, "%s.h", g.name);
    write_header(&g, slash ? slash + 1 : file, &h);
    write_source(&g, slash ? slash + 1 : file, o.header_name ? o.header_name : hname, &c);
    ok = !c.failed && !h.failed;
    st = ok ? TTC_OK : TTC_ERROR_OUT_OF_MEMORY;
  }
  if (ok) {
    *source = ir_sb_take(&c);
    *header = ir_sb_take(&h);
  } else if (error) {
    *error = ir_sb_take(&err);
  }
  for (int j = 0; g.specs && j < nkernels; j++) {
    for (int i = 0; i < g.specs[j].nparams; i++)
      free(g.specs[j].params[i].name);
    free(g.specs[j].params);
  }
  free(g.specs);
  free(g.ctypes);
  free(g.grid_buf);
  ir_sb_free(&err);
  ir_sb_free(&c);
  ir_sb_free(&h);
  return st;
}
