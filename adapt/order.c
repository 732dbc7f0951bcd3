/* Lateness history and adaptive order; see order.h. */
#include "order.h"

#include <stdlib.h>
#include <string.h>

#include "tree.h"

int arcoll_history_init(arcoll_history_t *h, int P, double alpha) {
  memset(h, 0, sizeof(*h));
  if (P < 1 || !(alpha > 0.0 && alpha <= 1.0)) return -1;
  h->P = P;
  h->alpha = alpha;
  h->positions = malloc(sizeof(int) * (size_t)P);
  if (!h->positions) return -1;
  arcoll_binomial_positions_by_size(P, h->positions);
  return 0;
}

void arcoll_history_free(arcoll_history_t *h) {
  for (int i = 0; i < h->nentries; ++i) free(h->entries[i].ewma);
  free(h->positions);
  memset(h, 0, sizeof(*h));
}

static arcoll_site_entry_t *find_entry(const arcoll_history_t *h, uint64_t site, int root) {
  for (int i = 0; i < h->nentries; ++i)
    if (h->entries[i].site == site && h->entries[i].root == root)
      return (arcoll_site_entry_t *)&h->entries[i];
  return NULL;
}

int arcoll_history_apply(arcoll_history_t *h, int root, uint64_t global_site,
                         const double *wait) {
  arcoll_site_entry_t *e = find_entry(h, global_site, root);
  if (!e) {
    if (h->nentries < ARCOLL_MAX_ENTRIES) {
      e = &h->entries[h->nentries];
      e->ewma = malloc(sizeof(double) * (size_t)h->P);
      if (!e->ewma) return -1;
      ++h->nentries;
    } else { /* evict the least recently updated entry (deterministic) */
      e = &h->entries[0];
      for (int i = 1; i < h->nentries; ++i)
        if (h->entries[i].last < e->last) e = &h->entries[i];
    }
    e->site = global_site;
    e->root = root;
    e->nobs = 0;
  }
  for (int r = 0; r < h->P; ++r)
    e->ewma[r] = e->nobs == 0 ? wait[r] : (1.0 - h->alpha) * e->ewma[r] + h->alpha * wait[r];
  e->nobs++;
  e->last = h->ncalls;
  h->site[h->ncalls % ARCOLL_HISTORY_LEN] = global_site;
  h->root[h->ncalls % ARCOLL_HISTORY_LEN] = root;
  h->ncalls++;
  return 0;
}

/* entry i (absolute call index) of the ring; caller ensures it is remembered */
#define HS(i) (h->site[(i) % ARCOLL_HISTORY_LEN])
#define HR(i) (h->root[(i) % ARCOLL_HISTORY_LEN])

int arcoll_history_predict(const arcoll_history_t *h, uint64_t call_index, int root,
                           uint64_t *site) {
  const uint64_t n = h->ncalls;
  if (n == 0 || call_index < n) return 0;
  const uint64_t avail = n < ARCOLL_HISTORY_LEN ? n : ARCOLL_HISTORY_LEN;
  for (uint64_t p = 1; p <= ARCOLL_MAX_PERIOD && 2 * p + 1 <= avail + p; ++p) {
    /* confirm s[i] == s[i - p] for the last cnt calls, cnt >= p + 1 */
    uint64_t cnt = avail - p;
    if (cnt > 2 * p + 2) cnt = 2 * p + 2;
    if (cnt < p + 1) continue;
    int ok = 1;
    for (uint64_t j = 0; j < cnt && ok; ++j) {
      uint64_t i = n - 1 - j;
      ok = HS(i) == HS(i - p) && HR(i) == HR(i - p);
    }
    if (!ok) continue;
    uint64_t q = (call_index - n) / p + 1; /* smallest q with call_index - q p < n */
    uint64_t i = call_index - q * p;
    if (HR(i) == root) {
      *site = HS(i);
      return 1;
    }
    break; /* periodic but a different root: fall back */
  }
  for (uint64_t j = 0; j < avail; ++j) {
    uint64_t i = n - 1 - j;
    if (HR(i) == root) {
      *site = HS(i);
      return 1;
    }
  }
  return 0;
}

typedef struct {
  double lateness; /* entry after the root's, seconds (EWMA) */
  int rel;         /* (rank - root) mod P */
} late_rank_t;

static int cmp_lateness_desc(const void *a, const void *b) {
  const late_rank_t *x = a, *y = b;
  if (x->lateness != y->lateness) return x->lateness > y->lateness ? -1 : 1;
  return x->rel - y->rel;
}

int arcoll_history_order(const arcoll_history_t *h, uint64_t call_index, int root,
                         int adaptive, double min_lateness_s, int *order) {
  const int P = h->P;
  for (int i = 0; i < P; ++i) order[i] = (root + i) % P;
  if (!adaptive || P <= 2) return 0;
  uint64_t site;
  if (!arcoll_history_predict(h, call_index, root, &site)) return 0;
  const arcoll_site_entry_t *e = find_entry(h, site, root);
  if (!e) return 0;
  late_rank_t *late = malloc(sizeof(*late) * (size_t)P);
  unsigned char *reserved = calloc((size_t)P, 1);
  if (!late || !reserved) {
    free(late), free(reserved);
    return -1;
  }
  /* lateness = how long after the root a rank entered (earliness of the
   * root - earliness of the rank, seconds) */
  const double w_root = e->ewma[root];
  int nlate = 0;
  for (int i = 1; i < P; ++i) {
    const double l = w_root - e->ewma[(root + i) % P];
    if (l > min_lateness_s && l > 0) late[nlate].lateness = l, late[nlate].rel = i, ++nlate;
  }
  qsort(late, (size_t)nlate, sizeof(*late), cmp_lateness_desc);
  /* Latest first: a late rank already on a free leaf stays; otherwise it
   * swaps places with whoever holds the smallest free subtree
   * (h->positions is sorted by subtree size, descending). */
  int next = P - 1, moved = 0;
  for (int j = 0; j < nlate; ++j) {
    const int rank = (root + late[j].rel) % P;
    int p = -1;
    for (int q = 1; q < P; ++q)
      if (order[q] == rank) p = q;
    if (arcoll_binomial_subtree_size(p, P) == 1 && !reserved[p]) {
      reserved[p] = 1;
      continue;
    }
    while (next > 0 && reserved[h->positions[next]]) --next;
    if (next <= 0) break;
    const int q = h->positions[next];
    if (arcoll_binomial_subtree_size(q, P) >= arcoll_binomial_subtree_size(p, P)) break;
    order[p] = order[q];
    order[q] = rank;
    reserved[q] = 1;
    moved = 1;
  }
  free(late);
  free(reserved);
  return nlate > 0 || moved;
}
