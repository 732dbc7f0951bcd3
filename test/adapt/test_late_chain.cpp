// Unit tests of adapt/late_chain.c: the order of the chain with late leaves
// (the ranks not late in rank order from the root, the late ones last), a
// reduce's chain order (the late ones next to the root), and when there is
// none.  No MPI.
#include <gtest/gtest.h>

#include <algorithm>
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

// A reduce's chain: the late ranks right after the root (the positions whose
// lateness only the root waits for), then the others, both in rank order from
// the root; the root never moves; none late, too many or bad arguments leave
// the order alone; any P (the streaming chain runs at P = 256).
TEST(LateChain, ReduceChainPutsTheLateRanksNextToTheRoot) {
  const int P = 16, root = 5;
  std::vector<unsigned char> late(P, 0);
  late[2] = late[9] = late[root] = 1;
  std::vector<int> order(P, -1);
  ASSERT_EQ(arcoll_late_reduce_chain_order(late.data(), P, root, order.data()), 2);
  const std::vector<int> want = {5, 9, 2, 6, 7, 8, 10, 11, 12, 13, 14, 15, 0, 1, 3, 4};
  EXPECT_EQ(order, want);

  std::vector<int> big(256, -1);
  std::vector<unsigned char> late256(256, 0);
  late256[96] = 1;
  ASSERT_EQ(arcoll_late_reduce_chain_order(late256.data(), 256, 0, big.data()), 1);
  EXPECT_EQ(big[0], 0);
  EXPECT_EQ(big[1], 96);
  std::vector<int> sorted = big;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 256; ++i) ASSERT_EQ(sorted[i], i) << "not a permutation";

  std::vector<int> untouched(P, -7);
  std::vector<unsigned char> none(P, 0);
  none[root] = 1;  // the root alone: nothing to move
  EXPECT_EQ(arcoll_late_reduce_chain_order(none.data(), P, root, untouched.data()), 0);
  std::vector<unsigned char> many(P, 1);  // more than max(1, P / 8): noise, not lateness
  EXPECT_EQ(arcoll_late_reduce_chain_order(many.data(), P, root, untouched.data()), 0);
  EXPECT_EQ(untouched, std::vector<int>(P, -7));
  EXPECT_EQ(arcoll_late_reduce_chain_order(late.data(), 1, 0, order.data()), -1);
  EXPECT_EQ(arcoll_late_reduce_chain_order(late.data(), P, P, order.data()), -1);
  EXPECT_EQ(arcoll_late_reduce_chain_order(nullptr, P, root, order.data()), -1);
}
