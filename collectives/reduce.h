/**
 * @file reduce.h
 * @brief MPI_Reduce algorithms on point-to-point (group reduce_scan).
 *
 * Signature (coll.h convention): MPI_Reduce's arguments with the count as
 * MPI_Aint, plus the schedule.  MPI semantics: MPI_IN_PLACE as sendbuf at the
 * root (input in recvbuf), count 0, any root, derived datatypes (temporaries
 * honour the true extent), built-in and user-defined ops.  Arguments are
 * assumed valid (the caller delegates invalid ones to PMPI_Reduce).  Every
 * message of one call uses tag s->tag (s may be NULL: identity order, one
 * segment, tag 0).  Return MPI_SUCCESS, the first error of an MPI call,
 * MPI_ERR_NO_MEM, MPI_ERR_ARG for a bad s->order, or MPI_ERR_OP when a
 * commutative-only algorithm is handed a non-commutative op.
 *
 * Cost notation (seconds): t_s start-up, B bandwidth (bytes/s), t_op seconds
 * per byte combined, M message bytes, P ranks, k segments.
 */
#ifndef ARCOLL_COLLECTIVES_REDUCE_H
#define ARCOLL_COLLECTIVES_REDUCE_H

#include <mpi.h>

#include "coll.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Binomial reduce: bytes of child buffers up to which every child's receive
 *  is posted at once (else two at a time); see reduce_binomial.c. */
#define ARCOLL_REDUCE_PREPOST_BYTES (1 << 20)

typedef int (*arcoll_reduce_fn)(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                                const arcoll_sched_t *s);

/**
 * Binomial-tree reduce.  Seed 000_32450fa7292fe18a.txt:
 * T = log2(P) (t_s + (1/B + t_op) M).  Commutative ops: tree over the
 * positions of s->order (root first; NULL = ranks relative to the root).
 * Non-commutative ops: order-preserving variant (tree over ranks 0..P-1, each
 * parent combines its lower block with the child's higher block, as MPICH's
 * MPIR_Reduce_intra_binomial), then rank 0 sends the result to the root (+1
 * T_send(M) when root != 0).  Honours: order and detached (commutative
 * only: a detached position sends its subtree's result to the root, which
 * receives those after its tree children; coll.h), tag.
 * Receives: all children's posted at once when their buffers take at most
 * ARCOLL_REDUCE_PREPOST_BYTES bytes, else two at a time.
 */
int arcoll_reduce_binomial(const void *sendbuf, void *recvbuf, MPI_Aint count,
                           MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                           const arcoll_sched_t *s);

/**
 * Segmented reduction: reduce-scatter by recursive halving, then binomial
 * gather of the P' = 2^floor(log2 P) blocks to the root, the gather undoing
 * the halving steps in reverse (Rabenseifner 2004;
 * seed 000_32450fa7292fe18a.txt "reduction of segmented message":
 * T = 4 t_s log2 P + (4/B + t_op) M (P-1)/P).  Non-power-of-two P: the first
 * 2r positions (r = P - P') fold pairwise (odd position sends its vector to
 * the even one, + T_send(M) + t_op M), as MPICH's
 * MPIR_Reduce_intra_reduce_scatter_gather.  Positions: s->order's (the
 * root first) when given, else the ranks' own with the root anywhere (a
 * folded pair keeps the root; the gather's direction at each step is the
 * root's bit), so the pairs are the same whatever the root, as MPICH's:
 * consecutive calls with rotating roots then overlap as with one root
 * (SMPI flat P = 64, 32 KiB, root c mod P at call c, 200 calls: positions
 * from the root cost 1.15x MPICH's selector under auto, now 1.00x;
 * bench/notes/adaptive-layer-rotating-root.md).  Commutative ops only
 * (MPI_ERR_OP otherwise).  Honours: order, tag.  Dimension order near first
 * (MPICH's): the M/2 exchange between neighbouring positions, the M/P'
 * exchanges between the farthest (reduce_scatter_halving.h).
 */
int arcoll_reduce_rsag(const void *sendbuf, void *recvbuf, MPI_Aint count,
                       MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                       const arcoll_sched_t *s);

/**
 * arcoll_reduce_rsag with the dimension order far first: the M/2 exchange
 * between positions P'/2 apart.  Same cost on a flat network; faster when
 * far positions share a node (ranks placed round-robin over nodes).
 */
int arcoll_reduce_rsag_far(const void *sendbuf, void *recvbuf, MPI_Aint count,
                           MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                           const arcoll_sched_t *s);

/**
 * Pipelined chain reduce: the message is cut in k segments of
 * s->segment_bytes (<= 0: one segment); segment j flows from the last
 * position to position 0 (the root), each rank combining its own block.
 * Model (seed 000_32450fa7292fe18a.txt pipelined-chain form, with the
 * combine added): T = (k + P - 2) (2 T_send(M/k) + t_op M/k),
 * T_send(m) = t_s + m/B.  Non-commutative ops: the chain runs over ranks
 * P-1 -> ... -> 0 (each rank computes x_i op (x_{i+1} op ...)), then rank 0
 * forwards each finished segment to the root if root != 0.  Honours: order
 * (commutative only), segment_bytes, tag.
 */
int arcoll_reduce_chain(const void *sendbuf, void *recvbuf, MPI_Aint count,
                        MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                        const arcoll_sched_t *s);

/**
 * k-nomial tree reduce (MVAPICH2's knomial reduce; SMPI `mvapich2_knomial`):
 * the binomial reduce with radix k = s->k (>= 2; 0 = ARCOLL_KNOMIAL_RADIX,
 * 4): position p receives from p + j u, j = 1 .. k-1, at every level
 * u = 1, k, k^2, ... with p mod (u k) == 0, nearest first, then sends to
 * p - p mod (u k).  ceil(log_k P) levels of up to k-1 receives (posted at
 * once under the binomial's window rule) instead of log2 P levels of one:
 * fewer ranks wait for a subtree (a (k-1)/k share of them are leaves), which
 * is what counts when ranks arrive at different times (SMPI flat P = 64,
 * 200 calls of 8 B with 0-200 us of noise before each: time inside summed
 * over ranks 0.032 s for mvapich2_knomial against 0.080 s for SMPI's binomial
 * and 0.120 s for MPICH's selection).  Model: T = D ((k-1) T_send(M) +
 * (k-1) t_op M) on the critical path, D = ceil(log_k P) (model.c).
 * k >= P is the flat tree (every rank sends to the root): only the root
 * waits for a late rank, but the selection does not rank it (select.c:
 * every message crosses the root's link at once).
 * Non-commutative ops: the tree over ranks 0..P-1 (children's ranges follow
 * the parent's, combined acc op child), then rank 0 sends to the root.
 * Honours: order and detached (commutative only, as the binomial reduce), k, tag;
 * red_detach (commutative ops, no detached set): the body of
 * reduce_knomial_detach.c, whose late ranks are detached by their parent
 * (reduce_detach.h; the binomial reduce too, k = 2).
 */
int arcoll_reduce_knomial(const void *sendbuf, void *recvbuf, MPI_Aint count,
                          MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                          const arcoll_sched_t *s);
/** arcoll_reduce_knomial with an explicit radix k >= 2 (MPI_ERR_ARG below);
 *  arcoll_reduce_binomial is k = 2. */
int arcoll_reduce_knomial_radix(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                                const arcoll_sched_t *s, int k);
/** Table of the reduce algorithms: "binomial", "rsag", "rsag_far", "chain", "knomial". */
extern const arcoll_algo_desc_t arcoll_reduce_algorithms[];
extern const int arcoll_reduce_nalgorithms;

#ifdef __cplusplus
}
#endif
#endif
