// Unit tests of round 0 of a scatter whose root moves (online_pacing.h
// arcoll_explorer_note_root, arcoll_explorer_mean_periods): each rank's
// periods of a candidate become their mean, so the decision's max over
// ranks is of the ranks' mean periods.  Two ranks' explorers driven with
// synthetic periods, their MAX taken as the decision's allreduce would; the
// calibrated model of tools/platforms/cluster256.xml; no MPI.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "compress_decide.h"
#include "online.h"
#include "online_pacing.h"

namespace {

// Round 0 of a 1 MiB scatter at P = 64 on two ranks, roots 5, 5, ... or 5, 6,
// 7, ...: linear's periods 0.060 s on both ranks; binomial's alternate 0.100
// and 0.010 s, rank A long first, rank B short first (the current root left
// the last call first and leaves this one last).  Returns the name of round
// 0's choice and rank A's recorded periods of binomial's runs.
std::string round0(bool moving, std::vector<double> &bin_periods) {
  arcoll_model_t m;
  char err[256];
  EXPECT_EQ(arcoll_model_load(ARCOLL_TEST_CLUSTER_MODEL, &m, err, sizeof err), 0) << err;
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  arcoll_explorer_t e[2];
  for (auto &x : e) {
    EXPECT_GE(arcoll_explorer_init(&x, &m, ARCOLL_COLL_SCATTER, 64, 1 << 20, 1, 4, 2, 0), 2);
    x.check_at = 0;
    x.warmup = 0;
    x.confirm_block = 0;  // round 0's decision alone
  }
  int due = 0, nbin = 0;
  for (int call = 0; call < 100 && due != 1; ++call) {
    const arcoll_choice_t *run = arcoll_explorer_next(&e[0]);
    EXPECT_NE(run, nullptr);
    if (!run) break;
    const bool bin = std::string(run->algo->name) == "binomial";
    for (int r = 0; r < 2; ++r) {
      arcoll_explorer_note_root(&e[r], moving ? 5 + call : 5);
      const bool longer = (nbin % 2 == 0) == (r == 0);
      const double p = bin ? (longer ? 0.100 : 0.010) : 0.060;
      due = arcoll_explorer_record_period(&e[r], 64 * p, p, 0);
    }
    nbin += bin;
  }
  EXPECT_EQ(due, 1);
  const int k = e[0].n * e[0].trials;
  std::vector<double> sum(k), max(k);
  for (int i = 0; i < k; ++i) {
    sum[i] = e[0].t[i] + e[1].t[i];
    max[i] = std::max(e[0].p[i], e[1].p[i]);
  }
  bin_periods.clear();
  for (int i = 0; i < k; ++i)
    if (std::string(e[0].cand[i / e[0].trials].algo->name) == "binomial") bin_periods.push_back(e[0].p[i]);
  arcoll_explorer_decide_times(&e[0], sum.data(), max.data());
  return e[0].best.algo->name;
}

}  // namespace

TEST(OnlineMovingRoot, AScattersPeriodsAreEachRanksMeanOnceTheRootMoved) {
  std::vector<double> p;
  // one root: single periods, the max over ranks of each run is 0.100: linear
  EXPECT_EQ(round0(false, p), "linear");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_DOUBLE_EQ(p[0], 0.100);
  EXPECT_DOUBLE_EQ(p[1], 0.010);
  // the root moves: each rank's mean, 0.055 on both, below linear's 0.060
  EXPECT_EQ(round0(true, p), "binomial");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_DOUBLE_EQ(p[0], 0.055);
  EXPECT_DOUBLE_EQ(p[1], 0.055);
}

// Only a scatter's and a bcast's explorer note the root (and a streaming reduce's, for
// its deferred decision): a gather's periods stay single calls.
TEST(OnlineMovingRoot, NotedByAScatterNotByAGather) {
  arcoll_model_t m;
  char err[256];
  ASSERT_EQ(arcoll_model_load(ARCOLL_TEST_CLUSTER_MODEL, &m, err, sizeof err), 0) << err;
  arcoll_explorer_t g;
  ASSERT_GE(arcoll_explorer_init(&g, &m, ARCOLL_COLL_GATHER, 64, 1 << 20, 1, 4, 2, 0), 1);
  arcoll_explorer_note_root(&g, 0);
  arcoll_explorer_note_root(&g, 1);
  EXPECT_EQ(g.root_moved, 0);
  arcoll_explorer_t s;
  ASSERT_GE(arcoll_explorer_init(&s, &m, ARCOLL_COLL_SCATTER, 64, 1 << 20, 1, 4, 2, 0), 2);
  arcoll_explorer_note_root(&s, 0);
  EXPECT_EQ(s.root_moved, 0);
  arcoll_explorer_note_root(&s, 1);
  EXPECT_EQ(s.root_moved, 1);
}
