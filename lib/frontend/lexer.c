// SPDX-License-Identifier: MIT
/* lexer.c - Python 3 tokens for whole kernel files: names, numbers of every
 * form, strings with every prefix, f-strings (nested, 3.12 rules), every
 * operator, and the INDENT/DEDENT/NEWLINE structure of logical lines.
 *
 * Follows CPython's tokenizer: newlines inside () [] {} and after a trailing
 * backslash join lines; indentation is measured with tab stops of 8 and of 1
 * and the two must agree, which catches inconsistent tab/space mixing.
 * Host code is tokenized like kernels, so a valid Python module never fails
 * here; literals (strings, numbers) are in lex_literal.c. */
#include <ctype.h>
#include <string.h>

#include "frontend/lex_impl.h"

const char *fe_tok_kind_name(fe_tok_kind k) {
  static const char *const quoted_punct[] = {
#define FE_X(E, S) "'" S "'",
      FE_PUNCTS(FE_X)
#undef FE_X
  };
  static const char *const quoted_kw[] = {
#define FE_X(E, S) "'" S "'",
      FE_KEYWORDS(FE_X)
#undef FE_X
  };
  switch (k) {
  case FE_TOK_EOF: return "end of file";
  case FE_TOK_NEWLINE: return "newline";
  case FE_TOK_INDENT: return "indent";
  case FE_TOK_DEDENT: return "dedent";
  case FE_TOK_NAME: return "name";
  case FE_TOK_INT: return "integer";
  case FE_TOK_FLOAT: return "float";
  case FE_TOK_IMAG: return "imaginary number";
  case FE_TOK_STRING: return "string";
  case FE_TOK_FSTRING_START: return "f-string";
  case FE_TOK_FSTRING_MIDDLE: return "f-string text";
  case FE_TOK_FSTRING_END: return "end of f-string";
  case FE_NUM_TOKS: return "?";
  default: break; /* punctuators and keywords: tables below */
  }
  if (k >= FE_TOK_POWEQ && k < FE_TOK_KW_FALSE) return quoted_punct[k - FE_TOK_POWEQ];
  if (k >= FE_TOK_KW_FALSE && k < FE_NUM_TOKS) return quoted_kw[k - FE_TOK_KW_FALSE];
  return "?";
}

const char *fe_tok_name(ir_context *ctx, const fe_token *t) {
  return ir_intern(ctx, t->text ? t->text : "", t->text ? t->len : 0);
}

ir_loc fe_lex_loc_at(const lexer *lx, size_t off) {
  ir_loc loc = {lx->src, lx->line, (uint32_t)(off - lx->line_start + 1)};
  return loc;
}

void fe_lex_error(lexer *lx, ir_loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_vemit(lx->ctx, IR_SEV_ERROR, loc, fmt, ap);
  va_end(ap);
  lx->failed = true;
}

/* Appends a token; the array grows by doubling. */
fe_token *fe_lex_push(lexer *lx, fe_tok_kind kind, ir_loc loc) {
  if (lx->out->n == lx->cap) {
    int ncap = lx->cap ? lx->cap * 2 : 256;
    fe_token *t = realloc(lx->out->toks, (size_t)ncap * sizeof *t);
    if (!t) IR_UNREACHABLE("out of memory in the lexer");
    lx->out->toks = t;
    lx->cap = ncap;
  }
  fe_token *t = &lx->out->toks[lx->out->n++];
  memset(t, 0, sizeof *t);
  t->kind = kind;
  t->loc = loc;
  if (kind != FE_TOK_NEWLINE && kind != FE_TOK_INDENT && kind != FE_TOK_DEDENT)
    lx->line_has_tokens = true;
  return t;
}

/* Consumes a newline ("\n", "\r\n" or "\r") at pos and starts a new line. */
void fe_lex_newline(lexer *lx) {
  if (fe_lex_cur(lx) == '\r' && fe_lex_at(lx, 1) == '\n') lx->pos++;
  lx->pos++;
  lx->line++;
  lx->line_start = lx->pos;
}

/* At the start of a logical line: measures indentation and emits INDENT or
 * DEDENTs. Blank and comment-only lines are skipped entirely. */
static void lex_indentation(lexer *lx) {
  for (;;) {
    int col = 0, alt = 0;
    size_t p = lx->pos;
    while (p < lx->len && (lx->s[p] == ' ' || lx->s[p] == '\t' || lx->s[p] == '\f')) {
      if (lx->s[p] == ' ')
        col++, alt++;
      else if (lx->s[p] == '\t')
        col = (col / 8 + 1) * 8, alt++;
      else
        col = alt = 0; /* form feed resets, as CPython */
      p++;
    }
    char c = p < lx->len ? lx->s[p] : '\0';
    if (c == '#') { /* comment-only line */
      while (p < lx->len && lx->s[p] != '\n' && lx->s[p] != '\r')
        p++;
      c = p < lx->len ? lx->s[p] : '\0';
    }
    if (c == '\\' && p + 1 < lx->len && (lx->s[p + 1] == '\n' || lx->s[p + 1] == '\r')) {
      /* a continuation on an otherwise blank line joins nothing */
      lx->pos = p + 1;
      fe_lex_newline(lx);
      continue;
    }
    if (c == '\n' || c == '\r') { /* blank line */
      lx->pos = p;
      fe_lex_newline(lx);
      continue;
    }
    lx->pos = p;
    if (p >= lx->len) return; /* EOF: the caller closes the indents */
    ir_loc loc = fe_lex_loc_at(lx, p);
    int top = lx->indents[lx->nindents - 1], alt_top = lx->alt_indents[lx->nindents - 1];
    if (col == top) {
      if (alt != alt_top)
        fe_lex_error(lx, loc, "inconsistent use of tabs and spaces in indentation");
    } else if (col > top) {
      if (alt <= alt_top)
        fe_lex_error(lx, loc, "inconsistent use of tabs and spaces in indentation");
      if (lx->nindents == LEX_MAX_INDENT) {
        fe_lex_error(lx, loc, "too many levels of indentation (more than %d)", LEX_MAX_INDENT - 1);
        return;
      }
      lx->indents[lx->nindents] = col;
      lx->alt_indents[lx->nindents++] = alt;
      fe_lex_push(lx, FE_TOK_INDENT, loc);
    } else {
      while (lx->nindents > 1 && col < lx->indents[lx->nindents - 1]) {
        lx->nindents--;
        fe_lex_push(lx, FE_TOK_DEDENT, loc);
      }
      if (col != lx->indents[lx->nindents - 1])
        fe_lex_error(lx, loc, "unindent does not match any outer indentation level");
      else if (alt != lx->alt_indents[lx->nindents - 1])
        fe_lex_error(lx, loc, "inconsistent use of tabs and spaces in indentation");
    }
    return;
  }
}

/* Identifiers: ASCII letters, digits, '_' and any non-ASCII byte (Python
 * identifiers may be Unicode; their UTF-8 bytes are all >= 0x80). */
bool fe_lex_is_name_start(char c) {
  return isalpha((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}
bool fe_lex_is_name_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

/* The keyword spelled by [s, s+n), or FE_TOK_NAME. Length and first byte
 * filter the table, so a name costs a few integer compares. */
static fe_tok_kind keyword_kind(const char *s, size_t n) {
  static const struct {
    const char *s;
    unsigned char n;
    fe_tok_kind k;
  } kws[] = {
#define FE_X(E, S) {S, sizeof S - 1, FE_TOK_KW_##E},
      FE_KEYWORDS(FE_X)
#undef FE_X
  };
  if (n < 2 || n > 8) return FE_TOK_NAME;
  for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++)
    if (kws[i].n == n && kws[i].s[0] == s[0] && memcmp(kws[i].s, s, n) == 0) return kws[i].k;
  return FE_TOK_NAME;
}

/* The punctuator at pos, longest first; 0 length if none. */
static int punct_at(const lexer *lx, fe_tok_kind *kind) {
  static const struct {
    char s[4];
    unsigned char n;
    fe_tok_kind k;
  } puncts[] = {
#define FE_X(E, S) {S, sizeof S - 1, FE_TOK_##E},
      FE_PUNCTS(FE_X)
#undef FE_X
  };
  /* The table lists the 3-character spellings first, then 2, then 1. */
  const char *p = lx->s + lx->pos;
  size_t left = lx->len - lx->pos;
  for (size_t i = 0; i < sizeof puncts / sizeof puncts[0]; i++)
    if (puncts[i].s[0] == p[0] && puncts[i].n <= left && memcmp(puncts[i].s, p, puncts[i].n) == 0) {
      *kind = puncts[i].k;
      return puncts[i].n;
    }
  return 0;
}

/* Records an opening bracket (for line joining and matching). */
void fe_lex_open(lexer *lx, char open, ir_loc loc) {
  if (lx->nnest == LEX_MAX_NEST) {
    /* One error, not one per bracket (each would print the line). */
    if (lx->nest_extra++ == 0)
      fe_lex_error(lx, loc, "too many nested parentheses (more than %d)", LEX_MAX_NEST);
  } else {
    lx->nest[lx->nnest] = open;
    lx->nest_loc[lx->nnest++] = loc;
  }
}

/* Matches a closing bracket; false (after an error) when it must be dropped. */
static bool lex_close(lexer *lx, char close, ir_loc loc) {
  char open = close == ')' ? '(' : close == ']' ? '[' : '{';
  if (lx->nest_extra > 0) {
    lx->nest_extra--; /* closes one of the unrecorded brackets */
  } else if (lx->nnest == 0) {
    fe_lex_error(lx, loc, "unmatched '%c'", close);
    return false;
  } else if (lx->nest[lx->nnest - 1] != open) {
    fe_lex_error(lx, loc, "closing parenthesis '%c' does not match opening parenthesis '%c'", close,
                 lx->nest[lx->nnest - 1]);
    return false;
  } else {
    lx->nnest--;
  }
  return true;
}

/* The innermost f-string replacement field whose expression is being lexed,
 * or NULL. Inside it, '}' at the field's own bracket depth ends the field,
 * and ':' / '!' there start the format spec / the conversion. */
static lex_fmode *expr_field(lexer *lx) {
  if (lx->nfmodes == 0) return NULL;
  lex_fmode *m = &lx->fmodes[lx->nfmodes - 1];
  return m->kind == LEX_FIELD_EXPR ? m : NULL;
}

/* One punctuator, with bracket bookkeeping and the f-string field rules. */
static bool lex_punct(lexer *lx) {
  fe_tok_kind k;
  int n = punct_at(lx, &k);
  if (n == 0) return false;
  ir_loc loc = fe_lex_loc_at(lx, lx->pos);
  lex_fmode *field = expr_field(lx);
  bool at_field_level = field && lx->nnest == field->nest_base;
  if (at_field_level && lx->s[lx->pos] == ':') k = FE_TOK_COLON; /* f"{x:=10}": spec "=10" */
  if (at_field_level && (k == FE_TOK_COLON || k == FE_TOK_EXCL)) {
    lx->pos++;
    fe_lex_push(lx, k, loc);
    if (k == FE_TOK_COLON) field->kind = LEX_FIELD_SPEC; /* the spec is literal text */
    return true;
  }
  if (at_field_level && k == FE_TOK_RBRACE) {
    lx->pos++;
    lex_close(lx, '}', loc);
    fe_lex_push(lx, k, loc);
    lx->nfmodes--; /* back to the enclosing literal */
    return true;
  }
  if (k == FE_TOK_EXCL) {
    fe_lex_error(lx, loc, "unexpected character '!'");
    lx->pos++;
    return true;
  }
  lx->pos += (size_t)n;
  if (k == FE_TOK_LPAREN || k == FE_TOK_LBRACKET || k == FE_TOK_LBRACE) {
    fe_lex_open(lx, lx->s[lx->pos - 1], loc);
  } else if (k == FE_TOK_RPAREN || k == FE_TOK_RBRACKET || k == FE_TOK_RBRACE) {
    if (!lex_close(lx, lx->s[lx->pos - 1], loc)) return true; /* dropped */
  }
  fe_lex_push(lx, k, loc);
  return true;
}

/* Ends the current logical line with NEWLINE if it produced tokens. */
static void lex_end_line(lexer *lx, size_t at) {
  if (lx->line_has_tokens) fe_lex_push(lx, FE_TOK_NEWLINE, fe_lex_loc_at(lx, at));
  lx->line_has_tokens = false;
  lx->at_line_start = true;
}

/* Whether code point cp may appear in a Python identifier. Not the whole
 * XID tables: the blocks that hold no letters Python accepts (Latin-1
 * punctuation and symbols, general punctuation with the zero-width space,
 * arrows, math and technical symbols, box drawing, dingbats, private use,
 * the byte-order mark, specials, emoji), which are the characters that
 * slip into source by accident. */
static bool ident_code_point(uint32_t cp) {
  if (cp >= 0x80 && cp <= 0xBF) return cp == 0xAA || cp == 0xB5 || cp == 0xBA;
  if (cp == 0xD7 || cp == 0xF7) return false;
  if (cp >= 0x2000 && cp <= 0x206F)
    return cp == 0x200C || cp == 0x200D || cp == 0x203F || cp == 0x2040 || cp == 0x2054;
  if (cp >= 0x2190 && cp <= 0x2BFF) return false;
  if (cp >= 0x3000 && cp <= 0x3003) return false;
  if (cp >= 0xD800 && cp <= 0xF8FF) return false; /* surrogates, private use */
  if (cp == 0xFEFF || (cp >= 0xFFF0 && cp <= 0xFFFF)) return false;
  if (cp >= 0x1F000 && cp <= 0x1FAFF) return false;
  return cp <= 0x10FFFF;
}

/* Reports the first invalid UTF-8 sequence or non-identifier character of
 * the name [b, e): Python rejects both ("invalid character ... (U+200B)"). */
static void check_name_utf8(lexer *lx, size_t b, size_t e) {
  const unsigned char *s = (const unsigned char *)lx->s;
  for (size_t i = b; i < e;) {
    if (s[i] < 0x80) {
      i++;
      continue;
    }
    int n = s[i] >= 0xF0 && s[i] <= 0xF4  ? 4
            : s[i] >= 0xE0                ? 3
            : s[i] >= 0xC2 && s[i] < 0xE0 ? 2
                                          : 0;
    uint32_t cp = n == 4 ? s[i] & 0x07u : n == 3 ? s[i] & 0x0Fu : s[i] & 0x1Fu;
    bool ok = n > 0 && i + (size_t)n <= e;
    for (int k = 1; ok && k < n; k++) {
      ok = (s[i + k] & 0xC0) == 0x80;
      cp = cp << 6 | (s[i + k] & 0x3Fu);
    }
    /* overlong 3- and 4-byte forms, surrogates */
    if (ok &&
        ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || (cp >= 0xD800 && cp <= 0xDFFF)))
      ok = false;
    if (!ok) {
      fe_lex_error(lx, fe_lex_loc_at(lx, i), "invalid UTF-8 byte 0x%02x in a name", s[i]);
      return;
    }
    if (!ident_code_point(cp)) {
      fe_lex_error(lx, fe_lex_loc_at(lx, i), "invalid character U+%04X in a name", (unsigned)cp);
      return;
    }
    i += (size_t)n;
  }
}

/* A name, keyword, or a string with a prefix (r, b, f, t, u and pairs). */
static void lex_name(lexer *lx) {
  size_t b = lx->pos, e = b;
  while (e < lx->len && fe_lex_is_name_char(lx->s[e]))
    e++;
  if (fe_lex_prefixed_string(lx, b, e)) return;
  check_name_utf8(lx, b, e);
  ir_loc loc = fe_lex_loc_at(lx, b);
  lx->pos = e;
  fe_token *t = fe_lex_push(lx, keyword_kind(lx->s + b, e - b), loc);
  t->text = lx->s + b;
  t->len = e - b;
}

/* An unexpected byte: one error per character (a whole UTF-8 sequence). */
static void lex_bad_char(lexer *lx, char c) {
  ir_loc loc = fe_lex_loc_at(lx, lx->pos);
  if (isprint((unsigned char)c))
    fe_lex_error(lx, loc, "unexpected character '%c'", c);
  else
    fe_lex_error(lx, loc, "unexpected character 0x%02x", (unsigned char)c);
  lx->pos++;
}

bool fe_lex(ir_context *ctx, const ir_source *src, ir_arena *arena, fe_tokens *out) {
  lexer lx;
  memset(&lx, 0, sizeof lx);
  lx.ctx = ctx;
  lx.src = src;
  lx.arena = arena;
  lx.s = src->text;
  lx.len = src->len;
  lx.line = 1;
  lx.out = out;
  out->toks = NULL;
  out->n = 0;
  lx.nindents = 1; /* indents[0] = 0 */
  lx.at_line_start = true;
  if (lx.len >= 3 && memcmp(lx.s, "\xEF\xBB\xBF", 3) == 0) lx.pos = lx.line_start = 3; /* BOM */

  for (;;) {
    if (lx.nfmodes > 0 && lx.fmodes[lx.nfmodes - 1].kind != LEX_FIELD_EXPR) {
      fe_lex_fstring_text(&lx); /* literal text of an f-string or of a format spec */
      continue;
    }
    if (lx.at_line_start && lx.nnest == 0) {
      lx.at_line_start = false;
      lex_indentation(&lx);
    }
    if (lx.pos >= lx.len) break;
    if (lx.out->n > FE_MAX_TOKENS) {
      fe_lex_error(&lx, fe_lex_loc_at(&lx, lx.pos),
                   "the file has more than %d tokens, the limit (split it)", FE_MAX_TOKENS);
      break;
    }
    char c = lx.s[lx.pos];
    if (c == ' ' || c == '\t' || c == '\f') {
      lx.pos++;
    } else if (c == '#') {
      while (lx.pos < lx.len && lx.s[lx.pos] != '\n' && lx.s[lx.pos] != '\r')
        lx.pos++;
    } else if (c == '\n' || c == '\r') {
      size_t at = lx.pos;
      if (lx.nnest == 0) lex_end_line(&lx, at);
      fe_lex_newline(&lx);
    } else if (c == '\\') {
      size_t q = lx.pos + 1;
      if (q < lx.len && (lx.s[q] == '\n' || lx.s[q] == '\r')) {
        lx.pos = q;
        fe_lex_newline(&lx); /* explicit line joining */
      } else {
        fe_lex_error(&lx, fe_lex_loc_at(&lx, lx.pos),
                     "unexpected character after line continuation character");
        lx.pos++;
      }
    } else if (fe_lex_is_name_start(c)) {
      lex_name(&lx);
    } else if (isdigit((unsigned char)c) ||
               (c == '.' && isdigit((unsigned char)fe_lex_at(&lx, 1)))) {
      fe_lex_number(&lx);
    } else if (c == '\'' || c == '"') {
      fe_lex_string(&lx, lx.pos, 0);
    } else if (!lex_punct(&lx)) {
      lex_bad_char(&lx, c);
    }
  }
  /* End of file: an unterminated f-string, then the innermost unclosed
   * bracket (as CPython does; one error per bracket would repeat the line up
   * to LEX_MAX_NEST times); close the last line and indents. */
  if (lx.nfmodes > 0) {
    fe_lex_error(&lx, lx.fmodes[0].loc, "unterminated f-string");
    lx.nfmodes = 0;
  } else if (lx.nnest > 0) {
    fe_lex_error(&lx, lx.nest_loc[lx.nnest - 1], "'%c' was never closed", lx.nest[lx.nnest - 1]);
  }
  lex_end_line(&lx, lx.pos);
  ir_loc eof = fe_lex_loc_at(&lx, lx.pos);
  while (lx.nindents > 1) {
    lx.nindents--;
    fe_lex_push(&lx, FE_TOK_DEDENT, eof);
  }
  fe_lex_push(&lx, FE_TOK_EOF, eof);
  return !lx.failed;
}

void fe_tokens_free(fe_tokens *t) {
  free(t->toks);
  t->toks = NULL;
  t->n = 0;
}
