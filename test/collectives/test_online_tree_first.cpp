// Reduce below 8 KiB measures a tree first (knomial when a candidate, else
// binomial); after its runs the check (collectives/online.h,
// arcoll_explorer_check_times) applies the 2x rule to that tree as measured:
// the candidates predicted more than ARCOLL_ONLINE_MAX_SLOWDOWN x its
// measured time are not run.  No MPI.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "online.h"

namespace {

// A reduce explorer (P = 64, 8 B, the built-in model, 3 candidates, 2 trials)
// after knomial's two runs, the check due.
void after_tree(arcoll_explorer_t &e, arcoll_model_t &m) {
  arcoll_model_default(&m);
  ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, 64, 8, 1, 3, 2, 0), 2);
  ASSERT_STREQ(e.cand[0].algo->name, "knomial");
  ASSERT_EQ(arcoll_explorer_record(&e, 1e-6, 0), 0);
  ASSERT_EQ(arcoll_explorer_record(&e, 1e-6, 0), 2);
}

}  // namespace

TEST(OnlineTreeFirst, OthersPredictedTwiceSlowerThanMeasuredTreeAreNotRun) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  after_tree(e, m);
  double slowest = 0;  // the other candidates' largest prediction
  for (int i = 1; i < e.n; ++i) slowest = std::max(slowest, e.cand[i].predicted_s);
  ASSERT_GT(slowest, 0);
  // knomial measured 3x faster than every other one's prediction: none is run
  const double t = slowest / 6;
  EXPECT_EQ(arcoll_explorer_check_times(&e, t, 0.5 * t, 0.5 * t), 1);
  EXPECT_TRUE(e.finished);
  EXPECT_EQ(arcoll_explorer_next(&e), nullptr);
  EXPECT_STREQ(e.best.algo->name, "knomial");
}

TEST(OnlineTreeFirst, TheBoundIsTwiceTheLargerOfMaxInsideAndMaxPeriod) {
  arcoll_model_t m;
  for (double f : {0.51, 0.49}) {
    arcoll_explorer_t e;
    after_tree(e, m);
    const int n0 = e.n;
    double slowest = 0;  // built-in model, P = 64, 8 B: the others predicted slower than knomial
    for (int i = 1; i < e.n; ++i) slowest = std::max(slowest, e.cand[i].predicted_s);
    const double meas = f * slowest;  // knomial's max period; its max inside half that
    const int ended = arcoll_explorer_check_times(&e, 0.5 * meas, meas, 0.5 * meas);
    for (int i = 1; i < e.n; ++i) EXPECT_LE(e.cand[i].predicted_s, 2.0 * meas) << e.cand[i].algo->name;
    if (f > 0.5) {  // every other one within 2x: all run
      EXPECT_EQ(ended, 0);
      EXPECT_EQ(e.n, n0);
      ASSERT_NE(arcoll_explorer_next(&e), nullptr);
      EXPECT_STRNE(arcoll_explorer_next(&e)->algo->name, "knomial");
    } else {  // the slowest (here all) dropped
      EXPECT_LT(e.n, n0);
      EXPECT_EQ(ended, e.n == 1 ? 1 : 0);
      EXPECT_STREQ(e.best.algo->name, "knomial");
    }
  }
  // no measurement (0): nothing dropped
  arcoll_explorer_t f;
  after_tree(f, m);
  const int n0 = f.n;
  EXPECT_EQ(arcoll_explorer_check_times(&f, 0.0, 0.0, 0.0), 0);
  EXPECT_EQ(f.n, n0);
}
