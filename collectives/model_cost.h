/**
 * @file model_cost.h
 * @brief Internal to collectives/: the message-time helpers every cost
 *        formula of model*.c uses (T(m), X(m), shared links, pipelines; the
 *        model's departures from seed 000 are described in model.c), and the
 *        broadcast formulas of model_bcast.c.  Units: seconds, bytes.
 */
#ifndef ARCOLL_COLLECTIVES_MODEL_COST_H
#define ARCOLL_COLLECTIVES_MODEL_COST_H

#include <math.h>

#include "select.h"
#include "tree.h" /* arcoll_ceil_log2, arcoll_floor_pow2 */


/* Segments in flight per link of the pipelined codes (bcast_tree.h,
 * bcast_multitree.h, reduce_chain.c, scan_pipeline.c all use 8). */
#define WINDOW 8.0
/* Messages below this size are sent eagerly (MPI_Send returns before the
 * receiver has them): MPICH's default eager threshold and SMPI's
 * smpi/send-is-detached-thresh are both 64 KiB. */
#define EAGER_LIMIT 65536.0
/* Per-message overhead of a forwarding stage (receive + forward), as a
 * fraction of T(0).  Measured under SMPI (cluster256, chains of P = 16 and
 * 64, 1-8 KiB segments): the period is the stream gap + 0.3 to 0.7 us,
 * ~0.1 T(0). */
#define HOP_OVERHEAD_OF_LATENCY 0.1

typedef struct {
  const arcoll_p2p_params_t *p;
  const arcoll_p2p_curve_t *cv, *gc;
  double lat; /* T(0): start-up of a message, seconds */
  double hop; /* per-message overhead of a forwarding stage, seconds */
  double gm;  /* gamma, seconds per byte combined */
} cost_t;

static inline cost_t cost_of(const arcoll_model_t *m) {
  cost_t c;
  c.p = &m->inter;
  c.cv = &m->inter_curve;
  c.gc = &m->inter_gap_curve;
  c.lat = arcoll_model_p2p(c.p, c.cv, 0);
  c.hop = HOP_OVERHEAD_OF_LATENCY * c.lat;
  c.gm = m->gamma;
  return c;
}

/* T(m): one message of m bytes alone on its links */
static inline double tsend(const cost_t *c, double m) { return arcoll_model_p2p(c->p, c->cv, m); }

/* X(m): the link occupancy of one message (stream gap); n messages sharing
 * a link take T(m) + (n - 1) X(m) (max-min fair sharing). */
static inline double xfer(const cost_t *c, double m) { return arcoll_model_gap(c->p, c->gc, m); }

/* n messages of m bytes at once through one link */
static inline double shared(const cost_t *c, double n, double m) {
  return n <= 0 ? 0 : tsend(c, m) + (n - 1) * xfer(c, m);
}

/* Segments of a message of M bytes cut in segments of `seg` bytes
 * (seg <= 0 or >= M: one segment). */
static inline double nsegments(double M, MPI_Aint seg) {
  if (seg <= 0 || (double)seg >= M) return 1.0;
  return ceil(M / (double)seg);
}

/* Pipeline of `nst` stages, stage i forwarding each segment of s bytes to
 * fan[i] children (NULL: 1) with `comb` seconds per byte of combine work;
 * k segments; up to w = min(WINDOW, k) segments in flight per link share it,
 * so the first segment reaches the next stage after ~T(s) + w n_i X(s)
 * (fitted to SMPI chains, P = 16 and 64, 2-8 KiB segments, within 3 %):
 *   T = sum_i (T(s) + w n_i X(s) + s comb)
 *       + (k - w) max_i (n_i (X(s) + hop) + s comb). */
static inline double pipeline(const cost_t *c, const int *fan, int nst, double k, double s,
                       double comb) {
  if (nst <= 0) return 0;
  const double w = k < WINDOW ? k : WINDOW, x = xfer(c, s), t = tsend(c, s);
  /* period of one message: occupancy + forwarding overhead (at most X(s):
   * tiny messages have none) */
  const double xp = x + (k > 1 ? (x < c->hop ? x : c->hop) : 0);
  double sum = 0, worst = 0;
  for (int i = 0; i < nst; ++i) {
    double n = fan ? fan[i] : 1;
    sum += t + (k > 1 ? w * n : n - 1) * x + s * comb; /* one segment: T + (n-1) X exactly */
    double per = n * xp + s * comb;
    if (per > worst) worst = per;
  }
  return sum + (k - w) * worst;
}

/**
 * Predicted time of broadcast algorithm `name` (bcast.h) for P ranks, M
 * bytes, segment `seg` bytes (0: one segment) and radix / segment count kp
 * where the algorithm has one; < 0 when there is no formula for `name`.
 * Defined in model_bcast.c.
 */
double arcoll_model_bcast_cost(const cost_t *c, const char *name, int P, double M, MPI_Aint seg,
                               int kp);

#endif
