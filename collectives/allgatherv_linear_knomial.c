/* Linear gather + k-nomial broadcast allgatherv: every position sends its
 * block to position 0, which receives them all at once, then a k-nomial
 * broadcast (radix s->k, below 2: ARCOLL_KNOMIAL_RADIX) of every block as
 * one block-set datatype; see allgatherv.h.  Open MPI's choice for small
 * allgatherv ("default": gatherv + bcast; SMPI's allgatherv GB with its
 * ompi selector, linear gatherv + knomial bcast). */
#include <stdlib.h>

#include "allgatherv.h"
#include "allgatherv_prep.h"

/* Linear gather to position 0: its block of position q from q, all posted
 * at once (zero-count blocks: no message). */
static int gather(arcoll_agv_t *a, int tag, MPI_Comm comm) {
  const int P = a->P;
  if (a->pos != 0) { /* one block: its elements at its displacement, as the root receives it */
    const int c = arcoll_agv_count(a, a->pos);
    return c ? MPI_Send(arcoll_agv_block(a, a->pos), c, a->rtype, arcoll_agv_rank(a, 0), tag, comm)
             : MPI_SUCCESS;
  }
  MPI_Request *rq = malloc(sizeof *rq * (size_t)P);
  if (!rq) return MPI_ERR_NO_MEM;
  int n = 0, rc = MPI_SUCCESS;
  for (int q = 1; q < P && rc == MPI_SUCCESS; ++q) {
    const int c = arcoll_agv_count(a, q);
    if (c == 0) continue;
    /* one block of one position: its elements at its displacement */
    rc = MPI_Irecv(arcoll_agv_block(a, q), c, a->rtype, arcoll_agv_rank(a, q), tag, comm, &rq[n]);
    if (rc == MPI_SUCCESS) ++n;
  }
  const int wrc = MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
  free(rq);
  return rc != MPI_SUCCESS ? rc : wrc;
}

/* k-nomial broadcast of all P blocks from position 0: position v receives
 * from its parent (v minus its lowest nonzero radix-k digit), then sends
 * to v + j m (j = 1 .. k-1) for every level m below that digit, largest
 * subtrees first. */
static int bcast(arcoll_agv_t *a, int k, int tag, MPI_Comm comm) {
  const int P = a->P, v = a->pos;
  MPI_Datatype t;
  int rc = arcoll_agv_range_type(a, 0, P, &t);
  if (rc != MPI_SUCCESS) return rc;
  long m = 1;
  while (m < P && (v / m) % k == 0) m *= k; /* m: level of v's lowest nonzero digit (P: root) */
  if (v != 0)
    rc = MPI_Recv(a->rbuf, 1, t, arcoll_agv_rank(a, (int)(v - ((v / m) % k) * m)), tag, comm,
                  MPI_STATUS_IGNORE);
  enum { BATCH = 64 }; /* sends of a level in flight at once (any radix: in batches) */
  MPI_Request rq[BATCH];
  for (m /= k; m >= 1 && rc == MPI_SUCCESS; m /= k)
    for (long j = 1; j < k && v + j * m < P && rc == MPI_SUCCESS;) {
      int n = 0;
      for (; j < k && v + j * m < P && n < BATCH && rc == MPI_SUCCESS; ++j)
        if ((rc = MPI_Isend(a->rbuf, 1, t, arcoll_agv_rank(a, (int)(v + j * m)), tag, comm,
                            &rq[n])) == MPI_SUCCESS)
          ++n;
      const int wrc = MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
      if (rc == MPI_SUCCESS) rc = wrc;
    }
  MPI_Type_free(&t);
  return rc;
}

/* Linear gather, then the k-nomial broadcast. */
static int linear_knomial(arcoll_agv_t *a, int tag, MPI_Comm comm) {
  const int rc = gather(a, tag, comm);
  return rc == MPI_SUCCESS ? bcast(a, a->k >= 2 ? a->k : ARCOLL_KNOMIAL_RADIX, tag, comm) : rc;
}

int arcoll_allgatherv_linear_knomial(const void *sendbuf, MPI_Aint sendcount,
                                     MPI_Datatype sendtype, void *recvbuf,
                                     const MPI_Aint *recvcounts, const MPI_Aint *displs,
                                     MPI_Datatype recvtype, MPI_Comm comm,
                                     const arcoll_sched_t *s) {
  return arcoll_agv_call(linear_knomial, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                         recvtype, comm, s);
}
