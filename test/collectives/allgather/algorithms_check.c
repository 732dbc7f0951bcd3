/*
 * Correctness of every allgather algorithm of collectives/ (allgather.h),
 * called directly, over several rank orders: identity, reversed, a shuffled
 * order (the same on every rank) and, for gather_bcast, 1000-byte broadcast
 * segments.  Cases of allgather_data.h (derived types, different send and
 * receive types, receive types that differ between ranks), MPI_IN_PLACE,
 * sizes 0, 1, 37 and `big` elements; also on a communicator with the ranks
 * in reverse order.  Each rank computes the expected buffer itself and
 * compares every int (gaps and sentinels included).
 * Usage: allgather_algorithms_check [big_elements]   Exit status 1 on any failure.
 */
#define CHECK_PROG "allgather_algorithms_check"
#include "../algo_check.h"

#include "allgather.h"
#include "allgather_data.h"

static void run_one(const arcoll_algo_desc_t *a, MPI_Comm comm, int c, long n, int inplace,
                    const arcoll_sched_t *s, const char *oname) {
  int P, r, st, rt, id = ++next_id;
  long sn, rn;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  ag_case(c, n, r, &st, &sn, &rt, &rn);
  const long K = sn * ag_scalars_per(st), rblk = rn * ag_extent(rt);
  void *sbuf = ag_alloc(st, sn), *rbuf = ag_alloc(rt, rn * P), *exp = ag_alloc(rt, rn * P);
  ag_fill(st, sbuf, K, id, r);
  for (int q = 0; q < P; ++q) ag_fill(rt, (char *)exp + q * rblk, K, id, q);
  if (inplace) ag_fill(rt, (char *)rbuf + r * rblk, K, id, r);
  int rc = ((arcoll_allgather_fn)a->fn)(inplace ? MPI_IN_PLACE : sbuf, sn, ag_mpi(st), rbuf, rn,
                                        ag_mpi(rt), comm, s);
  CHECK(rc == MPI_SUCCESS, "%s rc %d", a->name, rc);
  long bad = ag_diff(rt, rbuf, exp, rn * P);
  CHECK(bad == 0, "%s order %s case %d n=%ld inplace %d P=%d rank %d: %ld wrong ints", a->name,
        oname, c, n, inplace, P, r, bad);
  free(sbuf), free(rbuf), free(exp);
}

static void run_all(MPI_Comm comm, int norders) {
  int P;
  MPI_Comm_size(comm, &P);
  int *order = malloc(sizeof(int) * (size_t)P);
  const long sizes[4] = {0, 1, 37, big};
  for (int i = 0; i < arcoll_allgather_nalgorithms; ++i) {
    const arcoll_algo_desc_t *a = &arcoll_allgather_algorithms[i];
    const int nseg = (a->flags & ARCOLL_ALGO_SEGMENTED) ? 2 : 1;
    for (int o = 0; o < norders; ++o)
      for (int g = 0; g < nseg; ++g) {
        algo_check_order(o, P, 12345u, order);
        const arcoll_sched_t s = {o ? order : NULL, g ? 1000 : 0, 0, 42};
        for (int c = 0; c < AG_NCASES; ++c)
          for (int z = 0; z < 4; ++z)
            for (int ip = 0; ip < 2; ++ip) run_one(a, comm, c, sizes[z], ip, &s, algo_check_order_name[o]);
      }
  }
  free(order);
}

int main(int argc, char **argv) {
  const algo_check_t d = {ag_types_init, ag_types_free, run_all, ALGO_CHECK_NORDERS};
  return algo_check_main(argc, argv, &d);
}
