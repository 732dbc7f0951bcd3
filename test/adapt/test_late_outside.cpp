// Unit tests of adapt/late_outside.c: which ranks a streaming reduce chain
// takes as late from the ranks' mean times outside the reduce (median +
// max(floor, 8 median absolute deviations)), the chain order with them
// next to the root, and when the chain's stream is bound by links the model
// does not see (then no order).  No MPI.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

extern "C" {
#include "late_chain.h"
#include "late_outside.h"
}

namespace {
std::vector<int> late_set(const std::vector<double> &outside, double floor_s, int *k) {
  std::vector<int> late(outside.size(), -1);
  *k = arcoll_outside_late_set(outside.data(), (int)outside.size(), floor_s, late.data());
  late.resize(*k > 0 ? *k : 0);
  return late;
}
}  // namespace

TEST(LateOutside, EightRanksOneMillisecondBehindAreLateLatestFirst) {
  // SMPI flat P = 64, eight_late: ranks 4, 12, ..., 60 spend 1 ms more
  std::vector<double> outside(64);
  for (int r = 0; r < 64; ++r) outside[r] = 3.5e-8 + r * 1e-10;
  for (int i = 0; i < 8; ++i) outside[i * 8 + 4] = 1e-3 + (i % 3) * 1e-6;
  int k = 0;
  const std::vector<int> late = late_set(outside, 145e-6, &k);
  ASSERT_EQ(k, 8);
  // 2 us more: 20, 44; 1 us more: 12, 36, 60; then 4, 28, 52
  EXPECT_EQ(late, (std::vector<int>{20, 44, 12, 36, 60, 4, 28, 52}));
}

TEST(LateOutside, BelowTheFloorNobodyIsLate) {
  std::vector<double> outside(16, 0.0);
  outside[5] = 100e-6;
  int k = -1;
  EXPECT_TRUE(late_set(outside, 145e-6, &k).empty());
  EXPECT_EQ(k, 0);
  outside[5] = 146e-6;  // just above it
  EXPECT_EQ(late_set(outside, 145e-6, &k), std::vector<int>{5});
}

TEST(LateOutside, EqualTimesLeaveNobodyLate) {
  // balanced and deterministic: the deviation is 0, and nobody exceeds the median
  std::vector<double> outside(256, 2.5e-4);
  int k = -1;
  EXPECT_TRUE(late_set(outside, 0.0, &k).empty());
  EXPECT_EQ(k, 0);
}

TEST(LateOutside, UniformNoiseIsNotLateness) {
  // every rank 0-200 us at random before each call, means of 4 calls (coll_loop noise)
  uint64_t x = 88172645463325252ull;
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return (double)(x % 201) * 1e-6;
  };
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> outside(256);
    for (double &o : outside) o = (next() + next() + next() + next()) / 4;
    int k = -1;
    EXPECT_TRUE(late_set(outside, 10e-6, &k).empty()) << "trial " << trial;
    // a rank 1 ms late among them is found
    outside[96] += 1e-3;
    EXPECT_EQ(late_set(outside, 10e-6, &k), std::vector<int>{96}) << "trial " << trial;
  }
}

TEST(LateOutside, MoreThanAnEighthLateIsThePatternNotAFewRanks) {
  for (int P : {4, 16, 64, 256}) {
    const int max = arcoll_late_chain_max_leaves(P);
    std::vector<double> outside(P, 0.0);
    for (int i = 0; i < max; ++i) outside[(i * 7 + 1) % P] = 1e-3;
    int k = -1;
    EXPECT_EQ(late_set(outside, 1e-5, &k).size(), (size_t)max) << P;
    for (int r = 0, more = 0; r < P && !more; ++r)
      if (outside[r] == 0.0) outside[r] = 1e-3, more = 1;
    EXPECT_TRUE(late_set(outside, 1e-5, &k).empty()) << P;
    EXPECT_EQ(k, 0);
  }
}

TEST(LateOutside, BadArgumentsAreRefused) {
  std::vector<double> outside(8, 0.0);
  std::vector<int> late(8);
  EXPECT_EQ(arcoll_outside_late_set(nullptr, 8, 0.0, late.data()), -1);
  EXPECT_EQ(arcoll_outside_late_set(outside.data(), 8, 0.0, nullptr), -1);
  EXPECT_EQ(arcoll_outside_late_set(outside.data(), 1, 0.0, late.data()), -1);
  EXPECT_EQ(arcoll_outside_late_set(outside.data(), 8, -1.0, late.data()), -1);
}

TEST(LateOutsideOrder, LateRanksNextToTheRootTheOthersInRankOrderFromIt) {
  const int P = 16, root = 5;
  const std::vector<int> late = {9, 2};  // 9 the latest: position 1, the chain's last sender
  std::vector<int> order(P, -1);
  ASSERT_EQ(arcoll_outside_chain_order(late.data(), 2, P, root, order.data()), 2);
  EXPECT_EQ(order, (std::vector<int>{5, 9, 2, 6, 7, 8, 10, 11, 12, 13, 14, 15, 0, 1, 3, 4}));
}

TEST(LateOutsideOrder, ALateRootStaysAtPositionZeroAndIsNotPlacedTwice) {
  const int P = 8;
  const std::vector<int> late = {3, 6};
  std::vector<int> order(P, -1);
  ASSERT_EQ(arcoll_outside_chain_order(late.data(), 2, P, 3, order.data()), 1);
  EXPECT_EQ(order, (std::vector<int>{3, 6, 4, 5, 7, 0, 1, 2}));
  // no late rank: the rank order from the root
  ASSERT_EQ(arcoll_outside_chain_order(nullptr, 0, P, 6, order.data()), 0);
  EXPECT_EQ(order, (std::vector<int>{6, 7, 0, 1, 2, 3, 4, 5}));
}

TEST(LateOutsideOrder, EveryRankOnceForEveryRoot) {
  const int P = 64;
  const std::vector<int> late = {60, 4, 36, 12};
  for (int root = 0; root < P; ++root) {
    std::vector<int> order(P, -1);
    ASSERT_GE(arcoll_outside_chain_order(late.data(), 4, P, root, order.data()), 3);
    std::vector<int> seen(P, 0);
    for (int r : order) {
      ASSERT_GE(r, 0);
      ASSERT_LT(r, P);
      ++seen[r];
    }
    EXPECT_EQ(seen, std::vector<int>(P, 1)) << "root " << root;
    EXPECT_EQ(order[0], root);
  }
}

TEST(LateOutsideOrder, BadArgumentsAreRefused) {
  std::vector<int> order(8);
  const std::vector<int> dup = {2, 2}, out = {9};
  EXPECT_EQ(arcoll_outside_chain_order(dup.data(), 2, 8, 0, order.data()), -1);
  EXPECT_EQ(arcoll_outside_chain_order(out.data(), 1, 8, 0, order.data()), -1);
  EXPECT_EQ(arcoll_outside_chain_order(nullptr, 1, 8, 0, order.data()), -1);
  EXPECT_EQ(arcoll_outside_chain_order(dup.data(), 1, 8, 8, order.data()), -1);
  EXPECT_EQ(arcoll_outside_chain_order(dup.data(), 1, 8, 0, nullptr), -1);
}

TEST(LateOutsideLinks, APeriodFarBeyondTheModelsOccupancyLessTheLatenessIsBoundElsewhere) {
  // SMPI P = 64, 1 MiB, eight ranks 1.01 ms late, occupancy 0.773 ms, shortest periods
  std::vector<double> outside(64, 3.5e-8);
  for (int i = 0; i < 8; ++i) outside[i * 8 + 4] = 1.01e-3;
  EXPECT_EQ(arcoll_outside_links_bound(1.93e-3, outside.data(), 64, 0.773e-3), 0);  // flat
  EXPECT_EQ(arcoll_outside_links_bound(9.04e-3, outside.data(), 64, 0.773e-3), 1);  // two-level tree
  // the lateness is taken off: 10 ms late on the flat cluster is still flat
  outside[4] = 10e-3;
  EXPECT_EQ(arcoll_outside_links_bound(11.4e-3, outside.data(), 64, 0.773e-3), 0);
  // the limit: ARCOLL_OUTSIDE_STREAM_SLACK x the occupancy beyond the latest time outside
  const double at = 10e-3 + ARCOLL_OUTSIDE_STREAM_SLACK * 0.773e-3;
  EXPECT_EQ(arcoll_outside_links_bound(at * 0.999, outside.data(), 64, 0.773e-3), 0);
  EXPECT_EQ(arcoll_outside_links_bound(at * 1.001, outside.data(), 64, 0.773e-3), 1);
  // no model occupancy: not known to be bound
  EXPECT_EQ(arcoll_outside_links_bound(1.0, outside.data(), 64, 0.0), 0);
  EXPECT_EQ(arcoll_outside_links_bound(1.0, nullptr, 64, 1e-3), 0);
}
