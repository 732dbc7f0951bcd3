/* Candidates measured whatever the model predicts; see online_slots.h. */
#include "online_slots.h"

#include <string.h>

#include "compress_decide.h"

int arcoll_explorer_find(const arcoll_explorer_t *e, const char *name) {
  for (int i = 0; i < e->n; ++i)
    if (!strcmp(e->cand[i].algo->name, name)) return i;
  return -1;
}

void arcoll_explorer_to_last(arcoll_explorer_t *e, int i) {
  const arcoll_choice_t x = e->cand[i];
  memmove(&e->cand[i], &e->cand[i + 1], sizeof x * (size_t)(e->n - 1 - i));
  e->cand[e->n - 1] = x;
  if (e->stream_at == i) e->stream_at = e->n - 1; /* it moves with its candidate */
  else if (e->stream_at > i) --e->stream_at;
}

void arcoll_explorer_add_exempt(arcoll_explorer_t *e, const arcoll_model_t *m, arcoll_coll_t c,
                                int P, MPI_Aint bytes, int commutative, int ncand, int no_tree) {
  /* the tolerant tree (arcoll_tolerant_tree); a bcast from
   * ARCOLL_STREAM_MIN_BYTES in any case - the calls before the first
   * lateness summary run it and stand for its runs, online_noted.h - in the
   * last slot when none is free and there are 3 or more */
  if ((c == ARCOLL_COLL_BCAST || c == ARCOLL_COLL_REDUCE || c == ARCOLL_COLL_SCATTER ||
       c == ARCOLL_COLL_GATHER) &&
      !no_tree && e->n > 0 &&
      (e->n < ncand || (c == ARCOLL_COLL_BCAST && bytes >= ARCOLL_STREAM_MIN_BYTES && ncand >= 3))) {
    const char *tree = arcoll_tolerant_tree(c, bytes);
    const int has = arcoll_explorer_find(e, tree) >= 0;
    arcoll_choice_t all[32];
    const int nall = has ? 0 : arcoll_select_candidates(m, c, P, bytes, commutative, all, 32);
    for (int i = 0; i < nall; ++i)
      if (!strcmp(all[i].algo->name, tree)) {
        e->cand[e->n < ncand ? e->n++ : e->n - 1] = all[i];
        break;
      }
  }
  /* bcast from ARCOLL_STREAM_MIN_BYTES, 3 or more candidates: the
   * configuration that streams best back to back (arcoll_select_stream) is
   * always measured, in the last slot that is
   * neither binomial nor the model's best: the model times one call alone
   * and ranks the chain last, while back to back a call costs its period
   * (SMPI flat P = 64, 32 KiB, balanced, 200 calls, summed inside: chain /
   * 8 KiB 0.433 s, the latency-ranked candidates 1.9-2.2 s) */
  int stream_at = -1;
  if (c == ARCOLL_COLL_BCAST && bytes >= ARCOLL_STREAM_MIN_BYTES && e->n > 0 && ncand >= 3) {
    arcoll_choice_t sc;
    if (arcoll_select_stream(m, c, P, bytes, &sc) == 0 &&
        (stream_at = arcoll_explorer_find(e, sc.algo->name)) < 0) {
      int at = e->n < ncand ? e->n++ : e->n - 1;
      while (at > 0 && e->n == ncand &&
             (!strcmp(e->cand[at].algo->name, arcoll_tolerant_tree(c, bytes)) ||
              e->cand[at].algo == e->cand[0].algo))
        --at;
      if (at > 0) e->cand[stream_at = at] = sc;
    }
  }
  /* bcast from ARCOLL_COMPRESS_MIN_BYTES (allgather, gather, alltoall:
   * (P-1) blocks from it), ARCOLL_COMPRESS not off: the compressed
   * algorithm is always measured (select.c leaves it out: its model is its
   * raw form's, the data decide); when the slots are full it replaces
   * the last-ranked algorithm that is neither binomial nor the best's own
   * (the unsegmented variant of the best stays) */
  if (((c == ARCOLL_COLL_BCAST && bytes >= ARCOLL_COMPRESS_MIN_BYTES) ||
       ((c == ARCOLL_COLL_ALLGATHER || c == ARCOLL_COLL_GATHER || c == ARCOLL_COLL_ALLTOALL) &&
        bytes * (P - 1) >= ARCOLL_COMPRESS_MIN_BYTES)) &&
      e->n > 0 && arcoll_compress_mode() != ARCOLL_COMPRESS_OFF) {
    const arcoll_algo_desc_t *z = arcoll_algorithm_find(c, "compressed");
    arcoll_choice_t zc;
    if (z && arcoll_select_config(m, c, z, P, bytes, &zc) == 0) {
      int at = e->n < ncand ? e->n++ : e->n - 1;
      while (at > 0 && e->n == ncand &&
             ((!strcmp(e->cand[at].algo->name, arcoll_tolerant_tree(c, bytes)) &&
               (ncand >= 3 || c != ARCOLL_COLL_BCAST)) ||
              e->cand[at].algo == e->cand[0].algo || at == stream_at))
        --at;
      if (at > 0) e->cand[at] = zc;
    }
  }
  if (stream_at > 0 && stream_at < e->n) e->stream_at = stream_at, e->warmup_stream = 1;
}

int arcoll_explorer_stream_only(arcoll_explorer_t *e, int tree_first, int hold_tree) {
  if (e->finished || e->round != 0 || e->runs > 0 || e->pending || e->confirming || !e->preset ||
      e->stream_at <= 0 || e->stream_at >= e->n - 1 || e->extra_at || e->check_at)
    return 0;
  const int T = e->trials, last = e->n - 1, at_stream = tree_first ? 1 : 0, at_tree = 1 - at_stream;
  const arcoll_choice_t stream = e->cand[e->stream_at];
  e->cand[at_tree] = e->cand[last]; /* the noted tree, its runs already recorded */
  e->cand[at_stream] = stream;
  memmove(&e->t[at_tree * T], &e->t[last * T], sizeof(double) * (size_t)T);
  memmove(&e->p[at_tree * T], &e->p[last * T], sizeof(double) * (size_t)T);
  e->n = 2;
  if (tree_first) { /* its runs count as done; the streaming one's warm-up comes before its block */
    e->done = T;
    e->preset = 0;
    e->stream_at = 1;
  } else {
    if (e->warmup < e->warmup_stream) e->warmup = e->warmup_stream;
    e->stream_at = e->warmup_stream = 0;
  }
  e->nspare = -1;
  e->refine = 0; /* no segment refinement: each size switched to refills the pipeline (online_slots.h) */
  e->best = e->cand[0];
  e->hold_at = hold_tree ? at_tree + 1 : 0;
  return 1;
}

void arcoll_explorer_remove(arcoll_explorer_t *e, int at) {
  if (at < 0 || at >= e->n) return;
  const int T = e->trials, after = e->n - at - 1;
  memmove(&e->cand[at], &e->cand[at + 1], sizeof(e->cand[0]) * (size_t)after);
  memmove(&e->t[at * T], &e->t[(at + 1) * T], sizeof(double) * (size_t)(after * T));
  memmove(&e->p[at * T], &e->p[(at + 1) * T], sizeof(double) * (size_t)(after * T));
  --e->n;
  if (e->once_from > at) --e->once_from;
  if (e->stream_at > at) --e->stream_at;
  if (e->extra_at > at) --e->extra_at;
  if (e->hold_at == at + 1) e->hold_at = 0;
  else if (e->hold_at > at + 1) --e->hold_at;
}

/* Round-0 candidate `at` (no run measured) out of e, to the spare ones
 * (measured if the model is off, readmit); its name into names[*dropped]
 * while there is room, and one more dropped. */
static void drop(arcoll_explorer_t *e, int at, const char **names, int nnames, int *dropped) {
  if (*dropped < nnames) names[*dropped] = e->cand[at].algo->name;
  ++*dropped;
  if (e->nspare >= 0 && e->nspare < ARCOLL_ONLINE_MAX_CANDIDATES) e->spare[e->nspare++] = e->cand[at];
  arcoll_explorer_remove(e, at);
}

int arcoll_explorer_synchronised(arcoll_explorer_t *e, const char **names, int nnames) {
  int dropped = 0;
  if (e->finished || e->round != 0 || e->runs > 0 || e->pending || e->confirming || e->extra_at ||
      e->check_at || e->n < 2 || !(e->cand[0].predicted_s > 0))
    return 0;
  const double lim = ARCOLL_ONLINE_MAX_SLOWDOWN * e->cand[0].predicted_s;
  if (e->stream_at > 0 && e->stream_at < e->n && e->cand[e->stream_at].predicted_s > lim) {
    drop(e, e->stream_at, names, nnames, &dropped);
    e->stream_at = e->warmup_stream = 0;
  }
  const int z = arcoll_explorer_find(e, "compressed");
  arcoll_choice_t floor_c;
  if (z > 0 && e->model &&
      arcoll_select_config(e->model, e->coll, e->cand[z].algo, e->P, 1, &floor_c) == 0 &&
      floor_c.predicted_s > lim)
    drop(e, z, names, nnames, &dropped);
  return dropped;
}

int arcoll_explorer_moving_root(arcoll_explorer_t *e) {
  if (e->coll != ARCOLL_COLL_BCAST || e->bytes < ARCOLL_STREAM_MIN_BYTES || !e->root_moved ||
      e->finished || e->round != 0 || e->runs > 0 || e->pending || e->confirming || e->extra_at ||
      e->check_at || !e->model || e->n < 3 || arcoll_explorer_find(e, "binomial") >= 0)
    return 0;
  const arcoll_algo_desc_t *a = arcoll_algorithm_find(e->coll, "binomial");
  arcoll_choice_t bc;
  if (!a || arcoll_select_config(e->model, e->coll, a, e->P, e->bytes, &bc) != 0) return 0;
  const char *tree = arcoll_tolerant_tree(e->coll, e->bytes);
  int at = e->n - 1; /* neither the best, the streaming one, the tree nor the noted one */
  while (at > 0 && (at == e->stream_at || !strcmp(e->cand[at].algo->name, tree) ||
                    (e->preset && at == e->n - 1)))
    --at;
  if (at <= 0) return 0;
  if (e->stream_at > 0 && at > e->stream_at) { /* the streaming one stays measured last: held */
    e->cand[at] = e->cand[e->stream_at];
    const int s = e->stream_at;
    e->stream_at = at;
    at = s;
  }
  e->cand[at] = bc;
  return 1;
}

/* the 2x rule's exception for a reduce's streaming chain (online_slots.h) */
int arcoll_explorer_chain_streams(const arcoll_model_t *m, arcoll_coll_t c, int P, MPI_Aint bytes,
                                  const arcoll_choice_t *cand, double best_s) {
  if (c != ARCOLL_COLL_REDUCE || bytes < ARCOLL_STREAM_MIN_BYTES || !(best_s > 0) ||
      cand->segment_bytes <= 0 || strcmp(cand->algo->name, "chain") != 0)
    return 0;
  const MPI_Aint s = arcoll_select_stream_segment(m, c, cand->algo, P, bytes);
  if (s <= 0 || s >= bytes) return 0; /* one segment: nothing streams within a call */
  const double period = arcoll_select_stream_occupancy(m, bytes, s) + (double)bytes * m->gamma;
  const double one = arcoll_model_predict(m, c, cand->algo, P, bytes, s, 0);
  return period < best_s && one > 0 && one - best_s <= ARCOLL_ONLINE_BUDGET_CALLS * best_s;
}
