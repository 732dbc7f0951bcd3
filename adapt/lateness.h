/**
 * @file lateness.h
 * @brief Lateness tracking of rooted collectives: what is measured, how the
 *        measurements are summarised, and when they are exchanged (pure C,
 *        no MPI calls; the transport is late_tracker.c).  What the
 *        calls look like, read from a summary: late_pattern.h.
 *
 * Seed 001_6a837e3d9ad6c429.txt, technique 1 and its open problem 1 ("cut
 * the cost of gathering load information, apply it selectively").
 *
 * What is measured: the lateness a rank CAUSED, not its arrival relative
 * to the root.  In back-to-back broadcasts with eager messages the root runs
 * many calls ahead (its sends return at once, the data queues at its link)
 * and every other rank enters long after the root; that is queueing, not
 * lateness.  A rank p (not the root) delays its subtree only when the data
 * was already there when it entered: then it hardly waits inside the call.
 * So, for data flowing away from the root (bcast, scatter):
 *
 *   caused(p) = 0                                if wait(p) > 1.5 t_level
 *   caused(p) = max(0, entry(p) - ref - t_level) otherwise, with
 *   ref = exit(parent(p)) when it is before entry(p) (the parent had sent: eager
 *         messages), else entry(parent(p)) (the parent was still sending to p:
 *         rendezvous); raised to (the earliest exit of p's siblings that
 *         waited) - t_level: when the data reached p's family (a root that
 *         ran ahead left long before its data did)
 *
 * Either way a rank cannot have caused more than it spent outside the
 * collective beyond the others: caused(p) <= gap(p) - median gap, gap = its
 * entry - its exit of the previous call (a rank that comes straight from
 * the previous call, late only because the data queued, caused nothing).
 * Algorithms whose trees the positions do not describe (several trees,
 * rings) are not measured: a late rank is inner in one of their trees, its
 * "siblings" wait for it, and no reference is left (measured under SMPI,
 * twotree, P = 64, rank 32 late by 3 ms: nobody found late).
 * wait(p) = exit(p) - entry(p); positions of the order the call used;
 * parent(p) = p with its lowest set bit cleared (binomial-like trees) or
 * p - 1 (chains); t_level the model's time of one tree level (seconds).
 * Times are in one clock (clock.h).  For data flowing toward the root
 * (reduce, gather) a late rank's parent waits for it, and in back-to-back
 * calls parents enter after their children; bottom-up: p is needed when its
 * children's data is there and its parent has arrived; it caused
 * max(0, entry(p) - max(latest child ready + t_level, entry(parent(p))) -
 * ... ) (lateness.c caused_up).

 * Summary (computed by one rank, the coordinator, applied by all): per
 * (global call site, root) group of the sampled calls, the persistent
 * caused lateness (arcoll_late_persistent: what a rank caused in 3 of 4 of
 * the calls) of the at most ARCOLL_LATE_LIST latest ranks, and a noise
 * level: the (ARCOLL_LATE_LIST + 1)-th largest, so lateness spread over
 * many ranks (random noise) is not taken for a few late ranks.
 *
 * Exchange schedule (arcoll_late_next_interval): the calls between two
 * exchanges double, up to ARCOLL_LATE_MAX_INTERVAL, while the applied late
 * sets do not change; a change brings it back to the minimum.  So a stable
 * run (balanced, or the same late ranks) samples rarely.
 */
#ifndef ARCOLL_ADAPT_LATENESS_H
#define ARCOLL_ADAPT_LATENESS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Calls of one exchange that are sampled (the last ones before it). */
#define ARCOLL_LATE_SAMPLES 8
/** Ranks listed per group in a summary (latest first). */
#define ARCOLL_LATE_LIST 32
/** Calls after an exchange starts at which the coordinator summarises (G:
 *  UP collectives, where the root - the coordinator - is the last rank to
 *  finish a call and every record has been sent by then; DOWN: bcast,
 *  scatter, where the root runs ahead and takes what has arrived) and at
 *  which everybody applies the summary (A: ARCOLL_LATE_APPLY_CALLS_UP /
 *  _DOWN below). */
#define ARCOLL_LATE_GATHER_CALLS_UP 2
#define ARCOLL_LATE_GATHER_CALLS_DOWN 8
/** UP: applied the call after the summary, and an UP tracker makes only
 *  this one exchange (arcoll_late_exchanges_max).  The non-roots of
 *  back-to-back reduces run ahead of the root (it is the last to finish a
 *  call) by a lead that grows with every call, and all of them wait for the
 *  summary at the call that applies it: the later that call, the longer
 *  they wait (SMPI flat P = 256, 32 KiB reduce, 200 calls, one rank 1 ms
 *  late, summed inside: applied 16 calls after the start 57.3 s - the
 *  online selection had kept rsag by then, the order came too late - 3
 *  calls after 4.11 s (with the late rank then on the root's leaf child;
 *  4.44 s on its own subtree's shallowest leaf, order.c); later exchanges
 *  every 16-64 calls, 3 calls each, 46.3 s: each one cost the lead of
 *  16-64 calls, 1.1-7.8 s). */
#define ARCOLL_LATE_APPLY_CALLS_UP (ARCOLL_LATE_GATHER_CALLS_UP + 1)
/** DOWN: applied the call after the summary (a non-root finishes call
 *  x + G only after the root, which sent it at its exit of x + G - 1, started
 *  x + G: the summary is on its way). */
#define ARCOLL_LATE_APPLY_CALLS_DOWN (ARCOLL_LATE_GATHER_CALLS_DOWN + 1)
/** DOWN, a root that moves: the rule above holds only where the call at
 *  x + A has the coordinator as its root.  Where it has another, the
 *  summary applies at the exit of the first call from there whose root is
 *  the coordinator, at the latest this many calls later, P the
 *  communicator's size (the roots are collective arguments: every rank
 *  applies it at the same call); the next exchange moves as many calls.
 *  Why: in back-to-back calls whose root moves, every rank is the root of
 *  some calls and runs ahead in them, and the coordinator, behind in the
 *  call that sends the summary, held every rank at the one after.  Behind
 *  by how much: with root c mod P in call c and a chain in position order,
 *  call c reaches its tail - the root of call c - 1 - about when the root
 *  of call c + P - 1 starts, so the ranks spread over up to P calls.  SMPI
 *  flat cluster, 32 KiB bcast, root c mod P, the chain, 200 calls, summed
 *  inside (with a streaming bcast's decision applied the same way,
 *  decision.h ARCOLL_ROOTED_MOVED_CALLS): P = 64, applied at once 1.33 s
 *  (0.11 s at each exchange against 0.0038 a call), 8 / 16 / 24 / 32 calls
 *  later 1.24 / 1.15 / 1.05 / 1.03 s; P = 256, 32 / 64 / 128 / 256 calls
 *  later 7.47 / 5.55 / 4.62 / 4.62 s (the chain forced 4.00). */
#define ARCOLL_LATE_APPLY_MOVED_CALLS(P) (P)
/** ... where the last applied summary left some rank late: at the latest
 *  this many calls later (or P, if fewer).  A late rank holds the calls it
 *  is the root of and its stream does not spread as far, while what the
 *  summary carries - the late set, the tolerant tree's trial - is worth
 *  more applied sooner (SMPI flat P = 64, 32 KiB bcast, root c mod P, one
 *  rank 1 ms late, 200 calls summed inside: applied at once 12.20 s, up to
 *  32 calls later 11.64, up to P calls later 12.86 - the trial that found
 *  binomial 3x faster than the binary tree applied at call 81, not 26). */
#define ARCOLL_LATE_APPLY_MOVED_LATE_CALLS 32
/** DOWN, the first exchange (its coordinator waits for every record anyway,
 *  late_tracker.h): summarised at the exit of the call that follows its
 *  start and applied one call later, not G / G + 1 calls after its start:
 *  until then the tolerant tree runs in the rank order, and its inner
 *  ranks may be the late ones (SMPI flat P = 64, 32 KiB bcast, 200 calls,
 *  rank 32 - the binary tree's top - 3 ms late: 0.19 s summed inside per
 *  call before the first summary, 0.0034 after it). */
#define ARCOLL_LATE_FIRST_GATHER_CALLS 1
/** The first exchange starts after call ARCOLL_LATE_FIRST_EXCHANGE - 1 and
 *  samples calls 0 and 1: the coordinator waits for every record of the
 *  first exchange (late_tracker.h), and a rank late by d before every call
 *  sends its record of call j after about (j + 1) d while the root, not held
 *  by it, runs ahead - the later the sampled calls, the longer the root's
 *  wait and the stream's stall (SMPI flat P = 64, 32 KiB bcast, one rank
 *  1 ms late, samples 1..8: the root waited 9.3 ms, 0.51 s summed inside at
 *  that call).  200 calls, summed inside, first exchange after call 8 / 2 /
 *  1 / 0 (samples 1..8 / 0..2 / 0..1 / 0): one late 1.44 / 1.07 / 1.01 / 2.39 s,
 *  eight late 2.41 / 2.12 / 2.07 / 5.19, noise 0.83 / 1.21 / 0.81 / 0.81,
 *  moving 1.79 / 1.74 / 1.68 / 2.34, balanced 0.665 / 0.655 / 0.653 / 0.651
 *  (call 0 alone: its entries are those of the clock synchronisation;
 *  measured with the binary tree as the tolerant tree, select.h). */
#define ARCOLL_LATE_FIRST_EXCHANGE 2
/** Interval bounds (calls between exchange starts). */
#define ARCOLL_LATE_MIN_INTERVAL 16
#define ARCOLL_LATE_MAX_INTERVAL 64

/** Record flags. */
#define ARCOLL_LATE_VALID 1 /**< a call of this rank (unset: slot not filled) */
#define ARCOLL_LATE_CHAIN 2 /**< the algorithm is a chain: parent(p) = p - 1 */
#define ARCOLL_LATE_UP 4    /**< data flows toward the root (reduce, gather) */
#define ARCOLL_LATE_BINARY 16 /**< the binary tree of collectives/tree_extra.h arcoll_tree_binary (a bcast tree) */
#define ARCOLL_LATE_OTHER 8 /**< trees the positions do not describe (multi-tree, ring):
                                 with VALID, measured from entries alone (lateness.c,
                                 caused_other); without VALID, not measured */

#define ARCOLL_LATE_TRIAL 32 /**< the call ran a tolerant tree on trial (late_trees.h) */

/** One rank's record of one call (48 bytes; sent to the coordinator packed, late_wire.h). */
typedef struct arcoll_late_record {
  double entry;   /**< entry into the collective, seconds, in the common clock */
  double exit;    /**< exit from it (after the data moved), same clock */
  double gap;     /**< entry - exit of this rank's previous call of the kind (0 for the first) */
  uint64_t site;  /**< this rank's call-site key (site.h); the root's is the group's */
  int32_t pos;    /**< this rank's position in the order of that call (0 = root) */
  int32_t root;   /**< the call's root (communicator rank) */
  float t_level;  /**< model time of one tree level of that call, seconds */
  int32_t flags;  /**< ARCOLL_LATE_* */
} arcoll_late_record_t;

/** One rank's records of one exchange's sampled calls (400 bytes; packed <= 281, late_wire.h). */
typedef struct arcoll_late_msg {
  int32_t n, pad;          /**< records used */
  uint64_t first_call;     /**< call index of rec[0] */
  arcoll_late_record_t rec[ARCOLL_LATE_SAMPLES];
} arcoll_late_msg_t;

/** A rank and its caused lateness (seconds) in one group (arcoll_late_persistent). */
typedef struct arcoll_late_entry {
  int32_t rank;
  float lateness;
} arcoll_late_entry_t;

/** One (site, root) group of a summary. */
typedef struct arcoll_late_group {
  uint64_t site;   /**< the root's call-site key */
  int32_t root;
  int32_t n;       /**< listed ranks, latest first (0..ARCOLL_LATE_LIST) */
  float t_level;   /**< the root's t_level (seconds) */
  float noise;     /**< (ARCOLL_LATE_LIST+1)-th largest caused lateness (0 if fewer), or
                        the arrival noise if larger: over the group's calls (but a
                        rank's call 0), the mean of the median minus the lower quartile
                        of the other ranks' times outside (gap; 4 records or more),
                        seconds.  Ranks that each spend a different, changing time
                        outside cause lateness by turns - the ranks at the top of the
                        tree, whose lateness shows most, in 6 of 8 calls by 100 -
                        300 us under 0 - 1 ms of noise (t_level 67 us) - and are late
                        only beyond twice that (arcoll_late_threshold), half the
                        amplitude of uniform noise.  Late ranks, fewer than half, or
                        the same computation on every rank leave it at 0. */
  float gap;       /**< the longest time a rank other than the root spent outside
                        between two of the group's calls (seconds; a record's gap;
                        call 0 has none) */
  float root_gap;  /**< the same for the root alone (seconds) */
  float lead;      /**< the root's largest lead: over the group's pairs of consecutive
                        sampled calls j - 1, j, the latest exit of call j - 1 among the
                        other ranks minus the root's entry into call j (seconds; > 0: the
                        root entered a call while its previous one was still moving
                        data); NaN when no such pair was sampled */
  float spread;    /**< over the same pairs, the largest ratio of the spread of the
                        ranks' entries into call j (latest - earliest) to the spread
                        of their exits from call j - 1 (+inf when those were equal);
                        NaN when no pair was sampled */
  arcoll_late_entry_t late[ARCOLL_LATE_LIST];
} arcoll_late_group_t;

/** What the coordinator sends to every rank after one exchange. */
typedef struct arcoll_late_summary {
  uint64_t first_call;         /**< call index of sampled call 0 */
  int32_t nsampled;            /**< sampled calls (0..ARCOLL_LATE_SAMPLES) */
  int32_t ngroups;             /**< 0..ARCOLL_LATE_SAMPLES */
  int32_t trees;               /**< tolerant tree decided by a trial (late_trees.h), 0: none */
  int32_t unreported;          /**< ranks not late before this summary whose records had not
                                    reached the coordinator (a bcast's root that ran ahead of a
                                    late rank inside its tree): the summary did not see them */
  uint64_t seq_site[ARCOLL_LATE_SAMPLES]; /**< (site, root) of sampled call j; root -1: unknown */
  int32_t seq_root[ARCOLL_LATE_SAMPLES];
  arcoll_late_group_t group[ARCOLL_LATE_SAMPLES];
} arcoll_late_summary_t;

/** Largest packed summary, bytes. */
#define ARCOLL_LATE_PACKED_MAX ((int)sizeof(arcoll_late_summary_t))

/** Pack s into buf (ARCOLL_LATE_PACKED_MAX bytes): the header, the sequence
 *  and each group with only its n listed ranks.  Returns the bytes used. */
int arcoll_late_pack(const arcoll_late_summary_t *s, unsigned char *buf);

/** Unpack `bytes` bytes of buf into *s.  Returns 0, or -1 when the bytes are
 *  not a summary (sizes or counts out of range). */
int arcoll_late_unpack(const unsigned char *buf, int bytes, arcoll_late_summary_t *s);

/**
 * What a rank whose records are missing is charged (arcoll_late_caused):
 * 0 for missing_s < 0 (not charged), else missing_s seconds and at least
 * 2 ceil(log2 P) t_level (two whole calls of the tree; t_level in seconds,
 * taken as 0 when not > 0 or not finite).  Also the least the first
 * exchange of a bcast waits for missing records (late_first.h).
 */
double arcoll_late_missing_charge(int P, double t_level, double missing_s);

/**
 * Caused lateness of every rank in ONE call.  rec[r] is rank r's record of
 * the call (flags & ARCOLL_LATE_VALID) or invalid when its record is missing
 * (it had not sent it when the coordinator summarised: it was late by at
 * least `missing_s` seconds and at least 2 ceil(log2 P) t_level, which is then
 * its caused lateness; missing_s < 0: a missing record is not charged).  Positions
 * of missing ranks are the positions no valid record claims.  `root` is the
 * call's root; P ranks; scratch: 3 P ints + 2 P doubles (caller's).
 * Output caused[r] >= 0, seconds.  Returns 0, or -1 if the records are
 * inconsistent (a position claimed twice, out of range, or no root record
 * and no free position 0), leaving caused[] all 0.
 */
int arcoll_late_caused(int P, int root, const arcoll_late_record_t *rec, double missing_s,
                       int *scratch, double *a_scratch, double *caused);

/**

/** A rank's lateness in a summary group is the lateness it caused in all
 *  but one in ARCOLL_LATE_PERSISTENT_OUT_OF of the group's sampled calls
 *  (arcoll_late_persistent): lateness that comes back call after call, not
 *  its mean (see arcoll_late_persistent). */
#define ARCOLL_LATE_PERSISTENT_OUT_OF 4

/**
 * The persistent part of one rank's caused lateness over n calls of a group
 * (v: [n] seconds, sorted ascending in place): v[n / ARCOLL_LATE_PERSISTENT_OUT_OF]
 * after sorting, the lateness it caused in at least n - n / 4 of the calls
 * (2 calls: the smaller; 8: the third smallest); 0 for n <= 0.  Why not the
 * mean: under arrival noise every rank is late by a tree level in some
 * calls, and the mean listed a new set each summary, all kept late by the
 * EWMA's hysteresis (order.h) - 18 -> 56 of 64 ranks "late", reordered every
 * 16 calls (SMPI, P = 64, 32 KiB bcast, every rank 0-2 ms before each call).
 */
double arcoll_late_persistent(double *v, int n);

/**
 * Build a summary from the records of `nsampled` calls of every rank:
 * rec[r * nsampled + j] = rank r's record of sampled call j (oldest first,
 * call index first_call + j).
 * Calls are grouped by (root's site, root); per group a rank's lateness is
 * the persistent part of what it caused over the group's calls
 * (arcoll_late_persistent), over all the calls of the group's site when the
 * site has calls of another root among the sampled ones (a root that
 * moves: one call per group would take arrival noise for lateness; the
 * site's groups then list the same ranks, and their noise levels are
 * pooled likewise); the ARCOLL_LATE_LIST largest (> 0) are
 * listed, latest first (ties: smaller rank), and `noise` is the next one.
 * missing_s: see arcoll_late_caused.  Scratch is allocated here.
 * Returns 0, or -1 (out of memory; *out then has no groups).
 */
int arcoll_late_summarise(int P, uint64_t first_call, int nsampled,
                          const arcoll_late_record_t *rec, double missing_s,
                          arcoll_late_summary_t *out);

/**
 * Put rank e.rank with e.lateness (seconds) into group g's list, kept
 * latest first: an entry of that rank already listed is raised to it (never
 * lowered); a new one is inserted, dropping the smallest when the list is
 * full (ARCOLL_LATE_LIST), or not inserted when it is smaller than all of a
 * full list.  Returns 1 if the list changed, else 0.
 */
int arcoll_late_group_put(arcoll_late_group_t *g, arcoll_late_entry_t e);

/**
 * The lateness threshold of a group (seconds): a rank is late when its EWMA
 * caused lateness exceeds max(t_level, 2 x noise); one that was late stays
 * late while above half of that (hysteresis).
 */
double arcoll_late_threshold(double t_level, double noise);

/**
 * Calls until the next exchange start, given the current interval and whether
 * the summary just applied changed any late set: a change -> `min_interval`;
 * none -> twice the current, at most ARCOLL_LATE_MAX_INTERVAL.  The result is
 * never below ARCOLL_LATE_MIN_INTERVAL.
 */
int arcoll_late_next_interval(int interval, int changed, int min_interval);

/**
 * Exchange schedule of a tracker whose data flows toward the root (up = 1:
 * reduce, gather) or away from it (up = 0: bcast, scatter): the
 * coordinator is the root of the call at whose exit the exchange starts
 * (every rank knows it: the root argument agrees); it summarises at the
 * exit of call x + G - 1, G = the return value, everybody applies the
 * summary at the exit of call x + *apply - 1 (up: ARCOLL_LATE_APPLY_CALLS_UP,
 * down: ARCOLL_LATE_APPLY_CALLS_DOWN), and it charges ranks whose
 * records have not arrived then with *missing_charged (see
 * arcoll_late_caused): up: all records were sent before the root could
 * finish its call x, so a missing one means lateness (charge >= 0: 1.0 as a
 * flag, the caller passes its measured time); down: the root runs ahead
 * of everyone in back-to-back calls, a missing record means nothing (-1:
 * not charged; it is used when it arrives, at the next exchange).
 * Why the root: it is never made to wait (down: it only tests what arrived;
 * up: it is the last to finish anyway), and the others wait for its summary
 * A calls later only if they are A - G calls ahead of it, which a down
 * collective's non-roots cannot be (they finish call y only after the root
 * started it) and an up collective's usually are (hence one exchange only:
 * arcoll_late_exchanges_max).  The previous rule (the highest rank that is not late and
 * not a root) held a root that ran ahead at every exchange: SMPI P = 64,
 * 32 KiB back-to-back bcast, 3.74 s inside the bcast summed over ranks
 * with late-rank orders on vs 2.18 s off (adapt/LATENESS_TRACKING.md).
 */
int arcoll_late_gather_calls(int up, int *apply, double *missing_charged);

/**
 * Exchanges a tracker makes over its life: 1 for up (reduce, gather: the
 * first, started after call ARCOLL_LATE_FIRST_EXCHANGE - 1; its summary's
 * late set and order then stay), 0 = no limit for down (bcast, scatter:
 * every interval, arcoll_late_next_interval).  Why: the non-roots of
 * back-to-back up collectives run ahead of the root, and every rank waits
 * for the coordinator's summary at the call that applies it, so each later
 * exchange costs every non-root its lead, which grows with the calls (SMPI
 * flat P = 256, 32 KiB reduce, one rank 1 ms late: 1.1, 4.5, 7.8 s summed
 * inside at the exchanges of calls 17, 33, 65, against 0.011 s per call in
 * the steady state; see ARCOLL_LATE_APPLY_CALLS_UP).  A late set that
 * changes later is not followed (a late rank moving every 10 calls: 4.131 s
 * against 4.126 without tracking, the online selection's binomial both).
 */
int arcoll_late_exchanges_max(int up);

#ifdef __cplusplus
}
#endif
#endif
