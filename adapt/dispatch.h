/**
 * @file dispatch.h
 * @brief Internal to libarcoll.so: what every interposed collective shares
 *        (configuration, per-communicator state on a private communicator,
 *        the cached algorithm choice, argument checks).  Not installed.
 *
 * Dispatch of one call (adapt/DISPATCH.md, "Dispatch"):
 *  1. arcoll_intra(): the communicator is a valid intracommunicator with
 *     more than one rank, and the collective is not in mode pmpi; the
 *     collective's own checks (counts, datatypes, root, op) - otherwise
 *     PMPI_<Coll>, which reports MPICH's own error class;
 *  2. arcoll_state(): the communicator's state (private communicator made on
 *     first use, MPI_Comm_split with one colour);
 *  3. arcoll_choose(): the algorithm for (collective, P, byte size class,
 *     op commutative), computed once per communicator and class (auto mode:
 *     the first calls of a class measure the model's best candidates,
 *     collectives/online.h, and keep the fastest);
 *  4. the algorithm runs on the private communicator with tag
 *     ARCOLL_TAG(collective), timed by arcoll_online_t0() /
 *     arcoll_online_done() while its class is being measured; errors go to
 *     the user communicator's handler.
 *
 * Every decision depends only on arguments that MPI requires to agree on all
 * ranks (communicator, root, message bytes, op, datatype of reductions), so
 * all ranks of a correct program take the same path.
 */
#ifndef ARCOLL_ADAPT_DISPATCH_H
#define ARCOLL_ADAPT_DISPATCH_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "online.h"
#include "online_steps.h"
#include "late_tracker.h"
#include "select.h"
#include "tuning.h" /* ARCOLL_NCLASS */

#ifdef __cplusplus
extern "C" {
#endif

#define ARCOLL_EXPORT __attribute__((visibility("default")))
#define ARCOLL_HIDDEN __attribute__((visibility("hidden")))

/** Point-to-point tag of collective c on the private communicator (7001..7001 + ARCOLL_COLL_COUNT - 1). */
#define ARCOLL_TAG(c) (7001 + (int)(c))

/** Tags of collective c's lateness exchange (late_tracker.h: records, summaries, clock
 *  ping-pong) on the private communicator: 7100 + 4 c .. + 2. */
#define ARCOLL_TAG_LATE(c) (7100 + 4 * (int)(c))

/** Tags of collective c's online decisions taken by the root (decision.h): records,
 *  results on the private communicator: 7300 + 2 c, + 1. */
#define ARCOLL_TAG_DECISION(c) (7300 + 2 * (int)(c))

/** Tag of the detaching reduce's notices (collectives/reduce_detach.h) on the private communicator. */
#define ARCOLL_TAG_DETACH 7098

/** Tag of the clock offsets of the online selection's confirmation (collectives/online_confirm.h,
 *  adapt/clock.h) on the private communicator. */
#define ARCOLL_TAG_CLOCK 7099

/** A cached choice; algo == NULL: pass to PMPI. */
typedef struct arcoll_cached {
  const arcoll_algo_desc_t *algo;
  MPI_Aint segment_bytes; /**< for arcoll_sched_t.segment_bytes */
  int k;                  /**< for arcoll_sched_t.k */
  double predicted_s;     /**< the model's time for it, seconds (< 0: no formula) */
  int valid;              /**< 1 once computed */
  /** non-NULL while the class is measured online (auto mode, online.h):
   *  algo / segment_bytes / k then name the candidate of the current call */
  arcoll_explorer_t *ex;
  /** non-NULL while a round's decision is deferred (decision.h) */
  struct arcoll_decision *decision;
  /** how algo was chosen (tuning.h): "measured", "model", "tuning"; NULL
   *  outside auto mode (forced, adaptive: not written to tuning files) */
  const char *source;
} arcoll_cached_t;

/** Per-communicator state, attached to the user's communicator as an attribute. */
typedef struct arcoll_comm_state {
  MPI_Comm user, priv; /**< priv: private copy for arcoll's own traffic */
  int P, me;
  /** 1 when some node holds two or more of the communicator's ranks
   *  (MPI_COMM_TYPE_SHARED), the same on every rank; 0 otherwise or when
   *  ARCOLL_ONLINE_NATIVE=0.  Where it is 0 the native candidate is not
   *  measured (choice.c, collectives/native.h) */
  int node_shared;
  /** 1 when the communicator is an intracommunicator of P > 1 ranks (what
   *  arcoll_intra() asks; MPI_COMM_WORLD's state is made at MPI_Init even
   *  for a singleton), so a memo hit (arcoll_state_memo) can answer it */
  int intra_multi;
  /** choices [collective][op commutative][size class], allocated on first use */
  arcoll_cached_t *cache[ARCOLL_COLL_COUNT][2];
  /* ---- late-rank orders of rooted collectives (late_tracker.h) ---- */
  /** per collective, created on its first call with an adaptive order */
  arcoll_late_tracker_t *late[ARCOLL_COLL_COUNT];
  uint64_t ncalls;          /**< broadcasts arcoll ran on this comm */
  const int *last_order;    /**< order of the last broadcast (NULL: classic) */
  int last_root;
  int scatter_root;         /**< root of the last scatter / gather call (a scatter's rooted decision, choice.c) */
  /** 1 + the root of the last scatter (0: none yet): a root that moved picks the binomial
   *  scatter's smallest-subtree-first order (collectives/gather.h ARCOLL_SCATTER_SMALLEST_FIRST) */
  int scatter_last_root1;
  int last_adaptive;
  int bcast_calls_recorded; /**< 1 once a broadcast ran in arcoll */
  /** per collective [2 x ARCOLL_NCLASS]: the tolerant trees used while ranks are late
   *  (arcoll_tolerant_tree's, then binomial's) */
  arcoll_cached_t *late_alt[ARCOLL_COLL_COUNT];
  /** nonblocking / persistent collectives started on this communicator
   *  (tags of their schedules, nbc.h) */
  unsigned nbc_seq, pnbc_seq;
  /** this rank's clock minus the common one (seconds, adapt/clock.h), measured at the first
   *  confirmation of an online choice (collectives/online_confirm.h) on this communicator */
  double clock_offset;
  int clock_ready;
  /** decisions taken by the root whose requests are still open (decision_rooted.c) */
  struct arcoll_rooted *rooted_open;
  /** the detaching reduce's tree on this communicator (detach_state.h): made on the first
   *  eligible reduce (red_detach_made), for its root, radix and size class */
  struct arcoll_red_detach *red_detach;
  int red_detach_made, red_detach_root, red_detach_k, red_detach_class;
  /** the times outside a streaming reduce and its chain order (late_outside_exchange.h) */
  struct arcoll_outside *outside;
  struct arcoll_comm_state *next;
} arcoll_comm_state_t;

extern ARCOLL_HIDDEN arcoll_config_t arcoll_g_cfg;
extern ARCOLL_HIDDEN int arcoll_g_configured;

/** Parse the environment once (MPI_Init does it; later calls are no-ops).
 *  Invalid settings: world rank 0 prints the message, MPI_Abort(WORLD, 1). */
ARCOLL_HIDDEN void arcoll_configure(void);

/**
 * 1 if collective c should be run by arcoll on comm: configured mode is not
 * pmpi, comm is not MPI_COMM_NULL, is an intracommunicator, has P > 1 ranks
 * (*P receives the size).  0: pass the call to PMPI.
 */
ARCOLL_HIDDEN int arcoll_intra(arcoll_coll_t c, MPI_Comm comm, int *P);

/** The state of comm, created collectively on first use; NULL with *rc set on failure. */
ARCOLL_HIDDEN arcoll_comm_state_t *arcoll_state(MPI_Comm comm, int *rc);

/* Memo of the last state looked up, per thread (per rank under SMPI, whose
 * privatized globals are per rank): a call on the same communicator as the
 * last one skips PMPI_Comm_get_attr, PMPI_Comm_test_inter and PMPI_Comm_size
 * (9-18 ns of the 8-byte dispatch measured on MPICH 4.0.2, adapt/DISPATCH.md). A
 * freed state bumps arcoll_g_state_gen before it goes, so a memo taken before
 * misses, also when a new communicator gets the freed one's handle. */
#ifdef ARCOLL_SMPI
#define ARCOLL_TLS
#else
#define ARCOLL_TLS __thread
#endif
typedef struct {
  MPI_Comm comm;
  arcoll_comm_state_t *st;
  unsigned long gen; /**< arcoll_g_state_gen read before the lookup that filled it */
} arcoll_state_memo_t;
extern ARCOLL_HIDDEN ARCOLL_TLS arcoll_state_memo_t arcoll_g_memo;
extern ARCOLL_HIDDEN unsigned long arcoll_g_state_gen;

/** comm's state when this thread's last lookup was comm's and no state has
 *  been freed since; NULL otherwise (then arcoll_state() looks it up). */
static inline arcoll_comm_state_t *arcoll_state_memo(MPI_Comm comm) {
  if (arcoll_g_memo.comm == comm && arcoll_g_memo.st &&
      arcoll_g_memo.gen == __atomic_load_n(&arcoll_g_state_gen, __ATOMIC_ACQUIRE))
    return arcoll_g_memo.st;
  return NULL;
}

/** The state of comm if it exists (never creates it); NULL otherwise. */
ARCOLL_HIDDEN arcoll_comm_state_t *arcoll_state_peek(MPI_Comm comm);

/**
 * The algorithm for collective c on st's communicator for `bytes` bytes
 * (per rank for bcast/reduce/allreduce/scan/exscan, per block for
 * gather/scatter/alltoall/allgather/reduce_scatter_block, of the largest
 * block for allgatherv and reduce_scatter, ARCOLL_VBLOCK_NOMINAL_BYTES for
 * gatherv/scatterv, a fixed 4 KiB for alltoallv, 0 for barrier)
 * and an op that is commutative or not.  Cached per (c, commutative, size class); the choice depends only on
 * the class (its representative size), so every rank gets the same one.
 * Returns NULL when the call must go to PMPI (no eligible algorithm).
 */
ARCOLL_HIDDEN const arcoll_cached_t *arcoll_choose(arcoll_comm_state_t *st, arcoll_coll_t c,
                                                   MPI_Aint bytes, int commutative);

/** Start time (seconds, PMPI_Wtime) of a call whose class is measured
 *  online (ch->ex != NULL); 0 otherwise (no clock read on the fast path). */
static inline double arcoll_online_t0(const arcoll_cached_t *ch) {
  return ch->ex ? PMPI_Wtime() : 0.0;
}

/** The buffer of a halving algorithm's step times (coll.h arcoll_sched_t
 *  step_s) while ch's class measures a far-first variant's near twin
 *  (collectives/online_steps.h), else NULL. */
static inline double *arcoll_online_steps(const arcoll_cached_t *ch) {
  return ch->ex ? arcoll_explorer_step_buffer(ch->ex) : NULL;
}

/**
 * After the algorithm of choice ch (from arcoll_choose) returned rc: if its
 * class is being measured online, record this call's time (since t0) and,
 * after the last measured call of a round, agree on the winner - deferred
 * (decision.h: nonblocking reductions, applied ARCOLL_ONLINE_LAG calls
 * later, every rank at the same call) or, with the lag 0, two PMPI_Allreduce
 * on st->priv in this call - and cache it.  Returns rc, or the exchange's
 * error when rc was MPI_SUCCESS.
 */
ARCOLL_HIDDEN int arcoll_online_record(arcoll_comm_state_t *st, const arcoll_cached_t *ch,
                                       double t0, int rc);
/** The entry runs its explorer's best from now on; the explorer is freed
 *  once it has finished. */
ARCOLL_HIDDEN void arcoll_online_keep(arcoll_cached_t *e);
static inline int arcoll_online_done(arcoll_comm_state_t *st, const arcoll_cached_t *ch,
                                     double t0, int rc) {
  return ch->ex ? arcoll_online_record(st, ch, t0, rc) : rc; /* the fast path: no call */
}

/** Size class of a byte count (0..ARCOLL_NCLASS-1) and its representative size. */
ARCOLL_HIDDEN int arcoll_size_class(MPI_Aint bytes);
ARCOLL_HIDDEN MPI_Aint arcoll_class_bytes(int cls);

/**
 * 1 if op can be used by arcoll for reductions of dt: a user-defined op
 * (any datatype), or a predefined op (MPI_MAX ... MPI_MINLOC) on a
 * predefined C datatype of the op's group in the MPI standard.  0 (pass to
 * PMPI, which computes it or reports MPICH's error): MPI_OP_NULL,
 * MPI_REPLACE, MPI_NO_OP, a predefined op on a derived datatype (MPICH 4.0
 * rejects it, also in the MPI_Reduce_local the algorithms use), on a Fortran
 * type, or outside its group.  *commutative receives MPI_Op_commutative.
 */
ARCOLL_HIDDEN int arcoll_op_ok(MPI_Op op, MPI_Datatype dt, int *commutative);

/** 1 if dt is a committed-looking usable handle with size >= 0 (*size set). */
ARCOLL_HIDDEN int arcoll_type_ok(MPI_Datatype dt, int *size);

/** 1 when `count` elements of dt are `count x size` contiguous bytes from
 *  buf + *true_lb (size = MPI_Type_size = extent = true extent > 0, as
 *  arcoll_red_typeinfo in collectives/reduce_util.h decides), *true_lb set
 *  (bytes); 0 otherwise (pack them). A named datatype's answer is the memo
 *  arcoll_type_ok() filled. */
ARCOLL_HIDDEN int arcoll_type_contiguous(MPI_Datatype dt, MPI_Aint *true_lb);

/** 1 if buf may be used for count elements of dt: not NULL with data of a
 *  predefined datatype (MPICH's MPI_ERR_BUFFER).  MPI_BOTTOM with a derived
 *  type (absolute addresses) is allowed. */
ARCOLL_HIDDEN int arcoll_buf_ok(const void *buf, MPI_Aint count, int type_size, MPI_Datatype dt);

/** Returned by a collective's implementation: "run the PMPI form instead". */
#define ARCOLL_USE_PMPI (-0x7a5c)

/** Marker of calls that moved no data (count 0): arcoll_last_algorithm() says "none". */
extern ARCOLL_HIDDEN const arcoll_algo_desc_t arcoll_none_desc;

/** Record the algorithm of the calling thread's last call of c (NULL = PMPI). */
ARCOLL_HIDDEN void arcoll_note(arcoll_coll_t c, const arcoll_algo_desc_t *algo);

/** Tuning files (tuning.h, tuning_run.c): note st's auto-mode choices and
 *  its trackers' late sets (rank 0 of its communicator; no-op without
 *  ARCOLL_TUNING_OUT) ... */
ARCOLL_HIDDEN void arcoll_tuning_note_state(const arcoll_comm_state_t *st);
/** Start tracker t of collective c on st from ARCOLL_TUNING's late sets of
 *  (c, st->P) (tuning.h "lateness"); MPI_SUCCESS or MPI_ERR_NO_MEM. Local. */
ARCOLL_HIDDEN int arcoll_tuning_seed_tracker(const arcoll_comm_state_t *st, arcoll_coll_t c,
                                             arcoll_late_tracker_t *t);
/** ... and, collectively over MPI_COMM_WORLD inside MPI_Finalize, write them
 *  to ARCOLL_TUNING_OUT (world rank 0; failures are warnings on stderr). */
ARCOLL_HIDDEN void arcoll_tuning_write_at_finalize(void);

/** rc != MPI_SUCCESS: call the user communicator's error handler; returns rc. */
ARCOLL_HIDDEN int arcoll_finish(MPI_Comm comm, int rc);

/** Debug print (ARCOLL_DEBUG=1) of a fresh choice, by rank 0 of the communicator. */
ARCOLL_HIDDEN void arcoll_debug_choice(const arcoll_comm_state_t *st, arcoll_coll_t c,
                                       MPI_Aint bytes, int commutative, const arcoll_cached_t *ch);

#ifdef __cplusplus
}
#endif
#endif
