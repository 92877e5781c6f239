// SPDX-License-Identifier: MIT
/* interp_memory.c - pointer arithmetic and global memory for the
 * interpreter: tt.addptr, tt.load (mask, other), tt.store (mask) and the
 * atomics, every access checked against the device's allocations.
 *
 * A check first takes the lowest and highest address of the active lanes:
 * when that whole span lies in one allocation (the usual case) the tile is
 * fine; otherwise each active lane is looked up, and the first one outside
 * every allocation stops the launch with TTC_ERROR_OUT_OF_BOUNDS. Masked-off
 * lanes are never checked, read or written. Misaligned accesses (which fault
 * on the GPU) are reported the same way. Provenance: where the pointer was
 * derived from a kernel argument (rt_ins.origin), the span must lie in that
 * argument's allocation, so an access that lands in another buffer is
 * reported too. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "runtime/interp_impl.h"

bool rt_interp_addptr(rt_iexec *ex, const rt_ins *ins) {
  size_t n = rt_ins_n(ex, ins);
  const rt_islot *sp = rt_slot(ex, ins->in[0]), *so = rt_slot(ex, ins->in[1]);
  const uint64_t *p = ex->v[ins->in[0]];
  uint64_t *o = ex->v[ins->out[0]];
  const uint64_t scale = ir_type_bytes(sp->elem->elem);
  const void *off = ex->v[ins->in[1]];
  /* Offsets are signed: sign-extended to 64 bits, then multiplied and added
   * modulo 2^64, like the GPU's 64-bit address arithmetic. */
#define ADD_LOOP(T)                                                                                \
  for (size_t i = 0; i < n; i++)                                                                   \
  o[i] = p[i] + (uint64_t)(int64_t)((const T *)off)[i] * scale
  switch (so->esize) {
  case 1: ADD_LOOP(int8_t); break;
  case 2: ADD_LOOP(int16_t); break;
  case 4: ADD_LOOP(int32_t); break;
  default: ADD_LOOP(int64_t); break;
  }
#undef ADD_LOOP
  return true;
}

/* A per-lane operand that may be a scalar broadcast over n lanes: returns
 * a pointer to n elements (the slot itself, or scratch filled with copies). */
static const void *lanes_of(rt_iexec *ex, int slot, size_t n, int scratch) {
  const rt_islot *s = rt_slot(ex, slot);
  if (ex->lanes || s->numel >= n) return ex->v[slot];
  for (size_t i = 0; i < n; i++)
    rt_copy_elem(ex->scratch[scratch], i, ex->v[slot], 0, s->esize);
  return ex->scratch[scratch];
}

/* Checks that every active lane's [p, p + es) is inside an allocation and
 * aligned to es. `what` names the access ("load", "store", "atomic"). */
static bool check_access(rt_iexec *ex, const rt_ins *ins, const uint64_t *p, const uint8_t *mask,
                         size_t n, unsigned es, const char *what) {
  uint64_t lo = UINT64_MAX, hi = 0, bits = 0;
  bool any = false;
  for (size_t i = 0; i < n; i++) {
    if (mask && !(mask[i] & 1)) continue;
    uint64_t a = p[i];
    lo = a < lo ? a : lo;
    hi = a > hi ? a : hi;
    bits |= a;
    any = true;
  }
  if (!any) return true;
  /* the allocation the pointer came from (NULL: not known, or the argument
   * itself is outside every allocation) */
  rt_heap_block own_block, span, b;
  const rt_heap_block *own = NULL;
  if (ins->origin >= 0 &&
      rt_heap_find(ex->heap, *(const uint64_t *)ex->v[ins->origin], 1, &own_block))
    own = &own_block;
  if ((bits & (es - 1)) == 0 && hi - lo <= UINT64_MAX - es &&
      rt_heap_find(ex->heap, lo, (size_t)(hi - lo + es), &span) && (!own || span.base == own->base))
    return true;
  char kind[64], why[512];
  for (size_t i = 0; i < n; i++) {
    if (mask && !(mask[i] & 1)) continue;
    if (p[i] % es) {
      snprintf(kind, sizeof kind, "misaligned %s", what);
      return rt_iexec_fail(ex, ins->op, TTC_ERROR_OUT_OF_BOUNDS, kind,
                           "element %zu: address 0x%" PRIx64 " is not a multiple of %u", i, p[i],
                           es);
    }
    bool in = rt_heap_find(ex->heap, p[i], es, &b);
    if (in && (!own || b.base == own->base)) continue;
    if (in) { /* inside a buffer, but not the one the pointer was derived from */
      int64_t off = (int64_t)(p[i] - own->base);
      snprintf(kind, sizeof kind, "out-of-bounds %s", what);
      return rt_iexec_fail(ex, ins->op, TTC_ERROR_OUT_OF_BOUNDS, kind,
                           "element %zu: address 0x%" PRIx64 " is at offset %" PRId64
                           " of the %zu-byte allocation at 0x%" PRIx64
                           " that argument '%s' points into, inside another allocation "
                           "(%zu bytes at 0x%" PRIx64 ")",
                           i, p[i], off, own->size, own->base,
                           ins->origin_name ? ins->origin_name : "?", b.size, b.base);
    }
    rt_heap_describe(ex->heap, p[i], es, why, sizeof why);
    snprintf(kind, sizeof kind, "out-of-bounds %s", what);
    return rt_iexec_fail(ex, ins->op, TTC_ERROR_OUT_OF_BOUNDS, kind, "element %zu: %s", i, why);
  }
  return true; /* the span crossed allocations, but every lane is inside one */
}

#define LOAD_LOOP(T)                                                                               \
  do {                                                                                             \
    T *o_ = o;                                                                                     \
    const T *oth_ = other;                                                                         \
    if (!mask) {                                                                                   \
      for (size_t i = 0; i < n; i++)                                                               \
        o_[i] = *(const T *)(uintptr_t)p[i];                                                       \
    } else {                                                                                       \
      for (size_t i = 0; i < n; i++)                                                               \
        o_[i] = (mask[i] & 1) ? *(const T *)(uintptr_t)p[i] : oth_ ? oth_[i] : (T)0;               \
    }                                                                                              \
  } while (0)

bool rt_interp_load(rt_iexec *ex, const rt_ins *ins) {
  size_t n = rt_ins_n(ex, ins);
  const rt_islot *so = rt_slot(ex, ins->out[0]);
  const uint64_t *p = ex->v[ins->in[0]];
  const uint8_t *mask = ins->nin > 1 ? lanes_of(ex, ins->in[1], n, 2) : NULL;
  const void *other = ins->nin > 2 ? lanes_of(ex, ins->in[2], n, 3) : NULL;
  if (!check_access(ex, ins, p, mask, n, so->esize, "load")) return false;
  void *o = ex->v[ins->out[0]];
  switch (so->esize) {
  case 1: LOAD_LOOP(uint8_t); break;
  case 2: LOAD_LOOP(uint16_t); break;
  case 4: LOAD_LOOP(uint32_t); break;
  default: LOAD_LOOP(uint64_t); break;
  }
  if (so->elem->kind == IR_TY_INT && so->elem->width == 1) { /* bytes in memory: != 0 */
    uint8_t *b = o;
    for (size_t i = 0; i < n; i++)
      b[i] = b[i] != 0;
  }
  return true;
}

#define STORE_LOOP(T)                                                                              \
  do {                                                                                             \
    const T *x_ = x;                                                                               \
    for (size_t i = 0; i < n; i++)                                                                 \
      if (!mask || (mask[i] & 1)) *(T *)(uintptr_t)p[i] = x_[i];                                   \
  } while (0)

bool rt_interp_store(rt_iexec *ex, const rt_ins *ins) {
  size_t n = rt_ins_n(ex, ins);
  const rt_islot *sx = rt_slot(ex, ins->in[1]);
  const uint64_t *p = ex->v[ins->in[0]];
  const void *x = lanes_of(ex, ins->in[1], n, 1);
  const uint8_t *mask = ins->nin > 2 ? lanes_of(ex, ins->in[2], n, 2) : NULL;
  if (!check_access(ex, ins, p, mask, n, sx->esize, "store")) return false;
  switch (sx->esize) {
  case 1: STORE_LOOP(uint8_t); break;
  case 2: STORE_LOOP(uint16_t); break;
  case 4: STORE_LOOP(uint32_t); break;
  default: STORE_LOOP(uint64_t); break;
  }
  return true;
}

/* ---- atomics: programs and lanes run one after another, so a plain
 * read-modify-write per active lane, in lane order, is sequentially
 * consistent. ---------------------------------------------------------------- */

typedef enum rmw_kind {
  RMW_ADD,
  RMW_FADD,
  RMW_MAX,
  RMW_MIN,
  RMW_UMAX,
  RMW_UMIN,
  RMW_AND,
  RMW_OR,
  RMW_XOR,
  RMW_XCHG,
  RMW_BAD
} rmw_kind;

static rmw_kind rmw_of(const ir_op *op) {
  const ir_attr *a = ir_op_get_attr(op, "atomic_rmw_op");
  const char *k = a && a->s ? a->s : "add";
  static const struct {
    const char *name;
    rmw_kind kind;
  } names[] = {{"add", RMW_ADD},   {"fadd", RMW_FADD}, {"max", RMW_MAX},  {"min", RMW_MIN},
               {"umax", RMW_UMAX}, {"umin", RMW_UMIN}, {"and", RMW_AND},  {"or", RMW_OR},
               {"xor", RMW_XOR},   {"xchg", RMW_XCHG}, {"exch", RMW_XCHG}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(k, names[i].name) == 0) return names[i].kind;
  return RMW_BAD;
}

/* Integer element of es bytes at addr, sign-extended when is_signed. */
static uint64_t mem_get(uint64_t addr, unsigned es, bool is_signed) {
  union {
    uint8_t b;
    uint16_t h;
    uint32_t w;
    uint64_t d;
  } u = {0};
  memcpy(&u, (const void *)(uintptr_t)addr, es);
  switch (es) {
  case 1: return is_signed ? (uint64_t)(int64_t)(int8_t)u.b : u.b;
  case 2: return is_signed ? (uint64_t)(int64_t)(int16_t)u.h : u.h;
  case 4: return is_signed ? (uint64_t)(int64_t)(int32_t)u.w : u.w;
  default: return u.d;
  }
}

static void mem_put(uint64_t addr, unsigned es, uint64_t x) {
  /* Little endian: the low es bytes of x are the element. */
  memcpy((void *)(uintptr_t)addr, &x, es);
}

/* One read-modify-write; returns the new value's bits. */
static uint64_t rmw_apply(rmw_kind k, const ir_type *elem, unsigned es, uint64_t old,
                          uint64_t val) {
  bool is_float = elem->kind == IR_TY_FLOAT;
  if (is_float && (k == RMW_ADD || k == RMW_FADD)) {
    uint64_t a = old, b = val, r = 0;
    double x = rt_float_get(elem, &a, 0) + rt_float_get(elem, &b, 0);
    rt_float_set(elem, &r, 0, x);
    return r;
  }
  unsigned shift = 64 - 8 * es; /* compare sign-extended values for max/min */
  int64_t so = (int64_t)(old << shift) >> shift, sv = (int64_t)(val << shift) >> shift;
  switch (k) {
  case RMW_ADD:
  case RMW_FADD: return old + val;
  case RMW_MAX: return sv > so ? val : old;
  case RMW_MIN: return sv < so ? val : old;
  case RMW_UMAX: return val > old ? val : old;
  case RMW_UMIN: return val < old ? val : old;
  case RMW_AND: return old & val;
  case RMW_OR: return old | val;
  case RMW_XOR: return old ^ val;
  case RMW_XCHG: return val;
  case RMW_BAD: return old;
  }
  return old;
}

bool rt_interp_atomic_rmw(rt_iexec *ex, const rt_ins *ins) {
  size_t n = rt_ins_n(ex, ins);
  const rt_islot *sv = rt_slot(ex, ins->in[1]);
  const uint64_t *p = ex->v[ins->in[0]];
  const void *val = lanes_of(ex, ins->in[1], n, 1);
  const uint8_t *mask = ins->nin > 2 ? lanes_of(ex, ins->in[2], n, 2) : NULL;
  rmw_kind k = rmw_of(ins->op);
  if (k == RMW_BAD)
    return rt_iexec_fail(ex, ins->op, TTC_ERROR_UNSUPPORTED, "tt.atomic_rmw", "unknown atomic op");
  if (!check_access(ex, ins, p, mask, n, sv->esize, "atomic")) return false;
  unsigned es = sv->esize;
  void *o = ex->v[ins->out[0]];
  for (size_t i = 0; i < n; i++) {
    uint64_t old = 0;
    if (!mask || (mask[i] & 1)) {
      old = mem_get(p[i], es, false);
      uint64_t x = 0;
      memcpy(&x, (const char *)val + i * es, es);
      mem_put(p[i], es, rmw_apply(k, sv->elem, es, old, x));
    }
    memcpy((char *)o + i * es, &old, es);
  }
  return true;
}

bool rt_interp_atomic_cas(rt_iexec *ex, const rt_ins *ins) {
  size_t n = rt_ins_n(ex, ins);
  const rt_islot *sv = rt_slot(ex, ins->in[2]);
  const uint64_t *p = ex->v[ins->in[0]];
  const void *cmp = lanes_of(ex, ins->in[1], n, 1);
  const void *val = lanes_of(ex, ins->in[2], n, 2);
  unsigned es = sv->esize;
  if (!check_access(ex, ins, p, NULL, n, es, "atomic")) return false;
  void *o = ex->v[ins->out[0]];
  for (size_t i = 0; i < n; i++) {
    uint64_t old = mem_get(p[i], es, false), c = 0, x = 0;
    memcpy(&c, (const char *)cmp + i * es, es);
    memcpy(&x, (const char *)val + i * es, es);
    if (old == c) mem_put(p[i], es, x);
    memcpy((char *)o + i * es, &old, es);
  }
  return true;
}
