// Unit tests of the binomial-tree clock synchronisation (clock_tree.hpp):
// the schedule and the composition of offsets, on simulated clocks (no MPI).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>
#include <vector>

#include "clock_tree.hpp"

using namespace arcoll::profiler;

TEST(ClockTree, Rounds) {
  EXPECT_EQ(tree_rounds(1), 0);
  EXPECT_EQ(tree_rounds(2), 1);
  EXPECT_EQ(tree_rounds(3), 2);
  EXPECT_EQ(tree_rounds(4), 2);
  EXPECT_EQ(tree_rounds(5), 3);
  EXPECT_EQ(tree_rounds(256), 8);
  EXPECT_EQ(tree_rounds(1000), 10);
  EXPECT_EQ(tree_rounds(1024), 10);
  EXPECT_EQ(tree_parent(0), -1);
  EXPECT_EQ(tree_parent(1), 0);
  EXPECT_EQ(tree_parent(6), 2);
  EXPECT_EQ(tree_parent(255), 127);
  EXPECT_EQ(tree_children(0, 8), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(tree_children(1, 8), (std::vector<int>{3, 5}));
  EXPECT_EQ(tree_children(3, 8), (std::vector<int>{7}));
  EXPECT_EQ(tree_children(5, 8), (std::vector<int>{}));
  EXPECT_EQ(tree_children(2, 6), (std::vector<int>{}));  // 2 + 4 = 6 is out of range
}

// Every rank but 0 has exactly one parent, which is synchronised in an earlier
// round and lists it as a child served in the child's round; every rank is at
// depth <= ceil(log2 P) and serves at most ceil(log2 P) children.
TEST(ClockTree, ScheduleIsATreeOfLogDepth) {
  for (int P : {1, 2, 3, 7, 8, 64, 100, 256, 1000, 1024}) {
    const int R = tree_rounds(P);
    std::vector<int> seen(P, 0);
    for (int r = 0; r < P; r++) {
      auto ch = tree_children(r, P);
      EXPECT_LE(int(ch.size()), R) << P << " " << r;
      int last_round = tree_round_of(r);
      for (int c : ch) {
        ASSERT_LT(c, P);
        EXPECT_EQ(tree_parent(c), r);
        EXPECT_GT(tree_round_of(c), last_round) << "children served in increasing rounds";
        last_round = tree_round_of(c);
        EXPECT_LT(tree_round_of(c), R);
        seen[c]++;
      }
      int depth = 0;
      for (int q = r; q > 0; q = tree_parent(q)) depth++;
      EXPECT_LE(depth, R) << P << " " << r;
    }
    for (int r = 1; r < P; r++) EXPECT_EQ(seen[r], 1) << P << " " << r;
  }
}

TEST(ClockTree, BestPingIsCristian) {
  // child clock = parent clock - 5; one-way latencies 1+2 (rtt 3), 0.5+0.5 (rtt 1), 4+1.
  std::vector<PingPong> s = {{100, 101 - 5, 103}, {200, 200.5 - 5, 201}, {300, 304 - 5, 305}};
  ClockSample b = best_ping(s.data(), int(s.size()));
  EXPECT_DOUBLE_EQ(b.rtt, 1.0);
  EXPECT_DOUBLE_EQ(b.offset, 5.0);
  EXPECT_DOUBLE_EQ(b.t_local, 195.5);
  ClockSample asym = best_ping(s.data(), 1);  // asymmetric: error 0.5 <= rtt/2
  EXPECT_NEAR(asym.offset, 5.0, asym.rtt / 2);
  EXPECT_NE(asym.offset, 5.0);
  EXPECT_EQ(best_ping(s.data(), 0).rtt, 0.0);
}

TEST(ClockTree, ComposeAddsOffsetsAndErrors) {
  ClockSample c = compose({10.0, 0.25, 1e-6}, {3.0, -2.0, 3e-6});
  EXPECT_DOUBLE_EQ(c.t_local, 10.0);
  EXPECT_DOUBLE_EQ(c.offset, -1.75);
  EXPECT_DOUBLE_EQ(c.rtt, 4e-6);
}

// Simulated run: random clock offsets and random asymmetric latencies; the
// schedule is executed round by round as clock_sync does. Every rank's
// composed offset equals its true offset within half the composed rtt, and
// the error bound grows with the depth only (<= log2 P hops).
TEST(ClockTree, SimulatedSyncRecoversOffsets) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> off(-50.0, 50.0), lat(1e-6, 5e-6);
  for (int P : {2, 5, 64, 1024}) {
    std::vector<double> truth(P);  // rank-0 clock - rank clock
    truth[0] = 0;
    for (int r = 1; r < P; r++) truth[r] = off(rng);
    std::vector<ClockSample> got(P);
    std::vector<bool> done(P, false);
    got[0] = ClockSample{0, 0, 0};
    done[0] = true;
    double now = 1000.0;  // rank-0 time
    for (int k = 0; k < tree_rounds(P); k++) {
      for (int r = 0; r < P; r++) {
        for (int c : tree_children(r, P)) {
          if (tree_round_of(c) != k) continue;
          ASSERT_TRUE(done[r]) << "parent " << r << " not synchronised before round " << k;
          std::vector<PingPong> pp(10);
          for (auto &p : pp) {
            double l1 = lat(rng), l2 = lat(rng);
            p.t_send = now - truth[r];               // parent's clock
            p.t_child = now + l1 - truth[c];         // child's clock
            p.t_recv = now + l1 + l2 - truth[r];
            now += l1 + l2;
          }
          got[c] = compose(best_ping(pp.data(), 10), got[r]);
          done[c] = true;
        }
      }
    }
    for (int r = 0; r < P; r++) {
      ASSERT_TRUE(done[r]) << r;
      EXPECT_NEAR(got[r].offset, truth[r], got[r].rtt / 2 + 1e-9) << "P " << P << " rank " << r;
      EXPECT_LE(got[r].rtt, tree_rounds(P) * 10e-6) << r;
    }
  }
}
