/*
 * Correctness of every allgatherv algorithm of collectives/ (allgatherv.h),
 * called directly, over several rank orders (identity, reversed, a shuffled
 * order the same on every rank).  Cases of allgatherv_data.h: irregular
 * counts with zeros, one contributing rank, equal counts; derived types and
 * different send / receive types; blocks in reverse rank order with gaps;
 * MPI_IN_PLACE; sizes 0, 37 and `big` elements; also on a communicator with
 * the ranks in reverse order (identity order only).  Each rank computes the
 * expected buffer itself and compares every int (gaps and sentinels
 * included).
 * Usage: allgatherv_algorithms_check [big_elements]   Exit status 1 on any failure.
 */
#define CHECK_PROG "allgatherv_algorithms_check"
#include "../algo_check.h"

#include "allgatherv.h"
#include "allgatherv_data.h"

#include <string.h>

static void run_one(const arcoll_algo_desc_t *a, MPI_Comm comm, int c, int pat, long n,
                    int inplace, const arcoll_sched_t *s, const char *oname) {
  int P, r, st, rt, id = ++next_id;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  agv_types(c, &st, &rt);
  long *cnt = malloc(sizeof(long) * 2 * (size_t)P), *dsp = cnt + P;
  MPI_Aint *acnt = malloc(sizeof(MPI_Aint) * 2 * (size_t)P), *adsp = acnt + P;
  const long len = agv_layout(c, pat, n, P, cnt, dsp), sn = agv_sn(pat, n, r, P);
  for (int q = 0; q < P; ++q) acnt[q] = cnt[q], adsp[q] = dsp[q];
  void *sbuf = ag_alloc(st, sn), *rbuf = ag_alloc(rt, len), *exp = ag_alloc(rt, len);
  ag_fill(st, sbuf, sn * ag_scalars_per(st), id, r);
  for (int q = 0; q < P; ++q)
    ag_fill(rt, (char *)exp + dsp[q] * ag_extent(rt),
            agv_sn(pat, n, q, P) * ag_scalars_per(st), id, q);
  if (inplace)
    ag_fill(rt, (char *)rbuf + dsp[r] * ag_extent(rt), sn * ag_scalars_per(st), id, r);
  int rc = ((arcoll_allgatherv_fn)a->fn)(inplace ? MPI_IN_PLACE : sbuf, sn, ag_mpi(st), rbuf,
                                         acnt, adsp, ag_mpi(rt), comm, s);
  CHECK(rc == MPI_SUCCESS, "%s rc %d", a->name, rc);
  long bad = ag_diff(rt, rbuf, exp, len);
  CHECK(bad == 0, "%s order %s case %d pattern %d n=%ld inplace %d P=%d rank %d: %ld wrong ints",
        a->name, oname, c, pat, n, inplace, P, r, bad);
  free(sbuf), free(rbuf), free(exp), free(cnt), free(acnt);
}

static void run_all(MPI_Comm comm, int norders) {
  int P;
  MPI_Comm_size(comm, &P);
  int *order = malloc(sizeof(int) * (size_t)P);
  const long sizes[3] = {0, 37, big};
  for (int i = 0; i < arcoll_allgatherv_nalgorithms; ++i) {
    const arcoll_algo_desc_t *a = &arcoll_allgatherv_algorithms[i];
    /* linear_knomial honours k (the broadcast's radix): the default (0),
     * binomial (2), 3, and flat (P) too */
    const int ks[4] = {0, 2, 3, P > 1 ? P : 2};
    const int nk = strcmp(a->name, "linear_knomial") ? 1 : 4;
    for (int o = 0; o < norders; ++o)
      for (int ki = 0; ki < nk; ++ki) {
        algo_check_order(o, P, 54321u, order);
        const arcoll_sched_t s = {o ? order : NULL, 0, ks[ki], 42};
        for (int c = 0; c < AGV_NCASES; ++c)
          for (int pat = 0; pat < AGV_NPATTERNS; ++pat)
            for (int z = 0; z < 3; ++z)
              for (int ip = 0; ip < 2; ++ip) run_one(a, comm, c, pat, sizes[z], ip, &s, algo_check_order_name[o]);
      }
  }
  free(order);
}

int main(int argc, char **argv) {
  const algo_check_t d = {ag_types_init, ag_types_free, run_all, 1};
  return algo_check_main(argc, argv, &d);
}
