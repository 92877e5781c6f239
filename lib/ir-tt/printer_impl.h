// SPDX-License-Identifier: MIT
/* printer_impl.h - state shared by the printer's files: printer.c (module,
 * value naming, generic form, types and attributes) and print_ops.c (the
 * custom assembly forms of Triton and MLIR ops). */
#ifndef TTC_IR_PRINTER_IMPL_H
#define TTC_IR_PRINTER_IMPL_H

#include "ir-tt/ir.h"

/* The printed name of a value: `%base` or, for a result of a multi-result
 * op printed as a group, `%base#idx`. */
typedef struct ir_pr_name {
  const ir_value *v;
  const char *base; /* without '%' */
  int idx;          /* -1: not grouped */
} ir_pr_name;

typedef struct printer {
  ir_strbuf *out;
  bool locations;
  ir_arena arena;    /* names; freed at the end */
  ir_pr_name *names; /* open addressing on v */
  size_t names_cap, names_len;
  const ir_attr **aliases; /* layouts printed as #blocked, #blocked1, ... */
  int naliases, aliases_cap;
  bool collect; /* numbers aliases as they first appear */
  bool use_aliases;
  int indent;
  /* Where each printed loc(...) sits in out (start, end offsets), for the
   * copy without locations; NULL when none is wanted. */
  size_t *loc_spans;
  size_t nloc_spans, loc_spans_cap;
  bool record_locs;
} printer;

void ir_pr_type(printer *p, const ir_type *t);
void ir_pr_attr(printer *p, const ir_attr *a);
void ir_pr_value(printer *p, const ir_value *v);
void ir_pr_values(printer *p, ir_value *const *vals, int n);   /* "%a, %b" */
void ir_pr_types_of(printer *p, ir_value *const *vals, int n); /* "T1, T2" */
/* `{a = 1 : i32, b}` of the op's attributes not named in `skip` (NULL
 * terminated); nothing when none is left. Leading space included. */
void ir_pr_attr_dict(printer *p, const ir_op *op, const char *const *skip);
/* Region body: `{\n ops \n}` at the current indent; entry block label only
 * when `show_entry_args`; terminators skipped when !print_terminators and
 * the terminator has no operands. */
void ir_pr_region(printer *p, const ir_region *r, bool show_entry_args, bool print_terminators);
void ir_pr_newline_indent(printer *p);
/* Prints the op in its custom form if it has one; false to fall back to
 * the generic form. Results (`%x = `) are already printed. */
bool ir_pr_custom_op(printer *p, const ir_op *op);

#endif
