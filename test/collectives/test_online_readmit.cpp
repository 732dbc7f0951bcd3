// Unit tests of round 0's readmission (collectives/online_readmit.h): the
// candidates the 2x rule dropped are measured, once each and within the
// exploration's budget, when the model is far off, and not when arrival
// skew explains the times (ARCOLL_ONLINE_SKEW_PERIODS).  Synthetic times,
// no MPI.
#include <gtest/gtest.h>

#include <cstring>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "compress_decide.h"
#include "online.h"
#include "online_steps.h"
#include "online_readmit.h"

namespace {

// allgather P = 64, 64-byte blocks (ring and gather_bcast are dropped by the
// 2x rule; the tree of bench/README.md, where gather_bcast is 3x faster
// than recursive doubling at this size), every configuration taking f x
// its prediction except gather_bcast, 1.5 x the best prediction (the
// fastest when readmitted).  Every rank takes that time inside a call; the
// slowest rank's period is `late` x that time, the fastest one's `early` x
// (early 0: no min given, arcoll_explorer_decide_times()).  `slow`, when
// given, overrides the time of the configurations it names (seconds, per
// rank), knowing the best prediction.  `Case` sets another collective and
// size: round 0's candidates there are predicted apart (allgather's
// recursive doubling and Bruck tie), so its measured order says whether the
// model is off in order or in scale alone.
struct Outcome {
  std::vector<std::string> runs;              // the measured calls, in order
  std::vector<arcoll_choice_t> dropped;       // round 0's spares
  double best_pred = 0;                       // the model's best prediction
  std::string best;                           // the choice
  std::string round0_best;                    // the choice after round 0's decision
};

struct Case {
  arcoll_coll_t coll = ARCOLL_COLL_ALLGATHER;
  MPI_Aint bytes = 64;
};

using Slow = std::function<double(const arcoll_choice_t &, double best_pred)>;

Outcome explore_far_off(double f, double late, double early, const Slow &slow = nullptr, Case k = {}) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  const int P = 64;
  Outcome o;
  arcoll_explorer_t e;
  EXPECT_GE(arcoll_explorer_init(&e, &m, k.coll, P, k.bytes, 1, 5, 1, 0), 1);
  e.confirm_block = 0;  // the rounds alone (the confirmation: test_online_confirm.cpp)
  o.best_pred = e.cand[0].predicted_s;
  EXPECT_GT(o.best_pred, 0);
  o.dropped.assign(e.spare, e.spare + e.nspare);
  auto time_of = [&](const arcoll_choice_t &c) {
    if (slow && slow(c, o.best_pred) > 0) return slow(c, o.best_pred);
    return !strcmp(c.algo->name, "gather_bcast") ? 1.5 * o.best_pred : f * c.predicted_s;
  };
  const arcoll_choice_t *ch;
  while ((ch = arcoll_explorer_next(&e)) != nullptr && o.runs.size() < 50) {
    o.runs.push_back(ch->algo->name);
    const int due = arcoll_explorer_record(&e, time_of(*ch), 0);
    if (due == ARCOLL_ONLINE_STEPS_DUE) {  // no steps timed here: nothing ruled out (online_steps.h)
      EXPECT_EQ(arcoll_explorer_steps_apply(&e, e.step_min, nullptr), 0);
    } else if (due) {
      double sum[ARCOLL_ONLINE_MAX_CANDIDATES], max[ARCOLL_ONLINE_MAX_CANDIDATES];
      double min[ARCOLL_ONLINE_MAX_CANDIDATES];
      for (int r = 0; r < e.n; ++r) sum[r] = P * e.t[r], max[r] = late * e.t[r], min[r] = early * e.t[r];
      if (early > 0) arcoll_explorer_decide_periods(&e, sum, max, min, 0.0);
      else arcoll_explorer_decide_times(&e, sum, max);
      if (o.round0_best.empty()) o.round0_best = e.best.algo->name;
    }
  }
  EXPECT_TRUE(e.finished) << "f=" << f;
  o.best = e.best.algo->name;
  return o;
}

bool ran(const Outcome &o, const char *name) {
  return std::find(o.runs.begin(), o.runs.end(), name) != o.runs.end();
}

long runs_of(const Outcome &o, const char *name) { return std::count(o.runs.begin(), o.runs.end(), name); }

// The dropped candidates the readmission queues at ratio f, best predicted first.
std::vector<arcoll_choice_t> queued(const Outcome &o, double f) {
  std::vector<arcoll_choice_t> q;
  for (const auto &d : o.dropped)
    if (d.predicted_s <= std::fmin(f, ARCOLL_ONLINE_MAX_READMIT) * o.best_pred) q.push_back(d);
  std::stable_sort(q.begin(), q.end(), [](auto &a, auto &b) { return a.predicted_s < b.predicted_s; });
  return q;
}

// When round 0's best takes f times its predicted time (mean inside over
// the P ranks), f > ARCOLL_ONLINE_MODEL_OFF, the candidates the 2x rule
// dropped and predicted within min(f, ARCOLL_ONLINE_MAX_READMIT) x the best
// prediction are queued: the best predicted runs first, each at most once
// (the budget decides the others': tests below); otherwise none runs.
// The same with periods equal over ranks, not given, a rank 0.99 x
// ARCOLL_ONLINE_SKEW_PERIODS slower than the others, or ranks leaving at
// once (early 1e-3: back-to-back bcasts' leaves whose data had arrived).
TEST(OnlineReadmit, CandidatesDroppedByTheModelAreMeasuredOnceWhenItIsFarOff) {
  const double late_ok = 0.99 * ARCOLL_ONLINE_SKEW_PERIODS;
  for (auto [late, early] : {std::pair{1.0, 0.0}, {1.0, 1.0}, {late_ok, 1.0}, {1.0, 1e-3}, {late_ok, 1e-3}})
    for (double f : {1.0, 3.9, 6.0, 30.0}) {
      const Outcome o = explore_far_off(f, late, early);
      ASSERT_GE(o.dropped.size(), 2u) << "the case needs candidates dropped by the 2x rule";
      bool has_gb = false;
      for (const auto &d : o.dropped) has_gb |= !strcmp(d.algo->name, "gather_bcast");
      ASSERT_TRUE(has_gb);
      const double lim = std::fmin(f, ARCOLL_ONLINE_MAX_READMIT) * o.best_pred;
      for (const auto &d : o.dropped) {
        const bool queued_d = f > ARCOLL_ONLINE_MODEL_OFF && d.predicted_s <= lim;
        EXPECT_LE(runs_of(o, d.algo->name), queued_d ? 1 : 0)
            << "f=" << f << " late=" << late << " early=" << early << " " << d.algo->name << " predicted x"
            << d.predicted_s / o.best_pred;
      }
      if (f > ARCOLL_ONLINE_MODEL_OFF) {
        const auto q = queued(o, f);
        ASSERT_FALSE(q.empty());
        EXPECT_EQ(runs_of(o, q[0].algo->name), 1) << "f=" << f << " " << q[0].algo->name;
        EXPECT_EQ(o.best, "gather_bcast") << "f=" << f;
      } else {
        EXPECT_NE(o.best, "gather_bcast") << "f=" << f;
      }
    }
}

// The same far-off times, but the slowest rank's period more than
// ARCOLL_ONLINE_SKEW_PERIODS x both the fastest one's and the time inside:
// arrival skew, not the model, explains them, and nothing dropped is
// measured (SMPI tree P = 256, 8 B bcast with one rank 1 ms late: the
// readmitted trees cost every rank the late one's backlog).
TEST(OnlineReadmit, NoneWhenArrivalSkewExplainsTheTimes) {
  for (double late : {1.01 * ARCOLL_ONLINE_SKEW_PERIODS, 1000.0})
    for (double early : {1.0, 1e-3})
      for (double f : {6.0, 30.0}) {
        const Outcome o = explore_far_off(f, late, early);
        for (const auto &d : o.dropped)
          EXPECT_FALSE(ran(o, d.algo->name))
              << "f=" << f << " late=" << late << " early=" << early << " " << d.algo->name;
        EXPECT_NE(o.best, "gather_bcast") << "f=" << f << " late=" << late << " early=" << early;
      }
}

// Allreduce P = 64, 1 MiB (round 0: rabenseifner, then ring, predicted 1.26x;
// recursive doubling dropped, predicted 3.3x): the model off by the same
// ratio f on every configuration keeps its order - rabenseifner measured
// best - and nothing dropped runs (SMPI tree P = 64, 1 MiB allreduce: round
// 0 at 7.5-9.4x its predictions, in their order; the readmitted recursive
// doubling took 14.5x the best).  With rabenseifner 3x slower than that,
// ring wins against the model's order, and recursive doubling runs once.
TEST(OnlineReadmit, NoneWhenRoundZeroKeepsTheModelsOrder) {
  const Case allreduce{ARCOLL_COLL_ALLREDUCE, 1 << 20};
  for (double f : {6.0, 30.0})
    for (double early : {1.0, 1e-3}) {
      const Outcome o = explore_far_off(f, 1.0, early, nullptr, allreduce);
      ASSERT_EQ(o.runs.at(0), "rabenseifner");
      ASSERT_TRUE(ran(o, "ring"));
      ASSERT_FALSE(o.dropped.empty());
      bool has_rd = false;
      for (const auto &d : o.dropped) {
        has_rd |= !strcmp(d.algo->name, "recursive_doubling");
        EXPECT_FALSE(ran(o, d.algo->name)) << "f=" << f << " " << d.algo->name;
      }
      ASSERT_TRUE(has_rd);
      EXPECT_EQ(o.best, "rabenseifner") << "f=" << f;
      const Outcome inverted = explore_far_off(f, 1.0, early, [&](const arcoll_choice_t &c, double) {
        return !strcmp(c.algo->name, "rabenseifner") ? 3.0 * f * c.predicted_s : 0.0;
      }, allreduce);
      EXPECT_EQ(inverted.round0_best, "ring") << "f=" << f;
      EXPECT_EQ(runs_of(inverted, "recursive_doubling"), 1) << "f=" << f;
    }
}

}  // namespace

namespace {

// The first queued candidate takes 20 x the best measured time (the model is
// off for it too: SMPI tree P = 64, 1 MiB allreduce, recursive doubling at
// 14.5x the best): its one run spends the budget (ARCOLL_ONLINE_BUDGET_CALLS
// x the best), nothing else queued runs, and the choice is round 0's.
TEST(OnlineReadmit, ARunThatSpendsTheBudgetEndsTheReadmission) {
  for (double f : {6.0, 30.0}) {
    const Outcome plain = explore_far_off(f, 1.0, 1.0);
    const auto q = queued(plain, f);
    ASSERT_GE(q.size(), 2u) << "f=" << f;
    const std::string first = q[0].algo->name;
    const Outcome o = explore_far_off(f, 1.0, 1.0, [&](const arcoll_choice_t &c, double bp) {
      return first == c.algo->name ? 20.0 * f * bp : 0.0;
    });
    EXPECT_EQ(runs_of(o, first.c_str()), 1) << "f=" << f;
    for (size_t i = 1; i < q.size(); ++i) EXPECT_FALSE(ran(o, q[i].algo->name)) << "f=" << f << " " << q[i].algo->name;
    EXPECT_EQ(o.best, plain.runs[0]) << "f=" << f;
  }
}

// Round 0 already spent the budget (its second candidate took 40 x the
// best): nothing is readmitted however far off the model is.
TEST(OnlineReadmit, NoneWhenRoundZeroSpentTheBudget) {
  const double f = 30.0;
  const Outcome plain = explore_far_off(f, 1.0, 1.0);
  ASSERT_GE(plain.runs.size(), 2u);
  const std::string second = plain.runs[1];
  ASSERT_NE(second, plain.runs[0]);
  const Outcome o = explore_far_off(f, 1.0, 1.0, [&](const arcoll_choice_t &c, double bp) {
    return second == c.algo->name ? 40.0 * f * bp : 0.0;
  });
  for (const auto &d : o.dropped) EXPECT_FALSE(ran(o, d.algo->name)) << d.algo->name;
}

// The expected cost of a readmitted run: its prediction at the best's
// measured / predicted ratio, beyond the best time.
TEST(OnlineReadmit, ExpectedCostScalesThePredictionByTheBestsRatio) {
  arcoll_explorer_t e{};
  arcoll_choice_t c{};
  e.best.predicted_s = 2e-6;
  e.best_s = 64 * 8e-6;  // 4x its prediction on each of 64 ranks
  c.predicted_s = 5e-6;
  EXPECT_NEAR(arcoll_explorer_readmit_cost(&e, &c), 64 * (20e-6 - 8e-6), 1e-12);
  c.predicted_s = 0;
  EXPECT_TRUE(std::isinf(arcoll_explorer_readmit_cost(&e, &c)));
}

}  // namespace

namespace {

// A bcast's pending decision (adapt/decision.h) normally runs `held`, the
// last measured configuration; after a readmitted candidate's run it runs
// the best instead: the readmitted one is the model's reject, possibly many
// times slower (online_readmit.h).  Bcast, P = 64, 8 B: round 0's
// candidates at 30x their prediction, the model's best at 90x, so the
// model is off, in its order too, and the spare trees are readmitted.
TEST(OnlineReadmit, APendingDecisionAfterAReadmittedRunRunsTheBest) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  const int P = 64;
  arcoll_explorer_t e;
  ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_BCAST, P, 8, 1, 5, 1, 0), 1);
  e.confirm_block = 0;
  e.check_at = 0;
  e.warmup = 0;
  ASSERT_GT(e.nspare, 0) << "the case needs candidates dropped by the 2x rule";
  const double best_pred = e.cand[0].predicted_s;
  int readmitted_runs = 0;
  const arcoll_choice_t *ch;
  for (int calls = 0; (ch = arcoll_explorer_next(&e)) != nullptr && calls < 50; ++calls) {
    const double s = (ch->predicted_s <= best_pred ? 90.0 : 30.0) * ch->predicted_s;
    if (arcoll_explorer_record_period(&e, s, s, 0) != 1) continue;
    if (e.readmitting) {
      ++readmitted_runs;
      e.pending = 1;  // the decision is on its way: the calls meanwhile run ...
      const arcoll_choice_t *during = arcoll_explorer_next(&e);
      ASSERT_NE(during, nullptr);
      EXPECT_TRUE(arcoll_choice_same(during, &e.best))
          << "ran " << during->algo->name << ", best " << e.best.algo->name;
      EXPECT_FALSE(arcoll_choice_same(during, &e.cand[0]));
      e.pending = 0;
    }
    double sum[ARCOLL_ONLINE_MAX_CANDIDATES * ARCOLL_ONLINE_MAX_TRIALS];
    for (int r = 0; r < e.n * e.trials; ++r) sum[r] = P * e.t[r];
    arcoll_explorer_decide_times(&e, sum, e.p);
  }
  EXPECT_TRUE(e.finished);
  EXPECT_GE(readmitted_runs, 1) << "nothing was readmitted";
}

}  // namespace
