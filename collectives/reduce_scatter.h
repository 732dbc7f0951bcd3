/**
 * @file reduce_scatter.h
 * @brief MPI_Reduce_scatter algorithms on point-to-point (group
 *        reduce_scatter; reduce_scatter_block.h is their equal-counts case).
 *
 * Signature (coll.h convention): MPI_Reduce_scatter's arguments with the
 * counts as an MPI_Aint array (recvcounts[r] >= 0, elements of datatype of
 * rank r's block, the same array on every rank, zeros allowed) plus the
 * schedule s (NULL: identity order, tag 0).  Every rank's input is the P
 * blocks one after the other (block r at (recvcounts[0] + ... +
 * recvcounts[r-1]) x extent bytes); rank r receives in recvbuf
 * (recvcounts[r] elements) the reduction over all ranks of block r, in rank
 * order x_0 op x_1 op ... op x_{P-1} (MPI's order; the ops are associative).
 * sendbuf == MPI_IN_PLACE: the input is taken from recvbuf (all P blocks),
 * the result overwrites its first recvcounts[r] elements.  All counts 0 or a
 * zero-size type: no communication.  Any datatype and op that
 * MPI_Reduce_local accepts; the commutative-only algorithms (flag
 * ARCOLL_ALGO_COMMUTATIVE_ONLY) are never selected for a non-commutative op;
 * pairwise keeps the rank order and serves every op.  Every message uses
 * tag s->tag.  Return MPI_SUCCESS, the first error of an MPI call,
 * MPI_ERR_NO_MEM or MPI_ERR_ARG (s->order not a permutation).
 *
 * Costs (seconds; Thakur, Rabenseifner, Gropp 2005; model_reduce_scatter.c):
 * b = bytes of the largest block, M = bytes of all P blocks (M <= P b),
 * T(x) = t_s + x / B, gamma seconds per byte reduced.  Each step of the
 * step-synchronous algorithms waits for the largest block in flight, so the
 * imbalance b / (M / P) scales their bandwidth term.
 */
#ifndef ARCOLL_COLLECTIVES_REDUCE_SCATTER_H
#define ARCOLL_COLLECTIVES_REDUCE_SCATTER_H

#include <mpi.h>

#include "coll.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*arcoll_reduce_scatter_fn)(const void *sendbuf, void *recvbuf,
                                        const MPI_Aint recvcounts[], MPI_Datatype datatype,
                                        MPI_Op op, MPI_Comm comm, const arcoll_sched_t *s);

/** Recursive halving (Thakur, Rabenseifner, Gropp 2005; commutative ops):
 *  P2 = largest power of two <= P; position q >= P2 first sends its whole
 *  input to q - P2, which reduces it (fold); the P2 positions then halve
 *  the vector log2 P2 times (far half first, partner pos ^ mask), the
 *  blocks of positions j and j + P2 travelling together (a super-block;
 *  halves are cut at super-block boundaries, so uneven counts give uneven
 *  halves); position j keeps its result and sends that of j + P2 to it
 *  (unfold).  T = sum_{i=1..log2 P2} (T(x_i) + gamma x_i) + [P != P2]
 *  (T(M) + gamma M + T(b)), x_i = min(M, (P/2^i) b).  Honours: order, tag. */
int arcoll_reduce_scatter_recursive_halving(const void *sendbuf, void *recvbuf,
                                            const MPI_Aint recvcounts[], MPI_Datatype datatype,
                                            MPI_Op op, MPI_Comm comm, const arcoll_sched_t *s);

/** Recursive halving, near-first dimension order (partner pos ^ 1 first,
 *  the M/2 exchange between neighbours, M/P2 between the farthest; Open
 *  MPI's butterfly order): the same steps and cost on a flat network; the
 *  super-blocks laid out in bit-reversed order so that every step still
 *  keeps a contiguous half and member j ends with its own.  Where ranks
 *  placed in order share a leaf switch only the small exchanges cross the
 *  uplinks (SMPI tree platform, P = 64, 4 KiB of blocks: SMPI's
 *  ompi_butterfly 114 us, far first 891 us).  Commutative ops.  Honours:
 *  order, tag. */
int arcoll_reduce_scatter_recursive_halving_near(const void *sendbuf, void *recvbuf,
                                                 const MPI_Aint recvcounts[],
                                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                                 const arcoll_sched_t *s);

/** Pairwise exchange (MPICH's reduce_scatter pairwise), order-preserving:
 *  P-1 steps; at step i position pos sends its block for position pos + i
 *  and receives the block for itself from pos - i; the received blocks come
 *  in descending position order, so they are folded from the left into two
 *  partial results (positions 0..pos and pos+1..P-1) combined at the end:
 *  correct for non-commutative ops (which use the identity order).
 *  T = (P-1) (T(b) + gamma b).  Honours: order (commutative ops), tag. */
int arcoll_reduce_scatter_pairwise(const void *sendbuf, void *recvbuf,
                                   const MPI_Aint recvcounts[], MPI_Datatype datatype, MPI_Op op,
                                   MPI_Comm comm, const arcoll_sched_t *s);

/** Ring (commutative ops; the reduce-scatter half of the ring allreduce,
 *  Patarasuk and Yuan 2009): P-1 steps; at step i position pos sends the
 *  partial result of the block of position pos - 1 - i to pos + 1 and
 *  receives that of pos - 2 - i from pos - 1, adding its own block.
 *  T = (P-1) (T(b) + gamma b).  Honours: order, tag. */
int arcoll_reduce_scatter_ring(const void *sendbuf, void *recvbuf, const MPI_Aint recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               const arcoll_sched_t *s);

/** Reduce + scatterv (the composition MPI defines reduce_scatter by; Open
 *  MPI's default for non-commutative ops, SMPI's "default"): the k-nomial
 *  reduce (reduce.h) of all M bytes to the rank at position 0, then its
 *  binomial scatterv (gatherv.h) of the blocks; every op (the reduce keeps
 *  the rank order for non-commutative ones).  Moves M over a tree's links
 *  instead of the halving's (P-1)/P M per rank in log2 P rounds between
 *  far positions: where links between groups of ranks are narrow it is the
 *  fast one (SMPI tree platform, P = 64, 4 KiB of blocks: SMPI's ompi
 *  selector's reduce + scatter 111 us, our recursive halving 891 us, ring
 *  578 us).  T = T_reduce_knomial(M) + T_scatterv_binomial(b, M).  Extra
 *  memory: M at the root.  Honours: order, tag. */
int arcoll_reduce_scatter_reduce_scatterv(const void *sendbuf, void *recvbuf,
                                          const MPI_Aint recvcounts[], MPI_Datatype datatype,
                                          MPI_Op op, MPI_Comm comm, const arcoll_sched_t *s);

/** Table: reduce_scatter {recursive_halving, recursive_halving_near, pairwise, ring,
 *  reduce_scatterv}. */
extern const arcoll_algo_desc_t arcoll_reduce_scatter_algorithms[];
extern const int arcoll_reduce_scatter_nalgorithms;

#ifdef __cplusplus
}
#endif
#endif
