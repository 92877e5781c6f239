// SPDX-License-Identifier: MIT
/* printer.c - the MLIR textual form, as Triton prints it: layout aliases,
 * `module attributes {...} {`, value names, types, attributes, regions and
 * the generic op form. Custom op forms live in print_ops.c.
 *
 * Value names follow MLIR's SSANameState: a region's values are numbered
 * before its nested regions; name hints are made unique with one `_N`
 * counter per function; nested regions start from their parent's state and
 * siblings do not see each other's names. Printing is deterministic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir-tt/printer_impl.h"

/* ---- value names ---------------------------------------------------- */

static uint64_t hash_ptr(const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

static ir_pr_name *name_slot(printer *p, const ir_value *v) {
  if (!p->names_cap) return NULL;
  size_t mask = p->names_cap - 1, j = (size_t)hash_ptr(v) & mask;
  while (p->names[j].v && p->names[j].v != v)
    j = (j + 1) & mask;
  return &p->names[j];
}

static void name_set(printer *p, const ir_value *v, const char *base, int idx) {
  if ((p->names_len + 1) * 2 > p->names_cap) {
    size_t ncap = p->names_cap ? p->names_cap * 2 : 256;
    ir_pr_name *old = p->names;
    size_t ocap = p->names_cap;
    p->names = calloc(ncap, sizeof *p->names);
    if (!p->names) IR_UNREACHABLE("out of memory in the printer");
    p->names_cap = ncap;
    for (size_t i = 0; i < ocap; i++)
      if (old[i].v) *name_slot(p, old[i].v) = old[i];
    free(old);
  }
  ir_pr_name *s = name_slot(p, v);
  if (!s->v) p->names_len++;
  *s = (ir_pr_name){v, base, idx};
}

/* The used-name set of the scope being numbered: open addressing with
 * tombstones, plus a log so that leaving a nested region forgets its names. */
typedef struct namer {
  printer *p;
  const char **set;
  size_t set_cap, set_used;
  const char **log;
  size_t nlog, log_cap;
  unsigned next_value, next_arg, next_conflict;
} namer;

static const char namer_tomb[] = "";

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static bool namer_has(const namer *n, const char *s) {
  if (!n->set_cap) return false;
  size_t mask = n->set_cap - 1, j = (size_t)hash_str(s) & mask;
  for (; n->set[j]; j = (j + 1) & mask)
    if (n->set[j] != namer_tomb && strcmp(n->set[j], s) == 0) return true;
  return false;
}

static void namer_add(namer *n, const char *s) {
  if ((n->set_used + 1) * 2 > n->set_cap) {
    size_t ocap = n->set_cap, ncap = ocap ? ocap * 2 : 256;
    const char **old = n->set;
    n->set = calloc(ncap, sizeof *n->set);
    if (!n->set) IR_UNREACHABLE("out of memory in the printer");
    n->set_cap = ncap;
    n->set_used = 0;
    for (size_t i = 0; i < ocap; i++)
      if (old[i] && old[i] != namer_tomb) {
        size_t j = (size_t)hash_str(old[i]) & (ncap - 1);
        while (n->set[j])
          j = (j + 1) & (ncap - 1);
        n->set[j] = old[i];
        n->set_used++;
      }
    free(old);
  }
  size_t mask = n->set_cap - 1, j = (size_t)hash_str(s) & mask;
  while (n->set[j])
    j = (j + 1) & mask;
  n->set[j] = s;
  n->set_used++;
  if (n->nlog == n->log_cap) {
    n->log_cap = n->log_cap ? n->log_cap * 2 : 256;
    n->log = realloc(n->log, n->log_cap * sizeof *n->log);
    if (!n->log) IR_UNREACHABLE("out of memory in the printer");
  }
  n->log[n->nlog++] = s;
}

/* Forgets names added after the log held `mark` entries. */
static void namer_undo(namer *n, size_t mark) {
  while (n->nlog > mark) {
    const char *s = n->log[--n->nlog];
    size_t mask = n->set_cap - 1, j = (size_t)hash_str(s) & mask;
    while (n->set[j] != s)
      j = (j + 1) & mask;
    n->set[j] = namer_tomb;
  }
}

/* MLIR's sanitizeIdentifier + uniqueValueName: characters outside
 * [a-zA-Z0-9_$.-] become '_', a leading digit gets a '_' prefix, and
 * conflicts probe name_N with the scope's one counter. */
static const char *namer_unique(namer *n, const char *hint) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  if (hint[0] >= '0' && hint[0] <= '9') ir_sb_putc(&sb, '_');
  for (const char *c = hint; *c; c++) {
    bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '$' || *c == '.' || *c == '-';
    ir_sb_putc(&sb, ok ? *c : '_');
  }
  if (!sb.len) ir_sb_putc(&sb, '_');
  size_t base_len = sb.len;
  if (namer_has(n, sb.data)) {
    ir_sb_putc(&sb, '_');
    for (;;) {
      sb.len = base_len + 1;
      ir_sb_printf(&sb, "%u", n->next_conflict++);
      if (!namer_has(n, sb.data)) break;
    }
  }
  const char *s = ir_arena_strdup(&n->p->arena, sb.data, sb.len);
  ir_sb_free(&sb);
  if (!s) IR_UNREACHABLE("out of memory in the printer");
  namer_add(n, s);
  return s;
}

/* The name MLIR's arith.constant suggests: c42_i32, true/false, cst. */
static void constant_hint(const ir_op *op, char *buf, size_t n) {
  const ir_attr *a = ir_op_get_attr(op, "value");
  if (a && a->kind == IR_ATTR_INT && a->type) {
    if (a->type->width == 1)
      snprintf(buf, n, "%s", a->i ? "true" : "false");
    else
      snprintf(buf, n, "c%lld_i%u", (long long)a->i, a->type->width);
    return;
  }
  snprintf(buf, n, "cst");
}

static void number_op(namer *n, const ir_op *op) {
  if (op->nresults == 0) return;
  bool separate = op->nresults > 1;
  for (int i = 0; i < op->nresults && separate; i++)
    if (!op->results[i].name) separate = false;
  if (separate) { /* all hinted: separate names unless they all agree */
    separate = false;
    for (int i = 1; i < op->nresults; i++)
      if (strcmp(op->results[i].name, op->results[0].name) != 0) separate = true;
  }
  if (separate) {
    for (int i = 0; i < op->nresults; i++)
      name_set(n->p, &op->results[i], namer_unique(n, op->results[i].name), -1);
    return;
  }
  const char *base;
  char buf[64];
  if (op->results[0].name) {
    base = namer_unique(n, op->results[0].name);
  } else if (op->kind == IR_OP_ARITH_CONSTANT) {
    constant_hint(op, buf, sizeof buf);
    base = namer_unique(n, buf);
  } else {
    snprintf(buf, sizeof buf, "%u", n->next_value++);
    base = ir_arena_strdup(&n->p->arena, buf, strlen(buf));
  }
  for (int i = 0; i < op->nresults; i++)
    name_set(n->p, &op->results[i], base, op->nresults > 1 ? i : -1);
}

static void number_region(namer *n, const ir_region *r) {
  char buf[32];
  for (const ir_block *b = r->first; b; b = b->next) {
    for (int i = 0; i < b->nargs; i++) {
      unsigned id = n->next_arg++; /* hinted arguments use an id too, as in MLIR */
      const char *base;
      if (b->args[i]->name) {
        base = namer_unique(n, b->args[i]->name);
      } else {
        snprintf(buf, sizeof buf, "arg%u", id);
        base = ir_arena_strdup(&n->p->arena, buf, strlen(buf));
      }
      name_set(n->p, b->args[i], base, -1);
    }
    for (const ir_op *op = b->first; op; op = op->next)
      number_op(n, op);
  }
  /* Nested regions: each starts from this region's final state. */
  for (const ir_block *b = r->first; b; b = b->next) {
    for (const ir_op *op = b->first; op; op = op->next) {
      for (int i = 0; i < op->nregions; i++) {
        namer saved = *n;
        /* A function is isolated from above: its numbering starts afresh.
         * Functions sit at module level, where no names are used yet. */
        if (op->kind == IR_OP_TT_FUNC) n->next_value = n->next_arg = n->next_conflict = 0;
        number_region(n, &op->regions[i]);
        namer_undo(n, saved.nlog);
        n->next_value = saved.next_value;
        n->next_arg = saved.next_arg;
        n->next_conflict = saved.next_conflict;
      }
    }
  }
}

static void number_root(printer *p, const ir_op *root) {
  namer n;
  memset(&n, 0, sizeof n);
  n.p = p;
  number_op(&n, root);
  for (int i = 0; i < root->nregions; i++) {
    number_region(&n, &root->regions[i]);
    namer_undo(&n, 0);
  }
  free(n.set);
  free(n.log);
}

void ir_pr_value(printer *p, const ir_value *v) {
  ir_pr_name *s = v ? name_slot(p, v) : NULL;
  if (!s || !s->v) {
    ir_sb_puts(p->out, "<<UNKNOWN SSA VALUE>>");
    return;
  }
  ir_sb_printf(p->out, "%%%s", s->base);
  if (s->idx >= 0) ir_sb_printf(p->out, "#%d", s->idx);
}

void ir_pr_values(printer *p, ir_value *const *vals, int n) {
  for (int i = 0; i < n; i++) {
    if (i) ir_sb_puts(p->out, ", ");
    ir_pr_value(p, vals[i]);
  }
}

void ir_pr_types_of(printer *p, ir_value *const *vals, int n) {
  for (int i = 0; i < n; i++) {
    if (i) ir_sb_puts(p->out, ", ");
    ir_pr_type(p, vals[i]->type);
  }
}

/* ---- types and attributes ------------------------------------------- */

void ir_pr_type(printer *p, const ir_type *t) {
  ir_strbuf *o = p->out;
  switch (t->kind) {
  case IR_TY_INT: ir_sb_printf(o, "i%u", t->width); return;
  case IR_TY_FLOAT:
    ir_sb_puts(o, t->width == 8    ? (t->is_e5m2 ? "f8E5M2" : "f8E4M3FN")
                  : t->is_bf16     ? "bf16"
                  : t->width == 16 ? "f16"
                  : t->width == 32 ? "f32"
                                   : "f64");
    return;
  case IR_TY_PTR:
    ir_sb_puts(o, "!tt.ptr<");
    ir_pr_type(p, t->elem);
    if (t->addrspace != 1) ir_sb_printf(o, ", %d", t->addrspace);
    ir_sb_putc(o, '>');
    return;
  case IR_TY_TENSOR:
    ir_sb_puts(o, "tensor<");
    for (int i = 0; i < t->rank; i++)
      ir_sb_printf(o, "%lldx", (long long)t->shape[i]);
    ir_pr_type(p, t->elem);
    if (t->layout) {
      ir_sb_puts(o, ", ");
      ir_pr_attr(p, t->layout);
    }
    ir_sb_putc(o, '>');
    return;
  case IR_TY_MEMDESC:
    ir_sb_puts(o, "!ttg.memdesc<");
    for (int i = 0; i < t->rank; i++)
      ir_sb_printf(o, "%lldx", (long long)t->shape[i]);
    ir_pr_type(p, t->elem);
    if (t->layout) {
      ir_sb_puts(o, ", ");
      ir_pr_attr(p, t->layout);
    }
    ir_sb_puts(o, ", ");
    ir_pr_attr(p, t->memspace);
    if (t->is_mutable) ir_sb_puts(o, ", mutable");
    ir_sb_putc(o, '>');
    return;
  case IR_TY_TOKEN: ir_sb_puts(o, "!ttg.async.token"); return;
  }
}

/* Bits of v in a 16-bit float format, for the hex form of inf and NaN. */
static unsigned half_bits(double v, bool is_bf16) {
  unsigned sign = signbit(v) ? 0x8000u : 0;
  if (isnan(v)) return sign | (is_bf16 ? 0x7FC0u : 0x7E00u);
  if (isinf(v)) return sign | (is_bf16 ? 0x7F80u : 0x7C00u);
  if (is_bf16) {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u >> 16;
  }
  return sign; /* finite f16 values always print in decimal */
}

/* MLIR's printFloatValue: `%.6e` if it reads back to the same value, else
 * APFloat's default decimal form if it has a '.', else the hex bits. */
static void ir_pr_float(printer *p, const ir_type *ty, double v) {
  char buf[64];
  if (isfinite(v)) {
    snprintf(buf, sizeof buf, "%.6e", v);
    double back = ir_float_round(ty, strtod(buf, NULL));
    if (back == v && signbit(back) == signbit(v)) {
      ir_sb_puts(p->out, buf);
      return;
    }
    /* APFloat's default precision: 2 + significand bits * 59 / 196. */
    int bits = ty->width == 64   ? 53
               : ty->width == 32 ? 24
               : ty->width == 8  ? (ty->is_e5m2 ? 3 : 4)
               : ty->is_bf16     ? 8
                                 : 11;
    snprintf(buf, sizeof buf, "%.*g", 2 + bits * 59 / 196, v);
    char *e = strchr(buf, 'e');
    if (e) *e = 'E';
    if (strchr(buf, '.')) {
      ir_sb_puts(p->out, buf);
      return;
    }
  }
  if (ty->width == 64) {
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    ir_sb_printf(p->out, "0x%016llX", (unsigned long long)u);
  } else if (ty->width == 32) {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    ir_sb_printf(p->out, "0x%08X", u);
  } else if (ty->width == 8) {
    ir_sb_printf(p->out, "0x%02X", ir_fp8_bits(v, ty->is_e5m2));
  } else {
    ir_sb_printf(p->out, "0x%04X", half_bits(v, ty->is_bf16));
  }
}

/* An attribute value without its `: type` suffix. */
static void ir_pr_attr_bare(printer *p, const ir_attr *a) {
  if (a->kind == IR_ATTR_INT) {
    if (a->type && a->type->width == 1)
      ir_sb_puts(p->out, a->i ? "true" : "false");
    else
      ir_sb_printf(p->out, "%lld", (long long)a->i);
  } else if (a->kind == IR_ATTR_FLOAT) {
    ir_pr_float(p, a->type, a->f);
  } else {
    ir_pr_attr(p, a);
  }
}

static void ir_pr_uints(printer *p, const unsigned *v, int n) {
  ir_sb_putc(p->out, '[');
  for (int i = 0; i < n; i++)
    ir_sb_printf(p->out, i ? ", %u" : "%u", v[i]);
  ir_sb_putc(p->out, ']');
}

/* The alias family of a layout attribute, as Triton names them (#blocked,
 * #mma, #shared, #smem); -1 for attributes printed inline (slice, dot_op). */
static int alias_family(const ir_attr *a) {
  switch (a->kind) {
  case IR_ATTR_BLOCKED: return 0;
  case IR_ATTR_NVIDIA_MMA: return 1;
  case IR_ATTR_SWIZZLED_SHARED:
  case IR_ATTR_NVMMA_SHARED: return 2;
  case IR_ATTR_SHARED_MEMORY: return 3;
  default: return -1;
  }
}

static const char *const alias_names[] = {"blocked", "mma", "shared", "smem"};

/* The number of `a` within its family (#mma1: 1), collecting it on the dry
 * run; -1 when not an alias. */
static int alias_index(printer *p, const ir_attr *a) {
  int fam = alias_family(a), n = 0;
  for (int i = 0; i < p->naliases; i++) {
    if (p->aliases[i] == a) return n;
    n += alias_family(p->aliases[i]) == fam;
  }
  if (!p->collect) return -1;
  if (p->naliases == p->aliases_cap) {
    p->aliases_cap = p->aliases_cap ? p->aliases_cap * 2 : 8;
    p->aliases = realloc(p->aliases, (size_t)p->aliases_cap * sizeof *p->aliases);
    if (!p->aliases) IR_UNREACHABLE("out of memory in the printer");
  }
  p->aliases[p->naliases++] = a;
  return n;
}

static void ir_pr_blocked_body(printer *p, const ir_attr *a) {
  ir_sb_puts(p->out, "#ttg.blocked<{sizePerThread = ");
  ir_pr_uints(p, a->size_per_thread, a->rank);
  ir_sb_puts(p->out, ", threadsPerWarp = ");
  ir_pr_uints(p, a->threads_per_warp, a->rank);
  ir_sb_puts(p->out, ", warpsPerCTA = ");
  ir_pr_uints(p, a->warps_per_cta, a->rank);
  ir_sb_puts(p->out, ", order = ");
  ir_pr_uints(p, a->order, a->rank);
  ir_sb_puts(p->out, "}>");
}

/* The full text of an aliased layout attribute. */
static void ir_pr_alias_body(printer *p, const ir_attr *a) {
  ir_strbuf *o = p->out;
  switch (a->kind) {
  case IR_ATTR_BLOCKED: ir_pr_blocked_body(p, a); return;
  case IR_ATTR_NVIDIA_MMA:
    ir_sb_printf(o, "#ttg.nvidia_mma<{versionMajor = %u, versionMinor = %u, warpsPerCTA = ",
                 a->version_major, a->version_minor);
    ir_pr_uints(p, a->warps_per_cta, a->rank);
    ir_sb_puts(o, ", instrShape = ");
    ir_pr_uints(p, a->instr_shape, a->ninstr);
    ir_sb_puts(o, "}>");
    return;
  case IR_ATTR_SWIZZLED_SHARED:
    ir_sb_printf(o,
                 "#ttg.swizzled_shared<{vec = %u, perPhase = %u, maxPhase = %u, order = ", a->vec,
                 a->per_phase, a->max_phase);
    ir_pr_uints(p, a->order, a->rank);
    ir_sb_puts(o, "}>");
    return;
  case IR_ATTR_NVMMA_SHARED:
    ir_sb_printf(o,
                 "#ttg.nvmma_shared<{swizzlingByteWidth = %u, transposed = %s, "
                 "elementBitWidth = %u}>",
                 a->swizzle_bytes, a->transposed ? "true" : "false", a->elem_bits);
    return;
  case IR_ATTR_SHARED_MEMORY: ir_sb_puts(o, "#ttg.shared_memory"); return;
  default: IR_UNREACHABLE("attribute kind %d has no alias", (int)a->kind);
  }
}

static void ir_pr_string_lit(ir_strbuf *o, const char *s) {
  ir_sb_putc(o, '"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      ir_sb_printf(o, "\\%c", c);
    else if (c < 0x20 || c >= 0x7f)
      ir_sb_printf(o, "\\%02X", c);
    else
      ir_sb_putc(o, (char)c);
  }
  ir_sb_putc(o, '"');
}

void ir_pr_attr(printer *p, const ir_attr *a) {
  ir_strbuf *o = p->out;
  switch (a->kind) {
  case IR_ATTR_INT:
    ir_pr_attr_bare(p, a);
    if (!a->type || a->type->width != 1) {
      ir_sb_puts(o, " : ");
      if (a->type)
        ir_pr_type(p, a->type);
      else
        ir_sb_puts(o, "i64");
    }
    return;
  case IR_ATTR_FLOAT:
    ir_pr_attr_bare(p, a);
    ir_sb_puts(o, " : ");
    ir_pr_type(p, a->type);
    return;
  case IR_ATTR_STRING: ir_pr_string_lit(o, a->s); return;
  case IR_ATTR_UNIT: ir_sb_puts(o, "unit"); return;
  case IR_ATTR_ARRAY:
    ir_sb_puts(o, "array<i32");
    for (int i = 0; i < a->n; i++)
      ir_sb_printf(o, "%s%lld", i ? ", " : ": ", (long long)a->ints[i]);
    ir_sb_putc(o, '>');
    return;
  case IR_ATTR_DENSE:
    ir_sb_puts(o, "dense<");
    ir_pr_attr_bare(p, a->elem);
    ir_sb_puts(o, "> : ");
    ir_pr_type(p, a->type);
    return;
  case IR_ATTR_ENUM: ir_sb_puts(o, a->s); return;
  case IR_ATTR_BLOCKED:
  case IR_ATTR_NVIDIA_MMA:
  case IR_ATTR_SWIZZLED_SHARED:
  case IR_ATTR_NVMMA_SHARED:
  case IR_ATTR_SHARED_MEMORY: {
    int i = p->use_aliases ? alias_index(p, a) : -1;
    if (i < 0) {
      ir_pr_alias_body(p, a);
    } else {
      ir_sb_printf(o, "#%s", alias_names[alias_family(a)]);
      if (i) ir_sb_printf(o, "%d", i);
    }
    return;
  }
  case IR_ATTR_SLICE:
    ir_sb_printf(o, "#ttg.slice<{dim = %d, parent = ", a->dim);
    ir_pr_attr(p, a->parent);
    ir_sb_puts(o, "}>");
    return;
  case IR_ATTR_DOT_OP:
    ir_sb_printf(o, "#ttg.dot_op<{opIdx = %d, parent = ", a->op_idx);
    ir_pr_attr(p, a->parent);
    ir_sb_printf(o, ", kWidth = %u}>", a->k_width);
    return;
  }
}

/* MLIR prints a dictionary key bare when it is an identifier
 * ([a-zA-Z_][a-zA-Z0-9_$.]*), quoted otherwise ("ttg.num-warps"). */
static void ir_pr_attr_name(ir_strbuf *o, const char *s) {
  bool bare = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_';
  for (const char *c = s; *c && bare; c++)
    bare = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
           *c == '_' || *c == '$' || *c == '.';
  if (bare)
    ir_sb_puts(o, s);
  else
    ir_pr_string_lit(o, s);
}

static int cmp_named(const void *x, const void *y) {
  return strcmp(((const ir_named_attr *)x)->name, ((const ir_named_attr *)y)->name);
}

/* `{...}` of the attributes not in skip, sorted by name as MLIR's
 * DictionaryAttr is; `open`/`close` choose `{}` or `<{}>`. */
static void ir_pr_dict(printer *p, const ir_op *op, const char *const *skip, const char *open,
                       const char *close) {
  ir_named_attr sorted[64];
  int n = 0;
  for (int i = 0; i < op->nattrs && n < 64; i++) {
    bool skipped = false;
    for (const char *const *s = skip; s && *s && !skipped; s++)
      skipped = strcmp(*s, op->attrs[i].name) == 0;
    if (!skipped) sorted[n++] = op->attrs[i];
  }
  if (!n) return;
  qsort(sorted, (size_t)n, sizeof *sorted, cmp_named);
  ir_sb_puts(p->out, open);
  for (int i = 0; i < n; i++) {
    if (i) ir_sb_puts(p->out, ", ");
    ir_pr_attr_name(p->out, sorted[i].name);
    if (sorted[i].value->kind == IR_ATTR_UNIT) continue;
    ir_sb_puts(p->out, " = ");
    ir_pr_attr(p, sorted[i].value);
  }
  ir_sb_puts(p->out, close);
}

void ir_pr_attr_dict(printer *p, const ir_op *op, const char *const *skip) {
  ir_pr_dict(p, op, skip, " {", "}");
}

/* ---- ops, regions, modules ------------------------------------------ */

void ir_pr_newline_indent(printer *p) {
  ir_sb_putc(p->out, '\n');
  for (int i = 0; i < p->indent; i++)
    ir_sb_putc(p->out, ' ');
}

/* Remembers [start, end) of a loc(...) just printed. */
static void note_loc_span(printer *p, size_t start) {
  if (p->nloc_spans + 2 > p->loc_spans_cap) {
    size_t ncap = p->loc_spans_cap ? p->loc_spans_cap * 2 : 1024;
    size_t *n = realloc(p->loc_spans, ncap * sizeof *n);
    if (!n) IR_UNREACHABLE("out of memory in the printer");
    p->loc_spans = n;
    p->loc_spans_cap = ncap;
  }
  p->loc_spans[p->nloc_spans++] = start;
  p->loc_spans[p->nloc_spans++] = p->out->len;
}

static void ir_pr_loc(printer *p, ir_loc loc) {
  if (!p->locations) return;
  size_t start = p->out->len;
  if (loc.src)
    ir_sb_printf(p->out, " loc(\"%s\":%u:%u)", loc.src->name, loc.line, loc.col);
  else
    ir_sb_puts(p->out, " loc(unknown)");
  if (p->record_locs) note_loc_span(p, start);
}

/* `"tt.foo"(%a) <{attrs}> ({regions}) : (T) -> R`. */
static void ir_pr_generic(printer *p, const ir_op *op) {
  ir_sb_printf(p->out, "\"%s\"(", ir_op_name(op));
  ir_pr_values(p, op->operands, op->noperands);
  ir_sb_putc(p->out, ')');
  ir_pr_dict(p, op, NULL, " <{", "}>");
  if (op->nregions) {
    ir_sb_puts(p->out, " (");
    for (int i = 0; i < op->nregions; i++) {
      if (i) ir_sb_puts(p->out, ", ");
      ir_pr_region(p, &op->regions[i], true, true);
    }
    ir_sb_putc(p->out, ')');
  }
  ir_sb_puts(p->out, " : (");
  ir_pr_types_of(p, op->operands, op->noperands);
  ir_sb_puts(p->out, ") -> ");
  if (op->nresults != 1) ir_sb_putc(p->out, '(');
  for (int i = 0; i < op->nresults; i++) {
    if (i) ir_sb_puts(p->out, ", ");
    ir_pr_type(p, op->results[i].type);
  }
  if (op->nresults != 1) ir_sb_putc(p->out, ')');
}

static void ir_pr_op(printer *p, const ir_op *op) {
  if (op->nresults > 0) {
    ir_pr_name *s = name_slot(p, &op->results[0]);
    if (s && s->v && s->idx >= 0) {
      ir_sb_printf(p->out, "%%%s:%d", s->base, op->nresults);
    } else {
      for (int i = 0; i < op->nresults; i++) {
        if (i) ir_sb_puts(p->out, ", ");
        ir_pr_value(p, &op->results[i]);
      }
    }
    ir_sb_puts(p->out, " = ");
  }
  if (!ir_pr_custom_op(p, op)) ir_pr_generic(p, op);
  ir_pr_loc(p, op->loc);
}

static void ir_pr_block_label(printer *p, const ir_block *b, int id) {
  p->indent -= 2;
  ir_pr_newline_indent(p);
  p->indent += 2;
  ir_sb_printf(p->out, "^bb%d", id);
  if (b->nargs) {
    ir_sb_putc(p->out, '(');
    for (int i = 0; i < b->nargs; i++) {
      if (i) ir_sb_puts(p->out, ", ");
      ir_pr_value(p, b->args[i]);
      ir_sb_puts(p->out, ": ");
      ir_pr_type(p, b->args[i]->type);
    }
    ir_sb_putc(p->out, ')');
  }
  ir_sb_putc(p->out, ':');
}

void ir_pr_region(printer *p, const ir_region *r, bool show_entry_args, bool print_terminators) {
  ir_sb_putc(p->out, '{');
  p->indent += 2;
  int id = 0;
  for (const ir_block *b = r->first; b; b = b->next, id++) {
    if (b != r->first || (show_entry_args && b->nargs)) ir_pr_block_label(p, b, id);
    for (const ir_op *op = b->first; op; op = op->next) {
      bool is_term = ir_op_info_of(op)->traits & IR_T_TERMINATOR;
      if (is_term && !print_terminators && op->noperands == 0 && !op->next) continue;
      ir_pr_newline_indent(p);
      ir_pr_op(p, op);
    }
  }
  p->indent -= 2;
  ir_pr_newline_indent(p);
  ir_sb_putc(p->out, '}');
}

static void printer_init(printer *p, ir_strbuf *out, const ir_print_options *opts) {
  memset(p, 0, sizeof *p);
  p->out = out;
  p->locations = opts && opts->locations;
  ir_arena_init(&p->arena);
}

static void printer_fini(printer *p) {
  ir_arena_free(&p->arena);
  free(p->names);
  free(p->aliases);
  free(p->loc_spans);
}

static void ir_pr_module_body(printer *p, const ir_module *m) {
  const ir_op *mod = m->op;
  ir_sb_puts(p->out, "module");
  if (mod->nattrs) {
    ir_sb_puts(p->out, " attributes");
    ir_pr_attr_dict(p, mod, NULL);
  }
  ir_sb_putc(p->out, ' ');
  ir_pr_region(p, &mod->regions[0], false, true);
  ir_pr_loc(p, mod->loc);
  ir_sb_putc(p->out, '\n');
}

/* Appends text[from, to) to out minus the recorded loc(...) spans. */
static void append_without_locs(const printer *p, const char *text, size_t from, size_t to,
                                ir_strbuf *out) {
  size_t at = from;
  for (size_t i = 0; i + 1 < p->nloc_spans; i += 2) {
    ir_sb_append(out, text + at, p->loc_spans[i] - at);
    at = p->loc_spans[i + 1];
  }
  ir_sb_append(out, text + at, to - at);
}

void ir_print_module(const ir_module *m, const ir_print_options *opts, ir_strbuf *out) {
  printer p;
  printer_init(&p, out, opts);
  number_root(&p, m->op);
  p.use_aliases = true;
  /* The body first, into a scratch buffer, numbering layouts in order of
   * first appearance; then the alias definitions and the body behind them.
   * One print of the body (it used to be printed twice: a dry run for the
   * aliases, then for real), which matters on 100k-op modules. */
  ir_strbuf body;
  ir_sb_init(&body);
  p.out = &body;
  p.collect = true;
  p.record_locs = p.locations && opts->without_locations;
  ir_pr_module_body(&p, m);
  p.out = out;
  p.collect = false;
  size_t header_start = out->len;
  /* Family by family, as MLIR sorts alias names: #blocked*, #mma*, #shared*, #smem. */
  for (int fam = 0; fam < 4; fam++) {
    for (int i = 0, n = 0; i < p.naliases; i++) {
      if (alias_family(p.aliases[i]) != fam) continue;
      ir_sb_printf(out, "#%s", alias_names[fam]);
      if (n) ir_sb_printf(out, "%d", n);
      ir_sb_puts(out, " = ");
      ir_pr_alias_body(&p, p.aliases[i]);
      ir_sb_putc(out, '\n');
      n++;
    }
  }
  size_t header_end = out->len;
  ir_sb_append(out, body.data ? body.data : "", body.len);
  if (body.failed) out->failed = true;
  if (p.record_locs) {
    ir_strbuf *plain = opts->without_locations;
    ir_sb_append(plain, out->data + header_start, header_end - header_start);
    append_without_locs(&p, body.data ? body.data : "", 0, body.len, plain);
    if (body.failed) plain->failed = true;
  }
  ir_sb_free(&body);
  printer_fini(&p);
}

void ir_print_op(const ir_op *op, const ir_print_options *opts, ir_strbuf *out) {
  printer p;
  printer_init(&p, out, opts);
  /* Names come from the outermost op so that they match a module print. */
  const ir_op *root = op;
  while (root->parent && root->parent->parent && root->parent->parent->parent)
    root = root->parent->parent->parent;
  number_root(&p, root);
  ir_pr_op(&p, op);
  printer_fini(&p);
}

void ir_attr_print(const ir_attr *a, ir_strbuf *out) {
  printer p;
  printer_init(&p, out, NULL);
  ir_pr_attr(&p, a);
  printer_fini(&p);
}

void ir_type_print(const ir_type *t, ir_strbuf *out) {
  printer p;
  printer_init(&p, out, NULL);
  ir_pr_type(&p, t);
  printer_fini(&p);
}
