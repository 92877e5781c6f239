// SPDX-License-Identifier: MIT
/* lower_paths.c - the namespaces ttc models itself: triton and
 * triton.language (dtypes, builtins, prelude functions, tl.math and
 * tl.extra.cuda.libdevice), Python's builtins, and the host modules that
 * decorator arguments and module constants use (math, itertools, typing).
 * A dotted path resolves to a value; unknown paths resolve to nothing and
 * the caller reports the name. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "frontend/lower_impl.h"

static bool str_eq(const char *a, const char *b) { return strcmp(a, b) == 0; }

typedef struct dtype_name {
  const char *name;
  int kind; /* 0 int, 1 uint, 2 float, 3 bf16, 4 fp8 (width 4: e4m3fn, 5: e5m2) */
  unsigned width;
} dtype_name;

static const dtype_name dtype_names[] = {
    {"int1", 0, 1},      {"int8", 0, 8},     {"int16", 0, 16},   {"int32", 0, 32},
    {"int64", 0, 64},    {"uint8", 1, 8},    {"uint16", 1, 16},  {"uint32", 1, 32},
    {"uint64", 1, 64},   {"float16", 2, 16}, {"float32", 2, 32}, {"float64", 2, 64},
    {"bfloat16", 3, 16}, {"fp16", 2, 16},    {"fp32", 2, 32},    {"fp64", 2, 64},
    {"bf16", 3, 16},     {"float", 2, 32},   {"bool", 0, 1},     {"float8e4nv", 4, 4},
    {"float8e5", 4, 5},
};

/* tl.float32 and friends; `float` and `bool` are accepted spellings too. */
static fe_val resolve_dtype(fe_lower *l, const char *name) {
  for (size_t i = 0; i < sizeof dtype_names / sizeof dtype_names[0]; i++) {
    const dtype_name *d = &dtype_names[i];
    if (!str_eq(d->name, name)) continue;
    fe_val v = fe_val_error();
    v.kind = FE_V_DTYPE;
    v.is_unsigned = d->kind == 1;
    if (d->kind == 4)
      v.ty = d->width == 5 ? ir_type_f8e5m2(l->ctx) : ir_type_f8e4m3(l->ctx);
    else if (d->kind == 3)
      v.ty = ir_type_bf16(l->ctx);
    else if (d->kind == 2)
      v.ty = d->width == 16   ? ir_type_f16(l->ctx)
             : d->width == 32 ? ir_type_f32(l->ctx)
                              : ir_type_f64(l->ctx);
    else
      v.ty = ir_type_int(l->ctx, d->width);
    return v;
  }
  return fe_val_error();
}

static fe_val builtin_val(fe_lower *l, const char *path) {
  fe_val v = fe_val_error();
  v.kind = FE_V_BUILTIN;
  v.path = ir_intern_cstr(l->ctx, path);
  return v;
}

static fe_val module_path_val(fe_lower *l, const char *path) {
  fe_val v = fe_val_error();
  v.kind = FE_V_MODULE;
  v.path = ir_intern_cstr(l->ctx, path);
  return v;
}

/* Namespaces whose last path component is a tl name. */
static const char *const tl_namespaces[] = {
    "triton.language",
    "triton.language.math",
    "triton.language.core",
    "triton.language.standard",
    "triton.language.semantic",
    "triton.language.extra",
    "triton.language.extra.cuda",
    "triton.language.extra.cuda.libdevice",
    "triton.language.extra.libdevice",
    "triton.language.random",
};

static const char *const other_namespaces[] = {
    "triton", "triton.language.PropagateNan", "math", "itertools", "typing", "functools", "os",
    "sys",
};

extern char **environ;

/* os.environ: the compiling process's environment, which is what a Python
 * process importing the kernel file reads. */
static fe_val environ_dict(fe_lower *l) {
  fe_val d = fe_new_dict(l);
  l->reads_environment = true;
  for (char **e = environ; e && *e; e++) {
    const char *eq = strchr(*e, '=');
    if (!eq) continue;
    fe_val k = fe_val_str(l, "");
    k.path = ir_intern(l->ctx, *e, (size_t)(eq - *e));
    fe_dict_set(l, &d, k, fe_val_str(l, eq + 1));
  }
  return d;
}

/* Python's `math` constants and the functions lower_host.c computes. */
static bool math_path(fe_lower *l, const char *name, fe_val *out) {
  static const struct {
    const char *name;
    double v;
  } consts[] = {{"pi", M_PI},
                {"e", M_E},
                {"tau", 2 * M_PI},
                {"inf", __builtin_inf()},
                {"nan", __builtin_nan("")}};
  for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
    if (str_eq(name, consts[i].name)) {
      *out = fe_val_float(consts[i].v);
      return true;
    }
  static const char *const fns[] = {
      "log", "log2",  "log10", "log1p", "exp",      "exp2",     "sqrt", "ceil",     "floor",
      "pow", "fabs",  "isqrt", "gcd",   "lcm",      "prod",     "sin",  "cos",      "tanh",
      "erf", "trunc", "isinf", "isnan", "isfinite", "copysign", "comb", "factorial"};
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
    if (str_eq(name, fns[i])) {
      char buf[64];
      snprintf(buf, sizeof buf, "math.%s", name);
      *out = builtin_val(l, buf);
      return true;
    }
  return false;
}

fe_val fe_resolve_path(fe_lower *l, const char *path) {
  for (size_t i = 0; i < sizeof tl_namespaces / sizeof tl_namespaces[0]; i++)
    if (str_eq(path, tl_namespaces[i])) return module_path_val(l, path);
  for (size_t i = 0; i < sizeof other_namespaces / sizeof other_namespaces[0]; i++)
    if (str_eq(path, other_namespaces[i])) return module_path_val(l, path);
  static const char *const triton_fns[] = {
      "triton.jit",    "triton.autotune",        "triton.heuristics",
      "triton.Config", "triton.next_power_of_2", "triton.constexpr_function"};
  for (size_t i = 0; i < sizeof triton_fns / sizeof triton_fns[0]; i++)
    if (str_eq(path, triton_fns[i])) return builtin_val(l, path);
  if (str_eq(path, "triton.cdiv")) return fe_resolve_path(l, "triton.language.cdiv");
  if (str_eq(path, "triton.__version__")) return fe_val_str(l, "3.6.0");
  if (str_eq(path, "triton.language.core.CONSTEXPR_0")) return fe_val_int(0);
  if (str_eq(path, "triton.language.tensor") || str_eq(path, "triton.language.dtype") ||
      str_eq(path, "triton.language.core.tensor") || str_eq(path, "triton.language.core.dtype"))
    return builtin_val(l, strstr(path, "tensor") ? "tl.tensor" : "tl.dtype");
  if (str_eq(path, "triton.language.constexpr_function") ||
      str_eq(path, "triton.language.core.constexpr_function"))
    return builtin_val(l, "triton.constexpr_function");
  if (str_eq(path, "itertools.product") || str_eq(path, "os.getenv")) return builtin_val(l, path);
  if (str_eq(path, "os.environ")) return environ_dict(l);
  /* sys as a Python 3.12 process on Linux sees it */
  if (str_eq(path, "sys.platform")) return fe_val_str(l, "linux");
  if (str_eq(path, "sys.maxsize")) return fe_val_int(INT64_MAX);
  if (str_eq(path, "sys.version_info")) {
    fe_val t = fe_val_error();
    t.kind = FE_V_TUPLE;
    t.n = 3;
    t.items = ir_arena_alloc(l->arena, sizeof(fe_val) * 3);
    t.items[0] = fe_val_int(3);
    t.items[1] = fe_val_int(12);
    t.items[2] = fe_val_int(0);
    return t;
  }
  if (str_eq(path, "typing.TYPE_CHECKING")) return fe_val_bool(false);
  if (strncmp(path, "typing.", 7) == 0) return builtin_val(l, "typing.annotation");
  if (str_eq(path, "functools.partial") || str_eq(path, "functools.reduce") ||
      str_eq(path, "functools.lru_cache") || str_eq(path, "functools.cache"))
    return builtin_val(l, path);
  fe_val v = fe_val_error();
  if (strncmp(path, "math.", 5) == 0 && math_path(l, path + 5, &v)) return v;
  /* tl.PropagateNan.ALL / NONE, as the strings tl.maximum and tl.clamp take. */
  if (str_eq(path, "triton.language.PropagateNan.ALL") ||
      str_eq(path, "triton.language.PropagateNan.NONE"))
    return fe_val_str(l, strrchr(path, '.')[1] == 'A' ? "all" : "none");
  /* The last component of a path inside triton.language (and its math /
   * libdevice namespaces) names a dtype, a prelude function or a builtin. */
  const char *dot = strrchr(path, '.');
  if (!dot) return v;
  char mod[256];
  snprintf(mod, sizeof mod, "%.*s", (int)(dot - path), path);
  bool in_tl = false;
  for (size_t i = 0; i < sizeof tl_namespaces / sizeof tl_namespaces[0]; i++)
    in_tl |= str_eq(mod, tl_namespaces[i]);
  if (!in_tl) return v;
  const char *name = dot + 1;
  bool is_libdevice = strstr(mod, "libdevice") != NULL;
  v = resolve_dtype(l, name);
  if (v.kind == FE_V_DTYPE && !is_libdevice) return v;
  /* tl functions written in the kernel language (the prelude) come first. */
  const fe_func *pf = is_libdevice ? NULL : fe_prelude_func(l, name);
  if (pf) {
    v = fe_val_error();
    v.kind = FE_V_FUNC;
    v.fn = pf;
    return v;
  }
  char buf[128];
  if (fe_is_libdevice_name(name) && (is_libdevice || !fe_is_tl_builtin(name))) {
    snprintf(buf, sizeof buf, "ld.%s", name);
    return builtin_val(l, buf);
  }
  if (fe_is_tl_builtin(name)) {
    snprintf(buf, sizeof buf, "tl.%s", name);
    return builtin_val(l, buf);
  }
  return fe_val_error();
}

/* Python's builtins that kernels and decorator arguments use; exception
 * classes make `raise ValueError(...)` a compile-time error message. */
fe_val fe_py_builtin(fe_lower *l, const char *name) {
  static const char *const fns[] = {
      "min",         "max",     "range",      "int",       "float",     "bool",     "len",
      "abs",         "print",   "isinstance", "getattr",   "hasattr",   "list",     "tuple",
      "dict",        "set",     "zip",        "enumerate", "sorted",    "reversed", "sum",
      "any",         "all",     "str",        "round",     "pow",       "divmod",   "type",
      "repr",        "map",     "filter",     "callable",  "frozenset", "object",   "staticmethod",
      "classmethod", "property"};
  char buf[64];
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
    if (str_eq(name, fns[i])) {
      snprintf(buf, sizeof buf, "py.%s", name);
      return builtin_val(l, buf);
    }
  size_t n = strlen(name);
  if ((n > 5 && str_eq(name + n - 5, "Error")) || str_eq(name, "Exception") ||
      str_eq(name, "StopIteration") || str_eq(name, "Warning")) {
    snprintf(buf, sizeof buf, "exc.%s", name);
    return builtin_val(l, buf);
  }
  if (str_eq(name, "__name__")) return fe_val_str(l, fe_cur_unit(l)->name);
  if (str_eq(name, "__file__")) return fe_val_str(l, fe_cur_unit(l)->path);
  if (str_eq(name, "NotImplemented") || str_eq(name, "Ellipsis")) return fe_val_str(l, name);
  return fe_val_error();
}
