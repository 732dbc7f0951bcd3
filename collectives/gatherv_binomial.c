/*
 * Binomial gatherv over an arbitrary order; see gatherv.h.  Cost
 * sum_{l<L} T(min(2^l b, M)) seconds (model_gatherv.c; Thakur, Rabenseifner,
 * Gropp 2005's binomial gather with each subtree's bytes per message).
 *
 * Position p's subtree covers positions [p, p + size(p)) (tree.h); its
 * stream holds their packed blocks in position order.  Only the root knows
 * the sizes: every stream announces its length in its first message
 * (gatherv_stream.h, sized streams).
 */
#include <stdlib.h>

#include "bcast_etc_util.h"
#include "gatherv.h"
#include "gatherv_stream.h"
#include "tree.h"

/* A non-root position: own block, then the children's streams (position
 * order), to the parent. */
static int inner(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype, const int *order,
                 int pos, int P, MPI_Aint chunk, int tag, MPI_Comm comm) {
  int size, rc;
  if ((rc = MPI_Type_size(sendtype, &size)) != MPI_SUCCESS) return rc;
  MPI_Aint used = sendcount * (MPI_Aint)size, cap = used;
  char *buf = malloc((size_t)cap + 1);
  if (!buf) return MPI_ERR_NO_MEM;
  rc = arcoll_vs_pack(sendbuf, sendcount, sendtype, buf, comm);
  const int lowbit = pos & -pos;
  for (int d = 1; d < lowbit && pos + d < P && rc == MPI_SUCCESS; d <<= 1)
    rc = arcoll_vs_recv_sized(&buf, &cap, &used, chunk, order[pos + d], tag, comm);
  if (rc == MPI_SUCCESS) rc = arcoll_vs_send_sized(buf, used, chunk, order[pos & (pos - 1)], tag, comm);
  free(buf);
  return rc;
}

/* The root: every child's stream at its offset (known sizes), then unpack. */
static int root_part(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                     MPI_Datatype recvtype, const int *order, int P, MPI_Aint chunk, int tag,
                     MPI_Comm comm) {
  int size, rc;
  MPI_Aint lb, ext;
  if ((rc = MPI_Type_size(recvtype, &size)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Type_get_extent(recvtype, &lb, &ext)) != MPI_SUCCESS) return rc;
  MPI_Aint *off = malloc(sizeof(MPI_Aint) * ((size_t)P + 1)), nreq = 0;
  if (!off) return MPI_ERR_NO_MEM;
  off[0] = off[1] = 0; /* stream offset of position q (the root's block is not in it) */
  for (int q = 1; q < P; ++q) off[q + 1] = off[q] + recvcounts[order[q]] * (MPI_Aint)size;
  int nchild = 0;
  for (int d = 1; d < P; d <<= 1, ++nchild)
    nreq += arcoll_vs_sized_nreq(off[d + arcoll_binomial_subtree_size(d, P)] - off[d], chunk);
  const MPI_Aint first = ARCOLL_VS_HEADER + arcoll_vs_first(chunk);
  char *tmp = malloc((size_t)off[P] + 1), *firsts = malloc((size_t)(nchild * first) + 1);
  MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)nreq);
  if (!tmp || !req || !firsts) {
    free(off), free(tmp), free(req), free(firsts);
    return MPI_ERR_NO_MEM;
  }
  for (MPI_Aint i = 0; i < nreq; ++i) req[i] = MPI_REQUEST_NULL;
  MPI_Request *r = req;
  int c = 0;
  for (int d = 1; d < P && rc == MPI_SUCCESS; d <<= 1, ++c) {
    const MPI_Aint bytes = off[d + arcoll_binomial_subtree_size(d, P)] - off[d];
    rc = arcoll_vs_irecv_sized(tmp + off[d], bytes, firsts + c * first, chunk, order[d], tag, comm, r);
    r += arcoll_vs_sized_nreq(bytes, chunk);
  }
  if (rc == MPI_SUCCESS && sendbuf != MPI_IN_PLACE) /* while the streams come in */
    rc = arcoll_vs_copy(sendbuf, sendcount, sendtype, (char *)recvbuf + displs[order[0]] * ext,
                        recvcounts[order[0]], recvtype, comm);
  rc = arcoll_wait_all(nreq, req, rc);
  c = 0;
  for (int d = 1; d < P && rc == MPI_SUCCESS; d <<= 1, ++c)
    rc = arcoll_vs_sized_done(tmp + off[d], off[d + arcoll_binomial_subtree_size(d, P)] - off[d],
                              firsts + c * first, chunk);
  for (int q = 1; q < P && rc == MPI_SUCCESS; ++q)
    rc = arcoll_vs_unpack(tmp + off[q], (char *)recvbuf + displs[order[q]] * ext,
                          recvcounts[order[q]], recvtype, comm);
  free(off), free(tmp), free(req), free(firsts);
  return rc;
}

int arcoll_gatherv_binomial(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                            MPI_Datatype recvtype, int root, MPI_Comm comm,
                            const arcoll_sched_t *s) {
  int *order, pos, P, rc;
  if ((rc = arcoll_order_resolve(s, root, comm, &order, &pos, &P)) != MPI_SUCCESS) return rc;
  const int tag = arcoll_sched_tag(s);
  const MPI_Aint chunk = arcoll_vs_chunk(s);
  rc = pos ? inner(sendbuf, sendcount, sendtype, order, pos, P, chunk, tag, comm)
           : root_part(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, order,
                       P, chunk, tag, comm);
  free(order);
  return rc;
}
