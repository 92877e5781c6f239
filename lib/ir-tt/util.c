/* util.c - internal-error reporting and the growable string buffer.
 *
 * ir_internal_error is the only place in lib/ that prints and aborts: it is
 * reserved for compiler bugs, never for bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir-tt/ir.h"

_Noreturn void ir_internal_error(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "internal error: %s:%d: ", file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  abort();
}

void ir_sb_init(ir_strbuf *sb) {
  sb->data = NULL;
  sb->len = 0;
  sb->cap = 0;
  sb->failed = false;
}

void ir_sb_free(ir_strbuf *sb) {
  free(sb->data);
  ir_sb_init(sb);
}

/* Makes room for `extra` more bytes plus the NUL; false (and `failed`) on OOM. */
static bool sb_reserve(ir_strbuf *sb, size_t extra) {
  if (sb->failed) return false;
  if (sb->len + extra + 1 <= sb->cap) return true;
  size_t cap = sb->cap ? sb->cap : 64;
  while (cap < sb->len + extra + 1)
    cap *= 2;
  char *p = realloc(sb->data, cap);
  if (!p) {
    sb->failed = true;
    return false;
  }
  sb->data = p;
  sb->cap = cap;
  return true;
}

void ir_sb_append(ir_strbuf *sb, const char *s, size_t n) {
  if (!sb_reserve(sb, n)) return;
  if (n) memcpy(sb->data + sb->len, s, n);
  sb->len += n;
  sb->data[sb->len] = '\0';
}

void ir_sb_puts(ir_strbuf *sb, const char *s) { ir_sb_append(sb, s, strlen(s)); }

void ir_sb_putc(ir_strbuf *sb, char c) { ir_sb_append(sb, &c, 1); }

void ir_sb_vprintf(ir_strbuf *sb, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  char small[256];
  int n = vsnprintf(small, sizeof small, fmt, ap2);
  va_end(ap2);
  if (n < 0) {
    sb->failed = true;
    return;
  }
  if ((size_t)n < sizeof small) {
    ir_sb_append(sb, small, (size_t)n);
    return;
  }
  if (!sb_reserve(sb, (size_t)n)) return;
  vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
  sb->len += (size_t)n;
}

void ir_sb_printf(ir_strbuf *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_sb_vprintf(sb, fmt, ap);
  va_end(ap);
}

char *ir_sb_take(ir_strbuf *sb) {
  char *p = sb->data;
  if (!p) {
    p = malloc(1);
    if (p) p[0] = '\0';
  }
  ir_sb_init(sb);
  return p;
}
