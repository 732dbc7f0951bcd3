/**
 * @file reduce_scatter_block_prep.h
 * @brief Prologue shared by the reduce_scatter_block algorithms (internal).
 */
#ifndef ARCOLL_COLLECTIVES_REDUCE_SCATTER_BLOCK_PREP_H
#define ARCOLL_COLLECTIVES_REDUCE_SCATTER_BLOCK_PREP_H

#include <mpi.h>

#include "reduce_util.h"

/** What a reduce_scatter_block algorithm reads before it communicates. */
typedef struct arcoll_rsb {
  arcoll_red_call_t c; /**< P, me, tag, the datatype's layout */
  const char *in;      /**< the input (P blocks): sendbuf, or recvbuf for MPI_IN_PLACE */
  MPI_Aint blk;        /**< bytes between blocks: count x extent */
  int *map, pos;       /**< position -> rank (free()), the caller's position */
} arcoll_rsb_t;

/**
 * Fills *r; positions from s->order when use_order (else identity).
 * *done = 1: nothing more to do (count 0, zero-size type, or P == 1: the
 * input's block 0 is then already copied into recvbuf).  Returns
 * MPI_SUCCESS, MPI_ERR_NO_MEM, MPI_ERR_ARG (bad s->order) or an MPI error.
 */
int arcoll_rsb_begin(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                     MPI_Comm comm, const arcoll_sched_t *s, int use_order, arcoll_rsb_t *r,
                     int *done);

/** Address of the input block of the rank at position q (mod P). */
static inline const char *arcoll_rsb_in(const arcoll_rsb_t *r, int q) {
  const int P = r->c.P;
  return r->in + (MPI_Aint)r->map[((q % P) + P) % P] * r->blk;
}

#endif
