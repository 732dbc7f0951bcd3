// `arcoll place --strategy best` under the count model writes the refinement's mapping only when the blend
// model also rates it below the refinement's start (place.hpp, SecondOpinion). Why: the refinement ends
// where the count model errs most in its favour; on the placement suite (placement/SUITE.md) that rule gave
// 33 default picks within 5 % of the best strategy's SMPI time out of 36 against 30 without it.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "cost.hpp"
#include "fixtures.hpp"
#include "partition_metis.hpp"
#include "place.hpp"

using namespace arcoll::placement;

namespace {
// Irregular message sizes (the count model charges a big message as many times its size as there are
// messages on its links, the blend model by the bytes): every rank sends to 3 random peers per step.
CommGraph irregular(uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::vector<Message>> steps;
  for (int s = 0; s < 6; ++s) {
    std::vector<Message> st;
    for (int r = 0; r < 32; ++r)
      for (int k = 0; k < 3; ++k) {
        int d = int(rng() % 31);
        st.push_back({r, d >= r ? d + 1 : d, rng() % 4 ? 4096u : 1048576u});
      }
    steps.push_back(st);
  }
  return fixtures::graph(32, steps);
}

PlaceOptions deterministic() {
  PlaceOptions o;
  o.refine.seed = 1;
  o.refine.max_evals = 4000;  // stops on evaluations, not on the clock
  o.refine.time_limit_s = 60;
  o.ranking = Ranking::Count;  // the second opinion checks the count model's ranking
  return o;
}
}  // namespace

TEST(SecondOpinion, BlendAgreesOnlyWithALowerBlendCost) {
  const Topology topo = fixtures::eight_nodes();
  const CommGraph g = irregular(5);
  const Mapping in_order = in_order_mapping(32, topo);
  Mapping spread(32);
  for (int r = 0; r < 32; ++r) spread[r] = r % 8;  // same slots, another mapping
  Topology tb = topo;
  tb.contention = Contention::Blend;
  const double a = estimated_time(g, tb, in_order), b = estimated_time(g, tb, spread);
  ASSERT_NE(a, b);
  SecondOpinion so;
  EXPECT_EQ(blend_agrees(g, topo, in_order, spread, so), b < a);
  EXPECT_DOUBLE_EQ(so.start_s, a);
  EXPECT_DOUBLE_EQ(so.refined_s, b);
  EXPECT_EQ(blend_agrees(g, topo, spread, in_order, so), a < b);
  EXPECT_FALSE(blend_agrees(g, topo, spread, spread, so)) << "an equal cost is no confirmation";
}

TEST(SecondOpinion, BestWritesTheRefinedMappingOnlyWhenConfirmed) {
  const Topology topo = fixtures::eight_nodes();
  int checked = 0, overruled = 0;
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    const CommGraph g = irregular(seed);
    PlaceResult with = place(g, topo, deterministic());
    PlaceOptions off = deterministic();
    off.second_opinion = false;
    PlaceResult without = place(g, topo, off);
    ASSERT_EQ(with.stages.size(), without.stages.size());
    const size_t refined = with.stages.size() - 1;
    ASSERT_EQ(with.stages[refined].map, without.stages[refined].map) << "seed " << seed << ": same search";
    if (!with.second.checked) {
      EXPECT_NE(without.chosen_index, refined) << "seed " << seed << ": the refined mapping had the lowest cost";
      EXPECT_EQ(with.chosen_index, without.chosen_index);
      continue;
    }
    ++checked;
    EXPECT_EQ(without.chosen_index, refined);
    Topology tb = topo;
    tb.contention = Contention::Blend;
    const double start_blend = estimated_time(g, tb, with.stages[with.second.start].map);
    const double refined_blend = estimated_time(g, tb, with.stages[refined].map);
    EXPECT_DOUBLE_EQ(with.second.start_s, start_blend);
    EXPECT_DOUBLE_EQ(with.second.refined_s, refined_blend);
    EXPECT_EQ(with.second.overruled, !(refined_blend < start_blend)) << "seed " << seed;
    EXPECT_EQ(with.chosen_index, with.second.overruled ? with.second.start : refined) << "seed " << seed;
    overruled += with.second.overruled;
  }
  // Both outcomes occur among these graphs, so both paths above ran.
  EXPECT_GT(checked, overruled) << "some refined mapping confirmed";
  EXPECT_GT(overruled, 0) << "some refined mapping overruled";
}

TEST(SecondOpinion, OnlyUnderTheCountModel) {
  Topology topo = fixtures::eight_nodes();
  topo.contention = Contention::Blend;
  PlaceResult r = place(irregular(3), topo, deterministic());
  EXPECT_FALSE(r.second.checked);
  EXPECT_EQ(r.chosen_index, r.best);
}
