/* Tree construction over a rank order; see tree.h. */
#include "tree.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static int lowbit(int x) { return x & -x; }

int arcoll_binomial_subtree_size(int pos, int P) {
  if (pos == 0) return P;
  int lb = lowbit(pos);
  return lb < P - pos ? lb : P - pos;
}

typedef struct {
  int pos, size;
} pos_size_t;

static int cmp_pos_size(const void *a, const void *b) {
  const pos_size_t *x = a, *y = b;
  if (x->size != y->size) return x->size > y->size ? -1 : 1;
  return x->pos - y->pos;
}

void arcoll_binomial_positions_by_size(int P, int *positions) {
  if (P <= 0) return;
  pos_size_t *tmp = malloc(sizeof(*tmp) * (size_t)P);
  if (!tmp) { /* degrade to identity: still a valid assignment */
    for (int i = 0; i < P; ++i) positions[i] = i;
    return;
  }
  for (int i = 0; i < P; ++i) {
    tmp[i].pos = i;
    tmp[i].size = arcoll_binomial_subtree_size(i, P);
  }
  qsort(tmp, (size_t)P, sizeof(*tmp), cmp_pos_size);
  for (int i = 0; i < P; ++i) positions[i] = tmp[i].pos;
  free(tmp);
}

int arcoll_order_locate(const int *order, int P, int me, int *pos_out) {
  if (P < 1 || !order) return MPI_ERR_ARG;
  char *seen = calloc((size_t)P, 1);
  if (!seen) return MPI_ERR_NO_MEM;
  int pos = -1;
  for (int i = 0; i < P; ++i) {
    int r = order[i];
    if (r < 0 || r >= P || seen[r]) {
      free(seen);
      return MPI_ERR_ARG;
    }
    seen[r] = 1;
    if (r == me) pos = i;
  }
  free(seen);
  if (pos < 0) return MPI_ERR_ARG;
  *pos_out = pos;
  return MPI_SUCCESS;
}

int arcoll_tree_binomial(const int *order, int P, int me, arcoll_tree_t *tree) {
  int pos, rc;
  memset(tree, 0, sizeof(*tree));
  if ((rc = arcoll_order_locate(order, P, me, &pos)) != MPI_SUCCESS) return rc;
  tree->size = P;
  tree->root = order[0];
  tree->rank = me;
  tree->position = pos;
  tree->parent = pos == 0 ? -1 : order[pos & (pos - 1)];
  int limit = pos == 0 ? P : lowbit(pos); /* children at pos + 2^k, 2^k < limit */
  int n = 0;
  for (int k = 1; k < limit && pos + k < P; k <<= 1) ++n;
  tree->nchildren = n;
  if (n > 0) {
    tree->children = malloc(sizeof(int) * (size_t)n);
    if (!tree->children) return MPI_ERR_NO_MEM;
    /* send order: largest subtree first (ties: farther child first), so the
       longest remaining path starts earliest */
    int i = 0;
    for (int k = 1; k < limit && pos + k < P; k <<= 1) tree->children[i++] = pos + k;
    for (int a = 1; a < n; ++a) { /* insertion sort on positions, n <= 31 */
      int c = tree->children[a], b = a - 1;
      int sc = arcoll_binomial_subtree_size(c, P);
      while (b >= 0) {
        int sb = arcoll_binomial_subtree_size(tree->children[b], P);
        if (sb > sc || (sb == sc && tree->children[b] > c)) break;
        tree->children[b + 1] = tree->children[b];
        --b;
      }
      tree->children[b + 1] = c;
    }
    for (int j = 0; j < n; ++j) tree->children[j] = order[tree->children[j]];
  }
  return MPI_SUCCESS;
}

int arcoll_tree_chain(const int *order, int P, int me, arcoll_tree_t *tree) {
  int pos, rc;
  memset(tree, 0, sizeof(*tree));
  if ((rc = arcoll_order_locate(order, P, me, &pos)) != MPI_SUCCESS) return rc;
  tree->size = P;
  tree->root = order[0];
  tree->rank = me;
  tree->position = pos;
  tree->parent = pos == 0 ? -1 : order[pos - 1];
  if (pos + 1 < P) {
    tree->children = malloc(sizeof(int));
    if (!tree->children) return MPI_ERR_NO_MEM;
    tree->children[0] = order[pos + 1];
    tree->nchildren = 1;
  }
  return MPI_SUCCESS;
}

void arcoll_tree_free(arcoll_tree_t *tree) {
  if (!tree) return;
  free(tree->children);
  tree->children = NULL;
  tree->nchildren = 0;
}
