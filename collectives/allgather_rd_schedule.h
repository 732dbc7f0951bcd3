/**
 * @file allgather_rd_schedule.h
 * @brief Internal to collectives/: the recursive-doubling exchange schedule
 *        for any P (Thakur, Rabenseifner, Gropp 2005, with a fold / unfold
 *        of the positions beyond the largest power of two P2), shared by
 *        allgather_recursive_doubling.c and allgatherv_recursive_doubling.c.
 *        The schedule is lists of positions; the caller's block-set types
 *        (allgather_prep.h, allgatherv_prep.h) say where their blocks are.
 *
 * Position pos >= P2 sends its block to pos - P2 and receives every other
 * block back at the end; positions < P2 take their partner's block, then in
 * log2 P2 steps exchange with pos ^ k the blocks of their group of k
 * (positions base .. base + k - 1 and their folded partners).
 */
#ifndef ARCOLL_COLLECTIVES_ALLGATHER_RD_SCHEDULE_H
#define ARCOLL_COLLECTIVES_ALLGATHER_RD_SCHEDULE_H

#include <mpi.h>

/** The blocks of one allgather(v) call, seen by the schedule. */
typedef struct arcoll_rd_blocks {
  void *ctx;   /**< the caller's preparation (arcoll_ag_t, arcoll_agv_t) */
  char *rbuf;  /**< recvbuf: every type below is relative to it */
  int P, pos;  /**< positions, and this rank's */
  /** A type for the blocks of positions pos[0..n-1] (n >= 1), relative to
   *  rbuf; MPI_SUCCESS or an MPI error. */
  int (*list_type)(void *ctx, const int *pos, int n, MPI_Datatype *t);
  /** Communicator rank of position q (0 <= q < P). */
  int (*rank)(void *ctx, int q);
} arcoll_rd_blocks_t;

/** Runs the schedule on comm with tag; MPI_SUCCESS, MPI_ERR_NO_MEM (2P ints
 *  of scratch) or the first MPI error. */
int arcoll_allgather_rd_schedule(const arcoll_rd_blocks_t *b, int tag, MPI_Comm comm);

#endif
