/* Pairwise-exchange alltoall (seed 003_e288917cd7e80de5.txt: partner = me ^ i);
 * see alltoall.h. */
#include "alltoall.h"
#include "alltoall_prep.h"
#include "bcast_etc_util.h"

int arcoll_alltoall_pairwise(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm, const arcoll_sched_t *s) {
  arcoll_a2a_t a;
  int rc = arcoll_a2a_prepare(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              s, &a);
  if (rc == ARCOLL_A2A_NOTHING) return MPI_SUCCESS;
  if (rc != MPI_SUCCESS) return rc;
  const int P = a.P, tag = arcoll_sched_tag(s), me = a.order[a.pos];
  const int pow2 = (P & (P - 1)) == 0;
  rc = arcoll_local_copy((const char *)a.sbuf + me * a.sext * a.scount, a.scount, a.stype,
                         (char *)recvbuf + me * a.rext * a.rcount, a.rcount, a.rtype, comm);
  for (int i = 1; i < P && rc == MPI_SUCCESS; ++i) {
    const int dst = a.order[pow2 ? a.pos ^ i : (a.pos + i) % P];
    const int src = a.order[pow2 ? a.pos ^ i : (a.pos - i + P) % P];
    rc = MPI_Sendrecv((const char *)a.sbuf + dst * a.sext * a.scount, a.scount, a.stype, dst,
                      tag, (char *)recvbuf + src * a.rext * a.rcount, a.rcount, a.rtype, src,
                      tag, comm, MPI_STATUS_IGNORE);
  }
  arcoll_a2a_done(&a);
  return rc;
}
