/*
 * Pipelined chain broadcast: arcoll_tree_chain_runs (over the schedule's order, s->k
 * leaves, runs of s->run positions; k = 0, run <= 1: arcoll_tree_chain) + the generic
 * segmented tree broadcast (bcast_tree.h).  Cost formula and honoured
 * schedule fields: bcast.h (seed 000_32450fa7292fe18a.txt).
 */
#include "bcast.h"
#include "bcast_etc_util.h"
#include "tree_extra.h"

int arcoll_bcast_chain(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                       MPI_Comm comm, const arcoll_sched_t *s) {
  return arcoll_bcast_along_k2(arcoll_tree_chain_runs, s ? s->k : 0, s ? s->run : 0, buf, count,
                               datatype, root, comm, s);
}
