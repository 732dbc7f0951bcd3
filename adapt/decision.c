/*
 * The online selection's deferred decisions (decision.h): a round's times
 * reduced by two nonblocking schedules of the library's own while the
 * program's next calls run, applied at an agreed call.
 */
#include "decision.h"
#include "online_pacing.h"

#include <stdlib.h>

#include "nbc.h"

struct arcoll_decision {
  nbc_sched_t *sum, *max; /* SUM of the times inside, MAX of arcoll_explorer_period_extremes() */
  double *t, *p;          /* their results (n x trials, 2 x n x trials), owned by the schedules */
  struct arcoll_rooted *rooted; /* instead: the root decides (decision_rooted.c) */
  int calls_left;
  int ahead; /* rooted: the decider sent its result at a deadline whose call had another root,
                and every rank applies it later (arcoll_decision_step); calls since */
};

int arcoll_decision_lag(const arcoll_explorer_t *ex, int P) {
  if (arcoll_g_cfg.online_lag >= 0) return arcoll_g_cfg.online_lag;
  /* the blocking way costs two allreduces of the round's k doubles; the
   * deferred one up to lag calls of `best` where a faster one was found:
   * deferred only where those cost more than a call */
  const arcoll_algo_desc_t *rd = arcoll_algorithm_find(ARCOLL_COLL_ALLREDUCE, "recursive_doubling");
  const MPI_Aint k = (MPI_Aint)ex->n * ex->trials;
  const double t_ar = rd ? arcoll_model_predict(&arcoll_g_cfg.model, ARCOLL_COLL_ALLREDUCE, rd, P,
                                                k * (MPI_Aint)sizeof(double), 0, 0)
                         : -1.0;
  return arcoll_explorer_lag(ex, 2.0 * t_ar, P);
}

int arcoll_decision_start(arcoll_comm_state_t *st, arcoll_cached_t *e, int lag) {
  arcoll_explorer_t *ex = e->ex;
  const int k = ex->n * ex->trials;
  struct arcoll_decision *d = calloc(1, sizeof *d);
  /* the tag sequence (nbc_new) advances the same way on every rank whatever
   * fails; out of memory on some ranks only (they decide the blocking way,
   * the others wait for reductions) is not survived, as anywhere in MPI */
  if (d) d->sum = nbc_allreduce_doubles(st, ex->t, k, MPI_SUM, &d->t);
  double pm[ARCOLL_ONLINE_EXTREMES_MAX];
  const int npm = arcoll_explorer_period_extremes(ex, pm);
  if (d && d->sum) d->max = nbc_allreduce_doubles(st, pm, npm, MPI_MAX, &d->p);
  if (!d || !d->sum || !d->max) {
    if (d && d->sum) {
      nbc_wait_internal(d->sum);
      nbc_free(d->sum);
    }
    free(d);
    return arcoll_explorer_decide(ex, st->priv); /* the blocking way */
  }
  d->calls_left = lag;
  ex->pending = 1;
  e->decision = d;
  return MPI_SUCCESS;
}

int arcoll_decision_rooted_pending(const arcoll_comm_state_t *st, arcoll_coll_t c) {
  for (int k = 0; k < 2; ++k)
    for (int i = 0; st->cache[c][k] && i < ARCOLL_NCLASS; ++i)
      if (st->cache[c][k][i].decision && st->cache[c][k][i].decision->rooted) return 1;
  return 0;
}

int arcoll_decision_start_rooted(arcoll_comm_state_t *st, arcoll_cached_t *e, int root, int lag,
                                 int probe) {
  arcoll_explorer_t *ex = e->ex;
  int rc = MPI_SUCCESS;
  struct arcoll_decision *d = calloc(1, sizeof *d);
  if (d) d->rooted = arcoll_decision_rooted_post(st, ex, root, probe, &rc);
  if (!d || !d->rooted) { /* out of memory: decide now, as arcoll_decision_start does */
    free(d);
    return arcoll_explorer_decide(ex, st->priv); /* the blocking way */
  }
  d->calls_left = lag > 0 ? lag : 1;
  ex->pending = 1;
  e->decision = d;
  return rc;
}

/* Complete d's schedules and apply the decision to ex; frees d.  A rooted
 * decision the root postponed (may_postpone): *again = calls to its new
 * deadline, d kept. */
static int complete(arcoll_comm_state_t *st, struct arcoll_decision *d, arcoll_explorer_t *ex,
                    int may_postpone, int *again) {
  *again = 0;
  if (d->rooted) {
    const int rc = arcoll_decision_rooted_complete(st, d->rooted, ex, may_postpone, again);
    if (*again == 0) free(d);
    return rc;
  }
  int rc = nbc_wait_internal(d->sum);
  const int rc2 = nbc_wait_internal(d->max);
  if (rc == MPI_SUCCESS) rc = rc2;
  if (rc == MPI_SUCCESS) {
    arcoll_explorer_decide_extremes(ex, d->t, d->p);
  } else { /* as arcoll_explorer_decide on an error: end with the current best */
    ex->pending = 0;
    ex->finished = 1;
  }
  nbc_free(d->sum);
  nbc_free(d->max);
  free(d);
  return rc;
}

int arcoll_decision_step(arcoll_comm_state_t *st, arcoll_cached_t *e, int root, int *rc) {
  *rc = MPI_SUCCESS;
  struct arcoll_decision *d = e->decision;
  if (--d->calls_left > 0) return 0;
  if (d->rooted && e->ex->coll == ARCOLL_COLL_BCAST && e->ex->bytes >= ARCOLL_STREAM_MIN_BYTES &&
      root != arcoll_decision_rooted_decider(d->rooted)) {
    /* a call with another root (decision.h ARCOLL_ROOTED_MOVED_CALLS): the
     * decider decides now and sends, everybody applies later */
    if (!d->ahead) *rc = arcoll_decision_rooted_send(st, d->rooted, e->ex);
    if (d->ahead++ < ARCOLL_ROOTED_MOVED_CALLS(st->P)) {
      d->calls_left = 1;
      return 0;
    }
  }
  int again = 0;
  *rc = complete(st, e->decision, e->ex, 1, &again);
  if (again > 0) {
    e->decision->calls_left = again;
    return 0;
  }
  e->decision = NULL;
  return 1;
}

void arcoll_decision_settle(arcoll_comm_state_t *st) {
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c)
    for (int k = 0; k < 2; ++k)
      for (int i = 0; st->cache[c][k] && i < ARCOLL_NCLASS; ++i) {
        arcoll_cached_t *e = &st->cache[c][k][i];
        if (!e->decision) continue;
        int again = 0;
        do /* a non-root takes the root's postponements it had not reached */
          complete(st, e->decision, e->ex, 0, &again);
        while (again > 0);
        e->decision = NULL;
        arcoll_online_keep(e); /* the tuning file (state teardown) notes the outcome */
      }
  arcoll_decision_rooted_drain(st, 1);
}
