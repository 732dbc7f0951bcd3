/**
 * @file late_trees.h
 * @brief Which late-rank-tolerant tree a streaming bcast runs, chosen by
 *        measurement (pure C, no MPI calls).
 *
 * When ranks are late, a bcast from ARCOLL_STREAM_MIN_BYTES runs a tree
 * whose leaves take the late ranks (collectives/select.h
 * arcoll_tolerant_tree: the binary tree, "first"), or binomial ("second").
 * Which one streams better depends on the network, which the model does
 * not describe: SMPI P = 64, 32 KiB, 200 back-to-back calls, one rank 1 ms
 * late, summed inside (s), binary / binomial as the tolerant tree: flat
 * 10 Gb/s cluster 0.83 / 1.92, two-level tree with 160:1 uplinks 6.49 /
 * 5.86 (steady calls 0.0034 / 0.0094 and 0.0320 / 0.0267 s).  So, once late
 * ranks are known (after the first lateness summary), the calls sampled by
 * the next exchange are a trial: the first half of the window runs the
 * first tree, the second half the second (records flagged
 * ARCOLL_LATE_TRIAL); the coordinator compares them (the first call of
 * each half left out: it follows the other tree's pipeline) from the
 * records that arrived - usually at the exchange after the trial's, the
 * root of a streaming bcast running calls ahead of the others - and its
 * summary carries the choice, applied by every rank at the same call
 * (late_tracker.c).  No extra message.  A trial during which the late set
 * changed (a late rank that moves) counts only when the one before it
 * chose the same tree; after ARCOLL_TREES_MAX_TRIALS that did not, the
 * first tree stays.
 */
#ifndef ARCOLL_ADAPT_LATE_TREES_H
#define ARCOLL_ADAPT_LATE_TREES_H

#include <stdint.h>

#include "lateness.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARCOLL_TREES_UNDECIDED 0
#define ARCOLL_TREES_FIRST 1  /**< arcoll_tolerant_tree (the binary tree for streaming bcasts) */
#define ARCOLL_TREES_SECOND 2 /**< binomial */

/** Trials that do not decide (the late set changed during them and the
 *  one before chose otherwise) after which the first tree stays. */
#define ARCOLL_TREES_MAX_TRIALS 3

/** The second tree wins a trial only when its calls' mean is more than this
 *  fraction below the first's (closer: a tie, the first stays). */
#define ARCOLL_TREES_TOLERANCE 0.02

/**
 * Tree of call index `call` (0-based, the tracker's count) while nothing is
 * decided: ARCOLL_TREES_FIRST / ARCOLL_TREES_SECOND in the first / second
 * half of the ARCOLL_LATE_SAMPLES calls before the exchange that starts
 * after call next_x - 1, when no exchange is pending and at least one
 * summary was applied (exchanges >= 1); else ARCOLL_TREES_UNDECIDED (no
 * trial: the caller's default).
 */
int arcoll_late_trial_tree(uint64_t call, uint64_t next_x, int pending, int exchanges);

/**
 * Coordinator: compare the trial calls among nsampled records per rank
 * (rec[r * nsampled + j], rank r, sampled call j; flags 0 = missing).
 * Trial calls (ARCOLL_LATE_TRIAL) ran the first tree when flagged
 * ARCOLL_LATE_BINARY, else the second; a call whose previous sampled call
 * ran the other tree (or is not sampled) is left out.  Per call: the sum
 * over the ranks with every sampled record of exit - entry (seconds).
 * Returns ARCOLL_TREES_SECOND when the second tree's mean is more than
 * ARCOLL_TREES_TOLERANCE below the first's, ARCOLL_TREES_FIRST otherwise,
 * ARCOLL_TREES_UNDECIDED with fewer than 2 such calls of either tree or
 * fewer than half the ranks with every record (the records of a streaming
 * bcast reach its root late: the caller tries the previous exchange's too).
 * mean[2] (may be NULL): the first's and second's means, seconds (NAN when
 * not measured).
 */
int arcoll_late_trees_compare(int P, int nsampled, const arcoll_late_record_t *rec, double *mean);

#ifdef __cplusplus
}
#endif
#endif
