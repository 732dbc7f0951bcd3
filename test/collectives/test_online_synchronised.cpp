// Round 0 of a bcast exploration fitted to synchronised calls
// (collectives/online_slots.h arcoll_explorer_synchronised): the streaming
// configuration and the compressed algorithm leave when the model rules them
// out, the others and the noted tree's runs stay in place, the dropped ones
// become spare, and nothing changes once a run was measured.  No MPI.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "compress_decide.h"
#include "online.h"
#include "online_noted.h"
#include "online_slots.h"
#include "select.h"

namespace {

// A bcast explorer for P = 256, 64 KiB (built-in model), 5 candidates, 2
// trials, no refinement, the tolerant tree's two runs noted (as the calls
// before the first lateness summary do).
void setup(arcoll_explorer_t &e, arcoll_model_t &m) {
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_AUTO, 0, 0);  // the default (other tests turn it off)
  ASSERT_EQ(arcoll_explorer_init(&e, &m, ARCOLL_COLL_BCAST, 256, 65536, 1, 5, 2, 0), 5);
  ASSERT_GE(e.stream_at, 1);
  ASSERT_GE(arcoll_explorer_find(&e, "compressed"), 1);
  const arcoll_choice_t b{
      arcoll_algorithm_find(ARCOLL_COLL_BCAST, arcoll_tolerant_tree(ARCOLL_COLL_BCAST, 65536)), 8192,
      0, 0.0};
  ASSERT_EQ(arcoll_explorer_note_run(&e, &b, 3e-4, 3e-4, 0), 0);
  ASSERT_EQ(arcoll_explorer_note_run(&e, &b, 2e-4, 2e-4, 0), 1);
  ASSERT_EQ(e.cand[e.n - 1].algo, b.algo);  // last, preset from the noted runs
}

TEST(OnlineSynchronised, ChainAndCompressedLeaveTheOthersKeepTheirPlaces) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  setup(e, m);
  const std::string chain = e.cand[e.stream_at].algo->name;
  std::vector<std::string> kept;
  for (int i = 0; i < e.n; ++i)
    if (i != e.stream_at && std::string(e.cand[i].algo->name) != "compressed")
      kept.push_back(e.cand[i].algo->name);
  const int nspare = e.nspare;
  const char *names[2] = {nullptr, nullptr};
  ASSERT_EQ(arcoll_explorer_synchronised(&e, names, 2), 2);
  EXPECT_EQ(std::set<std::string>({names[0], names[1]}), std::set<std::string>({chain, "compressed"}));
  ASSERT_EQ(e.n, (int)kept.size());
  for (int i = 0; i < e.n; ++i) EXPECT_EQ(e.cand[i].algo->name, kept[i]) << i;
  EXPECT_EQ(e.stream_at, 0);
  EXPECT_EQ(e.warmup_stream, 0);
  // the noted tree is still last, with its runs
  EXPECT_DOUBLE_EQ(e.t[(e.n - 1) * e.trials], 3e-4);
  EXPECT_DOUBLE_EQ(e.t[(e.n - 1) * e.trials + 1], 2e-4);
  // both spare: measured if the model turns out to be off
  ASSERT_EQ(e.nspare, nspare + 2);
  // the round runs the others only, 2 trials each
  std::vector<std::string> ran;
  const arcoll_choice_t *ch;
  while ((ch = arcoll_explorer_next(&e)) != nullptr && ran.size() < 50) {
    ran.push_back(ch->algo->name);
    if (arcoll_explorer_record_period(&e, 1e-3, 1e-3, 0) == 1) break;
  }
  for (const std::string &s : ran) {
    EXPECT_NE(s, chain);
    EXPECT_NE(s, "compressed");
  }
  EXPECT_EQ(ran.size(), 2u * (kept.size() - 1)) << ::testing::PrintToString(ran);  // the tree: noted
}

TEST(OnlineSynchronised, WhatTheModelAdmitsStays) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  setup(e, m);
  const int n = e.n;
  e.cand[e.stream_at].predicted_s = 1.5 * e.cand[0].predicted_s;  // within 2x: stays
  const char *names[2] = {nullptr, nullptr};
  ASSERT_EQ(arcoll_explorer_synchronised(&e, names, 2), 1);  // compressed's floor still > 2x
  EXPECT_STREQ(names[0], "compressed");
  EXPECT_EQ(e.n, n - 1);
  EXPECT_GE(e.stream_at, 1);
  EXPECT_EQ(e.warmup_stream, 1);
}

TEST(OnlineSynchronised, NothingChangesOnceARunWasMeasured) {
  arcoll_explorer_t e;
  arcoll_model_t m;
  setup(e, m);
  const int n = e.n;
  ASSERT_EQ(arcoll_explorer_record_period(&e, 1e-3, 1e-3, 0), 0);  // the warm-up call
  ASSERT_EQ(arcoll_explorer_record_period(&e, 1e-3, 1e-3, 0), 0);  // a measured run
  EXPECT_EQ(arcoll_explorer_synchronised(&e, nullptr, 0), 0);
  EXPECT_EQ(e.n, n);
}

}  // namespace
