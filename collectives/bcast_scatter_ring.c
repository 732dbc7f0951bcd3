/*
 * Scatter + ring allgather broadcast (van de Geijn; Thakur, Rabenseifner,
 * Gropp 2005, as MPICH's MPIR_Bcast_intra_scatter_ring_allgather), over an
 * arbitrary order.  Cost and honoured schedule fields: bcast.h.
 *
 * Piece q (block q of the P-block partition of the elements) belongs to
 * position q.  Binomial scatter: the subtree of position p covers positions
 * [p, p + size(p)) (tree.h), whose pieces are one contiguous element range,
 * sent in one message by the parent.  Ring: at step t = 0..P-2 position p
 * sends piece (p - t) mod P to p + 1 and receives piece (p - t - 1) mod P from
 * p - 1 (empty pieces, when count < P, are not sent).  The scatter messages
 * from a parent precede its ring messages (blocking sends), so one tag
 * suffices.
 */
#include <stdlib.h>

#include "bcast.h"
#include "bcast_etc_util.h"
#include "bcast_scatter.h"

int arcoll_bcast_scatter_ring(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                              MPI_Comm comm, const arcoll_sched_t *s) {
  arcoll_scatter_bcast_t sb;
  int rc = arcoll_bcast_scatter_begin(buf, count, datatype, root, comm, s, &sb);
  if (!sb.order) return rc;
  const int *order = sb.order, pos = sb.pos, P = sb.P, tag = sb.tag;
  const MPI_Aint extent = sb.extent;
#define START(q) arcoll_block_start(count, P, (q))
#define PTR(q) ((char *)buf + START(q) * extent)
  /* ring allgather */
  const int next = order[(pos + 1) % P], prev = order[(pos + P - 1) % P];
  for (int t = 0; t + 1 < P && rc == MPI_SUCCESS; ++t) {
    const int sp = ((pos - t) % P + P) % P, rp = ((pos - t - 1) % P + P) % P;
    const int sn = (int)(START(sp + 1) - START(sp)), rn = (int)(START(rp + 1) - START(rp));
    /* empty pieces (count < P) are skipped on both sides: the sizes are known
       everywhere */
    MPI_Request r2[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    if (rn > 0) rc = MPI_Irecv(PTR(rp), rn, datatype, prev, tag, comm, &r2[0]);
    if (rc == MPI_SUCCESS && sn > 0) rc = MPI_Isend(PTR(sp), sn, datatype, next, tag, comm, &r2[1]);
    rc = arcoll_wait_all(2, r2, rc);
  }
#undef START
#undef PTR
  free(sb.order);
  return rc;
}
