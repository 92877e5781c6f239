// SPDX-License-Identifier: MIT
/* metadata.c - the kernel's metadata as one JSON object with a fixed key
 * order (name, num_warps, num_stages, shared, num_regs, spills_store_bytes,
 * spills_load_bytes, shared_static, local, target {backend, arch, name},
 * params [{name, type, divisibility}], constexprs {NAME: "text"}, version,
 * hash, times_ms {level: ms}), so equal inputs give byte-equal text up to
 * the times. The hash is FNV-1a 64 of the PTX, as 16 lowercase hex digits. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"
#include "ttc/compile.h"

uint64_t cg_fnv1a64(const void *data, size_t n) {
  const unsigned char *p = data;
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

/* A JSON string literal of the n bytes at s, escaping quotes, backslashes
 * and control bytes. */
static void put_strn(ir_strbuf *sb, const char *s, size_t n) {
  ir_sb_putc(sb, '"');
  for (size_t i = 0; s && i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '"' || ch == '\\') {
      ir_sb_putc(sb, '\\');
      ir_sb_putc(sb, (char)ch);
    } else if (ch < 0x20) {
      ir_sb_printf(sb, "\\u%04x", ch);
    } else {
      ir_sb_putc(sb, (char)ch);
    }
  }
  ir_sb_putc(sb, '"');
}

static void put_str(ir_strbuf *sb, const char *s) { put_strn(sb, s, s ? strlen(s) : 0); }

/* "head:N" -> the string "head" and N; "head" alone -> it and -1. */
static int split_colon(ir_strbuf *sb, const char *s) {
  const char *colon = strchr(s, ':');
  put_strn(sb, s, colon ? (size_t)(colon - s) : strlen(s));
  return colon ? atoi(colon + 1) : -1;
}

/* "cuda:90" -> backend "cuda", arch 90. */
static void put_target(ir_strbuf *sb, const char *target, const char *arch) {
  ir_sb_puts(sb, "{\"backend\": ");
  int cc = split_colon(sb, target ? target : "cuda");
  ir_sb_printf(sb, ", \"arch\": %d", cc < 0 ? 0 : cc);
  ir_sb_puts(sb, ", \"name\": ");
  put_str(sb, arch);
  ir_sb_putc(sb, '}');
}

/* {"name": N, "type": "*fp32", "divisibility": 16} from "*fp32:16". */
static void put_param(ir_strbuf *sb, const cg_param_info *p) {
  ir_sb_puts(sb, "{\"name\": ");
  put_str(sb, p->name);
  ir_sb_puts(sb, ", \"type\": ");
  int div = split_colon(sb, p->type ? p->type : "");
  if (div >= 0) ir_sb_printf(sb, ", \"divisibility\": %d", div);
  ir_sb_putc(sb, '}');
}

/* `, "key": N`, or null when N is negative (ptxas did not say). */
static void put_count(ir_strbuf *sb, const char *key, int n) {
  if (n < 0)
    ir_sb_printf(sb, ", \"%s\": null", key);
  else
    ir_sb_printf(sb, ", \"%s\": %d", key, n);
}

/* {"ttir": 1.250, ...}: the levels of ttc_level in order (ttc/compile.h). */
static void put_times(ir_strbuf *sb, const double *ms) {
  static const char *const levels[TTC_NUM_LEVELS] = {"ttir", "ttgir", "llir", "ptx", "cubin"};
  ir_sb_puts(sb, ", \"times_ms\": {");
  bool first = true;
  for (int l = 0; ms && l < TTC_NUM_LEVELS; l++) {
    if (ms[l] < 0) continue;
    ir_sb_printf(sb, "%s\"%s\": %.3f", first ? "" : ", ", levels[l], ms[l]);
    first = false;
  }
  ir_sb_putc(sb, '}');
}

char *cg_metadata_json(const cg_metadata *md) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_sb_puts(&sb, "{\"name\": ");
  put_str(&sb, md->name);
  ir_sb_printf(&sb, ", \"num_warps\": %d, \"num_stages\": %d, \"shared\": %d", md->num_warps,
               md->num_stages, md->shared);
  cg_ptxas_info none = {-1, -1, -1, -1, -1};
  const cg_ptxas_info *pi = md->ptxas ? md->ptxas : &none;
  put_count(&sb, "num_regs", pi->num_regs);
  put_count(&sb, "spills_store_bytes", pi->spill_store_bytes);
  put_count(&sb, "spills_load_bytes", pi->spill_load_bytes);
  put_count(&sb, "shared_static", pi->shared_static);
  put_count(&sb, "local", pi->local);
  ir_sb_puts(&sb, ", \"target\": ");
  put_target(&sb, md->target, md->arch);
  ir_sb_puts(&sb, ", \"params\": [");
  for (int i = 0; i < md->nparams; i++) {
    if (i) ir_sb_puts(&sb, ", ");
    put_param(&sb, &md->params[i]);
  }
  ir_sb_puts(&sb, "], \"constexprs\": {");
  for (int i = 0; i < md->nconstexprs; i++) {
    if (i) ir_sb_puts(&sb, ", ");
    put_str(&sb, md->constexprs[i].name);
    ir_sb_puts(&sb, ": ");
    put_str(&sb, md->constexprs[i].value ? md->constexprs[i].value : "");
  }
  ir_sb_puts(&sb, "}, \"version\": ");
  put_str(&sb, md->version);
  const char *ptx = md->ptx ? md->ptx : "";
  ir_sb_printf(&sb, ", \"hash\": \"%016" PRIx64 "\"", cg_fnv1a64(ptx, strlen(ptx)));
  put_times(&sb, md->times_ms);
  ir_sb_putc(&sb, '}');
  if (sb.failed) {
    ir_sb_free(&sb);
    return NULL;
  }
  return ir_sb_take(&sb);
}
