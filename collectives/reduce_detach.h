/**
 * @file reduce_detach.h
 * @brief Late ranks of a small reduce detached by their tree parent, with no
 *        exchange: the k-nomial / binomial reduce (reduce.h) for commutative
 *        ops carrying its own lateness notices (group reduce_scan).
 *
 * In a reduce a late rank holds its ancestors: each one waits for the
 * subtree below it, and every ancestor's time inside grows by the lateness.
 * A rank that sends straight to the root (position 0) holds the root alone.
 * Which ranks are late is seen where the waiting happens, by their parent,
 * and the facts travel with the data the reduce sends anyway:
 *
 *  1. A parent that waited for a child's message longer than `late_s`
 *     (seconds) in `calls_needed` consecutive calls - and the child did not
 *     itself wait for one of its own children that long (the child's
 *     message says so: marker ARCOLL_RED_DETACH_WAITED) - sends that child a
 *     notice (one int on the private communicator, tag `tag`); one child at
 *     a time per parent: the next once the last one asked has detached
 *     (arcoll_red_detach_observe()).
 *  2. The child tests its posted receive of the notice in each call; the
 *     first call that finds it announces the child's own position in the
 *     trailer of its message to the parent, and from the next call on it
 *     sends to position 0.
 *  3. Every message's trailer (announced positions, the marker) goes on up
 *     with the parent's own message, so the root reads every announcement in
 *     the call it was made and receives the detached positions directly from
 *     the next call on (after its tree children, in ascending position); the
 *     parent stops waiting for an announcing child from the next call on.
 *
 * No rank waits for a notice: a child that has not received one sends to
 * its parent as before, and every change is announced in the call before it
 * applies, along the path the data takes.  Messages are MPI_PACKED: the
 * data (PMPI_Pack of count x datatype) followed, only when something is
 * announced, by n and n ints; receivers post room for P + 2 ints more.
 * Used for messages of at most ARCOLL_RED_DETACH_MAX_BYTES (the receive
 * room and the packing cost), commutative ops, no late-rank order
 * (sched->order, sched->detached unset).  A detached rank stays detached (ending a
 * detachment was measured and not kept: the parent then waits for every call the
 * rank fell behind while detached), and a parent detaches at most
 * ARCOLL_RED_DETACH_PER_PARENT of its children: each detached rank sends one more
 * message into the root in every call, also once nobody is late any more.
 *
 * Source: not in the seeds; seed 001's lateness-aware trees (late ranks where
 * they hold nobody), learnt from the waits the reduce itself sees
 * (issue 16: "piggyback arrival times on messages the collective sends
 * anyway").  Measured: bench/notes/adaptive-layer-2026-12-01-to-02.md
 * "Reduce: late ranks detached by their parent".
 */
#ifndef ARCOLL_COLLECTIVES_REDUCE_DETACH_H
#define ARCOLL_COLLECTIVES_REDUCE_DETACH_H

#include <mpi.h>
#include <stddef.h>

#include "reduce_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest message (count x type size, bytes) the detaching reduce runs for. */
#define ARCOLL_RED_DETACH_MAX_BYTES 1024
/** An inner node times its waits in every ARCOLL_RED_DETACH_SAMPLE-th call of the tree (the same
 *  calls on every rank), and in every call while a child was late in the last timed one: the
 *  clock readings cost (SMPI flat P = 64, 8 B, balanced, knomial radix 8, summed inside: every
 *  call timed +1.4 %, bench/notes/adaptive-layer-2026-12-01-to-02.md). */
#define ARCOLL_RED_DETACH_SAMPLE 4
/** A parent sends notices to at most this many of its children: the root's extra messages per call
 *  stay below twice its tree's inner nodes however long lateness keeps moving (a bound, not a
 *  measured gain: bench/notes/adaptive-layer-2026-12-01-to-02.md "Lateness that moves on" - 9 ranks
 *  detached in 1000 calls there). */
#define ARCOLL_RED_DETACH_PER_PARENT 2
/** Trailer entry: the sender waited longer than late_s for a child in this call. */
#define ARCOLL_RED_DETACH_WAITED (-1)

/** One tree's detaching state on one rank (positions of the tree whose
 *  position 0 is the root, arcoll_red_pos_map).  Create with
 *  arcoll_red_detach_init(), free with arcoll_red_detach_free(). */
typedef struct arcoll_red_detach {
  int P;                 /**< communicator size */
  unsigned char *view;   /**< [P] 1 = that position sends to position 0 (as this rank knows it:
                              itself, its children; the root: all) */
  unsigned short *late;  /**< [P] consecutive calls that child's message came late */
  int asked;             /**< the child position the last notice went to, or -1 */
  double late_s;         /**< a wait longer than this (seconds) is a late call */
  int calls_needed;      /**< consecutive late calls before the notice (>= 1) */
  int tag;               /**< the notices' tag */
  MPI_Comm comm;         /**< the communicator the reduce runs on */
  MPI_Request notice;    /**< posted receive of the parent's notice (MPI_REQUEST_NULL: none) */
  int notice_buf;
  MPI_Request sent;      /**< the notice sent to `asked` (MPI_REQUEST_NULL when complete) */
  int sent_buf;
  int detached;          /**< number of positions set in view */
  int children_detached; /**< of them, this rank's tree children */
  unsigned long calls;   /**< calls of this tree so far */
  int watching;          /**< a child was late in the last timed call: every call is timed */
  /* the body's scratch, kept between calls (reduce_knomial_detach.c) */
  int *child, *out;      /**< [P], [P + 2] */
  MPI_Request *req;      /**< [P] */
  char *rbuf, *sbuf;     /**< rbuf_cap, sbuf_cap bytes */
  size_t rbuf_cap, sbuf_cap;
} arcoll_red_detach_t;

/** Set up d for a k-nomial tree over P positions of `comm` (parents: tree_extra.h
 *  arcoll_knomial_parent_pos),
 *  this rank at position mypos whose tree parent is at rank parent_rank (-1
 *  at position 0): posts the receive of the parent's notice.  Returns
 *  MPI_SUCCESS, MPI_ERR_NO_MEM or the receive's error (d is then freed). */
int arcoll_red_detach_init(arcoll_red_detach_t *d, int P, int mypos, int parent_rank,
                           double late_s, int calls_needed, int tag, MPI_Comm comm);

/** Complete or cancel d's requests and free its arrays (safe on a zeroed d). */
void arcoll_red_detach_free(arcoll_red_detach_t *d);

/** A parent's view of one call of child position c: it waited `waited_s`
 *  seconds for c's message, and c's message carried the marker (`c_waited`:
 *  c itself waited for a late child, so its lateness is not its own).
 *  Updates the consecutive count; returns 1 when c is to get the notice now
 *  (late in calls_needed consecutive calls, c not detached, the child
 *  this parent asked last - if any - detached since, and fewer than
 *  ARCOLL_RED_DETACH_PER_PARENT children detached), else 0.  No MPI. */
int arcoll_red_detach_observe(arcoll_red_detach_t *d, int c, double waited_s, int c_waited);

/** Grow *buf (capacity *cap bytes) to at least `bytes`: MPI_SUCCESS or MPI_ERR_NO_MEM. */
int arcoll_red_detach_room(char **buf, size_t *cap, size_t bytes);

/** The k-nomial reduce's body with the notices above (reduce_knomial_detach.c): tc from
 *  arcoll_red_tree_begin (commutative op: tc->map set), recvbuf at the root, d this rank's
 *  state for this tree.  Returns the first MPI error, else MPI_SUCCESS. */
int arcoll_reduce_knomial_detach(const arcoll_red_tree_call_t *tc, void *recvbuf, MPI_Aint count,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, int k,
                                 arcoll_red_detach_t *d);

#ifdef __cplusplus
}
#endif
#endif
