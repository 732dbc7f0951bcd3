/**
 * @file late_tracker.h
 * @brief Per-communicator lateness tracking of rooted collectives: records
 *        each call, exchanges samples of them with point-to-point messages
 *        that no rank waits for inside a call, and gives every rank the same
 *        order for the same call.  Internal to libarcoll.so.
 *
 * Protocol (adapt/LATENESS_TRACKING.md "Exchange"; decision logic in lateness.h and
 * order.h).  Calls are counted per communicator; everything below happens
 * at the EXIT of a call, after its data moved, so a rank's exchange work
 * delays at most its own next entry.  An exchange that starts after call
 * x - 1 (x = the next exchange start, identical on all ranks; the first
 * x = ARCOLL_LATE_FIRST_EXCHANGE):
 *  1. exit of call x - 1: the coordinator c is that call's root (every rank
 *     knows it); every other rank sends c its records of the last S <=
 *     ARCOLL_LATE_SAMPLES calls (one message, <= 281 bytes: late_wire.h) and posts the
 *     receive of the summary; c keeps P receives (MPI_ANY_SOURCE) posted,
 *     from the first exchange it coordinates on, reposted as they complete;
 *  2. exit of call x + G - 1 (G = arcoll_late_gather_calls(): 8 for bcast /
 *     scatter, 2 for reduce / gather): c summarises the records that arrived
 *     (bcast, scatter: c never waits - the root runs ahead, a missing record
 *     is used when it arrives, at the next exchange - except at the first
 *     exchange, which waits for every record once unless the calls are a chain - a seeded
 *     tracker's for all but the seeded late ranks' (arcoll_late_seed); from 16 ranks for all
 *     but 1 + P/32, then for the rest at most twice as long, the missing ones charged as
 *     late: late_first.h; reduce, gather: every
 *     record, sent before the root could finish call x; it completes the
 *     posted receives in posting order up to a token it sent itself, no
 *     MPI_Test*), and sends the packed summary to every rank (P - 1
 *     messages of ~0.1-0.4 KiB); nobody else waits;
 *  3. exit of call x + A - 1 (A = 16, bcast / scatter: G + 1): every rank
 *     completes the summary's receive (c sent it A - G calls earlier: it
 *     waits only if it is that far ahead of c, which a non-root of a bcast
 *     cannot be) and folds it into the history; the next exchange starts
 *     after arcoll_late_next_interval() calls (16 to 64: doubling while the
 *     late sets stay the same).
 * Cost: per call one clock read and a record; per exchange one 0.1-0.3 KiB
 * message per rank, and at c P - 1 completed receives, O(S P log P)
 * summary work and P - 1 small sends, every 16..64 calls.  Clock offsets: clock.h, once.
 */
#ifndef ARCOLL_ADAPT_LATE_TRACKER_H
#define ARCOLL_ADAPT_LATE_TRACKER_H

#include <mpi.h>
#include <stdint.h>

#include "late_trees.h"
#include "late_wire.h"
#include "lateness.h"
#include "order.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef struct arcoll_late_tracker {
  MPI_Comm comm; /**< arcoll's private communicator */
  int P, me;
  int tag;       /**< records use tag, summaries tag + 1 */
  double clock_offset; /**< PMPI_Wtime() - clock_offset = the common clock (clock.h) */
  int clock_ready;
  uint64_t ncalls;                                   /**< calls recorded */
  double last_exit;  /**< exit of the last recorded call, common clock */
  arcoll_late_record_t ring[ARCOLL_LATE_SAMPLES];    /**< this rank's record of call i at i % S */
  arcoll_history_t hist;
  int min_interval, interval; /**< calls between exchange starts */
  uint64_t next_x;            /**< call index at which the next exchange starts */
  int coord;                  /**< coordinator of the pending / last exchange (root of call x - 1) */
  int nrecv;                  /**< coordinator: records of the pending exchange received */
  /* the pending exchange */
  int pending;
  uint64_t x;
  int wait_all;   /**< the coordinator waits for every record (up; the first exchange of
                       a down collective whose calls are not a chain: with a patience
                       from 16 ranks, late_first.h) */
  int wait_trial; /**< records the coordinator waits for: those of the ranks not late (a trial, late_trees.h) */
  int gather, apply; /**< summarised / applied at the exit of call x + gather - 1 / x + apply - 1 */
  int nsampled;
  arcoll_late_msg_t out;       /**< this rank's records (step 1) */
  unsigned char out_buf[ARCOLL_LATE_WIRE_MAX]; /**< ... packed (late_wire.h), being sent */
  MPI_Request out_req;
  unsigned char *sum_buf;      /**< [ARCOLL_LATE_PACKED_MAX] packed summary (received or sent) */
  MPI_Request sum_req;         /**< non-coordinator: the summary's receive */
  MPI_Request *sum_sends;      /**< coordinator: [P] the summary's sends */
  MPI_Request *rreq;           /**< a rank that coordinated: [P] posted receives of records */
  unsigned char (*rbox)[ARCOLL_LATE_WIRE_MAX]; /**< their buffers [P], packed records */
  int rhead;                   /**< the oldest posted slot (matched first) */
  arcoll_late_record_t *rec;   /**< coordinator: [P * S] records of the pending exchange */
  arcoll_late_record_t *prev_rec; /**< coordinator: the previous exchange's, completed by late arrivals */
  uint64_t prev_first;         /**< its first call */
  int prev_n;                  /**< its sampled calls (0: none) */
  double x_time;               /**< coordinator: PMPI_Wtime() at step 1 */
  unsigned char *late_any;     /**< [P] scratch */
  arcoll_late_summary_t *sum;  /**< the pending exchange's summary (coordinator) / last applied */
  /* statistics */
  uint64_t exchanges;
  int late_seen;     /**< 1 once an applied summary left some rank late (the same on every rank) */
  int nlate;         /**< ranks late in the last applied summary (the same on every rank) */
  int steady;        /**< applied summaries in a row that left the same non-empty late set
                          (late_chain.h) */
  unsigned char *late_now; /**< [P] 1: late in the last applied summary (some entry) */
  int *chain_order;  /**< [P] the chain with late leaves' order of the current call (late_chain.h) */
  int seeded;        /**< 1: started from an earlier run's late sets (arcoll_late_seed) */
  int seed_tree;       /**< the seed's tolerant tree (ARCOLL_TREES_*), taken when the first summary keeps its late set */
  unsigned char *skip; /**< [P] (seeded) the seeded late ranks, whose records the first exchange does not wait for */
  int skipping;        /**< 1 while that exchange's coordinator drains its records */
  arcoll_late_trials_t trials; /**< the tolerant tree's trials (late_trees.h; the same on every rank) */
  double exchange_s; /**< seconds spent in the exchange steps (at call exits) */
  int last_adaptive; /**< 1 if the last call used an adaptive order */
  int up;            /**< data toward the root (arcoll_late_init) */
  int detach;        /**< 1: a reduce takes the detached positions (ARCOLL_LATE_DETACH, late_order.c) */
  int debug;         /**< 1: rank 0 prints every applied exchange to stderr (ARCOLL_DEBUG) */
} arcoll_late_tracker_t;

/** Set up for communicator comm (P ranks, this rank me); alpha: EWMA weight
 *  (0, 1]; min_interval: ARCOLL_BCAST_EXCHANGE_INTERVAL; up = 1 for
 *  collectives whose data flows toward the root (reduce, gather: lateness
 *  measured bottom-up, late ranks near the root, order.h).  Returns
 *  MPI_SUCCESS or MPI_ERR_NO_MEM.  No communication. */
int arcoll_late_init(arcoll_late_tracker_t *t, MPI_Comm comm, int tag, double alpha,
                     int min_interval, int up);

/**
 * Before the first call: start from an earlier run's late set of one (site,
 * root) (tuning.h "lateness", read at MPI_Init: the same on every rank),
 * g->late[i].lateness in seconds, and the tolerant tree its trials chose
 * (ARCOLL_TREES_*, 0: none; the first decided one is kept), which is
 * taken only if the first summary leaves the late set unchanged: which tree
 * tolerates a late rank best depends on the rank (SMPI two-level tree,
 * P = 64, 32 KiB bcast: the trial picks the binary tree with seed 001's
 * rank 32 late, binomial with rank 24; seed 001 run with rank 24's file
 * and its tree, 8.75 s summed inside against 7.39 without the file).  Until the
 * first summary the calls run the tolerant tree in the seeded order; the
 * first exchange of a bcast / scatter then waits for the records as
 * without a seed (late_first.h) except the seeded late ranks' (missing, they are held:
 * order.h), and its summary replaces the seeded figures: so a stale late
 * set costs a run a few calls, not the run.  SMPI flat P = 64, 32 KiB
 * bcast, 200 calls, summed inside, a file from seed 001's run (rank 32
 * late): another rank late 0.831 s (0.875 without the file; 3.42 when the
 * exchange took only what had arrived and the seed counted as a late rank
 * seen, which gives up the online exploration), balanced 0.4543 (0.4541);
 * seed 001 itself with the file: waiting for every record 1.060 s, without
 * rank 32's 0.687 (NTSB, SMPI's best fixed algorithm: 0.685).
 * Returns MPI_SUCCESS or MPI_ERR_NO_MEM.  Local.
 */
int arcoll_late_seed(arcoll_late_tracker_t *t, const arcoll_late_group_t *g, int tree);

/** Cancel / complete outstanding messages and free.  Local. */
void arcoll_late_free(arcoll_late_tracker_t *t);

/**
 * Call entry: the order for this call from `root` (NULL = the classic order
 * root, root + 1, ...), and *entry = the entry time in the common clock.
 * The first call synchronises the clocks (collective over t->comm: every
 * rank is in the same call).  Returns MPI_SUCCESS or an MPI error.
 */
int arcoll_late_enter(arcoll_late_tracker_t *t, int root, double *entry, const int **order);

/**
 * Call exit: record this rank's call (entry from arcoll_late_enter, site
 * key, the order used, t_level = model time of one tree level in seconds,
 * shape = 0 (binomial-like tree over the positions), ARCOLL_LATE_CHAIN,
 * ARCOLL_LATE_BINARY or ARCOLL_LATE_OTHER (lateness.h), with
 * ARCOLL_LATE_TRIAL for a call of a trial, late_trees.h) and run the
 * exchange steps due
 * after this call.  valid = 0 keeps the call out of the measurements (e.g.
 * an order that was not the one its algorithm honours).  Returns MPI_SUCCESS
 * or an MPI error.
 */
int arcoll_late_exit(arcoll_late_tracker_t *t, int root, double entry, uint64_t site,
                     const int *order, double t_level, int shape, int valid);

#ifdef __cplusplus
}
#endif
#endif
