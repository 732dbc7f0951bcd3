/* Lateness measure, summary, thresholds and exchange schedule; see lateness.h. */
#include "lateness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int parent_pos(int p, int chain) { return chain ? p - 1 : (p & (p - 1)); }

int arcoll_late_caused(int P, int root, const arcoll_late_record_t *rec, double missing_s,
                       int *scratch, double *a, double *caused) {
  int *rank_at = scratch;       /* position -> rank, -1 unknown */
  int *missing = scratch + P;   /* ranks without a record */
  int *free_pos = scratch + 2 * P;
  int nmiss = 0, nfree = 0, chain = 0;
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
    if (r == root || t_level == 0.0) t_level = rec[r].t_level, chain = rec[r].flags & ARCOLL_LATE_CHAIN;
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
  /* a(p): when position p had the data; a missing rank entered at least
   * missing_s after it could have had it */
  for (int p = 0; p < P; ++p) {
    const int r = rank_at[p];
    const int valid = rec[r].flags & ARCOLL_LATE_VALID;
    if (p == 0) {
      a[0] = valid ? rec[r].entry : 0.0;
      continue;
    }
    const double ready = a[parent_pos(p, chain)] + t_level;
    if (!valid) {
      caused[r] = missing_s;
      a[p] = ready + missing_s;
    } else if (rec[r].entry > ready) {
      caused[r] = rec[r].entry - ready;
      a[p] = rec[r].entry;
    } else {
      a[p] = ready;
    }
  }
  /* a missing root: nothing is known about when the data started */
  if (!(rec[root].flags & ARCOLL_LATE_VALID))
    for (int r = 0; r < P; ++r) caused[r] = r == root ? missing_s : 0.0;
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
  double *a = malloc(sizeof(double) * (size_t)P), *caused = malloc(sizeof(double) * (size_t)P);
  double *sum = calloc((size_t)P * ARCOLL_LATE_SAMPLES, sizeof(double));
  int ncalls[ARCOLL_LATE_SAMPLES] = {0};
  ranked_t *rk = malloc(sizeof(*rk) * (size_t)P);
  int rc = -1;
  if (!call || !scratch || !a || !caused || !sum || !rk) goto done;
  for (int j = 0; j < nsampled; ++j) {
    uint64_t site = 0;
    float t_level = 0.0f;
    const int root = call_root(P, nsampled, rec, j, &site, &t_level);
    if (root < 0) continue; /* nobody recorded this call */
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
      ++out->ngroups;
    }
    ++ncalls[g];
    for (int r = 0; r < P; ++r) sum[(size_t)g * P + r] += caused[r];
  }
  for (int g = 0; g < out->ngroups; ++g) {
    arcoll_late_group_t *G = &out->group[g];
    for (int r = 0; r < P; ++r) rk[r].v = sum[(size_t)g * P + r] / ncalls[g], rk[r].rank = r;
    qsort(rk, (size_t)P, sizeof *rk, cmp_desc);
    int n = 0;
    while (n < P && n < ARCOLL_LATE_LIST && rk[n].v > 0.0) {
      G->late[n].rank = rk[n].rank;
      G->late[n].lateness = (float)rk[n].v;
      ++n;
    }
    G->n = n;
    G->noise = n == ARCOLL_LATE_LIST && n < P ? (float)rk[n].v : 0.0f;
  }
  rc = 0;
done:
  free(call), free(scratch), free(a), free(caused), free(sum), free(rk);
  return rc;
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

int arcoll_late_coordinator(int P, const arcoll_late_summary_t *s, const unsigned char *late_any) {
  for (int r = P - 1; r >= 0; --r) {
    int excluded = late_any && late_any[r];
    for (int g = 0; g < s->ngroups && !excluded; ++g) excluded = s->group[g].root == r;
    if (!excluded) return r;
  }
  return P - 1;
}

/* Wire format: first_call, nsampled, ngroups, seq_site[nsampled],
 * seq_root[nsampled], then per group site, root, n, t_level, noise and its n
 * entries (native byte order: the ranks of one job share it). */
#define PUT(x) (memcpy(p, &(x), sizeof(x)), p += sizeof(x))
#define GET(x) (memcpy(&(x), p, sizeof(x)), p += sizeof(x))

int arcoll_late_pack(const arcoll_late_summary_t *s, unsigned char *buf) {
  unsigned char *p = buf;
  PUT(s->first_call);
  PUT(s->nsampled);
  PUT(s->ngroups);
  for (int j = 0; j < s->nsampled; ++j) PUT(s->seq_site[j]);
  for (int j = 0; j < s->nsampled; ++j) PUT(s->seq_root[j]);
  for (int g = 0; g < s->ngroups; ++g) {
    const arcoll_late_group_t *G = &s->group[g];
    PUT(G->site);
    PUT(G->root);
    PUT(G->n);
    PUT(G->t_level);
    PUT(G->noise);
    memcpy(p, G->late, sizeof(G->late[0]) * (size_t)G->n);
    p += sizeof(G->late[0]) * (size_t)G->n;
  }
  return (int)(p - buf);
}

int arcoll_late_unpack(const unsigned char *buf, int bytes, arcoll_late_summary_t *s) {
  const unsigned char *p = buf, *end = buf + bytes;
  memset(s, 0, sizeof *s);
  if (bytes < 16) return -1;
  GET(s->first_call);
  GET(s->nsampled);
  GET(s->ngroups);
  if (s->nsampled < 0 || s->nsampled > ARCOLL_LATE_SAMPLES || s->ngroups < 0 ||
      s->ngroups > ARCOLL_LATE_SAMPLES || p + 12 * (size_t)s->nsampled > end)
    return -1;
  for (int j = 0; j < s->nsampled; ++j) GET(s->seq_site[j]);
  for (int j = 0; j < s->nsampled; ++j) GET(s->seq_root[j]);
  for (int j = s->nsampled; j < ARCOLL_LATE_SAMPLES; ++j) s->seq_root[j] = -1;
  for (int g = 0; g < s->ngroups; ++g) {
    arcoll_late_group_t *G = &s->group[g];
    if (p + 24 > end) return -1;
    GET(G->site);
    GET(G->root);
    GET(G->n);
    GET(G->t_level);
    GET(G->noise);
    if (G->n < 0 || G->n > ARCOLL_LATE_LIST || p + sizeof(G->late[0]) * (size_t)G->n > end) return -1;
    memcpy(G->late, p, sizeof(G->late[0]) * (size_t)G->n);
    p += sizeof(G->late[0]) * (size_t)G->n;
  }
  return p == end ? 0 : -1;
}
