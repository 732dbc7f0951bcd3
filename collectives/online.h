/**
 * @file online.h
 * @brief Online selection: measure the model's few best candidates on the
 *        first calls of a (communicator, collective, size class), then keep
 *        the fastest measured one.
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
 *  3. after the last run: arcoll_explorer_decide() - one
 *     MPI_Allreduce(MAX) of the ncand x trials times over the communicator
 *     (time of a run = the slowest rank's), per candidate the minimum over
 *     its trials, winner = the smallest (ties: the earlier candidate, i.e.
 *     the better predicted).
 * Cost: ncand x trials calls run possibly slower configurations, plus one
 * allreduce of ncand x trials doubles, once per (communicator, collective,
 * size class).
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

typedef struct arcoll_explorer {
  int n;      /**< candidates (0..ARCOLL_ONLINE_MAX_CANDIDATES) */
  int trials; /**< runs per candidate */
  int done;   /**< runs recorded so far (0..n*trials) */
  arcoll_choice_t cand[ARCOLL_ONLINE_MAX_CANDIDATES];
  /** seconds of run r (r = trial * n + candidate); +inf if the run failed */
  double t[ARCOLL_ONLINE_MAX_CANDIDATES * ARCOLL_ONLINE_MAX_TRIALS];
  double measured_s[ARCOLL_ONLINE_MAX_CANDIDATES]; /**< after decide: min over trials of the max over ranks */
  int winner; /**< after decide: index into cand, else -1 */
} arcoll_explorer_t;

/**
 * Set up *e for collective c, P ranks, `bytes` bytes (as arcoll_select) with
 * at most ncand candidates (clamped to 1..ARCOLL_ONLINE_MAX_CANDIDATES), each
 * run `trials` times (clamped to 1..ARCOLL_ONLINE_MAX_TRIALS).  Returns the
 * number of candidates; with 0 or 1 there is nothing to measure (cand[0] is
 * the model's choice when 1).
 */
int arcoll_explorer_init(arcoll_explorer_t *e, const arcoll_model_t *m, arcoll_coll_t c, int P,
                         MPI_Aint bytes, int commutative, int ncand, int trials);

/** Configuration of the next run; NULL once n x trials runs are recorded. */
const arcoll_choice_t *arcoll_explorer_next(const arcoll_explorer_t *e);

/**
 * Record the local time (seconds) of the run named by arcoll_explorer_next();
 * failed = 1 marks it +inf (never chosen).  Returns 1 when every run is
 * recorded (call arcoll_explorer_decide() now, on every rank), else 0.
 */
int arcoll_explorer_record(arcoll_explorer_t *e, double seconds, int failed);

/**
 * Collective over comm (every rank, after the same run): MPI_Allreduce(MAX)
 * of the run times, then measured_s and winner (see the file comment).
 * Returns MPI_SUCCESS or the allreduce's error (winner is then 0, the
 * model's choice, on this rank).
 */
int arcoll_explorer_decide(arcoll_explorer_t *e, MPI_Comm comm);

#ifdef __cplusplus
}
#endif
#endif
