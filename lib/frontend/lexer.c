/* lexer.c - Python tokens for kernel files: names, numbers, strings,
 * operators, and the INDENT/DEDENT/NEWLINE structure of logical lines.
 *
 * Follows CPython's tokenizer: newlines inside () [] {} and after a trailing
 * backslash join lines; indentation is measured with tab stops of 8 and of 1
 * and the two must agree, which catches inconsistent tab/space mixing. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/fe.h"

#define LEX_MAX_INDENT 100
#define LEX_MAX_NEST 200

typedef struct lexer {
  ir_context *ctx;
  const ir_source *src;
  ir_arena *arena;
  const char *s;   /* text */
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
  bool at_line_start;
  bool line_has_tokens; /* a token was emitted on the current logical line */
  bool failed;
} lexer;

static const char *const punct_text[] = {
#define FE_X(E, S) S,
    FE_PUNCTS(FE_X)
#undef FE_X
};
static const char *const keyword_text[] = {
#define FE_X(E, S) S,
    FE_KEYWORDS(FE_X)
#undef FE_X
};

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
  case FE_TOK_STRING: return "string";
  case FE_NUM_TOKS: return "?";
  default: break; /* punctuators and keywords: table below */
  }
  if (k >= FE_TOK_POWEQ && k < FE_TOK_KW_FALSE) return quoted_punct[k - FE_TOK_POWEQ];
  if (k >= FE_TOK_KW_FALSE && k < FE_NUM_TOKS) return quoted_kw[k - FE_TOK_KW_FALSE];
  return "?";
}

static ir_loc lex_loc_at(const lexer *lx, size_t off) {
  ir_loc loc = {lx->src, lx->line, (uint32_t)(off - lx->line_start + 1)};
  return loc;
}

static void lex_error(lexer *lx, ir_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void lex_error(lexer *lx, ir_loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_vemit(lx->ctx, IR_SEV_ERROR, loc, fmt, ap);
  va_end(ap);
  lx->failed = true;
}

/* Appends a token; the array grows by doubling. */
static fe_token *lex_push(lexer *lx, fe_tok_kind kind, ir_loc loc) {
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

static char lex_cur(const lexer *lx) { return lx->pos < lx->len ? lx->s[lx->pos] : '\0'; }
static char lex_at(const lexer *lx, size_t k) {
  return lx->pos + k < lx->len ? lx->s[lx->pos + k] : '\0';
}

/* Consumes a newline ("\n", "\r\n" or "\r") at pos and starts a new line. */
static void lex_newline(lexer *lx) {
  if (lex_cur(lx) == '\r' && lex_at(lx, 1) == '\n') lx->pos++;
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
      if (lx->s[p] == ' ') col++, alt++;
      else if (lx->s[p] == '\t') col = (col / 8 + 1) * 8, alt++;
      else col = alt = 0; /* form feed resets, as CPython */
      p++;
    }
    char c = p < lx->len ? lx->s[p] : '\0';
    if (c == '#') { /* comment-only line */
      while (p < lx->len && lx->s[p] != '\n' && lx->s[p] != '\r') p++;
      c = p < lx->len ? lx->s[p] : '\0';
    }
    if (c == '\n' || c == '\r') { /* blank line */
      lx->pos = p;
      lex_newline(lx);
      continue;
    }
    lx->pos = p;
    if (c == '\0') return; /* EOF: the caller closes the indents */
    ir_loc loc = lex_loc_at(lx, p);
    int top = lx->indents[lx->nindents - 1], alt_top = lx->alt_indents[lx->nindents - 1];
    if (col == top) {
      if (alt != alt_top) lex_error(lx, loc, "inconsistent use of tabs and spaces in indentation");
    } else if (col > top) {
      if (alt <= alt_top) lex_error(lx, loc, "inconsistent use of tabs and spaces in indentation");
      if (lx->nindents == LEX_MAX_INDENT) {
        lex_error(lx, loc, "too many levels of indentation");
        return;
      }
      lx->indents[lx->nindents] = col;
      lx->alt_indents[lx->nindents++] = alt;
      lex_push(lx, FE_TOK_INDENT, loc);
    } else {
      while (lx->nindents > 1 && col < lx->indents[lx->nindents - 1]) {
        lx->nindents--;
        lex_push(lx, FE_TOK_DEDENT, loc);
      }
      if (col != lx->indents[lx->nindents - 1])
        lex_error(lx, loc, "unindent does not match any outer indentation level");
      else if (alt != lx->alt_indents[lx->nindents - 1])
        lex_error(lx, loc, "inconsistent use of tabs and spaces in indentation");
    }
    return;
  }
}

static bool is_name_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool is_name_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Copies digits of [b, e) without underscores into buf; false if an
 * underscore is misplaced (leading, trailing or doubled). */
static bool lex_strip_underscores(const char *b, const char *e, char *buf, size_t cap) {
  size_t n = 0;
  bool prev_us = true; /* an underscore may not lead */
  for (const char *q = b; q < e; q++) {
    if (*q == '_') {
      if (prev_us) return false;
      prev_us = true;
      continue;
    }
    prev_us = false;
    if (n + 1 >= cap) return false;
    buf[n++] = *q;
  }
  buf[n] = '\0';
  return !prev_us || n == 0;
}

/* number: decimal/hex/octal/binary integers with underscores, and floats
 * (1.0, 1e-3, .5, 1.). Imaginary literals are unsupported. */
static void lex_number(lexer *lx) {
  size_t b = lx->pos;
  ir_loc loc = lex_loc_at(lx, b);
  const char *s = lx->s;
  size_t p = b;
  int base = 10;
  bool is_float = false;
  if (s[p] == '0' && p + 1 < lx->len && strchr("xXoObB", s[p + 1])) {
    char k = (char)tolower((unsigned char)s[p + 1]);
    base = k == 'x' ? 16 : k == 'o' ? 8 : 2;
    p += 2;
    if (p < lx->len && s[p] == '_') p++; /* 0x_ff is valid Python */
    while (p < lx->len && (isxdigit((unsigned char)s[p]) || s[p] == '_')) p++;
  } else {
    while (p < lx->len && (isdigit((unsigned char)s[p]) || s[p] == '_')) p++;
    if (p < lx->len && s[p] == '.') {
      is_float = true;
      p++;
      while (p < lx->len && (isdigit((unsigned char)s[p]) || s[p] == '_')) p++;
    }
    if (p < lx->len && (s[p] == 'e' || s[p] == 'E')) {
      size_t q = p + 1;
      if (q < lx->len && (s[q] == '+' || s[q] == '-')) q++;
      if (q < lx->len && isdigit((unsigned char)s[q])) {
        is_float = true;
        p = q;
        while (p < lx->len && (isdigit((unsigned char)s[p]) || s[p] == '_')) p++;
      }
    }
  }
  /* Trailing identifier characters make the literal invalid (12abc, 0x1g). */
  size_t end = p;
  if (p < lx->len && (s[p] == 'j' || s[p] == 'J')) {
    lx->pos = p + 1;
    lex_error(lx, loc, "unsupported: imaginary literal");
    return;
  }
  while (p < lx->len && is_name_char(s[p])) p++;
  lx->pos = p;
  if (p != end) {
    lex_error(lx, loc, "invalid %s literal '%.*s'", is_float ? "float" : "integer",
              (int)(p - b), s + b);
    return;
  }
  char buf[128];
  size_t digits_at = base == 10 ? b : b + 2;
  if (!lex_strip_underscores(s + digits_at + (base != 10 && s[digits_at] == '_'), s + end, buf,
                             sizeof buf) ||
      (base != 10 && buf[0] == '\0')) {
    lex_error(lx, loc, "invalid %s literal '%.*s'", is_float ? "float" : "integer",
              (int)(end - b), s + b);
    return;
  }
  if (is_float) {
    fe_token *t = lex_push(lx, FE_TOK_FLOAT, loc);
    t->fval = strtod(buf, NULL);
    return;
  }
  if (base == 10 && buf[0] == '0' && strspn(buf, "0") != strlen(buf)) {
    lex_error(lx, loc, "leading zeros in decimal integer literals are not permitted");
    return;
  }
  for (const char *q = buf; *q; q++) {
    int d = isdigit((unsigned char)*q) ? *q - '0' : tolower((unsigned char)*q) - 'a' + 10;
    if (d >= base) {
      lex_error(lx, loc, "invalid digit '%c' in %s literal", *q,
                base == 16 ? "hexadecimal" : base == 8 ? "octal" : base == 2 ? "binary" : "decimal");
      return;
    }
  }
  errno = 0;
  unsigned long long v = strtoull(buf, NULL, base);
  if (errno == ERANGE) {
    lex_error(lx, loc, "integer literal '%.*s' is too large", (int)(end - b), s + b);
    return;
  }
  fe_token *t = lex_push(lx, FE_TOK_INT, loc);
  t->ival = v;
}

static int hexval(char c) {
  if (isdigit((unsigned char)c)) return c - '0';
  return tolower((unsigned char)c) - 'a' + 10;
}

/* string: [prefix] '...' | "..." | '''...''' | """...""". `p` is at the
 * opening quote; `b` at the prefix. Escapes are decoded unless raw. */
static void lex_string(lexer *lx, size_t b, bool is_raw, bool is_bytes, bool is_fmt) {
  ir_loc loc = lex_loc_at(lx, b);
  uint32_t start_line = lx->line;
  const char *s = lx->s;
  char q = s[lx->pos];
  bool triple = lex_at(lx, 1) == q && lex_at(lx, 2) == q;
  lx->pos += triple ? 3 : 1;
  ir_strbuf sb;
  ir_sb_init(&sb);
  bool closed = false;
  while (lx->pos < lx->len) {
    char c = s[lx->pos];
    if (c == q && (!triple || (lex_at(lx, 1) == q && lex_at(lx, 2) == q))) {
      lx->pos += triple ? 3 : 1;
      closed = true;
      break;
    }
    if (c == '\n' || c == '\r') {
      if (!triple) break;
      ir_sb_putc(&sb, '\n');
      lex_newline(lx);
      continue;
    }
    if (c == '\\' && lx->pos + 1 < lx->len) {
      char e = s[lx->pos + 1];
      if (e == '\n' || e == '\r') { /* escaped newline: line continuation */
        lx->pos++;
        if (is_raw) ir_sb_putc(&sb, '\\'), ir_sb_putc(&sb, '\n');
        lex_newline(lx);
        continue;
      }
      lx->pos += 2;
      if (is_raw) {
        ir_sb_putc(&sb, '\\');
        ir_sb_putc(&sb, e);
        continue;
      }
      switch (e) {
      case 'n': ir_sb_putc(&sb, '\n'); break;
      case 't': ir_sb_putc(&sb, '\t'); break;
      case 'r': ir_sb_putc(&sb, '\r'); break;
      case '0': ir_sb_putc(&sb, '\0'); break;
      case 'a': ir_sb_putc(&sb, '\a'); break;
      case 'b': ir_sb_putc(&sb, '\b'); break;
      case 'f': ir_sb_putc(&sb, '\f'); break;
      case 'v': ir_sb_putc(&sb, '\v'); break;
      case '\\': case '\'': case '"': ir_sb_putc(&sb, e); break;
      case 'x':
        if (isxdigit((unsigned char)lex_cur(lx)) && isxdigit((unsigned char)lex_at(lx, 1))) {
          ir_sb_putc(&sb, (char)(hexval(lex_cur(lx)) * 16 + hexval(lex_at(lx, 1))));
          lx->pos += 2;
        } else {
          lex_error(lx, lex_loc_at(lx, lx->pos - 2), "invalid \\x escape in string literal");
        }
        break;
      default: /* unknown escapes keep their backslash, as Python */
        ir_sb_putc(&sb, '\\');
        ir_sb_putc(&sb, e);
        break;
      }
      continue;
    }
    ir_sb_putc(&sb, c);
    lx->pos++;
  }
  if (!closed) {
    if (triple)
      lex_error(lx, loc, "unterminated triple-quoted string literal (started at line %u)",
                (unsigned)start_line);
    else
      lex_error(lx, loc, "unterminated string literal");
    ir_sb_free(&sb);
    return;
  }
  if (is_fmt) {
    lex_error(lx, loc, "unsupported: f-string");
    ir_sb_free(&sb);
    return;
  }
  fe_token *t = lex_push(lx, FE_TOK_STRING, loc);
  t->len = sb.len;
  t->text = ir_arena_strdup(lx->arena, sb.data ? sb.data : "", sb.len);
  t->is_bytes = is_bytes;
  ir_sb_free(&sb);
}

/* If the name at pos is a string prefix followed by a quote, lexes the string
 * and returns true. */
static bool lex_try_prefixed_string(lexer *lx, size_t b, size_t e) {
  if (e >= lx->len || (lx->s[e] != '\'' && lx->s[e] != '"') || e - b > 2) return false;
  bool raw = false, bytes = false, fmt = false, unicode = false;
  for (size_t p = b; p < e; p++) {
    char c = (char)tolower((unsigned char)lx->s[p]);
    if (c == 'r' && !raw) raw = true;
    else if (c == 'b' && !bytes) bytes = true;
    else if (c == 'f' && !fmt) fmt = true;
    else if (c == 'u' && !unicode) unicode = true;
    else return false;
  }
  if ((unicode && e - b > 1) || (bytes && fmt)) return false;
  lx->pos = e;
  lex_string(lx, b, raw, bytes, fmt);
  return true;
}

/* Tries the punctuators, longest first. */
static bool lex_punct(lexer *lx) {
  static const int npunct = (int)(sizeof punct_text / sizeof punct_text[0]);
  for (size_t want = 3; want >= 1; want--) {
    if (lx->pos + want > lx->len) continue;
    for (int i = 0; i < npunct; i++) {
      if (strlen(punct_text[i]) != want || memcmp(punct_text[i], lx->s + lx->pos, want) != 0)
        continue;
      fe_tok_kind k = (fe_tok_kind)(FE_TOK_POWEQ + i);
      ir_loc loc = lex_loc_at(lx, lx->pos);
      lx->pos += want;
      if (k == FE_TOK_LPAREN || k == FE_TOK_LBRACKET || k == FE_TOK_LBRACE) {
        if (lx->nnest == LEX_MAX_NEST) {
          /* One error, not one per bracket (each would print the line). */
          if (lx->nest_extra++ == 0) lex_error(lx, loc, "too many nested parentheses");
        } else {
          lx->nest[lx->nnest] = punct_text[i][0];
          lx->nest_loc[lx->nnest++] = loc;
        }
      } else if (k == FE_TOK_RPAREN || k == FE_TOK_RBRACKET || k == FE_TOK_RBRACE) {
        char open = k == FE_TOK_RPAREN ? '(' : k == FE_TOK_RBRACKET ? '[' : '{';
        if (lx->nest_extra > 0) {
          lx->nest_extra--; /* closes one of the unrecorded brackets */
        } else if (lx->nnest == 0) {
          lex_error(lx, loc, "unmatched '%s'", punct_text[i]);
          return true; /* dropped */
        } else if (lx->nest[lx->nnest - 1] != open) {
          lex_error(lx, loc, "closing parenthesis '%s' does not match opening parenthesis '%c'",
                    punct_text[i], lx->nest[lx->nnest - 1]);
          return true;
        } else {
          lx->nnest--;
        }
      }
      lex_push(lx, k, loc);
      return true;
    }
    if (want == 1) break;
  }
  return false;
}

/* Ends the current logical line with NEWLINE if it produced tokens. */
static void lex_end_line(lexer *lx, size_t at) {
  if (lx->line_has_tokens) lex_push(lx, FE_TOK_NEWLINE, lex_loc_at(lx, at));
  lx->line_has_tokens = false;
  lx->at_line_start = true;
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
  static const int nkw = (int)(sizeof keyword_text / sizeof keyword_text[0]);

  for (;;) {
    if (lx.at_line_start && lx.nnest == 0) {
      lx.at_line_start = false;
      lex_indentation(&lx);
    }
    char c = lex_cur(&lx);
    if (lx.pos >= lx.len) break;
    if (c == ' ' || c == '\t' || c == '\f') {
      lx.pos++;
    } else if (c == '#') {
      while (lx.pos < lx.len && lx.s[lx.pos] != '\n' && lx.s[lx.pos] != '\r') lx.pos++;
    } else if (c == '\n' || c == '\r') {
      size_t at = lx.pos;
      if (lx.nnest == 0) lex_end_line(&lx, at);
      lex_newline(&lx);
    } else if (c == '\\') {
      size_t q = lx.pos + 1;
      if (q < lx.len && (lx.s[q] == '\n' || lx.s[q] == '\r')) {
        lx.pos = q;
        lex_newline(&lx); /* explicit line joining */
      } else {
        lex_error(&lx, lex_loc_at(&lx, lx.pos),
                  "unexpected character after line continuation character");
        lx.pos++;
      }
    } else if (is_name_start(c)) {
      size_t b = lx.pos, e = b;
      while (e < lx.len && is_name_char(lx.s[e])) e++;
      if (lex_try_prefixed_string(&lx, b, e)) continue;
      ir_loc loc = lex_loc_at(&lx, b);
      lx.pos = e;
      fe_tok_kind k = FE_TOK_NAME;
      for (int i = 0; i < nkw; i++)
        if (strlen(keyword_text[i]) == e - b && memcmp(keyword_text[i], lx.s + b, e - b) == 0)
          k = (fe_tok_kind)(FE_TOK_KW_FALSE + i);
      fe_token *t = lex_push(&lx, k, loc);
      t->text = ir_intern(ctx, lx.s + b, e - b);
    } else if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)lex_at(&lx, 1)))) {
      lex_number(&lx);
    } else if (c == '\'' || c == '"') {
      lex_string(&lx, lx.pos, false, false, false);
    } else if (!lex_punct(&lx)) {
      if ((unsigned char)c >= 0x80)
        lex_error(&lx, lex_loc_at(&lx, lx.pos), "unexpected non-ASCII character");
      else if (isprint((unsigned char)c))
        lex_error(&lx, lex_loc_at(&lx, lx.pos), "unexpected character '%c'", c);
      else
        lex_error(&lx, lex_loc_at(&lx, lx.pos), "unexpected character 0x%02x", (unsigned char)c);
      /* Skip the whole UTF-8 sequence so that one bad character is one error. */
      lx.pos++;
      while (lx.pos < lx.len && ((unsigned char)lx.s[lx.pos] & 0xC0) == 0x80) lx.pos++;
    }
  }
  /* End of file: report the innermost unclosed bracket (as CPython does;
   * one error per bracket would repeat the line up to LEX_MAX_NEST times),
   * close the last line and indents. */
  if (lx.nnest > 0)
    lex_error(&lx, lx.nest_loc[lx.nnest - 1], "'%c' was never closed", lx.nest[lx.nnest - 1]);
  lex_end_line(&lx, lx.pos);
  ir_loc eof = lex_loc_at(&lx, lx.pos);
  while (lx.nindents > 1) {
    lx.nindents--;
    lex_push(&lx, FE_TOK_DEDENT, eof);
  }
  lex_push(&lx, FE_TOK_EOF, eof);
  return !lx.failed;
}

void fe_tokens_free(fe_tokens *t) {
  free(t->toks);
  t->toks = NULL;
  t->n = 0;
}
