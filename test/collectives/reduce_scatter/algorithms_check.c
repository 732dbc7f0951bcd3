/*
 * Correctness of every reduce_scatter algorithm of collectives/
 * (reduce_scatter.h), called directly over identity, reversed and shuffled
 * rank orders: the cases of rsb_data.h (predefined ops, a commutative user
 * op on a vector type, a non-commutative user op - 2x2 matrix product, run
 * only by the algorithms that accept it), the count patterns of
 * rsc_counts.h (irregular with zeros, one rank only, equal), sizes 0, 1, 37
 * and `big`, MPI_IN_PLACE, also on a communicator with the ranks reversed.
 * Every int of the result block (gaps included) is compared with the rank's
 * own reference (folded in rank order; no MPI collective is the reference).
 * Usage: rsc_algorithms_check [big]   Exit status 1 on any failure.
 */
#include <stdio.h>
#include <stdlib.h>

#include "orders.h"
#include "reduce_scatter.h"
#include "rsb_data.h"
#include "rsc_counts.h"

static int me;
static long failures = 0, checks = 0, big = 2000;
static int next_id = 0;

#define CHECK(cond, ...)                                        \
  do {                                                          \
    ++checks;                                                   \
    if (!(cond) && failures++ < 12) {                           \
      fprintf(stderr, "rsc_algorithms_check rank %d: ", me);    \
      fprintf(stderr, __VA_ARGS__);                             \
      fprintf(stderr, "\n");                                    \
    }                                                           \
  } while (0)

static void run_one(const arcoll_algo_desc_t *a, MPI_Comm comm, int c, int pat, long n,
                    int inplace, const arcoll_sched_t *s, int o) {
  int P, r, id = ++next_id;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  long *cnt = malloc(sizeof(long) * (size_t)P), first = 0;
  MPI_Aint *acnt = malloc(sizeof(MPI_Aint) * (size_t)P);
  const long total = rsc_counts(pat, n, P, r, cnt, &first), mine = cnt[r];
  for (int q = 0; q < P; ++q) acnt[q] = cnt[q];
  void *sbuf = rsb_alloc(c, total), *rbuf = rsb_alloc(c, inplace ? total : mine),
       *exp = rsb_alloc(c, mine);
  rsb_fill(c, inplace ? rbuf : sbuf, total, id, r);
  rsb_expect_at(c, exp, mine, first, P, id);
  int rc = ((arcoll_reduce_scatter_fn)a->fn)(inplace ? MPI_IN_PLACE : sbuf, rbuf, acnt,
                                             rsb_type(c), rsb_op(c), comm, s);
  CHECK(rc == MPI_SUCCESS, "%s rc %d", a->name, rc);
  /* in place with an empty block: recvbuf keeps the input, nothing to compare */
  long bad = inplace && mine == 0 ? 0 : rsb_diff(c, rbuf, exp, mine);
  CHECK(bad == 0, "%s order %d case %d pattern %d n=%ld inplace %d P=%d rank %d: %ld wrong ints",
        a->name, o, c, pat, n, inplace, P, r, bad);
  free(sbuf), free(rbuf), free(exp), free(cnt), free(acnt);
}

static void run_all(MPI_Comm comm) {
  int P;
  MPI_Comm_size(comm, &P);
  int *order = malloc(sizeof(int) * (size_t)P);
  const long sizes[4] = {0, 1, 37, big};
  for (int i = 0; i < arcoll_reduce_scatter_nalgorithms; ++i) {
    const arcoll_algo_desc_t *a = &arcoll_reduce_scatter_algorithms[i];
    for (int o = 0; o < TEST_NORDERS; ++o) {
      test_make_order(o, P, 777u, order);
      const arcoll_sched_t s = {o ? order : NULL, 0, 0, 44};
      for (int c = 0; c < RSB_NCASES; ++c) {
        if (c == 3 && (a->flags & ARCOLL_ALGO_COMMUTATIVE_ONLY)) continue;
        for (int pat = 0; pat < RSC_NPATTERNS; ++pat)
          for (int z = 0; z < 4; ++z)
            for (int ip = 0; ip < 2; ++ip) run_one(a, comm, c, pat, sizes[z], ip, &s, o);
      }
    }
  }
  free(order);
}

int main(int argc, char **argv) {
  int P;
  MPI_Init(&argc, &argv);
  if (argc > 1) big = atol(argv[1]);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  rsb_init();
  run_all(MPI_COMM_WORLD);
  MPI_Comm rev;
  MPI_Comm_split(MPI_COMM_WORLD, 0, P - me, &rev);
  run_all(rev);
  MPI_Comm_free(&rev);
  long mine[2] = {failures, checks}, tot[2];
  MPI_Reduce(mine, tot, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD); /* the verdict only */
  if (me == 0)
    printf("rsc_algorithms_check P=%d: %s (%ld failures, %ld checks)\n", P,
           tot[0] ? "FAIL" : "OK", tot[0], tot[1]);
  rsb_free();
  MPI_Finalize();
  return tot[0] && me == 0 ? 1 : 0;
}
