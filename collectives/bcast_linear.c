/*
 * Linear (flat-tree) broadcast: the root sends every segment to each other
 * rank in order (arcoll_tree_flat, tree_extra.h) over the generic segmented
 * tree broadcast (bcast_tree.h).  One hop: the fastest for tiny messages
 * where sending costs the root little (SMPI's ompi selector picks its
 * equivalent at 8 B); cost formula: bcast.h.
 */
#include "bcast.h"
#include "bcast_etc_util.h"
#include "tree_extra.h"

int arcoll_bcast_linear(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                        MPI_Comm comm, const arcoll_sched_t *s) {
  return arcoll_bcast_along(arcoll_tree_flat, buf, count, datatype, root, comm, s);
}
