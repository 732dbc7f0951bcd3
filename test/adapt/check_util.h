/*
 * Shared by the adapt test programs (bcast_check.c, coll_check.c,
 * online_check.c): lookup of libarcoll's introspection functions and the
 * CHECK macro.  Define _GNU_SOURCE before any include (RTLD_DEFAULT).
 */
#ifndef ARCOLL_TEST_ADAPT_CHECK_UTIL_H
#define ARCOLL_TEST_ADAPT_CHECK_UTIL_H

#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>

/* arcoll_last_algorithm() and arcoll_bcast_last_order() (adapt/arcoll.h):
 * linked into the program (ARCOLL_TEST_LINKED: the SMPI builds) or looked
 * up in the preloaded libarcoll (NULL when libarcoll is not active). */
typedef const char *(*last_fn)(const char *);
typedef int (*last_order_fn)(MPI_Comm, int *, int, long long *, int *);
#ifdef ARCOLL_TEST_LINKED
const char *arcoll_last_algorithm(const char *collective);
int arcoll_bcast_last_order(MPI_Comm comm, int *order, int len, long long *ncalls, int *adaptive);
#define ARCOLL_TEST_SYMBOL(type, name) ((type)(name))
#else
#define ARCOLL_TEST_SYMBOL(type, name) ((type)dlsym(RTLD_DEFAULT, #name))
#endif
static inline last_fn get_last(void) { return ARCOLL_TEST_SYMBOL(last_fn, arcoll_last_algorithm); }
static inline last_order_fn get_last_order(void) {
  return ARCOLL_TEST_SYMBOL(last_order_fn, arcoll_bcast_last_order);
}

#include "../check.h" /* CHECK */

/* MPI error class of rc (MPI_SUCCESS stays 0). */
static inline int err_class(int rc) {
  int cls = rc;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
  return cls;
}

/* SAME_ERROR(what, MPI_x(...), PMPI_x(...)): the intercepted call fails with
 * the error class of MPICH's own (under MPI_ERRORS_RETURN). */
#define SAME_ERROR(what, call_mpi, call_pmpi)                                              \
  do {                                                                                     \
    int a_ = (call_mpi), b_ = (call_pmpi);                                                 \
    CHECK(a_ != MPI_SUCCESS, "%s: succeeded", what);                                       \
    CHECK(err_class(a_) == err_class(b_), "%s: error class %d, PMPI gives %d", what,       \
          err_class(a_), err_class(b_));                                                   \
  } while (0)

#endif
