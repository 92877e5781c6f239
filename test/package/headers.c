// SPDX-License-Identifier: MIT
/* headers.c - the public headers alone in one translation unit, compiled
 * by test/package/run.sh as C99, C11, C++11 and C++17 with -Wall -Wextra
 * -pedantic -Werror (as C++ through -x c++). */
#include <ttc/ttc.h>

int ttc_headers_compile(void);
int ttc_headers_compile(void) {
  ttc_arg a = ttc_arg_ptr_to(TTC_TYPE_F16, 0);
  return (int)a.type + (int)sizeof(ttc_compile_options) + (int)sizeof(ttc_function_options) +
         (int)sizeof(ttc_aot_options);
}
