/* A far-first variant ruled out by its near twin's halving steps; see online_steps.h. */
#include "online_steps.h"

#include <math.h>
#include <stddef.h>

#include "online_twins.h"
#include "tree.h"

int arcoll_far_first_loses(const double *t, int L, double bytes, double *ratio) {
  if (ratio) *ratio = 0.0;
  if (L < 2 || L > ARCOLL_ONLINE_MAX_STEPS || !(bytes > 0)) return 0;
  double alpha = INFINITY, near = 0.0;
  for (int i = 0; i < L; ++i) {
    if (!(t[i] > 0) || !isfinite(t[i])) return 0;
    alpha = fmin(alpha, t[i]);
    near += t[i];
  }
  /* far - near = sum_i beta_i (b_(L-1-i) - b_i), each beta_i bounded by
   * the step's own time: from above in the near half (negative terms), from
   * below in the far half (positive ones), header */
  double diff = 0.0;
  for (int i = 0; i < L; ++i) {
    const double b = ldexp(bytes, -(i + 1)), moved = ldexp(bytes, -(L - i)) - b;
    if (i < (L + 1) / 2) diff += t[i] / b * moved;
    else diff += fmax(0.0, (t[i] - alpha) / b) * moved;
  }
  if (ratio) *ratio = (near + diff) / near;
  return near + diff >= ARCOLL_ONLINE_FAR_LOSES * near;
}

static int halving_steps(const arcoll_explorer_t *e) {
  return arcoll_ceil_log2(arcoll_floor_pow2(e->P));
}

/* The steps travel with round 0's decision (online_steps.h). */
static int carried(const arcoll_explorer_t *e) {
  return e->steps_carry && e->round == 0 && e->has_far;
}

/* The run being recorded (before: the next) is one whose steps count. */
static int timed(const arcoll_explorer_t *e, int runs) {
  if (e->round != 0) return 0;
  return (e->steps_at && runs <= e->steps_at) || (carried(e) && runs <= e->trials);
}

void arcoll_explorer_steps_setup(arcoll_explorer_t *e) {
  e->steps_at = e->steps_carry = 0;
  for (int i = 0; i < ARCOLL_ONLINE_MAX_STEPS; ++i) e->step_now[i] = e->step_min[i] = INFINITY;
  if (e->round != 0 || e->runs > 0 || e->check_at || e->n < 1 || e->trials < 1 ||
      (e->coll != ARCOLL_COLL_ALLREDUCE && e->coll != ARCOLL_COLL_REDUCE) ||
      halving_steps(e) < 2 || halving_steps(e) > ARCOLL_ONLINE_MAX_STEPS)
    return;
  const int held = e->has_far && arcoll_explorer_near_twin(e, &e->far) == 0;
  const int alone = !e->has_far && e->n == 2 && e->once_from == 1 &&
                    (e->cand[1].algo->flags & ARCOLL_ALGO_FAR_FIRST) &&
                    arcoll_explorer_near_twin(e, &e->cand[1]) == 0;
  if (alone) e->steps_at = e->trials;
  else if (held) e->steps_carry = 1;
}

double *arcoll_explorer_step_buffer(arcoll_explorer_t *e) {
  if (e->pending || e->confirming || e->finished || !timed(e, e->done + 1)) return NULL;
  return e->step_now;
}

void arcoll_explorer_steps_fold(arcoll_explorer_t *e) {
  if (!timed(e, e->done)) return;
  for (int i = 0; i < ARCOLL_ONLINE_MAX_STEPS; ++i) {
    e->step_min[i] = fmin(e->step_min[i], e->step_now[i]);
    e->step_now[i] = INFINITY;
  }
}

int arcoll_explorer_steps_apply(arcoll_explorer_t *e, const double *min_s, double *ratio) {
  e->steps_at = 0;
  if (!arcoll_far_first_loses(min_s, halving_steps(e), (double)e->bytes, ratio)) return 0;
  if (e->has_far) {
    e->has_far = 0; /* arcoll_explorer_far_round() sets up nothing */
    return 1;
  }
  if (e->n == 2 && (e->cand[1].algo->flags & ARCOLL_ALGO_FAR_FIRST)) {
    e->n = 1;
    e->best = e->cand[0];
    e->finished = 1;
    return 1;
  }
  return 0;
}

int arcoll_explorer_steps_pack(const arcoll_explorer_t *e, double *out) {
  if (!carried(e)) return 0;
  const int L = halving_steps(e);
  for (int i = 0; i < L; ++i) out[i] = -e->step_min[i];
  return L;
}

void arcoll_explorer_steps_unpack(arcoll_explorer_t *e, const double *in) {
  if (!carried(e)) return;
  double t[ARCOLL_ONLINE_MAX_STEPS];
  for (int i = 0, L = halving_steps(e); i < L; ++i) t[i] = -in[i];
  e->steps_carry = 0;
  arcoll_explorer_steps_apply(e, t, NULL);
}

int arcoll_explorer_steps_exchange(arcoll_explorer_t *e, MPI_Comm comm, int *dropped, double *ratio) {
  double all[ARCOLL_ONLINE_MAX_STEPS];
  const int L = halving_steps(e);
  *dropped = 0;
  if (ratio) *ratio = 0.0;
  const int rc = PMPI_Allreduce(e->step_min, all, L, MPI_DOUBLE, MPI_MIN, comm);
  if (rc != MPI_SUCCESS) {
    e->steps_at = 0;
    return rc;
  }
  *dropped = arcoll_explorer_steps_apply(e, all, ratio);
  return MPI_SUCCESS;
}
