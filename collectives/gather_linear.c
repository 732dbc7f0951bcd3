/* Linear gather; see gather.h (cost (P-1) T_send(m), seed 000_32450fa7292fe18a.txt). */
#include <limits.h>
#include <stdlib.h>

#include "bcast_etc_util.h"
#include "gather.h"

int arcoll_gather_linear(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm, const arcoll_sched_t *s) {
  int P, me, rc, size;
  const int tag = arcoll_sched_tag(s);
  if ((rc = MPI_Comm_size(comm, &P)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Comm_rank(comm, &me)) != MPI_SUCCESS) return rc;
  if (me != root) {
    if ((rc = MPI_Type_size(sendtype, &size)) != MPI_SUCCESS) return rc;
    if (sendcount == 0 || size == 0) return MPI_SUCCESS;
    if (sendcount > INT_MAX) return MPI_ERR_COUNT;
    return MPI_Send(sendbuf, (int)sendcount, sendtype, root, tag, comm);
  }
  MPI_Aint lb, ext;
  if ((rc = MPI_Type_size(recvtype, &size)) != MPI_SUCCESS) return rc;
  if (recvcount == 0 || size == 0) return MPI_SUCCESS;
  if (recvcount > INT_MAX) return MPI_ERR_COUNT;
  if ((rc = MPI_Type_get_extent(recvtype, &lb, &ext)) != MPI_SUCCESS) return rc;
  MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)P);
  if (!req) return MPI_ERR_NO_MEM;
  for (int i = 0; i < P; ++i) req[i] = MPI_REQUEST_NULL;
  for (int i = 1; i < P && rc == MPI_SUCCESS; ++i) {
    const int r = (root + i) % P;
    rc = MPI_Irecv((char *)recvbuf + (MPI_Aint)r * recvcount * ext, (int)recvcount, recvtype,
                   r, tag, comm, &req[r]);
  }
  if (rc == MPI_SUCCESS && sendbuf != MPI_IN_PLACE)
    rc = arcoll_local_copy(sendbuf, sendcount, sendtype,
                           (char *)recvbuf + (MPI_Aint)root * recvcount * ext, recvcount,
                           recvtype, comm);
  rc = arcoll_wait_all(P, req, rc);
  free(req);
  return rc;
}
