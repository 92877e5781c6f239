/* lex_literal.c - literals for the lexer: integers (decimal, hex, octal,
 * binary, underscores, beyond 64 bits), floats, imaginary numbers, strings
 * with every prefix and escape, and the literal text of f-strings (the
 * replacement fields' expressions are ordinary tokens, lexed by lexer.c).
 *
 * Everything valid in Python 3 lexes; what ttc cannot use (1j, 2**70 as a
 * literal) is rejected later, only where a kernel uses it. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "frontend/lex_impl.h"

/* ---- numbers ------------------------------------------------------------------ */

/* Copies digits of [b, e) without underscores into buf; false if an
 * underscore is misplaced (leading, trailing or doubled). */
static bool strip_underscores(const char *b, const char *e, char *buf, size_t cap) {
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

static bool is_digit_of(char c, int base) {
  if (base == 16) return isxdigit((unsigned char)c);
  if (base == 10) return isdigit((unsigned char)c);
  return c >= '0' && c < '0' + base;
}

/* Scans the digits of a base-`base` run at p, underscores included. */
static size_t scan_digits(const lexer *lx, size_t p, int base) {
  while (p < lx->len && (is_digit_of(lx->s[p], base) || lx->s[p] == '_'))
    p++;
  return p;
}

/* number: integers in any base, floats (1.0, 1e-3, .5, 1.), imaginary (2j). */
void fe_lex_number(lexer *lx) {
  size_t b = lx->pos;
  ir_loc loc = fe_lex_loc_at(lx, b);
  const char *s = lx->s;
  size_t p = b;
  int base = 10;
  bool is_float = false;
  if (s[p] == '0' && p + 1 < lx->len && strchr("xXoObB", s[p + 1]) && s[p + 1]) {
    char k = (char)tolower((unsigned char)s[p + 1]);
    base = k == 'x' ? 16 : k == 'o' ? 8 : 2;
    p += 2;
    /* digits of any base are scanned so that 0b102 reports the bad digit */
    while (p < lx->len && (isxdigit((unsigned char)s[p]) || s[p] == '_'))
      p++;
  } else {
    p = scan_digits(lx, p, 10);
    if (p < lx->len && s[p] == '.') {
      is_float = true;
      p = scan_digits(lx, p + 1, 10);
    }
    if (p < lx->len && (s[p] == 'e' || s[p] == 'E')) {
      size_t q = p + 1;
      if (q < lx->len && (s[q] == '+' || s[q] == '-')) q++;
      if (q < lx->len && isdigit((unsigned char)s[q])) {
        is_float = true;
        p = scan_digits(lx, q, 10);
      }
    }
  }
  size_t end = p;
  bool imag = base == 10 && p < lx->len && (s[p] == 'j' || s[p] == 'J');
  if (imag) p++;
  /* Trailing identifier characters make the literal invalid (12abc, 0x1g). */
  while (p < lx->len && fe_lex_is_name_char(s[p]))
    p++;
  lx->pos = p;
  if (p != end + imag) {
    fe_lex_error(lx, loc, "invalid %s literal '%.*s'", is_float ? "float" : "integer", (int)(p - b),
                 s + b);
    return;
  }
  char buf[512];
  size_t digits_at = base == 10 ? b : b + 2;
  if (!strip_underscores(s + digits_at + (base != 10 && s[digits_at] == '_'), s + end, buf,
                         sizeof buf) ||
      (base != 10 && buf[0] == '\0')) {
    fe_lex_error(lx, loc, "invalid %s literal '%.*s'", is_float ? "float" : "integer",
                 (int)(end - b), s + b);
    return;
  }
  if (is_float || imag) {
    fe_token *t = fe_lex_push(lx, imag ? FE_TOK_IMAG : FE_TOK_FLOAT, loc);
    t->fval = strtod(buf, NULL);
    return;
  }
  if (base == 10 && buf[0] == '0' && strspn(buf, "0") != strlen(buf)) {
    fe_lex_error(lx, loc, "leading zeros in decimal integer literals are not permitted");
    return;
  }
  for (const char *q = buf; *q; q++)
    if (!is_digit_of(*q, base)) {
      fe_lex_error(lx, loc, "invalid digit '%c' in %s literal", *q,
                   base == 16  ? "hexadecimal"
                   : base == 8 ? "octal"
                   : base == 2 ? "binary"
                               : "decimal");
      return;
    }
  errno = 0;
  unsigned long long v = strtoull(buf, NULL, base);
  fe_token *t = fe_lex_push(lx, FE_TOK_INT, loc);
  t->ival = v;
  t->is_big = errno == ERANGE; /* valid Python; only a kernel using it fails */
}

/* ---- escapes ------------------------------------------------------------------- */

static int hexval(char c) {
  if (isdigit((unsigned char)c)) return c - '0';
  return tolower((unsigned char)c) - 'a' + 10;
}

/* Appends the code point as UTF-8. */
static void put_utf8(ir_strbuf *sb, unsigned long cp) {
  if (cp < 0x80) {
    ir_sb_putc(sb, (char)cp);
  } else if (cp < 0x800) {
    ir_sb_putc(sb, (char)(0xC0 | (cp >> 6)));
    ir_sb_putc(sb, (char)(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    ir_sb_putc(sb, (char)(0xE0 | (cp >> 12)));
    ir_sb_putc(sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
    ir_sb_putc(sb, (char)(0x80 | (cp & 0x3F)));
  } else {
    ir_sb_putc(sb, (char)(0xF0 | (cp >> 18)));
    ir_sb_putc(sb, (char)(0x80 | ((cp >> 12) & 0x3F)));
    ir_sb_putc(sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
    ir_sb_putc(sb, (char)(0x80 | (cp & 0x3F)));
  }
}

/* Decodes the escape whose backslash is at pos (not a line continuation):
 * \n \t ..., octal, \xhh, \uXXXX, \UXXXXXXXX (text only), \N{name} (kept as
 * written: ttc has no Unicode name table); unknown escapes keep their
 * backslash, as Python. */
static void lex_escape(lexer *lx, ir_strbuf *sb, bool is_bytes) {
  size_t at = lx->pos;
  char e = fe_lex_at(lx, 1);
  lx->pos += 2;
  switch (e) {
  case 'n': ir_sb_putc(sb, '\n'); return;
  case 't': ir_sb_putc(sb, '\t'); return;
  case 'r': ir_sb_putc(sb, '\r'); return;
  case 'a': ir_sb_putc(sb, '\a'); return;
  case 'b': ir_sb_putc(sb, '\b'); return;
  case 'f': ir_sb_putc(sb, '\f'); return;
  case 'v': ir_sb_putc(sb, '\v'); return;
  case '\\':
  case '\'':
  case '"': ir_sb_putc(sb, e); return;
  default: break;
  }
  if (e >= '0' && e <= '7') {
    int v = e - '0';
    for (int i = 0; i < 2 && fe_lex_cur(lx) >= '0' && fe_lex_cur(lx) <= '7'; i++)
      v = v * 8 + (lx->s[lx->pos++] - '0');
    if (is_bytes || v < 0x80)
      ir_sb_putc(sb, (char)v);
    else
      put_utf8(sb, (unsigned long)v);
    return;
  }
  int ndig = e == 'x' ? 2 : (e == 'u' && !is_bytes) ? 4 : (e == 'U' && !is_bytes) ? 8 : 0;
  if (ndig) {
    unsigned long v = 0;
    for (int i = 0; i < ndig; i++) {
      if (!isxdigit((unsigned char)fe_lex_at(lx, (size_t)i))) {
        fe_lex_error(lx, fe_lex_loc_at(lx, at), "invalid \\%c escape in string literal", e);
        return;
      }
      v = v * 16 + (unsigned long)hexval(fe_lex_at(lx, (size_t)i));
    }
    lx->pos += (size_t)ndig;
    if (e == 'x' && (is_bytes || v < 0x80))
      ir_sb_putc(sb, (char)v);
    else
      put_utf8(sb, v > 0x10FFFF ? 0xFFFD : v);
    return;
  }
  if (e == 'N' && !is_bytes && fe_lex_cur(lx) == '{') {
    ir_sb_append(sb, "\\N", 2);
    while (lx->pos < lx->len && lx->s[lx->pos] != '}' && lx->s[lx->pos] != '\n')
      ir_sb_putc(sb, lx->s[lx->pos++]);
    if (fe_lex_cur(lx) == '}') ir_sb_putc(sb, lx->s[lx->pos++]);
    return;
  }
  ir_sb_putc(sb, '\\');
  if (e)
    ir_sb_putc(sb, e);
  else
    lx->pos--; /* a backslash at the end of the text */
}

/* ---- strings ---------------------------------------------------------------------- */

/* string: [prefix] '...' | "..." | '''...''' | """...""". pos is at the
 * opening quote; `b` at the prefix. Escapes are decoded unless raw. */
void fe_lex_string(lexer *lx, size_t b, int flags) {
  bool is_raw = flags & LEX_RAW, is_bytes = flags & LEX_BYTES;
  ir_loc loc = fe_lex_loc_at(lx, b);
  uint32_t start_line = lx->line;
  const char *s = lx->s;
  char q = s[lx->pos];
  bool triple = fe_lex_at(lx, 1) == q && fe_lex_at(lx, 2) == q;
  lx->pos += triple ? 3 : 1;
  ir_strbuf sb;
  ir_sb_init(&sb);
  bool closed = false;
  while (lx->pos < lx->len) {
    char c = s[lx->pos];
    if (c == q && (!triple || (fe_lex_at(lx, 1) == q && fe_lex_at(lx, 2) == q))) {
      lx->pos += triple ? 3 : 1;
      closed = true;
      break;
    }
    if (c == '\n' || c == '\r') {
      if (!triple) break;
      ir_sb_putc(&sb, '\n');
      fe_lex_newline(lx);
      continue;
    }
    if (c == '\\' && lx->pos + 1 < lx->len) {
      char e = s[lx->pos + 1];
      if (e == '\n' || e == '\r') { /* escaped newline: line continuation */
        lx->pos++;
        if (is_raw) ir_sb_putc(&sb, '\\'), ir_sb_putc(&sb, '\n');
        fe_lex_newline(lx);
        continue;
      }
      if (is_raw) { /* a raw string keeps the backslash and the next character */
        ir_sb_putc(&sb, '\\');
        ir_sb_putc(&sb, e);
        lx->pos += 2;
        continue;
      }
      lex_escape(lx, &sb, is_bytes);
      continue;
    }
    ir_sb_putc(&sb, c);
    lx->pos++;
  }
  if (!closed) {
    if (triple)
      fe_lex_error(lx, loc, "unterminated triple-quoted string literal (started at line %u)",
                   (unsigned)start_line);
    else
      fe_lex_error(lx, loc, "unterminated string literal");
    ir_sb_free(&sb);
    return;
  }
  fe_token *t = fe_lex_push(lx, FE_TOK_STRING, loc);
  t->len = sb.len;
  t->text = ir_arena_strdup(lx->arena, sb.data ? sb.data : "", sb.len);
  t->is_bytes = is_bytes;
  ir_sb_free(&sb);
}

/* Prefixes: r, u, b, f, t and the pairs br, rb, fr, rf, tr, rt in any case. */
bool fe_lex_prefixed_string(lexer *lx, size_t b, size_t e) {
  if (e >= lx->len || (lx->s[e] != '\'' && lx->s[e] != '"') || e - b > 2) return false;
  bool raw = false, bytes = false, fmt = false, unicode = false;
  for (size_t p = b; p < e; p++) {
    char c = (char)tolower((unsigned char)lx->s[p]);
    if (c == 'r' && !raw)
      raw = true;
    else if (c == 'b' && !bytes)
      bytes = true;
    else if ((c == 'f' || c == 't') && !fmt)
      fmt = true;
    else if (c == 'u' && !unicode)
      unicode = true;
    else
      return false;
  }
  if ((unicode && e - b > 1) || (bytes && fmt)) return false;
  lx->pos = e;
  if (!fmt) {
    fe_lex_string(lx, b, (raw ? LEX_RAW : 0) | (bytes ? LEX_BYTES : 0));
    return true;
  }
  /* f-string: the literal text and fields follow as tokens */
  ir_loc loc = fe_lex_loc_at(lx, b);
  fe_token *t = fe_lex_push(lx, FE_TOK_FSTRING_START, loc);
  t->text = lx->s + b;
  t->len = e - b;
  char q = lx->s[e];
  bool triple = fe_lex_at(lx, 1) == q && fe_lex_at(lx, 2) == q;
  lx->pos += triple ? 3 : 1;
  if (lx->nfmodes == LEX_MAX_FMODES) {
    fe_lex_error(lx, loc, "f-strings nested too deeply");
    lx->nfmodes = 0;
    return true;
  }
  lex_fmode *m = &lx->fmodes[lx->nfmodes++];
  memset(m, 0, sizeof *m);
  m->kind = LEX_STRING_TEXT;
  m->quote = q;
  m->triple = triple;
  m->raw = raw;
  m->loc = loc;
  return true;
}

/* Emits the pending literal piece, if any. */
static void flush_middle(lexer *lx, ir_strbuf *sb, ir_loc loc) {
  if (sb->len == 0) return;
  fe_token *t = fe_lex_push(lx, FE_TOK_FSTRING_MIDDLE, loc);
  t->len = sb->len;
  t->text = ir_arena_strdup(lx->arena, sb->data, sb->len);
  sb->len = 0;
}

/* Drops the f-string state from entry `k` on (after an error). */
static void abandon_fstring(lexer *lx, int k) {
  while (lx->nfmodes > k) {
    lex_fmode *m = &lx->fmodes[--lx->nfmodes];
    if (m->kind != LEX_STRING_TEXT && lx->nnest > 0) lx->nnest--; /* the field's '{' */
  }
}

/* Literal text of the innermost f-string (or of a replacement field's format
 * spec): `{{` and `}}` are braces, `{` opens a field, a lone `}` ends a spec,
 * the closing quote ends the f-string. */
void fe_lex_fstring_text(lexer *lx) {
  int k = lx->nfmodes - 1;
  lex_fmode *m = &lx->fmodes[k];
  bool spec = m->kind == LEX_FIELD_SPEC;
  int owner = k; /* the f-string whose quotes delimit this text */
  while (owner > 0 && lx->fmodes[owner].kind != LEX_STRING_TEXT)
    owner--;
  const lex_fmode *str = &lx->fmodes[owner];
  char q = str->quote;
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_loc piece = fe_lex_loc_at(lx, lx->pos);
  for (;;) {
    if (lx->pos >= lx->len) {
      fe_lex_error(lx, str->loc, "unterminated f-string");
      abandon_fstring(lx, owner);
      break;
    }
    char c = lx->s[lx->pos];
    if (c == q && (!str->triple || (fe_lex_at(lx, 1) == q && fe_lex_at(lx, 2) == q))) {
      if (spec) {
        fe_lex_error(lx, fe_lex_loc_at(lx, lx->pos), "f-string: expecting '}'");
        abandon_fstring(lx, owner + 1);
        break; /* the owner's text continues, and sees the quote */
      }
      flush_middle(lx, &sb, piece);
      fe_lex_push(lx, FE_TOK_FSTRING_END, fe_lex_loc_at(lx, lx->pos));
      lx->pos += str->triple ? 3 : 1;
      lx->nfmodes--;
      break;
    }
    if (c == '\n' || c == '\r') {
      if (!str->triple) {
        fe_lex_error(lx, str->loc, "unterminated f-string");
        abandon_fstring(lx, owner);
        break;
      }
      ir_sb_putc(&sb, '\n');
      fe_lex_newline(lx);
      continue;
    }
    if (c == '{' && !spec && fe_lex_at(lx, 1) == '{') {
      ir_sb_putc(&sb, '{');
      lx->pos += 2;
      continue;
    }
    if (c == '}' && !spec && fe_lex_at(lx, 1) == '}') {
      ir_sb_putc(&sb, '}');
      lx->pos += 2;
      continue;
    }
    if (c == '{') { /* a replacement field: its expression is ordinary tokens */
      flush_middle(lx, &sb, piece);
      ir_loc loc = fe_lex_loc_at(lx, lx->pos);
      lx->pos++;
      if (lx->nfmodes == LEX_MAX_FMODES) {
        fe_lex_error(lx, loc, "f-strings nested too deeply");
        abandon_fstring(lx, 0);
        break;
      }
      fe_lex_push(lx, FE_TOK_LBRACE, loc);
      fe_lex_open(lx, '{', loc);
      lex_fmode *f = &lx->fmodes[lx->nfmodes++];
      *f = *str;
      f->kind = LEX_FIELD_EXPR;
      f->nest_base = lx->nnest;
      f->loc = loc;
      break;
    }
    if (c == '}') {
      if (!spec) {
        fe_lex_error(lx, fe_lex_loc_at(lx, lx->pos), "f-string: single '}' is not allowed");
        lx->pos++;
        continue;
      }
      flush_middle(lx, &sb, piece);
      ir_loc loc = fe_lex_loc_at(lx, lx->pos);
      lx->pos++;
      fe_lex_push(lx, FE_TOK_RBRACE, loc);
      if (lx->nnest > 0) lx->nnest--;
      lx->nfmodes--;
      break;
    }
    if (c == '\\' && lx->pos + 1 < lx->len) {
      char e = lx->s[lx->pos + 1];
      if (e == '\n' || e == '\r') {
        lx->pos++;
        fe_lex_newline(lx);
        continue;
      }
      if (str->raw) {
        ir_sb_putc(&sb, '\\');
        lx->pos++;
        continue; /* the next character is then taken as it is */
      }
      lex_escape(lx, &sb, false);
      continue;
    }
    ir_sb_putc(&sb, c);
    lx->pos++;
  }
  ir_sb_free(&sb);
}
