/**
 * @file alltoall_prep.h
 * @brief Argument preparation shared by the alltoall algorithms (internal).
 *
 * Resolves the order, the block sizes and MPI_IN_PLACE (copy of recvbuf's
 * span) into an arcoll_a2a_t; release with arcoll_a2a_done().
 */
#ifndef ARCOLL_COLLECTIVES_ALLTOALL_PREP_H
#define ARCOLL_COLLECTIVES_ALLTOALL_PREP_H

#include <mpi.h>

#include "coll.h"

typedef struct arcoll_a2a {
  int P, pos, *order;
  const void *sbuf; /**< send data (a copy of recvbuf for MPI_IN_PLACE) */
  int scount, rcount; /**< elements per block */
  MPI_Datatype stype, rtype;
  MPI_Aint sext, rext; /**< extents in bytes */
  MPI_Aint bb;         /**< bytes of one block (type signature size) */
  void *inplace_raw;   /**< to free */
} arcoll_a2a_t;

/** Returned by arcoll_a2a_prepare() for zero-size blocks (a is then empty). */
#define ARCOLL_A2A_NOTHING (-1)

/** @return MPI_SUCCESS, ARCOLL_A2A_NOTHING (zero-size blocks: nothing to do),
 *          or an error (MPI_ERR_COUNT, MPI_ERR_NO_MEM, MPI_ERR_ARG, MPI errors). */
int arcoll_a2a_prepare(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       const arcoll_sched_t *s, arcoll_a2a_t *a);
void arcoll_a2a_done(arcoll_a2a_t *a);

#endif
