// The MPI library's own collective as one more online candidate
// (collectives/native.h, online.h arcoll_explorer_add): appended after the
// model's candidates with no prediction, so no 2x rule drops it, its block
// opened by its own unmeasured warm-up run, and kept only when measured
// fastest.  Driven with synthetic times of one "rank", no MPI.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "native.h"
#include "online.h"

namespace {

// An explorer of collective c for P ranks, `bytes` bytes, with the native
// candidate appended and one warm-up call for cand[0] and for it.
void setup(arcoll_explorer_t &e, arcoll_model_t &m, arcoll_coll_t c, int P, MPI_Aint bytes) {
  arcoll_model_default(&m);
  const int n = arcoll_explorer_init(&e, &m, c, P, bytes, 1, 3, 2, 0);
  ASSERT_GE(n, 1);
  ASSERT_EQ(arcoll_explorer_add(&e, arcoll_native_algorithm(c)), n + 1);
  ASSERT_EQ(e.extra_at, n);
  e.warmup = 1;
  e.warmup_extra = 1;
}

// Runs round 0: each call's time from `time_of(name, index of the call)`;
// returns the algorithms run, in order.
template <class F>
std::vector<std::string> run_round(arcoll_explorer_t &e, F time_of) {
  std::vector<std::string> ran;
  const arcoll_choice_t *ch;
  while ((ch = arcoll_explorer_next(&e)) != nullptr && ran.size() < 60) {
    const std::string name = ch->algo->name;
    const double t = time_of(name, (int)ran.size());
    ran.push_back(name);
    if (arcoll_explorer_record(&e, t, 0) == 1) arcoll_explorer_decide_times(&e, e.t, nullptr);
  }
  return ran;
}

}  // namespace

TEST(OnlineNative, DescriptorsForBcastReduceAllreduceOnly) {
  for (arcoll_coll_t c : {ARCOLL_COLL_BCAST, ARCOLL_COLL_REDUCE, ARCOLL_COLL_ALLREDUCE}) {
    const arcoll_algo_desc_t *a = arcoll_native_algorithm(c);
    ASSERT_NE(a, nullptr);
    EXPECT_STREQ(a->name, ARCOLL_NATIVE_NAME);
    EXPECT_STREQ(a->collective, arcoll_coll_name(c));
    EXPECT_EQ(a->flags, 0u);  // no rank order, no segments: no late-rank tree is built for it
    EXPECT_EQ(arcoll_algorithm_find(c, "native"), a);  // ARCOLL_<COLL>_ALGORITHM, tuning files
    int n = 0;  // not in the table: the model never ranks it, list-algorithms does not show it
    const arcoll_algo_desc_t *t = arcoll_algorithm_table(c, &n);
    for (int i = 0; i < n; ++i) EXPECT_NE(&t[i], a);
    arcoll_model_t m;
    arcoll_model_default(&m);
    EXPECT_LT(arcoll_model_predict(&m, c, a, 16, 8, 0, 0), 0.0);  // no formula
  }
  for (arcoll_coll_t c : {ARCOLL_COLL_SCAN, ARCOLL_COLL_GATHER, ARCOLL_COLL_SCATTER,
                          ARCOLL_COLL_ALLGATHER, ARCOLL_COLL_ALLTOALL, ARCOLL_COLL_BARRIER}) {
    EXPECT_EQ(arcoll_native_algorithm(c), nullptr) << arcoll_coll_name(c);
    EXPECT_EQ(arcoll_algorithm_find(c, "native"), nullptr) << arcoll_coll_name(c);
  }
}

TEST(OnlineNative, AppendedOnceUnpredictedAndNotAfterTheFirstRun) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  setup(e, m, ARCOLL_COLL_ALLREDUCE, 2, 8);
  const int n = e.n;
  EXPECT_STREQ(e.cand[n - 1].algo->name, "native");
  EXPECT_LT(e.cand[n - 1].predicted_s, 0.0);
  EXPECT_EQ(e.cand[n - 1].segment_bytes, 0);
  EXPECT_EQ(arcoll_explorer_add(&e, arcoll_native_algorithm(ARCOLL_COLL_ALLREDUCE)), n);  // once
  arcoll_explorer_next(&e);
  arcoll_explorer_record(&e, 1e-6, 0);  // cand[0]'s warm-up run
  arcoll_explorer_next(&e);
  arcoll_explorer_record(&e, 1e-6, 0);  // its first measured run
  arcoll_explorer_t f = e;
  f.n = n - 1;
  EXPECT_EQ(arcoll_explorer_add(&f, arcoll_native_algorithm(ARCOLL_COLL_ALLREDUCE)), n - 1);
  EXPECT_EQ(arcoll_explorer_add(&f, nullptr), n - 1);
}

TEST(OnlineNative, ItsColdFirstCallIsAWarmUpAndItWinsWhenFastest) {
  // MPICH 4.0.2, 2 ranks, 8-byte allreduce: MPICH's own 0.40 us per call,
  // recursive doubling 0.46 us; each code path's first call is cold (50 us)
  arcoll_explorer_t e;
  arcoll_model_t m;
  setup(e, m, ARCOLL_COLL_ALLREDUCE, 2, 8);
  const int n = e.n;
  bool native_seen = false;
  const std::vector<std::string> ran = run_round(e, [&](const std::string &name, int) {
    const bool cold = name == "native" ? !native_seen : false;
    if (name == "native") native_seen = true;
    return cold ? 50e-6 : name == "native" ? 0.40e-6 : name == "recursive_doubling" ? 0.46e-6 : 0.7e-6;
  });
  // cand[0]'s warm-up, every candidate `trials` times, native's warm-up
  ASSERT_EQ((int)ran.size(), 2 + n * e.trials);
  const int at = 1 + (n - 1) * e.trials;  // native's block, after the others'
  for (int i = at; i < at + 1 + e.trials; ++i) EXPECT_EQ(ran[i], "native") << i;
  EXPECT_TRUE(e.finished || e.confirming);
  EXPECT_STREQ(e.best.algo->name, "native");
  EXPECT_DOUBLE_EQ(e.measured_s[n - 1], 0.40e-6);  // the cold call not charged
}

TEST(OnlineNative, NotKeptWhenSlower) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  setup(e, m, ARCOLL_COLL_BCAST, 16, 8);
  run_round(e, [](const std::string &name, int) { return name == "native" ? 5e-6 : 2e-6; });
  EXPECT_STRNE(e.best.algo->name, "native");
}

TEST(OnlineNative, WithItsWarmUpOffItsBlockIsTrialsRunsOnly) {
  // ARCOLL_ONLINE_WARMUP=0: no unmeasured run before the appended candidate
  arcoll_explorer_t e;
  arcoll_model_t m;
  setup(e, m, ARCOLL_COLL_ALLREDUCE, 2, 8);
  e.warmup_extra = 0;
  const int n = e.n;
  const std::vector<std::string> ran =
      run_round(e, [](const std::string &, int) { return 1e-6; });
  EXPECT_EQ((int)ran.size(), 1 + n * e.trials);
}
