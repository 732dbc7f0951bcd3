/*
 * Binomial scatterv over an arbitrary order; see gatherv.h.  Cost
 * sum_{l<L} T(min(2^l b, M)) seconds (model_gatherv.c; Thakur, Rabenseifner,
 * Gropp 2005's binomial scatter with each subtree's bytes per message).
 *
 * Position p holds the stream of its subtree [p, p + size(p)) (tree.h):
 * hdr[i] = bytes of position p + i (int64), the packed blocks in position
 * order.  The root's own block is not in its stream (hdr[0] = 0): it is
 * copied locally (or stays in sendbuf with MPI_IN_PLACE).
 */
#include <stdint.h>
#include <stdlib.h>

#include "bcast_etc_util.h"
#include "gatherv.h"
#include "gatherv_stream.h"
#include "tree.h"

/* The root's stream: every block but its own, packed in position order. */
static int root_stream(const void *sendbuf, const MPI_Aint *sendcounts, const MPI_Aint *displs,
                       MPI_Datatype sendtype, const int *order, int P, int64_t *hdr, char **buf,
                       MPI_Comm comm) {
  int size, rc;
  MPI_Aint lb, ext, total = 0;
  if ((rc = MPI_Type_size(sendtype, &size)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Type_get_extent(sendtype, &lb, &ext)) != MPI_SUCCESS) return rc;
  hdr[0] = 0;
  for (int q = 1; q < P; ++q) total += hdr[q] = (int64_t)sendcounts[order[q]] * size;
  if (!(*buf = malloc((size_t)total + 1))) return MPI_ERR_NO_MEM;
  char *at = *buf;
  for (int q = 1; q < P && rc == MPI_SUCCESS; at += hdr[q], ++q)
    rc = arcoll_vs_pack((const char *)sendbuf + displs[order[q]] * ext, sendcounts[order[q]],
                        sendtype, at, comm);
  return rc;
}

/* A non-root position: its header (sub positions) and stream from the parent. */
static int receive(const int *order, int pos, int sub, MPI_Aint chunk, int tag, int64_t *hdr,
                   char **buf, MPI_Comm comm) {
  int rc = MPI_Recv(hdr, (int)(sizeof(int64_t) * (size_t)sub), MPI_BYTE, order[pos & (pos - 1)],
                    tag, comm, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) return rc;
  MPI_Aint total = 0;
  for (int i = 0; i < sub; ++i) total += (MPI_Aint)hdr[i];
  if (!(*buf = malloc((size_t)total + 1))) return MPI_ERR_NO_MEM;
  MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)arcoll_vs_nmsg(total, chunk));
  if (!req) return MPI_ERR_NO_MEM;
  rc = arcoll_vs_irecv(*buf, total, chunk, order[pos & (pos - 1)], tag, comm, req);
  rc = arcoll_wait_all(arcoll_vs_nmsg(total, chunk), req, rc);
  free(req);
  return rc;
}

/* Children pos + d, largest subtree first: the sub-header, then the sub-stream. */
static int forward(const int *order, int pos, int P, int sub, MPI_Aint chunk, int tag,
                   const int64_t *hdr, const char *buf, MPI_Comm comm) {
  int rc = MPI_SUCCESS, top = 1;
  while (top * 2 < sub) top *= 2;
  for (int d = top; d >= 1 && rc == MPI_SUCCESS; d /= 2) {
    const int c = pos + d;
    if (d >= sub) continue; /* children: d < sub (= min(lowbit(pos), P - pos); root: P) */
    const int csub = arcoll_binomial_subtree_size(c, P);
    MPI_Aint at = 0, bytes = 0;
    for (int i = 0; i < d; ++i) at += (MPI_Aint)hdr[i];
    for (int i = d; i < d + csub; ++i) bytes += (MPI_Aint)hdr[i];
    rc = MPI_Send(hdr + d, (int)(sizeof(int64_t) * (size_t)csub), MPI_BYTE, order[c], tag, comm);
    if (rc == MPI_SUCCESS) rc = arcoll_vs_send(buf + at, bytes, chunk, order[c], tag, comm);
  }
  return rc;
}

int arcoll_scatterv_binomial(const void *sendbuf, const MPI_Aint *sendcounts,
                             const MPI_Aint *displs, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Aint recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                             const arcoll_sched_t *s) {
  int *order, pos, P, rc, rsize;
  if ((rc = arcoll_order_resolve(s, root, comm, &order, &pos, &P)) != MPI_SUCCESS) return rc;
  const int tag = arcoll_sched_tag(s), sub = arcoll_binomial_subtree_size(pos, P);
  const MPI_Aint chunk = arcoll_vs_chunk(s);
  int64_t *hdr = malloc(sizeof(int64_t) * (size_t)sub);
  char *buf = NULL;
  if (!hdr) {
    free(order);
    return MPI_ERR_NO_MEM;
  }
  rc = pos ? receive(order, pos, sub, chunk, tag, hdr, &buf, comm)
           : root_stream(sendbuf, sendcounts, displs, sendtype, order, P, hdr, &buf, comm);
  if (rc == MPI_SUCCESS) rc = forward(order, pos, P, sub, chunk, tag, hdr, buf, comm);
  if (rc == MPI_SUCCESS && pos > 0 && (rc = MPI_Type_size(recvtype, &rsize)) == MPI_SUCCESS)
    rc = hdr[0] != (int64_t)recvcount * rsize
             ? MPI_ERR_TRUNCATE /* my count disagrees with the root's */
             : arcoll_vs_unpack(buf, recvbuf, recvcount, recvtype, comm);
  if (rc == MPI_SUCCESS && pos == 0 && recvbuf != MPI_IN_PLACE) {
    MPI_Aint lb, ext;
    if ((rc = MPI_Type_get_extent(sendtype, &lb, &ext)) == MPI_SUCCESS)
      rc = arcoll_vs_copy((const char *)sendbuf + displs[root] * ext, sendcounts[root], sendtype,
                          recvbuf, recvcount, recvtype, comm);
  }
  free(hdr), free(buf), free(order);
  return rc;
}
