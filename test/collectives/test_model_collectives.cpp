// Unit tests of the cost formulas of the collectives added after bcast, reduce
// and scan (model_allgatherv.c, ...): closed forms under the built-in model.
#include <gtest/gtest.h>

#include <algorithm>

#include "select.h"
extern "C" {
#include "model_ext.h"  // arcoll_model_<coll> (internal to collectives/)
}

// Allgatherv (model_allgatherv.c): the largest block b sets the step-bound
// algorithms (ring: (P-1) T(b), whatever the total M), the total caps the
// steps that carry several blocks; arcoll_model_predict takes bytes = b and
// M = P b.  Default model: T(x) = t_s + x / B.
TEST(Model, AllgathervUsesTheLargestBlockAndTheTotal) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  const double ts = m.inter.t_s, B = m.inter.B, b = 1 << 16;
  auto T = [&](double x) { return ts + x / B; };
  // ring: 7 steps of the largest block, for a balanced (M = 8b) or a one-rank (M = b) call
  EXPECT_NEAR(arcoll_model_allgatherv(&m, "ring", 8, b, 8 * b), 7 * T(b), 1e-12);
  EXPECT_NEAR(arcoll_model_allgatherv(&m, "ring", 8, b, b), 7 * T(b), 1e-12);
  // bruck P = 8: steps of 1, 2, 4 blocks, capped by M
  EXPECT_NEAR(arcoll_model_allgatherv(&m, "bruck", 8, b, 8 * b), T(b) + T(2 * b) + T(4 * b), 1e-12);
  EXPECT_NEAR(arcoll_model_allgatherv(&m, "bruck", 8, b, 2 * b), T(b) + 2 * T(2 * b), 1e-12);
  // gather_bcast P = 4: subtrees of 1 and 2 blocks up, 2 broadcast steps of M
  EXPECT_NEAR(arcoll_model_allgatherv(&m, "gather_bcast", 4, b, 3 * b),
              T(b) + T(2 * b) + 2 * T(3 * b), 1e-12);
  // linear_knomial P = 8: 7 blocks into position 0 (T + 6 gaps), then
  // ceil(log4 8) = 2 levels of up to 3 sends of M (T + 2 gaps)
  {
    const double gb = std::max(m.inter.g, b / B), gM = std::max(m.inter.g, 8 * b / B);
    EXPECT_NEAR(arcoll_model_allgatherv(&m, "linear_knomial", 8, b, 8 * b),
                T(b) + 6 * gb + 2 * (T(8 * b) + 2 * gM), 1e-12);
  }
  // recursive doubling P = 5 (P2 = 4, g = 5/4): steps 1, 2 + fold and unfold
  EXPECT_NEAR(arcoll_model_allgatherv(&m, "recursive_doubling", 5, b, 5 * b),
              T(1.25 * b) + T(2.5 * b) + T(b) + T(5 * b), 1e-12);
  // direct: one latency per window of 32 steps, P-1 messages of the largest
  // block through this rank's link (default model: X(x) = max(g, x / B))
  const double g = m.inter.g;
  auto X = [&](double x) { return std::max(g, x / B); };
  EXPECT_NEAR(arcoll_model_allgatherv(&m, "direct", 8, b, 8 * b), T(0) + 7 * X(b), 1e-12);
  EXPECT_NEAR(arcoll_model_allgatherv(&m, "direct", 8, 8, 64), T(0) + 7 * X(8), 1e-12);
  EXPECT_NEAR(arcoll_model_allgatherv(&m, "direct", 64, 8, 512), 2 * T(0) + 63 * X(8), 1e-12);
  // allgather direct: the same formula, every block m
  EXPECT_NEAR(arcoll_model_allgather(&m, "direct", 64, 8, 0), 2 * T(0) + 63 * X(8), 1e-12);
  EXPECT_LT(arcoll_model_allgatherv(&m, "nosuch", 8, b, b), 0.0);
  // through arcoll_model_predict: bytes = b, M = P b
  EXPECT_NEAR(arcoll_model_predict(&m, ARCOLL_COLL_ALLGATHERV,
                                   arcoll_algorithm_find(ARCOLL_COLL_ALLGATHERV, "bruck"), 8,
                                   (MPI_Aint)b, 0, 0),
              T(b) + T(2 * b) + T(4 * b), 1e-12);
}

// Gatherv / scatterv (model_gatherv.c): linear is bounded by the root's link
// (T(0) + (P-1) X(M/P)) and by the largest block alone (T(b)); binomial
// levels carry subtrees of 1, 2, 4 ... blocks capped by the total M;
// arcoll_model_predict takes bytes = b (the dispatcher's nominal block) and
// M = P b, the same for both directions.  Default model: T(x) = t_s + x / B,
// X(x) = max(g, x / B).
TEST(Model, GathervLinearIsTheRootLinkBinomialTheSubtrees) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  const double ts = m.inter.t_s, B = m.inter.B, g = m.inter.g, b = 1 << 16;
  auto T = [&](double x) { return ts + x / B; };
  auto X = [&](double x) { return x / B > g ? x / B : g; };
  // linear, balanced (M = 8b): the root's link carries 7 blocks
  EXPECT_NEAR(arcoll_model_gatherv(&m, "linear", 8, b, 8 * b), T(0) + 7 * X(b), 1e-12);
  // linear, one rank holds everything (M = b): the largest block alone bounds it
  EXPECT_NEAR(arcoll_model_gatherv(&m, "linear", 8, b, b), T(b), 1e-12);
  // binomial P = 8: levels of 1, 2, 4 blocks; capped by M = 2b
  EXPECT_NEAR(arcoll_model_gatherv(&m, "binomial", 8, b, 8 * b), T(b) + T(2 * b) + T(4 * b),
              1e-12);
  EXPECT_NEAR(arcoll_model_gatherv(&m, "binomial", 8, b, 2 * b), T(b) + 2 * T(2 * b), 1e-12);
  // binomial P = 5: ceil(log2 5) = 3 levels
  EXPECT_NEAR(arcoll_model_gatherv(&m, "binomial", 5, b, 5 * b), T(b) + T(2 * b) + T(4 * b),
              1e-12);
  EXPECT_LT(arcoll_model_gatherv(&m, "nosuch", 8, b, b), 0.0);
  for (arcoll_coll_t c : {ARCOLL_COLL_GATHERV, ARCOLL_COLL_SCATTERV})
    EXPECT_NEAR(arcoll_model_predict(&m, c, arcoll_algorithm_find(c, "binomial"), 8, (MPI_Aint)b,
                                     0, 0),
                T(b) + T(2 * b) + T(4 * b), 1e-12);
}

// Reduce_scatter (model_reduce_scatter.c): pairwise and ring wait for the
// largest block b at every step whatever the total M; recursive halving's
// steps carry P/2^i blocks capped by M, + fold and unfold when P is not a
// power of two; reduce_scatter_block is the case M = P b; arcoll_model_predict
// takes bytes = b and M = P b.  Default model: T(x) = t_s + x / B.
TEST(Model, ReduceScatterUsesTheLargestBlockAndTheTotal) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  const double ts = m.inter.t_s, B = m.inter.B, g = m.gamma, b = 1 << 16;
  auto S = [&](double x) { return ts + x / B + g * x; };  // one step: send + reduce x bytes
  EXPECT_NEAR(arcoll_model_reduce_scatter(&m, "pairwise", 8, b, 8 * b), 7 * S(b), 1e-12);
  EXPECT_NEAR(arcoll_model_reduce_scatter(&m, "ring", 8, b, b), 7 * S(b), 1e-12);
  // halving P = 8: 4, 2, 1 blocks; with M = 2b the first step is capped at 2b
  EXPECT_NEAR(arcoll_model_reduce_scatter(&m, "recursive_halving", 8, b, 8 * b),
              S(4 * b) + S(2 * b) + S(b), 1e-12);
  EXPECT_NEAR(arcoll_model_reduce_scatter(&m, "recursive_halving", 8, b, 2 * b),
              2 * S(2 * b) + S(b), 1e-12);
  // P = 5 (P2 = 4): steps of 2.5 and 1.25 blocks, fold (M, reduced) and unfold (b)
  EXPECT_NEAR(arcoll_model_reduce_scatter(&m, "recursive_halving", 5, b, 5 * b),
              S(2.5 * b) + S(1.25 * b) + S(5 * b) + ts + b / B, 1e-12);
  EXPECT_LT(arcoll_model_reduce_scatter(&m, "nosuch", 8, b, b), 0.0);
  for (const char *a : {"pairwise", "ring", "recursive_halving"}) {
    SCOPED_TRACE(a);
    EXPECT_NEAR(arcoll_model_reduce_scatter_block(&m, a, 6, b),
                arcoll_model_reduce_scatter(&m, a, 6, b, 6 * b), 1e-15);
    EXPECT_NEAR(arcoll_model_predict(&m, ARCOLL_COLL_REDUCE_SCATTER,
                                     arcoll_algorithm_find(ARCOLL_COLL_REDUCE_SCATTER, a), 6,
                                     (MPI_Aint)b, 0, 0),
                arcoll_model_reduce_scatter(&m, a, 6, b, 6 * b), 1e-15);
  }
}

// Alltoallv (model_alltoallv.c): linear pays one latency per window of 32
// requests and the bytes of every block, pairwise (P-1) full messages;
// arcoll_model_predict passes the dispatcher's fixed block size through.
TEST(Model, AlltoallvLinearWindowsAndPairwiseSteps) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  const double ts = m.inter.t_s, B = m.inter.B, b = 4096;
  EXPECT_NEAR(arcoll_model_alltoallv(&m, "pairwise", 8, b), 7 * (ts + b / B), 1e-12);
  EXPECT_NEAR(arcoll_model_alltoallv(&m, "linear", 8, b), ts + 7 * b / B, 1e-12);
  EXPECT_NEAR(arcoll_model_alltoallv(&m, "linear", 65, b), 2 * ts + 64 * b / B, 1e-12);
  EXPECT_LT(arcoll_model_alltoallv(&m, "nosuch", 8, b), 0.0);
  EXPECT_NEAR(arcoll_model_predict(&m, ARCOLL_COLL_ALLTOALLV,
                                   arcoll_algorithm_find(ARCOLL_COLL_ALLTOALLV, "pairwise"), 8,
                                   (MPI_Aint)b, 0, 0),
              7 * (ts + b / B), 1e-12);
}
