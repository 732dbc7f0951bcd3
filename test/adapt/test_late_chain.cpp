// Unit tests of adapt/late_chain.c: the order of the chain with late leaves
// (the ranks not late in rank order from the root, the late ones last) and
// when there is none.  No MPI.
#include <gtest/gtest.h>

#include <vector>

extern "C" {
#include "late_chain.h"
}

TEST(LateChain, LateRanksLastBothInRankOrderFromTheRoot) {
  const int P = 16, root = 5;
  std::vector<unsigned char> late(P, 0);
  late[2] = late[9] = 1;
  std::vector<int> order(P, -1);
  ASSERT_EQ(arcoll_late_chain_order(late.data(), P, root, order.data()), 2);
  const std::vector<int> want = {5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 0, 1, 3, 4, 9, 2};
  EXPECT_EQ(order, want);
}

TEST(LateChain, TheRootIsNeverALeaf) {
  const int P = 8;
  std::vector<unsigned char> late(P, 0);
  late[3] = 1;  // the root, late: position 0 whatever
  std::vector<int> order(P, -1);
  EXPECT_EQ(arcoll_late_chain_order(late.data(), P, 3, order.data()), 0);
  EXPECT_EQ(order, std::vector<int>(P, -1));  // untouched
  late[6] = 1;
  ASSERT_EQ(arcoll_late_chain_order(late.data(), P, 3, order.data()), 1);
  EXPECT_EQ(order, (std::vector<int>{3, 4, 5, 7, 0, 1, 2, 6}));
}

TEST(LateChain, NoneLateOrTooManyGivesNoChain) {
  for (int P : {2, 4, 15, 64}) {
    const int max = arcoll_late_chain_max_leaves(P);
    EXPECT_EQ(max, P / 8 > 1 ? P / 8 : 1);
    std::vector<unsigned char> late(P, 0);
    std::vector<int> order(P, -1);
    EXPECT_EQ(arcoll_late_chain_order(late.data(), P, 0, order.data()), 0);
    for (int i = 0; i < max; ++i) late[P - 1 - i] = 1;
    EXPECT_EQ(arcoll_late_chain_order(late.data(), P, 0, order.data()), max) << "P=" << P;
    if (P - 1 - max > 0) {
      late[P - 1 - max] = 1;
      EXPECT_EQ(arcoll_late_chain_order(late.data(), P, 0, order.data()), 0) << "P=" << P;
    }
  }
}

TEST(LateChain, NoneAboveTheLargestCommunicator) {
  for (int P : {ARCOLL_LATE_CHAIN_MAX_RANKS, ARCOLL_LATE_CHAIN_MAX_RANKS + 1, 256}) {
    std::vector<unsigned char> late(P, 0);
    late[3] = 1;
    std::vector<int> order(P, -1);
    EXPECT_EQ(arcoll_late_chain_order(late.data(), P, 0, order.data()),
              P <= ARCOLL_LATE_CHAIN_MAX_RANKS ? 1 : 0) << "P=" << P;
  }
}

TEST(LateChain, BadArguments) {
  std::vector<unsigned char> late(4, 0);
  std::vector<int> order(4);
  EXPECT_EQ(arcoll_late_chain_order(late.data(), 1, 0, order.data()), -1);
  EXPECT_EQ(arcoll_late_chain_order(late.data(), 4, 4, order.data()), -1);
  EXPECT_EQ(arcoll_late_chain_order(late.data(), 4, -1, order.data()), -1);
  EXPECT_EQ(arcoll_late_chain_order(nullptr, 4, 0, order.data()), -1);
  EXPECT_EQ(arcoll_late_chain_order(late.data(), 4, 0, nullptr), -1);
}

TEST(LateChain, RunLengthIsThePowerOfTwoWithTheFewestHops) {
  const int expect[][2] = {{1, 1}, {2, 1}, {4, 2}, {5, 2}, {16, 4}, {56, 8}, {63, 8}, {64, 8}, {65, 8}, {200, 16}};
  for (const auto& e : expect) EXPECT_EQ(arcoll_late_chain_run(e[0]), e[1]) << e[0];
  const auto hops = [](int n, int L) { return (n + L - 1) / L + L - 1; };
  for (int n = 1; n <= 300; ++n) {  // runs of L rank numbers: ceil(n / L) + L - 1 hops, least
    const int L = arcoll_late_chain_run(n);
    ASSERT_GE(L, 1);
    EXPECT_EQ(L & (L - 1), 0) << n;  // a power of two: its blocks split no node or switch of 2^j ranks
    for (int M = 1; M <= n; M *= 2) EXPECT_LE(hops(n, L), hops(n, M)) << "n=" << n << " L=" << M;
  }
  EXPECT_EQ(arcoll_late_chain_run(0), -1);
  EXPECT_EQ(arcoll_late_chain_run(-3), -1);
}
