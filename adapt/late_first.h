/**
 * @file late_first.h
 * @brief How long the first lateness exchange of a bcast / scatter waits
 *        for the ranks' records (pure C, no MPI calls).
 *
 * The first exchange (late_tracker.h, step 2) is what keeps the online
 * exploration away from late ranks nobody knows yet: its coordinator (the
 * root) used to wait for every record, and every other rank waits for its
 * summary at the call that applies it.  A rank whose delay grows with every
 * call (seed 001's loaded rank, a leaf that never holds the root) sends its
 * record of call 1 several calls late, and the whole communicator waited
 * for it: SMPI flat 10 Gb/s P = 64, 32 KiB bcast, 200 calls, about 6 ms at
 * call 2, 0.4 s of the 1.09 s summed inside
 * (bench/notes/adaptive-layer-2026-11-30.md, "The first
 * exchange without its wait for every record").  Not waiting at all leaves
 * that rank unknown and inside the exploration's trees (1.09 -> 19.0 s).
 * So the coordinator waits for every record but a few (the bulk:
 * arcoll_late_first_spare), measures how long that took after step 1, and
 * waits for the rest at most arcoll_late_first_patience of it; ranks still
 * missing then are charged as late by the time waited (at least two tree
 * depths, lateness.h arcoll_late_caused), which puts them on leaves; their
 * own records, when they come, are charged at the next exchange.
 */
#ifndef ARCOLL_ADAPT_LATE_FIRST_H
#define ARCOLL_ADAPT_LATE_FIRST_H

#ifdef __cplusplus
extern "C" {
#endif

/** Records of P - 1 that the first exchange's coordinator does not wait for
 *  before it starts its patience: 1 + P / 32 from P = 16 (the trial's spare,
 *  late_trees.h arcoll_late_trial_wait), 0 below (it then waits for all, as
 *  before: at 2-15 ranks a record may take long against the calls and one
 *  missing rank is a large share of the tree). */
int arcoll_late_first_spare(int P);

/**
 * Seconds after step 1 until which the coordinator waits for the records
 * beyond the bulk: ARCOLL_LATE_FIRST_PATIENCE x bulk_s (the time the bulk
 * took after step 1, seconds), at least floor_s (seconds: the caller's two
 * tree depths of the model, the least a missing rank is charged).  Returns
 * 0 for bulk_s and floor_s not > 0 (NaN included): no wait beyond the bulk.
 */
double arcoll_late_first_patience(double bulk_s, double floor_s);

/** The patience, in units of the bulk's time (see above). */
#define ARCOLL_LATE_FIRST_PATIENCE 2.0

#ifdef __cplusplus
}
#endif
#endif
