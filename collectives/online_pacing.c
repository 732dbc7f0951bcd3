/* When the online selection's calls and decisions happen: warm-up calls,
 * deferred decisions; see online_pacing.h. */
#include "online_pacing.h"

#include "tree.h"

int arcoll_explorer_default_warmup(arcoll_coll_t c, MPI_Aint bytes) {
  return c == ARCOLL_COLL_GATHER && bytes >= ARCOLL_ONLINE_SKEW_MAX_BYTES ? ARCOLL_ONLINE_GATHER_WARMUP
                                                                          : ARCOLL_ONLINE_DEFAULT_WARMUP;
}

int arcoll_explorer_lag(const arcoll_explorer_t *e, double decide_s, int P) {
  switch (e->coll) { /* where calls need not synchronise the ranks: never (online.h) */
  case ARCOLL_COLL_REDUCE: /* its chain's round 0 (online.h stream_lag) */
    return e->stream_lag && e->round == 0 && !e->readmitting && !e->root_moved
               ? ARCOLL_ONLINE_REDUCE_STREAM_LAG
               : 0;
  case ARCOLL_COLL_BCAST: case ARCOLL_COLL_SCAN: case ARCOLL_COLL_EXSCAN:
  case ARCOLL_COLL_GATHER: case ARCOLL_COLL_SCATTER: case ARCOLL_COLL_GATHERV: case ARCOLL_COLL_SCATTERV:
    return 0;
  default:
    break;
  }
  const double t_call = e->best.predicted_s;
  if (!(decide_s > 0) || !(t_call >= 0) || !(t_call < decide_s)) return 0;
  const int lag = 2 * arcoll_ceil_log2(P);
  return lag < 2 ? 2 : lag > ARCOLL_ONLINE_MAX_LAG ? ARCOLL_ONLINE_MAX_LAG : lag;
}

void arcoll_explorer_note_root(arcoll_explorer_t *e, int root) {
  if ((!e->stream_lag && e->coll != ARCOLL_COLL_SCATTER && e->coll != ARCOLL_COLL_BCAST) ||
      e->round != 0)
    return;
  if (!e->root_first) e->root_first = root + 1;
  else if (e->root_first != root + 1) e->root_moved = 1;
}

void arcoll_explorer_mean_periods(arcoll_explorer_t *e) {
  if (e->coll != ARCOLL_COLL_SCATTER || e->round != 0 || !e->root_moved || e->trials < 2 ||
      e->done == 0 || e->done % e->trials)
    return;
  double sum = 0.0;
  const int first = e->done - e->trials;
  for (int r = first; r < e->done; ++r) sum += e->p[r];
  for (int r = first; r < e->done; ++r) e->p[r] = sum / e->trials;
}
