/**
 * @file online_pacing.h
 * @brief When the online selection's calls and decisions happen (collectives/online.h):
 *        warm-up calls before round 0, deferred decisions.
 *
 * Warm-up: before round 0's first measured run, `warmup` calls (set by
 * the caller; ARCOLL_ONLINE_WARMUP, default arcoll_explorer_default_warmup():
 * 1, 3 for gather from ARCOLL_ONLINE_SKEW_MAX_BYTES) run cand[0] unmeasured.
 * A communicator's first calls are cold: MPICH 4.0.2, 2 ranks, 8-byte
 * MPI_Allreduce took 40-55 us on the first call, then 0.4-0.5 us; with
 * no warm-up the first candidate's runs took the cold calls, and
 * recursive doubling (the model's best, 0.46 us per call in the steady
 * state) lost to ring (0.72 us) in 3 runs of 3; with one warm-up call
 * it won in 5 of 5 (test/collectives/test_online_warmup.cpp).
 *
 * Deferred decisions (adapt/decision.c, ARCOLL_ONLINE_LAG; where
 * arcoll_explorer_lag() says so: small messages of the collectives that
 * synchronise all ranks; bcast: decided by its root from the records that
 * arrived, adapt/decision.h): the caller
 * may run a round's decision as a nonblocking exchange instead of
 * arcoll_explorer_decide(): it sets `pending`, starts the reductions of t
 * (SUM) and p (MAX), and hands the results to
 * arcoll_explorer_decide_times() an agreed number of calls later (the same
 * call on every rank); meanwhile every rank runs `best` (round 0: cand[0],
 * the model's best), unmeasured.  Why: the blocking decision is two
 * allreduces inside one call of the program; for small messages that is
 * several calls' worth
 * (SMPI flat P = 64, 8 B scatter, balanced, 200 calls: 62 us per rank with
 * two allreduces, 7 % of the run's time inside).
 */
#ifndef ARCOLL_COLLECTIVES_ONLINE_PACING_H
#define ARCOLL_COLLECTIVES_ONLINE_PACING_H

#include "online.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest default lag of a deferred decision (calls). */
#define ARCOLL_ONLINE_MAX_LAG 16
/**
 * Calls by which the decision of e's current round is deferred (header,
 * "Deferred decisions"), given decide_s = the blocking decision's cost
 * (seconds; the model's time of its two allreduces, the same on every
 * rank): 0 (decide in the round's last call) for the rooted collectives
 * and scans (bcast, reduce, gather(v), scatter(v), scan, exscan), else 0
 * unless decide_s exceeds one call of e->best by the model
 * (best.predicted_s; round 0: cand[0]); then 2 ceil(log2 P), within [2,
 * ARCOLL_ONLINE_MAX_LAG].  Why not always: the lag's calls run best, and
 * where the model is off that is the slow one (adapt/decision.h).  Why not
 * rooted collectives: their calls need not synchronise the ranks, so with
 * a late rank the others run ahead of it, and the later the decision's
 * wait, the longer (SMPI flat P = 64, 200 calls of 8 B scatter, one rank
 * late by 1 ms per call: time inside summed over ranks 0.311 s decided in
 * the round's last call, 0.385 / 0.447 / 0.510 s with a lag of 1 / 2 / 4+
 * calls; loop time the same); an allreduce waits for the late rank in every
 * call anyway.  Except round 0 of a reduce whose chain streams (e->stream_lag)
 * and whose root stayed put (e->root_moved = 0):
 * ARCOLL_ONLINE_REDUCE_STREAM_LAG, the chain held meanwhile - there the
 * blocking decision waited for the root's backlog and refilled the chain
 * (online_limits.h).  Deterministic: every rank gets the same lag.
 */
int arcoll_explorer_lag(const arcoll_explorer_t *e, double decide_s, int P);

/** Note the root of e's current call (0 <= root < P; the same on every
 *  rank, a collective argument): sets e->root_moved in round 0 of a reduce
 *  whose chain streams, of a scatter or of a bcast once a root differs from
 *  the first call's (online.h root_first), after which arcoll_explorer_lag
 *  gives that reduce's round 0, arcoll_explorer_mean_periods() that
 *  scatter's periods, and that bcast measures binomial
 *  (online_slots.h arcoll_explorer_moving_root) and is decided on the
 *  ranks' mean periods (adapt/decision.h arcoll_decision_start_rooted).
 *  No-op elsewhere. */
void arcoll_explorer_note_root(arcoll_explorer_t *e, int root);

/**
 * After a run is recorded in round 0 of a scatter whose root moved
 * (arcoll_explorer_note_root): once a candidate's `trials` runs are in,
 * each of their periods (e->p, seconds) becomes their mean on this rank,
 * so the decision's max over ranks is of each rank's mean period, not of
 * single calls.  No-op elsewhere (and with one trial).  Why: with a root per
 * call the binomial scatter's single periods are not the loop's - the
 * current root left the last call first (it was position 1, served first,
 * collectives/gather.h ARCOLL_SCATTER_SMALLEST_FIRST) and leaves this one
 * last, its period about two calls - and the max over ranks picked linear
 * (SMPI flat P = 64, 1 MiB, root c mod P, 40 calls: binomial's max period
 * 0.0849 s against linear's 0.0562, its sum 1.39 against 3.6; kept linear
 * 142.0 s summed over ranks against binomial's 75.4 forced, MPICH's
 * selector 73.6; bench/notes/adaptive-layer-rotating-root.md).
 */
void arcoll_explorer_mean_periods(arcoll_explorer_t *e);

/** Warm-up calls (header, "Warm-up") when ARCOLL_ONLINE_WARMUP is unset. */
#define ARCOLL_ONLINE_DEFAULT_WARMUP 1
/** ... for gather from ARCOLL_ONLINE_SKEW_MAX_BYTES: binomial's first calls
 *  after a synchronised start fill its pipeline (the leaves' eager sends
 *  run ahead of the inner ranks): SMPI flat P = 64, 32 KiB, one rank 1 ms
 *  late per call, binomial's period measured 2.47 ms in calls 2-3, 1.80 in
 *  the steady state; within 5 % of linear's 2.37 that is a tie, linear's
 *  smaller sum kept it, and the confirmation that switched back to binomial
 *  made the ranks that had run ahead in linear's calls wait at its barrier
 *  (200 calls, time inside summed over ranks, against SMPI's selectors:
 *  1.106x with one warm-up call, 1.010x with 3; a late rank moving every
 *  10 calls 1.104x -> 1.006x; balanced 0.998x -> 1.007x, eight late
 *  1.003x -> 1.014x, noise 0.993x -> 1.002x, late root 1.003x -> 1.012x:
 *  the decision comes two calls later).  2 calls did not settle it. */
#define ARCOLL_ONLINE_GATHER_WARMUP 3
/** Warm-up calls of collective c at `bytes` bytes when ARCOLL_ONLINE_WARMUP
 *  is unset: ARCOLL_ONLINE_GATHER_WARMUP for gather from
 *  ARCOLL_ONLINE_SKEW_MAX_BYTES, else ARCOLL_ONLINE_DEFAULT_WARMUP. */
int arcoll_explorer_default_warmup(arcoll_coll_t c, MPI_Aint bytes);


#ifdef __cplusplus
}
#endif
#endif
