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
 * chose the same tree, and one whose records did not come in within the
 * wait's budget (arcoll_late_trial_wait) is void; after
 * ARCOLL_TREES_MAX_TRIALS that did not decide, the first tree stays.
 * Where binomial was chosen, a bcast whose late set then holds runs the
 * chain of runs in its place (late_chain.h, ARCOLL_LATE_CHAIN=runs).
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
/** A summary's trial whose records were still incomplete when the wait's
 *  budget was spent (arcoll_late_trial_wait): no comparison, counted as a
 *  trial that did not decide. */
#define ARCOLL_TREES_VOID 3

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

/** The trials of one tracker (late_tracker.h). */
typedef struct arcoll_late_trials {
  int trees;  /**< decided: ARCOLL_TREES_FIRST / SECOND; ARCOLL_TREES_UNDECIDED */
  int last;   /**< the last trial's result, ARCOLL_TREES_UNDECIDED before any */
  int voided; /**< trials that did not decide */
} arcoll_late_trials_t;

/**
 * Records the coordinator of an exchange waits for (drain before its
 * summary): when the n sampled records of this rank (sampled[0..n-1]) hold
 * a trial call (ARCOLL_LATE_TRIAL), those of the ranks not late
 * (late[r] == 0; not the coordinator) less 1 + P/32 (ranks late since the
 * last summary: a late rank that moves - waiting for it cost 0.77 s in
 * three trials); else 0.  Not all: the late ones are calls behind (SMPI
 * flat P = 64, 32 KiB, one rank 1 ms late: waiting for all cost 0.91 s
 * summed inside at that call); not half: the ranks that finish first are
 * not the others (two-level tree, seed 001: binomial's mean 0.56x binary's
 * among the first half, 1.25x among all).
 *
 * How long: the ranks that catch up with the waiting coordinator (the root
 * of a streaming bcast: they wait for its next call's data, then for the
 * summary at the call that applies it) wait too (arcoll_late_ready_at,
 * arcoll_late_trial_deadline); once that cost reaches
 * ARCOLL_TREES_WAIT_CALLS calls of the trial's, the records still missing
 * make the trial ARCOLL_TREES_VOID.  A rank that became late during the
 * trial holds its subtree calls behind the root while the others run on:
 * SMPI flat 10 Gb/s P = 64, 32 KiB, the late rank moving every 10 calls,
 * the root waited 8.8 ms for the last records (the first half in 1.2 ms),
 * 0.21 s summed inside at that call.
 */
int arcoll_late_trial_wait(int P, int coord, const unsigned char *late,
                           const arcoll_late_record_t *sampled, int n);

/** Budget of a trial's wait for records, in calls of the trial (the mean
 *  over the arrived records, the coordinator's left out, of a call's time
 *  inside, times P): beyond it the trial is void (arcoll_late_trial_wait).
 *  With the late set steady the wait cost about 4 (SMPI flat P = 64, 32
 *  KiB, one rank late: 0.013 s summed inside at that call, a call 0.0034)
 *  and stays within it, as at P = 256 and on the two-level tree. */
#define ARCOLL_TREES_WAIT_CALLS 8.0

/**
 * When a rank whose n >= 1 sampled records are rec[0..n-1] (its calls up to
 * the exchange's step 1, exit times in seconds on the common clock) reaches
 * the exit of the call the coordinator is waiting in, `calls` calls after
 * its last record's (from there on it waits: for the coordinator's data
 * when that is the root, for the summary at the call that applies it):
 * rec[n-1].exit + calls x its shortest period between consecutive records
 * (a trial's slower half is not the pace to come; 0 for n = 1).  Seconds;
 * NAN for n < 1.
 */
double arcoll_late_ready_at(const arcoll_late_record_t *rec, int n, int calls);

/**
 * The time tau at which ranks waiting from ready[0..n-1] (seconds, any
 * order; sorted in place) have waited budget_s seconds in all:
 * sum_i max(0, tau - ready[i]) = budget_s.  Returns +inf for n < 1 or
 * budget_s not finite, ready's smallest for budget_s <= 0.
 */
double arcoll_late_trial_deadline(double *ready, int n, double budget_s);

/**
 * Fold a summary's trial result (`result`, ARCOLL_TREES_*; UNDECIDED: no
 * trial) into *t, `changed` = the same summary changed a late set: decided
 * when the late set stayed or the previous trial chose the same (a trial
 * while the late set changed compared the trees under different late
 * ranks: one moving every 10 calls was inner in binary's half, not in
 * binomial's); ARCOLL_TREES_VOID (records incomplete) decides nothing and
 * leaves the last result as it was; after ARCOLL_TREES_MAX_TRIALS voided
 * ones of either kind, the first tree.  Nothing once decided.
 */
void arcoll_late_trees_fold(arcoll_late_trials_t *t, int result, int changed);

#ifdef __cplusplus
}
#endif
#endif
