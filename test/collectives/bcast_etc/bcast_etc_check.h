/*
 * Shared by the bcast_etc correctness matrix (coll_check.c, coll_check_alltoall.c):
 * the datatypes under test, the expected value of every item, buffers filled
 * with a sentinel, failure reporting and the schedules (orders, segments, k).
 */
#ifndef ARCOLL_TEST_BCAST_ETC_CHECK_H
#define ARCOLL_TEST_BCAST_ETC_CHECK_H

#include <mpi.h>

#include "coll.h"

#include "gather.h"

typedef struct {
  double d;
  int i;
  char c;
} rec_t;

enum { T_INT, T_DOUBLE, T_VEC, T_STRUCT, NTYPES };
#define SENTINEL (-7)

typedef struct {
  int P, me;
  long failures;
  MPI_Datatype dt[NTYPES];
  MPI_Aint ext[NTYPES];
  int nb[NTYPES]; /* basic items per element */
} ctx_t;


/* expected value of basic item b of the data of id (a rank, or a block) */
int val(long id, long b);
/* set / check basic item b (element b / nb, field b % nb) of a buffer of type t;
 * item_ok also checks that a vector's gaps still hold the sentinel */
void set_item(const ctx_t *c, int t, char *buf, long b, int v);
int item_ok(const ctx_t *c, int t, const char *buf, long b, int v);
/* buffer of n elements of type t filled with the sentinel */
char *alloc_buf(const ctx_t *c, int t, long n);
/* count a failure; print the first 10 */
void fail(ctx_t *c, const char *what, const char *algo, int t, long count, int root, int sched,
          long b);
void check_rc(ctx_t *c, int rc, const char *what, const char *algo);
/* schedule `kind` 0..3 for root (0: NULL; see coll_check_items.c); order has P entries */
const arcoll_sched_t *make_sched(const ctx_t *c, int kind, int root, int seed, int *order,
                                 arcoll_sched_t *s, long bytes);
/* host seconds (informational progress output only, never asserted) */
double host_seconds(void);
/* gather/scatter/alltoall type pairs (send, recv, recv count factor); pair NTYPES = vector -> int */
void pair_types(int pi, int *st, int *rt, int *fac);

void test_alltoall(ctx_t *c, long maxbytes, int nsched);
void test_barrier(ctx_t *c);
void test_bad_order(ctx_t *c);

#endif
