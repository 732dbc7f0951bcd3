/* Recursive-doubling allgather for any P (Thakur, Rabenseifner, Gropp 2005,
 * with a fold / unfold of the positions beyond the largest power of two);
 * see allgather.h.  The schedule (allgather_rd_schedule.h) is position
 * lists; the block-set types of allgather_prep.h move the data. */
#include "allgather.h"
#include "allgather_prep.h"
#include "allgather_rd_schedule.h"
#include "bcast_etc_util.h"

static int list_type(void *a, const int *pos, int n, MPI_Datatype *t) {
  return arcoll_ag_list_type(a, pos, n, t);
}
static int rank_of(void *a, int q) { return ((arcoll_ag_t *)a)->order[q]; }

int arcoll_allgather_recursive_doubling(const void *sendbuf, MPI_Aint sendcount,
                                        MPI_Datatype sendtype, void *recvbuf,
                                        MPI_Aint recvcount, MPI_Datatype recvtype,
                                        MPI_Comm comm, const arcoll_sched_t *s) {
  arcoll_ag_t a;
  int rc = arcoll_ag_prepare(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, s,
                             &a);
  if (rc == ARCOLL_AG_NOTHING) return MPI_SUCCESS;
  if (rc != MPI_SUCCESS) return rc;
  const arcoll_rd_blocks_t b = {&a, a.rbuf, a.P, a.pos, list_type, rank_of};
  rc = arcoll_allgather_rd_schedule(&b, arcoll_sched_tag(s), comm);
  arcoll_ag_done(&a);
  return rc;
}
