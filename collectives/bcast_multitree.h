/**
 * @file bcast_multitree.h
 * @brief Segmented broadcast over several trees at once (group bcast_etc).
 *
 * The message is cut in segments of `seg_count` elements; segment s travels
 * down trees[s % ntrees], so the trees carry the message in parallel (nEBST:
 * seed 000_32450fa7292fe18a.txt; two-tree: Sanders, Speck, Träff 2009).
 * The trees progress independently: a rank forwards a segment of tree t
 * (MPI_Isend to t's children) as soon as it has it and t's send slot for it
 * is free, in increasing order within the tree, with up to
 * ARCOLL_BCAST_MULTITREE_WINDOW receives posted and sends in flight per tree.
 * Progress is one MPI_Waitany over every tree's next receive and the sends
 * of the slots that received segments wait for: a blocked send slot of one
 * tree never stops the rank's other trees.  Blocking on a tree's send slot
 * instead deadlocks when sends need a posted receive (MPICH/UCX at 16 KiB:
 * rank A waits for a tree-0 send to B, whose receive B posts only after
 * forwarding an earlier tree-0 segment, while B waits the same way for a
 * tree-1 send to A; found at P = 3, 4 MiB, 16 KiB segments, test
 * collectives.bcast_etc.rendezvous.np3).  Posting every receive up front
 * also avoids it but lets all segments flow at once (two-tree P = 256,
 * 2 MiB: 2.41 -> 12.4 ms simulated).
 * Waiting for the segments in global order instead couples the trees: on the
 * two-tree at P = 4 the two inner ranks then forward alternately (each waits
 * for the other's previous segment), measured 2.5x slower than M/B under
 * SMPI.  Tree t's messages carry tag + ARCOLL_BCAST_MULTITREE_TAG_STRIDE t,
 * so two trees sharing an edge (parent, child) cannot mismatch; within a tree
 * a parent sends in increasing segment order and the child posts its receives
 * in that order (MPI non-overtaking).
 */
#ifndef ARCOLL_COLLECTIVES_BCAST_MULTITREE_H
#define ARCOLL_COLLECTIVES_BCAST_MULTITREE_H

#include <mpi.h>

#include "tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Segments in flight per rank and tree. */
#define ARCOLL_BCAST_MULTITREE_WINDOW 8

/** Tag distance between the trees' messages (tree t: tag + t x this). */
#define ARCOLL_BCAST_MULTITREE_TAG_STRIDE 1000

/**
 * Broadcast `count` elements of `datatype` at `buf` from the common root of
 * `trees[0..ntrees)` (this rank's views, identical on all ranks, same root).
 * @param seg_count elements per segment (>= 1, <= INT_MAX); the last segment
 *                  may be shorter.
 * Precondition: same count and type size on all ranks (as bcast_tree.h).
 * @param tag       tag of tree 0; tag + ARCOLL_BCAST_MULTITREE_TAG_STRIDE (ntrees-1)
 *                  must stay <= 32767 (the smallest MPI_TAG_UB MPI allows).
 * @return MPI_SUCCESS, MPI_ERR_TAG (tag range above), MPI_ERR_NO_MEM or the
 *         first error of an MPI call.
 */
int arcoll_bcast_multitree(void *buf, MPI_Aint count, MPI_Datatype datatype,
                           const arcoll_tree_t *trees, int ntrees, MPI_Aint seg_count,
                           int tag, MPI_Comm comm);

#ifdef __cplusplus
}
#endif
#endif
