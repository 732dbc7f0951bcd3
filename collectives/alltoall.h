/**
 * @file alltoall.h
 * @brief MPI_Alltoall and MPI_Barrier algorithms on point-to-point (group bcast_etc).
 *
 * Alltoall signature (coll.h convention): MPI_Alltoall's arguments with counts
 * as MPI_Aint plus the schedule s (NULL: identity order, tag 0).  Block b of
 * sendbuf (sendcount elements of sendtype at b * sendcount * extent) goes to
 * rank b; block b of recvbuf comes from rank b.  Derived datatypes, send and
 * receive types may differ (signatures must match).  sendbuf == MPI_IN_PLACE:
 * the data is taken from recvbuf (recvcount, recvtype), which is first copied
 * to a temporary (its memory span, (P*recvcount - 1) * extent + true_extent
 * bytes; non-negative extents only).  Zero-size blocks: no communication.
 * Every message uses tag s->tag.  Return MPI_SUCCESS, the first error of an
 * MPI call, MPI_ERR_NO_MEM, MPI_ERR_ARG (bad s->order) or MPI_ERR_COUNT (a
 * block of more than INT_MAX elements).
 *
 * Seed 003_e288917cd7e80de5.txt compares linear, pairwise and
 * shuffle-exchange all-to-all; seed 000 notes no algorithmic gain for large
 * messages.  m = bytes of one block, T_send(x) = t_s + x/B (seconds).
 */
#ifndef ARCOLL_COLLECTIVES_ALLTOALL_H
#define ARCOLL_COLLECTIVES_ALLTOALL_H

#include <mpi.h>

#include "coll.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*arcoll_alltoall_fn)(const void *sendbuf, MPI_Aint sendcount,
                                  MPI_Datatype sendtype, void *recvbuf, MPI_Aint recvcount,
                                  MPI_Datatype recvtype, MPI_Comm comm,
                                  const arcoll_sched_t *s);

/** Requests per batch of the linear alltoall (MPICH's
 *  MPIR_CVAR_ALLTOALL_THROTTLE default is 32). */
#define ARCOLL_ALLTOALL_THROTTLE 32

/** Linear (seed 003): every rank posts the receives and sends of steps
 *  i = 1..P-1 (destination position pos+i, source pos-i, to spread the load)
 *  in batches of ARCOLL_ALLTOALL_THROTTLE, like MPICH's isend_irecv; time
 *  ~ t_s ceil((P-1)/32) + (P-1) m / B when the network is not the
 *  bottleneck.  Honours: order, tag. */
int arcoll_alltoall_linear(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                           void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm, const arcoll_sched_t *s);

/** Pairwise exchange (seed 003): P-1 steps of MPI_Sendrecv; at step i the
 *  partner position is pos ^ i when P is a power of two (one exchange per
 *  pair per step), else position pos+i receives from pos-i.
 *  T = (P-1) T_send(m).  Honours: order, tag. */
int arcoll_alltoall_pairwise(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm, const arcoll_sched_t *s);

/** Shuffle-exchange / Bruck (seed 003; Bruck et al. 1997, radix 2): local
 *  rotation, ceil(log2 P) steps sending the blocks whose index has bit k set
 *  to position pos + 2^k (packed), inverse rotation.
 *  T = ceil(log2 P) (t_s + (P/2) m / B) plus packing.  Honours: order, tag.
 *  Falls back to pairwise when the packed buffer would exceed INT_MAX bytes. */
int arcoll_alltoall_bruck(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                          MPI_Comm comm, const arcoll_sched_t *s);

/** Compressed linear alltoall (alltoall_compressed.c; seed
 *  004_045dc3534e1f0a8b.txt, ZipMPI): every rank packs its outgoing blocks,
 *  decides once for them (compress_decide.h arcoll_compress_decide_shape,
 *  alltoall shape: C + T(m/r) + (P-2) max(C, X(m/r), D) + D against
 *  T(m) + (P-2) X(m)), and runs the linear steps in batches of
 *  ARCOLL_ALLTOALL_THROTTLE, each block one message [8-byte header: codec,
 *  encoding, compressed length][payload] (compress_block.h), compressed
 *  just before its send and decompressed into recvbuf as it arrives.
 *  Blocks of more than INT_MAX - 8 bytes: MPI_ERR_COUNT.  Honours: order, tag. */
int arcoll_alltoall_compressed(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                               void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, const arcoll_sched_t *s);

/** Dissemination barrier (Hensgen, Finkel, Manber 1988): ceil(log2 P)
 *  rounds; in round k position pos sends an empty message to pos + 2^k and
 *  receives one from pos - 2^k.  T = ceil(log2 P) 2 t_s (send-receive).
 *  Honours: order, tag.  Return MPI_SUCCESS or the first MPI error. */
int arcoll_barrier_dissemination(MPI_Comm comm, const arcoll_sched_t *s);

typedef int (*arcoll_barrier_fn)(MPI_Comm comm, const arcoll_sched_t *s);

/** Tables: alltoall {linear, pairwise, bruck, compressed}, barrier {dissemination}. */
extern const arcoll_algo_desc_t arcoll_alltoall_algorithms[];
extern const int arcoll_alltoall_nalgorithms;
extern const arcoll_algo_desc_t arcoll_barrier_algorithms[];
extern const int arcoll_barrier_nalgorithms;

#ifdef __cplusplus
}
#endif
#endif
