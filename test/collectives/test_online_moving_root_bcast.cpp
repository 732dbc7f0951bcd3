// Unit tests of round 0 of a bcast whose root moves (online_pacing.h
// arcoll_explorer_note_root, online_slots.h arcoll_explorer_moving_root):
// binomial, which the model's one-call times leave out, is measured in the
// slot of a candidate that is neither the model's best, the streaming one
// nor the noted tolerant tree.  The calibrated model of
// tools/platforms/cluster256.xml; no MPI.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "compress_decide.h"
#include "online.h"
#include "online_pacing.h"
#include "online_slots.h"

namespace {

// A bcast explorer as adapt/choice.c sets it up (5 candidates, 2 trials, 2
// refinement rounds), compression off.
arcoll_explorer_t bcast_explorer(const arcoll_model_t &m, MPI_Aint bytes) {
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  arcoll_explorer_t e;
  EXPECT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_BCAST, 64, bytes, 1, 5, 2, 2), 3);
  return e;
}

std::string name(const arcoll_explorer_t &e, int i) { return e.cand[i].algo->name; }

// e is `before` with binomial in one slot: the model's best first, the
// tolerant tree where it was and the streaming candidate unchanged, binomial measured before
// the streaming one (which stays the last measured: held), the others as
// they were but the one binomial replaced.
void check_moved(const arcoll_explorer_t &before, const arcoll_explorer_t &e) {
  const int at = arcoll_explorer_find(&e, "binomial");
  ASSERT_GT(at, 0);
  ASSERT_EQ(e.n, before.n);
  EXPECT_LT(at, e.stream_at);
  EXPECT_NE(name(e, at), name(before, 0));
  EXPECT_EQ(name(e, 0), name(before, 0));
  const int tree = arcoll_explorer_find(&before, "binary"); // the tolerant tree from 8 KiB
  ASSERT_GE(tree, 0);
  EXPECT_EQ(name(e, tree), "binary");
  EXPECT_EQ(name(e, e.stream_at), name(before, before.stream_at));
  EXPECT_EQ(e.cand[e.stream_at].segment_bytes, before.cand[before.stream_at].segment_bytes);
  int replaced = 0;
  for (int i = 0; i < before.n; ++i) {
    bool kept = false;
    for (int j = 0; j < e.n; ++j)
      kept |= j != at && name(e, j) == name(before, i) &&
              e.cand[j].segment_bytes == before.cand[i].segment_bytes;
    replaced += !kept;
  }
  EXPECT_EQ(replaced, 1);
}

}  // namespace

TEST(OnlineMovingRootBcast, BinomialTakesTheSlotOfNeitherBestStreamNorTree) {
  arcoll_model_t m;
  char err[256];
  ASSERT_EQ(arcoll_model_load(ARCOLL_TEST_CLUSTER_MODEL, &m, err, sizeof err), 0) << err;
  arcoll_explorer_t e = bcast_explorer(m, 32768);
  ASSERT_EQ(arcoll_explorer_find(&e, "binomial"), -1) << "the model's one-call times keep it out";
  ASSERT_GT(e.stream_at, 0);
  const arcoll_explorer_t before = e;
  // one root so far: nothing changes
  arcoll_explorer_note_root(&e, 7);
  arcoll_explorer_note_root(&e, 7);
  EXPECT_EQ(e.root_moved, 0);
  EXPECT_EQ(arcoll_explorer_moving_root(&e), 0);
  // the root moves
  arcoll_explorer_note_root(&e, 8);
  EXPECT_EQ(e.root_moved, 1);
  ASSERT_EQ(arcoll_explorer_moving_root(&e), 1);
  check_moved(before, e);
  // the model's segment size for it, a segmented tree
  const int at = arcoll_explorer_find(&e, "binomial");
  ASSERT_GT(at, 0);
  EXPECT_GT(e.cand[at].segment_bytes, 0);
  EXPECT_LT(e.cand[at].segment_bytes, 32768);
  EXPECT_GT(e.cand[at].predicted_s, 0.0);
  // once only
  EXPECT_EQ(arcoll_explorer_moving_root(&e), 0);
}

TEST(OnlineMovingRootBcast, NotOnceARunIsMeasuredNorBelowTheStreamingSizes) {
  arcoll_model_t m;
  char err[256];
  ASSERT_EQ(arcoll_model_load(ARCOLL_TEST_CLUSTER_MODEL, &m, err, sizeof err), 0) << err;
  arcoll_explorer_t e = bcast_explorer(m, 32768);
  e.warmup = 0;
  arcoll_explorer_note_root(&e, 0);
  arcoll_explorer_note_root(&e, 1);
  ASSERT_EQ(e.root_moved, 1);
  arcoll_explorer_record_period(&e, 0.01, 0.001, 0); // a measured run
  EXPECT_EQ(arcoll_explorer_moving_root(&e), 0);
  EXPECT_EQ(arcoll_explorer_find(&e, "binomial"), -1);
  // 8 B: no streaming sizes, binomial is the tolerant tree already
  arcoll_explorer_t s = bcast_explorer(m, 8);
  arcoll_explorer_note_root(&s, 0);
  arcoll_explorer_note_root(&s, 1);
  const arcoll_explorer_t before = s;
  EXPECT_EQ(arcoll_explorer_moving_root(&s), 0);
  for (int i = 0; i < s.n; ++i) EXPECT_EQ(name(s, i), name(before, i));
}

// The streaming candidate in an earlier slot than the one binomial takes:
// the two swap, so the streaming one is still measured last.
TEST(OnlineMovingRootBcast, TheStreamingCandidateStaysMeasuredLast) {
  arcoll_model_t m;
  char err[256];
  ASSERT_EQ(arcoll_model_load(ARCOLL_TEST_CLUSTER_MODEL, &m, err, sizeof err), 0) << err;
  arcoll_explorer_t e = bcast_explorer(m, 32768);
  ASSERT_GE(e.n, 4);
  ASSERT_GT(e.stream_at, 1);
  // the streaming candidate in slot 1 (as where the compressed algorithm
  // took a later one)
  std::swap(e.cand[e.stream_at], e.cand[1]);
  e.stream_at = 1;
  const arcoll_explorer_t before = e;
  arcoll_explorer_note_root(&e, 3);
  arcoll_explorer_note_root(&e, 4);
  ASSERT_EQ(arcoll_explorer_moving_root(&e), 1);
  check_moved(before, e);
  EXPECT_GT(e.stream_at, 1);
  EXPECT_EQ(arcoll_explorer_find(&e, "binomial"), 1);
}
