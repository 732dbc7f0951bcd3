/* Recursive-doubling schedule of allgather and allgatherv; see
 * allgather_rd_schedule.h. */
#include "allgather_rd_schedule.h"

#include <stdlib.h>

#include "coll.h" /* arcoll_wait_all */

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

/* Blocks of list sl to position peer, blocks of list rl from it.  Irecv +
 * Isend, not MPI_Sendrecv: both buffers are recvbuf (disjoint blocks), which
 * an implementation's alias check could reject. */
static int exchange_lists(const arcoll_rd_blocks_t *b, const int *sl, int ns, const int *rl,
                          int nr, int peer, int tag, MPI_Comm comm) {
  MPI_Datatype st, rt;
  int rc = b->list_type(b->ctx, sl, ns, &st);
  if (rc != MPI_SUCCESS) return rc;
  if ((rc = b->list_type(b->ctx, rl, nr, &rt)) != MPI_SUCCESS) {
    MPI_Type_free(&st);
    return rc;
  }
  MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  const int r = b->rank(b->ctx, peer);
  rc = MPI_Irecv(b->rbuf, 1, rt, r, tag, comm, &req[0]);
  if (rc == MPI_SUCCESS) rc = MPI_Isend(b->rbuf, 1, st, r, tag, comm, &req[1]);
  rc = arcoll_wait_all(2, req, rc);
  MPI_Type_free(&st);
  MPI_Type_free(&rt);
  return rc;
}

/* One-way transfer of the blocks of list l (n positions) to / from position q. */
static int move_list(const arcoll_rd_blocks_t *b, const int *l, int n, int q, int send, int tag,
                     MPI_Comm comm) {
  MPI_Datatype t;
  int rc = b->list_type(b->ctx, l, n, &t);
  if (rc != MPI_SUCCESS) return rc;
  const int r = b->rank(b->ctx, q);
  rc = send ? MPI_Send(b->rbuf, 1, t, r, tag, comm)
            : MPI_Recv(b->rbuf, 1, t, r, tag, comm, MPI_STATUS_IGNORE);
  MPI_Type_free(&t);
  return rc;
}

int arcoll_allgather_rd_schedule(const arcoll_rd_blocks_t *b, int tag, MPI_Comm comm) {
  const int P = b->P, pos = b->pos;
  int P2 = 1, rc = MPI_SUCCESS;
  while (P2 * 2 <= P) P2 *= 2;
  int *l1 = malloc(sizeof(int) * 2 * (size_t)P);
  if (!l1) return MPI_ERR_NO_MEM;
  int *l2 = l1 + P;
  if (pos >= P2) { /* extra position: fold my block, get every other one back */
    rc = move_list(b, &pos, 1, pos - P2, 1, tag, comm);
    if (rc == MPI_SUCCESS) rc = move_list(b, l1, all_but(pos, P, l1), pos - P2, 0, tag, comm);
  } else {
    const int partner = pos + P2;
    if (partner < P) rc = move_list(b, &partner, 1, partner, 0, tag, comm);
    for (int k = 1; k < P2 && rc == MPI_SUCCESS; k <<= 1) {
      const int ns = group_list(pos, k, P2, P, l1), nr = group_list(pos ^ k, k, P2, P, l2);
      rc = exchange_lists(b, l1, ns, l2, nr, pos ^ k, tag, comm);
    }
    if (rc == MPI_SUCCESS && partner < P)
      rc = move_list(b, l1, all_but(partner, P, l1), partner, 1, tag, comm);
  }
  free(l1);
  return rc;
}
