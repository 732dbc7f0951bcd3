// The refinement's work budget (RefineOptions::max_step_evals, refine.hpp): it only stops the
// search - the cut search is the unbounded one up to that point - at the first candidate that
// reaches it, the same on any thread count, and a budget the search never reaches changes nothing.
#include <gtest/gtest.h>

#include "block_moves.hpp"
#include "cost.hpp"
#include "fixtures.hpp"
#include "partition_metis.hpp"
#include "refine.hpp"

using namespace arcoll::placement;
using fixtures::random_steps;

namespace {

RefineOptions deterministic() {
  RefineOptions o;
  o.time_limit_s = 1e9;  // ends on its restarts or on a budget
  o.threads = 1;
  return o;
}

// A search of 300 random steps among 32 ranks on eight_nodes() without a work budget.
struct Unbounded {
  Unbounded(uint32_t graph_seed, uint32_t start_seed, bool blocks)
      : t(fixtures::eight_nodes(Contention::Count)), g(random_steps(32, 300, graph_seed)),
        start(fixtures::shuffled_start(32, 4, start_seed)) {
    opt.blocks = blocks;
    full = refine_with_blocks(g, t, start, opt);
  }
  Topology t;
  CommGraph g;
  Mapping start;
  RefineOptions opt = deterministic();
  RefineResult full;
};

}  // namespace

TEST(RefineStepBudget, StopsTheSameSearchAtTheFirstCandidateThatReachesIt) {
  const Unbounded u(8, 4, false);
  const Topology &t = u.t;
  const CommGraph &g = u.g;
  const Mapping &start = u.start;
  const RefineResult &full = u.full;
  ASSERT_FALSE(full.hit_step_budget);
  ASSERT_GT(full.step_evaluations, 1000);
  RefineOptions o = u.opt;

  o.max_step_evals = full.step_evaluations / 4;
  const RefineResult cut = refine(g, t, start, o);
  EXPECT_TRUE(cut.hit_step_budget);
  EXPECT_FALSE(cut.hit_time_limit);
  EXPECT_GE(cut.step_evaluations, o.max_step_evals);
  // One candidate re-evaluates at most every step once.
  EXPECT_LE(cut.step_evaluations, o.max_step_evals + static_cast<long>(g.steps.size()));
  EXPECT_LT(cut.evaluations, full.evaluations);
  EXPECT_LE(cut.time_s, estimated_time(g, t, start));
  EXPECT_EQ(cut.time_s, estimated_time(g, t, cut.map));
  EXPECT_TRUE(respects_slots(cut.map, t));

  // The cut search is the unbounded one stopped there: its candidate count as the only bound
  // gives the same mapping and work.
  RefineOptions by_count = deterministic();
  by_count.max_evals = cut.evaluations;
  const RefineResult same = refine(g, t, start, by_count);
  EXPECT_EQ(same.map, cut.map);
  EXPECT_EQ(same.evaluations, cut.evaluations);
  EXPECT_EQ(same.step_evaluations, cut.step_evaluations);

  // A count: the same cut for any thread count.
  o.threads = 2;
  const RefineResult two = refine(g, t, start, o);
  EXPECT_EQ(two.map, cut.map);
  EXPECT_EQ(two.evaluations, cut.evaluations);
  EXPECT_EQ(two.step_evaluations, cut.step_evaluations);

  // A budget the search does not reach: the unbounded result.
  o.threads = 1;
  o.max_step_evals = full.step_evaluations + 1;
  const RefineResult wide = refine(g, t, start, o);
  EXPECT_FALSE(wide.hit_step_budget);
  EXPECT_EQ(wide.map, full.map);
  EXPECT_EQ(wide.evaluations, full.evaluations);
}

// With block moves the budget is shared by the rank descents: it ends the whole search once.
TEST(RefineStepBudget, SharedByTheDescentsOfTheBlockSearch) {
  const Unbounded u(9, 6, true);
  ASSERT_FALSE(u.full.hit_step_budget);
  ASSERT_GT(u.full.step_evaluations, 1000);
  RefineOptions o = u.opt;
  o.max_step_evals = u.full.step_evaluations / 3;
  const RefineResult cut = refine_with_blocks(u.g, u.t, u.start, o);
  EXPECT_TRUE(cut.hit_step_budget);
  EXPECT_GE(cut.step_evaluations, o.max_step_evals);
  EXPECT_LE(cut.step_evaluations, o.max_step_evals + static_cast<long>(u.g.steps.size()));
  EXPECT_LT(cut.evaluations, u.full.evaluations);
  EXPECT_LE(cut.time_s, estimated_time(u.g, u.t, u.start));
  EXPECT_TRUE(respects_slots(cut.map, u.t));
}
