/**
 * @file online_steps.h
 * @brief A far-first variant is not measured where its near twin's own
 *        halving steps show it cannot win.  Internal to collectives/.
 *
 * The far-first variants (online_twins.h: allreduce rabenseifner_far,
 * reduce rsag_far) send the messages of their near twins in the other
 * dimension order (reduce_scatter_halving.h): step i of the near twin
 * exchanges b_i = M / 2^(i+1) bytes between positions 2^i apart, the far
 * twin sends those b_i between positions 2^(L-1-i) apart (L = log2 P2
 * steps).  The model has no topology and predicts both the same, so the far
 * one was measured once after (or beside) its twin; where ranks are numbered
 * along the network's hierarchy it is several times slower (SMPI two-level
 * tree, 160:1 uplinks: P = 64, 1 MiB allreduce, 14.4 s per call summed over
 * ranks against the twin's 1.34; P = 256, 32 KiB, 2.8 against 0.43; that one
 * run 2.7-5 % of a 200-call run: bench/notes/adaptive-layer-2026-12-03-to-04.md
 * "The far twin once", adaptive-layer-2026-12-05.md "The far twin alone in
 * round 0").
 *
 * The near twin's runs tell enough to rule it out.  Each of its measured
 * runs in round 0 times the exchange of every halving step on every rank
 * (coll.h arcoll_sched_t step_s); the per-step minimum over runs is
 * reduced with MIN over ranks (MIN keeps a late rank's wait - its
 * partner's, at the first step - out), and every rank decides on the same
 * figures: where the far variant is held back for a round after round 0
 * (online_twins.h), with round 0's decision (its MAX reduction,
 * arcoll_explorer_period_extremes(): no call of its own); where round 0
 * holds the twins alone, in one allreduce of L doubles, blocking, in the
 * call after the near twin's trials, before the far one runs.  With
 * step i costing alpha_i + beta_i b at its distance (alpha, beta >= 0), the
 * far twin's time minus the near one's is sum_i beta_i (b_(L-1-i) - b_i):
 * its near half (i < ceil(L/2)) gains at most t_i / b_i per byte moved away,
 * its far half loses at least (t_i - min_j t_j) / b_i per byte moved there.
 * When that lower bound of the far twin's time is at least
 * ARCOLL_ONLINE_FAR_LOSES x the near twin's steps, the far variant is not
 * measured: where the network is flat the bound stays below (latency and
 * bandwidth alike at every distance), and where ranks are numbered across the
 * hierarchy (round-robin) the near half's steps are the slow ones and the
 * far twin is still measured.  Allreduce and reduce from
 * ARCOLL_ONLINE_FAR_FIRST_MIN_BYTES, where the twin is round 0's first
 * candidate and no imbalance check is due.  No MPI but
 * arcoll_explorer_steps_exchange().
 */
#ifndef ARCOLL_COLLECTIVES_ONLINE_STEPS_H
#define ARCOLL_COLLECTIVES_ONLINE_STEPS_H

#include "online.h"

#ifdef __cplusplus
extern "C" {
#endif

/** arcoll_explorer_record_period()'s answer when the steps' exchange is due
 *  (call arcoll_explorer_steps_exchange() now, on every rank). */
#define ARCOLL_ONLINE_STEPS_DUE 3

/**
 * The rule (header) on t[0 .. L): step i's seconds (MIN over ranks of each
 * rank's minimum over runs) of the near-first twin for a message of `bytes`
 * bytes.  Returns 1 when the far-first twin's time is bounded below at
 * ARCOLL_ONLINE_FAR_LOSES x sum(t) or more, else 0 (also for L < 2, bytes <= 0
 * or a t[i] not finite and positive); *ratio (may be NULL) = that lower bound
 * / sum(t), 0 when not computed.
 */
int arcoll_far_first_loses(const double *t, int L, double bytes, double *ratio);

/** Part of arcoll_explorer_init(), after arcoll_explorer_hold_far(): where
 *  the rule applies (header), e->steps_at = trials (the twins alone) or
 *  e->steps_carry = 1 (the far variant held back); else both 0. */
void arcoll_explorer_steps_setup(arcoll_explorer_t *e);

/** Before a run: the buffer (ARCOLL_ONLINE_MAX_STEPS doubles) the run's
 *  halving algorithm fills (arcoll_sched_t step_s) when it is one of the near
 *  twin's runs before the exchange, else NULL. */
double *arcoll_explorer_step_buffer(arcoll_explorer_t *e);

/** Part of arcoll_explorer_record_period(): a measured run of round 0 that
 *  did not fail, before the exchange: its steps into e->step_min. */
void arcoll_explorer_steps_fold(arcoll_explorer_t *e);

/** While the steps travel with round 0's decision: writes minus each step's
 *  minimum to out (MAX over ranks = minus the MIN) and returns their number,
 *  else 0.  Part of arcoll_explorer_period_extremes(). */
int arcoll_explorer_steps_pack(const arcoll_explorer_t *e, double *out);

/** The same condition: `in` = what steps_pack wrote, reduced with MAX over
 *  ranks; arcoll_explorer_steps_apply() on it (the far variant dropped where
 *  it cannot win); the steps no longer travel.  Part of
 *  arcoll_explorer_decide_extremes(), before the far round is set up. */
void arcoll_explorer_steps_unpack(arcoll_explorer_t *e, const double *in);

/**
 * The local part of the exchange: `min_s` = e->step_min's MIN over ranks.
 * When the rule holds the far variant is dropped - held back (has_far = 0) or
 * round 0's second candidate (the twins alone: the exploration then ends with
 * the near twin, finished = 1) - and 1 is returned, else 0.  *ratio as
 * arcoll_far_first_loses().  Clears steps_at.
 */
int arcoll_explorer_steps_apply(arcoll_explorer_t *e, const double *min_s, double *ratio);

/** The exchange (one MPI_Allreduce MIN of the steps over comm), then
 *  arcoll_explorer_steps_apply().  Returns MPI_SUCCESS or the allreduce's error
 *  (nothing dropped then). *dropped: apply's answer (0 on error). */
int arcoll_explorer_steps_exchange(arcoll_explorer_t *e, MPI_Comm comm, int *dropped, double *ratio);

#ifdef __cplusplus
}
#endif
#endif
