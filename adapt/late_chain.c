/* The chain with late leaves' order; see late_chain.h. */
#include "late_chain.h"

#include <stddef.h>

int arcoll_late_chain_max_leaves(int P) { return P / 8 > 1 ? P / 8 : 1; }

int arcoll_late_chain_run(int n) {
  if (n < 1) return -1;
  int L = 1; /* the power of two with the fewest hops ceil(n / L) + L - 1 */
  while (2 * L <= n && (n + 2 * L - 1) / (2 * L) + 2 * L < (n + L - 1) / L + L) L *= 2;
  return L;
}

int arcoll_late_chain_order(const unsigned char *late, int P, int root, int *order) {
  if (!late || !order || P < 2 || root < 0 || root >= P) return -1;
  if (P > ARCOLL_LATE_CHAIN_MAX_RANKS) return 0;
  int k = 0;
  for (int r = 0; r < P; ++r) k += r != root && late[r];
  if (k == 0 || k > arcoll_late_chain_max_leaves(P)) return 0;
  int n = 0, m = P - k;
  order[n++] = root;
  for (int i = 1; i < P; ++i) {
    const int r = (root + i) % P;
    if (late[r]) order[m++] = r;
    else order[n++] = r;
  }
  return k;
}
