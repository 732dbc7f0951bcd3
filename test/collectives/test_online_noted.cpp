// Runs made while the online selection waits (collectives/online_noted.h):
// the noted algorithm becomes round 0's last candidate with the noted
// configuration and runs, so the round never runs it; changes of
// configuration, failures and the states where nothing may change.
// Driven with synthetic times of one "rank", no MPI.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "online.h"
#include "online_noted.h"
#include "select.h"

namespace {

// The tree the tolerant calls run (binary at 32 KiB).
const std::string kTree = arcoll_tolerant_tree(ARCOLL_COLL_BCAST, 32768);

// A bcast explorer for P = 256, 32 KiB (built-in model), 5 candidates, 2
// trials, no refinement; the tolerant tree among them but not first.
void setup(arcoll_explorer_t &e, arcoll_model_t &m) {
  arcoll_model_default(&m);
  ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_BCAST, 256, 32768, 1, 5, 2, 0), 3);
  ASSERT_NE(e.cand[0].algo->name, kTree);
  int at = -1;
  for (int i = 0; i < e.n; ++i)
    if (e.cand[i].algo->name == kTree) at = i;
  ASSERT_GE(at, 1);
}

arcoll_choice_t binomial(MPI_Aint segment) {  // the tolerant tree's run
  return arcoll_choice_t{arcoll_algorithm_find(ARCOLL_COLL_BCAST, kTree.c_str()), segment, 0, 0.0};
}

// Runs the round: every candidate run takes 1 ms. Returns the names run.
std::vector<std::string> run_round(arcoll_explorer_t &e) {
  std::vector<std::string> ran;
  const arcoll_choice_t *ch;
  while ((ch = arcoll_explorer_next(&e)) != nullptr && ran.size() < 50) {
    ran.push_back(ch->algo->name);
    if (arcoll_explorer_record_period(&e, 1e-3, 1e-3, 0) == 1) {
      arcoll_explorer_decide_times(&e, e.t, e.p);
      break;
    }
  }
  return ran;
}

TEST(OnlineNoted, NotedRunsStandForTheLastCandidatesRuns) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  setup(e, m);
  const int n = e.n;
  const arcoll_choice_t b = binomial(8192);
  ASSERT_GE(e.stream_at, 1);  // the streaming candidate (chain), with its warm-up run
  const arcoll_algo_desc_t *streaming = e.cand[e.stream_at].algo;
  EXPECT_EQ(arcoll_explorer_note_run(&e, &b, 0.5e-3, 0.5e-3, 0), 0);  // one of two trials
  EXPECT_EQ(arcoll_explorer_note_run(&e, &b, 0.4e-3, 0.45e-3, 0), 1);
  ASSERT_EQ(e.n, n);
  EXPECT_EQ(e.cand[n - 1].algo->name, kTree);
  EXPECT_EQ(e.cand[e.stream_at].algo, streaming);  // its index followed the move
  EXPECT_EQ(e.cand[n - 1].segment_bytes, 8192);
  EXPECT_DOUBLE_EQ(e.cand[n - 1].predicted_s,
                   arcoll_model_predict(&m, ARCOLL_COLL_BCAST, b.algo, 256, 32768, 8192, 0));
  const int warm_at = e.stream_at * e.trials;
  const std::vector<std::string> ran = run_round(e);
  ASSERT_EQ((int)ran.size(), (n - 1) * 2 + 1);  // the others, twice each, + the warm-up
  for (const std::string &s : ran) EXPECT_NE(s, kTree);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(ran[warm_at + k], streaming->name);
  // the noted runs (0.4 ms) beat the others' 1 ms: the tree at 8 KiB kept
  ASSERT_TRUE(e.finished);
  EXPECT_EQ(e.best.algo->name, kTree);
  EXPECT_EQ(e.best.segment_bytes, 8192);
  EXPECT_NEAR(e.best_s, 0.4e-3, 1e-12);
}

TEST(OnlineNoted, KeepsTheLatestRunsOfOneConfiguration) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  setup(e, m);
  const arcoll_choice_t b2 = binomial(2048), b8 = binomial(8192);
  EXPECT_EQ(arcoll_explorer_note_run(&e, &b2, 9e-3, 9e-3, 0), 0);
  EXPECT_EQ(arcoll_explorer_note_run(&e, &b8, 7e-3, 7e-3, 0), 0);  // another segment: starts over
  EXPECT_EQ(arcoll_explorer_note_run(&e, &b8, 6e-3, 6e-3, 0), 1);
  EXPECT_EQ(arcoll_explorer_note_run(&e, &b8, 2e-3, 3e-3, 1), 1);  // failed: +inf, the oldest out
  const int at = (e.n - 1) * e.trials;
  EXPECT_DOUBLE_EQ(e.t[at], 6e-3);
  EXPECT_TRUE(std::isinf(e.t[at + 1]));
  EXPECT_TRUE(std::isinf(e.p[at + 1]));
  EXPECT_EQ(arcoll_explorer_note_run(&e, &b2, 1e-3, 1e-3, 0), 0);  // changed again: not preset
  EXPECT_EQ(e.preset, 0);
  const std::vector<std::string> ran = run_round(e);
  EXPECT_EQ((int)ran.size(), e.n * e.trials + 1);  // the tree measured as usual (+ a warm-up)
}

TEST(OnlineNoted, NothingChangesOnceTheRoundRuns) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  setup(e, m);
  e.warmup = 1;
  const std::string first = e.cand[0].algo->name;
  ASSERT_EQ(arcoll_explorer_record_period(&e, 1e-3, 1e-3, 0), 0);  // the warm-up run
  const arcoll_choice_t b = binomial(8192);
  EXPECT_EQ(arcoll_explorer_note_run(&e, &b, 1e-4, 1e-4, 0), 0);
  EXPECT_EQ(arcoll_explorer_note_run(&e, &b, 1e-4, 1e-4, 0), 0);
  EXPECT_EQ(e.preset, 0);
  EXPECT_EQ(e.cand[0].algo->name, first);
}

TEST(OnlineNoted, OnlyACandidateOtherThanTheFirst) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  setup(e, m);
  const arcoll_choice_t first = {e.cand[0].algo, 4096, 0, 0.0};
  EXPECT_EQ(arcoll_explorer_note_run(&e, &first, 1e-4, 1e-4, 0), 0);
  EXPECT_EQ(arcoll_explorer_note_run(&e, &first, 1e-4, 1e-4, 0), 0);
  EXPECT_EQ(e.preset, 0);
  arcoll_explorer_t f;
  setup(f, m);
  f.check_at = 2;  // a round with an imbalance check: positions matter
  const arcoll_choice_t b = binomial(8192);
  EXPECT_EQ(arcoll_explorer_note_run(&f, &b, 1e-4, 1e-4, 0), 0);
  EXPECT_EQ(arcoll_explorer_note_run(&f, &b, 1e-4, 1e-4, 0), 0);
  EXPECT_EQ(f.preset, 0);
}

}  // namespace
