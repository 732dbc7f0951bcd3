/**
 * @file late_outside.h
 * @brief A streaming reduce chain's late ranks, found from each rank's time
 *        outside the reduce (between its exit from one call and its entry
 *        into the next, its own clock: no clock offsets), and the chain's
 *        order with them next to the root (pure C, no MPI calls;
 *        unit-tested without MPI).  The exchange that gathers the times:
 *        late_outside_exchange.h.
 *
 * In the pipelined chain reduce (collectives/reduce.h `chain`, seed 000
 * pipelined chain) position p receives from p + 1 and sends to p - 1, the
 * root at position 0; every rank between a late rank and the root waits
 * for it.  In rank order eight ranks late by 1 ms at P / 8 intervals keep
 * nearly every rank waiting in every call (SMPI flat 10 Gb/s cluster,
 * P = 64, 1 MiB, 40 calls: 0.112 s summed over ranks per call against
 * 0.063 balanced).  Placed at positions 1..k, latest at 1, only the root
 * and the late ranks wait: the ranks upstream of them stream at the
 * balanced pace.  Time outside is the program's own work between calls:
 * the same whichever algorithm ran, and it needs no common clock.
 */
#ifndef ARCOLL_ADAPT_LATE_OUTSIDE_H
#define ARCOLL_ADAPT_LATE_OUTSIDE_H

#ifdef __cplusplus
extern "C" {
#endif

/** A rank is late when its mean time outside exceeds the median over the
 *  ranks by more than this many median absolute deviations (and the floor
 *  of arcoll_outside_late_set).  Uniform noise of 0-200 us on every rank,
 *  4 calls: the latest of 256 means lies about 4.3 deviations above the
 *  median. */
#define ARCOLL_OUTSIDE_MAD_FACTOR 8.0

/**
 * The late ranks from every rank's mean time outside the reduce.
 * outside_s: P means in seconds (rank r's at [r]).  A rank r is late when
 * outside_s[r] - median > max(floor_s, ARCOLL_OUTSIDE_MAD_FACTOR x the median
 * absolute deviation).  late: room for P ints; receives the late ranks,
 * latest first (ties: lower rank first).  Returns k, their number, or 0 when
 * none is late or more than max(1, P / 8) are (late_chain.h
 * arcoll_late_chain_max_leaves: then lateness is the pattern, not a few
 * ranks, and moving them would take ranks away from their neighbours for
 * little); -1 for bad arguments (P < 2, NULL, floor_s < 0).
 */
int arcoll_outside_late_set(const double *outside_s, int P, double floor_s, int *late);

/**
 * The chain's order for a reduce from `root` (0 <= root < P) with the late
 * ranks late[0..k-1] (latest first, as arcoll_outside_late_set gives them)
 * next to the root: order[0] = root, order[1..] = the late ranks but the
 * root in the given order (the latest at position 1, the chain's last
 * sender), then the others in rank order from root + 1 (mod P).  order: P
 * ints.  Returns the number of late ranks placed, -1 for bad arguments (P <
 * 1, root out of range, a late rank out of range or repeated, NULL).
 */
int arcoll_outside_chain_order(const int *late, int k, int P, int root, int *order);

/** How much slower than the model's link occupancy the chain may stream
 *  and still be taken for bound by the links the model describes. */
#define ARCOLL_OUTSIDE_STREAM_SLACK 3.0

/**
 * 1 if the chain's stream is bound by links the model does not describe,
 * so that moving ranks off their rank neighbours may cross them more: its
 * measured period less the lateness, period_s - max(outside_s[0..P-1]),
 * exceeds ARCOLL_OUTSIDE_STREAM_SLACK x occupancy_s (the model's link
 * occupancy of one call's segments, collectives/select.h
 * arcoll_select_stream_occupancy; <= 0: unknown, 0 returned).  period_s:
 * the largest over the ranks of their shortest time from one chain call's
 * entry to the next, seconds.  In rank order the late ranks set every
 * rank's period to their time outside plus the chain's own stream time.
 * SMPI, eight ranks 1 ms late, 1 MiB, rank order, the model's occupancy
 * 0.773 ms: flat 10 Gb/s cluster P = 64 1.93 - 1.00 ms (1.2x: 0), P = 256
 * 2.02 - 1.10 (1.2x: 0); the two-level tree whose 16-host leaves share a
 * 1 Gb/s uplink, P = 64, 9.04 - 1.00 ms (10x: 1) - there the late ranks
 * next to the root made the chain cross every uplink twice, 40 calls 20.07
 * -> 29.70 s summed inside, loop 0.378 -> 0.674 s.
 */
int arcoll_outside_links_bound(double period_s, const double *outside_s, int P,
                               double occupancy_s);

#ifdef __cplusplus
}
#endif
#endif
