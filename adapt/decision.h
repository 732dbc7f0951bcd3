/**
 * @file decision.h
 * @brief Internal to libarcoll.so: the online selection's deferred decisions
 *        (collectives/online_pacing.h, "Deferred decisions").
 *
 * After the last measured call of a round, instead of two blocking
 * allreduces inside that call, the round's times inside (SUM over ranks)
 * and periods (MAX over ranks) travel in two nonblocking schedules of the
 * library's own (nbc.h: point-to-point rounds progressed inside the next
 * interposed calls), and the decision applies at the end of the
 * `lag`-th call of the same (collective, class) after that round: the same
 * call on every rank, so every rank takes the same decision.  Meanwhile
 * every rank runs the explorer's current best (round 0: the model's best),
 * unmeasured.  At the deadline a rank whose schedules are not finished
 * blocks for the rest of them (the lag-th call is then synchronising, which
 * MPI allows of any collective).
 */
#ifndef ARCOLL_ADAPT_DECISION_H
#define ARCOLL_ADAPT_DECISION_H

#include "dispatch.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Calls between the end of ex's round and its decision (0: decide in the
 *  round's last call).  ARCOLL_ONLINE_LAG when set.  Else
 *  arcoll_explorer_lag(): 0 for rooted collectives and scans (but round 0
 *  of a reduce whose chain streams: ARCOLL_ONLINE_REDUCE_STREAM_LAG), and unless
 *  the blocking decision (two allreduces of the round's n x trials
 *  doubles, by the model) would cost more than a call of ex->best (the
 *  model's time, the same on every rank): small messages; then 2 ceil(log2 P), within
 *  [2, 16].  Why not always: the lag's calls run best, which is round 0's
 *  cand[0] - the model's choice - and where the model is off that is the
 *  slow one (SMPI tree platform, 160:1 uplinks, P = 64, 64 KiB reduce: rsag
 *  3.2 ms per call vs binomial's 2.1 ms, 12 calls).  The lag: the reduction
 *  has ceil(log2 P) rounds at P = 2^k, 2 ceil(log2 P) otherwise, each posted
 *  when the previous one has completed inside some interposed call;
 *  measured (SMPI flat P = 64, 200 calls, balanced, time inside vs SMPI's
 *  selectors, ARCOLL_ONLINE_LAG forced): 8 B scatter lag 2 1.045, 4 1.035,
 *  7 1.021, 12 1.005, blocking 1.069 (rooted: no longer deferred, online.h);
 *  8 B allreduce 1.029 .. 1.025 for all four, blocking 1.039. */
ARCOLL_HIDDEN int arcoll_decision_lag(const arcoll_explorer_t *ex, int P);

/**
 * Start the deferred decision of ex's round (ex->n x ex->trials runs all
 * recorded) on st's private communicator: sets ex->pending and the entry's
 * countdown to `lag` calls.  Collective over st->priv in the sense of a
 * nonblocking collective (every rank starts it at the same call).  Returns
 * MPI_SUCCESS, or an error (no memory, PMPI failure) after which the
 * decision was taken the blocking way (arcoll_explorer_decide).
 */
ARCOLL_HIDDEN int arcoll_decision_start(arcoll_comm_state_t *st, arcoll_cached_t *e, int lag);

/**
 * One call of e's class ran while its decision is pending: returns 0 while
 * calls remain; at the deadline completes the schedules (blocking if
 * needed), applies arcoll_explorer_decide_times() and returns 1 (*rc: the
 * schedules' error, MPI_SUCCESS if none; on error the exploration ends with
 * its current best on this rank).  root: that call's root (bcast,
 * scatter; ignored elsewhere): a rooted decision's deadline call whose
 * root is not the decider moves the application later
 * (ARCOLL_ROOTED_MOVED_CALLS).
 */
ARCOLL_HIDDEN int arcoll_decision_step(arcoll_comm_state_t *st, arcoll_cached_t *e, int root,
                                       int *rc);

/** A bcast's rooted decision (arcoll_decision_start_rooted) from
 *  ARCOLL_STREAM_MIN_BYTES whose deadline call has a root other than the
 *  decider's (a root that moves): the decider decides at that call without
 *  postponing and sends its result, and every rank - the decider too -
 *  applies it at the first later call whose root is the decider, at the
 *  latest this many calls later, P the communicator's size; meanwhile the
 *  explorer's held configuration runs (round 0: the streaming one, measured
 *  last).  The roots are collective arguments, so every rank applies it at
 *  the same call.  Why: a non-root waits for the result at the end of the
 *  call that applies it, and the rule that makes that wait short (a
 *  non-root cannot finish the call before the decider started it) holds
 *  only where the decider is that call's root; with a root per call the
 *  decider is up to P calls behind (lateness.h
 *  ARCOLL_LATE_APPLY_MOVED_CALLS, the same bound and why) and every rank
 *  waited for it (SMPI flat P = 64, 32 KiB bcast, root c mod P, the chain:
 *  0.12 s summed over ranks at round 0's decision against 0.0038 a call;
 *  200 calls 1.025 -> 0.910 s summed inside applied up to 32 calls later;
 *  P = 256: 1.45 s at the decision applied 32 calls later, none 128 calls
 *  later).  Not below that size nor for a scatter, whose calls do not
 *  stream: there the decider is not far behind, and the calls of held that
 *  the later application runs cost more than the wait (flat P = 64, root
 *  c mod P, 200 calls, up to 32 calls later: 8 B bcast +4 %, scatter 8 B
 *  +3 %, 32 KiB +5-10 %). */
#define ARCOLL_ROOTED_MOVED_CALLS(P) (P)

/** Calls of the class between a bcast / scatter round and its decision by the root
 *  (arcoll_decision_start_rooted) unless ARCOLL_ONLINE_LAG is set. */
#define ARCOLL_ONLINE_ROOTED_LAG 2
/** ... for a bcast from ARCOLL_STREAM_MIN_BYTES (select.h), the calls to
 *  its decision when the records are not in: its root runs calls ahead of
 *  the ranks at the end of a streaming tree, and a decision that waits for
 *  their records drains the stream and refills it (SMPI flat P = 64,
 *  32 KiB, chain: 0.059 s summed over ranks at the decision, twice; a call
 *  0.0019 s); meanwhile the last measured configuration runs
 *  (collectives/online.h `held`).  200 calls, summed inside, lag 2 / 4 / 8
 *  / 16: balanced 0.653 / 0.649 / 0.642 / 0.627 s, 0-200 us noise 0.812 /
 *  0.791 / 0.768 / 0.720 s (the binary tree as the tolerant tree,
 *  select.h).  The first deadline is still ARCOLL_ONLINE_ROOTED_LAG calls
 *  after the round, a probe: when the root's quorum of records is in (calls
 *  that do not stream: a barrier or other synchronisation between them),
 *  it decides there; otherwise it postpones, whatever the arrivals, to
 *  ARCOLL_ONLINE_STREAM_LAG calls after the round (the probe's
 *  postponement is not one of ARCOLL_ROOTED_POSTPONES).  Why: held is the
 *  streaming candidate, which costs its latency in every call that does not
 *  stream (SMPI cluster256, P = 256, 64 KiB after a barrier, tools/
 *  smpi-demo.sh balanced, 20 calls: the chain 6.4 ms per call against 0.34
 *  for the choice; mean bcast time 3.49 -> 2.03 ms with the probe). */
#define ARCOLL_ONLINE_STREAM_LAG 16

/** How often the root of a rooted decision may postpone its deadline
 *  (arcoll_decision_start_rooted): when the quorum of records is not in at
 *  the deadline, the root sends every rank the calls to a new deadline
 *  (ARCOLL_ONLINE_STREAM_LAG x 2^j at the j-th postponement) instead of
 *  waiting; after the last one it waits.  Why: a streaming bcast's root
 *  runs as many calls ahead of the ranks at the end of its tree as the
 *  network buffers (SMPI's detached sends: all of them), so no lag in
 *  calls is long enough, and its wait drained the stream and refilled it
 *  (SMPI flat P = 64, 32 KiB, balanced, chain: 0.092 s summed inside at
 *  calls 28-29, 49 calls' worth; the root waited 2.8 ms).  The non-roots
 *  wait for the root's message at each deadline as before: it left the
 *  root when the root passed that call. */
#define ARCOLL_ROOTED_POSTPONES 4

/**
 * Start the decision of ex's round the rooted way (bcast, scatter; the
 * round's last call had root `root`; probe > 0: the first deadline is a
 * probe, postponed by `probe` calls unless the quorum is in - see
 * ARCOLL_ONLINE_STREAM_LAG): every rank sends the root its n x trials times
 * inside and periods (one message); at the end of the `lag`-th call of the
 * class after it (>= 1) the root sums the times and takes the max of the
 * periods over the records it has - it waits for all but the latest one,
 * then takes it too if it has arrived; while that quorum is not in it
 * postpones the deadline instead, up to ARCOLL_ROOTED_POSTPONES times, or,
 * where it may not, waits while records keep coming and then decides on
 * those in, each missing one charged to the trees that held it
 * (decision_held.h: SMPI flat P = 64, 8 B bcast, one late rank, 200 calls,
 * 0.521 -> 0.136 s summed inside) - and sends that
 * result to every rank, which applies it (arcoll_explorer_decide_times):
 * every rank takes the root's decision at the same call.  The records left
 * out are received later (arcoll_decision_rooted_drain).  A bcast whose
 * root moved in round 0 (ex->root_moved, collectives/online_pacing.h):
 * the periods are reduced to their mean over the records in, not their
 * max - with a root per call a single call's periods differ by the
 * ranks' positions, and the mean is the loop's time per call (SMPI flat
 * P = 64, 32 KiB, root c mod P, round 0: the chain / 8 KiB's max period
 * 1.93 ms - the tail's, the root of the call before, which waits for the
 * whole fill - against scatter_rdb's 0.164, its mean 0.060; 200 calls, the
 * chain forced 0.82 s summed inside, scatter_rdb, kept on the max, 2.10).
 * Why: the allreduce way makes every rank wait, at the decision, for the
 * latest rank's whole backlog: in a bcast the root and the early ranks run
 * ahead of a late rank by the exploration's calls (SMPI flat P = 64, 8 B,
 * 200 calls, a late rank moving every 10 calls: 62 ranks x 6 ms = 0.372 s
 * of the 0.436 s summed inside, against 0.064 s for linear forced).  A
 * non-root cannot be ahead of the root in a bcast, so its wait for the
 * result is the root's rest of that call.  Measured (SMPI, 200 calls,
 * summed inside, allreduce way -> root's way): flat P = 64, 8 B, moving
 * late rank 0.436 -> 0.365 s (1.12x -> 0.94x the better SMPI selector),
 * 0-200 us noise 0.093 -> 0.076, balanced 0.057 -> 0.055, 32 KiB moving
 * 2.67 -> 2.48; its cost where a late rank is an inner node of the
 * measured trees (its subtree's records are as late as it, the root waits
 * for them): one late 8 B 0.440 -> 0.447, tree platform 0.508 -> 0.573
 * (0.61x -> 0.69x the selectors), P = 256 1.85 -> 2.05 s (0.46x -> 0.51x).
 * Scatter the same (a non-root receives its block from the root): 8 B,
 * allreduce way -> root's way, against the better SMPI selector, summed
 * inside (loop): flat P = 64 moving late rank 3.55x -> 1.005x (1.82x ->
 * 1.00x), balanced 1.070x -> 1.028x, noise 0.896x -> 0.887x, one late
 * 0.257x -> 0.264x, eight late 0.255x -> 0.277x; P = 256 moving 3.30x ->
 * 1.008x, balanced 1.066x -> 1.040x; tree platform P = 64 moving 3.24x ->
 * 1.014x, balanced 1.053x -> 1.040x, one late 0.952x -> 1.029x (loop
 * 1.004x: the lag's calls let the late rank fall two more calls behind,
 * paid at the confirmation's barrier); 32 KiB unchanged (1.00x).  Not
 * reduce / gather (their early ranks run ahead of the root: they would
 * wait for it).
 * Returns MPI_SUCCESS or the error of posting the messages; out of memory:
 * the blocking decision (arcoll_explorer_decide).
 */
ARCOLL_HIDDEN int arcoll_decision_start_rooted(arcoll_comm_state_t *st, arcoll_cached_t *e,
                                               int root, int lag, int probe);

/** 1 if a rooted decision of collective c is pending on st (then a new one
 *  is taken the blocking way: one result message in flight per collective). */
ARCOLL_HIDDEN int arcoll_decision_rooted_pending(const arcoll_comm_state_t *st, arcoll_coll_t c);

/* decision_rooted.c: post this rank's record (and the root's receives);
 * complete at the deadline (applies the decision; the requests left open
 * go to st->rooted_open) - or, may_postpone and the root's quorum not in,
 * postpone it: *again = calls to the new deadline (0: decided), r kept;
 * test (wait = 0) or complete (1) those. */
struct arcoll_rooted;
ARCOLL_HIDDEN struct arcoll_rooted *arcoll_decision_rooted_post(arcoll_comm_state_t *st,
                                                                const arcoll_explorer_t *ex,
                                                                int root, int probe, int *rc);
ARCOLL_HIDDEN int arcoll_decision_rooted_complete(arcoll_comm_state_t *st, struct arcoll_rooted *r,
                                                  arcoll_explorer_t *ex, int may_postpone,
                                                  int *again);
/* ... the decider's part ahead of the call that applies it (ARCOLL_ROOTED_MOVED_CALLS):
 * decide without postponing and send (no-op elsewhere and once sent); the root given at post */
ARCOLL_HIDDEN int arcoll_decision_rooted_send(arcoll_comm_state_t *st, struct arcoll_rooted *r,
                                              arcoll_explorer_t *ex);
ARCOLL_HIDDEN int arcoll_decision_rooted_decider(const struct arcoll_rooted *r);
ARCOLL_HIDDEN void arcoll_decision_rooted_drain(arcoll_comm_state_t *st, int wait);

/** Complete every pending decision of st now (state teardown: MPI_Comm_free,
 *  MPI_Finalize; collective, every rank has the same ones pending). */
ARCOLL_HIDDEN void arcoll_decision_settle(arcoll_comm_state_t *st);

#ifdef __cplusplus
}
#endif
#endif
