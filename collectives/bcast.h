/**
 * @file bcast.h
 * @brief MPI_Bcast algorithms on point-to-point (group bcast_etc).
 *
 * Signature (coll.h convention): MPI_Bcast's arguments with the count as
 * MPI_Aint, plus the schedule s (NULL: ranks in the order root, root+1, ...;
 * one segment; algorithm default parameter; tag 0).  Semantics: any root,
 * count 0 (no communication), derived and non-contiguous datatypes (sent in
 * place, never packed: segment and piece boundaries are whole elements).
 * Precondition, as bcast_tree.h: all ranks pass the same count and a datatype
 * of the same type size (callers that cannot guarantee it broadcast bytes).
 * Every message of one call uses tag s->tag.  Return MPI_SUCCESS, the first
 * error of an MPI call, MPI_ERR_NO_MEM, or MPI_ERR_ARG when s->order is not
 * a permutation with s->order[0] == root.
 *
 * Cost notation (seed 000_32450fa7292fe18a.txt): T_send(m) = t_s + m/B with
 * t_s the start-up time in seconds, B the bandwidth in bytes/second and m
 * bytes; M the message size in bytes, P ranks, k pieces/segments.
 */
#ifndef ARCOLL_COLLECTIVES_BCAST_H
#define ARCOLL_COLLECTIVES_BCAST_H

#include <mpi.h>

#include "coll.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*arcoll_bcast_fn)(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                               MPI_Comm comm, const arcoll_sched_t *s);

/**
 * Binomial tree (collectives/tree.h + bcast_tree.h): T = log2(P) T_send(M)
 * (seed 000); with k segments about (k + log2 P - 1) T_send(M/k) per child.
 * Honours: order, segment_bytes, tag.
 */
int arcoll_bcast_binomial(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                          MPI_Comm comm, const arcoll_sched_t *s);

/**
 * Pipelined chain: order[0] -> order[1] -> ... -> order[P-1], segments of
 * s->segment_bytes (<= 0: one segment).  Seed 000:
 * T = (k + P - 2) * 2 T_send(M/k), optimum k = sqrt((P-2) M / (B t_s)), i.e.
 * segment_bytes = M / k (the caller picks it from the model).
 * s->k > 0 (k >= P: P - 1): the last k positions are leaves of the chain, each
 * served by the chain rank nearest below it in rank numbers after that rank
 * forwarded (tree_extra.h arcoll_tree_chain_runs: the late ranks of a
 * streaming bcast, adapt/late_order.c); the online selection and a forced
 * chain pass k = 0.  k < 0: MPI_ERR_ARG.  s->run > 1: the chain positions
 * are cut into runs, positions in a row whose ranks share a block of s->run
 * rank numbers, each run's first rank fed by the previous run's first rank
 * (tree_extra.h arcoll_tree_chain_runs: about P / run + run hops; the default late-rank order of a streaming bcast on a
 * network where binomial beat the binary tree, adapt/late_chain.h).
 * Honours: order, segment_bytes, k, run, tag.
 */
int arcoll_bcast_chain(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                       MPI_Comm comm, const arcoll_sched_t *s);

/**
 * 2-path pipeline (seed 000): the chain is split in two halves (positions
 * 1..ceil((P-1)/2) and the rest), both fed by the root, which alternates
 * between the two heads segment by segment.
 * T = (k + P/2 - 2) * 2 T_send(M/k).  Honours: order, segment_bytes, tag.
 */
int arcoll_bcast_twopath(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                         MPI_Comm comm, const arcoll_sched_t *s);

/**
 * k-segment broadcast (seed 000): the positions are cut in k groups
 * (contiguous position blocks); the root (head of group 0) cuts the message
 * in k pieces and sends piece g to the head of group g (scatter, k-1 sends);
 * the heads then circulate the pieces around a ring (k-1 send-receive steps)
 * and every head forwards each piece down the chain of its group as soon as
 * it has it.  T = (3k + P/k - 4) T_send(M/k); minimum at k = P/2 (default:
 * s->k <= 0 gives k = max(1, P/2); k is capped at P and at count).
 * Honours: order, k, tag (pieces are the segments; segment_bytes ignored).
 */
int arcoll_bcast_ksegment(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                          MPI_Comm comm, const arcoll_sched_t *s);

/**
 * Edge-disjoint binomial trees, nEBST (seed 000): the message travels in
 * n = ceil(log2 P) pieces (s->k > 0 overrides n), piece j down binomial tree
 * j, the binomial tree over the order with the non-root positions rotated by
 * j (P-1)/n, so that the trees have different inner ranks and the pieces
 * move in parallel.  Seed 000 cost: 3 log P (t_s + M/(B log P)).  Departure:
 * the exact edge-disjoint spanning binomial trees of Johnsson & Ho (1989)
 * exist only on hypercubes; rotated binomial trees share some edges.
 * segment_bytes <= 0: one piece per tree (M/n bytes); > 0: segments of that
 * size dealt round-robin over the trees.  Honours: order, k, segment_bytes, tag.
 */
int arcoll_bcast_nebst(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                       MPI_Comm comm, const arcoll_sched_t *s);

/**
 * Scatter + ring allgather (van de Geijn; Thakur, Rabenseifner, Gropp 2005,
 * MPICH's MPIR_Bcast_intra_scatter_ring_allgather): binomial scatter of P
 * pieces (piece q to position q), then P-1 ring steps in which position q
 * sends to q+1.  T = log2(P) t_s + (P-1)/P M/B + (P-1) (t_s + M/(P B)).
 * Honours: order, tag (falls back to the binomial tree when a piece would
 * exceed INT_MAX elements).
 */
int arcoll_bcast_scatter_ring(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                              MPI_Comm comm, const arcoll_sched_t *s);

/**
 * Scatter + recursive-doubling allgather (van de Geijn; Thakur, Rabenseifner,
 * Gropp 2005; MPICH's MPIR_Bcast_intra_scatter_recursive_doubling_allgather,
 * its medium-message choice on power-of-two communicators): binomial
 * scatter of P pieces (piece q to position q), then log2(P) exchanges in
 * which position q and q ^ 2^j swap their groups of 2^j pieces.
 * T = 2 log2(P) t_s + 2 (P-1)/P M/B.  P not a power of two: runs
 * arcoll_bcast_scatter_ring().  Honours: order, tag (falls back to the
 * binomial tree when a piece would exceed INT_MAX elements).
 */
int arcoll_bcast_scatter_rdb(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                             MPI_Comm comm, const arcoll_sched_t *s);

/**
 * Two-tree broadcast, simplified (Sanders, Speck, Träff 2009): two
 * complementary in-order binary trees over the non-root positions
 * (tree_extra.h, arcoll_tree_twotree); even segments go down tree 1, odd
 * segments down tree 2, so every rank receives half the message from each
 * parent and an inner node of one tree is mostly a leaf of the other.
 * The trees progress independently (bcast_multitree.h).  Departure from the
 * paper: no edge colouring / single-ported send-receive schedule; the root
 * sends each segment to one tree root.  Cost: the pipeline of k/2 segments
 * through log2 P levels of fan-out 2, at least the root's k X(M/k) (paper:
 * ~ M/B + O(log P t_s + sqrt(M log P t_s / B))).  Measured under SMPI (flat
 * 10 Gb/s, P = 256, 16 MiB, 8 KiB segments): 14.3 ms, 1.97x the best
 * pipelined chain (M/B = 13.4 ms).
 * segment_bytes <= 0: two segments (one half per tree).
 * Honours: order, segment_bytes, tag.
 */
int arcoll_bcast_twotree(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                         MPI_Comm comm, const arcoll_sched_t *s);

/**
 * Pipelined binary tree (like MPICH's / Open MPI's segmented binary tree,
 * SMPI's NTSB, but with contiguous subtrees instead of their heap order:
 * tree_extra.h arcoll_tree_binary), each segment sent to both children at
 * once.  Back to back its busiest
 * rank sends the message twice per call (the chain: once, binomial: log2 P
 * times), and a late rank on one of the P/2 leaf positions delays nobody:
 * the tree the late-rank orders use for streaming bcasts (adapt/late_order.c).
 * Cost: the pipeline of k segments through the root's 2 children and
 * floor(log2 m) more levels of fan-out 2 (model_bcast.c).  Honours: order, segment_bytes, tag.
 */
int arcoll_bcast_binary(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                        MPI_Comm comm, const arcoll_sched_t *s);

/**
 * Linear broadcast: the root sends the message (segment by segment) to every
 * other rank, in order (flat tree, tree_extra.h arcoll_tree_flat).
 * Cost: the P-1 messages share the root's link, T = T_send(M) + (P-2) X(M)
 * (X: the link occupancy of one message, LogGP g + (M-1) G), one segment;
 * seed 000 "flat tree".  Honours: order, segment_bytes, tag.
 */
int arcoll_bcast_linear(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                        MPI_Comm comm, const arcoll_sched_t *s);

/**
 * k-nomial tree broadcast (tree_extra.h arcoll_tree_knomial), radix
 * s->k >= 2 (s->k < 2: ARCOLL_KNOMIAL_RADIX): D = ceil(log_k P) levels, the
 * node at depth i sends each segment to (k-1)(D-i) children in turn, so
 * T = sum over levels of [T_send(M/n) + ((k-1)(D-i) - 1) X(M/n)] + pipelining
 * of the n segments (the binomial formula with fan-out (k-1) per digit;
 * k = 2 is the binomial tree).  Honours: order, segment_bytes, k, tag.
 */
int arcoll_bcast_knomial(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                         MPI_Comm comm, const arcoll_sched_t *s);

/**
 * Compressed pipelined chain (seed 004_045dc3534e1f0a8b.txt, ZipMPI;
 * bcast_compressed.c): the root compresses segments of s->segment_bytes
 * (<= 0: 64 KiB; clamped to [1 KiB, 1 MiB]) with LZ4 or zstd when its
 * per-call decision says so (compress_decide.h: ARCOLL_COMPRESS, sampled
 * ratio and the cost model), else sends them raw; each segment is one
 * message [4-byte header][compressed or raw bytes] down the chain order[0]
 * -> order[1] -> ...; inner ranks forward the bytes as received and every
 * rank decompresses into buf.  Bit-identical for every datatype (derived
 * types are packed at the root and unpacked at the receivers).  Cost:
 * compress_decide.h (raw: the chain's (k + P - 2) T_send(M/k)).  Errors as
 * above, plus MPI_ERR_OTHER for a segment that does not decompress and
 * MPI_ERR_COUNT for a non-contiguous datatype above INT_MAX bytes.
 * Honours: order, segment_bytes, tag.
 */
int arcoll_bcast_compressed(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                            MPI_Comm comm, const arcoll_sched_t *s);

/** Table of the bcast algorithms: binomial, chain, twopath, ksegment, nebst,
 *  scatter_ring, scatter_rdb, twotree, linear, knomial, compressed, binary. */
extern const arcoll_algo_desc_t arcoll_bcast_algorithms[];
extern const int arcoll_bcast_nalgorithms;

#ifdef __cplusplus
}
#endif
#endif
