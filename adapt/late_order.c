/*
 * Late-rank orders for the rooted collectives (bcast, scatter, reduce,
 * gather): which calls use one, and what one tree level costs.  The
 * tracking itself: late_tracker.h; decisions: lateness.h, order.h.
 */
#include <stdio.h>
#include <string.h>

#include "dispatch.h"
#include "late_chain.h"
#include "late_pattern.h"
#include "late_order.h"
#include "late_trees.h"
#include "online_noted.h"
#include "online_slots.h"
#include "site.h"
#include "tree.h"

int arcoll_late_applies(arcoll_coll_t c, MPI_Aint bytes) {
  const arcoll_mode_t mode = arcoll_g_cfg.mode[c];
  if (!(mode == ARCOLL_MODE_AUTO || mode == ARCOLL_MODE_ADAPTIVE) || arcoll_g_cfg.late_order == 0)
    return 0;
  if (arcoll_g_cfg.late_order > 0 || mode == ARCOLL_MODE_ADAPTIVE) return 1;
  /* unset: bcast and reduce of segmented sizes (adapt/LATENESS.md "Lateness") */
  return (c == ARCOLL_COLL_BCAST || c == ARCOLL_COLL_REDUCE) && bytes >= ARCOLL_LATE_DEFAULT_MIN_BYTES;
}

int arcoll_late_tree_warmup(const arcoll_comm_state_t *st, arcoll_coll_t c, MPI_Aint bytes,
                            int commutative, const arcoll_explorer_t *ex) {
  if (c != ARCOLL_COLL_REDUCE || !commutative || !arcoll_late_applies(c, bytes)) return ex->warmup;
  const arcoll_late_tracker_t *t = st->late[c];
  if (t && t->exchanges > 0) return ex->warmup; /* the order is there */
  const int at = arcoll_explorer_find(ex, arcoll_tolerant_tree(c, bytes));
  /* its first ordered call: the first exchange starts at call
   * ARCOLL_LATE_FIRST_EXCHANGE, applied ARCOLL_LATE_APPLY_CALLS_UP calls later */
  const long first = ARCOLL_LATE_FIRST_EXCHANGE + ARCOLL_LATE_APPLY_CALLS_UP - (t ? (long)t->ncalls : 0);
  if (at < 0 || at * ex->trials + ex->warmup >= first) return ex->warmup;
  return (int)(first - at * ex->trials);
}

/* A reduce's choice ch may run the tolerant tree, the one algorithm that
 * takes a reduce's late order (arcoll_late_algorithm): it is that tree, or
 * it is being measured online with the tree among the candidates.  Else the
 * lateness is not tracked and not exchanged: nothing would use it, and the
 * exchange's summary, applied at an agreed call, makes every rank wait
 * there for the root - the last to finish a reduce - so a streaming chain
 * starts afresh.  SMPI flat P = 256, 1 MiB, balanced, the chain / 8 KiB
 * from an ARCOLL_TUNING file: calls 4 and 5 took 1.20 and 1.39 s summed over
 * ranks against 0.238 for the others, and 0.238 with ARCOLL_LATE_ORDER=off
 * (bench/notes/adaptive-layer-2026-12-06.md, session 58).  Every rank has the
 * same choice and explorer state at a call, so all skip the same calls. */
static int reduce_tree_may_run(const arcoll_cached_t *ch, MPI_Aint bytes) {
  const char *tree = arcoll_tolerant_tree(ARCOLL_COLL_REDUCE, bytes);
  return !strcmp(ch->algo->name, tree) || (ch->ex && arcoll_explorer_find(ch->ex, tree) >= 0);
}

int arcoll_late_begin(arcoll_comm_state_t *st, arcoll_coll_t c, const arcoll_cached_t *ch,
                      int root, int usable, MPI_Aint bytes, arcoll_late_call_t *lc) {
  int rc = MPI_SUCCESS;
  memset(lc, 0, sizeof *lc);
  lc->root = root;
  if (!usable || !arcoll_late_applies(c, bytes) || !(ch->algo->flags & ARCOLL_ALGO_USES_ORDER))
    return MPI_SUCCESS;
  if (c == ARCOLL_COLL_REDUCE && arcoll_g_cfg.late_detach <= 0 && !reduce_tree_may_run(ch, bytes))
    return MPI_SUCCESS;
  if (!(lc->lt = arcoll_late(st, c, &rc))) return rc;
  rc = arcoll_late_enter(lc->lt, root, &lc->entry, &lc->order);
  lc->lt->detach = c == ARCOLL_COLL_REDUCE && arcoll_g_cfg.late_detach > 0;
  if (lc->lt->detach) lc->detached = arcoll_history_detached(&lc->lt->hist, lc->order);
  return rc;
}

int arcoll_late_end(const arcoll_comm_state_t *st, const arcoll_cached_t *ch, int root,
                    const void *ret_addr, const arcoll_late_call_t *lc) {
  if (!lc->lt) return MPI_SUCCESS;
  /* a rank is late when it arrives more than one tree level's time (the
   * model's time / ceil(log2 P); chain: / (P - 1)) after it was needed */
  const arcoll_tree_shape_t tree = ch->algo->tree; /* collectives/tree.h */
  const int P = st->P, chain = tree == ARCOLL_TREE_CHAIN, binary = tree == ARCOLL_TREE_BINARY;
  /* measured as over binomial positions: the other trees (knomial shares
   * binomial's first level; linear) and every reduce / gather algorithm */
  const int positional = tree != ARCOLL_TREE_NONE || lc->lt->up;
  int levels = arcoll_ceil_log2(P);
  if (binary) /* floor(log2 P) */
    while (levels > 1 && (1 << levels) > P) --levels;
  const double t_level = ch->predicted_s > 0 ? ch->predicted_s / (chain ? P - 1 : levels) : 0.0;
  /* the chain with late leaves: its leaves' parents are not pos - 1 */
  const int shape = lc->k > 0 ? ARCOLL_LATE_OTHER
                    : chain    ? ARCOLL_LATE_CHAIN
                    : binary   ? ARCOLL_LATE_BINARY
                    : positional ? 0 : ARCOLL_LATE_OTHER;
  return arcoll_late_exit(lc->lt, root, lc->entry, arcoll_site_key(ret_addr), lc->order, t_level,
                          shape | (lc->trial ? ARCOLL_LATE_TRIAL : 0), 1);
}

/* The chain with late leaves of this call (runs = 1: its chain of runs), late_chain.h: a bcast
 * from ARCOLL_STREAM_MIN_BYTES with a late order whose late set held; NULL when it does not
 * apply (too many late ranks or ranks, no chain algorithm). */
static const arcoll_cached_t *late_chain(arcoll_comm_state_t *st, arcoll_coll_t c, MPI_Aint bytes,
                                         const arcoll_late_tracker_t *t, arcoll_late_call_t *lc,
                                         int runs) {
  if (c != ARCOLL_COLL_BCAST || !lc->order || t->steady < ARCOLL_LATE_CHAIN_STEADY ||
      bytes < ARCOLL_STREAM_MIN_BYTES)
    return NULL;
  const int k = arcoll_late_chain_order(t->late_now, st->P, lc->root, t->chain_order);
  const arcoll_cached_t *alt = k > 0 ? arcoll_late_tolerant(st, c, bytes, "chain") : NULL;
  if (!alt) return NULL;
  lc->order = t->chain_order, lc->k = k, lc->trial = 0;
  lc->run = runs ? arcoll_late_chain_run(st->P - k) : 0;
  arcoll_note(c, alt->algo);
  return alt;
}

const arcoll_cached_t *arcoll_late_algorithm(arcoll_comm_state_t *st, arcoll_coll_t c,
                                             MPI_Aint bytes, const arcoll_cached_t *ch,
                                             arcoll_late_call_t *lc) {
  const arcoll_late_tracker_t *t = lc->lt;
  /* data toward the root: no tolerant tree in place of the choice - the
   * online selection measures its candidates with the late order (the
   * binomial tree with the late ranks on leaves wins on its period
   * where a rank is late; under arrival noise, which a summary of two calls
   * can mistake for lateness, rsag keeps winning: SMPI flat P = 256, 32 KiB
   * reduce, 200 calls, 0-200 us noise, loop 0.0817 s with binomial in its
   * place against 0.0602 without) */
  if (t && t->up) {
    /* ... and only the tolerant tree takes the order: elsewhere it moves
     * ranks away from their neighbours and saves nothing (a reduce-scatter
     * waits for every rank) - SMPI two-level tree, P = 64, 32 KiB, 0-200 us
     * noise, whose first summary listed 7 ranks late: rsag in that order
     * 3.4 ms per call, in rank order 1.0 */
    if (lc->order && strcmp(ch->algo->name, arcoll_tolerant_tree(c, bytes)))
      lc->order = NULL, lc->detached = NULL;
    return ch;
  }
  if (!t || !(lc->order || (ch->ex && (t->exchanges == 0 || t->late_seen)))) return ch;
  /* a late set that held: the chain with late leaves (late_chain.h) */
  if (arcoll_g_cfg.late_chain == ARCOLL_LATE_CHAIN_ON) {
    const arcoll_cached_t *alt = late_chain(st, c, bytes, t, lc, 0);
    if (alt) return alt;
  }
  /* the tolerant tree: arcoll_tolerant_tree's, binomial when a trial chose
   * it, either one during a trial (late_trees.h) */
  const char *tree = arcoll_tolerant_tree(c, bytes);
  if (strcmp(tree, "binomial")) {
    int which = t->trials.trees;
    if (which == ARCOLL_TREES_UNDECIDED)
      lc->trial = which = arcoll_late_trial_tree(t->ncalls, t->next_x, t->pending, t->exchanges);
    if (which == ARCOLL_TREES_SECOND) {
      tree = "binomial";
      /* binomial won the trial: once the late set held, the chain of runs in its place */
      const arcoll_cached_t *alt = arcoll_g_cfg.late_chain == ARCOLL_LATE_CHAIN_RUNS && !lc->trial
                                       ? late_chain(st, c, bytes, t, lc, 1) : NULL;
      if (alt) return alt;
    }
  }
  if (!strcmp(ch->algo->name, tree)) return ch;
  const arcoll_cached_t *alt = arcoll_late_tolerant(st, c, bytes, tree);
  if (!alt) {
    lc->trial = 0;
    return ch;
  }
  arcoll_note(c, alt->algo);
  return alt;
}

void arcoll_late_fit_exploration(const arcoll_comm_state_t *st, const arcoll_cached_t *chosen,
                                 const arcoll_late_call_t *lc) {
  const arcoll_late_tracker_t *t = lc->lt;
  arcoll_explorer_t *ex = chosen->ex;
  if (!t || !ex || ex->runs > 0 || t->exchanges != 1) return;
  const int print = arcoll_g_cfg.debug && st->me == 0;
  if (arcoll_explorer_moving_root(ex)) { /* online_slots.h */
    if (print) {
      fprintf(stderr, "arcoll: online: %s P=%d bytes=%lld: the root moves (first lateness summary): "
              "measuring", ex->cand[0].algo->collective, st->P, (long long)ex->bytes);
      for (int i = 0; i < ex->n; ++i)
        fprintf(stderr, " %s/%lld", ex->cand[i].algo->name, (long long)ex->cand[i].segment_bytes);
      fprintf(stderr, "\n");
    }
    return;
  }
  const int paced = !t->late_seen && arcoll_late_root_paced(t->sum, lc->root);
  const int stream = !t->late_seen && arcoll_late_near_stream(t->sum, lc->root);
  if (paced || stream || (!t->late_seen && arcoll_late_wavefront(t->sum, lc->root))) {
    /* noisy arrivals: the tree runs while the decision is pending (online.h `hold_at`) */
    const int noisy = !arcoll_late_quiet(t->sum, lc->root);
    if (arcoll_explorer_stream_only(ex, paced, noisy) && print)
      fprintf(stderr, "arcoll: online: %s P=%d bytes=%lld: calls %s%s (first lateness "
              "summary): measuring %s/%lld and %s/%lld only\n", ex->cand[0].algo->collective,
              st->P, (long long)ex->bytes,
              paced ? "paced by the root" : stream ? "back to back" : "a wavefront",
              noisy ? ", arrivals noisy" : "", ex->cand[0].algo->name,
              (long long)ex->cand[0].segment_bytes, ex->cand[1].algo->name,
              (long long)ex->cand[1].segment_bytes);
  } else if (arcoll_late_synchronised(t->sum, lc->root)) {
    const char *names[2] = {"", ""};
    const int n = arcoll_explorer_synchronised(ex, names, 2);
    if (n > 0 && print)
      fprintf(stderr, "arcoll: online: %s P=%d bytes=%lld: calls synchronised (first lateness "
              "summary): %s%s%s not measured\n", ex->cand[0].algo->collective, st->P,
              (long long)ex->bytes, names[0], n > 1 ? ", " : "", n > 1 ? names[1] : "");
  }
}

int arcoll_late_done(arcoll_comm_state_t *st, const arcoll_cached_t *chosen,
                     const arcoll_cached_t *ran, double t0, int rc) {
  if (ran == chosen) return arcoll_online_done(st, ran, t0, rc);
  arcoll_explorer_t *ex = chosen->ex;
  if (!ex) return rc;
  const double now = PMPI_Wtime();
  const arcoll_choice_t c = {ran->algo, ran->segment_bytes, ran->k, ran->predicted_s};
  arcoll_explorer_note_run(ex, &c, now - t0, ex->last_exit > 0 ? now - ex->last_exit : now - t0,
                           rc != MPI_SUCCESS);
  ex->last_exit = now;
  return rc;
}
