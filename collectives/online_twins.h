/**
 * @file online_twins.h
 * @brief A far-first variant is measured after its near-first twin won
 *        (collectives/online.h), not beside it.  Internal to collectives/.
 *
 * The far-first variants (ARCOLL_ALGO_FAR_FIRST: reduce rsag_far,
 * allreduce rabenseifner_far, reduce_scatter(_block) recursive_halving)
 * send the same messages as their near-first twins (rsag, rabenseifner,
 * recursive_halving_near) in the other dimension order, and the model,
 * which has no topology, predicts both the same: what separates them is
 * the network's hierarchy, which also decides whether that family is worth
 * anything.  Measured beside each other in round 0, the far one costs as
 * much as the near one where both lose (SMPI two-level tree, 160:1 uplinks,
 * P = 64, 32 KiB back-to-back reduce, balanced, 200 calls: rsag 0.085 s
 * per call summed over ranks, rsag_far 0.30 s, binomial's kept calls
 * 0.0049 s; the exploration 42 % of the run's time inside).  So round 0
 * holds the far variant back (e->far), and it is measured in a round of its
 * own right after round 0 only when its near twin is round 0's best
 * (and the exploration's budget, online.h, is not spent): it then replaces
 * the twin if measured faster, as a refinement round's candidate does.
 * That round is one run, not `trials` runs: the model's equal prediction
 * says nothing of its cost, and where the network's hierarchy goes
 * against it the far variant is several times slower (SMPI two-level tree,
 * P = 64, 1 MiB allreduce, balanced: rabenseifner_far 14.4 s per call
 * summed over ranks against rabenseifner's 1.34; its two runs 1.10x SMPI's
 * better selector over 200 calls,
 * bench/notes/adaptive-layer-2026-12-03-to-04.md "The far twin once").
 * Where round 0 holds the twins alone, both stay in it (one candidate
 * would be no measurement, and no readmission where the model is far off),
 * the near twin first with its trials and the far one run once (its run
 * stands for its trials, arcoll_explorer_t::once_from): SMPI two-level tree,
 * P = 256, 32 KiB back-to-back allreduce, balanced, 200 calls, summed over
 * ranks: rabenseifner 0.427 s per call, rabenseifner_far 2.76 and 2.86 s in
 * its two runs, 90.15 s in all against 85.38 for SMPI's ompi selector
 * (bench/notes/adaptive-layer-2026-12-05.md "The far twin alone in round 0").
 * Where the near twin is round 0's first candidate (allreduce, reduce), its
 * own halving steps, timed in its trials, rule the far variant out before it
 * runs when they bound its time at 1.5x the twin's or more (online_steps.h).
 * From ARCOLL_ONLINE_FAR_FIRST_MIN_BYTES only (below, the far variant is
 * not measured at all: online.h).  No MPI.
 */
#ifndef ARCOLL_COLLECTIVES_ONLINE_TWINS_H
#define ARCOLL_COLLECTIVES_ONLINE_TWINS_H

#include "online.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Index of the near-first twin of far-first configuration `far` among
 *  e->cand[0 .. e->n) (same collective, name without "_far", or with
 *  "_near" appended), or -1. */
int arcoll_explorer_near_twin(const arcoll_explorer_t *e, const arcoll_choice_t *far);

/**
 * Part of arcoll_explorer_init() (round 0 set up, nothing run): the first
 * far-first candidate whose near twin is also a candidate leaves round 0
 * for e->far (e->has_far = 1); the later candidates move up.  Not when
 * round 0 has two candidates or fewer (the twins alone: one left would be
 * no measurement at all); when those two are twins, the near one becomes
 * cand[0] and the far one runs once (e->once_from = 1).  Returns 1 when one
 * was held back, else 0.
 */
int arcoll_explorer_hold_far(arcoll_explorer_t *e);

/**
 * After round 0's decision (arcoll_explorer_decide_periods, no readmitted
 * pass due): when a far variant is held back, its near twin is e->best and
 * the exploration's excess is below its budget, the next round measures
 * the far variant alone (e->round = 1); the held variant is dropped either
 * way.  Returns 1 when that round was set up, else 0.
 */
int arcoll_explorer_far_round(arcoll_explorer_t *e);

#ifdef __cplusplus
}
#endif
#endif
