/**
 * @file alltoallv_prep.h
 * @brief What the alltoallv algorithms share (internal; alltoallv.h): the
 *        call's arguments, the position map, one block as a message, the
 *        own block's copy and the in-place exchange.
 */
#ifndef ARCOLL_COLLECTIVES_ALLTOALLV_PREP_H
#define ARCOLL_COLLECTIVES_ALLTOALLV_PREP_H

#include <mpi.h>

#include "coll.h"

/** One side (send or receive) of an alltoallv call. */
typedef struct arcoll_a2av_side {
  char *buf;              /**< sendbuf or recvbuf */
  const MPI_Aint *cnt, *dsp; /**< elements and displacements (units of ext) per rank */
  MPI_Datatype type;
  int size;               /**< MPI_Type_size, bytes */
  MPI_Aint ext;           /**< extent, bytes */
} arcoll_a2av_side_t;

typedef struct arcoll_a2av {
  arcoll_a2av_side_t s, r; /**< send and receive sides (s = r for MPI_IN_PLACE) */
  int inplace;             /**< sendbuf was MPI_IN_PLACE */
  int P, me, pos, *map;    /**< size, rank, position, position -> rank (free()) */
  int tag;
} arcoll_a2av_t;

/** Fills *a (order from s->order, else identity).  Returns MPI_SUCCESS,
 *  MPI_ERR_NO_MEM, MPI_ERR_ARG (bad s->order) or an MPI error; then call
 *  arcoll_a2av_end() in every case. */
int arcoll_a2av_begin(const void *sendbuf, const MPI_Aint *scounts, const MPI_Aint *sdispls,
                      MPI_Datatype stype, void *recvbuf, const MPI_Aint *rcounts,
                      const MPI_Aint *rdispls, MPI_Datatype rtype, MPI_Comm comm,
                      const arcoll_sched_t *s, arcoll_a2av_t *a);
void arcoll_a2av_end(arcoll_a2av_t *a);

/** Rank at position q (mod P). */
static inline int arcoll_a2av_rank(const arcoll_a2av_t *a, int q) {
  return a->map[((q % a->P) + a->P) % a->P];
}

/**
 * `count` elements of dt as one message: *n elements of *t, which is dt
 * (n = count) when count <= INT_MAX, else a committed struct type of
 * count / INT_MAX contiguous runs of INT_MAX elements and the rest (n = 1;
 * the same type signature, so either side may use it whatever the other
 * does).  Release with arcoll_a2av_msgtype_free(dt, t) (MPI lets a type be
 * freed while a pending operation uses it).  Returns MPI_SUCCESS or an MPI
 * error.
 */
int arcoll_a2av_msgtype(MPI_Aint count, MPI_Datatype dt, int *n, MPI_Datatype *t);
void arcoll_a2av_msgtype_free(MPI_Datatype dt, MPI_Datatype *t);

/** Posts the send of this rank's block for `rank` (send side) or the receive
 *  of the block from `rank` (receive side); *req = MPI_REQUEST_NULL when it
 *  has zero bytes.  Returns MPI_SUCCESS or an MPI error. */
int arcoll_a2av_post(const arcoll_a2av_t *a, int send, int rank, MPI_Comm comm,
                     MPI_Request *req);

/** Copies this rank's block for itself from the send to the receive side
 *  (nothing for MPI_IN_PLACE).  Returns MPI_SUCCESS or an error. */
int arcoll_a2av_self(const arcoll_a2av_t *a, MPI_Comm comm);

/** The MPI_IN_PLACE exchange (alltoallv.h; alltoallv_inplace.c). */
int arcoll_a2av_inplace(const arcoll_a2av_t *a, MPI_Comm comm);

#endif
