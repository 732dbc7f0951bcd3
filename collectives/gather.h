/**
 * @file gather.h
 * @brief MPI_Gather and MPI_Scatter algorithms on point-to-point (group bcast_etc).
 *
 * Signatures (coll.h convention): the MPI call's arguments with counts as
 * MPI_Aint, plus the schedule s (NULL: identity order rotated to the root,
 * tag 0).  Semantics: any root; derived and non-contiguous datatypes (send
 * and receive types may differ, type signatures must match as in MPI);
 * MPI_IN_PLACE as the root's sendbuf (gather: its block is already in
 * recvbuf) or as the root's recvbuf (scatter: its block stays in sendbuf);
 * a zero-size block means no communication.  Arguments significant only at
 * the root are ignored elsewhere.  Every message uses tag s->tag.
 * Return MPI_SUCCESS, the first error of an MPI call, MPI_ERR_NO_MEM,
 * MPI_ERR_ARG (bad s->order) or MPI_ERR_COUNT (linear: a block of more than
 * INT_MAX elements; MPI_VERSION 3 has no large-count calls).
 *
 * Costs (seconds; seed 000_32450fa7292fe18a.txt: no algorithmic gain for
 * large messages, the root's link is saturated; Thakur, Rabenseifner, Gropp
 * 2005 for the binomial forms), m = bytes of one block, T_send(x) = t_s + x/B:
 * linear (P-1) T_send(m); binomial log2(P) t_s + (P-1) m / B.
 */
#ifndef ARCOLL_COLLECTIVES_GATHER_H
#define ARCOLL_COLLECTIVES_GATHER_H

#include <mpi.h>

#include "coll.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*arcoll_gather_fn)(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                                void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                                int root, MPI_Comm comm, const arcoll_sched_t *s);
typedef arcoll_gather_fn arcoll_scatter_fn;

/** Linear gather: the root posts a receive per rank straight into recvbuf
 *  (user datatypes, no copy).  Honours: tag. */
int arcoll_gather_linear(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm, const arcoll_sched_t *s);

/** Binomial gather over the order (tree.h layout): each rank packs its block
 *  (MPI_Pack), receives its children's subtrees after it and sends the
 *  subtree's packed blocks to its parent; the root unpacks block q into
 *  recvbuf at rank order[q].  Falls back to linear when the root's packed
 *  buffer would exceed INT_MAX bytes.  Honours: order, tag. */
int arcoll_gather_binomial(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                           void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm, const arcoll_sched_t *s);

/** Linear scatter: the root sends each rank its block straight from sendbuf.
 *  Honours: tag. */
int arcoll_scatter_linear(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype, int root,
                          MPI_Comm comm, const arcoll_sched_t *s);

/** s->k of the binomial scatter: every rank sends its children's subtrees
 *  smallest first (Open MPI's in-order binomial scatter), so position 1, the
 *  next root of a root that moves by one, and the positions it sends to next
 *  are served first and consecutive calls overlap.  Largest first (k = 0)
 *  ends a single call sooner.  adapt/blocks.c passes it when the root moved
 *  since the communicator's last scatter.  SMPI, 32 KiB, root c mod P at call
 *  c, 200 calls, forced, summed over ranks, largest -> smallest first: flat
 *  P = 64 24.18 -> 12.52 s (Open MPI's in-order tree 12.46); two-level tree
 *  P = 64 203.9 -> 222.8 (its uplinks, not the roots' links, bound it); one
 *  root: equal back to back, +1.2 % with 2 ms of computation between calls
 *  (bench/notes/adaptive-layer-rotating-root.md). */
#define ARCOLL_SCATTER_SMALLEST_FIRST 1

/** Binomial scatter over the order: the root packs the blocks in position
 *  order and sends each child its subtree's range (largest subtree first, or
 *  smallest first when s->k == ARCOLL_SCATTER_SMALLEST_FIRST); inner ranks
 *  forward sub-ranges and unpack their own block.  Falls back to linear above
 *  INT_MAX packed bytes.  Honours: order, tag, k. */
int arcoll_scatter_binomial(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                            void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm, const arcoll_sched_t *s);

/** Receives the compressed gather's root keeps posted. */
#define ARCOLL_GATHER_COMPRESSED_WINDOW 32

/** Compressed linear gather (gather_compressed.c; seed
 *  004_045dc3534e1f0a8b.txt, ZipMPI): every non-root rank packs its block,
 *  decides for it alone (compress_decide.h arcoll_compress_decide_shape,
 *  gather shape: C + T(m/r) + (P-2) max(X(m/r), D) + D against
 *  T(m) + (P-2) X(m)), compresses it with LZ4 or zstd level 1 (or not) and
 *  sends one message [8-byte header: codec, encoding, compressed length]
 *  [payload] (compress_block.h) to the root, which keeps
 *  ARCOLL_GATHER_COMPRESSED_WINDOW receives posted and decompresses each
 *  block into recvbuf as it arrives.  Blocks of more than INT_MAX - 8 bytes:
 *  MPI_ERR_COUNT.  Honours: tag. */
int arcoll_gather_compressed(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm, const arcoll_sched_t *s);

/** Tables: gather {linear, binomial, compressed}, scatter {linear, binomial}. */
extern const arcoll_algo_desc_t arcoll_gather_algorithms[];
extern const int arcoll_gather_nalgorithms;
extern const arcoll_algo_desc_t arcoll_scatter_algorithms[];
extern const int arcoll_scatter_nalgorithms;

#ifdef __cplusplus
}
#endif
#endif
