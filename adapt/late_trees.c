/* The tolerant tree of streaming bcasts, chosen by a trial; see late_trees.h. */
#include "late_trees.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

int arcoll_late_trial_tree(uint64_t call, uint64_t next_x, int pending, int exchanges) {
  if (pending || exchanges < 1 || call >= next_x || call + ARCOLL_LATE_SAMPLES < next_x)
    return ARCOLL_TREES_UNDECIDED;
  const uint64_t w = call + ARCOLL_LATE_SAMPLES - next_x; /* 0 .. S-1 */
  return w < ARCOLL_LATE_SAMPLES / 2 ? ARCOLL_TREES_FIRST : ARCOLL_TREES_SECOND;
}

int arcoll_late_trees_compare(int P, int nsampled, const arcoll_late_record_t *rec, double *mean) {
  double s[ARCOLL_LATE_SAMPLES] = {0}, sum[2] = {0.0, 0.0};
  int tree[ARCOLL_LATE_SAMPLES], n[2] = {0, 0}, ranks = 0; /* tree: 0 first, 1 second, -1 no trial */
  if (nsampled < 0 || nsampled > ARCOLL_LATE_SAMPLES) nsampled = 0;
  for (int j = 0; j < nsampled; ++j) tree[j] = -1;
  for (int r = 0; r < P; ++r) { /* only ranks with every sampled record: the same set for each call */
    const arcoll_late_record_t *x = &rec[(size_t)r * (size_t)nsampled];
    int all = 1;
    for (int j = 0; j < nsampled && all; ++j) all = (x[j].flags & ARCOLL_LATE_VALID) != 0;
    if (!all) continue;
    ++ranks;
    for (int j = 0; j < nsampled; ++j) {
      if (x[j].flags & ARCOLL_LATE_TRIAL) tree[j] = (x[j].flags & ARCOLL_LATE_BINARY) ? 0 : 1;
      s[j] += x[j].exit - x[j].entry;
    }
  }
  for (int j = 1; j < nsampled; ++j) /* a call after the other tree's (or no trial) left out */
    if (tree[j] >= 0 && tree[j] == tree[j - 1]) sum[tree[j]] += s[j], ++n[tree[j]];
  if (2 * ranks < P) n[0] = n[1] = 0;
  for (int k = 0; k < 2 && mean; ++k) mean[k] = n[k] > 0 ? sum[k] / n[k] : NAN;
  if (n[0] < 2 || n[1] < 2) return ARCOLL_TREES_UNDECIDED;
  return sum[1] / n[1] < (1.0 - ARCOLL_TREES_TOLERANCE) * (sum[0] / n[0]) ? ARCOLL_TREES_SECOND
                                                                          : ARCOLL_TREES_FIRST;
}

int arcoll_late_trial_wait(int P, int coord, const unsigned char *late,
                           const arcoll_late_record_t *sampled, int n) {
  int trial = 0, need = 0;
  for (int j = 0; j < n; ++j) trial |= (sampled[j].flags & ARCOLL_LATE_TRIAL) != 0;
  if (!trial) return 0;
  for (int r = 0; r < P; ++r) need += r != coord && !late[r];
  need -= 1 + P / 32;
  return need > 0 ? need : 0;
}

double arcoll_late_ready_at(const arcoll_late_record_t *rec, int n, int calls) {
  if (n < 1) return NAN;
  double period = INFINITY; /* the shortest: a trial's slower half is not the pace to come */
  for (int j = 1; j < n; ++j)
    if (rec[j].exit - rec[j - 1].exit < period) period = rec[j].exit - rec[j - 1].exit;
  return rec[n - 1].exit + (n > 1 && period > 0 ? calls * period : 0.0);
}

static int by_value(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double arcoll_late_trial_deadline(double *ready, int n, double budget_s) {
  if (n < 1 || !isfinite(budget_s)) return INFINITY;
  qsort(ready, (size_t)n, sizeof *ready, by_value);
  if (budget_s <= 0) return ready[0];
  double sum = 0.0; /* sum of ready[0..k) */
  for (int k = 1; k <= n; ++k) {
    sum += ready[k - 1];
    /* k ranks waiting: tau = (budget + sum) / k, valid while below ready[k] */
    const double tau = (budget_s + sum) / k;
    if (k == n || tau <= ready[k]) return tau;
  }
  return INFINITY; /* not reached */
}

void arcoll_late_trees_fold(arcoll_late_trials_t *t, int result, int changed) {
  if (t->trees != ARCOLL_TREES_UNDECIDED || result == ARCOLL_TREES_UNDECIDED) return;
  if (result != ARCOLL_TREES_VOID && (!changed || result == t->last)) t->trees = result;
  else if (++t->voided >= ARCOLL_TREES_MAX_TRIALS) t->trees = ARCOLL_TREES_FIRST;
  if (result != ARCOLL_TREES_VOID) t->last = result;
}
