/* lower_debug.c - the debugging builtins: tl.static_print (a compile-time
 * remark, since library code never prints), tl.device_print (tt.print, which
 * codegen lowers to vprintf), tl.device_assert and runtime `assert`
 * statements (tt.assert, emitted only under @triton.jit(debug=True) as in
 * Triton, lowered to __assertfail), and tl.debug_barrier. */
#include <stdio.h>
#include <string.h>

#include "frontend/lower_impl.h"

/* Appends Python's str() of a compile-time value (tensors print their type). */
static void describe(fe_lower *l, const fe_val *v, ir_strbuf *sb) {
  size_t len = sb->len;
  if (fe_val_to_str(l, v, sb, false)) return;
  sb->len = len; /* drop a partial rendering */
  if (sb->data) sb->data[len] = '\0';
  ir_sb_puts(sb, fe_val_type_str(l, v));
}

/* tl.static_print(*values): the values, space-separated, as a remark at the
 * call (Triton prints them to stdout while compiling). */
static fe_val b_static_print(fe_lower *l, const char *name, const fe_args *args) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  for (int i = 0; i < args->n; i++) {
    if (i) ir_sb_putc(&sb, ' ');
    describe(l, &args->pos[i], &sb);
  }
  ir_emit(l->ctx, IR_SEV_REMARK, args->loc, "static_print: %s", sb.data ? sb.data : "");
  ir_sb_free(&sb);
  return fe_val_none();
}

/* tl.device_print(prefix, *args, hex=False): one tt.print of every argument
 * (constexprs become scalars). The prefix gets a leading space, as Triton's. */
static fe_val b_device_print(fe_lower *l, const char *name, const fe_args *args) {
  if (args->n < 1 || args->pos[0].kind != FE_V_STR)
    return fe_error(l, args->loc, "device_print needs a string prefix as its first argument");
  bool hex = false;
  for (int k = 0; k < args->nkw; k++) {
    if (strcmp(args->kwnames[k], "hex") != 0)
      return fe_error(l, args->kw_loc[k],
                      "unexpected keyword argument '%s' in call to "
                      "'device_print'",
                      args->kwnames[k]);
    hex = fe_const_truth(&args->kw[k]) > 0;
  }
  int n = args->n - 1;
  ir_value **vals = ir_arena_alloc(l->arena, sizeof(ir_value *) * (size_t)(n + 1));
  int64_t *is_signed = ir_arena_alloc(l->arena, sizeof(int64_t) * (size_t)(n + 1));
  for (int i = 0; i < n; i++) {
    fe_val v = fe_to_tensor(l, args->pos[i + 1], args->pos_loc[i + 1]);
    if (v.kind != FE_V_TENSOR) return fe_val_error();
    vals[i] = v.v;
    is_signed[i] = ir_type_is_int(v.v->type) && !v.is_unsigned;
  }
  const char *prefix = args->pos[0].path;
  char buf[256];
  if (strlen(prefix) > 2 && prefix[0] != ' ') {
    snprintf(buf, sizeof buf, " %s", prefix);
    prefix = buf;
  }
  l->b.loc = args->loc;
  ir_op *op = ir_build(&l->b, IR_OP_TT_PRINT, 0, NULL, n, vals, 0);
  ir_op_set_attr(l->m, op, "prefix", ir_attr_string(l->ctx, prefix));
  ir_op_set_attr(l->m, op, "hex", ir_attr_bool(l->ctx, hex));
  ir_op_set_attr(l->m, op, "isSigned", ir_attr_array(l->ctx, n, is_signed));
  return fe_val_none();
}

fe_val fe_build_assert(fe_lower *l, fe_val cond, fe_val msg, fe_val mask, ir_loc loc) {
  if (!l->debug) return fe_val_none(); /* Triton drops device asserts outside debug mode */
  cond = fe_to_bool(l, cond, loc);
  if (cond.kind == FE_V_ERROR) return cond;
  if (mask.kind != FE_V_NONE) { /* masked-off elements pass: cond | !mask */
    fe_val nm = fe_unary(l, FE_OP_NOT, mask, loc);
    cond = fe_binary(l, FE_OP_OR, cond, nm, loc);
    if (cond.kind == FE_V_ERROR) return cond;
  }
  l->b.loc = loc;
  ir_op *op = ir_build(&l->b, IR_OP_TT_ASSERT, 0, NULL, 1, &cond.v, 0);
  ir_op_set_attr(l->m, op, "message", ir_attr_string(l->ctx, msg.kind == FE_V_STR ? msg.path : ""));
  return fe_val_none();
}

/* tl.device_assert(cond, msg, mask). */
static fe_val b_device_assert(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                              const fe_args *args) {
  if (a[1].kind != FE_V_NONE && a[1].kind != FE_V_STR)
    return fe_error(l, locs[1], "device_assert message must be a string, found '%s'",
                    fe_val_type_str(l, &a[1]));
  if (fe_is_const(&a[0])) { /* a constant condition is checked now */
    if (!fe_const_truth(&a[0]))
      return fe_error(l, args->loc, "device assertion failed%s%s",
                      a[1].kind == FE_V_STR ? ": " : "", a[1].kind == FE_V_STR ? a[1].path : "");
    return fe_val_none();
  }
  return fe_build_assert(l, a[0], a[1], a[2], args->loc);
}

fe_val fe_call_debug_varargs(fe_lower *l, const char *name, const fe_args *args) {
  if (strcmp(name, "tl.static_print") == 0) return b_static_print(l, name, args);
  return b_device_print(l, name, args);
}

static fe_val b_barrier(fe_lower *l, const char *name, fe_val *a, ir_loc *locs,
                        const fe_args *args) {
  l->b.loc = args->loc;
  ir_build(&l->b, IR_OP_GPU_BARRIER, 0, NULL, 0, NULL, 0);
  return fe_val_none();
}

#define P(...)                                                                                     \
  { __VA_ARGS__ }
const fe_builtin fe_debug_builtins[] = {
    {"tl.device_assert", b_device_assert, 1, P("cond", "msg", "mask")},
    {"tl.debug_barrier", b_barrier, 0, P(NULL)},
    {NULL, NULL, 0, P(NULL)},
};
#undef P
