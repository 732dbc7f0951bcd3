/**
 * @file bcast_etc_util.h
 * @brief Helpers shared by the bcast / gather / scatter / alltoall / barrier
 *        algorithms (group bcast_etc): rank orders, block partitions, local
 *        copies and packed-byte buffers.
 *
 * Positions: an algorithm works over positions 0..P-1; `order[pos]` is the
 * communicator rank at position `pos` (coll.h, arcoll_sched_t::order).
 * Sizes are in bytes, counts in elements.
 */
#ifndef ARCOLL_COLLECTIVES_BCAST_ETC_UTIL_H
#define ARCOLL_COLLECTIVES_BCAST_ETC_UTIL_H

#include <mpi.h>

#include "coll.h"
#include "tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Resolve the rank order of a schedule for a collective over `comm`.
 * Allocates *order_out (P ints, free() it): a copy of s->order when set, else
 * the rotation position -> (root + pos) % P (root = 0 for unrooted
 * collectives).  Checks that the order is a permutation of 0..P-1 with
 * order[0] == root and sets *pos_out to the caller's position.
 * @return MPI_SUCCESS, MPI_ERR_ARG (s->order not a permutation or
 *         s->order[0] != root), MPI_ERR_NO_MEM, or an MPI_Comm_* error.
 */
int arcoll_order_resolve(const arcoll_sched_t *s, int root, MPI_Comm comm, int **order_out,
                         int *pos_out, int *P_out);

/**
 * Prologue of the broadcasts that resolve an order themselves (k-segment,
 * nEBST, two-tree): *type_size = the datatype's size in bytes and, when there
 * is something to move (count > 0, type size > 0, P > 1), the order
 * (arcoll_order_resolve(): *order_out, free() it, *pos_out, *P_out).
 * *order_out == NULL with MPI_SUCCESS: nothing to do.
 * @return MPI_SUCCESS, or an error of MPI_Type_size / arcoll_order_resolve().
 */
int arcoll_bcast_begin(const arcoll_sched_t *s, int root, MPI_Comm comm, MPI_Aint count,
                       MPI_Datatype datatype, int *type_size, int **order_out, int *pos_out,
                       int *P_out);

/**
 * Prologue of the binomial gather and scatter (gather.h): the bytes of one
 * block, *bb = count x type size of this rank's side (root_count, root_type
 * at the root; count, type elsewhere; equal by MPI's type-signature rule),
 * and, when *bb > 0 and the packed subtree buffers fit an int (bb x P <=
 * INT_MAX and the count too), the order (arcoll_order_resolve(): *order_out,
 * free() it, *pos_out, *P_out).  *bb == 0: nothing to move (no order).
 * *use_linear = 1 (no order): too large for the packed buffers, run the
 * linear algorithm instead.
 * @return MPI_SUCCESS, or an error of MPI_Comm_rank / MPI_Type_size /
 *         arcoll_order_resolve().
 */
int arcoll_blocks_begin(const arcoll_sched_t *s, int root, MPI_Comm comm, MPI_Aint root_count,
                        MPI_Datatype root_type, MPI_Aint count, MPI_Datatype type, MPI_Aint *bb,
                        int **order_out, int *pos_out, int *P_out, int *use_linear);

/** First element of block i when `count` elements are cut in n near-equal
 *  blocks (the first count % n blocks get one more); 0 <= i <= n. */
MPI_Aint arcoll_block_start(MPI_Aint count, int n, int i);

/** Tag of a schedule (0 when s is NULL). */
static inline int arcoll_sched_tag(const arcoll_sched_t *s) { return s ? s->tag : 0; }

/**
 * Local copy of (src, scount, stype) into (dst, rcount, rtype) (the type
 * signatures must match, like a message) through MPI_Pack/MPI_Unpack.
 * A no-op when the byte size is 0.  Counts must fit in an int.
 * @return MPI_SUCCESS, MPI_ERR_NO_MEM, MPI_ERR_COUNT or an MPI error.
 */
int arcoll_local_copy(const void *src, MPI_Aint scount, MPI_Datatype stype, void *dst,
                      MPI_Aint rcount, MPI_Datatype rtype, MPI_Comm comm);

/**
 * Allocate a byte copy of the memory spanned by `count` elements of `dt` at
 * `buf` ((count - 1) * extent + true_extent bytes from buf + true_lb) and
 * return in *shifted the address that plays the role of `buf` in the copy.
 * Used for MPI_IN_PLACE (alltoall).  *raw is what to free().
 */
int arcoll_span_dup(const void *buf, MPI_Aint count, MPI_Datatype dt, void **raw,
                    void **shifted);

/** Builds one rank's view of a tree over an order (tree.h signature). */
typedef int (*arcoll_tree_builder)(const int *order, int P, int me, arcoll_tree_t *tree);

/**
 * Broadcast along the tree that `build` makes over the schedule's order,
 * with the generic segmented tree broadcast (bcast_tree.h), honouring
 * s->order, s->segment_bytes and s->tag.  Return values as bcast.h.
 */
int arcoll_bcast_along(arcoll_tree_builder build, void *buf, MPI_Aint count,
                       MPI_Datatype datatype, int root, MPI_Comm comm,
                       const arcoll_sched_t *s);

/** A tree builder with one integer parameter (radix, fan-out ...). */
typedef int (*arcoll_tree_builder_k)(const int *order, int P, int k, int me,
                                     arcoll_tree_t *tree);

/** arcoll_bcast_along for a builder with a parameter k. */
int arcoll_bcast_along_k(arcoll_tree_builder_k build, int k, void *buf, MPI_Aint count,
                         MPI_Datatype datatype, int root, MPI_Comm comm,
                         const arcoll_sched_t *s);

/** A tree builder with two integer parameters (late leaves and run length ...). */
typedef int (*arcoll_tree_builder_k2)(const int *order, int P, int k, int k2, int me,
                                      arcoll_tree_t *tree);

/** arcoll_bcast_along for a builder with parameters k and k2. */
int arcoll_bcast_along_k2(arcoll_tree_builder_k2 build, int k, int k2, void *buf, MPI_Aint count,
                          MPI_Datatype datatype, int root, MPI_Comm comm,
                          const arcoll_sched_t *s);

#ifdef __cplusplus
}
#endif
#endif
