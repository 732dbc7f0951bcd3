/**
 * @file allgather.h
 * @brief MPI_Allgather algorithms on point-to-point (group allgather).
 *
 * Signature (coll.h convention): MPI_Allgather's arguments with counts as
 * MPI_Aint plus the schedule s (NULL: identity order, tag 0).  Every rank
 * contributes sendcount elements of sendtype; block r of recvbuf (recvcount
 * elements of recvtype at r * recvcount * extent(recvtype) bytes) receives
 * rank r's contribution on every rank.  Derived datatypes: send and receive
 * types may differ, and the receive types may differ between ranks, as long
 * as the type signatures match (MPI's rule).  sendbuf == MPI_IN_PLACE: the
 * caller's contribution is already in its block of recvbuf (sendcount and
 * sendtype ignored).  Zero-size blocks: no communication.
 *
 * One implementation with allgatherv.h: an allgather is the allgatherv with
 * every count recvcount and displacement r x recvcount.  Ring, recursive
 * doubling and Bruck run the allgatherv bodies (allgatherv_ring.c, ...) over
 * the shared preparation's equal-counts form (arcoll_agv_prepare_equal() in
 * allgatherv_prep.h: no P-sized count / displacement arrays); gather_bcast
 * has its own segmented byte broadcast (allgather_gather_bcast.c).
 *
 * Data movement: the caller's block is first copied into place (unless in
 * place); then every message carries whole blocks straight from and into
 * recvbuf, described by a derived datatype over the blocks of a set of
 * positions (allgatherv_prep.h), so nothing is packed (gather_bcast packs
 * for its broadcast unless recvtype is plain bytes).  Positions: the
 * algorithms work over positions 0..P-1, order[pos] = communicator rank
 * (coll.h); block of position q = block order[q] of recvbuf.
 *
 * Every message uses tag s->tag.  Return MPI_SUCCESS, the first error of an
 * MPI call, MPI_ERR_NO_MEM, MPI_ERR_ARG (s->order not a permutation) or
 * MPI_ERR_COUNT (recvcount or sendcount above INT_MAX, or recvcount below 0;
 * recvcount 0 or a zero-size recvtype is checked first and returns
 * MPI_SUCCESS).
 *
 * Costs (seconds): m = bytes of one block, M = P m, T(x) = t_s + x / B
 * (LogGP-measured T(x) in model_allgather.c), L = ceil(log2 P).
 */
#ifndef ARCOLL_COLLECTIVES_ALLGATHER_H
#define ARCOLL_COLLECTIVES_ALLGATHER_H

#include <mpi.h>

#include "coll.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*arcoll_allgather_fn)(const void *sendbuf, MPI_Aint sendcount,
                                   MPI_Datatype sendtype, void *recvbuf, MPI_Aint recvcount,
                                   MPI_Datatype recvtype, MPI_Comm comm,
                                   const arcoll_sched_t *s);

/** Neighbor exchange (Chen, Liu, Tseng, Yeh 2005; Open MPI's
 *  allgather_intra_neighborexchange), P even: P/2 steps; step 0 swaps the
 *  blocks of positions 2j and 2j+1, then each step sends the pair of blocks
 *  received in the step before to the neighbour on alternating sides and
 *  receives the next pair from it.  Every neighbour link carries data both
 *  ways (the ring's one way): on a machine whose links between groups of
 *  ranks are the bottleneck each block crosses them in about half the time
 *  (SMPI tree platform, P = 64, 2 MiB: SMPI's ompi selector, which picks
 *  it, 20.8 ms against our ring's 25.8 ms).  T = T(m) + (P/2 - 1) T(2m).
 *  P odd: the ring.  Honours: order, tag. */
int arcoll_allgather_neighbor_exchange(const void *sendbuf, MPI_Aint sendcount,
                                       MPI_Datatype sendtype, void *recvbuf, MPI_Aint recvcount,
                                       MPI_Datatype recvtype, MPI_Comm comm,
                                       const arcoll_sched_t *s);

/** Ring (Thakur, Rabenseifner, Gropp 2005, MPICH's allgather_intra_ring):
 *  P-1 steps; at step i position pos sends the block of position pos - i to
 *  pos + 1 and receives the block of position pos - i - 1 from pos - 1.
 *  T = (P-1) T(m).  Honours: order, tag. */
int arcoll_allgather_ring(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                          MPI_Comm comm, const arcoll_sched_t *s);

/** Recursive doubling (Thakur, Rabenseifner, Gropp 2005) for any P:
 *  P2 = largest power of two <= P; positions P2..P-1 first send their block
 *  to position pos - P2 (fold); the P2 first positions then run log2 P2
 *  exchanges, in step k (k = 1, 2, 4, ...) position v swaps with v ^ k every
 *  block of its group of k positions (v & ~(k-1) ..) together with the
 *  folded blocks of those positions; finally position q < P - P2 sends all
 *  P - 1 other blocks to position q + P2 (unfold).
 *  T = sum_{i < log2 P2} T(2^i (P/P2) m) + [P != P2] (T(m) + T((P-1) m)).
 *  Honours: order, tag. */
int arcoll_allgather_recursive_doubling(const void *sendbuf, MPI_Aint sendcount,
                                        MPI_Datatype sendtype, void *recvbuf,
                                        MPI_Aint recvcount, MPI_Datatype recvtype,
                                        MPI_Comm comm, const arcoll_sched_t *s);

/** Bruck (Bruck, Ho, Kipnis, Upfal, Weathersby 1997, radix 2; MPICH's
 *  allgather_intra_brucks): L steps; before step k (k = 1, 2, 4, ...)
 *  position pos holds the blocks of positions pos .. pos + k - 1 (mod P); it
 *  sends the first min(k, P - k) of them to position pos - k and receives
 *  those of positions pos + k .. from pos + k.  Blocks go straight into
 *  place (no final rotation: the block type addresses recvbuf).
 *  T = sum_{k = 1, 2, 4, .. < P} T(min(k, P-k) m).  Honours: order, tag. */
int arcoll_allgather_bruck(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                           void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm, const arcoll_sched_t *s);

/**
 * Compressed ring (seed 004_045dc3534e1f0a8b.txt, ZipMPI;
 * allgather_compressed.c): every rank packs its block and decides for it
 * alone (compress_decide.h with the ring as a chain of P-1 hops of one
 * segment: ARCOLL_COMPRESS, a sample of the block, the model), then P-1 ring
 * steps forward [4-byte header][LZ4 / zstd / raw bytes] messages as received
 * (no recompression); each block is decompressed while the next step's
 * transfer runs.  Bit-identical for every datatype (packed / unpacked).
 * T = C + (P-1) T(m/r) + D (raw: the ring's (P-1) T(m)), C / D: m over the
 * codec throughputs.  Errors as above, plus MPI_ERR_OTHER for a block that
 * does not decompress and MPI_ERR_COUNT for blocks above INT_MAX / 2 bytes.
 * Honours: order, tag.
 */
int arcoll_allgather_compressed(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                                void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, const arcoll_sched_t *s);

/** Gather + broadcast over the existing trees: binomial gather (gather.h)
 *  of the blocks to position 0, then binomial broadcast (bcast.h) of the M
 *  bytes along the same order (as packed bytes unless recvtype is a
 *  contiguous run of bytes, since receive types may differ between ranks).
 *  T = gather_binomial(m) + bcast_binomial(M, segment).
 *  Honours: order, segment_bytes (of the broadcast), tag. */
int arcoll_allgather_gather_bcast(const void *sendbuf, MPI_Aint sendcount,
                                  MPI_Datatype sendtype, void *recvbuf, MPI_Aint recvcount,
                                  MPI_Datatype recvtype, MPI_Comm comm,
                                  const arcoll_sched_t *s);

/** Direct: allgatherv.h's arcoll_allgatherv_direct with equal blocks (the
 *  same body): every block to every rank at once, in windows of
 *  ARCOLL_ALLGATHERV_DIRECT_WINDOW steps.  T = W T(0) + (P-1) X(m).
 *  Honours: order, tag. */
int arcoll_allgather_direct(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                            void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm, const arcoll_sched_t *s);

/** Table: allgather {ring, neighbor_exchange, recursive_doubling, bruck, gather_bcast,
 *  compressed, direct}. */
extern const arcoll_algo_desc_t arcoll_allgather_algorithms[];
extern const int arcoll_allgather_nalgorithms;

#ifdef __cplusplus
}
#endif
#endif
