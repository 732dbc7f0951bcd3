/**
 * @file online_confirm.h
 * @brief The online selection's steady-state confirmation (collectives/online.h):
 *        a tie rerun as two synchronised blocks, timed by the last rank out.
 *
 * Confirmation in the steady state (every collective but bcast and reduce,
 * confirm_block > 0): the rounds (online.h) measure each candidate for `trials`
 * calls right after another candidate's block, i.e. in a transient.  When
 * another algorithm's shortest measured period is below
 * ARCOLL_ONLINE_CONFIRM_WITHIN x (1 x) the kept configuration's (a tie the
 * sum over ranks decided) and the model did not predict the kept one faster
 * than that one (arcoll_explorer_model_agrees()), the kept one runs a block of
 * confirm_block calls, then, after an MPI_Barrier, that one a block as
 * long: both start synchronised (the decision's allreduce, the barrier),
 * the first half of each block fills its pipeline, the second half is
 * timed.  Each rank notes its exit times (one clock for all ranks: the
 * caller's, e.g. MPI_Wtime minus the rank's offset, adapt/clock.h) of the
 * calls that open and close each second half; one MPI_Allreduce(MAX) gives
 * the exits of the last rank out (the program's loop advances by that
 * rank, whatever the others do), and the other configuration replaces the
 * kept one when its span is more than ARCOLL_ONLINE_MAX_TOLERANCE shorter
 * (afterwards confirm_span holds both spans).
 * Why: SMPI flat P = 64, 32 KiB back-to-back gather, one rank late by 1 ms:
 * binomial measured right after linear's block had a period of 2.33 ms
 * (linear 2.37: a tie, and linear's sum was smaller), but binomial's own
 * steady period is 1.80 ms (forced, 200 calls: loop 0.360 s vs linear's
 * 0.475 s): its first calls run while linear's ranks are still ahead;
 * confirmed: 4 calls of linear 9.5 ms, of binomial 7.2 ms.  Not reached:
 * eight late ranks, where binomial's round-0 period was 2.87 ms (a close
 * loss, 1.21x, its steady one 1.89 ms: confirmed as well with the factor
 * at 1.25, which costs more on small messages, see
 * ARCOLL_ONLINE_CONFIRM_WITHIN: from 8 KiB on the factor is
 * ARCOLL_ONLINE_CONFIRM_WITHIN_LARGE, arcoll_explorer_confirm_within()).
 * Why the last rank out: after linear,
 * whose non-roots leave at once, ranks that ran ahead wait in binomial's
 * first calls for the root to catch up (rank 62's span over binomial's
 * calls 5-8 was 45 ms, the root's 7.2 ms).  Why the barrier: without it
 * the other block inherits the kept one's state - ranks many calls ahead -
 * and was misjudged both ways (timing second halves: 32 KiB scatter,
 * linear 1.80 ms per call against binomial's 2.43, forced 2.37 vs 1.87;
 * timing whole blocks from the last rank out of the call before: 8 B
 * gather, linear 44.5 us against binomial's 121 for 8 calls, the run that
 * switched to linear looped 1.234 ms against binomial's 1.077); with it
 * both come out right (scatter binomial 7.4 ms / linear 9.5 ms, gather 8 B
 * binomial 19.7 us / linear 22.2 us for 4 calls).  Why the first half:
 * from a synchronised start the first calls of a tree fill its pipeline
 * (8 B gather, whole blocks after the barrier: binomial 59.8 us vs linear
 * 44.5 us, a switch to the slower one again).
 * Bcast and reduce are left out: with late ranks their late-rank order
 * (adapt/late_order.c) replaces the choice by binomial anyway, and it is
 * off while a class is being measured.  Cost: confirm_block calls of a
 * configuration measured with a shorter period, one barrier, one allreduce
 * of 4 doubles; ranks that ran ahead wait in the barrier (counted as time
 * inside the collective by a program that times it).
 */
#ifndef ARCOLL_COLLECTIVES_ONLINE_CONFIRM_H
#define ARCOLL_COLLECTIVES_ONLINE_CONFIRM_H

#include "online.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Steady-state confirmation (header): the default block length (calls;
 *  its second half is timed) and its limit. */
#define ARCOLL_ONLINE_CONFIRM_BLOCK 8
#define ARCOLL_ONLINE_MAX_CONFIRM_BLOCK 64
/** ... and its length after a transient (arcoll_explorer_transient(): its
 *  calls, the kept one's, cost several of the alternative's): from the
 *  synchronised start a linear scatter's second call costs its steady time
 *  (SMPI flat P = 64, 32 KiB, root c mod P, summed over ranks: 0.126, 0.148,
 *  0.152 s ...), so one timed interval of two calls tells */
#define ARCOLL_ONLINE_CONFIRM_TRANSIENT_BLOCK 4
/** ... run against the other algorithm with the shortest period when that is
 *  shorter than the kept one's (a tie the sum over ranks decided): factor
 *  1.  At 1.25 (close losses too) the blocks that confirmed the kept one
 *  cost more than the switches gained (SMPI flat P = 64, 200 calls, loop
 *  vs no confirmation: 8 B gather balanced 1.063, 8 B scatter balanced
 *  1.046, 32 KiB scatter 1.011-1.016; it fixed 32 KiB gather with eight
 *  late ranks, 0.783). */
#define ARCOLL_ONLINE_CONFIRM_WITHIN 1.0
/** The same factor from ARCOLL_ONLINE_SKEW_MAX_BYTES on (no small gather
 *  explores any more, online.c): close losses are confirmed too.  SMPI flat
 *  P = 64, 32 KiB gather with eight late ranks: binomial's round-0 period
 *  1.21x linear's, its steady one 0.76x (loop 0.360 s against 0.475 s). */
#define ARCOLL_ONLINE_CONFIRM_WITHIN_LARGE 1.25

/** The confirmation's factor for a message of `bytes` (header, "Confirmation
 *  in the steady state"): ARCOLL_ONLINE_CONFIRM_WITHIN below
 *  ARCOLL_ONLINE_SKEW_MAX_BYTES, else ARCOLL_ONLINE_CONFIRM_WITHIN_LARGE. */
double arcoll_explorer_confirm_within(MPI_Aint bytes);
/** 1 when the model predicted the kept configuration faster than the
 *  confirmation's alternative by more than ARCOLL_ONLINE_MAX_TOLERANCE (both
 *  predictions > 0, seconds): the transient measurement and the model agree,
 *  no confirmation is run (header, "Confirmation in the steady state").
 *  Why: its barrier and allreduce gather the ranks that ran ahead, whose
 *  wait counts as time inside (SMPI flat P = 64, 32 KiB gather, balanced,
 *  200 calls: binomial kept on its period, 2.17 vs 2.40 ms, predicted 2.11
 *  vs 2.51; time inside 13.20 -> 11.97 s without the confirmation, 1.100 ->
 *  0.998x SMPI's selectors; adapt/DISPATCH.md).  0 otherwise, also when
 *  either has no prediction (predicted_s <= 0).  Closer predictions are
 *  ties the model cannot break (built-in model, P = 64, 32 KiB gather:
 *  linear 1.840 ms, binomial 1.865). */
int arcoll_explorer_model_agrees(const arcoll_choice_t *kept, const arcoll_choice_t *alt);

/** Note configuration c's max period over ranks max_s (seconds) from a
 *  round's decision: per algorithm, the shortest so far is the
 *  confirmation's candidate (e->rival; "compressed" is never one). */
void arcoll_explorer_note_rival(arcoll_explorer_t *e, const arcoll_choice_t *c, double max_s);

/** The index in e->rival of the configuration to confirm the kept one against
 *  when round 0 kept it on a transient, else -1 (header, "Confirmation in the
 *  steady state"; no MPI).  A transient, from ARCOLL_ONLINE_SKEW_MAX_BYTES on:
 *  the kept one's max period over ranks (best_max_s, seconds) - or, for a
 *  scatter, its mean time inside over ranks (best_s / P) - below its predicted
 *  time / ARCOLL_ONLINE_MODEL_OFF, and another algorithm measured that the
 *  model predicted faster than the kept one by more than
 *  ARCOLL_ONLINE_MAX_TOLERANCE (that one is returned; of several, the best
 *  predicted).
 *
 *  Why: a loop cannot advance by a call in a quarter of what the call moves
 *  through the root's link unless calls overlap, and a candidate measured
 *  right after another one runs in that one's overlap.  SMPI flat P = 64,
 *  32 KiB scatter, root c mod P at call c (coll_loop -R): binomial sends its
 *  smallest subtree first, so the next root leaves each call first; linear's
 *  eager blocks, measured next, reached ranks still in binomial's calls (max
 *  period 0.10 ms against 2.51 predicted, 0.004 s a call summed over ranks
 *  against binomial's 0.043) and it was kept, then cost 0.152 s a call
 *  (binomial's steady 0.063): 29.76 s summed over 200 calls against
 *  binomial's 12.52 forced (bench/notes/adaptive-layer-rotating-root.md).
 *  Why a scatter's time inside: each non-root waits there for its block from
 *  the root's link, while its period holds its time outside too (a rank late
 *  by 1 ms before each call: linear's max period 1.04 ms, its mean time inside
 *  0.062 ms; kept, 29.56 s against binomial's 15.23 forced); a gather's
 *  non-roots leave at once whatever the algorithm.  Why not below
 *  ARCOLL_ONLINE_SKEW_MAX_BYTES: there a call's time is latencies that
 *  back-to-back calls do overlap (SMPI flat P = 64, 8 B scatter, balanced:
 *  binomial kept on a period below a quarter of its predicted 25 us, linear
 *  predicted 5.6 us; its confirmation cost 5 %). */
int arcoll_explorer_transient(const arcoll_explorer_t *e);

/** The exploration's rounds are over (called by the round's decision):
 *  end it (finished = 1, returns 1), or start the confirmation (confirming
 *  = 1, returns 0) against the other algorithm with the shortest period
 *  when that is below arcoll_explorer_confirm_within() x the kept one's and
 *  arcoll_explorer_model_agrees() is 0, or against arcoll_explorer_transient()'s
 *  configuration whatever its period; never when confirm_block < 2. */
int arcoll_explorer_confirm_start(arcoll_explorer_t *e);

/**
 * A call of the confirmation (while e->confirming, instead of
 * arcoll_explorer_record_period()): exit_s = this rank's exit time of the
 * call named by arcoll_explorer_next(), seconds on a clock common to all
 * ranks; failed = 1 makes the confirmation keep the kept configuration.
 * Returns 2 after the kept configuration's block (call
 * arcoll_explorer_confirm_sync() now, on every rank), 1 after the last call
 * (call arcoll_explorer_decide() now, on every rank), else 0.
 */
int arcoll_explorer_record_exit(arcoll_explorer_t *e, double exit_s, int failed);

/**
 * Between the confirmation's blocks (record_exit returned 2), collective
 * over comm: MPI_Barrier, so that the other block starts synchronised.
 * Returns MPI_SUCCESS or the barrier's error (the confirmation then keeps
 * the kept configuration).
 */
int arcoll_explorer_confirm_sync(arcoll_explorer_t *e, MPI_Comm comm);

/**
 * The local part of the confirmation's decision (arcoll_explorer_decide()
 * while e->confirming): last_exit = the MAX over ranks of confirm_exit
 * (seconds; [0] / [1] open / close the second half of the kept
 * configuration's block, [2] / [3] of the other one's).  Spans [1] - [0]
 * and [3] - [2] go to
 * confirm_span; the other configuration becomes best when
 * its span is below (1 - ARCOLL_ONLINE_MAX_TOLERANCE) x the kept one's (both
 * finite).  Ends the exploration; returns 1.
 */
int arcoll_explorer_confirm_times(arcoll_explorer_t *e, const double *last_exit);


#ifdef __cplusplus
}
#endif
#endif
