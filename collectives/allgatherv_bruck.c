/* Bruck allgatherv (Bruck, Ho, Kipnis, Upfal, Weathersby 1997, radix 2);
 * see allgatherv.h.  Before step k position pos holds the blocks of
 * positions pos .. pos + k - 1; the block-set types address them in recvbuf
 * (irregular sizes included), so no final rotation is needed. */
#include "allgatherv.h"
#include "allgatherv_prep.h"
#include "bcast_etc_util.h"

int arcoll_allgatherv_bruck(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                            MPI_Datatype recvtype, MPI_Comm comm, const arcoll_sched_t *s) {
  arcoll_agv_t a;
  int rc = arcoll_agv_prepare(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                              recvtype, comm, s, &a);
  if (rc == ARCOLL_AGV_NOTHING) return MPI_SUCCESS;
  if (rc != MPI_SUCCESS) return rc;
  const int P = a.P, pos = a.pos, tag = arcoll_sched_tag(s);
  for (int k = 1; k < P && rc == MPI_SUCCESS; k <<= 1) {
    const int n = k < P - k ? k : P - k;
    MPI_Datatype st, rt;
    if ((rc = arcoll_agv_range_type(&a, pos, n, &st)) != MPI_SUCCESS) break;
    if ((rc = arcoll_agv_range_type(&a, pos + k, n, &rt)) != MPI_SUCCESS) {
      MPI_Type_free(&st);
      break;
    }
    rc = arcoll_agv_exchange(&a, st, pos - k, rt, pos + k, tag, comm);
  }
  arcoll_agv_done(&a);
  return rc;
}
