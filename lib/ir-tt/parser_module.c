// SPDX-License-Identifier: MIT
/* parser_module.c - the IR text parser's structure: layout alias
 * definitions, `module attributes {...} {...}`, regions and blocks with
 * their labels and arguments, op statements (`%a, %b = ...`, `%x:2 = ...`),
 * the generic op form and trailing `loc(...)` locations.
 *
 * An op without `loc(...)` is located at its first token in the parsed
 * text, so verifier errors on IR input point at the IR file. */
#include <stdlib.h>
#include <string.h>

#include "ir-tt/parser_impl.h"

/* ---- locations ------------------------------------------------------ */

/* The context source standing for file `name` of a loc("name":l:c). It has
 * no text: diagnostics at such locations show no source line. */
static const ir_source *loc_source(parser *p, const char *name) {
  size_t n = strlen(name);
  for (int i = 0; i < p->nsources; i++)
    if (p->sources[i].n == n && memcmp(p->sources[i].name, name, n) == 0) return p->sources[i].src;
  if (p->nsources == p->sources_cap) {
    int cap = p->sources_cap ? p->sources_cap * 2 : 4;
    psource *ns = realloc(p->sources, (size_t)cap * sizeof *ns);
    if (!ns) return NULL;
    p->sources = ns;
    p->sources_cap = cap;
  }
  const ir_source *src = ir_context_add_source(p->ctx, name, "", 0);
  if (!src) return NULL;
  p->sources[p->nsources++] = (psource){src->name, n, src};
  return src;
}

/* `loc(unknown)` or `loc("file":line:col)`, if present, into *loc. */
static bool trailing_loc(parser *p, ir_loc *loc) {
  if (!ir_ps_is_ident(p, "loc")) return true;
  ir_ps_next(p);
  if (!ir_ps_expect(p, '(', "after 'loc'")) return false;
  if (ir_ps_accept_ident(p, "unknown")) {
    *loc = (ir_loc){NULL, 0, 0};
    return ir_ps_expect(p, ')', "at the end of location");
  }
  ptok f = ir_ps_next(p);
  if (f.kind == PT_HASH) return ir_ps_error(p, &f, "location aliases are not supported");
  if (f.kind != PT_STRING)
    return ir_ps_error(p, &f, "expected location: \"file\":line:col or unknown");
  int64_t lc[2];
  for (int i = 0; i < 2; i++) {
    if (!ir_ps_expect(p, ':', "in file location")) return false;
    ptok n = ir_ps_next(p);
    lc[i] = 0;
    for (size_t j = 0; n.kind == PT_INT && j < n.n && lc[i] < (1 << 30); j++)
      lc[i] = n.s[j] >= '0' && n.s[j] <= '9' ? lc[i] * 10 + (n.s[j] - '0') : -1;
    if (n.kind != PT_INT || lc[i] < 0 || lc[i] >= (1 << 30))
      return ir_ps_error(p, &n, "expected %s number in file location", i ? "column" : "line");
  }
  if (!ir_ps_expect(p, ')', "at the end of location")) return false;
  const ir_source *src = loc_source(p, ir_ps_string(p, &f));
  if (!src) return ir_ps_error(p, &f, "out of memory");
  *loc = (ir_loc){src, (uint32_t)lc[0], (uint32_t)lc[1]};
  return true;
}

/* ---- op statements -------------------------------------------------- */

static bool parse_op_stmt(parser *p, ir_block *b);

/* `^bb1(%a: T, ...):` into a new block of r. */
static ir_block *block_label(parser *p, ir_region *r) {
  ir_ps_next(p); /* the ^name */
  ir_block *b = ir_block_create(p->m, 0, NULL);
  ir_region_append_block(r, b);
  if (ir_ps_accept(p, '(')) {
    do {
      ptok name = ir_ps_next(p);
      if (name.kind != PT_VALUE || name.idx >= 0) {
        ir_ps_error(p, &name, "expected block argument name");
        return NULL;
      }
      if (!ir_ps_expect(p, ':', "after block argument name")) return NULL;
      const ir_type *ty = ir_ps_type(p);
      if (!ty) return NULL;
      ir_value *v = ir_block_add_arg(p->m, b, ty);
      if (!ir_ps_define(p, &name, v, 1)) return NULL;
    } while (ir_ps_accept(p, ','));
    if (!ir_ps_expect(p, ')', "at the end of block arguments")) return NULL;
  }
  if (!ir_ps_expect(p, ':', "after block label")) return NULL;
  return b;
}

static void add_implicit_yield(parser *p, ir_block *b, ir_loc loc) {
  if (b->last && (ir_op_info_of(b->last)->traits & IR_T_TERMINATOR)) return;
  ir_block_append(b, ir_op_create(p->m, IR_OP_SCF_YIELD, loc, 0, NULL, 0, NULL, 0));
}

static bool parse_region(parser *p, ir_region *r, int nargs, const ir_type *const *entry_types,
                         const ptok *entry_names, bool with_terminator);

bool ir_ps_region(parser *p, ir_region *r, int nargs, const ir_type *const *entry_types,
                  const ptok *entry_names, bool with_terminator) {
  if (!ir_ps_nest(p)) return false;
  bool ok = parse_region(p, r, nargs, entry_types, entry_names, with_terminator);
  ir_ps_unnest(p);
  return ok;
}

static bool parse_region(parser *p, ir_region *r, int nargs, const ir_type *const *entry_types,
                         const ptok *entry_names, bool with_terminator) {
  if (!ir_ps_expect(p, '{', "to open the region")) return false;
  size_t mark = ir_ps_scope_push(p);
  ir_block *b = NULL;
  if (nargs >= 0) {
    b = ir_block_create(p->m, nargs, entry_types);
    ir_region_append_block(r, b);
    for (int i = 0; i < nargs; i++)
      if (!ir_ps_define(p, &entry_names[i], b->args[i], 1)) return false;
  }
  ptok close;
  for (;;) {
    if (p->failed) return false;
    const ptok *t = ir_ps_peek(p);
    if (t->kind == PT_PUNCT && t->s[0] == '}') {
      close = ir_ps_next(p);
      break;
    }
    if (t->kind == PT_EOF) return ir_ps_error(p, NULL, "expected '}' to close the region");
    if (t->kind == PT_BLOCK) {
      if (!(b = block_label(p, r))) return false;
      continue;
    }
    if (!b) {
      b = ir_block_create(p->m, 0, NULL);
      ir_region_append_block(r, b);
    }
    if (!parse_op_stmt(p, b)) return false;
  }
  if (with_terminator) {
    if (!r->first) ir_region_append_block(r, ir_block_create(p->m, 0, NULL));
    for (ir_block *blk = r->first; blk; blk = blk->next)
      add_implicit_yield(p, blk, ir_ps_loc(p, &close));
  }
  ir_ps_scope_pop(p, mark);
  return true;
}

/* Moves the blocks of a scratch region into the op's region i. */
static void transplant(ir_op *op, int i, ir_region *tmp) {
  op->regions[i].first = tmp->first;
  op->regions[i].last = tmp->last;
  for (ir_block *b = tmp->first; b; b = b->next)
    b->parent = &op->regions[i];
}

/* `"name"(%a) <{props}> ({regions}) {attrs} : (T) -> R` after the name. */
static ir_op *generic_op(parser *p, const ptok *name, ir_loc loc) {
  ir_op *op = NULL;
  ir_value **vals = NULL;
  ptok *toks = NULL;
  const ir_type **in = NULL, **out = NULL;
  ir_region *regions = NULL;
  pattrs attrs = {0};
  int nvals = 0, nin = 0, nout = 0, nregions = 0;
  ir_op_kind kind;
  const char *opname = ir_ps_string(p, name);
  if (!ir_op_kind_lookup(opname, strlen(opname), &kind)) {
    ir_ps_error(p, name, "unknown operation '%s'", opname);
    return NULL;
  }
  if (kind == IR_OP_MODULE) {
    ir_ps_error(p, name, "'module' is only allowed at the top level");
    return NULL;
  }
  if (!ir_ps_expect(p, '(', "to open the operand list")) goto done;
  if (!ir_ps_operand_list(p, true, &vals, &nvals, &toks, NULL)) goto done;
  if (!ir_ps_expect(p, ')', "to close the operand list")) goto done;
  if (ir_ps_is_punct(p, '<') && !ir_ps_attr_dict_into(p, &attrs, true, kind)) goto done;
  if (ir_ps_accept(p, '(')) {
    int cap = 0;
    do {
      if (nregions == cap) {
        cap = cap ? cap * 2 : 2;
        ir_region *nr = realloc(regions, (size_t)cap * sizeof *nr);
        if (!nr) {
          ir_ps_error(p, NULL, "out of memory");
          goto done;
        }
        regions = nr;
      }
      memset(&regions[nregions], 0, sizeof *regions);
      if (!ir_ps_region(p, &regions[nregions++], -1, NULL, NULL, false)) goto done;
    } while (ir_ps_accept(p, ','));
    if (!ir_ps_expect(p, ')', "to close the region list")) goto done;
  }
  if (ir_ps_is_punct(p, '{') && !ir_ps_attr_dict_into(p, &attrs, false, kind)) goto done;
  if (!ir_ps_expect(p, ':', "before the operation type")) goto done;
  ptok ft = *ir_ps_peek(p);
  if (!ir_ps_paren_types(p, false, &in, &nin) || !ir_ps_expect_arrow(p, "in operation type") ||
      !ir_ps_paren_types(p, true, &out, &nout))
    goto done;
  if (nin != nvals) {
    ir_ps_error(p, &ft, "expected %d operand types but had %d", nvals, nin);
    goto done;
  }
  for (int i = 0; i < nvals; i++)
    if (!ir_ps_check_type(p, &toks[i], vals[i], in[i])) goto done;
  op = ir_op_create(p->m, kind, loc, nout, out, nvals, vals, nregions);
  for (int i = 0; i < nregions; i++)
    transplant(op, i, &regions[i]);
  ir_ps_attrs_apply(p, op, &attrs);
done:
  free(vals);
  free(toks);
  free(in);
  free(out);
  free(regions);
  free(attrs.a);
  return p->failed ? NULL : op;
}

/* The op after its result names (`names`, or one `%name:group`). */
static bool finish_op_stmt(parser *p, ir_block *b, const ptok *first, ir_loc loc, const ptok *names,
                           int nnames, int group) {
  ptok nt = ir_ps_next(p);
  ir_op *op = NULL;
  if (nt.kind == PT_STRING) {
    op = generic_op(p, &nt, loc);
  } else if (nt.kind == PT_IDENT) {
    ir_op_kind kind;
    if (!ir_op_kind_lookup(nt.s, nt.n, &kind))
      return ir_ps_error(p, &nt, "unknown operation '%.*s'", (int)nt.n, nt.s);
    if (kind == IR_OP_MODULE)
      return ir_ps_error(p, &nt, "'module' is only allowed at the top level");
    op = ir_ps_custom_op(p, kind, &nt, loc);
  } else {
    return ir_ps_error(p, &nt, "expected operation name");
  }
  if (!op) return false;
  if (p->m->nops > ir_context_max_ops(p->ctx)) { /* a bound on the input's memory and time */
    char limit[96];
    ir_format_op_limit(p->ctx, limit, sizeof limit);
    return ir_ps_error(p, first, "the IR has %s", limit);
  }
  int bound = group ? group : nnames;
  if (nnames > 0 && op->nresults != bound)
    return ir_ps_error(p, first, "operation defines %d results but was provided %d to bind",
                       op->nresults, bound);
  if (group) {
    if (!ir_ps_define(p, &names[0], op->results, group)) return false;
  } else {
    for (int i = 0; i < nnames; i++)
      if (!ir_ps_define(p, &names[i], &op->results[i], 1)) return false;
  }
  if (!trailing_loc(p, &op->loc)) return false;
  ir_block_append(b, op);
  return true;
}

/* One op: `[results =] op-form [loc(...)]`, appended to b. The result
 * names (one each, as the printer writes an op whose results have names
 * of their own: a loop or if carrying many values) live on the stack up to
 * 16 and on the heap beyond, up to IR_MAX_RESULT_NAMES. */
static bool parse_op_stmt(parser *p, ir_block *b) {
  ptok first = *ir_ps_peek(p);
  ir_loc loc = ir_ps_loc(p, &first);
  ptok local[16], *names = local;
  int nnames = 0, cap = 16, group = 0;
  bool ok = true;
  if (first.kind == PT_VALUE) {
    do {
      ptok t = ir_ps_next(p);
      if (t.kind != PT_VALUE || t.idx >= 0) {
        ok = ir_ps_error(p, &t, "expected result name");
        break;
      }
      if (nnames == IR_MAX_RESULT_NAMES) {
        ok = ir_ps_error(p, &t, "more than %d result names", IR_MAX_RESULT_NAMES);
        break;
      }
      if (nnames == cap) {
        ptok *more = malloc(sizeof *more * (size_t)cap * 2);
        if (!more) {
          ok = ir_ps_error(p, &t, "out of memory");
          break;
        }
        memcpy(more, names, sizeof *names * (size_t)nnames);
        if (names != local) free(names);
        names = more;
        cap *= 2;
      }
      names[nnames++] = t;
      if (nnames == 1 && ir_ps_accept(p, ':')) {
        ptok c = ir_ps_next(p);
        group = 0;
        /* digits only: a hex or exponent form stops at its first other byte */
        for (size_t i = 0; c.kind == PT_INT && i < c.n && group >= 0 && group < 100000; i++)
          group = c.s[i] >= '0' && c.s[i] <= '9' ? group * 10 + (c.s[i] - '0') : -1;
        if (c.kind != PT_INT || group < 1 || group >= 100000)
          ok = ir_ps_error(p, &c, "expected result count after ':'");
        break;
      }
    } while (ir_ps_accept(p, ','));
    ok = ok && ir_ps_expect(p, '=', "after result names");
  }
  ok = ok && finish_op_stmt(p, b, &first, loc, names, nnames, group);
  if (names != local) free(names);
  return ok;
}

/* ---- module --------------------------------------------------------- */

/* `#name = #ttg.blocked<{...}>` (or any layout) lines before the module. */
static bool alias_def(parser *p) {
  ptok name = ir_ps_next(p);
  if (name.n > 4 && memcmp(name.s, "ttg.", 4) == 0)
    return ir_ps_error(p, &name, "expected alias name, found a layout");
  for (int i = 0; i < p->naliases; i++)
    if (p->aliases[i].n == name.n && memcmp(p->aliases[i].s, name.s, name.n) == 0)
      return ir_ps_error(p, &name, "redefinition of symbol alias id '%.*s'", (int)name.n, name.s);
  if (!ir_ps_expect(p, '=', "in alias definition")) return false;
  if (ir_ps_is_ident(p, "loc")) return ir_ps_error(p, NULL, "location aliases are not supported");
  if (p->naliases == IR_MAX_ALIASES)
    return ir_ps_error(p, &name, "more than %d layout aliases", IR_MAX_ALIASES);
  const ir_attr *a = ir_ps_layout(p);
  if (!a) return false;
  if (p->naliases == p->aliases_cap) {
    int cap = p->aliases_cap ? p->aliases_cap * 2 : 8;
    palias *na = realloc(p->aliases, (size_t)cap * sizeof *na);
    if (!na) return ir_ps_error(p, &name, "out of memory");
    p->aliases = na;
    p->aliases_cap = cap;
  }
  p->aliases[p->naliases++] = (palias){name.s, name.n, a};
  return true;
}

/* Ops of the module body until `}` (or the end of input, when the module
 * is implicit). */
static bool module_body(parser *p, ir_block *body, bool braced) {
  size_t mark = ir_ps_scope_push(p);
  for (;;) {
    if (p->failed) return false;
    const ptok *t = ir_ps_peek(p);
    if (braced && t->kind == PT_PUNCT && t->s[0] == '}') {
      ir_ps_next(p);
      break;
    }
    if (t->kind == PT_EOF) {
      if (braced) return ir_ps_error(p, NULL, "expected '}' at the end of the module");
      break;
    }
    if (t->kind == PT_BLOCK)
      return ir_ps_error(p, NULL, "block labels are not allowed in a module");
    if (!parse_op_stmt(p, body)) return false;
  }
  ir_ps_scope_pop(p, mark);
  return true;
}

static bool parse_module(parser *p) {
  while (ir_ps_peek(p)->kind == PT_HASH)
    if (!alias_def(p)) return false;
  ptok first = *ir_ps_peek(p);
  p->m = ir_module_create(p->ctx, ir_ps_loc(p, &first));
  if (!p->m) return ir_ps_error(p, &first, "out of memory");
  if (!ir_ps_accept_ident(p, "module")) return module_body(p, ir_module_body(p->m), false);
  if (ir_ps_peek(p)->kind == PT_SYMBOL)
    return ir_ps_error(p, NULL, "named modules are not supported");
  if (ir_ps_accept_ident(p, "attributes") && !ir_ps_attr_dict(p, p->m->op, false)) return false;
  if (!ir_ps_expect(p, '{', "to open the module body")) return false;
  if (!module_body(p, ir_module_body(p->m), true)) return false;
  if (!trailing_loc(p, &p->m->op->loc)) return false;
  if (ir_ps_peek(p)->kind != PT_EOF)
    return ir_ps_error(p, NULL, "expected end of input after the module");
  return true;
}

/* A parser at the start of src; parser_fini frees its tables. */
static void parser_init(parser *p, ir_context *ctx, const ir_source *src) {
  memset(p, 0, sizeof *p);
  p->ctx = ctx;
  p->src = src;
  p->cur = src->text;
  p->end = src->text + src->len;
  p->line = 1;
  /* a UTF-8 byte-order mark at the start of the file is skipped (columns
   * count from after it, as the kernel lexer's do) */
  if (src->len >= 3 && memcmp(src->text, "\xEF\xBB\xBF", 3) == 0) p->cur += 3;
  p->line_start = p->cur;
}

static void parser_fini(parser *p) {
  free(p->names);
  free(p->name_buckets);
  free(p->aliases);
  free(p->sources);
}

ir_module *ir_parse_module(ir_context *ctx, const ir_source *src) {
  parser p;
  parser_init(&p, ctx, src);
  bool ok = parse_module(&p) && !p.failed;
  parser_fini(&p);
  if (!ok) {
    ir_module_destroy(p.m);
    return NULL;
  }
  return p.m;
}

const ir_type *ir_parse_type(ir_context *ctx, const ir_source *src) {
  parser p;
  parser_init(&p, ctx, src);
  const ir_type *t = ir_ps_type(&p);
  if (t && ir_ps_peek(&p)->kind != PT_EOF)
    ir_ps_error(&p, NULL, "expected end of input after the type");
  parser_fini(&p);
  return p.failed ? NULL : t;
}
