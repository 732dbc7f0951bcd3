// Round 0 of a bcast exploration reduced to the streaming configuration and
// the noted tolerant tree (collectives/online_slots.h
// arcoll_explorer_stream_only): which candidates stay, where their runs go,
// the warm-up call, and the states where nothing changes.  Synthetic times
// of one "rank", no MPI.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "online.h"
#include "online_noted.h"
#include "online_slots.h"
#include "select.h"

namespace {

const std::string kTree = arcoll_tolerant_tree(ARCOLL_COLL_BCAST, 32768);

// A bcast explorer for P = 256, 32 KiB (built-in model), 5 candidates, 2
// trials, `refine` refinement rounds, with the tolerant tree's two runs noted.
void setup(arcoll_explorer_t &e, arcoll_model_t &m, double noted_s, int refine = 0) {
  arcoll_model_default(&m);
  ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_BCAST, 256, 32768, 1, 5, 2, refine), 3);
  ASSERT_GE(e.stream_at, 1);
  const arcoll_choice_t b{arcoll_algorithm_find(ARCOLL_COLL_BCAST, kTree.c_str()), 8192, 0, 0.0};
  ASSERT_EQ(arcoll_explorer_note_run(&e, &b, noted_s, noted_s, 0), 0);
  ASSERT_EQ(arcoll_explorer_note_run(&e, &b, noted_s, noted_s, 0), 1);
}

// Runs the round, every measured run taking `run_s`; returns the names run.
std::vector<std::string> run_round(arcoll_explorer_t &e, double run_s) {
  std::vector<std::string> ran;
  const arcoll_choice_t *ch;
  while ((ch = arcoll_explorer_next(&e)) != nullptr && ran.size() < 50) {
    ran.push_back(ch->algo->name);
    if (arcoll_explorer_record_period(&e, run_s, run_s, 0) == 1) {
      arcoll_explorer_decide_times(&e, e.t, e.p);
      break;
    }
  }
  return ran;
}

TEST(OnlineStreamOnly, TheStreamingOneFirstWithItsWarmUpThenTheNotedTree) {
  for (const double noted_s : {0.5e-3, 2e-3}) {
    arcoll_explorer_t e;
    arcoll_model_t m;
    setup(e, m, noted_s);
    const arcoll_choice_t streaming = e.cand[e.stream_at], tree = e.cand[e.n - 1];
    ASSERT_NE(streaming.algo, tree.algo);
    ASSERT_EQ(arcoll_explorer_stream_only(&e, 0, 0), 1);
    ASSERT_EQ(e.n, 2);
    EXPECT_EQ(e.cand[0].algo, streaming.algo);
    EXPECT_EQ(e.cand[0].segment_bytes, streaming.segment_bytes);
    EXPECT_EQ(e.cand[1].algo, tree.algo);
    EXPECT_EQ(e.cand[1].segment_bytes, 8192);
    EXPECT_DOUBLE_EQ(e.t[e.trials], noted_s);  // the noted runs moved with the tree
    EXPECT_EQ(e.best.algo, streaming.algo);      // what runs while undecided
    EXPECT_EQ(e.nspare, -1);                     // the dropped ones stay dropped
    // the streaming one: one warm-up call and its two trials; the tree is never run
    const std::vector<std::string> ran = run_round(e, 1e-3);
    ASSERT_EQ(ran.size(), 3u);
    for (const std::string &s : ran) EXPECT_EQ(s, streaming.algo->name);
    ASSERT_TRUE(e.finished);
    EXPECT_EQ(e.best.algo, noted_s < 1e-3 ? tree.algo : streaming.algo) << noted_s;
  }
}

// Paced by the root (adapt/late_pattern.h arcoll_late_root_paced): the same two,
// the noted tree first with its runs done - it keeps ties; the streaming one
// wins only by more than ARCOLL_ONLINE_SUM_TOLERANCE.
TEST(OnlineStreamOnly, TreeFirstRunsOnlyTheStreamingOneAndTheTreeKeepsTies) {
  const double noted_s = 1e-3;
  for (const double stream_s : {noted_s, 0.97 * noted_s, 0.9 * noted_s, 1.5 * noted_s}) {
    arcoll_explorer_t e;
    arcoll_model_t m;
    setup(e, m, noted_s);
    const arcoll_choice_t streaming = e.cand[e.stream_at], tree = e.cand[e.n - 1];
    ASSERT_EQ(arcoll_explorer_stream_only(&e, 1, 0), 1);
    ASSERT_EQ(e.n, 2);
    EXPECT_EQ(e.cand[0].algo, tree.algo);
    EXPECT_EQ(e.cand[0].segment_bytes, 8192);
    EXPECT_EQ(e.cand[1].algo, streaming.algo);
    EXPECT_EQ(e.cand[1].segment_bytes, streaming.segment_bytes);
    EXPECT_DOUBLE_EQ(e.t[0], noted_s);  // the tree's noted runs in its own slots
    EXPECT_DOUBLE_EQ(e.t[e.trials - 1], noted_s);
    EXPECT_EQ(e.nspare, -1);
    EXPECT_EQ(arcoll_explorer_stream_only(&e, 1, 0), 0);  // once
    const std::vector<std::string> ran = run_round(e, stream_s);
    ASSERT_EQ(ran.size(), 3u);  // the warm-up call and two trials, of the streaming one only
    for (const std::string &s : ran) EXPECT_EQ(s, streaming.algo->name);
    ASSERT_TRUE(e.finished);
    EXPECT_EQ(e.best.algo, stream_s < (1.0 - ARCOLL_ONLINE_SUM_TOLERANCE) * noted_s ? streaming.algo : tree.algo)
        << stream_s;
  }
}

// No segment refinement after the reduced round: each size it switches to refills the pipeline
// (SMPI flat P = 256, 32 KiB, 0.5 ms of computation between calls: chain/4096 and /16384 cost
// 0.78 s of switches in a 3.26 s run and were not kept).  Without the reduction, the streaming
// candidate winning round 0 goes on to a refinement round.
TEST(OnlineStreamOnly, NoRefinementAfterTheReducedRound) {
  for (const int reduce : {0, 1}) {
    arcoll_explorer_t e;
    arcoll_model_t m;
    setup(e, m, 2e-3, 2);
    ASSERT_EQ(e.refine, 2);
    const arcoll_choice_t streaming = e.cand[e.stream_at];
    // sums over the 256 ranks, each inside for the streaming one's predicted call: its refills
    // in a refinement round (online.c) fit in the budget
    const double u = 256 * streaming.predicted_s;
    if (!reduce) setup(e, m, 1.1 * u, 2);  // the noted tree a little slower, as the others
    if (reduce) {
      ASSERT_EQ(arcoll_explorer_stream_only(&e, 0, 0), 1);
      EXPECT_EQ(e.refine, 0);
      run_round(e, 1e-3);
    } else {  // every other candidate a little slower: within the budget a refinement round follows
      const arcoll_choice_t *ch;
      for (int i = 0; i < 50 && (ch = arcoll_explorer_next(&e)) != nullptr; ++i) {
        const double s = ch->algo == streaming.algo ? u : 1.1 * u;
        if (arcoll_explorer_record_period(&e, s, s, 0) == 1) {
          arcoll_explorer_decide_times(&e, e.t, e.p);
          break;
        }
      }
    }
    EXPECT_EQ(e.best.algo, streaming.algo);
    EXPECT_EQ(e.finished != 0, reduce == 1) << "reduced " << reduce << ", round " << e.round;
  }
}

// What runs while the round's decision is pending (online.h `held`, `hold_at`): the streaming
// candidate measured last, or - hold_tree, noisy arrivals - the noted tree, whichever is first.
TEST(OnlineStreamOnly, NoisyArrivalsHoldTheTreeWhileTheDecisionIsPending) {
  for (const int tree_first : {0, 1})
    for (const int hold_tree : {0, 1}) {
      arcoll_explorer_t e;
      arcoll_model_t m;
      setup(e, m, 1e-3);
      const arcoll_choice_t streaming = e.cand[e.stream_at], tree = e.cand[e.n - 1];
      ASSERT_EQ(arcoll_explorer_stream_only(&e, tree_first, hold_tree), 1);
      int done = 0;
      for (int i = 0; i < 10 && !done; ++i) {
        const arcoll_choice_t *ch = arcoll_explorer_next(&e);
        ASSERT_NE(ch, nullptr);
        EXPECT_EQ(ch->algo, streaming.algo);  // the tree's runs are the noted ones
        done = arcoll_explorer_record_period(&e, 2e-3, 2e-3, 0) == 1;
      }
      ASSERT_TRUE(done);
      ASSERT_TRUE(e.has_held);
      EXPECT_EQ(e.held.algo, hold_tree ? tree.algo : streaming.algo) << tree_first << hold_tree;
      e.pending = 1;  // as arcoll_decision_start leaves it
      EXPECT_EQ(arcoll_explorer_next(&e)->algo, hold_tree ? tree.algo : streaming.algo);
      // a candidate removed before the held one moves its index with it
      if (hold_tree && tree_first == 0) {
        arcoll_explorer_remove(&e, 0);
        EXPECT_EQ(e.hold_at, 1);
        EXPECT_EQ(e.cand[e.hold_at - 1].algo, tree.algo);
        arcoll_explorer_remove(&e, 0);
        EXPECT_EQ(e.hold_at, 0);  // the held one itself: none
      }
    }
}

TEST(OnlineStreamOnly, NothingChangesOnceARunWasMeasuredOrWithoutNotedRuns) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  setup(e, m, 1e-3);
  const int n = e.n;
  ASSERT_EQ(arcoll_explorer_record_period(&e, 1e-3, 1e-3, 0), 0);  // a run of the round
  EXPECT_EQ(arcoll_explorer_stream_only(&e, 0, 0), 0);
  EXPECT_EQ(arcoll_explorer_stream_only(&e, 1, 0), 0);
  EXPECT_EQ(e.n, n);
  arcoll_explorer_t f;
  arcoll_model_default(&m);
  ASSERT_GE(arcoll_explorer_init(&f, &m, ARCOLL_COLL_BCAST, 256, 32768, 1, 5, 2, 0), 3);
  const int fn = f.n;
  EXPECT_EQ(arcoll_explorer_stream_only(&f, 0, 0), 0);  // nothing noted: the tree would not be measured
  EXPECT_EQ(f.n, fn);
  arcoll_explorer_t g;
  setup(g, m, 1e-3);
  g.stream_at = 0;  // no streaming candidate
  EXPECT_EQ(arcoll_explorer_stream_only(&g, 0, 0), 0);
  arcoll_explorer_t h;
  ASSERT_GE(arcoll_explorer_init(&h, &m, ARCOLL_COLL_BCAST, 256, 2048, 1, 5, 2, 0), 1);
  EXPECT_EQ(arcoll_explorer_stream_only(&h, 0, 0), 0);  // below the streaming size: none
}

}  // namespace
