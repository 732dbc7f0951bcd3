/* Cost formulas of the reduce_scatter and reduce_scatter_block algorithms
 * (model_ext.h, reduce_scatter.h).  T(x): one-way time of an x-byte message
 * (arcoll_model_p2p, inter-node); gamma: seconds per byte reduced; a
 * send-receive step costs one T (full duplex, as model.c).  b = bytes of the
 * largest block, M = bytes of all P blocks (b <= M <= P b); a step that
 * moves j blocks costs at most T(min(j b, M)) (as model_allgatherv.c).
 * reduce_scatter_block is the case M = P b. */
#include <string.h>

#include "model_ext.h"

static double T(const arcoll_model_t *md, double x) {
  return arcoll_model_p2p(&md->inter, &md->inter_curve, x);
}
static double cap(double x, double M) { return x < M ? x : M; }

double arcoll_model_reduce_scatter(const arcoll_model_t *md, const char *name, int P, double b,
                                   double M) {
  const double g = md->gamma;
  if (!strcmp(name, "pairwise") || !strcmp(name, "ring")) /* each step waits for b */
    return (P - 1) * (T(md, b) + g * b);
  if (!strcmp(name, "reduce_scatterv")) { /* the two collectives' own formulas */
    const arcoll_algo_desc_t *r = arcoll_algorithm_find(ARCOLL_COLL_REDUCE, "knomial");
    return arcoll_model_predict(md, ARCOLL_COLL_REDUCE, r, P, (MPI_Aint)M, 0, 0) +
           arcoll_model_gatherv(md, "binomial", P, b, M);
  }
  if (!strcmp(name, "recursive_halving") || !strcmp(name, "recursive_halving_near")) {
    /* halving steps of P/2^i blocks (super-blocks of P/P2 on average), + fold and unfold */
    int P2 = 1;
    while (P2 * 2 <= P) P2 *= 2;
    double t = 0, blocks = P;
    for (int k = P2 / 2; k >= 1; k /= 2) {
      blocks /= 2;
      const double piece = cap(blocks * b, M);
      t += T(md, piece) + g * piece;
    }
    if (P != P2) t += T(md, M) + g * M + T(md, b);
    return t;
  }
  return -1;
}

double arcoll_model_reduce_scatter_block(const arcoll_model_t *md, const char *name, int P,
                                         double m) {
  return arcoll_model_reduce_scatter(md, name, P, m, P * m);
}
