/**
 * @file allgatherv.h
 * @brief MPI_Allgatherv algorithms on point-to-point (group allgather with
 *        per-rank block sizes and positions).
 *
 * Signature: MPI_Allgatherv's arguments with counts and displacements as
 * MPI_Aint arrays (recvcounts[r], displs[r]: elements of recvtype and
 * displacement in units of recvtype's extent of rank r's block, r in 0..P-1)
 * plus the schedule s (NULL: identity order, tag 0).  Rank r contributes
 * recvcounts[r] elements' worth of data (sendcount x sendtype with the same
 * type signature); block r of recvbuf receives it on every rank.  Counts may
 * be irregular and zero; blocks must not overlap (MPI's rule).
 * sendbuf == MPI_IN_PLACE: the caller's contribution is already in its block
 * (sendcount, sendtype ignored).  recvcounts / displs must be the same on
 * every rank (MPI's rule).
 *
 * Data movement: the caller's block copied into place, then every message
 * carries whole blocks straight from and into recvbuf, described by an
 * hindexed datatype over the blocks of a set of positions
 * (allgatherv_prep.h); nothing is packed.  Positions 0..P-1, order[pos] =
 * communicator rank (coll.h).  The ring, recursive-doubling and Bruck bodies
 * also serve allgather.h (its equal-counts case).
 *
 * Every message uses tag s->tag.  Return MPI_SUCCESS, the first error of an
 * MPI call, MPI_ERR_NO_MEM, MPI_ERR_ARG (s->order not a permutation) or
 * MPI_ERR_COUNT (a count above INT_MAX or negative, or sendcount above
 * INT_MAX).
 *
 * Costs (seconds): b_max = bytes of the largest block, M = total bytes of
 * all blocks, T(x) = t_s + x / B (model_allgatherv.c); each step is as slow
 * as its largest message, so the imbalance b_max / (M / P) scales the
 * bandwidth term of the step-synchronous algorithms.
 */
#ifndef ARCOLL_COLLECTIVES_ALLGATHERV_H
#define ARCOLL_COLLECTIVES_ALLGATHERV_H

#include <mpi.h>

#include "coll.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*arcoll_allgatherv_fn)(const void *sendbuf, MPI_Aint sendcount,
                                    MPI_Datatype sendtype, void *recvbuf,
                                    const MPI_Aint *recvcounts, const MPI_Aint *displs,
                                    MPI_Datatype recvtype, MPI_Comm comm,
                                    const arcoll_sched_t *s);

/** Steps of the direct algorithm posted at once (as alltoall.h's
 *  ARCOLL_ALLTOALL_THROTTLE: bounds the messages converging on one rank). */
#define ARCOLL_ALLGATHERV_DIRECT_WINDOW 32

/** Direct (SMPI's `default` allgatherv, MPICH's linear form): in windows of
 *  ARCOLL_ALLGATHERV_DIRECT_WINDOW steps, step i sends this position's own
 *  block to position pos + i and receives that of pos - i; every message
 *  of a window is in flight at once.  T = W T(0) + (P-1) X(b_max) (W =
 *  windows, X the link occupancy of one message: model_allgatherv.c).  The
 *  one-step algorithm for small blocks: SMPI flat P = 16, 128 B, it takes
 *  4.5 us against recursive doubling's 16.3.  Honours: order, tag. */
int arcoll_allgatherv_direct(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                             MPI_Datatype recvtype, MPI_Comm comm, const arcoll_sched_t *s);

/** Neighbor exchange (allgather.h: arcoll_allgather_neighbor_exchange)
 *  over irregular blocks: T = T(b_max) + (P/2 - 1) T(2 b_max) (bound).
 *  P odd: the ring.  Honours: order, tag. */
int arcoll_allgatherv_neighbor_exchange(const void *sendbuf, MPI_Aint sendcount,
                                        MPI_Datatype sendtype, void *recvbuf,
                                        const MPI_Aint *recvcounts, const MPI_Aint *displs,
                                        MPI_Datatype recvtype, MPI_Comm comm,
                                        const arcoll_sched_t *s);

/** Ring (Thakur, Rabenseifner, Gropp 2005; MPICH's allgatherv_intra_ring):
 *  P-1 steps; at step i position pos sends the block of position pos - i to
 *  pos + 1 and receives that of position pos - i - 1 from pos - 1.
 *  T = (P-1) T(b_max) (bound: some step carries the largest block).
 *  Honours: order, tag. */
int arcoll_allgatherv_ring(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                           MPI_Datatype recvtype, MPI_Comm comm, const arcoll_sched_t *s);

/** Recursive doubling for any P (Thakur, Rabenseifner, Gropp 2005; fold /
 *  unfold of the positions beyond the largest power of two P2, as
 *  allgather.h): step k swaps the blocks of a group of k positions (and their
 *  folded partners) with position v ^ k.
 *  T = sum_{k<P2} T(min(k (P/P2) b_max, M)) + [P != P2] (T(b_max) + T(M)).
 *  Honours: order, tag. */
int arcoll_allgatherv_recursive_doubling(const void *sendbuf, MPI_Aint sendcount,
                                         MPI_Datatype sendtype, void *recvbuf,
                                         const MPI_Aint *recvcounts, const MPI_Aint *displs,
                                         MPI_Datatype recvtype, MPI_Comm comm,
                                         const arcoll_sched_t *s);

/** Bruck (Bruck et al. 1997, radix 2): before step k position pos holds the
 *  blocks of positions pos .. pos + k - 1; it sends min(k, P-k) of them to
 *  pos - k and receives as many from pos + k, straight into place.
 *  T = sum_{k<P} T(min(min(k, P-k) b_max, M)).  Honours: order, tag. */
int arcoll_allgatherv_bruck(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                            MPI_Datatype recvtype, MPI_Comm comm, const arcoll_sched_t *s);

/** Gather + broadcast: binomial gather of the blocks to position 0 (each
 *  subtree's blocks in one message, a contiguous range of positions), then
 *  binomial broadcast of all P blocks as one block-set datatype, along the
 *  same order.  T = sum_{l<L} T(min(2^l b_max, M)) + L T(M), L = ceil(log2 P).
 *  Honours: order, tag. */
int arcoll_allgatherv_gather_bcast(const void *sendbuf, MPI_Aint sendcount,
                                   MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Aint *recvcounts, const MPI_Aint *displs,
                                   MPI_Datatype recvtype, MPI_Comm comm,
                                   const arcoll_sched_t *s);

/** Linear gather + k-nomial broadcast (Open MPI's small-message allgatherv,
 *  gatherv + bcast): position 0 receives every block at once, then a radix-k
 *  broadcast (k = s->k, below 2: ARCOLL_KNOMIAL_RADIX) of all P blocks as
 *  one block-set datatype.  T = T(b_max) + (P-2) g(b_max) +
 *  ceil(log_k P) (T(M) + (k-2) g(M)), g the gap per message.
 *  Honours: order, tag, k. */
int arcoll_allgatherv_linear_knomial(const void *sendbuf, MPI_Aint sendcount,
                                     MPI_Datatype sendtype, void *recvbuf,
                                     const MPI_Aint *recvcounts, const MPI_Aint *displs,
                                     MPI_Datatype recvtype, MPI_Comm comm,
                                     const arcoll_sched_t *s);

/** Table: allgatherv {ring, neighbor_exchange, recursive_doubling, bruck, gather_bcast,
 *  direct, linear_knomial}. */
extern const arcoll_algo_desc_t arcoll_allgatherv_algorithms[];
extern const int arcoll_allgatherv_nalgorithms;

#ifdef __cplusplus
}
#endif
#endif
