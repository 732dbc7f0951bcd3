/* Ring reduce_scatter (commutative ops); see reduce_scatter.h.  The two
 * buffers hold the block in flight, up to the largest count. */
#include "reduce_scatter.h"
#include "reduce_scatter_prep.h"

int arcoll_reduce_scatter_ring(const void *sendbuf, void *recvbuf, const MPI_Aint *counts,
                               MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                               const arcoll_sched_t *s) {
  arcoll_rsc_t r;
  int done, rc = arcoll_rsc_begin(sendbuf, recvbuf, counts, dt, comm, s, 1, &r, &done);
  if (rc != MPI_SUCCESS || done) {
    arcoll_rsc_end(&r);
    return rc;
  }
  const int P = r.c.P, pos = r.pos;
  const arcoll_red_typeinfo_t *ti = &r.c.ti;
  arcoll_red_tmpbuf_t a = {0}, b = {0};
  if ((rc = arcoll_red_tmpbuf_alloc(ti, r.maxcnt, &a)) != MPI_SUCCESS ||
      (rc = arcoll_red_tmpbuf_alloc(ti, r.maxcnt, &b)) != MPI_SUCCESS)
    goto out;
  void *sb = a.buf, *rb = b.buf;
  rc = arcoll_red_copy(arcoll_rsc_in(&r, pos - 1), sb, arcoll_rsc_count(&r, pos - 1), dt, ti);
  for (int i = 0; i < P - 1 && rc == MPI_SUCCESS; ++i) {
    const MPI_Aint ns = arcoll_rsc_count(&r, pos - 1 - i), nr = arcoll_rsc_count(&r, pos - 2 - i);
    rc = arcoll_red_sendrecv(sb, ns, arcoll_rsc_rank(&r, pos + 1), rb, nr,
                             arcoll_rsc_rank(&r, pos - 1), dt, ti, r.c.tag, comm);
    if (rc == MPI_SUCCESS) /* partial of the block of position pos - 2 - i, + mine */
      rc = arcoll_red_local(arcoll_rsc_in(&r, pos - 2 - i), rb, nr, dt, op, ti);
    void *t = sb;
    sb = rb;
    rb = t;
  }
  if (rc == MPI_SUCCESS) rc = arcoll_red_copy(sb, recvbuf, counts[r.c.me], dt, ti);
out:
  arcoll_red_tmpbuf_free(&a);
  arcoll_red_tmpbuf_free(&b);
  arcoll_rsc_end(&r);
  return rc;
}
