/* The online selection's collective steps over MPI (collectives/online.h):
 * the imbalance check, the barrier between the confirmation's blocks, the
 * blocking decision of a round.  The decisions themselves, from the
 * reduced figures, are online.c's (no MPI). */
#include "online.h"

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

/* MPI user op of the blocking decision: each element is one explorer's
 * packed round (a contiguous type of 2k doubles: k times inside, then k
 * periods): SUM of the first k, MAX of the others.  One element per vector,
 * so the MPI library never splits a vector between calls. */
static void sum_max(void *in, void *inout, int *len, MPI_Datatype *dt) {
  int size = 0;
  PMPI_Type_size(*dt, &size);
  const int k = size / (int)(2 * sizeof(double));
  const double *a = in;
  double *b = inout;
  for (int j = 0; j < *len; ++j, a += 2 * k, b += 2 * k)
    for (int i = 0; i < k; ++i) {
      b[i] += a[i];
      b[k + i] = fmax(b[k + i], a[k + i]);
    }
}

/* SUM of e->t and MAX of e->p over comm into all / max: one allreduce of a
 * packed vector with sum_max (half the latency of two), else two. */
static int reduce_round(const arcoll_explorer_t *e, MPI_Comm comm, double *all, double *max) {
  static MPI_Op op = MPI_OP_NULL; /* per rank: the SMPI build privatises the library */
  const int k = e->n * e->trials;
  double mine[2 * ARCOLL_ONLINE_MAX_CANDIDATES * ARCOLL_ONLINE_MAX_TRIALS];
  double out[2 * ARCOLL_ONLINE_MAX_CANDIDATES * ARCOLL_ONLINE_MAX_TRIALS];
  MPI_Datatype vec = MPI_DATATYPE_NULL;
  if (op == MPI_OP_NULL && PMPI_Op_create(sum_max, 1, &op) != MPI_SUCCESS) op = MPI_OP_NULL;
  if (op != MPI_OP_NULL && PMPI_Type_contiguous(2 * k, MPI_DOUBLE, &vec) == MPI_SUCCESS &&
      PMPI_Type_commit(&vec) == MPI_SUCCESS) {
    memcpy(mine, e->t, (size_t)k * sizeof *mine);
    memcpy(mine + k, e->p, (size_t)k * sizeof *mine);
    const int rc = PMPI_Allreduce(mine, out, 1, vec, op, comm);
    PMPI_Type_free(&vec);
    memcpy(all, out, (size_t)k * sizeof *all);
    memcpy(max, out + k, (size_t)k * sizeof *max);
    return rc;
  }
  if (vec != MPI_DATATYPE_NULL) PMPI_Type_free(&vec);
  int rc = PMPI_Allreduce(e->t, all, k, MPI_DOUBLE, MPI_SUM, comm);
  if (rc == MPI_SUCCESS) rc = PMPI_Allreduce(e->p, max, k, MPI_DOUBLE, MPI_MAX, comm);
  return rc;
}

int arcoll_explorer_decide(arcoll_explorer_t *e, MPI_Comm comm) {
  double all[ARCOLL_ONLINE_MAX_CANDIDATES * ARCOLL_ONLINE_MAX_TRIALS];
  double max[ARCOLL_ONLINE_MAX_CANDIDATES * ARCOLL_ONLINE_MAX_TRIALS];
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
  const int rc = reduce_round(e, comm, all, max);
  if (rc != MPI_SUCCESS) {
    e->finished = 1;
    return rc;
  }
  arcoll_explorer_decide_times(e, all, max);
  return MPI_SUCCESS;
}
