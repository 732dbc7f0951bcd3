/* Cost formulas of the gatherv and scatterv algorithms (model_ext.h,
 * gatherv.h), the same for both directions.  T(x): the one-way time of an
 * x-byte message, X(x): the time it occupies its link (arcoll_model_p2p /
 * arcoll_model_gap on the inter-node parameters and curves, as model.c).
 * b = bytes of the largest block, M = all P blocks (b <= M <= P b). */
#include <string.h>

#include "model_ext.h"

static double T(const arcoll_model_t *md, double x) {
  return arcoll_model_p2p(&md->inter, &md->inter_curve, x);
}
static double X(const arcoll_model_t *md, double x) {
  return arcoll_model_gap(&md->inter, &md->inter_gap_curve, x);
}

double arcoll_model_gatherv(const arcoll_model_t *md, const char *name, int P, double b,
                            double M) {
  if (!strcmp(name, "linear")) { /* P-1 blocks through the root's link, the largest alone */
    const double link = T(md, 0) + (P - 1) * X(md, M / P);
    return link > T(md, b) ? link : T(md, b);
  }
  if (!strcmp(name, "binomial")) { /* level l: a subtree of <= 2^l blocks, <= M bytes */
    double t = 0;
    for (long k = 1; k < P; k <<= 1) t += T(md, k * b < M ? k * b : M);
    return t;
  }
  return -1;
}
