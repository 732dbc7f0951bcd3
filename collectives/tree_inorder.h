/**
 * @file tree_inorder.h
 * @brief In-order binary tree over the ranks 0..P-1 in rank order (group
 *        reduce_scan), the shape of the pipelined tree scan (scan.h).
 *
 * The tree of the rank range [lo, hi) has root m = lo + (hi - lo) / 2, left
 * subtree [lo, m) and right subtree [m + 1, hi); the whole tree is that of
 * [0, P).  An in-order walk visits the ranks in increasing order, so a
 * subtree is a contiguous range of ranks and the prefix of a rank is
 * (everything left of its subtree) op (its left subtree) op (its own value):
 * the up-sweep / down-sweep of Blelloch 1990 and of the tree scans of
 * Sanders, Speck, Träff 2009 ("Two-tree algorithms for full bandwidth
 * broadcast, reduction and scan", Parallel Computing 35(12), section 4) on
 * one tree.  Depth floor(log2 P) + 1 levels.
 */
#ifndef ARCOLL_COLLECTIVES_TREE_INORDER_H
#define ARCOLL_COLLECTIVES_TREE_INORDER_H

#ifdef __cplusplus
extern "C" {
#endif

/** One rank's view of the in-order tree (ranks; -1 where absent). */
typedef struct arcoll_inorder_node {
  int parent;       /**< parent rank, -1 at the root */
  int left, right;  /**< children: roots of [lo, me) and [me + 1, hi), -1 if empty */
  int lo, hi;       /**< this rank's subtree is the ranks [lo, hi) */
  int is_left;      /**< 1 if this rank is its parent's left child */
  int send_up;      /**< 1 if the parent needs this subtree's reduction: a left
                         child, or a right child of a rank that itself sends up
                         (the root's right spine never does) */
  int recv_down;    /**< 1 if lo > 0: a prefix of the ranks [0, lo) comes from
                         the parent (0 on the root's left spine) */
  int level;        /**< 0 at the root */
} arcoll_inorder_node_t;

/**
 * Fill *node for rank `me` of the in-order tree over P ranks.
 * @return 0, or -1 if P < 1 or me is not in [0, P).  O(log P) time.
 */
int arcoll_tree_inorder(int P, int me, arcoll_inorder_node_t *node);

/**
 * Depth of the in-order tree over P ranks: floor(log2 P) + 1 levels (the
 * deepest node's `level` + 1).  @return 0 if P < 1.
 */
int arcoll_tree_inorder_depth(int P);

#ifdef __cplusplus
}
#endif
#endif
