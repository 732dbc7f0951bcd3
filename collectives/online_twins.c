/* Far-first variants measured after their near-first twins; see online_twins.h. */
#include "online_twins.h"

#include "online_slots.h"

#include <math.h>
#include <string.h>

/* Near-first algorithm `a` is the twin of far-first `far` (online_twins.h). */
static int twins(const arcoll_algo_desc_t *a, const arcoll_algo_desc_t *far) {
  if (a == far || (a->flags & ARCOLL_ALGO_FAR_FIRST) || strcmp(a->collective, far->collective))
    return 0;
  const size_t len = strlen(far->name), n = strlen(a->name);
  return (len == n + 4 && !strncmp(far->name, a->name, n) && !strcmp(far->name + n, "_far")) ||
         (n == len + 5 && !strncmp(a->name, far->name, len) && !strcmp(a->name + len, "_near"));
}

int arcoll_explorer_near_twin(const arcoll_explorer_t *e, const arcoll_choice_t *far) {
  for (int i = 0; i < e->n; ++i)
    if (twins(e->cand[i].algo, far->algo)) return i;
  return -1;
}

/* Round 0 holds the twins alone: both stay (a round of one candidate
 * measures nothing), the near one first with its trials, the far one run
 * once (online_twins.h). */
static void twins_alone(arcoll_explorer_t *e) {
  const int far = (e->cand[0].algo->flags & ARCOLL_ALGO_FAR_FIRST) ? 0 : 1;
  if (!(e->cand[far].algo->flags & ARCOLL_ALGO_FAR_FIRST) || !twins(e->cand[1 - far].algo, e->cand[far].algo))
    return;
  if (far == 0) { /* equal predictions: the order is the table's */
    const arcoll_choice_t x = e->cand[0];
    e->cand[0] = e->cand[1];
    e->cand[1] = x;
  }
  e->once_from = 1;
}

int arcoll_explorer_hold_far(arcoll_explorer_t *e) {
  if (e->round != 0 || e->runs > 0 || e->has_far || e->n < 2) return 0;
  if (e->n == 2) {
    twins_alone(e);
    return 0;
  }
  for (int i = 0; i < e->n; ++i) { /* cand[0] too: the twins' predictions are equal */
    if (!(e->cand[i].algo->flags & ARCOLL_ALGO_FAR_FIRST) || arcoll_explorer_near_twin(e, &e->cand[i]) < 0)
      continue;
    e->far = e->cand[i];
    e->has_far = 1;
    arcoll_explorer_remove(e, i);
    return 1;
  }
  return 0;
}

int arcoll_explorer_far_round(arcoll_explorer_t *e) {
  if (!e->has_far || e->round != 0) return 0;
  e->has_far = 0;
  if (!e->best.algo || !twins(e->best.algo, e->far.algo) || !isfinite(e->best_s) ||
      !(e->excess_s < ARCOLL_ONLINE_BUDGET_CALLS * e->best_s))
    return 0;
  e->cand[0] = e->far;
  e->n = 1;
  e->done = 0;
  e->round = 1;
  e->trials = 1; /* one run (header); init's back at the decision (online.h) */
  return 1;
}
