/**
 * @file tree_extra.h
 * @brief More broadcast trees over a rank order (group bcast_etc), in the
 *        arcoll_tree_t form of tree.h (free with arcoll_tree_free()).
 *
 * All builders take `order[0..P-1]` (position -> communicator rank, a
 * permutation, order[0] = root) and the caller's rank `me`, and return
 * MPI_SUCCESS, MPI_ERR_ARG (P < 1, `order` not a permutation, me absent) or
 * MPI_ERR_NO_MEM.
 */
#ifndef ARCOLL_COLLECTIVES_TREE_EXTRA_H
#define ARCOLL_COLLECTIVES_TREE_EXTRA_H

#include "tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * 2-path pipeline (seed 000_32450fa7292fe18a.txt): the non-root positions are
 * split into two chains, 1 -> 2 -> ... -> h and h+1 -> ... -> P-1 with
 * h = ceil((P-1)/2); the root has the two chain heads as children and so
 * feeds them alternately, segment by segment.
 */
int arcoll_tree_2path(const int *order, int P, int me, arcoll_tree_t *tree);

/**
 * Binomial tree over a rotated order: position 0 stays the root and the
 * non-root positions are rotated by `shift` (position q >= 1 of the tree is
 * order[1 + (q - 1 + shift) % (P - 1)]).  Different shifts put different
 * ranks on the inner nodes; used by the nEBST broadcast.
 */
int arcoll_tree_binomial_rotated(const int *order, int P, int shift, int me,
                                 arcoll_tree_t *tree);

/**
 * One of the two complementary binary trees of the two-tree broadcast
 * (Sanders, Speck, Träff 2009, "Two-tree algorithms for full bandwidth
 * broadcast, reduction and scan", Parallel Computing 35(12)): the n = P-1
 * non-root positions are tree nodes 1..n (node t = position t in T1) hung
 * in an in-order binary tree whose range roots are the numbers with the most
 * trailing zeros, so the leaves are exactly the odd nodes; the root position
 * 0 is the parent of that tree's root.  which = 0: tree T1; which = 1: T2,
 * node t at position t % n + 1 (shift, n odd) or n + 1 - t (mirror, n even)
 * as in the paper, so an inner node of one tree is a leaf of the other
 * (up to one or two ranks at the ends of the numbering).
 * Each node has at most 2 children (the root: 1).
 */
int arcoll_tree_twotree(const int *order, int P, int which, int me, arcoll_tree_t *tree);

/**
 * Binary tree whose subtrees are contiguous ranges of positions (the
 * pipelined binary tree of bcast.h `binary`).  Built on the in-order tree
 * over positions 1..m (m = P-1 when P-1 is odd, else P-2) of
 * arcoll_tree_twotree's T1 (range roots: the numbers with the most trailing
 * zeros, so the odd positions are exactly its leaves and position q's
 * subtree is [q - u + 1, q + u - 1], u = q's lowest set bit), without its
 * top h (the largest power of two <= m): the root (position 0) has two
 * children, the tops of [h+1, m] (sent first: the larger side) and
 * [1, h-1]; position h stands where leaf h+1 stood, with h+1 as its only
 * child and, when P-1 is even, position P-1 as its second (P <= 3: the root
 * is the parent of all).  So the leaves are the leaves of the binomial tree
 * over the same positions (odd positions and P-1), where the late-rank
 * orders put late ranks (adapt/order.h); below the root no position has
 * more than max(h - 2, P - 1 - h) descendants (P/2 - 1 when P is a power
 * of two; the in-order tree's top had P - 2 below it: a late rank nobody
 * knows yet, e.g. before the first lateness summary, delayed all of them:
 * SMPI flat P = 64, 32 KiB bcast, rank 32 late by 3 ms, 200 calls, 1.288 ->
 * 1.094 s summed inside, bench/notes/adaptive-layer-2026-11-30.md "The binary tree's root has two
 * children");
 * the depth is at most floor(log2 (P-1)) + 1 hops, that of the in-order
 * tree under the root; and with ranks numbered by node and switch a subtree
 * stays on its switch (when P-1 is even, once position P-1 is left out: it
 * hangs under h): the heap
 * order (children 2p+1, 2p+2: MPICH's, Open MPI's, SMPI's NTSB) sends every
 * level across the uplinks at once (SMPI two-level tree, 160:1 uplinks,
 * P = 64, 32 KiB bcast, 200 calls: 72.5 s summed inside, against 5.9 for
 * binomial).  Every rank has at most 2 children.
 */
int arcoll_tree_binary(const int *order, int P, int me, arcoll_tree_t *tree);

/**
 * Parent position of position pos (1 <= pos < P) in the tree of the given
 * shape over P positions (0 = the root): linear 0, binomial pos & (pos - 1),
 * knomial with radix k (< 2: ARCOLL_KNOMIAL_RADIX, coll.h) the lowest
 * non-zero base-k digit cleared, binary arcoll_binary_parent_pos, chain
 * pos - 1 - the parents the builders arcoll_tree_flat, arcoll_tree_binomial,
 * arcoll_tree_knomial, arcoll_tree_binary and arcoll_tree_chain give.
 * -1 when pos is out of range or shape is ARCOLL_TREE_NONE.  O(log P).
 */
int arcoll_tree_parent_pos(arcoll_tree_shape_t shape, int pos, int P, int k);

/** Parent position of position pos >= 1 in the k-nomial tree of radix >= 2
 *  (arcoll_tree_knomial's; the k-nomial reduce's, collectives/reduce_util.h
 *  arcoll_red_knomial_links): pos with its lowest non-zero base-radix digit
 *  cleared.  O(log pos), no allocation; pos < 1 or radix < 2: -1. */
int arcoll_knomial_parent_pos(int pos, int radix);

/** Parent position of position pos in arcoll_tree_binary's tree over P
 *  positions (0 for the root's children); -1 when pos <= 0 or pos >= P.
 *  O(log P), no allocation (the lateness measure, adapt/lateness.c). */
int arcoll_binary_parent_pos(int pos, int P);

/**
 * Chain of runs with late leaves.  order: P distinct ranks (position 0 the
 * root); k (0 <= k; k >= P: P - 1) late ranks at the last k positions; run:
 * the size of the blocks of rank numbers that bound the runs.  Positions
 * 0 .. n-1 (n = P - k) form the chain, cut into runs: positions in a row
 * whose ranks r share one block r / run (run <= 1 or run >= P: one block,
 * one chain, position i sends to i + 1, as arcoll_tree_chain); the first
 * position of each run (its head) receives from the previous run's head and
 * sends to the next run's head first, then to the second position of its own
 * run; inside a run position p sends to p + 1.  Blocks, not `run` positions:
 * a late rank left out of the order would shift every later run across the
 * block boundaries, which are node and switch boundaries where ranks are
 * numbered by node (SMPI two-level tree, 16 ranks per switch, P = 64, rank 24
 * late, runs of 8: runs of positions held ranks 25-32 and 41-48, each link up
 * from a switch then carried that run's stream beside the heads' one, 0.47 ms
 * per 32 KiB call against 0.29 in blocks; 200 calls with 0.5 ms of
 * computation before each, summed inside, 4.75 -> 2.99 s).  Each of the last k positions is a leaf whose
 * parent is the chain rank nearest below it in rank numbers: the first of
 * r - 1, r - 2, ... (mod P) at a chain position (ranks numbered by node and
 * switch: the leaf's data comes from its neighbour, not across the network
 * from the chain's end); a chain rank sends to its leaves last, in position
 * order.  k = 0 and one chain: arcoll_tree_chain's tree.  Depth (runs - 1) +
 * (longest run - 1) hops instead of n - 1 (rank order from a root: about
 * P / run + run), and a rank late without being known holds
 * the rest of its run (a head: the runs after it), not the rest of the chain.
 * Used by the late-rank orders of a streaming bcast (adapt/late_order.c,
 * adapt/late_chain.h): the ranks not late in the chain, the late ones as the
 * last k positions, so nobody waits behind a late rank and a late rank is
 * served after its neighbour forwarded (seed 001_6a837e3d9ad6c429.txt
 * technique 1 on the chain of seed 000_32450fa7292fe18a.txt).  O(P) per call.
 * Errors: those of arcoll_order_locate, MPI_ERR_ARG also when k < 0,
 * MPI_ERR_NO_MEM.
 */
int arcoll_tree_chain_runs(const int *order, int P, int k, int run, int me, arcoll_tree_t *tree);

/**
 * Flat tree (linear broadcast, the basic algorithm of MPICH and Open MPI):
 * the root (position 0) is the parent of every other position, its children
 * in position order (order[1] first, so late ranks placed last are served
 * last); every other rank is a leaf.
 */
int arcoll_tree_flat(const int *order, int P, int me, arcoll_tree_t *tree);

/**
 * k-nomial tree of radix `radix` (>= 2; 2 = arcoll_tree_binomial's shape):
 * with positions written in base radix, the parent of position q is q with
 * its lowest non-zero digit cleared, and q's children are q + j radix^i for
 * every digit position i below that digit and j = 1 .. radix-1 (the root:
 * every i).  Depth ceil(log_radix P); a node sends to up to (radix-1) per
 * level, largest subtree first (ties: farther child first), as the binomial
 * tree.  MPICH / MVAPICH2 "knomial" broadcast (MVAPICH2's intra-node radix
 * is 4).  MPI_ERR_ARG also when radix < 2.
 */
int arcoll_tree_knomial(const int *order, int P, int radix, int me, arcoll_tree_t *tree);

#ifdef __cplusplus
}
#endif
#endif
