// The refinement's shortcuts change nothing but its speed: the host-pair route table
// (route_table.hpp) against Topology's routes, CostModel's memo of whole steps (cost.hpp)
// against the same model without it, and refine()'s answers for repeated swaps (refine.hpp
// skip_repeated_swaps) against the search without them.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

#include "cost.hpp"
#include "fixtures.hpp"
#include "refine.hpp"
#include "route_table.hpp"
#include "socket_fixtures.hpp"

using namespace arcoll::placement;
using fixtures::graph;
using fixtures::make;
using fixtures::random_steps;

TEST(RouteTable, EveryHostPairAsTheTopologyRoutesIt) {
  for (int sockets : {0, 1}) {
    SCOPED_TRACE(sockets ? "two sockets per host" : "two leaves");
    Topology t = sockets ? make(socket_fixtures::kLeaf, socket_fixtures::kHosts, 16)
                         : make(fixtures::two_leaves, "node01:2\nnode02:2\nnode03:2\nnode04:2\n", 8);
    RouteTable rt(t);
    ASSERT_TRUE(rt.enabled());
    const int H = static_cast<int>(t.hosts.size());
    for (int p = 0; p < H; ++p)
      for (int q = 0; q < H; ++q) {
        int n = 0;
        const int *l = rt.links(p, q, n);
        EXPECT_EQ(std::vector<int>(l, l + n), t.route(p, q)) << p << "->" << q;
        EXPECT_EQ(rt.latency(p, q), t.latency(p, q));      // bit-identical: summed in route order
        EXPECT_EQ(rt.bandwidth(p, q), t.bandwidth(p, q));
        // Topology::route_lb: latencies added in route order, the smallest bandwidth.
        double lat = 0, bw = std::numeric_limits<double>::infinity();
        for (int k : t.route(p, q)) lat += t.links[k].latency_s, bw = std::min(bw, t.links[k].bandwidth_Bps);
        EXPECT_EQ(t.latency(p, q), lat);
        EXPECT_EQ(t.bandwidth(p, q), bw);
      }
    // Over its budget (H^2 x (max_route + 1) ints) the table is not built.
    EXPECT_FALSE(RouteTable(t, static_cast<size_t>(H) * H * (t.max_route() + 1) - 1).enabled());
  }
}

// The same moves on two models, one with the memo and one without (memo_budget 0): totals and
// step times are the same doubles after every apply(), undo() and reset(), and equal to
// evaluate()'s; the memo did answer (a rank tried on every host in turn, as refine() does).
TEST(CostModelMemo, AnswersAreTheComputedTimes) {
  for (Contention c : {Contention::Count, Contention::Volume, Contention::Blend}) {
    SCOPED_TRACE(testing::Message() << "contention " << static_cast<int>(c));
    Topology t = fixtures::eight_nodes(c);
    CommGraph g = random_steps(32, 60, 11);
    CostModel with(g, t), without(g, t, 256, size_t(1) << 22, 0);
    Mapping m(32);
    for (int r = 0; r < 32; ++r) m[r] = r / 4;
    ASSERT_EQ(with.reset(m), without.reset(m));
    std::mt19937 rng(3);
    auto same = [&](const char *what, int k) {
      ASSERT_EQ(with.total(), without.total()) << what << " " << k;
      ASSERT_EQ(with.mapping(), without.mapping());
      for (size_t s = 0; s < g.steps.size(); ++s) ASSERT_EQ(with.step_time(s), without.step_time(s)) << s;
      ASSERT_NEAR(with.total(), estimated_time(g, t, with.mapping()), 1e-12 * with.total());
    };
    for (int k = 0; k < 400; ++k) {
      const int a = static_cast<int>(rng() % 32);
      // a swapped with every rank in turn, undone, as the search's neighbourhood; one kept
      const int keep = static_cast<int>(rng() % 32);
      for (int b = 0; b < 32; ++b) {
        const int ha = with.mapping()[a], hb = with.mapping()[b];
        if (a == b || ha == hb) continue;
        ASSERT_EQ(with.apply(a, hb, b, ha), without.apply(a, hb, b, ha)) << a << "<->" << b;
        if (b == keep) continue;  // kept: the next apply() settles a and b
        with.undo();
        without.undo();
      }
      same("round", k);
      if (k % 50 == 49) {  // a restart from another mapping: the ranks that changed hosts settle
        Mapping next = with.mapping();
        std::swap(next[rng() % 32], next[rng() % 32]);
        ASSERT_EQ(with.reset(next), without.reset(next));
        same("reset", k);
      }
    }
    EXPECT_GT(with.memo_hits(), 0);
    EXPECT_LT(with.step_evaluations(), without.step_evaluations());
    EXPECT_EQ(without.memo_hits(), 0);
  }
}

// refine() answering repeated rejected swaps from its table takes the same search: the same
// mapping, cost and evaluation count, with and without, to the end and cut by --max-evals.
// 28 ranks on 32 slots: moves to the free slots too (they change the mapping as swaps do).
TEST(RefineRepeatedSwaps, SameSearchSameResult) {
  for (Contention c : {Contention::Count, Contention::Blend}) {
    Topology t = fixtures::eight_nodes(c);
    CommGraph g = random_steps(28, 80, 7);
    const Mapping start = fixtures::shuffled_start(28, 4, 9);
    for (long budget : {0L, 3000L}) {
      SCOPED_TRACE(testing::Message() << "contention " << static_cast<int>(c) << " max_evals " << budget);
      RefineOptions o;
      o.time_limit_s = 1e9;  // deterministic: ends on its own or on the budget
      o.max_evals = budget;
      RefineOptions off = o;
      off.skip_repeated_swaps = false;
      const RefineResult a = refine(g, t, start, o), b = refine(g, t, start, off);
      EXPECT_EQ(a.map, b.map);
      EXPECT_EQ(a.time_s, b.time_s);
      EXPECT_EQ(a.evaluations, b.evaluations);
      EXPECT_LT(a.time_s, estimated_time(g, t, start));  // the search did something
    }
  }
}
