/* Linear gatherv and scatterv (gatherv.h; cost T(0) + (P-1) X(M/P),
 * model_gatherv.c; seed 000_32450fa7292fe18a.txt: (P-1) T_send(m)): the root
 * posts one nonblocking receive (gatherv) or send (scatterv) per other rank,
 * straight from / into its buffer with the user datatype, and copies its own
 * block; every other rank sends (receives) its block.  Zero blocks move no
 * message on either side. */
#include <stdlib.h>

#include "bcast_etc_util.h"
#include "gatherv.h"
#include "gatherv_stream.h"

/* gather != 0: gatherv (blocks to the root), else scatterv.  one / onecount /
 * onetype: this rank's own block (gatherv's send, scatterv's receive
 * arguments; MPI_IN_PLACE at the root); all / counts / displs / alltype: the
 * root's P blocks. */
static int vblocks_linear(int gather, const void *one_send, void *one_recv, MPI_Aint onecount,
                          MPI_Datatype onetype, const void *all_send, void *all_recv,
                          const MPI_Aint *counts, const MPI_Aint *displs, MPI_Datatype alltype,
                          int root, MPI_Comm comm, const arcoll_sched_t *s) {
  int P, me, rc, size;
  const int tag = arcoll_sched_tag(s);
  if ((rc = MPI_Comm_size(comm, &P)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Comm_rank(comm, &me)) != MPI_SUCCESS) return rc;
  if (me != root) {
    MPI_Request req = MPI_REQUEST_NULL;
    if ((rc = MPI_Type_size(onetype, &size)) != MPI_SUCCESS) return rc;
    if (onecount == 0 || size == 0) return MPI_SUCCESS; /* the root posts nothing either */
    rc = gather ? arcoll_vs_isend_block(one_send, onecount, onetype, root, tag, comm, &req)
                : arcoll_vs_irecv_block(one_recv, onecount, onetype, root, tag, comm, &req);
    return arcoll_wait_all(1, &req, rc);
  }
  MPI_Aint lb, ext;
  if ((rc = MPI_Type_size(alltype, &size)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Type_get_extent(alltype, &lb, &ext)) != MPI_SUCCESS) return rc;
  MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)P);
  if (!req) return MPI_ERR_NO_MEM;
  for (int i = 0; i < P; ++i) req[i] = MPI_REQUEST_NULL;
  for (int i = 1; i < P && rc == MPI_SUCCESS; ++i) {
    const int r = (root + i) % P;
    if (counts[r] == 0 || size == 0) continue;
    rc = gather ? arcoll_vs_irecv_block((char *)all_recv + displs[r] * ext, counts[r], alltype, r,
                                        tag, comm, &req[r])
                : arcoll_vs_isend_block((const char *)all_send + displs[r] * ext, counts[r],
                                        alltype, r, tag, comm, &req[r]);
  }
  if (rc == MPI_SUCCESS && gather && one_send != MPI_IN_PLACE)
    rc = arcoll_vs_copy(one_send, onecount, onetype, (char *)all_recv + displs[root] * ext,
                        counts[root], alltype, comm);
  if (rc == MPI_SUCCESS && !gather && one_recv != MPI_IN_PLACE)
    rc = arcoll_vs_copy((const char *)all_send + displs[root] * ext, counts[root], alltype,
                        one_recv, onecount, onetype, comm);
  rc = arcoll_wait_all(P, req, rc);
  free(req);
  return rc;
}

int arcoll_gatherv_linear(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                          void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                          MPI_Datatype recvtype, int root, MPI_Comm comm,
                          const arcoll_sched_t *s) {
  return vblocks_linear(1, sendbuf, NULL, sendcount, sendtype, NULL, recvbuf, recvcounts, displs,
                        recvtype, root, comm, s);
}

int arcoll_scatterv_linear(const void *sendbuf, const MPI_Aint *sendcounts,
                           const MPI_Aint *displs, MPI_Datatype sendtype, void *recvbuf,
                           MPI_Aint recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                           const arcoll_sched_t *s) {
  return vblocks_linear(0, NULL, recvbuf, recvcount, recvtype, sendbuf, NULL, sendcounts, displs,
                        sendtype, root, comm, s);
}
