/**
 * @file config.h
 * @brief Run-time configuration of libarcoll from environment variables
 *        (read once, at MPI_Init; adapt/README.md has the full table).
 *
 * | variable                          | values                                   | default |
 * |-----------------------------------|------------------------------------------|---------|
 * | ARCOLL_<COLL>_ALGORITHM           | auto, pmpi, or a name of the collective's | auto    |
 * |                                   | table (collectives/select.h); bcast also |         |
 * |                                   | `adaptive`                               |         |
 * | ARCOLL_MODEL                      | path of a model file (JSON)              | built-in|
 * | ARCOLL_BCAST_SEGMENT              | segment size in bytes, 0 = none          | 65536 (adaptive) |
 * | ARCOLL_BCAST_EXCHANGE_INTERVAL    | fewest calls between lateness exchanges, | 16      |
 * |                                   | 16..64 (doubles while the late set holds)|         |
 * | ARCOLL_LATE_ORDER                 | on / off: late ranks become leaves       | bcast,  |
 * |                                   | (late_tracker.h)                         | reduce  |
 * |                                   |                                          | >= 8 KiB|
 * | ARCOLL_LATE_DETACH                | on / off: a reduce's latest ranks send   | off     |
 * |                                   | to the root directly (order.h)           |         |
 * | ARCOLL_LATE_CHAIN                 | on / runs / off: a streaming bcast's     | runs    |
 * |                                   | chain (of runs) with late leaves         |         |
 * |                                   | (late_chain.h)                           |         |
 * | ARCOLL_REDUCE_DETACH              | on / off: a small reduce's late ranks    | on      |
 * |                                   | are detached by their tree parent        |         |
 * |                                   | (detach_state.h)                         |         |
 * | ARCOLL_BCAST_EWMA_ALPHA           | EWMA weight of newest call (0,1]         | 0.5     |
 * | ARCOLL_ONLINE_CANDIDATES          | 1..8 candidates measured online per size | 5       |
 * |                                   | class in auto mode (1: the model alone)  |         |
 * | ARCOLL_ONLINE_TRIALS              | 1..8 runs of each candidate              | 2       |
 * | ARCOLL_ONLINE_REFINE              | 0..8 segment-refinement rounds after the | 3       |
 * |                                   | candidates (collectives/online.h)        |         |
 * | ARCOLL_ONLINE_SKEW                | 0..1000: arrival skew above this x       | 8       |
 * |                                   | binomial's model time ends a reduce      |         |
 * |                                   | exploration (< 8 KiB) with binomial      |         |
 * | ARCOLL_ONLINE_CONFIRM             | 0..64: calls per block of the steady-    | 8       |
 * |                                   | state confirmation of the online choice  |         |
 * |                                   | (not bcast / reduce; 0, 1: none)         |         |
 * | ARCOLL_TUNING                     | tuning file read at MPI_Init (tuning.h): | none    |
 * |                                   | its choices replace the online selection |         |
 * | ARCOLL_TUNING_OUT                 | tuning file written at MPI_Finalize      | none    |
 * | ARCOLL_DEBUG                      | 0 or 1 (print orders / choices to stderr)| 0       |
 * | ARCOLL_NONBLOCKING                | on: nonblocking / persistent collectives | on      |
 * |                                   | run as arcoll schedules (nbc.h); off: PMPI|        |
 *
 * <COLL> is BCAST, REDUCE, ALLREDUCE, SCAN, EXSCAN, GATHER, SCATTER,
 * ALLTOALL, BARRIER, ALLGATHER, REDUCE_SCATTER_BLOCK, ALLGATHERV, GATHERV,
 * SCATTERV, REDUCE_SCATTER or ALLTOALLV
 * (arcoll_coll_name() upper-cased).
 */
#ifndef ARCOLL_ADAPT_CONFIG_H
#define ARCOLL_ADAPT_CONFIG_H

#include "select.h"
#include "tuning.h"

/** arcoll_config_t::late_chain: ARCOLL_LATE_CHAIN=on (one chain once the late set held) */
#define ARCOLL_LATE_CHAIN_ON 1
/** arcoll_config_t::late_chain: ARCOLL_LATE_CHAIN=runs, the default (late_chain.h) */
#define ARCOLL_LATE_CHAIN_RUNS 2

#ifdef __cplusplus
extern "C" {
#endif

/** How a collective is dispatched. */
typedef enum {
  ARCOLL_MODE_AUTO = 0, /**< arcoll_select() with the model, per call (cached per size class) */
  ARCOLL_MODE_PMPI,     /**< pass every call to the MPI library */
  ARCOLL_MODE_FORCED,   /**< always the algorithm config.forced[c] */
  ARCOLL_MODE_ADAPTIVE  /**< bcast only: binomial tree, late ranks become leaves */
} arcoll_mode_t;

typedef struct arcoll_config {
  arcoll_mode_t mode[ARCOLL_COLL_COUNT];
  const arcoll_algo_desc_t *forced[ARCOLL_COLL_COUNT]; /**< for ARCOLL_MODE_FORCED */
  long long segment_bytes; /**< bcast segment, bytes; 0 = one segment */
  int segment_set;         /**< 1 if ARCOLL_BCAST_SEGMENT was given */
  int exchange_interval;   /**< fewest calls between lateness exchanges (late_tracker.h) */
  int late_order;          /**< ARCOLL_LATE_ORDER: 1 on, 0 off, -1 unset (arcoll_late_applies) */
  int late_chain;          /**< ARCOLL_LATE_CHAIN: ARCOLL_LATE_CHAIN_ON, 0 off, ARCOLL_LATE_CHAIN_RUNS (default;
                                late_chain.h) */
  int late_detach;         /**< ARCOLL_LATE_DETACH: 1 on, 0 off (default; order.h arcoll_history_detached) */
  int reduce_detach;       /**< ARCOLL_REDUCE_DETACH: 0 off, else on (default; detach_state.h) */
  double ewma_alpha;
  int debug;
  int nonblocking;         /**< ARCOLL_NONBLOCKING: 1 on (default), 0 off (nbc.h) */
  int online_candidates;   /**< ARCOLL_ONLINE_CANDIDATES: candidates measured per class (1 = model only) */
  int online_trials;       /**< ARCOLL_ONLINE_TRIALS: runs per candidate */
  int online_warmup;       /**< ARCOLL_ONLINE_WARMUP: unmeasured runs of the model's best before them
                              (-1 unset: arcoll_explorer_default_warmup()) */
  int online_refine;       /**< ARCOLL_ONLINE_REFINE: segment-refinement rounds (0 = none) */
  int online_skew;         /**< ARCOLL_ONLINE_SKEW: imbalance-check factor (0 = no check) */
  int online_confirm;      /**< ARCOLL_ONLINE_CONFIRM: steady-state confirmation block (calls, 0 = none) */
  int online_native;       /**< ARCOLL_ONLINE_NATIVE: below this many bytes the MPI library's own collective is a candidate too (native.h; 0 = never) */
  int online_lag;          /**< ARCOLL_ONLINE_LAG: calls until a round's decision (0 = in the call; -1 = from P, adapt/decision.h) */
  arcoll_model_t model;    /**< ARCOLL_MODEL or arcoll_model_default() */
  arcoll_tuning_t tuning;  /**< ARCOLL_TUNING's choices (empty when unset) */
  char tuning_out[4096];   /**< ARCOLL_TUNING_OUT ("" when unset) */
  int compress;            /**< ARCOLL_COMPRESS (arcoll_compress_mode_t, compress_decide.h) */
} arcoll_config_t;

/**
 * Parse the environment into *cfg (loads the model file named by
 * ARCOLL_MODEL).  On an invalid value writes a message naming the variable,
 * the value and the valid values (or the model file and its problem) into
 * err (size errlen) and returns -1; returns 0 on success.
 */
int arcoll_config_parse(arcoll_config_t *cfg, char *err, int errlen);

#ifdef __cplusplus
}
#endif
#endif
