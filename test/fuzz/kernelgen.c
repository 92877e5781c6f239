// SPDX-License-Identifier: MIT
/* kernelgen.c - random valid Triton kernels from a seed, for differential
 * testing (kgrun.c). A kernel loads R x C tiles (and rows, columns,
 * scalars) from 1-3 inputs, runs a random chain of elementwise ops over
 * f32 / f16 / i32 / i1, reductions, for loops with a carried value and
 * branches, and stores the values nothing else used.
 *
 * Every value carries what the generator knows about it (struct meta): a
 * bound on its magnitude and, for floats, whether it is exact: a multiple
 * of 2^q that the type holds without rounding. Inputs are small dyadic
 * numbers, so +, -, *, min, max, casts and sums stay exact as long as the
 * bits fit; approximate math (exp, sqrt, division, ...) makes a value
 * inexact. The rules that keep a kernel well defined on every path:
 *  - integer division and remainder divide by (b & 15) + 1, shifts shift
 *    by b & 7, abs only of values that cannot be INT_MIN; + - * wrap;
 *  - math only on its domain (sqrt(|x|), log(|x| + 1), exp of |x| <= 8),
 *    float bounds stay far from overflow (and exact ones from subnormals);
 *  - float comparisons, floor / ceil, argmax and float -> int casts read
 *    exact values only, so a GPU's last-bit differences (FMA contraction,
 *    approximate math, reduction order) never flip a decision. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernelgen.h"

typedef enum dt { F32, F16, I32, I1 } dt;
typedef enum kind { KS, KR, KC, KT } kind; /* scalar, [R], [C], [R, C] */

typedef struct meta {
  dt t;
  kind k;
  double bound; /* |value| <= bound */
  int q;        /* exact floats: a multiple of 2^q */
  bool exact;
} meta;

typedef struct var {
  char name[16];
  meta m;
  int uses;
  bool fixed; /* prologue values (pid, r, ...): not stored */
} var;

#define MAX_VARS 200
#define KMAX 4 /* k is drawn in 0..KMAX */
#define I32_WRAP 2147483648.0

typedef struct gen {
  uint64_t rng;
  char *buf;
  size_t len, cap;
  bool oom;
  int indent; /* blocks inside the kernel body */
  var vars[MAX_VARS];
  int nvars, next_id;
  int budget; /* statements left */
  int depth;  /* loops and branches around the current statement */
  kg_kernel *k;
} gen;

uint64_t kg_rand(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static int rnd(gen *g, int n) { return n <= 1 ? 0 : (int)(kg_rand(&g->rng) % (uint64_t)n); }
static bool chance(gen *g, int pct) { return rnd(g, 100) < pct; }

/* ---- output text ----------------------------------------------------------- */

static void put(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(gen *g, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(g->buf + g->len, g->cap - g->len, fmt, ap);
    va_end(ap);
    if (n < 0) {
      g->oom = true;
      return;
    }
    if ((size_t)n < g->cap - g->len) {
      g->len += (size_t)n;
      return;
    }
    size_t cap = 2 * g->cap + (size_t)n;
    char *b = realloc(g->buf, cap);
    if (!b) {
      g->oom = true;
      return;
    }
    g->buf = b;
    g->cap = cap;
  }
}

/* One statement line at the current block depth. */
static void line(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(gen *g, const char *fmt, ...) {
  char text[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  put(g, "%*s%s\n", 4 * (g->indent + 1), "", text);
}

static const char *tl_type(dt t) {
  static const char *const names[] = {"tl.float32", "tl.float16", "tl.int32", "tl.int1"};
  return names[t];
}

static bool is_float(dt t) { return t == F32 || t == F16; }

/* A float literal Python reads back exactly (dyadic values print exactly). */
static void fmt_float(char *out, size_t cap, double x) {
  if (x == floor(x) && fabs(x) < 1e15)
    snprintf(out, cap, "%.1f", x);
  else
    snprintf(out, cap, "%.17g", x);
}

/* ---- what a value is known to be -------------------------------------------- */

static int mant_bits(dt t) { return t == F32 ? 24 : 11; }
static int min_q(dt t) { return t == F32 ? -126 : -14; } /* no subnormals */
static double float_limit(dt t) { return t == F32 ? 1e18 : 1e4; }

/* Settles m after an op: wraps i32 bounds, decides float exactness; false
 * when a float could come near overflow (the op is not used then). */
static bool settle(meta *m) {
  if (m->t == I1) {
    m->bound = 1, m->q = 0, m->exact = true;
    return true;
  }
  if (m->t == I32) {
    if (m->bound >= I32_WRAP) m->bound = I32_WRAP; /* wrapped: any value */
    m->q = 0, m->exact = true;
    return true;
  }
  if (!(m->bound <= float_limit(m->t))) return false;
  if (m->exact && (m->q < min_q(m->t) || m->bound > ldexp(1.0, mant_bits(m->t) + m->q)))
    m->exact = false;
  if (!m->exact) m->q = min_q(m->t);
  return true;
}

static kind join(kind a, kind b) { return a == b ? a : a == KS ? b : b == KS ? a : KT; }
/* A value of kind v can take part in an op whose result has kind k. */
static bool fits_kind(kind v, kind k) { return v == KS || v == k || k == KT; }

static int kind_len(const gen *g, kind k) {
  return k == KR ? g->k->rows : k == KC ? g->k->cols : k == KT ? g->k->rows * g->k->cols : 1;
}

/* ---- variables -------------------------------------------------------------- */

static var *new_var(gen *g, const meta *m) {
  if (g->nvars == MAX_VARS) return NULL;
  var *v = &g->vars[g->nvars++];
  memset(v, 0, sizeof *v);
  snprintf(v->name, sizeof v->name, "v%d", g->next_id++);
  v->m = *m;
  return v;
}

static var *fixed_var(gen *g, const char *name, dt t, kind k, double bound) {
  meta m = {t, k, bound, 0, true};
  var *v = new_var(g, &m);
  if (!v) return NULL;
  snprintf(v->name, sizeof v->name, "%s", name);
  v->fixed = true;
  return v;
}

/* v as an operand of an op whose result has kind k (broadcast by index). */
static const char *opnd(var *v, kind k, char *out, size_t cap) {
  v->uses++;
  if (v->m.k == k || v->m.k == KS || k != KT)
    snprintf(out, cap, "%s", v->name);
  else
    snprintf(out, cap, v->m.k == KR ? "%s[:, None]" : "%s[None, :]", v->name);
  return out;
}

typedef struct want {
  unsigned types; /* 1 << dt */
  int kind_in;    /* -1: any; else the value must fit this result kind */
  int kind_eq;    /* -1: any; else exactly this kind */
  bool exact;     /* floats must be exact */
  bool no_scalar;
} want;

static bool wanted(const var *v, const want *w) {
  if (!(w->types & (1u << v->m.t))) return false;
  if (w->kind_in >= 0 && !fits_kind(v->m.k, (kind)w->kind_in)) return false;
  if (w->kind_eq >= 0 && v->m.k != (kind)w->kind_eq) return false;
  if (w->exact && is_float(v->m.t) && !v->m.exact) return false;
  if (w->no_scalar && v->m.k == KS) return false;
  return true;
}

/* A variable as wanted: mostly an unused one (chains, little dead code),
 * else a recent one; NULL if none. */
static var *pick(gen *g, const want *w) {
  int cand[MAX_VARS], n = 0, unused[MAX_VARS], nu = 0;
  for (int i = 0; i < g->nvars; i++) {
    if (!wanted(&g->vars[i], w)) continue;
    cand[n++] = i;
    if (!g->vars[i].uses && !g->vars[i].fixed) unused[nu++] = i;
  }
  if (!n) return NULL;
  if (nu && chance(g, 40)) return &g->vars[unused[nu - 1]]; /* a chain */
  if (nu && chance(g, 50)) return &g->vars[unused[rnd(g, nu)]];
  if (n > 6 && chance(g, 60)) return &g->vars[cand[n - 1 - rnd(g, 6)]];
  return &g->vars[cand[rnd(g, n)]];
}

/* A literal of type t: small dyadic floats (0, -0 and 1 among them: the
 * identities a canonicalizer may get wrong), small integers. */
static meta literal(gen *g, dt t, char *out, size_t cap) {
  meta m = {t, KS, 0, 0, true};
  if (is_float(t)) {
    int e = rnd(g, 4) - 2, mant = rnd(g, 15) - 7;
    double x = chance(g, 10) ? (chance(g, 50) ? -0.0 : 1.0) : ldexp(mant, e);
    fmt_float(out, cap, x);
    m.bound = fabs(x), m.q = e;
  } else {
    int x = rnd(g, 41) - 20;
    snprintf(out, cap, "%d", x);
    m.bound = abs(x);
  }
  return m;
}

/* ---- ops and what they give -------------------------------------------------- */

typedef enum binop {
  B_ADD,
  B_SUB,
  B_MUL,
  B_MAX,
  B_MIN,
  B_FDIV, /* floats: a / (|b| + 1) */
  B_IDIV, /* ints: a // ((b & 15) + 1) */
  B_REM,
  B_AND,
  B_OR,
  B_XOR,
  B_SHL,
  B_SHR,
  NUM_BINOPS
} binop;

static const char *const binop_fmt[NUM_BINOPS] = {"%s + %s",
                                                  "%s - %s",
                                                  "%s * %s",
                                                  "tl.maximum(%s, %s)",
                                                  "tl.minimum(%s, %s)",
                                                  "%s / (tl.abs(%s) + 1.0)",
                                                  "%s // ((%s & 15) + 1)",
                                                  "%s %% ((%s & 15) + 1)",
                                                  "%s & %s",
                                                  "%s | %s",
                                                  "%s ^ %s",
                                                  "%s << (%s & 7)",
                                                  "%s >> (%s & 7)"};

static double pow2_above(double b) { return ldexp(1.0, (int)ceil(log2(b + 1))); }

/* The result of a op b (same type), or false when it is not to be used. */
static bool binop_meta(binop op, const meta *a, const meta *b, meta *r) {
  *r = *a;
  r->k = join(a->k, b->k);
  r->exact = a->exact && b->exact;
  r->q = a->q < b->q ? a->q : b->q;
  switch (op) {
  case B_ADD:
  case B_SUB: r->bound = a->bound + b->bound; break;
  case B_MUL:
    r->bound = a->bound * b->bound;
    r->q = a->q + b->q;
    break;
  case B_MAX:
  case B_MIN: r->bound = fmax(a->bound, b->bound); break;
  case B_FDIV:
    r->bound = a->bound;
    r->exact = false;
    break;
  case B_IDIV:
  case B_SHR: r->bound = a->bound; break;
  case B_REM: r->bound = fmin(a->bound, 15); break;
  case B_AND:
  case B_OR:
  case B_XOR: r->bound = pow2_above(fmax(a->bound, b->bound)); break;
  case B_SHL: r->bound = a->bound * 128; break;
  case NUM_BINOPS: return false;
  }
  return settle(r);
}

static binop pick_binop(gen *g, dt t) {
  static const binop fl[] = {B_ADD, B_SUB, B_MUL, B_MAX, B_MIN, B_ADD, B_MUL, B_FDIV};
  static const binop in[] = {B_ADD, B_SUB, B_MUL, B_MAX, B_MIN, B_IDIV, B_REM,
                             B_AND, B_OR,  B_XOR, B_SHL, B_SHR, B_ADD,  B_MUL};
  static const binop bo[] = {B_AND, B_OR, B_XOR};
  if (is_float(t)) return fl[rnd(g, (int)(sizeof fl / sizeof fl[0]))];
  if (t == I32) return in[rnd(g, (int)(sizeof in / sizeof in[0]))];
  return bo[rnd(g, 3)];
}

/* Text and meta of `a op b` with b another variable of a's type that fits
 * kind k (or, for floats and ints, sometimes a literal); false if none. */
static bool make_binop(gen *g, var *a, kind k, char *text, size_t cap, meta *r) {
  binop op = pick_binop(g, a->m.t);
  want w = {1u << a->m.t, k, -1, false, false};
  var *b = chance(g, 75) ? pick(g, &w) : NULL;
  char sa[64], sb[64];
  meta mb;
  if (b)
    mb = b->m;
  else if (a->m.t == I1)
    return false;
  else
    mb = literal(g, a->m.t, sb, sizeof sb);
  if (op == B_FDIV && !b) op = B_MUL; /* tl.abs of a Python float: not in Triton */
  if (!binop_meta(op, &a->m, &mb, r)) return false;
  if (r->k != k) return false;
  opnd(a, k, sa, sizeof sa);
  if (b) opnd(b, k, sb, sizeof sb);
  char e[256];
  snprintf(e, sizeof e, binop_fmt[op], sa, sb);
  /* a Python float beside an f16 tensor, and f16 division (Triton divides
   * in f32): pin the result type */
  if (a->m.t == F16 && (!b || op == B_FDIV))
    snprintf(text, cap, "(%s).to(tl.float16)", e);
  else
    snprintf(text, cap, "%s", e);
  return true;
}

typedef enum unop { U_NEG, U_ABS, U_EXP, U_SQRT, U_LOG, U_SIN, U_FLOOR, U_CEIL, NUM_UNOPS } unop;

/* The text of a float unary op around x (f16 math goes through f32). sin
 * takes |x| <= 64: Triton's sin is sin.approx.f32, whose error grows with
 * the argument past a few hundred pi. */
static void unop_text(unop op, dt t, const char *x, char *out, size_t cap) {
  static const char *const fn[NUM_UNOPS] = {NULL,
                                            NULL,
                                            "tl.exp(%s)",
                                            "tl.sqrt(tl.abs(%s))",
                                            "tl.log(tl.abs(%s) + 1.0)",
                                            "tl.sin(tl.minimum(tl.maximum(%s, -64.0), 64.0))",
                                            "tl.floor(%s)",
                                            "tl.ceil(%s)"};
  if (op == U_NEG) {
    snprintf(out, cap, "-%s", x);
  } else if (op == U_ABS) {
    snprintf(out, cap, "tl.abs(%s)", x);
  } else if (t == F16) {
    char x32[96], e[192];
    snprintf(x32, sizeof x32, "%s.to(tl.float32)", x);
    snprintf(e, sizeof e, fn[op], x32);
    snprintf(out, cap, "%s.to(tl.float16)", e);
  } else {
    snprintf(out, cap, fn[op], x);
  }
}

/* ---- statements ----------------------------------------------------------------- */

static bool emit_value(gen *g, const meta *m, const char *text) {
  var *v = new_var(g, m);
  if (!v) return false;
  line(g, "%s = %s", v->name, text);
  return true;
}

static bool stmt_binop(gen *g) {
  var *a = pick(g, &(want){0xf, -1, -1, false, false});
  if (!a) return false;
  /* the result kind: a's, or wider through the other operand */
  kind k = a->m.k;
  if (chance(g, 30)) k = (kind)rnd(g, 4) > k ? (kind)rnd(g, 4) : k;
  if (k == KR && a->m.k == KC) k = KT;
  if (!fits_kind(a->m.k, k)) k = a->m.k;
  char text[320];
  meta r;
  if (!make_binop(g, a, k, text, sizeof text, &r)) return false;
  return emit_value(g, &r, text);
}

static bool stmt_unop(gen *g) {
  var *a = pick(g, &(want){(1u << F32) | (1u << F16) | (1u << I32), -1, -1, false, false});
  if (!a) return false;
  meta r = a->m;
  char x[64], text[320];
  if (a->m.t == I32) {
    bool neg = chance(g, 50);
    if (!neg && a->m.bound >= I32_WRAP) return false; /* abs(INT_MIN) */
    opnd(a, a->m.k, x, sizeof x);
    snprintf(text, sizeof text, neg ? "-%s" : "tl.abs(%s)", x);
    return emit_value(g, &r, text);
  }
  unop op = (unop)rnd(g, NUM_UNOPS);
  switch (op) {
  case U_NEG:
  case U_ABS: break;
  case U_EXP:
    if (a->m.bound > 8) return false;
    r.bound = exp(a->m.bound), r.exact = false;
    break;
  case U_SQRT: r.bound = sqrt(a->m.bound) + 1, r.exact = false; break;
  case U_LOG: r.bound = log(a->m.bound + 1) + 1, r.exact = false; break;
  case U_SIN: r.bound = 1, r.exact = false; break;
  case U_FLOOR:
  case U_CEIL:
    if (!a->m.exact) return false; /* a step: only of exact values */
    r.bound = a->m.bound + 1;
    r.q = a->m.q > 0 ? a->m.q : 0;
    break;
  case NUM_UNOPS: return false;
  }
  if (!settle(&r)) return false;
  opnd(a, a->m.k, x, sizeof x);
  unop_text(op, a->m.t, x, text, sizeof text);
  return emit_value(g, &r, text);
}

static bool stmt_compare(gen *g) {
  var *a = pick(g, &(want){(1u << F32) | (1u << F16) | (1u << I32), -1, -1, true, false});
  if (!a) return false;
  static const char *const ops[] = {"<", "<=", ">", ">=", "==", "!="};
  want w = {1u << a->m.t, -1, -1, true, false};
  var *b = chance(g, 60) ? pick(g, &w) : NULL;
  char sa[64], sb[64], text[200];
  kind k = b ? join(a->m.k, b->m.k) : a->m.k;
  if (!b) literal(g, a->m.t, sb, sizeof sb);
  opnd(a, k, sa, sizeof sa);
  if (b) opnd(b, k, sb, sizeof sb);
  snprintf(text, sizeof text, "%s %s %s", sa, ops[rnd(g, 6)], sb);
  meta r = {I1, k, 1, 0, true};
  return emit_value(g, &r, text);
}

static bool stmt_where(gen *g) {
  var *c = pick(g, &(want){1u << I1, -1, -1, false, false});
  var *a = pick(g, &(want){0xf, -1, -1, false, false});
  if (!c || !a) return false;
  var *b = pick(g, &(want){1u << a->m.t, -1, -1, false, false});
  if (!b) return false;
  kind k = join(join(c->m.k, a->m.k), b->m.k);
  meta r;
  if (!binop_meta(B_MAX, &a->m, &b->m, &r)) return false;
  r.k = k;
  char sc[64], sa[64], sb[64], text[240];
  opnd(c, k, sc, sizeof sc);
  opnd(a, k, sa, sizeof sa);
  opnd(b, k, sb, sizeof sb);
  snprintf(text, sizeof text, "tl.where(%s, %s, %s)", sc, sa, sb);
  return emit_value(g, &r, text);
}

/* Conversions between f32, f16, i32 (and from i1); false for one that could
 * overflow, round a float to an int it might not be, or hit INT_MIN. */
static bool cast_meta(const meta *a, dt t, meta *r) {
  *r = *a;
  r->t = t;
  if (a->t == t || t == I1) return false;
  if (a->t == I1) return settle(r);
  if (t == I32) {
    if (is_float(a->t) && (!a->exact || a->bound >= 2147483520.0)) return false;
    r->bound = floor(a->bound);
    return settle(r);
  }
  if (a->t == I32) {
    if (a->bound > float_limit(t)) return false;
    r->q = 0;
    r->exact = a->bound <= ldexp(1.0, mant_bits(t));
  }
  return settle(r);
}

static bool stmt_cast(gen *g) {
  var *a = pick(g, &(want){0xf, -1, -1, false, false});
  if (!a) return false;
  meta r;
  if (!cast_meta(&a->m, (dt)rnd(g, 3), &r)) return false;
  char x[64], text[160];
  opnd(a, a->m.k, x, sizeof x);
  snprintf(text, sizeof text, "%s.to(%s)", x, tl_type(r.t));
  return emit_value(g, &r, text);
}

/* Reductions (sum, max, min, argmax, argmin) and cumsum along an axis. */
static bool stmt_reduce(gen *g) {
  var *a = pick(g, &(want){(1u << F32) | (1u << F16) | (1u << I32), -1, -1, false, true});
  if (!a) return false;
  int axis = a->m.k == KT ? rnd(g, 2) : 0;
  kind k = a->m.k != KT ? KS : axis == 0 ? KC : KR;
  double len = a->m.k == KT ? (axis ? g->k->cols : g->k->rows) : kind_len(g, a->m.k);
  static const char *const fns[] = {"tl.sum",    "tl.max",    "tl.min",
                                    "tl.argmax", "tl.argmin", "tl.cumsum"};
  int f = rnd(g, 6);
  meta r = a->m;
  r.k = k;
  if (f == 0 || f == 5) r.bound = a->m.bound * len;
  if (f == 5) r.k = a->m.k; /* a scan keeps the shape */
  if (f == 3 || f == 4) {
    if (!a->m.exact) return false; /* ties pick an index: exact values only */
    r.t = I32, r.bound = len, r.q = 0;
  }
  if (!settle(&r)) return false;
  char x[64], text[200];
  opnd(a, a->m.k, x, sizeof x);
  snprintf(text, sizeof text, "%s(%s, axis=%d).to(%s)", fns[f], x, axis, tl_type(r.t));
  return emit_value(g, &r, text);
}

static const char *shape_of(kind k) { return k == KT ? "[R, C]" : k == KR ? "[R]" : "[C]"; }

static bool stmt_full(gen *g) {
  dt t = (dt)rnd(g, 3);
  kind k = (kind)(1 + rnd(g, 3));
  char lit[48], text[160];
  meta r = literal(g, t, lit, sizeof lit);
  r.k = k;
  snprintf(text, sizeof text, "tl.full(%s, %s, %s)", shape_of(k), lit, tl_type(t));
  return emit_value(g, &r, text);
}

static bool stmt(gen *g);

/* Statements until the budget (or n of them) runs out. */
static void stmts(gen *g, int n) {
  for (int i = 0; i < n && g->budget > 0 && !g->oom; i++) {
    for (int tries = 0; tries < 20 && !stmt(g); tries++) {
    }
    g->budget--;
  }
}

typedef struct mark {
  size_t len;
  int nvars, budget;
  uint64_t rng;
} mark;

static mark mark_here(const gen *g) { return (mark){g->len, g->nvars, g->budget, g->rng}; }

/* Forgets the variables a block defined (Triton scopes them to it). */
static void drop_vars(gen *g, int nvars) { g->nvars = nvars; }

/* A clamp of x into [-b, b] keeps a carried value bounded. */
static void clamp_text(dt t, double b, const char *x, char *out, size_t cap) {
  char lit[48];
  if (is_float(t))
    fmt_float(lit, sizeof lit, b);
  else
    snprintf(lit, sizeof lit, "%.0f", b);
  /* (a Python float beside an f16 tensor gives f32 in tl.maximum) */
  if (snprintf(out, cap, "tl.minimum(tl.maximum(%s, -%s), %s).to(%s)", x, lit, lit, tl_type(t)) >=
      (int)cap)
    out[0] = '\0'; /* never: the callers' buffers are large enough */
}

/* acc = clamp(init); for i in ...: body; acc = clamp(acc op x). The body is
 * generated assuming acc exact with init's quantum; if the update breaks
 * that (a product shifts the quantum), it is generated again with acc
 * inexact, which nothing can break. */
static bool stmt_for(gen *g) {
  var *init = pick(g, &(want){(1u << F32) | (1u << F16) | (1u << I32), -1, -1, false, false});
  if (!init || g->budget < 3) return false;
  dt t = init->m.t;
  kind k = init->m.k;
  double b = t == F16 ? 256 : t == F32 ? 65536 : 1 << 20;
  meta acc = init->m;
  acc.bound = b; /* what the clamp keeps it in, before and after each iteration */
  settle(&acc);
  char x[64], text[400];
  opnd(init, k, x, sizeof x);
  var *a = new_var(g, &acc);
  if (!a) return false;
  clamp_text(t, b, x, text, sizeof text);
  line(g, "%s = %s", a->name, text);
  int loop = rnd(g, 5);
  char iv[8];
  snprintf(iv, sizeof iv, "i%d", g->depth);
  if (loop == 0)
    line(g, "for %s in range(0, k):", iv);
  else if (loop == 1)
    line(g, "for %s in range(1, k + 1):", iv);
  else if (loop == 2)
    line(g, "for %s in tl.range(0, k, 1):", iv);
  else if (loop == 3)
    line(g, "for %s in range(%d):", iv, 1 + rnd(g, 3));
  else
    line(g, "for %s in tl.static_range(%d):", iv, 1 + rnd(g, 3));
  mark m = mark_here(g);
  for (int attempt = 0; attempt < 2; attempt++) {
    g->len = m.len, g->nvars = m.nvars, g->budget = m.budget;
    a->m = acc;
    if (attempt) a->m.exact = false, a->m.q = min_q(t);
    int nv = g->nvars;
    g->indent++, g->depth++;
    if (loop != 4) fixed_var(g, iv, I32, KS, KMAX);
    stmts(g, rnd(g, 3));
    meta r;
    bool ok = make_binop(g, a, k, text, sizeof text, &r);
    if (!ok) {
      snprintf(text, sizeof text, "%s + %s", a->name, is_float(t) ? "1.0" : "1");
      meta one = {t, KS, 1, 0, true};
      ok = binop_meta(B_ADD, &a->m, &one, &r);
    }
    char upd[480], clamped[560];
    snprintf(upd, sizeof upd, "(%s).to(%s)", text, tl_type(t));
    clamp_text(t, b, upd, clamped, sizeof clamped);
    line(g, "%s = %s", a->name, clamped);
    g->indent--, g->depth--;
    drop_vars(g, nv);
    r.bound = fmin(r.bound, b);
    if (!a->m.exact || (ok && r.exact && r.q >= a->m.q)) break;
  }
  a->uses = 0;
  return true;
}

/* A scalar i1 condition for an if: from the program id, k, or a scalar. */
static void condition(gen *g, char *out, size_t cap) {
  want w = {(1u << I32) | (1u << F32) | (1u << F16), KS, KS, true, false};
  var *s = chance(g, 50) ? pick(g, &w) : NULL;
  if (s) {
    char lit[48];
    literal(g, s->m.t, lit, sizeof lit);
    s->uses++;
    snprintf(out, cap, "%s %s %s", s->name, chance(g, 50) ? ">" : "<=", lit);
  } else if (chance(g, 50)) {
    snprintf(out, cap, "pid %% 2 == %d", rnd(g, 2));
  } else {
    snprintf(out, cap, "k > %d", rnd(g, KMAX));
  }
}

/* One branch assigning dst (kind k, type t) from a variable like it. */
static bool branch(gen *g, var *like, const char *dst, meta *r) {
  int nv = g->nvars;
  g->indent++, g->depth++;
  stmts(g, rnd(g, 3));
  want w = {1u << like->m.t, like->m.k, like->m.k, false, false};
  var *a = pick(g, &w);
  char text[400];
  bool ok = a && make_binop(g, a, like->m.k, text, sizeof text, r);
  if (!ok) {
    snprintf(text, sizeof text, "%s", like->name);
    like->uses++;
    *r = like->m;
  }
  line(g, "%s = (%s).to(%s)", dst, text, tl_type(like->m.t));
  g->indent--, g->depth--;
  drop_vars(g, nv);
  return true;
}

static void meta_join(meta *a, const meta *b) {
  a->bound = fmax(a->bound, b->bound);
  a->exact = a->exact && b->exact;
  a->q = a->q < b->q ? a->q : b->q;
  settle(a);
}

static bool stmt_if(gen *g) {
  var *like = pick(g, &(want){0xf, -1, -1, false, false});
  if (!like || g->budget < 3) return false;
  char cond[128], name[16];
  snprintf(name, sizeof name, "v%d", g->next_id++);
  meta r = like->m, r2;
  condition(g, cond, sizeof cond);
  bool two = chance(g, 60);
  if (!two) {
    line(g, "%s = %s", name, like->name);
    like->uses++;
  }
  line(g, "if %s:", cond);
  branch(g, like, name, &r2);
  if (two) {
    r = r2;
    line(g, "else:");
    branch(g, like, name, &r2);
  }
  meta_join(&r, &r2);
  if (!settle(&r)) r.exact = false;
  var *v = new_var(g, &r);
  if (v) snprintf(v->name, sizeof v->name, "%s", name);
  return v != NULL;
}

static bool stmt(gen *g) {
  int x = rnd(g, 100);
  if (x < 30) return stmt_binop(g);
  if (x < 42) return stmt_unop(g);
  if (x < 52) return stmt_compare(g);
  if (x < 60) return stmt_where(g);
  if (x < 68) return stmt_cast(g);
  if (x < 78) return stmt_reduce(g);
  if (x < 82) return stmt_full(g);
  if (x < 91) return g->depth < 2 && stmt_for(g);
  return g->depth < 2 && stmt_if(g);
}

/* ---- the kernel --------------------------------------------------------------- */

static ttc_type ttc_of(dt t) {
  return t == F32 ? TTC_TYPE_F32 : t == F16 ? TTC_TYPE_F16 : TTC_TYPE_I32;
}

/* Loads of input i: always the tile, sometimes a row, a column, a scalar. */
static void load_input(gen *g, int i) {
  kg_buf *b = &g->k->bufs[i];
  dt t = b->type == TTC_TYPE_F32 ? F32 : b->type == TTC_TYPE_F16 ? F16 : I32;
  meta in = {t, KT, b->bound, b->q, true};
  for (int k = KT; k >= KS; k--) {
    if (k != KT && !chance(g, 30)) continue;
    char lit[48];
    meta m = in, o = literal(g, t, lit, sizeof lit);
    m.k = (kind)k;
    meta_join(&m, &o);
    var *v = new_var(g, &m);
    if (k == KT)
      line(g, "%s = tl.load(in%d + offs, mask=mask, other=%s)", v->name, i, lit);
    else if (k == KR)
      line(g, "%s = tl.load(in%d + pid * R + r, mask=pid * R + r < n, other=%s)", v->name, i, lit);
    else if (k == KC)
      line(g, "%s = tl.load(in%d + c, mask=c < n, other=%s)", v->name, i, lit);
    else
      line(g, "%s = tl.load(in%d + pid)", v->name, i);
  }
}

/* Stores the values nothing used (the last few), each to its own output. */
static bool store_outputs(gen *g, int first_out) {
  int nout = 0;
  for (int i = g->nvars - 1; i >= 0 && first_out + nout < KG_MAX_BUFS; i--) {
    var *v = &g->vars[i];
    if (v->fixed || (v->uses && !(nout == 0 && i == g->nvars - 1))) continue;
    int o = first_out + nout++;
    kg_buf *b = &g->k->bufs[o];
    b->is_output = true;
    b->type = ttc_of(v->m.t == I1 ? I32 : v->m.t);
    b->bound = v->m.bound;
    b->exact = v->m.exact || !is_float(v->m.t);
    b->n = v->m.k == KT   ? (size_t)g->k->n
           : v->m.k == KR ? (size_t)g->k->grid * (size_t)g->k->rows
           : v->m.k == KC ? (size_t)g->k->grid * (size_t)g->k->cols
                          : (size_t)g->k->grid;
    char val[64];
    snprintf(val, sizeof val, v->m.t == I1 ? "%s.to(tl.int32)" : "%s", v->name);
    if (v->m.k == KT)
      line(g, "tl.store(out%d + offs, %s, mask=mask)", o - first_out, val);
    else if (v->m.k == KR)
      line(g, "tl.store(out%d + pid * R + r, %s)", o - first_out, val);
    else if (v->m.k == KC)
      line(g, "tl.store(out%d + pid * C + c, %s)", o - first_out, val);
    else
      line(g, "tl.store(out%d + pid, %s)", o - first_out, val);
  }
  return nout > 0;
}

static void add_sig(kg_kernel *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_sig(kg_kernel *k, const char *fmt, ...) {
  size_t len = strlen(k->sig);
  if (len) k->sig[len++] = ',';
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(k->sig + len, sizeof k->sig - len, fmt, ap);
  va_end(ap);
}

bool kg_generate(uint64_t seed, kg_kernel *out) {
  memset(out, 0, sizeof *out);
  gen *g = calloc(1, sizeof *g);
  if (!g) return false;
  g->k = out;
  out->seed = seed;
  g->rng = seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
  if (!g->rng) g->rng = 1;
  for (int i = 0; i < 4; i++)
    kg_rand(&g->rng);
  static const int dims[] = {1, 2, 4, 8, 16, 32, 64};
  do {
    out->rows = dims[rnd(g, 7)];
    out->cols = dims[rnd(g, 7)];
  } while (out->rows * out->cols > 2048 || out->rows * out->cols < 2);
  out->grid = 1 + (unsigned)rnd(g, 3);
  int tile = out->rows * out->cols, full = (int)out->grid * tile;
  out->n = chance(g, 40) ? full : full - rnd(g, tile);
  if (out->n < (int)out->grid) out->n = (int)out->grid;
  out->k = rnd(g, KMAX + 1);
  int nin = 1 + rnd(g, 3);
  for (int i = 0; i < nin; i++) {
    kg_buf *b = &out->bufs[i];
    dt t = (dt)rnd(g, 3);
    b->type = ttc_of(t);
    b->n = (size_t)out->n;
    if (is_float(t)) {
      b->q = -rnd(g, 4);
      b->bound = ldexp(1.0, rnd(g, 4));
    } else {
      static const double ib[] = {100, 1 << 20, I32_WRAP};
      b->bound = ib[rnd(g, 3)];
    }
    b->exact = true;
  }
  g->budget = 6 + rnd(g, 24);
  g->cap = 4096;
  g->buf = malloc(g->cap);
  if (!g->buf) {
    free(g);
    return false;
  }
  g->buf[0] = '\0';

  /* the body first (outputs are known at its end), the header after */
  fixed_var(g, "pid", I32, KS, out->grid - 1);
  fixed_var(g, "n", I32, KS, out->n);
  fixed_var(g, "k", I32, KS, KMAX);
  fixed_var(g, "r", I32, KR, out->rows - 1);
  fixed_var(g, "c", I32, KC, out->cols - 1);
  fixed_var(g, "offs", I32, KT, full);
  fixed_var(g, "mask", I1, KT, 1);
  line(g, "pid = tl.program_id(0)");
  line(g, "r = tl.arange(0, R)");
  line(g, "c = tl.arange(0, C)");
  line(g, "offs = pid * (R * C) + r[:, None] * C + c[None, :]");
  line(g, "mask = offs < n");
  for (int i = 0; i < nin; i++)
    load_input(g, i);
  stmts(g, 1000);
  bool ok = store_outputs(g, nin) && !g->oom;
  int nout = 0;
  for (int i = nin; i < KG_MAX_BUFS && out->bufs[i].is_output; i++)
    nout++;
  out->nbufs = nin + nout;

  char params[256] = "";
  size_t pl = 0;
  for (int i = 0; i < out->nbufs; i++) {
    bool is_in = i < nin;
    pl += (size_t)snprintf(params + pl, sizeof params - pl, "%s%d, ", is_in ? "in" : "out",
                           is_in ? i : i - nin);
    add_sig(out, "*%s%s", ttc_type_name(out->bufs[i].type), chance(g, 50) ? ":16" : "");
  }
  add_sig(out, out->n % 16 == 0 && chance(g, 50) ? "i32:16" : "i32");
  add_sig(out, "i32");
  add_sig(out, "%d", out->rows);
  add_sig(out, "%d", out->cols);
  char head[1024];
  int hl = snprintf(head, sizeof head,
                    "# kernelgen seed %llu: kernel '%s', signature '%s', grid (%u,), n=%d, k=%d\n"
                    "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                    "def %s(%sn, k, R: tl.constexpr, C: tl.constexpr):\n",
                    (unsigned long long)seed, KG_KERNEL_NAME, out->sig, out->grid, out->n, out->k,
                    KG_KERNEL_NAME, params);
  static const char tail[] = "# SPDX-License-Identifier: MIT\n";
  out->src = malloc((size_t)hl + g->len + sizeof tail + 1);
  if (out->src && ok) {
    memcpy(out->src, head, (size_t)hl);
    memcpy(out->src + hl, g->buf, g->len);
    memcpy(out->src + hl + g->len, tail, sizeof tail);
  }
  free(g->buf);
  free(g);
  if (!out->src || !ok) {
    kg_kernel_free(out);
    return false;
  }
  return true;
}

void kg_kernel_free(kg_kernel *k) {
  free(k->src);
  k->src = NULL;
}
