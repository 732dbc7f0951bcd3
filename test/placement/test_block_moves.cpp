// Block moves (placement/block_moves.hpp): exchanges of whole hosts' and leaves' contents, on plateaus where
// every single-rank swap raises the cost. Costs by hand with fixtures::round_params(): intra 0.1 us, 1e10 B/s;
// host <-> leaf 1 us, 1e9 B/s; switch <-> switch 2 us, 0.5e9 B/s; count model (cost.hpp).
#include <gtest/gtest.h>

#include <random>

#include "block_moves.hpp"
#include "fixtures.hpp"
#include "mapping_io.hpp"
#include "partition_metis.hpp"
#include "refine.hpp"
#include "tree_groups.hpp"

using namespace arcoll::placement;
using fixtures::graph;
using fixtures::make;

namespace {

constexpr uint64_t kHeavy = 1000000, kCross = 1000;  // bytes

// Four pairs of ranks that exchange kHeavy bytes (step A: 0->1, 2->3, 4->5, 6->7) and two cross messages of
// kCross bytes (step B: 0->2 and 4->6): pair P = {0,1} talks to Q = {2,3}, R = {4,5} to S = {6,7}.
CommGraph pairs_graph() {
  return graph(8, {{{0, 1, kHeavy}, {2, 3, kHeavy}, {4, 5, kHeavy}, {6, 7, kHeavy}},
                   {{0, 2, kCross}, {4, 6, kCross}}});
}

// node01, node02 under leaf s1; node03, node04 under s2; 2 slots each.
Topology two_leaves_2slots() { return make(fixtures::two_leaves, "node01:2\nnode02:2\nnode03:2\nnode04:2\n", 8); }

// Start: P on node01, R on node02 (leaf s1), Q on node03, S on node04 (leaf s2): both cross messages cross
// the leaves.
const Mapping kPairsStart{0, 0, 2, 2, 1, 1, 3, 3};

// Step A: every pair inside its host, one message per intra link: 0.1 us + 1e6 / 1e10 = 100.1 us.
// Step B at the start: 0->2 and 4->6 both go up(s1), down(s2) (coll 2), L = 1 + 2 + 2 + 1 us, B = 0.5e9:
// 6 us + 2 x 1000 / 0.5e9 = 10 us. T = 110.1 us.
constexpr double kPairsStartT = 100.1e-6 + 10e-6;
// Exchanging node02 <-> node03 (or node01 <-> node04) puts P with Q and R with S under one leaf: step B is
// two same-leaf messages on disjoint links, 2 us + 1000 / 1e9 = 3 us. T = 103.1 us: the optimum (step A
// cannot be cheaper, and 0->2 inside one host would split pair P).
constexpr double kPairsOptT = 100.1e-6 + 3e-6;

int leaf_of(const Topology &t, int host) { return t.vertices[t.hosts[host].vertex].parent; }

}  // namespace

TEST(BlockMoves, HandCostsOfThePairsCase) {
  Topology t = two_leaves_2slots();
  CommGraph g = pairs_graph();
  EXPECT_NEAR(estimated_time(g, t, kPairsStart), kPairsStartT, 1e-12);
  EXPECT_NEAR(estimated_time(g, t, {0, 0, 1, 1, 2, 2, 3, 3}), kPairsOptT, 1e-12);  // node02 <-> node03
}

TEST(BlockMoves, RankSwapsStayOnThePlateauWhereAHostExchangeReachesTheOptimum) {
  Topology t = two_leaves_2slots();
  CommGraph g = pairs_graph();
  // Every slot is taken (no moves), and a swap of two ranks of different hosts splits two heavy pairs: step A
  // then has two messages of 1e6 bytes between hosts, >= 2 us + 1e6 / 1e9 = 1002 us > 110.1 us in all.
  RefineOptions ro;
  ro.restarts = 0;  // the descent alone: its local optimum (the restarts' random kicks are another matter)
  RefineResult r = refine(g, t, kPairsStart, ro);
  EXPECT_EQ(r.map, kPairsStart);
  EXPECT_NEAR(r.time_s, kPairsStartT, 1e-12);

  for (int full : {128, 0}) {  // every host a candidate; and the sampled candidates (partners' leaves)
    BlockOptions bo;
    bo.full_groups = full;
    BlockResult b = block_moves(g, t, kPairsStart, bo);
    EXPECT_NEAR(b.time_s, kPairsOptT, 1e-12) << "full_groups " << full;
    EXPECT_NEAR(estimated_time(g, t, b.map), kPairsOptT, 1e-12);
    EXPECT_GE(b.accepted, 1);  // (node01 <-> node03 also lowers T: 0->2 and 4->6 then cross in opposite directions)
    EXPECT_TRUE(respects_slots(b.map, t));
    for (int p = 0; p < 8; p += 2) EXPECT_EQ(b.map[p], b.map[p + 1]) << "pair " << p << " stays on one host";
    EXPECT_EQ(leaf_of(t, b.map[0]), leaf_of(t, b.map[2]));  // P next to Q
    EXPECT_EQ(leaf_of(t, b.map[4]), leaf_of(t, b.map[6]));  // R next to S
  }
  // The refined stage's search with the block moves (default schedule) gets there too.
  RefineOptions on;
  on.blocks = true;  // arcoll place --block-moves
  RefineResult rb = refine_with_blocks(g, t, kPairsStart, on);
  EXPECT_NEAR(rb.time_s, kPairsOptT, 1e-12);
  EXPECT_GE(rb.block_moves, 1);
}

// top -> pods p1 {l1: n1 n2, l2: n3 n4}, p2 {l3: n5 n6, l4: n7 n8}; one slot per host.
constexpr const char *kPods =
    "SwitchName=l1 Nodes=n[1-2]\nSwitchName=l2 Nodes=n[3-4]\nSwitchName=l3 Nodes=n[5-6]\n"
    "SwitchName=l4 Nodes=n[7-8]\nSwitchName=p1 Switches=l[1-2]\nSwitchName=p2 Switches=l[3-4]\n"
    "SwitchName=top Switches=p[1-2]\n";

TEST(TreeGroups, LevelsWithMoreThanOneParentAndTheirShapes) {
  Topology two = two_leaves_2slots();
  TreeGroups a = tree_groups(two);
  ASSERT_EQ(a.depths, std::vector<int>{2});  // the leaves (depth 1) share the root: only the hosts
  EXPECT_EQ(a.at[0].size(), 4u);
  Topology pods = make(kPods, "n1\nn2\nn3\nn4\nn5\nn6\nn7\nn8\n", 8);
  TreeGroups b = tree_groups(pods);
  ASSERT_EQ(b.depths, (std::vector<int>{2, 3}));  // leaves (parents p1, p2) and hosts; not the pods
  const int l2 = pods.find("l2"), l3 = pods.find("l3");
  EXPECT_EQ(b.shape[l2], b.shape[l3]);
  EXPECT_EQ(b.shape[l2], "(h1h1)");
  ASSERT_EQ(b.count[l2], 2);
  EXPECT_EQ(pods.hosts[b.entry(l2, 0)].name, "n3");
  EXPECT_EQ(pods.hosts[b.entry(l2, 1)].name, "n4");
  EXPECT_EQ(lca_depth(pods, pods.find("n1"), pods.find("n4")), 1);  // p1
  EXPECT_EQ(lca_depth(pods, pods.find("n1"), pods.find("n5")), 0);  // top
}

TEST(BlockMoves, LeafExchangeAcrossPods) {
  // kPods, rank i on n(i+1).
  Topology t = make(kPods, "n1\nn2\nn3\nn4\nn5\nn6\nn7\nn8\n", 8);
  // Step A: the pairs {0,1} on l1, {2,3} on l2, {4,5} on l3, {6,7} on l4 exchange kHeavy bytes inside their
  // leaf: up(host), down(host), 2 us + 1e6 / 1e9 = 1002 us. Step B: 0->4 and 2->6 cross the pods, both on
  // up(p1), down(p2) (coll 2), L = 1 + 2 + 2 + 2 + 2 + 1 us = 10 us: 10 us + 2 x 1000 / 0.5e9 = 14 us.
  CommGraph g = graph(8, {{{0, 1, kHeavy}, {2, 3, kHeavy}, {4, 5, kHeavy}, {6, 7, kHeavy}},
                          {{0, 4, kCross}, {2, 6, kCross}}});
  const Mapping start{0, 1, 2, 3, 4, 5, 6, 7};
  const double t_start = 1002e-6 + 14e-6;
  // Exchanging leaves l2 <-> l3 (or l1 <-> l4) puts both cross messages inside a pod on disjoint links:
  // up(host), up(leaf), down(leaf'), down(host'), 6 us + 1000 / 0.5e9 = 8 us.
  const double t_opt = 1002e-6 + 8e-6;
  EXPECT_NEAR(estimated_time(g, t, start), t_start, 1e-12);
  // One slot per host: a rank swap is a host exchange, and every host exchange between two leaves splits
  // two pairs (step A >= 6 us + 1e6 / 0.5e9 = 2006 us). Neither stays below the start; the leaf exchange does.
  RefineOptions ro;
  ro.restarts = 0;
  EXPECT_EQ(refine(g, t, start, ro).map, start);
  BlockResult b = block_moves(g, t, start, BlockOptions{});
  EXPECT_NEAR(b.time_s, t_opt, 1e-12);
  EXPECT_TRUE(respects_slots(b.map, t));
  auto leaf = [&](int r) { return leaf_of(t, b.map[r]); };
  auto pod = [&](int r) { return t.vertices[leaf(r)].parent; };
  for (int p = 0; p < 8; p += 2) EXPECT_EQ(leaf(p), leaf(p + 1)) << "pair " << p << " stays in one leaf";
  EXPECT_EQ(pod(0), pod(4));
  EXPECT_EQ(pod(2), pod(6));
}

TEST(BlockMoves, ExchangesNeedTheSlots) {
  // The pairs case with R = {4, 5, 8} three ranks on node02 (3 slots; step A also sends 5->8) and node03
  // with 2 slots: the exchange node02 <-> node03 of the pairs case is illegal (3 ranks into 2 slots). The
  // optimum is still reachable through exchanges that fit (e.g. node01 <-> node04, or node02 <-> node04 then
  // node02 <-> node03 with S, 2 ranks, on node02): R must end on a 3-slot host.
  Topology t = make(fixtures::two_leaves, "node01:2\nnode02:3\nnode03:2\nnode04:3\n", 9);
  CommGraph g = graph(9, {{{0, 1, kHeavy}, {2, 3, kHeavy}, {4, 5, kHeavy}, {5, 8, kHeavy}, {6, 7, kHeavy}},
                          {{0, 2, kCross}, {4, 6, kCross}}});
  const Mapping start{0, 0, 2, 2, 1, 1, 3, 3, 1};
  // Step A: R's host's intra link carries two messages (coll 2): 0.1 us + 2 x 1e6 / 1e10 = 200.1 us, on any
  // mapping that keeps the groups on one host. Step B: 10 us at the start (as in the pairs case), 3 us when P
  // shares a leaf with Q and R with S.
  EXPECT_NEAR(estimated_time(g, t, start), 210.1e-6, 1e-12);
  BlockResult b = block_moves(g, t, start, BlockOptions{});
  EXPECT_NEAR(b.time_s, 203.1e-6, 1e-12);
  EXPECT_TRUE(respects_slots(b.map, t));
  EXPECT_EQ(b.map[4], b.map[5]);
  EXPECT_EQ(b.map[4], b.map[8]);
  EXPECT_EQ(t.hosts[b.map[4]].slots, 3) << "R on node02 or node04";
  EXPECT_EQ(leaf_of(t, b.map[0]), leaf_of(t, b.map[2]));
  EXPECT_EQ(leaf_of(t, b.map[4]), leaf_of(t, b.map[6]));
}

TEST(BlockMoves, DeterministicBoundedAndNeverWorse) {
  Topology t = fixtures::eight_nodes();  // 8 hosts x 4 slots, 2 leaves
  std::mt19937_64 rng(7);
  std::vector<std::vector<Message>> steps(4);
  for (auto &s : steps)
    for (int i = 0; i < 32; ++i) {
      int d = static_cast<int>(rng() % 31);
      s.push_back({i, d >= i ? d + 1 : d, 1000 + rng() % 100000});
    }
  CommGraph g = graph(32, steps);
  for (uint64_t seed : {1u, 2u, 3u}) {
    const Mapping start = random_mapping(32, t, seed);
    const double t0 = estimated_time(g, t, start);
    BlockOptions bo;
    bo.seed = seed;
    BlockResult a = block_moves(g, t, start, bo), b = block_moves(g, t, start, bo);
    EXPECT_EQ(a.map, b.map) << "seed " << seed;
    EXPECT_EQ(a.evaluations, b.evaluations);
    EXPECT_LE(a.time_s, t0);
    EXPECT_NEAR(a.time_s, estimated_time(g, t, a.map), 1e-15);
    EXPECT_TRUE(respects_slots(a.map, t));
    // The bound: the search stops before the exchange that would pass it; one exchange of two 4-rank hosts
    // is 4 CostModel evaluations there and 4 back.
    bo.max_evals = 20;
    BlockResult c = block_moves(g, t, start, bo);
    EXPECT_LE(c.evaluations, 20 + 8);
    EXPECT_LE(c.time_s, t0);
    // The stage's search: never worse than its start, deterministic, within its evaluation bound.
    RefineOptions ro;
    ro.blocks = true;
    ro.seed = seed;
    ro.max_evals = 5000;
    RefineResult r1 = refine_with_blocks(g, t, start, ro), r2 = refine_with_blocks(g, t, start, ro);
    EXPECT_EQ(r1.map, r2.map);
    EXPECT_EQ(r1.evaluations, r2.evaluations);
    EXPECT_LE(r1.time_s, t0);
    EXPECT_TRUE(respects_slots(r1.map, t));
    EXPECT_LE(r1.evaluations, ro.max_evals + 8);
  }
}

TEST(BlockMoves, OffIsTheRankRefinement) {
  Topology t = two_leaves_2slots();
  CommGraph g = pairs_graph();
  RefineOptions ro;  // blocks off: the default (arcoll place without --block-moves)
  EXPECT_FALSE(ro.blocks);
  RefineResult a = refine_with_blocks(g, t, kPairsStart, ro), b = refine(g, t, kPairsStart, ro);
  EXPECT_EQ(a.map, b.map);
  EXPECT_EQ(a.evaluations, b.evaluations);
}

TEST(BlockMoves, SiblingsAreNotExchanged) {
  // One leaf: every exchange of two hosts is a relabelling of equal cost, so there is nothing to try.
  Topology t = make("SwitchName=s Nodes=node[01-04]\n", "node01:2\nnode02:2\nnode03:2\nnode04:2\n", 8);
  CommGraph g = pairs_graph();
  BlockResult b = block_moves(g, t, kPairsStart, BlockOptions{});
  EXPECT_EQ(b.map, kPairsStart);
  EXPECT_EQ(b.tried, 0);
  EXPECT_EQ(b.evaluations, 0);
}
