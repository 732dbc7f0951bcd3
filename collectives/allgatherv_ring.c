/* Ring allgather and allgatherv (Thakur, Rabenseifner, Gropp 2005): one body
 * over the shared preparation (allgatherv_prep.h); see allgather.h and
 * allgatherv.h. */
#include "allgather.h"
#include "allgatherv.h"
#include "allgatherv_prep.h"
#include "bcast_etc_util.h"

/* P-1 steps: the block of position pos - i to pos + 1, that of pos - i - 1
 * from pos - 1.  Zero-count blocks still make a (0-element) step: every rank
 * knows the counts, so skipping would be consistent too, but the step keeps
 * the ring's pacing simple. */
int arcoll_agv_ring(arcoll_agv_t *a, int tag, MPI_Comm comm) {
  const int P = a->P, pos = a->pos;
  const int next = arcoll_agv_rank(a, pos + 1), prev = arcoll_agv_rank(a, pos - 1);
  int rc = MPI_SUCCESS;
  for (int i = 0; i < P - 1 && rc == MPI_SUCCESS; ++i)
    rc = MPI_Sendrecv(arcoll_agv_block(a, pos - i), arcoll_agv_count(a, pos - i), a->rtype,
                      next, tag, arcoll_agv_block(a, pos - i - 1),
                      arcoll_agv_count(a, pos - i - 1), a->rtype, prev, tag, comm,
                      MPI_STATUS_IGNORE);
  return rc;
}

int arcoll_allgatherv_ring(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                           MPI_Datatype recvtype, MPI_Comm comm, const arcoll_sched_t *s) {
  return arcoll_agv_call(arcoll_agv_ring, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                         recvtype, comm, s);
}

int arcoll_allgather_ring(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                          MPI_Comm comm, const arcoll_sched_t *s) {
  return arcoll_agv_call_equal(arcoll_agv_ring, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, comm, s);
}
