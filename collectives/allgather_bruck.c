/* Bruck allgather (Bruck, Ho, Kipnis, Upfal, Weathersby 1997, radix 2);
 * see allgather.h.  Before step k position pos holds the blocks of positions
 * pos .. pos + k - 1; the block-set types address them in recvbuf, so the
 * paper's final rotation is not needed. */
#include "allgather.h"
#include "allgather_prep.h"
#include "bcast_etc_util.h"

int arcoll_allgather_bruck(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                           void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm, const arcoll_sched_t *s) {
  arcoll_ag_t a;
  int rc = arcoll_ag_prepare(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, s,
                             &a);
  if (rc == ARCOLL_AG_NOTHING) return MPI_SUCCESS;
  if (rc != MPI_SUCCESS) return rc;
  const int P = a.P, pos = a.pos, tag = arcoll_sched_tag(s);
  for (int k = 1; k < P && rc == MPI_SUCCESS; k <<= 1) {
    const int n = k < P - k ? k : P - k;
    MPI_Datatype st, rt;
    if ((rc = arcoll_ag_range_type(&a, pos, n, &st)) != MPI_SUCCESS) break;
    if ((rc = arcoll_ag_range_type(&a, pos + k, n, &rt)) != MPI_SUCCESS) {
      MPI_Type_free(&st);
      break;
    }
    rc = arcoll_ag_exchange(&a, st, pos - k, rt, pos + k, tag, comm);
  }
  arcoll_ag_done(&a);
  return rc;
}
