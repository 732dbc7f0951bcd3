/*
 * Binomial scatter over an arbitrary order; see gather.h.  Cost
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

int arcoll_scatter_binomial(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                            void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm, const arcoll_sched_t *s) {
  int *order, pos, P, rc, use_linear;
  MPI_Aint bb; /* bytes per block */
  if ((rc = arcoll_blocks_begin(s, root, comm, sendcount, sendtype, recvcount, recvtype, &bb, &order,
                                &pos, &P, &use_linear)) != MPI_SUCCESS ||
      bb == 0)
    return rc;
  if (use_linear)
    return arcoll_scatter_linear(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                 comm, s);
  const int tag = arcoll_sched_tag(s);
  const int sub = arcoll_binomial_subtree_size(pos, P);
  const int lowbit = pos & -pos;
  const int limit = pos == 0 ? P : lowbit;
  char *tmp = malloc((size_t)(bb * sub) + 1);
  if (!tmp) {
    free(order);
    return MPI_ERR_NO_MEM;
  }
  if (pos == 0) {
    MPI_Aint lb, ext;
    rc = MPI_Type_get_extent(sendtype, &lb, &ext);
    for (int q = 1; q < P && rc == MPI_SUCCESS; ++q) {
      int p = (int)(q * bb);
      rc = MPI_Pack((const char *)sendbuf + order[q] * sendcount * ext, (int)sendcount,
                    sendtype, tmp, (int)(bb * P), &p, comm);
    }
    if (rc == MPI_SUCCESS && recvbuf != MPI_IN_PLACE)
      rc = arcoll_local_copy((const char *)sendbuf + (MPI_Aint)root * sendcount * ext,
                             sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  } else {
    rc = MPI_Recv(tmp, (int)(bb * sub), MPI_PACKED, order[pos & (pos - 1)], tag, comm,
                  MPI_STATUS_IGNORE);
  }
  /* children pos + d: largest subtree (largest d) first, or smallest first (s->k == 1) */
  int top = 1;
  while (top * 2 < limit) top *= 2;
  const int small_first = s && s->k == ARCOLL_SCATTER_SMALLEST_FIRST;
  for (int i = top; i >= 1 && rc == MPI_SUCCESS; i /= 2) {
    const int d = small_first ? top / i : i;
    const int c = pos + d;
    if (c >= P || d >= limit) continue;
    const int csub = arcoll_binomial_subtree_size(c, P);
    rc = MPI_Send(tmp + (MPI_Aint)d * bb, (int)(bb * csub), MPI_PACKED, order[c], tag, comm);
  }
  if (rc == MPI_SUCCESS && pos > 0) {
    int p = 0;
    rc = MPI_Unpack(tmp, (int)bb, &p, recvbuf, (int)recvcount, recvtype, comm);
  }
  free(tmp);
  free(order);
  return rc;
}
