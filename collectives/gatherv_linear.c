/* Linear gatherv; see gatherv.h (cost T(0) + (P-1) X(M/P), model_gatherv.c;
 * seed 000_32450fa7292fe18a.txt: (P-1) T_send(m)). */
#include <stdlib.h>

#include "bcast_etc_util.h"
#include "gatherv.h"
#include "gatherv_stream.h"

int arcoll_gatherv_linear(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                          void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                          MPI_Datatype recvtype, int root, MPI_Comm comm,
                          const arcoll_sched_t *s) {
  int P, me, rc, size;
  const int tag = arcoll_sched_tag(s);
  if ((rc = MPI_Comm_size(comm, &P)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Comm_rank(comm, &me)) != MPI_SUCCESS) return rc;
  if (me != root) {
    MPI_Request req = MPI_REQUEST_NULL;
    if ((rc = MPI_Type_size(sendtype, &size)) != MPI_SUCCESS) return rc;
    if (sendcount == 0 || size == 0) return MPI_SUCCESS; /* the root posts nothing either */
    rc = arcoll_vs_isend_block(sendbuf, sendcount, sendtype, root, tag, comm, &req);
    return arcoll_wait_all(1, &req, rc);
  }
  MPI_Aint lb, ext;
  if ((rc = MPI_Type_size(recvtype, &size)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Type_get_extent(recvtype, &lb, &ext)) != MPI_SUCCESS) return rc;
  MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)P);
  if (!req) return MPI_ERR_NO_MEM;
  for (int i = 0; i < P; ++i) req[i] = MPI_REQUEST_NULL;
  for (int i = 1; i < P && rc == MPI_SUCCESS; ++i) {
    const int r = (root + i) % P;
    if (recvcounts[r] > 0 && size > 0)
      rc = arcoll_vs_irecv_block((char *)recvbuf + displs[r] * ext, recvcounts[r], recvtype, r,
                                 tag, comm, &req[r]);
  }
  if (rc == MPI_SUCCESS && sendbuf != MPI_IN_PLACE)
    rc = arcoll_vs_copy(sendbuf, sendcount, sendtype, (char *)recvbuf + displs[root] * ext,
                        recvcounts[root], recvtype, comm);
  rc = arcoll_wait_all(P, req, rc);
  free(req);
  return rc;
}
