// Unit tests of adapt/decision_held.c's exposure: the trees' mean depth, the
// lateness a rooted decision charges them for a rank found late, and the
// threshold at which that changes the choice.  No MPI.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "decision_test_util.hpp"

using decision_test::choice;
using decision_test::result;

TEST(DecisionExposure, MeanDepthOfTheKnownTrees) {
  const auto lin = choice("linear"), bin = choice("binomial"), ch = choice("chain"),
             kn = choice("knomial", 4), tw = choice("twotree");
  ASSERT_TRUE(lin.algo && bin.algo && ch.algo && kn.algo && tw.algo);
  EXPECT_DOUBLE_EQ(arcoll_held_mean_depth(&lin, 64), 0.0);
  // binomial: a position's ancestors below the root are its set bits but one; 1..63 hold
  // 6 x 32 set bits, so 192 - 63 such ancestors (= the descendants summed: 2^j - 1 under
  // each of the 2^(5-j) positions whose lowest set bit is 2^j)
  EXPECT_DOUBLE_EQ(arcoll_held_mean_depth(&bin, 64), 129.0 / 63.0);
  EXPECT_DOUBLE_EQ(arcoll_held_mean_depth(&bin, 8), 5.0 / 7.0);
  EXPECT_DOUBLE_EQ(arcoll_held_mean_depth(&ch, 8), 21.0 / 7.0);  // position - 1 ancestors
  // knomial radix 4 over 16: non-zero base-4 digits but one: 6 positions with none, 9 with one
  EXPECT_DOUBLE_EQ(arcoll_held_mean_depth(&kn, 16), 9.0 / 15.0);
  // a shape not known here counts as binomial
  EXPECT_DOUBLE_EQ(arcoll_held_mean_depth(&tw, 64), 129.0 / 63.0);
  EXPECT_DOUBLE_EQ(arcoll_held_mean_depth(&bin, 1), 0.0);
}

// Round 0 of the moving scenario (SMPI flat P = 64, 8 B bcast): the late
// rank was a leaf of binomial, which measured cheaper than linear.
TEST(DecisionExposure, ThresholdIsTheLatenessAtWhichLinearBecomesCheaper) {
  const int P = 64, trials = 2;
  const arcoll_choice_t cand[] = {choice("linear"), choice("binomial")};
  auto res = result({336e-6, 340e-6, 257e-6, 262e-6}, {5.5e-6, 5.6e-6, 4.3e-6, 4.4e-6});
  const double depth = 129.0 / 63.0, t = (336e-6 - 257e-6) / depth;
  EXPECT_NEAR(arcoll_held_exposure_threshold(cand, 2, trials, P, res.data()), t, 1e-12);
  // linear the cheapest already: no lateness makes another tree cheaper
  auto lin_best = result({200e-6, 200e-6, 257e-6, 262e-6}, {5e-6, 5e-6, 4e-6, 4e-6});
  EXPECT_TRUE(std::isinf(arcoll_held_exposure_threshold(cand, 2, trials, P, lin_best.data())));
  // nothing finite
  auto none = result({INFINITY, INFINITY, INFINITY, INFINITY}, {0, 0, 0, 0});
  EXPECT_TRUE(std::isinf(arcoll_held_exposure_threshold(cand, 2, trials, P, none.data())));
}

TEST(DecisionExposure, ChargesTheTreesThatHoldRanksByTheirDepth) {
  const int P = 64, trials = 2;
  const arcoll_choice_t cand[] = {choice("linear"), choice("binomial")};
  auto res = result({336e-6, 340e-6, 257e-6, 262e-6}, {5.5e-6, 5.6e-6, 4.3e-6, 4.4e-6});
  const double t = arcoll_held_exposure_threshold(cand, 2, trials, P, res.data());
  const double late = ARCOLL_ROOTED_EXPOSURE_MARGIN * t, depth = 129.0 / 63.0;
  arcoll_held_exposure(cand, 2, trials, P, late, res.data());
  EXPECT_DOUBLE_EQ(res[0], 336e-6);  // linear holds nobody: unchanged
  EXPECT_DOUBLE_EQ(res[1], 340e-6);
  EXPECT_DOUBLE_EQ(res[4], 5.5e-6);
  EXPECT_NEAR(res[2], 257e-6 + depth * late, 1e-15);
  EXPECT_NEAR(res[3], 262e-6 + depth * late, 1e-15);
  EXPECT_NEAR(res[6], 4.3e-6 + late, 1e-15);  // its max period: a held rank waits `late` per call
  EXPECT_GT(res[2], res[0]);                  // at the margin linear is the cheaper one
  // no lateness: nothing
  auto res0 = result({1.0, 1.0, 2.0, 2.0}, {1.0, 1.0, 1.0, 1.0});
  for (double l : {0.0, -1e-3, double(NAN)}) arcoll_held_exposure(cand, 2, trials, P, l, res0.data());
  EXPECT_DOUBLE_EQ(res0[2], 2.0);
  EXPECT_DOUBLE_EQ(res0[6], 1.0);
}
