/* interp_tensor.c - whole-tensor ops of the interpreter: constants, splat,
 * broadcast, trans, join, split, reductions, scans and dot.
 *
 * Reductions and scans run their combine region over many lanes at once
 * (ex->lanes): a reduction pairs neighbours level by level (log2 of the axis
 * length region runs, order-preserving, so any associative combiner works);
 * a scan is Hillis-Steele (log2 steps). Tensors are row-major. */
#include <stdlib.h>
#include <string.h>

#include "runtime/interp_impl.h"

bool rt_interp_fill_constant(const ir_attr *a, const rt_islot *s, void *p, size_t n) {
  if (a->kind == IR_ATTR_DENSE) a = a->elem;
  if (!a) return false;
  if (s->elem->kind == IR_TY_FLOAT) {
    double x = a->kind == IR_ATTR_FLOAT ? a->f : a->kind == IR_ATTR_INT ? (double)a->i : 0.0;
    if (a->kind != IR_ATTR_FLOAT && a->kind != IR_ATTR_INT) return false;
    rt_float_set(s->elem, p, 0, x);
  } else if (a->kind == IR_ATTR_INT) {
    uint64_t x = (uint64_t)a->i;
    if (s->elem->kind == IR_TY_INT && s->elem->width == 1) x &= 1;
    memcpy(p, &x, s->esize); /* little endian: the low bytes */
  } else {
    return false;
  }
  for (size_t i = 1; i < n; i++)
    rt_copy_elem(p, i, p, 0, s->esize);
  return true;
}

bool rt_interp_splat(rt_iexec *ex, const rt_ins *ins) {
  size_t n = rt_ins_n(ex, ins);
  const void *x = ex->v[ins->in[0]];
  void *o = ex->v[ins->out[0]];
  switch (rt_slot(ex, ins->out[0])->esize) {
  case 1: memset(o, *(const uint8_t *)x, n); break;
  case 2: {
    uint16_t v = *(const uint16_t *)x, *d = o;
    for (size_t i = 0; i < n; i++)
      d[i] = v;
    break;
  }
  case 4: {
    uint32_t v = *(const uint32_t *)x, *d = o;
    for (size_t i = 0; i < n; i++)
      d[i] = v;
    break;
  }
  default: {
    uint64_t v = *(const uint64_t *)x, *d = o;
    for (size_t i = 0; i < n; i++)
      d[i] = v;
    break;
  }
  }
  return true;
}

/* dst (row-major, `shape`) from src read with per-dimension element
 * strides (0 where src is broadcast). */
static void gather(void *dst, const void *src, int rank, const int64_t *shape,
                   const int64_t *strides, unsigned es) {
  int64_t idx[IR_MAX_RANK] = {0};
  size_t total = 1;
  for (int d = 0; d < rank; d++)
    total *= (size_t)shape[d];
  if (rank == 0 || total == 0) {
    if (total) rt_copy_elem(dst, 0, src, 0, es);
    return;
  }
  int64_t inner = shape[rank - 1], istride = strides[rank - 1];
  size_t k = 0;
  while (k < total) {
    int64_t base = 0;
    for (int d = 0; d < rank - 1; d++)
      base += idx[d] * strides[d];
#define GATHER_ROW(T)                                                                              \
  for (int64_t j = 0; j < inner; j++)                                                              \
  ((T *)dst)[k + (size_t)j] = ((const T *)src)[base + j * istride]
    switch (es) {
    case 1: GATHER_ROW(uint8_t); break;
    case 2: GATHER_ROW(uint16_t); break;
    case 4: GATHER_ROW(uint32_t); break;
    default: GATHER_ROW(uint64_t); break;
    }
#undef GATHER_ROW
    k += (size_t)inner;
    for (int d = rank - 2; d >= 0; d--) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

/* Row-major element strides of a shape. */
static void row_strides(const ir_type *t, int64_t *st) {
  int64_t s = 1;
  for (int d = t->rank - 1; d >= 0; d--) {
    st[d] = s;
    s *= t->shape[d];
  }
}

bool rt_interp_broadcast(rt_iexec *ex, const rt_ins *ins) {
  const rt_islot *si = rt_slot(ex, ins->in[0]), *so = rt_slot(ex, ins->out[0]);
  if (!ir_type_is_tensor(si->type)) return rt_interp_splat(ex, ins);
  int64_t st[IR_MAX_RANK];
  row_strides(si->type, st);
  for (int d = 0; d < so->type->rank; d++)
    if (si->type->shape[d] == 1) st[d] = 0;
  gather(ex->v[ins->out[0]], ex->v[ins->in[0]], so->type->rank, so->type->shape, st, so->esize);
  return true;
}

bool rt_interp_trans(rt_iexec *ex, const rt_ins *ins) {
  const rt_islot *si = rt_slot(ex, ins->in[0]), *so = rt_slot(ex, ins->out[0]);
  const ir_attr *order = ir_op_get_attr(ins->op, "order");
  int rank = so->type->rank;
  if (!order || order->n != rank)
    return rt_iexec_fail(ex, ins->op, TTC_ERROR_INPUT, "tt.trans", "missing or bad 'order'");
  int64_t in_st[IR_MAX_RANK], st[IR_MAX_RANK];
  row_strides(si->type, in_st);
  for (int d = 0; d < rank; d++)
    st[d] = in_st[order->ints[d]];
  gather(ex->v[ins->out[0]], ex->v[ins->in[0]], rank, so->type->shape, st, so->esize);
  return true;
}

bool rt_interp_join(rt_iexec *ex, const rt_ins *ins) {
  const rt_islot *si = rt_slot(ex, ins->in[0]);
  void *o = ex->v[ins->out[0]];
  for (size_t i = 0; i < si->numel; i++) {
    rt_copy_elem(o, 2 * i, ex->v[ins->in[0]], i, si->esize);
    rt_copy_elem(o, 2 * i + 1, ex->v[ins->in[1]], i, si->esize);
  }
  return true;
}

bool rt_interp_split(rt_iexec *ex, const rt_ins *ins) {
  const rt_islot *so = rt_slot(ex, ins->out[0]);
  const void *x = ex->v[ins->in[0]];
  for (size_t i = 0; i < so->numel; i++) {
    rt_copy_elem(ex->v[ins->out[0]], i, x, 2 * i, so->esize);
    rt_copy_elem(ex->v[ins->out[1]], i, x, 2 * i + 1, so->esize);
  }
  return true;
}

/* ---- reduce and scan ---------------------------------------------------------- */

/* The [outer, L, inner] view of a tensor around `axis`. */
static void axis_view(const ir_type *t, int axis, size_t *outer, size_t *len, size_t *inner) {
  *outer = *inner = 1;
  *len = 1;
  if (!ir_type_is_tensor(t)) return;
  for (int d = 0; d < t->rank; d++) {
    if (d < axis)
      *outer *= (size_t)t->shape[d];
    else if (d == axis)
      *len = (size_t)t->shape[d];
    else
      *inner *= (size_t)t->shape[d];
  }
}

/* Copies `nruns` runs of `run` elements, run r from src + r * sstride to
 * dst + r * dstride (strides in elements). */
static void copy_runs(void *dst, const void *src, size_t nruns, size_t run, size_t dstride,
                      size_t sstride, unsigned es) {
  if (run == 1) {
    for (size_t r = 0; r < nruns; r++)
      rt_copy_elem(dst, r * dstride, src, r * sstride, es);
    return;
  }
  for (size_t r = 0; r < nruns; r++)
    memcpy((char *)dst + r * dstride * es, (const char *)src + r * sstride * es, run * es);
}

/* Runs the combine region over `lanes` lanes; returns its terminator. */
static const rt_ins *run_combine(rt_iexec *ex, const rt_iblock *region, size_t lanes) {
  size_t saved = ex->lanes;
  ex->lanes = lanes;
  const rt_ins *term = rt_iexec_block(ex, region);
  ex->lanes = saved;
  return term;
}

#define RT_MAX_COMBINE 16 /* operands of one reduce or scan */

/* Work buffers for up to RT_MAX_COMBINE operands, freed together. */
typedef struct work {
  void *buf[2 * RT_MAX_COMBINE];
  int n;
} work;

static void *work_alloc(work *w, size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (p) w->buf[w->n++] = p;
  return p;
}

static void work_free(work *w) {
  for (int i = 0; i < w->n; i++)
    free(w->buf[i]);
}

bool rt_interp_reduce(rt_iexec *ex, const rt_ins *ins) {
  int nin = ins->nin;
  const rt_iblock *region = &ins->regions[0];
  if (nin > RT_MAX_COMBINE || region->nargs != 2 * nin)
    return rt_iexec_fail(ex, ins->op, TTC_ERROR_UNSUPPORTED, "tt.reduce",
                         "%d operands (at most %d)", nin, RT_MAX_COMBINE);
  const rt_islot *s0 = rt_slot(ex, ins->in[0]);
  int axis = (int)ir_op_get_int(ins->op, "axis", 0);
  size_t outer, len, inner;
  axis_view(s0->type, axis, &outer, &len, &inner);
  work w = {{0}, 0};
  void *cur[RT_MAX_COMBINE], *nxt[RT_MAX_COMBINE];
  unsigned es[RT_MAX_COMBINE];
  for (int j = 0; j < nin; j++) {
    const rt_islot *s = rt_slot(ex, ins->in[j]);
    es[j] = s->esize;
    cur[j] = work_alloc(&w, s->numel * s->esize);
    nxt[j] = work_alloc(&w, s->numel * s->esize);
    if (!cur[j] || !nxt[j]) {
      work_free(&w);
      return rt_iexec_fail(ex, ins->op, TTC_ERROR_OUT_OF_MEMORY, "tt.reduce", "out of memory");
    }
    memcpy(cur[j], ex->v[ins->in[j]], s->numel * s->esize);
  }
  while (len > 1) {
    size_t h = len / 2, nlen = h + (len & 1), lanes = outer * h * inner;
    /* Lane (o, k, i) combines elements 2k and 2k + 1 of the axis. */
    for (int j = 0; j < nin; j++)
      for (size_t o = 0; o < outer; o++) {
        const char *src = (const char *)cur[j] + o * len * inner * es[j];
        size_t at = o * h * inner * es[j];
        copy_runs((char *)ex->v[region->args[j]] + at, src, h, inner, inner, 2 * inner, es[j]);
        copy_runs((char *)ex->v[region->args[nin + j]] + at, src + inner * es[j], h, inner, inner,
                  2 * inner, es[j]);
      }
    const rt_ins *term = run_combine(ex, region, lanes);
    if (!term) {
      work_free(&w);
      return false;
    }
    for (int j = 0; j < nin; j++)
      for (size_t o = 0; o < outer; o++) {
        char *dst = (char *)nxt[j] + o * nlen * inner * es[j];
        memcpy(dst, (const char *)ex->v[term->in[j]] + o * h * inner * es[j], h * inner * es[j]);
        if (len & 1) /* the odd last element carries to the next level */
          memcpy(dst + h * inner * es[j], (const char *)cur[j] + (o * len + 2 * h) * inner * es[j],
                 inner * es[j]);
      }
    for (int j = 0; j < nin; j++) {
      void *t = cur[j];
      cur[j] = nxt[j];
      nxt[j] = t;
    }
    len = nlen;
  }
  for (int j = 0; j < nin; j++)
    memcpy(ex->v[ins->out[j]], cur[j], outer * inner * es[j]);
  work_free(&w);
  return true;
}

bool rt_interp_scan(rt_iexec *ex, const rt_ins *ins) {
  int nin = ins->nin;
  const rt_iblock *region = &ins->regions[0];
  if (nin > RT_MAX_COMBINE || region->nargs != 2 * nin)
    return rt_iexec_fail(ex, ins->op, TTC_ERROR_UNSUPPORTED, "tt.scan", "%d operands (at most %d)",
                         nin, RT_MAX_COMBINE);
  const rt_islot *s0 = rt_slot(ex, ins->in[0]);
  int axis = (int)ir_op_get_int(ins->op, "axis", 0);
  const ir_attr *rev = ir_op_get_attr(ins->op, "reverse");
  bool reverse = rev && (rev->kind == IR_ATTR_UNIT || rev->i != 0);
  size_t outer, len, inner;
  axis_view(s0->type, axis, &outer, &len, &inner);
  /* The results are the running values: scan in place in the result slots. */
  for (int j = 0; j < nin; j++) {
    const rt_islot *s = rt_slot(ex, ins->in[j]);
    memcpy(ex->v[ins->out[j]], ex->v[ins->in[j]], s->numel * s->esize);
  }
  for (size_t d = 1; d < len; d *= 2) {
    size_t run = (len - d) * inner, lanes = outer * run;
    /* Forward: lane (o, k >= d) combines k - d (earlier) with k.
     * Reverse: lane (o, k < len - d) combines k + d (earlier) with k. */
    size_t left_off = reverse ? d * inner : 0, right_off = reverse ? 0 : d * inner;
    for (int j = 0; j < nin; j++) {
      unsigned es = rt_slot(ex, ins->in[j])->esize;
      const char *cur = ex->v[ins->out[j]];
      for (size_t o = 0; o < outer; o++) {
        memcpy((char *)ex->v[region->args[j]] + o * run * es,
               cur + (o * len * inner + left_off) * es, run * es);
        memcpy((char *)ex->v[region->args[nin + j]] + o * run * es,
               cur + (o * len * inner + right_off) * es, run * es);
      }
    }
    const rt_ins *term = run_combine(ex, region, lanes);
    if (!term) return false;
    for (int j = 0; j < nin; j++) {
      unsigned es = rt_slot(ex, ins->in[j])->esize;
      char *cur = ex->v[ins->out[j]];
      for (size_t o = 0; o < outer; o++)
        memcpy(cur + (o * len * inner + right_off) * es,
               (const char *)ex->v[term->in[j]] + o * run * es, run * es);
    }
  }
  return true;
}

/* ---- dot ------------------------------------------------------------------------ */

/* Widens a float tensor to floats (f16/bf16 exactly). */
static float *to_f32(const rt_islot *s, const void *p, float *out, size_t n) {
  for (size_t i = 0; i < n; i++)
    out[i] = (float)rt_float_get(s->elem, p, i);
  return out;
}

/* Truncates to tf32 (10 mantissa bits), as the tensor cores read the f32
 * operands of a tf32 dot (they ignore the low 13 bits; Triton does not
 * round them first); NaN and infinity stay as they are. */
static void truncate_tf32(float *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint32_t u;
    memcpy(&u, &x[i], sizeof u);
    if ((u & 0x7f800000u) == 0x7f800000u) continue;
    u &= 0xffffe000u;
    memcpy(&x[i], &u, sizeof u);
  }
}

bool rt_interp_dot(rt_iexec *ex, const rt_ins *ins) {
  const rt_islot *sa = rt_slot(ex, ins->in[0]), *sb = rt_slot(ex, ins->in[1]);
  const rt_islot *sc = rt_slot(ex, ins->in[2]), *so = rt_slot(ex, ins->out[0]);
  int rank = sa->type->rank;
  if (rank < 2 || rank > 3)
    return rt_iexec_fail(ex, ins->op, TTC_ERROR_UNSUPPORTED, "tt.dot", "rank %d", rank);
  size_t batch = rank == 3 ? (size_t)sa->type->shape[0] : 1;
  size_t M = (size_t)sa->type->shape[rank - 2], K = (size_t)sa->type->shape[rank - 1];
  size_t N = (size_t)sb->type->shape[rank - 1];
  const void *a = ex->v[ins->in[0]], *b = ex->v[ins->in[1]], *c = ex->v[ins->in[2]];
  void *o = ex->v[ins->out[0]];
  if (sa->elem->kind == IR_TY_INT) {
    /* Integer dot (i8 x i8 -> i32): wrapping 32-bit accumulation. */
    for (size_t bt = 0; bt < batch; bt++)
      for (size_t m = 0; m < M; m++)
        for (size_t n = 0; n < N; n++) {
          uint32_t acc = ((const uint32_t *)c)[(bt * M + m) * N + n];
          for (size_t k = 0; k < K; k++)
            acc += (uint32_t)((int32_t)((const int8_t *)a)[(bt * M + m) * K + k] *
                              (int32_t)((const int8_t *)b)[(bt * K + k) * N + n]);
          ((uint32_t *)o)[(bt * M + m) * N + n] = acc;
        }
    return true;
  }
  if (sa->elem->width == 64) { /* f64: accumulate in double */
    const double *A = a, *B = b, *C = c;
    double *O = o;
    for (size_t bt = 0; bt < batch; bt++)
      for (size_t m = 0; m < M; m++) {
        double *row = O + (bt * M + m) * N;
        memcpy(row, C + (bt * M + m) * N, N * sizeof *row);
        for (size_t k = 0; k < K; k++) {
          double av = A[(bt * M + m) * K + k];
          const double *brow = B + (bt * K + k) * N;
          for (size_t n = 0; n < N; n++)
            row[n] += av * brow[n];
        }
      }
    return true;
  }
  /* f16 / bf16 / f32 inputs: f32 products accumulated in f32, as the
   * tensor cores do; f32 inputs are truncated to tf32 first unless the dot
   * asks for ieee or tf32x3 precision (inputPrecision 2 or 1). */
  float *A = to_f32(sa, a, ex->scratch[0], sa->numel);
  float *B = to_f32(sb, b, ex->scratch[1], sb->numel);
  if (sa->elem->width == 32 && ir_op_get_int(ins->op, "inputPrecision", 0) == 0) {
    truncate_tf32(A, sa->numel);
    truncate_tf32(B, sb->numel);
  }
  float *C = to_f32(sc, c, ex->scratch[2], sc->numel);
  for (size_t bt = 0; bt < batch; bt++)
    for (size_t m = 0; m < M; m++) {
      float *row = C + (bt * M + m) * N;
      for (size_t k = 0; k < K; k++) {
        float av = A[(bt * M + m) * K + k];
        const float *brow = B + (bt * K + k) * N;
        for (size_t n = 0; n < N; n++)
          row[n] += av * brow[n];
      }
    }
  for (size_t i = 0; i < so->numel; i++)
    rt_float_set(so->elem, o, i, C[i]);
  return true;
}
