// Communication graph from an in-memory trace, METIS + repair, Scotch, refinement, the hop-bytes
// search, pipeline.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "cost.hpp"
#include "fixtures.hpp"
#include "hopbytes.hpp"
#include "map_scotch.hpp"
#include "partition_metis.hpp"
#include "place.hpp"
#include "refine.hpp"

using namespace arcoll::placement;
using arcoll::trace::CcsEntry;
using arcoll::trace::Trace;
using fixtures::graph;
using fixtures::make;

namespace {

// 8 nodes (2 slots each) under 4 leaf switches under one top switch.
const char *kEightNodes =
    "SwitchName=l1 Nodes=n[1-2]\nSwitchName=l2 Nodes=n[3-4]\n"
    "SwitchName=l3 Nodes=n[5-6]\nSwitchName=l4 Nodes=n[7-8]\n"
    "SwitchName=top Switches=l[1-4]\n";
const char *kEightHosts = "n1:2\nn2:2\nn3:2\nn4:2\nn5:2\nn6:2\nn7:2\nn8:2\n";

// Recursive doubling (all-to-all style) on p ranks: step k pairs i with i ^ 2^k.
CommGraph recursive_doubling(int p, uint64_t bytes) {
  std::vector<std::vector<Message>> steps;
  for (int mask = 1; mask < p; mask <<= 1) {
    std::vector<Message> s;
    for (int i = 0; i < p; ++i) s.push_back({i, i ^ mask, bytes});
    steps.push_back(s);
  }
  return graph(p, steps);
}

void expect_valid(const Mapping &m, const Topology &t, int nranks) {
  ASSERT_EQ(static_cast<int>(m.size()), nranks);
  std::vector<int> used(t.hosts.size(), 0);
  for (int h : m) {
    ASSERT_GE(h, 0);
    ASSERT_LT(h, static_cast<int>(t.hosts.size()));
    ++used[h];
  }
  for (size_t h = 0; h < used.size(); ++h) EXPECT_LE(used[h], t.hosts[h].slots) << "host " << t.hosts[h].name;
  EXPECT_TRUE(respects_slots(m, t));
}

}  // namespace

TEST(CommGraph, FromInMemoryTrace) {
  Trace tr;
  tr.path = "mem.arctrace";
  tr.nranks = 3;
  tr.ccs = {CcsEntry{0, 0, 1, 100, 2}, CcsEntry{0, 1, 0, 50, 1}, CcsEntry{0, 2, 2, 999, 1},
            CcsEntry{3, 0, 2, 7, 1}, CcsEntry{3, 0, 2, 3, 1}};
  CommGraph g = build_comm_graph(tr);
  ASSERT_EQ(g.steps.size(), 2u);
  EXPECT_EQ(g.steps[0].id, 0u);
  ASSERT_EQ(g.steps[0].msgs.size(), 2u);  // the self message 2->2 is dropped
  EXPECT_EQ(g.steps[0].msgs[0].bytes, 100u);
  EXPECT_EQ(g.steps[1].id, 3u);
  ASSERT_EQ(g.steps[1].msgs.size(), 1u);
  EXPECT_EQ(g.steps[1].msgs[0].bytes, 10u);  // duplicates of (step, src, dst) are summed
  EXPECT_EQ(g.xadj, (std::vector<int64_t>{0, 2, 3, 4}));
  EXPECT_EQ(g.adjncy, (std::vector<int>{1, 2, 0, 0}));
  EXPECT_EQ(g.adjwgt, (std::vector<uint64_t>{150, 10, 150, 10}));
  // messages per edge, both directions: 0->1 and 1->0 in step 0; the two 0->2 merged in step 3
  EXPECT_EQ(g.adjmsgs, (std::vector<uint64_t>{2, 1, 2, 1}));
  EXPECT_EQ(g.total_bytes, 160u);
}

TEST(CommGraph, RankOutOfRangeIsAClearError) {
  Trace tr;
  tr.path = "bad.arctrace";
  tr.nranks = 2;
  tr.ccs = {CcsEntry{5, 0, 2, 8, 1}};
  try {
    build_comm_graph(tr);
    FAIL();
  } catch (const std::invalid_argument &e) {
    std::string m = e.what();
    EXPECT_NE(m.find("bad.arctrace"), std::string::npos) << m;
    EXPECT_NE(m.find("0 -> 2"), std::string::npos) << m;
    EXPECT_NE(m.find("2 ranks"), std::string::npos) << m;
  }
}

TEST(CommGraph, CollectivesModelledWhenAsked) {
  Trace tr;
  tr.path = "c";
  tr.nranks = 4;
  arcoll::trace::CollEvent e{};
  e.comm_id = 0;
  e.seq = 0;
  e.op = OP_ALLREDUCE;
  e.root = -1;
  for (int r = 0; r < 4; ++r) {
    e.rank = r;
    e.bytes = 8 * (r + 1);
    tr.colls.push_back(e);
  }
  EXPECT_TRUE(build_comm_graph(tr).steps.empty());
  CommGraphOptions o;
  o.with_collectives = true;
  CommGraph g = build_comm_graph(tr, o);
  ASSERT_EQ(g.steps.size(), 2u);  // log2(4) recursive-doubling rounds
  ASSERT_EQ(g.steps[0].msgs.size(), 4u);
  EXPECT_EQ(g.steps[0].msgs[0].src, 0);
  EXPECT_EQ(g.steps[0].msgs[0].dst, 1);
  EXPECT_EQ(g.steps[1].msgs[0].dst, 2);
  EXPECT_EQ(g.steps[0].msgs[0].bytes, 32u);  // max over ranks
}

TEST(Metis, RepairIsDeterministicAndRespectsSlots) {
  Topology t = make(fixtures::two_leaves, "node01:2\nnode02:2\n", 4);
  // heavy 0-1 and 2-3, light 0-2
  CommGraph g = graph(4, {{{0, 1, 1000}, {2, 3, 1000}, {0, 2, 1}}});
  Mapping m{0, 0, 0, 0};
  repair_slots(m, g, t);
  EXPECT_EQ(m, (Mapping{0, 0, 1, 1}));
}

TEST(Metis, HeterogeneousSlotsRespected) {
  Topology t = make(kEightNodes, "n1:3\nn2:1\nn3:2\nn4:2\nn5:4\nn6:1\nn7:1\nn8:2\n", 13);
  std::mt19937 rng(7);
  std::vector<std::vector<Message>> steps(5);
  for (auto &s : steps)
    for (int k = 0; k < 20; ++k) {
      int a = rng() % 13, b = rng() % 13;
      if (a != b) s.push_back({a, b, 1 + rng() % 100000});
    }
  CommGraph g = graph(13, steps);
  for (int64_t seed : {1, 2, 3}) {
    Mapping m = partition_metis(g, t, seed);
    expect_valid(m, t, 13);
    EXPECT_EQ(m, partition_metis(g, t, seed));  // deterministic for a seed
  }
}

TEST(Metis, TrivialCases) {
  // One host.
  Topology one = make("SwitchName=s Nodes=a\n", "a:4\n", 4);
  CommGraph g4 = recursive_doubling(4, 10);
  EXPECT_EQ(partition_metis(g4, one, 1), (Mapping{0, 0, 0, 0}));
  // More hosts than ranks.
  Topology many = make(kEightNodes, kEightHosts, 3);
  CommGraph g3 = graph(3, {{{0, 1, 5}, {1, 2, 5}}});
  Mapping m = partition_metis(g3, many, 1);
  expect_valid(m, many, 3);
  // No communication at all.
  CommGraph none = graph(4, {});
  EXPECT_EQ(partition_metis(none, make(kEightNodes, kEightHosts, 4), 1), (Mapping{0, 0, 1, 1}));
  // One rank.
  EXPECT_EQ(partition_metis(graph(1, {}), many, 1), (Mapping{0}));
}

TEST(Scotch, TleafPutsHeavyPairsUnderOneLeaf) {
  // 8 single-slot hosts; ranks i and i+4 exchange a lot, in-order puts them under different leaves.
  Topology t = make(kEightNodes, "n1\nn2\nn3\nn4\nn5\nn6\nn7\nn8\n", 8);
  std::vector<Message> s;
  for (int i = 0; i < 4; ++i) {
    s.push_back({i, i + 4, 1000000});
    s.push_back({i + 4, i, 1000000});
  }
  s.push_back({0, 1, 10});
  CommGraph g = graph(8, {s});
  Mapping parts{0, 1, 2, 3, 4, 5, 6, 7};
  ScotchResult r = map_scotch(g, t, parts, 1);
  EXPECT_EQ(r.architecture, "tleaf");
  expect_valid(r.map, t, 8);
  for (int i = 0; i < 4; ++i) {
    int a = t.hosts[r.map[i]].vertex, b = t.hosts[r.map[i + 4]].vertex;
    EXPECT_EQ(t.vertices[a].parent, t.vertices[b].parent) << "ranks " << i << " and " << i + 4;
  }
  EXPECT_LT(estimated_time(g, t, r.map), estimated_time(g, t, parts));
}

TEST(Scotch, DecompositionArchitectureForIrregularTrees) {
  // Leaves of different sizes and depths -> not homogeneous -> decomposition-defined target.
  Topology t = make("SwitchName=l1 Nodes=n[1-3]\nSwitchName=l2 Nodes=n[4-5]\nSwitchName=mid Switches=l2\n"
                    "SwitchName=top Switches=l1,mid Nodes=n6\n",
                    "n1\nn2\nn3\nn4\nn5\nn6\n", 6);
  ASSERT_FALSE(t.homogeneous());
  // ranks 0,1 and 3 talk heavily (a triangle); in-order puts 3 five links away from 0 and 1.
  std::vector<Message> s{{0, 3, 1000000}, {3, 1, 1000000}, {1, 0, 1000000}, {4, 5, 10}};
  CommGraph g = graph(6, {s});
  Mapping parts{0, 1, 2, 3, 4, 5};
  ScotchResult r = map_scotch(g, t, parts, 1);
  EXPECT_EQ(r.architecture, "deco");
  expect_valid(r.map, t, 6);
  // Scotch's recursive bipartitioning need not find the optimum (triangle under l1) but
  // must bring the triangle closer than in-order (hop-bytes (2+5+5) MB).
  EXPECT_DOUBLE_EQ(evaluate(g, t, parts).hop_bytes, 12e6 + 10 * 4);  // 4->5: n5 -> n6 is 4 links
  EXPECT_LT(evaluate(g, t, r.map).hop_bytes, 12e6);
}

TEST(Refine, RecursiveDoubling16RanksOn8Nodes) {
  Topology t = make(kEightNodes, kEightHosts, 16);
  CommGraph g = recursive_doubling(16, 1 << 20);
  Mapping in_order = in_order_mapping(16, t);
  RefineOptions o;
  o.seed = 42;
  o.time_limit_s = 60;
  PlaceResult pr = place(g, t, o);
  ASSERT_EQ(pr.stages.size(), 6u);
  EXPECT_EQ(pr.stages[0].name, "in-order");
  EXPECT_EQ(pr.stages[1].name, "hopbytes");
  EXPECT_EQ(pr.stages[2].name, "metis");
  EXPECT_EQ(pr.stages[3].name.rfind("scotch", 0), 0u);
  EXPECT_EQ(pr.stages[4].name, "metis (message time)");
  EXPECT_EQ(pr.stages[5].name, "refined");
  EXPECT_EQ(pr.stages[0].map, in_order);
  for (auto &s : pr.stages) expect_valid(s.map, t, 16);
  const double t_in = estimated_time(g, t, in_order);
  EXPECT_DOUBLE_EQ(pr.stages[0].cost.time_s, t_in);
  EXPECT_LE(pr.stages[5].cost.time_s, t_in);
  for (size_t i = 0; i < 5; ++i) EXPECT_LE(pr.stages[5].cost.time_s, pr.stages[i].cost.time_s);
  EXPECT_EQ(pr.chosen_index, pr.best);
  for (auto &s : pr.stages) EXPECT_LE(pr.chosen().cost.time_s, s.cost.time_s);
  EXPECT_DOUBLE_EQ(pr.chosen().cost.time_s, estimated_time(g, t, pr.chosen().map));
  // Same seed, same answer.
  PlaceResult again = place(g, t, o);
  EXPECT_EQ(again.chosen().map, pr.chosen().map);
}

TEST(Refine, ImprovesAScrambledStartAndKeepsSlots) {
  Topology t = make(kEightNodes, "n1:3\nn2:1\nn3:2\nn4:2\nn5:3\nn6:1\nn7:2\nn8:2\n", 16);
  CommGraph g = recursive_doubling(16, 1 << 16);
  Mapping start = in_order_mapping(16, t);
  std::mt19937 rng(3);
  std::shuffle(start.begin(), start.end(), rng);
  RefineOptions o;
  o.seed = 5;
  o.time_limit_s = 60;
  RefineResult r = refine(g, t, start, o);
  expect_valid(r.map, t, 16);
  EXPECT_LT(r.time_s, estimated_time(g, t, start));
  EXPECT_DOUBLE_EQ(r.time_s, estimated_time(g, t, r.map));
  EXPECT_FALSE(r.hit_time_limit);
  EXPECT_EQ(refine(g, t, start, o).map, r.map);
}

TEST(Refine, ZeroTimeLimitReturnsTheStart) {
  Topology t = make(kEightNodes, kEightHosts, 16);
  CommGraph g = recursive_doubling(16, 1 << 16);
  Mapping start = in_order_mapping(16, t);
  std::reverse(start.begin(), start.end());
  RefineOptions o;
  o.time_limit_s = 0;
  RefineResult r = refine(g, t, start, o);
  expect_valid(r.map, t, 16);
  EXPECT_LE(r.time_s, estimated_time(g, t, start));
  EXPECT_TRUE(r.hit_time_limit);
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
