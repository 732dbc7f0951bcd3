/* Lateness measure, summary, thresholds and exchange schedule; see lateness.h. */
#include "lateness.h"

#include "late_trees.h"
#include "tree_extra.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Parent position of 0 < p < P in the tree of `shape` (ARCOLL_LATE_CHAIN,
 * ARCOLL_LATE_BINARY: collectives/tree_extra.h arcoll_tree_binary, else
 * binomial). */
static int parent_pos(int p, int P, int shape) {
  if (shape & ARCOLL_LATE_CHAIN) return p - 1;
  if (shape & ARCOLL_LATE_BINARY) return arcoll_binary_parent_pos(p, P);
  return p & (p - 1);
}

/* Data toward the root (ARCOLL_LATE_UP): bottom-up over positions (children
 * come after their parent: binomial and chain shapes; the binary shape, whose
 * parent may come later, is a bcast tree only).  need(p) = when p's children's data is all
 * there (latest child ready + t_level; -inf for a leaf); p is ready at
 * max(entry(p), need(p)); it caused max(0, entry(p) - max(need(p),
 * entry(parent))): beyond what its children and its parent's own arrival
 * would have cost anyway.  a[0..P-1]: need by position, a[P..2P-1]: entry. */
static int caused_up(int P, const arcoll_late_record_t *rec, const int *rank_at, int shape,
                     double t_level, double missing_s, double *a, double *caused) {
  double *need = a, *entry = a + P;
  for (int p = 0; p < P; ++p) need[p] = -INFINITY;
  for (int p = 0; p < P; ++p) {
    const int r = rank_at[p];
    entry[p] = (rec[r].flags & ARCOLL_LATE_VALID) ? rec[r].entry : NAN;
  }
  for (int p = P - 1; p > 0; --p) {
    const int r = rank_at[p], q = parent_pos(p, P, shape);
    double ready;
    if (isnan(entry[p])) { /* missing: at least missing_s after it was needed */
      caused[r] = missing_s;
      ready = fmax(need[p], isnan(entry[q]) ? need[p] : entry[q]) + missing_s;
    } else {
      const double base = fmax(need[p], isnan(entry[q]) ? -INFINITY : entry[q]);
      caused[r] = isfinite(base) && entry[p] > base ? entry[p] - base : 0.0;
      ready = fmax(entry[p], need[p]);
    }
    if (isfinite(ready) && ready + t_level > need[q]) need[q] = ready + t_level;
  }
  return 0;
}

static int caused_raw(int P, int root, const arcoll_late_record_t *rec, double missing_s,
                      int *scratch, double *a, double *caused);

double arcoll_late_missing_charge(int P, double t_level, double missing_s) {
  if (missing_s < 0) return 0.0;
  if (!(t_level > 0) || !isfinite(t_level)) t_level = 0.0;
  const int levels = arcoll_ceil_log2(P);
  return missing_s < 2.0 * levels * t_level ? 2.0 * levels * t_level : missing_s;
}

/* Trees the positions do not describe (ARCOLL_LATE_OTHER: multi-tree, ring,
 * scatter-allgather bcasts): a rank is charged how long after the root's
 * entry plus one level's time it entered (the gap cap of arcoll_late_caused
 * then keeps only what it spent outside beyond the median rank: ranks that
 * queued behind a root that ran ahead are not charged); missing records as
 * in caused_raw, the root nothing. */
static void caused_other(int P, int root, const arcoll_late_record_t *rec, double missing_s,
                         double *caused) {
  const arcoll_late_record_t *R = &rec[root];
  const double t_level = (R->t_level > 0 && isfinite(R->t_level)) ? R->t_level : 0.0;
  missing_s = arcoll_late_missing_charge(P, t_level, missing_s);
  for (int r = 0; r < P; ++r) {
    caused[r] = 0.0;
    if (r == root) continue;
    if (!(rec[r].flags & ARCOLL_LATE_VALID)) caused[r] = missing_s;
    else if (rec[r].entry - R->entry - t_level > 0) caused[r] = rec[r].entry - R->entry - t_level;
  }
}

static int cmp_double(const void *x, const void *y) {
  const double u = *(const double *)x, v = *(const double *)y;
  return u < v ? -1 : u > v;
}

int arcoll_late_caused(int P, int root, const arcoll_late_record_t *rec, double missing_s,
                       int *scratch, double *a, double *caused) {
  if ((rec[root].flags & ARCOLL_LATE_VALID) && (rec[root].flags & ARCOLL_LATE_OTHER)) {
    caused_other(P, root, rec, missing_s, caused);
  } else {
    const int rc = caused_raw(P, root, rec, missing_s, scratch, a, caused);
    if (rc != 0) return rc;
  }
  /* cap by the time outside the collective beyond the median rank's */
  int n = 0;
  for (int r = 0; r < P; ++r)
    if (rec[r].flags & ARCOLL_LATE_VALID) a[n++] = rec[r].gap;
  if (n == 0) return 0;
  qsort(a, (size_t)n, sizeof *a, cmp_double);
  const double med = a[n / 2];
  for (int r = 0; r < P; ++r) {
    if (!(rec[r].flags & ARCOLL_LATE_VALID)) continue; /* missing: charged as such */
    const double own = rec[r].gap - med;
    if (caused[r] > own) caused[r] = own > 0 ? own : 0.0;
  }
  return 0;
}

/* Did rank x (data from the root, parent q) wait for its data?  It stayed
 * inside longer than 1.5 levels' time and its parent was not done before x
 * entered: a parent that left before x arrived had sent everything (eager
 * or buffered), so x's time inside was its own (descheduled, copying; seen
 * on real ranks sharing cores: 4 MPICH ranks on 2 loaded cores, a rank late
 * by 20 ms spent > 17 us inside and was taken for a waiting one). */
static int waited(const arcoll_late_record_t *x, const arcoll_late_record_t *q, double t_level) {
  if (!(x->exit - x->entry > 1.5 * t_level)) return 0;
  return !((q->flags & ARCOLL_LATE_VALID) && q->exit + t_level < x->entry);
}

static int caused_raw(int P, int root, const arcoll_late_record_t *rec, double missing_s,
                      int *scratch, double *a, double *caused) {
  int *rank_at = scratch;       /* position -> rank, -1 unknown */
  int *missing = scratch + P;   /* ranks without a record */
  int *free_pos = scratch + 2 * P;
  int nmiss = 0, nfree = 0, shape = 0, up = 0;
  double t_level = 0.0;
  for (int r = 0; r < P; ++r) caused[r] = 0.0;
  for (int p = 0; p < P; ++p) rank_at[p] = -1;
  for (int r = 0; r < P; ++r) {
    if (!(rec[r].flags & ARCOLL_LATE_VALID)) {
      missing[nmiss++] = r;
      continue;
    }
    const int p = rec[r].pos;
    if (p < 0 || p >= P || rank_at[p] >= 0 || (p == 0) != (r == root)) return -1;
    rank_at[p] = r;
    if (r == root || t_level == 0.0)
      t_level = rec[r].t_level, shape = rec[r].flags & (ARCOLL_LATE_CHAIN | ARCOLL_LATE_BINARY),
      up = rec[r].flags & ARCOLL_LATE_UP;
  }
  for (int p = 0; p < P; ++p)
    if (rank_at[p] < 0) free_pos[nfree++] = p;
  if (nfree != nmiss) return -1;
  /* missing ranks take the free positions (exact when one is missing); a
   * missing root takes position 0 */
  if (!(rec[root].flags & ARCOLL_LATE_VALID)) {
    if (rank_at[0] >= 0) return -1;
    rank_at[0] = root;
  }
  for (int i = 0, k = 0; i < nmiss; ++i) {
    if (missing[i] == root) continue;
    while (k < nfree && rank_at[free_pos[k]] >= 0) ++k;
    rank_at[free_pos[k++]] = missing[i];
  }
  if (rank_at[0] != root) return -1;
  if (!(t_level > 0.0) || !isfinite(t_level)) t_level = 0.0;
  /* a rank whose records had not arrived is at least G calls behind the
   * coordinator (a rank that is not late): charge it at least two whole
   * calls' time (levels x t_level each); when the coordinator itself ran
   * ahead, missing_s alone would be too small */
  missing_s = arcoll_late_missing_charge(P, t_level, missing_s); /* < 0: a root that ran ahead */
  if (!(rec[root].flags & ARCOLL_LATE_VALID)) { /* nothing is known about the root's timing */
    caused[root] = missing_s;
    return 0;
  }
  if (up) return caused_up(P, rec, rank_at, shape, t_level, missing_s, a, caused);
  /* minw[q]: the earliest exit among q's children that waited for their
   * data (when the data reached that family) */
  double *minw = a;
  for (int p = 0; p < P; ++p) minw[p] = INFINITY;
  for (int p = 1; p < P; ++p) {
    const arcoll_late_record_t *x = &rec[rank_at[p]];
    const int q = parent_pos(p, P, shape);
    if ((x->flags & ARCOLL_LATE_VALID) && waited(x, &rec[rank_at[q]], t_level) && x->exit < minw[q])
      minw[q] = x->exit;
  }
  for (int p = 1; p < P; ++p) {
    const int r = rank_at[p], qp = parent_pos(p, P, shape);
    if (!(rec[r].flags & ARCOLL_LATE_VALID)) {
      /* below a missing parent it waits for that one's data: charged there
       * (seed 001's rank P/2 and its child, the first exchange, late_first.h) */
      caused[r] = rank_at[qp] != root && !(rec[rank_at[qp]].flags & ARCOLL_LATE_VALID) ? 0.0 : missing_s;
      continue;
    }
    const arcoll_late_record_t *q = &rec[rank_at[qp]];
    if (waited(&rec[r], q, t_level)) continue; /* it waited for its data */
    if (!(q->flags & ARCOLL_LATE_VALID)) continue; /* the parent was the late one */
    double ref = q->exit < rec[r].entry ? q->exit : q->entry;
    if (isfinite(minw[qp]) && minw[qp] - t_level > ref) ref = minw[qp] - t_level;
    const double l = rec[r].entry - ref - t_level;
    caused[r] = l > 0 ? l : 0.0;
  }
  return 0;
}

typedef struct {
  double v;
  int rank;
} ranked_t;

static int cmp_desc(const void *x, const void *y) {
  const ranked_t *a = x, *b = y;
  if (a->v != b->v) return a->v > b->v ? -1 : 1;
  return a->rank - b->rank;
}

/* The root's site and the root of sampled call j (from the records). */
static int call_root(int P, int nsampled, const arcoll_late_record_t *rec, int j, uint64_t *site,
                     float *t_level) {
  for (int r = 0; r < P; ++r) {
    const arcoll_late_record_t *x = &rec[(size_t)r * nsampled + j];
    if (!(x->flags & ARCOLL_LATE_VALID)) continue;
    const arcoll_late_record_t *y = &rec[(size_t)x->root * nsampled + j];
    *site = (y->flags & ARCOLL_LATE_VALID) ? y->site : 0;
    *t_level = (y->flags & ARCOLL_LATE_VALID) ? y->t_level : x->t_level;
    return x->root >= 0 && x->root < P ? x->root : -1;
  }
  return -1;
}

/* Median minus lower quartile of the times outside (gap) of the ranks other
 * than the root with a record of this call (seconds), -1 with fewer than 4;
 * a: scratch of P doubles. */
static double gap_lower_spread(int P, int root, const arcoll_late_record_t *call, double *a) {
  int n = 0;
  for (int r = 0; r < P; ++r)
    if (r != root && (call[r].flags & ARCOLL_LATE_VALID)) a[n++] = call[r].gap;
  if (n < 4) return -1.0;
  qsort(a, (size_t)n, sizeof *a, cmp_double);
  return a[n / 2] - a[n / 4];
}

double arcoll_late_persistent(double *v, int n) {
  if (n <= 0) return 0.0;
  for (int i = 1; i < n; ++i) /* insertion sort: n <= ARCOLL_LATE_SAMPLES */
    for (int k = i; k > 0 && v[k] < v[k - 1]; --k) {
      const double x = v[k];
      v[k] = v[k - 1], v[k - 1] = x;
    }
  return v[n / ARCOLL_LATE_PERSISTENT_OUT_OF];
}

int arcoll_late_summarise(int P, uint64_t first_call, int nsampled,
                          const arcoll_late_record_t *rec, double missing_s,
                          arcoll_late_summary_t *out) {
  memset(out, 0, sizeof *out);
  if (nsampled > ARCOLL_LATE_SAMPLES) nsampled = ARCOLL_LATE_SAMPLES;
  out->first_call = first_call;
  out->nsampled = nsampled < 0 ? 0 : nsampled;
  for (int j = 0; j < ARCOLL_LATE_SAMPLES; ++j) out->seq_root[j] = -1;
  arcoll_late_record_t *call = malloc(sizeof(*call) * (size_t)P);
  int *scratch = malloc(sizeof(int) * 3 * (size_t)P);
  double *a = malloc(sizeof(double) * 2 * (size_t)P), *caused = malloc(sizeof(double) * (size_t)P);
  double *val = calloc((size_t)P * ARCOLL_LATE_SAMPLES, sizeof(double)); /* [j][r] caused */
  /* group_of[j]: call j's group, -1 when it has none or is call 0 (no gap: caused 0 for all) */
  int group_of[ARCOLL_LATE_SAMPLES], nspread[ARCOLL_LATE_SAMPLES] = {0};
  double spread[ARCOLL_LATE_SAMPLES] = {0}; /* per group: gap_lower_spread() summed */
  ranked_t *rk = malloc(sizeof(*rk) * (size_t)P);
  int rc = -1;
  if (!call || !scratch || !a || !caused || !val || !rk) goto done;
  for (int j = 0; j < nsampled; ++j) {
    group_of[j] = -1;
    uint64_t site = 0;
    float t_level = 0.0f;
    const int root = call_root(P, nsampled, rec, j, &site, &t_level);
    if (root < 0) continue; /* nobody recorded this call, or it was not measured */
    out->seq_site[j] = site;
    out->seq_root[j] = root;
    for (int r = 0; r < P; ++r) call[r] = rec[(size_t)r * nsampled + j];
    if (arcoll_late_caused(P, root, call, missing_s, scratch, a, caused) != 0) continue;
    int g = 0;
    while (g < out->ngroups && !(out->group[g].site == site && out->group[g].root == root)) ++g;
    if (g == out->ngroups) {
      out->group[g].site = site;
      out->group[g].root = root;
      out->group[g].t_level = t_level;
      out->group[g].lead = out->group[g].spread = NAN;
      ++out->ngroups;
    }
    const int has_gap = first_call + (uint64_t)j > 0;
    if (has_gap) group_of[j] = g;
    if (j > 0 && out->seq_root[j - 1] == root && out->seq_site[j - 1] == site &&
        (call[root].flags & ARCOLL_LATE_VALID)) { /* the root's lead over call j - 1 */
      double last = -INFINITY, x0 = INFINITY, x1 = -INFINITY, e0 = INFINITY, e1 = -INFINITY;
      for (int r = 0; r < P; ++r) {
        const arcoll_late_record_t *q = &rec[(size_t)r * nsampled + j - 1];
        if (q->flags & ARCOLL_LATE_VALID) {
          if (r != root && q->exit > last) last = q->exit;
          x0 = fmin(x0, q->exit), x1 = fmax(x1, q->exit);
        }
        if (call[r].flags & ARCOLL_LATE_VALID) e0 = fmin(e0, call[r].entry), e1 = fmax(e1, call[r].entry);
      }
      arcoll_late_group_t *G = &out->group[g];
      const float lead = (float)(last - call[root].entry);
      if (last > -INFINITY && (isnan(G->lead) || lead > G->lead)) G->lead = lead;
      const float spread = x1 > x0 ? (float)((e1 - e0) / (x1 - x0)) : INFINITY;
      if (x1 >= x0 && e1 >= e0 && (isnan(G->spread) || spread > G->spread)) G->spread = spread;
    }
    for (int r = 0; r < P; ++r) {
      val[(size_t)j * P + r] = caused[r];
      float *gap = r == root ? &out->group[g].root_gap : &out->group[g].gap;
      if (has_gap && (call[r].flags & ARCOLL_LATE_VALID) && call[r].gap > *gap)
        *gap = (float)call[r].gap;
    }
    if (has_gap) {
      const double lower = gap_lower_spread(P, root, call, a);
      if (lower >= 0) spread[g] += lower, ++nspread[g];
    }
  }
  for (int g = 0; g < out->ngroups; ++g) {
    arcoll_late_group_t *G = &out->group[g];
    /* the calls that judge g are all its site's, whatever their roots (with
     * one root per site: g's own).  Why: with a root that moves every call
     * (a panel broadcast, root c mod P) each group holds one call, the
     * persistent part of one call is that call's lateness, and arrival noise
     * listed new ranks late at every exchange - SMPI flat P = 64, 8 KiB
     * bcast, root c mod P, 0-200 us noise: 4, 14 then 23 ranks late and the
     * tolerant trees' trials on their roots' calls, where no rank was late.
     * A rank late in the tree of one root is late in the others' too:
     * lateness is the rank's, the tree only decides who waits. */
    int in[ARCOLL_LATE_SAMPLES], nin = 0;
    for (int j = 0; j < nsampled; ++j)
      if (group_of[j] >= 0 && out->group[group_of[j]].site == G->site) in[nin++] = j;
    double arr_sum = 0.0;
    int arr_n = 0;
    for (int h = 0; h < out->ngroups; ++h)
      if (out->group[h].site == G->site) arr_sum += spread[h], arr_n += nspread[h];
    for (int r = 0; r < P; ++r) {
      double v[ARCOLL_LATE_SAMPLES];
      for (int i = 0; i < nin; ++i) v[i] = val[(size_t)in[i] * P + r];
      rk[r].v = arcoll_late_persistent(v, nin), rk[r].rank = r;
    }
    qsort(rk, (size_t)P, sizeof *rk, cmp_desc);
    int n = 0;
    while (n < P && n < ARCOLL_LATE_LIST && rk[n].v > 0.0) {
      G->late[n].rank = rk[n].rank;
      G->late[n].lateness = (float)rk[n].v;
      ++n;
    }
    G->n = n;
    G->noise = n == ARCOLL_LATE_LIST && n < P ? (float)rk[n].v : 0.0f;
    const double arrival = arr_n ? arr_sum / arr_n : 0.0;
    if (arrival > G->noise) G->noise = (float)arrival;
  }
  rc = 0;
done:
  free(call), free(scratch), free(a), free(caused), free(val), free(rk);
  return rc;
}

int arcoll_late_group_put(arcoll_late_group_t *g, arcoll_late_entry_t e) {
  int k = 0;
  while (k < g->n && g->late[k].rank != e.rank) ++k;
  if (k < g->n && g->late[k].lateness >= e.lateness) return 0;
  if (k == g->n) { /* insert, dropping the smallest when full */
    if (g->n == ARCOLL_LATE_LIST && g->late[g->n - 1].lateness >= e.lateness) return 0;
    k = g->n < ARCOLL_LATE_LIST ? g->n++ : g->n - 1;
  }
  g->late[k] = e;
  for (; k > 0 && g->late[k].lateness > g->late[k - 1].lateness; --k) {
    const arcoll_late_entry_t x = g->late[k];
    g->late[k] = g->late[k - 1], g->late[k - 1] = x;
  }
  return 1;
}

double arcoll_late_threshold(double t_level, double noise) {
  const double n2 = 2.0 * noise;
  return t_level > n2 ? t_level : n2;
}

int arcoll_late_next_interval(int interval, int changed, int min_interval) {
  if (min_interval < ARCOLL_LATE_MIN_INTERVAL) min_interval = ARCOLL_LATE_MIN_INTERVAL;
  if (min_interval > ARCOLL_LATE_MAX_INTERVAL) min_interval = ARCOLL_LATE_MAX_INTERVAL;
  if (changed || interval < min_interval) return min_interval;
  const int next = 2 * interval;
  return next > ARCOLL_LATE_MAX_INTERVAL ? ARCOLL_LATE_MAX_INTERVAL : next;
}

int arcoll_late_exchanges_max(int up) { return up ? 1 : 0; }

int arcoll_late_gather_calls(int up, int *apply, double *missing_charged) {
  *missing_charged = up ? 1.0 : -1.0;
  *apply = up ? ARCOLL_LATE_APPLY_CALLS_UP : ARCOLL_LATE_APPLY_CALLS_DOWN;
  return up ? ARCOLL_LATE_GATHER_CALLS_UP : ARCOLL_LATE_GATHER_CALLS_DOWN;
}
