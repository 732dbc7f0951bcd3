/**
 * @file order.h
 * @brief Lateness history and broadcast rank order (pure C, no MPI calls).
 *
 * Seed 001_6a837e3d9ad6c429.txt, technique 1 ("order adjustment inside a
 * collective"): a rank with a SHORT waiting time inside MPI_Bcast arrived late;
 * late ranks are moved to leaves of the tree, early ranks to inner nodes.
 * Open problem 2 of the same seed (adapt per call site) is handled by keeping
 * one EWMA waiting-time vector per (global call site, root).
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

/** One rank's record for one call, exchanged with MPI_Iallgather (16 bytes). */
typedef struct arcoll_lateness_record {
  double wait;   /**< seconds spent inside MPI_Bcast (exit - entry, local clock) */
  uint64_t site; /**< ASLR-independent call-site key of this rank (site.h) */
} arcoll_lateness_record_t;

typedef struct arcoll_site_entry {
  uint64_t site;  /**< global site = the root's site key */
  int root;
  int nobs;       /**< calls folded into ewma */
  uint64_t last;  /**< history index of the last update (for eviction) */
  double *ewma;   /**< [P] EWMA of waiting time per rank, seconds */
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
 * Fold one completed call into the history: wait[0..P-1] are the waiting
 * times (seconds) of every rank, global_site the root's site key.
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
 * order[0] = root.  adaptive != 0 and an EWMA vector exists for the predicted
 * (site, root): non-root ranks sorted by EWMA wait descending (early arrivers
 * first; ties by (rank - root) mod P ascending) are assigned to binomial
 * positions by decreasing subtree size, so the latest ranks become leaves.
 * Otherwise order[i] = (root + i) mod P (the classic binomial tree).
 * Returns 1 if the adaptive order was used, 0 for the classic one, -1 on
 * out of memory (order then holds the classic order).
 */
int arcoll_history_order(const arcoll_history_t *h, uint64_t call_index, int root,
                         int adaptive, int *order);

#ifdef __cplusplus
}
#endif
#endif
