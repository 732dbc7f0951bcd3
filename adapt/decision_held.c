/* Missing records of a rooted decision charged to the trees that held
 * them; see decision_held.h. */
#include "decision_held.h"

#include <math.h>

#include "coll.h"
#include "tree_extra.h"

int arcoll_held_parent_pos(const arcoll_choice_t *c, int pos, int P) {
  return c->algo ? arcoll_tree_parent_pos(c->algo->tree, pos, P, c->k) : -1;
}

/* 1 if candidate c held rank q (missing): a missing non-root ancestor, or
 * shape unknown and `others` other non-root ranks missing (linear holds
 * nobody in any order) */
static int held(const arcoll_choice_t *c, int q, int P, int root, const unsigned char *got,
                int in_order, int others) {
  if (c->algo && c->algo->tree == ARCOLL_TREE_LINEAR) return 0;
  const int parent = arcoll_held_parent_pos(c, (q - root + P) % P, P);
  if (!in_order || parent < 0) return others > 0;
  for (int a = parent; a > 0; a = arcoll_held_parent_pos(c, a, P))
    if (!got[(a + root) % P]) return 1;
  return 0;
}

int arcoll_held_charge(const arcoll_choice_t *cand, int n, int trials, int P, int root,
                       const unsigned char *got, int in_order, double behind_s, double *res) {
  const int k = n * trials;
  int missing = 0, charged = 0;
  for (int q = 0; q < P; ++q) missing += q != root && !got[q];
  for (int q = 0; q < P && behind_s > 0.0; ++q) {
    if (q == root || got[q]) continue;
    int h[ARCOLL_ONLINE_MAX_CANDIDATES], nh = 0;
    for (int i = 0; i < n && i < ARCOLL_ONLINE_MAX_CANDIDATES; ++i)
      if (held(&cand[i], q, P, root, got, in_order, missing - 1)) h[nh++] = i;
    if (nh == 0) continue;
    const double pen = behind_s / (nh * trials);
    for (int j = 0; j < nh; ++j)
      for (int r = 0; r < trials; ++r) {
        const int x = h[j] * trials + r;
        res[x] += pen;
        res[k + x] = fmax(res[k + x], pen);
      }
    ++charged;
  }
  return charged;
}

double arcoll_held_mean_depth(const arcoll_choice_t *c, int P) {
  if (P < 2) return 0.0;
  arcoll_tree_shape_t shape = c->algo ? c->algo->tree : ARCOLL_TREE_NONE;
  if (shape == ARCOLL_TREE_LINEAR) return 0.0;
  if (shape == ARCOLL_TREE_NONE) shape = ARCOLL_TREE_BINOMIAL; /* unknown: as binomial */
  double sum = 0.0; /* every position's ancestors below the root */
  for (int pos = 1; pos < P; ++pos)
    for (int a = arcoll_tree_parent_pos(shape, pos, P, c->k); a > 0;
         a = arcoll_tree_parent_pos(shape, a, P, c->k))
      sum += 1.0;
  return sum / (P - 1);
}

void arcoll_held_exposure(const arcoll_choice_t *cand, int n, int trials, int P, double late_s,
                          double *res) {
  if (!(late_s > 0.0)) return;
  const int k = n * trials;
  for (int i = 0; i < n; ++i) {
    const double depth = arcoll_held_mean_depth(&cand[i], P);
    if (!(depth > 0.0)) continue;
    for (int r = 0; r < trials; ++r) {
      res[i * trials + r] += depth * late_s;
      res[k + i * trials + r] += late_s;
    }
  }
}

double arcoll_held_exposure_threshold(const arcoll_choice_t *cand, int n, int trials, int P,
                                      const double *res) {
  double m[ARCOLL_ONLINE_MAX_CANDIDATES], d[ARCOLL_ONLINE_MAX_CANDIDATES];
  int best = -1;
  for (int i = 0; i < n && i < ARCOLL_ONLINE_MAX_CANDIDATES; ++i) {
    m[i] = INFINITY;
    for (int r = 0; r < trials; ++r) m[i] = fmin(m[i], res[i * trials + r]);
    d[i] = arcoll_held_mean_depth(&cand[i], P);
    if (isfinite(m[i]) && (best < 0 || m[i] < m[best])) best = i;
  }
  double t = INFINITY;
  for (int j = 0; best >= 0 && j < n && j < ARCOLL_ONLINE_MAX_CANDIDATES; ++j)
    if (isfinite(m[j]) && d[j] < d[best]) t = fmin(t, (m[j] - m[best]) / (d[best] - d[j]));
  return t;
}
