/**
 * @file tree.h
 * @brief Broadcast/reduction trees over an arbitrary rank order.
 *
 * A tree is described from the point of view of ONE rank: its parent and its
 * children (communicator ranks).  Trees are built over *positions* 0..P-1; an
 * `order` array maps position -> communicator rank, with order[0] the root.
 * Building the tree is kept separate from moving data (see bcast_tree.h), as in
 * Open MPI's ompi/mca/coll/base (coll_base_topo.c + generic segmented bcast).
 *
 * Binomial tree over positions (MPICH/Open MPI layout): the parent of position
 * i > 0 is i with its lowest set bit cleared; the children of i are i + 2^k for
 * every 2^k < lowbit(i) (all 2^k < P for the root) with i + 2^k < P.  The
 * subtree rooted at position i has min(lowbit(i), P - i) positions (P for the
 * root); every odd position is a leaf (and so is every position with
 * subtree size 1 when P is not a power of two).  Children are sent to in
 * order of decreasing subtree size.  Cost model (seed
 * 000_32450fa7292fe18a.txt, linear point-to-point model T_send(m) = t_s + m/B):
 * T_binomial = (t_s + m/B) * ceil(log2 P)  [t_s in seconds, m in bytes,
 * B in bytes/second].
 *
 * Chain (pipeline) over positions: position i sends to i+1.  Seed 000:
 * segmented pipelined chain T = (k + P - 2) * 2 T_send(M/k), best
 * k = sqrt((P-2) M / (B t_s)).
 */
#ifndef ARCOLL_COLLECTIVES_TREE_H
#define ARCOLL_COLLECTIVES_TREE_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The one tree over positions (ranks in the schedule's order, position 0 the
 * root) that carries all of an algorithm's data, when there is one: the
 * `tree` of its table entry (coll.h arcoll_algo_desc_t); parent of position
 * pos (1 <= pos < P): arcoll_tree_parent_pos (tree_extra.h).  The adaptive
 * layer reads it to tell which ranks wait for a late one
 * (adapt/decision_held.h) and how lateness is measured (adapt/late_order.c).
 */
typedef enum arcoll_tree_shape {
  ARCOLL_TREE_NONE = 0, /**< no such tree: several trees, a ring, scatter + allgather, ... */
  ARCOLL_TREE_LINEAR,   /**< flat: the root is every position's parent (tree_extra.h) */
  ARCOLL_TREE_BINOMIAL, /**< parent: pos with its lowest set bit cleared (tree.h) */
  ARCOLL_TREE_KNOMIAL,  /**< parent: pos with its lowest non-zero base-k digit cleared */
  ARCOLL_TREE_BINARY,   /**< arcoll_tree_binary's (tree_extra.h) */
  ARCOLL_TREE_CHAIN     /**< parent: pos - 1 (tree.h) */
} arcoll_tree_shape_t;

/** One rank's view of a tree.  All ranks are communicator ranks. */
typedef struct arcoll_tree {
  int size;      /**< number of ranks P in the tree */
  int root;      /**< communicator rank of the root (order[0]) */
  int rank;      /**< communicator rank this view belongs to */
  int position;  /**< position of `rank` in the order, 0..P-1 */
  int parent;    /**< parent's rank, -1 for the root */
  int nchildren; /**< number of children */
  int *children; /**< children's ranks in send order: largest subtree first */
} arcoll_tree_t;

/**
 * Number of positions in the binomial subtree rooted at position `pos`
 * (0 <= pos < P): P for pos 0, else min(lowbit(pos), P - pos).
 */
int arcoll_binomial_subtree_size(int pos, int P);

/**
 * Fill positions[0..P-1] with the binomial-tree positions sorted by subtree
 * size, largest first (ties: smaller position first).  positions[0] == 0 (the
 * root).  Assigning the i-th earliest rank to positions[i] puts late ranks on
 * leaves (odd positions come last): seed 001_6a837e3d9ad6c429.txt technique 1.
 */
void arcoll_binomial_positions_by_size(int P, int *positions);

/**
 * Position of rank `me` in `order` (P entries), checking that order is a
 * permutation of 0..P-1.  Returns MPI_SUCCESS (*pos_out set), MPI_ERR_ARG
 * (P < 1, NULL order, not a permutation) or MPI_ERR_NO_MEM.
 */
int arcoll_order_locate(const int *order, int P, int me, int *pos_out);

/**
 * Build `me`'s view of the binomial tree over `order[0..P-1]` (a permutation of
 * 0..P-1, order[0] = root).
 * @return MPI_SUCCESS, MPI_ERR_ARG if P < 1, `me` is not in `order` or order
 *         is not a permutation, MPI_ERR_NO_MEM on allocation failure.
 *         On success free with arcoll_tree_free().
 */
int arcoll_tree_binomial(const int *order, int P, int me, arcoll_tree_t *tree);

/** Build `me`'s view of the chain order[0] -> order[1] -> ... -> order[P-1].
 *  Same return values as arcoll_tree_binomial(). */
int arcoll_tree_chain(const int *order, int P, int me, arcoll_tree_t *tree);

/** Release the children array; safe on a zeroed tree. */
void arcoll_tree_free(arcoll_tree_t *tree);

/** ceil(log2 n) for n >= 1 (0 for n <= 1): the depth of a binomial tree over n
 *  positions, the rounds of recursive doubling / halving over n ranks, the
 *  cost model's log2 P (model.c). Any int n (the shift is a long's). */
static inline int arcoll_ceil_log2(int n) {
  int l = 0;
  while ((1L << l) < n) ++l;
  return l;
}

/** The largest power of two <= n for n >= 1 (1 for n <= 1): the ranks of
 *  recursive doubling / halving's power-of-two core (the other n - it fold
 *  in first), the cost model's P' (model.c). */
static inline int arcoll_floor_pow2(int n) {
  int p = 1;
  while (p <= n / 2) p <<= 1;
  return p;
}

#ifdef __cplusplus
}
#endif
#endif
