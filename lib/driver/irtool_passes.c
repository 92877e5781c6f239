/* irtool_passes.c - the passes the IR tool can name: the one registry of
 * lib/ir-ttgpu (ttir and ttgir passes, in pipeline order) plus a test-only
 * pass that breaks the verifier, for testing --verify-each and reproducers. */
#include <string.h>

#include "driver/irtool_impl.h"
#include "ir-ttgpu/ttg.h"

/* test-break-verifier: an arith.addi without operands at the top of the
 * first function body, which the verifier rejects ("expects 2 operands"). */
static bool break_verifier(ir_module *m, ir_arena *scratch, const ir_pass_args *args) {
  (void)scratch;
  (void)args;
  for (ir_op *f = ir_module_body(m)->first; f; f = f->next) {
    if (f->kind != IR_OP_TT_FUNC || !f->nregions || !f->regions[0].first) continue;
    ir_block *b = f->regions[0].first;
    const ir_type *i32 = ir_type_i32(m->ctx);
    ir_op *bad = ir_op_create(m, IR_OP_ARITH_ADDI, f->loc, 1, &i32, 0, NULL, 0);
    if (b->first)
      ir_op_insert_before(b->first, bad);
    else
      ir_block_append(b, bad);
    return true;
  }
  ir_error(m->ctx, m->op->loc, "test-break-verifier: the module has no function");
  return false;
}

static const ir_pass test_break = {
    "test-break-verifier",
    "test only: insert an op the verifier rejects at the top of the first function", NULL,
    break_verifier};

const ir_pass *irt_pass_lookup(const char *name, size_t len) {
  if (strlen(test_break.name) == len && memcmp(test_break.name, name, len) == 0) return &test_break;
  return ttg_pass_lookup(name, len);
}

int ttc_ir_pass_count(void) { return ttg_pass_count() + 1; }

static const ir_pass *pass_at(int i) {
  if (i == ttg_pass_count()) return &test_break;
  return i >= 0 ? ttg_pass_at(i) : NULL;
}

const char *ttc_ir_pass_name(int i) {
  const ir_pass *p = pass_at(i);
  return p ? p->name : NULL;
}

const char *ttc_ir_pass_summary(int i) {
  const ir_pass *p = pass_at(i);
  return p ? p->summary : NULL;
}
