/**
 * @file late_outside_exchange.h
 * @brief Internal to libarcoll.so: one exchange of the ranks' times outside
 *        a streaming reduce, and the chain order it gives (late_outside.h).
 *
 * Which calls: MPI_Reduce of a commutative op, from
 * ARCOLL_ONLINE_REDUCE_TREE_MAX_BYTES (collectives/online_limits.h: where the
 * pipelined chain streams), late-rank orders on (late_order.h
 * arcoll_late_applies), whose choice is the chain or is being measured with
 * the chain among its candidates - the calls the late tracker leaves out
 * (late_order.c `reduce_tree_may_run`).  Every rank counts the same such
 * calls on a communicator.  Each one that runs the chain after one that
 * did adds its time outside (this rank's clock: entry minus the previous
 * call's exit, seconds) to a sum and keeps its shortest period (entry to
 * entry: the first chain calls after another algorithm refill the chain); at the
 * exit of the call that gave the ARCOLL_OUTSIDE_SAMPLES-th sample (round 0
 * of the online selection runs the chain from its fourth call: call 7)
 * the rank starts a nonblocking MAX-allreduce of P + 1 doubles (its mean
 * outside in its own slot, its shortest period in the last; nbc.h, progressed
 * inside the next interposed calls), and at the exit of the
 * ARCOLL_ONLINE_REDUCE_STREAM_LAG-th eligible call after that every rank
 * completes it (blocking for its rest if needed), computes the same late
 * set (arcoll_outside_late_set, floor 2 hops of the model's chain with its
 * segment, at least ARCOLL_OUTSIDE_FLOOR_MIN_S) - none where the chain's
 * stream is bound by links the model does not describe
 * (arcoll_outside_links_bound) - and from the next call the chain runs in
 * arcoll_outside_chain_order.  One exchange per communicator: in back to
 * back reduces the non-roots run ahead of the root, and every later
 * synchronising point would cost each of them its lead (late_tracker.h, the
 * tracker's one exchange toward the root); the lag lets the root's
 * contribution arrive before the ranks ahead reach the deadline (a balanced
 * chain at P = 256, 1 MiB: about 10 calls, collectives/online_limits.h).
 * The price: a late set that changes later is not followed (a late rank
 * that moved away keeps its place next to the root, which costs nothing on a
 * flat network).
 */
#ifndef ARCOLL_ADAPT_LATE_OUTSIDE_EXCHANGE_H
#define ARCOLL_ADAPT_LATE_OUTSIDE_EXCHANGE_H

#include "dispatch.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Samples (chain calls after a chain call) before the exchange starts. */
#define ARCOLL_OUTSIDE_SAMPLES 4
/** Least lateness (seconds) beyond the median time outside that makes a rank late. */
#define ARCOLL_OUTSIDE_FLOOR_MIN_S 10e-6

/** 1 if a reduce of `bytes` with this choice (the cached entry arcoll_choose
 *  returned; commut: the op is commutative) is one whose times outside are
 *  sampled (see above).  The same on every rank for the same call. */
ARCOLL_HIDDEN int arcoll_outside_eligible(const arcoll_cached_t *ch, int commut, MPI_Aint bytes);

/** Entry of an eligible call of `bytes` whose choice is ch: this rank's time
 *  outside since the previous one's exit goes into the mean.  No MPI
 *  communication. */
ARCOLL_HIDDEN void arcoll_outside_enter(arcoll_comm_state_t *st, const arcoll_cached_t *ch,
                                        MPI_Aint bytes);

/** The order of this eligible call from `root` when it runs `ran` (the
 *  algorithm after the late-rank substitutions): the chain order with the
 *  late ranks next to the root once the exchange applied and found some,
 *  else NULL (rank order).  Owned by st. */
ARCOLL_HIDDEN const int *arcoll_outside_order(arcoll_comm_state_t *st, const arcoll_cached_t *ran,
                                              int root);

/** Exit of an eligible call: starts the exchange or, at its
 *  deadline, completes and applies it.  Returns MPI_SUCCESS or the
 *  exchange's error (then no order is used on this rank's communicator
 *  state: the error is returned by the call, as any collective's). */
ARCOLL_HIDDEN int arcoll_outside_exit(arcoll_comm_state_t *st);

/** Teardown (MPI_Comm_free, MPI_Finalize): completes a pending exchange
 *  (every rank has the same one pending) and frees st's state. */
ARCOLL_HIDDEN void arcoll_outside_free(arcoll_comm_state_t *st);

#ifdef __cplusplus
}
#endif
#endif
