/* Ring allgather (Thakur, Rabenseifner, Gropp 2005); see allgather.h. */
#include "allgather.h"
#include "allgather_prep.h"
#include "bcast_etc_util.h"

int arcoll_allgather_ring(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                          MPI_Comm comm, const arcoll_sched_t *s) {
  arcoll_ag_t a;
  int rc = arcoll_ag_prepare(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, s,
                             &a);
  if (rc == ARCOLL_AG_NOTHING) return MPI_SUCCESS;
  if (rc != MPI_SUCCESS) return rc;
  const int P = a.P, pos = a.pos, tag = arcoll_sched_tag(s);
  const int next = a.order[(pos + 1) % P], prev = a.order[(pos - 1 + P) % P];
  for (int i = 0; i < P - 1 && rc == MPI_SUCCESS; ++i)
    rc = MPI_Sendrecv(arcoll_ag_block(&a, pos - i), a.rcount, a.rtype, next, tag,
                      arcoll_ag_block(&a, pos - i - 1), a.rcount, a.rtype, prev, tag, comm,
                      MPI_STATUS_IGNORE);
  arcoll_ag_done(&a);
  return rc;
}
