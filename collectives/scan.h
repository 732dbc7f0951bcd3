/**
 * @file scan.h
 * @brief MPI_Scan / MPI_Exscan algorithms on point-to-point (group reduce_scan).
 *
 * All algorithms are order-preserving: rank i obtains
 * x_0 op x_1 op ... op x_i (Scan) or x_0 op ... op x_{i-1} (Exscan; rank 0's
 * recvbuf is left untouched, MPI leaves it undefined), correct for
 * non-commutative ops; s->order is ignored.  MPI_IN_PLACE is accepted on
 * every rank (input read from recvbuf).  count 0 returns at once.  Same
 * argument/return conventions as reduce.h; s may be NULL.
 *
 * Cost notation (seed 000_32450fa7292fe18a.txt): T_send(m) = t_s + m/B
 * (seconds, m in bytes), T_comp(m) = seconds to combine m bytes, M message
 * bytes, P ranks, k segments.
 */
#ifndef ARCOLL_COLLECTIVES_SCAN_H
#define ARCOLL_COLLECTIVES_SCAN_H

#include <mpi.h>

#include "coll.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*arcoll_scan_fn)(const void *sendbuf, void *recvbuf, MPI_Aint count,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              const arcoll_sched_t *s);

/** Linear chain 0 -> 1 -> ... -> P-1, whole message:
 *  seed 000: T = P (2 T_send(M) + T_comp(M)).  Honours: tag. */
int arcoll_scan_linear(const void *sendbuf, void *recvbuf, MPI_Aint count,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       const arcoll_sched_t *s);
int arcoll_exscan_linear(const void *sendbuf, void *recvbuf, MPI_Aint count,
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                         const arcoll_sched_t *s);

/** Pipelined chain: segments of s->segment_bytes (<= 0: one segment = linear)
 *  travel 0 -> ... -> P-1, each rank combining and forwarding segment j while
 *  segment j+1 arrives.  Seed 000: T = (k + P)(2 T_send(M/k) + T_comp(M/k))
 *  (the seed writes T_comp(M); per step only a segment is combined), "best
 *  on every machine".  Honours: segment_bytes, tag. */
int arcoll_scan_pipeline(const void *sendbuf, void *recvbuf, MPI_Aint count,
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                         const arcoll_sched_t *s);
int arcoll_exscan_pipeline(const void *sendbuf, void *recvbuf, MPI_Aint count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                           const arcoll_sched_t *s);

/** Pipelined in-order binary tree (tree_inorder.h; the one-tree scan of
 *  Sanders, Speck, Träff 2009, "Two-tree algorithms for full bandwidth
 *  broadcast, reduction and scan", section 4): segments of s->segment_bytes
 *  (<= 0: one segment) go up the tree (subtree reductions) and down it
 *  (prefixes of the ranks to the left) as two pipelines at once.  Depth
 *  D = floor(log2 P) + 1; an inner rank receives and sends 3 segments per
 *  segment, so T = 2 (D - 1) T_send(M/k) + (k - 1) 3 (M/k) / B (+ 3 T_comp
 *  per segment): fill grows with log P, not P as the chain's.  Exscan costs
 *  the same (no shift).  Flow control: 2 segments in flight per stream;
 *  a rank's up steps run at most 4 (floor(log2 P) + 1) segments ahead of
 *  its down steps.  Extra memory: 3 x 2 segments (+ M for exscan).
 *  Honours: segment_bytes, tag. */
#define ARCOLL_SCAN_TREE_WINDOW 2 /**< segments in flight per stream (scan_pipelined_tree.c) */
int arcoll_scan_pipelined_tree(const void *sendbuf, void *recvbuf, MPI_Aint count,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               const arcoll_sched_t *s);
int arcoll_exscan_pipelined_tree(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 const arcoll_sched_t *s);

/** Brent–Kung: up-sweep (reduction tree) then down-sweep, about
 *  2 log2 P - 1 steps: seed 000: T = (2 log P - 1)(T_send(M) + T_comp(M)).
 *  Exscan: the inclusive result is shifted one rank up (+1 T_send(M)).
 *  Honours: tag. */
int arcoll_scan_brent_kung(const void *sendbuf, void *recvbuf, MPI_Aint count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                           const arcoll_sched_t *s);
int arcoll_exscan_brent_kung(const void *sendbuf, void *recvbuf, MPI_Aint count,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                             const arcoll_sched_t *s);

/** sqrt(P) ("RootP"): groups of g consecutive ranks (g = s->k if > 0, else
 *  round(sqrt(P/2))), chain scan inside each group, chain over the groups'
 *  last ranks, then each group's prefix travels along the group (fix-up).
 *  About 2g + P/g steps, 2 sqrt(2P) at the default g; seed 000:
 *  T = 2 (sqrt(2P) - 3)(T_send(M) + T_comp(M)).  Exscan: shift (+1 step).
 *  Honours: k (group size), tag. */
int arcoll_scan_sqrtp(const void *sendbuf, void *recvbuf, MPI_Aint count,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                      const arcoll_sched_t *s);
int arcoll_exscan_sqrtp(const void *sendbuf, void *recvbuf, MPI_Aint count,
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                        const arcoll_sched_t *s);

/** Recursive doubling (MPICH's MPIR_Scan_intra_recursive_doubling /
 *  MPIR_Exscan_intra_recursive_doubling; Thakur et al. 2005):
 *  T = ceil(log2 P) (T_send(M) + 2 T_comp(M)).  Honours: tag. */
int arcoll_scan_recursive_doubling(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   const arcoll_sched_t *s);
int arcoll_exscan_recursive_doubling(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                     const arcoll_sched_t *s);

/** Direct: every rank sends x_me to every higher rank at once; rank j folds
 *  x_0 .. x_(j-1) in rank order (order-preserving).  One hop, P(P-1)/2
 *  messages (SMPI's scan__default, Open MPI's basic linear scan): the
 *  fastest for tiny messages at small P.  Cost: the last rank's link
 *  receives P-1 messages, T = T_send(M) + (P-2) X(M) + (P-1) T_comp(M); the
 *  model gives it no formula above P = 64 (too many concurrent messages:
 *  SMPI's own scan of 8 bytes at P = 256 did not finish simulating in 300 s),
 *  so auto never picks it there (forcing it is allowed).  count <= INT_MAX.
 *  Honours: tag. */
int arcoll_scan_direct(const void *sendbuf, void *recvbuf, MPI_Aint count,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       const arcoll_sched_t *s);
int arcoll_exscan_direct(const void *sendbuf, void *recvbuf, MPI_Aint count,
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                         const arcoll_sched_t *s);

/** Tables: "linear", "pipeline", "pipelined_tree", "brent_kung", "sqrtp", "recursive_doubling", "direct". */
extern const arcoll_algo_desc_t arcoll_scan_algorithms[];
extern const int arcoll_scan_nalgorithms;
extern const arcoll_algo_desc_t arcoll_exscan_algorithms[];
extern const int arcoll_exscan_nalgorithms;

#ifdef __cplusplus
}
#endif
#endif
