/**
 * @file decision_held.h
 * @brief Internal to libarcoll.so: the records a rooted decision went without,
 *        charged to the trees that held their ranks (decision_rooted.c).
 *
 * A bcast / scatter round measures candidates back to back; where a rank is
 * late, the ranks below it in a measured tree wait for it every call and fall
 * behind the root by its lateness per call, and so do their records of the
 * round.  The root of the decision (decision.h arcoll_decision_start_rooted)
 * waited for all of them, and every other rank waited for the root's result:
 * SMPI flat P = 64, 8 B bcast, rank 24 late by 1 ms per call, 200 calls,
 * 0.399 s of the 0.521 s summed inside were that one call
 * (bench/notes/adaptive-layer-2026-12-01-to-02.md
 * "The rooted decision's messages").  Leaving the missing records out
 * instead hides what the trees cost them (P = 256, one late rank with a
 * subtree of 32: a tree chosen, 4.69 s against 1.85).  So the root waits a
 * patience (ARCOLL_ROOTED_PATIENCE_*), then decides on the records in, each
 * missing rank q charged to the candidates whose tree has another missing
 * rank above q (q waited for it there): its lag behind the root - at least
 * the time since the root sent its own record - spread over those
 * candidates' runs.  A missing rank no tree held (the late rank itself) is
 * left out, as the quorum of all records but one always allowed.
 *
 * The trees: positions are ranks relative to the root ((rank - root) mod P,
 * the order of every tree when no late-rank order is built - the caller
 * passes in_order = 0 otherwise); each candidate's tree is the `tree` of its
 * algorithm's table entry (collectives/tree.h arcoll_tree_shape_t: linear,
 * binomial, knomial, binary, chain; parents by tree_extra.h
 * arcoll_tree_parent_pos).  An algorithm without one (ARCOLL_TREE_NONE), or
 * in_order = 0 (but linear, which holds nobody in any order): q counts as
 * held by every such candidate when another non-root rank is missing too.
 */
#ifndef ARCOLL_ADAPT_DECISION_HELD_H
#define ARCOLL_ADAPT_DECISION_HELD_H

#include "select.h"
#include "online_limits.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The root waits for the records of a rooted decision at most
 *  max(ARCOLL_ROOTED_PATIENCE_MIN_S, ARCOLL_ROOTED_PATIENCE_CALLS x the
 *  model's time of the kept configuration) seconds past its deadline call
 *  (a balanced stream's records are in within a few calls' time). */
#define ARCOLL_ROOTED_PATIENCE_MIN_S 100e-6
#define ARCOLL_ROOTED_PATIENCE_CALLS 32

/**
 * Parent position of position pos (1 <= pos < P) in candidate c's tree over
 * P positions (0 = the root; radix c->k for a knomial tree): >= 0, or -1
 * when c's algorithm has no tree of its own (ARCOLL_TREE_NONE) or pos is
 * out of range.
 */
int arcoll_held_parent_pos(const arcoll_choice_t *c, int pos, int P);

/**
 * Charge the missing records to the trees that held them.
 * cand[0..n): the round's candidates, `trials` runs each; res: the root's
 * reduction of the records in (3 n trials doubles: sums of the times inside
 * per run, max periods per run, minus the min periods per run: layout of
 * decision_rooted.c root_reduce); got[0..P): 1 where the record is in
 * (got[root] = 1); behind_s: seconds, how far behind the root the missing
 * ranks are at least.  For every missing rank q and the set H of candidates
 * that held it (another missing non-root rank is one of q's ancestors in
 * the candidate's tree, or - linear excepted - shape unknown / !in_order
 * and another non-root rank missing), each run of each candidate of H gets
 * behind_s / (|H| trials) added to its sum and raises its max period to at
 * least that.
 * Returns the number of missing ranks charged (0: res unchanged).
 */
int arcoll_held_charge(const arcoll_choice_t *cand, int n, int trials, int P, int root,
                       const unsigned char *got, int in_order, double behind_s, double *res);

/** Longest the root of a small rooted decision waits past its deadline for
 *  the records still missing once its quorum is in, seconds; a threshold
 *  (arcoll_held_exposure_threshold) x ARCOLL_ROOTED_EXPOSURE_MARGIN above
 *  it is not waited for: no tree that holds fewer ranks is worth the wait
 *  of every rank for the root's next call. */
#define ARCOLL_ROOTED_EXPOSURE_WAIT_MAX_S 1e-3
/** ... and it waits until the missing records are this many times the
 *  exposure's threshold (arcoll_held_exposure_threshold) behind its own,
 *  so that the lateness charged clears the threshold by more than a tie. */
#define ARCOLL_ROOTED_EXPOSURE_MARGIN 1.5
/** A record counts as late for the exposure only once it is this many
 *  times the round's max periods summed behind the root's own record (the
 *  root, held by nobody, runs that far ahead of ranks on time). */
#define ARCOLL_ROOTED_ONTIME_PERIODS 2.0

/**
 * Mean depth of a non-root position in candidate c's tree over P positions
 * (ancestors below the root; = the mean number of ranks a late rank at a
 * random non-root position holds, its descendants): linear 0, binomial
 * (k 2^(k-1) - P + 1) / (P - 1) at P = 2^k (2.05 at P = 64).  An algorithm
 * without a tree of its own (ARCOLL_TREE_NONE) counts as binomial.  P < 2: 0.
 */
double arcoll_held_mean_depth(const arcoll_choice_t *c, int P);

/**
 * A late rank's exposure: a rank late by late_s seconds per call at a
 * random non-root position holds its descendants, each waiting late_s per
 * call - the trees' cost when the late rank is not where the round
 * measured it (a leaf then, or a rank whose lateness moves).  Adds, to
 * every run of candidate i, arcoll_held_mean_depth(i) x late_s to its sum
 * and late_s to its max period when that depth is > 0 (res: the layout of
 * arcoll_held_charge).  late_s <= 0: nothing.
 * Why (SMPI, 8 B, 200 calls back to back, summed inside, linear forced
 * against auto, whose round 0 measured binomial with the late rank on a
 * leaf): flat P = 64, a late rank moving every 10 calls 0.064 s against
 * 0.364, 0-200 us noise 0.060 / 0.082, eight late 0.066 / 0.275; P = 256
 * moving 0.49 / 1.71; balanced linear costs 1.27x (P = 64) and 2.2x
 * (P = 256) binomial - so only a rank found late pays for the tree that
 * holds nobody (bench/notes/adaptive-layer-2026-12-03-to-04.md
 * "A late rank's exposure").  Applied by the
 * root of a bcast / scatter decision below ARCOLL_ONLINE_SKEW_MAX_BYTES
 * without a lateness tracker (which would put late ranks on leaves).
 */
void arcoll_held_exposure(const arcoll_choice_t *cand, int n, int trials, int P, double late_s,
                          double *res);

/**
 * The smallest lateness (seconds per call) at which the exposure would make
 * a candidate with a smaller mean depth cheaper, by its sum (min over its
 * trials in res), than the cheapest candidate: min over such j of
 * (sum_j - sum_best) / (depth_best - depth_j).  +inf when no candidate
 * holds fewer ranks than the cheapest (or none is finite).
 */
double arcoll_held_exposure_threshold(const arcoll_choice_t *cand, int n, int trials, int P,
                                      const double *res);

#ifdef __cplusplus
}
#endif
#endif
