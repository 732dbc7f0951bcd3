// Issue 4 pieces: barrier advice, mapping files, random initial mapping,
// hop-bytes search, strategies, oversubscribed fat tree, CostModel exactness.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "advice.hpp"
#include "cost.hpp"
#include "fixtures.hpp"
#include "hopbytes.hpp"
#include "launch_files.hpp"
#include "mapping_io.hpp"
#include "partition_metis.hpp"
#include "place.hpp"

using namespace arcoll::placement;
using fixtures::graph;
using fixtures::make;

namespace {
Topology four_single() { return make(fixtures::two_leaves, "node01:1\nnode02:1\nnode03:1\nnode04:1\n", 4); }
}  // namespace

TEST(Advice, OverlapOfStepsSharingALinkIsHandComputed) {
  Topology t = four_single();
  // Step 0: 0->2 crosses up(node01), up(s1), down(s2), down(node03).
  // Step 1: 1->3 crosses up(node02), up(s1), down(s2), down(node04): shares up(s1), down(s2).
  // Step 2: 3->2 under s2 only: shares nothing with step 1's route? 1->3 uses down(node04); 3->2 uses
  // up(node04), down(node03): no shared directed link.
  CommGraph g = graph(4, {{{0, 2, 1000}}, {{1, 3, 1000}}, {{3, 2, 1000}}});
  auto adv = barrier_advice(g, t, {0, 1, 2, 3});
  ASSERT_EQ(adv.size(), 2u);
  EXPECT_EQ(adv[0].shared_links, 2);
  const double far1 = 6e-6 + 1000.0 / 0.5e9, far2 = 6e-6 + 1000.0 * 2 / 0.5e9;
  EXPECT_DOUBLE_EQ(adv[0].time_s, far1);
  EXPECT_DOUBLE_EQ(adv[0].overlap_s, far2);
  EXPECT_DOUBLE_EQ(adv[0].penalty_s, far2 - far1);
  // Barrier: ceil(log2 4) = 2 x the largest route latency of step 0 (6 us).
  EXPECT_DOUBLE_EQ(adv[0].barrier_s, 12e-6);
  EXPECT_EQ(adv[0].barrier_advised, far2 - far1 > 12e-6);
  EXPECT_EQ(adv[1].shared_links, 0);
  EXPECT_FALSE(adv[1].barrier_advised);
  EXPECT_NEAR(adv[1].penalty_s, 0, 1e-18);
}

TEST(Advice, BigMessagesMakeTheBarrierWorthIt) {
  Topology t = four_single();
  CommGraph g = graph(4, {{{0, 2, 1 << 24}}, {{1, 3, 1 << 24}}});
  auto adv = barrier_advice(g, t, {0, 1, 2, 3});
  ASSERT_EQ(adv.size(), 1u);
  EXPECT_TRUE(adv[0].barrier_advised);
}

TEST(MappingIo, AllFormatsAndErrors) {
  Topology t = make(fixtures::two_leaves, "node01:2\nnode02:2\nnode03:1\nnode04:1\n", 5);
  Mapping want{1, 0, 0, 3, 1};
  EXPECT_EQ(parse_mapping("node02\nnode01\nnode01\nnode04\nnode02\n", "m", t, 5), want);
  EXPECT_EQ(parse_mapping("# hydra\nnode02:1\nnode01:2\nnode04\nnode02:1\n", "m", t, 5), want);
  EXPECT_EQ(parse_mapping("rank 0=node02 slot=0\nrank 1=node01 slot=0\nrank 2=node01 slot=1\n"
                          "rank 3=node04 slot=0\nrank 4=node02 slot=1\n", "m", t, 5), want);
  EXPECT_EQ(parse_mapping("# cray, hostfile order\n1,2\n0,4\n3\n", "m", t, 5), (Mapping{1, 0, 0, 2, 1}));
  std::ostringstream cray;
  write_cray(cray, want, t.hosts);  // node03 gets no rank: the header names the hosts of the lines
  EXPECT_EQ(parse_mapping(cray.str(), "m", t, 5), want);
  auto err = [&](const std::string &text) {
    try {
      parse_mapping(text, "map.txt", t, 5);
    } catch (const MappingError &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(err("node01:2\nnode02:2\nnodeX\n").find("map.txt:3: host \"nodeX\""), std::string::npos);
  EXPECT_NE(err("node01:3\nnode02:2\n").find("more ranks than its 2 slots"), std::string::npos);
  EXPECT_NE(err("node01:2\nnode02:2\n").find("rank 4 is not mapped"), std::string::npos);
  EXPECT_NE(err("rank 0=node01\nrank 0=node02\n").find("rank 0 is mapped twice"), std::string::npos);
  EXPECT_NE(err("rank 9=node01\n").find("rank 9 is out of range"), std::string::npos);
  EXPECT_NE(err("node01 node02\n").find("one host name per line"), std::string::npos);
  EXPECT_NE(err("node01:x\n").find("bad count"), std::string::npos);
}

TEST(MappingIo, RandomMappingRespectsSlotsAndIsDeterministic) {
  Topology t = make(fixtures::two_leaves, "node01:3\nnode02:1\nnode03:2\nnode04:2\n", 7);
  Mapping a = random_mapping(7, t, 11), b = random_mapping(7, t, 11), c = random_mapping(7, t, 12);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_TRUE(respects_slots(a, t));
  EXPECT_TRUE(respects_slots(c, t));
  EXPECT_THROW(random_mapping(9, t, 1), std::invalid_argument);
}

TEST(HopBytes, SearchLowersHopBytesAndKeepsSlots) {
  Topology t = make(fixtures::two_leaves, "node01:2\nnode02:2\nnode03:2\nnode04:2\n", 8);
  // Pairs (0,7), (1,6), (2,5), (3,4) talk a lot: in-order puts each pair across the top switch.
  CommGraph g = graph(8, {{{0, 7, 1000}, {1, 6, 1000}, {2, 5, 1000}, {3, 4, 1000}}});
  Mapping start = in_order_mapping(8, t);
  EXPECT_DOUBLE_EQ(graph_hop_bytes(g, t, start), evaluate(g, t, start).hop_bytes);
  EXPECT_DOUBLE_EQ(graph_hop_bytes(g, t, start), 4 * 1000.0 * 4);
  Mapping m = hopbytes_mapping(g, t, start, 1, 10);
  EXPECT_TRUE(respects_slots(m, t));
  EXPECT_DOUBLE_EQ(graph_hop_bytes(g, t, m), 0);  // every pair on one host
  EXPECT_EQ(m, hopbytes_mapping(g, t, start, 1, 10));
}

TEST(Strategy, EachStrategyRunsOnlyItsStages) {
  Topology t = make(fixtures::two_leaves, "node01:2\nnode02:2\nnode03:2\nnode04:2\n", 8);
  CommGraph g = graph(8, {{{0, 7, 1000}, {1, 6, 1000}, {2, 5, 1000}, {3, 4, 1000}}, {{0, 1, 10}}});
  struct C {
    Strategy s;
    size_t stages;
    const char *chosen;
  };
  for (C c : {C{Strategy::Identity, 1, "in-order"}, C{Strategy::HopBytes, 2, "hopbytes"}, C{Strategy::Metis, 2, "metis"},
              C{Strategy::MetisTree, 2, "metis (tree)"}, C{Strategy::Scotch, 3, "scotch"},
              C{Strategy::MetisTime, 2, "metis (message time)"},
              C{Strategy::Refined, 6, "refined"}}) {
    PlaceOptions o;
    o.strategy = c.s;
    PlaceResult r = place(g, t, o);
    EXPECT_EQ(r.stages.size(), c.stages) << c.chosen;
    EXPECT_EQ(r.chosen().name.rfind(c.chosen, 0), 0u) << r.chosen().name;
    for (auto &s : r.stages) EXPECT_TRUE(respects_slots(s.map, t)) << s.name;
  }
  EXPECT_THROW(parse_strategy("fast"), std::invalid_argument);
  EXPECT_EQ(parse_strategy("metis_time"), Strategy::MetisTime);
  PlaceOptions o;
  o.initial = {3, 3, 2, 2, 1, 1, 0, 0};
  o.initial_name = "initial (test)";
  o.strategy = Strategy::Identity;
  PlaceResult r = place(g, t, o);
  EXPECT_EQ(r.chosen().map, o.initial);
  EXPECT_EQ(r.chosen().name, "initial (test)");
  o.initial = {0, 0, 0, 1, 1, 2, 2, 3};  // 3 ranks on a 2-slot host
  EXPECT_THROW(place(g, t, o), std::invalid_argument);
}

TEST(Topology, OversubscribedFatTreeUplinks) {
  // Leaves at 100 Gbit/s to their hosts; the top switch's LinkSpeed=50 makes the leaf uplinks 2:1.
  const char *conf = "SwitchName=l1 Nodes=a[1-2] LinkSpeed=100\nSwitchName=l2 Nodes=b[1-2] LinkSpeed=100\n"
                     "SwitchName=top Switches=l[1-2] LinkSpeed=50\n";
  TopologyParams p;
  Topology t = parse_topology_conf(conf, "ft.conf");
  attach_hosts(t, parse_hostfile("a1\na2\nb1\nb2\n", "h"), p, "h", 4);
  EXPECT_DOUBLE_EQ(t.bandwidth(0, 1), 100e9 / 8);
  EXPECT_DOUBLE_EQ(t.bandwidth(0, 2), 50e9 / 8);
  // Two flows a1->b1, a2->b2 share up(l1) at 50 Gbit/s: coll 2.
  CommGraph g = graph(4, {{{0, 2, 1 << 20}, {1, 3, 1 << 20}}});
  EXPECT_DOUBLE_EQ(estimated_time(g, t, {0, 1, 2, 3}), 4e-6 + (1 << 20) * 2.0 / (50e9 / 8));
  EXPECT_EQ(t.route(0, 2).size(), 4u);
  EXPECT_EQ(t.max_route(), 4);
}

// Both evaluation paths of CostModel (cost.hpp): whole steps (per_link_min_msgs above the step
// sizes) and the per-link state (per_link_min_msgs = 1), under the count and the volume
// contention, through random swaps, moves and undos: every step time equals evaluate()'s.
TEST(CostModel, RandomSwapsStayExact) {
  for (Contention c : {Contention::Count, Contention::Volume})
    for (size_t min_msgs : {size_t(1000), size_t(1)}) {
      SCOPED_TRACE(testing::Message() << "contention " << static_cast<int>(c) << " per_link_min_msgs " << min_msgs);
      TopologyParams p;
      p.contention = c;
      Topology t = make(fixtures::two_leaves, "node01:3\nnode02:3\nnode03:3\nnode04:3\n", 12, p);
      std::mt19937 rng(5);
      std::vector<std::vector<Message>> steps(6);
      for (auto &s : steps)
        for (int k = 0; k < 8; ++k) {
          int a = rng() % 12, b = rng() % 12;
          if (a != b) s.push_back({a, b, 1 + rng() % 5000});
        }
      steps[2].push_back({3, 4, 100});  // a repeated pair: two equal keys on the same links
      steps[2].push_back({3, 4, 100});
      CommGraph g = graph(12, steps);
      CostModel cm(g, t, min_msgs);
      EXPECT_EQ(cm.per_link_steps(), min_msgs == 1 ? g.steps.size() : 0u);
      Mapping m = in_order_mapping(12, t);
      cm.reset(m);
      auto exact = [&]() {
        CostReport r = evaluate(g, t, cm.mapping());
        for (size_t s = 0; s < g.steps.size(); ++s) ASSERT_DOUBLE_EQ(cm.step_time(s), r.step_time_s[s]) << "step " << s;
        ASSERT_NEAR(cm.total(), r.time_s, 1e-15);
      };
      for (int i = 0; i < 300; ++i) {
        int a = rng() % 12, b = rng() % 12;
        int ha = cm.mapping()[a], hb = cm.mapping()[b];
        double v = i % 4 == 1 ? cm.apply(a, static_cast<int>(rng() % 4), -1, -1)  // a move (slots are refine's business)
                              : cm.apply(a, hb, b, ha);
        ASSERT_NEAR(v, estimated_time(g, t, cm.mapping()), 1e-15);
        exact();
        if (i % 3 == 0) {
          cm.undo();
          exact();
        }
      }
    }
}
