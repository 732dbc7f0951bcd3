/* Pairwise-exchange alltoallv (MPICH's alltoallv pairwise) over a rank
 * order; see alltoallv.h. */
#include "alltoallv.h"
#include "alltoallv_prep.h"

int arcoll_alltoallv_pairwise(const void *sendbuf, const MPI_Aint *scounts,
                              const MPI_Aint *sdispls, MPI_Datatype stype, void *recvbuf,
                              const MPI_Aint *rcounts, const MPI_Aint *rdispls,
                              MPI_Datatype rtype, MPI_Comm comm, const arcoll_sched_t *s) {
  arcoll_a2av_t a;
  int rc = arcoll_a2av_begin(sendbuf, scounts, sdispls, stype, recvbuf, rcounts, rdispls, rtype,
                             comm, s, &a);
  if (rc == MPI_SUCCESS) rc = a.inplace ? arcoll_a2av_inplace(&a, comm) : arcoll_a2av_self(&a, comm);
  for (int i = 1; i < a.P && rc == MPI_SUCCESS && !a.inplace; ++i) {
    MPI_Request req[2];
    rc = arcoll_a2av_post(&a, 0, arcoll_a2av_rank(&a, a.pos - i), comm, &req[0]);
    if (rc == MPI_SUCCESS) rc = arcoll_a2av_post(&a, 1, arcoll_a2av_rank(&a, a.pos + i), comm, &req[1]);
    else req[1] = MPI_REQUEST_NULL;
    rc = arcoll_wait_all(2, req, rc);
  }
  arcoll_a2av_end(&a);
  return rc;
}
