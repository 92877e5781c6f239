// SPDX-License-Identifier: MIT
/* irtool_verify.c - --verify-diagnostics: the diagnostics a run produced
 * against the `expected-error {{...}}` comments of its input, as MLIR's
 * SourceMgrDiagnosticVerifierHandler checks them.
 *
 * The diagnostics arrive rendered (the public API's form): each is a header
 * `file:line:col: severity: message`, optionally followed by the source line
 * and a caret line, which are skipped. */
#include <stdlib.h>
#include <string.h>

#include "driver/irtool_impl.h"

typedef struct expect {
  ir_severity sev;
  long line;       /* 0: @unknown */
  long at_line;    /* line of the comment */
  const char *msg; /* points into the source */
  size_t msg_len;
  bool seen;
} expect;

typedef struct produced {
  ir_severity sev;
  bool has_file; /* located in the checked file */
  long line, col;
  const char *msg;
  size_t msg_len;
} produced;

static const char *const sev_names[] = {"error", "warning", "note", "remark"};

/* `expected-SEV[@+N|@-N|@unknown] {{msg}}` found in one line. */
static int parse_expectations(const char *src, size_t len, expect **out) {
  int n = 0, cap = 0;
  *out = NULL;
  long line = 1;
  for (const char *p = src, *end = src + len; p < end; line++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    for (const char *c = p; c < le;) {
      const char *hit = NULL;
      for (const char *s = c; s + 9 <= le && !hit; s++)
        if (memcmp(s, "expected-", 9) == 0) hit = s;
      if (!hit) break;
      const char *q = hit + 9;
      c = q;
      int sev = -1;
      for (int i = 0; i < 4 && sev < 0; i++) {
        size_t k = strlen(sev_names[i]);
        if ((size_t)(le - q) >= k && memcmp(q, sev_names[i], k) == 0) {
          sev = i;
          q += k;
        }
      }
      if (sev < 0) continue;
      long target = line;
      if (q < le && *q == '@') {
        q++;
        if ((size_t)(le - q) >= 7 && memcmp(q, "unknown", 7) == 0) {
          target = 0;
          q += 7;
        } else if (q < le && (*q == '+' || *q == '-')) {
          char sign = *q++;
          long d = 0;
          while (q < le && *q >= '0' && *q <= '9') {
            if (d <= 100000000) d = d * 10 + (*q - '0'); /* beyond any file: matches nothing */
            q++;
          }
          target = sign == '+' ? line + d : line - d;
        }
      }
      while (q < le && *q == ' ')
        q++;
      if ((size_t)(le - q) < 4 || memcmp(q, "{{", 2) != 0) continue;
      const char *m = q + 2, *me = NULL;
      for (const char *s = m; s + 2 <= le && !me; s++)
        if (memcmp(s, "}}", 2) == 0) me = s;
      if (!me) continue;
      if (n == cap) {
        cap = cap ? cap * 2 : 8;
        expect *ne = realloc(*out, (size_t)cap * sizeof *ne);
        if (!ne) return -1;
        *out = ne;
      }
      (*out)[n++] = (expect){(ir_severity)sev, target, line, m, (size_t)(me - m), false};
      c = me + 2;
    }
    p = nl ? nl + 1 : end;
  }
  return n;
}

static bool is_caret_line(const char *s, const char *e) {
  while (s < e && (*s == ' ' || *s == '\t'))
    s++;
  return s < e && *s == '^' && s + 1 == e;
}

/* Splits the rendered diagnostics into headers. */
static int parse_produced(const char *d, const char *filename, produced **out) {
  int n = 0, cap = 0;
  *out = NULL;
  size_t flen = strlen(filename);
  const char *end = d + strlen(d);
  for (const char *p = d; p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    produced pd = {IR_SEV_ERROR, false, 0, 0, NULL, 0};
    const char *sev_at = NULL;
    for (const char *s = p; s < le && !sev_at; s++) {
      if (s != p && !(s[0] == ':' && s + 1 < le && s[1] == ' ')) continue;
      const char *q = s == p ? s : s + 2;
      for (int i = 0; i < 4; i++) {
        size_t k = strlen(sev_names[i]);
        if ((size_t)(le - q) > k + 1 && memcmp(q, sev_names[i], k) == 0 && q[k] == ':' &&
            q[k + 1] == ' ') {
          pd.sev = (ir_severity)i;
          sev_at = q;
          pd.msg = q + k + 2;
          pd.msg_len = (size_t)(le - pd.msg);
          break;
        }
      }
    }
    const char *next = nl ? nl + 1 : end;
    if (!sev_at) { /* not a header: stray text */
      p = next;
      continue;
    }
    if (sev_at > p) { /* "file:line:col: " before the severity */
      const char *loc_end = sev_at - 2, *c2 = loc_end;
      while (c2 > p && c2[-1] != ':')
        c2--;
      const char *c1 = c2 - 1;
      while (c1 > p && c1[-1] != ':')
        c1--;
      pd.line = strtol(c1, NULL, 10);
      pd.col = strtol(c2, NULL, 10);
      size_t name_len = c1 > p ? (size_t)(c1 - 1 - p) : 0;
      pd.has_file = name_len == flen && memcmp(p, filename, flen) == 0;
      /* A source line and a caret follow located diagnostics. */
      const char *nl2 = next < end ? memchr(next, '\n', (size_t)(end - next)) : NULL;
      if (nl2) {
        const char *nl3 = memchr(nl2 + 1, '\n', (size_t)(end - nl2 - 1));
        if (is_caret_line(nl2 + 1, nl3 ? nl3 : end)) next = nl3 ? nl3 + 1 : end;
      }
    }
    if (n == cap) {
      cap = cap ? cap * 2 : 8;
      produced *np = realloc(*out, (size_t)cap * sizeof *np);
      if (!np) return -1;
      *out = np;
    }
    (*out)[n++] = pd;
    p = next;
  }
  return n;
}

static bool contains(const char *hay, size_t hn, const char *needle, size_t nn) {
  if (nn == 0) return true;
  for (size_t i = 0; i + nn <= hn; i++)
    if (memcmp(hay + i, needle, nn) == 0) return true;
  return false;
}

ttc_status ttc_verify_diagnostics(const char *source, size_t len, const char *filename,
                                  const char *diagnostics, char **report) {
  if (!report) return TTC_ERROR_ARGUMENT;
  *report = NULL;
  if (!source || !filename || !diagnostics) return TTC_ERROR_ARGUMENT;
  if (len > DRV_MAX_SOURCE_BYTES) return TTC_ERROR_ARGUMENT; /* before source + len wraps */
  expect *ex = NULL;
  produced *pd = NULL;
  int nex = parse_expectations(source, len, &ex);
  int npd = parse_produced(diagnostics, filename, &pd);
  if (nex < 0 || npd < 0) {
    free(ex);
    free(pd);
    return TTC_ERROR_OUT_OF_MEMORY;
  }
  ir_strbuf sb;
  ir_sb_init(&sb);
  for (int i = 0; i < npd; i++) {
    const produced *d = &pd[i];
    long line = d->has_file ? d->line : d->line == 0 && !d->col ? 0 : -1;
    bool found = false;
    for (int j = 0; j < nex && !found; j++) {
      expect *e = &ex[j];
      if (e->seen || e->sev != d->sev || e->line != line) continue;
      if (!contains(d->msg, d->msg_len, e->msg, e->msg_len)) continue;
      e->seen = found = true;
    }
    if (found || d->sev == IR_SEV_NOTE) continue;
    if (d->has_file)
      ir_sb_printf(&sb, "%s:%ld:%ld: error: unexpected %s: %.*s\n", filename, d->line, d->col,
                   sev_names[d->sev], (int)d->msg_len, d->msg);
    else
      ir_sb_printf(&sb, "%s: error: unexpected %s: %.*s\n", filename, sev_names[d->sev],
                   (int)d->msg_len, d->msg);
  }
  for (int j = 0; j < nex; j++) {
    if (ex[j].seen) continue;
    ir_sb_printf(&sb, "%s:%ld: error: expected %s \"%.*s\" was not produced\n", filename,
                 ex[j].at_line, sev_names[ex[j].sev], (int)ex[j].msg_len, ex[j].msg);
  }
  free(ex);
  free(pd);
  ttc_status st = sb.failed ? TTC_ERROR_OUT_OF_MEMORY : sb.len == 0 ? TTC_OK : TTC_ERROR_INPUT;
  *report = ir_sb_take(&sb);
  return st;
}
