/* The online selection's collective steps over MPI (collectives/online.h):
 * the imbalance check, the barrier between the confirmation's blocks, the
 * blocking decision of a round.  The decisions themselves, from the
 * reduced figures, are online.c's (no MPI). */
#include "online.h"
#include "online_confirm.h"

#include <math.h>
#include <string.h>

int arcoll_explorer_confirm_sync(arcoll_explorer_t *e, MPI_Comm comm) {
  const int rc = PMPI_Barrier(comm);
  if (rc != MPI_SUCCESS) e->confirm_failed = 1;
  return rc;
}

int arcoll_explorer_check(arcoll_explorer_t *e, MPI_Comm comm) {
  /* MAX of (inside, period, -period): max inside, max and min period */
  double mine[3] = {INFINITY, INFINITY, -INFINITY}, all[3];
  /* the first measured call has no previous one: its period is its time
   * inside, no evidence; the periods of the others */
  for (int r = 0; r < e->done; ++r) {
    mine[0] = fmin(mine[0], e->t[r]);
    if (r > 0 || e->done == 1) mine[1] = fmin(mine[1], e->p[r]);
  }
  mine[2] = -mine[1];
  const int rc = PMPI_Allreduce(mine, all, 3, MPI_DOUBLE, MPI_MAX, comm);
  if (rc != MPI_SUCCESS) {
    e->best = e->cand[0];
    e->finished = 1;
    return rc;
  }
  arcoll_explorer_check_times(e, all[0], all[1], -all[2]);
  return MPI_SUCCESS;
}

/* SUM of e->t and MAX of arcoll_explorer_period_extremes() over comm into
 * all / ext: two allreduces of predefined ops.  Not one of a packed vector with a user op (SUM of one
 * half, MAX of the other): SMPI 3.32 ran that one far slower (flat P = 256,
 * 200 calls of 8 B scatter: 0.631 s summed inside against 0.374 s with two
 * allreduces; SMPI's mpich selector 0.352 s). */
static int reduce_round(const arcoll_explorer_t *e, MPI_Comm comm, double *all, double *ext) {
  const int k = e->n * e->trials;
  int rc = PMPI_Allreduce(e->t, all, k, MPI_DOUBLE, MPI_SUM, comm);
  double pm[ARCOLL_ONLINE_EXTREMES_MAX];
  const int n = arcoll_explorer_period_extremes(e, pm);
  if (rc == MPI_SUCCESS) rc = PMPI_Allreduce(pm, ext, n, MPI_DOUBLE, MPI_MAX, comm);
  return rc;
}

int arcoll_explorer_decide(arcoll_explorer_t *e, MPI_Comm comm) {
  double all[ARCOLL_ONLINE_MAX_CANDIDATES * ARCOLL_ONLINE_MAX_TRIALS];
  double ext[ARCOLL_ONLINE_EXTREMES_MAX];
  if (e->confirming) {
    double last[4];
    const int rc = PMPI_Allreduce(e->confirm_exit, last, 4, MPI_DOUBLE, MPI_MAX, comm);
    if (rc != MPI_SUCCESS) {
      e->confirming = 0;
      e->finished = 1;
      return rc;
    }
    arcoll_explorer_confirm_times(e, last);
    return MPI_SUCCESS;
  }
  if (e->finished) return MPI_SUCCESS;
  const int rc = reduce_round(e, comm, all, ext);
  if (rc != MPI_SUCCESS) {
    e->finished = 1;
    return rc;
  }
  arcoll_explorer_decide_extremes(e, all, ext);
  return MPI_SUCCESS;
}
