/**
 * @file online_noted.h
 * @brief Runs of a candidate made while the online selection waits count
 *        as that candidate's round-0 runs (collectives/online.h).
 *
 * Where: a tracked broadcast explores only after the first lateness
 * summary (adapt/late_order.c, adapt/LATENESS.md "Lateness"); until then its
 * calls run the tolerant binomial, unmeasured.  The exploration then
 * measured binomial again, at the model's segment size and after the
 * other candidates: SMPI flat P = 256, 32 KiB back-to-back bcast, 200
 * calls, balanced, sum over ranks per call: binomial's two runs 0.165 and
 * 0.090 s against 0.047 s for the winner (its first call refills the
 * pipeline the others drained) and the call after them 0.108 s (draining
 * it again).  With its latest `trials` waiting runs noted, binomial at the
 * waiting runs' segment size is the round's last candidate and its runs
 * are those: the round ends after the others.
 *
 * Protocol: arcoll_explorer_note_run() after every waiting call, on every
 * rank (a failed call noted as failed: every rank must preset alike).
 * When the configuration changes, the kept runs are dropped.  Once
 * `trials` runs are kept and an algorithm of the round's candidates other
 * than cand[0] is the noted one's, that candidate moves to the end of the
 * list (ties between sums go to the earlier measured: it loses them, as
 * when the model ranks it last), takes the noted segment size and k (and
 * the model's prediction for them), its round-0 slots take the runs, and
 * `preset` is set: arcoll_explorer_record_period() ends the round when the
 * others are done.  Later notes replace the oldest run.  Nothing happens
 * once round 0's first run was recorded (done > 0), after the warm-up
 * started, in a later round, when the round has an imbalance check or an
 * appended candidate (check_at, extra_at: their indices are positions) or
 * when fewer than two candidates exist.
 */
#ifndef ARCOLL_COLLECTIVES_ONLINE_NOTED_H
#define ARCOLL_COLLECTIVES_ONLINE_NOTED_H

#include "online.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Note one run of configuration `c` (algo, segment_bytes, k) made outside
 * the exploration: `seconds` inside the call, `period` since the previous
 * noted or measured call's exit (seconds); failed != 0: the run failed
 * (kept as +inf).  Returns 1 when the round's last candidate is now preset
 * from the noted runs, else 0.
 */
int arcoll_explorer_note_run(arcoll_explorer_t *e, const arcoll_choice_t *c, double seconds,
                             double period, int failed);

#ifdef __cplusplus
}
#endif
#endif
