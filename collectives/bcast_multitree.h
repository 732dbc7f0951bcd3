/**
 * @file bcast_multitree.h
 * @brief Segmented broadcast over several trees at once (group bcast_etc).
 *
 * The message is cut in segments of `seg_count` elements; segment s travels
 * down trees[s % ntrees], so the trees carry the message in parallel (nEBST:
 * seed 000_32450fa7292fe18a.txt; two-tree: Sanders, Speck, Träff 2009).
 * Every rank handles segments in increasing s: it waits for segment s from
 * its parent in tree s % ntrees, then forwards it (MPI_Isend) to that tree's
 * children; up to ARCOLL_BCAST_MULTITREE_WINDOW segments are in flight.  All
 * messages use one tag: a parent sends the segments of one child in
 * increasing s and the child posts its receives in increasing s, so MPI's
 * non-overtaking rule matches them; progress is deadlock-free because every
 * wait depends only on a smaller segment or on the same segment higher up a
 * tree.
 */
#ifndef ARCOLL_COLLECTIVES_BCAST_MULTITREE_H
#define ARCOLL_COLLECTIVES_BCAST_MULTITREE_H

#include <mpi.h>

#include "tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Segments in flight per rank. */
#define ARCOLL_BCAST_MULTITREE_WINDOW 8

/**
 * Broadcast `count` elements of `datatype` at `buf` from the common root of
 * `trees[0..ntrees)` (this rank's views, identical on all ranks, same root).
 * @param seg_count elements per segment (>= 1, <= INT_MAX); the last segment
 *                  may be shorter.
 * Precondition: same count and type size on all ranks (as bcast_tree.h).
 * @return MPI_SUCCESS, MPI_ERR_NO_MEM or the first error of an MPI call.
 */
int arcoll_bcast_multitree(void *buf, MPI_Aint count, MPI_Datatype datatype,
                           const arcoll_tree_t *trees, int ntrees, MPI_Aint seg_count,
                           int tag, MPI_Comm comm);

#ifdef __cplusplus
}
#endif
#endif
