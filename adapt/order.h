/**
 * @file order.h
 * @brief Lateness history and the rank order of rooted collectives (pure C,
 *        no MPI calls).
 *
 * Seed 001_6a837e3d9ad6c429.txt, technique 1 ("order adjustment inside a
 * collective"): late ranks are moved to leaves of the tree.  Open problem 2
 * of the same seed (adapt per call site) is handled by keeping one entry per
 * (global call site = the root's site, root).
 *
 * The history is fed with the summaries of lateness.h (caused lateness of
 * the latest ranks of each sampled call group, computed by one rank and
 * applied by all at the same call), so every function here gives every rank
 * the same result: this is what keeps the tree identical on all ranks
 * (adapt/LATENESS_TRACKING.md).
 */
#ifndef ARCOLL_ADAPT_ORDER_H
#define ARCOLL_ADAPT_ORDER_H

#include <stdint.h>

#include "lateness.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Sampled calls remembered for call-site prediction (ring length). */
#define ARCOLL_HISTORY_LEN 64
/** Longest period of the (site, root) sequence that is detected. */
#define ARCOLL_MAX_PERIOD 16
/** (site, root) entries kept; the least recently updated is evicted. */
#define ARCOLL_MAX_ENTRIES 32

typedef struct arcoll_site_entry {
  uint64_t site;  /**< global site = the root's site key */
  int root;
  int nobs;       /**< summaries folded in */
  uint64_t last;  /**< history update count at the last fold (for eviction) */
  double *ewma;   /**< [P] EWMA of caused lateness per rank, seconds */
  double noise;   /**< EWMA of the group's noise level, seconds */
  double t_level; /**< the last summary's t_level, seconds */
  unsigned char *late; /**< [P] 1 = late in the current decision */
  int nlate;
  int *order;     /**< [P] order with the late ranks on leaves (valid when nlate > 0) */
  unsigned char *detached; /**< [P] per position of order: 1 = detached (arcoll_history_detached) */
  int ndetached;
  int seeded;     /**< 1: from arcoll_history_seed, no summary group folded into it yet */
} arcoll_site_entry_t;

/** Common (identical on all ranks) history of one communicator. */
typedef struct arcoll_history {
  int P;           /**< communicator size */
  double alpha;    /**< EWMA weight of the newest summary, (0, 1] */
  uint64_t nfolds; /**< groups folded so far */
  uint64_t nseq;   /**< sampled calls pushed so far */
  uint64_t seq_call[ARCOLL_HISTORY_LEN]; /**< ring: call index of sampled call i at i % LEN */
  uint64_t seq_site[ARCOLL_HISTORY_LEN];
  int seq_root[ARCOLL_HISTORY_LEN];
  int period; /**< period of the remembered sequence (arcoll_history_predict), 0 = none */
  arcoll_site_entry_t entries[ARCOLL_MAX_ENTRIES];
  int nentries;
  int *positions; /**< [P] slots in order of preference, the best for a late rank last */
  int up;         /**< 1: data flows toward the root (arcoll_history_set_up) */
  int *scratch;   /**< [P] */
  /* the order of a root without an entry at a site whose root moves
   * (arcoll_history_order), cached for one root */
  int *derived;          /**< [P] the order */
  int derived_root;      /**< the root it is for, -1: none */
  int derived_nlate;     /**< late ranks in it, the root left out (0: the classic order) */
  uint64_t derived_last; /**< the source entry's last fold (h->nfolds: one per fold) */
} arcoll_history_t;

/** Initialise for P ranks; alpha in (0, 1].  Returns 0, or -1 on bad
 *  arguments / out of memory. */
int arcoll_history_init(arcoll_history_t *h, int P, double alpha);
void arcoll_history_free(arcoll_history_t *h);

/**
 * For collectives whose data flows toward the root (reduce, gather): a late
 * rank that finds no free leaf in its own subtree (where every late rank
 * goes first, in both directions: order.c) takes the leaf nearest the root
 * (positions 1, then 3, 5, 9, ...: depth = popcount), whose data the root
 * can take last, instead of the smallest subtree anywhere (broadcast,
 * scatter).  Call after init.
 */
void arcoll_history_set_up(arcoll_history_t *h);

/**
 * Fold one summary group into the entry of (g->site, g->root): per rank
 * ewma <- (1 - alpha) ewma + alpha x (listed lateness, else 0) (the first
 * fold sets it), noise likewise; then the late set: a rank is late when its
 * ewma exceeds arcoll_late_threshold(t_level, noise), or half of it if it
 * was late already (hysteresis); the root never is.  When some rank is late
 * the entry's order is rebuilt (arcoll_history_order).  *changed (may be
 * NULL) is set to 1 if the late set differs from before.
 * Returns 0 or -1 (out of memory).
 */
int arcoll_history_fold(arcoll_history_t *h, const arcoll_late_group_t *g, int *changed);

/**
 * For data flowing away from the root (bcast, scatter), on the coordinator
 * before it sends a summary: a rank late in the entry of (g->site, g->root)
 * whose records are not in (present[r] == 0, present: [P]) has not reached
 * the sampled calls while half the ranks have: it has fallen further behind,
 * not caught up.  It is put in g's list (arcoll_late_group_put) with its
 * current EWMA (seconds), so that folding g keeps it late.  Without this
 * its EWMA decays while it lags, its late set empties a few exchanges later,
 * and the rank, back inside the tree, makes its subtree wait at once for all
 * the calls it lags (measured under SMPI, flat P = 64, 32 KiB back-to-back
 * bcast, rank 24 late by 1 ms per call: its 7 subtree ranks spent 0.21 s
 * inside instead of 0.05 s).  Seed 001_6a837e3d9ad6c429.txt, technique 1.
 * Returns the number of ranks put in the list.
 */
int arcoll_history_hold_missing(const arcoll_history_t *h, const unsigned char *present,
                                arcoll_late_group_t *g);

/** Remember that sampled call `call` (index among the communicator's calls of
 *  this kind) had (site, root); feeds arcoll_history_predict. */
void arcoll_history_push(arcoll_history_t *h, uint64_t call, uint64_t site, int root);

/**
 * Predict the global site of call `call` with root `root` from the
 * remembered sampled calls: if the (site, root) sequence is periodic in the
 * call index with the smallest period p <= ARCOLL_MAX_PERIOD (every
 * remembered call agrees with the others of its residue call mod p, at
 * least p + 1 calls remembered, and the residue of `call` was seen), the
 * site of that residue when it has this root; otherwise the last site seen
 * with this root.  Returns 1 and sets *site, or 0 if the root was never seen.
 */
int arcoll_history_predict(const arcoll_history_t *h, uint64_t call, int root, uint64_t *site);

/**
 * The order of call `call` from `root`: the entry of the predicted (site,
 * root) when it has late ranks: order[0] = root, the classic binomial order
 * (root + i) mod P with each late rank, latest first, on a free leaf of
 * the subtree it headed (a late rank already on a leaf stays, otherwise it
 * swaps places with the rank there; away from the root the shallowest leaf
 * whose parent has no other child, toward the root the shallowest leaf:
 * order.c build_order); NULL otherwise (the classic order: algorithms take
 * NULL as (root, root + 1, ...)).  No call of `root` sampled yet: the
 * entry of that root folded last (seeded ones, arcoll_history_seed).  O(1) plus the prediction: the order is
 * built when the entry is folded, not per call.
 * A root without an entry at a site whose entries have two roots or more
 * (the root moves; the site predicted, else the newest sampled call's):
 * the order built for `root` from the late set of the site's entry folded
 * last (lateness.c judges a site's ranks over all its sampled calls, so
 * every entry of the site lists the same ranks), cached for one root, O(P)
 * when the root changes.  Why: the sampled calls of a moving root cover a
 * few roots (8 per exchange), and every other root ran the classic order
 * (SMPI flat P = 64, 8 KiB bcast, root c mod P, rank 24 late by 1 ms: 48
 * of 64 roots without an entry).
 */
const int *arcoll_history_order(arcoll_history_t *h, uint64_t call, int root);

/**
 * Toward the root only (arcoll_history_set_up): the positions of `order` (a
 * pointer arcoll_history_order returned) whose late rank sends its result
 * straight to the root, which takes it after its tree children
 * (arcoll_sched_t::detached, collectives/coll.h), or NULL when none.  In a
 * reduce every ancestor of a late rank waits for it (eight late ranks on the
 * leaves of a binomial tree: eight parents and their ancestors wait, SMPI
 * flat P = 64, 8 B, 8 ms summed inside per call for a 1 ms delay); detached,
 * only the root does, which waits for everything anyway.  The cost is the
 * root's: one more receive (and reduction) per detached rank, about one tree
 * level of the model (the entry's t_level).  So the latest ranks are
 * detached, latest first, while the i-th (from 1) is late by at least i tree
 * levels (its EWMA >= i x t_level): at 1 MiB a late set of several ranks
 * would otherwise pour that many megabytes into the root's link.  Built with
 * the order when the entry is folded; the same on every rank.
 */
const unsigned char *arcoll_history_detached(const arcoll_history_t *h, const int *order);

/**
 * Start the entry of (g->site, g->root) from an earlier run's late set
 * (tuning.h, "lateness"; g->late[i].lateness = the EWMA of its caused
 * lateness, seconds): folded as a summary (arcoll_history_fold), then every listed
 * rank but the root is late even where its lateness is below the threshold
 * (it was late when the earlier run ended: hysteresis kept it), and the
 * entry's order is rebuilt.  Until a sampled call of that root is pushed,
 * arcoll_history_order uses the root's latest folded entry.  The first
 * summary group folded into it REPLACES the seed's figures (EWMA weight 1:
 * a rank punctual in this run leaves the late set at once, not after the
 * ~6 halvings a late rank's EWMA needs to fall below half the threshold);
 * a late rank whose records are missing is held (arcoll_history_hold_missing)
 * with the seed's figure.  The first group of that root whose site has no
 * entry (the program was rebuilt: its call sites moved) takes the seeded
 * entry over, as if it were the same site, and is held from it: otherwise
 * its fresh entry would start from calls where the late rank's records
 * were missing, uncharged, and the rank would go back inside the tree
 * (SMPI flat P = 64, 32 KiB bcast, seed 001's rank 32, seeded under
 * another site: calls 11-39 0.188 s each summed inside against 0.0034).
 * Returns 0, or -1 (out of memory).
 */
int arcoll_history_seed(arcoll_history_t *h, const arcoll_late_group_t *g);

/** 1 for every rank that is late in some entry (late_any[P]); returns how many. */
int arcoll_history_late_any(const arcoll_history_t *h, unsigned char *late_any);

#ifdef __cplusplus
}
#endif
#endif
