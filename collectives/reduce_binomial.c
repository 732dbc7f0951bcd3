/* Binomial-tree reduce (seed 000_32450fa7292fe18a.txt: T = log P (t_s + (1/B + t_op) M)):
 * the k-nomial reduce of reduce_knomial.c with radix 2; order-preserving for
 * non-commutative ops.  See reduce.h. */
#include "reduce.h"

int arcoll_reduce_binomial(const void *sendbuf, void *recvbuf, MPI_Aint count,
                           MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                           const arcoll_sched_t *s) {
  return arcoll_reduce_knomial_radix(sendbuf, recvbuf, count, datatype, op, root, comm, s, 2);
}
