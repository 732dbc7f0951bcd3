// The critical path of a mapping (placement/critical_path.hpp) against the
// seed-001 sum over dependency levels (cost.hpp), on traces built by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "comm_graph.hpp"
#include "cost.hpp"
#include "critical_path.hpp"
#include "fixtures.hpp"
#include "trace_fixtures.hpp"

using arcoll::placement::build_comm_graph;
using arcoll::placement::CommGraph;
using arcoll::placement::CommGraphOptions;
using arcoll::placement::critical_path_time;
using arcoll::placement::estimated_time;
using arcoll::placement::Mapping;
using arcoll::placement::PathContention;
using arcoll::placement::Topology;
using arcoll::trace::CcsEntry;
using arcoll::trace::CollEvent;
using arcoll::trace::Trace;
using tracefix::by_levels;
using tracefix::msg;
using tracefix::two_chains;

namespace {

// round_params(): a message of 100 bytes inside a host / between two hosts of one leaf switch.
constexpr double kIntra = 1e-7 + 100.0 / 1e10;
constexpr double kLeaf = 2e-6 + 100.0 / 1e9;

// 0 -> 2 and 1 -> 3, independent (both in level 0).
Trace two_senders() {
  Trace tr;
  tr.path = "pair.arctrace";
  tr.nranks = 4;
  msg(tr, 0, 2, 0, 0), msg(tr, 1, 3, 0, 0);
  return tr;
}


}  // namespace

TEST(CriticalPath, ChargesOneChainNotEveryLevelsSlowestMessage) {
  Topology t = fixtures::make(fixtures::two_leaves, "node01:3\nnode02:3\n", 6);
  CommGraph g = by_levels(two_chains());
  ASSERT_TRUE(g.deps);
  ASSERT_EQ(g.steps.size(), 2u);  // level 0: 0->1, 3->4; level 1: 1->2, 4->5
  // A crosses the network first, B second: each level holds one network message.
  Mapping m{0, 1, 1, 0, 0, 1};
  EXPECT_DOUBLE_EQ(estimated_time(g, t, m), 2 * kLeaf);
  EXPECT_DOUBLE_EQ(critical_path_time(g, t, m), kLeaf + kIntra);
  // Both chains inside one host each: no network on any path.
  EXPECT_DOUBLE_EQ(critical_path_time(g, t, {0, 0, 0, 1, 1, 1}), 2 * kIntra);
  // Every hop across the network: both models agree.
  Mapping far{0, 1, 0, 1, 0, 1};
  EXPECT_DOUBLE_EQ(critical_path_time(g, t, far), 2 * kLeaf);
  EXPECT_DOUBLE_EQ(estimated_time(g, t, far), 2 * kLeaf);
}

TEST(CriticalPath, MessagesOfOneLevelCollide) {
  // 0 -> 2 and 1 -> 3 in one level, both from node01 to node02: each link carries 2 messages.
  Topology t = fixtures::make(fixtures::two_leaves, "node01:2\nnode02:2\n", 4);
  CommGraph g = by_levels(two_senders());
  EXPECT_DOUBLE_EQ(critical_path_time(g, t, {0, 0, 1, 1}), 2e-6 + 100.0 * 2 / 1e9);
  EXPECT_DOUBLE_EQ(critical_path_time(g, t, {0, 1, 1, 0}), kLeaf);  // opposite directions: no collision
}

TEST(CriticalPath, BlockingCollectiveJoinsTheChains) {
  // Chain A, then a barrier of all six ranks, then chain B: B waits for A, the path is A + B.
  Topology t = fixtures::make(fixtures::two_leaves, "node01:3\nnode02:3\n", 6);
  Trace tr;
  tr.path = "barrier.arctrace";
  tr.nranks = 6;
  msg(tr, 0, 1, 0, 0), msg(tr, 1, 2, 1, 0);
  const uint64_t entry[6] = {1, 2, 1, 0, 0, 0};  // every rank's step after its part of chain A
  for (int r = 0; r < 6; ++r) {
    CollEvent c{};
    c.rank = r, c.comm_id = 0, c.seq = 0, c.step = entry[r];
    tr.colls.push_back(c);
  }
  msg(tr, 3, 4, 1, 1), msg(tr, 4, 5, 2, 1);
  CommGraph g = by_levels(tr);
  Mapping m{0, 1, 1, 0, 0, 1};
  EXPECT_DOUBLE_EQ(critical_path_time(g, t, m), (kLeaf + kIntra) + (kIntra + kLeaf));
  // Without the barrier the chains are independent.
  tr.colls.clear();
  EXPECT_DOUBLE_EQ(critical_path_time(by_levels(tr), t, m), kLeaf + kIntra);
}

TEST(CriticalPath, UndefinedWithoutDependencyLevels) {
  Topology t = fixtures::make(fixtures::two_leaves, "node01:3\nnode02:3\n", 6);
  EXPECT_EQ(critical_path_time(build_comm_graph(two_chains()), t, {0, 1, 1, 0, 0, 1}), -1.0);
  Trace no_recvs = two_chains();
  no_recvs.recvs.clear();
  EXPECT_EQ(critical_path_time(by_levels(no_recvs), t, {0, 1, 1, 0, 0, 1}), -1.0);
}

TEST(CriticalPathOverlap, ConcurrentMessagesOnOneLinkShareIt) {
  // 0 -> 2 and 1 -> 3 leave at time 0 on the same links: each one's collisions converge to 2, by halves from 1
  // (kOverlapIterations damped steps).
  Topology t = fixtures::make(fixtures::two_leaves, "node01:2\nnode02:2\n", 4);
  CommGraph g = by_levels(two_senders());
  const double S_B = 100.0 / 1e9, L = 2e-6;
  const double coll = 2.0 - std::ldexp(1.0, -arcoll::placement::kOverlapIterations);
  EXPECT_NEAR(critical_path_time(g, t, {0, 0, 1, 1}, PathContention::Overlap), L + S_B * coll, 1e-15);
  EXPECT_DOUBLE_EQ(critical_path_time(g, t, {0, 0, 1, 1}, PathContention::Free), L + S_B);
  // Opposite directions: no shared link, no collision.
  EXPECT_DOUBLE_EQ(critical_path_time(g, t, {0, 1, 1, 0}, PathContention::Overlap), kLeaf);
}

TEST(CriticalPathOverlap, MessagesOneAfterAnotherDoNotCollide) {
  // 0 -> 2 -> 1 -> 3, every hop across the network, node01 -> node02 twice: the two never overlap in time.
  Topology t = fixtures::make(fixtures::two_leaves, "node01:2\nnode02:2\n", 4);
  Trace tr;
  tr.path = "zigzag.arctrace";
  tr.nranks = 4;
  msg(tr, 0, 2, 0, 0), msg(tr, 2, 1, 1, 0), msg(tr, 1, 3, 1, 0);
  CommGraph g = by_levels(tr);
  const Mapping m{0, 0, 1, 1};
  EXPECT_DOUBLE_EQ(critical_path_time(g, t, m, PathContention::Overlap), 3 * kLeaf);
  EXPECT_DOUBLE_EQ(critical_path_time(g, t, m, PathContention::Free), 3 * kLeaf);
  EXPECT_DOUBLE_EQ(critical_path_time(g, t, m, PathContention::Sets), 3 * kLeaf);
}

TEST(CriticalPathOverlap, ContentionOnlyLengthensThePath) {
  Topology t = fixtures::make(fixtures::two_leaves, "node01:3\nnode02:3\n", 6);
  CommGraph g = by_levels(two_chains());
  for (const Mapping &m : {Mapping{0, 1, 1, 0, 0, 1}, Mapping{0, 0, 0, 1, 1, 1}, Mapping{0, 1, 0, 1, 0, 1}})
    EXPECT_GE(critical_path_time(g, t, m, PathContention::Overlap), critical_path_time(g, t, m, PathContention::Free));
}
