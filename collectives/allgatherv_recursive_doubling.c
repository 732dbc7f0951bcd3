/* Recursive-doubling allgatherv for any P (Thakur, Rabenseifner, Gropp 2005,
 * with a fold / unfold of the positions beyond the largest power of two);
 * see allgatherv.h.  The schedule (allgather_rd_schedule.h, shared with
 * allgather) is position lists; hindexed block-set types of
 * allgatherv_prep.h move the irregular blocks. */
#include "allgather_rd_schedule.h"
#include "allgatherv.h"
#include "allgatherv_prep.h"
#include "bcast_etc_util.h"

static int list_type(void *a, const int *pos, int n, MPI_Datatype *t) {
  return arcoll_agv_list_type(a, pos, n, t);
}
static int rank_of(void *a, int q) { return arcoll_agv_rank(a, q); }

int arcoll_allgatherv_recursive_doubling(const void *sendbuf, MPI_Aint sendcount,
                                         MPI_Datatype sendtype, void *recvbuf,
                                         const MPI_Aint *recvcounts, const MPI_Aint *displs,
                                         MPI_Datatype recvtype, MPI_Comm comm,
                                         const arcoll_sched_t *s) {
  arcoll_agv_t a;
  int rc = arcoll_agv_prepare(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                              recvtype, comm, s, &a);
  if (rc == ARCOLL_AGV_NOTHING) return MPI_SUCCESS;
  if (rc != MPI_SUCCESS) return rc;
  const arcoll_rd_blocks_t b = {&a, a.rbuf, a.P, a.pos, list_type, rank_of};
  rc = arcoll_allgather_rd_schedule(&b, arcoll_sched_tag(s), comm);
  arcoll_agv_done(&a);
  return rc;
}
