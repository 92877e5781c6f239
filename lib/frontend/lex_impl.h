/* lex_impl.h - the lexer's state, shared by lexer.c (structure, names,
 * operators) and lex_literal.c (numbers, strings, f-strings). Internal to
 * those two files. */
#ifndef TTC_LEX_IMPL_H
#define TTC_LEX_IMPL_H

#include <stdarg.h>
#include <stdlib.h>

#include "frontend/fe.h"

#define LEX_MAX_INDENT 100
#define LEX_MAX_NEST 200
#define LEX_MAX_FMODES 64

/* f-string state, innermost last: the literal text of an f-string, the
 * expression of a replacement field, or the format spec after its ':'. */
typedef enum lex_fmode_kind { LEX_STRING_TEXT, LEX_FIELD_EXPR, LEX_FIELD_SPEC } lex_fmode_kind;

typedef struct lex_fmode {
  lex_fmode_kind kind;
  char quote; /* of the f-string this entry belongs to */
  bool triple, raw;
  int nest_base; /* fields: the bracket depth just after their '{' */
  ir_loc loc;    /* where the f-string or field starts */
} lex_fmode;

typedef struct lexer {
  ir_context *ctx;
  const ir_source *src;
  ir_arena *arena;
  const char *s; /* text */
  size_t len, pos;
  uint32_t line;
  size_t line_start; /* offset of the current line's first byte */
  fe_tokens *out;
  int cap;
  int indents[LEX_MAX_INDENT], alt_indents[LEX_MAX_INDENT];
  int nindents;
  char nest[LEX_MAX_NEST]; /* open brackets, innermost last */
  ir_loc nest_loc[LEX_MAX_NEST];
  int nnest;
  int nest_extra; /* brackets opened past LEX_MAX_NEST (reported once) */
  lex_fmode fmodes[LEX_MAX_FMODES];
  int nfmodes;
  bool at_line_start;
  bool line_has_tokens; /* a token was emitted on the current logical line */
  bool failed;
} lexer;

static inline char fe_lex_cur(const lexer *lx) { return lx->pos < lx->len ? lx->s[lx->pos] : '\0'; }
static inline char fe_lex_at(const lexer *lx, size_t k) {
  return lx->pos + k < lx->len ? lx->s[lx->pos + k] : '\0';
}

/* lexer.c */
ir_loc fe_lex_loc_at(const lexer *lx, size_t off);
void fe_lex_error(lexer *lx, ir_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
fe_token *fe_lex_push(lexer *lx, fe_tok_kind kind, ir_loc loc);
void fe_lex_newline(lexer *lx);
void fe_lex_open(lexer *lx, char open, ir_loc loc);
bool fe_lex_is_name_start(char c);
bool fe_lex_is_name_char(char c);

/* lex_literal.c */
void fe_lex_number(lexer *lx);
/* A string literal whose quote is at pos and prefix at b (flags: LEX_RAW, LEX_BYTES). */
enum { LEX_RAW = 1, LEX_BYTES = 2 };
void fe_lex_string(lexer *lx, size_t b, int flags);
/* If [b, e) is a string prefix followed by a quote, lexes the string (or
 * starts the f-string) and returns true. */
bool fe_lex_prefixed_string(lexer *lx, size_t b, size_t e);
/* Literal text inside an f-string or a format spec, up to the next field,
 * the end of the spec or the closing quote. */
void fe_lex_fstring_text(lexer *lx);

#endif
