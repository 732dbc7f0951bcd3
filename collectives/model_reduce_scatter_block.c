/* Cost formulas of the reduce_scatter_block algorithms (model_ext.h,
 * reduce_scatter_block.h).  T(x): one-way time of an x-byte message
 * (arcoll_model_p2p, inter-node); gamma: seconds per byte reduced; a
 * send-receive step costs one T (full duplex, as model.c).  m = bytes of
 * one block, M = P m. */
#include <string.h>

#include "model_ext.h"

static double T(const arcoll_model_t *md, double x) {
  return arcoll_model_p2p(&md->inter, &md->inter_curve, x);
}

double arcoll_model_reduce_scatter_block(const arcoll_model_t *md, const char *name, int P,
                                         double m) {
  const double g = md->gamma;
  if (!strcmp(name, "pairwise") || !strcmp(name, "ring")) /* (P-1) (T(m) + gamma m) */
    return (P - 1) * (T(md, m) + g * m);
  if (!strcmp(name, "recursive_halving")) {
    /* halving steps of M P2/P / 2^i (super-blocks), + fold and unfold */
    int P2 = 1;
    while (P2 * 2 <= P) P2 *= 2;
    double t = 0, piece = m * P;
    for (int k = P2 / 2; k >= 1; k /= 2) {
      piece /= 2;
      t += T(md, piece) + g * piece;
    }
    if (P != P2) t += T(md, m * P) + g * m * P + T(md, m);
    return t;
  }
  return -1;
}
