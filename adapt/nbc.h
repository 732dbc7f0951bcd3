/**
 * @file nbc.h
 * @brief Internal to libarcoll.so: nonblocking and persistent collectives
 *        (issue 19) as *schedules* of point-to-point rounds progressed by
 *        libarcoll itself (adapt/NONBLOCKING.md, "Nonblocking and persistent
 *        collectives").  Not installed.
 *
 * A schedule is a list of rounds.  A round is a set of communication ops
 * (PMPI_Isend / PMPI_Irecv on the communicator's private copy, tag of the
 * schedule), all posted together when the round starts, followed by local ops
 * (a reduction of a received block into an accumulator, a copy, a pack or an
 * unpack) run in order once every request of the round has completed.  A
 * round without communication runs its local ops at once.  Each builder
 * (nbc_<coll>.c) posts as much as it can per round: all children's receives
 * of a tree level, all sends of an alltoall.
 *
 * The user's request is a generalized request (MPI_Grequest_start, MPI-4
 * section 13.2) for nonblocking calls (in the SMPI build a zero-byte
 * receive from self, as below: SMPI 3.32's generalized requests are
 * ignored by its MPI_Testany / Testall / Waitany, nbc_progress.c), completed with MPI_Grequest_complete
 * when the last round finishes; for persistent calls (MPI-4 section 6.13) a
 * zero-byte PMPI_Recv_init from the rank itself on the private communicator,
 * so MPICH keeps the MPI-4 state of the request (inactive after completion,
 * wait on an inactive request returns at once with an empty status): every
 * MPI_Start runs the schedule and leaves that receive unposted ("lazy"):
 * MPI_Wait / MPI_Test / MPI_Request_get_status on the handle drive the
 * schedule themselves and report its completion (MPICH's handle stays
 * inactive, which is right once MPI_Wait / MPI_Test returned it); the
 * array waits and tests first post the receive (nbc_materialize) - and its
 * message, when the schedule is already done - so MPICH reports the
 * completion once, as MPI_Waitany / Testsome must; a running schedule's
 * end then sends that message.  Why: posting, sending and testing that
 * message at every start was nearly all of the start's cost over the
 * algorithm alone: 0.165 us before, 0.004 us lazy (MPICH, 2 ranks, 8 B
 * allreduce, bench/bench_nbc_persist.c; adapt/NONBLOCKING.md).
 *
 * Progress (nbc_progress.c): inside the interposed MPI_Wait*, MPI_Test*,
 * MPI_Start*, the nonblocking collectives themselves and every other
 * interposed collective (arcoll_intra).  With no schedule outstanding each of
 * them costs one test of arcoll_nbc_active.  Not thread-safe beyond
 * MPI_THREAD_FUNNELED / SERIALIZED (one thread makes MPI calls at a time).
 */
#ifndef ARCOLL_ADAPT_NBC_H
#define ARCOLL_ADAPT_NBC_H

#include <mpi.h>

#include "dispatch.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Tags on the private communicator (blocking collectives use 7001..7399):
 *  nonblocking schedules cycle through ARCOLL_NBC_TAGS tags from 8192 (the
 *  per-communicator start count, equal on all ranks since collectives start
 *  in the same order), persistent schedules from 12288 (per init), their
 *  completion messages to self from 16384. */
#define ARCOLL_NBC_TAG_BASE 8192
#define ARCOLL_NBC_TAGS 4096
#define ARCOLL_PNBC_TAG_BASE 12288
#define ARCOLL_PNBC_SELF_TAG_BASE 16384
/** SMPI build: completion messages to self of nonblocking calls (nbc_progress.c). */
#define ARCOLL_NBC_SELF_TAG_BASE 20480

/** Kinds of schedule ops. */
typedef enum {
  NBC_SEND,   /**< PMPI_Isend(src, count, dt, peer) */
  NBC_RECV,   /**< PMPI_Irecv(buf, count, dt, peer) */
  NBC_REDUCE, /**< buf = src op buf over count elements of dt (MPI_Reduce_local) */
  NBC_COPY,   /**< count elements of dt from src to buf (any layout) */
  NBC_PACK,   /**< pack (count, dt) at src into bytes at buf */
  NBC_UNPACK  /**< unpack bytes at src into (count, dt) at buf */
} nbc_kind_t;

typedef struct nbc_op {
  nbc_kind_t kind;
  int peer;
  MPI_Aint count;
  MPI_Datatype dt;
  MPI_Op op;
  const void *src;
  void *buf;
} nbc_op_t;

typedef struct nbc_sched nbc_sched_t;

/** A schedule under construction / running.  Fields are private to nbc_sched.c
 *  and nbc_progress.c. */
struct nbc_sched {
  MPI_Comm comm; /**< private communicator */
  int tag, me;
  nbc_op_t *ops;
  int nops, capops;
  int *round_end; /**< ops of round r: [round_end[r-1], round_end[r]) */
  int nrounds, caprounds;
  MPI_Request *reqs; /**< one per communication op of the largest round */
  int maxcomm;
  void **tmp; /**< temporaries freed with the schedule */
  int ntmp, captmp;
  /* running state */
  int round;  /**< current round; nrounds = finished */
  int posted; /**< 1 once the current round's communication is posted */
  int nreq;
  int err;    /**< first error */
  int active;
  /* the user's request */
  int persistent;
  int free_when_done; /**< persistent: MPI_Request_free came while active */
  int self_tag;       /**< persistent: tag of the completion message to self */
  int lazy;           /**< persistent, started: its handle's self receive not posted and its
                           completion not yet returned by MPI_Wait / MPI_Test (nbc.h) */
  MPI_Request user;
  int internal;       /**< 1: the library's own (nbc_start_internal), no user request */
  nbc_sched_t *next;  /**< running list */
  nbc_sched_t *lnext; /**< nonblocking: list of live generalized requests (until free_fn) */
};

/* ---- building (nbc_sched.c) ---- */

/** A new empty schedule on st's private communicator (NULL: no memory).
 *  persistent = 1 takes a tag of the persistent range. */
ARCOLL_HIDDEN nbc_sched_t *nbc_new(arcoll_comm_state_t *st, int persistent);
/** Append ops to the current round; 0 or MPI_ERR_NO_MEM (sticky: checked by nbc_start). */
ARCOLL_HIDDEN void nbc_send(nbc_sched_t *s, const void *buf, MPI_Aint count, MPI_Datatype dt,
                            int peer);
ARCOLL_HIDDEN void nbc_recv(nbc_sched_t *s, void *buf, MPI_Aint count, MPI_Datatype dt, int peer);
ARCOLL_HIDDEN void nbc_reduce(nbc_sched_t *s, const void *in, void *inout, MPI_Aint count,
                              MPI_Datatype dt, MPI_Op op);
ARCOLL_HIDDEN void nbc_copy(nbc_sched_t *s, const void *src, void *dst, MPI_Aint count,
                            MPI_Datatype dt);
ARCOLL_HIDDEN void nbc_pack(nbc_sched_t *s, const void *src, MPI_Aint count, MPI_Datatype dt,
                            void *bytes);
ARCOLL_HIDDEN void nbc_unpack(nbc_sched_t *s, const void *bytes, void *dst, MPI_Aint count,
                              MPI_Datatype dt);
/** Close the current round (empty rounds are dropped). */
ARCOLL_HIDDEN void nbc_round(nbc_sched_t *s);
/** bytes of memory owned by the schedule (NULL: no memory, s->err set). */
ARCOLL_HIDDEN void *nbc_alloc(nbc_sched_t *s, MPI_Aint bytes);
/** Room for count elements of dt (true extent rule of reduce_util.h): the
 *  address to use with MPI; NULL on failure (s->err set). */
ARCOLL_HIDDEN void *nbc_alloc_elems(nbc_sched_t *s, MPI_Aint count, MPI_Datatype dt);
/** Free the schedule and its temporaries (not the user's request). */
ARCOLL_HIDDEN void nbc_free(nbc_sched_t *s);

/* ---- running (nbc_progress.c) ---- */

/** Number of schedules running (0: the wrappers go straight to PMPI). */
extern ARCOLL_HIDDEN int arcoll_nbc_active;
/** Number of the library's own schedules running (nbc_start_internal): not in
 *  arcoll_nbc_active, progressed by arcoll_nbc_progress() from the collectives */
extern ARCOLL_HIDDEN int arcoll_nbc_internal;

/** Start a built nonblocking schedule: *req = a generalized request that
 *  completes when it finishes.  On error frees s and returns the error. */
ARCOLL_HIDDEN int nbc_start_nonblocking(nbc_sched_t *s, MPI_Request *req);
/** (Re)start a persistent schedule (its handle already made). */
ARCOLL_HIDDEN int nbc_start_persistent(nbc_sched_t *s);
/** Start a built schedule of the library's own (no user request; decision.h):
 *  it runs with the others and, once finished, stays allocated with
 *  s->active = 0 until its owner frees it (nbc_free).  On error frees s and
 *  returns the error. */
ARCOLL_HIDDEN int nbc_start_internal(nbc_sched_t *s);
/** A started internal schedule (nbc_start_internal) reducing the k doubles
 *  of `mine` (copied: the caller may reuse it) with op over st's private
 *  communicator; *out = its result buffer (k doubles, valid once the schedule
 *  has finished, owned by it).  Every rank must start it at the same point
 *  of its collective sequence.  NULL: no memory or the start failed. */
ARCOLL_HIDDEN nbc_sched_t *nbc_allreduce_doubles(arcoll_comm_state_t *st, const double *mine,
                                                 int k, MPI_Op op, double **out);
/** Block until the internal schedule s has finished (progressing every
 *  running schedule meanwhile); returns its first error or MPI_SUCCESS. */
ARCOLL_HIDDEN int nbc_wait_internal(nbc_sched_t *s);
/** Advance every running schedule as far as it goes without blocking. */
ARCOLL_HIDDEN void arcoll_nbc_progress(void);
/** With exactly one schedule running and its round posted: block in
 *  PMPI_Wait until that round's requests complete (errors go to the
 *  schedule); returns 1, or 0 (nothing done) otherwise. */
ARCOLL_HIDDEN int nbc_wait_sole_round(void);
/** The running schedule whose user request is r (NULL: none). */
ARCOLL_HIDDEN nbc_sched_t *nbc_find_active(MPI_Request r);
/** 1 if r is the generalized request of an arcoll nonblocking call that
 *  has not been freed yet (running or complete). */
ARCOLL_HIDDEN int nbc_is_grequest(MPI_Request r);
/** Append the pending internal requests of every running schedule to out
 *  (room for cap), with their schedule and slot in who / slot; returns n. */
ARCOLL_HIDDEN int nbc_internal_requests(MPI_Request *out, nbc_sched_t **who, int *slot, int cap);
/** Total pending internal requests (an upper bound for the above). */
ARCOLL_HIDDEN int nbc_internal_count(void);

/* ---- persistent handles (nbc_persist.c) ---- */

/** The persistent schedule whose handle is r (NULL: not arcoll's). */
ARCOLL_HIDDEN nbc_sched_t *nbc_find_persistent(MPI_Request r);
/** Register a built persistent schedule: makes *req (PMPI_Recv_init to self). */
ARCOLL_HIDDEN int nbc_persist_register(nbc_sched_t *s, MPI_Request *req);
/** Started persistent schedules whose handle is lazy (its self receive not
 *  posted, running or done but not yet completed by a wait or test; 0:
 *  nothing to do below). */
extern ARCOLL_HIDDEN int arcoll_nbc_lazy;
/** Post the self receive of every lazy handle among reqs[0..n) (before the
 *  array is handed to MPICH, which would take an unposted handle for
 *  inactive), and its message too when the schedule is done; returns the
 *  first error or MPI_SUCCESS. */
ARCOLL_HIDDEN int nbc_materialize(int n, const MPI_Request reqs[]);

/** buf + true_lb when count elements of dt are count * size contiguous bytes
 *  there (size == extent == true extent), else NULL (pack them). */
static inline char *nbc_contig(const void *buf, MPI_Aint count, MPI_Datatype dt) {
  MPI_Aint lb, extent, tlb, textent;
  int size = 0;
  if (buf == MPI_BOTTOM && count > 0) return NULL;
  PMPI_Type_size(dt, &size);
  PMPI_Type_get_extent(dt, &lb, &extent);
  PMPI_Type_get_true_extent(dt, &tlb, &textent);
  if ((MPI_Aint)size != extent || extent != textent) return NULL;
  return (char *)buf + tlb;
}

/** Extent of dt (bytes). */
static inline MPI_Aint nbc_extent(MPI_Datatype dt) {
  MPI_Aint lb, extent;
  PMPI_Type_get_extent(dt, &lb, &extent);
  return extent;
}

/* ---- schedule builders (nbc_<coll>.c): append the collective's rounds to
 * s for the calling rank (s->me) of P ranks; arguments as the MPI call's,
 * already checked (nbc_api.c); zero bytes give an empty schedule. ---- */
ARCOLL_HIDDEN void nbc_build_bcast(nbc_sched_t *s, void *buf, MPI_Aint count, MPI_Datatype dt,
                                   int root, int P);
ARCOLL_HIDDEN void nbc_build_reduce(nbc_sched_t *s, const void *sendbuf, void *recvbuf,
                                    MPI_Aint count, MPI_Datatype dt, MPI_Op op, int root, int P);
ARCOLL_HIDDEN void nbc_build_allreduce(nbc_sched_t *s, const void *sendbuf, void *recvbuf,
                                       MPI_Aint count, MPI_Datatype dt, MPI_Op op, int P);
ARCOLL_HIDDEN void nbc_build_gather(nbc_sched_t *s, const void *sbuf, MPI_Aint scount,
                                    MPI_Datatype stype, void *rbuf, MPI_Aint rcount,
                                    MPI_Datatype rtype, int root, int P);
ARCOLL_HIDDEN void nbc_build_scatter(nbc_sched_t *s, const void *sbuf, MPI_Aint scount,
                                     MPI_Datatype stype, void *rbuf, MPI_Aint rcount,
                                     MPI_Datatype rtype, int root, int P);
ARCOLL_HIDDEN void nbc_build_allgather(nbc_sched_t *s, const void *sbuf, MPI_Aint scount,
                                       MPI_Datatype stype, void *rbuf, MPI_Aint rcount,
                                       MPI_Datatype rtype, int P);
ARCOLL_HIDDEN void nbc_build_alltoall(nbc_sched_t *s, const void *sbuf, MPI_Aint scount,
                                      MPI_Datatype stype, void *rbuf, MPI_Aint rcount,
                                      MPI_Datatype rtype, int P);
/** Irregular blocks: counts and displacements (units of the type's extent)
 *  per rank, widened to MPI_Aint (arcoll_widen_counts); for alltoallv the
 *  send side is ignored when sbuf is MPI_IN_PLACE. */
ARCOLL_HIDDEN void nbc_build_allgatherv(nbc_sched_t *s, const void *sbuf, MPI_Aint scount,
                                        MPI_Datatype stype, void *rbuf, const MPI_Aint *rcounts,
                                        const MPI_Aint *displs, MPI_Datatype rtype, int P);
ARCOLL_HIDDEN void nbc_build_alltoallv(nbc_sched_t *s, const void *sbuf, const MPI_Aint *scounts,
                                       const MPI_Aint *sdispls, MPI_Datatype stype, void *rbuf,
                                       const MPI_Aint *rcounts, const MPI_Aint *rdispls,
                                       MPI_Datatype rtype, int P);
ARCOLL_HIDDEN void nbc_build_barrier(nbc_sched_t *s, int P);

/** Smallest block (bytes) for which the direct schedules (nbc_direct.c) are
 *  used: one round per phase, every rank's messages posted at once. */
#define ARCOLL_NBC_DIRECT_BLOCK 4096
/** Most blocks (about ranks) of a direct schedule (nbc_direct.c). */
#define ARCOLL_NBC_DIRECT_MAX_P 128
/** 1 if `bytes` cut into nblk blocks gives blocks of ARCOLL_NBC_DIRECT_BLOCK
 *  bytes or more (and 2 <= nblk <= ARCOLL_NBC_DIRECT_MAX_P). */
ARCOLL_HIDDEN int nbc_direct_fits(MPI_Aint bytes, int nblk);
/** nblk blocks over count units: the first unit of block j (the first
 *  count % nblk blocks one unit longer); j = nblk gives count. */
ARCOLL_HIDDEN MPI_Aint nbc_block_first(int j, MPI_Aint count, int nblk);
/** One round: the owner of block `mine` (of nblk blocks over count elements
 *  of dt at base, nbc_block_first) sends it to the owners of every other
 *  block and receives theirs; owner(j) = (off + j stride) mod P.  Peers in
 *  cyclic order from mine + 1, so not every rank sends to the same owner
 *  first. */
ARCOLL_HIDDEN void nbc_direct_allgather(nbc_sched_t *s, char *base, MPI_Aint count,
                                        MPI_Datatype dt, int nblk, int mine, int off, int stride,
                                        int P);
/** My own contribution to a direct reduce-scatter: own (len elements of
 *  dt), or, in place (in == rbuf, where the result is built), a copy taken
 *  in a local round of its own at the start; NULL when out of memory. */
ARCOLL_HIDDEN const char *nbc_direct_own(nbc_sched_t *s, const void *in, const void *rbuf,
                                         const char *own, MPI_Aint len, MPI_Datatype dt);
/** Appends to the current round (not closed): the owner of block `mine` (of
 *  nblk blocks over count elements of dt at in, owners as in
 *  nbc_direct_allgather) sends block j of in to owner j and receives the
 *  others' contributions to its block, then combines them into dst in
 *  block-owner order, x_0 op x_1 op ... (any op), its own contribution read
 *  from own (mine's elements: in's block, or a copy when dst overlaps it). */
ARCOLL_HIDDEN void nbc_direct_reduce_scatter(nbc_sched_t *s, const char *in, MPI_Aint count,
                                             MPI_Datatype dt, MPI_Op op, int nblk, int mine,
                                             int off, int stride, int P, const char *own,
                                             char *dst);
/** Direct bcast of `bytes` contiguous bytes at data (complete at the root),
 *  P >= 3: linear scatter of P - 1 blocks, then direct allgather (2 rounds). */
ARCOLL_HIDDEN void nbc_build_bcast_direct(nbc_sched_t *s, char *data, MPI_Aint bytes, int root,
                                          int P);
/** Direct allreduce (any op, P >= 3, count >= P): direct reduce-scatter
 *  combining in rank order, then direct allgather into rbuf (2 rounds);
 *  in == rbuf for MPI_IN_PLACE. */
ARCOLL_HIDDEN void nbc_build_allreduce_direct(nbc_sched_t *s, const void *in, void *rbuf,
                                              MPI_Aint count, MPI_Datatype dt, MPI_Op op,
                                              int P);

/** Rows of the grid of the two-level direct schedules (nbc_grid.c) for P
 *  ranks moving `bytes`: the largest divisor a of P with 2 <= a <= sqrt(P),
 *  used when the one-level direct schedule has more than
 *  ARCOLL_NBC_DIRECT_MAX_P blocks (nblk) and a row of P / a blocks gives
 *  blocks of ARCOLL_NBC_DIRECT_BLOCK bytes or more; 0: not used. */
ARCOLL_HIDDEN int nbc_grid_rows(MPI_Aint bytes, int nblk, int P);
/** Two-level direct bcast over an a x (P / a) grid of positions (rank -
 *  root) mod P, a = nbc_grid_rows(): scatter along row 0, scatter down each
 *  column, allgather up each column, allgather along each row (4 rounds of
 *  at most max(a, P / a) - 1 messages per rank). */
ARCOLL_HIDDEN void nbc_build_bcast_grid(nbc_sched_t *s, char *data, MPI_Aint bytes, int root,
                                        int P, int a);
/** Two-level direct allreduce (any op, count >= P) over an a x (P / a) grid
 *  of ranks (row-major): direct reduce-scatter along each row, then down
 *  each column (combining in rank order: correct for non-commutative ops),
 *  direct allgather up each column, then along each row (4 rounds);
 *  in == rbuf for MPI_IN_PLACE. */
ARCOLL_HIDDEN void nbc_build_allreduce_grid(nbc_sched_t *s, const void *in, void *rbuf,
                                            MPI_Aint count, MPI_Datatype dt, MPI_Op op, int P,
                                            int a);

/* ---- entry points (nbc_api.c), shared by nbc_api_blocks.c, nbc_api_vblocks.c ---- */

/** 1 if arcoll runs collective c on comm (*P its size): ARCOLL_NONBLOCKING
 *  on, req not NULL, arcoll_intra(), and comm has its arcoll state already
 *  (never created here: see nbc_api.c). */
ARCOLL_HIDDEN int nbc_handles(arcoll_coll_t c, MPI_Comm comm, MPI_Request *req, int *P);
/** The state and a new schedule of comm; NULL with *rc set on failure. */
ARCOLL_HIDDEN nbc_sched_t *nbc_begin(MPI_Comm comm, int persistent, int *rc);
/** Start (nonblocking) or register (persistent) a built s; errors go to
 *  comm's error handler; returns MPI_SUCCESS or the error. */
ARCOLL_HIDDEN int nbc_end(MPI_Comm comm, nbc_sched_t *s, int persistent, MPI_Request *req);

/** 1 if nonblocking / persistent collectives run in arcoll (ARCOLL_NONBLOCKING). */
ARCOLL_HIDDEN int arcoll_nbc_enabled(void);

#ifdef __cplusplus
}
#endif
#endif
