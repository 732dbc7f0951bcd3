/**
 * @file allgatherv_prep.h
 * @brief Argument preparation and block-set datatypes shared by the
 *        allgatherv algorithms (internal; allgather_prep.h with per-rank
 *        counts and displacements).
 *
 * arcoll_agv_prepare() resolves the order, copies the caller's contribution
 * into its block of recvbuf (unless MPI_IN_PLACE) and describes the blocks;
 * release with arcoll_agv_done().  Block of position q: recvcounts[order[q]]
 * elements of recvtype at recvbuf + displs[order[q]] x extent(recvtype).
 * Block-set types (MPI_Type_create_hindexed; zero-count blocks are empty
 * entries) let one message carry the blocks of several positions straight
 * from / into recvbuf.
 */
#ifndef ARCOLL_COLLECTIVES_ALLGATHERV_PREP_H
#define ARCOLL_COLLECTIVES_ALLGATHERV_PREP_H

#include <mpi.h>

#include "coll.h"

typedef struct arcoll_agv {
  int P, pos, *order;      /**< positions; order[pos] = communicator rank */
  char *rbuf;              /**< recvbuf */
  const MPI_Aint *counts;  /**< recvcounts, per rank (each <= INT_MAX) */
  const MPI_Aint *displs;  /**< displs, per rank, in extents of rtype */
  MPI_Datatype rtype;
  MPI_Aint rext;           /**< extent of rtype, bytes */
  MPI_Aint *tdispls;       /**< scratch: P byte displacements for the types */
  int *tlens;              /**< scratch: P block lengths for the types */
} arcoll_agv_t;

/** Returned by arcoll_agv_prepare() when every block is empty (a is then empty). */
#define ARCOLL_AGV_NOTHING (-1)

/** @return MPI_SUCCESS, ARCOLL_AGV_NOTHING, or an error (MPI_ERR_COUNT: a
 *          count above INT_MAX or below 0; MPI_ERR_NO_MEM; MPI_ERR_ARG: bad
 *          s->order; errors of MPI calls). */
int arcoll_agv_prepare(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                       MPI_Datatype recvtype, MPI_Comm comm, const arcoll_sched_t *s,
                       arcoll_agv_t *a);
void arcoll_agv_done(arcoll_agv_t *a);

/** Communicator rank of position q (mod P). */
static inline int arcoll_agv_rank(const arcoll_agv_t *a, int q) {
  return a->order[((q % a->P) + a->P) % a->P];
}
/** Address of the block of position q (mod P) in recvbuf. */
static inline char *arcoll_agv_block(const arcoll_agv_t *a, int q) {
  return a->rbuf + a->displs[arcoll_agv_rank(a, q)] * a->rext;
}
/** Elements of rtype in the block of position q (mod P). */
static inline int arcoll_agv_count(const arcoll_agv_t *a, int q) {
  return (int)a->counts[arcoll_agv_rank(a, q)];
}

/**
 * Committed datatype (free with MPI_Type_free) of the blocks of positions
 * first .. first + n - 1 (mod P), displacements relative to recvbuf: send /
 * receive `1` of it at recvbuf.  1 <= n <= P.
 * @return MPI_SUCCESS or the error of an MPI_Type_* call.
 */
int arcoll_agv_range_type(arcoll_agv_t *a, int first, int n, MPI_Datatype *t);

/** The same for the positions pos[0..n) (each in 0..P-1), in that order. */
int arcoll_agv_list_type(arcoll_agv_t *a, const int *pos, int n, MPI_Datatype *t);

/** Irecv of `rt` from position `from`, Isend of `st` to position `to`
 *  (positions mod P; either type may be MPI_DATATYPE_NULL: no such message),
 *  both at recvbuf; then frees the types.
 *  @return MPI_SUCCESS or the first error of an MPI call. */
int arcoll_agv_exchange(arcoll_agv_t *a, MPI_Datatype st, int to, MPI_Datatype rt, int from,
                        int tag, MPI_Comm comm);

#endif
