// A far-first variant measured in a round of its own after its near-first
// twin won round 0 (collectives/online_twins.h): held back at init, run once
// only after the twin's win and within the exploration's budget, kept when
// measured faster.  Synthetic times of one "rank", no MPI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "compress_decide.h"
#include "online.h"
#include "online_twins.h"

namespace {

// A reduce explorer for P = 64, 32 KiB (built-in model): rsag is a round-0
// candidate, rsag_far held back.
void setup(arcoll_explorer_t &e, arcoll_model_t &m) {
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, 64, 32768, 1, 5, 2, 0), 2);
  ASSERT_EQ(e.has_far, 1);
  ASSERT_STREQ(e.far.algo->name, "rsag_far");
  ASSERT_EQ(arcoll_explorer_near_twin(&e, &e.far), 0) << "rsag is the model's best here";
}

// Runs the explorer to its end; time(name) = the seconds of one run of that
// algorithm (inside and period).  Returns the names run, in order.
template <class Time>
std::vector<std::string> run(arcoll_explorer_t &e, Time time) {
  std::vector<std::string> ran;
  const arcoll_choice_t *ch;
  while ((ch = arcoll_explorer_next(&e)) != nullptr && ran.size() < 60) {
    ran.push_back(ch->algo->name);
    const double s = time(std::string(ch->algo->name));
    const int due = arcoll_explorer_record_period(&e, s, s, 0);
    if (due == 2) arcoll_explorer_check_times(&e, s, s, s);
    else if (due == 1) arcoll_explorer_decide_times(&e, e.t, e.p);
  }
  return ran;
}

TEST(OnlineTwins, TheFarVariantRunsAfterItsTwinWonAndWinsWhenFaster) {
  for (const double far_s : {0.5e-3, 2e-3}) {
    arcoll_explorer_t e;
    arcoll_model_t m;
    setup(e, m);
    const auto ran = run(e, [far_s](const std::string &n) {
      return n == "rsag" ? 1e-3 : n == "rsag_far" ? far_s : 3e-3;
    });
    ASSERT_TRUE(e.finished);
    EXPECT_EQ(std::count(ran.begin(), ran.end(), "rsag_far"), 1) << far_s << ": one run, not trials";
    EXPECT_EQ(e.trials, 2) << far_s << ": init's trials back after it";
    EXPECT_EQ(std::count(ran.begin(), ran.end(), "rsag"), 2) << far_s << ": round 0's trials";
    // after every round-0 run
    size_t first_far = 0;
    while (first_far < ran.size() && ran[first_far] != "rsag_far") ++first_far;
    EXPECT_EQ(first_far, ran.size() - 1) << far_s;
    EXPECT_STREQ(e.best.algo->name, far_s < 1e-3 ? "rsag_far" : "rsag") << far_s;
  }
}

TEST(OnlineTwins, NoFarRoundWhenTheTwinLostOrTheBudgetIsSpent) {
  {  // another algorithm won round 0
    arcoll_explorer_t e;
    arcoll_model_t m;
    setup(e, m);
    const auto ran = run(e, [](const std::string &n) { return n == "binomial" ? 1e-3 : 5e-3; });
    EXPECT_EQ(std::count(ran.begin(), ran.end(), "rsag_far"), 0);
    EXPECT_STREQ(e.best.algo->name, "binomial");
    EXPECT_EQ(e.has_far, 0);
  }
  {  // rsag won, but the others cost more than the budget (10 calls of the best)
    arcoll_explorer_t e;
    arcoll_model_t m;
    setup(e, m);
    const auto ran = run(e, [](const std::string &n) { return n == "rsag" ? 1e-3 : 20e-3; });
    EXPECT_STREQ(e.best.algo->name, "rsag");
    EXPECT_EQ(std::count(ran.begin(), ran.end(), "rsag_far"), 0);
  }
}

TEST(OnlineTwins, TheTwinsAloneStayTogether) {
  // round 0 with only the twins: holding one back would leave one candidate, no measurement
  arcoll_model_t m;
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  arcoll_explorer_t e;
  ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, 64, 32768, 1, 5, 2, 0), 2);
  ASSERT_EQ(e.has_far, 1);
  arcoll_explorer_t two = e;
  two.has_far = 0;
  two.n = 2;
  two.cand[1] = e.far;  // rsag and rsag_far alone
  arcoll_explorer_t swapped = two;  // the far one first: the near one is put first
  std::swap(swapped.cand[0], swapped.cand[1]);
  EXPECT_EQ(arcoll_explorer_hold_far(&two), 0);
  EXPECT_EQ(two.n, 2);
  EXPECT_EQ(two.has_far, 0);
  EXPECT_STREQ(two.cand[0].algo->name, "rsag");
  EXPECT_EQ(two.once_from, 1) << "the far twin runs once";
  EXPECT_EQ(arcoll_explorer_hold_far(&swapped), 0);
  EXPECT_STREQ(swapped.cand[0].algo->name, "rsag");
  EXPECT_STREQ(swapped.cand[1].algo->name, "rsag_far");
  EXPECT_EQ(swapped.once_from, 1);
  arcoll_explorer_t three = e;  // rsag, one more and rsag_far: the far one waits, no run once
  three.has_far = 0;
  three.cand[2] = e.far;
  three.n = 3;
  EXPECT_EQ(arcoll_explorer_hold_far(&three), 1);
  EXPECT_EQ(three.n, 2);
  EXPECT_EQ(three.once_from, 0);
  arcoll_explorer_t other = two;  // two candidates that are not twins: nothing changes
  other.once_from = 0;
  other.cand[1] = e.cand[1];
  EXPECT_EQ(arcoll_explorer_hold_far(&other), 0);
  EXPECT_EQ(other.once_from, 0);
}

TEST(OnlineTwins, TheTwinsAloneTheFarRunsOnceAndWinsWhenFaster) {
  for (const double far_s : {0.5e-3, 5e-3}) {
    arcoll_model_t m;
    arcoll_model_default(&m);
    arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
    arcoll_explorer_t e;
    ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, 64, 32768, 1, 5, 2, 0), 2);
    e.cand[1] = e.far;  // round 0 cut to rsag and rsag_far alone (init leaves the 32 KiB allreduce so)
    e.n = 2;
    e.has_far = 0;
    ASSERT_EQ(arcoll_explorer_hold_far(&e), 0);
    const auto ran = run(e, [far_s](const std::string &n) { return n == "rsag" ? 1e-3 : far_s; });
    ASSERT_TRUE(e.finished);
    EXPECT_EQ(std::count(ran.begin(), ran.end(), "rsag"), 2) << far_s << ": the near twin's trials";
    EXPECT_EQ(std::count(ran.begin(), ran.end(), "rsag_far"), 1) << far_s << ": one run";
    EXPECT_STREQ(e.best.algo->name, far_s < 1e-3 ? "rsag_far" : "rsag") << far_s;
  }
}

TEST(OnlineTwins, NearTwinsByName) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  const std::pair<arcoll_coll_t, const char *> cases[] = {
      {ARCOLL_COLL_ALLREDUCE, "rabenseifner"},
      {ARCOLL_COLL_REDUCE_SCATTER_BLOCK, "recursive_halving_near"},
      {ARCOLL_COLL_REDUCE_SCATTER, "recursive_halving_near"}};
  int held = 0;
  for (const auto &[c, near] : cases)
    for (int P : {16, 64, 256}) {
      arcoll_explorer_t e;
      arcoll_explorer_init(&e, &m, c, P, 1 << 20, 1, ARCOLL_ONLINE_MAX_CANDIDATES, 2, 0);
      if (!e.has_far) continue;
      ++held;
      const int twin = arcoll_explorer_near_twin(&e, &e.far);
      ASSERT_GE(twin, 0) << arcoll_coll_name(c) << " P=" << P;
      EXPECT_STREQ(e.cand[twin].algo->name, near) << arcoll_coll_name(c) << " P=" << P;
    }
  EXPECT_GT(held, 0);
}

}  // namespace
