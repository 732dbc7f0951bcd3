// Seed-001 cost on hand-computed cases, the barrier advice built on it, and
// CostModel's incremental evaluation against evaluate() (fixtures::round_params: host<->leaf 1 us, 1e9 B/s;
// switch<->switch 2 us, 0.5e9 B/s; node-internal 0.1 us, 1e10 B/s).
#include <gtest/gtest.h>

#include <random>

#include "advice.hpp"
#include "cost.hpp"
#include "fixtures.hpp"
#include "partition_metis.hpp"

using namespace arcoll::placement;
using fixtures::graph;
using fixtures::make;

namespace {
Topology four_single() { return make(fixtures::two_leaves, "node01:1\nnode02:1\nnode03:1\nnode04:1\n", 4); }
}  // namespace

TEST(Cost, TwoMessagesSharingAnUplinkCollide) {
  Topology t = four_single();
  // Step 0: 0->2 and 1->3 both cross s1 -> s0 -> s2: coll = 2.
  // Step 1: 0->1 under s1 alone: coll = 1.
  CommGraph g = graph(4, {{{0, 2, 1000}, {1, 3, 1000}}, {{0, 1, 500}}});
  Mapping in_order{0, 1, 2, 3};
  CostReport r = evaluate(g, t, in_order);
  const double step0 = 6e-6 + 1000.0 * 2 / 0.5e9;  // L = 1+2+2+1 us, B = 0.5e9
  const double step1 = 2e-6 + 500.0 / 1e9;
  EXPECT_DOUBLE_EQ(r.time_s, step0 + step1);
  EXPECT_DOUBLE_EQ(r.hop_bytes, 1000.0 * 4 * 2 + 500.0 * 2);
  EXPECT_EQ(r.max_congestion, 2);
  EXPECT_DOUBLE_EQ(estimated_time(g, t, in_order), step0 + step1);

  // Ranks 0,2 under s1 and 1,3 under s2: step 0 stays under the leaves, step 1 crosses.
  Mapping better{0, 2, 1, 3};
  CostReport b = evaluate(g, t, better);
  EXPECT_DOUBLE_EQ(b.time_s, (2e-6 + 1000.0 / 1e9) + (6e-6 + 500.0 / 0.5e9));
  EXPECT_EQ(b.max_congestion, 1);
  EXPECT_DOUBLE_EQ(b.hop_bytes, 1000.0 * 2 * 2 + 500.0 * 4);
}

TEST(Cost, OppositeDirectionsDoNotCollide) {
  Topology t = four_single();
  CommGraph g = graph(4, {{{0, 2, 1000}, {2, 0, 1000}}});
  EXPECT_DOUBLE_EQ(estimated_time(g, t, {0, 1, 2, 3}), 6e-6 + 1000.0 / 0.5e9);
}

TEST(Cost, StepTimeIsTheSlowestMessage) {
  Topology t = four_single();
  // 0->1 (leaf-local, big) and 2->3 (leaf-local, small): no shared link, max of the two.
  CommGraph g = graph(4, {{{0, 1, 4000}, {2, 3, 10}}});
  EXPECT_DOUBLE_EQ(estimated_time(g, t, {0, 1, 2, 3}), 2e-6 + 4000.0 / 1e9);
}

TEST(Cost, IntraNodeMessagesUseTheNodeInternalLink) {
  Topology t = make(fixtures::two_leaves, "node01:2\nnode02:2\n", 4);
  // 0<->1 on node01 both use node01's internal link: coll = 2, no network hops.
  CommGraph g = graph(4, {{{0, 1, 1000}, {1, 0, 1000}, {2, 3, 1000}}});
  CostReport r = evaluate(g, t, {0, 0, 1, 1});
  EXPECT_DOUBLE_EQ(r.time_s, 1e-7 + 1000.0 * 2 / 1e10);
  EXPECT_DOUBLE_EQ(r.hop_bytes, 0);
  EXPECT_EQ(r.max_congestion, 0);
}

TEST(Cost, ThreeMessagesOnOneDownlink) {
  Topology t = make(fixtures::two_leaves, "node01:2\nnode02:1\nnode03:1\nnode04:1\n", 5);
  // 0,1 on node01, 2 on node02, 3 on node03, 4 on node04. All of 0,1,3 send to 2 (node02):
  // down(node02) carries 3 messages. 0->2, 1->2: route up(node01),down(node02): coll 3.
  // 3->2: up(node03), up(s2), down(s1), down(node02): coll 3.
  CommGraph g = graph(5, {{{0, 2, 100}, {1, 2, 100}, {3, 2, 100}}});
  Mapping m{0, 0, 1, 2, 3};
  double t_leaf = 2e-6 + 100.0 * 3 / 1e9;
  double t_far = 6e-6 + 100.0 * 3 / 0.5e9;
  EXPECT_DOUBLE_EQ(estimated_time(g, t, m), std::max(t_leaf, t_far));
  EXPECT_EQ(evaluate(g, t, m).max_congestion, 3);
}

TEST(Cost, IncrementalModelMatchesFullEvaluation) {
  Topology t = four_single();
  CommGraph g = graph(4, {{{0, 2, 1000}, {1, 3, 1000}}, {{0, 1, 500}, {3, 2, 70}}, {{2, 1, 9}}});
  CostModel cm(g, t);
  Mapping m{0, 1, 2, 3};
  EXPECT_DOUBLE_EQ(cm.reset(m), estimated_time(g, t, m));
  double after = cm.apply(1, 2, 2, 1);  // swap ranks 1 and 2
  EXPECT_NEAR(after, estimated_time(g, t, {0, 2, 1, 3}), 1e-18);
  EXPECT_EQ(cm.mapping(), (Mapping{0, 2, 1, 3}));
  cm.undo();
  EXPECT_EQ(cm.mapping(), m);
  EXPECT_DOUBLE_EQ(cm.total(), estimated_time(g, t, m));
}

// Steps with the same messages in another order are evaluated once and counted twice (cost.hpp
// CostModel): totals, step times and every move still match the full evaluation, under each
// contention model with a whole-step path and the per-link one (per_link_min_msgs 1).
TEST(Cost, RepeatedStepsCountedByTheirMultiplicity) {
  for (Contention c : {Contention::Count, Contention::Volume, Contention::Blend}) {
    for (size_t per_link : {size_t(256), size_t(1)}) {
      Topology t = four_single();
      t.contention = c;
      CommGraph g = graph(4, {{{0, 2, 1000}, {1, 3, 1000}},
                              {{2, 1, 9}},
                              {{1, 3, 1000}, {0, 2, 1000}},  // step 0 in another order
                              {{0, 2, 1000}, {1, 3, 999}},   // not the same
                              {{2, 1, 9}}});
      CostModel cm(g, t, per_link);
      Mapping m{0, 1, 2, 3};
      const CostReport full = evaluate(g, t, m);
      EXPECT_NEAR(cm.reset(m), full.time_s, 1e-18);
      for (size_t s = 0; s < g.steps.size(); ++s) EXPECT_DOUBLE_EQ(cm.step_time(s), full.step_time_s[s]) << s;
      std::mt19937 rng(5);
      for (int k = 0; k < 40; ++k) {
        const int a = rng() % 4, b = rng() % 4;
        if (a == b) continue;
        Mapping next = cm.mapping();
        std::swap(next[a], next[b]);
        const double after = cm.apply(a, next[a], b, next[b]);
        const CostReport e = evaluate(g, t, next);
        EXPECT_NEAR(after, e.time_s, 1e-12 * e.time_s) << "move " << k;  // the running sum rounds
        for (size_t s = 0; s < g.steps.size(); ++s) EXPECT_DOUBLE_EQ(cm.step_time(s), e.step_time_s[s]);
        if (k % 3 == 0) {
          cm.undo();
          EXPECT_NEAR(cm.total(), estimated_time(g, t, cm.mapping()), 1e-12 * e.time_s);
        }
      }
    }
  }
}

// Contention::Volume (cost.hpp): a message takes L + max over its route's links of (bytes of the
// step on the link) / B_link, instead of seed 001's S * coll / B.
TEST(Cost, VolumeContentionChargesTheBytesOnTheBusiestLink) {
  TopologyParams p = fixtures::round_params();
  p.contention = Contention::Volume;
  Topology t = make(fixtures::two_leaves, "node01:1\nnode02:1\nnode03:1\nnode04:1\n", 4, p);
  // Step 0: 0->2 (1000 B) and 1->3 (100 B) share up(s1) and down(s2) (0.5e9 B/s): 1100 B there.
  //   0->2: 6 us + 1100 / 0.5e9; 1->3: the same (the shared links are its busiest too).
  //   Count model: 0->2 costs 6 us + 1000 * 2 / 0.5e9, larger.
  CommGraph g = graph(4, {{{0, 2, 1000}, {1, 3, 100}}});
  Mapping m{0, 1, 2, 3};
  CostReport r = evaluate(g, t, m);
  EXPECT_DOUBLE_EQ(r.time_s, 6e-6 + 1100.0 / 0.5e9);
  EXPECT_EQ(r.max_congestion, 2);  // still the message count
  EXPECT_DOUBLE_EQ(r.hop_bytes, 1000.0 * 4 + 100.0 * 4);
  Topology tc = make(fixtures::two_leaves, "node01:1\nnode02:1\nnode03:1\nnode04:1\n", 4);
  EXPECT_DOUBLE_EQ(estimated_time(g, tc, m), 6e-6 + 1000.0 * 2 / 0.5e9);
  // Equal sizes and one bandwidth per route: both models agree.
  CommGraph e = graph(4, {{{0, 2, 1000}, {1, 3, 1000}}});
  EXPECT_DOUBLE_EQ(estimated_time(e, t, m), estimated_time(e, tc, m));
  // The busiest link need not be the bottleneck-bandwidth one: 0->1 and 0->2 (node01's uplink,
  // 1e9 B/s, carries 2000+4000 B) vs up(s1) (0.5e9 B/s, 4000 B): 0->2 takes 6 us + max(6000/1e9, 4000/0.5e9).
  CommGraph h = graph(4, {{{0, 1, 2000}, {0, 2, 4000}}});
  EXPECT_DOUBLE_EQ(estimated_time(h, t, m), std::max(2e-6 + 6000.0 / 1e9, 6e-6 + std::max(6000.0 / 1e9, 4000.0 / 0.5e9)));
  // The incremental model agrees with the full evaluation under this contention too.
  CostModel cm(h, t);
  EXPECT_DOUBLE_EQ(cm.reset(m), estimated_time(h, t, m));
  double after = cm.apply(1, 2, 2, 1);
  EXPECT_NEAR(after, estimated_time(h, t, {0, 2, 1, 3}), 1e-15);
}

// One rank on each host of two_leaves (round_params) under contention c, and the step A 0->2,
// B 1->3, C 0->1 of 1000 B each (the hand-computed blend and fluid cases).
Topology one_per_host(Contention c) {
  TopologyParams p = fixtures::round_params();
  p.contention = c;
  return make(fixtures::two_leaves, "node01:1\nnode02:1\nnode03:1\nnode04:1\n", 4, p);
}
CommGraph three_messages() { return graph(4, {{{0, 2, 1000}, {1, 3, 1000}, {0, 1, 1000}}}); }

// Contention::Blend (cost.hpp), by hand, the step of the fluid case below: A 0->2, B 1->3, C 0->1,
// 1000 B each. Busy times t_k = V_k / B_k: up(node01) 2000 / 1e9 = 2 us, up(s1) and down(s2)
// 2000 / 0.5e9 = 4 us each, up(node02), down(node02), down(node03), down(node04) 1 us each.
// Volume term: A = B = 6 us + 4 us, C = 2 us + 2 us -> 10 us. Overlap term: max L 6 us +
// sum t^2 / sum t = 6 us + (4+16+16+1+1+1+1) / (2+4+4+1+1+1+1) us = 6 us + 40/14 us.
TEST(Cost, BlendContentionByHand) {
  Topology t = one_per_host(Contention::Blend);
  Mapping m{0, 1, 2, 3};
  CommGraph g = three_messages();
  EXPECT_NEAR(estimated_time(g, t, m), 0.5 * (10e-6 + 6e-6 + 40.0 / 14 * 1e-6), 1e-15);
  // Every busy link equally busy (one message): the blend is the volume estimate, 2 us + 1 us.
  CommGraph one = graph(4, {{{0, 1, 1000}}});
  EXPECT_NEAR(estimated_time(one, t, m), 3e-6, 1e-15);
  // The incremental model takes the whole-step path under this contention and stays exact.
  CostModel cm(g, t, 1);
  EXPECT_EQ(cm.per_link_steps(), 0u);
  EXPECT_NEAR(cm.reset(m), estimated_time(g, t, m), 1e-18);
  EXPECT_NEAR(cm.apply(1, 2, 2, 1), estimated_time(g, t, {0, 2, 1, 3}), 1e-18);
}

// Contention::Fluid (fluid.hpp), by hand: A 0->2 and B 1->3 (1000 B each) share up(s1) (0.5e9 B/s),
// C 0->1 (1000 B) shares up(node01) (1e9 B/s) with A. Progressive filling: up(s1) is the
// bottleneck (0.5e9 / 2): A = B = 2.5e8 B/s; C gets the rest of up(node01): 7.5e8 B/s and
// finishes at 1000 / 7.5e8 s; A and B stay at 2.5e8 (up(s1)) and finish at 4 us. Ends: A, B at
// 4 us + L (6 us); C at 1.33 us + 2 us. The step takes 10 us.
TEST(Cost, FluidContentionIsMaxMinSharingByHand) {
  Topology t = one_per_host(Contention::Fluid);
  Mapping m{0, 1, 2, 3};
  CommGraph g = three_messages();
  EXPECT_NEAR(estimated_time(g, t, m), 4e-6 + 6e-6, 1e-15);
  // C alone: 1000 B at 1e9 B/s + 2 us.
  CommGraph c = graph(4, {{{0, 1, 1000}}});
  EXPECT_NEAR(estimated_time(c, t, m), 1e-6 + 2e-6, 1e-15);
  // Two steps add; an empty step list costs 0.
  CommGraph two = graph(4, {{{0, 1, 1000}}, {{0, 2, 1000}, {1, 3, 1000}, {0, 1, 1000}}});
  EXPECT_NEAR(estimated_time(two, t, m), 3e-6 + 10e-6, 1e-15);
  EXPECT_EQ(estimated_time(graph(4, {}), t, m), 0.0);
}

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
