// SPDX-License-Identifier: MIT
/* kernel_ir.c - ttc_kernel_create_from_ttir: a kernel object from ttir text
 * (a .ttir file, or the located ttir a compile printed), so that an
 * interpreter device runs IR it is given: the kernel holds the text as its
 * ttir, its parameters come from the tt.func's arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"

/* The ttc_type of a scalar IR type; false for what a kernel cannot take. */
static bool scalar_type(const ir_type *t, ttc_type *out) {
  if (t->kind == IR_TY_INT) {
    switch (t->width) {
    case 1: *out = TTC_TYPE_I1; return true;
    case 8: *out = TTC_TYPE_I8; return true;
    case 16: *out = TTC_TYPE_I16; return true;
    case 32: *out = TTC_TYPE_I32; return true;
    case 64: *out = TTC_TYPE_I64; return true;
    default: return false;
    }
  }
  if (t->kind == IR_TY_FLOAT) {
    *out = t->width == 8    ? (t->is_e5m2 ? TTC_TYPE_FP8E5 : TTC_TYPE_FP8E4NV)
           : t->width == 16 ? (t->is_bf16 ? TTC_TYPE_BF16 : TTC_TYPE_F16)
           : t->width == 32 ? TTC_TYPE_F32
                            : TTC_TYPE_F64;
    return t->width == 8 || t->width == 16 || t->width == 32 || t->width == 64;
  }
  return false;
}

/* Fills the kernel's name and parameters from the module; false after a
 * diagnostic. */
static bool read_func(ttc_kernel *k, ir_context *ctx, const ir_module *m, const char *name) {
  ir_loc none = {NULL, 0, 0};
  const ir_op *func = NULL;
  int nfuncs = 0;
  for (const ir_op *op = ir_module_body(m)->first; op; op = op->next) {
    if (op->kind != IR_OP_TT_FUNC) continue;
    const ir_attr *a = ir_op_get_attr(op, "sym_name");
    if (!a || a->kind != IR_ATTR_STRING) continue;
    nfuncs++;
    if (name ? strcmp(a->s, name) == 0 : !func) func = op;
  }
  if (name && !func) {
    ir_error(ctx, none, "no tt.func '%s' in the ttir", name);
    return false;
  }
  if (!name && nfuncs != 1) {
    ir_error(ctx, none, "the ttir has %d tt.func ops: name the kernel", nfuncs);
    return false;
  }
  k->name = strdup(ir_op_get_attr(func, "sym_name")->s);
  const ir_block *entry = ir_region_entry(&func->regions[0]);
  int n = entry ? entry->nargs : 0;
  k->nparams = n;
  k->param_types = calloc((size_t)n + 1, sizeof *k->param_types);
  k->param_pointees = calloc((size_t)n + 1, sizeof *k->param_pointees);
  k->param_divisibility = calloc((size_t)n + 1, sizeof *k->param_divisibility);
  if (!k->name || !k->param_types || !k->param_pointees || !k->param_divisibility) return false;
  for (int i = 0; i < n; i++) {
    const ir_type *t = entry->args[i]->type;
    /* {tt.divisibility = 16 : i32}: launches check it, as for a compile's ':16' */
    k->param_divisibility[i] = entry->args[i]->divisibility > 1 ? entry->args[i]->divisibility : 1;
    bool ok = t->kind == IR_TY_PTR ? scalar_type(t->elem, &k->param_pointees[i])
                                   : scalar_type(t, &k->param_types[i]);
    if (t->kind == IR_TY_PTR)
      k->param_types[i] = TTC_TYPE_PTR;
    else
      k->param_pointees[i] = TTC_TYPE_I32;
    if (!ok) {
      ir_error(ctx, func->loc, "kernel '%s': argument %d has a type a launch cannot pass", k->name,
               i);
      return false;
    }
  }
  k->num_warps = (int)ir_op_get_int(m->op, "ttg.num-warps", 4);
  k->num_stages = 3;
  snprintf(k->arch, sizeof k->arch, "sm_90");
  return true;
}

static ttc_status create_now(const char *text, size_t len, const char *filename, const char *name,
                             ttc_kernel **out) {
  if (!out) return TTC_ERROR_ARGUMENT;
  *out = NULL;
  if (!text || !filename) return TTC_ERROR_ARGUMENT;
  ttc_kernel *k = drv_kernel_new();
  ir_context *ctx = ir_context_create();
  char *copy = malloc(len + 1);
  if (!k || !ctx || !copy) {
    free(k);
    free(copy);
    ir_context_destroy(ctx);
    return TTC_ERROR_OUT_OF_MEMORY;
  }
  memcpy(copy, text, len);
  copy[len] = '\0';
  const ir_source *src = ir_context_add_source(ctx, filename, text, len);
  ir_module *m = src ? ir_parse_module(ctx, src) : NULL;
  ttc_status st = TTC_ERROR_INPUT;
  if (m && ir_verify(m) && read_func(k, ctx, m, name)) {
    st = TTC_OK;
    k->out[TTC_LEVEL_TTIR] = copy; /* the kernel's ttir is the text, as given */
    k->out_size[TTC_LEVEL_TTIR] = len;
    k->ttir_located = malloc(len + 1);
    if (k->ttir_located) memcpy(k->ttir_located, copy, len + 1);
    k->ttir_located_size = len;
    copy = NULL;
    if (!k->ttir_located) st = TTC_ERROR_OUT_OF_MEMORY;
  }
  free(copy);
  if (m) ir_module_destroy(m);
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_render_diags(ctx, &sb);
  k->diagnostics = ir_sb_take(&sb);
  if (!k->diagnostics) k->diagnostics = strdup("");
  if (!k->name) k->name = strdup("");
  k->status = st;
  ir_context_destroy(ctx);
  *out = k;
  return st;
}

/* ttc_kernel_create_from_ttir's arguments, carried to the thread that runs it. */
typedef struct create_call {
  const char *text;
  size_t len;
  const char *filename, *name;
  ttc_kernel **out;
  ttc_status st;
} create_call;

static void create_deep(void *arg) {
  create_call *c = arg;
  c->st = create_now(c->text, c->len, c->filename, c->name, c->out);
}

ttc_status ttc_kernel_create_from_ttir(const char *text, size_t len, const char *filename,
                                       const char *name, ttc_kernel **out) {
  if (out && text && filename && len > DRV_MAX_SOURCE_BYTES) { /* before len + 1 */
    *out = drv_kernel_failed(name, TTC_ERROR_INPUT,
                             "%s: IR text of %zu bytes exceeds the limit "
                             "of %d MiB",
                             filename, len, (int)(DRV_MAX_SOURCE_BYTES >> 20));
    return *out ? TTC_ERROR_INPUT : TTC_ERROR_OUT_OF_MEMORY;
  }
  create_call c = {text, len, filename, name, out, TTC_OK};
  ir_run_deep(create_deep, &c); /* the IR parser recurses: the library's stack */
  return c.st;
}
