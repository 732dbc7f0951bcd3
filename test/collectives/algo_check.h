/*
 * Shared by the check programs that call collectives/ algorithms directly
 * (allgather/, allgatherv/, reduce_scatter_block/ algorithms_check.c): the
 * program's statics, CHECK (../check.h), the rank orders and main().
 *
 * Define CHECK_PROG (the program's name, as the tests' PASS regex expects
 * it) before including; include once per program.  main() runs the
 * program's cases on MPI_COMM_WORLD (orders identity, reversed, shuffled)
 * and on a communicator with the ranks reversed (the first rev_orders
 * orders), then prints one verdict line from rank 0,
 *   "<CHECK_PROG> P=<P>: OK|FAIL (<failures> failures, <checks> checks)",
 * and exits 1 on any failure.  argv[1]: `big`, elements of the large case.
 */
#ifndef ARCOLL_TEST_ALGO_CHECK_H
#define ARCOLL_TEST_ALGO_CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../check.h"

static int me, next_id = 0; /* next_id: a fresh data pattern per call */
static long failures = 0, checked = 0, big = 2000;

#define ALGO_CHECK_NORDERS 3
static const char *const algo_check_order_name[ALGO_CHECK_NORDERS] = {"identity", "reversed",
                                                                       "shuffled"};

/* order[0..P) of kind o: 0 identity, 1 reversed, 2 shuffled (Fisher-Yates
 * driven by one LCG seeded with seed + P, the same on every rank). */
static void algo_check_order(int o, int P, unsigned seed, int *order) {
  for (int i = 0; i < P; ++i) order[i] = o == 1 ? P - 1 - i : i;
  if (o != 2) return;
  unsigned x = seed + (unsigned)P;
  for (int i = P - 1; i > 0; --i) {
    x = x * 1103515245u + 12345u;
    int j = (int)((x >> 8) % (unsigned)(i + 1)), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

typedef struct algo_check {
  void (*init)(void);                       /* after MPI_Init: types, ops (may be NULL) */
  void (*fini)(void);                       /* before MPI_Finalize (may be NULL) */
  void (*run_all)(MPI_Comm, int norders);   /* every case over the first norders orders */
  int rev_orders;                           /* orders run on the reversed communicator */
} algo_check_t;

static int algo_check_main(int argc, char **argv, const algo_check_t *d) {
  int P;
  MPI_Init(&argc, &argv);
  if (argc > 1) big = atol(argv[1]);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (d->init) d->init();
  d->run_all(MPI_COMM_WORLD, ALGO_CHECK_NORDERS);
  MPI_Comm rev; /* ranks in reverse order of MPI_COMM_WORLD */
  MPI_Comm_split(MPI_COMM_WORLD, 0, P - me, &rev);
  d->run_all(rev, d->rev_orders);
  MPI_Comm_free(&rev);
  long mine[2] = {failures, checked}, tot[2];
  MPI_Reduce(mine, tot, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD); /* the verdict only */
  if (me == 0)
    printf("%s P=%d: %s (%ld failures, %ld checks)\n", CHECK_PROG, P, tot[0] ? "FAIL" : "OK",
           tot[0], tot[1]);
  if (d->fini) d->fini();
  MPI_Finalize();
  return tot[0] && me == 0 ? 1 : 0;
}

#endif
