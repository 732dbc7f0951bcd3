/* Gather + broadcast allgatherv: binomial gather of block ranges to position
 * 0, then binomial broadcast of every block, both along the schedule's
 * order with block-set datatypes into recvbuf (no packing, irregular and
 * zero-size blocks alike); see allgatherv.h.  (allgather's gather_bcast,
 * allgather_gather_bcast.c, broadcasts bytes instead, to honour
 * segment_bytes.) */
#include "allgatherv.h"
#include "allgatherv_prep.h"
#include "bcast_etc_util.h"

/* Binomial gather over positions (root: position 0): position v with lowest
 * set bit `mask` sends the blocks of its subtree v .. v + mask - 1 (< P) to
 * v - mask after receiving those of its children's subtrees. */
static int gather(arcoll_agv_t *a, int tag, MPI_Comm comm) {
  const int P = a->P, pos = a->pos;
  int rc = MPI_SUCCESS;
  for (int mask = 1; mask < P && rc == MPI_SUCCESS; mask <<= 1) {
    MPI_Datatype t;
    if (pos & mask) {
      const int n = pos + mask <= P ? mask : P - pos;
      if ((rc = arcoll_agv_range_type(a, pos, n, &t)) != MPI_SUCCESS) return rc;
      rc = MPI_Send(a->rbuf, 1, t, arcoll_agv_rank(a, pos - mask), tag, comm);
      MPI_Type_free(&t);
      return rc;
    }
    if (pos + mask < P) {
      const int n = pos + 2 * mask <= P ? mask : P - pos - mask;
      if ((rc = arcoll_agv_range_type(a, pos + mask, n, &t)) != MPI_SUCCESS) return rc;
      rc = MPI_Recv(a->rbuf, 1, t, arcoll_agv_rank(a, pos + mask), tag, comm,
                    MPI_STATUS_IGNORE);
      MPI_Type_free(&t);
    }
  }
  return rc;
}

/* Binomial broadcast of all P blocks (one block-set type) from position 0. */
static int bcast(arcoll_agv_t *a, int tag, MPI_Comm comm) {
  const int P = a->P, pos = a->pos;
  MPI_Datatype t;
  int rc = arcoll_agv_range_type(a, 0, P, &t), mask = 1;
  if (rc != MPI_SUCCESS) return rc;
  while (mask < P && !(pos & mask)) mask <<= 1;
  if (pos) /* receive from the parent (every block, mine included: same data) */
    rc = MPI_Recv(a->rbuf, 1, t, arcoll_agv_rank(a, pos - mask), tag, comm, MPI_STATUS_IGNORE);
  for (mask >>= 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1)
    if (pos + mask < P) rc = MPI_Send(a->rbuf, 1, t, arcoll_agv_rank(a, pos + mask), tag, comm);
  MPI_Type_free(&t);
  return rc;
}

/* Gather of block ranges, then broadcast of every block. */
static int gather_bcast(arcoll_agv_t *a, int tag, MPI_Comm comm) {
  const int rc = gather(a, tag, comm);
  return rc == MPI_SUCCESS ? bcast(a, tag, comm) : rc;
}

int arcoll_allgatherv_gather_bcast(const void *sendbuf, MPI_Aint sendcount,
                                   MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Aint *recvcounts, const MPI_Aint *displs,
                                   MPI_Datatype recvtype, MPI_Comm comm,
                                   const arcoll_sched_t *s) {
  return arcoll_agv_call(gather_bcast, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                         recvtype, comm, s);
}
