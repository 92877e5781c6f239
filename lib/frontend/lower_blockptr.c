/* lower_blockptr.c - block pointers (tl.make_block_ptr, tl.advance) and
 * tensor descriptors, lowered to ordinary masked pointer accesses. */
#include <string.h>

#include "frontend/fe.h"

fe_val fe_struct_attr(fe_lower *l, fe_val v, const char *name, ir_loc loc) {
  return fe_error(l, loc, "'%s' has no attribute '%s'", v.path, name);
}
