/**
 * @file online_limits.h
 * @brief The online selection's limits and thresholds (collectives/ONLINE.md
 *        explains the protocol they bound): candidates, trials, refinement
 *        rounds, segment bounds, tolerances of the decisions, the exploration
 *        budget, the skew checks and the readmission (online_readmit.h).
 *        Each with its unit and the measurement that set it.  No MPI.
 */
#ifndef ARCOLL_COLLECTIVES_ONLINE_LIMITS_H
#define ARCOLL_COLLECTIVES_ONLINE_LIMITS_H

/** Limits of ncand and trials. */
#define ARCOLL_ONLINE_MAX_CANDIDATES 8
#define ARCOLL_ONLINE_MAX_TRIALS 8
/** Default number of candidates (ARCOLL_ONLINE_CANDIDATES unset): libarcoll
 *  and the SMPI benchmark's auto column. */
#define ARCOLL_ONLINE_DEFAULT_CANDIDATES 5
/** Limit and default of the segment-refinement rounds (0 = none). */
#define ARCOLL_ONLINE_MAX_REFINE 8
#define ARCOLL_ONLINE_DEFAULT_REFINE 3
/** Bounds of a refined segment size (bytes): at least 256 bytes, at most
 *  65536 segments (a measured call of 64 MiB in 512-byte segments would
 *  itself cost more than it could save). */
#define ARCOLL_ONLINE_MIN_SEGMENT 256
/** Below this many bytes a far-first variant (ARCOLL_ALGO_FAR_FIRST:
 *  rabenseifner_far, rsag_far, reduce_scatter(_block)'s recursive_halving)
 *  is not measured (from it on, only after its near-first twin won round 0:
 *  online_twins.h): its near-first twin has the same prediction and was
 *  never slower there (SMPI, one forced call: flat P = 64 / 256, 8 B - 4 KiB,
 *  equal to 3 digits; tree P = 256, 512 B allreduce 1.36 ms far-first against
 *  0.136 ms near-first, 4 KiB reduce 1.32 vs 0.226 ms, tree P = 64, 4 KiB
 *  reduce_scatter_block 0.891 vs 0.094 ms; 8 B, tree P = 256 reduce, far
 *  0.119 vs 0.137 ms, where neither is the best), and measuring both cost the
 *  balanced run (tree P = 64, 8 B allreduce, 200 calls, time inside summed
 *  over ranks: 1.023x recursive doubling forced with both, 1.012x without
 *  the far one). */
#define ARCOLL_ONLINE_FAR_FIRST_MIN_BYTES 8192
/** Halving steps an explorer keeps of its near twin's runs (online_steps.h);
 *  the halving's log2 P2 (at most 30 for an int P, reduce_scatter_halving.h) at least. */
#define ARCOLL_ONLINE_MAX_STEPS 32
/** A far-first variant is not measured where its near twin's halving steps
 *  bound its time below at this factor x the twin's or more (online_steps.h). */
#define ARCOLL_ONLINE_FAR_LOSES 1.5
/** Round-0 candidates predicted slower than this factor x the best are dropped. */
#define ARCOLL_ONLINE_MAX_SLOWDOWN 2.0
/** Configurations whose max over ranks is within this fraction of the
 *  smallest are compared by their sum over ranks (decide_times); the
 *  fraction of the smallest less the time every rank spent outside the
 *  collective (arcoll_explorer_decide_periods `outside_s`). */
#define ARCOLL_ONLINE_MAX_TOLERANCE 0.05
/** ... and among those, a configuration replaces the earlier measured (better
 *  predicted) or kept one only when its sum over ranks is more than this
 *  fraction smaller: closer sums are ties, within the do-no-harm tolerance
 *  (issue: <= 1.02x), and under noise the order of two such sums is chance
 *  (SMPI flat P = 64, 8 B allreduce, 0-200 us noise per rank and call:
 *  reduce_bcast's sum 1.6 % below recursive doubling's decided round 0,
 *  then 200 calls took 1.032x recursive doubling forced). */
#define ARCOLL_ONLINE_SUM_TOLERANCE 0.02
/** Exploration budget in calls of the best configuration (5 % of 200 calls). */
#define ARCOLL_ONLINE_BUDGET_CALLS 10.0
/** Imbalance check: binomial's measured max over ranks above this many
 *  times its predicted time ends the exploration with binomial. */
#define ARCOLL_ONLINE_IMBALANCE 8.0
/** The check runs for reduce below this many bytes only (measured, SMPI flat
 *  P = 64, 200 calls, vs the better SMPI selector, summed inside / loop: 8 B
 *  one late 1.86 -> 1.27, late root 12.2 -> 4.5, seed 001 2.77 -> 1.58; at
 *  32 KiB it kept binomial under 0-200 us noise, loop 0.995 -> 1.177, and
 *  for bcast it kept binomial where linear trees had 0.59x its sum with one
 *  8 B late rank). */
#define ARCOLL_ONLINE_SKEW_MAX_BYTES 8192
/** A reduce from this many bytes whose chain is measured as it streams:
 *  binomial is not exempt from the 2x rule (online.c; SMPI, one rank 1 ms
 *  late or none: binomial won at 32 KiB where a rank was late, and lost to
 *  the chain at 256 KiB, flat P = 64, and at 1 MiB, flat P = 64 and 256,
 *  two-level tree P = 64; bench/notes/adaptive-layer-2026-12-06.md,
 *  session 58). */
#define ARCOLL_ONLINE_REDUCE_TREE_MAX_BYTES 262144
/** Calls between round 0 of a reduce whose chain streams (explorer
 *  `stream_lag`) and its decision, the chain running meanwhile.  Why: the
 *  blocking decision in the round's last call made every rank wait for
 *  the root, whom the ranks up the chain run ahead of by their distance
 *  from it (SMPI flat P = 256, 1 MiB, 8 KiB segments: the tail 11 ms ahead,
 *  ~35 us a position), and the next call refilled the chain (1.44 + 1.41 s
 *  summed over ranks against 0.24 a call).  With this lag the root's records
 *  leave it a call after the round and the deadline comes after the
 *  records of the positions ahead of it are in (the tail reaches it at
 *  once and waits there, but the rank behind it needs its data only
 *  ~P x 35 us / 0.94 ms = 10 calls later). */
#define ARCOLL_ONLINE_REDUCE_STREAM_LAG 16
#define ARCOLL_ONLINE_MAX_SEGMENTS 65536
/** Round 0's best measured above this many times its predicted time: the
 *  model is off, the candidates dropped for their prediction are measured
 *  too (ONLINE.md, "Unless the model is far off").  On the flat SMPI cluster the
 *  model is within 0.95-1.05 of the chosen algorithms (collectives/README.md). */
#define ARCOLL_ONLINE_MODEL_OFF 4.0
/** ... those predicted at most this many times the best (bounds their cost). */
#define ARCOLL_ONLINE_MAX_READMIT 16.0
/** ... unless arrival skew set round 0's times: the best's period, max over
 *  ranks, above this many times both its min over ranks and its mean time
 *  inside (some rank takes far longer per call than the others and than a
 *  call: late) when the caller knows the min (arcoll_explorer_decide_periods();
 *  why both: in back-to-back bcasts a leaf whose data arrived during its
 *  previous call leaves at once, a min period of 41 ns with no rank late,
 *  SMPI tree P = 256, 8 B; computation between calls lengthens every
 *  rank's period, min and max alike).  Then the time inside is the wait for
 *  the late rank, not the network the model misjudged, and a readmitted
 *  candidate that makes the others depend on the late rank costs each of
 *  them the late rank's whole backlog (SMPI tree P = 256, 8 B bcast, one
 *  rank 1 ms late per call, 200 calls: round 0's linear took 51 us per rank
 *  inside against 10.3 predicted, period 1.01 ms for all three candidates;
 *  twotree and nebst readmitted took 0.161 and 0.35 s summed over ranks per
 *  call, and the run 6.30 s summed inside against 5.17 for SMPI's ompi
 *  selector). */
#define ARCOLL_ONLINE_SKEW_PERIODS 2.0

#endif
