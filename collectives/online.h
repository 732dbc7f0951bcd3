/**
 * @file online.h
 * @brief Online selection: measure the model's few best candidates on the
 *        first calls of a (communicator, collective, size class), refine the
 *        fastest one's segment size, then keep the fastest measured
 *        configuration.
 *
 * Why: the model (model.c) is a prediction; on a network it does not
 * describe (e.g. oversubscribed uplinks: bench/README.md measured the
 * model's choice up to 4x slower than another algorithm at P = 256) only a
 * measurement tells. The brief's step 3 ("for every call site and message
 * size the library picks online among segmented algorithms"); seed 001
 * (001_6a837e3d9ad6c429.txt) adapts from measurements taken during the run.
 *
 * Protocol, identical on every rank of the communicator (so every rank ends
 * with the same choice):
 *  1. arcoll_explorer_init(): candidates = arcoll_select_candidates()
 *     (one configuration per algorithm, best predicted first), at most
 *     `ncand`; each is run `trials` times, interleaved (c0 c1 .. c0 c1 ..), so
 *     one-off start-up costs of the first calls (connection set-up) do not
 *     all fall on one candidate;
 *  2. per call: arcoll_explorer_next() names the configuration to run; the
 *     caller times the call locally (seconds, MPI_Wtime) and passes the time
 *     to arcoll_explorer_record();
 *  3. after the last run of a round: arcoll_explorer_decide() - two
 *     MPI_Allreduce of the round's run times over the communicator (SUM
 *     and MAX over ranks), per candidate the minimum over its trials of
 *     each; `best` = among the configurations (the kept one and this
 *     round's) whose MAX is within ARCOLL_ONLINE_MAX_TOLERANCE of the
 *     smallest MAX, the smallest SUM (ties: the earlier measured, i.e. the
 *     better predicted).  Why both: MAX is the call's critical path (the
 *     program's loop time: SMPI P = 64, 32 KiB back-to-back reduce, binomial
 *     had 0.35x the SUM of rsag_far but 1.8x its loop time); SUM counts how
 *     many ranks wait - with MAX alone a tree where one late rank stalls
 *     half the ranks ties with one where it stalls eight (SMPI P = 64,
 *     32 KiB bcast, rank 32 late by 3 ms: 37.7 s -> 23.5 s summed over
 *     ranks);
 *  4. segment refinement (rounds 1..refine): when `best` is a segmented
 *     algorithm at segment size s > 0, the next round measures it at s / 2
 *     and 2 s (within the bounds below); while a round finds a faster size
 *     the next one takes one more step the same way (s / 4, s / 8, ... or
 *     4 s, 8 s, ...); the first round that finds nothing faster, a size out
 *     of bounds or `refine` rounds done ends the exploration.  Why: the
 *     model ranks segment sizes less reliably than algorithms and has no
 *     topology (bench/README.md, session 10: at tree P = 64, 2 MiB the
 *     model's 2 KiB segments were 1.2x slower than 4 KiB; session 11: 8 KiB,
 *     found by this refinement, 1.54x faster than 2 KiB).  A round replaces
 *     `best` only by a configuration measured faster, so the exploration
 *     never ends slower than round 0's choice (as measured).
 * Cost bounds (issue: exploration that pays for itself): a round-0
 * candidate that the model predicts more than ARCOLL_ONLINE_MAX_SLOWDOWN
 * times slower than its best is not measured, except binomial for bcast
 * and reduce (one slot, when free: the model times one call alone and
 * misranks it in back-to-back calls, see online.c; it is also the tree that
 * late-rank orders use); refinement rounds start only
 * while the exploration's excess (sum over its measured calls of the time
 * beyond the best measured, seconds) is below ARCOLL_ONLINE_BUDGET_CALLS x
 * the best time, i.e. 5 % of a 200-call run of the best configuration.
 * Bounds of a refined segment size s': ARCOLL_ONLINE_MIN_SEGMENT <= s',
 * ceil(bytes / s') <= ARCOLL_ONLINE_MAX_SEGMENTS and s' < bytes (s' >= bytes is
 * one segment: the round-0 candidate "unsegmented" covers it).
 * arcoll_explorer_next() returns NULL once the exploration ended; `best`
 * is then the choice.
 * Cost: ncand x trials calls (round 0), plus 2 x trials (round 1) and
 * trials per further round, run possibly slower configurations, plus one
 * allreduce of at most ncand x trials doubles per round, once per
 * (communicator, collective, size class).
 */
#ifndef ARCOLL_COLLECTIVES_ONLINE_H
#define ARCOLL_COLLECTIVES_ONLINE_H

#include <mpi.h>

#include "select.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Limits of ncand and trials. */
#define ARCOLL_ONLINE_MAX_CANDIDATES 8
#define ARCOLL_ONLINE_MAX_TRIALS 8
/** Default number of candidates (ARCOLL_ONLINE_CANDIDATES unset): libarcoll
 *  and the SMPI benchmark's auto column. */
#define ARCOLL_ONLINE_DEFAULT_CANDIDATES 5
/** Limit and default of the segment-refinement rounds (0 = none). */
#define ARCOLL_ONLINE_MAX_REFINE 8
#define ARCOLL_ONLINE_DEFAULT_REFINE 3
/** Bounds of a refined segment size (bytes): at least 256 bytes, at most
 *  65536 segments (a measured call of 64 MiB in 512-byte segments would
 *  itself cost more than it could save). */
#define ARCOLL_ONLINE_MIN_SEGMENT 256
/** Round-0 candidates predicted slower than this factor x the best are dropped. */
#define ARCOLL_ONLINE_MAX_SLOWDOWN 2.0
/** Configurations whose max over ranks is within this fraction of the
 *  smallest are compared by their sum over ranks (decide_times). */
#define ARCOLL_ONLINE_MAX_TOLERANCE 0.05
/** Exploration budget in calls of the best configuration (5 % of 200 calls). */
#define ARCOLL_ONLINE_BUDGET_CALLS 10.0
#define ARCOLL_ONLINE_MAX_SEGMENTS 65536

typedef struct arcoll_explorer {
  int n;      /**< candidates of the current round (0..ARCOLL_ONLINE_MAX_CANDIDATES) */
  int trials; /**< runs per candidate */
  int done;   /**< runs of the current round recorded so far (0..n*trials) */
  int round;  /**< 0: the model's candidates; 1..: segment refinement */
  int refine; /**< refinement rounds allowed (0..ARCOLL_ONLINE_MAX_REFINE) */
  int dir;    /**< direction of the refinement: +1 larger segments, -1 smaller, 0 not yet known */
  int finished; /**< 1 once the exploration ended (best is the choice) */
  int runs;   /**< calls measured so far, all rounds */
  const arcoll_model_t *model; /**< init's model (predictions of refined sizes); must outlive *e */
  arcoll_coll_t coll;
  int P;
  MPI_Aint bytes; /**< message size the explorer was set up for (bytes) */
  arcoll_choice_t cand[ARCOLL_ONLINE_MAX_CANDIDATES]; /**< current round's candidates */
  /** seconds of run r of the current round (r = trial * n + candidate); +inf if the run failed */
  double t[ARCOLL_ONLINE_MAX_CANDIDATES * ARCOLL_ONLINE_MAX_TRIALS];
  double measured_s[ARCOLL_ONLINE_MAX_CANDIDATES]; /**< after a decide: the round's min over trials of the sum over ranks */
  double measured_max_s[ARCOLL_ONLINE_MAX_CANDIDATES]; /**< ... and of the max over ranks */
  arcoll_choice_t best; /**< after the first decide: fastest measured configuration so far */
  double best_s;        /**< its measured time, sum over ranks (seconds) */
  double best_max_s;    /**< its measured time, max over ranks (seconds) */
  double excess_s;      /**< measured calls' time beyond best_s so far, summed (seconds) */
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

/** Configuration of the next run; NULL once the exploration ended, or while
 *  a round's runs are all recorded and arcoll_explorer_decide() is due. */
const arcoll_choice_t *arcoll_explorer_next(const arcoll_explorer_t *e);

/**
 * Record the local time (seconds) of the run named by arcoll_explorer_next();
 * failed = 1 marks it +inf (never chosen).  Returns 1 when every run of the
 * round is recorded (call arcoll_explorer_decide() now, on every rank), else 0.
 */
int arcoll_explorer_record(arcoll_explorer_t *e, double seconds, int failed);

/**
 * Collective over comm (every rank, after the same run): MPI_Allreduce(SUM)
 * and MPI_Allreduce(MAX) of the round's run times, then
 * arcoll_explorer_decide_times().  Returns
 * MPI_SUCCESS or the allreduce's error (the exploration then ends on this
 * rank with best = the round's first candidate unless a round before set it).
 */
int arcoll_explorer_decide(arcoll_explorer_t *e, MPI_Comm comm);

/**
 * The local part of arcoll_explorer_decide(): `all` = the round's n x trials
 * run times (seconds, run r = trial * n + candidate) summed over ranks, `max`
 * the same maximum over ranks (NULL: `all` serves as both).  Sets measured_s, updates best / best_s, then either sets up
 * the next refinement round (cand, n, done = 0; returns 0) or ends the
 * exploration (finished = 1; returns 1).  Deterministic: every rank given
 * the same times makes the same rounds.
 */
int arcoll_explorer_decide_times(arcoll_explorer_t *e, const double *all, const double *max);

#ifdef __cplusplus
}
#endif
#endif
