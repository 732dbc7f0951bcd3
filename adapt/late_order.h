/**
 * @file late_order.h
 * @brief Internal to libarcoll.so: late-rank orders in the rooted
 *        collectives' calls (late_order.c) - whether a call uses them, the
 *        tolerant tree that keeps late ranks on leaves, a call's entry and
 *        exit around the lateness tracker (late_tracker.h), and how the
 *        online selection measures around them.  adapt/LATENESS.md "Lateness".
 */
#ifndef ARCOLL_ADAPT_LATE_ORDER_H
#define ARCOLL_ADAPT_LATE_ORDER_H

#include "dispatch.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The lateness tracker of collective c on st (created on first use; NULL
 * with *rc set on failure), or NULL with *rc = MPI_SUCCESS when late-rank
 * orders are off (ARCOLL_LATE_ORDER=off) or P <= 2 (every order is the same).
 */
ARCOLL_HIDDEN arcoll_late_tracker_t *arcoll_late(arcoll_comm_state_t *st, arcoll_coll_t c,
                                                 int *rc);

/**
 * The choice used instead of ch when a call has late ranks (an adaptive
 * order) and ch's algorithm cannot keep them on leaves: multi-tree,
 * scatter-ring, chain-like bcasts make every rank an inner node somewhere
 * (measured, SMPI P = 64, 32 KiB, rank 32 late by 3 ms: twotree 37.7 s
 * inside the bcast summed over ranks vs binomial with late leaves 9.9 s,
 * MPICH 20.3 s); reduce-scatter + gather reductions (rsag) make every rank
 * wait for the late one.  Binomial (c = bcast or reduce), its segment the
 * one with the least link occupancy per call in back-to-back calls (k
 * segments x the model's stream period of one, select.h arcoll_select_stream_segment; 8
 * KiB with tools/platforms/cluster256.model.json), for the size class of
 * `bytes`; cached per collective and class; NULL if none.
 */
ARCOLL_HIDDEN const arcoll_cached_t *arcoll_late_tolerant(arcoll_comm_state_t *st,
                                                          arcoll_coll_t c, MPI_Aint bytes,
                                                          const char *name);

/** One call's late-rank order (late_order.c). */
typedef struct arcoll_late_call {
  arcoll_late_tracker_t *lt; /**< NULL: the classic order, nothing recorded */
  const int *order;          /**< order of this call (NULL: classic) */
  const unsigned char *detached; /**< reduce: its detached positions (order.h), else NULL */
  double entry;              /**< entry time, common clock, seconds */
  int trial;                 /**< the call runs a tolerant tree on trial (late_trees.h) */
  int root;                  /**< the call's root */
  int k;                     /**< > 0: the schedule's k of this call (the chain's late leaves,
                                  late_chain.h); 0: the choice's */
  int run;                   /**< > 1: the schedule's run of this call (the chain's runs,
                                  late_chain.h); 0: one chain */
} arcoll_late_call_t;

/**
 * Call entry of a rooted collective c (bcast, scatter, reduce, gather) of
 * `bytes` bytes with the choice ch: when late-rank orders apply
 * (arcoll_late_applies(), an algorithm that honours an order, usable != 0 -
 * e.g. reduce: commutative op -, P > 2) lc->order is the tracker's order for
 * this call (late ranks on leaves, order.h), for a reduce with
 * ARCOLL_LATE_DETACH=on lc->detached its
 * detached positions (the latest ranks' results straight to the root:
 * order.h arcoll_history_detached; reset with the order by
 * arcoll_late_algorithm when the choice is not the tolerant tree), and the
 * entry is recorded.  Returns MPI_SUCCESS or an MPI error.
 */
ARCOLL_HIDDEN int arcoll_late_begin(arcoll_comm_state_t *st, arcoll_coll_t c,
                                    const arcoll_cached_t *ch, int root, int usable,
                                    MPI_Aint bytes, arcoll_late_call_t *lc);

/**
 * The choice a rooted call (c = bcast or reduce, `bytes` bytes) runs given
 * its late-rank state lc (after arcoll_late_begin): ch, or the tolerant
 * binomial (arcoll_late_tolerant; it has no explorer, so the call is not
 * measured online and every rank skips the same calls) when ch is not
 * binomial and either (1) the order has late ranks: only binomial keeps them
 * on leaves, and measuring another algorithm would time what they cost it,
 * or (2) ch is being measured online (ch->ex) and the tracker has applied no
 * summary yet, or one of its summaries found a late rank: exploration
 * waits for the first one (bcast: after call 16), so that a late rank
 * nobody knows of yet does not make every candidate wait for it (flat P =
 * 256, 32 KiB, one late rank: scatter_rdb's calls took 0.284 s summed over
 * ranks, binomial's 0.097 s), and is given up once a rank was late: one
 * that was late may come back, or move, faster than a summary follows
 * (flat P = 64, 32 KiB, a late rank moving every 10 calls: the late set
 * emptied at call 193 and the exploration that started then took the run
 * from 2.55 to 2.95 s summed inside).  Toward the root (reduce, gather:
 * lc->lt->up) neither: ch itself runs, with lc->order only if it is the
 * tolerant tree (else lc->order is set to NULL, the rank order), and the
 * online selection measures it (late_order.c says why).  The choice run is
 * noted (arcoll_note).  Seed 001_6a837e3d9ad6c429.txt, technique 1.
 */
ARCOLL_HIDDEN const arcoll_cached_t *arcoll_late_algorithm(arcoll_comm_state_t *st, arcoll_coll_t c,
                                                           MPI_Aint bytes, const arcoll_cached_t *ch,
                                                           arcoll_late_call_t *lc);

/**
 * At the end of a bcast call (after arcoll_late_end): the tracker's first
 * summary, applied at this call's exit on every rank, fits the exploration
 * of `chosen` (round 0, nothing measured yet) to the calls of lc's root:
 *  - a root that moved in the calls before (collectives/online_pacing.h
 *    arcoll_explorer_note_root): binomial measured too
 *    (collectives/online_slots.h arcoll_explorer_moving_root), nothing else
 *    changed;
 *  - nearly a stream (late_pattern.h arcoll_late_near_stream) and no rank late:
 *    reduced to the streaming configuration and the tolerant tree
 *    (collectives/online_slots.h arcoll_explorer_stream_only);
 *  - paced by the root (late_pattern.h arcoll_late_root_paced) and no rank
 *    late: the same two, the tolerant tree first (it keeps ties);
 *  - synchronised (late_pattern.h arcoll_late_synchronised): without the
 *    candidates measured for their pipelining that the model rules out
 *    (collectives/online_slots.h arcoll_explorer_synchronised).
 * Local and deterministic (every rank has the same summary); prints the
 * change with ARCOLL_DEBUG.
 */
ARCOLL_HIDDEN void arcoll_late_fit_exploration(const arcoll_comm_state_t *st,
                                               const arcoll_cached_t *chosen,
                                               const arcoll_late_call_t *lc);

/**
 * After a rooted call that ran `ran` where the choice was `chosen` (t0 =
 * arcoll_online_t0(chosen), rc the call's result): when they are the same,
 * arcoll_online_done(); when `chosen` is being measured online and the call
 * ran the tolerant binomial instead (arcoll_late_algorithm), the call's
 * time inside and period are noted as a run of that configuration
 * (collectives/online_noted.h: while the exploration waits for the first
 * lateness summary, its last calls stand for binomial's measured runs).
 * Returns rc, or the online measurement's error.
 */
ARCOLL_HIDDEN int arcoll_late_done(arcoll_comm_state_t *st, const arcoll_cached_t *chosen,
                                   const arcoll_cached_t *ran, double t0, int rc);

/** Smallest message (bytes) of a bcast (and reduce) that tracks lateness when
 *  ARCOLL_LATE_ORDER is unset.  Below it
 *  the exchange costs more than late leaves save (SMPI flat P = 64, 8 B,
 *  200 back-to-back calls, sum over ranks of the time inside: balanced
 *  0.100 s with vs 0.056 s without, one late rank 1.10 vs 0.31 s); at 32 KiB
 *  it pays (balanced 2.27 vs 2.21 s, one late rank 3.29 vs 12.8 s). */
#define ARCOLL_LATE_DEFAULT_MIN_BYTES 8192

/**
 * 1 if calls of collective c with `bytes` bytes use late-rank orders: modes
 * auto / adaptive only; ARCOLL_LATE_ORDER=on: every rooted collective
 * (bcast, scatter, reduce, gather, gatherv, scatterv) and size; off: none; unset: the adaptive
 * bcast, and bcast and reduce (commutative ops) from ARCOLL_LATE_DEFAULT_MIN_BYTES up (reduce:
 * one exchange only, lateness.h arcoll_late_exchanges_max; SMPI flat
 * P = 256, 32 KiB, 200 calls, summed inside, one rank 1 ms late 55.2 ->
 * 4.4 s, balanced 7.83 -> 7.84; not gather: bounded by the root's link,
 * 188.6 s with and without; not scatter: 32 KiB blocks, P = 64, 1.25x
 * slower with it, no gain with late ranks; adapt/LATENESS.md "Lateness").
 */
ARCOLL_HIDDEN int arcoll_late_applies(arcoll_coll_t c, MPI_Aint bytes);

/**
 * Warm-up calls (collectives/online_pacing.h) for ex, the new explorer of a
 * reduce of `bytes` bytes on st (its op commutative: else no late-rank
 * order): ex->warmup, raised where late-rank
 * ordering applies and its first lateness summary is still to come, so that
 * the tolerant tree's first measured run (its index x trials + warm-up)
 * falls on the first call with that summary's order (call
 * ARCOLL_LATE_FIRST_EXCHANGE + ARCOLL_LATE_APPLY_CALLS_UP of the tracker,
 * lateness.h): data flow toward the root, the online selection measures the
 * tree in the late order (late_order.c), and measured before it the tree
 * carries the late rank inside (SMPI flat P = 256, 32 KiB reduce, one rank
 * 1 ms late: binomial's period 1.20 ms before the order against rsag's
 * 1.08, which then won: 55.2 s summed inside over 200 calls against 4.44
 * with the tree measured in the order, period 1.00 ms).  Local, the same
 * on every rank (call counts agree).
 */
ARCOLL_HIDDEN int arcoll_late_tree_warmup(const arcoll_comm_state_t *st, arcoll_coll_t c,
                                          MPI_Aint bytes, int commutative,
                                          const arcoll_explorer_t *ex);

/** Call exit (after the data moved): records the call with the site of
 *  ret_addr and t_level = the model's time of ch / its levels, and runs the
 *  exchange steps due (late_tracker.h).  No-op when lc->lt is NULL. */
ARCOLL_HIDDEN int arcoll_late_end(const arcoll_comm_state_t *st, const arcoll_cached_t *ch,
                                  int root, const void *ret_addr, const arcoll_late_call_t *lc);

#ifdef __cplusplus
}
#endif

#endif
