/*
 * Scatter + recursive-doubling allgather broadcast (van de Geijn; Thakur,
 * Rabenseifner, Gropp 2005, as MPICH's
 * MPIR_Bcast_intra_scatter_recursive_doubling_allgather, which MPICH uses
 * for medium messages on power-of-two communicators), over an arbitrary
 * order.  Cost and honoured schedule fields: bcast.h.
 *
 * After the binomial scatter (arcoll_bcast_scatter_begin()) position p
 * holds piece p.  Step j = 0..log2(P)-1, m = 2^j: p exchanges with p ^ m
 * the pieces of its aligned group [p & ~(m-1), + m) - one contiguous element
 * range - for the partner's group; afterwards p holds [p & ~(2m-1), + 2m).
 * Empty ranges (count < P) are skipped on both sides (the sizes are known
 * everywhere).  A scatter message precedes its sender's exchange messages
 * to the same rank (blocking send, non-overtaking), so one tag suffices.
 * P not a power of two: the ring allgather (arcoll_bcast_scatter_ring()).
 */
#include <stdlib.h>

#include "bcast.h"
#include "bcast_etc_util.h"
#include "bcast_scatter.h"

int arcoll_bcast_scatter_rdb(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                             MPI_Comm comm, const arcoll_sched_t *s) {
  int P, rc;
  if ((rc = MPI_Comm_size(comm, &P)) != MPI_SUCCESS) return rc;
  if (P & (P - 1)) return arcoll_bcast_scatter_ring(buf, count, datatype, root, comm, s);
  arcoll_scatter_bcast_t sb;
  rc = arcoll_bcast_scatter_begin(buf, count, datatype, root, comm, s, &sb);
  if (!sb.order) return rc;
  const int pos = sb.pos;
#define START(q) arcoll_block_start(count, P, (q))
#define PTR(q) ((char *)buf + START(q) * sb.extent)
  for (int m = 1; m < P && rc == MPI_SUCCESS; m *= 2) {
    const int partner = pos ^ m, mine = pos & ~(m - 1), theirs = partner & ~(m - 1);
    const int sn = (int)(START(mine + m) - START(mine));
    const int rn = (int)(START(theirs + m) - START(theirs));
    MPI_Request r2[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    if (rn > 0) rc = MPI_Irecv(PTR(theirs), rn, datatype, sb.order[partner], sb.tag, comm, &r2[0]);
    if (rc == MPI_SUCCESS && sn > 0)
      rc = MPI_Isend(PTR(mine), sn, datatype, sb.order[partner], sb.tag, comm, &r2[1]);
    rc = arcoll_wait_all(2, r2, rc);
  }
#undef START
#undef PTR
  free(sb.order);
  return rc;
}
