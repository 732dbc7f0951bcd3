/*
 * Correctness of every alltoallv algorithm of collectives/ (alltoallv.h),
 * called directly over identity, reversed and shuffled rank orders: the
 * cases and count patterns of a2av_data.h (irregular symmetric and
 * asymmetric counts with zeros, one rank's pairs only, equal; derived types,
 * different send and receive types; blocks in reverse rank order with gaps),
 * MPI_IN_PLACE (symmetric patterns), sizes 0, 1, 37 and `big`, also on a
 * communicator with the ranks reversed.  Each rank computes its expected
 * receive buffer itself and compares every int (gaps included).
 * Usage: alltoallv_algorithms_check [big]   Exit status 1 on any failure.
 */
#include <stdio.h>
#include <stdlib.h>

#include "a2av_data.h"
#include "alltoallv.h"
#include "orders.h"

static int me;
static long failures = 0, checks = 0, big = 2000;
static int next_id = 0;

#define CHECK(cond, ...)                                              \
  do {                                                                \
    ++checks;                                                         \
    if (!(cond) && failures++ < 12) {                                 \
      fprintf(stderr, "alltoallv_algorithms_check rank %d: ", me);    \
      fprintf(stderr, __VA_ARGS__);                                   \
      fprintf(stderr, "\n");                                          \
    }                                                                 \
  } while (0)

static void run_one(const arcoll_algo_desc_t *a, MPI_Comm comm, int c, int pat, long n,
                    int inplace, const arcoll_sched_t *s, int o) {
  int P, r, st, rt, id = ++next_id;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  a2av_types(c, inplace, &st, &rt);
  long *v = malloc(sizeof(long) * 4 * (size_t)P);
  MPI_Aint *w = malloc(sizeof(MPI_Aint) * 4 * (size_t)P);
  const long slen = a2av_layout(pat, n, P, r, 1, st, v, v + P);
  const long rlen = a2av_layout(pat, n, P, r, 0, rt, v + 2 * P, v + 3 * P);
  for (int q = 0; q < 4 * P; ++q) w[q] = v[q];
  void *sbuf = ag_alloc(st, slen), *rbuf = ag_alloc(rt, rlen), *exp = ag_alloc(rt, rlen);
  if (inplace) a2av_fill(pat, n, P, r, 1, rt, rbuf, v + 3 * P, id); /* outgoing, rt layout */
  else a2av_fill(pat, n, P, r, 1, st, sbuf, v + P, id);
  a2av_fill(pat, n, P, r, 0, rt, exp, v + 3 * P, id);
  int rc = ((arcoll_alltoallv_fn)a->fn)(inplace ? MPI_IN_PLACE : sbuf, w, w + P, ag_mpi(st), rbuf,
                                        w + 2 * P, w + 3 * P, ag_mpi(rt), comm, s);
  CHECK(rc == MPI_SUCCESS, "%s rc %d", a->name, rc);
  long bad = ag_diff(rt, rbuf, exp, rlen);
  CHECK(bad == 0, "%s order %d case %d pattern %d n=%ld inplace %d P=%d rank %d: %ld wrong ints",
        a->name, o, c, pat, n, inplace, P, r, bad);
  free(sbuf), free(rbuf), free(exp), free(v), free(w);
}

static void run_all(MPI_Comm comm) {
  int P;
  MPI_Comm_size(comm, &P);
  int *order = malloc(sizeof(int) * (size_t)P);
  const long sizes[4] = {0, 1, 37, big};
  for (int i = 0; i < arcoll_alltoallv_nalgorithms; ++i) {
    const arcoll_algo_desc_t *a = &arcoll_alltoallv_algorithms[i];
    for (int o = 0; o < TEST_NORDERS; ++o) {
      test_make_order(o, P, 4242u, order);
      const arcoll_sched_t s = {o ? order : NULL, 0, 0, 45};
      for (int c = 0; c < A2AV_NCASES; ++c)
        for (int pat = 0; pat < A2AV_NPATTERNS; ++pat)
          for (int z = 0; z < 4; ++z)
            for (int ip = 0; ip < (pat == 3 ? 1 : 2); ++ip)
              run_one(a, comm, c, pat, sizes[z], ip, &s, o);
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
  ag_types_init();
  run_all(MPI_COMM_WORLD);
  MPI_Comm rev;
  MPI_Comm_split(MPI_COMM_WORLD, 0, P - me, &rev);
  run_all(rev);
  MPI_Comm_free(&rev);
  long mine[2] = {failures, checks}, tot[2];
  MPI_Reduce(mine, tot, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD); /* the verdict only */
  if (me == 0)
    printf("alltoallv_algorithms_check P=%d: %s (%ld failures, %ld checks)\n", P,
           tot[0] ? "FAIL" : "OK", tot[0], tot[1]);
  ag_types_free();
  MPI_Finalize();
  return tot[0] && me == 0 ? 1 : 0;
}
