/**
 * @file allreduce.h
 * @brief MPI_Allreduce algorithms on point-to-point (group reduce_scan).
 *
 * Same conventions as reduce.h (no root; MPI_IN_PLACE on every rank; s may
 * be NULL).  Return MPI_SUCCESS, the first error of an MPI call,
 * MPI_ERR_NO_MEM, MPI_ERR_ARG for a bad s->order, MPI_ERR_OP when a
 * commutative-only algorithm gets a non-commutative op.
 * Cost notation (seconds): t_s, B (bytes/s), t_op (s/byte), M bytes, P ranks.
 */
#ifndef ARCOLL_COLLECTIVES_ALLREDUCE_H
#define ARCOLL_COLLECTIVES_ALLREDUCE_H

#include <mpi.h>

#include "coll.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*arcoll_allreduce_fn)(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   const arcoll_sched_t *s);

/**
 * Recursive doubling (Thakur, Rabenseifner, Gropp 2005; MPICH
 * MPIR_Allreduce_intra_recursive_doubling): T = log2(P') (t_s + M/B + t_op M)
 * with P' = 2^floor(log2 P); non-power-of-two P adds 2 T_send(M) + t_op M
 * (the first 2r ranks fold: even rank -> odd rank, then the odd rank returns
 * the result).  Correct for non-commutative ops (operands combined in rank
 * order; the order is then ignored).  Honours: order (commutative only), tag.
 */
int arcoll_allreduce_recursive_doubling(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                        const arcoll_sched_t *s);

/**
 * Rabenseifner: reduce-scatter by recursive halving + allgather by recursive
 * doubling (Rabenseifner 2004; Thakur et al. 2005):
 * T = 2 log2(P') t_s + 2 (P'-1)/P' M/B + (P'-1)/P' t_op M, plus the
 * non-power-of-two fold as in recursive doubling.  Commutative ops only.
 * Honours: order, tag.  Dimension order near first (MPICH's and Open MPI's):
 * the M/2 exchanges between neighbouring positions, the M/P' ones between
 * the farthest (reduce_scatter_halving.h); the allgather undoes the steps in
 * reverse.
 */
int arcoll_allreduce_rabenseifner(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  const arcoll_sched_t *s);

/**
 * arcoll_allreduce_rabenseifner with the dimension order far first (the M/2
 * exchanges between positions P'/2 apart).  Same cost on a flat network;
 * faster when far positions share a node (round-robin placement).
 */
int arcoll_allreduce_rabenseifner_far(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                      const arcoll_sched_t *s);

/**
 * Ring: reduce-scatter ring then allgather ring over the positions of
 * s->order, P-1 steps each: T = 2 (P-1) (t_s + M/(P B)) + (P-1)/P t_op M
 * (Thakur et al. 2005; Patarasuk & Yuan 2009).  Segmented like Open MPI's
 * ring_segmented: with s->segment_bytes > 0 the message is processed in
 * phases of P segments (each block one segment).  Commutative ops only.
 * Honours: order, segment_bytes, tag.
 */
int arcoll_allreduce_ring(const void *sendbuf, void *recvbuf, MPI_Aint count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                          const arcoll_sched_t *s);

/**
 * Binomial reduce to one rank, then a k-nomial broadcast from it (Open MPI's
 * "nonoverlapping" allreduce, coll_tuned algorithm 1):
 * T = T_reduce_binomial(M) + T_bcast_knomial(M) (reduce.h, bcast.h), about
 * twice recursive doubling's log2 P steps on a flat network; on an
 * oversubscribed tree only one message per subtree crosses an uplink per
 * step, where recursive doubling sends one per rank (tree platform, P = 256,
 * 64 B: bench/notes/smpi-collectives-results.md).  Root: the order's first
 * position for commutative
 * ops, else rank 0 (the order-preserving reduce keeps rank 0 at its top).
 * Any op (non-commutative ones combined in rank order).  Unsegmented.
 * Honours: order (commutative only), k (the broadcast's radix; 0 =
 * ARCOLL_KNOMIAL_RADIX), tag.
 */
int arcoll_allreduce_reduce_bcast(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  const arcoll_sched_t *s);

/** Table: "recursive_doubling", "rabenseifner", "rabenseifner_far", "ring",
 *  "reduce_bcast". */
extern const arcoll_algo_desc_t arcoll_allreduce_algorithms[];
extern const int arcoll_allreduce_nalgorithms;

#ifdef __cplusplus
}
#endif
#endif
