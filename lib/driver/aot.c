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
  char *grid_norm[3]; /* the dimensions as parsed and written again */
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
    /* value_text: the entry as written (a descriptor's shape and stride
     * parts, which have no entry of their own, have none) */
    snprintf(a->value, sizeof a->value, "%s", p->value_text);
    ok = a->name != NULL;
    if (!a->is_constexpr) s->nconds += a->is_value || a->divisibility;
  }
  ir_arena_free(&arena);
  ir_context_destroy(ctx);
  return ok || aot_fail(g, "cannot read the declaration of kernel '%s' again", k->name);
}

/* Why `s` cannot name a parameter or the launcher in the generated C and
 * C++, or NULL when it can: it must be an identifier that is no keyword of
 * either language and cannot clash with what the files use: cuda.h's names
 * (cu..., CU...), <stdint.h>'s (..._t, INT..._C), the generated code's own
 * (ttc_..., `launcher`_..., cdiv) and names reserved to the implementation
 * (a leading underscore). */
static const char *bad_c_name(const char *s, const char *launcher) {
  static const char *const kw[] = {
      /* C */
      "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
      "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
      "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
      "union", "unsigned", "void", "volatile", "while", "bool", "true", "false", "asm", "typeof",
      "NULL", "main", "cdiv",
      /* C++ */
      "alignas", "alignof", "and", "and_eq", "bitand", "bitor", "catch", "class", "compl",
      "concept", "consteval", "constexpr", "constinit", "const_cast", "co_await", "co_return",
      "co_yield", "decltype", "delete", "dynamic_cast", "explicit", "export", "friend", "mutable",
      "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq",
      "private", "protected", "public", "reinterpret_cast", "requires", "static_assert",
      "static_cast", "template", "this", "thread_local", "throw", "try", "typeid", "typename",
      "using", "virtual", "wchar_t", "xor", "xor_eq"};
  size_t n = strlen(s);
  if (n == 0 || n > 128) return "it must have 1 to 128 characters";
  if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
    return "it must start with a letter";
  if (strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != n)
    return "it must be letters, digits and '_'";
  for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
    if (strcmp(s, kw[i]) == 0) return "it is a C or C++ keyword or a name the files use";
  /* cuLaunchKernel, CUdeviceptr, CUDA_SUCCESS, CU_...; not cu_seqlens */
  if ((strncmp(s, "cu", 2) == 0 && s[2] >= 'A' && s[2] <= 'Z') || strncmp(s, "CU", 2) == 0)
    return "cuda.h's names start so";
  static const char *const std_types[] = {
      "int8_t",   "int16_t",  "int32_t",   "int64_t",  "uint8_t",   "uint16_t", "uint32_t",
      "uint64_t", "intptr_t", "uintptr_t", "intmax_t", "uintmax_t", "size_t",   "ptrdiff_t"};
  for (size_t i = 0; i < sizeof std_types / sizeof std_types[0]; i++)
    if (strcmp(s, std_types[i]) == 0) return "<stdint.h>'s names look so";
  if (strncmp(s, "int_", 4) == 0 || strncmp(s, "uint_", 5) == 0 ||
      ((strncmp(s, "INT", 3) == 0 || strncmp(s, "UINT", 4) == 0 || strncmp(s, "SIZE_", 5) == 0 ||
        strncmp(s, "PTRDIFF_", 8) == 0) &&
       (strstr(s, "_MAX") || strstr(s, "_MIN") || strstr(s, "_C"))))
    return "<stdint.h>'s names look so";
  size_t ln = launcher ? strlen(launcher) : 0;
  if (strncmp(s, "ttc_", 4) == 0 || (ln && strncmp(s, launcher, ln) == 0 && s[ln] == '_'))
    return "the generated code's own names start so";
  return NULL;
}

/* Text for a C comment: no comment start or end, no line break. */
static void put_comment_text(ir_strbuf *sb, const char *s) {
  for (; *s; s++) {
    if ((s[0] == '*' && s[1] == '/') || (s[0] == '/' && s[1] == '*')) {
      ir_sb_putc(sb, s[0]);
      ir_sb_putc(sb, ' ');
    } else {
      ir_sb_putc(sb, *s == '\n' || *s == '\r' ? ' ' : *s);
    }
  }
}

/* Whether a constexpr's value is a C literal as written: an integer, a
 * finite float or a bool (a string, dtype or None is not). */
static bool c_literal(const aot_param *p) {
  if (p->const_kind == FE_CONST_BOOL) return true;
  if (p->const_kind != FE_CONST_INT && p->const_kind != FE_CONST_FLOAT) return false;
  const char *v = p->value;
  if (*v == '-' || *v == '+') v++;
  if (p->const_kind == FE_CONST_INT && v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
    return v[2] && strspn(v + 2, "0123456789abcdefABCDEF") == strlen(v + 2);
  if (!(*v >= '0' && *v <= '9') && *v != '.') return false; /* inf, nan */
  return strspn(v, "0123456789.eE+-") == strlen(v);
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
    const char *name = s0->params[i].name, *why = bad_c_name(name, g->name);
    if (why)
      return aot_fail(g, "parameter '%s' of '%s' cannot be a name in the launcher: %s", name,
                      s0->k->name, why);
    for (int j = 0; j < g->nspecs; j++) {
      const aot_param *p = &g->specs[j].params[i];
      if (p->is_constexpr != s0->params[i].is_constexpr || strcmp(p->name, name) != 0)
        return aot_fail(g, "specialization %d is not of the same kernel as specialization 0", j);
      /* a constexpr that is no C number (a string, dtype, None) stays out of
       * the launcher, and a grid cannot name it */
      if (p->is_constexpr) continue;
      if (p->is_value && !c_literal(p))
        return aot_fail(g, "parameter '%s' is specialized to '%s', which is no C literal", name,
                        p->value);
      if (p->is_value) continue;
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

/* "x_ptr % 16 == 0 && n == 1 && d_stride0 % 8 == 0 && d_stride1 == 1", or "1". */
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
    else if (p->divisibility == FE_DIV_ONE) /* a tensor descriptor's last stride */
      ir_sb_printf(sb, "%s == 1", p->name);
    else
      ir_sb_printf(sb, "%s %% %d == 0", p->name, p->divisibility);
  }
  if (!n) ir_sb_puts(sb, "1");
}

static void put_comment_list(const aot_gen *g, ir_strbuf *sb) {
  for (int j = 0; j < g->nspecs; j++) {
    const ttc_kernel *k = g->specs[j].k;
    ir_sb_printf(sb, " *   %d: ", j);
    put_comment_text(sb, k->signature);
    ir_sb_printf(sb, " (num_warps %d, %d bytes of shared memory)\n", k->num_warps, k->shared_bytes);
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
  ir_sb_printf(h, "/* %s.h - generated by ttc %s (ttc --aot) from ", g->name, TTC_VERSION_STRING);
  put_comment_text(h, file);
  ir_sb_printf(h,
               ", kernel '%s': do not edit.\n"
               " * Needs only cuda.h and libcuda. %d specialization%s, tried in this order:\n",
               k0->name, g->nspecs, g->nspecs == 1 ? "" : "s");
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
  ir_sb_printf(c, "/* %d: ", j);
  put_comment_text(c, k->signature);
  ir_sb_printf(c, " */\nstatic const unsigned char %s_cubin_%d[%zu] = {", g->name, j, n);
  for (size_t i = 0; i < n; i++)
    ir_sb_printf(c, "%s0x%02x,", i % 16 ? " " : "\n    ", bytes[i]);
  ir_sb_puts(c, "\n};\n\n");
}

/* One specialization's launch function. */
static void write_launch(const aot_gen *g, int j, ir_strbuf *c) {
  const aot_spec *s = &g->specs[j];
  ir_sb_printf(c, "/* %d: ", j);
  put_comment_text(c, s->k->signature);
  ir_sb_printf(c, " */\nstatic CUresult %s_launch_%d(", g->name, j);
  put_params(g, c);
  ir_sb_puts(c, ") {\n");
  for (int i = 0; i < s->nparams; i++) {
    const aot_param *p = &s->params[i];
    if (p->is_constexpr && !c_literal(p)) continue; /* a string, dtype or None: not in C */
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
  ir_sb_printf(c, "/* %s.c - generated by ttc %s (ttc --aot) from ", nm, TTC_VERSION_STRING);
  put_comment_text(c, file);
  ir_sb_printf(
      c,
      ", kernel '%s': do not edit.\n"
      " * The cubins of %d specialization%s (%s), the loader and the launcher. */\n"
      "#include <stddef.h>\n#include <stdint.h>\n\n#include <cuda.h>\n\n#include \"%s\"\n\n",
      k0->name, n, n == 1 ? "" : "s", k0->arch, header);
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

/* A grid dimension goes into the generated C, so it must be an expression
 * and nothing more. It is parsed (integer literals, the kernel's runtime
 * parameters and numeric constexprs, cdiv(a, b), unary - + ! ~, binary
 * arithmetic, shift, comparison, bitwise and logical operators, ?: and
 * parentheses) and written again with every integer in int64_t, so that
 * what compiles is what was checked: no assignment, comment, digraph,
 * comma operator, octal or suffixed literal, or literal division by zero. */
typedef struct grid_parser {
  aot_gen *g;
  const char *grid; /* the whole option, for messages */
  const char *p;
  ir_strbuf *out;
  int depth;
  /* what was just parsed is an integer constant expression, and its value:
   * C compilers refuse (under -Werror) a constant division by zero, a
   * shift out of range and overflow, so they are refused here first */
  bool is_const;
  int64_t value;
} grid_parser;

static bool gp_fail(grid_parser *x, const char *what) {
  if (!*x->p) return aot_fail(x->g, "grid '%s': %s at the end", x->grid, what);
  return aot_fail(x->g, "grid '%s': %s at '%s'", x->grid, what, x->p);
}

static void gp_skip(grid_parser *x) {
  while (*x->p == ' ' || *x->p == '\t')
    x->p++;
}

static bool is_ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool gp_expr(grid_parser *x);

/* A parameter the grid may name: a runtime one, or a constexpr whose value
 * is a number in every specialization. *is_int: an integer type. */
static bool grid_name(const aot_gen *g, const char *name, size_t n, bool *is_int) {
  const aot_spec *s0 = &g->specs[0];
  for (int i = 0; i < s0->nparams; i++) {
    if (strlen(s0->params[i].name) != n || memcmp(s0->params[i].name, name, n) != 0) continue;
    bool ok = true;
    for (int j = 0; j < g->nspecs; j++) {
      const aot_param *p = &g->specs[j].params[i];
      if (p->is_constexpr) ok = ok && c_literal(p);
    }
    const aot_param *p = &s0->params[i];
    *is_int = p->is_constexpr || p->is_value ? p->const_kind != FE_CONST_FLOAT
                                             : p->type != TTC_TYPE_F32 && p->type != TTC_TYPE_F64;
    return ok;
  }
  return false;
}

static bool gp_number(grid_parser *x) {
  const char *q = x->p;
  bool hex = q[0] == '0' && (q[1] == 'x' || q[1] == 'X');
  size_t nd = 0;
  if (hex) {
    q += 2;
    while ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f') || (*q >= 'A' && *q <= 'F'))
      q++, nd++;
    if (nd == 0 || nd > 15) return gp_fail(x, "a hexadecimal literal needs 1 to 15 digits");
  } else {
    if (q[0] == '0' && q[1] >= '0' && q[1] <= '9')
      return gp_fail(x, "a number with a leading zero (octal in C)");
    while (*q >= '0' && *q <= '9')
      q++, nd++;
    if (nd > 18) return gp_fail(x, "a decimal literal has at most 18 digits");
  }
  if (is_ident_char(*q) || *q == '.') return gp_fail(x, "not an integer literal");
  x->is_const = true;
  x->value = strtoll(x->p, NULL, hex ? 16 : 10); /* at most 18 or 15 digits: it fits */
  ir_sb_printf(x->out, "(int64_t)%.*s", (int)(q - x->p), x->p);
  x->p = q;
  return true;
}

static bool gp_primary(grid_parser *x) {
  gp_skip(x);
  if (++x->depth > 64) return gp_fail(x, "nested more than 64 deep");
  bool ok;
  char c = *x->p;
  if (c == '(') {
    x->p++;
    ir_sb_putc(x->out, '(');
    ok = gp_expr(x);
    gp_skip(x);
    if (ok && *x->p != ')') ok = gp_fail(x, "expected ')'");
    if (ok) x->p++, ir_sb_putc(x->out, ')');
  } else if (c >= '0' && c <= '9') {
    ok = gp_number(x);
  } else if (is_ident_char(c)) {
    const char *q = x->p;
    while (is_ident_char(*q))
      q++;
    size_t n = (size_t)(q - x->p);
    bool is_int = true;
    if (n == 4 && memcmp(x->p, "cdiv", 4) == 0) {
      x->p = q;
      gp_skip(x);
      ok = *x->p == '(' || gp_fail(x, "cdiv needs '(a, b)'");
      if (ok) x->p++, ir_sb_puts(x->out, "cdiv(");
      ok = ok && gp_expr(x);
      bool a_const = x->is_const;
      int64_t a = x->value;
      gp_skip(x);
      if (ok && *x->p != ',') ok = gp_fail(x, "cdiv takes two arguments");
      if (ok) x->p++, ir_sb_puts(x->out, ", ");
      const char *at = x->p;
      ok = ok && gp_expr(x);
      if (ok && x->is_const && x->value == 0) {
        x->p = at;
        ok = gp_fail(x, "a division by zero");
      }
      int64_t t; /* the launcher's cdiv: (a + b - 1) / b */
      bool folds = ok && a_const && x->is_const && !__builtin_add_overflow(a, x->value - 1, &t) &&
                   !(t == INT64_MIN && x->value == -1);
      x->is_const = folds;
      if (folds) x->value = t / x->value;
      gp_skip(x);
      if (ok && *x->p != ')') ok = gp_fail(x, "cdiv takes two arguments");
      if (ok) x->p++, ir_sb_putc(x->out, ')');
    } else if (grid_name(x->g, x->p, n, &is_int)) {
      ir_sb_printf(x->out, is_int ? "(int64_t)%.*s" : "%.*s", (int)n, x->p);
      x->is_const = false;
      x->p = q;
      ok = true;
    } else {
      ok = aot_fail(x->g,
                    "grid '%s': '%.*s' is not a runtime parameter of the kernel, a numeric "
                    "constexpr or cdiv",
                    x->grid, (int)n, x->p);
    }
  } else {
    ok = gp_fail(x, "expected a number, a parameter, cdiv(a, b) or '('");
  }
  x->depth--;
  return ok;
}

/* Unary operators, each written in parentheses with its operand ("- -n"
 * must not become "--n", and "!n == 1" draws a warning). */
static bool gp_unary(grid_parser *x) {
  char ops[64];
  int n = 0;
  for (gp_skip(x); strchr("-+!~", *x->p) && *x->p; gp_skip(x)) {
    if ((x->p[0] == '-' || x->p[0] == '+') && x->p[1] == x->p[0])
      return gp_fail(x, "'++' and '--' have no place in a grid expression");
    if (n == (int)sizeof ops) return gp_fail(x, "more than 64 unary operators in a row");
    ops[n++] = *x->p;
    ir_sb_printf(x->out, "(%c ", *x->p++);
  }
  x->is_const = false;
  if (!gp_primary(x)) return false;
  for (int i = n - 1; i >= 0; i--) {
    ir_sb_putc(x->out, ')');
    if (!x->is_const) continue;
    if (ops[i] == '-' && x->value == INT64_MIN)
      return gp_fail(x, "a constant that overflows 64 bits");
    x->value = ops[i] == '-'   ? -x->value
               : ops[i] == '!' ? !x->value
               : ops[i] == '~' ? ~x->value
                               : x->value;
  }
  return true;
}

/* Inserts c at `at` in sb. */
static void sb_insert(ir_strbuf *sb, size_t at, char c) {
  ir_sb_putc(sb, c);
  if (sb->failed) return;
  memmove(sb->data + at + 1, sb->data + at, sb->len - 1 - at);
  sb->data[at] = c;
}

/* Binary operators at C's precedence levels (lower binds tighter), each
 * written in parentheses, so that the C reads as parsed and compilers do
 * not ask for parentheses. Operators above level `max` end the operand. */
static bool gp_binary(grid_parser *x, int max) {
  static const struct {
    const char *op;
    int level;
  } ops[] = {{"<<", 5},  {">>", 5},  {"<=", 6}, {">=", 6}, {"==", 7}, {"!=", 7},
             {"&&", 11}, {"||", 12}, {"+", 4},  {"-", 4},  {"*", 3},  {"/", 3},
             {"%", 3},   {"<", 6},   {">", 6},  {"&", 8},  {"|", 10}, {"^", 9}};
  size_t lhs_at = x->out->len;
  if (!gp_unary(x)) return false;
  for (;;) {
    bool l_const = x->is_const;
    int64_t l = x->value;
    gp_skip(x);
    const char *op = NULL;
    int level = 0;
    for (size_t i = 0; !op && i < sizeof ops / sizeof ops[0]; i++)
      if (strncmp(x->p, ops[i].op, strlen(ops[i].op)) == 0) op = ops[i].op, level = ops[i].level;
    if (!op || level > max) return true;
    size_t n = strlen(op);
    bool compares = op[1] == '=';
    if (x->p[n] == '=' && !compares)
      return gp_fail(x, "an assignment has no place in a grid expression");
    if (op[0] == '/' && n == 1 && (x->p[1] == '/' || x->p[1] == '*'))
      return gp_fail(x, "a comment has no place in a grid expression");
    if ((op[0] == '+' || op[0] == '-') && x->p[1] == op[0])
      return gp_fail(x, "'++' and '--' have no place in a grid expression");
    x->p += n;
    const char *rhs = x->p;
    sb_insert(x->out, lhs_at, '(');
    ir_sb_printf(x->out, " %s ", op);
    if (!gp_binary(x, level - 1)) return false; /* left-associative */
    ir_sb_putc(x->out, ')');
    bool r_const = x->is_const;
    int64_t r = x->value, v = 0;
    x->is_const = false;
    bool shift = op[0] == op[1] && (op[0] == '<' || op[0] == '>');
    if (r_const && (op[0] == '/' || op[0] == '%') && r == 0) {
      x->p = rhs;
      return gp_fail(x, "a division by zero");
    }
    if (r_const && shift && (r < 0 || r > 63)) {
      x->p = rhs;
      return gp_fail(x, "a shift count out of 0..63");
    }
    if (l_const && shift && op[0] == '<' && l < 0) {
      x->p = rhs;
      return gp_fail(x, "a left shift of a negative constant");
    }
    if (!l_const || !r_const) continue;
    bool over = false;
    switch (op[0]) {
    case '+': over = __builtin_add_overflow(l, r, &v); break;
    case '-': over = __builtin_sub_overflow(l, r, &v); break;
    case '*': over = __builtin_mul_overflow(l, r, &v); break;
    case '/':
    case '%':
      over = l == INT64_MIN && r == -1;
      if (!over) v = op[0] == '/' ? l / r : l % r;
      break;
    case '<':
    case '>':
      if (shift && op[0] == '<') {
        over = l < 0 || (r > 0 && l > (INT64_MAX >> r));
        if (!over) v = l << r;
      } else if (shift) {
        v = l >> r;
      } else {
        v = op[0] == '<' ? (op[1] == '=' ? l <= r : l < r) : (op[1] == '=' ? l >= r : l > r);
      }
      break;
    case '=': v = l == r; break;
    case '!': v = l != r; break;
    case '&': v = op[1] == '&' ? (l && r) : (l & r); break;
    case '|': v = op[1] == '|' ? (l || r) : (l | r); break;
    default: v = l ^ r; break;
    }
    if (over) {
      x->p = rhs;
      return gp_fail(x, "a constant that overflows 64 bits (or shifts a negative one)");
    }
    x->is_const = true;
    x->value = v;
  }
}

static bool gp_expr(grid_parser *x) {
  if (!gp_binary(x, 12)) return false;
  gp_skip(x);
  if (*x->p != '?') return true;
  x->p++;
  bool c_const = x->is_const;
  int64_t c = x->value;
  ir_sb_puts(x->out, " ? ");
  if (!gp_expr(x)) return false;
  gp_skip(x);
  if (*x->p != ':') return gp_fail(x, "expected ':'");
  x->p++;
  ir_sb_puts(x->out, " : ");
  bool t_const = x->is_const;
  int64_t t = x->value;
  bool ok = gp_expr(x);
  if (c_const && c && t_const) /* the choice of a constant condition */
    x->value = t;
  x->is_const = c_const && (c ? t_const : x->is_const);
  return ok;
}

/* One grid dimension, checked and written again into *out (malloc'd). */
static bool parse_grid_expr(aot_gen *g, const char *e, const char *grid, char **out) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  grid_parser x = {g, grid, e, &sb, 0, false, 0};
  bool ok = gp_expr(&x);
  gp_skip(&x);
  if (ok && *x.p) ok = gp_fail(&x, "unexpected text");
  if (ok && sb.failed) ok = aot_fail(g, "out of memory");
  *out = ok ? ir_sb_take(&sb) : NULL;
  if (!ok) ir_sb_free(&sb);
  return ok;
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
      if (!parse_grid_expr(g, start, grid, &g->grid_norm[n])) return false;
      g->grid[n] = g->grid_norm[n];
      n++;
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
               {NULL, NULL, NULL},
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
  const char *why = ok ? bad_c_name(g.name, NULL) : NULL;
  if (why) ok = aot_fail(&g, "'%s' is not a usable C name for the launcher: %s", g.name, why);
  if (ok && o.header_name &&
      (!o.header_name[0] || strlen(o.header_name) > 1024 || strpbrk(o.header_name, "\"\\\n\r")))
    ok = aot_fail(&g, "header_name must be a file name of 1 to 1024 characters without '\"', "
                      "'\\' or a line break");
  if (ok && o.grid) ok = split_grid(&g, o.grid);
  if (ok && !(ok = check_specs(&g))) st = TTC_ERROR_UNSUPPORTED;
  if (ok) {
    qsort(g.specs, (size_t)g.nspecs, sizeof *g.specs, spec_order);
    const char *file = kernels[0]->filename ? kernels[0]->filename : "?";
    const char *slash = strrchr(file, '/');
    char hname[160]; /* the name has at most 128 characters */
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
  for (int i = 0; i < 3; i++)
    free(g.grid_norm[i]);
  ir_sb_free(&err);
  ir_sb_free(&c);
  ir_sb_free(&h);
  return st;
}
