/* In-order binary tree over the ranks in rank order; see tree_inorder.h. */
#include "tree_inorder.h"

static int mid(int lo, int hi) { return lo + (hi - lo) / 2; }

int arcoll_tree_inorder(int P, int me, arcoll_inorder_node_t *node) {
  if (P < 1 || me < 0 || me >= P || !node) return -1;
  int lo = 0, hi = P, parent = -1, is_left = 0, up = 0, level = 0;
  /* walk down from the root of [0, P); `up` = send_up of the rank at the
   * current range's root, derived from its parent's */
  for (;;) {
    const int v = mid(lo, hi);
    up = parent >= 0 && (is_left || up);
    if (v == me) break;
    parent = v;
    ++level;
    if (me < v) {
      hi = v, is_left = 1;
    } else {
      lo = v + 1, is_left = 0;
    }
  }
  node->parent = parent;
  node->left = lo < me ? mid(lo, me) : -1;
  node->right = me + 1 < hi ? mid(me + 1, hi) : -1;
  node->lo = lo;
  node->hi = hi;
  node->is_left = is_left;
  node->send_up = up;
  node->recv_down = lo > 0;
  node->level = level;
  return 0;
}

int arcoll_tree_inorder_depth(int P) {
  int depth = 0;
  while (P >= 1 && (1L << depth) <= P) ++depth;
  return depth;
}
