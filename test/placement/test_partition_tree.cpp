// Unit tests of the top-down partition along the switch tree
// (placement/partition_tree.hpp): valid mappings, groups kept under one
// switch where flat METIS does not look, capacities held at every level,
// only the hosts mpiexec fills, and when the tree adds nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "fixtures.hpp"
#include "partition_metis.hpp"
#include "partition_tree.hpp"

namespace {
using namespace fixtures;

// 4 leaf switches x 4 hosts x 2 slots under one top switch (seed 001's shape): 32 ranks.
Topology four_leaves(int nranks, const char *hosts = nullptr) {
  std::string conf, h;
  for (int l = 0; l < 4; ++l)
    conf += "SwitchName=l" + std::to_string(l) + " Nodes=n[" + std::to_string(4 * l + 1) + "-" +
            std::to_string(4 * l + 4) + "]\n";
  conf += "SwitchName=top Switches=l[0-3]\n";
  for (int n = 1; n <= 16; ++n) h += "n" + std::to_string(n) + ":2\n";
  return make(conf, hosts ? hosts : h, nranks);
}

int leaf_of(const Topology &t, int host) { return t.vertices[t.vertices[t.hosts[host].vertex].parent].depth == 1
                                                      ? t.vertices[t.hosts[host].vertex].parent
                                                      : -1; }

// Four groups of 8 ranks, numbered scrambled, heavy traffic inside each group (a
// ring of 1 MB messages) and light traffic between groups (1 kB).
CommGraph four_groups(std::vector<int> *group) {
  std::vector<int> perm(32);
  for (int i = 0; i < 32; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), std::mt19937(5));
  group->assign(32, -1);
  std::vector<Message> s;
  for (int gi = 0; gi < 4; ++gi)
    for (int k = 0; k < 8; ++k) {
      const int a = perm[8 * gi + k], b = perm[8 * gi + (k + 1) % 8], c = perm[(8 * gi + k + 8) % 32];
      (*group)[a] = gi;
      s.push_back({a, b, 1000000});
      s.push_back({a, c, 1000});
    }
  return graph(32, {s});
}

// The hostfile lists the hosts across the leaves (n1 n5 n9 n13 n2 ...), as a batch
// scheduler may: flat METIS's part k is host k, so its parts' nesting no longer
// follows the leaves; the tree partition does not depend on the hostfile's order.
TEST(PartitionTree, EachGroupUnderOneLeafSwitch) {
  std::string hosts;
  for (int k = 0; k < 16; ++k) hosts += "n" + std::to_string(1 + 4 * (k % 4) + k / 4) + ":2\n";
  const Topology t = four_leaves(32, hosts.c_str());
  std::vector<int> group;
  const CommGraph g = four_groups(&group);
  for (int64_t seed : {1, 2, 3}) {
    const Mapping m = partition_tree(g, t, seed);
    ASSERT_TRUE(respects_slots(m, t));
    EXPECT_EQ(m, partition_tree(g, t, seed));  // deterministic for a seed
    std::set<std::pair<int, int>> leaf_group;
    for (int r = 0; r < 32; ++r) leaf_group.insert({leaf_of(t, m[r]), group[r]});
    EXPECT_EQ(leaf_group.size(), 4u) << "seed " << seed << ": a group spans two leaves";
    const Mapping flat = partition_metis(g, t, seed);
    EXPECT_LT(estimated_time(g, t, m), estimated_time(g, t, flat)) << "seed " << seed;
  }
}

TEST(PartitionTree, LeavesFullAfterEverySplit) {
  // a random graph: METIS leaves parts up to 3 % over target; no leaf may get more ranks than its slots
  // from the top split (repair_slots would move them across the tree)
  std::mt19937 rng(11);
  std::vector<Message> s;
  for (int k = 0; k < 200; ++k) {
    const int a = int(rng() % 32), b = int(rng() % 32);
    if (a != b) s.push_back({a, b, 1 + rng() % 100000});
  }
  const CommGraph g = graph(32, {s});
  const Topology t = four_leaves(32);
  const Mapping m = partition_tree(g, t, 1);
  ASSERT_TRUE(respects_slots(m, t));
  std::vector<int> per_host(t.hosts.size(), 0);
  for (int h : m) ++per_host[h];
  for (size_t h = 0; h < per_host.size(); ++h) EXPECT_EQ(per_host[h], 2) << "host " << h;
}

TEST(PartitionTree, OnlyTheHostsMpiexecFills) {
  // 10 ranks on 16 hosts x 2 slots: hosts 0-4, as in-order uses them
  const Topology t = four_leaves(10);
  std::vector<Message> s;
  for (int r = 0; r < 10; ++r) s.push_back({r, (r + 3) % 10, 5000});
  const Mapping m = partition_tree(graph(10, {s}), t, 1);
  ASSERT_TRUE(respects_slots(m, t));
  for (int h : m) EXPECT_LT(h, 5);
}

TEST(PartitionTree, TrivialCasesFillInOrder) {
  const Topology t = four_leaves(4);
  EXPECT_EQ(partition_tree(graph(4, {}), t, 1), (Mapping{0, 0, 1, 1}));
  EXPECT_EQ(partition_tree(graph(1, {}), t, 1), (Mapping{0}));
  EXPECT_THROW(partition_tree(graph(40, {{{0, 1, 5}}}), four_leaves(0), 1), std::invalid_argument);
}

TEST(PartitionTree, OnAStarItIsTheFlatPartition) {
  const Topology star = make("SwitchName=s Nodes=n[1-4]\n", "n1:2\nn2:2\nn3:2\nn4:2\n", 8);
  std::vector<Message> s;
  for (int r = 0; r < 8; ++r) s.push_back({r, (r + 5) % 8, 1000 + 10 * r});
  const CommGraph g = graph(8, {s});
  EXPECT_EQ(estimated_time(g, star, partition_tree(g, star, 1)), estimated_time(g, star, partition_metis(g, star, 1)));
}

}  // namespace
