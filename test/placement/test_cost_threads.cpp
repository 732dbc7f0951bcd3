// The cost model's threads (CostModel::set_threads, cost.hpp) change nothing but the speed:
// the same totals and step times, bit for bit, after every apply() and undo(), and the same
// refinement (mapping, cost, evaluation count) for 1, 2 and 4 threads.
#include <gtest/gtest.h>

#include <random>

#include "cost.hpp"
#include "fixtures.hpp"
#include "refine.hpp"

using namespace arcoll::placement;
using fixtures::random_steps;

// 400 steps of up to 9 messages among 32 ranks: a swap re-evaluates ~200 whole steps, above
// CostModel::kParallelMinSteps, so the threads take them.
TEST(CostModelThreads, SameTotalsForEveryThreadCount) {
  for (Contention c : {Contention::Count, Contention::Blend}) {
    SCOPED_TRACE(testing::Message() << "contention " << static_cast<int>(c));
    Topology t = fixtures::eight_nodes(c);
    CommGraph g = random_steps(32, 400, 5);
    CostModel one(g, t), three(g, t);
    one.set_threads(1);
    three.set_threads(3);
    EXPECT_EQ(one.threads(), 1);
    Mapping m(32);
    for (int r = 0; r < 32; ++r) m[r] = r / 4;
    ASSERT_EQ(one.reset(m), three.reset(m));
    std::mt19937 rng(17);
    long most = 0;
    for (int k = 0; k < 300; ++k) {
      const int a = static_cast<int>(rng() % 32), b = static_cast<int>(rng() % 32);
      const int ha = one.mapping()[a], hb = one.mapping()[b];
      if (ha == hb) continue;
      const long before = one.step_evaluations() + one.memo_hits();
      ASSERT_EQ(one.apply(a, hb, b, ha), three.apply(a, hb, b, ha)) << a << "<->" << b;
      most = std::max(most, one.step_evaluations() + one.memo_hits() - before);
      ASSERT_EQ(one.step_evaluations(), three.step_evaluations());
      ASSERT_EQ(one.memo_hits(), three.memo_hits());
      if (k % 3) {
        one.undo();
        three.undo();
      }
      ASSERT_EQ(one.total(), three.total());
      for (size_t s = 0; s < g.steps.size(); ++s) ASSERT_EQ(one.step_time(s), three.step_time(s)) << s;
    }
    EXPECT_GE(most, CostModel::kParallelMinSteps);  // the threaded path did run
    EXPECT_NEAR(three.total(), estimated_time(g, t, three.mapping()), 1e-12 * three.total());
  }
}

TEST(RefineThreads, SameSearchSameResult) {
  Topology t = fixtures::eight_nodes(Contention::Count);
  CommGraph g = random_steps(32, 300, 8);
  const Mapping start = fixtures::shuffled_start(32, 4, 4);
  RefineOptions o;
  o.time_limit_s = 1e9;  // deterministic: ends on its restarts or on the budget
  o.max_evals = 20000;
  o.threads = 1;
  const RefineResult base = refine(g, t, start, o);
  EXPECT_LT(base.time_s, estimated_time(g, t, start));  // the search did something
  for (int threads : {2, 4}) {
    o.threads = threads;
    const RefineResult r = refine(g, t, start, o);
    EXPECT_EQ(r.map, base.map) << threads << " threads";
    EXPECT_EQ(r.time_s, base.time_s) << threads << " threads";
    EXPECT_EQ(r.evaluations, base.evaluations) << threads << " threads";
  }
}
