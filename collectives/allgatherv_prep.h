/**
 * @file allgatherv_prep.h
 * @brief Argument preparation and block-set datatypes shared by the
 *        allgather and allgatherv algorithms (internal).
 *
 * One preparation serves both collectives: MPI_Allgather is MPI_Allgatherv
 * with every block recvcount elements at displacement r x recvcount, so the
 * algorithms (allgatherv_{ring,bruck,recursive_doubling,gather_bcast}.c)
 * run one body over an arcoll_agv_t from either arcoll_agv_prepare()
 * (per-rank counts / displs) or arcoll_agv_prepare_equal() (one count: no
 * P-sized count / displacement arrays are built, the block of rank r is
 * computed).  Both resolve the order, copy the caller's contribution into
 * its block of recvbuf (unless MPI_IN_PLACE) and describe the blocks;
 * release with arcoll_agv_done() (arcoll_agv_call() and
 * arcoll_agv_call_equal() do all three steps around an algorithm's body).
 * Block of position q: count(q) elements of recvtype at recvbuf +
 * displ(q) x extent(recvtype).  Block-set types (MPI_Type_create_hindexed;
 * zero-count blocks are empty entries) let one message carry the blocks of
 * several positions straight from / into recvbuf.  Receive types may differ
 * between ranks (allgather): each side describes its blocks in its own type,
 * the type signatures match.
 */
#ifndef ARCOLL_COLLECTIVES_ALLGATHERV_PREP_H
#define ARCOLL_COLLECTIVES_ALLGATHERV_PREP_H

#include <mpi.h>

#include "coll.h"

typedef struct arcoll_agv {
  int P, pos, *order;      /**< positions; order[pos] = communicator rank */
  char *rbuf;              /**< recvbuf */
  const MPI_Aint *counts;  /**< recvcounts per rank (each <= INT_MAX); NULL: all `count` */
  const MPI_Aint *displs;  /**< displs per rank, in extents of rtype; NULL: r x `count` */
  MPI_Aint count;          /**< elements per block when counts == NULL (<= INT_MAX) */
  MPI_Datatype rtype;
  MPI_Aint rext;           /**< extent of rtype, bytes */
  MPI_Aint *tdispls;       /**< scratch: P byte displacements for the types */
  int *tlens;              /**< scratch: P block lengths for the types */
  int k;                   /**< the schedule's algorithm parameter (s->k; 0: default) */
} arcoll_agv_t;

/** Returned by the preparations when every block is empty (a is then empty). */
#define ARCOLL_AGV_NOTHING (-1)

/** Allgatherv form.  @return MPI_SUCCESS, ARCOLL_AGV_NOTHING, or an error
 *  (MPI_ERR_COUNT: a count above INT_MAX or below 0, or sendcount above
 *  INT_MAX; MPI_ERR_NO_MEM; MPI_ERR_ARG: bad s->order; errors of MPI calls). */
int arcoll_agv_prepare(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                       MPI_Datatype recvtype, MPI_Comm comm, const arcoll_sched_t *s,
                       arcoll_agv_t *a);

/** Allgather form: every block recvcount elements, block r at r x recvcount
 *  extents.  @return MPI_SUCCESS, ARCOLL_AGV_NOTHING (recvcount 0 or a
 *  zero-size recvtype, checked first), or an error (MPI_ERR_COUNT: recvcount
 *  or sendcount above INT_MAX, or recvcount below 0; others as above). */
int arcoll_agv_prepare_equal(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm, const arcoll_sched_t *s, arcoll_agv_t *a);
void arcoll_agv_done(arcoll_agv_t *a);

/** The body of an algorithm over a prepared call (tag: s->tag). */
typedef int (*arcoll_agv_body_fn)(arcoll_agv_t *a, int tag, MPI_Comm comm);

/** Allgatherv entry: arcoll_agv_prepare(), then body (not for
 *  ARCOLL_AGV_NOTHING: MPI_SUCCESS), then arcoll_agv_done().
 *  @return the preparation's error or body's result. */
int arcoll_agv_call(arcoll_agv_body_fn body, const void *sendbuf, MPI_Aint sendcount,
                    MPI_Datatype sendtype, void *recvbuf, const MPI_Aint *recvcounts,
                    const MPI_Aint *displs, MPI_Datatype recvtype, MPI_Comm comm,
                    const arcoll_sched_t *s);

/** Allgather entry: the same with arcoll_agv_prepare_equal(). */
int arcoll_agv_call_equal(arcoll_agv_body_fn body, const void *sendbuf, MPI_Aint sendcount,
                          MPI_Datatype sendtype, void *recvbuf, MPI_Aint recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm, const arcoll_sched_t *s);

/** The ring's body (allgatherv_ring.c): P-1 steps, the block of position
 *  pos - i to pos + 1, that of pos - i - 1 from pos - 1; also the
 *  neighbor exchange's for odd P. */
int arcoll_agv_ring(arcoll_agv_t *a, int tag, MPI_Comm comm);

/** Communicator rank of position q (mod P). */
static inline int arcoll_agv_rank(const arcoll_agv_t *a, int q) {
  return a->order[((q % a->P) + a->P) % a->P];
}
/** Address of the block of position q (mod P) in recvbuf. */
static inline char *arcoll_agv_block(const arcoll_agv_t *a, int q) {
  const int r = arcoll_agv_rank(a, q);
  return a->rbuf + (a->displs ? a->displs[r] : (MPI_Aint)r * a->count) * a->rext;
}
/** Elements of rtype in the block of position q (mod P). */
static inline int arcoll_agv_count(const arcoll_agv_t *a, int q) {
  return (int)(a->counts ? a->counts[arcoll_agv_rank(a, q)] : a->count);
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
