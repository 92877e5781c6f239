/* lower_fixture.h - a unit-test fixture that lowers a kernel body (after the
 * two Triton imports, so the body starts on line 4 of "k.py") to ttir, keeping
 * the printed module and the rendered diagnostics, plus IR text checks.
 * Header-only (static functions): one copy per test program. */
#ifndef TTC_LOWER_FIXTURE_H
#define TTC_LOWER_FIXTURE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttc_test.h"

#include "frontend/fe.h"

typedef struct lower_fixture {
  ir_context *ctx;
  ir_module *m;
  fe_kernel_info info;
  char *ir;    /* printed module or NULL */
  char *diags; /* rendered diagnostics */
} lower_fixture;

/* Lowers `body`; the module, if any, must verify. Pair with lower_done. */
static bool lower(lower_fixture *f, const char *body, const char *kernel, const char *sig) {
  char text[8192];
  snprintf(text, sizeof text, "import triton\nimport triton.language as tl\n\n%s", body);
  f->ctx = ir_context_create();
  const ir_source *src = ir_context_add_source(f->ctx, "k.py", text, strlen(text));
  f->m = fe_lower_kernel(f->ctx, src, kernel, sig, NULL, &f->info);
  f->ir = NULL;
  if (f->m) {
    ir_strbuf sb;
    ir_sb_init(&sb);
    ir_print_options o = {0};
    ir_print_module(f->m, &o, &sb);
    f->ir = ir_sb_take(&sb);
    assert_true(ir_verify(f->m));
  }
  ir_strbuf d;
  ir_sb_init(&d);
  ir_render_diags(f->ctx, &d);
  f->diags = ir_sb_take(&d);
  return f->m != NULL;
}

static void lower_done(lower_fixture *f) {
  ir_module_destroy(f->m);
  free(f->ir);
  free(f->diags);
  ir_context_destroy(f->ctx);
}

static void expect_ir(const lower_fixture *f, const char *needle) {
  if (!f->ir || !strstr(f->ir, needle))
    fail_msg("'%s' not in IR:\n%s\n%s", needle, f->ir ? f->ir : "(none)", f->diags);
}

/* Occurrences of `needle` in the printed module. */
static int count_ir(const lower_fixture *f, const char *needle) {
  int n = 0;
  for (const char *p = f->ir; p && (p = strstr(p, needle)); p++)
    n++;
  return n;
}

#endif
