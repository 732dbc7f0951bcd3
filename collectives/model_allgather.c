/* Cost formulas of the allgather algorithms (model_ext.h, allgather.h).
 * T(x): the one-way time of an x-byte message (arcoll_model_p2p on the
 * inter-node parameters and curve); a send-receive step costs one T (full
 * duplex, as model.c).  m = bytes of one block. */
#include <string.h>

#include "model_ext.h"

static double T(const arcoll_model_t *md, double x) {
  return arcoll_model_p2p(&md->inter, &md->inter_curve, x);
}

double arcoll_model_allgather(const arcoll_model_t *md, const char *name, int P, double m,
                              MPI_Aint seg) {
  if (!strcmp(name, "compressed")) /* its raw form, the ring (the data are unknown here) */
    return (P - 1) * T(md, m);
  if (!strcmp(name, "ring")) /* Thakur et al.: (P-1) (t_s + m/B) */
    return (P - 1) * T(md, m);
  if (!strcmp(name, "neighbor_exchange")) /* P odd: the ring; else a swap, then P/2-1 pairs */
    return P % 2 ? (P - 1) * T(md, m) : T(md, m) + (P / 2 - 1) * T(md, 2 * m);
  if (!strcmp(name, "recursive_doubling")) {
    /* log2 P2 exchanges of 2^i groups of P/P2 blocks on average; P != 2^n:
     * fold one block in, unfold P-1 blocks out */
    int P2 = 1;
    while (P2 * 2 <= P) P2 *= 2;
    double t = 0, g = m * (double)P / P2;
    for (int k = 1; k < P2; k <<= 1) t += T(md, k * g);
    if (P != P2) t += T(md, m) + T(md, (P - 1) * m);
    return t;
  }
  if (!strcmp(name, "bruck")) { /* Bruck et al.: steps of min(k, P-k) blocks */
    double t = 0;
    for (int k = 1; k < P; k <<= 1) t += T(md, (k < P - k ? k : P - k) * m);
    return t;
  }
  if (!strcmp(name, "direct")) /* allgatherv's formula, every block m */
    return arcoll_model_allgatherv(md, "direct", P, m, P * m);
  if (!strcmp(name, "gather_bcast")) { /* the two collectives' own formulas */
    const arcoll_algo_desc_t *g = arcoll_algorithm_find(ARCOLL_COLL_GATHER, "binomial");
    const arcoll_algo_desc_t *b = arcoll_algorithm_find(ARCOLL_COLL_BCAST, "binomial");
    return arcoll_model_predict(md, ARCOLL_COLL_GATHER, g, P, (MPI_Aint)m, 0, 0) +
           arcoll_model_predict(md, ARCOLL_COLL_BCAST, b, P, (MPI_Aint)(P * m), seg, 0);
  }
  return -1;
}
