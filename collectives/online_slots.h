/**
 * @file online_slots.h
 * @brief Candidates the online selection measures whatever the model
 *        predicts (collectives/ONLINE.md, "Cost bounds"): the tolerant tree,
 *        bcast's streaming configuration, a reduce's streaming chain, the
 *        compressed algorithm.
 *        Internal to collectives/.
 */
#ifndef ARCOLL_COLLECTIVES_ONLINE_SLOTS_H
#define ARCOLL_COLLECTIVES_ONLINE_SLOTS_H

#include "online.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Index of the candidate whose algorithm is named `name` among
 *  e->cand[0 .. e->n), or -1. */
int arcoll_explorer_find(const arcoll_explorer_t *e, const char *name);

/** Move candidate i (0 <= i < e->n) to the last slot of round 0, the ones
 *  after it one slot up; stream_at follows its candidate. */
void arcoll_explorer_to_last(arcoll_explorer_t *e, int i);

/**
 * Part of arcoll_explorer_init(), after the 2x rule: add to e's round-0
 * candidates (at most ncand)
 *  - bcast, reduce, scatter, gather: the tolerant tree (select.h
 *    arcoll_tolerant_tree) unless present or no_tree (reduce's knomial
 *    stands for it; a small gather measures the model's best alone): in a free slot; a bcast from ARCOLL_STREAM_MIN_BYTES
 *    with ncand >= 3 takes the last slot when none is free (its tolerant
 *    calls before the first lateness summary stand for its runs,
 *    online_noted.h);
 *  - bcast from ARCOLL_STREAM_MIN_BYTES, ncand >= 3: the configuration that
 *    streams best (select.h arcoll_select_stream), in the last slot that is
 *    neither the tolerant tree nor the best's algorithm; e->stream_at /
 *    e->warmup_stream = its index / 1 (one unmeasured call first);
 *  - bcast from ARCOLL_COMPRESS_MIN_BYTES, allgather / gather / alltoall
 *    whose P - 1 blocks reach it, ARCOLL_COMPRESS not off: the compressed
 *    algorithm, in the last slot that none of the above holds.
 * Units: bytes.  No MPI.
 */
void arcoll_explorer_add_exempt(arcoll_explorer_t *e, const arcoll_model_t *m, arcoll_coll_t c,
                                int P, MPI_Aint bytes, int commutative, int ncand, int no_tree);

/**
 * Round 0 of a bcast's exploration reduced, before its first measured run,
 * to the configuration that streams best (e->stream_at) and the tolerant
 * tree whose runs were noted (online_noted.h, e->preset: the last
 * candidate): for back-to-back calls with little between them
 * (adapt/late_pattern.h arcoll_late_near_stream), where a broadcast costs its
 * busiest rank's occupancy per call and the others - predicted for one
 * call alone - cost several of the streaming one's calls each to measure
 * (SMPI flat P = 64, 32 KiB: scatter_rdb 0.0103 s per call summed over
 * ranks, twotree 0.0107 - 0.0169, the chain 0.0019; the two-level tree:
 * scatter_rdb 0.36, the chain 0.013), for calls with computation between
 * them that pipeline as a wavefront (adapt/late_pattern.h arcoll_late_wavefront)
 * and for calls paced by their root (adapt/late_pattern.h arcoll_late_root_paced).  tree_first == 0: the
 * streaming candidate moves to the front with its warm-up call (it keeps
 * ties, ARCOLL_ONLINE_SUM_TOLERANCE); != 0: the tree is cand[0] with its
 * noted runs done, the streaming one cand[1], measured after its warm-up
 * call, and the tree keeps ties.  The others are dropped (not readmitted,
 * online.h), and no segment refinement follows (e->refine = 0): the
 * streaming candidate's segment is already the least-occupancy one
 * (select.h arcoll_select_stream_segment), and each size a refinement
 * round switches to refills the pipeline (SMPI flat P = 256, 32 KiB, 0.5 ms
 * of computation between calls: chain/4096 and /16384, not kept, cost
 * 0.78 s of a 3.26 s run in switches; without the round 2.48 s).  Returns 1 when e was reduced, 0 when it was left as it was
 * (not round 0, a run measured, no streaming candidate or no noted one).
 * hold_tree != 0: while the round's decision is pending the tree runs
 * (online.h `hold_at`), not the streaming candidate measured last - for
 * noisy arrivals, where the chain's calls may cost several of the tree's.
 * No MPI; every rank given the same e reduces it the same way.
 */
int arcoll_explorer_stream_only(arcoll_explorer_t *e, int tree_first, int hold_tree);

/**
 * Round-0 candidate `at` (0 <= at < e->n, before any measured run) out of
 * e: the later candidates move up with their noted runs (e->t, e->p) and
 * the indices that follow them (once_from, stream_at, extra_at).  Nothing
 * when `at` is out of range.  No MPI.
 */
void arcoll_explorer_remove(arcoll_explorer_t *e, int at);

/**
 * Round 0 of a bcast's exploration fitted to synchronised calls (adapt/
 * late_pattern.h arcoll_late_synchronised: no call overlaps the previous one,
 * every call costs its latency, and the model's prediction - one call
 * alone - is what a call costs), before its first measured run: the
 * candidates measured whatever the model predicts for their pipelining
 * are dropped where the model rules them out (ARCOLL_ONLINE_MAX_SLOWDOWN x
 * cand[0]'s prediction):
 *  - the streaming configuration (e->stream_at) by its prediction;
 *  - the compressed algorithm (a chain of segments, model.c) by its
 *    latency floor, its prediction for one byte: no compression ratio makes
 *    it faster than that.
 * SMPI cluster256, P = 256, 64 KiB bcast after a barrier (tools/
 * smpi-demo.sh, balanced): the chain 6.2 ms per call measured (5.1
 * predicted), compressed 2.6 ms, scatter_rdb 0.34 (0.29).  Dropped
 * candidates join the spare ones (measured when the model is off, online.h);
 * the later ones move up with their noted runs.  names[0 .. nnames): the
 * dropped algorithms' names.  Returns how many were dropped (0: not round
 * 0, a run measured, nothing the model rules out).  No MPI; every rank
 * given the same e drops the same ones.
 */
int arcoll_explorer_synchronised(arcoll_explorer_t *e, const char **names, int nnames);

/**
 * Round 0 of a bcast from ARCOLL_STREAM_MIN_BYTES whose root moved
 * (e->root_moved, arcoll_explorer_note_root), before its first measured
 * run, with 3 or more candidates and binomial not among them: binomial at
 * the model's segment size for it (select.h arcoll_select_config) takes
 * the slot of the last candidate that is neither cand[0], the streaming
 * one (e->stream_at), the tolerant tree (select.h arcoll_tolerant_tree)
 * nor a noted one (online_noted.h, the last); measured before the
 * streaming one, which stays the
 * last measured - the configuration held while the decision is pending
 * (online.h `held`; with a root that moves that may be up to P calls,
 * adapt/decision.h ARCOLL_ROOTED_MOVED_CALLS).  Returns 1 when it did,
 * else 0 (e unchanged).  Why:
 * the model times one call alone and puts binomial beyond the 2x rule
 * (cluster256 model, P = 64, 32 KiB: 0.656 ms against scatter_rdb's
 * 0.175), but with a root per call its calls overlap - the next root
 * finishes early, and the busiest rank changes with the root: SMPI flat
 * P = 64, 32 KiB, root c mod P, 200 calls, summed inside, forced: binomial
 * / 8 KiB 1.17 s balanced, 1.66 with 0-200 us noise, 11.71 one rank 1 ms
 * late; scatter_rdb (the model's pick) 2.10 / 2.63 / 13.59; the chain /
 * 8 KiB 0.82 / 1.70 / 12.38 (bench/notes/adaptive-layer-rotating-root.md).
 * No MPI; every rank given the same e changes it the same way.
 */
int arcoll_explorer_moving_root(arcoll_explorer_t *e);

/**
 * Whether arcoll_explorer_init() measures `cand`, a reduce's chain that the
 * 2x rule would drop for its one-call time (predicted over
 * ARCOLL_ONLINE_MAX_SLOWDOWN x best_s, the best candidate's prediction,
 * seconds): 1 when bytes >= ARCOLL_STREAM_MIN_BYTES, `cand` is the segmented
 * chain, its least-occupancy segment s (select.h
 * arcoll_select_stream_segment) cuts the message in k >= 2 segments, its
 * period back to back, k X(bytes / k) + bytes gamma seconds (select.h
 * arcoll_select_stream_occupancy; gamma: the model's reduction cost per
 * byte), is below best_s, and its
 * one call at s (arcoll_model_predict) exceeds best_s by at most
 * ARCOLL_ONLINE_BUDGET_CALLS x best_s (the exploration's budget); else 0.
 * Why: nothing flows from a reduce's root back to the others, so
 * back-to-back reduces stream along the chain and only its first call pays
 * the fill through P - 1 ranks.  cluster256 model, P = 256, 1 MiB: rsag
 * predicted 2.04 ms, the chain 15.7 ms for one call (8 KiB segments, fill
 * 255 x (T + 8 X)) but 0.77 ms per call back to back; at 32 KiB its fill
 * (8.8 ms against 0.14) is beyond the budget.  Where calls do not stream
 * (computation between them) its measured runs lose and the budget bounds
 * what they cost.  No MPI.
 */
int arcoll_explorer_chain_streams(const arcoll_model_t *m, arcoll_coll_t c, int P, MPI_Aint bytes,
                                  const arcoll_choice_t *cand, double best_s);

#ifdef __cplusplus
}
#endif
#endif
