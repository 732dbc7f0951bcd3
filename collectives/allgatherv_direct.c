/* Direct allgather and allgatherv (SMPI's "default" form, MPICH's linear:
 * every block to every rank at once): one body over the shared preparation
 * (allgatherv_prep.h); see allgather.h and allgatherv.h. */
#include <stdlib.h>

#include "allgather.h"
#include "allgatherv.h"
#include "allgatherv_prep.h"

/* Windows of ARCOLL_ALLGATHERV_DIRECT_WINDOW steps: in step i position pos
 * sends its own block to pos + i and receives that of pos - i, straight
 * from / into recvbuf (each block in recvtype, no block-set datatype).
 * Zero-count blocks are neither sent nor received (recvcounts are the same
 * on every rank, so both sides skip the same messages). */
static int direct(arcoll_agv_t *a, int tag, MPI_Comm comm) {
  const int P = a->P, pos = a->pos, W = ARCOLL_ALLGATHERV_DIRECT_WINDOW;
  MPI_Request *req = malloc(sizeof(MPI_Request) * 2 * (size_t)W);
  if (!req) return MPI_ERR_NO_MEM;
  const int mine = arcoll_agv_count(a, pos);
  int rc = MPI_SUCCESS;
  for (int i0 = 1; i0 < P && rc == MPI_SUCCESS; i0 += W) {
    const int i1 = i0 + W < P ? i0 + W : P;
    int n = 0;
    for (int i = i0; i < i1 && rc == MPI_SUCCESS; ++i) {
      const int q = pos - i, c = arcoll_agv_count(a, q);
      if (c > 0)
        rc = MPI_Irecv(arcoll_agv_block(a, q), c, a->rtype, arcoll_agv_rank(a, q), tag, comm,
                       &req[n++]);
    }
    for (int i = i0; i < i1 && rc == MPI_SUCCESS && mine > 0; ++i)
      rc = MPI_Isend(arcoll_agv_block(a, pos), mine, a->rtype, arcoll_agv_rank(a, pos + i), tag,
                     comm, &req[n++]);
    rc = arcoll_wait_all(n, req, rc);
  }
  free(req);
  return rc;
}

int arcoll_allgatherv_direct(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                             MPI_Datatype recvtype, MPI_Comm comm, const arcoll_sched_t *s) {
  return arcoll_agv_call(direct, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                         recvtype, comm, s);
}

int arcoll_allgather_direct(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                            void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm, const arcoll_sched_t *s) {
  return arcoll_agv_call_equal(direct, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, comm, s);
}
