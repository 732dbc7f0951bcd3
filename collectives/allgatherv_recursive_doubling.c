/* Recursive-doubling allgather and allgatherv for any P (Thakur, Rabenseifner,
 * Gropp 2005, with a fold / unfold of the positions beyond the largest power
 * of two P2); see allgather.h and allgatherv.h.  The schedule is lists of
 * positions; the hindexed block-set types of the shared preparation
 * (allgatherv_prep.h) say where their blocks are. */
#include <stdlib.h>

#include "allgather.h"
#include "allgatherv.h"
#include "allgatherv_prep.h"
#include "bcast_etc_util.h"

/* Positions whose blocks virtual position v's group of k holds after the
 * steps below k: base .. base + k - 1 and their folded partners (+ P2, < P). */
static int group_list(int v, int k, int P2, int P, int *out) {
  const int base = v & ~(k - 1);
  int n = 0;
  for (int u = base; u < base + k; ++u) out[n++] = u;
  for (int u = base; u < base + k; ++u)
    if (u + P2 < P) out[n++] = u + P2;
  return n;
}

/* Every position but `skip`. */
static int all_but(int skip, int P, int *out) {
  int n = 0;
  for (int u = 0; u < P; ++u)
    if (u != skip) out[n++] = u;
  return n;
}

/* Blocks of list sl to position peer, blocks of list rl from it. */
static int exchange_lists(arcoll_agv_t *a, const int *sl, int ns, const int *rl, int nr,
                          int peer, int tag, MPI_Comm comm) {
  MPI_Datatype st, rt;
  int rc = arcoll_agv_list_type(a, sl, ns, &st);
  if (rc != MPI_SUCCESS) return rc;
  if ((rc = arcoll_agv_list_type(a, rl, nr, &rt)) != MPI_SUCCESS) {
    MPI_Type_free(&st);
    return rc;
  }
  return arcoll_agv_exchange(a, st, peer, rt, peer, tag, comm);
}

/* One-way transfer of the blocks of list l (n positions) to / from position q. */
static int move_list(arcoll_agv_t *a, const int *l, int n, int q, int send, int tag,
                     MPI_Comm comm) {
  MPI_Datatype t;
  int rc = arcoll_agv_list_type(a, l, n, &t);
  if (rc != MPI_SUCCESS) return rc;
  const int r = arcoll_agv_rank(a, q);
  rc = send ? MPI_Send(a->rbuf, 1, t, r, tag, comm)
            : MPI_Recv(a->rbuf, 1, t, r, tag, comm, MPI_STATUS_IGNORE);
  MPI_Type_free(&t);
  return rc;
}

/* Position pos >= P2 sends its block to pos - P2 and receives every other
 * block back at the end; positions < P2 take their partner's block, then in
 * log2 P2 steps exchange with pos ^ k the blocks of their group of k
 * (positions base .. base + k - 1 and their folded partners).  Scratch: 2P
 * ints (MPI_ERR_NO_MEM). */
static int recursive_doubling(arcoll_agv_t *a, int tag, MPI_Comm comm) {
  const int P = a->P, pos = a->pos;
  int P2 = 1, rc = MPI_SUCCESS;
  while (P2 * 2 <= P) P2 *= 2;
  int *l1 = malloc(sizeof(int) * 2 * (size_t)P);
  if (!l1) return MPI_ERR_NO_MEM;
  int *l2 = l1 + P;
  if (pos >= P2) { /* extra position: fold my block, get every other one back */
    rc = move_list(a, &pos, 1, pos - P2, 1, tag, comm);
    if (rc == MPI_SUCCESS) rc = move_list(a, l1, all_but(pos, P, l1), pos - P2, 0, tag, comm);
  } else {
    const int partner = pos + P2;
    if (partner < P) rc = move_list(a, &partner, 1, partner, 0, tag, comm);
    for (int k = 1; k < P2 && rc == MPI_SUCCESS; k <<= 1) {
      const int ns = group_list(pos, k, P2, P, l1), nr = group_list(pos ^ k, k, P2, P, l2);
      rc = exchange_lists(a, l1, ns, l2, nr, pos ^ k, tag, comm);
    }
    if (rc == MPI_SUCCESS && partner < P)
      rc = move_list(a, l1, all_but(partner, P, l1), partner, 1, tag, comm);
  }
  free(l1);
  return rc;
}

int arcoll_allgatherv_recursive_doubling(const void *sendbuf, MPI_Aint sendcount,
                                         MPI_Datatype sendtype, void *recvbuf,
                                         const MPI_Aint *recvcounts, const MPI_Aint *displs,
                                         MPI_Datatype recvtype, MPI_Comm comm,
                                         const arcoll_sched_t *s) {
  return arcoll_agv_call(recursive_doubling, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                         recvtype, comm, s);
}

int arcoll_allgather_recursive_doubling(const void *sendbuf, MPI_Aint sendcount,
                                        MPI_Datatype sendtype, void *recvbuf,
                                        MPI_Aint recvcount, MPI_Datatype recvtype,
                                        MPI_Comm comm, const arcoll_sched_t *s) {
  return arcoll_agv_call_equal(recursive_doubling, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, comm, s);
}
