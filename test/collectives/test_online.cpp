// Unit tests of the online selection's rounds (collectives/online.h): the
// explorer driven with synthetic run times (no MPI: the times of one "rank"
// are passed to arcoll_explorer_decide_times(), the local part of
// arcoll_explorer_decide()).
#include <gtest/gtest.h>

#include <cstring>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "compress_decide.h"
#include "online.h"
#include "online_twins.h"

namespace {

using TimeFn = std::function<double(const arcoll_choice_t &)>;

struct Measured {
  std::string algo;
  MPI_Aint segment;
  int round;
};

// Runs the whole exploration, each run taking time_of(candidate); returns
// the configurations run, in order.
std::vector<Measured> explore(arcoll_explorer_t &e, const TimeFn &time_of) {
  std::vector<Measured> runs;
  const arcoll_choice_t *ch;
  while ((ch = arcoll_explorer_next(&e)) != nullptr) {
    runs.push_back({ch->algo->name, ch->segment_bytes, e.round});
    const double t = time_of(*ch);
    const int due = arcoll_explorer_record(&e, std::isfinite(t) ? t : 0, !std::isfinite(t));
    if (due == 2) EXPECT_EQ(arcoll_explorer_check_times(&e, 0.0, 0.0, 0.0), 0);  // balanced: no skew
    else if (due) arcoll_explorer_decide_times(&e, e.t, nullptr);
    EXPECT_LT(runs.size(), 200u) << "the exploration does not end";
    if (runs.size() >= 200) break;
  }
  return runs;
}

// Set up a bcast explorer (built-in model, P = 64, 2 MiB, 4 candidates, 2
// trials) and return the first segmented round-0 candidate (the test makes
// it the fastest algorithm).
arcoll_choice_t setup(arcoll_explorer_t &e, arcoll_model_t &m, int refine,
                      MPI_Aint bytes = 2 << 20) {
  arcoll_model_default(&m);
  // the model's candidates only (the compressed one: CompressedIsMeasured...)
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  const int n = arcoll_explorer_init(&e, &m, ARCOLL_COLL_BCAST, 64, bytes, 1, 4, 2, refine);
  EXPECT_GE(n, 2);
  for (int i = 0; i < e.n; ++i)
    if (e.cand[i].segment_bytes > 0) return e.cand[i];
  ADD_FAILURE() << "no segmented candidate at " << bytes << " bytes";
  return e.cand[0];
}

// A run's time summed over setup()'s 64 ranks, each inside for `fast`'s
// predicted call: the scale of the times below (online.c weighs a
// refinement round's pipeline refills, P / 2 x a prediction, against them).
double sum_unit(const arcoll_choice_t &fast) { return 64 * fast.predicted_s; }

// Times: the chosen algorithm's runs follow a valley in log2(segment) with
// its minimum sum_unit(fast) at s0 * 2^j_opt; other algorithms `other` x
// that (2: close enough that round 0 stays within the exploration budget);
// `scale` < 1: the best's calls overlap back to back (a pipeline that streams).
TimeFn valley(const arcoll_choice_t &fast, double j_opt, double other = 2.0, double scale = 1.0) {
  const std::string name = fast.algo->name;
  const double s0 = (double)fast.segment_bytes, u = scale * sum_unit(fast);
  return [name, s0, j_opt, other, u](const arcoll_choice_t &c) {
    if (name != c.algo->name || c.segment_bytes <= 0) return other * u;
    const double j = std::log2((double)c.segment_bytes / s0);
    return u * (1 + 0.1 * (j - j_opt) * (j - j_opt));
  };
}

TEST(Online, RefinementWalksToTheFastestSegmentSize) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  const arcoll_choice_t fast = setup(e, m, 3);
  const int n0 = e.n;
  const int r0 = n0 * 2 + e.warmup_stream;  // round 0's runs: the streaming candidate warms up once
  const auto runs = explore(e, valley(fast, 2));
  EXPECT_TRUE(e.finished);
  EXPECT_STREQ(e.best.algo->name, fast.algo->name);
  EXPECT_EQ(e.best.segment_bytes, fast.segment_bytes * 4);
  EXPECT_DOUBLE_EQ(e.best_s, sum_unit(fast));
  // round 0: n0 x 2 runs (+ the warm-up); round 1: s/2 x 2 and 2s x 2; rounds 2 and 3: 4s, then
  // 8s (slower: the end), 2 runs each
  ASSERT_EQ((int)runs.size(), r0 + 4 + 2 + 2);
  // each configuration twice in a row (back to back, online.h)
  EXPECT_EQ(runs[r0].segment, fast.segment_bytes / 2);
  EXPECT_EQ(runs[r0 + 1].segment, fast.segment_bytes / 2);
  EXPECT_EQ(runs[r0 + 2].segment, fast.segment_bytes * 2);
  EXPECT_EQ(runs[r0 + 3].segment, fast.segment_bytes * 2);
  EXPECT_EQ(runs[r0 + 4].segment, fast.segment_bytes * 4);
  EXPECT_EQ(runs[r0 + 6].segment, fast.segment_bytes * 8);
  EXPECT_EQ(runs.back().round, 3);
  EXPECT_EQ(e.runs, (int)runs.size());
  for (size_t r = r0; r < runs.size(); ++r) EXPECT_EQ(runs[r].algo, fast.algo->name);
}

TEST(Online, RefinementGoesDownAndStopsAtTheRoundLimit) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  const arcoll_choice_t fast = setup(e, m, 2);
  // optimum 8x smaller; 2 rounds reach s/4 only
  explore(e, valley(fast, -3));
  EXPECT_EQ(e.best.segment_bytes, fast.segment_bytes / 4);
  EXPECT_EQ(e.round, 2);
}

TEST(Online, NoRefinementWhenTheSegmentSizeIsBestOrDisabled) {
  for (int refine : {0, 3}) {
    arcoll_explorer_t e;
    arcoll_model_t m;
    const arcoll_choice_t fast = setup(e, m, refine);
    const int n0 = e.n;
    const int r0 = n0 * 2 + e.warmup_stream;  // round 0: the streaming candidate warms up once
    const auto runs = explore(e, valley(fast, 0));
    EXPECT_EQ(e.best.segment_bytes, fast.segment_bytes) << "refine " << refine;
    EXPECT_EQ((int)runs.size(), r0 + (refine ? 4 : 0)) << "refine " << refine;
  }
}

TEST(Online, CostlyCandidatesUseUpTheBudgetAndStopTheRefinement) {
  // the other candidates took 10x the best's time: round 0 spent more
  // than ARCOLL_ONLINE_BUDGET_CALLS x the best's time beyond it
  arcoll_explorer_t e;
  arcoll_model_t m;
  const arcoll_choice_t fast = setup(e, m, 3);
  const int n0 = e.n;
  const int r0 = n0 * 2 + e.warmup_stream;  // round 0's runs: the streaming candidate warms up once
  ASSERT_GE(n0, 2);
  const auto runs = explore(e, valley(fast, 2, 10.0));
  EXPECT_EQ((int)runs.size(), r0);
  EXPECT_EQ(e.best.segment_bytes, fast.segment_bytes);
  EXPECT_GT(e.excess_s, ARCOLL_ONLINE_BUDGET_CALLS * e.best_s);
}


// A best whose calls overlap back to back - summed over ranks far below P / 2
// x its one-call prediction, a pipeline that streams - is not refined when
// the round's refills (each new segment size's first run and the return to
// the best, P / 2 x their predictions) do not fit in the exploration's
// budget; the same valley at the scale of calls that do not overlap is.
TEST(Online, NoRefinementWhoseRefillsExceedTheBudget) {
  for (const double scale : {1.0, 0.02}) {
    arcoll_explorer_t e;
    arcoll_model_t m;
    const arcoll_choice_t fast = setup(e, m, 3);
    const int r0 = e.n * 2 + e.warmup_stream;
    const auto runs = explore(e, valley(fast, 2, 2.0, scale));
    EXPECT_TRUE(e.finished) << "scale " << scale;
    EXPECT_STREQ(e.best.algo->name, fast.algo->name) << "scale " << scale;
    if (scale == 1.0) {
      EXPECT_EQ(e.best.segment_bytes, fast.segment_bytes * 4);
      EXPECT_GT((int)runs.size(), r0);
    } else {
      EXPECT_EQ(e.best.segment_bytes, fast.segment_bytes);
      EXPECT_EQ((int)runs.size(), r0);
      EXPECT_LT(e.excess_s, ARCOLL_ONLINE_BUDGET_CALLS * e.best_s);  // the budget was not spent: the refills
    }
  }
}

// The case measured (SMPI flat cluster, P = 256, 1 MiB reduce, 20 calls, one
// rank 1 ms late; bench/notes/adaptive-layer-2026-12-06.md): round 0's sums
// over ranks - rsag 0.538 s, chain / 8 KiB 0.334 (it streams: its one call
// is predicted at 16 ms, 2 s summed), binomial 0.485 - left 2.6 s of the
// budget, and the refinement round at 4 and 16 KiB cost 7.4 s for nothing.
TEST(Online, StreamingReduceChainAtP256IsNotRefined) {
  arcoll_model_t m;
  char err[256];
  ASSERT_EQ(arcoll_model_load(ARCOLL_TEST_CLUSTER_MODEL, &m, err, sizeof err), 0) << err;
  arcoll_explorer_t e;
  arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, 256, 1 << 20, 1, ARCOLL_ONLINE_MAX_CANDIDATES, 2, 3);
  int chain = -1;
  for (int i = 0; i < e.n; ++i)
    if (!strcmp(e.cand[i].algo->name, "chain")) chain = i;
  ASSERT_GE(chain, 0) << "the chain streams: measured beyond the 2x rule (online_slots.h)";
  const MPI_Aint s = e.cand[chain].segment_bytes;
  const auto runs = explore(e, [s](const arcoll_choice_t &c) {
    const std::string a = c.algo->name;
    if (a == "chain") return c.segment_bytes == s ? 0.334 : 0.44;
    return a == "rsag" ? 0.538 : a == "binomial" ? 0.485 : 0.6;
  });
  EXPECT_TRUE(e.finished);
  EXPECT_STREQ(e.best.algo->name, "chain");
  EXPECT_EQ(e.best.segment_bytes, s);
  for (const Measured &r : runs)
    if (r.algo == "chain") EXPECT_EQ(r.segment, s) << "a refinement round ran";
}

TEST(Online, UnsegmentedWinnerIsNotRefined) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  setup(e, m, 3);
  const int r0 = e.n * 2 + e.warmup_stream;  // the streaming candidate warms up once
  int unseg = -1;
  for (int i = 0; i < e.n; ++i)
    if (e.cand[i].segment_bytes <= 0) unseg = i;
  ASSERT_GE(unseg, 0);
  const arcoll_choice_t w = e.cand[unseg];
  const auto runs = explore(e, [&](const arcoll_choice_t &c) {
    return c.algo == w.algo && c.segment_bytes == w.segment_bytes ? 1e-3 : 2e-3;
  });
  EXPECT_EQ((int)runs.size(), r0);
  EXPECT_EQ(e.best.algo, w.algo);
  EXPECT_EQ(e.best.segment_bytes, w.segment_bytes);
}

// Sums over ranks within ARCOLL_ONLINE_SUM_TOLERANCE of the earlier
// measured (better predicted) candidate's are ties it keeps; a clearly
// smaller one wins.  All periods equal (the critical path ties).
TEST(Online, CloseSumsKeepTheBetterPredicted) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  for (double gain : {0.5 * ARCOLL_ONLINE_SUM_TOLERANCE, 2.0 * ARCOLL_ONLINE_SUM_TOLERANCE}) {
    arcoll_explorer_t e;
    ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_ALLREDUCE, 64, 8, 1, 4, 2, 0), 2);
    e.confirm_block = 0;  // the rounds alone (the confirmation: test_online_confirm.cpp)
    const arcoll_choice_t first = e.cand[0], second = e.cand[1];
    explore(e, [&](const arcoll_choice_t &c) {
      return c.algo == second.algo ? 1e-3 * (1.0 - gain) : 1e-3;
    });
    EXPECT_EQ(e.best.algo, gain < ARCOLL_ONLINE_SUM_TOLERANCE ? first.algo : second.algo)
        << "sum " << gain * 100 << " % below the model's best";
  }
}

// Whatever the times: the kept configuration is the fastest measured one up
// to the tie band (ARCOLL_ONLINE_SUM_TOLERANCE), never slower than round 0's
// best beyond it, refined sizes stay in bounds, and every refined run is
// round 0's winner's algorithm.
TEST(Online, NeverWorseThanTheFirstRoundAndInBounds) {
  for (unsigned seed = 1; seed <= 200; ++seed) {
    arcoll_explorer_t e;
    arcoll_model_t m;
    const MPI_Aint bytes = seed % 2 ? (MPI_Aint)(2 << 20) : (MPI_Aint)(64 << 20);
    setup(e, m, 1 + seed % 4, bytes);
    const int n0 = e.n;
    double round0_min = INFINITY, all_min = INFINITY;
    auto time_of = [&](const arcoll_choice_t &c) {
      // deterministic pseudo-random time of (algorithm, segment)
      unsigned h = seed * 2654435761u ^ (unsigned)c.segment_bytes * 40503u;
      for (const char *p = c.algo->name; *p; ++p) h = h * 31 + (unsigned char)*p;
      h ^= h >> 13;
      h *= 0x5bd1e995u;
      h ^= h >> 15;
      double t = 1e-3 * (1 + (h % 1000) / 1000.0);
      if (h % 17 == 0) t = INFINITY; // a failed run
      if (e.round == 0) round0_min = std::fmin(round0_min, t);
      all_min = std::fmin(all_min, t);
      return t;
    };
    const auto runs = explore(e, time_of);
    ASSERT_TRUE(e.finished) << "seed " << seed;
    EXPECT_GE((int)runs.size(), n0 * 2);
    if (std::isfinite(round0_min)) {
      const double band = 1.0 - ARCOLL_ONLINE_SUM_TOLERANCE;
      EXPECT_LE(e.best_s * band, round0_min) << "seed " << seed;
      EXPECT_LE(e.best_s * band, all_min) << "seed " << seed;
      EXPECT_GE(e.best_s, all_min) << "seed " << seed;
    }
    std::string w0;
    for (const Measured &r : runs) {
      if (r.round == 0) continue;
      if (w0.empty()) w0 = r.algo;
      EXPECT_EQ(r.algo, w0) << "seed " << seed;
      EXPECT_GE(r.segment, ARCOLL_ONLINE_MIN_SEGMENT) << "seed " << seed;
      EXPECT_LT(r.segment, bytes) << "seed " << seed;
      EXPECT_LE((bytes + r.segment - 1) / r.segment, ARCOLL_ONLINE_MAX_SEGMENTS);
    }
  }
}

TEST(Online, CriticalPathFirstThenTheSumOverRanks) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  arcoll_explorer_t e;
  ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_BCAST, 64, 2 << 20, 1, 3, 1, 0), 3);
  e.warmup_stream = 0;  // measured runs only
  const int n = e.n;
  std::vector<double> sum(n), max(n);
  // candidate 0: smallest sum but its max 1.8x the others' (ranks leave
  // early, the root is late): not chosen; 2: max within 2 % of 1's and a
  // smaller sum: chosen.  Unit u: times near the model's (mean inside 8 u /
  // 64 ranks), so that the model is not "off" (no second round-0 pass)
  const double u = e.cand[0].predicted_s;
  for (int i = 0; i < n; ++i) sum[i] = 10.0 * u, max[i] = 1.0 * u;
  sum[0] = 3.0 * u, max[0] = 1.8 * u;
  sum[1] = 9.0 * u, max[1] = 1.0 * u;
  sum[2] = 8.0 * u, max[2] = 1.015 * u;
  for (int i = 0; i < n; ++i) {
    const int due = arcoll_explorer_record(&e, 0, 0);
    if (due == 2) ASSERT_EQ(arcoll_explorer_check_times(&e, 0.0, 0.0, 0.0), 0);  // binomial measured first
    else ASSERT_EQ(due, i == n - 1 ? 1 : 0);
  }
  arcoll_explorer_decide_times(&e, sum.data(), max.data());
  EXPECT_TRUE(e.finished);
  EXPECT_EQ(e.best.algo, e.cand[2].algo);
  EXPECT_EQ(e.best.segment_bytes, e.cand[2].segment_bytes);
  EXPECT_EQ(e.best_s, 8.0 * u);
  EXPECT_EQ(e.best_max_s, 1.015 * u);
}

// bcast / reduce: binomial runs first; when its max over ranks is above
// ARCOLL_ONLINE_IMBALANCE x its model time (arrival skew), the exploration
// ends with binomial and nothing else runs; below, it goes on.
TEST(Online, ArrivalSkewEndsTheExplorationWithTheFirstTree) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  for (int skewed = 0; skewed < 2; ++skewed) {
    arcoll_explorer_t e;
    ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, 64, 8, 1, 3, 2, 0), 2);
    ASSERT_STREQ(e.cand[0].algo->name, "knomial");
    const double pred = e.cand[0].predicted_s;
    ASSERT_GT(pred, 0);
    ASSERT_EQ(arcoll_explorer_record(&e, pred, 0), 0);
    ASSERT_EQ(arcoll_explorer_record(&e, pred, 0), 2);  // the check is due
    const double max_inside = skewed ? 20 * pred : 2 * pred;
    EXPECT_EQ(arcoll_explorer_check_times(&e, max_inside, max_inside, max_inside), skewed);
    if (skewed) {
      EXPECT_TRUE(e.finished);
      EXPECT_EQ(arcoll_explorer_next(&e), nullptr);
      EXPECT_STREQ(e.best.algo->name, "knomial");
    } else {
      EXPECT_FALSE(e.finished);
      ASSERT_NE(arcoll_explorer_next(&e), nullptr);
      EXPECT_STRNE(arcoll_explorer_next(&e)->algo->name, "knomial");  // the next candidate
    }
  }
  // skew outside the call: a rank's period 20x its (short) time inside, e.g.
  // a late root whose reduce children never wait for it
  {
    arcoll_explorer_t e;
    ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, 64, 8, 1, 3, 2, 0), 2);
    const double pred = e.cand[0].predicted_s;
    arcoll_explorer_record(&e, pred, 0);
    ASSERT_EQ(arcoll_explorer_record(&e, pred, 0), 2);
    EXPECT_EQ(arcoll_explorer_check_times(&e, pred, 20 * pred, pred), 1);
    EXPECT_STREQ(e.best.algo->name, "knomial");
  }
  // every rank's period 20x its time inside (balanced computation between
  // calls): no skew, the exploration goes on
  {
    arcoll_explorer_t e;
    ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, 64, 8, 1, 3, 2, 0), 2);
    const double pred = e.cand[0].predicted_s;
    arcoll_explorer_record(&e, pred, 0);
    ASSERT_EQ(arcoll_explorer_record(&e, pred, 0), 2);
    EXPECT_EQ(arcoll_explorer_check_times(&e, pred, 20 * pred, 19 * pred), 0);
    EXPECT_FALSE(e.finished);
  }
  // a failed run (+inf) is no evidence of skew
  arcoll_explorer_t e;
  ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, 64, 8, 1, 3, 2, 0), 2);
  arcoll_explorer_record(&e, 0, 1);
  ASSERT_EQ(arcoll_explorer_record(&e, 0, 1), 2);
  EXPECT_EQ(arcoll_explorer_check_times(&e, INFINITY, INFINITY, INFINITY), 0);
  EXPECT_FALSE(e.finished);
}

TEST(Online, EveryRunFailedKeepsTheModelsChoice) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  setup(e, m, 3);
  const arcoll_choice_t first = e.cand[0];
  const int r0 = e.n * 2 + e.warmup_stream;  // the streaming candidate warms up once
  const auto runs = explore(e, [](const arcoll_choice_t &) { return INFINITY; });
  EXPECT_EQ((int)runs.size(), r0);
  EXPECT_EQ(e.best.algo, first.algo);
  EXPECT_EQ(e.best.segment_bytes, first.segment_bytes);
}

} // namespace
