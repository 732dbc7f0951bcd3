/**
 * @file order.h
 * @brief Lateness history and broadcast rank order (pure C, no MPI calls).
 *
 * Seed 001_6a837e3d9ad6c429.txt, technique 1 ("order adjustment inside a
 * collective"): a rank that enters MPI_Bcast after the root arrived late;
 * (arcoll measures entry times in one clock, clock.h, rather than waiting
 * times, which also depend on the rank's place in the tree);
 * late ranks are moved to leaves of the tree, early ranks to inner nodes.
 * Open problem 2 of the same seed (adapt per call site) is handled by keeping
 * one EWMA earliness vector per (global call site, root).
 *
 * Every function here is deterministic: given the same sequence of
 * arcoll_history_apply() calls, every rank computes the same order.  This is
 * what keeps the tree identical on all ranks (see adapt/README.md).
 */
#ifndef ARCOLL_ADAPT_ORDER_H
#define ARCOLL_ADAPT_ORDER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Calls remembered for call-site prediction (ring buffer length). */
#define ARCOLL_HISTORY_LEN 64
/** Longest period of the global-site sequence that is detected. */
#define ARCOLL_MAX_PERIOD 16
/** (site, root) EWMA vectors kept; the least recently updated is evicted. */
#define ARCOLL_MAX_ENTRIES 32

/** One rank's record for one call, gathered to rank 0 (16 bytes). */
typedef struct arcoll_lateness_record {
  double entry;  /**< entry into MPI_Bcast, seconds, in rank 0's clock (clock.h) */
  uint64_t site; /**< ASLR-independent call-site key of this rank (site.h) */
} arcoll_lateness_record_t;

typedef struct arcoll_site_entry {
  uint64_t site;  /**< global site = the root's site key */
  int root;
  int nobs;       /**< calls folded into ewma */
  uint64_t last;  /**< history index of the last update (for eviction) */
  double *ewma;   /**< [P] EWMA of earliness per rank, seconds */
} arcoll_site_entry_t;

/** Common (identical on all ranks) history of one communicator. */
typedef struct arcoll_history {
  int P;          /**< communicator size */
  double alpha;   /**< EWMA weight of the newest observation, (0, 1] */
  uint64_t ncalls; /**< calls applied so far */
  uint64_t site[ARCOLL_HISTORY_LEN]; /**< ring: global site of call i at i % LEN */
  int root[ARCOLL_HISTORY_LEN];
  arcoll_site_entry_t entries[ARCOLL_MAX_ENTRIES];
  int nentries;
  int *positions; /**< [P] binomial positions by subtree size (tree.h) */
} arcoll_history_t;

/** Initialise for P ranks; alpha in (0, 1].  Returns 0, or -1 on bad
 *  arguments / out of memory. */
int arcoll_history_init(arcoll_history_t *h, int P, double alpha);
void arcoll_history_free(arcoll_history_t *h);

/**
 * Fold one completed call into the history: wait[0..P-1] is the EARLINESS
 * of every rank (seconds: the last rank's entry time - the rank's entry
 * time, >= 0; large = arrived early, like a long waiting time), global_site
 * the root's site key.
 * ewma <- wait for the first observation, else (1 - alpha) ewma + alpha wait.
 * Returns 0 or -1 (out of memory).
 */
int arcoll_history_apply(arcoll_history_t *h, int root, uint64_t global_site,
                         const double *wait);

/**
 * Predict the global site of call number `call_index` (>= h->ncalls) with
 * root `root`: if the (site, root) sequence is periodic with the smallest
 * period p <= ARCOLL_MAX_PERIOD (confirmed over at least p + 1 calls), the
 * entry p calls back in the pattern; if that does not have this root, the last
 * site seen with this root.  Returns 1 and sets *site, or 0 if the root never
 * occurred in the remembered history.
 */
int arcoll_history_predict(const arcoll_history_t *h, uint64_t call_index, int root,
                           uint64_t *site);

/**
 * Rank order for a binomial broadcast from `root` at call `call_index`:
 * order[0] = root, based on the classic binomial order
 * order[i] = (root + i) mod P.  With adaptive != 0 and an EWMA vector for the
 * predicted (site, root): a non-root rank is LATE when it entered the
 * broadcast more than min_lateness_s seconds after the root, by the EWMA of
 * its earliness (see arcoll_history_apply; lateness = earliness of the root -
 * earliness of the rank).  The caller passes a bound below which lateness
 * is jitter (libarcoll: the model's time of one tree level, predicted time
 * / ceil(log2 P)).  Ranks arriving together are never late, whatever their place
 * in the tree, so a balanced run keeps the classic order and with it its
 * locality on hierarchical networks (measured under SMPI, 64 ranks on a tree
 * with 160:1 uplinks, 1 MiB bcast: the earlier rule, every rank sorted by
 * its waiting time, scrambled the chain across the uplinks: 234 ms per call
 * instead of 17.2 ms).
 * Late ranks, latest first, take the smallest free subtrees (leaves): a late
 * rank already on a leaf stays, otherwise it swaps places with the rank on
 * that leaf; every other rank keeps its classic position.
 * Returns 1 if some rank was late (the adaptive order), 0 for the classic
 * one, -1 on out of memory (order then holds the classic order).
 */
int arcoll_history_order(const arcoll_history_t *h, uint64_t call_index, int root,
                         int adaptive, double min_lateness_s, int *order);
#ifdef __cplusplus
}
#endif
#endif
