/* Ring allgatherv (Thakur, Rabenseifner, Gropp 2005); see allgatherv.h. */
#include "allgatherv.h"
#include "allgatherv_prep.h"
#include "bcast_etc_util.h"

int arcoll_allgatherv_ring(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                           MPI_Datatype recvtype, MPI_Comm comm, const arcoll_sched_t *s) {
  arcoll_agv_t a;
  int rc = arcoll_agv_prepare(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                              recvtype, comm, s, &a);
  if (rc == ARCOLL_AGV_NOTHING) return MPI_SUCCESS;
  if (rc != MPI_SUCCESS) return rc;
  const int P = a.P, pos = a.pos, tag = arcoll_sched_tag(s);
  const int next = arcoll_agv_rank(&a, pos + 1), prev = arcoll_agv_rank(&a, pos - 1);
  /* zero-count blocks still make a (0-element) step: every rank knows the
   * counts, so skipping would be consistent too, but the step keeps the
   * ring's pacing simple */
  for (int i = 0; i < P - 1 && rc == MPI_SUCCESS; ++i)
    rc = MPI_Sendrecv(arcoll_agv_block(&a, pos - i), arcoll_agv_count(&a, pos - i), a.rtype,
                      next, tag, arcoll_agv_block(&a, pos - i - 1),
                      arcoll_agv_count(&a, pos - i - 1), a.rtype, prev, tag, comm,
                      MPI_STATUS_IGNORE);
  arcoll_agv_done(&a);
  return rc;
}
