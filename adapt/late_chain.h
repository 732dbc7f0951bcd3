/**
 * @file late_chain.h
 * @brief The chain with late leaves of a streaming bcast, and its chain of
 *        runs: order and run length (pure C, no MPI calls; unit-tested
 *        without MPI).
 *
 * Behind a late rank, back-to-back 32 KiB bcasts stream through the
 * binary tree with the late ranks on leaves at 0.00335 s per call summed
 * over ranks, through the chain at 0.00188 (SMPI flat 10 Gb/s cluster,
 * P = 64; bench/results/adapt-2026-12-04/).  With ARCOLL_LATE_CHAIN=on
 * (adapt/late_order.c), once a lateness summary left the same late set as
 * the one before (late_tracker.h `steady`; the first such summary must have
 * seen the records of all but P/16 of the ranks not late), the ranks not
 * late form the chain in rank order from the root, and the late ones hang
 * as leaves off their rank neighbours (collectives/tree_extra.h
 * arcoll_tree_chain_runs: at the chain's end, a late rank received its
 * data across the uplinks of a two-level tree, 0.26 ms per 32 KiB call at
 * 1 Gb/s).  Opt-in: the summaries of a streaming bcast are mostly
 * blind (its root runs ahead; the records of the ranks behind it have not
 * arrived when it summarises, and the late set held from before looks
 * unchanged), so a late rank that moves into the chain holds every rank
 * behind it until a summary sees it - SMPI flat P = 64, a rank 1 ms late
 * moving every 10 calls: 1.755 -> 3.62 s summed inside over 200 calls; where
 * the late ranks stay put it saves 23 % (flat) and 46 % (two-level tree) at
 * P = 64 (bench/results/adapt-2026-12-04b/); not above
 * ARCOLL_LATE_CHAIN_MAX_RANKS.
 *
 * The chain of runs (ARCOLL_LATE_CHAIN=runs, the default): the same order
 * cut into runs at the boundaries of blocks of arcoll_late_chain_run(P - k)
 * rank numbers (a run: the ranks not late of one block; where ranks are
 * numbered by node and switch, no run crosses a switch), the runs' heads a
 * chain of their own (collectives/tree_extra.h arcoll_tree_chain_runs), run
 * where the tolerant tree trial chose binomial over the binary tree
 * (late_trees.h: a network where the binary tree's traffic across the
 * uplinks costs) and the late set held, in place of binomial.  A late rank
 * that moves into it holds the rest of its run (a head: the runs after it),
 * not the rest of the chain.  SMPI two-level tree (160:1 uplinks), P = 64,
 * 32 KiB, 200 calls, summed inside, against binomial: one late 3.40 s
 * against 5.92 (mpich selector 9.05), eight late 3.09 against 5.33; with
 * every rank computing W before each call (the late ranks 1 ms more), W =
 * 0.05 to 1 ms, one late 2.82-3.19 against 2.97-5.26 (0.5 ms: 2.99 against
 * 2.97: within 0.6 %, the one point it does not win), eight late 2.56-2.90
 * against 2.72-5.07 (0.5 ms: 2.73 against 2.72); the mpich selector 8.35-9.33
 * (bench/results/adapt-2026-12-04e/); a late rank moving every 10 calls: the
 * same (its late set never holds; without that condition 7.07 s against
 * 5.90); on the flat cluster the trials keep the binary tree and nothing
 * changes (bench/results/adapt-2026-12-04c/).  Runs of L positions instead
 * of blocks (runs after a late rank crossed switches): one late 4.71 s, and
 * with 0.5 ms of computation 4.76 against binomial's 2.98
 * (bench/results/adapt-2026-12-04d/).
 */
#ifndef ARCOLL_ADAPT_LATE_CHAIN_H
#define ARCOLL_ADAPT_LATE_CHAIN_H

#ifdef __cplusplus
extern "C" {
#endif

/** Largest communicator the chain (and the chain of runs: not measured above 64) runs on: at P = 256 (flat cluster, 32 KiB) it saved 3 % with one
 *  or eight ranks late and lost 6 % with seed 001's (3.38 -> 3.57 s summed inside): a chain of 255
 *  hops fills slowly; measured winning at 64. */
#define ARCOLL_LATE_CHAIN_MAX_RANKS 64

/** Summaries in a row with the same non-empty late set before the chain runs. */
#define ARCOLL_LATE_CHAIN_STEADY 1

/**
 * Most late ranks the chain takes as leaves: max(1, P / 8) (more: a chain
 * rank serving many leaves, or noise taken for lateness; the tolerant tree).
 */
int arcoll_late_chain_max_leaves(int P);

/**
 * Block of rank numbers per run of the chain of runs over n chain ranks
 * (collectives/tree_extra.h arcoll_tree_chain_runs): the power of two L
 * with the fewest hops ceil(n / L) + L - 1 (n = 63: 8, 14 hops; 1 for n <= 3:
 * one chain); a power of two, so that its blocks split no node or switch
 * of 2^j ranks numbered in a row.  -1 for n < 1.  The run length hardly
 * mattered where measured (two-level tree, P = 64, one late, runs of 4 / 8 /
 * 16 positions: 4.71 / 4.71 / 4.62 s summed inside).
 */
int arcoll_late_chain_run(int n);

/**
 * Order of the chain with late leaves for a call from `root` (0 <= root < P):
 * order[0] = root, then the ranks r with late[r] == 0 in rank order from
 * root + 1 (mod P), then the late ones (late[r] != 0, the root left out) in
 * the same rank order.  order: P ints, written only when the result is > 0.
 * Returns k, the late ranks at the end (the schedule's k of
 * collectives/bcast.h arcoll_bcast_chain), or 0 when no rank but the root is
 * late, more than arcoll_late_chain_max_leaves(P) are, or P >
 * ARCOLL_LATE_CHAIN_MAX_RANKS (no chain: the caller keeps its tree), -1 for
 * bad arguments (P < 2, root out of range, NULL).
 */
int arcoll_late_chain_order(const unsigned char *late, int P, int root, int *order);

#ifdef __cplusplus
}
#endif
#endif
