/**
 * @file detach_state.h
 * @brief Internal to libarcoll.so: which reduces run the detaching k-nomial /
 *        binomial tree (collectives/reduce_detach.h), and its state per
 *        communicator.
 */
#ifndef ARCOLL_ADAPT_DETACH_STATE_H
#define ARCOLL_ADAPT_DETACH_STATE_H

#include "dispatch.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A reduce's late ranks are detached by their parent when its wait for them exceeds this many
 *  times the configuration's model time (ch->predicted_s), at least ARCOLL_RED_DETACH_MIN_LATE_S. */
#define ARCOLL_RED_DETACH_LATE_FACTOR 32
#define ARCOLL_RED_DETACH_MIN_LATE_S 50e-6
/** ... in this many consecutive calls. */
#define ARCOLL_RED_DETACH_CALLS 3

/**
 * This rank's detaching state for a reduce on st with choice ch (after arcoll_late_algorithm),
 * or NULL for the plain tree.  Used when ARCOLL_REDUCE_DETACH is not off, the op is
 * commutative, 0 < bytes <= ARCOLL_RED_DETACH_MAX_BYTES, ch is binomial or knomial and no longer
 * measured online (no explorer, no pending decision), and no late-rank order or detached set
 * (`order`, `detached`) is in use; one tree per communicator - the first such call's (root,
 * radix, size class) - so that every rank decides the same from the same calls.  Made on that
 * first call (it posts the receive of the parent's notice); NULL on no memory or error.
 */
ARCOLL_HIDDEN struct arcoll_red_detach *arcoll_reduce_detach_state(arcoll_comm_state_t *st,
                                                                  const arcoll_cached_t *ch,
                                                                  int root, int commut,
                                                                  MPI_Aint bytes, const int *order,
                                                                  const unsigned char *detached);

/** Free st's detaching state (state teardown, before the private communicator is freed). */
ARCOLL_HIDDEN void arcoll_reduce_detach_free(arcoll_comm_state_t *st);

#ifdef __cplusplus
}
#endif
#endif
