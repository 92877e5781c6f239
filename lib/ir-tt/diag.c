/* diag.c - sources, diagnostics and their rendering.
 *
 * Diagnostics accumulate in the context (library code never prints); the
 * driver renders them as `file:line:col: error: msg`, then the source line
 * and a caret under the column, as chibicc and clang do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir-tt/context_impl.h"

const ir_source *ir_context_add_source(ir_context *ctx, const char *name, const char *text,
                                       size_t len) {
  ir_source *src = ir_arena_alloc(&ctx->arena, sizeof *src);
  if (!src) return NULL;
  src->name = ir_arena_strdup(&ctx->arena, name, strlen(name));
  src->text = ir_arena_strdup(&ctx->arena, text ? text : "", text ? len : 0);
  src->len = text ? len : 0;
  if (!src->name || !src->text) return NULL;
  return src;
}

/* Diagnostics kept per context, as clang's error limit: a malformed input
 * can produce one per token, each rendering its (maybe very long) line. */
enum { IR_MAX_DIAGS = 100 };

/* Appends one diagnostic; false when memory ran out. */
static bool diag_push(ir_context *ctx, ir_severity sev, ir_loc loc, char *msg) {
  if (ctx->ndiags == ctx->diags_cap) {
    size_t cap = ctx->diags_cap ? ctx->diags_cap * 2 : 16;
    ir_diag *d = realloc(ctx->diags, cap * sizeof *d);
    if (!d) {
      free(msg);
      return false;
    }
    ctx->diags = d;
    ctx->diags_cap = cap;
  }
  ctx->diags[ctx->ndiags++] = (ir_diag){sev, loc, msg};
  return true;
}

void ir_vemit(ir_context *ctx, ir_severity sev, ir_loc loc, const char *fmt, va_list ap) {
  /* Counted first: a dropped diagnostic (limit, out of memory) still fails
   * the compile. */
  if (sev == IR_SEV_ERROR) ctx->nerrors++;
  if (ctx->diags_truncated) return;
  if (ctx->ndiags >= IR_MAX_DIAGS) {
    ctx->diags_truncated = true;
    ir_strbuf note;
    ir_sb_init(&note);
    ir_sb_printf(&note, "too many diagnostics (%d); the rest are not shown", IR_MAX_DIAGS);
    ir_loc none = {NULL, 0, 0};
    diag_push(ctx, IR_SEV_NOTE, none, ir_sb_take(&note));
    return;
  }
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_sb_vprintf(&sb, fmt, ap);
  diag_push(ctx, sev, loc, ir_sb_take(&sb));
}

void ir_emit(ir_context *ctx, ir_severity sev, ir_loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_vemit(ctx, sev, loc, fmt, ap);
  va_end(ap);
}

size_t ir_context_num_errors(const ir_context *ctx) { return ctx->nerrors; }
size_t ir_context_num_diags(const ir_context *ctx) { return ctx->ndiags; }

const ir_diag *ir_context_diag(const ir_context *ctx, size_t i) {
  return i < ctx->ndiags ? &ctx->diags[i] : NULL;
}

static const char *severity_name(ir_severity sev) {
  switch (sev) {
  case IR_SEV_ERROR: return "error";
  case IR_SEV_WARNING: return "warning";
  case IR_SEV_NOTE: return "note";
  case IR_SEV_REMARK: return "remark";
  }
  return "error";
}

/* Finds line `line` (1-based) of src; false when out of range. */
static bool find_line(const ir_source *src, uint32_t line, const char **start, size_t *len) {
  const char *p = src->text, *end = src->text + src->len;
  for (uint32_t l = 1; l < line; l++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl) return false;
    p = nl + 1;
  }
  if (p > end || (p == end && line > 1 && src->len > 0 && end[-1] == '\n')) return false;
  const char *e = memchr(p, '\n', (size_t)(end - p));
  if (!e) e = end;
  if (e > p && e[-1] == '\r') e--;
  *start = p;
  *len = (size_t)(e - p);
  return true;
}

void ir_render_diag(const ir_diag *d, ir_strbuf *out) {
  const ir_source *src = d->loc.src;
  if (src) ir_sb_printf(out, "%s:%u:%u: ", src->name, d->loc.line, d->loc.col);
  ir_sb_printf(out, "%s: %s\n", severity_name(d->sev), d->msg ? d->msg : "");
  const char *ls;
  size_t llen;
  if (!src || d->loc.line == 0 || !find_line(src, d->loc.line, &ls, &llen)) return;
  ir_sb_append(out, ls, llen);
  ir_sb_putc(out, '\n');
  /* The caret line copies tabs from the source line so the caret stays
   * under its column whatever the tab width; columns past the end of the
   * line (an error at end of line) are padded with spaces. */
  uint32_t col = d->loc.col ? d->loc.col : 1;
  for (uint32_t i = 0; i + 1 < col; i++)
    ir_sb_putc(out, i < llen && ls[i] == '\t' ? '\t' : ' ');
  ir_sb_puts(out, "^\n");
}

void ir_render_diags(const ir_context *ctx, ir_strbuf *out) {
  for (size_t i = 0; i < ctx->ndiags; i++)
    ir_render_diag(&ctx->diags[i], out);
}
