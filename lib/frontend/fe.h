// SPDX-License-Identifier: MIT
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

/* Punctuators: every Python 3 operator and delimiter, plus '!' (only
 * meaningful inside an f-string replacement field: f"{x!r}"). */
// A table, laid out by hand:
// clang-format off
#define FE_PUNCTS(X)                                                                     \
  X(POWEQ, "**=") X(FLOORDIVEQ, "//=") X(SHREQ, ">>=") X(SHLEQ, "<<=") X(ELLIPSIS, "...") \
  X(POW, "**") X(FLOORDIV, "//") X(SHL, "<<") X(SHR, ">>") X(LE, "<=") X(GE, ">=")       \
  X(EQEQ, "==") X(NE, "!=") X(ARROW, "->") X(PLUSEQ, "+=") X(MINUSEQ, "-=")              \
  X(STAREQ, "*=") X(SLASHEQ, "/=") X(PERCENTEQ, "%=") X(AMPEQ, "&=") X(PIPEEQ, "|=")      \
  X(CARETEQ, "^=") X(ATEQ, "@=") X(WALRUS, ":=")                                          \
  X(LPAREN, "(") X(RPAREN, ")") X(LBRACKET, "[") X(RBRACKET, "]") X(LBRACE, "{")          \
  X(RBRACE, "}") X(COMMA, ",") X(COLON, ":") X(DOT, ".") X(SEMI, ";") X(AT, "@")          \
  X(ASSIGN, "=") X(PLUS, "+") X(MINUS, "-") X(STAR, "*") X(SLASH, "/") X(PERCENT, "%")    \
  X(AMP, "&") X(PIPE, "|") X(CARET, "^") X(TILDE, "~") X(LT, "<") X(GT, ">") X(EXCL, "!")
// clang-format on

/* Python keywords (all of them, so that unsupported ones are recognised).
 * The soft keywords (match, case, type, _) are names. */
// A table, laid out by hand:
// clang-format off
#define FE_KEYWORDS(X)                                                                   \
  X(FALSE, "False") X(NONE, "None") X(TRUE, "True") X(AND, "and") X(AS, "as")           \
  X(ASSERT, "assert") X(ASYNC, "async") X(AWAIT, "await") X(BREAK, "break")             \
  X(CLASS, "class") X(CONTINUE, "continue") X(DEF, "def") X(DEL, "del") X(ELIF, "elif") \
  X(ELSE, "else") X(EXCEPT, "except") X(FINALLY, "finally") X(FOR, "for")               \
  X(FROM, "from") X(GLOBAL, "global") X(IF, "if") X(IMPORT, "import") X(IN, "in")       \
  X(IS, "is") X(LAMBDA, "lambda") X(NONLOCAL, "nonlocal") X(NOT, "not") X(OR, "or")     \
  X(PASS, "pass") X(RAISE, "raise") X(RETURN, "return") X(TRY, "try") X(WHILE, "while") \
  X(WITH, "with") X(YIELD, "yield")
// clang-format on

typedef enum fe_tok_kind {
  FE_TOK_EOF,
  FE_TOK_NEWLINE, /* end of a logical line */
  FE_TOK_INDENT,
  FE_TOK_DEDENT,
  FE_TOK_NAME,   /* text/len: the source bytes (not NUL-terminated) */
  FE_TOK_INT,    /* ival; is_big when above 2**64-1 */
  FE_TOK_FLOAT,  /* fval */
  FE_TOK_IMAG,   /* fval: an imaginary literal (1j), host code only */
  FE_TOK_STRING, /* text/len: decoded contents (arena) */
  /* An f-string (or t-string) is FSTRING_START, then literal pieces
   * (FSTRING_MIDDLE, decoded) and replacement fields ('{' expression
   * ['='] ['!' NAME] [':' spec pieces] '}'), then FSTRING_END, as in
   * CPython 3.12's tokenizer; fields nest. */
  FE_TOK_FSTRING_START,
  FE_TOK_FSTRING_MIDDLE,
  FE_TOK_FSTRING_END,
// the tables expand to enumerators: clang-format cannot tell
// clang-format off
#define FE_X(E, S) FE_TOK_##E,
  FE_PUNCTS(FE_X)
#undef FE_X
#define FE_X(E, S) FE_TOK_KW_##E,
  FE_KEYWORDS(FE_X)
#undef FE_X
  FE_NUM_TOKS
  // clang-format on
} fe_tok_kind;

typedef struct fe_token {
  fe_tok_kind kind;
  ir_loc loc;       /* first character, 1-based line:col */
  const char *text; /* NAME: source bytes; STRING, FSTRING_MIDDLE: decoded, NUL-terminated */
  size_t len;       /* NAME, STRING, FSTRING_MIDDLE: length of text */
  uint64_t ival;    /* INT: value (literals are never negative) */
  double fval;      /* FLOAT, IMAG */
  bool is_bytes;    /* STRING: b'' prefix */
  bool is_big;      /* INT: does not fit 64 bits (ival is then meaningless) */
} fe_token;

/* The tokens of one source: an array ending with FE_TOK_EOF. malloc-backed;
 * free with fe_tokens_free. Decoded string contents live in `arena` (the
 * caller's); names point into the source text. Nothing depends on the
 * context but the diagnostics, so tokens of an immutable source (the
 * prelude) can be made once and shared by every compile. */
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
/* The interned name of a NAME (or keyword) token. */
const char *fe_tok_name(ir_context *ctx, const fe_token *t);

/* ---- parser.c, parse_expr.c, parse_atom.c: the AST ---------------------- */

typedef enum fe_op {
  FE_OP_ADD,
  FE_OP_SUB,
  FE_OP_MUL,
  FE_OP_DIV,
  FE_OP_FLOORDIV,
  FE_OP_MOD,
  FE_OP_POW,
  FE_OP_MATMUL,
  FE_OP_SHL,
  FE_OP_SHR,
  FE_OP_BITAND,
  FE_OP_BITOR,
  FE_OP_BITXOR,
  FE_OP_AND,
  FE_OP_OR, /* boolean operators */
  FE_OP_NEG,
  FE_OP_POS,
  FE_OP_INVERT,
  FE_OP_NOT, /* unary */
  FE_OP_EQ,
  FE_OP_NE,
  FE_OP_LT,
  FE_OP_LE,
  FE_OP_GT,
  FE_OP_GE, /* comparisons */
  FE_OP_IS,
  FE_OP_ISNOT,
  FE_OP_IN,
  FE_OP_NOTIN
} fe_op;
/* Python spelling of an operator ("+", "//", "not in"). */
const char *fe_op_str(fe_op op);

typedef enum fe_expr_kind {
  FE_EX_ERROR, /* placeholder after a syntax error (never lowered) */
  FE_EX_NAME,  /* name */
  FE_EX_INT,   /* ival; is_big when the literal exceeds 64 bits */
  FE_EX_FLOAT, /* fval */
  FE_EX_IMAG,  /* fval: 2j (host code) */
  FE_EX_STR,   /* str/slen; is_bytes for b'' */
  FE_EX_TRUE,
  FE_EX_FALSE,
  FE_EX_NONE,
  FE_EX_ELLIPSIS,
  FE_EX_ATTR,      /* a.name */
  FE_EX_CALL,      /* a(items..., kwnames[i]=kwvals[i]...); a STARRED item is *x,
                      a NULL kwname is **kwvals[i] */
  FE_EX_SUBSCRIPT, /* a[b] (b may be a TUPLE of indices) */
  FE_EX_SLICE,     /* a:b:c inside a subscript; each part may be NULL */
  FE_EX_TUPLE,     /* items */
  FE_EX_LIST,      /* items */
  FE_EX_SET,       /* items */
  FE_EX_DICT,      /* items: key, value, key, value, ...; a NULL key is **value */
  FE_EX_LAMBDA,    /* fn: parameters and a body of one `return` */
  FE_EX_UNARY,     /* op a */
  FE_EX_BINARY,    /* a op b (arithmetic, bitwise, and/or) */
  FE_EX_COMPARE,   /* items[0] cmpops[0] items[1] ... (n >= 2) */
  FE_EX_IFEXP,     /* a if b else c */
  FE_EX_STARRED,   /* *a (in calls, displays and assignment targets) */
  FE_EX_WALRUS,    /* a := b (a is a NAME) */
  FE_EX_FSTR,      /* f-string: items are STR pieces and FORMAT fields, in order */
  FE_EX_FORMAT,    /* a replacement field: a the value, ival the conversion ('r', 's',
                      'a' or 0), b the format spec (an FSTR) or NULL */
  FE_EX_COMP,      /* comprehension: ival FE_COMP_*; a the element (dict: key), b the
                      dict value; items the COMP_FOR clauses */
  FE_EX_COMP_FOR   /* `for a in b` then items: its `if` conditions */
} fe_expr_kind;

enum { FE_COMP_LIST, FE_COMP_SET, FE_COMP_DICT, FE_COMP_GEN };

typedef struct fe_expr fe_expr;
typedef struct fe_func fe_func;
struct fe_expr {
  fe_expr_kind kind;
  ir_loc loc;       /* the node's start, or its operator for BINARY/COMPARE */
  ir_loc start;     /* the first character of the whole expression */
  const char *name; /* NAME, ATTR: interned */
  const char *str;  /* STR */
  size_t slen;
  uint64_t ival;
  double fval;
  bool is_big, is_bytes;
  fe_op op;
  fe_expr *a, *b, *c;
  int n; /* TUPLE, LIST, SET, DICT (2 per pair), CALL positional, COMPARE operands */
  fe_expr **items;
  fe_op *cmpops; /* COMPARE: n - 1 operators */
  int nkw;       /* CALL keywords */
  const char **kwnames;
  fe_expr **kwvals;
  fe_func *fn; /* LAMBDA */
};

typedef enum fe_stmt_kind {
  FE_ST_EXPR,      /* value */
  FE_ST_ASSIGN,    /* targets[0] = targets[1] = ... = value */
  FE_ST_AUGASSIGN, /* targets[0] op= value */
  FE_ST_ANNASSIGN, /* targets[0]: annotation [= value] */
  FE_ST_IF,        /* if cond: body else: orelse (elif nests an IF in orelse) */
  FE_ST_FOR,       /* for target in iter: body */
  FE_ST_WHILE,     /* while cond: body */
  FE_ST_BREAK,
  FE_ST_CONTINUE,
  FE_ST_PASS,
  FE_ST_RETURN, /* value may be NULL */
  FE_ST_ASSERT, /* cond, msg may be NULL */
  FE_ST_RAISE,  /* value may be NULL: an error if a kernel reaches it */
  FE_ST_GLOBAL, /* global / nonlocal names: no effect on kernels */
  FE_ST_DEF     /* a nested def (host functions only): fn */
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
  fe_expr *value;         /* EXPR, ASSIGN, AUGASSIGN, ANNASSIGN, RETURN, RAISE */
  fe_expr *annotation;    /* ANNASSIGN */
  fe_op op;               /* AUGASSIGN */
  fe_expr *cond;          /* IF, WHILE, ASSERT */
  fe_expr *target, *iter; /* FOR */
  fe_expr *msg;           /* ASSERT */
  fe_body body, orelse;
  fe_func *fn; /* DEF */
};

typedef enum fe_param_kind {
  FE_PARAM_PLAIN,   /* positional or keyword */
  FE_PARAM_VARARGS, /* *args */
  FE_PARAM_KWARGS   /* **kwargs */
} fe_param_kind;

typedef struct fe_param_decl {
  const char *name; /* interned */
  ir_loc loc;
  fe_expr *annotation; /* may be NULL */
  fe_expr *dflt;       /* may be NULL */
  fe_param_kind kind;
  bool kwonly; /* after `*` or `*args` */
} fe_param_decl;

struct fe_unit;

struct fe_func {
  const char *name; /* interned ("<lambda>" for lambdas) */
  ir_loc loc;       /* the `def` keyword */
  int nparams;
  fe_param_decl *params;
  fe_expr *ret_annotation;
  int ndecorators;
  fe_expr **decorators;
  fe_body body;
  struct fe_unit *unit; /* the module that defines it (set by the lowering) */
  bool is_lambda;
  int kind_cache; /* the lowering's fe_func_kind + 1; 0 until known */
};

/* ---- modindex.c: the top level of a module, skimmed ----------------------- */

/* What a module-level statement binds. Only imports are resolved eagerly;
 * functions and values are parsed when a kernel first uses them; names bound
 * by host code ttc does not run are errors where a kernel uses them. */
typedef enum fe_bind_kind {
  FE_BIND_IMPORT, /* import / from-import: imp */
  FE_BIND_FUNC,   /* def (decorated or not): tokens from `at` */
  FE_BIND_VALUE,  /* NAME [: ann] = value: the value's tokens from `at` */
  FE_BIND_HOST    /* bound by host code (a class, a loop, a `with` target, ...): `what` */
} fe_bind_kind;

typedef struct fe_import_spec {
  int level;          /* leading dots of a relative import */
  const char *module; /* dotted module name ("" for `from . import x`) */
  const char *attr;   /* from-import: the imported name; NULL for `import m` */
} fe_import_spec;

typedef struct fe_bind {
  const char *name; /* NUL-terminated, in the index's arena */
  fe_bind_kind kind;
  ir_loc loc;       /* where the name is bound */
  int at;           /* FUNC: first decorator or `def`; VALUE: the value's first token */
  int ann;          /* VALUE: the annotation's first token, or -1 */
  const char *what; /* HOST: the construct that binds it ("a class", "a for loop") */
  fe_import_spec imp;
  int cond;      /* the module-level `if` clause it is under (conds), or -1 */
  bool fallback; /* bound in an `except` handler: used when the `try` body's fails */
  int prev;      /* the previous binding of the same name, or -1 */
} fe_bind;

/* Clause `clause` of a module-level `if`: its tests (token positions, -1 for
 * `else`) are tests[first .. first + clause]; the clause runs when the earlier
 * tests are false and its own is true. */
typedef struct fe_cond {
  int parent; /* the enclosing clause, or -1 */
  int first, clause;
  ir_loc loc;
} fe_cond;

typedef struct fe_modindex {
  const ir_source *src;
  fe_tokens toks;
  bool lex_ok;
  fe_bind *binds;
  int nbinds;
  fe_cond *conds;
  int nconds;
  int *tests;
  int ntests;
  int *stars; /* `from m import *`: bindings (kind IMPORT, attr "*") */
  int nstars;
  int *table; /* open-addressing hash of the last binding per name; -1 empty */
  int table_cap;
} fe_modindex;

/* Lexes `src` and skims its top level into `ix` (tokens and arrays in
 * `arena`). False after a lexical error (reported on ctx); skimming itself
 * never fails. */
bool fe_modindex_build(ir_context *ctx, const ir_source *src, ir_arena *arena, fe_modindex *ix);
/* The last binding of `name` (then follow `prev`), or -1. */
int fe_modindex_find(const fe_modindex *ix, const char *name);

/* ---- parser.c: parsing on demand ----------------------------------------- */

/* Parser internals shared by parser.c (statements) and parse_expr.c. */
typedef struct fe_parser {
  ir_context *ctx;
  ir_arena *arena;
  const ir_source *src;
  const fe_token *toks;
  int pos, ntoks;
  bool panic; /* an error was reported in the current statement */
  int nerrors;
  int depth;  /* recursion depth of the expression parser */
  bool quiet; /* errors are counted, not reported (host code: see first_error) */
  char first_error[160];
  ir_loc first_error_loc;
} fe_parser;

/* A parser over the module's tokens at `pos`. */
void fe_parser_init(fe_parser *p, ir_context *ctx, ir_arena *arena, const fe_modindex *ix, int pos);
/* decorated: decorator* funcdef, at p->pos. NULL after errors. */
fe_func *fe_parse_funcdef(fe_parser *p);
/* The value of a module-level binding (VALUE): a test list at p->pos. */
fe_expr *fe_parse_value(fe_parser *p);

/* A module parsed eagerly (every function and value), for tests and tools. */
typedef struct fe_module {
  const ir_source *src;
  fe_modindex ix;
  int nfuncs;
  fe_func **funcs;
} fe_module;

/* Parses a whole kernel file eagerly: every decorated function and every
 * module value (host statements and undecorated defs are skipped). Every
 * node is allocated in `arena` (the caller's). Returns NULL if any error
 * was emitted (lexical, or syntactic in what it parses). */
fe_module *fe_parse(ir_context *ctx, const ir_source *src, ir_arena *arena);

/* The function named `name`, or NULL. Borrowed from the module. */
fe_func *fe_module_find_func(const fe_module *mod, const char *name);

/* The deepest expression the parser accepts (recursion in the parser and,
 * for left-nested chains such as a+b+c+..., in the lowering): far beyond
 * real kernels, well within the C stack even under AddressSanitizer. */
#define FE_MAX_EXPR_DEPTH 1000
/* Parameters of one function (a def or a lambda), as docs/language.md states. */
#define FE_MAX_PARAMS 128
/* The most tokens one file may have: each takes 64 bytes, twice while the
 * index copies them, and a 12 MB file of `x = 1` lines (12M tokens) took
 * 2 GB before anything else was checked. The 100k-statement benchmark
 * kernel has 1.2M. */
#define FE_MAX_TOKENS (1 << 22)

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
/* The interned name of the NAME token t. */
const char *fe_parse_name(fe_parser *p, const fe_token *t);
fe_expr *fe_new_expr(fe_parser *p, fe_expr_kind kind, ir_loc loc);
void *fe_parse_alloc(fe_parser *p, size_t size);
/* expression: test (`a if c else b` and below). */
fe_expr *fe_parse_test(fe_parser *p);
/* testlist: test (',' test)* [','] -> a TUPLE when a comma is present;
 * starred items are allowed (`a, *b = ...`, `return *x, y`). */
fe_expr *fe_parse_testlist(fe_parser *p);
/* test | '*' expr, where a starred item may stand (test lists, displays). */
fe_expr *fe_parse_star_test(fe_parser *p);
/* or_test: the iterable and conditions of comprehension clauses. */
fe_expr *fe_parse_or_test(fe_parser *p);
/* exprlist: expr (',' expr)* [','] (for-loop targets). */
fe_expr *fe_parse_exprlist(fe_parser *p);
/* True if the token can start an expression. */
bool fe_tok_starts_expr(fe_tok_kind k);
/* parameters of a def or a lambda, up to `close` (')' or ':'). */
void fe_parse_params(fe_parser *p, fe_func *fn, fe_tok_kind close);
/* parse_atom.c: atoms (literals, displays, comprehensions, f-strings). */
fe_expr *fe_parse_atom(fe_parser *p);
/* The `for ... in ... if ...` clauses of a comprehension, into e->items. */
void fe_parse_comp_clauses(fe_parser *p, fe_expr *e);
/* Guards the parser's recursion; a caller that got true calls fe_parse_leave. */
bool fe_parse_enter(fe_parser *p, ir_loc loc);
void fe_parse_leave(fe_parser *p);
/* A growable list of expressions built in the arena (copied on finish). */
typedef struct fe_expr_list {
  fe_expr *inline_items[16];
  fe_expr **items;
  int n, cap;
} fe_expr_list;
void fe_list_init(fe_expr_list *l);
void fe_list_push(fe_parser *p, fe_expr_list *l, fe_expr *e);
fe_expr **fe_list_finish(fe_parser *p, fe_expr_list *l);

/* ---- signature.c: Triton AOT signatures ---------------------------------- */

/* The kinds of constexpr values a signature carries. */
typedef enum fe_const_kind {
  FE_CONST_INT,
  FE_CONST_FLOAT,
  FE_CONST_BOOL,
  FE_CONST_STR,  /* 'gelu' (quoted in the signature) */
  FE_CONST_NONE, /* None */
  FE_CONST_DTYPE /* tl.float16 or fp16 (for a constexpr parameter) */
} fe_const_kind;

/* fe_param.divisibility of a tensor descriptor's last stride: the kernel
 * takes it as 1, and launches check that the argument is 1. */
#define FE_DIV_ONE (-1)

typedef struct fe_param {
  const char *name; /* interned */
  bool is_constexpr;
  bool is_specialized;      /* a runtime parameter given a value in the signature */
  ttc_type type;            /* TTC_TYPE_* from include/ttc/base.h; PTR for pointers */
  ttc_type pointee;         /* element type for pointers */
  int divisibility;         /* 16 for ':16' (a descriptor's strides: 16 bytes in
                               elements), FE_DIV_ONE for a value that must be 1, else 0 */
  char value_text[64];      /* constexpr value as written ("1024") */
  fe_const_kind const_kind; /* the parsed constexpr value (when is_constexpr) */
  int64_t ival;             /* INT, BOOL (0/1) */
  double fval;              /* FLOAT */
  const char *sval;         /* STR: the unquoted text (arena) */
  ttc_type dtype;           /* DTYPE */
  ir_loc sig_loc;           /* the entry in the "<signature>" source */
  /* A tensor descriptor argument (tensordesc<fp16[64,64]>) is passed as its
   * base pointer (this entry: desc_rank > 0, desc_block) followed by
   * desc_rank i32 shape and desc_rank i64 stride entries (desc_part). */
  int desc_rank;
  int64_t desc_block[IR_MAX_RANK];
  bool desc_part;
} fe_param;

typedef struct fe_kernel_info {
  int nparams;
  fe_param *params;
  /* Modules read from files other than the kernel's own file and the
   * prelude (imports of the user's modules): a cache key over the kernel
   * file alone does not cover them. */
  int nmodules;
  /* Host code read the environment (os.getenv, os.environ): the cache key
   * does not cover it either. */
  bool reads_environment;
} fe_kernel_info;

/* One parsed signature entry: either a type or a constexpr value. A type
 * name may also be a dtype value: that is decided against the parameter. */
typedef struct fe_sig_entry {
  bool is_value;          /* a constexpr value rather than a type */
  ttc_type type, pointee; /* types */
  int divisibility;
  fe_const_kind const_kind; /* values */
  int64_t ival;
  double fval;
  const char *sval;   /* STR */
  ttc_type dtype;     /* DTYPE */
  int desc_rank;      /* tensordesc<T[b0,b1]>: rank and block shape (type is PTR to T) */
  int desc_shape_div; /* tensordesc<...>:16: each shape value a multiple of 16, else 0 */
  int64_t desc_block[IR_MAX_RANK];
  char text[64]; /* as written, trimmed */
  ir_loc loc;    /* in the "<signature>" source */
} fe_sig_entry;

/* Parses a signature string into entries (allocated in `arena`), registering
 * it as the source "<signature>" so errors point into it. Returns the number
 * of entries, or -1 after emitting errors. */
int fe_parse_signature(ir_context *ctx, const char *signature, ir_arena *arena, fe_sig_entry **out);

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

/* Where imported modules are looked for (besides the importing file's
 * package): borrowed strings. */
typedef struct fe_search_path {
  int n;
  const char *const *dirs;
} fe_search_path;

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
  FE_HX_CONST,  /* c */
  FE_HX_ARG,    /* args['name'] */
  FE_HX_UNARY,  /* op a (FE_OP_NEG, POS, INVERT, NOT) */
  FE_HX_BINARY, /* a op b (arithmetic, bitwise, AND/OR, comparisons) */
  FE_HX_IFEXP,  /* a if b else c */
  FE_HX_CALL    /* name(args[0..n)) */
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
  bool has_prune;        /* prune_configs_by was given (host functions: not run) */
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

/* ---- decorators.c: the arguments of a kernel's decorators ----------------- */

/* A constexpr value: the kinds a signature carries (strings borrowed from
 * the fe_decorators that made them). */
typedef struct fe_cvalue {
  fe_const_kind kind;
  int64_t ival;     /* INT, BOOL */
  double fval;      /* FLOAT */
  const char *sval; /* STR */
  ttc_type dtype;   /* DTYPE */
} fe_cvalue;

/* One triton.Config: its constexprs and launch options (0: not given). */
typedef struct fe_autotune_config {
  int nkw;
  const char **names;
  fe_cvalue *values;
  int num_warps, num_stages, num_ctas, maxnreg;
} fe_autotune_config;

/* What a kernel's decorators say, evaluated as Python at compile time. The
 * runtime's autotuner (issue 10) reads it; everything is owned by the
 * object (fe_decorators_free). When an argument depends on host state ttc
 * cannot evaluate, the *_evaluated flag is false, *_why says why, and a
 * remark in `diagnostics` names the expression: that decorator contributes
 * nothing, and it is the caller's error only if it asked to autotune. */
typedef struct fe_decorators {
  bool found; /* the kernel exists (else diagnostics say why) */
  bool has_autotune, autotune_evaluated;
  char autotune_why[256];
  int nconfigs;
  fe_autotune_config *configs;
  int nkeys;
  const char **keys; /* autotune key: parameter names */
  bool has_heuristics, heuristics_evaluated;
  char heuristics_why[256];
  int nheuristics;
  const char **heuristics; /* the constexprs heuristics compute, in order */
  bool debug;              /* @triton.jit(debug=True) */
  int ndo_not_specialize;
  const char **do_not_specialize;
  char *diagnostics; /* rendered remarks and errors ("" when none) */
  struct fe_decorators_impl *impl;
} fe_decorators;

/* Evaluates the decorators of `kernel` in a kernel file held in memory
 * (imports resolved as for a compile). NULL only when memory ran out. */
fe_decorators *fe_decorators_eval(const char *source, size_t len, const char *filename,
                                  const char *kernel, const fe_search_path *search);
/* Runs heuristic `name` (a lambda taking Triton's `args` dict) on the
 * launch arguments and constexprs given by name; false with the reason in
 * err when it fails or returns something that is not a constexpr. */
bool fe_decorators_heuristic(fe_decorators *d, const char *name, int nargs,
                             const char *const *arg_names, const fe_cvalue *arg_values,
                             fe_cvalue *out, char *err, size_t errcap);
void fe_decorators_free(fe_decorators *d);

/* ---- lower.c: entry point ------------------------------------------------ */

/* Parses `src`, finds @triton.jit function `kernel`, applies `signature`, lowers to ttir.
   Imported modules are found through src's package and `search` (may be NULL).
   Returns a new module (caller destroys) or NULL after emitting diagnostics on ctx.
   info->params is allocated in the module's side arena (valid until it is destroyed). */
ir_module *fe_lower_kernel(ir_context *ctx, const ir_source *src, const char *kernel,
                           const char *signature, const fe_search_path *search,
                           fe_kernel_info *info);

#endif
