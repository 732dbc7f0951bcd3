/* The detaching reduce's state per communicator (detach_state.h,
 * collectives/reduce_detach.h). */
#include "detach_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce_detach.h"
#include "tree_extra.h"

struct arcoll_red_detach *arcoll_reduce_detach_state(arcoll_comm_state_t *st,
                                                     const arcoll_cached_t *ch, int root, int commut,
                                                     MPI_Aint bytes, const int *order,
                                                     const unsigned char *detached) {
  if (arcoll_g_cfg.reduce_detach == 0 || !commut || bytes <= 0 || bytes > ARCOLL_RED_DETACH_MAX_BYTES ||
      st->P < 3 || !ch || !ch->algo || ch->ex || ch->decision || order || detached)
    return NULL;
  const int binomial = !strcmp(ch->algo->name, "binomial");
  if (!binomial && strcmp(ch->algo->name, "knomial")) return NULL;
  const int k = binomial ? 2 : ch->k >= 2 ? ch->k : ARCOLL_KNOMIAL_RADIX;
  const int cls = arcoll_size_class(bytes);
  if (st->red_detach_made)
    return st->red_detach && st->red_detach_root == root && st->red_detach_k == k &&
                   st->red_detach_class == cls
               ? st->red_detach
               : NULL;
  st->red_detach_made = 1; /* the first such call's tree, on every rank */
  st->red_detach_root = root, st->red_detach_k = k, st->red_detach_class = cls;
  arcoll_red_detach_t *d = malloc(sizeof *d);
  if (!d) return NULL;
  const int mypos = (st->me - root + st->P) % st->P;
  const int parent = mypos > 0 ? (root + arcoll_knomial_parent_pos(mypos, k)) % st->P : -1;
  double late_s = ch->predicted_s > 0 ? ARCOLL_RED_DETACH_LATE_FACTOR * ch->predicted_s : 0.0;
  if (late_s < ARCOLL_RED_DETACH_MIN_LATE_S) late_s = ARCOLL_RED_DETACH_MIN_LATE_S;
  if (arcoll_red_detach_init(d, st->P, mypos, parent, late_s, ARCOLL_RED_DETACH_CALLS,
                             ARCOLL_TAG_DETACH, st->priv) != MPI_SUCCESS) {
    free(d);
    return NULL;
  }
  if (arcoll_g_cfg.debug && st->me == root)
    fprintf(stderr, "arcoll: reduce P=%d bytes=%lld root %d: %s (k %d) detaches ranks late by more "
            "than %.3g s in %d calls (ARCOLL_REDUCE_DETACH)\n", st->P, (long long)bytes, root,
            ch->algo->name, k, late_s, ARCOLL_RED_DETACH_CALLS);
  return st->red_detach = d;
}

void arcoll_reduce_detach_free(arcoll_comm_state_t *st) {
  if (!st->red_detach) return;
  if (arcoll_g_cfg.debug && st->me == st->red_detach_root && st->red_detach->detached)
    fprintf(stderr, "arcoll: reduce P=%d root %d: %d ranks sent to the root directly "
            "(ARCOLL_REDUCE_DETACH)\n", st->P, st->red_detach_root, st->red_detach->detached);
  arcoll_red_detach_free(st->red_detach);
  free(st->red_detach);
  st->red_detach = NULL;
}
