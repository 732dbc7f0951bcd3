// `arcoll place --strategy best` writes the refinement's mapping of a trace with dependency levels only when
// its path score (the critical paths with time-overlap contention and with fluid sharing, overlap^w x
// fluid^(1 - w)) is also below its start's by more than the tie tolerance (place.hpp, PathOpinion). Why: in a
// pipeline the levels are not separated in time, and the level-by-level models rated a refined mapping below
// in-order that SMPI ran 17 % slower (placement/notes/chooser-suite-2026-11-26-to-29.md "Critical path",
// node16 wavefront).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "comm_graph.hpp"
#include "critical_path.hpp"
#include "fixtures.hpp"
#include "trace_fixtures.hpp"
#include "place.hpp"

using namespace arcoll::placement;
using arcoll::trace::CcsEntry;
using arcoll::trace::Trace;
using tracefix::by_levels;
using tracefix::two_chains;

namespace {

// 32 ranks, `n` messages between random pairs, each sent and received in the current step of its two ranks,
// which both move on: dependent messages in an irregular pipeline; sizes 4 KiB or 1 MiB.
Trace random_pipeline(uint32_t seed, int n) {
  std::mt19937 rng(seed);
  Trace tr;
  tr.path = "pipeline.arctrace";
  tr.nranks = 32;
  std::vector<uint64_t> step(32, 0);
  for (int i = 0; i < n; ++i) {
    const int a = int(rng() % 32), b = (a + 1 + int(rng() % 31)) % 32;
    const uint64_t bytes = rng() % 4 ? 4096u : 1048576u;
    tr.ccs.push_back(CcsEntry{step[a]++, a, b, bytes, 1});
    tr.recvs.push_back(CcsEntry{step[b]++, a, b, bytes, 1});
  }
  return tr;
}

PlaceOptions deterministic() {
  PlaceOptions o;
  o.refine.seed = 1;
  o.refine.max_evals = 4000;  // stops on evaluations, not on the clock
  o.refine.time_limit_s = 60;
  o.second_opinion = false;   // the path opinion alone
  o.ranking = Ranking::Count;  // the opinions on the count model's ranking (test_blend_ranking.cpp: blend)
  return o;
}

}  // namespace

TEST(PathOpinion, ScoresTheWeightedGeometricMeanOfTheOverlapAndFluidPaths) {
  EXPECT_DOUBLE_EQ(path_score(8e-3, 1e-3, 1.0 / 3), 2e-3);
  EXPECT_DOUBLE_EQ(path_score(8e-3, 1e-3, 1.0), 8e-3);
  EXPECT_DOUBLE_EQ(path_score(8e-3, 1e-3, 0.0), 1e-3);
  EXPECT_DOUBLE_EQ(path_score(8e-3, -1.0, 0.3), 8e-3) << "no fluid path: the overlap path alone";
  EXPECT_DOUBLE_EQ(path_score(-1.0, -1.0, 0.3), -1.0) << "no dependency levels";
  const Topology t = fixtures::make(fixtures::two_leaves, "node01:3\nnode02:3\n", 6);
  const CommGraph g = by_levels(two_chains());
  const Mapping packed{0, 0, 0, 1, 1, 1}, crossing{0, 1, 1, 0, 0, 1};
  PathOpinion po;
  path_agrees(g, t, packed, crossing, po);
  const double o = critical_path_time(g, t, packed, PathContention::Overlap),
               f = critical_path_time(g, t, packed, PathContention::Fluid);
  ASSERT_GT(o, 0);
  ASSERT_GT(f, 0);
  EXPECT_DOUBLE_EQ(po.weight, kPathOverlapWeight);
  EXPECT_DOUBLE_EQ(po.start_overlap_s, o);
  EXPECT_DOUBLE_EQ(po.start_fluid_s, f);
  EXPECT_NEAR(po.start_s, std::pow(o, kPathOverlapWeight) * std::pow(f, 1 - kPathOverlapWeight), 1e-15);
  EXPECT_DOUBLE_EQ(po.refined_fluid_s, critical_path_time(g, t, crossing, PathContention::Fluid));
  // w = 1: the overlap path alone, the fluid one not computed (the opinion before 4 Dec 2026).
  path_agrees(g, t, packed, crossing, po, kTieTolerance, 1.0);
  EXPECT_DOUBLE_EQ(po.start_s, o);
  EXPECT_DOUBLE_EQ(po.start_fluid_s, -1.0);
  EXPECT_DOUBLE_EQ(po.refined_fluid_s, -1.0);
}

TEST(PathOpinion, AgreesOnlyWithALowerPathScore) {
  const Topology t = fixtures::make(fixtures::two_leaves, "node01:3\nnode02:3\n", 6);
  const CommGraph g = by_levels(two_chains());
  const Mapping packed{0, 0, 0, 1, 1, 1}, crossing{0, 1, 1, 0, 0, 1};
  for (double w : {0.0, kPathOverlapWeight, 1.0}) {
    PathOpinion po;
    EXPECT_FALSE(path_agrees(g, t, packed, crossing, po, kTieTolerance, w)) << "w " << w;
    EXPECT_DOUBLE_EQ(po.start_s, fixtures::path_score_of(g, t, packed, w));
    EXPECT_DOUBLE_EQ(po.refined_s, fixtures::path_score_of(g, t, crossing, w));
    EXPECT_LT(po.start_s, po.refined_s);
    EXPECT_TRUE(path_agrees(g, t, crossing, packed, po, kTieTolerance, w));
    EXPECT_FALSE(path_agrees(g, t, packed, packed, po, kTieTolerance, w)) << "an equal score is no confirmation";
    // Lower, but within a tolerance: no confirmation either.
    ASSERT_TRUE(path_agrees(g, t, crossing, packed, po, 0.0, w));
    const double gain = po.start_s / po.refined_s - 1.0;
    EXPECT_TRUE(path_agrees(g, t, crossing, packed, po, gain * 0.99, w));
    EXPECT_FALSE(path_agrees(g, t, crossing, packed, po, gain * 1.01, w));
  }
}

TEST(PathOpinion, BestWritesTheRefinedMappingOnlyWhenItsPathIsShorter) {
  const Topology topo = fixtures::eight_nodes();
  int checked = 0, overruled = 0;
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    const CommGraph g = by_levels(random_pipeline(seed, 400));
    ASSERT_TRUE(g.deps);
    PlaceResult with = place(g, topo, deterministic());
    PlaceOptions off = deterministic();
    off.path_opinion = false;
    PlaceResult without = place(g, topo, off);
    ASSERT_EQ(with.stages.size(), without.stages.size());
    const size_t refined = with.stages.size() - 1;
    ASSERT_EQ(with.stages[refined].map, without.stages[refined].map) << "seed " << seed << ": same search";
    EXPECT_FALSE(without.path.checked);
    if (!with.path.checked) {
      EXPECT_NE(without.chosen_index, refined) << "seed " << seed << ": the refined mapping had the lowest cost";
      EXPECT_EQ(with.chosen_index, without.chosen_index);
      continue;
    }
    ++checked;
    EXPECT_EQ(without.chosen_index, refined);
    const double start_s = fixtures::path_score_of(g, topo, with.stages[with.path.start].map);
    const double refined_s = fixtures::path_score_of(g, topo, with.stages[refined].map);
    EXPECT_DOUBLE_EQ(with.path.start_s, start_s);
    EXPECT_DOUBLE_EQ(with.path.refined_s, refined_s);
    EXPECT_EQ(with.path.overruled, !(start_s > refined_s * (1 + kTieTolerance))) << "seed " << seed;
    EXPECT_EQ(with.chosen_index, with.path.overruled ? with.path.start : refined) << "seed " << seed;
    overruled += with.path.overruled;
  }
  EXPECT_GT(checked, overruled) << "some refined mapping confirmed";
  EXPECT_GT(overruled, 0) << "some refined mapping overruled";
}

TEST(PathOpinion, NotWithoutDependencyLevels) {
  Trace tr = random_pipeline(3, 400);
  PlaceResult r = place(build_comm_graph(tr), fixtures::eight_nodes(), deterministic());  // steps: no graph
  EXPECT_FALSE(r.path.checked);
  EXPECT_EQ(r.chosen_index, r.best);
}
