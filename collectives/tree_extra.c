/* More broadcast trees; see tree_extra.h. */
#include "tree_extra.h"

#include "coll.h" /* ARCOLL_KNOMIAL_RADIX */

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* Fill tree from parent/children positions (pos2rank maps positions). */
static int fill(arcoll_tree_t *tree, int P, int root, int me, int pos, int parent,
                const int *children, int n) {
  tree->size = P;
  tree->root = root;
  tree->rank = me;
  tree->position = pos;
  tree->parent = parent;
  tree->nchildren = 0;
  tree->children = NULL;
  if (n > 0) {
    tree->children = malloc(sizeof(int) * (size_t)n);
    if (!tree->children) return MPI_ERR_NO_MEM;
    memcpy(tree->children, children, sizeof(int) * (size_t)n);
    tree->nchildren = n;
  }
  return MPI_SUCCESS;
}

int arcoll_tree_2path(const int *order, int P, int me, arcoll_tree_t *tree) {
  int pos, rc, ch[2], n = 0, parent = -1;
  memset(tree, 0, sizeof(*tree));
  if ((rc = arcoll_order_locate(order, P, me, &pos)) != MPI_SUCCESS) return rc;
  const int h = P / 2; /* = ceil((P-1)/2): first chain 1..h, second h+1..P-1 */
  if (pos == 0) {
    if (P > 1) ch[n++] = order[1];
    if (h + 1 < P) ch[n++] = order[h + 1];
  } else {
    parent = (pos == 1 || pos == h + 1) ? order[0] : order[pos - 1];
    if (pos + 1 < P && pos != h) ch[n++] = order[pos + 1];
  }
  return fill(tree, P, order[0], me, pos, parent, ch, n);
}

int arcoll_tree_binomial_rotated(const int *order, int P, int shift, int me,
                                 arcoll_tree_t *tree) {
  memset(tree, 0, sizeof(*tree));
  if (P < 1 || !order) return MPI_ERR_ARG;
  int *rot = malloc(sizeof(int) * (size_t)P);
  if (!rot) return MPI_ERR_NO_MEM;
  rot[0] = order[0];
  int n = P - 1;
  int sh = n > 0 ? ((shift % n) + n) % n : 0;
  for (int q = 1; q < P; ++q) rot[q] = order[1 + (q - 1 + sh) % n];
  int rc = arcoll_tree_binomial(rot, P, me, tree);
  free(rot);
  return rc;
}

/* Root of the in-order range [lo, hi] (1-based): the number with the most
 * trailing zeros, so that odd numbers are exactly the leaves. */
static int range_root(int lo, int hi) {
  for (int t = 30; t > 0; --t) {
    int c = (hi >> t) << t;
    if (c >= lo) return c;
  }
  return hi;
}

/* In-order binary tree over nodes 1..n (root of a range: range_root); find
 * node x's parent and children (0 = none / parent is the broadcast root). */
static void inorder_links(int n, int x, int *parent, int *left, int *right) {
  int lo = 1, hi = n, par = 0;
  for (;;) {
    int mid = range_root(lo, hi);
    if (mid == x) {
      *parent = par;
      *left = lo <= mid - 1 ? range_root(lo, mid - 1) : 0;
      *right = mid + 1 <= hi ? range_root(mid + 1, hi) : 0;
      return;
    }
    par = mid;
    if (x < mid) hi = mid - 1;
    else lo = mid + 1;
  }
}

int arcoll_tree_twotree(const int *order, int P, int which, int me, arcoll_tree_t *tree) {
  int pos, rc, ch[2], nc = 0, parent = -1;
  memset(tree, 0, sizeof(*tree));
  if ((rc = arcoll_order_locate(order, P, me, &pos)) != MPI_SUCCESS) return rc;
  const int n = P - 1;
  /* tree node t (1..n) <-> position: T1 identity; T2 shift (n odd) or mirror */
#define TO_POS(t) (which == 0 ? (t) : (n % 2 ? (t) % n + 1 : n + 1 - (t)))
#define FROM_POS(q) (which == 0 ? (q) : (n % 2 ? ((q) + n - 2) % n + 1 : n + 1 - (q)))
  if (pos == 0) {
    if (n > 0) ch[nc++] = order[TO_POS(range_root(1, n))];
  } else {
    int tp, tl, tr;
    inorder_links(n, FROM_POS(pos), &tp, &tl, &tr);
    parent = tp == 0 ? order[0] : order[TO_POS(tp)];
    if (tl) ch[nc++] = order[TO_POS(tl)];
    if (tr) ch[nc++] = order[TO_POS(tr)];
  }
#undef TO_POS
#undef FROM_POS
  return fill(tree, P, order[0], me, pos, parent, ch, nc);
}

int arcoll_tree_flat(const int *order, int P, int me, arcoll_tree_t *tree) {
  int pos, rc;
  memset(tree, 0, sizeof(*tree));
  if ((rc = arcoll_order_locate(order, P, me, &pos)) != MPI_SUCCESS) return rc;
  if (pos > 0) return fill(tree, P, order[0], me, pos, order[0], NULL, 0);
  return fill(tree, P, order[0], me, 0, -1, order + 1, P - 1);
}

/* Links of position pos in arcoll_tree_binary's tree over P positions, as
 * positions (parent -1 for the root; children in sending order).  m odd,
 * h = range_root(1, m) (the in-order tree's top, even): the root's
 * children are the tops of [h+1, m] and [1, h-1]; position h takes the place
 * of leaf h+1 (the leftmost node of [h+1, m]), with h+1 as its child, and
 * position n = P-1 when m < n as its second child. */
static int binary_links(int P, int pos, int *parent, int ch[2]) {
  const int n = P - 1, m = n % 2 ? n : n - 1;
  int nc = 0;
  *parent = -1;
  if (m < 3) { /* P <= 3: the root is the parent of every position */
    if (pos == 0)
      for (int q = 1; q <= n; ++q) ch[nc++] = q;
    else *parent = 0;
    return nc;
  }
  const int h = range_root(1, m);
#define SUB(x) ((x) == h + 1 ? h : (x)) /* position h stands where leaf h+1 was */
  if (pos == 0) {
    ch[nc++] = SUB(range_root(h + 1, m));
    ch[nc++] = range_root(1, h - 1);
    return nc;
  }
  if (pos == h + 1 || pos > m) { /* h's children: h+1 and (P-1 even) n, both leaves */
    *parent = h;
    return 0;
  }
  int tp, tl, tr;
  inorder_links(m, pos == h ? h + 1 : pos, &tp, &tl, &tr);
  *parent = tp == h ? 0 : SUB(tp);
  if (pos == h) {
    ch[nc++] = h + 1;
    if (m < n) ch[nc++] = n;
    return nc;
  }
  if (tl) ch[nc++] = SUB(tl);
  if (tr) ch[nc++] = SUB(tr);
#undef SUB
  return nc;
}

int arcoll_binary_parent_pos(int pos, int P) {
  if (pos <= 0 || pos >= P) return -1;
  int parent, ch[2];
  binary_links(P, pos, &parent, ch);
  return parent;
}

int arcoll_tree_binary(const int *order, int P, int me, arcoll_tree_t *tree) {
  int pos, rc, ch[2], parent;
  memset(tree, 0, sizeof(*tree));
  if ((rc = arcoll_order_locate(order, P, me, &pos)) != MPI_SUCCESS) return rc;
  const int nc = binary_links(P, pos, &parent, ch);
  for (int i = 0; i < nc; ++i) ch[i] = order[ch[i]];
  return fill(tree, P, order[0], me, pos, parent < 0 ? -1 : order[parent], ch, nc);
}

/* Unit radix^i of the lowest non-zero base-radix digit of position q > 0. */
static long knomial_unit(int q, int radix) {
  long u = 1;
  while ((q / u) % radix == 0) u *= radix;
  return u;
}

int arcoll_knomial_parent_pos(int q, int radix) {
  if (q < 1 || radix < 2) return -1;
  const long u = knomial_unit(q, radix);
  return q - (int)(((q / u) % radix) * u);
}

/* Subtree size of position q > 0 in the k-nomial tree: its lowest non-zero
 * digit's unit, cut at P. */
static int knomial_subtree(int q, int P, int radix) {
  long u = knomial_unit(q, radix);
  return (int)(u < P - q ? u : P - q);
}

int arcoll_tree_knomial(const int *order, int P, int radix, int me, arcoll_tree_t *tree) {
  int pos, rc;
  memset(tree, 0, sizeof(*tree));
  if (radix < 2) return MPI_ERR_ARG;
  if ((rc = arcoll_order_locate(order, P, me, &pos)) != MPI_SUCCESS) return rc;
  long limit = P; /* children at pos + j u for the digit units u < limit */
  int parent = -1;
  if (pos > 0) {
    limit = knomial_unit(pos, radix);
    parent = order[arcoll_knomial_parent_pos(pos, radix)];
  }
  int n = 0;
  for (long u = 1; u < limit && pos + u < P; u *= radix)
    for (int j = 1; j < radix && pos + j * u < P; ++j) ++n;
  int *ch = n > 0 ? malloc(sizeof(int) * (size_t)n) : NULL;
  if (n > 0 && !ch) return MPI_ERR_NO_MEM;
  int i = 0;
  for (long u = 1; u < limit && pos + u < P; u *= radix)
    for (int j = 1; j < radix && pos + j * u < P; ++j) ch[i++] = pos + j * (int)u;
  for (int a = 1; a < n; ++a) { /* insertion sort: largest subtree, then farther, first */
    int cc = ch[a], b = a - 1, sc = knomial_subtree(cc, P, radix);
    while (b >= 0) {
      int sb = knomial_subtree(ch[b], P, radix);
      if (sb > sc || (sb == sc && ch[b] > cc)) break;
      ch[b + 1] = ch[b];
      --b;
    }
    ch[b + 1] = cc;
  }
  for (int j = 0; j < n; ++j) ch[j] = order[ch[j]];
  rc = fill(tree, P, order[0], me, pos, parent, ch, n);
  free(ch);
  return rc;
}

int arcoll_tree_parent_pos(arcoll_tree_shape_t shape, int pos, int P, int k) {
  if (pos < 1 || pos >= P) return -1;
  switch (shape) {
  case ARCOLL_TREE_LINEAR: return 0;
  case ARCOLL_TREE_BINOMIAL: return pos & (pos - 1);
  case ARCOLL_TREE_KNOMIAL: return arcoll_knomial_parent_pos(pos, k >= 2 ? k : ARCOLL_KNOMIAL_RADIX);
  case ARCOLL_TREE_BINARY: return arcoll_binary_parent_pos(pos, P);
  case ARCOLL_TREE_CHAIN: return pos - 1;
  case ARCOLL_TREE_NONE: break;
  }
  return -1;
}

/* Chain rank of leaf rank r: the first of r - 1, r - 2, ... (mod P) whose
 * position is below P - k (the chain); posof: rank -> position. */
static int leaf_parent(int r, int P, int k, const int *posof) {
  for (int d = 1; d < P; ++d) {
    const int q = ((r - d) % P + P) % P;
    if (posof[q] < P - k) return q;
  }
  return -1;
}

/* Position p starts a run: a run is positions in a row whose ranks share a block of `run` rank
 * numbers (tree_extra.h arcoll_tree_chain_runs). */
static int run_head(const int *order, int p, int run) {
  return p == 0 || order[p] / run != order[p - 1] / run;
}

int arcoll_tree_chain_runs(const int *order, int P, int k, int run, int me, arcoll_tree_t *tree) {
  int pos, rc;
  memset(tree, 0, sizeof(*tree));
  if (k < 0) return MPI_ERR_ARG;
  if (k >= P) k = P - 1; /* every rank but the root a leaf of it */
  const int nchain = P - k;
  if (run <= 1) run = P; /* one block: one chain */
  if (k <= 0 && run >= P) return arcoll_tree_chain(order, P, me, tree); /* it locates me once */
  if ((rc = arcoll_order_locate(order, P, me, &pos)) != MPI_SUCCESS) return rc;
  int *posof = malloc(sizeof(int) * (size_t)P), *ch = malloc(sizeof(int) * (size_t)(k + 2));
  if (!posof || !ch) {
    free(posof);
    free(ch);
    return MPI_ERR_NO_MEM;
  }
  for (int p = 0; p < P; ++p) posof[order[p]] = p;
  int parent, n = 0;
  if (pos >= nchain) {
    parent = leaf_parent(me, P, k, posof);
  } else {
    const int head = run_head(order, pos, run);
    int prev = pos - 1, next = pos + 1;
    while (head && prev > 0 && !run_head(order, prev, run)) --prev; /* the previous run's head */
    while (head && next < nchain && !run_head(order, next, run)) ++next; /* the next run's head */
    parent = pos == 0 ? -1 : order[prev];
    if (head && next < nchain) ch[n++] = order[next]; /* the next run's head first */
    if (pos + 1 < nchain && !run_head(order, pos + 1, run)) ch[n++] = order[pos + 1]; /* then its run */
    for (int p = nchain; p < P; ++p)                /* then its leaves, in position order */
      if (leaf_parent(order[p], P, k, posof) == me) ch[n++] = order[p];
  }
  rc = fill(tree, P, order[0], me, pos, parent, ch, n);
  free(posof);
  free(ch);
  return rc;
}
