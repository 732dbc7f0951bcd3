/*
 * Late-rank orders for the rooted collectives (bcast, scatter, reduce,
 * gather): which calls use one, and what one tree level costs.  The
 * tracking itself: late_tracker.h; decisions: lateness.h, order.h.
 */
#include <string.h>

#include "dispatch.h"
#include "online_noted.h"
#include "site.h"

int arcoll_late_applies(arcoll_coll_t c, MPI_Aint bytes) {
  const arcoll_mode_t mode = arcoll_g_cfg.mode[c];
  if (!(mode == ARCOLL_MODE_AUTO || mode == ARCOLL_MODE_ADAPTIVE) || arcoll_g_cfg.late_order == 0)
    return 0;
  if (arcoll_g_cfg.late_order > 0 || mode == ARCOLL_MODE_ADAPTIVE) return 1;
  /* unset: bcast of segmented sizes (adapt/README.md "Lateness") */
  return c == ARCOLL_COLL_BCAST && bytes >= ARCOLL_LATE_DEFAULT_MIN_BYTES;
}

int arcoll_late_begin(arcoll_comm_state_t *st, arcoll_coll_t c, const arcoll_cached_t *ch,
                      int root, int usable, MPI_Aint bytes, arcoll_late_call_t *lc) {
  int rc = MPI_SUCCESS;
  memset(lc, 0, sizeof *lc);
  if (!usable || !arcoll_late_applies(c, bytes) || !(ch->algo->flags & ARCOLL_ALGO_USES_ORDER))
    return MPI_SUCCESS;
  if (!(lc->lt = arcoll_late(st, c, &rc))) return rc;
  return arcoll_late_enter(lc->lt, root, &lc->entry, &lc->order);
}

int arcoll_late_end(const arcoll_comm_state_t *st, const arcoll_cached_t *ch, int root,
                    const void *ret_addr, const arcoll_late_call_t *lc) {
  if (!lc->lt) return MPI_SUCCESS;
  /* a rank is late when it arrives more than one tree level's time (the
   * model's time / ceil(log2 P); chain: / (P - 1)) after it was needed */
  const char *name = ch->algo->name;
  const int P = st->P, chain = !strcmp(name, "chain"), binary = !strcmp(name, "binary");
  /* the binomial-like trees over the positions: binomial (and knomial, whose
   * first level it shares), linear, the reduce / gather / scatter trees */
  const int tree = chain || binary || !strcmp(name, "binomial") || !strcmp(name, "knomial") ||
                   !strcmp(name, "linear") || lc->lt->up || !strcmp(ch->algo->collective, "scatter");
  int levels = 0;
  while ((1 << levels) < P) ++levels;
  if (binary) /* floor(log2 P) */
    while (levels > 1 && (1 << levels) > P) --levels;
  const double t_level = ch->predicted_s > 0 ? ch->predicted_s / (chain ? P - 1 : levels) : 0.0;
  const int shape = chain ? ARCOLL_LATE_CHAIN : binary ? ARCOLL_LATE_BINARY : tree ? 0 : ARCOLL_LATE_OTHER;
  return arcoll_late_exit(lc->lt, root, lc->entry, arcoll_site_key(ret_addr), lc->order, t_level,
                          shape, 1);
}

const arcoll_cached_t *arcoll_late_algorithm(arcoll_comm_state_t *st, arcoll_coll_t c,
                                             MPI_Aint bytes, const arcoll_cached_t *ch,
                                             const arcoll_late_call_t *lc) {
  if (!lc->lt || !strcmp(ch->algo->name, arcoll_tolerant_tree(c, bytes))) return ch;
  if (!lc->order && !(ch->ex && (lc->lt->exchanges == 0 || lc->lt->late_seen))) return ch;
  const arcoll_cached_t *alt = arcoll_late_tolerant(st, c, bytes);
  if (!alt) return ch;
  arcoll_note(c, alt->algo);
  return alt;
}

int arcoll_late_done(arcoll_comm_state_t *st, const arcoll_cached_t *chosen,
                     const arcoll_cached_t *ran, double t0, int rc) {
  if (ran == chosen) return arcoll_online_done(st, ran, t0, rc);
  arcoll_explorer_t *ex = chosen->ex;
  if (!ex) return rc;
  const double now = PMPI_Wtime();
  const arcoll_choice_t c = {ran->algo, ran->segment_bytes, ran->k, ran->predicted_s};
  arcoll_explorer_note_run(ex, &c, now - t0, ex->last_exit > 0 ? now - ex->last_exit : now - t0,
                           rc != MPI_SUCCESS);
  ex->last_exit = now;
  return rc;
}
