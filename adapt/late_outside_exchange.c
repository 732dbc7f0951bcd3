/* One exchange of the times outside a streaming reduce; see late_outside_exchange.h. */
#include "late_outside_exchange.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "late_order.h"
#include "late_outside.h"
#include "nbc.h"
#include "online_limits.h"
#include "online_slots.h"
#include "select.h"

struct arcoll_outside {
  double last_exit;  /**< this rank's exit of the previous eligible call */
  double last_entry; /**< ... and its entry */
  int prev_chain;    /**< 1 if that call ran the chain */
  int cur_chain;     /**< 1 if this one does */
  double sum;        /**< times outside, seconds */
  double pmin;       /**< the shortest period (entry to entry), seconds */
  int n;             /**< ... their number: calls that ran the chain after one that did */
  nbc_sched_t *s;     /**< the exchange while pending */
  double *res;        /**< its result: P means outside, then the largest shortest period */
  int calls_left;     /**< eligible calls to its deadline */
  int done;           /**< 1 once applied (or failed): no more exchanges */
  double t_chain;     /**< the model's time of the chain (its segment) */
  double occupancy;   /**< the model's link occupancy of its segments (select.h) */
  int k;              /**< late ranks found */
  int *late;          /**< P ints: them, latest first */
  int *order;         /**< P ints: the chain order for order_root */
  int order_root;     /**< -1: order not built */
};

int arcoll_outside_eligible(const arcoll_cached_t *ch, int commut, MPI_Aint bytes) {
  if (!commut || bytes < ARCOLL_ONLINE_REDUCE_TREE_MAX_BYTES || !ch || !ch->algo ||
      !arcoll_late_applies(ARCOLL_COLL_REDUCE, bytes))
    return 0;
  return !strcmp(ch->algo->name, "chain") || (ch->ex && arcoll_explorer_find(ch->ex, "chain") >= 0);
}

static struct arcoll_outside *state(arcoll_comm_state_t *st) {
  if (!st->outside) {
    st->outside = calloc(1, sizeof *st->outside);
    if (st->outside) st->outside->order_root = -1;
  }
  return st->outside; /* NULL: no memory, nothing sampled on this rank (no exchange: see exit) */
}

void arcoll_outside_enter(arcoll_comm_state_t *st, const arcoll_cached_t *ch, MPI_Aint bytes) {
  struct arcoll_outside *o = state(st);
  if (!o || o->done || o->s) return;
  const double now = PMPI_Wtime();
  /* the explorer's entry names the candidate of this call (dispatch.h) */
  o->cur_chain = !strcmp(ch->algo->name, "chain");
  if (o->cur_chain && o->prev_chain) {
    o->sum += now - o->last_exit;
    /* the shortest: the first chain calls after another algorithm refill the chain (P = 256,
     * eight ranks late, calls 4-7: mean of the longest 4.04 ms against 2.01 steady) */
    if (o->n == 0 || now - o->last_entry < o->pmin) o->pmin = now - o->last_entry;
    o->n++;
  }
  o->last_entry = now;
  if (o->cur_chain) {
    o->t_chain = arcoll_model_predict(&arcoll_g_cfg.model, ARCOLL_COLL_REDUCE, ch->algo, st->P,
                                      bytes, ch->segment_bytes, ch->k);
    o->occupancy = arcoll_select_stream_occupancy(&arcoll_g_cfg.model, bytes, ch->segment_bytes);
  }
}

const int *arcoll_outside_order(arcoll_comm_state_t *st, const arcoll_cached_t *ran, int root) {
  struct arcoll_outside *o = st->outside;
  if (!o || o->k <= 0 || !ran || !ran->algo || strcmp(ran->algo->name, "chain")) return NULL;
  if (o->order_root != root) {
    if (arcoll_outside_chain_order(o->late, o->k, st->P, root, o->order) < 0) return NULL;
    o->order_root = root;
  }
  return o->order;
}

/* The floor of arcoll_outside_late_set: two hops of the model's chain. */
static double floor_s(const arcoll_comm_state_t *st, double t_chain) {
  const double hops = t_chain > 0 ? 2.0 * t_chain / (st->P - 1) : 0.0;
  return hops > ARCOLL_OUTSIDE_FLOOR_MIN_S ? hops : ARCOLL_OUTSIDE_FLOOR_MIN_S;
}

static int apply(arcoll_comm_state_t *st, struct arcoll_outside *o) {
  int rc = nbc_wait_internal(o->s);
  o->done = 1;
  if (rc == MPI_SUCCESS) {
    o->late = malloc(sizeof *o->late * (size_t)st->P);
    o->order = malloc(sizeof *o->order * (size_t)st->P);
    if (o->late && o->order) o->k = arcoll_outside_late_set(o->res, st->P, floor_s(st, o->t_chain), o->late);
    if (o->k < 0) o->k = 0;
    const double period = o->res[st->P];
    const int bound = o->k > 0 && arcoll_outside_links_bound(period, o->res, st->P, o->occupancy);
    if (arcoll_g_cfg.debug && st->me == 0 && bound)
      fprintf(stderr, "arcoll: reduce P=%d: the chain's period %.3g s, less the latest time outside, "
              "exceeds %g x the model's link occupancy %.3g s: bound by links the model does not "
              "see, its %d late rank(s) keep their places\n", st->P, period,
              ARCOLL_OUTSIDE_STREAM_SLACK, o->occupancy, o->k);
    if (bound) o->k = 0;
    if (arcoll_g_cfg.debug && st->me == 0) {
      fprintf(stderr, "arcoll: reduce P=%d: times outside (mean of %d calls, period %.3g s, "
              "occupancy %.3g s) leave %d rank(s) late for the chain's root end:", st->P,
              ARCOLL_OUTSIDE_SAMPLES, period, o->occupancy, o->k);
      for (int i = 0; i < o->k && i < 16; ++i)
        fprintf(stderr, " %d (%.3g s)", o->late[i], o->res[o->late[i]]);
      fprintf(stderr, "\n");
    }
  }
  nbc_free(o->s);
  o->s = NULL;
  return rc;
}

int arcoll_outside_exit(arcoll_comm_state_t *st) {
  struct arcoll_outside *o = st->outside;
  if (!o || o->done) return MPI_SUCCESS;
  if (o->s) return --o->calls_left > 0 ? MPI_SUCCESS : apply(st, o);
  o->last_exit = PMPI_Wtime();
  o->prev_chain = o->cur_chain;
  if (o->n < ARCOLL_OUTSIDE_SAMPLES) return MPI_SUCCESS; /* n: the same on every rank */
  double *mine = calloc((size_t)st->P + 1, sizeof *mine);
  if (mine) { /* P means outside, then the shortest period (MAX over ranks) */
    mine[st->me] = o->sum / o->n;
    mine[st->P] = o->pmin;
    o->s = nbc_allreduce_doubles(st, mine, st->P + 1, MPI_MAX, &o->res);
    free(mine);
  }
  /* out of memory on some ranks only is not survived, as anywhere in MPI (decision.c) */
  if (!o->s) {
    o->done = 1;
    return MPI_SUCCESS;
  }
  o->calls_left = ARCOLL_ONLINE_REDUCE_STREAM_LAG;
  return MPI_SUCCESS;
}

void arcoll_outside_free(arcoll_comm_state_t *st) {
  struct arcoll_outside *o = st->outside;
  if (!o) return;
  if (o->s) {
    nbc_wait_internal(o->s);
    nbc_free(o->s);
  }
  free(o->late);
  free(o->order);
  free(o);
  st->outside = NULL;
}
