// METIS on the pairs' message times (partition_metis.hpp time_weighted_graph), a stage of
// `arcoll place --strategy best|refined`.
#include <gtest/gtest.h>

#include <algorithm>

#include "fixtures.hpp"
#include "partition_metis.hpp"
#include "place.hpp"

using namespace arcoll::placement;
using fixtures::graph;
using fixtures::make;

namespace {

// fixtures::two_leaves (s1: node01 node02, s2: node03 node04) with 2 slots per host, round_params():
// node01 -> node02 crosses 2 host links (1 us, 1e9 B/s each): L x B = 2e-6 x 1e9 = 2000 bytes;
// node01 -> node03 / node04 also 2 switch links (2 us, 0.5e9 B/s): L x B = 6e-6 x 0.5e9 = 3000.
// Mean over the three hosts on other nodes: 8000 / 3 bytes per message.
constexpr double kMeanLB = 8000.0 / 3.0;
const char *kTwoSlotHosts = "node01:2\nnode02:2\nnode03:2\nnode04:2\n";

uint64_t weight(const CommGraph &g, int r, int q) {
  for (int64_t e = g.xadj[r]; e < g.xadj[r + 1]; ++e)
    if (g.adjncy[e] == q) return g.adjwgt[e];
  ADD_FAILURE() << "no edge " << r << " - " << q;
  return 0;
}

// 8 ranks: pairs (i, i + 4) exchange 8 B in each of 200 steps (latency-bound, 3200 B in all per
// pair), pairs (2k, 2k + 1) one 100 kB message each way (bandwidth-bound).
CommGraph latency_and_bandwidth_pairs() {
  std::vector<std::vector<Message>> steps;
  for (int s = 0; s < 200; ++s) {
    std::vector<Message> m;
    for (int i = 0; i < 4; ++i) m.push_back({i, i + 4, 8}), m.push_back({i + 4, i, 8});
    steps.push_back(m);
  }
  std::vector<Message> big;
  for (int k = 0; k < 4; ++k) big.push_back({2 * k, 2 * k + 1, 100000}), big.push_back({2 * k + 1, 2 * k, 100000});
  steps.push_back(big);
  return graph(8, steps);
}

}  // namespace

TEST(TimeWeightedGraph, WeightIsBytesPlusMessagesTimesTheMeanLatencyBandwidthProduct) {
  Topology t = make(fixtures::two_leaves, kTwoSlotHosts, 4);
  // 0 <-> 1: three steps of 10 B from 0, one of 10 B back (4 messages, 40 B); 2 -> 3: one of 5000 B.
  CommGraph g = graph(4, {{{0, 1, 10}}, {{0, 1, 10}, {2, 3, 5000}}, {{0, 1, 10}}, {{1, 0, 10}}});
  CommGraph w = time_weighted_graph(g, t);
  EXPECT_EQ(w.xadj, g.xadj);
  EXPECT_EQ(w.adjncy, g.adjncy);
  EXPECT_TRUE(w.steps.empty());
  EXPECT_EQ(weight(g, 0, 1), 40u);
  EXPECT_EQ(weight(w, 0, 1), 40u + static_cast<uint64_t>(std::llround(4 * kMeanLB)));
  EXPECT_EQ(weight(w, 1, 0), weight(w, 0, 1));
  EXPECT_EQ(weight(w, 2, 3), 5000u + static_cast<uint64_t>(std::llround(kMeanLB)));
}

TEST(TimeWeightedGraph, OneNodeKeepsTheByteWeights) {
  Topology t = make(fixtures::two_leaves, "node01:4\n", 4);
  CommGraph g = graph(4, {{{0, 1, 10}, {2, 3, 7}}, {{0, 1, 10}}});
  CommGraph w = time_weighted_graph(g, t);
  EXPECT_EQ(w.adjwgt, g.adjwgt);
}

TEST(TimeWeightedGraph, MetisKeepsTheLatencyBoundPairsOnOneHost) {
  Topology t = make(fixtures::two_leaves, kTwoSlotHosts, 8);
  CommGraph g = latency_and_bandwidth_pairs();
  const Mapping by_bytes = partition_metis(g, t, 1), by_time = partition_metis(time_weighted_graph(g, t), t, 1);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(by_time[i], by_time[i + 4]) << "rank " << i;
    EXPECT_EQ(by_bytes[2 * i], by_bytes[2 * i + 1]) << "rank " << 2 * i;  // bytes alone pair the big messages
  }
  // The count model agrees: 200 latency-bound steps cost more off-node than one 100 kB exchange.
  EXPECT_LT(estimated_time(g, t, by_time), estimated_time(g, t, by_bytes));
}

TEST(TimeWeightedGraph, IsAStageOfBestAndRefined) {
  Topology t = make(fixtures::two_leaves, kTwoSlotHosts, 8);
  CommGraph g = latency_and_bandwidth_pairs();
  for (Strategy s : {Strategy::Best, Strategy::Refined}) {
    PlaceOptions o;
    o.strategy = s;
    o.refine.time_limit_s = 60;
    PlaceResult r = place(g, t, o);
    auto it = std::find_if(r.stages.begin(), r.stages.end(),
                           [](const Stage &x) { return x.name == "metis (message time)"; });
    ASSERT_NE(it, r.stages.end());
    EXPECT_EQ(it->map, partition_metis(time_weighted_graph(g, t), t, static_cast<int64_t>(o.refine.seed)));
    EXPECT_DOUBLE_EQ(it->cost.time_s, estimated_time(g, t, it->map));
    EXPECT_LE(r.chosen().cost.time_s, estimated_time(g, t, partition_metis(g, t, 1)));
  }
  PlaceOptions m;
  m.strategy = Strategy::Metis;
  for (const Stage &x : place(g, t, m).stages) EXPECT_NE(x.name, "metis (message time)");
}
