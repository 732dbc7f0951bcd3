/* Allreduce as a binomial reduce to the first position then a k-nomial
 * broadcast from it (Open MPI's "nonoverlapping" allreduce).  See allreduce.h. */
#include <stddef.h>

#include "allreduce.h"
#include "bcast.h"
#include "reduce.h"
#include "reduce_util.h"

int arcoll_allreduce_reduce_bcast(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  const arcoll_sched_t *s) {
  /* Non-commutative ops: the order-preserving binomial reduce keeps rank 0
   * at its top, so rank 0 is the root; commutative ops: the order's first
   * position.  MPI_IN_PLACE (every rank) makes recvbuf the input of the
   * reduce on every rank, which arcoll_reduce_binomial reads as such. */
  const int *order = (s && s->order && arcoll_red_op_commutative(op)) ? s->order : NULL;
  const int root = order ? order[0] : 0;
  int rc = arcoll_reduce_binomial(sendbuf, recvbuf, count, datatype, op, root, comm, s);
  if (rc != MPI_SUCCESS) return rc;
  /* Same tag: every reduce message a rank receives from a peer is sent
   * before that peer can enter the broadcast (MPI keeps their order).  The
   * broadcast follows the order the reduce used (none: ranks from 0). */
  const arcoll_sched_t b = {order, 0, s ? s->k : 0, s ? s->tag : 0};
  return arcoll_bcast_knomial(recvbuf, count, datatype, root, comm, &b);
}
