/* Neighbor-exchange allgather and allgatherv (Chen, Liu, Tseng, Yeh 2005;
 * Open MPI's allgather_intra_neighborexchange): one body over the shared
 * preparation (allgatherv_prep.h); see allgather.h and allgatherv.h. */
#include "allgather.h"
#include "allgatherv.h"
#include "allgatherv_prep.h"

/* Even P: P/2 steps.  Positions pair up as (2j, 2j+1); step 0 swaps the two
 * blocks of a pair; from then on every step exchanges the pair of blocks
 * received in the step before with the neighbour on alternating sides
 * (even positions right then left, odd ones the other way), receiving the
 * pair that lies 2 positions further on that side.  Every link between
 * neighbours carries data both ways, so a machine whose links between
 * groups of ranks are the bottleneck moves each block over them in half the
 * ring's one-way time.  Odd P: the ring. */
static int neighbor_exchange(arcoll_agv_t *a, int tag, MPI_Comm comm) {
  const int P = a->P, pos = a->pos;
  if (P % 2) return arcoll_agv_ring(a, tag, comm);
  const int even = pos % 2 == 0, pair = even ? pos : pos - 1;
  const int nb[2] = {even ? pos + 1 : pos - 1, even ? pos - 1 : pos + 1};
  const int step[2] = {even ? 2 : -2, even ? -2 : 2};
  int from[2] = {pair, pair};
  MPI_Datatype st, rt;
  int rc = arcoll_agv_range_type(a, pos, 1, &st);
  if (rc == MPI_SUCCESS && (rc = arcoll_agv_range_type(a, nb[0], 1, &rt)) != MPI_SUCCESS)
    MPI_Type_free(&st);
  if (rc == MPI_SUCCESS) rc = arcoll_agv_exchange(a, st, nb[0], rt, nb[0], tag, comm);
  int send_from = pair;
  for (int i = 1; i < P / 2 && rc == MPI_SUCCESS; ++i) {
    const int side = i % 2;
    from[side] = ((from[side] + step[side]) % P + P) % P;
    if ((rc = arcoll_agv_range_type(a, send_from, 2, &st)) != MPI_SUCCESS) break;
    if ((rc = arcoll_agv_range_type(a, from[side], 2, &rt)) != MPI_SUCCESS) {
      MPI_Type_free(&st);
      break;
    }
    rc = arcoll_agv_exchange(a, st, nb[side], rt, nb[side], tag, comm);
    send_from = from[side];
  }
  return rc;
}

int arcoll_allgatherv_neighbor_exchange(const void *sendbuf, MPI_Aint sendcount,
                                        MPI_Datatype sendtype, void *recvbuf,
                                        const MPI_Aint *recvcounts, const MPI_Aint *displs,
                                        MPI_Datatype recvtype, MPI_Comm comm,
                                        const arcoll_sched_t *s) {
  return arcoll_agv_call(neighbor_exchange, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                         displs, recvtype, comm, s);
}

int arcoll_allgather_neighbor_exchange(const void *sendbuf, MPI_Aint sendcount,
                                       MPI_Datatype sendtype, void *recvbuf, MPI_Aint recvcount,
                                       MPI_Datatype recvtype, MPI_Comm comm,
                                       const arcoll_sched_t *s) {
  return arcoll_agv_call_equal(neighbor_exchange, sendbuf, sendcount, sendtype, recvbuf,
                               recvcount, recvtype, comm, s);
}
