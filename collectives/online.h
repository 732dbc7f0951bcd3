/**
 * @file online.h
 * @brief Online selection: measure the model's few best candidates on the
 *        first calls of a (communicator, collective, size class), refine the
 *        fastest one's segment size, then keep the fastest measured
 *        configuration.
 *
 *
 * Why: the model (model.c) is a prediction; where the network is not the one
 * it describes only a measurement tells (seed 001, 001_6a837e3d9ad6c429.txt,
 * adapts from measurements taken during the run).
 *
 * Protocol, identical on every rank of the communicator: init() picks the
 * model's best candidates (at most ncand, select.h), each run `trials` times
 * back to back; the caller times each call (seconds: time inside and period)
 * and passes them to record_period(); after a round, decide() agrees on the
 * fastest over the communicator (two MPI_Allreduce: SUM of the times inside,
 * MAX of the periods); rounds 1..refine halve / double the best's segment
 * size while that measures faster; next() returns NULL once the exploration
 * ended, `best` is then the choice.  The whole protocol, the cost bounds
 * (2x rule, 5 % budget, readmission when the model is far off), the gather
 * and reduce imbalance checks and the measurements behind each rule:
 * collectives/ONLINE.md.  Confirmation of ties: online_confirm.h; warm-up
 * calls and deferred decisions: online_pacing.h.
 */
#ifndef ARCOLL_COLLECTIVES_ONLINE_H
#define ARCOLL_COLLECTIVES_ONLINE_H

#include <mpi.h>

#include "online_limits.h"
#include "select.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct arcoll_explorer {
  int n;      /**< candidates of the current round (0..ARCOLL_ONLINE_MAX_CANDIDATES) */
  int trials; /**< runs per candidate */
  int done;   /**< runs of the current round recorded so far (0..n*trials) */
  int round;  /**< 0: the model's candidates; 1..: segment refinement */
  int refine; /**< refinement rounds allowed (0..ARCOLL_ONLINE_MAX_REFINE) */
  int dir;    /**< direction of the refinement: +1 larger segments, -1 smaller, 0 not yet known */
  int finished; /**< 1 once the exploration ended (best is the choice) */
  int runs;   /**< calls measured so far, all rounds */
  int check_at; /**< round 0: runs after which the imbalance check is due (0: none) */
  /** round 0: unmeasured runs of cand[0] still to make before the first
   *  measured one (0 after init; the caller may set it before the first
   *  call; online_pacing.h, "Warm-up") */
  int warmup;
  /** round 0: index of the candidate appended by arcoll_explorer_add() (0:
   *  none) and its unmeasured runs still to make before its first measured
   *  one (0 after the append; the caller may set it; online_pacing.h, "Warm-up":
   *  a candidate of another code path - the MPI library's own collective -
   *  is cold on its first call too) */
  int extra_at, warmup_extra;
  /** round 0: candidates from this index on run once, their run recorded
   *  for each of their `trials` (0: none).  Gather from
   *  ARCOLL_ONLINE_SKEW_MAX_BYTES (init: 1): its non-roots do not wait for
   *  the root (a linear or compressed gather's blocks leave as eager
   *  sends), so each run of such a candidate lets them run a root period
   *  further ahead, and the decision's synchronisation then makes every
   *  rank wait for the root's backlog - the exploration's cost grows with
   *  those runs.  cand[0], binomial, keeps its `trials`: its period is
   *  measured in its pipeline's fill, where single calls vary (SMPI flat,
   *  32 KiB: P = 256 call 3 8.08 ms balanced, call 4 8.99 ms with a rank
   *  late by 1 ms; P = 64 with it, calls 3, 4: 2.44, 2.20 ms against
   *  linear's 2.37) and the min of
   *  two is near its steady one.  SMPI flat P = 256, 32 KiB,
   *  balanced, 200 back-to-back calls, time inside summed over ranks:
   *  191.55 s with two runs each (the decision's call 16.65 s), 188.46 s
   *  with the others run once, 187.54 s with binomial too run once - but
   *  then at P = 64 with a late rank binomial's one run (2.44 ms) tied
   *  with linear's, whose confirmation cost 1.8 s (12.96 s against 11.76) -
   *  180.7 s binomial forced, 184.2 s SMPI's selectors (bench/notes/adaptive-layer-2026-11-28-to-29.md
   *  "Gather's exploration"). */
  int once_from;
  /** round 0: index of the bcast candidate that streams best (init,
   *  arcoll_select_stream; 0: none or cand[0]) and its unmeasured runs
   *  before its first measured one (init: 1): back to back, its first call
   *  after another algorithm's fills its pipeline and the next one still
   *  waits for ranks behind (SMPI flat P = 64, 32 KiB, chain / 8 KiB after
   *  twotree: 0.058 s, then 0.00415 s summed over ranks, steady 0.0019 s;
   *  with 2 runs measured it lost to binary's 0.0034 s) */
  int stream_at, warmup_stream;
  /** bcast, scatter (rooted decisions, 2 calls): while a decision is
   *  pending, `held` - the configuration of the last measured run - runs
   *  instead of the earlier best, so a streaming candidate is not left and
   *  re-entered around the decision (SMPI flat P = 64, 32 KiB bcast: chain
   *  -> scatter_rdb -> chain cost 0.066 + 0.060 s summed over ranks, a
   *  chain call 0.0019 s); has_held = 0: none yet.  Round 0 only: after a
   *  refinement round (the kept algorithm at other segment sizes, the
   *  same tree: nothing to leave) the kept configuration runs, not the
   *  last neighbour tried (SMPI 32 KiB bcast, 0-200 us noise, summed
   *  inside: binary / 16 KiB held 16 calls at 0.0055 s per call against
   *  binary / 8 KiB's 0.0027; flat P = 64 0.755 -> 0.734 s, tree P = 64
   *  3.90 -> 2.94 s) */
  arcoll_choice_t held;
  int has_held;
  /** round 0: 1 + the index of the candidate `held` is while a decision is
   *  pending, whatever ran last (0: the last measured one).  Set by
   *  arcoll_explorer_stream_only(hold_tree): where the arrivals are noisy
   *  the streaming candidate, measured last, is held back (SMPI flat P = 64,
   *  32 KiB bcast, every rank 0-1 ms before each call: the chain held 19
   *  calls at 0.027 s per call summed against the binary tree's 0.0107) */
  int hold_at;
  /** round 0 of a reduce whose chain streams (init: 1 when the chain is a
   *  candidate from ARCOLL_ONLINE_REDUCE_TREE_MAX_BYTES; it is then measured
   *  last): the decision is deferred by ARCOLL_ONLINE_REDUCE_STREAM_LAG calls
   *  and the chain, `held`, runs meanwhile (online_pacing.h); no refinement
   *  round follows (init: refine = 0) */
  int stream_lag;
  /** round 0 of such a reduce: 1 + the root of its first call (0: no call
   *  noted yet), and 1 once a call's root differed from it
   *  (arcoll_explorer_note_root): a root that moves refills the chain every
   *  call, so holding it through the deferred decision only costs (SMPI flat
   *  P = 64, 1 MiB, root c mod P at call c: the chain held 16 calls at 0.202
   *  s summed over ranks against rsag's 0.132); then the decision is not
   *  deferred (online_pacing.h).  Noted too in round 0 of a scatter and of a
   *  bcast (arcoll_explorer_mean_periods, arcoll_explorer_moving_root) */
  int root_first, root_moved;
  double imbalance; /**< the check's factor (init: ARCOLL_ONLINE_IMBALANCE; the caller may change it) */
  const arcoll_model_t *model; /**< init's model (predictions of refined sizes); must outlive *e */
  arcoll_coll_t coll;
  int P;
  MPI_Aint bytes; /**< message size the explorer was set up for (bytes) */
  arcoll_choice_t cand[ARCOLL_ONLINE_MAX_CANDIDATES]; /**< current round's candidates */
  /** seconds inside run r of the current round (r = candidate * trials + trial); +inf if it failed */
  double t[ARCOLL_ONLINE_MAX_CANDIDATES * ARCOLL_ONLINE_MAX_TRIALS];
  /** period of run r (seconds since the previous measured call's exit) */
  double p[ARCOLL_ONLINE_MAX_CANDIDATES * ARCOLL_ONLINE_MAX_TRIALS];
  double last_exit; /**< PMPI_Wtime() at the exit of the last measured call (0: none); the caller's */
  double measured_s[ARCOLL_ONLINE_MAX_CANDIDATES]; /**< after a decide: the round's min over trials of the sum over ranks */
  double measured_max_s[ARCOLL_ONLINE_MAX_CANDIDATES]; /**< ... and of the max over ranks */
  /** ... and of the period's min over ranks (+inf when the caller gave none) */
  double measured_min_s[ARCOLL_ONLINE_MAX_CANDIDATES];
  /** round-0 candidates dropped for their prediction (ARCOLL_ONLINE_MAX_SLOWDOWN),
   *  measured when the model is off (header; while readmitting, the queue,
   *  online_readmit.h); nspare = -1 once that was decided */
  arcoll_choice_t spare[ARCOLL_ONLINE_MAX_CANDIDATES];
  int nspare;
  /** 1 while round 0's readmitted candidates run, one run each (trials 1)
   *  and a pending decision runs `best`, not `held` (online_readmit.h) */
  int readmitting;
  /** init's trials: a one-run pass (a readmitted candidate, online_readmit.h;
   *  the far twin, online_twins.h) sets `trials` to 1 when it is set up, and
   *  every decision sets it back to this once the round's figures are read */
  int init_trials;
  arcoll_choice_t best; /**< after the first decide: fastest measured configuration so far */
  double best_s;        /**< its measured time, sum over ranks (seconds) */
  double best_max_s;    /**< its measured time, max over ranks (seconds) */
  double excess_s;      /**< measured calls' time beyond best_s so far, summed (seconds) */
  /** per algorithm measured (at most ARCOLL_ONLINE_MAX_CANDIDATES), its configuration with the
   *  shortest max period so far and that period (seconds): the confirmation's candidates */
  arcoll_choice_t rival[ARCOLL_ONLINE_MAX_CANDIDATES];
  double rival_max_s[ARCOLL_ONLINE_MAX_CANDIDATES];
  int nrival;
  /** steady-state confirmation (online_confirm.h): block length in calls (init: ARCOLL_ONLINE_CONFIRM_BLOCK
   *  for eligible collectives, else 0; the caller may set 0..ARCOLL_ONLINE_MAX_CONFIRM_BLOCK before
   *  the first call); 1 while it runs; calls of it so far; 1 once one of them failed; this
   *  rank's exits (seconds, the caller's clock) opening / closing the second half of the kept
   *  ([0], [1]) and of the other configuration's block ([2], [3]); after the decision the two
   *  spans (seconds, last rank out); the other configuration */
  int confirm_block;
  int confirming;
  int confirm_calls;
  int confirm_failed;
  double confirm_exit[4];
  double confirm_clock; /**< arcoll_explorer_record_period() while confirming: its periods summed */
  double confirm_span[2];
  arcoll_choice_t confirm_alt;
  int confirm_switched; /**< 1 when the confirmation replaced the kept configuration */
  /** 1 when the confirmation runs after a transient (online_confirm.h
   *  arcoll_explorer_transient): the caller synchronises the ranks
   *  (arcoll_explorer_confirm_sync) before the kept configuration's block too */
  int confirm_transient;
  /** 1 while a round's decision is deferred (online_pacing.h, "Deferred decisions"):
   *  set by the caller after the round's last run, cleared by
   *  arcoll_explorer_decide_times(); meanwhile arcoll_explorer_next() names best */
  int pending;
  /** runs of one configuration made while the exploration waits
   *  (online_noted.h): that configuration, how many of its latest runs are
   *  kept (at most `trials`), their times inside and periods (seconds);
   *  preset = 1 while cand[n - 1] is it and its round-0 runs are these */
  arcoll_choice_t noted;
  int nnoted, preset;
  double noted_t[ARCOLL_ONLINE_MAX_TRIALS], noted_p[ARCOLL_ONLINE_MAX_TRIALS];
  /** round 0: a far-first variant held back until its near-first twin won
   *  (online_twins.h); has_far = 1 while it is held */
  arcoll_choice_t far;
  int has_far;
  /** round 0: measured runs of cand[0], a far-first variant's near twin, after which
   *  their halving steps are compared over ranks and the far variant dropped where it
   *  cannot win (0: none; the twins alone); steps_carry = 1: the far variant is held
   *  back and the steps travel with round 0's decision instead; this rank's steps of
   *  the current run and their minimum over its runs (seconds, +inf: none; online_steps.h) */
  int steps_at, steps_carry;
  double step_now[ARCOLL_ONLINE_MAX_STEPS], step_min[ARCOLL_ONLINE_MAX_STEPS];
} arcoll_explorer_t;

/**
 * Set up *e for collective c, P ranks, `bytes` bytes (as arcoll_select) with
 * at most ncand candidates (clamped to 1..ARCOLL_ONLINE_MAX_CANDIDATES), each
 * run `trials` times (clamped to 1..ARCOLL_ONLINE_MAX_TRIALS), and at most
 * `refine` segment-refinement rounds (clamped to 0..ARCOLL_ONLINE_MAX_REFINE).
 * Returns the number of round-0 candidates; with 0 or 1 there is nothing to
 * measure (cand[0] is the model's choice when 1; the refinement needs a
 * first measured round, so it does not run either).
 */

int arcoll_explorer_init(arcoll_explorer_t *e, const arcoll_model_t *m, arcoll_coll_t c, int P,
                         MPI_Aint bytes, int commutative, int ncand, int trials, int refine);

/**
 * Append algorithm `a` with no model prediction (predicted_s = -1: the 2x
 * rules keep it, readmission ignores it), one segment, default parameter,
 * as the last round-0 candidate of *e, set up by arcoll_explorer_init()
 * with at least one candidate and nothing run yet.  Used for the MPI
 * library's own collective (native.h), which only a measurement ranks.
 * Returns the new number of candidates; the old one (nothing appended) when
 * e has none, is full (ARCOLL_ONLINE_MAX_CANDIDATES) or already holds `a`.
 */
int arcoll_explorer_add(arcoll_explorer_t *e, const arcoll_algo_desc_t *a);


/** Configuration of the next run; NULL once the exploration ended, or while
 *  a round's runs are all recorded and arcoll_explorer_decide() is due. */
const arcoll_choice_t *arcoll_explorer_next(const arcoll_explorer_t *e);

/**
 * Record the local time inside (seconds) and the period (seconds since the
 * exit of the previous measured call, or the time inside for the first) of
 * the run named by arcoll_explorer_next(); failed = 1 marks it +inf (never
 * chosen).  Returns 1 when every run of the round is recorded (call
 * arcoll_explorer_decide() now, on every rank), 2 when the imbalance check
 * is due (call arcoll_explorer_check() now, on every rank), 3
 * (ARCOLL_ONLINE_STEPS_DUE) when the near twin's halving steps are
 * (arcoll_explorer_steps_exchange(), online_steps.h), else 0.
 * While e->confirming: arcoll_explorer_record_exit() with the sum of the
 * periods recorded since the confirmation began as the exit time (this
 * rank's own clock; a caller with a common clock uses record_exit itself).
 */
int arcoll_explorer_record_period(arcoll_explorer_t *e, double seconds, double period, int failed);

/** arcoll_explorer_record_period() with period = seconds (runs not back to back). */
int arcoll_explorer_record(arcoll_explorer_t *e, double seconds, int failed);

/**
 * Collective over comm (every rank, after the same run): MPI_Allreduce(SUM)
 * of the round's times inside and MPI_Allreduce(MAX) of its periods, then
 * arcoll_explorer_decide_times(); while e->confirming, one
 * MPI_Allreduce(MAX) of confirm_exit, then arcoll_explorer_confirm_times().
 * Returns
 * MPI_SUCCESS or the allreduce's error (the exploration then ends on this
 * rank with best = the round's first candidate unless a round before set it).
 */
int arcoll_explorer_decide(arcoll_explorer_t *e, MPI_Comm comm);

/**
 * The imbalance check (header), collective over comm (every rank, after the
 * same run): one MPI_Allreduce(MAX) of this rank's fastest time inside and
 * shortest period (and its negative: the minimum over ranks) among the runs
 * so far, then arcoll_explorer_check_times().  Returns MPI_SUCCESS or the
 * allreduce's error (the exploration then ends with cand[0]).
 */
int arcoll_explorer_check(arcoll_explorer_t *e, MPI_Comm comm);

/** The local part: max_inside_s = max over ranks of each rank's fastest time
 *  inside, max_period_s / min_period_s = max / min over ranks of each rank's
 *  shortest period (seconds) of cand[0]'s runs.  Ends the exploration with
 *  cand[0] (finished = 1, returns 1) when skew shows (F = e->imbalance,
 *  default ARCOLL_ONLINE_IMBALANCE): inside the call (max_inside_s > F x
 *  cand[0].predicted_s: ranks wait for late ones) or between calls
 *  (max_period_s > F x max(min_period_s, max_inside_s, predicted): some rank
 *  takes far longer per call than others - late, like a late root whose
 *  reduce children never wait for it - so a candidate that makes every rank
 *  wait for it would cost up to that period per rank; equal periods, e.g.
 *  balanced computation between calls, are no skew).  A +inf (failed run)
 *  ends nothing.  Without skew, the candidates after cand[0] predicted more
 *  than ARCOLL_ONLINE_MAX_SLOWDOWN x max(max_inside_s, max_period_s) (when
 *  > 0) are dropped; when none is left the exploration ends with cand[0]
 *  (returns 1).  Else returns 0 and the round goes on. */
int arcoll_explorer_check_times(arcoll_explorer_t *e, double max_inside_s, double max_period_s,
                                double min_period_s);

/**
 * The local part of arcoll_explorer_decide(): `all` = the round's n x trials
 * times inside (seconds, run r = candidate * trials + trial) summed over
 * ranks, `max` the periods' maximum over ranks (NULL: `all` serves as both).  Sets measured_s, updates best / best_s, then either sets up
 * the next refinement round (cand, n, done = 0; returns 0) or ends the
 * exploration (finished = 1; returns 1).  Deterministic: every rank given
 * the same times makes the same rounds.
 */
int arcoll_explorer_decide_times(arcoll_explorer_t *e, const double *all, const double *max);

/**
 * arcoll_explorer_decide_times() given also `min`, the n x trials periods'
 * minimum over ranks (seconds; NULL: unknown, as decide_times).  The only
 * use: round 0's readmission of the candidates dropped for their
 * prediction does not happen when the best's max period exceeds
 * ARCOLL_ONLINE_SKEW_PERIODS x both its min period and its mean time inside
 * (arrival skew, not the model, explains its time).  And `outside_s`,
 * the smallest time a rank spent outside the collective before any of the
 * round's runs (seconds, min over ranks and runs of
 * arcoll_explorer_outside(); 0, negative or not finite: unknown, taken as
 * 0): the band of ARCOLL_ONLINE_MAX_TOLERANCE within
 * which the sums over ranks decide is taken on the fastest max period M
 * less outside_s (the computation between calls every rank
 * does, in every candidate's period alike), not on M.  Back to back that
 * is about 0 and the band is as without it.  Deterministic as decide_times.
 */
int arcoll_explorer_decide_periods(arcoll_explorer_t *e, const double *all, const double *max,
                                   const double *min, double outside_s);

/** A run's time outside the collective on one rank (seconds): its period
 *  (from its previous exit to this run's exit) less its time inside, i.e.
 *  from the previous exit to this run's entry; 0 where that is not positive
 *  and finite (a failed run, a first call measured without a period). */
double arcoll_explorer_outside(double period_s, double inside_s);

/**
 * e's periods packed for one MAX reduction over ranks: pm[r] = p[r],
 * pm[k + r] = -p[r] (k = n x trials, r < k), pm[2k] = minus the smallest
 * arcoll_explorer_outside(p[r], t[r]) over r, then, while the near twin's
 * halving steps travel with the decision (online_steps.h steps_carry), minus
 * each step's time (pm holds ARCOLL_ONLINE_EXTREMES_MAX doubles).  Reduced
 * with MAX, pm holds every run's max period, minus its min period, then
 * minus the smallest time outside of any rank and run, the layout
 * arcoll_explorer_decide_extremes() reads.  Returns 2k + 1 (+ the steps).
 */
int arcoll_explorer_period_extremes(const arcoll_explorer_t *e, double *pm);
/** Room arcoll_explorer_period_extremes() needs (doubles). */
#define ARCOLL_ONLINE_EXTREMES_MAX \
  (2 * ARCOLL_ONLINE_MAX_CANDIDATES * ARCOLL_ONLINE_MAX_TRIALS + 1 + ARCOLL_ONLINE_MAX_STEPS)

/** arcoll_explorer_decide_periods() from `all` (the n x trials times
 *  inside, SUM over ranks) and `ext`, arcoll_explorer_period_extremes()
 *  reduced with MAX over ranks. */
int arcoll_explorer_decide_extremes(arcoll_explorer_t *e, const double *all, const double *ext);

#ifdef __cplusplus
}
#endif
#endif
