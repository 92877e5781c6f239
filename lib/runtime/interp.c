// SPDX-License-Identifier: MIT
/* interp.c - the ttir interpreter's core: preparing a tt.func (numbering
 * every value into a slot, compiling blocks into instruction arrays,
 * evaluating constants once), and running a grid of programs: the op
 * dispatch (once per op, never per element), structured control flow,
 * program ids, tt.assert and tt.print. Op handlers live in interp_*.c. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/interp_impl.h"

/* ---- preparing: value -> slot map ----------------------------------------- */

/* Open-addressing map from ir_value pointers to slot numbers, used only
 * while preparing. */
typedef struct slot_map {
  const ir_value **keys;
  int *vals;
  size_t cap, n;
} slot_map;

static size_t map_hash(const ir_value *v, size_t cap) { return ir_ptr_slot(v, cap); }

static bool map_put(slot_map *m, const ir_value *v, int slot) {
  if (2 * (m->n + 1) > m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 256;
    const ir_value **keys = calloc(cap, sizeof *keys);
    int *vals = calloc(cap, sizeof *vals);
    if (!keys || !vals) {
      free(keys);
      free(vals);
      return false;
    }
    for (size_t i = 0; i < m->cap; i++) {
      if (!m->keys[i]) continue;
      size_t h = map_hash(m->keys[i], cap);
      while (keys[h])
        h = (h + 1) & (cap - 1);
      keys[h] = m->keys[i];
      vals[h] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
  }
  size_t h = map_hash(v, m->cap);
  while (m->keys[h] && m->keys[h] != v)
    h = (h + 1) & (m->cap - 1);
  if (!m->keys[h]) m->n++;
  m->keys[h] = v;
  m->vals[h] = slot;
  return true;
}

static int map_get(const slot_map *m, const ir_value *v) {
  if (!m->cap) return -1;
  size_t h = map_hash(v, m->cap);
  while (m->keys[h]) {
    if (m->keys[h] == v) return m->vals[h];
    h = (h + 1) & (m->cap - 1);
  }
  return -1;
}

/* ---- preparing: compiling blocks ------------------------------------------ */

/* Live ranges, for sharing storage between values that are never live at
 * once. Ops are numbered in program order (nested regions inside their
 * op); a value lives from the op that defines it to the last that reads
 * it, and through the whole of any loop (or other region op) that reads it
 * from inside but began after it; a region op's results and its regions'
 * arguments live through the whole op, which writes them as it runs. */
typedef struct live_ranges {
  int now;              /* the op being prepared */
  int *def, *use, *ext; /* per slot: defining op, last reader, region op to outlive (-1) */
  int *start, *end;     /* per region op */
  int nregion_ops, region_cap;
  int *open; /* region ops being prepared, outermost first */
  int nopen, open_cap;
} live_ranges;

typedef struct prep {
  rt_interp *ip;
  slot_map map;
  int slot_cap;
  char *err;
  size_t errlen;
  bool failed;
  live_ranges lr;
} prep;

static bool grow_ints(int **a, int n) {
  int *g = realloc(*a, (size_t)n * sizeof **a);
  if (!g) return false;
  *a = g;
  return true;
}

/* A read of slot s by the op being prepared. */
static void live_use(live_ranges *lr, int s) {
  if (lr->use[s] < lr->now) lr->use[s] = lr->now;
  for (int i = 0; i < lr->nopen; i++) { /* the outermost open region op after its definition */
    int r = lr->open[i];
    if (lr->start[r] <= lr->def[s]) continue;
    if (lr->ext[s] < 0 || lr->start[r] > lr->start[lr->ext[s]]) lr->ext[s] = r;
    break;
  }
}

static void live_free(live_ranges *lr) {
  free(lr->def);
  free(lr->use);
  free(lr->ext);
  free(lr->start);
  free(lr->end);
  free(lr->open);
}

void rt_interp_loc(const ir_op *op, char *out, size_t cap) {
  if (op && op->loc.src)
    snprintf(out, cap, "%s:%u:%u", op->loc.src->name, op->loc.line, op->loc.col);
  else
    snprintf(out, cap, "<unknown location>");
}

static void prep_fail(prep *p, const ir_op *op, const char *fmt, ...) {
  if (p->failed) return;
  p->failed = true;
  char loc[512], msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  rt_interp_loc(op, loc, sizeof loc);
  snprintf(p->err, p->errlen, "%s: interpreter: %s", loc, msg);
}

/* A new slot for v; `cap` > 0 overrides the capacity (combine regions). */
static int prep_slot(prep *p, const ir_value *v, size_t cap) {
  rt_interp *ip = p->ip;
  if (ip->nslots == p->slot_cap) {
    int ncap = p->slot_cap ? 2 * p->slot_cap : 64;
    rt_islot *ns = realloc(ip->slots, (size_t)ncap * sizeof *ns);
    if (!ns) return -1;
    ip->slots = ns;
    if (!grow_ints(&p->lr.def, ncap) || !grow_ints(&p->lr.use, ncap) ||
        !grow_ints(&p->lr.ext, ncap))
      return -1;
    p->slot_cap = ncap;
  }
  int s = ip->nslots++;
  p->lr.def[s] = p->lr.use[s] = p->lr.now;
  p->lr.ext[s] = -1;
  rt_islot *sl = &ip->slots[s];
  memset(sl, 0, sizeof *sl);
  sl->type = v->type;
  sl->elem = ir_type_scalar(v->type);
  sl->esize = ir_type_bytes(sl->elem);
  sl->numel = (size_t)ir_type_numel(v->type);
  sl->cap = cap > sl->numel ? cap : sl->numel;
  if (sl->cap > ip->max_numel) ip->max_numel = sl->cap;
  if (!map_put(&p->map, v, s)) return -1;
  return s;
}

static int *prep_ints(prep *p, int n) {
  return n ? ir_arena_alloc(&p->ip->arena, (size_t)n * sizeof(int)) : NULL;
}

static bool prep_block(prep *p, const ir_block *blk, rt_iblock *out, size_t lanes);

/* Ops a combine region may hold when it runs over many lanes at once. */
static bool lane_ok(const ir_op *op) {
  const ir_op_info *info = ir_op_info_of(op);
  return (info->traits & IR_T_ELEMENTWISE) || (info->traits & IR_T_TERMINATOR) ||
         op->kind == IR_OP_ARITH_CONSTANT;
}

/* The kernel argument a pointer value derives from, following the ops that
 * keep an address's allocation (addptr's pointer, splat, broadcast,
 * expand_dims, reshape) and scf.for's loop-carried values back to their
 * initial value; NULL when something else made it (a load, a select, an
 * int-to-pointer cast), which provenance then does not check. */
static const ir_value *pointer_origin(const ir_value *v) {
  for (int steps = 0; v && steps < 4096; steps++) {
    if (!v->def) {
      const ir_op *parent = v->owner && v->owner->parent ? v->owner->parent->parent : NULL;
      if (!parent) return NULL;
      if (parent->kind == IR_OP_TT_FUNC) return v;
      /* scf.for: argument 0 is the induction variable, i >= 1 carries init i-1 */
      if (parent->kind != IR_OP_SCF_FOR || v->index < 1 || 3 + v->index - 1 >= parent->noperands)
        return NULL;
      v = parent->operands[3 + v->index - 1];
      continue;
    }
    ir_op_kind k = v->def->kind;
    if (k != IR_OP_TT_ADDPTR && k != IR_OP_TT_SPLAT && k != IR_OP_TT_BROADCAST &&
        k != IR_OP_TT_EXPAND_DIMS && k != IR_OP_TT_RESHAPE)
      return NULL;
    v = v->def->operands[0];
  }
  return NULL;
}

static bool prep_op(prep *p, const ir_op *op, rt_ins *ins, size_t lanes) {
  ins->op = op;
  ins->origin = -1;
  live_ranges *lr = &p->lr;
  lr->now++;
  if ((op->kind == IR_OP_TT_LOAD || op->kind == IR_OP_TT_STORE || op->kind == IR_OP_TT_ATOMIC_RMW ||
       op->kind == IR_OP_TT_ATOMIC_CAS) &&
      op->noperands) {
    const ir_value *arg = pointer_origin(op->operands[0]);
    if (arg && arg->type->kind == IR_TY_PTR) {
      ins->origin = map_get(&p->map, arg);
      ins->origin_name = arg->name;
    }
  }
  ins->nin = op->noperands;
  ins->nout = op->nresults;
  ins->in = prep_ints(p, op->noperands);
  ins->out = prep_ints(p, op->nresults);
  if ((op->noperands && !ins->in) || (op->nresults && !ins->out)) return false;
  if (lanes && !lane_ok(op)) {
    prep_fail(p, op, "'%s' inside a reduce or scan combine region is not supported",
              ir_op_name(op));
    return false;
  }
  for (int i = 0; i < op->noperands; i++) {
    int s = map_get(&p->map, op->operands[i]);
    if (s < 0) {
      prep_fail(p, op, "operand %d of '%s' has no definition", i, ir_op_name(op));
      return false;
    }
    /* A combine region runs over many lanes: every operand must be a
     * lane value of the region, never a single outer scalar. */
    if (lanes && p->ip->slots[s].cap < lanes) {
      prep_fail(p, op, "a combine region may not use values defined outside it");
      return false;
    }
    ins->in[i] = s;
    live_use(lr, s);
  }
  for (int i = 0; i < op->nresults; i++) {
    int s = prep_slot(p, &op->results[i], lanes);
    if (s < 0) return false;
    ins->out[i] = s;
    if (op->kind == IR_OP_ARITH_CONSTANT || op->kind == IR_OP_TT_MAKE_RANGE)
      p->ip->slots[s].is_const = true;
  }
  ins->n = op->nresults    ? p->ip->slots[ins->out[0]].numel
           : op->noperands ? p->ip->slots[ins->in[0]].numel
                           : 1;
  /* Reduce and scan combine regions run over as many lanes as the input. */
  size_t inner = lanes;
  if (op->kind == IR_OP_TT_REDUCE || op->kind == IR_OP_TT_SCAN)
    inner = p->ip->slots[ins->in[0]].numel;
  ins->nregions = op->nregions;
  ins->regions =
      op->nregions ? ir_arena_alloc(&p->ip->arena, (size_t)op->nregions * sizeof(rt_iblock)) : NULL;
  if (op->nregions && !ins->regions) return false;
  if (!op->nregions) return true;
  /* a region op: open while its regions are prepared */
  if (lr->nregion_ops == lr->region_cap) {
    lr->region_cap = lr->region_cap ? 2 * lr->region_cap : 64;
    if (!grow_ints(&lr->start, lr->region_cap) || !grow_ints(&lr->end, lr->region_cap))
      return false;
  }
  if (lr->nopen == lr->open_cap) {
    lr->open_cap = lr->open_cap ? 2 * lr->open_cap : 16;
    if (!grow_ints(&lr->open, lr->open_cap)) return false;
  }
  int rid = lr->nregion_ops++;
  lr->start[rid] = lr->now;
  lr->open[lr->nopen++] = rid;
  for (int r = 0; r < op->nregions; r++) {
    const ir_block *entry = ir_region_entry(&op->regions[r]);
    if (!entry) continue;
    if (entry->next) {
      prep_fail(p, op, "'%s' with a multi-block region is not supported", ir_op_name(op));
      return false;
    }
    if (!prep_block(p, entry, &ins->regions[r], inner)) return false;
  }
  lr->nopen--;
  lr->end[rid] = lr->now;
  /* read or written while the op runs (a reduce reads its input between
   * runs of its combine region): its operands, results and its regions'
   * arguments */
  for (int i = 0; i < ins->nin; i++)
    if (lr->use[ins->in[i]] < lr->now) lr->use[ins->in[i]] = lr->now;
  for (int i = 0; i < ins->nout; i++)
    lr->use[ins->out[i]] = lr->now;
  for (int r = 0; r < ins->nregions; r++)
    for (int a = 0; a < ins->regions[r].nargs; a++)
      lr->use[ins->regions[r].args[a]] = lr->now;
  return true;
}

static bool prep_block(prep *p, const ir_block *blk, rt_iblock *out, size_t lanes) {
  out->nargs = blk->nargs;
  out->args = prep_ints(p, blk->nargs);
  if (blk->nargs && !out->args) return false;
  for (int i = 0; i < blk->nargs; i++)
    if ((out->args[i] = prep_slot(p, blk->args[i], lanes)) < 0) return false;
  int n = 0;
  for (const ir_op *op = blk->first; op; op = op->next)
    n++;
  out->nins = n;
  out->ins = n ? ir_arena_alloc(&p->ip->arena, (size_t)n * sizeof(rt_ins)) : NULL;
  if (n && !out->ins) return false;
  int i = 0;
  for (const ir_op *op = blk->first; op; op = op->next, i++)
    if (!prep_op(p, op, &out->ins[i], lanes)) return false;
  if (n == 0 || !(ir_op_info_of(out->ins[n - 1].op)->traits & IR_T_TERMINATOR)) {
    prep_fail(p, blk->parent ? blk->parent->parent : NULL, "block without a terminator");
    return false;
  }
  return true;
}

/* Evaluates the constants (and make_range) of a block tree into the pool. */
static bool prep_constants(prep *p, const rt_iblock *b) {
  rt_interp *ip = p->ip;
  for (int i = 0; i < b->nins; i++) {
    const rt_ins *ins = &b->ins[i];
    for (int r = 0; r < ins->nregions; r++)
      if (!prep_constants(p, &ins->regions[r])) return false;
    if (ins->op->kind != IR_OP_ARITH_CONSTANT && ins->op->kind != IR_OP_TT_MAKE_RANGE) continue;
    const rt_islot *s = &ip->slots[ins->out[0]];
    void *dst = ip->pool + s->offset;
    if (ins->op->kind == IR_OP_TT_MAKE_RANGE) {
      int64_t start = ir_op_get_int(ins->op, "start", 0);
      for (size_t k = 0; k < s->numel; k++)
        ((int32_t *)dst)[k] = (int32_t)(start + (int64_t)k);
      continue;
    }
    const ir_attr *a = ir_op_get_attr(ins->op, "value");
    if (!a || !rt_interp_fill_constant(a, s, dst, s->cap)) {
      prep_fail(p, ins->op, "unsupported constant");
      return false;
    }
  }
  return true;
}

/* The most the interpreter holds for a kernel's values, after values that
 * are never live at once share storage (before, 400 statements on a
 * 2^20-element tile took 3.6 GB). */
#define INTERP_MAX_VALUE_BYTES ((size_t)2 << 30)

static size_t slot_bytes(const rt_islot *sl) {
  size_t bytes = (sl->cap * sl->esize + 63) / 64 * 64;
  return bytes ? bytes : 64;
}

/* The active slots of the layout scan: a binary heap on the last op that
 * reads them. */
static void heap_push(int *h, int *n, const int *key, int s) {
  int i = (*n)++;
  while (i > 0 && key[h[(i - 1) / 2]] > key[s]) {
    h[i] = h[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h[i] = s;
}

static int heap_pop(int *h, int *n, const int *key) {
  int top = h[0], last = h[--(*n)], i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= *n) break;
    if (c + 1 < *n && key[h[c + 1]] < key[h[c]]) c++;
    if (key[h[c]] >= key[last]) break;
    h[i] = h[c];
    i = c;
  }
  if (*n > 0) h[i] = last;
  return top;
}

/* Storage offsets from the live ranges: a slot takes the place of one of
 * the same size that is no longer live, else a new one (a scan in the order
 * of definition). Returns the storage's size, or 0 when out of memory. */
static size_t share_storage(prep *p) {
  rt_interp *ip = p->ip;
  live_ranges *lr = &p->lr;
  int n = ip->nslots;
  for (int i = 0; i < ip->body.nargs; i++) /* the kernel's parameters: the whole launch */
    lr->use[ip->body.args[i]] = lr->now;
  for (int s = 0; s < n; s++)
    if (lr->ext[s] >= 0 && lr->use[s] < lr->end[lr->ext[s]]) lr->use[s] = lr->end[lr->ext[s]];
  /* free places by size: an open-addressing table of sizes to a list of
   * slots whose places are free (linked through `next`) */
  size_t cap = 64;
  while (cap < 2 * (size_t)n)
    cap *= 2;
  size_t *keys = calloc(cap, sizeof *keys);
  int *heads = malloc(cap * sizeof *heads), *next = malloc(((size_t)n + 1) * sizeof *next);
  int *active = malloc(((size_t)n + 1) * sizeof *active);
  size_t storage = 0;
  if (keys && heads && next && active) {
    int nactive = 0;
    for (int s = 0; s < n; s++) {
      rt_islot *sl = &ip->slots[s];
      if (sl->is_const) continue;
      while (nactive > 0 && lr->use[active[0]] < lr->def[s]) { /* dead before s: free */
        int d = heap_pop(active, &nactive, lr->use);
        size_t b = slot_bytes(&ip->slots[d]), h = (b / 64 * 0x9E3779B97F4A7C15ull) & (cap - 1);
        while (keys[h] && keys[h] != b)
          h = (h + 1) & (cap - 1);
        if (!keys[h]) keys[h] = b, heads[h] = -1;
        next[d] = heads[h];
        heads[h] = d;
      }
      size_t b = slot_bytes(sl), h = (b / 64 * 0x9E3779B97F4A7C15ull) & (cap - 1);
      while (keys[h] && keys[h] != b)
        h = (h + 1) & (cap - 1);
      if (keys[h] && heads[h] >= 0) {
        sl->offset = ip->slots[heads[h]].offset;
        heads[h] = next[heads[h]];
      } else {
        sl->offset = storage;
        storage += b;
      }
      heap_push(active, &nactive, lr->use, s);
    }
  }
  free(keys);
  free(heads);
  free(next);
  free(active);
  return keys && heads && next && active ? (storage ? storage : 64) : 0;
}

/* Lays out storage (launch block) and pool (constants), 64-byte aligned. */
static bool prep_layout(prep *p) {
  rt_interp *ip = p->ip;
  size_t storage = share_storage(p), pool = 0;
  if (!storage) return false;
  for (int s = 0; s < ip->nslots; s++) {
    rt_islot *sl = &ip->slots[s];
    if (!sl->is_const) continue;
    sl->offset = pool;
    pool += slot_bytes(sl);
  }
  if (storage + pool > INTERP_MAX_VALUE_BYTES) {
    prep_fail(p, ip->func,
              "the kernel's values need %zu MiB, above the interpreter's limit of %zu MiB (each "
              "value holds its whole tile, and these are live at once): use smaller tiles or "
              "fewer values live together",
              (storage + pool) >> 20, INTERP_MAX_VALUE_BYTES >> 20);
    return false;
  }
  ip->storage_bytes = storage ? storage : 64;
  ip->pool = aligned_alloc(64, pool ? pool : 64);
  if (!ip->pool) return false;
  memset(ip->pool, 0, pool ? pool : 64);
  return prep_constants(p, &ip->body);
}

rt_interp *rt_interp_prepare(const ir_op *func, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  rt_interp *ip = calloc(1, sizeof *ip);
  if (!ip) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  ir_arena_init(&ip->arena);
  ip->func = func;
  prep p = {ip, {0}, 0, err, errlen, false, {0}};
  const ir_block *entry = func && func->nregions ? ir_region_entry(&func->regions[0]) : NULL;
  bool ok = entry != NULL;
  if (!ok) prep_fail(&p, func, "the kernel has no body");
  if (ok) ok = prep_block(&p, entry, &ip->body, 0);
  if (ok) {
    ip->nparams = entry->nargs;
    ok = prep_layout(&p);
  }
  free(p.map.keys);
  free(p.map.vals);
  live_free(&p.lr);
  if (!ok) {
    if (!p.failed) snprintf(err, errlen, "out of memory");
    rt_interp_destroy(ip);
    return NULL;
  }
  return ip;
}

void rt_interp_destroy(rt_interp *ip) {
  if (!ip) return;
  ir_arena_free(&ip->arena);
  free(ip->slots);
  free(ip->pool);
  free(ip);
}

int rt_interp_num_params(const rt_interp *ip) { return ip ? ip->nparams : 0; }

/* ---- running ---------------------------------------------------------------- */

bool rt_iexec_fail(rt_iexec *ex, const ir_op *op, ttc_status st, const char *what, const char *fmt,
                   ...) {
  char loc[512], msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  rt_interp_loc(op, loc, sizeof loc);
  snprintf(ex->err, ex->errlen, "%s at %s in program (%u, %u, %u): %s", what, loc, ex->pid[0],
           ex->pid[1], ex->pid[2], msg);
  ex->st = st;
  return false;
}

/* Copies slot `from` into slot `to` (same type). */
static void copy_slot(rt_iexec *ex, int to, int from) {
  const rt_islot *s = rt_slot(ex, to);
  if (ex->v[to] != ex->v[from]) memcpy(ex->v[to], ex->v[from], s->numel * s->esize);
}

/* A scalar integer slot as a signed 64-bit value. */
static int64_t scalar_int(const rt_iexec *ex, int slot) {
  const void *p = ex->v[slot];
  switch (rt_slot(ex, slot)->esize) {
  case 1:
    if (rt_slot(ex, slot)->elem->width == 1) return *(const uint8_t *)p & 1;
    return *(const int8_t *)p;
  case 2: return *(const int16_t *)p;
  case 4: return *(const int32_t *)p;
  default: return *(const int64_t *)p;
  }
}

static void scalar_set_int(rt_iexec *ex, int slot, int64_t x) {
  void *p = ex->v[slot];
  switch (rt_slot(ex, slot)->esize) {
  case 1: *(int8_t *)p = (int8_t)x; return;
  case 2: *(int16_t *)p = (int16_t)x; return;
  case 4: *(int32_t *)p = (int32_t)x; return;
  default: *(int64_t *)p = x; return;
  }
}

/* Whether the launch is still inside its time (TTC_INTERP_TIMEOUT): the
 * clock is read every 4096 loop iterations and programs. */
static bool in_time(rt_iexec *ex, const ir_op *op) {
  if (ex->timeout_s <= 0 || ++ex->ticks % 4096 != 0 || ir_now_seconds() < ex->deadline) return true;
  return rt_iexec_fail(ex, op, TTC_ERROR_INPUT, "timeout",
                       "the launch ran past %ld s (TTC_INTERP_TIMEOUT) and was stopped",
                       ex->timeout_s);
}

static bool exec_for(rt_iexec *ex, const rt_ins *ins) {
  int64_t lb = scalar_int(ex, ins->in[0]), ub = scalar_int(ex, ins->in[1]);
  int64_t step = scalar_int(ex, ins->in[2]);
  const rt_iblock *body = &ins->regions[0];
  int ncarried = ins->nin - 3;
  if (step <= 0 && lb < ub)
    return rt_iexec_fail(ex, ins->op, TTC_ERROR_UNSUPPORTED, "scf.for",
                         "step %" PRId64 " is not positive", step);
  for (int j = 0; j < ncarried; j++)
    copy_slot(ex, ins->out[j], ins->in[3 + j]);
  for (int64_t iv = lb; iv < ub;) {
    if (!in_time(ex, ins->op)) return false;
    scalar_set_int(ex, body->args[0], iv);
    for (int j = 0; j < ncarried; j++)
      copy_slot(ex, body->args[1 + j], ins->out[j]);
    const rt_ins *term = rt_iexec_block(ex, body);
    if (!term) return false;
    for (int j = 0; j < ncarried; j++)
      copy_slot(ex, ins->out[j], term->in[j]);
    /* iv + step may pass INT64_MAX: compare the distance left instead
     * (exact in unsigned arithmetic since iv < ub). */
    if ((uint64_t)ub - (uint64_t)iv <= (uint64_t)step) break;
    iv += step;
  }
  return true;
}

static bool exec_if(rt_iexec *ex, const rt_ins *ins) {
  bool cond = (*(const uint8_t *)ex->v[ins->in[0]] & 1) != 0;
  const rt_iblock *b = &ins->regions[cond ? 0 : 1];
  if (b->nins == 0) return true; /* an absent else: no results */
  const rt_ins *term = rt_iexec_block(ex, b);
  if (!term) return false;
  for (int j = 0; j < ins->nout; j++)
    copy_slot(ex, ins->out[j], term->in[j]);
  return true;
}

static bool exec_while(rt_iexec *ex, const rt_ins *ins) {
  const rt_iblock *before = &ins->regions[0], *after = &ins->regions[1];
  for (int j = 0; j < before->nargs; j++)
    copy_slot(ex, before->args[j], ins->in[j]);
  for (;;) {
    if (!in_time(ex, ins->op)) return false;
    const rt_ins *cond = rt_iexec_block(ex, before);
    if (!cond) return false;
    if ((*(const uint8_t *)ex->v[cond->in[0]] & 1) == 0) {
      for (int j = 0; j < ins->nout; j++)
        copy_slot(ex, ins->out[j], cond->in[1 + j]);
      return true;
    }
    for (int j = 0; j < after->nargs; j++)
      copy_slot(ex, after->args[j], cond->in[1 + j]);
    const rt_ins *yield = rt_iexec_block(ex, after);
    if (!yield) return false;
    for (int j = 0; j < before->nargs; j++)
      copy_slot(ex, before->args[j], yield->in[j]);
  }
}

static bool exec_assert(rt_iexec *ex, const rt_ins *ins) {
  const uint8_t *c = ex->v[ins->in[0]];
  size_t n = rt_slot(ex, ins->in[0])->numel;
  for (size_t i = 0; i < n; i++) {
    if (c[i] & 1) continue;
    const ir_attr *msg = ir_op_get_attr(ins->op, "message");
    return rt_iexec_fail(ex, ins->op, TTC_ERROR_INPUT, "assertion failed", "element %zu: %s", i,
                         msg && msg->s ? msg->s : "");
  }
  return true;
}

/* Appends one element of a slot to the print buffer. */
static void print_elem(rt_iexec *ex, int slot, size_t i) {
  const rt_islot *s = rt_slot(ex, slot);
  const void *p = ex->v[slot];
  const ir_type *e = s->elem;
  if (e->kind == IR_TY_FLOAT) {
    ir_sb_printf(ex->print, "%.9g", rt_float_get(e, p, i));
  } else if (e->kind == IR_TY_PTR) {
    ir_sb_printf(ex->print, "0x%" PRIx64, ((const uint64_t *)p)[i]);
  } else {
    int64_t x = 0;
    switch (s->esize) {
    case 1: x = e->width == 1 ? (((const uint8_t *)p)[i] & 1) : ((const int8_t *)p)[i]; break;
    case 2: x = ((const int16_t *)p)[i]; break;
    case 4: x = ((const int32_t *)p)[i]; break;
    default: x = ((const int64_t *)p)[i]; break;
    }
    ir_sb_printf(ex->print, "%" PRId64, x);
  }
}

/* A launch's print output stops at 64 MiB, as a GPU's printf buffer
 * stops at its size (1 MiB by default): 65000 programs printing 1024
 * values each held 2 GB. */
#define PRINT_MAX ((size_t)64 << 20)
static const char print_cut[] = "... (print output past 64 MiB dropped)\n";

/* Whether there is room for more output; at the bound, says so once. */
static bool print_room(ir_strbuf *sb) {
  if (sb->len < PRINT_MAX) return true;
  size_t n = sizeof print_cut - 1;
  if (sb->len < n || memcmp(sb->data + sb->len - n, print_cut, n) != 0) ir_sb_puts(sb, print_cut);
  return false;
}

/* tt.print: one line per element, "pid (x, y, z) idx (i) prefix value". */
static bool exec_print(rt_iexec *ex, const rt_ins *ins) {
  if (!ex->print || !print_room(ex->print)) return true;
  const ir_attr *pre = ir_op_get_attr(ins->op, "prefix");
  const char *prefix = pre && pre->s ? pre->s : "";
  if (ins->nin == 0) {
    ir_sb_printf(ex->print, "pid (%u, %u, %u) %s\n", ex->pid[0], ex->pid[1], ex->pid[2], prefix);
    return true;
  }
  for (int k = 0; k < ins->nin; k++) {
    size_t n = rt_slot(ex, ins->in[k])->numel;
    for (size_t i = 0; i < n && print_room(ex->print); i++) {
      ir_sb_printf(ex->print, "pid (%u, %u, %u) idx (%zu) %s", ex->pid[0], ex->pid[1], ex->pid[2],
                   i, prefix);
      print_elem(ex, ins->in[k], i);
      ir_sb_putc(ex->print, '\n');
    }
  }
  return true;
}

static bool exec_program_id(rt_iexec *ex, const rt_ins *ins, bool is_count) {
  int64_t axis = ir_op_get_int(ins->op, "axis", 0);
  if (axis < 0 || axis > 2)
    return rt_iexec_fail(ex, ins->op, TTC_ERROR_INPUT, "bad program axis", "%" PRId64, axis);
  scalar_set_int(ex, ins->out[0], is_count ? ex->grid[axis] : ex->pid[axis]);
  return true;
}

static bool exec_unsupported(rt_iexec *ex, const rt_ins *ins) {
  return rt_iexec_fail(ex, ins->op, TTC_ERROR_UNSUPPORTED, "unsupported op",
                       "the interpreter cannot run '%s'", ir_op_name(ins->op));
}

/* One op. The switch names every op kind (no default), so adding an op to
 * ops.def makes -Wswitch point here. */
static bool exec_op(rt_iexec *ex, const rt_ins *ins) {
  switch (ins->op->kind) {
  case IR_OP_ARITH_ADDI: return rt_interp_int_binary(ex, ins, RT_IB_ADD);
  case IR_OP_ARITH_SUBI: return rt_interp_int_binary(ex, ins, RT_IB_SUB);
  case IR_OP_ARITH_MULI: return rt_interp_int_binary(ex, ins, RT_IB_MUL);
  case IR_OP_ARITH_DIVSI: return rt_interp_int_binary(ex, ins, RT_IB_DIVS);
  case IR_OP_ARITH_DIVUI: return rt_interp_int_binary(ex, ins, RT_IB_DIVU);
  case IR_OP_ARITH_REMSI: return rt_interp_int_binary(ex, ins, RT_IB_REMS);
  case IR_OP_ARITH_REMUI: return rt_interp_int_binary(ex, ins, RT_IB_REMU);
  case IR_OP_ARITH_ANDI: return rt_interp_int_binary(ex, ins, RT_IB_AND);
  case IR_OP_ARITH_ORI: return rt_interp_int_binary(ex, ins, RT_IB_OR);
  case IR_OP_ARITH_XORI: return rt_interp_int_binary(ex, ins, RT_IB_XOR);
  case IR_OP_ARITH_SHLI: return rt_interp_int_binary(ex, ins, RT_IB_SHL);
  case IR_OP_ARITH_SHRSI: return rt_interp_int_binary(ex, ins, RT_IB_SHRS);
  case IR_OP_ARITH_SHRUI: return rt_interp_int_binary(ex, ins, RT_IB_SHRU);
  case IR_OP_ARITH_MAXSI: return rt_interp_int_binary(ex, ins, RT_IB_MAXS);
  case IR_OP_ARITH_MINSI: return rt_interp_int_binary(ex, ins, RT_IB_MINS);
  case IR_OP_ARITH_MAXUI: return rt_interp_int_binary(ex, ins, RT_IB_MAXU);
  case IR_OP_ARITH_MINUI: return rt_interp_int_binary(ex, ins, RT_IB_MINU);
  case IR_OP_TT_MULHIUI: return rt_interp_int_binary(ex, ins, RT_IB_MULHIU);
  case IR_OP_ARITH_ADDF: return rt_interp_float_op(ex, ins, RT_F_ADD);
  case IR_OP_ARITH_SUBF: return rt_interp_float_op(ex, ins, RT_F_SUB);
  case IR_OP_ARITH_MULF: return rt_interp_float_op(ex, ins, RT_F_MUL);
  case IR_OP_ARITH_DIVF:
  case IR_OP_TT_PRECISE_DIVF: return rt_interp_float_op(ex, ins, RT_F_DIV);
  case IR_OP_ARITH_REMF: return rt_interp_float_op(ex, ins, RT_F_REM);
  case IR_OP_ARITH_MAXNUMF: return rt_interp_float_op(ex, ins, RT_F_MAXNUM);
  case IR_OP_ARITH_MINNUMF: return rt_interp_float_op(ex, ins, RT_F_MINNUM);
  case IR_OP_ARITH_MAXIMUMF: return rt_interp_float_op(ex, ins, RT_F_MAXIMUM);
  case IR_OP_ARITH_MINIMUMF: return rt_interp_float_op(ex, ins, RT_F_MINIMUM);
  case IR_OP_ARITH_NEGF: return rt_interp_float_op(ex, ins, RT_F_NEG);
  case IR_OP_MATH_EXP: return rt_interp_float_op(ex, ins, RT_F_EXP);
  case IR_OP_MATH_EXP2: return rt_interp_float_op(ex, ins, RT_F_EXP2);
  case IR_OP_MATH_LOG: return rt_interp_float_op(ex, ins, RT_F_LOG);
  case IR_OP_MATH_LOG2: return rt_interp_float_op(ex, ins, RT_F_LOG2);
  case IR_OP_MATH_SQRT:
  case IR_OP_TT_PRECISE_SQRT: return rt_interp_float_op(ex, ins, RT_F_SQRT);
  case IR_OP_MATH_RSQRT: return rt_interp_float_op(ex, ins, RT_F_RSQRT);
  case IR_OP_MATH_ABSF: return rt_interp_float_op(ex, ins, RT_F_ABS);
  case IR_OP_MATH_SIN: return rt_interp_float_op(ex, ins, RT_F_SIN);
  case IR_OP_MATH_COS: return rt_interp_float_op(ex, ins, RT_F_COS);
  case IR_OP_MATH_ERF: return rt_interp_float_op(ex, ins, RT_F_ERF);
  case IR_OP_MATH_FLOOR: return rt_interp_float_op(ex, ins, RT_F_FLOOR);
  case IR_OP_MATH_CEIL: return rt_interp_float_op(ex, ins, RT_F_CEIL);
  case IR_OP_MATH_FMA: return rt_interp_float_op(ex, ins, RT_F_FMA);
  case IR_OP_TT_CLAMPF: return rt_interp_float_op(ex, ins, RT_F_CLAMP);
  case IR_OP_MATH_ABSI: return rt_interp_absi(ex, ins);
  case IR_OP_ARITH_CMPI: return rt_interp_cmpi(ex, ins);
  case IR_OP_ARITH_CMPF: return rt_interp_cmpf(ex, ins);
  case IR_OP_ARITH_SELECT: return rt_interp_select(ex, ins);
  case IR_OP_ARITH_CONSTANT:
  case IR_OP_TT_MAKE_RANGE: return true; /* evaluated once, at prepare time */
  case IR_OP_ARITH_EXTSI: return rt_interp_int_cast(ex, ins, true);
  case IR_OP_ARITH_EXTUI:
  case IR_OP_ARITH_TRUNCI: return rt_interp_int_cast(ex, ins, false);
  case IR_OP_ARITH_EXTF:
  case IR_OP_ARITH_TRUNCF:
  case IR_OP_TT_FP_TO_FP:
  case IR_OP_ARITH_SITOFP:
  case IR_OP_ARITH_UITOFP:
  case IR_OP_ARITH_FPTOSI:
  case IR_OP_ARITH_FPTOUI: return rt_interp_convert(ex, ins);
  case IR_OP_ARITH_BITCAST:
  case IR_OP_TT_BITCAST:
  case IR_OP_TT_INT_TO_PTR:
  case IR_OP_TT_PTR_TO_INT:
  case IR_OP_TT_EXPAND_DIMS:
  case IR_OP_TT_RESHAPE:
  case IR_OP_TTG_CONVERT_LAYOUT: return rt_interp_copy(ex, ins);
  case IR_OP_TT_GET_PROGRAM_ID: return exec_program_id(ex, ins, false);
  case IR_OP_TT_GET_NUM_PROGRAMS: return exec_program_id(ex, ins, true);
  case IR_OP_TT_SPLAT: return rt_interp_splat(ex, ins);
  case IR_OP_TT_BROADCAST: return rt_interp_broadcast(ex, ins);
  case IR_OP_TT_TRANS: return rt_interp_trans(ex, ins);
  case IR_OP_TT_JOIN: return rt_interp_join(ex, ins);
  case IR_OP_TT_SPLIT: return rt_interp_split(ex, ins);
  case IR_OP_TT_ADDPTR: return rt_interp_addptr(ex, ins);
  case IR_OP_TT_LOAD: return rt_interp_load(ex, ins);
  case IR_OP_TT_STORE: return rt_interp_store(ex, ins);
  case IR_OP_TT_ATOMIC_RMW: return rt_interp_atomic_rmw(ex, ins);
  case IR_OP_TT_ATOMIC_CAS: return rt_interp_atomic_cas(ex, ins);
  case IR_OP_TT_REDUCE: return rt_interp_reduce(ex, ins);
  case IR_OP_TT_SCAN: return rt_interp_scan(ex, ins);
  case IR_OP_TT_DOT: return rt_interp_dot(ex, ins);
  case IR_OP_TT_ASSERT: return exec_assert(ex, ins);
  case IR_OP_TT_PRINT: return exec_print(ex, ins);
  case IR_OP_TT_EXTERN_ELEMENTWISE: return rt_interp_extern(ex, ins);
  case IR_OP_GPU_BARRIER: return true; /* a program's threads run in lockstep here */
  case IR_OP_SCF_FOR: return exec_for(ex, ins);
  case IR_OP_SCF_WHILE: return exec_while(ex, ins);
  case IR_OP_SCF_IF: return exec_if(ex, ins);
  case IR_OP_TT_RETURN:
  case IR_OP_TT_REDUCE_RETURN:
  case IR_OP_TT_SCAN_RETURN:
  case IR_OP_SCF_CONDITION:
  case IR_OP_SCF_YIELD: return true; /* terminators: read by the enclosing op */
  case IR_OP_MODULE:
  case IR_OP_TT_FUNC:
  /* ttgir only: the interpreter runs ttir */
  case IR_OP_TTG_LOCAL_ALLOC:
  case IR_OP_TTG_LOCAL_LOAD:
  case IR_OP_TTG_LOCAL_STORE:
  case IR_OP_TTG_LOCAL_DEALLOC:
  case IR_OP_TTG_MEMDESC_TRANS:
  case IR_OP_TTG_MEMDESC_INDEX:
  case IR_OP_TTG_ASYNC_COPY:
  case IR_OP_TTG_ASYNC_COMMIT_GROUP:
  case IR_OP_TTG_ASYNC_WAIT:
  case IR_OP_TTNG_WARP_GROUP_DOT:
  case IR_OP_TTNG_WARP_GROUP_DOT_WAIT:
  case IR_OP_TTNG_FENCE_ASYNC_SHARED:
  case IR_NUM_OPS: return exec_unsupported(ex, ins);
  }
  return exec_unsupported(ex, ins);
}

const rt_ins *rt_iexec_block(rt_iexec *ex, const rt_iblock *b) {
  int last = b->nins - 1;
  for (int i = 0; i < last; i++)
    if (!exec_op(ex, &b->ins[i])) return NULL;
  return &b->ins[last];
}

ttc_status rt_interp_run(const rt_interp *ip, rt_heap *heap, const unsigned grid[3],
                         const rt_arg_storage *args, int nargs, ir_strbuf *print, char *err,
                         size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (nargs != ip->nparams) {
    snprintf(err, errlen, "expected %d arguments, got %d", ip->nparams, nargs);
    return TTC_ERROR_ARGUMENT;
  }
  rt_iexec ex;
  memset(&ex, 0, sizeof ex);
  ex.ip = ip;
  ex.heap = heap;
  ex.print = print;
  ex.err = err;
  ex.errlen = errlen;
  ex.st = TTC_OK;
  memcpy(ex.grid, grid, sizeof ex.grid);
  const char *t = getenv("TTC_INTERP_TIMEOUT");
  ex.timeout_s = t && *t ? strtol(t, NULL, 10) : 0;
  if (ex.timeout_s > 0) ex.deadline = ir_now_seconds() + (double)ex.timeout_s;
  unsigned char *storage = aligned_alloc(64, ip->storage_bytes);
  ex.v = malloc((size_t)(ip->nslots ? ip->nslots : 1) * sizeof *ex.v);
  size_t scratch_bytes = (ip->max_numel ? ip->max_numel : 1) * 8;
  bool ok = storage && ex.v;
  for (int i = 0; i < 4; i++) {
    ex.scratch[i] = malloc(scratch_bytes);
    ok = ok && ex.scratch[i];
  }
  if (!ok) {
    snprintf(err, errlen, "out of memory for the interpreter's values");
    ex.st = TTC_ERROR_OUT_OF_MEMORY;
    goto done;
  }
  /* Poisoned rather than zeroed: a handler reading a slot nothing wrote
   * shows up as garbage in tests instead of as a plausible 0. */
  memset(storage, 0xa5, ip->storage_bytes);
  for (int s = 0; s < ip->nslots; s++)
    ex.v[s] = (ip->slots[s].is_const ? ip->pool : storage) + ip->slots[s].offset;
  /* Parameters are never written by ops: copy them once per launch. */
  for (int i = 0; i < ip->nparams; i++) {
    int s = ip->body.args[i];
    memcpy(ex.v[s], &args[i], ip->slots[s].esize);
  }
  for (unsigned z = 0; z < grid[2] && ex.st == TTC_OK; z++)
    for (unsigned y = 0; y < grid[1] && ex.st == TTC_OK; y++)
      for (unsigned x = 0; x < grid[0]; x++) {
        ex.pid[0] = x;
        ex.pid[1] = y;
        ex.pid[2] = z;
        if (!in_time(&ex, ip->func) || !rt_iexec_block(&ex, &ip->body)) break;
      }
done:
  for (int i = 0; i < 4; i++)
    free(ex.scratch[i]);
  free(ex.v);
  free(storage);
  return ex.st;
}
