/**
 * @file reduce_scatter_block.h
 * @brief MPI_Reduce_scatter_block algorithms on point-to-point (group
 *        reduce_scatter_block).
 *
 * Signature (coll.h convention): MPI_Reduce_scatter_block's arguments with
 * the count as MPI_Aint plus the schedule s (NULL: identity order, tag 0).
 * Every rank's input is P blocks of recvcount elements of datatype (block r
 * at r * recvcount * extent bytes); rank r receives in recvbuf the reduction
 * over all ranks of block r, in rank order x_0 op x_1 op ... op x_{P-1}
 * (MPI's order; the ops are associative).  sendbuf == MPI_IN_PLACE: the
 * input is taken from recvbuf (P blocks), the result overwrites its first
 * block.  recvcount 0 or a zero-size type: no communication.  Any datatype
 * and op that MPI_Reduce_local accepts; the commutative-only algorithms
 * (flag ARCOLL_ALGO_COMMUTATIVE_ONLY) are never selected for a
 * non-commutative op; pairwise keeps the rank order and serves every op.
 * Every message uses tag s->tag.  Return MPI_SUCCESS, the first error of an
 * MPI call, MPI_ERR_NO_MEM or MPI_ERR_ARG (s->order not a permutation).
 *
 * The algorithms are those of reduce_scatter.h with recvcounts = P copies
 * of recvcount (wrappers in reduce_scatter_block.c): one implementation.
 *
 * Costs (seconds; Thakur, Rabenseifner, Gropp 2005): m = bytes of one
 * block, M = P m, T(x) = t_s + x / B, gamma seconds per byte reduced.
 */
#ifndef ARCOLL_COLLECTIVES_REDUCE_SCATTER_BLOCK_H
#define ARCOLL_COLLECTIVES_REDUCE_SCATTER_BLOCK_H

#include <mpi.h>

#include "coll.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*arcoll_reduce_scatter_block_fn)(const void *sendbuf, void *recvbuf,
                                              MPI_Aint recvcount, MPI_Datatype datatype,
                                              MPI_Op op, MPI_Comm comm, const arcoll_sched_t *s);

/** Recursive halving (Thakur, Rabenseifner, Gropp 2005; commutative ops):
 *  P2 = largest power of two <= P; position q >= P2 first sends its whole
 *  input to q - P2, which reduces it (fold); the P2 positions then halve
 *  the vector log2 P2 times (far half first, partner pos ^ mask), the
 *  blocks of positions j and j + P2 travelling together; position j keeps
 *  its result and sends that of j + P2 to it (unfold).
 *  T = sum_{i=1..log2 P2} (T(M/2^i) + gamma M/2^i) + [P != P2] (T(M) +
 *  gamma M + T(m)).  Honours: order, tag. */
int arcoll_reduce_scatter_block_recursive_halving(const void *sendbuf, void *recvbuf,
                                                  MPI_Aint recvcount, MPI_Datatype datatype,
                                                  MPI_Op op, MPI_Comm comm,
                                                  const arcoll_sched_t *s);

/** Pairwise exchange (MPICH's reduce_scatter pairwise), order-preserving:
 *  P-1 steps; at step i position pos sends its block for position pos + i
 *  and receives the block for itself from pos - i; the received blocks come
 *  in descending position order, so they are folded from the left into two
 *  partial results (positions 0..pos and pos+1..P-1) combined at the end:
 *  correct for non-commutative ops (which use the identity order).
 *  T = (P-1) (T(m) + gamma m).  Honours: order (commutative ops), tag. */
int arcoll_reduce_scatter_block_pairwise(const void *sendbuf, void *recvbuf,
                                         MPI_Aint recvcount, MPI_Datatype datatype, MPI_Op op,
                                         MPI_Comm comm, const arcoll_sched_t *s);

/** Ring (commutative ops; the reduce-scatter half of the ring allreduce,
 *  Patarasuk and Yuan 2009): P-1 steps; at step i position pos sends the
 *  partial result of the block of position pos - 1 - i to pos + 1 and
 *  receives that of pos - 2 - i from pos - 1, adding its own block.
 *  T = (P-1) (T(m) + gamma m).  Honours: order, tag. */
int arcoll_reduce_scatter_block_ring(const void *sendbuf, void *recvbuf, MPI_Aint recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                     const arcoll_sched_t *s);

/** Recursive halving near first: reduce_scatter.h
 *  arcoll_reduce_scatter_recursive_halving_near with equal counts; the
 *  recursive_halving formula.  Commutative ops.  Honours: order, tag. */
int arcoll_reduce_scatter_block_recursive_halving_near(const void *sendbuf, void *recvbuf,
                                                       MPI_Aint recvcount, MPI_Datatype datatype,
                                                       MPI_Op op, MPI_Comm comm,
                                                       const arcoll_sched_t *s);

/** Reduce + scatter: reduce_scatter.h arcoll_reduce_scatter_reduce_scatterv
 *  with equal counts.  T = T_reduce_knomial(P m) + T_scatterv_binomial(m, P m).
 *  Honours: order, tag. */
int arcoll_reduce_scatter_block_reduce_scatterv(const void *sendbuf, void *recvbuf,
                                                MPI_Aint recvcount, MPI_Datatype datatype,
                                                MPI_Op op, MPI_Comm comm,
                                                const arcoll_sched_t *s);

/** Table: reduce_scatter_block {recursive_halving, recursive_halving_near, pairwise, ring,
 *  reduce_scatterv}. */
extern const arcoll_algo_desc_t arcoll_reduce_scatter_block_algorithms[];
extern const int arcoll_reduce_scatter_block_nalgorithms;

#ifdef __cplusplus
}
#endif
#endif
