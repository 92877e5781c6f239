/* lower_libdevice.c - tl.extra.cuda.libdevice (and tl.math) functions by
 * name, as Triton's libdevice table spells them. Functions with a tl
 * equivalent lower to it; the others become calls of the libdevice symbol
 * (__nv_NAME / __nv_NAMEf). */
#include <string.h>

#include "frontend/fe.h"

/* libdevice name -> the tl builtin computing it ("" when none). */
typedef struct ld_fn {
  const char *name;
  const char *tl;
} ld_fn;

static const ld_fn ld_fns[] = {
    {"exp", "tl.exp"},     {"exp2", "tl.exp2"},   {"log", "tl.log"},     {"log2", "tl.log2"},
    {"sqrt", "tl.sqrt"},   {"rsqrt", "tl.rsqrt"}, {"sin", "tl.sin"},     {"cos", "tl.cos"},
    {"erf", "tl.erf"},     {"floor", "tl.floor"}, {"ceil", "tl.ceil"},   {"fabs", "tl.abs"},
    {"abs", "tl.abs"},     {"fma", "tl.fma"},     {"fmax", "tl.maximum"}, {"fmin", "tl.minimum"},
    {"div_rn", "tl.div_rn"}, {"sqrt_rn", "tl.sqrt_rn"}, {"umulhi", "tl.umulhi"},
    {"mulhi", "tl.umulhi"},
};

bool fe_is_libdevice_name(const char *name) {
  for (size_t i = 0; i < sizeof ld_fns / sizeof ld_fns[0]; i++)
    if (strcmp(ld_fns[i].name, name) == 0) return true;
  return false;
}

fe_val fe_call_libdevice(fe_lower *l, const char *name, const fe_args *args) {
  for (size_t i = 0; i < sizeof ld_fns / sizeof ld_fns[0]; i++)
    if (strcmp(ld_fns[i].name, name) == 0 && ld_fns[i].tl[0])
      return fe_call_builtin(l, ld_fns[i].tl, args);
  return fe_error(l, args->loc, "unsupported: libdevice function '%s'", name);
}
