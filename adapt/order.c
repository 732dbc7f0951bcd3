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
  h->scratch = malloc(sizeof(int) * (size_t)P);
  h->derived = malloc(sizeof(int) * (size_t)P);
  h->derived_root = -1;
  if (!h->positions || !h->scratch || !h->derived) {
    free(h->positions), free(h->scratch), free(h->derived);
    return -1;
  }
  arcoll_binomial_positions_by_size(P, h->positions);
  return 0;
}

/* Slot preference for data flowing toward the root: leaves nearest the root
 * last in the list (the latest rank takes the last free one), i.e. sorted by
 * subtree size descending, then depth (popcount) descending, then position
 * descending: the list ends ... 5, 3, 1. */
static const arcoll_history_t *g_sort_h;
static int cmp_up(const void *x, const void *y) {
  const int a = *(const int *)x, b = *(const int *)y, P = g_sort_h->P;
  const int sa = arcoll_binomial_subtree_size(a, P), sb = arcoll_binomial_subtree_size(b, P);
  if (sa != sb) return sb - sa;
  const int da = __builtin_popcount((unsigned)a), db = __builtin_popcount((unsigned)b);
  if (da != db) return db - da;
  return b - a;
}

void arcoll_history_set_up(arcoll_history_t *h) {
  h->up = 1;
  for (int i = 0; i < h->P; ++i) h->positions[i] = i;
  g_sort_h = h; /* qsort has no context argument; single-threaded use at set-up */
  qsort(h->positions + 1, (size_t)h->P - 1, sizeof(int), cmp_up);
}

static void entry_free(arcoll_site_entry_t *e) {
  free(e->ewma), free(e->late), free(e->order), free(e->detached);
  e->ewma = NULL, e->late = NULL, e->order = NULL, e->detached = NULL;
}

void arcoll_history_free(arcoll_history_t *h) {
  for (int i = 0; i < h->nentries; ++i) entry_free(&h->entries[i]);
  free(h->positions);
  free(h->scratch);
  free(h->derived);
  memset(h, 0, sizeof(*h));
}

static arcoll_site_entry_t *find_entry(const arcoll_history_t *h, uint64_t site, int root) {
  for (int i = 0; i < h->nentries; ++i)
    if (h->entries[i].site == site && h->entries[i].root == root)
      return (arcoll_site_entry_t *)&h->entries[i];
  return NULL;
}

static arcoll_site_entry_t *new_entry(arcoll_history_t *h, uint64_t site, int root) {
  arcoll_site_entry_t *e;
  if (h->nentries < ARCOLL_MAX_ENTRIES) {
    e = &h->entries[h->nentries];
    memset(e, 0, sizeof *e);
    e->ewma = calloc((size_t)h->P, sizeof(double));
    e->late = calloc((size_t)h->P, 1);
    e->order = malloc(sizeof(int) * (size_t)h->P);
    e->detached = calloc((size_t)h->P, 1);
    if (!e->ewma || !e->late || !e->order || !e->detached) {
      entry_free(e);
      return NULL;
    }
    ++h->nentries;
  } else { /* evict the least recently updated entry (deterministic) */
    e = &h->entries[0];
    for (int i = 1; i < h->nentries; ++i)
      if (h->entries[i].last < e->last) e = &h->entries[i];
    memset(e->late, 0, (size_t)h->P);
  }
  e->site = site;
  e->root = root;
  e->nobs = 0;
  e->nlate = 0;
  e->ndetached = 0;
  e->seeded = 0;
  return e;
}

/* Latest first: a late rank already on a free leaf stays; otherwise it swaps
 * places with whoever holds a free leaf of its own subtree, else the best
 * free slot of h->positions (toward the leaves: the smallest subtree, the
 * list is sorted by subtree size, descending; toward the root: the leaf
 * nearest the root). */
static void build_order(const arcoll_history_t *h, arcoll_site_entry_t *e) {
  const int P = h->P, root = e->root;
  int *late = h->scratch, nlate = 0;
  for (int i = 0; i < P; ++i) e->order[i] = (root + i) % P;
  for (int r = 0; r < P; ++r)
    if (e->late[r] && r != root) late[nlate++] = r; /* the root: late at another root's calls */
  for (int i = 1; i < nlate; ++i) /* insertion sort: latest first, ties by rank */
    for (int j = i; j > 0 && e->ewma[late[j]] > e->ewma[late[j - 1]]; --j) {
      const int t = late[j];
      late[j] = late[j - 1], late[j - 1] = t;
    }
  unsigned char *reserved = P > 0 ? calloc((size_t)P, 1) : NULL;
  if (!reserved) return; /* classic order: still a valid permutation */
  /* pass 1: a late rank already on a leaf stays there */
  for (int j = 0; j < nlate; ++j) {
    const int cur = (late[j] - root + P) % P;
    if (arcoll_binomial_subtree_size(cur, P) == 1) reserved[cur] = 1, late[j] = -1;
  }
  /* pass 2: the others, latest first, swap places with whoever holds the
   * best free slot of the late rank's own subtree (positions [cur, cur +
   * size)), so the rank that takes its inner place is one of its neighbours
   * in the order - on a machine whose ranks are numbered by node and switch,
   * the subtree stays where it was (SMPI two-level tree P = 64, 32 KiB bcast,
   * rank 24 late: swapping with position 63 put rank 63, another leaf
   * switch, at the head of ranks 25..31).  Toward the leaves, the shallowest
   * free leaf whose parent has no other child (cur + 1 in a subtree of 2,
   * else cur + 3, cur + 7 ...): near the late rank in the order, so its
   * parent is too - the last leaf of a subtree across two switches took its
   * data across the uplinks: two-level tree P = 64, 32 KiB bcast, root c mod
   * P, 200 calls, summed inside: rank 24 late 15.86 -> 15.58 s, eight late
   * 15.62 -> 14.81; root 0, rank 32 late by 3 ms 6.58 -> 3.51 - and not
   * cur + 1: that promotes to the head the rank the late one held (its only
   * child in the rank-order binary tree of the calls before the first
   * summary), which a streaming root leaves calls behind and which then held
   * the whole subtree 8 ms at the first binomial call (flat P = 64, seed
   * 001's rank 32: 0.76 -> 1.16 s).  Else, and toward the root, the shallowest free
   * leaf (cur + 1 when free): every ancestor of the late rank forwards its
   * data after it arrives, and the deepest leaf has the most (SMPI two-level
   * tree, P = 256, 32 KiB reduce, rank 96 late, 200 calls, loop: position
   * 127, depth 7, 0.3958 s against 0.3318 without orders).  The leaf nearest
   * the root (positions 1, 3, 5, 9 ...), which this rule used before, let
   * only the root wait, but the rank swapped in from the root's node took
   * the late one's subtree across the network (two-level tree, P = 64, loop:
   * one late 0.462 s against 0.235 without orders).  Else (no free leaf
   * there) the end of h->positions */
  int next = P - 1;
  for (int j = 0; j < nlate; ++j) {
    if (late[j] < 0) continue;
    int cur = 1; /* where it is now: an earlier swap may have displaced it */
    while (e->order[cur] != late[j]) ++cur;
    int q = -1;
    const int end = cur + arcoll_binomial_subtree_size(cur, P);
    if (!h->up) /* the shallowest free leaf whose parent has no other child */
      for (int x = cur + 1; x < end && q < 0; ++x)
        if (!reserved[x] && arcoll_binomial_subtree_size(x, P) == 1 &&
            arcoll_binomial_subtree_size(x - 1, P) == 2)
          q = x;
    if (q < 0)
      for (int x = cur + 1; x < end; ++x)
        if (!reserved[x] && arcoll_binomial_subtree_size(x, P) == 1 &&
            (q < 0 || __builtin_popcount((unsigned)x) < __builtin_popcount((unsigned)q)))
          q = x;
    if (q < 0) {
      while (next > 0 && reserved[h->positions[next]]) --next;
      if (next <= 0) break;
      q = h->positions[next];
    }
    if (arcoll_binomial_subtree_size(q, P) > arcoll_binomial_subtree_size(cur, P)) break;
    const int displaced = e->order[q];
    e->order[q] = late[j];
    e->order[cur] = displaced;
    reserved[q] = 1;
  }
  free(reserved);
}

/* Toward the root: the positions of e->order whose late rank is detached (order.h
 * arcoll_history_detached): latest first, while the i-th (from 1) has EWMA >= i t_level.
 * Set at every fold (the EWMAs move while the order stays). */
static void detach(const arcoll_history_t *h, arcoll_site_entry_t *e) {
  e->ndetached = 0;
  memset(e->detached, 0, (size_t)h->P);
  if (!h->up || e->nlate == 0 || !(e->t_level > 0)) return;
  for (;;) { /* the latest not yet detached (ties: the lower position), O(nlate P) */
    int best = -1;
    for (int pos = 1; pos < h->P; ++pos) {
      const int r = e->order[pos];
      if (e->late[r] && !e->detached[pos] && (best < 0 || e->ewma[r] > e->ewma[e->order[best]])) best = pos;
    }
    if (best < 0 || (e->ndetached + 1) * e->t_level > e->ewma[e->order[best]]) return;
    e->detached[best] = 1;
    ++e->ndetached;
  }
}

/* The entry of `root` folded last (seeded_only: among the seeded entries
 * no summary has matched yet - the earlier run's latest), or NULL. */
static arcoll_site_entry_t *latest_entry(const arcoll_history_t *h, int root, int seeded_only) {
  const arcoll_site_entry_t *e = NULL;
  for (int i = 0; i < h->nentries; ++i)
    if ((h->entries[i].seeded || !seeded_only) && h->entries[i].root == root &&
        (!e || h->entries[i].last > e->last))
      e = &h->entries[i];
  return (arcoll_site_entry_t *)e;
}

/* adopt: a group whose (site, root) has no entry takes over the root's
 * unmatched seeded entry (latest_entry, arcoll_history_seed). */
static int fold(arcoll_history_t *h, const arcoll_late_group_t *g, int *changed, int adopt) {
  const int P = h->P;
  if (changed) *changed = 0;
  if (g->root < 0 || g->root >= P) return 0;
  arcoll_site_entry_t *e = find_entry(h, g->site, g->root);
  if (!e && adopt && (e = latest_entry(h, g->root, 1))) e->site = g->site;
  const int was_seeded = e && adopt && e->seeded;
  if (was_seeded) e->seeded = 0;
  if (!e && !(e = new_entry(h, g->site, g->root))) return -1;
  /* the first summary of this run replaces a seed (the earlier run's
   * figures are a prior, not a sample of this one) */
  const double a = e->nobs == 0 || was_seeded ? 1.0 : h->alpha;
  for (int r = 0; r < P; ++r) e->ewma[r] *= 1.0 - a;
  for (int i = 0; i < g->n && i < ARCOLL_LATE_LIST; ++i)
    if (g->late[i].rank >= 0 && g->late[i].rank < P) e->ewma[g->late[i].rank] += a * g->late[i].lateness;
  e->noise = (1.0 - a) * e->noise + a * g->noise;
  e->t_level = g->t_level;
  e->nobs++;
  e->last = h->nfolds++;
  const double thr = arcoll_late_threshold(e->t_level, e->noise);
  int nlate = 0, diff = 0;
  for (int r = 0; r < P; ++r) {
    const unsigned char was = e->late[r];
    const unsigned char is = r != e->root && e->ewma[r] > (was ? 0.5 * thr : thr);
    diff |= was != is;
    e->late[r] = is;
    nlate += is;
  }
  e->nlate = nlate;
  if (nlate > 0 && (diff || e->nobs == 1)) build_order(h, e);
  detach(h, e);
  if (changed) *changed = diff;
  return 0;
}

int arcoll_history_fold(arcoll_history_t *h, const arcoll_late_group_t *g, int *changed) {
  return fold(h, g, changed, 1);
}

int arcoll_history_hold_missing(const arcoll_history_t *h, const unsigned char *present,
                                arcoll_late_group_t *g) {
  const arcoll_site_entry_t *e = find_entry(h, g->site, g->root);
  int n = 0;
  if (!e) e = latest_entry(h, g->root, 1); /* the site this group will take over */
  if (!e || e->nlate == 0) return 0;
  for (int r = 0; r < h->P; ++r)
    if (e->late[r] && !present[r]) {
      const arcoll_late_entry_t x = {r, (float)e->ewma[r]};
      n += arcoll_late_group_put(g, x);
    }
  return n;
}

/* Smallest period p <= ARCOLL_MAX_PERIOD of the remembered (site, root)
 * sequence in the call index (every call agrees with the first of its
 * residue mod p, at least p + 1 calls remembered), 0 if none: O(MAX_PERIOD x
 * LEN), once per pushed call. */
static int find_period(const arcoll_history_t *h) {
  const uint64_t n = h->nseq < ARCOLL_HISTORY_LEN ? h->nseq : ARCOLL_HISTORY_LEN;
  for (uint64_t p = 1; p <= ARCOLL_MAX_PERIOD && n >= p + 1; ++p) {
    int first[ARCOLL_MAX_PERIOD], ok = 1;
    for (uint64_t q = 0; q < p; ++q) first[q] = -1;
    for (uint64_t i = 0; i < n && ok; ++i) {
      const uint64_t q = h->seq_call[i] % p;
      if (first[q] < 0) first[q] = (int)i;
      else ok = h->seq_site[i] == h->seq_site[first[q]] && h->seq_root[i] == h->seq_root[first[q]];
    }
    if (ok) return (int)p;
  }
  return 0;
}

void arcoll_history_push(arcoll_history_t *h, uint64_t call, uint64_t site, int root) {
  const uint64_t i = h->nseq++ % ARCOLL_HISTORY_LEN;
  h->seq_call[i] = call;
  h->seq_site[i] = site;
  h->seq_root[i] = root;
  h->period = find_period(h);
}

int arcoll_history_predict(const arcoll_history_t *h, uint64_t call, int root, uint64_t *site) {
  const uint64_t n = h->nseq < ARCOLL_HISTORY_LEN ? h->nseq : ARCOLL_HISTORY_LEN;
  if (n == 0) return 0;
  for (uint64_t j = 0; j < n; ++j) { /* newest first */
    const uint64_t i = (h->nseq - 1 - j) % ARCOLL_HISTORY_LEN;
    if (h->period > 0 && h->seq_call[i] % (uint64_t)h->period != call % (uint64_t)h->period) continue;
    if (h->seq_root[i] != root) break; /* periodic: this residue has another root */
    *site = h->seq_site[i];
    return 1;
  }
  for (uint64_t j = 0; j < n; ++j) { /* the last site seen with this root */
    const uint64_t i = (h->nseq - 1 - j) % ARCOLL_HISTORY_LEN;
    if (h->seq_root[i] == root) {
      *site = h->seq_site[i];
      return 1;
    }
  }
  return 0;
}

/* The entry of `site` folded last when the site's entries have two roots
 * or more (its root moves), else NULL. */
static const arcoll_site_entry_t *moved_site_entry(const arcoll_history_t *h, uint64_t site) {
  const arcoll_site_entry_t *e = NULL;
  int moved = 0;
  for (int i = 0; i < h->nentries; ++i) {
    const arcoll_site_entry_t *x = &h->entries[i];
    if (x->site != site || x->seeded) continue;
    moved |= e && x->root != e->root;
    if (!e || x->last > e->last) e = x;
  }
  return moved ? e : NULL;
}

/* src's late set but `root` on the order of `root` (arcoll_history_order),
 * cached: src's last fold names its state, every fold has its own. */
static const int *derived_order(arcoll_history_t *h, const arcoll_site_entry_t *src, int root) {
  if (h->derived_root != root || h->derived_last != src->last) {
    arcoll_site_entry_t d = *src; /* build_order reads its late set, writes its order */
    d.root = root;
    d.order = h->derived;
    h->derived_nlate = src->nlate - src->late[root];
    if (h->derived_nlate > 0) build_order(h, &d);
    h->derived_root = root, h->derived_last = src->last;
  }
  return h->derived_nlate > 0 ? h->derived : NULL;
}

const int *arcoll_history_order(arcoll_history_t *h, uint64_t call, int root) {
  uint64_t site;
  if (h->nentries == 0 || h->P <= 2) return NULL;
  const arcoll_site_entry_t *e = NULL;
  const int predicted = arcoll_history_predict(h, call, root, &site);
  if (predicted) e = find_entry(h, site, root);
  else /* no sampled call of this root yet (seeded entries): the latest folded */
    e = latest_entry(h, root, 0);
  if (e) return e->nlate > 0 ? e->order : NULL;
  if (!predicted && h->nseq > 0) site = h->seq_site[(h->nseq - 1) % ARCOLL_HISTORY_LEN];
  const arcoll_site_entry_t *src = h->nseq > 0 ? moved_site_entry(h, site) : NULL;
  return src && src->nlate > 0 ? derived_order(h, src, root) : NULL;
}

const unsigned char *arcoll_history_detached(const arcoll_history_t *h, const int *order) {
  for (int i = 0; order && i < h->nentries; ++i)
    if (h->entries[i].order == order) return h->entries[i].ndetached > 0 ? h->entries[i].detached : NULL;
  return NULL;
}

int arcoll_history_seed(arcoll_history_t *h, const arcoll_late_group_t *g) {
  if (g->root < 0 || g->root >= h->P) return 0;
  if (fold(h, g, NULL, 0) != 0) return -1;
  arcoll_site_entry_t *e = find_entry(h, g->site, g->root);
  if (e) e->seeded = 1;
  int added = 0;
  for (int i = 0; e && i < g->n && i < ARCOLL_LATE_LIST; ++i) {
    const int r = g->late[i].rank;
    if (r >= 0 && r < h->P && r != g->root && !e->late[r]) e->late[r] = 1, ++e->nlate, added = 1;
  }
  if (added) build_order(h, e);
  if (e) detach(h, e);
  return 0;
}

int arcoll_history_late_any(const arcoll_history_t *h, unsigned char *late_any) {
  int n = 0;
  memset(late_any, 0, (size_t)h->P);
  for (int i = 0; i < h->nentries; ++i)
    for (int r = 0; r < h->P; ++r)
      if (h->entries[i].late[r] && !late_any[r]) late_any[r] = 1, ++n;
  return n;
}
