/**
 * @file online_readmit.h
 * @brief Round 0's readmission (collectives/online.h, "Unless the model is
 *        far off"): the candidates the 2x rule dropped, measured when the
 *        model does not describe the network, one run each and within the
 *        exploration's budget.  Internal to collectives/.  No MPI.
 *
 * When round 0's fastest configuration took more than
 * ARCOLL_ONLINE_MODEL_OFF x its predicted time (time inside, mean over
 * ranks; f = measured / predicted) and no arrival skew explains it (its
 * period, max over ranks, at most ARCOLL_ONLINE_SKEW_PERIODS x both its min
 * over ranks and its mean time inside), the spare candidates (dropped for
 * their prediction) predicted within min(f, ARCOLL_ONLINE_MAX_READMIT) x
 * the best prediction of round 0 are queued, best predicted first (SMPI
 * tree P = 64, 4 KiB, cluster256 model: allgather recursive doubling
 * measured 915 us against 30 us predicted, gather_bcast - predicted 4.7x
 * slower - 307 us; reduce_scatter_block recursive halving 891 us, ring
 * (8.5x) 578 us).  Only when round 0 does not show the model's order
 * holding: where the candidate the model predicted fastest among round 0's
 * was measured best and another, predicted slower, was measured too, the
 * model is off in scale, not in order, and nothing is readmitted (SMPI
 * tree P = 64, 1 MiB allreduce, balanced: round 0 measured rabenseifner,
 * ring / 16 KiB and ring at 9.4x, 8.6x and 7.5x their predictions, in the
 * predicted order; the readmitted recursive doubling, predicted 2.77x,
 * took 14.5x the best: 1.073x SMPI's better selector over 200 calls;
 * without it 1.054x, the far twin's one run, online_twins.h -
 * bench/notes/adaptive-layer-2026-12-03-to-04.md "The readmission only
 * against the model's order").
 *
 * Each queued candidate then runs once (not `trials` times) in a pass of
 * its own, and is decided alone, so the exploration's budget
 * (ARCOLL_ONLINE_BUDGET_CALLS x the best time, the same as a refinement
 * round's) holds: a candidate runs only when the budget left pays its
 * expected excess - its prediction scaled by the best's measured /
 * predicted ratio, beyond the best time - and after a run that spent the
 * budget (the model is off for that one too) nothing more is readmitted.
 * Why: measured by its trials, without the budget, the readmission cost a
 * 1 MiB allreduce 14 % of a 200-call run (SMPI two-level tree, 160:1
 * uplinks, P = 64, balanced, cluster256 model: recursive doubling,
 * predicted 2.77x the best, took 14.5x the best measured on each of its 2
 * calls, 36 s of the 37.6 s gap to SMPI's better selector, summed over
 * ranks; bench/notes/adaptive-layer-2026-11-30.md "1 MiB").
 */
#ifndef ARCOLL_COLLECTIVES_ONLINE_READMIT_H
#define ARCOLL_COLLECTIVES_ONLINE_READMIT_H

#include "online.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Part of arcoll_explorer_decide_periods(), after a round-0 decision (best,
 * best_s, excess_s updated).  The first call decides whether the model is
 * off (best_min_s: the best's period, min over ranks, seconds; +inf when
 * unknown) and queues the spare candidates; each call sets up the next
 * pass - one queued candidate, one run (e->trials 1 while readmitting) -
 * whose expected excess the budget left pays.  Returns 1 when a pass was
 * set up; 0 when the readmission is over (e->nspare -1, e->trials back to
 * init's), and the exploration goes on as after round 0.
 */
int arcoll_explorer_readmit(arcoll_explorer_t *e, double best_min_s);

/** Expected excess (seconds, summed over ranks) of one run of `c`: its
 *  prediction x e->best_s / e->best.predicted_s, minus e->best_s; +inf
 *  without predictions. */
double arcoll_explorer_readmit_cost(const arcoll_explorer_t *e, const arcoll_choice_t *c);

#ifdef __cplusplus
}
#endif

#endif
