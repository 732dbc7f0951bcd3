/*
 * The CHECK macro of arcoll's MPI test programs (test/adapt/check_util.h,
 * test/collectives/algo_check.h).
 *
 * CHECK(cond, printf format, ...): one more check (`checked`); when cond is
 * false one more failure (`failures`), the first CHECK_PRINTED of them
 * printed as "<CHECK_PROG> rank <me>: message" on stderr.  The program
 * defines CHECK_PROG (a string), `long checked, failures` and `int me`.
 */
#ifndef ARCOLL_TEST_CHECK_H
#define ARCOLL_TEST_CHECK_H

#include <stdio.h>

#define CHECK_PRINTED 12
#define CHECK(cond, ...)                                      \
  do {                                                        \
    ++checked;                                                \
    if (!(cond)) {                                            \
      if (failures < CHECK_PRINTED) {                         \
        fprintf(stderr, "%s rank %d: ", CHECK_PROG, me);      \
        fprintf(stderr, __VA_ARGS__);                         \
        fprintf(stderr, "\n");                                \
      }                                                       \
      ++failures;                                             \
    }                                                         \
  } while (0)

#endif
