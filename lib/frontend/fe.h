/* fe.h - the internal header of lib/frontend: lexer, AST and parser, kernel
 * signatures, and lowering of @triton.jit functions to ttir.
 *
 * Sections follow the defining files. Everything here is hidden from the
 * shared library's exports. Diagnostics go to the ir_context; nothing here
 * prints or exits. */
#ifndef TTC_FE_H
#define TTC_FE_H

#include <stdbool.h>
#include <stdint.h>

#include "ir-tt/ir.h"
#include "ttc/base.h"

/* ---- lexer.c: tokens ---------------------------------------------------- */

/* Punctuators, longest spellings first within each length class does not
 * matter: the lexer tries 3, then 2, then 1 character matches. */
#define FE_PUNCTS(X)                                                                     \
  X(POWEQ, "**=") X(FLOORDIVEQ, "//=") X(SHREQ, ">>=") X(SHLEQ, "<<=") X(ELLIPSIS, "...") \
  X(POW, "**") X(FLOORDIV, "//") X(SHL, "<<") X(SHR, ">>") X(LE, "<=") X(GE, ">=")       \
  X(EQEQ, "==") X(NE, "!=") X(ARROW, "->") X(PLUSEQ, "+=") X(MINUSEQ, "-=")              \
  X(STAREQ, "*=") X(SLASHEQ, "/=") X(PERCENTEQ, "%=") X(AMPEQ, "&=") X(PIPEEQ, "|=")      \
  X(CARETEQ, "^=") X(ATEQ, "@=") X(WALRUS, ":=")                                          \
  X(LPAREN, "(") X(RPAREN, ")") X(LBRACKET, "[") X(RBRACKET, "]") X(LBRACE, "{")          \
  X(RBRACE, "}") X(COMMA, ",") X(COLON, ":") X(DOT, ".") X(SEMI, ";") X(AT, "@")          \
  X(ASSIGN, "=") X(PLUS, "+") X(MINUS, "-") X(STAR, "*") X(SLASH, "/") X(PERCENT, "%")    \
  X(AMP, "&") X(PIPE, "|") X(CARET, "^") X(TILDE, "~") X(LT, "<") X(GT, ">")

/* Python keywords (all of them, so that unsupported ones are recognised). */
#define FE_KEYWORDS(X)                                                                   \
  X(FALSE, "False") X(NONE, "None") X(TRUE, "True") X(AND, "and") X(AS, "as")           \
  X(ASSERT, "assert") X(ASYNC, "async") X(AWAIT, "await") X(BREAK, "break")             \
  X(CLASS, "class") X(CONTINUE, "continue") X(DEF, "def") X(DEL, "del") X(ELIF, "elif") \
  X(ELSE, "else") X(EXCEPT, "except") X(FINALLY, "finally") X(FOR, "for")               \
  X(FROM, "from") X(GLOBAL, "global") X(IF, "if") X(IMPORT, "import") X(IN, "in")       \
  X(IS, "is") X(LAMBDA, "lambda") X(NONLOCAL, "nonlocal") X(NOT, "not") X(OR, "or")     \
  X(PASS, "pass") X(RAISE, "raise") X(RETURN, "return") X(TRY, "try") X(WHILE, "while") \
  X(WITH, "with") X(YIELD, "yield")

typedef enum fe_tok_kind {
  FE_TOK_EOF,
  FE_TOK_NEWLINE, /* end of a logical line */
  FE_TOK_INDENT,
  FE_TOK_DEDENT,
  FE_TOK_NAME,   /* text: interned identifier */
  FE_TOK_INT,    /* ival */
  FE_TOK_FLOAT,  /* fval */
  FE_TOK_STRING, /* text/len: decoded contents (arena) */
#define FE_X(E, S) FE_TOK_##E,
  FE_PUNCTS(FE_X)
#undef FE_X
#define FE_X(E, S) FE_TOK_KW_##E,
  FE_KEYWORDS(FE_X)
#undef FE_X
  FE_NUM_TOKS
} fe_tok_kind;

typedef struct fe_token {
  fe_tok_kind kind;
  ir_loc loc;        /* first character, 1-based line:col */
  const char *text;  /* NAME: interned; STRING: decoded bytes, NUL-terminated */
  size_t len;        /* STRING: decoded length */
  uint64_t ival;     /* INT: value (literals are never negative) */
  double fval;       /* FLOAT */
  bool is_bytes;     /* STRING: b'' prefix */
} fe_token;

/* The tokens of one source: an array ending with FE_TOK_EOF. malloc-backed;
 * free with fe_tokens_free. String contents live in `arena` (the caller's). */
typedef struct fe_tokens {
  fe_token *toks;
  int n;
} fe_tokens;

/* Tokenizes `src`. Emits located errors on ctx and keeps going; returns false
 * if any error was emitted (the tokens are still complete up to EOF). */
bool fe_lex(ir_context *ctx, const ir_source *src, ir_arena *arena, fe_tokens *out);
void fe_tokens_free(fe_tokens *t);
/* A static spelling of a token kind for messages ("'('", "newline", "name"). */
const char *fe_tok_kind_name(fe_tok_kind k);

/* ---- parser.c, parse_expr.c: the AST ------------------------------------- */

typedef enum fe_op {
  FE_OP_ADD, FE_OP_SUB, FE_OP_MUL, FE_OP_DIV, FE_OP_FLOORDIV, FE_OP_MOD, FE_OP_POW,
  FE_OP_MATMUL, FE_OP_SHL, FE_OP_SHR, FE_OP_BITAND, FE_OP_BITOR, FE_OP_BITXOR,
  FE_OP_AND, FE_OP_OR,                       /* boolean operators */
  FE_OP_NEG, FE_OP_POS, FE_OP_INVERT, FE_OP_NOT, /* unary */
  FE_OP_EQ, FE_OP_NE, FE_OP_LT, FE_OP_LE, FE_OP_GT, FE_OP_GE, /* comparisons */
  FE_OP_IS, FE_OP_ISNOT, FE_OP_IN, FE_OP_NOTIN
} fe_op;
/* Python spelling of an operator ("+", "//", "not in"). */
const char *fe_op_str(fe_op op);

typedef enum fe_expr_kind {
  FE_EX_ERROR,   /* placeholder after a syntax error (never lowered) */
  FE_EX_NAME,    /* name */
  FE_EX_INT,     /* ival */
  FE_EX_FLOAT,   /* fval */
  FE_EX_STR,     /* str/slen */
  FE_EX_TRUE, FE_EX_FALSE, FE_EX_NONE, FE_EX_ELLIPSIS,
  FE_EX_ATTR,    /* a.name */
  FE_EX_CALL,    /* a(items..., kwnames[i]=kwvals[i]...) */
  FE_EX_SUBSCRIPT, /* a[b] (b may be a TUPLE of indices) */
  FE_EX_SLICE,   /* a:b:c inside a subscript; each part may be NULL */
  FE_EX_TUPLE,   /* items */
  FE_EX_LIST,    /* items */
  FE_EX_DICT,    /* items: key, value, key, value, ... (decorator arguments) */
  FE_EX_LAMBDA,  /* a: the body; parameters dropped (decorator arguments) */
  FE_EX_UNARY,   /* op a */
  FE_EX_BINARY,  /* a op b (arithmetic, bitwise, and/or) */
  FE_EX_COMPARE, /* items[0] cmpops[0] items[1] ... (n >= 2) */
  FE_EX_IFEXP    /* a if b else c */
} fe_expr_kind;

typedef struct fe_expr fe_expr;
struct fe_expr {
  fe_expr_kind kind;
  ir_loc loc;         /* the node's start, or its operator for BINARY/COMPARE */
  ir_loc start;       /* the first character of the whole expression */
  const char *name;   /* NAME, ATTR: interned */
  const char *str;    /* STR */
  size_t slen;
  uint64_t ival;
  double fval;
  fe_op op;
  fe_expr *a, *b, *c;
  int n;              /* TUPLE, LIST, CALL positional, COMPARE operands */
  fe_expr **items;
  fe_op *cmpops;      /* COMPARE: n - 1 operators */
  int nkw;            /* CALL keywords */
  const char **kwnames;
  fe_expr **kwvals;
};

typedef enum fe_stmt_kind {
  FE_ST_EXPR,      /* value */
  FE_ST_ASSIGN,    /* targets[0] = targets[1] = ... = value */
  FE_ST_AUGASSIGN, /* targets[0] op= value */
  FE_ST_ANNASSIGN, /* targets[0]: annotation [= value] */
  FE_ST_IF,        /* if cond: body else: orelse (elif nests an IF in orelse) */
  FE_ST_FOR,       /* for target in iter: body */
  FE_ST_WHILE,     /* while cond: body */
  FE_ST_BREAK, FE_ST_CONTINUE, FE_ST_PASS,
  FE_ST_RETURN,    /* value may be NULL */
  FE_ST_ASSERT     /* cond, msg may be NULL */
} fe_stmt_kind;

typedef struct fe_stmt fe_stmt;
typedef struct fe_body {
  int n;
  fe_stmt **stmts;
} fe_body;

struct fe_stmt {
  fe_stmt_kind kind;
  ir_loc loc;
  int ntargets;
  fe_expr **targets;
  fe_expr *value;       /* EXPR, ASSIGN, AUGASSIGN, ANNASSIGN, RETURN */
  fe_expr *annotation;  /* ANNASSIGN */
  fe_op op;             /* AUGASSIGN */
  fe_expr *cond;        /* IF, WHILE, ASSERT */
  fe_expr *target, *iter; /* FOR */
  fe_expr *msg;         /* ASSERT */
  fe_body body, orelse;
};

typedef struct fe_param_decl {
  const char *name;     /* interned */
  ir_loc loc;
  fe_expr *annotation;  /* may be NULL */
  fe_expr *dflt;        /* may be NULL */
} fe_param_decl;

typedef struct fe_func {
  const char *name;     /* interned */
  ir_loc loc;           /* the `def` keyword */
  int nparams;
  fe_param_decl *params;
  fe_expr *ret_annotation;
  int ndecorators;
  fe_expr **decorators;
  fe_body body;
} fe_func;

/* A module-level binding made by an import: `alias` names `path`
 * ("tl" -> "triton.language", "jit" -> "triton.jit"). */
typedef struct fe_import {
  const char *alias; /* interned */
  const char *path;  /* interned dotted name */
  ir_loc loc;
} fe_import;

/* A module-level `NAME = expr` or `NAME: ann = expr`. */
typedef struct fe_global {
  const char *name;
  ir_loc loc;
  fe_expr *annotation;
  fe_expr *value;
} fe_global;

typedef struct fe_module {
  const ir_source *src;
  int nimports;
  fe_import *imports;
  int nglobals;
  fe_global *globals;
  int nfuncs;
  fe_func **funcs;
} fe_module;

/* Parses a whole kernel file. Every node is allocated in `arena` (the
 * caller's). Emits located errors and recovers at the next statement; returns
 * NULL if any error was emitted (lexical or syntactic). */
fe_module *fe_parse(ir_context *ctx, const ir_source *src, ir_arena *arena);

/* The function named `name`, or NULL. Borrowed from the module. */
fe_func *fe_module_find_func(const fe_module *mod, const char *name);

/* Parser internals shared by parser.c (statements) and parse_expr.c. */
typedef struct fe_parser {
  ir_context *ctx;
  ir_arena *arena;
  const ir_source *src;
  fe_token *toks;
  int pos, ntoks;
  bool panic;   /* an error was reported in the current statement */
  int nerrors;
  int depth;    /* recursion depth of the expression parser */
} fe_parser;

/* The deepest expression the parser accepts (recursion in the parser and,
 * for left-nested chains such as a+b+c+..., in the lowering): far beyond
 * real kernels, well within the C stack even under AddressSanitizer. */
#define FE_MAX_EXPR_DEPTH 1000

const fe_token *fe_peek(const fe_parser *p);
const fe_token *fe_peek_at(const fe_parser *p, int ahead);
const fe_token *fe_next(fe_parser *p);
bool fe_accept(fe_parser *p, fe_tok_kind k);
/* Consumes a token of kind k or reports "expected <what>, found <tok>". */
bool fe_expect(fe_parser *p, fe_tok_kind k, const char *what);
/* Reports a syntax error once per statement (later ones are cascades). */
void fe_parse_error(fe_parser *p, ir_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Describes a token for "found ..." ("'foo'", "newline", "'+'"). Static or
 * interned storage. */
const char *fe_tok_desc(fe_parser *p, const fe_token *t);
fe_expr *fe_new_expr(fe_parser *p, fe_expr_kind kind, ir_loc loc);
/* expression: test (`a if c else b` and below). */
fe_expr *fe_parse_test(fe_parser *p);
/* testlist: test (',' test)* [','] -> a TUPLE when a comma is present. */
fe_expr *fe_parse_testlist(fe_parser *p);
/* exprlist: expr (',' expr)* [','] (for-loop targets). */
fe_expr *fe_parse_exprlist(fe_parser *p);
/* True if the token can start an expression. */
bool fe_tok_starts_expr(fe_tok_kind k);

/* ---- signature.c: Triton AOT signatures ---------------------------------- */

typedef struct fe_param {
  const char *name;        /* interned */
  bool is_constexpr;
  bool is_specialized;      /* a runtime parameter given a value in the signature */
  ttc_type type;           /* TTC_TYPE_* from include/ttc/base.h; PTR for pointers */
  ttc_type pointee;        /* element type for pointers */
  int divisibility;        /* 16 for ':16', else 0 */
  char value_text[64];     /* constexpr value as written ("1024") */
  /* Added: the parsed constexpr value (when is_constexpr). */
  enum { FE_CONST_INT, FE_CONST_FLOAT, FE_CONST_BOOL } const_kind;
  int64_t ival;            /* INT, BOOL (0/1) */
  double fval;             /* FLOAT */
  ir_loc sig_loc;          /* the entry in the "<signature>" source */
} fe_param;

typedef struct fe_kernel_info {
  int nparams;
  fe_param *params;
} fe_kernel_info;

/* One parsed signature entry: either a type or a constexpr value. */
typedef struct fe_sig_entry {
  bool is_value;          /* a constexpr value rather than a type */
  ttc_type type, pointee; /* types */
  int divisibility;
  int const_kind;         /* values: FE_CONST_* */
  int64_t ival;
  double fval;
  char text[64];          /* as written, trimmed */
  ir_loc loc;             /* in the "<signature>" source */
} fe_sig_entry;

/* Parses a signature string into entries (allocated in `arena`), registering
 * it as the source "<signature>" so errors point into it. Returns the number
 * of entries, or -1 after emitting errors. */
int fe_parse_signature(ir_context *ctx, const char *signature, ir_arena *arena,
                       fe_sig_entry **out);

/* Matches the entries against the function's parameters and fills info
 * (params allocated in `arena`). A parameter is constexpr when annotated
 * `tl.constexpr` (any spelling ending in `constexpr`). Errors: arity mismatch
 * (at the def), a constexpr without a value, a runtime parameter given a
 * value. Returns false after emitting errors. */
bool fe_apply_signature(ir_context *ctx, const fe_func *fn, const fe_sig_entry *entries,
                        int nentries, ir_arena *arena, fe_kernel_info *info);

/* Whether a parameter annotation means constexpr. */
bool fe_is_constexpr_annotation(const fe_expr *ann);

/* The ir type of a ttc_type scalar (not PTR). */
const ir_type *fe_ttc_type_to_ir(ir_context *ctx, ttc_type t);

/* ---- lower.c, lower_*.c: lowering internals ---------------------------- */

/* What an expression evaluates to during lowering: a compile-time Python
 * value (constexpr), a runtime IR value, or a namespace/function/dtype. */
typedef enum fe_vkind {
  FE_V_ERROR,   /* an error was already reported; propagates silently */
  FE_V_NONE,    /* None */
  FE_V_INT,     /* constexpr int: ival */
  FE_V_FLOAT,   /* constexpr float: fval */
  FE_V_BOOL,    /* constexpr bool: ival 0/1 */
  FE_V_STR,     /* constexpr string: path */
  FE_V_TENSOR,  /* runtime scalar or tensor: v; is_unsigned for ints (or a pointer's pointee) */
  FE_V_DTYPE,   /* a dtype object: ty (scalar or ptr), is_unsigned */
  FE_V_MODULE,  /* a namespace: path ("triton.language") */
  FE_V_BUILTIN, /* a builtin function: path ("arange", "min", "range") */
  FE_V_FUNC,    /* a @jit function: fn */
  FE_V_TUPLE,   /* n items */
  FE_V_METHOD,  /* bound method `path` of items[0] */
  FE_V_SLICE    /* a full slice ':' (subscripts only) */
} fe_vkind;

typedef struct fe_val fe_val;
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
  fe_val *items; /* TUPLE, METHOD: arena-allocated */
};

/* Name -> value bindings, latest last. malloc-backed. */
typedef struct fe_binding {
  const char *name;
  fe_val val;
} fe_binding;
typedef struct fe_scope {
  fe_binding *items;
  int n, cap;
} fe_scope;

/* Global state binding of a module-level constant. */
typedef struct fe_global_state {
  bool done, busy;
  fe_val val;
} fe_global_state;

/* One parsed file taking part in a lowering: the kernel file or a prelude
 * file. Names inside a function resolve against its own unit's constants,
 * functions and imports, so prelude helpers never see the user's names. */
typedef struct fe_unit {
  const fe_module *mod;
  fe_global_state *globals; /* one per mod->globals, lazily evaluated */
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

/* Pending exit of an unrolled loop body. */
typedef enum fe_jump { FE_JUMP_NONE, FE_JUMP_BREAK, FE_JUMP_CONTINUE } fe_jump;

/* One function being lowered (the kernel or an inlined helper). */
typedef struct fe_frame {
  const fe_func *fn;
  fe_unit *unit;    /* the file `fn` was defined in */
  ir_loc call_loc;  /* the call being inlined (the kernel: its def) */
  fe_scope scope;
  bool returned;    /* a `return` ended the body */
  fe_val ret;       /* the returned value (NONE by default) */
  int runtime_cf;   /* > 0 inside an scf region: `return` is unsupported there */
  int static_loops; /* enclosing tl.static_range loops (unrolled) */
  int loops;        /* enclosing runtime loops (scf.for / scf.while) */
  fe_jump jump;     /* a `break` / `continue` of a static_range loop is pending */
  int static_cf_base; /* runtime_cf when the innermost static_range loop began */
  const fe_cont *cont; /* the continuation of the current statement */
  struct fe_frame *parent;
} fe_frame;

typedef struct fe_lower {
  ir_context *ctx;
  ir_module *m;
  ir_builder b;
  fe_unit user;          /* the kernel file */
  fe_unit *prelude;      /* the prelude files (fe_prelude_files), parsed per lowering */
  int nprelude;
  ir_arena *arena;       /* AST and lowering scratch (freed after lowering) */
  const fe_func *kernel;
  bool debug;            /* @triton.jit(debug=True): device_assert is emitted */
  fe_frame *frame;
  int depth;             /* inlining depth */
  int nerrors;
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
} fe_args;

/* lower.c */
/* Reports a located error with the note "in kernel 'NAME'"; returns an ERROR value. */
fe_val fe_error(fe_lower *l, ir_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Value constructors (plain structs, nothing owned). */
fe_val fe_val_error(void);
fe_val fe_val_int(int64_t v);
fe_val fe_val_float(double v);
fe_val fe_val_bool(bool v);
fe_val fe_val_tensor(ir_value *v, bool is_unsigned);
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
/* Resolves a name: the current function's scope, module constants (evaluated
 * lazily), @jit functions, imports, then Python builtins; else an error. */
fe_val fe_lookup(fe_lower *l, const char *name, ir_loc loc);
/* The public prelude function `name` (a tl function written in the kernel
 * language), or NULL. Borrowed from the lowering's arena. */
const fe_func *fe_prelude_func(const fe_lower *l, const char *name);
/* Resolves a dotted path ("triton.language.float32") to a value, or ERROR
 * kind with no diagnostic when unknown. */
fe_val fe_resolve_path(fe_lower *l, const char *path);
/* Inlines a call of a @jit helper. */
fe_val fe_call_jit(fe_lower *l, const fe_func *fn, const fe_args *args);
/* Sets the name hint on results of ops appended to the insertion block after
 * `mark` (NULL: from the block's start) that have none. */
void fe_name_ops_after(fe_lower *l, ir_op *mark, const char *name);

/* lower_types.c: Triton's type rules */
const char *fe_type_str(fe_lower *l, const ir_type *t, bool is_unsigned);
const char *fe_val_type_str(fe_lower *l, const fe_val *v);
/* Materializes a constexpr as a scalar IR constant (int: i32, else i64; float: fp32). */
fe_val fe_to_tensor(fe_lower *l, fe_val v, ir_loc loc);
/* Converts elementwise to the scalar type `ty` (keeps the shape). */
fe_val fe_cast(fe_lower *l, fe_val v, const ir_type *ty, bool is_unsigned, ir_loc loc);
/* Splats / broadcasts v to the shape of `like` (a tensor type). */
fe_val fe_broadcast_to(fe_lower *l, fe_val v, int rank, const int64_t *shape, ir_loc loc);
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
/* Attribute of a runtime value: .dtype, .shape, .to, ... */
fe_val fe_tensor_attr(fe_lower *l, fe_val v, const char *name, ir_loc loc);

/* lower_stmt.c */
void fe_lower_body(fe_lower *l, const fe_body *body);
/* Lowers statements [0, n) with `next` as their outer continuation. */
void fe_lower_stmts(fe_lower *l, const fe_stmt *const *stmts, int n, const fe_cont *next);
/* lower_stmt.c: `if` on a runtime scalar condition (scf.if). */
void fe_lower_if_runtime(fe_lower *l, const fe_stmt *s, fe_val cond);
/* The condition of a runtime `if` as an i1 scalar; false (diagnosed) when it
 * does not convert or is a tensor. */
bool fe_if_condition(fe_lower *l, const fe_stmt *s, fe_val *cond);

/* lower_return.c: early `return` under a runtime `if`. */
/* Whether the statement list contains a `return` outside loops. */
bool fe_has_return(const fe_body *b);
/* `if cond: ... return ...` on a runtime condition at the top level of a
 * function (no enclosing loop): both arms continue with the continuation
 * and end in a return, so the scf.if yields the returned value. */
void fe_lower_returning_if(fe_lower *l, const fe_stmt *s, fe_val cond);

/* ---- jit_decl.c: what a kernel declares, for the JIT runtime ------------ */

/* The narrow interface between a kernel file and lib/driver's kernel
 * functions (specialization, autotuning, the cache key): the parameters,
 * what @triton.jit, @triton.autotune and @triton.heuristics say, and the
 * source the kernel depends on. Read from the parsed module without
 * lowering; decorator arguments are taken in their literal forms only.
 * Everything lives in the arena given to fe_read_jit_decl. */

/* A compile-time scalar: an int, float or bool literal, or None. */
typedef enum fe_cval_kind { FE_CVAL_NONE, FE_CVAL_INT, FE_CVAL_FLOAT, FE_CVAL_BOOL } fe_cval_kind;
typedef struct fe_cval {
  fe_cval_kind kind;
  int64_t i; /* INT, BOOL (0/1) */
  double f;  /* FLOAT */
} fe_cval;

typedef struct fe_jit_param {
  const char *name; /* interned */
  bool is_constexpr;
  bool has_default; /* a literal default value */
  fe_cval dflt;
  bool do_not_specialize;              /* @triton.jit(do_not_specialize=[...]) */
  bool do_not_specialize_on_alignment; /* ...(do_not_specialize_on_alignment=[...]) */
} fe_jit_param;

/* One `name: value` of a triton.Config dict. */
typedef struct fe_jit_kv {
  const char *name;
  fe_cval value;
} fe_jit_kv;

/* triton.Config(kwargs, num_warps=, num_stages=); 0: not given. */
typedef struct fe_jit_config {
  int nkv;
  fe_jit_kv *kv;
  int num_warps, num_stages;
  ir_loc loc;
} fe_jit_config;

/* A heuristic's lambda body: arithmetic, comparisons, `and`/`or`/`not`,
 * conditional expressions, `args['name']` and calls of the few functions
 * lib/driver evaluates (name: "next_power_of_2", "cdiv", "min", "max",
 * "abs", "int", "float", "bool"). */
typedef enum fe_hx_kind {
  FE_HX_CONST,   /* c */
  FE_HX_ARG,     /* args['name'] */
  FE_HX_UNARY,   /* op a (FE_OP_NEG, POS, INVERT, NOT) */
  FE_HX_BINARY,  /* a op b (arithmetic, bitwise, AND/OR, comparisons) */
  FE_HX_IFEXP,   /* a if b else c */
  FE_HX_CALL     /* name(args[0..n)) */
} fe_hx_kind;
typedef struct fe_hexpr fe_hexpr;
struct fe_hexpr {
  fe_hx_kind kind;
  ir_loc loc;
  fe_cval c;
  const char *name;
  fe_op op;
  const fe_hexpr *a, *b, *c3;
  int n;
  const fe_hexpr **args;
};

/* @triton.heuristics({name: lambda args: expr}) entries, in order. */
typedef struct fe_jit_heuristic {
  const char *name;
  const fe_hexpr *expr;
  ir_loc loc;
} fe_jit_heuristic;

/* A byte range of the kernel file the kernel depends on. */
typedef struct fe_span {
  size_t offset, len;
  uint32_t line; /* its first line */
} fe_span;

typedef struct fe_jit_decl {
  const ir_source *src;
  const char *name;
  ir_loc loc; /* the `def` */
  int nparams;
  fe_jit_param *params;
  bool debug; /* @triton.jit(debug=True) */
  /* @triton.autotune */
  bool has_autotune;
  ir_loc autotune_loc;
  int nconfigs;
  fe_jit_config *configs;
  int nkey, nreset, nrestore;
  const char **key, **reset_to_zero, **restore_value; /* parameter names */
  bool has_prune; /* prune_configs_by was given (host functions: not run) */
  int warmup_ms, rep_ms; /* autotune(warmup=, rep=); 0: not given */
  /* @triton.heuristics, outermost decorator first */
  int nheuristics;
  fe_jit_heuristic *heuristics;
  bool heuristics_first; /* a @triton.heuristics sits above @triton.autotune */
  /* The source the kernel reaches: its definition (decorators included),
   * every module function and constant it names, transitively, and the
   * import statements; sorted by offset. */
  int nspans;
  fe_span *spans;
} fe_jit_decl;

/* Parses `src` and reads the declaration of @triton.jit function `name`.
 * Returns NULL after emitting located errors: a syntax error, no such jit
 * function, or decorator arguments not in the literal forms above. */
const fe_jit_decl *fe_read_jit_decl(ir_context *ctx, const ir_source *src, ir_arena *arena,
                                    const char *name);

/* Only the spans of fe_jit_decl, whatever the decorators say: for keying a
 * compile by signature. Returns their count, or -1 when the file does not
 * parse or has no function `name`. */
int fe_kernel_spans(ir_context *ctx, const ir_source *src, ir_arena *arena, const char *name,
                    fe_span **spans);

/* ---- prelude: fe_prelude_text.c, generated at build time ----------------- */

/* The files of lib/frontend/prelude/, embedded by prelude/embed.cmake in
 * name order: tl functions written in the kernel language, parsed and
 * inlined like user @triton.jit helpers. Static storage. */
typedef struct fe_prelude_file {
  const char *name; /* "standard.py" */
  const char *text; /* NUL-terminated */
  size_t len;
} fe_prelude_file;
extern const fe_prelude_file fe_prelude_files[];
extern const int fe_prelude_nfiles;

/* ---- lower.c: entry point ------------------------------------------------ */

/* Parses `src`, finds @triton.jit function `kernel`, applies `signature`, lowers to ttir.
   Returns a new module (caller destroys) or NULL after emitting diagnostics on ctx.
   info->params is allocated in the module's arena (valid until it is destroyed). */
ir_module *fe_lower_kernel(ir_context *ctx, const ir_source *src, const char *kernel,
                           const char *signature, fe_kernel_info *info);

#endif
