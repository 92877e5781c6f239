// SPDX-License-Identifier: MIT
/* signature.c - Triton AOT signature strings ("*fp32:16,i32,1024") parsed
 * into per-parameter types, divisibility hints and constexpr values (ints,
 * floats, True/False, None, quoted strings, dtypes), and matched against a
 * function's parameters.
 *
 * The string is registered as the source "<signature>" so that errors carry a
 * caret pointing into it. Entries are split at commas outside quotes and
 * brackets. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/fe.h"

typedef struct sig_type_name {
  const char *name;
  ttc_type type;
} sig_type_name;

static const sig_type_name sig_types[] = {
    {"i1", TTC_TYPE_I1},           {"i8", TTC_TYPE_I8},       {"i16", TTC_TYPE_I16},
    {"i32", TTC_TYPE_I32},         {"i64", TTC_TYPE_I64},     {"u1", TTC_TYPE_I1},
    {"u8", TTC_TYPE_U8},           {"u16", TTC_TYPE_U16},     {"u32", TTC_TYPE_U32},
    {"u64", TTC_TYPE_U64},         {"fp16", TTC_TYPE_F16},    {"bf16", TTC_TYPE_BF16},
    {"fp32", TTC_TYPE_F32},        {"fp64", TTC_TYPE_F64},    {"f16", TTC_TYPE_F16},
    {"f32", TTC_TYPE_F32},         {"f64", TTC_TYPE_F64},     {"B", TTC_TYPE_I1},
    {"fp8e4nv", TTC_TYPE_FP8E4NV}, {"fp8e5", TTC_TYPE_FP8E5},
};

const ir_type *fe_ttc_type_to_ir(ir_context *ctx, ttc_type t) {
  switch (t) {
  case TTC_TYPE_I1: return ir_type_i1(ctx);
  case TTC_TYPE_I8:
  case TTC_TYPE_U8: return ir_type_int(ctx, 8);
  case TTC_TYPE_I16:
  case TTC_TYPE_U16: return ir_type_int(ctx, 16);
  case TTC_TYPE_I32:
  case TTC_TYPE_U32: return ir_type_i32(ctx);
  case TTC_TYPE_I64:
  case TTC_TYPE_U64: return ir_type_i64(ctx);
  case TTC_TYPE_F16: return ir_type_f16(ctx);
  case TTC_TYPE_BF16: return ir_type_bf16(ctx);
  case TTC_TYPE_F32: return ir_type_f32(ctx);
  case TTC_TYPE_F64: return ir_type_f64(ctx);
  case TTC_TYPE_FP8E4NV: return ir_type_f8e4m3(ctx);
  case TTC_TYPE_FP8E5: return ir_type_f8e5m2(ctx);
  case TTC_TYPE_PTR: return NULL; /* needs a pointee */
  }
  return NULL;
}

static bool sig_lookup_type(const char *s, size_t n, ttc_type *out) {
  for (size_t i = 0; i < sizeof sig_types / sizeof sig_types[0]; i++)
    if (strlen(sig_types[i].name) == n && memcmp(sig_types[i].name, s, n) == 0) {
      *out = sig_types[i].type;
      return true;
    }
  return false;
}

/* Triton's dtype names (tl.float16) for dtype constexprs. */
static bool sig_lookup_dtype(const char *s, size_t n, ttc_type *out) {
  static const sig_type_name dtypes[] = {
      {"int1", TTC_TYPE_I1},        {"int8", TTC_TYPE_I8},
      {"int16", TTC_TYPE_I16},      {"int32", TTC_TYPE_I32},
      {"int64", TTC_TYPE_I64},      {"uint8", TTC_TYPE_U8},
      {"uint16", TTC_TYPE_U16},     {"uint32", TTC_TYPE_U32},
      {"uint64", TTC_TYPE_U64},     {"float16", TTC_TYPE_F16},
      {"bfloat16", TTC_TYPE_BF16},  {"float32", TTC_TYPE_F32},
      {"float64", TTC_TYPE_F64},    {"float8e4nv", TTC_TYPE_FP8E4NV},
      {"float8e5", TTC_TYPE_FP8E5},
  };
  for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
    if (strlen(dtypes[i].name) == n && memcmp(dtypes[i].name, s, n) == 0) {
      *out = dtypes[i].type;
      return true;
    }
  return sig_lookup_type(s, n, out);
}

/* A quoted string entry ('gelu' or "gelu"; \' and \\ escape). */
static bool sig_parse_string(ir_context *ctx, ir_loc loc, const char *b, const char *e,
                             ir_arena *arena, fe_sig_entry *out) {
  size_t n = (size_t)(e - b);
  if (n < 2 || e[-1] != b[0]) {
    ir_error(ctx, loc, "unterminated string '%.*s' in signature", (int)n, b);
    return false;
  }
  char *v = ir_arena_alloc(arena, n);
  if (!v) return false;
  size_t k = 0;
  for (const char *p = b + 1; p < e - 1; p++) {
    if (*p == '\\' && p + 1 < e - 1) p++;
    v[k++] = *p;
  }
  v[k] = '\0';
  out->is_value = true;
  out->const_kind = FE_CONST_STR;
  out->sval = v;
  return true;
}

/* tensordesc<T[b0, b1, ...]>: a host-made tensor descriptor of T with that
 * block shape (Triton's spelling), passed as base, shape and strides.
 * tensordesc<T[...]>:16 (ttc's hint) also says that every shape value is a
 * multiple of 16, which lets the bounds checks along the contiguous
 * dimension vectorize; launches check it. */
static bool sig_parse_desc(ir_context *ctx, ir_loc loc, const char *b, const char *e,
                           fe_sig_entry *out) {
  const char *p = b + 11, *lb = memchr(p, '[', (size_t)(e - p));
  if (e - b > 3 && memcmp(e - 3, ":16", 3) == 0) {
    out->desc_shape_div = 16;
    e -= 3;
  }
  ttc_type t;
  if (!lb || e[-1] != '>' || !sig_lookup_type(p, (size_t)(lb - p), &t)) {
    ir_error(ctx, loc, "expected tensordesc<TYPE[BLOCK, ...]> in signature, found '%.*s'",
             (int)(e - b), b);
    return false;
  }
  p = lb + 1;
  while (p < e && *p != ']') {
    char *end;
    long long v = strtoll(p, &end, 10);
    if (end == p || v < 1 || out->desc_rank == IR_MAX_RANK) {
      ir_error(ctx, loc, "bad block shape in '%.*s'", (int)(e - b), b);
      return false;
    }
    out->desc_block[out->desc_rank++] = v;
    p = end;
    while (p < e && (*p == ',' || *p == ' '))
      p++;
  }
  if (out->desc_rank == 0) {
    ir_error(ctx, loc, "bad block shape in '%.*s'", (int)(e - b), b);
    return false;
  }
  out->type = TTC_TYPE_PTR;
  out->pointee = t;
  out->divisibility = 16;
  return true;
}

/* Parses one trimmed entry [b, e) at column `col` (1-based). */
/* An entry is a value (True/False/None, a number, a quoted string, a dtype
 * tl.NAME) or a type ['*']NAME[':16']. Errors point at the offending part
 * inside the "<signature>" source. */
static bool sig_parse_entry(ir_context *ctx, const ir_source *src, const char *b, const char *e,
                            uint32_t col, ir_arena *arena, fe_sig_entry *out) {
  ir_loc loc = {src, 1, col};
  size_t n = (size_t)(e - b);
  memset(out, 0, sizeof *out);
  out->loc = loc;
  snprintf(out->text, sizeof out->text, "%.*s", (int)n, b);
  if (n == 0) {
    ir_error(ctx, loc, "empty signature entry");
    return false;
  }
  if ((n == 4 && memcmp(b, "True", 4) == 0) || (n == 5 && memcmp(b, "False", 5) == 0) ||
      (n == 4 && memcmp(b, "None", 4) == 0)) {
    out->is_value = true;
    out->const_kind = b[0] == 'N' ? FE_CONST_NONE : FE_CONST_BOOL;
    out->ival = b[0] == 'T';
    return true;
  }
  if (b[0] == '\'' || b[0] == '"') return sig_parse_string(ctx, loc, b, e, arena, out);
  const char *name = n > 3 && memcmp(b, "tl.", 3) == 0                  ? b + 3
                     : n > 16 && memcmp(b, "triton.language.", 16) == 0 ? b + 16
                                                                        : NULL;
  if (name) {
    if (!sig_lookup_dtype(name, (size_t)(e - name), &out->dtype)) {
      ir_error(ctx, loc, "unknown dtype '%.*s' in signature", (int)n, b);
      return false;
    }
    out->is_value = true;
    out->const_kind = FE_CONST_DTYPE;
    return true;
  }
  if (isdigit((unsigned char)b[0]) || b[0] == '-' || b[0] == '+' || b[0] == '.') {
    char buf[64];
    if (n >= sizeof buf) {
      ir_error(ctx, loc, "invalid number '%.*s' in signature", (int)n, b);
      return false;
    }
    memcpy(buf, b, n);
    buf[n] = '\0';
    char *end;
    out->is_value = true;
    errno = 0;
    bool is_float = strpbrk(buf, ".eE") != NULL && strncmp(buf, "0x", 2) != 0;
    if (!is_float) {
      long long v = strtoll(buf, &end, 0);
      if (*end == '\0' && errno == 0) {
        out->const_kind = FE_CONST_INT;
        out->ival = v;
        return true;
      }
    } else {
      double d = strtod(buf, &end);
      if (*end == '\0' && errno == 0) {
        out->const_kind = FE_CONST_FLOAT;
        out->fval = d;
        return true;
      }
    }
    ir_error(ctx, loc, "invalid number '%.*s' in signature", (int)n, b);
    return false;
  }
  if (n > 11 && memcmp(b, "tensordesc<", 11) == 0) return sig_parse_desc(ctx, loc, b, e, out);
  /* A type: ['*'] NAME [':' DIGITS] */
  const char *p = b;
  bool is_ptr = *p == '*';
  if (is_ptr) p++;
  const char *colon = memchr(p, ':', (size_t)(e - p));
  const char *tend = colon ? colon : e;
  ttc_type t;
  if (!sig_lookup_type(p, (size_t)(tend - p), &t)) {
    ir_loc tloc = {src, 1, col + (uint32_t)(p - b)};
    ir_error(ctx, tloc,
             "unknown type '%.*s' in signature, expected one of i1, i8, i16, i32, "
             "i64, u8, u16, u32, u64, fp16, bf16, fp32, fp64, or a constexpr value (a number, "
             "True, False, None, 'a string', tl.float16)",
             (int)(tend - p), p);
    return false;
  }
  if (is_ptr) {
    out->type = TTC_TYPE_PTR;
    out->pointee = t;
  } else {
    out->type = t;
  }
  if (colon) {
    ir_loc hloc = {src, 1, col + (uint32_t)(colon + 1 - b)};
    const char *h = colon + 1;
    size_t hn = (size_t)(e - h);
    if (hn == 2 && memcmp(h, "16", 2) == 0) {
      out->divisibility = 16;
    } else if (hn == 1 && h[0] == '1') {
      out->divisibility = 0; /* ':1' (equal to 1) is accepted as no hint */
    } else {
      ir_error(ctx, hloc, "invalid specialization hint ':%.*s', expected ':16'", (int)hn, h);
      return false;
    }
    if (!is_ptr && t != TTC_TYPE_I32 && t != TTC_TYPE_I64 && t != TTC_TYPE_U32 &&
        t != TTC_TYPE_U64 && out->divisibility) {
      ir_error(ctx, hloc, "divisibility hint on non-integer type '%.*s'", (int)(tend - p), p);
      return false;
    }
  }
  return true;
}

int fe_parse_signature(ir_context *ctx, const char *signature, ir_arena *arena,
                       fe_sig_entry **out) {
  size_t len = strlen(signature);
  const ir_source *src = ir_context_add_source(ctx, "<signature>", signature, len);
  if (!src) return -1;
  int cap = 1;
  for (size_t i = 0; i < len; i++)
    cap += signature[i] == ',';
  fe_sig_entry *entries = ir_arena_alloc(arena, sizeof *entries * (size_t)cap);
  if (!entries) return -1;
  int n = 0;
  bool ok = true;
  const char *s = src->text;
  if (len == 0 || strspn(s, " \t") == len) {
    *out = entries;
    return 0; /* a kernel without parameters */
  }
  size_t pos = 0;
  for (;;) {
    size_t b = pos;
    char quote = 0;
    int depth = 0;
    while (pos < len && (quote || depth > 0 || s[pos] != ',')) {
      char c = s[pos];
      if (quote) {
        if (c == '\\' && pos + 1 < len)
          pos++;
        else if (c == quote)
          quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '[' || c == '<' || c == '(') {
        depth++;
      } else if ((c == ']' || c == '>' || c == ')') && depth > 0) {
        depth--;
      }
      pos++;
    }
    size_t e = pos;
    while (b < e && isspace((unsigned char)s[b]))
      b++;
    while (e > b && isspace((unsigned char)s[e - 1]))
      e--;
    if (!sig_parse_entry(ctx, src, s + b, s + e, (uint32_t)b + 1, arena, &entries[n])) ok = false;
    n++;
    if (pos >= len) break;
    pos++; /* ',' */
  }
  *out = entries;
  return ok ? n : -1;
}

/* `tl.constexpr`, `triton.language.constexpr`, `constexpr` or the string
 * form "tl.constexpr" all mark a compile-time parameter. */
bool fe_is_constexpr_annotation(const fe_expr *ann) {
  if (!ann) return false;
  if (ann->kind == FE_EX_NAME) return strcmp(ann->name, "constexpr") == 0;
  if (ann->kind == FE_EX_ATTR) return strcmp(ann->name, "constexpr") == 0;
  if (ann->kind == FE_EX_STR) return strstr(ann->str, "constexpr") != NULL;
  return false;
}

static const char *sig_type_str(const fe_sig_entry *e, char *buf, size_t cap) {
  if (e->type == TTC_TYPE_PTR)
    snprintf(buf, cap, "*%s", ttc_type_name(e->pointee));
  else
    snprintf(buf, cap, "%s", ttc_type_name(e->type));
  return buf;
}

bool fe_apply_signature(ir_context *ctx, const fe_func *fn, const fe_sig_entry *entries,
                        int nentries, ir_arena *arena, fe_kernel_info *info) {
  info->nparams = 0;
  info->params = NULL;
  if (nentries != fn->nparams) {
    ir_error(ctx, fn->loc, "signature has %d %s but kernel '%s' has %d parameter%s", nentries,
             nentries == 1 ? "entry" : "entries", fn->name, fn->nparams,
             fn->nparams == 1 ? "" : "s");
    return false;
  }
  int total = fn->nparams;
  for (int i = 0; i < nentries; i++)
    total += 2 * entries[i].desc_rank;
  fe_param *params = ir_arena_alloc(arena, sizeof *params * (size_t)(total + 1));
  if (!params) return false;
  bool ok = true;
  int np = 0;
  for (int i = 0; i < fn->nparams; i++) {
    const fe_param_decl *pd = &fn->params[i];
    const fe_sig_entry *e = &entries[i];
    fe_param *pa = &params[np++];
    pa->name = pd->name;
    pa->is_constexpr = fe_is_constexpr_annotation(pd->annotation);
    pa->sig_loc = e->loc;
    snprintf(pa->value_text, sizeof pa->value_text, "%s", e->text);
    char buf[32];
    fe_sig_entry dt;
    if (pa->is_constexpr && !e->is_value && e->type != TTC_TYPE_PTR && !e->divisibility) {
      dt = *e; /* `fp16` for a constexpr parameter is the dtype tl.float16 */
      dt.is_value = true;
      dt.const_kind = FE_CONST_DTYPE;
      dt.dtype = e->type;
      e = &dt;
    }
    if (pa->is_constexpr && !e->is_value) {
      ir_error(ctx, e->loc,
               "constexpr parameter '%s' needs a value in the signature, found type "
               "'%s'",
               pd->name, sig_type_str(e, buf, sizeof buf));
      ir_note(ctx, pd->loc, "parameter '%s' declared here", pd->name);
      ok = false;
    } else if (!pa->is_constexpr && e->is_value) {
      /* A value for a runtime parameter specializes it, as Triton's AOT
       * compiler and its JIT's `== 1` specialization do: the value is baked
       * in and the parameter leaves the kernel's ABI. A unit stride given as
       * 1 is what lets loads along it vectorize. */
      pa->is_constexpr = true;
      pa->is_specialized = true;
    }
    pa->type = e->type;
    pa->pointee = e->pointee;
    pa->divisibility = e->divisibility;
    pa->const_kind = e->const_kind;
    pa->ival = e->ival;
    pa->fval = e->fval;
    pa->sval = e->sval ? ir_arena_strdup(arena, e->sval, strlen(e->sval)) : NULL;
    pa->dtype = e->dtype;
    if (!pa->is_constexpr) pa->value_text[0] = '\0';
    if (e->desc_rank && pa->is_constexpr) {
      ir_error(ctx, e->loc, "a tensor descriptor cannot be a constexpr");
      ok = false;
    } else if (e->desc_rank) { /* then its shape (i32) and strides (i64) */
      pa->desc_rank = e->desc_rank;
      memcpy(pa->desc_block, e->desc_block, sizeof pa->desc_block);
      for (int k = 0; k < 2 * e->desc_rank; k++) {
        fe_param *part = &params[np++];
        memset(part, 0, sizeof *part);
        char nm[96];
        snprintf(nm, sizeof nm, "%s_%s%d", pd->name, k < e->desc_rank ? "shape" : "stride",
                 k % e->desc_rank);
        part->name = ir_intern_cstr(ctx, nm);
        part->type = k < e->desc_rank ? TTC_TYPE_I32 : TTC_TYPE_I64;
        part->desc_part = true;
        /* Triton's descriptors have 16-byte aligned strides and a last
         * stride of 1 (its TensorDescriptor asserts both): the kernel
         * takes them as such, and launches check them */
        if (k < e->desc_rank)
          part->divisibility = e->desc_shape_div;
        else if (k < 2 * e->desc_rank - 1)
          part->divisibility = 16 / (int)ir_type_bytes(fe_ttc_type_to_ir(ctx, e->pointee));
        else
          part->divisibility = FE_DIV_ONE;
        part->sig_loc = e->loc;
      }
    }
  }
  if (!ok) return false;
  info->nparams = np;
  info->params = params;
  return true;
}

/* The public type names, in Triton's signature spelling (ttc_type_name in
 * include/ttc): the one table, used by the CLI, messages and metadata. */
const char *ttc_type_name(ttc_type type) {
  switch (type) {
  case TTC_TYPE_PTR: return "*";
  case TTC_TYPE_I1: return "i1";
  case TTC_TYPE_I8: return "i8";
  case TTC_TYPE_I16: return "i16";
  case TTC_TYPE_I32: return "i32";
  case TTC_TYPE_I64: return "i64";
  case TTC_TYPE_U8: return "u8";
  case TTC_TYPE_U16: return "u16";
  case TTC_TYPE_U32: return "u32";
  case TTC_TYPE_U64: return "u64";
  case TTC_TYPE_F16: return "fp16";
  case TTC_TYPE_BF16: return "bf16";
  case TTC_TYPE_F32: return "fp32";
  case TTC_TYPE_F64: return "fp64";
  case TTC_TYPE_FP8E4NV: return "fp8e4nv";
  case TTC_TYPE_FP8E5: return "fp8e5";
  }
  return "?";
}
