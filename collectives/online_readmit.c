/* Round 0's readmission of the candidates the model dropped; see
 * online_readmit.h. */
#include "online_readmit.h"

#include <math.h>
#include <string.h>

double arcoll_explorer_readmit_cost(const arcoll_explorer_t *e, const arcoll_choice_t *c) {
  if (!(e->best.predicted_s > 0) || !(c->predicted_s > 0) || !isfinite(e->best_s)) return INFINITY;
  return e->best_s * (c->predicted_s / e->best.predicted_s - 1.0);
}

/* The readmission is over: nothing more queued (init's trials are back
 * since the decision: online.h init_trials). */
static int readmit_end(arcoll_explorer_t *e) {
  e->readmitting = 0;
  e->nspare = -1;
  return 0;
}

/* The queue's head as a pass of one run when the budget left pays its
 * expected excess; else the end: the queue is in increasing prediction, so
 * no later candidate's expected excess is smaller. */
static int readmit_next(arcoll_explorer_t *e) {
  const double left = ARCOLL_ONLINE_BUDGET_CALLS * e->best_s - e->excess_s;
  if (e->nspare <= 0 || !(left > 0) || !(arcoll_explorer_readmit_cost(e, &e->spare[0]) <= left))
    return readmit_end(e);
  e->cand[0] = e->spare[0];
  memmove(&e->spare[0], &e->spare[1], sizeof(e->spare[0]) * (size_t)(e->nspare - 1));
  --e->nspare;
  e->n = 1;
  e->trials = 1;
  e->done = 0;
  return 1;
}

/* The best's measured / predicted ratio (time inside, mean over ranks) when
 * round 0 shows the model far off (header) and no arrival skew; else 0. */
static double model_off_ratio(const arcoll_explorer_t *e, double best_min_s) {
  const double pred = e->best.predicted_s, meas = e->best_s / (e->P > 0 ? e->P : 1);
  if (!(pred > 0) || !isfinite(meas) || !(meas > ARCOLL_ONLINE_MODEL_OFF * pred)) return 0;
  if (e->best_max_s > ARCOLL_ONLINE_SKEW_PERIODS * fmax(best_min_s, meas)) return 0; /* skew (ONLINE.md) */
  return meas / pred;
}

/* 1 when round 0's measured best is the one the model predicted fastest
 * among its candidates and another measured one was predicted slower: the
 * model is off in scale, not in order, and nothing it dropped as over 2x
 * slower is expected to win (header).  Candidates tied in prediction (e.g.
 * recursive doubling and Bruck) tell nothing of the order. */
static int model_order_held(const arcoll_explorer_t *e) {
  double fastest = INFINITY, slowest = 0.0; /* predictions of the measured ones */
  for (int i = 0; i < e->n; ++i) {
    if (!isfinite(e->measured_s[i]) || !(e->cand[i].predicted_s > 0)) continue;
    fastest = fmin(fastest, e->cand[i].predicted_s);
    slowest = fmax(slowest, e->cand[i].predicted_s);
  }
  return slowest > fastest && e->best.predicted_s > 0 && e->best.predicted_s <= fastest;
}

int arcoll_explorer_readmit(arcoll_explorer_t *e, double best_min_s) {
  if (e->nspare < 0) return 0;
  if (e->readmitting) return readmit_next(e);
  const int n = e->nspare;
  const double off = n > 0 ? model_off_ratio(e, best_min_s) : 0.0;
  if (!(off > 0) || model_order_held(e)) return readmit_end(e);
  const double f = fmin(off, ARCOLL_ONLINE_MAX_READMIT);
  double best_pred = e->best.predicted_s; /* the model's best prediction among round 0's candidates */
  for (int j = 0; j < e->n; ++j)
    if (e->cand[j].predicted_s > 0 && e->cand[j].predicted_s < best_pred) best_pred = e->cand[j].predicted_s;
  const double lim = f * best_pred;
  int k = 0; /* the queue, in spare[0 .. k), best predicted first */
  for (int i = 0; i < n; ++i) {
    int dup = 0; /* e.g. binomial, pruned then appended by the slot rules (online_slots.h) */
    for (int j = 0; j < e->n; ++j) dup |= arcoll_choice_same(&e->spare[i], &e->cand[j]);
    if (dup || !(e->spare[i].predicted_s <= lim)) continue;
    const arcoll_choice_t c = e->spare[i]; /* i >= k: shifting may write spare[i] */
    int at = k++;
    for (; at > 0 && e->spare[at - 1].predicted_s > c.predicted_s; --at) e->spare[at] = e->spare[at - 1];
    e->spare[at] = c;
  }
  e->nspare = k;
  if (k == 0) return readmit_end(e);
  e->readmitting = 1;
  e->extra_at = e->warmup_extra = 0; /* the appended candidate was measured before */
  e->stream_at = e->warmup_stream = 0;
  e->check_at = 0;                   /* round 0's imbalance check is behind */
  e->once_from = 0;
  return readmit_next(e);
}
