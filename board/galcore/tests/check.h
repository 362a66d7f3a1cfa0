/* SPDX-License-Identifier: MIT */
/* The galcore unit tests' one check: a failed condition prints its file and line and is counted;
 * each test's main returns 1 when `failures` is not zero. */
#ifndef RKNNOP_GALCORE_TESTS_CHECK_H
#define RKNNOP_GALCORE_TESTS_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stdout, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

#endif
