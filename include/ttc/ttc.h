// SPDX-License-Identifier: MIT
/* ttc/ttc.h - the whole public API of ttc, the Triton kernel compiler in C:
 * base types and statuses, compiling, the IR tool, the runtime and kernel
 * functions (JIT specialization, the disk cache, autotuning). */
#ifndef TTC_TTC_H
#define TTC_TTC_H
#include "ttc/base.h"
#include "ttc/compile.h"
#include "ttc/runtime.h"
#include "ttc/function.h"
#include "ttc/aot.h"
#include "ttc/irtool.h"
#endif
