/* Reduce + scatterv reduce_scatter (the composition MPI defines it by; Open
 * MPI's reduce_scatter default for non-commutative ops, SMPI's
 * reduce_scatter "default"): the k-nomial reduce of all P blocks to the
 * rank at position 0, then its binomial scatterv of the blocks, both over
 * the schedule's order.  See reduce_scatter.h. */
#include "gatherv.h"
#include "reduce.h"
#include "reduce_scatter.h"
#include "reduce_scatter_prep.h"

int arcoll_reduce_scatter_reduce_scatterv(const void *sendbuf, void *recvbuf,
                                          const MPI_Aint *counts, MPI_Datatype dt, MPI_Op op,
                                          MPI_Comm comm, const arcoll_sched_t *s) {
  arcoll_rsc_t r;
  int done, rc = arcoll_rsc_begin(sendbuf, recvbuf, counts, dt, comm, s, 1, &r, &done);
  if (rc != MPI_SUCCESS || done) {
    arcoll_rsc_end(&r);
    return rc;
  }
  const int root = arcoll_rsc_rank(&r, 0), me = r.c.me;
  const MPI_Aint total = r.disp[r.c.P];
  arcoll_red_tmpbuf_t sum = {0}; /* the reduced vector, at the root */
  if (me == root) rc = arcoll_red_tmpbuf_alloc(&r.c.ti, total, &sum);
  /* the reduce's sendbuf is the input (never MPI_IN_PLACE: its result goes
   * to `sum`); non-commutative ops: its tree runs over the ranks and rank 0
   * forwards to the root (reduce.h) */
  if (rc == MPI_SUCCESS) rc = arcoll_reduce_knomial(r.in, sum.buf, total, dt, op, root, comm, s);
  if (rc == MPI_SUCCESS)
    rc = arcoll_scatterv_binomial(sum.buf, counts, r.disp, dt, recvbuf, counts[me], dt, root, comm,
                                  s);
  arcoll_red_tmpbuf_free(&sum);
  arcoll_rsc_end(&r);
  return rc;
}
