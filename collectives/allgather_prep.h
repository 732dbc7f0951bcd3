/**
 * @file allgather_prep.h
 * @brief Argument preparation and block-set datatypes shared by the
 *        allgather algorithms (internal).
 *
 * arcoll_ag_prepare() resolves the order, copies the caller's contribution
 * into its block of recvbuf (unless MPI_IN_PLACE) and describes the blocks;
 * release with arcoll_ag_done().  The block-set types let one message carry
 * the blocks of several positions straight from / into recvbuf.
 */
#ifndef ARCOLL_COLLECTIVES_ALLGATHER_PREP_H
#define ARCOLL_COLLECTIVES_ALLGATHER_PREP_H

#include <mpi.h>

#include "coll.h"

typedef struct arcoll_ag {
  int P, pos, *order;  /**< positions; order[pos] = communicator rank */
  char *rbuf;          /**< recvbuf */
  int rcount;          /**< elements of rtype per block */
  MPI_Datatype rtype;
  MPI_Aint rext;       /**< extent of rtype, bytes */
  MPI_Aint bb;         /**< bytes of one block (type signature size) */
  MPI_Aint *displs;    /**< scratch: P displacements for the block-set types */
} arcoll_ag_t;

/** Returned by arcoll_ag_prepare() for zero-size blocks (a is then empty). */
#define ARCOLL_AG_NOTHING (-1)

/** @return MPI_SUCCESS, ARCOLL_AG_NOTHING (zero-size blocks: nothing to do),
 *          or an error (MPI_ERR_COUNT: a count above INT_MAX; MPI_ERR_NO_MEM;
 *          MPI_ERR_ARG: bad s->order; errors of MPI calls). */
int arcoll_ag_prepare(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      const arcoll_sched_t *s, arcoll_ag_t *a);
void arcoll_ag_done(arcoll_ag_t *a);

/** Address of the block of position q (mod P) in recvbuf. */
static inline char *arcoll_ag_block(const arcoll_ag_t *a, int q) {
  const int r = a->order[((q % a->P) + a->P) % a->P];
  return a->rbuf + (MPI_Aint)r * a->rcount * a->rext;
}

/**
 * Committed datatype (free with MPI_Type_free) of the blocks of positions
 * first, first + 1, ..., first + n - 1 (mod P), in that order, with
 * displacements relative to recvbuf: send / receive `1` of it at recvbuf.
 * 1 <= n <= P.  @return MPI_SUCCESS or the error of an MPI_Type_* call.
 */
int arcoll_ag_range_type(arcoll_ag_t *a, int first, int n, MPI_Datatype *t);

/** The same for the positions pos[0..n) (each in 0..P-1), in that order. */
int arcoll_ag_list_type(arcoll_ag_t *a, const int *pos, int n, MPI_Datatype *t);

/** Exchange of block-set types at recvbuf (Irecv of `rt` from position
 *  `from`, Isend of `st` to position `to`, positions mod P), then frees both
 *  types.  @return MPI_SUCCESS or the first error of an MPI call. */
int arcoll_ag_exchange(arcoll_ag_t *a, MPI_Datatype st, int to, MPI_Datatype rt, int from,
                       int tag, MPI_Comm comm);

#endif
