/* Ring reduce_scatter_block (commutative ops); see reduce_scatter_block.h. */
#include <stdlib.h>

#include "reduce_scatter_block.h"
#include "reduce_scatter_block_prep.h"

int arcoll_reduce_scatter_block_ring(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                     MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                                     const arcoll_sched_t *s) {
  arcoll_rsb_t r;
  int done, rc = arcoll_rsb_begin(sendbuf, recvbuf, count, dt, comm, s, 1, &r, &done);
  if (rc != MPI_SUCCESS || done) return rc;
  const int P = r.c.P, pos = r.pos;
  const arcoll_red_typeinfo_t *ti = &r.c.ti;
  arcoll_red_tmpbuf_t a = {0}, b = {0};
  if ((rc = arcoll_red_tmpbuf_alloc(ti, count, &a)) != MPI_SUCCESS ||
      (rc = arcoll_red_tmpbuf_alloc(ti, count, &b)) != MPI_SUCCESS)
    goto out;
  void *sb = a.buf, *rb = b.buf;
  rc = arcoll_red_copy(arcoll_rsb_in(&r, pos - 1), sb, count, dt, ti);
  for (int i = 0; i < P - 1 && rc == MPI_SUCCESS; ++i) {
    rc = arcoll_red_sendrecv(sb, count, r.map[(pos + 1) % P], rb, count,
                             r.map[(pos - 1 + P) % P], dt, ti, r.c.tag, comm);
    if (rc == MPI_SUCCESS) /* partial of the block of position pos - 2 - i, + mine */
      rc = arcoll_red_local(arcoll_rsb_in(&r, pos - 2 - i), rb, count, dt, op, ti);
    void *t = sb;
    sb = rb;
    rb = t;
  }
  if (rc == MPI_SUCCESS) rc = arcoll_red_copy(sb, recvbuf, count, dt, ti);
out:
  arcoll_red_tmpbuf_free(&a);
  arcoll_red_tmpbuf_free(&b);
  free(r.map);
  return rc;
}
