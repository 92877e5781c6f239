// SPDX-License-Identifier: MIT
/* parser_impl.h - state shared by the IR text parser's files: parser.c
 * (lexer, errors, value scopes, types), parser_attrs.c (layouts and
 * attributes), parser_module.c (module,
 * regions, blocks, op statements, the generic form, locations) and
 * parser_ops.c (the custom forms print_ops.c prints). The parser reads
 * exactly what printer.c and print_ops.c write; it stops at the first error,
 * which it emits located at the offending token. */
#ifndef TTC_IR_PARSER_IMPL_H
#define TTC_IR_PARSER_IMPL_H

#include "ir-tt/ir.h"

typedef enum pt_kind {
  PT_EOF,
  PT_IDENT,  /* bare identifier: tt.load, i32, slt, true */
  PT_VALUE,  /* %name or %name#N (text without '%'; `idx` holds N or -1) */
  PT_BLOCK,  /* ^bb0 */
  PT_SYMBOL, /* @name */
  PT_HASH,   /* #blocked, #ttg.blocked */
  PT_BANG,   /* !tt.ptr */
  PT_STRING, /* "text" (raw, with quotes; decode with ir_ps_string) */
  PT_INT,    /* 42, -7, 0x7FC00000 */
  PT_FLOAT,  /* 1.000000e+00, -0.5 */
  PT_ARROW,  /* -> */
  PT_PUNCT   /* one of ( ) { } [ ] < > , : = * ? */
} pt_kind;

typedef struct ptok {
  pt_kind kind;
  const char *s; /* the token's text in the source (after the sigil for VALUE...) */
  size_t n;
  int idx; /* PT_VALUE: the #N result index, -1 if none */
  uint32_t line, col;
} ptok;

/* A visible SSA name: one value, or a group of `count` results (%x:2). */
typedef struct pname {
  const char *s;
  size_t n;
  ir_value *v; /* count == 1: the value; count > 1: the first of op->results */
  int count;
  uint32_t hash; /* of the name's bytes */
  long prev;     /* the next older name in the same bucket, or -1 */
} pname;

/* Buckets of the SSA-name stack (a power of two): each heads a chain of
 * names, newest first, so a lookup finds the innermost definition without
 * scanning the stack (a linear scan made long functions quadratic). This
 * many at first; doubled whenever the names outnumber them, so chains stay
 * short on 100k-op functions. */
#define IR_PS_NAME_BUCKETS 65536

/* A layout alias (#blocked = ...) or a location file (loc("f":1:2)). */
typedef struct palias {
  const char *s;
  size_t n;
  const ir_attr *attr;
} palias;

typedef struct psource {
  const char *name;
  size_t n;
  const ir_source *src;
} psource;

typedef struct parser {
  ir_context *ctx;
  ir_module *m;
  const ir_source *src;
  const char *cur, *end;  /* the unlexed rest */
  uint32_t line;          /* line of `cur` */
  const char *line_start; /* start of that line */
  ptok tok;               /* the lookahead, valid when has_tok */
  bool has_tok;
  bool failed;  /* an error was emitted: unwind */
  pname *names; /* scope stack of SSA names (malloc'd) */
  size_t nnames, names_cap;
  long *name_buckets; /* name_nbuckets chain heads, malloc'd on first use */
  size_t name_nbuckets;
  size_t scope_mark; /* first name of the innermost scope */
  palias *aliases;   /* malloc'd */
  int naliases, aliases_cap;
  psource *sources; /* loc("file") sources, malloc'd */
  int nsources, sources_cap;
  int depth; /* open nested types and regions (ir_ps_nest) */
} parser;

/* How deeply types (!tt.ptr<!tt.ptr<...>>) and regions may nest: the
 * parser, and every pass after it, recurses once per level. */
#define IR_PARSE_MAX_DEPTH 256

/* ---- parser.c ----------------------------------------------------------- */

/* Opens one level of nesting at the lookahead; false (diagnosed) past
 * IR_PARSE_MAX_DEPTH. A caller that got true calls ir_ps_unnest. */
bool ir_ps_nest(parser *p);
void ir_ps_unnest(parser *p);

/* The lookahead token (lexed on demand). */
const ptok *ir_ps_peek(parser *p);
/* Consumes and returns the lookahead. */
ptok ir_ps_next(parser *p);
bool ir_ps_is_punct(parser *p, char c);
bool ir_ps_is_ident(parser *p, const char *word);
/* Consumes punctuation c if it is next. */
bool ir_ps_accept(parser *p, char c);
bool ir_ps_accept_ident(parser *p, const char *word);
/* Consumes punctuation c or fails with "expected 'c' <context>". */
bool ir_ps_expect(parser *p, char c, const char *context);
bool ir_ps_expect_ident(parser *p, const char *word, const char *context);
bool ir_ps_expect_arrow(parser *p, const char *context);
/* Emits a located error at `t` (NULL: the lookahead) and sets p->failed. */
bool ir_ps_error(parser *p, const ptok *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
ir_loc ir_ps_loc(const parser *p, const ptok *t);
/* Decodes a PT_STRING token into an interned string. */
const char *ir_ps_string(parser *p, const ptok *t);
bool ir_ps_tok_is(const ptok *t, const char *word);
/* An integer token (decimal, or hex bits) as int64; false when malformed
 * or out of range. */
bool ir_ps_parse_int(const ptok *t, int64_t *out);

/* Value scopes: push returns the old mark for ir_ps_scope_pop. */
size_t ir_ps_scope_push(parser *p);
void ir_ps_scope_pop(parser *p, size_t mark);
/* Binds %name (count > 1: a result group) in the innermost scope; sets the
 * values' name hints unless the name is a number. */
bool ir_ps_define(parser *p, const ptok *name, ir_value *v, int count);
/* The value a PT_VALUE token names; NULL after an error. */
ir_value *ir_ps_use(parser *p, const ptok *t);
/* `%a, %b, ...` (possibly empty when allow_empty); values into *vals
 * (malloc'd, caller frees), count into *n. Token positions into *toks when
 * not NULL (malloc'd too). With kw_after, a ',' followed by an identifier
 * ends the list (`%c, inputPrecision = tf32`) and sets *kw_after. */
bool ir_ps_operand_list(parser *p, bool allow_empty, ir_value ***vals, int *n, ptok **toks,
                        bool *kw_after);
/* Checks that a value has the type the text states. */
bool ir_ps_check_type(parser *p, const ptok *t, const ir_value *v, const ir_type *ty);

const ir_type *ir_ps_type(parser *p);
/* (parser_attrs.c from here) */
/* `T, T, ...` (at least one) into a malloc'd array. */
bool ir_ps_type_list(parser *p, const ir_type ***tys, int *n);
/* `(T, ...)` or a single T (when allow_bare); empty parens allowed. */
bool ir_ps_paren_types(parser *p, bool allow_bare, const ir_type ***tys, int *n);
const ir_attr *ir_ps_layout(parser *p);
/* The body of a memdesc type after `<`: `128x64xf16, #shared, #smem[, mutable]>`
 * (async copies print it without the `!ttg.memdesc` prefix). */
const ir_type *ir_ps_memdesc_body(parser *p);
/* An attribute value; `name` is its key (selects enum numbering), `kind` the op. */
const ir_attr *ir_ps_attr_value(parser *p, const char *name, ir_op_kind kind);
/* `{k = v, k2, ...}` into op (open is '{' or '<' for `<{...}>`). */
bool ir_ps_attr_dict(parser *p, ir_op *op, bool angled);
/* Attributes parsed before the op exists: a malloc'd list. */
typedef struct pattrs {
  ir_named_attr *a;
  int n, cap;
} pattrs;
bool ir_ps_attr_dict_into(parser *p, pattrs *out, bool angled, ir_op_kind kind);
void ir_ps_attrs_apply(parser *p, ir_op *op, pattrs *a); /* sets and frees */
/* The numbering of an enum keyword for attribute `name` of op `kind`. */
bool ir_ps_enum_value(const char *name, ir_op_kind kind, const char *kw, int64_t *value);

/* ---- parser_module.c ---------------------------------------------------- */

/* Parses `{ ... }` into region r. Entry arguments already bound by the op
 * syntax go in (entry_types, entry_names); with_terminator: append an empty
 * scf.yield to blocks that lack a terminator (scf.for / scf.if bodies). */
bool ir_ps_region(parser *p, ir_region *r, int nargs, const ir_type *const *entry_types,
                  const ptok *entry_names, bool with_terminator);

/* ---- parser_ops.c ------------------------------------------------------- */

/* Parses the custom form of op `kind` after its name (the token `name`).
 * Returns the detached op, NULL after an error. */
ir_op *ir_ps_custom_op(parser *p, ir_op_kind kind, const ptok *name, ir_loc loc);

#endif
