/*
 * Binomial gather over an arbitrary order; see gather.h.  Cost
 * log2(P) t_s + (P-1) m / B seconds (Thakur, Rabenseifner, Gropp 2005;
 * seed 000_32450fa7292fe18a.txt notes no gain for large blocks).
 *
 * Position p's subtree covers positions [p, p + size(p)) (tree.h); its
 * packed buffer holds their blocks in position order, bb bytes each.
 */
#include <stdlib.h>

#include "bcast_etc_util.h"
#include "gather.h"
#include "tree.h"

int arcoll_gather_binomial(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                           void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm, const arcoll_sched_t *s) {
  int *order, pos, P, rc, use_linear;
  MPI_Aint bb; /* bytes per block */
  if ((rc = arcoll_blocks_begin(s, root, comm, recvcount, recvtype, sendcount, sendtype, &bb, &order,
                                &pos, &P, &use_linear)) != MPI_SUCCESS ||
      bb == 0)
    return rc;
  if (use_linear)
    return arcoll_gather_linear(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                comm, s);
  const int tag = arcoll_sched_tag(s);
  const int sub = arcoll_binomial_subtree_size(pos, P);
  const int lowbit = pos & -pos;
  const int limit = pos == 0 ? P : lowbit;
  char *tmp = malloc((size_t)(bb * sub) + 1);
  int nch = 0;
  for (int d = 1; d < limit && pos + d < P; d <<= 1) ++nch;
  MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)(nch + 1));
  if (!tmp || !req) {
    free(tmp);
    free(req);
    free(order);
    return MPI_ERR_NO_MEM;
  }
  int i = 0;
  for (int d = 1; d < limit && pos + d < P; d <<= 1) {
    const int c = pos + d, csub = arcoll_binomial_subtree_size(c, P);
    req[i] = MPI_REQUEST_NULL;
    if (rc == MPI_SUCCESS)
      rc = MPI_Irecv(tmp + (MPI_Aint)d * bb, (int)(bb * csub), MPI_PACKED, order[c], tag, comm,
                     &req[i]);
    ++i;
  }
  if (rc == MPI_SUCCESS && pos > 0) { /* own block first in my packed buffer */
    int p = 0;
    rc = MPI_Pack(sendbuf, (int)sendcount, sendtype, tmp, (int)bb, &p, comm);
  }
  rc = arcoll_wait_all(nch, req, rc);
  if (rc == MPI_SUCCESS) {
    if (pos > 0) {
      rc = MPI_Send(tmp, (int)(bb * sub), MPI_PACKED, order[pos & (pos - 1)], tag, comm);
    } else {
      MPI_Aint lb, ext;
      rc = MPI_Type_get_extent(recvtype, &lb, &ext);
      for (int q = 1; q < P && rc == MPI_SUCCESS; ++q) {
        int p = (int)(q * bb);
        rc = MPI_Unpack(tmp, (int)(bb * P), &p, (char *)recvbuf + order[q] * recvcount * ext,
                        (int)recvcount, recvtype, comm);
      }
      if (rc == MPI_SUCCESS && sendbuf != MPI_IN_PLACE)
        rc = arcoll_local_copy(sendbuf, sendcount, sendtype,
                               (char *)recvbuf + (MPI_Aint)root * recvcount * ext, recvcount,
                               recvtype, comm);
    }
  }
  free(tmp);
  free(req);
  free(order);
  return rc;
}
