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
#define CHECK_PROG "rsc_algorithms_check"
#include "../algo_check.h"

#include "reduce_scatter.h"
#include "rsb_data.h"
#include "rsc_counts.h"

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

static void run_all(MPI_Comm comm, int norders) {
  int P;
  MPI_Comm_size(comm, &P);
  int *order = malloc(sizeof(int) * (size_t)P);
  const long sizes[4] = {0, 1, 37, big};
  for (int i = 0; i < arcoll_reduce_scatter_nalgorithms; ++i) {
    const arcoll_algo_desc_t *a = &arcoll_reduce_scatter_algorithms[i];
    for (int o = 0; o < norders; ++o) {
      algo_check_order(o, P, 777u, order);
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
  const algo_check_t d = {rsb_init, rsb_free, run_all, ALGO_CHECK_NORDERS};
  return algo_check_main(argc, argv, &d);
}
