/* test_diag.c - diagnostics: recording, counting, and rendering with the
 * source line and a caret under the column (tabs kept, unknown locations
 * and out-of-range lines without a snippet). */
#include "ttc_test.h"

#include <stdlib.h>
#include <string.h>

#include "ir-tt/ir.h"

static const char src_text[] = "@triton.jit\n"
                               "def add(x):\n"
                               "    offs = tl.arange(0, 48)\n"
                               "\tx = 1\n";

static char *render_all(const ir_context *ctx) {
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_render_diags(ctx, &sb);
  return ir_sb_take(&sb);
}

static void test_render_caret(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  const ir_source *src = ir_context_add_source(ctx, "examples/bad.py", src_text, strlen(src_text));
  assert_non_null(src);
  assert_string_equal(src->name, "examples/bad.py");
  assert_ptr_not_equal(src->text, src_text); /* copied */
  ir_error(ctx, ((ir_loc){src, 3, 25}), "arange size must be a power of two, got %d", 48);
  ir_note(ctx, ((ir_loc){src, 2, 1}), "in kernel '%s'", "add");
  assert_int_equal(ir_context_num_errors(ctx), 1);
  assert_int_equal(ir_context_num_diags(ctx), 2);
  assert_int_equal(ir_context_diag(ctx, 1)->sev, IR_SEV_NOTE);
  assert_null(ir_context_diag(ctx, 2));
  char *s = render_all(ctx);
  assert_string_equal(s, "examples/bad.py:3:25: error: arange size must be a power of two, got 48\n"
                         "    offs = tl.arange(0, 48)\n"
                         "                        ^\n"
                         "examples/bad.py:2:1: note: in kernel 'add'\n"
                         "def add(x):\n"
                         "^\n");
  free(s);
  ir_context_destroy(ctx);
}

static void test_render_tab_and_unknown(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  const ir_source *src = ir_context_add_source(ctx, "t.py", src_text, strlen(src_text));
  ir_emit(ctx, IR_SEV_WARNING, ((ir_loc){src, 4, 4}), "unused '%s'", "x");
  ir_error(ctx, ((ir_loc){0}), "no location");
  ir_error(ctx, ((ir_loc){src, 40, 1}), "line out of range");
  ir_emit(ctx, IR_SEV_REMARK, ((ir_loc){src, 1, 13}), "end of line");
  assert_int_equal(ir_context_num_errors(ctx), 2);
  char *s = render_all(ctx);
  assert_string_equal(s, "t.py:4:4: warning: unused 'x'\n"
                         "\tx = 1\n"
                         "\t  ^\n"
                         "error: no location\n"
                         "t.py:40:1: error: line out of range\n"
                         "t.py:1:13: remark: end of line\n"
                         "@triton.jit\n"
                         "            ^\n");
  free(s);
  /* One diagnostic alone renders the same way. */
  ir_strbuf sb;
  ir_sb_init(&sb);
  ir_render_diag(ir_context_diag(ctx, 1), &sb);
  assert_string_equal(sb.data, "error: no location\n");
  ir_sb_free(&sb);
  ir_context_destroy(ctx);
}

static void test_many_diags_and_long_message(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  char big[1000];
  memset(big, 'z', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  for (int i = 0; i < 100; i++)
    ir_error(ctx, ((ir_loc){0}), "%d %s", i, big);
  assert_int_equal(ir_context_num_errors(ctx), 100);
  const ir_diag *d = ir_context_diag(ctx, 99);
  assert_int_equal(strlen(d->msg), 3 + sizeof big - 1);
  assert_memory_equal(d->msg, "99 zzz", 6);
  ir_context_destroy(ctx);
}

static void test_source_without_trailing_newline(void **state) {
  (void)state;
  ir_context *ctx = ir_context_create();
  const ir_source *src = ir_context_add_source(ctx, "a.py", "a = 1\r\nb = c", 12);
  ir_error(ctx, ((ir_loc){src, 2, 5}), "undefined name 'c'");
  ir_error(ctx, ((ir_loc){src, 1, 1}), "crlf");
  char *s = render_all(ctx);
  assert_string_equal(s, "a.py:2:5: error: undefined name 'c'\n"
                         "b = c\n"
                         "    ^\n"
                         "a.py:1:1: error: crlf\n"
                         "a = 1\n"
                         "^\n");
  free(s);
  ir_context_destroy(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_render_caret),
      cmocka_unit_test(test_render_tab_and_unknown),
      cmocka_unit_test(test_many_diags_and_long_message),
      cmocka_unit_test(test_source_without_trailing_newline),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
