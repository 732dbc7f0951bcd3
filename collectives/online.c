/* Online selection among the model's best candidates; see online.h. */
#include "online.h"

#include <math.h>
#include <string.h>

int arcoll_explorer_init(arcoll_explorer_t *e, const arcoll_model_t *m, arcoll_coll_t c, int P,
                         MPI_Aint bytes, int commutative, int ncand, int trials) {
  memset(e, 0, sizeof *e);
  if (ncand < 1) ncand = 1;
  if (ncand > ARCOLL_ONLINE_MAX_CANDIDATES) ncand = ARCOLL_ONLINE_MAX_CANDIDATES;
  if (trials < 1) trials = 1;
  if (trials > ARCOLL_ONLINE_MAX_TRIALS) trials = ARCOLL_ONLINE_MAX_TRIALS;
  e->trials = trials;
  e->winner = -1;
  e->n = arcoll_select_candidates(m, c, P, bytes, commutative, e->cand, ncand);
  return e->n;
}

const arcoll_choice_t *arcoll_explorer_next(const arcoll_explorer_t *e) {
  if (e->n < 1 || e->done >= e->n * e->trials) return NULL;
  return &e->cand[e->done % e->n];
}

int arcoll_explorer_record(arcoll_explorer_t *e, double seconds, int failed) {
  if (e->n < 1 || e->done >= e->n * e->trials) return 1;
  e->t[e->done++] = failed || !(seconds >= 0) ? INFINITY : seconds;
  return e->done == e->n * e->trials;
}

int arcoll_explorer_decide(arcoll_explorer_t *e, MPI_Comm comm) {
  const int runs = e->n * e->trials;
  double all[ARCOLL_ONLINE_MAX_CANDIDATES * ARCOLL_ONLINE_MAX_TRIALS];
  e->winner = 0;
  if (e->n < 1) return MPI_SUCCESS;
  int rc = PMPI_Allreduce(e->t, all, runs, MPI_DOUBLE, MPI_MAX, comm);
  if (rc != MPI_SUCCESS) return rc;
  for (int i = 0; i < e->n; ++i) {
    double best = INFINITY;
    for (int r = 0; r < e->trials; ++r) best = fmin(best, all[r * e->n + i]);
    e->measured_s[i] = best;
    if (best < e->measured_s[e->winner]) e->winner = i;
  }
  return MPI_SUCCESS;
}
