// SPDX-License-Identifier: MIT
/* parser.c - the IR text parser's base: an on-demand lexer over the source
 * text, located errors, SSA name scopes, and the grammar of types and
 * attributes (the inverse of ir_pr_type / ir_pr_attr in printer.c).
 *
 * Tensor shapes (`32x64xf32`) are read character by character, as MLIR's
 * lexer does, because `1x64xi32` is no sequence of ordinary tokens. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir-tt/parser_impl.h"

/* ---- lexer ---------------------------------------------------------- */

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
/* Characters of %name, ^bb, @sym, #alias and !dialect.type names. */
static bool is_suffix_char(char c) {
  return is_alpha(c) || is_digit(c) || c == '$' || c == '.' || c == '-';
}

static uint32_t col_of(const parser *p, const char *at) {
  return (uint32_t)(at - p->line_start) + 1;
}

/* Skips blanks, newlines and `//` comments, keeping the line count. */
static void skip_ws(parser *p) {
  while (p->cur < p->end) {
    char c = *p->cur;
    if (c == '\n') {
      p->cur++;
      p->line++;
      p->line_start = p->cur;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      p->cur++;
    } else if (c == '/' && p->cur + 1 < p->end && p->cur[1] == '/') {
      while (p->cur < p->end && *p->cur != '\n')
        p->cur++;
    } else {
      return;
    }
  }
}

static ptok make_tok(parser *p, pt_kind kind, const char *s, size_t n, const char *at) {
  ptok t = {kind, s, n, -1, p->line, col_of(p, at)};
  return t;
}

/* Lexes one number at p->cur: decimal or hex integer, or a float. */
static ptok lex_number(parser *p) {
  const char *s = p->cur, *c = s;
  if (*c == '-') c++;
  if (c + 1 < p->end && c[0] == '0' && c[1] == 'x') {
    c += 2;
    while (c < p->end && is_hex(*c))
      c++;
    p->cur = c;
    return make_tok(p, PT_INT, s, (size_t)(c - s), s);
  }
  bool is_float = false;
  while (c < p->end && is_digit(*c))
    c++;
  if (c < p->end && *c == '.') {
    is_float = true;
    c++;
    while (c < p->end && is_digit(*c))
      c++;
  }
  if (c < p->end && (*c == 'e' || *c == 'E') && c + 1 < p->end &&
      (is_digit(c[1]) || ((c[1] == '+' || c[1] == '-') && c + 2 < p->end && is_digit(c[2])))) {
    is_float = true;
    c += 2;
    while (c < p->end && is_digit(*c))
      c++;
  }
  p->cur = c;
  return make_tok(p, is_float ? PT_FLOAT : PT_INT, s, (size_t)(c - s), s);
}

static ptok lex(parser *p) {
  skip_ws(p);
  const char *s = p->cur;
  if (p->failed || s >= p->end) return make_tok(p, PT_EOF, s, 0, s);
  char c = *s;
  if (c == '%' || c == '^' || c == '@' || c == '#' || c == '!') {
    const char *e = s + 1;
    while (e < p->end && is_suffix_char(*e))
      e++;
    if (e == s + 1) {
      ptok t = make_tok(p, PT_PUNCT, s, 1, s);
      ir_ps_error(p, &t, "expected a name after '%c'", c);
      return make_tok(p, PT_EOF, s, 0, s);
    }
    pt_kind k = c == '%'   ? PT_VALUE
                : c == '^' ? PT_BLOCK
                : c == '@' ? PT_SYMBOL
                : c == '#' ? PT_HASH
                           : PT_BANG;
    ptok t = make_tok(p, k, s + 1, (size_t)(e - s - 1), s);
    if (c == '%' && e + 1 < p->end && *e == '#' && is_digit(e[1])) {
      int idx = 0;
      for (e++; e < p->end && is_digit(*e) && idx < 1000000; e++)
        idx = idx * 10 + (*e - '0');
      t.idx = idx;
    }
    p->cur = e;
    return t;
  }
  if (c == '"') {
    const char *e = s + 1;
    while (e < p->end && *e != '"' && *e != '\n')
      e += (*e == '\\' && e + 1 < p->end) ? 2 : 1;
    if (e >= p->end || *e != '"') {
      ptok t = make_tok(p, PT_STRING, s, 1, s);
      ir_ps_error(p, &t, "expected '\"' in string literal");
      return make_tok(p, PT_EOF, s, 0, s);
    }
    p->cur = e + 1;
    return make_tok(p, PT_STRING, s, (size_t)(e + 1 - s), s);
  }
  if (c == '-' && s + 1 < p->end && s[1] == '>') {
    p->cur = s + 2;
    return make_tok(p, PT_ARROW, s, 2, s);
  }
  if (is_digit(c) || (c == '-' && s + 1 < p->end && is_digit(s[1]))) return lex_number(p);
  if (is_alpha(c)) {
    const char *e = s + 1;
    while (e < p->end && (is_alpha(*e) || is_digit(*e) || *e == '$' || *e == '.'))
      e++;
    p->cur = e;
    return make_tok(p, PT_IDENT, s, (size_t)(e - s), s);
  }
  if (strchr("(){}[]<>,:=*?", c)) {
    p->cur = s + 1;
    return make_tok(p, PT_PUNCT, s, 1, s);
  }
  ptok t = make_tok(p, PT_PUNCT, s, 1, s);
  if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
    ir_ps_error(p, &t, "unexpected character '%c'", c);
  else
    ir_ps_error(p, &t, "unexpected character (byte 0x%02X)", (unsigned char)c);
  return make_tok(p, PT_EOF, s, 0, s);
}

const ptok *ir_ps_peek(parser *p) {
  if (!p->has_tok) {
    p->tok = lex(p);
    p->has_tok = true;
  }
  return &p->tok;
}

ptok ir_ps_next(parser *p) {
  ptok t = *ir_ps_peek(p);
  if (t.kind != PT_EOF) p->has_tok = false;
  return t;
}

bool ir_ps_tok_is(const ptok *t, const char *word) {
  return strlen(word) == t->n && memcmp(t->s, word, t->n) == 0;
}

bool ir_ps_is_punct(parser *p, char c) {
  const ptok *t = ir_ps_peek(p);
  return t->kind == PT_PUNCT && t->s[0] == c;
}

bool ir_ps_is_ident(parser *p, const char *word) {
  const ptok *t = ir_ps_peek(p);
  return t->kind == PT_IDENT && ir_ps_tok_is(t, word);
}

bool ir_ps_accept(parser *p, char c) {
  if (!ir_ps_is_punct(p, c)) return false;
  ir_ps_next(p);
  return true;
}

bool ir_ps_accept_ident(parser *p, const char *word) {
  if (!ir_ps_is_ident(p, word)) return false;
  ir_ps_next(p);
  return true;
}

bool ir_ps_expect(parser *p, char c, const char *context) {
  if (p->failed) return false;
  if (ir_ps_accept(p, c)) return true;
  return ir_ps_error(p, NULL, "expected '%c'%s%s", c, context[0] ? " " : "", context);
}

bool ir_ps_expect_ident(parser *p, const char *word, const char *context) {
  if (p->failed) return false;
  if (ir_ps_accept_ident(p, word)) return true;
  return ir_ps_error(p, NULL, "expected '%s'%s%s", word, context[0] ? " " : "", context);
}

bool ir_ps_expect_arrow(parser *p, const char *context) {
  if (p->failed) return false;
  if (ir_ps_peek(p)->kind == PT_ARROW) {
    ir_ps_next(p);
    return true;
  }
  return ir_ps_error(p, NULL, "expected '->'%s%s", context[0] ? " " : "", context);
}

ir_loc ir_ps_loc(const parser *p, const ptok *t) {
  ir_loc l = {p->src, t->line, t->col};
  return l;
}

bool ir_ps_error(parser *p, const ptok *t, const char *fmt, ...) {
  if (p->failed) return false; /* only the first error: the rest would cascade */
  if (!t) t = ir_ps_peek(p);
  va_list ap;
  va_start(ap, fmt);
  ir_vemit(p->ctx, IR_SEV_ERROR, ir_ps_loc(p, t), fmt, ap);
  va_end(ap);
  p->failed = true;
  return false;
}

const char *ir_ps_string(parser *p, const ptok *t) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  for (size_t i = 1; i + 1 < t->n; i++) {
    char c = t->s[i];
    if (c != '\\' || i + 2 >= t->n) {
      ir_sb_putc(&sb, c);
      continue;
    }
    char d = t->s[++i];
    if (d == 'n')
      ir_sb_putc(&sb, '\n');
    else if (d == 't')
      ir_sb_putc(&sb, '\t');
    else if (is_hex(d) && i + 2 < t->n && is_hex(t->s[i + 1])) {
      char hex[3] = {d, t->s[i + 1], 0};
      ir_sb_putc(&sb, (char)strtol(hex, NULL, 16));
      i++;
    } else
      ir_sb_putc(&sb, d);
  }
  const char *s = ir_intern(p->ctx, sb.data ? sb.data : "", sb.len);
  ir_sb_free(&sb);
  return s;
}

/* ---- SSA names ------------------------------------------------------ */

size_t ir_ps_scope_push(parser *p) {
  size_t old = p->scope_mark;
  p->scope_mark = p->nnames;
  return old;
}

void ir_ps_scope_pop(parser *p, size_t mark) {
  /* LIFO: each popped name heads its bucket's chain */
  while (p->nnames > p->scope_mark) {
    const pname *e = &p->names[--p->nnames];
    p->name_buckets[e->hash & (p->name_nbuckets - 1)] = e->prev;
  }
  p->scope_mark = mark;
}

static uint32_t name_hash(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h ^ (h >> 16);
}

/* The innermost definition of the name (s, n), or NULL. */
static const pname *find_name(const parser *p, const char *s, size_t n, uint32_t h) {
  if (!p->name_buckets) return NULL;
  for (long i = p->name_buckets[h & (p->name_nbuckets - 1)]; i >= 0; i = p->names[i].prev) {
    const pname *e = &p->names[i];
    if (e->hash == h && e->n == n && memcmp(e->s, s, n) == 0) return e;
  }
  return NULL;
}

static bool all_digits(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!is_digit(s[i])) return false;
  return n > 0;
}

/* n chain heads, rebuilt from the stack oldest first: each chain stays
 * newest first, as scope pops need. False on OOM. */
static bool rehash_names(parser *p, size_t n) {
  long *b = malloc(n * sizeof *b);
  if (!b) return false;
  for (size_t i = 0; i < n; i++)
    b[i] = -1;
  for (size_t i = 0; i < p->nnames; i++) {
    long *head = &b[p->names[i].hash & (n - 1)];
    p->names[i].prev = *head;
    *head = (long)i;
  }
  free(p->name_buckets);
  p->name_buckets = b;
  p->name_nbuckets = n;
  return true;
}

bool ir_ps_define(parser *p, const ptok *name, ir_value *v, int count) {
  uint32_t h = name_hash(name->s, name->n);
  const pname *old = find_name(p, name->s, name->n, h);
  if (old && (size_t)(old - p->names) >= p->scope_mark)
    return ir_ps_error(p, name, "redefinition of SSA value '%%%.*s'", (int)name->n, name->s);
  if (!p->name_buckets || p->nnames >= p->name_nbuckets) {
    size_t n = p->name_buckets ? p->name_nbuckets * 2 : IR_PS_NAME_BUCKETS;
    if (!rehash_names(p, n)) return ir_ps_error(p, name, "out of memory");
  }
  if (p->nnames == p->names_cap) {
    size_t cap = p->names_cap ? p->names_cap * 2 : 256;
    pname *nn = realloc(p->names, cap * sizeof *nn);
    if (!nn) return ir_ps_error(p, name, "out of memory");
    p->names = nn;
    p->names_cap = cap;
  }
  long *head = &p->name_buckets[h & (p->name_nbuckets - 1)];
  p->names[p->nnames] = (pname){name->s, name->n, v, count, h, *head};
  *head = (long)p->nnames++;
  /* Printed names become name hints, so that printing gives them back;
   * numbers are the printer's own and are regenerated. */
  if (!all_digits(name->s, name->n)) {
    const char *hint = ir_ctx_strdup(p->ctx, name->s, name->n);
    for (int i = 0; i < count; i++)
      v[i].name = hint;
  }
  return true;
}

ir_value *ir_ps_use(parser *p, const ptok *t) {
  if (t->kind != PT_VALUE) {
    ir_ps_error(p, t, "expected SSA value");
    return NULL;
  }
  const pname *e = find_name(p, t->s, t->n, name_hash(t->s, t->n));
  if (e) {
    if (t->idx >= e->count) {
      ir_ps_error(p, t, "result number %d is out of range for '%%%.*s' (%d results)", t->idx,
                  (int)t->n, t->s, e->count);
      return NULL;
    }
    if (t->idx < 0 && e->count > 1) {
      ir_ps_error(p, t, "'%%%.*s' names %d results: use '%%%.*s#N'", (int)t->n, t->s, e->count,
                  (int)t->n, t->s);
      return NULL;
    }
    return t->idx > 0 ? &e->v[t->idx] : e->v;
  }
  ir_ps_error(p, t, "use of undeclared SSA value name '%%%.*s'", (int)t->n, t->s);
  return NULL;
}

bool ir_ps_operand_list(parser *p, bool allow_empty, ir_value ***vals, int *n, ptok **toks,
                        bool *kw_after) {
  *vals = NULL;
  *n = 0;
  if (kw_after) *kw_after = false;
  if (toks) *toks = NULL;
  if (ir_ps_peek(p)->kind != PT_VALUE) {
    if (allow_empty) return true;
    return ir_ps_error(p, NULL, "expected SSA operand");
  }
  int cap = 0;
  do {
    ptok t = ir_ps_next(p);
    ir_value *v = ir_ps_use(p, &t);
    if (!v) return false;
    if (*n == cap) {
      cap = cap ? cap * 2 : 4;
      ir_value **nv = realloc(*vals, (size_t)cap * sizeof *nv);
      if (!nv) return ir_ps_error(p, &t, "out of memory");
      *vals = nv;
      if (toks) {
        ptok *nt = realloc(*toks, (size_t)cap * sizeof *nt);
        if (!nt) return ir_ps_error(p, &t, "out of memory");
        *toks = nt;
      }
    }
    if (toks) (*toks)[*n] = t;
    (*vals)[(*n)++] = v;
    if (ir_ps_peek(p)->kind == PT_VALUE)
      return ir_ps_error(p, NULL, "expected ',' in operand list");
    if (!ir_ps_is_punct(p, ',')) break;
    ir_ps_next(p);
    if (kw_after && ir_ps_peek(p)->kind == PT_IDENT) {
      *kw_after = true; /* `%c, inputPrecision = tf32`: the caller reads on */
      break;
    }
    if (ir_ps_peek(p)->kind != PT_VALUE)
      return ir_ps_error(p, NULL, "expected SSA operand after ','");
  } while (!p->failed);
  return !p->failed;
}

bool ir_ps_check_type(parser *p, const ptok *t, const ir_value *v, const ir_type *ty) {
  if (v->type == ty) return true;
  ir_strbuf a, b;
  ir_sb_init(&a);
  ir_sb_init(&b);
  ir_type_print(ty, &a);
  ir_type_print(v->type, &b);
  ir_ps_error(p, t, "use of value '%%%.*s' expects different type than prior uses: '%s' vs '%s'",
              (int)t->n, t->s, a.data ? a.data : "", b.data ? b.data : "");
  ir_sb_free(&a);
  ir_sb_free(&b);
  return false;
}

/* ---- types ---------------------------------------------------------- */

/* An integer token (decimal, or hex bits) as int64; false when malformed
 * or out of range. */
bool ir_ps_parse_int(const ptok *t, int64_t *out) {
  char buf[64];
  if (t->n == 0 || t->n >= sizeof buf) return false;
  memcpy(buf, t->s, t->n);
  buf[t->n] = '\0';
  char *end;
  bool neg = buf[0] == '-';
  if (strchr(buf, 'x')) {
    unsigned long long u = strtoull(buf + (neg ? 3 : 2), &end, 16);
    if (t->n - (neg ? 3 : 2) > 16) return false;
    *out = neg ? -(int64_t)u : (int64_t)u;
  } else {
    long long v = strtoll(buf, &end, 10);
    /* strtoll saturates: accept only the exact extremes */
    if ((v == INT64_MAX && strcmp(buf, "9223372036854775807") != 0) ||
        (v == INT64_MIN && strcmp(buf, "-9223372036854775808") != 0))
      return false;
    *out = v;
  }
  return *end == '\0';
}

/* `NxMx...elem`: the dimensions (read character by character) and the
 * element type of a tensor or memdesc type. */
static const ir_type *shaped_dims(parser *p, int64_t *shape, int *rank_out) {
  IR_ASSERT(!p->has_tok);
  int rank = 0;
  skip_ws(p);
  while (p->cur < p->end && is_digit(*p->cur)) {
    const char *s = p->cur;
    int64_t d = 0;
    while (p->cur < p->end && is_digit(*p->cur) && d < ((int64_t)1 << 40))
      d = d * 10 + (*p->cur++ - '0');
    ptok dt = make_tok(p, PT_INT, s, (size_t)(p->cur - s), s);
    if (rank == IR_MAX_RANK) {
      ir_ps_error(p, &dt, "tensor rank exceeds %d", IR_MAX_RANK);
      return NULL;
    }
    if (d <= 0 || d >= ((int64_t)1 << 40)) {
      ir_ps_error(p, &dt, "invalid tensor dimension");
      return NULL;
    }
    shape[rank++] = d;
    if (p->cur >= p->end || *p->cur != 'x') {
      ptok xt = make_tok(p, PT_PUNCT, p->cur, 1, p->cur);
      ir_ps_error(p, &xt, "expected 'x' in tensor dimensions");
      return NULL;
    }
    p->cur++;
  }
  if (rank == 0) {
    ir_ps_error(p, NULL, "expected tensor dimension");
    return NULL;
  }
  ptok et = *ir_ps_peek(p);
  const ir_type *elem = ir_ps_type(p);
  if (!elem) return NULL;
  if (elem->kind == IR_TY_TENSOR || elem->kind == IR_TY_MEMDESC || elem->kind == IR_TY_TOKEN) {
    ir_ps_error(p, &et, "invalid tensor element type");
    return NULL;
  }
  *rank_out = rank;
  return elem;
}

static const ir_type *tensor_type(parser *p) {
  if (!ir_ps_expect(p, '<', "in tensor type")) return NULL;
  int64_t shape[IR_MAX_RANK];
  int rank = 0;
  const ir_type *elem = shaped_dims(p, shape, &rank);
  if (!elem) return NULL;
  const ir_attr *layout = NULL;
  if (ir_ps_accept(p, ',') && !(layout = ir_ps_layout(p))) return NULL;
  if (!ir_ps_expect(p, '>', "at the end of tensor type")) return NULL;
  return ir_type_tensor(p->ctx, rank, shape, elem, layout);
}

const ir_type *ir_ps_memdesc_body(parser *p) {
  int64_t shape[IR_MAX_RANK];
  int rank = 0;
  const ir_type *elem = shaped_dims(p, shape, &rank);
  if (!elem || !ir_ps_expect(p, ',', "after the memdesc element type")) return NULL;
  ptok lt = *ir_ps_peek(p);
  const ir_attr *enc = ir_ps_layout(p);
  if (!enc) return NULL;
  if (!ir_attr_is_shared_layout(enc)) {
    ir_ps_error(p, &lt, "memdesc layout must be a shared encoding");
    return NULL;
  }
  if (!ir_ps_expect(p, ',', "after the memdesc layout")) return NULL;
  ptok st = *ir_ps_peek(p);
  const ir_attr *space = ir_ps_layout(p);
  if (!space) return NULL;
  if (space->kind != IR_ATTR_SHARED_MEMORY) {
    ir_ps_error(p, &st, "memdesc memory space must be #ttg.shared_memory");
    return NULL;
  }
  bool is_mutable = ir_ps_accept(p, ',') && ir_ps_expect_ident(p, "mutable", "in memdesc type");
  if (p->failed || !ir_ps_expect(p, '>', "at the end of memdesc type")) return NULL;
  return ir_type_memdesc(p->ctx, rank, shape, elem, enc, is_mutable);
}

bool ir_ps_nest(parser *p) {
  if (p->depth >= IR_PARSE_MAX_DEPTH)
    return ir_ps_error(p, NULL, "nested too deeply (more than %d levels)", IR_PARSE_MAX_DEPTH);
  p->depth++;
  return true;
}

void ir_ps_unnest(parser *p) { p->depth--; }

static const ir_type *parse_type(parser *p);

const ir_type *ir_ps_type(parser *p) {
  if (p->failed || !ir_ps_nest(p)) return NULL;
  const ir_type *t = parse_type(p);
  ir_ps_unnest(p);
  return t;
}

static const ir_type *parse_type(parser *p) {
  ptok t = *ir_ps_peek(p);
  if (t.kind == PT_BANG) {
    ir_ps_next(p);
    if (ir_ps_tok_is(&t, "ttg.memdesc")) {
      if (!ir_ps_expect(p, '<', "in memdesc type")) return NULL;
      return ir_ps_memdesc_body(p);
    }
    if (ir_ps_tok_is(&t, "ttg.async.token")) return ir_type_token(p->ctx);
    if (!ir_ps_tok_is(&t, "tt.ptr")) {
      ir_ps_error(p, &t, "unknown type '!%.*s'", (int)t.n, t.s);
      return NULL;
    }
    if (!ir_ps_expect(p, '<', "in pointer type")) return NULL;
    const ir_type *pointee = ir_ps_type(p);
    if (!pointee) return NULL;
    int64_t as = 1;
    if (ir_ps_accept(p, ',')) {
      ptok at = ir_ps_next(p);
      if (at.kind != PT_INT || !ir_ps_parse_int(&at, &as) || as < 0 || as > 255) {
        ir_ps_error(p, &at, "expected address space");
        return NULL;
      }
    }
    if (!ir_ps_expect(p, '>', "at the end of pointer type")) return NULL;
    return ir_type_ptr(p->ctx, pointee, (int)as);
  }
  if (t.kind != PT_IDENT) {
    ir_ps_error(p, &t, "expected type");
    return NULL;
  }
  ir_ps_next(p);
  if (ir_ps_tok_is(&t, "tensor")) return tensor_type(p);
  if (ir_ps_tok_is(&t, "f16")) return ir_type_f16(p->ctx);
  if (ir_ps_tok_is(&t, "bf16")) return ir_type_bf16(p->ctx);
  if (ir_ps_tok_is(&t, "f8E4M3FN")) return ir_type_f8e4m3(p->ctx);
  if (ir_ps_tok_is(&t, "f8E5M2")) return ir_type_f8e5m2(p->ctx);
  if (ir_ps_tok_is(&t, "f32")) return ir_type_f32(p->ctx);
  if (ir_ps_tok_is(&t, "f64")) return ir_type_f64(p->ctx);
  if (t.n >= 2 && t.s[0] == 'i' && all_digits(t.s + 1, t.n - 1)) {
    int w = t.n <= 4 ? atoi(t.s + 1) : 0;
    if (w == 1 || w == 8 || w == 16 || w == 32 || w == 64) return ir_type_int(p->ctx, (unsigned)w);
    ir_ps_error(p, &t, "unsupported integer type '%.*s' (expected i1, i8, i16, i32 or i64)",
                (int)t.n, t.s);
    return NULL;
  }
  ir_ps_error(p, &t, "unknown type '%.*s'", (int)t.n, t.s);
  return NULL;
}

bool ir_ps_type_list(parser *p, const ir_type ***tys, int *n) {
  *tys = NULL;
  *n = 0;
  int cap = 0;
  do {
    const ir_type *t = ir_ps_type(p);
    if (!t) return false;
    if (*n == cap) {
      cap = cap ? cap * 2 : 4;
      const ir_type **nt = realloc(*tys, (size_t)cap * sizeof *nt);
      if (!nt) return ir_ps_error(p, NULL, "out of memory");
      *tys = nt;
    }
    (*tys)[(*n)++] = t;
  } while (ir_ps_accept(p, ','));
  return !p->failed;
}

bool ir_ps_paren_types(parser *p, bool allow_bare, const ir_type ***tys, int *n) {
  *tys = NULL;
  *n = 0;
  if (!ir_ps_accept(p, '(')) {
    if (!allow_bare) return ir_ps_expect(p, '(', "in type list");
    return ir_ps_type_list(p, tys, n);
  }
  if (ir_ps_accept(p, ')')) return true;
  if (!ir_ps_type_list(p, tys, n)) return false;
  return ir_ps_expect(p, ')', "at the end of type list");
}
