// Unit tests of adapt/decision_held.c: which missing records of a rooted
// decision are charged to which candidates' trees, and by how much.  No MPI.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "decision_test_util.hpp"

using decision_test::choice;
using decision_test::result;

TEST(DecisionHeld, ParentsOfTheKnownTrees) {
  const auto lin = choice("linear"), bin = choice("binomial"), kn = choice("knomial", 4),
             ch = choice("chain"), tw = choice("twotree");
  ASSERT_TRUE(lin.algo && bin.algo && kn.algo && ch.algo && tw.algo);
  EXPECT_EQ(arcoll_held_parent_pos(&lin, 37, 64), 0);
  EXPECT_EQ(arcoll_held_parent_pos(&bin, 25, 64), 24);
  EXPECT_EQ(arcoll_held_parent_pos(&bin, 24, 64), 16);
  EXPECT_EQ(arcoll_held_parent_pos(&kn, 25, 64), 24);  // 121 (base 4) -> 120
  EXPECT_EQ(arcoll_held_parent_pos(&kn, 24, 64), 16);  // 120 -> 100
  EXPECT_EQ(arcoll_held_parent_pos(&ch, 9, 64), 8);
  EXPECT_EQ(arcoll_held_parent_pos(&tw, 9, 64), -1);   // shape not known here
  EXPECT_EQ(arcoll_held_parent_pos(&bin, 0, 64), -1);  // the root has none
  EXPECT_EQ(arcoll_held_parent_pos(&bin, 64, 64), -1);
}

// One late rank at position 24 of 64 (the scenario one_late): it and its
// binomial subtree 25..31 are missing.  Linear held nobody; binomial held
// 25..31 (24 above them); knomial radix 4 held 25..27 (under 24) and 29..31
// (under 28), not 28 (its parent, 16, is in); 24 itself was held by no tree
// and is left out.
TEST(DecisionHeld, TheLateRanksSubtreeChargesTheTreesThatHeldIt) {
  const int P = 64, trials = 2;
  const arcoll_choice_t cand[] = {choice("linear"), choice("knomial", 4), choice("binomial")};
  const int n = 3, k = n * trials;
  std::vector<unsigned char> got(P, 1);
  for (int q = 24; q < 32; ++q) got[q] = 0;
  auto res = result(k, 1e-4, 5e-6);
  const double behind = 8e-3;
  EXPECT_EQ(arcoll_held_charge(cand, n, trials, P, 0, got.data(), 1, behind, res.data()), 7);
  const double both = behind / (2 * trials);  // a rank both trees held: 2 candidates x 2 runs
  const double one = behind / trials;         // 28: binomial alone
  for (int r = 0; r < trials; ++r) {
    EXPECT_DOUBLE_EQ(res[r], 1e-4) << "linear run " << r;
    EXPECT_DOUBLE_EQ(res[k + r], 5e-6);
    EXPECT_DOUBLE_EQ(res[trials + r], 1e-4 + 6 * both) << "knomial run " << r;
    EXPECT_DOUBLE_EQ(res[k + trials + r], both);
    EXPECT_DOUBLE_EQ(res[2 * trials + r], 1e-4 + 6 * both + one) << "binomial run " << r;
    EXPECT_DOUBLE_EQ(res[k + 2 * trials + r], one);
    for (int i = 0; i < n; ++i) EXPECT_DOUBLE_EQ(res[2 * k + i * trials + r], 0.0);  // min periods
  }
}

TEST(DecisionHeld, PositionsAreRelativeToTheRoot) {
  const int P = 16, trials = 1;
  const arcoll_choice_t cand[] = {choice("binomial")};
  std::vector<unsigned char> got(P, 1);
  // root 5: positions 2, 3 are ranks 7, 8; 3's binomial parent is 2
  got[7] = got[8] = 0;
  auto res = result(1, 0.0, 0.0);
  EXPECT_EQ(arcoll_held_charge(cand, 1, trials, P, 5, got.data(), 1, 1e-3, res.data()), 1);
  EXPECT_DOUBLE_EQ(res[0], 1e-3);
  // the same two ranks with root 0: positions 7 and 8, neither above the other
  auto res0 = result(1, 0.0, 0.0);
  EXPECT_EQ(arcoll_held_charge(cand, 1, trials, P, 0, got.data(), 1, 1e-3, res0.data()), 0);
  EXPECT_DOUBLE_EQ(res0[0], 0.0);
}

TEST(DecisionHeld, UnknownShapesAndReorderedTreesCountAsHeld) {
  const int P = 32, trials = 1;
  const arcoll_choice_t cand[] = {choice("linear"), choice("twotree")};
  std::vector<unsigned char> got(P, 1);
  got[3] = got[20] = 0;  // two missing ranks, unrelated in any tree
  auto res = result(2, 0.0, 0.0);
  EXPECT_EQ(arcoll_held_charge(cand, 2, trials, P, 0, got.data(), 1, 2e-3, res.data()), 2);
  EXPECT_DOUBLE_EQ(res[0], 0.0);       // linear holds nobody
  EXPECT_DOUBLE_EQ(res[1], 2 * 2e-3);  // twotree: both, not knowing its shape
  // a late-rank order (in_order = 0): even binomial is not known
  const arcoll_choice_t bin[] = {choice("binomial")};
  auto resb = result(1, 0.0, 0.0);
  EXPECT_EQ(arcoll_held_charge(bin, 1, trials, P, 0, got.data(), 0, 2e-3, resb.data()), 2);
  // ... while linear holds nobody in any order
  auto resl = result(2, 0.0, 0.0);
  EXPECT_EQ(arcoll_held_charge(cand, 2, trials, P, 0, got.data(), 0, 2e-3, resl.data()), 2);
  EXPECT_DOUBLE_EQ(resl[0], 0.0);
  EXPECT_DOUBLE_EQ(resl[1], 2 * 2e-3);
  // one missing rank alone is held by nothing
  got[20] = 1;
  auto res1 = result(2, 0.0, 0.0);
  EXPECT_EQ(arcoll_held_charge(cand, 2, trials, P, 0, got.data(), 0, 2e-3, res1.data()), 0);
}

TEST(DecisionHeld, NothingChargedWithoutALag) {
  const arcoll_choice_t cand[] = {choice("binomial")};
  std::vector<unsigned char> got(8, 1);
  got[4] = got[5] = 0;
  auto res = result(1, 1.0, 1.0);
  for (double b : {0.0, -1.0, double(NAN)})
    EXPECT_EQ(arcoll_held_charge(cand, 1, 1, 8, 0, got.data(), 1, b, res.data()), 0);
  EXPECT_DOUBLE_EQ(res[0], 1.0);
}
