/*
 * Pipelined chain broadcast: arcoll_tree_chain_leaves (over the schedule's order, s->k
 * leaves; k = 0: arcoll_tree_chain) + the generic
 * segmented tree broadcast (bcast_tree.h).  Cost formula and honoured
 * schedule fields: bcast.h (seed 000_32450fa7292fe18a.txt).
 */
#include "bcast.h"
#include "bcast_etc_util.h"
#include "tree_extra.h"

int arcoll_bcast_chain(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                       MPI_Comm comm, const arcoll_sched_t *s) {
  return arcoll_bcast_along_k(arcoll_tree_chain_leaves, s ? s->k : 0, buf, count, datatype, root,
                              comm, s);
}
