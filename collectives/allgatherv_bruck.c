/* Bruck allgather and allgatherv (Bruck, Ho, Kipnis, Upfal, Weathersby
 * 1997, radix 2): one body over the shared preparation (allgatherv_prep.h);
 * see allgather.h and allgatherv.h.  Before step k position pos holds the
 * blocks of positions pos .. pos + k - 1; the block-set types address them
 * in recvbuf (irregular sizes included), so no final rotation is needed. */
#include "allgather.h"
#include "allgatherv.h"
#include "allgatherv_prep.h"
#include "bcast_etc_util.h"

static int bruck(arcoll_agv_t *a, int tag, MPI_Comm comm) {
  const int P = a->P, pos = a->pos;
  int rc = MPI_SUCCESS;
  for (int k = 1; k < P && rc == MPI_SUCCESS; k <<= 1) {
    const int n = k < P - k ? k : P - k;
    MPI_Datatype st, rt;
    if ((rc = arcoll_agv_range_type(a, pos, n, &st)) != MPI_SUCCESS) break;
    if ((rc = arcoll_agv_range_type(a, pos + k, n, &rt)) != MPI_SUCCESS) {
      MPI_Type_free(&st);
      break;
    }
    rc = arcoll_agv_exchange(a, st, pos - k, rt, pos + k, tag, comm);
  }
  return rc;
}

int arcoll_allgatherv_bruck(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                            MPI_Datatype recvtype, MPI_Comm comm, const arcoll_sched_t *s) {
  return arcoll_agv_call(bruck, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                         recvtype, comm, s);
}

int arcoll_allgather_bruck(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                           void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm, const arcoll_sched_t *s) {
  return arcoll_agv_call_equal(bruck, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, comm, s);
}
