// Deferred decisions of the online selection (collectives/online_pacing.h,
// "Deferred decisions"; adapt/decision.h): the lag rule, and an explorer
// whose decision arrives later runs its best meanwhile and then decides
// exactly as the blocking way.  No MPI.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "compress_decide.h"
#include "online.h"
#include "online_pacing.h"

namespace {

// A two-candidate explorer (allreduce, 8 B by default, P = 64, the built-in
// model, 2 trials, `refine` refinement rounds), rounds alone.
void setup(arcoll_explorer_t &e, arcoll_model_t &m, arcoll_coll_t c = ARCOLL_COLL_ALLREDUCE,
           MPI_Aint bytes = 8, int refine = 0) {
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  ASSERT_GE(arcoll_explorer_init(&e, &m, c, 64, bytes, 1, 2, 2, refine), 2);
  e.n = 2;
  e.confirm_block = 0;
  e.check_at = 0;
}

}  // namespace

TEST(OnlineDeferred, LagOnlyWhereTheBlockingDecisionCostsMoreThanACall) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  setup(e, m);
  const double t = e.best.predicted_s;
  ASSERT_GT(t, 0);
  EXPECT_EQ(arcoll_explorer_lag(&e, 0.9 * t, 64), 0);   // cheaper than a call: in the call
  EXPECT_EQ(arcoll_explorer_lag(&e, 1.0 * t, 64), 0);
  EXPECT_EQ(arcoll_explorer_lag(&e, 1.1 * t, 64), 12);  // 2 ceil(log2 64)
  EXPECT_EQ(arcoll_explorer_lag(&e, 10 * t, 2), 2);
  EXPECT_EQ(arcoll_explorer_lag(&e, 10 * t, 3), 4);
  EXPECT_EQ(arcoll_explorer_lag(&e, 10 * t, 256), ARCOLL_ONLINE_MAX_LAG);
  EXPECT_EQ(arcoll_explorer_lag(&e, 10 * t, 100000), ARCOLL_ONLINE_MAX_LAG);
  EXPECT_EQ(arcoll_explorer_lag(&e, 0.0, 64), 0);  // no model time: never deferred
  EXPECT_EQ(arcoll_explorer_lag(&e, NAN, 64), 0);
  e.best.predicted_s = -1.0;  // no formula for the call
  EXPECT_EQ(arcoll_explorer_lag(&e, 10 * t, 64), 0);
}

// Rooted collectives and scans never defer (their calls need not
// synchronise the ranks: with a late rank the others run ahead of it and
// would wait longer at a later deadline); the others do.
TEST(OnlineDeferred, NeverForRootedCollectivesAndScans) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c) {
    const auto coll = (arcoll_coll_t)c;
    arcoll_explorer_t e;
    if (arcoll_explorer_init(&e, &m, coll, 64, 8, 1, 2, 2, 0) < 1) continue;
    const double t = e.best.predicted_s;
    if (!(t > 0)) continue;
    const bool rooted = coll == ARCOLL_COLL_BCAST || coll == ARCOLL_COLL_REDUCE ||
                        coll == ARCOLL_COLL_SCAN || coll == ARCOLL_COLL_EXSCAN ||
                        coll == ARCOLL_COLL_GATHER || coll == ARCOLL_COLL_SCATTER ||
                        coll == ARCOLL_COLL_GATHERV || coll == ARCOLL_COLL_SCATTERV;
    EXPECT_EQ(arcoll_explorer_lag(&e, 10 * t, 64), rooted ? 0 : 12) << "collective " << c;
  }
}

TEST(OnlineDeferred, TheBestRunsWhileThePendingDecisionTravelsThenTheSameChoice) {
  arcoll_explorer_t e, blocking;
  arcoll_model_t m;
  setup(e, m);
  const arcoll_choice_t first = e.cand[0], second = e.cand[1];
  // round 0: the second candidate is twice as fast (sum and period)
  for (int r = 0; r < 4; ++r) {
    const double s = r < 2 ? 2e-3 : 1e-3;
    EXPECT_EQ(arcoll_explorer_record_period(&e, s, s, 0), r == 3 ? 1 : 0);
  }
  blocking = e;
  std::vector<double> all(e.t, e.t + 4), max(e.p, e.p + 4);
  for (double &v : all) v *= 64;  // the sum over 64 ranks
  e.pending = 1;                  // the exchange is on its way
  for (int call = 0; call < 5; ++call) {
    const arcoll_choice_t *next = arcoll_explorer_next(&e);
    ASSERT_NE(next, nullptr);
    EXPECT_EQ(next->algo, first.algo) << "the model's choice runs until the decision";
  }
  arcoll_explorer_decide_times(&e, all.data(), max.data());
  arcoll_explorer_decide_times(&blocking, all.data(), max.data());
  EXPECT_EQ(e.pending, 0);
  EXPECT_EQ(e.best.algo, second.algo);
  EXPECT_EQ(e.best.algo, blocking.best.algo);
  EXPECT_EQ(e.best.segment_bytes, blocking.best.segment_bytes);
  EXPECT_EQ(e.finished, blocking.finished);
  EXPECT_EQ(e.round, blocking.round);
  EXPECT_EQ(arcoll_explorer_next(&e) == nullptr, arcoll_explorer_next(&blocking) == nullptr);
}

// Bcast's pending rooted decision (adapt/decision.h) runs `held`: after
// round 0 the last measured configuration (leaving a stream for the
// earlier best and re-entering it costs two fills); after a refinement
// round the kept configuration - the same tree at its measured segment,
// not the last neighbour tried (SMPI flat P = 64, 32 KiB, 0-200 us noise:
// binary / 16 KiB held for 16 calls at 0.0055 s summed per call against
// binary / 8 KiB's 0.0027; the run 0.755 -> 0.734 s).
TEST(OnlineDeferred, HeldIsTheLastMeasuredAfterRoundZeroTheKeptOneAfterARefinement) {
  arcoll_model_t m;
  arcoll_explorer_t e;
  setup(e, m, ARCOLL_COLL_BCAST, 32768, 3);
  int seg = -1;  // the segmented candidate: it gets the refinement round
  for (int i = 0; i < e.n; ++i)
    if ((e.cand[i].algo->flags & ARCOLL_ALGO_SEGMENTED) && e.cand[i].segment_bytes > 0) seg = i;
  ASSERT_GE(seg, 0) << "no segmented candidate among the model's two best";
  const arcoll_choice_t last = e.cand[1], win = e.cand[seg];
  // sums over the 64 ranks, each inside for the winner's predicted call (a
  // refinement round's refills weigh against them, online.c)
  const double u = 64 * win.predicted_s;
  // round 0: the segmented one twice as fast
  for (int r = 0; r < 4; ++r) {
    const double s = r / 2 == seg ? u : 2 * u;
    arcoll_explorer_record_period(&e, s, s, 0);
  }
  std::vector<double> all(e.t, e.t + 4), max(e.p, e.p + 4);
  e.pending = 1;
  ASSERT_NE(arcoll_explorer_next(&e), nullptr);
  EXPECT_TRUE(arcoll_choice_same(arcoll_explorer_next(&e), &last)) << "round 0: the last measured";
  arcoll_explorer_decide_times(&e, all.data(), max.data());
  ASSERT_EQ(e.round, 1) << "the winner is segmented: a refinement round";
  EXPECT_TRUE(arcoll_choice_same(&e.best, &win));
  // round 1: both neighbours slower; the last one run is the larger segment
  const int k = e.n * e.trials;
  for (int r = 0; r < k; ++r) arcoll_explorer_record_period(&e, 3 * u, 3 * u, 0);
  std::vector<double> all1(e.t, e.t + k), max1(e.p, e.p + k);
  e.pending = 1;
  const arcoll_choice_t *held = arcoll_explorer_next(&e);
  ASSERT_NE(held, nullptr);
  EXPECT_TRUE(arcoll_choice_same(held, &win)) << "refinement: the kept configuration";
  EXPECT_FALSE(arcoll_choice_same(held, &e.cand[e.n - 1]));
  arcoll_explorer_decide_times(&e, all1.data(), max1.data());
  EXPECT_TRUE(arcoll_choice_same(&e.best, &win));
}

// Round 0 of a reduce whose chain streams (online.h stream_lag): the chain
// measured last, the decision deferred by ARCOLL_ONLINE_REDUCE_STREAM_LAG
// calls with the chain held meanwhile - the blocking decision waited for
// the root's backlog and the next call refilled the chain (SMPI flat
// P = 256, 1 MiB: 1.44 + 1.41 s summed over ranks against 0.24 a call).
// Cluster256 model: rsag and the chain at 1 MiB, P = 64 and 256; no
// refinement round follows (the chain's least-occupancy segment stays).  A
// readmission and a reduce without the chain (32 KiB) decide in their last
// call, as before.
TEST(OnlineDeferred, AReduceWhoseChainStreamsDefersRoundZeroHoldingTheChain) {
  arcoll_model_t m;
  char err[256];
  ASSERT_EQ(arcoll_model_load(ARCOLL_TEST_CLUSTER_MODEL, &m, err, sizeof err), 0) << err;
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  for (int P : {64, 256}) {
    arcoll_explorer_t e;
    ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, P, 1 << 20, 1, ARCOLL_ONLINE_MAX_CANDIDATES, 2, 3), 2);
    ASSERT_STREQ(e.cand[e.n - 1].algo->name, "chain") << "P=" << P << ": the chain measured last";
    EXPECT_EQ(e.stream_lag, 1);
    EXPECT_EQ(arcoll_explorer_lag(&e, 0.0, P), ARCOLL_ONLINE_REDUCE_STREAM_LAG);
    const arcoll_choice_t chain = e.cand[e.n - 1];
    const int k = e.n * e.trials;
    int due = 0;  // the chain twice as fast as the others
    for (int r = 0; r < k && !due; ++r) {
      const double s = r / e.trials == e.n - 1 ? 1e-3 : 2e-3;
      due = arcoll_explorer_record_period(&e, P * s, s, 0);
    }
    ASSERT_EQ(due, 1) << "P=" << P;
    std::vector<double> all(e.t, e.t + k), max(e.p, e.p + k);
    e.pending = 1;
    for (int call = 0; call < ARCOLL_ONLINE_REDUCE_STREAM_LAG; ++call) {
      const arcoll_choice_t *next = arcoll_explorer_next(&e);
      ASSERT_NE(next, nullptr);
      EXPECT_TRUE(arcoll_choice_same(next, &chain)) << "P=" << P << ": the chain runs until the decision";
    }
    arcoll_explorer_decide_times(&e, all.data(), max.data());
    EXPECT_EQ(e.best.algo, chain.algo);
    EXPECT_TRUE(e.finished) << "P=" << P << ": no refinement round after it";
    e.readmitting = 1;
    e.round = 0;
    EXPECT_EQ(arcoll_explorer_lag(&e, 0.0, P), 0) << "readmitted candidates run: in their last call";
  }
  arcoll_explorer_t small;
  arcoll_explorer_init(&small, &m, ARCOLL_COLL_REDUCE, 256, 32768, 1, ARCOLL_ONLINE_MAX_CANDIDATES, 2, 3);
  EXPECT_EQ(small.stream_lag, 0);
  EXPECT_EQ(arcoll_explorer_lag(&small, 0.0, 256), 0);
}

TEST(OnlineDeferred, AReduceWhoseRootMovesDecidesInTheRoundsLastCall) {
  arcoll_model_t m;
  char err[256];
  ASSERT_EQ(arcoll_model_load(ARCOLL_TEST_CLUSTER_MODEL, &m, err, sizeof err), 0) << err;
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  arcoll_explorer_t e;
  ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, 64, 1 << 20, 1, ARCOLL_ONLINE_MAX_CANDIDATES, 2, 3), 2);
  ASSERT_EQ(e.stream_lag, 1);
  for (int call = 0; call < 3; ++call) arcoll_explorer_note_root(&e, 5);  // one root: deferred
  EXPECT_EQ(e.root_moved, 0);
  EXPECT_EQ(arcoll_explorer_lag(&e, 0.0, 64), ARCOLL_ONLINE_REDUCE_STREAM_LAG);
  arcoll_explorer_note_root(&e, 6);  // the root moves: the chain refills every call
  EXPECT_EQ(e.root_moved, 1);
  EXPECT_EQ(arcoll_explorer_lag(&e, 0.0, 64), 0);
  arcoll_explorer_note_root(&e, 5);  // and stays noted as moved
  EXPECT_EQ(arcoll_explorer_lag(&e, 0.0, 64), 0);
  arcoll_explorer_t small;  // no streaming chain: nothing noted
  arcoll_explorer_init(&small, &m, ARCOLL_COLL_REDUCE, 64, 32768, 1, ARCOLL_ONLINE_MAX_CANDIDATES, 2, 3);
  arcoll_explorer_note_root(&small, 0);
  arcoll_explorer_note_root(&small, 1);
  EXPECT_EQ(small.root_moved, 0);
}
