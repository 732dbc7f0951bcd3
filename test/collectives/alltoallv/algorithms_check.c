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
#define CHECK_PROG "alltoallv_algorithms_check"
#include "../algo_check.h"

#include "a2av_data.h"
#include "alltoallv.h"

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

static void run_all(MPI_Comm comm, int norders) {
  int P;
  MPI_Comm_size(comm, &P);
  int *order = malloc(sizeof(int) * (size_t)P);
  const long sizes[4] = {0, 1, 37, big};
  for (int i = 0; i < arcoll_alltoallv_nalgorithms; ++i) {
    const arcoll_algo_desc_t *a = &arcoll_alltoallv_algorithms[i];
    for (int o = 0; o < norders; ++o) {
      algo_check_order(o, P, 4242u, order);
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
  const algo_check_t d = {ag_types_init, ag_types_free, run_all, ALGO_CHECK_NORDERS};
  return algo_check_main(argc, argv, &d);
}
