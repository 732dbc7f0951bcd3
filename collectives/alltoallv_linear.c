/* Linear (scattered) alltoallv, MPICH's alltoallv scattered algorithm over
 * a rank order; see alltoallv.h. */
#include "alltoall.h" /* ARCOLL_ALLTOALL_THROTTLE */
#include "alltoallv.h"
#include "alltoallv_prep.h"

int arcoll_alltoallv_linear(const void *sendbuf, const MPI_Aint *scounts, const MPI_Aint *sdispls,
                            MPI_Datatype stype, void *recvbuf, const MPI_Aint *rcounts,
                            const MPI_Aint *rdispls, MPI_Datatype rtype, MPI_Comm comm,
                            const arcoll_sched_t *s) {
  arcoll_a2av_t a;
  int rc = arcoll_a2av_begin(sendbuf, scounts, sdispls, stype, recvbuf, rcounts, rdispls, rtype,
                             comm, s, &a);
  if (rc == MPI_SUCCESS) rc = a.inplace ? arcoll_a2av_inplace(&a, comm) : arcoll_a2av_self(&a, comm);
  if (rc != MPI_SUCCESS || a.inplace) {
    arcoll_a2av_end(&a);
    return rc;
  }
  enum { W = ARCOLL_ALLTOALL_THROTTLE };
  MPI_Request req[2 * W];
  for (int i0 = 1; i0 < a.P && rc == MPI_SUCCESS; i0 += W) { /* windows of W steps */
    const int i1 = i0 + W < a.P ? i0 + W : a.P;
    int nreq = 0;
    for (int i = i0; i < i1 && rc == MPI_SUCCESS; ++i)
      rc = arcoll_a2av_post(&a, 0, arcoll_a2av_rank(&a, a.pos - i), comm, &req[nreq++]);
    for (int i = i0; i < i1 && rc == MPI_SUCCESS; ++i)
      rc = arcoll_a2av_post(&a, 1, arcoll_a2av_rank(&a, a.pos + i), comm, &req[nreq++]);
    rc = arcoll_wait_all(nreq, req, rc);
  }
  arcoll_a2av_end(&a);
  return rc;
}
