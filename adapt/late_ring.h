/**
 * @file late_ring.h
 * @brief The lateness coordinator's receives of records (late_tracker.h,
 *        step 2): P receives kept posted in a ring, drained without
 *        MPI_Test.  Internal to libarcoll.so; late_ring.c says why.
 */
#ifndef ARCOLL_ADAPT_LATE_RING_H
#define ARCOLL_ADAPT_LATE_RING_H

#include "late_tracker.h"

/** Allocate and post t's ring (P receives of ARCOLL_LATE_WIRE_MAX bytes,
 *  MPI_ANY_SOURCE, t->tag) unless it is open.  MPI_SUCCESS, an MPI error
 *  or MPI_ERR_NO_MEM.  Local. */
int arcoll_late_ring_open(arcoll_late_tracker_t *t);

/** Complete every posted receive (self-sent tokens, no MPI_Cancel) and free
 *  the ring.  Local. */
void arcoll_late_ring_close(arcoll_late_tracker_t *t);

/** Complete, in posting order, the receives matched before a self-sent
 *  token, then more until t->nrecv >= need; each unpacked record message
 *  goes to use(msg, source rank, t); completed slots are posted again.
 *  MPI_SUCCESS or an MPI error. */
int arcoll_late_drain(arcoll_late_tracker_t *t, int need,
                      void (*use)(const arcoll_late_msg_t *, int, void *));

/** As arcoll_late_drain's second part, without a token: complete the
 *  receives in posting order until t->nrecv >= need or PMPI_Wtime() reaches
 *  `deadline` (seconds, this rank's clock), polling with PMPI_Test (under
 *  SMPI a 2 us sleep between polls, so the simulated clock moves; SimGrid
 *  charges a test 0.1 ms unless smpi/test:0).  MPI_SUCCESS or an MPI
 *  error; t->nrecv < need afterwards: the deadline passed. */
int arcoll_late_drain_until(arcoll_late_tracker_t *t, int need, double deadline,
                            void (*use)(const arcoll_late_msg_t *, int, void *));

/** A trial's records (late_trees.h arcoll_late_trial_wait): the receives
 *  matched before a self-sent token, then more until t->nrecv >= need or
 *  the wait has cost the ranks waiting for the coordinator
 *  ARCOLL_TREES_WAIT_CALLS calls of the trial (arcoll_late_ready_at of each
 *  arrived rank's records at t->gather calls, the coordinator from now;
 *  arcoll_late_trial_deadline, recomputed at each arrival).  *complete = 1
 *  when need records arrived.  MPI_SUCCESS or an MPI error. */
int arcoll_late_drain_trial(arcoll_late_tracker_t *t, int need,
                            void (*use)(const arcoll_late_msg_t *, int, void *), int *complete);

#endif
