/* A streaming reduce chain's late ranks from the times outside; see late_outside.h. */
#include "late_outside.h"

#include <stdlib.h>
#include <string.h>

#include "late_chain.h" /* arcoll_late_chain_max_leaves */

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median_of(double *v, int n) { /* sorts v */
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int arcoll_outside_late_set(const double *outside_s, int P, double floor_s, int *late) {
  if (!outside_s || !late || P < 2 || !(floor_s >= 0)) return -1;
  double *v = malloc(sizeof *v * (size_t)P);
  if (!v) return 0; /* no order: the chain keeps rank order */
  memcpy(v, outside_s, sizeof *v * (size_t)P);
  const double med = median_of(v, P);
  for (int r = 0; r < P; ++r) v[r] = outside_s[r] > med ? outside_s[r] - med : med - outside_s[r];
  const double mad = median_of(v, P);
  free(v);
  double thr = ARCOLL_OUTSIDE_MAD_FACTOR * mad;
  if (thr < floor_s) thr = floor_s;
  int k = 0;
  for (int r = 0; r < P && k <= arcoll_late_chain_max_leaves(P); ++r) {
    if (!(outside_s[r] - med > thr)) continue;
    int i = k++; /* insertion: the latest first, ties in rank order */
    for (; i > 0 && outside_s[late[i - 1]] < outside_s[r]; --i) late[i] = late[i - 1];
    late[i] = r;
  }
  return k > arcoll_late_chain_max_leaves(P) ? 0 : k;
}

int arcoll_outside_chain_order(const int *late, int k, int P, int root, int *order) {
  if (!order || P < 1 || root < 0 || root >= P || k < 0 || (k > 0 && !late)) return -1;
  unsigned char *placed = calloc((size_t)P, 1);
  if (!placed) return -1;
  int n = 0;
  order[n++] = root;
  placed[root] = 1;
  for (int i = 0; i < k; ++i) {
    const int r = late[i];
    if (r < 0 || r >= P || (placed[r] && r != root)) {
      free(placed);
      return -1;
    }
    if (r == root) continue;
    order[n++] = r;
    placed[r] = 1;
  }
  const int placed_late = n - 1;
  for (int i = 1; i < P; ++i)
    if (!placed[(root + i) % P]) order[n++] = (root + i) % P;
  free(placed);
  return placed_late;
}

int arcoll_outside_links_bound(double period_s, const double *outside_s, int P,
                               double occupancy_s) {
  if (!outside_s || P < 1 || !(occupancy_s > 0)) return 0;
  double late = outside_s[0];
  for (int r = 1; r < P; ++r)
    if (outside_s[r] > late) late = outside_s[r];
  return period_s - late > ARCOLL_OUTSIDE_STREAM_SLACK * occupancy_s;
}
