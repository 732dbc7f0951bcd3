/* Cost formulas of the allgatherv algorithms (model_ext.h, allgatherv.h).
 * T(x): the one-way time of an x-byte message (arcoll_model_p2p on the
 * inter-node parameters and curve), a send-receive step one T (as
 * model_allgather.c).  b = bytes of the largest block, M = total bytes of
 * all P blocks (P b >= M >= b).  A step that moves j blocks costs at most
 * T(min(j b, M)): the imbalance enters through b, the total caps it. */
#include <string.h>

#include "allgatherv.h" /* ARCOLL_ALLGATHERV_DIRECT_WINDOW */
#include "model_ext.h"

static double T(const arcoll_model_t *md, double x) {
  return arcoll_model_p2p(&md->inter, &md->inter_curve, x);
}
static double cap(double x, double M) { return x < M ? x : M; }

double arcoll_model_allgatherv(const arcoll_model_t *md, const char *name, int P, double b,
                               double M) {
  if (!strcmp(name, "ring")) /* every step waits for the largest block in flight */
    return (P - 1) * T(md, b);
  if (!strcmp(name, "neighbor_exchange")) /* P odd: the ring; else a swap, then P/2-1 pairs */
    return P % 2 ? (P - 1) * T(md, b) : T(md, b) + (P / 2 - 1) * T(md, cap(2 * b, M));
  if (!strcmp(name, "recursive_doubling")) {
    int P2 = 1;
    while (P2 * 2 <= P) P2 *= 2;
    double t = 0;
    const double g = (double)P / P2; /* blocks per virtual position, on average */
    for (int k = 1; k < P2; k <<= 1) t += T(md, cap(k * g * b, M));
    if (P != P2) t += T(md, b) + T(md, M);
    return t;
  }
  if (!strcmp(name, "bruck")) {
    double t = 0;
    for (int k = 1; k < P; k <<= 1) t += T(md, cap((k < P - k ? k : P - k) * b, M));
    return t;
  }
  if (!strcmp(name, "direct")) { /* a latency per window; every message through this rank's link */
    const int windows = (P - 1 + ARCOLL_ALLGATHERV_DIRECT_WINDOW - 1) / ARCOLL_ALLGATHERV_DIRECT_WINDOW;
    return windows * T(md, 0) + (P - 1) * arcoll_model_gap(&md->inter, &md->inter_gap_curve, b);
  }
  if (!strcmp(name, "linear_knomial")) { /* P-1 blocks into position 0, then radix-k levels of M */
    const int k = ARCOLL_KNOMIAL_RADIX;
    int levels = 0;
    for (long m = 1; m < P; m *= k) ++levels;
    const double g = arcoll_model_gap(&md->inter, &md->inter_gap_curve, b),
                 gM = arcoll_model_gap(&md->inter, &md->inter_gap_curve, M);
    return (P > 1 ? T(md, b) + (P - 2) * g : 0) + levels * (T(md, M) + (k - 2) * gM);
  }
  if (!strcmp(name, "gather_bcast")) { /* subtrees of 2^l blocks up, then all M down */
    double t = 0;
    for (int k = 1; k < P; k <<= 1) t += T(md, cap(k * b, M)) + T(md, M);
    return t;
  }
  return -1;
}
