/**
 * @file alltoallv.h
 * @brief MPI_Alltoallv algorithms on point-to-point (group alltoallv).
 *
 * Signature (coll.h convention): MPI_Alltoallv's arguments with counts and
 * displacements as MPI_Aint arrays (sendcounts[r], sdispls[r]: elements of
 * sendtype and displacement in units of its extent of the block for rank r;
 * recvcounts[r], rdispls[r] likewise for the block from rank r) plus the
 * schedule s (NULL: identity order, tag 0).  The arrays are this rank's
 * own: rank r knows only what it sends and receives, so nothing here
 * depends on another rank's counts.  Counts may be irregular and zero (a
 * block of zero bytes is neither sent nor received); every block is sent
 * from and received into the user's buffers with the user's datatypes
 * (nothing packed); a block of more than INT_MAX elements travels as one
 * element of a struct type (arcoll_a2av_msgtype).
 * sendbuf == MPI_IN_PLACE: sendcounts, sdispls and sendtype are ignored, the
 * data to send is recvbuf's blocks (recvcounts, rdispls, recvtype) and is
 * replaced by the data received (MPI 2.2); both algorithms then run the
 * in-place exchange of alltoallv_inplace.c (a round-robin tournament: in
 * each round disjoint pairs swap one block through a temporary of one
 * block; P rounds for odd P, P-1 for even P), since receiving in place
 * before the old block has been sent needs a pairing with src == dst.
 *
 * Every message uses tag s->tag.  Return MPI_SUCCESS, the first error of an
 * MPI call, MPI_ERR_NO_MEM or MPI_ERR_ARG (s->order not a permutation).
 *
 * Costs (seconds; model_alltoallv.c): m = bytes of a block, T(x) = t_s +
 * x / B.  The dispatcher cannot know the other ranks' counts, so the model
 * is evaluated at a fixed block size (adapt/alltoallv.c) and the online
 * measurement decides.
 */
#ifndef ARCOLL_COLLECTIVES_ALLTOALLV_H
#define ARCOLL_COLLECTIVES_ALLTOALLV_H

#include <mpi.h>

#include "coll.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*arcoll_alltoallv_fn)(const void *sendbuf, const MPI_Aint sendcounts[],
                                   const MPI_Aint sdispls[], MPI_Datatype sendtype,
                                   void *recvbuf, const MPI_Aint recvcounts[],
                                   const MPI_Aint rdispls[], MPI_Datatype recvtype,
                                   MPI_Comm comm, const arcoll_sched_t *s);

/** Linear / scattered (MPICH's alltoallv scattered): the receives from
 *  positions pos-i and the sends to positions pos+i, i = 1..P-1, posted in
 *  windows of ARCOLL_ALLTOALL_THROTTLE (alltoall.h) steps, each window
 *  waited for before the next; zero-byte blocks skipped.
 *  T ~ ceil((P-1)/32) t_s + (P-1) m / B.  Honours: order, tag. */
int arcoll_alltoallv_linear(const void *sendbuf, const MPI_Aint sendcounts[],
                            const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                            const MPI_Aint recvcounts[], const MPI_Aint rdispls[],
                            MPI_Datatype recvtype, MPI_Comm comm, const arcoll_sched_t *s);

/** Pairwise exchange (MPICH's alltoallv pairwise): P-1 steps; at step i
 *  position pos sends its block for position pos + i and receives that of
 *  pos - i (a send-receive; a zero-byte side is left out).
 *  T = (P-1) T(m).  Honours: order, tag. */
int arcoll_alltoallv_pairwise(const void *sendbuf, const MPI_Aint sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Aint recvcounts[], const MPI_Aint rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm, const arcoll_sched_t *s);

/** Table: alltoallv {linear, pairwise}. */
extern const arcoll_algo_desc_t arcoll_alltoallv_algorithms[];
extern const int arcoll_alltoallv_nalgorithms;

#ifdef __cplusplus
}
#endif
#endif
