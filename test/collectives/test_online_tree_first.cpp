// Reduce below 8 KiB measures a tree first (knomial when a candidate, else
// binomial); after its runs the check (collectives/online.h,
// arcoll_explorer_check_times) applies the 2x rule to that tree as measured:
// the candidates predicted more than ARCOLL_ONLINE_MAX_SLOWDOWN x its
// measured time are not run.  No MPI.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "compress_decide.h"
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

// Gather below 8 KiB: the model's best is the only candidate (no
// measurement, init returns 1) at every P, with the built-in model and with
// one that predicts binomial over 2x slower than linear (start-ups x 50, as
// in Online.BinomialIsMeasuredForRootedCollectivesWhateverTheModelSays);
// from 8 KiB on the candidates are measured again.  ARCOLL_COMPRESS=auto adds gather's compressed
// candidate where the P - 1 blocks reach ARCOLL_COMPRESS_MIN_BYTES.
TEST(OnlineTreeFirst, SmallGatherRunsTheModelsBestWithoutMeasuring) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  std::set<std::string> picked;
  for (int slow_startups : {0, 1}) {
    if (slow_startups) m.inter.t_s *= 50, m.inter.L *= 50, m.intra.t_s *= 50, m.intra.L *= 50;
    for (int P : {3, 16, 64, 256, 1024}) {
      for (MPI_Aint bytes : {1, 8, 1024, 8191}) {
        arcoll_choice_t best[1];
        ASSERT_EQ(arcoll_select_candidates(&m, ARCOLL_COLL_GATHER, P, bytes, 1, best, 1), 1);
        arcoll_explorer_t e;
        EXPECT_EQ(arcoll_explorer_init(&e, &m, ARCOLL_COLL_GATHER, P, bytes, 1, 4, 2, 2), 1)
            << "P=" << P << " bytes=" << bytes;
        EXPECT_EQ(e.cand[0].algo, best[0].algo) << "P=" << P << " bytes=" << bytes;
        EXPECT_FALSE(e.finished);
        picked.insert(e.cand[0].algo->name);
      }
      arcoll_explorer_t big;
      EXPECT_GE(arcoll_explorer_init(&big, &m, ARCOLL_COLL_GATHER, P, 8192, 1, 4, 2, 2), 2)
          << "P=" << P << " at 8 KiB";
    }
  }
  EXPECT_TRUE(picked.count("linear")) << "the grid never gives linear: the case tests nothing";
  arcoll_compress_configure(ARCOLL_COMPRESS_AUTO, 0, 0);
  for (int P : {3, 16, 256})
    for (MPI_Aint bytes : {8, 1024, 8191}) {
      const bool z = bytes * (P - 1) >= ARCOLL_COMPRESS_MIN_BYTES;
      arcoll_explorer_t e;
      EXPECT_EQ(arcoll_explorer_init(&e, &m, ARCOLL_COLL_GATHER, P, bytes, 1, 4, 2, 2), z ? 2 : 1)
          << "P=" << P << " bytes=" << bytes;
      if (z) EXPECT_STREQ(e.cand[1].algo->name, "compressed");
    }
}
