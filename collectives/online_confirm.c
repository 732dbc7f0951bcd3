/* The online selection's steady-state confirmation: whether a tie is
 * rerun, its calls, its decision; see online_confirm.h.  No MPI (the
 * barrier between its blocks is online_exchange.c's). */
#include "online_confirm.h"

#include <math.h>
#include <string.h>

/* Keep, per algorithm, the configuration with the shortest max period
 * measured (the confirmation's candidates, online_confirm.h).  Not `compressed`:
 * where it ties, it ties with its raw form (the data did not shrink), and
 * confirming that says nothing; a win is round 0's to keep (SMPI flat
 * P = 64, 32 KiB gather, eight late ranks: compressed's period 2.38 ms
 * took the confirmation from binomial's 2.87, whose steady period is
 * 1.80 ms against linear's 2.37). */
void arcoll_explorer_note_rival(arcoll_explorer_t *e, const arcoll_choice_t *c, double max_s) {
  if (!strcmp(c->algo->name, "compressed")) return;
  int i = 0;
  while (i < e->nrival && e->rival[i].algo != c->algo) ++i;
  if (i == ARCOLL_ONLINE_MAX_CANDIDATES) return;
  if (i == e->nrival) ++e->nrival;
  else if (!(max_s < e->rival_max_s[i])) return;
  e->rival[i] = *c;
  e->rival_max_s[i] = max_s;
}

int arcoll_explorer_model_agrees(const arcoll_choice_t *kept, const arcoll_choice_t *alt) {
  return kept->predicted_s > 0 && alt->predicted_s > 0 &&
         kept->predicted_s < (1.0 - ARCOLL_ONLINE_MAX_TOLERANCE) * alt->predicted_s;
}

double arcoll_explorer_confirm_within(MPI_Aint bytes) {
  return bytes < ARCOLL_ONLINE_SKEW_MAX_BYTES ? ARCOLL_ONLINE_CONFIRM_WITHIN
                                              : ARCOLL_ONLINE_CONFIRM_WITHIN_LARGE;
}

int arcoll_explorer_transient(const arcoll_explorer_t *e) {
  int fav = -1; /* the other algorithm the model predicted fastest */
  for (int i = 0; i < e->nrival; ++i)
    if (e->rival[i].algo != e->best.algo &&
        (fav < 0 || e->rival[i].predicted_s < e->rival[fav].predicted_s))
      fav = i;
  const double lim = e->best.predicted_s / ARCOLL_ONLINE_MODEL_OFF;
  /* a scatter's non-roots wait for their blocks: their mean time inside too */
  const int fast = e->best_max_s < lim || (e->coll == ARCOLL_COLL_SCATTER && e->best_s / e->P < lim);
  if (fav < 0 || e->bytes < ARCOLL_ONLINE_SKEW_MAX_BYTES || !(e->best.predicted_s > 0) || !fast ||
      !arcoll_explorer_model_agrees(&e->rival[fav], &e->best))
    return -1;
  return fav;
}

int arcoll_explorer_confirm_start(arcoll_explorer_t *e) {
  e->finished = 1;
  if (e->confirm_block < 2 || !isfinite(e->best_s)) return 1;
  int alt = arcoll_explorer_transient(e);
  e->confirm_transient = alt >= 0;
  if (e->confirm_transient) {
    /* the kept one's steady cost shows from its second call after the sync */
    if (e->confirm_block > ARCOLL_ONLINE_CONFIRM_TRANSIENT_BLOCK)
      e->confirm_block = ARCOLL_ONLINE_CONFIRM_TRANSIENT_BLOCK;
  } else {
    for (int i = 0; i < e->nrival; ++i) /* the shortest period among the other algorithms */
      if (e->rival[i].algo != e->best.algo && (alt < 0 || e->rival_max_s[i] < e->rival_max_s[alt]))
        alt = i;
    if (alt < 0 || !(e->rival_max_s[alt] < arcoll_explorer_confirm_within(e->bytes) * e->best_max_s) ||
        arcoll_explorer_model_agrees(&e->best, &e->rival[alt]))
      return 1;
  }
  e->finished = 0;
  e->confirming = 1;
  e->confirm_calls = 0;
  e->confirm_failed = 0;
  e->confirm_clock = 0.0;
  for (int j = 0; j < 4; ++j) e->confirm_exit[j] = 0.0;
  e->confirm_alt = e->rival[alt];
  return 0;
}

int arcoll_explorer_confirm_times(arcoll_explorer_t *e, const double *last_exit) {
  e->confirming = 0;
  e->finished = 1;
  e->confirm_span[0] = last_exit[1] - last_exit[0];
  e->confirm_span[1] = last_exit[3] - last_exit[2];
  if (isfinite(e->confirm_span[0]) && isfinite(e->confirm_span[1]) && e->confirm_span[0] > 0 &&
      e->confirm_span[1] < (1.0 - ARCOLL_ONLINE_MAX_TOLERANCE) * e->confirm_span[0]) {
    e->best = e->confirm_alt;
    e->confirm_switched = 1;
  }
  return 1;
}

int arcoll_explorer_record_exit(arcoll_explorer_t *e, double exit_s, int failed) {
  if (!e->confirming) return 0;
  const int B = e->confirm_block, i = e->confirm_calls++;
  ++e->runs;
  if (failed || !isfinite(exit_s)) e->confirm_failed = 1;
  /* the exits opening and closing each block's second half (its first
   * half fills the pipeline from the synchronised start) */
  if (i == B / 2 - 1) e->confirm_exit[0] = exit_s;
  if (i == B + B / 2 - 1) e->confirm_exit[2] = exit_s;
  if (i == B - 1) {
    e->confirm_exit[1] = exit_s;
    return 2;
  }
  if (i != 2 * B - 1) return 0;
  e->confirm_exit[3] = exit_s;
  if (e->confirm_failed)
    for (int j = 0; j < 4; ++j) e->confirm_exit[j] = INFINITY;
  return 1;
}
