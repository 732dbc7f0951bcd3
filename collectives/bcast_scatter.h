/**
 * @file bcast_scatter.h
 * @brief The binomial scatter phase shared by the scatter + allgather
 *        broadcasts (bcast_scatter_ring.c, bcast_scatter_rdb.c).
 */
#ifndef ARCOLL_COLLECTIVES_BCAST_SCATTER_H
#define ARCOLL_COLLECTIVES_BCAST_SCATTER_H

#include <mpi.h>

#include "bcast_etc_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/** State of a scatter + allgather broadcast after its scatter
 *  (arcoll_bcast_scatter_begin()). */
typedef struct arcoll_scatter_bcast {
  int *order;      /**< position -> rank (P ints, free() it); NULL: nothing left to do */
  int pos, P, tag; /**< the caller's position, communicator size, message tag */
  MPI_Aint extent; /**< the datatype's extent (bytes) */
} arcoll_scatter_bcast_t;

/**
 * Prologue and binomial scatter of the scatter + allgather broadcasts (van
 * de Geijn; bcast_scatter_ring.c, bcast_scatter_rdb.c).  Piece q = block q
 * of the P-block partition of `count` elements (arcoll_block_start())
 * belongs to position q; position p receives the pieces of its binomial
 * subtree [p, p + size(p)) (tree.h) from its parent in one message and
 * sends each child's subtree range on, largest first (blocking MPI_Send /
 * MPI_Recv, the schedule's tag).  Afterwards position p holds at least
 * piece p, and sb->order is set for the allgather.  sb->order == NULL on
 * return: nothing left to do - count or the type size is 0, or count >
 * INT_MAX (a subtree range may not fit one message: the whole broadcast
 * ran as arcoll_bcast_binomial() in INT_MAX-element segments) - or an
 * error.
 * @return MPI_SUCCESS, or the first error of MPI_Type_size /
 *         MPI_Type_get_extent / arcoll_order_resolve() / the scatter.
 */
int arcoll_bcast_scatter_begin(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                               MPI_Comm comm, const arcoll_sched_t *s, arcoll_scatter_bcast_t *sb);

#ifdef __cplusplus
}
#endif
#endif
