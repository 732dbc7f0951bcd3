/**
 * @file reduce_scatter_prep.h
 * @brief Prologue shared by the reduce_scatter algorithms (internal;
 *        reduce_scatter.h).
 */
#ifndef ARCOLL_COLLECTIVES_REDUCE_SCATTER_PREP_H
#define ARCOLL_COLLECTIVES_REDUCE_SCATTER_PREP_H

#include <mpi.h>

#include "reduce_util.h"

/** What a reduce_scatter algorithm reads before it communicates. */
typedef struct arcoll_rsc {
  arcoll_red_call_t c;  /**< P, me, tag, the datatype's layout */
  const char *in;       /**< the input (P blocks): sendbuf, or recvbuf for MPI_IN_PLACE */
  const MPI_Aint *cnt;  /**< recvcounts (elements of rank r's block) */
  MPI_Aint *disp;       /**< disp[r] = first element of rank r's block, disp[P] = total */
  MPI_Aint maxcnt;      /**< the largest count */
  int *map, pos;        /**< position -> rank (free() with arcoll_rsc_end), the caller's position */
} arcoll_rsc_t;

/**
 * Fills *r; positions from s->order when use_order (else identity).
 * *done = 1: nothing more to do (all counts 0, zero-size type, or P == 1:
 * the input's block 0 is then already copied into recvbuf).  Returns
 * MPI_SUCCESS, MPI_ERR_NO_MEM, MPI_ERR_ARG (bad s->order) or an MPI error;
 * call arcoll_rsc_end() in every case.
 */
int arcoll_rsc_begin(const void *sendbuf, void *recvbuf, const MPI_Aint *counts,
                     MPI_Datatype dt, MPI_Comm comm, const arcoll_sched_t *s, int use_order,
                     arcoll_rsc_t *r, int *done);

/** Frees what arcoll_rsc_begin allocated. */
void arcoll_rsc_end(arcoll_rsc_t *r);

/** Rank at position q (mod P). */
static inline int arcoll_rsc_rank(const arcoll_rsc_t *r, int q) {
  const int P = r->c.P;
  return r->map[((q % P) + P) % P];
}

/** Elements of the block of the rank at position q (mod P). */
static inline MPI_Aint arcoll_rsc_count(const arcoll_rsc_t *r, int q) {
  return r->cnt[arcoll_rsc_rank(r, q)];
}

/** Address of the input block of the rank at position q (mod P). */
static inline const char *arcoll_rsc_in(const arcoll_rsc_t *r, int q) {
  return r->in + r->disp[arcoll_rsc_rank(r, q)] * r->c.ti.extent;
}

#endif
