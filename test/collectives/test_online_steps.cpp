// The far-first twin ruled out by its near twin's halving steps
// (collectives/online_steps.h): the rule on step times of networks with a
// known hierarchy (its bound checked against the far twin's time on the same
// network), and the explorer that asks for the steps, exchanges them after
// the near twin's trials and measures the far twin only where it can win.
// Synthetic times of one "rank", no MPI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "compress_decide.h"
#include "online.h"
#include "online_steps.h"
#include "online_twins.h"

namespace {

// A two-level network: `group` consecutive ranks per leaf switch (block
// numbering) or rank r on switch r % nsw (round-robin); alpha seconds per
// message, beta_in / beta_up seconds per byte inside a switch / across.
struct Net {
  double alpha, beta_in, beta_up;
  int group;       // ranks per switch
  bool round_robin;
  int P2;
  bool crosses(int d) const {
    const int nsw = P2 / group;
    return round_robin ? d % nsw != 0 : d >= group;
  }
  double step(int d, double b) const { return alpha + b * (crosses(d) ? beta_up : beta_in); }
};

// Step times of the near-first (far = false) or far-first twin.
std::vector<double> steps(const Net &n, double bytes, bool far) {
  const int L = static_cast<int>(std::lround(std::log2(n.P2)));
  std::vector<double> t(L);
  for (int i = 0; i < L; ++i) {
    const double b = std::ldexp(bytes, -(i + 1));
    t[i] = n.step(far ? n.P2 >> (i + 1) : 1 << i, b);
  }
  return t;
}

double sum(const std::vector<double> &v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

TEST(OnlineSteps, RulesOutTheFarTwinWhereRanksFollowTheHierarchy) {
  // the two-level tree of the benchmarks: 10 Gb/s inside a switch, 160:1 uplinks
  const struct { int P2, group; double bytes; } cases[] = {{256, 16, 32768}, {64, 16, 1 << 20}};
  for (const auto &c : cases) {
    const Net n{2e-6, 0.8e-9, 128e-9, c.group, false, c.P2};
    const auto near = steps(n, c.bytes, false), far = steps(n, c.bytes, true);
    double ratio;
    EXPECT_EQ(arcoll_far_first_loses(near.data(), (int)near.size(), c.bytes, &ratio), 1) << c.P2;
    EXPECT_GE(ratio, ARCOLL_ONLINE_FAR_LOSES) << c.P2;
    EXPECT_LE(ratio, sum(far) / sum(near) * (1 + 1e-12)) << c.P2 << ": a lower bound";
  }
}

TEST(OnlineSteps, KeepsMeasuringWhereRanksAreNumberedRoundRobinOrTheNetworkIsFlat) {
  for (const bool rr : {true, false}) {
    const Net n{2e-6, 0.8e-9, rr ? 128e-9 : 0.8e-9, 16, rr, 256};
    const auto near = steps(n, 32768, false), far = steps(n, 32768, true);
    double ratio;
    EXPECT_EQ(arcoll_far_first_loses(near.data(), (int)near.size(), 32768, &ratio), 0) << rr;
    EXPECT_LT(ratio, ARCOLL_ONLINE_FAR_LOSES) << rr;
    if (rr) EXPECT_LT(sum(far), sum(near)) << "the far twin wins there";
  }
}

TEST(OnlineSteps, TheBoundNeverExceedsTheFarTwinsTime) {
  // any network whose latency is the same at every distance: the rule's bound
  // is below the far twin's time, so it never rules out a faster far twin
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int ruled_out = 0;
  for (int k = 0; k < 2000; ++k) {
    const int P2 = 1 << (1 + static_cast<int>(u(rng) * 10));
    const int group = 1 << static_cast<int>(u(rng) * std::log2(P2));
    const Net n{1e-7 + 1e-5 * u(rng), 1e-10 + 1e-8 * u(rng), 1e-10 + 1e-6 * u(rng), group, u(rng) < 0.5, P2};
    const double bytes = std::ldexp(1.0, 8 + static_cast<int>(u(rng) * 16));
    const auto near = steps(n, bytes, false), far = steps(n, bytes, true);
    double ratio;
    const int loses = arcoll_far_first_loses(near.data(), (int)near.size(), bytes, &ratio);
    if (near.size() < 2) continue;
    ASSERT_LE(ratio, sum(far) / sum(near) * (1 + 1e-9)) << "P2 " << P2 << " group " << group;
    if (loses) {
      ++ruled_out;
      ASSERT_GT(sum(far), sum(near));
    }
  }
  EXPECT_GT(ruled_out, 100);
}

TEST(OnlineSteps, NoRuleWithoutTwoFiniteSteps) {
  const double ok[] = {1e-3, 1e-4, 1e-5};
  EXPECT_EQ(arcoll_far_first_loses(ok, 1, 1 << 20, nullptr), 0);
  EXPECT_EQ(arcoll_far_first_loses(ok, 3, 0, nullptr), 0);
  const double inf[] = {1e-3, INFINITY, 1e-5}, zero[] = {1e-3, 0.0, 1e-5}, nan[] = {NAN, 1e-3, 1e-3};
  for (const double *t : {inf, zero, nan}) EXPECT_EQ(arcoll_far_first_loses(t, 3, 1 << 20, nullptr), 0);
}

// A reduce explorer, P = 64, 32 KiB, built-in model: rsag round 0's first
// candidate, rsag_far held back (test_online_twins.cpp); `alone`: cut to the
// twins alone.
void setup(arcoll_explorer_t &e, arcoll_model_t &m, bool alone) {
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, 64, 32768, 1, 5, 2, 0), 2);
  ASSERT_EQ(e.has_far, 1);
  ASSERT_STREQ(e.cand[0].algo->name, "rsag");
  if (alone) {
    e.cand[1] = e.far;
    e.n = 2;
    e.has_far = 0;
    ASSERT_EQ(arcoll_explorer_hold_far(&e), 0);
    arcoll_explorer_steps_setup(&e);
  }
  if (alone) ASSERT_EQ(e.steps_at, e.trials);
  else ASSERT_EQ(e.steps_carry, 1);
}

// Runs the explorer to its end on network n: the twins' time is their
// steps' (twice: reduce-scatter and gather), the others' 1.2x rsag's; rsag's
// runs fill the step buffer when asked; the steps' exchange (the twins alone)
// and the decisions as a single rank's.  Returns the names run.
std::vector<std::string> run(arcoll_explorer_t &e, const Net &n, int &exchanges) {
  std::vector<std::string> ran;
  const arcoll_choice_t *ch;
  exchanges = 0;
  while ((ch = arcoll_explorer_next(&e)) != nullptr && ran.size() < 60) {
    const std::string name = ch->algo->name;
    ran.push_back(name);
    double s = 1.2 * 2 * sum(steps(n, 32768, false));
    if (name == "rsag" || name == "rsag_far") {
      const auto t = steps(n, 32768, name == "rsag_far");
      s = 2 * sum(t);
      if (double *buf = arcoll_explorer_step_buffer(&e)) {
        EXPECT_EQ(name, "rsag");
        for (size_t i = 0; i < t.size(); ++i) buf[i] = t[i];
      }
    } else {
      EXPECT_EQ(arcoll_explorer_step_buffer(&e), nullptr) << name;
    }
    const int due = arcoll_explorer_record_period(&e, s, s, 0);
    if (due == ARCOLL_ONLINE_STEPS_DUE) {
      ++exchanges;
      double ratio;
      arcoll_explorer_steps_apply(&e, e.step_min, &ratio);  // one rank: its own minimum
    } else if (due == 1) {  // as over ranks: the periods' extremes, the steps with them
      double ext[ARCOLL_ONLINE_EXTREMES_MAX];
      arcoll_explorer_period_extremes(&e, ext);
      arcoll_explorer_decide_extremes(&e, e.t, ext);
    }
  }
  return ran;
}

TEST(OnlineSteps, TheExplorerMeasuresTheFarTwinOnlyWhereItCanWin) {
  for (const bool alone : {false, true})
    for (const bool rr : {false, true}) {
      arcoll_explorer_t e;
      arcoll_model_t m;
      setup(e, m, alone);
      const Net n{2e-6, 0.8e-9, 128e-9, 16, rr, 64};
      int exchanges;
      const auto ran = run(e, n, exchanges);
      ASSERT_TRUE(e.finished) << alone << rr;
      EXPECT_EQ(exchanges, alone ? 1 : 0) << "held back: the steps travel with round 0's decision";
      EXPECT_EQ(std::count(ran.begin(), ran.end(), "rsag"), e.init_trials) << "the near twin's trials, before the exchange";
      EXPECT_EQ(std::count(ran.begin(), ran.end(), "rsag_far"), rr ? 1 : 0) << alone << rr;
      EXPECT_STREQ(e.best.algo->name, rr ? "rsag_far" : "rsag") << alone << rr;
    }
}

TEST(OnlineSteps, NoStepsAskedWhereNoFarTwinWaits) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  arcoll_explorer_t e;
  arcoll_explorer_init(&e, &m, ARCOLL_COLL_BCAST, 64, 32768, 1, 5, 2, 0);
  EXPECT_EQ(e.steps_at, 0);
  EXPECT_EQ(arcoll_explorer_step_buffer(&e), nullptr);
  EXPECT_EQ(e.steps_carry, 0);
  arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, 64, 32768, 1, 5, 2, 0);
  ASSERT_EQ(e.steps_carry, 1);
  double pm[ARCOLL_ONLINE_EXTREMES_MAX];
  const int periods = 2 * e.n * e.trials + 1;  // and the smallest time outside
  EXPECT_EQ(arcoll_explorer_period_extremes(&e, pm), periods + 6) << "and log2 64 steps";
  e.has_far = 0;  // nothing held back any more
  EXPECT_EQ(arcoll_explorer_period_extremes(&e, pm), periods);
  arcoll_explorer_steps_setup(&e);
  EXPECT_EQ(e.steps_at + e.steps_carry, 0);
  arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, 64, 8, 1, 5, 2, 0);
  EXPECT_EQ(e.steps_at + e.steps_carry, 0) << "8 B: no far twin";
}

}  // namespace
