/**
 * @file gatherv.h
 * @brief MPI_Gatherv and MPI_Scatterv algorithms on point-to-point (per-rank
 *        block sizes and positions, significant only at the root).
 *
 * Signatures (coll.h convention): the MPI call's arguments with counts and
 * displacements as MPI_Aint (recvcounts[r] / sendcounts[r]: elements of the
 * root's type in rank r's block; displs[r]: its displacement in extents of
 * that type, r in 0..P-1), plus the schedule s (NULL: identity order rotated
 * to the root, tag 0).  The arrays, recvbuf / recvtype (gatherv) and
 * sendbuf / sendtype (scatterv) are read at the root only (other ranks may
 * pass NULL); every other rank knows only its own count.  Any root; derived
 * and non-contiguous datatypes (send and receive types may differ, type
 * signatures must match as in MPI); irregular and zero counts; displs in any
 * order (blocks must not overlap in gatherv's recvbuf); MPI_IN_PLACE as the
 * root's sendbuf (gatherv: its block is already in recvbuf) or recvbuf
 * (scatterv: its block stays in sendbuf).
 *
 * Since no rank but the root knows the other ranks' counts, every algorithm
 * runs the same messages on every call whatever the counts (a rank with
 * nothing to send still sends its subtree's stream, maybe empty, in the
 * binomial trees) and none of them returns early for a zero count of its
 * own.  Binomial streams: the packed bytes of a subtree's blocks in position
 * order, sent as MPI_BYTE messages of at most `chunk` bytes (s->segment_bytes
 * when > 0, else 2^30), the last one shorter than chunk (maybe empty), so
 * streams above INT_MAX bytes need no large-count calls (gatherv_stream.h).
 *
 * Every message uses tag s->tag.  Return MPI_SUCCESS, the first error of an
 * MPI call, MPI_ERR_NO_MEM, MPI_ERR_ARG (s->order not a permutation or
 * s->order[0] != root), MPI_ERR_TRUNCATE (a stream longer or shorter than
 * the root's counts say) or MPI_ERR_COUNT (linear: a block above INT_MAX
 * elements without MPI 4's large-count calls).
 *
 * Costs (seconds; model_gatherv.c): b = bytes of the largest block, M = all
 * blocks, T(x) = t_s + x / B, X(x) the link time of an x-byte message:
 * linear T(0) + (P-1) X(M / P) (every block through the root's link; seed
 * 000_32450fa7292fe18a.txt: (P-1) T_send(m)); binomial
 * sum_{l<L} T(min(2^l b, M)), L = ceil(log2 P) (Thakur, Rabenseifner, Gropp
 * 2005, the gather / scatter trees with the subtree's bytes per message).
 */
#ifndef ARCOLL_COLLECTIVES_GATHERV_H
#define ARCOLL_COLLECTIVES_GATHERV_H

#include <mpi.h>

#include "coll.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*arcoll_gatherv_fn)(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, const MPI_Aint *recvcounts,
                                 const MPI_Aint *displs, MPI_Datatype recvtype, int root,
                                 MPI_Comm comm, const arcoll_sched_t *s);
typedef int (*arcoll_scatterv_fn)(const void *sendbuf, const MPI_Aint *sendcounts,
                                  const MPI_Aint *displs, MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Aint recvcount, MPI_Datatype recvtype, int root,
                                  MPI_Comm comm, const arcoll_sched_t *s);

/** Linear gatherv: the root posts a nonblocking receive per rank with a
 *  non-empty block straight into recvbuf (recvtype, no packing); every
 *  other rank with data sends it (sendtype).  Honours: tag. */
int arcoll_gatherv_linear(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                          void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                          MPI_Datatype recvtype, int root, MPI_Comm comm,
                          const arcoll_sched_t *s);

/** Binomial gatherv over the order (tree.h layout: position p's subtree is
 *  [p, p + size(p))): a non-root position packs its block, appends its
 *  children's streams (children in position order, each announcing its
 *  length in its first message: gatherv_stream.h's sized streams) and sends
 *  the stream to its parent; the root,
 *  which knows every count, receives each child's stream (known size, all
 *  at once) and unpacks block q into recvbuf at displs[order[q]] with
 *  recvtype.  Honours: order, tag, segment_bytes (chunk). */
int arcoll_gatherv_binomial(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                            MPI_Datatype recvtype, int root, MPI_Comm comm,
                            const arcoll_sched_t *s);

/** Linear scatterv: the root posts a nonblocking send per rank with a
 *  non-empty block straight from sendbuf (sendtype); every other rank with
 *  a non-empty block receives it.  Honours: tag. */
int arcoll_scatterv_linear(const void *sendbuf, const MPI_Aint *sendcounts,
                           const MPI_Aint *displs, MPI_Datatype sendtype, void *recvbuf,
                           MPI_Aint recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                           const arcoll_sched_t *s);

/** Binomial scatterv over the order: the root packs the blocks in position
 *  order and sends each child (largest subtree first) a header - the byte
 *  count of every position of the child's subtree, int64 each - then the
 *  subtree's stream; inner positions forward the sub-headers and
 *  sub-streams the same way and unpack their own block (the first of their
 *  stream) with recvtype.  Honours: order, tag, segment_bytes (chunk). */
int arcoll_scatterv_binomial(const void *sendbuf, const MPI_Aint *sendcounts,
                             const MPI_Aint *displs, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Aint recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                             const arcoll_sched_t *s);

/** Tables: gatherv {linear, binomial}, scatterv {linear, binomial}. */
extern const arcoll_algo_desc_t arcoll_gatherv_algorithms[];
extern const int arcoll_gatherv_nalgorithms;
extern const arcoll_algo_desc_t arcoll_scatterv_algorithms[];
extern const int arcoll_scatterv_nalgorithms;

#ifdef __cplusplus
}
#endif
#endif
