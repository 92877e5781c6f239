// SPDX-License-Identifier: MIT
/* lower_impl.h - the lowering's internals (lower.c, lower_*.c): the lowering
 * state, values, scopes and the helpers the lower_*.c files share. The rest
 * of the frontend (lexer, parser, module index, signatures, decorators, the
 * JIT declaration reader) sees only fe.h. */
#ifndef TTC_FRONTEND_LOWER_IMPL_H
#define TTC_FRONTEND_LOWER_IMPL_H

#include "frontend/fe.h"

/* ---- lower.c, lower_*.c: lowering internals ---------------------------- */

/* What an expression evaluates to during lowering: a compile-time Python
 * value (constexpr, or a host value of decorator arguments), a runtime IR
 * value, or a namespace/function/dtype. */
typedef enum fe_vkind {
  FE_V_ERROR,   /* an error was already reported; propagates silently */
  FE_V_NONE,    /* None */
  FE_V_INT,     /* constexpr int: ival */
  FE_V_FLOAT,   /* constexpr float: fval */
  FE_V_BOOL,    /* constexpr bool: ival 0/1 */
  FE_V_STR,     /* constexpr string: path */
  FE_V_TENSOR,  /* runtime scalar or tensor: v; is_unsigned for ints (or a pointer's pointee) */
  FE_V_DTYPE,   /* a dtype object: ty (scalar, ptr or block type), is_unsigned */
  FE_V_MODULE,  /* a namespace: path ("triton.language", "math"), or unit (a loaded module) */
  FE_V_BUILTIN, /* a builtin function: path ("tl.arange", "py.min", "triton.Config") */
  FE_V_FUNC,    /* a function (jit, host or lambda): fn; closure for lambdas */
  FE_V_TUPLE,   /* n items */
  FE_V_METHOD,  /* bound method `path` of items[0] */
  FE_V_SLICE,   /* a full slice ':' (subscripts only) */
  FE_V_LIST,    /* a list: obj (shared, mutable) */
  FE_V_DICT,    /* a dict: obj (keys, items), insertion order */
  FE_V_CONFIG,  /* triton.Config: obj (the kwargs dict), items[4]: num_warps, num_stages,
                   num_ctas, maxnreg (None when not given) */
  FE_V_STRUCT   /* a block pointer or tensor descriptor: path ("block_ptr",
                   "tensor_desc"), items (see lower_blockptr.c) */
} fe_vkind;

typedef struct fe_val fe_val;
typedef struct fe_obj fe_obj;
struct fe_scope;
struct fe_val {
  fe_vkind kind;
  int64_t ival;
  double fval;
  ir_value *v;
  bool is_unsigned;
  const ir_type *ty;
  const char *path;
  const fe_func *fn;
  int n;
  fe_val *items;            /* TUPLE, METHOD, CONFIG, STRUCT: arena-allocated */
  fe_obj *obj;              /* LIST, DICT, CONFIG */
  struct fe_unit *unit;     /* MODULE: a loaded Python module */
  struct fe_scope *closure; /* FUNC: a lambda's captured names (may be NULL) */
};

/* The shared storage of a list or dict (lists: items; dicts: keys and
 * items). Arena-allocated; grows by copying. */
struct fe_obj {
  int n, cap;
  fe_val *items;
  fe_val *keys;
};

/* Name -> value bindings, latest last. malloc-backed. */
typedef struct fe_binding {
  const char *name;
  fe_val val;
} fe_binding;
typedef struct fe_scope {
  fe_binding *items;
  int n, cap;
  /* A hash index of items[0, nidx): name -> position (names are unique in
   * a scope). Made once a scope holds 16 names and kept up to date as
   * names are added (rebuilt, doubled, when half full), so a lookup is O(1)
   * however many names a kernel binds (a linear scan was quadratic); items
   * past nidx (at most 16) are scanned. NULL: none. */
  int *index;
  int icap, nidx;
} fe_scope;

/* The lowering's state of one module-level binding: parsed on first use,
 * evaluated once. */
typedef struct fe_bstate {
  bool parsed, busy, done;
  fe_func *fn;    /* FUNC */
  fe_expr *value; /* VALUE */
  fe_val val;
  const char *why; /* VALUE: why it has no value (when val is ERROR) */
} fe_bstate;

/* One module taking part in a lowering: the kernel file, a prelude file or
 * an imported module. Names inside a function resolve against its own
 * unit's bindings, so prelude helpers never see the user's names. */
typedef struct fe_unit {
  const fe_modindex *ix;
  fe_bstate *st;      /* one per ix->binds, in the lowering's arena */
  signed char *conds; /* per ix->conds: 0 not evaluated, 1 holds, 2 does not, 3 unknown,
                         4 taken as false (a test depends on host state) */
  const char *path;   /* the file ("" when unknown): relative imports start here */
  const char *name;   /* the module's dotted name for messages */
  bool is_prelude, is_package;
  struct fe_unit *next; /* every loaded module, in load order */
} fe_unit;

/* What follows the statement being lowered, innermost body first: the rest
 * of each enclosing body of the same function (constexpr `if` bodies nest
 * inline). A runtime `if` that returns lowers this continuation into its
 * arms. Borrowed from the AST. */
typedef struct fe_cont {
  const fe_stmt *const *stmts;
  int n;
  const struct fe_cont *next;
} fe_cont;

/* Pending exit of an unrolled loop body (or of a host loop). */
typedef enum fe_jump { FE_JUMP_NONE, FE_JUMP_BREAK, FE_JUMP_CONTINUE } fe_jump;

/* One function being lowered (the kernel or an inlined helper), or a host
 * function being run at compile time (is_host: decorator arguments,
 * @triton.constexpr_function). */
typedef struct fe_frame {
  const fe_func *fn;
  fe_unit *unit;   /* the file `fn` was defined in */
  ir_loc call_loc; /* the call being inlined (the kernel: its def) */
  fe_scope scope;
  bool returned;       /* a `return` ended the body */
  fe_val ret;          /* the returned value (NONE by default) */
  int runtime_cf;      /* > 0 inside an scf region: `return` is unsupported there */
  int static_loops;    /* enclosing tl.static_range loops (unrolled) */
  int loops;           /* enclosing runtime loops (scf.for / scf.while) */
  fe_jump jump;        /* a `break` / `continue` of a static_range or host loop is pending */
  int static_cf_base;  /* runtime_cf when the innermost static_range loop began */
  const fe_cont *cont; /* the continuation of the current statement */
  bool is_host;        /* statements run as Python at compile time */
  struct fe_frame *parent;
} fe_frame;

/* Compile-time work the frontend does for one kernel, whatever the IR it
 * makes: statements executed (a static_range body counts once per
 * iteration, a helper's body once per call) and bytes of compile-time
 * values (tuples, strings, lowering scratch). Each bounds a run that makes
 * few ops but loops or allocates without end. */
#define FE_MAX_STEPS ((int64_t)1 << 22)
#define FE_MAX_SCRATCH_BYTES ((size_t)1 << 30)
/* The longest compile-time string (a longer one is an error, not cut). */
#define FE_MAX_STR_BYTES ((size_t)1 << 20)

typedef struct fe_lower {
  ir_context *ctx;
  bool reads_environment; /* os.getenv or os.environ was evaluated */
  ir_module *m;           /* NULL when evaluating host code only */
  ir_builder b;
  fe_unit *user;     /* the kernel file */
  fe_unit *units;    /* every module loaded (user, prelude, imports) */
  fe_unit **prelude; /* the prelude files (nprelude) */
  int nprelude;
  fe_search_path search;
  ir_arena *arena; /* AST and lowering scratch (freed after lowering) */
  const fe_func *kernel;
  bool debug; /* @triton.jit(debug=True): device_assert is emitted */
  fe_frame *frame;
  int depth; /* inlining depth */
  int nerrors;
  bool too_many_ops; /* IR_MAX_OPS or a limit below reached (reported): lowering stops */
  int64_t steps;     /* statements executed, static_range bodies and helper calls included */
  size_t ctx_bytes0; /* the context's arena bytes when lowering began (new strings count) */
  /* Quiet evaluation (decorators, module-level conditions): errors are
   * counted and the first one kept, nothing is reported. */
  int quiet;
  int nquiet;
  char quiet_msg[256];
  ir_loc quiet_loc;
} fe_lower;

/* Call arguments after evaluation. */
typedef struct fe_args {
  int n;
  fe_val *pos;
  ir_loc *pos_loc;
  int nkw;
  const char **kwnames;
  fe_val *kw;
  ir_loc *kw_loc;
  ir_loc loc; /* the call */
  int cap;    /* room in pos / pos_loc (lower_expr.c) */
} fe_args;

#define FE_MAX_INLINE_DEPTH 32

/* lower.c */
/* Reports a located error with the note "in kernel 'NAME'"; returns an ERROR
 * value. While the lowering is quiet, records it instead (fe_quiet_fail). */
fe_val fe_error(fe_lower *l, ir_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A remark (nothing while quiet). */
void fe_remark(fe_lower *l, ir_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Value constructors (plain structs, nothing owned). */
fe_val fe_val_error(void);
fe_val fe_val_int(int64_t v);
/* Python's int(x) of a compile-time float: exact (truncation toward zero),
 * or a located error for NaN, infinities and values past 64 bits, never a
 * silently different number. `what` names the conversion in the message. */
fe_val fe_float_to_int(fe_lower *l, double x, ir_loc loc, const char *what);
/* Whether an integer constant fits an integer type of 2 to 63 bits (Triton
 * refuses those that do not); false after a located error. */
bool fe_const_fits(fe_lower *l, const fe_val *v, const ir_type *ty, bool uns, ir_loc loc);
fe_val fe_val_float(double v);
fe_val fe_val_bool(bool v);
fe_val fe_val_tensor(ir_value *v, bool is_unsigned);
fe_val fe_val_none(void);
fe_val fe_val_str(fe_lower *l, const char *s); /* interned */
/* The bound method `path` (interned here, "tl.sum") of `self`, its one item
 * allocated in the lowering arena. */
fe_val fe_val_method(fe_lower *l, const char *path, fe_val self);
bool fe_is_const(const fe_val *v); /* INT, FLOAT, BOOL */
/* Binds or rebinds `name` (interned). The scope owns its malloc'd array. */
void fe_scope_set(fe_scope *s, const char *name, fe_val v);
/* The binding of `name`, or NULL; borrowed, valid until the next set. */
fe_val *fe_scope_get(const fe_scope *s, const char *name);
void fe_scope_copy(fe_scope *dst, const fe_scope *src); /* dst receives a malloc'd copy */
void fe_scope_free(fe_scope *s);
/* An immutable copy in the lowering's arena (a lambda's closure). */
fe_scope *fe_scope_snapshot(fe_lower *l, const fe_scope *src);
/* Evaluates a module-level expression of unit u (a host frame: no IR). */
fe_val fe_eval_in_unit(fe_lower *l, struct fe_unit *u, const fe_expr *e);
/* The Triton decorator a decorator expression names ("triton.jit",
 * "triton.autotune", ...), or "" for any other. */
const char *fe_decorator_path(fe_lower *l, const fe_func *fn, const fe_expr *d);
typedef enum fe_func_kind { FE_FN_JIT, FE_FN_CONSTEXPR, FE_FN_HOST } fe_func_kind;
fe_func_kind fe_func_kind_of(fe_lower *l, const fe_func *fn);
/* Calls a function value: a @jit helper is inlined; a constexpr function,
 * a lambda, or (from host code) a host function runs at compile time. */
fe_val fe_call_func(fe_lower *l, const fe_val *callee, const fe_args *args);
/* Whether the innermost frame is host code (or there is none). */
bool fe_in_host(const fe_lower *l);
/* Sets the name hint on results of ops appended to the insertion block after
 * `mark` (NULL: from the block's start) that have none. */
void fe_name_ops_after(fe_lower *l, ir_op *mark, const char *name);
/* A lowering over `arena` with the module search path (copied; its strings
 * are borrowed). */
void fe_lower_init(fe_lower *l, ir_context *ctx, ir_arena *arena, const fe_search_path *search);
/* The compile-time value a signature gives a constexpr parameter. */
fe_val fe_const_param_val(fe_lower *l, const fe_param *pa);
/* Indexes the user's module and the prelude; false after a diagnostic. */
bool fe_lower_load_user(fe_lower *l, const ir_source *src);

/* lower_names.c: modules and name resolution */
struct fe_unit *fe_unit_new(fe_lower *l, const fe_modindex *ix, const char *path, const char *name);
/* Units for the prelude's files (prelude.c); false after a diagnostic. */
bool fe_prelude_load(fe_lower *l);
/* The public prelude function `name` (a tl function written in the kernel
 * language), parsed on first use; NULL if there is none. */
const fe_func *fe_prelude_func(fe_lower *l, const char *name);
/* Records the first failure of a quiet evaluation. */
void fe_quiet_fail(fe_lower *l, ir_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* `name` in module u (its bindings, then star imports), for a use at loc:
 * an error there when the binding cannot be used; *found false (no
 * diagnostic) when u does not bind it. */
fe_val fe_unit_lookup(fe_lower *l, struct fe_unit *u, const char *name, ir_loc loc, bool *found);
/* Attribute `name` of loaded module m (a binding or a submodule). */
fe_val fe_module_attr(fe_lower *l, struct fe_unit *m, const char *name, ir_loc loc);
/* The module of the innermost frame. */
struct fe_unit *fe_cur_unit(fe_lower *l);
/* Resolves a name: the current function's scope, its module's bindings,
 * then Python builtins; else an error. */
fe_val fe_lookup(fe_lower *l, const char *name, ir_loc loc);

/* lower_paths.c: the namespaces ttc models */
/* Resolves a dotted path ("triton.language.float32", "math.log") to a value,
 * or ERROR kind with no diagnostic when unknown. */
fe_val fe_resolve_path(fe_lower *l, const char *path);
/* A Python builtin (len, range, zip, ValueError, ...), or ERROR kind. */
fe_val fe_py_builtin(fe_lower *l, const char *name);

/* prelude.c: the prelude's indexes, built once per process (thread-safe).
 * Fills out[] (room for 16) and returns the count; *error is NULL or says
 * why the prelude does not tokenize (a bug of ttc). */
int fe_prelude_indexes(const fe_modindex **out, const char **error);

/* lower_host.c: host values and host code run at compile time */
/* Runs a host function's statements in the current (host) frame. */
void fe_host_body(fe_lower *l, const fe_body *body);
fe_val fe_new_list(fe_lower *l, int n, const fe_val *items);
fe_val fe_new_dict(fe_lower *l);
void fe_list_append(fe_lower *l, fe_val *list, fe_val v);
void fe_dict_set(fe_lower *l, fe_val *dict, fe_val key, fe_val v);
/* The value of `key` in dict d, or NULL. */
const fe_val *fe_dict_get(const fe_val *d, const fe_val *key);
/* Python equality of compile-time values (-1: not comparable). */
int fe_py_equal(const fe_val *a, const fe_val *b);
/* The items of a compile-time iterable (tuple, list, dict keys, string
 * characters, range); false with an error otherwise. Arena-allocated. */
bool fe_iterate(fe_lower *l, fe_val v, ir_loc loc, fe_val **items, int *n);
/* Comprehensions, f-strings, `in`, and host operators on lists / strings. */
fe_val fe_lower_comp(fe_lower *l, const fe_expr *e);
fe_val fe_lower_fstring(fe_lower *l, const fe_expr *e);
/* str() of a compile-time value into sb; false when it has no text. */
bool fe_val_to_str(fe_lower *l, const fe_val *v, ir_strbuf *sb, bool repr);
/* lower_host_math.c: math.NAME(args) on compile-time numbers; Python's
 * round(v, -k) of a finite v (k >= 1); int(s, base) of a string (1: ok,
 * 0: invalid literal, -1: past 64 bits). */
fe_val fe_math_fn(fe_lower *l, const char *fn, const fe_args *a);
double fe_round_float_tens(double v, int k);
int fe_parse_py_int(const char *s, int base, int64_t *out);
/* Python's float divmod (wx != 0) and int / int, correctly rounded (b != 0). */
void fe_py_float_divmod(double vx, double wx, double *floordiv, double *mod);
double fe_py_int_truediv(int64_t a, int64_t b);
/* Python's printf-style `fmt % args` into sb; *k counts the arguments
 * used (the caller reports the ones left over). False after an error. */
bool fe_percent_format(fe_lower *l, const char *fmt, const fe_val *args, int nargs, int *k,
                       ir_strbuf *sb, ir_loc loc);
/* format(v, spec) into sb, with Python's format-spec mini-language; conv
 * 's' or 'r' converts first (as !s / !r); 0: none. False after an error. */
bool fe_format_value(fe_lower *l, const fe_val *v, int conv, const char *spec, ir_strbuf *sb,
                     ir_loc loc);
/* `a op b` on host values (lists, strings, tuples, dicts, `in`); *handled
 * false (and nothing reported) when op does not apply to them. */
fe_val fe_host_binary(fe_lower *l, fe_op op, fe_val a, fe_val b, ir_loc loc, bool *handled);
/* A method of a host value ("host.append"): args->pos[0] is the receiver. */
fe_val fe_call_host_method(fe_lower *l, const char *path, const fe_args *args, bool *handled);
/* Attributes and methods of host values (list.append, dict.get, str.upper,
 * Config fields); kind ERROR with no diagnostic when there is none. */
fe_val fe_host_attr(fe_lower *l, fe_val v, const char *name, ir_loc loc);
/* Host builtins: py.*, math.*, itertools.*, triton.Config, methods of host
 * values ("list.append"); kind ERROR with no diagnostic when `name` is none. */
fe_val fe_call_host_builtin(fe_lower *l, const char *name, const fe_args *args, bool *handled);

/* lower_types.c: Triton's type rules */
const char *fe_type_str(fe_lower *l, const ir_type *t, bool is_unsigned);
const char *fe_val_type_str(fe_lower *l, const fe_val *v);
/* Materializes a constexpr as a scalar IR constant (int: i32, else i64; float: fp32). */
fe_val fe_to_tensor(fe_lower *l, fe_val v, ir_loc loc);
/* Converts elementwise to the scalar type `ty` (keeps the shape). */
fe_val fe_cast(fe_lower *l, fe_val v, const ir_type *ty, bool is_unsigned, ir_loc loc);
/* tt.fp_to_fp of v to the float type dst (tensor shape kept), with
 * `rounding = rtz|rtne` when rounding is not NULL; at the builder's loc. */
fe_val fe_fp_to_fp(fe_lower *l, ir_value *v, const ir_type *dst, const char *rounding);
/* Splats / broadcasts v to the shape of `like` (a tensor type). */
fe_val fe_broadcast_to(fe_lower *l, fe_val v, int rank, const int64_t *shape, ir_loc loc);
/* False, with a located error naming the limit, when shape has more than
 * IR_MAX_TILE_ELEMS elements. */
bool fe_check_tile(fe_lower *l, ir_loc loc, int rank, const int64_t *shape);
/* Python's order of two numbers (bool, int, float), exact between ints and
 * floats: -1, 0, 1, or 2 when a NaN makes them unordered. */
int fe_num_cmp(const fe_val *a, const fe_val *b);
/* A constant number (bool, int or float) as a double. */
static inline double fe_num(const fe_val *v) {
  return v->kind == FE_V_FLOAT ? v->fval : (double)v->ival;
}
/* Makes two runtime values shape-compatible (splat, expand leading dims, broadcast). */
bool fe_broadcast_pair(fe_lower *l, fe_val *a, fe_val *b, ir_loc loc);
fe_val fe_binary(fe_lower *l, fe_op op, fe_val a, fe_val b, ir_loc loc);
fe_val fe_unary(fe_lower *l, fe_op op, fe_val a, ir_loc loc);
/* Constexpr truth value; false with an error for runtime values. */
int fe_const_truth(const fe_val *v);
/* A runtime value converted to i1 (for conditions and masks). */
fe_val fe_to_bool(fe_lower *l, fe_val v, ir_loc loc);
/* Constant of scalar type `ty` (int/float), splat to `shape_like`'s shape when a tensor. */
ir_value *fe_const_of(fe_lower *l, const ir_type *ty, const fe_val *c);

/* lower_expr.c */
fe_val fe_lower_expr(fe_lower *l, const fe_expr *e);
/* Attribute `name` of a value (modules, tensors, dtypes, host values). */
fe_val fe_get_attr(fe_lower *l, fe_val base, const char *name, ir_loc loc);
/* Calls a callable value with evaluated arguments. */
fe_val fe_call(fe_lower *l, fe_val callee, const fe_args *args, const char *what);

/* Converts a and b (runtime values or constexprs) to their common type under
 * Triton's promotion rules for `op`, and broadcasts them. */
bool fe_promote_pair(fe_lower *l, fe_val *a, fe_val *b, fe_op op, ir_loc loc);

/* lower_builtins.c, lower_math.c, lower_debug.c: builtins, one table per
 * file. A builtin binds its arguments by Triton's parameter names (the first
 * `nreq` required, others default to None) and receives them in `a`. */
#define FE_MAXP 9
typedef fe_val (*fe_builtin_fn)(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                                const fe_args *args);
typedef struct fe_builtin {
  const char *name; /* "tl.arange", "py.min", "m.to" (method), "d.is_int" (dtype method) */
  fe_builtin_fn fn;
  int nreq;
  const char *params[FE_MAXP];
} fe_builtin;
/* The tables, each ending with a NULL name. Static storage. */
extern const fe_builtin fe_math_builtins[];
extern const fe_builtin fe_debug_builtins[];
/* Elementwise maximum / minimum under Triton's promotion (also Python's
 * max/min on runtime values); two constexprs fold. */
fe_val fe_minmax(fe_lower *l, bool is_max, fe_val x, fe_val y, ir_loc loc);
/* A runtime value argument (constexprs are materialized); false after an error. */
bool fe_want_tensor(fe_lower *l, fe_val *v, ir_loc loc);

/* Binds call arguments to parameter names (positional, then keyword). The
 * first `nreq` are required; others default to None. Reports errors naming
 * `fname`. out/locs need room for nparams entries. */
bool fe_bind_args(fe_lower *l, const fe_args *args, const char *fname, const char *const *params,
                  int nparams, int nreq, fe_val *out, ir_loc *locs);
/* Shape ops shared with the reductions (lower_reduce.c). */
fe_val fe_expand_dims(fe_lower *l, fe_val x, int axis, ir_loc loc);
fe_val fe_reshape(fe_lower *l, fe_val x, int rank, const int64_t *shape, ir_loc loc);
/* A constant shape from an int or a tuple of ints; false after an error. */
bool fe_const_shape(fe_lower *l, fe_val v, ir_loc loc, int *rank, int64_t *shape);

/* lower_shape.c: the shape builtins (tl.expand_dims, broadcast, broadcast_to,
 * reshape, view, trans, permute) with Triton's parameter order. */
fe_val fe_shape_op(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args);
/* Packs positional arguments from index `from` on into one tuple argument. */
fe_args fe_pack_varargs(fe_lower *l, const fe_args *args, int from);

/* lower_reduce.c: the reduce / scan primitives and dot. `input` is a tensor
 * or a tuple of same-shape tensors; `fn` a @jit (or builtin) combine function
 * taking (lhs..., rhs...) scalars. Reduce: axis None reduces the flattened
 * tensor; keep_dims keeps a unit axis. Results: one value or a tuple. */
fe_val fe_build_reduce(fe_lower *l, fe_val input, fe_val axis, fe_val fn, bool keep_dims,
                       ir_loc loc);
fe_val fe_build_scan(fe_lower *l, fe_val input, fe_val axis, fe_val fn, bool reverse, ir_loc loc);
fe_val fe_build_dot(fe_lower *l, const fe_val *a, const ir_loc *locs, ir_loc loc);

/* lower_atomic.c: `name` is "tl.atomic_add" ...; a = (pointer, val, mask, sem,
 * scope), or (pointer, cmp, val, sem, scope) for tl.atomic_cas. */
fe_val fe_build_atomic(fe_lower *l, const char *name, const fe_val *a, const ir_loc *locs,
                       ir_loc loc);

fe_val fe_call_builtin(fe_lower *l, const char *name, const fe_args *args);

/* lower_debug.c: tl.static_print / tl.device_print take varargs unbound. */
fe_val fe_call_debug_varargs(fe_lower *l, const char *name, const fe_args *args);
/* A device assertion (tt.assert) of cond | !mask with message msg (a string
 * or None); nothing unless the kernel is compiled with debug=True. */
fe_val fe_build_assert(fe_lower *l, fe_val cond, fe_val msg, fe_val mask, ir_loc loc);
/* The builtin of a qualified name ("tl.load", "d.is_int"), or NULL. Static. */
const fe_builtin *fe_find_builtin(const char *name);
/* Whether `name` is a tl builtin (function or dtype) known to the lowering. */
bool fe_is_tl_builtin(const char *name);
/* Attribute of a dtype value: .element_ty, .primitive_bitwidth, .is_fp16() ... */
fe_val fe_dtype_attr(fe_lower *l, fe_val base, const char *name, ir_loc loc);
/* lower_dtype.c: the cast and dtype builtins of lower_builtins.c's table. */
fe_val fe_b_to(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args);
fe_val fe_b_dtype_pred(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args);
fe_val fe_b_pointer_type(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                         const fe_args *args);
fe_val fe_b_get_int_dtype(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                          const fe_args *args);
fe_val fe_b_dtype_ctor(fe_lower *l, const char *name, fe_val *a, ir_loc *locs, const fe_args *args);
/* lower_libdevice.c: tl.extra.cuda.libdevice functions by name. */
bool fe_is_libdevice_name(const char *name);
fe_val fe_call_libdevice(fe_lower *l, const char *name, const fe_args *args);
/* lower_blockptr.c: block pointers and tensor descriptors. */
extern const fe_builtin fe_blockptr_builtins[];
fe_val fe_struct_attr(fe_lower *l, fe_val v, const char *name, ir_loc loc);
/* tl.load / tl.store of a block pointer (a: the bound arguments of tl.load
 * or tl.store; a[0] the block pointer). */
fe_val fe_blockptr_load(fe_lower *l, fe_val *a, ir_loc *locs, const fe_args *args);
fe_val fe_blockptr_store(fe_lower *l, fe_val *a, ir_loc *locs, const fe_args *args);
/* A tensor descriptor over base (a kernel argument's parts). */
fe_val fe_tensor_desc(fe_lower *l, fe_val base, int rank, const fe_val *shape,
                      const fe_val *strides, const int64_t *block);
/* lower_builtins.c: tl.load / tl.store on bound arguments. */
fe_val fe_call_load_store(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                          const fe_args *args);
/* Attribute of a runtime value: .dtype, .shape, .to, ... */
fe_val fe_tensor_attr(fe_lower *l, fe_val v, const char *name, ir_loc loc);
bool fe_is_tensor_member(const char *name);

/* lower_stmt.c */
void fe_lower_body(fe_lower *l, const fe_body *body);
/* Lowers statements [0, n) with `next` as their outer continuation. */
void fe_lower_stmts(fe_lower *l, const fe_stmt *const *stmts, int n, const fe_cont *next);
/* lower_stmt.c: `if` on a runtime scalar condition (scf.if). */
void fe_lower_if_runtime(fe_lower *l, const fe_stmt *s, fe_val cond);
/* The condition of a runtime `if` as an i1 scalar; false (diagnosed) when it
 * does not convert or is a tensor. */
bool fe_if_condition(fe_lower *l, const fe_stmt *s, fe_val *cond);

/* lower_carry.c: the values a runtime loop carries. Variables holding
 * tuples, block pointers or descriptors carry each runtime leaf. */
#define FE_MAX_CARRIED 128
typedef struct fe_carry {
  int nvars, nleaves;
  const char *names[FE_MAX_CARRIED];                /* per variable */
  fe_val tmpl[FE_MAX_CARRIED];                      /* per variable: its value before the loop */
  int first[FE_MAX_CARRIED], count[FE_MAX_CARRIED]; /* its leaves */
  fe_val leaves[FE_MAX_CARRIED];                    /* the initial leaf values (tensors) */
  const char *leaf_name[FE_MAX_CARRIED];
} fe_carry;
/* The variables `body` assigns that are bound now (except `skip`); their
 * constant leaves are materialized. False after an error. */
bool fe_carry_collect(fe_lower *l, const fe_body *body, const char *skip, fe_carry *c, ir_loc loc);
/* Binds each variable to its structure with leaves vals[first...]. */
void fe_carry_bind(fe_lower *l, const fe_carry *c, ir_value *const *vals);
/* The current leaves of each variable (converted to the initial types)
 * into ys; false after an error naming the variable (`what` says where). */
bool fe_carry_yield(fe_lower *l, const fe_carry *c, ir_value **ys, const char *what, ir_loc loc);

/* lower_return.c: early `return` under a runtime `if`. */
/* Whether the statement list contains a `return` outside loops. */
bool fe_has_return(const fe_body *b);
/* `if cond: ... return ...` on a runtime condition at the top level of a
 * function (no enclosing loop): both arms continue with the continuation
 * and end in a return, so the scf.if yields the returned value. */
void fe_lower_returning_if(fe_lower *l, const fe_stmt *s, fe_val cond);

#endif /* TTC_FRONTEND_LOWER_IMPL_H */
