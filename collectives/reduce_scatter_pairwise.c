/* Pairwise-exchange reduce_scatter, order-preserving; see reduce_scatter.h.
 * Position pos receives the blocks for itself from positions pos-1, pos-2,
 * ..., 0, P-1, ..., pos+1: the first run folds into L = x_0 op ... op x_pos,
 * the second into R = x_{pos+1} op ... op x_{P-1} (each from the right:
 * acc = x_src op acc), then result = L op R. */
#include "reduce_scatter.h"
#include "reduce_scatter_prep.h"

int arcoll_reduce_scatter_pairwise(const void *sendbuf, void *recvbuf, const MPI_Aint *counts,
                                   MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                                   const arcoll_sched_t *s) {
  arcoll_rsc_t r;
  int done, rc = arcoll_rsc_begin(sendbuf, recvbuf, counts, dt, comm, s,
                                  arcoll_red_op_commutative(op), &r, &done);
  if (rc != MPI_SUCCESS || done) {
    arcoll_rsc_end(&r);
    return rc;
  }
  const int P = r.c.P, pos = r.pos;
  const MPI_Aint n = counts[r.c.me]; /* my block's elements */
  const arcoll_red_typeinfo_t *ti = &r.c.ti;
  arcoll_red_tmpbuf_t L = {0}, R = {0}, T = {0};
  if ((rc = arcoll_red_tmpbuf_alloc(ti, n, &L)) != MPI_SUCCESS ||
      (rc = arcoll_red_tmpbuf_alloc(ti, n, &R)) != MPI_SUCCESS ||
      (rc = arcoll_red_tmpbuf_alloc(ti, n, &T)) != MPI_SUCCESS)
    goto out;
  rc = arcoll_red_copy(arcoll_rsc_in(&r, pos), L.buf, n, dt, ti);
  for (int i = 1; i < P && rc == MPI_SUCCESS; ++i) {
    const int src = pos - i, first_r = src + P == P - 1; /* src < 0: the R run */
    void *into = src < 0 && first_r ? R.buf : T.buf;
    rc = arcoll_red_sendrecv(arcoll_rsc_in(&r, pos + i), arcoll_rsc_count(&r, pos + i),
                             arcoll_rsc_rank(&r, pos + i), into, n, arcoll_rsc_rank(&r, src), dt,
                             ti, r.c.tag, comm);
    if (rc == MPI_SUCCESS && into == T.buf)
      rc = arcoll_red_local(T.buf, src >= 0 ? L.buf : R.buf, n, dt, op, ti);
  }
  if (rc == MPI_SUCCESS && pos < P - 1) rc = arcoll_red_local(L.buf, R.buf, n, dt, op, ti);
  if (rc == MPI_SUCCESS) rc = arcoll_red_copy(pos < P - 1 ? R.buf : L.buf, recvbuf, n, dt, ti);
out:
  arcoll_red_tmpbuf_free(&L);
  arcoll_red_tmpbuf_free(&R);
  arcoll_red_tmpbuf_free(&T);
  arcoll_rsc_end(&r);
  return rc;
}
