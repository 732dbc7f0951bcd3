/* Linear alltoall (seed 003_e288917cd7e80de5.txt); see alltoall.h. */
#include <stdlib.h>

#include "alltoall.h"
#include "alltoall_prep.h"
#include "bcast_etc_util.h"

int arcoll_alltoall_linear(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                           void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm, const arcoll_sched_t *s) {
  arcoll_a2a_t a;
  int rc = arcoll_a2a_prepare(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              s, &a);
  if (rc == ARCOLL_A2A_NOTHING) return MPI_SUCCESS;
  if (rc != MPI_SUCCESS) return rc;
  const int P = a.P, tag = arcoll_sched_tag(s);
  const int me = a.order[a.pos];
  rc = arcoll_local_copy((const char *)a.sbuf + me * a.sext * a.scount, a.scount, a.stype,
                         (char *)recvbuf + me * a.rext * a.rcount, a.rcount, a.rtype, comm);
  MPI_Request *req = malloc(sizeof(MPI_Request) * 2 * ARCOLL_ALLTOALL_THROTTLE);
  if (!req) {
    arcoll_a2a_done(&a);
    return MPI_ERR_NO_MEM;
  }
  /* steps i = 1..P-1 in batches of ARCOLL_ALLTOALL_THROTTLE */
  for (int i0 = 1; i0 < P && rc == MPI_SUCCESS; i0 += ARCOLL_ALLTOALL_THROTTLE) {
    int nreq = 0;
    const int i1 = i0 + ARCOLL_ALLTOALL_THROTTLE < P ? i0 + ARCOLL_ALLTOALL_THROTTLE : P;
    for (int i = i0; i < i1 && rc == MPI_SUCCESS; ++i) {
      const int src = a.order[(a.pos - i + P) % P];
      rc = MPI_Irecv((char *)recvbuf + src * a.rext * a.rcount, a.rcount, a.rtype, src, tag,
                     comm, &req[nreq++]);
    }
    for (int i = i0; i < i1 && rc == MPI_SUCCESS; ++i) {
      const int dst = a.order[(a.pos + i) % P];
      rc = MPI_Isend((const char *)a.sbuf + dst * a.sext * a.scount, a.scount, a.stype, dst,
                     tag, comm, &req[nreq++]);
    }
    rc = arcoll_wait_all(nreq, req, rc);
  }
  free(req);
  arcoll_a2a_done(&a);
  return rc;
}
