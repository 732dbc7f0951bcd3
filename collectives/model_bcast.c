/* Cost formulas of the broadcast algorithms (bcast.h); the model's
 * conventions and departures from seed 000: model.c; helpers: model_cost.h. */
#include <math.h>
#include <string.h>

#include "model_cost.h"
#include "model_ext.h"
#include "scan.h" /* ARCOLL_SCAN_TREE_WINDOW */
#include "tree_inorder.h"

/* ------------------------------------------------------------------ bcast */

/* The binomial scatter of the scatter + allgather broadcasts, level by
 * level: a rank sends its pieces M/2^i, M/2^(i+1), ... with MPI_Send,
 * largest first; a rendezvous piece (>= EAGER_LIMIT) is sent alone, eager
 * ones all at once (the call returns), so the critical piece shares the
 * link with the smaller eager ones. */
static double scatter_cost(const cost_t *c, int L, double M) {
  double t = 0;
  for (int i = 1; i <= L; ++i) {
    double piece = M / (double)(1L << i);
    t += tsend(c, piece);
    if (piece < EAGER_LIMIT)
      for (int j = i + 1; j <= L; ++j) t += xfer(c, M / (double)(1L << j));
  }
  return t;
}

double arcoll_model_bcast_cost(const cost_t *c, const char *name, int P, double M, MPI_Aint seg,
                               int kp) {
  const int L = arcoll_ceil_log2(P);
  int fan[64];
  if (!strcmp(name, "binomial")) {
    /* Critical path root -> largest subtree: fan-outs L, L-1, ..., 1 (every
     * child of a rank is sent each segment at once).  Seed 000: L T_send(M). */
    for (int i = 0; i < L; ++i) fan[i] = L - i;
    double k = nsegments(M, seg);
    return pipeline(c, fan, L, k, M / k, 0);
  }
  if (!strcmp(name, "knomial")) {
    /* The binomial form with radix r: D = ceil(log_r P) levels, fan-outs
     * (r-1) D, (r-1)(D-1), ..., r-1 (r = 2: the binomial formula). */
    int r = kp >= 2 ? kp : ARCOLL_KNOMIAL_RADIX, D = 0;
    for (long u = 1; u < P && D < 64; u *= r) ++D;
    for (int i = 0; i < D; ++i) fan[i] = (r - 1) * (D - i);
    double k = nsegments(M, seg);
    return pipeline(c, fan, D, k, M / k, 0);
  }
  if (!strcmp(name, "chain")) {
    /* Seed 000: (k + P - 2) 2 T_send(M/k); here one message per hop and the
     * window (pipeline()). */
    double k = nsegments(M, seg);
    return pipeline(c, NULL, P - 1, k, M / k, 0);
  }
  if (!strcmp(name, "binary")) {
    /* tree_extra.h arcoll_tree_binary: the root sends to 2 children (1
     * when P = 2), then the deepest path has floor(log2 m) more hops
     * (m = P-1 or P-2: the in-order tree's levels), every inner rank
     * sending each segment to its two children at once. */
    const long m = (P - 1) % 2 ? P - 1 : P - 2;
    int D = 1;
    while (m > 0 && (2L << (D - 1)) <= m) ++D;
    if (D > 63) D = 63;
    fan[0] = P > 2 ? 2 : 1;
    for (int i = 1; i < D; ++i) fan[i] = 2;
    double k = nsegments(M, seg);
    return pipeline(c, fan, D, k, M / k, 0);
  }
  if (!strcmp(name, "compressed")) {
    /* The data are unknown here: its raw form, the chain (the root's
     * per-call decision, compress_decide.h, models the compressed form). */
    double k = nsegments(M, seg);
    return pipeline(c, NULL, P - 1, k, M / k, 0);
  }
  if (!strcmp(name, "twopath")) {
    /* Seed 000: (k + P/2 - 2) 2 T_send(M/k).  The code (tree_2path over
     * bcast_tree) sends every segment to both heads: fan-out 2 at the root,
     * then a chain, depth ceil((P-1)/2). */
    double k = nsegments(M, seg);
    int depth = P / 2; /* = ceil((P-1)/2) */
    if (depth < 1) depth = 1;
    if (depth > 4096) depth = 4096;
    int f2[4096];
    for (int i = 0; i < depth; ++i) f2[i] = i == 0 && P > 2 ? 2 : 1;
    return pipeline(c, f2, depth, k, M / k, 0);
  }
  if (!strcmp(name, "ksegment")) {
    /* Seed 000: (3k + P/k - 4) T_send(M/k).  Here: the root's k-1 pieces go
     * out at once (k-1 messages sharing its link), k-1 ring steps in which a
     * head also forwards the piece down its group chain (shared link, see
     * ring_step), then the tail of the group chains.  The
     * code caps k at the element count; the model does not see the datatype
     * and assumes 8-byte elements (k <= M/8). */
    int k = kp > 0 ? kp : (P / 2 > 1 ? P / 2 : 1);
    if (k > P) k = P;
    if (k > M / 8) k = M / 8 >= 1 ? (int)(M / 8) : 1;
    double m = M / k;
    int gs = (P + k - 1) / k; /* ranks per group (largest) */
    double x = xfer(c, m);
    /* measured (SMPI, P 16-256): a ring step costs T(m) + X(m) + min(X(m),
     * 1.5 T(0)) when the head also forwards: small pieces pay their link
     * occupancy twice, large ones overlap the forward */
    double ring_step = tsend(c, m) + (gs > 1 ? x + (x < 1.5 * c->lat ? x : 1.5 * c->lat) : 0);
    return shared(c, k - 1, m) + (k - 1) * ring_step + (gs - 1) * tsend(c, m);
  }
  if (!strcmp(name, "nebst")) {
    /* Seed 000: 3 log P (t_s + M/(B log P)).  The n = ceil(log2 P) rotated
     * binomial trees all have the root as root with L children each, so the
     * root sends L copies of every segment, like the binomial tree; every
     * rank handles the segments in order, so the trees wait on each other:
     * modelled as the binomial pipeline of the same segments, twice over
     * (measured: 1-3x too slow for large messages, never the fastest). */
    int n = kp > 0 ? kp : (L > 0 ? L : 1);
    double s = seg > 0 && (double)seg < M / n ? (double)seg : M / n;
    if (s < 1) s = 1;
    double k = ceil(M / s);
    for (int i = 0; i < L; ++i) fan[i] = L - i;
    double t = 2 * pipeline(c, fan, L, k, s, 0) - pipeline(c, fan, L, 1, s, 0);
    /* small messages (SMPI, P = 16-256): at least the twotree form below,
     * (2L - 1) ceil(k/2) (T(s) + X(s)); nebst was never the fastest
     * measured, so the model errs on the slow side */
    if (k >= 2 && M >= 16) {
      double t2 = (2.0 * L - 1) * ceil(k / 2) * (tsend(c, s) + xfer(c, s));
      if (t2 > t) t = t2;
    }
    return t;
  }
  if (!strcmp(name, "scatter_ring") || (!strcmp(name, "scatter_rdb") && (P & (P - 1)))) {
    /* van de Geijn: L t_s + (P-1)/P M/B + (P-1) T_send(M/P): the scatter
     * (scatter_cost), then ring steps of T(M/P) + the forwarding overhead. */
    double t = scatter_cost(c, L, M);
    double x = xfer(c, M / P);
    return t + (P - 1) * (tsend(c, M / P) + (x < c->hop ? x : c->hop));
  }
  if (!strcmp(name, "scatter_rdb")) {
    /* P a power of two (else scatter_ring above): the scatter
     * (scatter_cost), then log2 P exchanges of M 2^j / P bytes each way */
    double t = scatter_cost(c, L, M);
    for (int j = 0; j < L; ++j) t += tsend(c, M * (double)(1L << j) / P);
    return t;
  }
  if (!strcmp(name, "twotree")) {
    /* Sanders-Speck-Traff (simplified): even segments down tree 1, odd down
     * tree 2 (binary trees of depth L = ceil(log2 P), inner fan-out 2), the
     * trees progressing independently (bcast_multitree.h).  Paper:
     * ~ M/B + O(log P t_s + sqrt(M log P t_s / B)).  Here: each tree is the
     * pipeline of its ceil(k/2) segments through L levels of fan-out 2 below
     * the root (fan-out 1: it feeds each tree root in turn), and the root's
     * link carries all k segments: T = max(pipeline, T(s) + (k-1) X(s)).
     * One segment (one element; the model assumes 8-byte elements): the
     * same pipeline with k = 1.  Default: two segments. */
    double k = seg > 0 ? nsegments(M, seg) : 2.0;
    if (k > M / 8) k = M / 8 >= 1 ? floor(M / 8) : 1;
    double s = M / k;
    int D = L > 1 ? L : 1;
    if (D > 63) D = 63;
    fan[0] = 1;
    for (int i = 1; i < D; ++i) fan[i] = 2;
    double t = pipeline(c, fan, D, ceil(k / 2), s, 0);
    double root = tsend(c, s) + (k - 1) * xfer(c, s);
    return t > root ? t : root;
  }
  if (!strcmp(name, "linear")) {
    /* Flat tree: the root's P-1 copies of each segment share its link; with
     * k segments the root streams (P-1) k messages: T(s) + ((P-1) k - 1) X(s). */
    double k = nsegments(M, seg);
    return pipeline(c, NULL, 1, 1, M / k, 0) + ((P - 1) * k - 1) * xfer(c, M / k);
  }
  return -1;
}

/* The busiest rank's copies of the message per call (model_ext.h).  twotree
 * counts 2: its inner ranks send each of their tree's segments to two
 * children, and a rank inner in both trees sends both halves twice
 * (bcast_multitree.h); measured back to back, SMPI flat P = 64, 32 KiB,
 * 8 KiB segments: 5.0x the chain's time inside. */
double arcoll_model_bcast_copies(const char *name, int P, int kp) {
  if (P < 2) return 0;
  const int L = arcoll_ceil_log2(P);
  if (!strcmp(name, "chain")) return 1;
  if (!strcmp(name, "twopath") || !strcmp(name, "ksegment") || !strcmp(name, "scatter_ring") ||
      !strcmp(name, "scatter_rdb") || !strcmp(name, "twotree") || !strcmp(name, "binary"))
    return 2;
  if (!strcmp(name, "binomial") || !strcmp(name, "nebst")) return L;
  if (!strcmp(name, "knomial")) {
    int r = kp >= 2 ? kp : ARCOLL_KNOMIAL_RADIX, D = 0;
    for (long u = 1; u < P && D < 64; u *= r) ++D;
    return (double)(r - 1) * D;
  }
  if (!strcmp(name, "linear")) return P - 1;
  return -1;
}
