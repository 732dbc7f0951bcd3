/*
 * k-nomial tree broadcast: arcoll_tree_knomial (tree_extra.h) over the
 * schedule's order + the generic segmented tree broadcast (bcast_tree.h).
 * Radix s->k (>= 2), default ARCOLL_KNOMIAL_RADIX.  Fewer levels than the
 * binomial tree (log_k P) for k-1 sends per level: the winner for small
 * messages when a level costs more than a send (hierarchical networks; SMPI's
 * ompi selector picks MVAPICH2's radix-4 knomial at P = 256).  Cost formula:
 * bcast.h.
 */
#include "bcast.h"
#include "bcast_etc_util.h"
#include "tree_extra.h"

int arcoll_bcast_knomial(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                         MPI_Comm comm, const arcoll_sched_t *s) {
  int k = s && s->k >= 2 ? s->k : ARCOLL_KNOMIAL_RADIX;
  return arcoll_bcast_along_k(arcoll_tree_knomial, k, buf, count, datatype, root, comm, s);
}
