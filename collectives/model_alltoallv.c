/* Cost formulas of the alltoallv algorithms (model_ext.h, alltoallv.h).
 * T(x): one-way time of an x-byte message (arcoll_model_p2p, inter-node);
 * m = bytes of a block.  The dispatcher passes a fixed block size
 * (adapt/alltoallv.c: it cannot know the other ranks' counts). */
#include <string.h>

#include "alltoall.h" /* ARCOLL_ALLTOALL_THROTTLE */
#include "model_ext.h"

static double T(const arcoll_model_t *md, double x) {
  return arcoll_model_p2p(&md->inter, &md->inter_curve, x);
}

double arcoll_model_alltoallv(const arcoll_model_t *md, const char *name, int P, double m) {
  if (!strcmp(name, "linear")) { /* one latency per window, the bytes of every block */
    const int windows = (P - 1 + ARCOLL_ALLTOALL_THROTTLE - 1) / ARCOLL_ALLTOALL_THROTTLE;
    return windows * T(md, 0) + (P - 1) * (T(md, m) - T(md, 0));
  }
  if (!strcmp(name, "pairwise")) return (P - 1) * T(md, m);
  return -1;
}
