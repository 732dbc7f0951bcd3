/**
 * @file late_pattern.h
 * @brief What the calls of one root look like, read from a lateness summary
 *        (lateness.h arcoll_late_summary_t): quiet, a stream or nearly one,
 *        paced by the root, synchronised, a wavefront.  The same answer on
 *        every rank (every rank holds the same summary).  Pure C, no MPI;
 *        unit-tested (test/adapt/test_late_synchronised.cpp,
 *        test_lateness_summary.cpp).  Used by the online selection's round 0
 *        (late_order.c arcoll_late_fit_exploration) and the rooted decision
 *        (decision_rooted.c).
 */
#ifndef ARCOLL_ADAPT_LATE_PATTERN_H
#define ARCOLL_ADAPT_LATE_PATTERN_H

#include "lateness.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Fraction of t_level below which every listed lateness counts as quiet
 *  (arcoll_late_quiet). */
#define ARCOLL_LATE_QUIET_FRACTION 0.25

/**
 * 1 if summary s has a group of root `root` (any site) and every such group
 * is quiet: no rank listed, or its latest listed rank's caused
 * lateness (lateness.h arcoll_late_persistent) below ARCOLL_LATE_QUIET_FRACTION x the group's t_level (no rank
 * late by a quarter of a tree level: the arrivals are balanced); 0 if not,
 * or if s is NULL or holds no group of that root (nothing known).  Used by
 * the rooted online decisions (adapt/decision.h, ARCOLL_ROOTED_POSTPONES):
 * SMPI flat P = 64, 32 KiB bcast, balanced: nothing listed; 0-200 us noise
 * per call: 4 ranks listed, the latest 43 us caused against t_level 62 us.
 */
int arcoll_late_quiet(const arcoll_late_summary_t *s, int root);

/**
 * 1 if the calls of root `root` in summary s form a stream: quiet arrivals
 * (arcoll_late_quiet) and every rank, the root included, re-entered within
 * one tree level's time (gap, root_gap < t_level in every such group): back-to-back
 * calls with nothing between them, where a broadcast costs its busiest rank's
 * occupancy per call, not its latency (collectives/select.h
 * arcoll_select_stream; the online selection then measures only the
 * streaming configuration beside the tolerant tree, online_slots.h
 * arcoll_explorer_stream_only).  A program that computes, or calls other
 * collectives, between its broadcasts is not a stream, nor one whose root
 * does (SMPI flat P = 256, 32 KiB, the root 1 ms late before every call:
 * with the root's time outside left out, the chain and the binary tree
 * alone measured, 51.98 s summed inside against 51.51 with the whole
 * exploration, loop 0.2075 s against 0.2018: the chain's 255-hop fill and drain).  0 when
 * nothing is known.
 */
int arcoll_late_streaming(const arcoll_late_summary_t *s, int root);

/** The root's lead (arcoll_late_group_t.lead) below this many tree levels'
 *  time, and ... */
#define ARCOLL_LATE_SYNC_LEAD_LEVELS 0.5
/** ... the entries' spread below this fraction of the previous exits' spread
 *  (arcoll_late_group_t.spread): the calls are synchronised
 *  (arcoll_late_synchronised). */
#define ARCOLL_LATE_SYNC_SPREAD 0.5

/**
 * 1 if the calls of root `root` in summary s are synchronised: in every
 * group of that root (any site; at least one) a pair of consecutive calls
 * was sampled, the root never entered a call more than
 * ARCOLL_LATE_SYNC_LEAD_LEVELS tree levels' time before the last other rank
 * left the previous one (lead), and the ranks entered every sampled call
 * together, within ARCOLL_LATE_SYNC_SPREAD of the time over which they had
 * left the previous one (spread); 0 if not, or if nothing is known.  Then
 * something between the calls (a barrier, an allreduce) lines the ranks up
 * again: every call costs its latency, and a pipeline's chain pays its
 * P - 1 hops in every call - as its model, which times one call alone,
 * predicts.  The online selection then does not measure the streaming
 * configuration unless the model admits it (online_slots.h
 * arcoll_explorer_synchronised).  Neither test alone: in a stream (back-to-
 * back calls) the root enters the next call as soon as its sends of the
 * previous one are out (lead: many tree levels); with computation between
 * the calls the root may wait for nobody either, but each rank enters in
 * the order it left, by its own exit plus the computation (spread: that of
 * the exits), and there a chain pipelines from call to call like a
 * wavefront (SMPI flat P = 64, 32 KiB, 1 ms of computation before every
 * call, per call summed over ranks: the chain 0.0018 s, binary 0.0033,
 * scatter_rdb 0.0105).  A rank's gap (time outside) does not separate a
 * barrier from a stream: a barrier is short.  Clocks: clock.h.
 */
int arcoll_late_synchronised(const arcoll_late_summary_t *s, int root);

/** Tree levels' time a rank may spend outside between two calls of a near
 *  stream (arcoll_late_near_stream). */
#define ARCOLL_LATE_NEAR_STREAM_LEVELS 4.0

/**
 * 1 if the calls of root `root` in summary s are nearly a stream: in every
 * group of that root (any site; at least one) no rank, the root included,
 * spent more than ARCOLL_LATE_NEAR_STREAM_LEVELS tree levels' time outside
 * between two calls (gap, root_gap) and none caused a tree level's
 * lateness; 0 if not, or if nothing is known (s NULL, no group, t_level
 * 0).  Weaker than
 * arcoll_late_streaming (quiet, gap < one level): arrival noise of a few
 * levels passes.  Used for the online selection's stream-only exploration
 * (online_slots.h arcoll_explorer_stream_only; the rooted decision's lag
 * and postponements keep the strict test).
 */
int arcoll_late_near_stream(const arcoll_late_summary_t *s, int root);

/**
 * 1 if the calls of root `root` in summary s are paced by the root: in
 * every group of that root (any site; at least one) none caused a tree
 * level's lateness and either the other ranks are nearly a stream (gap
 * below ARCOLL_LATE_NEAR_STREAM_LEVELS tree levels' time) and the root
 * spent at least that long outside (root_gap), or the root spent that much
 * longer outside than any other rank (root_gap >= gap + that: every rank
 * computes between the calls, the root longest - SMPI flat P = 256, 32 KiB,
 * 0.5 ms of computation, the root 1 ms more: as a wavefront, the chain
 * keeping ties, 51.95 s summed inside over 200 calls, paced by the root
 * 51.11); 0 if not, or if nothing is known.  A late
 * root, or one that reads input or writes output between its broadcasts:
 * every other rank is back in the next call at once and the root's period
 * (its time outside plus inside) sets the pace - whether the others wait
 * for it in every call (lead < 0: each rank's latency then cancels from
 * call to call) or the previous call's data still moves when it enters the
 * next (lead > 0: a stream the root throttles).  Either way the candidates
 * whose root leaves once its sends are posted cost alike or by their
 * occupancy, and the exploration measures only the streaming configuration
 * beside the tolerant tree, the tree keeping ties (online_slots.h
 * arcoll_explorer_stream_only, `tree_first`): SMPI 32 KiB, the root 1 ms
 * late before every call, summed inside per call: two-level tree P = 64
 * (lead < 0) scatter_rdb 0.42 s (its root waits for the allgather),
 * twotree 0.072 - 0.109, binary 0.064, the chain 0.063; P = 256 (lead > 0)
 * scatter_rdb 2.09, twotree 0.50 - 0.76, binary 0.24, the chain 0.063.
 * Not arcoll_late_near_stream, where the streaming one keeps ties: the
 * chain's P - 1 hops of fill and drain are not paid back when all cost
 * alike (flat P = 256: loop 0.2075 s against 0.2018).
 */
int arcoll_late_root_paced(const arcoll_late_summary_t *s, int root);

/**
 * 1 if the calls of root `root` in summary s form a wavefront: in every group
 * of that root (any site; at least one) a pair of consecutive calls was
 * sampled, none caused a tree level's lateness, and the calls are not
 * synchronised (the root's lead at least ARCOLL_LATE_SYNC_LEAD_LEVELS tree
 * levels or the entries' spread at least ARCOLL_LATE_SYNC_SPREAD of the
 * exits': arcoll_late_synchronised's test failed on known figures); 0 if
 * not, or if nothing is known.  Computation between the calls, every rank
 * entering in the order it left: no stream by the ranks' time outside
 * (arcoll_late_near_stream), but each call pipelines behind the one before
 * as in a stream, and the exploration measures only the streaming
 * configuration beside the tolerant tree (online_slots.h
 * arcoll_explorer_stream_only) - not the model's log-step candidates, which
 * synchronise the ranks each call.  SMPI two-level tree, P = 64, 32 KiB,
 * balanced, 0.5 ms of computation before every call, per call summed
 * inside: scatter_rdb 0.357 s, twotree 0.063, binary 0.032, the chain
 * 0.013; its full exploration cost 1.46 s of a 200-call run of 4.06 s,
 * now 2.75 (the chain forced: 2.67; bench/notes/adaptive-layer-2026-12-03-to-04.md "Wavefronts").  Flat
 * P = 64, 1 ms: the chain 0.0018, binary 0.0033, scatter_rdb 0.0105.
 */
int arcoll_late_wavefront(const arcoll_late_summary_t *s, int root);

#ifdef __cplusplus
}
#endif
#endif
