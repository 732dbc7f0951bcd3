/*
 * Pipelined binary-tree broadcast: arcoll_tree_binary (contiguous subtrees
 * over the schedule's order, tree_extra.h) + the generic segmented tree broadcast
 * (bcast_tree.h).  Cost formula and honoured schedule fields: bcast.h.
 */
#include "bcast.h"
#include "bcast_etc_util.h"
#include "tree_extra.h"

int arcoll_bcast_binary(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                        MPI_Comm comm, const arcoll_sched_t *s) {
  return arcoll_bcast_along(arcoll_tree_binary, buf, count, datatype, root, comm, s);
}
