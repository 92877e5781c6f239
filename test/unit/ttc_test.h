// SPDX-License-Identifier: MIT
/* ttc_test.h - the one way unit tests include cmocka: Debian's cmocka 1.1.5
 * needs these standard headers first. */
#ifndef TTC_TEST_H
#define TTC_TEST_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#endif
