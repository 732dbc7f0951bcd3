/**
 * @file bcast_tree.h
 * @brief Generic segmented broadcast along any tree (arcoll_tree_t).
 *
 * Model: Open MPI ompi/mca/coll/base ompi_coll_base_bcast_intra_generic (a tree
 * object drives a segmented, pipelined broadcast).  Each non-root rank receives
 * every segment from its parent and forwards it to its children with
 * MPI_Isend; a window of ARCOLL_BCAST_TREE_WINDOW segments is kept in flight.
 *
 * Cost (seed 000_32450fa7292fe18a.txt, T_send(m) = t_s + m/B): one segment
 * (segment_bytes >= message) on a binomial tree costs (t_s + m/B) log2 P;
 * with k segments along a tree of depth d, roughly
 * (k + d - 1) * fanout * T_send(m/k).
 */
#ifndef ARCOLL_COLLECTIVES_BCAST_TREE_H
#define ARCOLL_COLLECTIVES_BCAST_TREE_H

#include <mpi.h>

#include "tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Segments in flight per rank (receives posted ahead / sends outstanding). */
#define ARCOLL_BCAST_TREE_WINDOW 8

/**
 * Segment length in whole elements for a segment size in bytes:
 * max(1, segment_bytes / type_size), capped at `count` and INT_MAX;
 * `count` when segment_bytes <= 0 (no segmentation).  type_size in bytes (> 0).
 */
MPI_Aint arcoll_segment_count(MPI_Aint segment_bytes, int type_size, MPI_Aint count);

/**
 * Broadcast `count` elements of `datatype` at `buf` from tree->root to every
 * rank of `tree`, on `comm` with point-to-point tag `tag`.
 *
 * @param buf           data (root: source; others: destination), addressed
 *                      like MPI_Bcast; element i lives at buf + i * extent.
 * @param count         elements (MPI_Aint: may exceed INT_MAX; every message
 *                      carries at most INT_MAX elements).
 * @param datatype      any committed datatype, derived and non-contiguous
 *                      included.  Precondition: every rank uses a datatype of
 *                      the same type size (bytes) and the same count, so that
 *                      segment boundaries coincide (callers that cannot
 *                      guarantee this broadcast MPI_BYTE, see adapt/).
 * @param tree          this rank's view; tree->rank must be the caller's rank
 *                      in `comm` and the tree identical on all ranks.
 * @param segment_bytes segment size in bytes, rounded down to whole elements
 *                      (at least one); <= 0 sends the message in one piece.
 * @param tag           tag for all messages; concurrent broadcasts on the
 *                      same communicator must use different tags.
 * @return MPI_SUCCESS or the first error code of an MPI call.  count == 0 or
 *         a zero-size datatype returns MPI_SUCCESS without communication.
 */
int arcoll_bcast_tree(void *buf, MPI_Aint count, MPI_Datatype datatype,
                      const arcoll_tree_t *tree, MPI_Aint segment_bytes, int tag,
                      MPI_Comm comm);

#ifdef __cplusplus
}
#endif
#endif
