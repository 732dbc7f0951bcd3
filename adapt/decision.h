/**
 * @file decision.h
 * @brief Internal to libarcoll.so: the online selection's deferred decisions
 *        (collectives/online.h, "Deferred decisions").
 *
 * After the last measured call of a round, instead of two blocking
 * allreduces inside that call, the round's times inside (SUM over ranks)
 * and periods (MAX over ranks) travel in two nonblocking schedules of the
 * library's own (nbc.h: point-to-point rounds progressed inside the next
 * interposed calls), and the decision applies at the end of the
 * `lag`-th call of the same (collective, class) after that round: the same
 * call on every rank, so every rank takes the same decision.  Meanwhile
 * every rank runs the explorer's current best (round 0: the model's best),
 * unmeasured.  At the deadline a rank whose schedules are not finished
 * blocks for the rest of them (the lag-th call is then synchronising, which
 * MPI allows of any collective).
 */
#ifndef ARCOLL_ADAPT_DECISION_H
#define ARCOLL_ADAPT_DECISION_H

#include "dispatch.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Calls between the end of ex's round and its decision (0: decide in the
 *  round's last call).  ARCOLL_ONLINE_LAG when set.  Else
 *  arcoll_explorer_lag(): 0 for rooted collectives and scans, and unless
 *  the blocking decision (two allreduces of the round's n x trials
 *  doubles, by the model) would cost more than a call of ex->best (the
 *  model's time, the same on every rank): small messages; then 2 ceil(log2 P), within
 *  [2, 16].  Why not always: the lag's calls run best, which is round 0's
 *  cand[0] - the model's choice - and where the model is off that is the
 *  slow one (SMPI tree platform, 160:1 uplinks, P = 64, 64 KiB reduce: rsag
 *  3.2 ms per call vs binomial's 2.1 ms, 12 calls).  The lag: the reduction
 *  has ceil(log2 P) rounds at P = 2^k, 2 ceil(log2 P) otherwise, each posted
 *  when the previous one has completed inside some interposed call;
 *  measured (SMPI flat P = 64, 200 calls, balanced, time inside vs SMPI's
 *  selectors, ARCOLL_ONLINE_LAG forced): 8 B scatter lag 2 1.045, 4 1.035,
 *  7 1.021, 12 1.005, blocking 1.069 (rooted: no longer deferred, online.h);
 *  8 B allreduce 1.029 .. 1.025 for all four, blocking 1.039. */
ARCOLL_HIDDEN int arcoll_decision_lag(const arcoll_explorer_t *ex, int P);

/**
 * Start the deferred decision of ex's round (ex->n x ex->trials runs all
 * recorded) on st's private communicator: sets ex->pending and the entry's
 * countdown to `lag` calls.  Collective over st->priv in the sense of a
 * nonblocking collective (every rank starts it at the same call).  Returns
 * MPI_SUCCESS, or an error (no memory, PMPI failure) after which the
 * decision was taken the blocking way (arcoll_explorer_decide).
 */
ARCOLL_HIDDEN int arcoll_decision_start(arcoll_comm_state_t *st, arcoll_cached_t *e, int lag);

/**
 * One call of e's class ran while its decision is pending: returns 0 while
 * calls remain; at the deadline completes the schedules (blocking if
 * needed), applies arcoll_explorer_decide_times() and returns 1 (*rc: the
 * schedules' error, MPI_SUCCESS if none; on error the exploration ends with
 * its current best on this rank).
 */
ARCOLL_HIDDEN int arcoll_decision_step(arcoll_cached_t *e, int *rc);

/** Complete every pending decision of st now (state teardown: MPI_Comm_free,
 *  MPI_Finalize; collective, every rank has the same ones pending). */
ARCOLL_HIDDEN void arcoll_decision_settle(arcoll_comm_state_t *st);

#ifdef __cplusplus
}
#endif
#endif
