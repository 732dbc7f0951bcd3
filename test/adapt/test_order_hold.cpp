// Unit tests of a summary group's list (arcoll_late_group_put, lateness.c)
// and of keeping late ranks whose records are missing late
// (arcoll_history_hold_missing, order.c).
#include <gtest/gtest.h>

#include <vector>

extern "C" {
#include "lateness.h"
#include "order.h"
}

namespace {

arcoll_late_group_t empty_group(uint64_t site, int root, double t_level) {
  arcoll_late_group_t g{};
  g.site = site, g.root = root, g.t_level = (float)t_level;
  return g;
}

int put(arcoll_late_group_t &g, int rank, double lateness) {
  return arcoll_late_group_put(&g, arcoll_late_entry_t{rank, (float)lateness});
}

std::vector<int> ranks_of(const arcoll_late_group_t &g) {
  std::vector<int> v;
  for (int i = 0; i < g.n; ++i) v.push_back(g.late[i].rank);
  return v;
}

TEST(GroupPut, KeepsTheListLatestFirstAndRaisesButNeverLowers) {
  arcoll_late_group_t g = empty_group(1, 0, 1e-4);
  EXPECT_EQ(put(g, 3, 2e-4), 1);
  EXPECT_EQ(put(g, 5, 5e-4), 1);
  EXPECT_EQ(put(g, 7, 1e-4), 1);
  EXPECT_EQ(ranks_of(g), (std::vector<int>{5, 3, 7}));
  EXPECT_EQ(put(g, 3, 1e-5), 0);  // lower than listed: unchanged
  EXPECT_FLOAT_EQ(g.late[1].lateness, 2e-4f);
  EXPECT_EQ(put(g, 7, 9e-4), 1);  // raised: moves to the front, not listed twice
  EXPECT_EQ(ranks_of(g), (std::vector<int>{7, 5, 3}));
}

TEST(GroupPut, AFullListDropsItsSmallestOnlyForALargerOne) {
  arcoll_late_group_t g = empty_group(1, 0, 1e-4);
  for (int r = 0; r < ARCOLL_LATE_LIST; ++r) ASSERT_EQ(put(g, r + 1, 1e-3 - r * 1e-5), 1);
  ASSERT_EQ(g.n, ARCOLL_LATE_LIST);
  const int smallest = g.late[ARCOLL_LATE_LIST - 1].rank;
  EXPECT_EQ(put(g, 100, 1e-6), 0);  // smaller than all of a full list
  EXPECT_EQ(g.n, ARCOLL_LATE_LIST);
  EXPECT_EQ(put(g, 101, 2e-3), 1);
  EXPECT_EQ(g.n, ARCOLL_LATE_LIST);
  EXPECT_EQ(g.late[0].rank, 101);
  for (int i = 0; i < g.n; ++i) EXPECT_NE(g.late[i].rank, smallest);
}

struct Hist {
  arcoll_history_t h;
  uint64_t calls = 0;
  Hist(int P, double alpha) { EXPECT_EQ(arcoll_history_init(&h, P, alpha), 0); }
  ~Hist() { arcoll_history_free(&h); }
  int fold(const arcoll_late_group_t &g) {
    int changed = -1;
    EXPECT_EQ(arcoll_history_fold(&h, &g, &changed), 0);
    arcoll_history_push(&h, calls++, g.site, g.root);  // the order's site prediction
    return changed;
  }
};

// Rank 4 of 16 late by 1 ms (t_level 0.1 ms), then its records stop
// arriving: held, it stays late however many exchanges it misses; once its
// records are in again without lateness, its EWMA decays and it is dropped.
TEST(HoldMissing, ALateRankWithoutRecordsStaysLateUntilItsRecordsSayOtherwise) {
  Hist H(16, 0.5);
  arcoll_late_group_t g = empty_group(9, 0, 1e-4);
  put(g, 4, 1e-3);
  EXPECT_EQ(H.fold(g), 1);
  ASSERT_NE(arcoll_history_order(&H.h, 1, 0), nullptr);
  std::vector<unsigned char> present(16, 1);
  present[4] = 0;
  for (int x = 0; x < 10; ++x) {
    arcoll_late_group_t s = empty_group(9, 0, 1e-4);
    EXPECT_EQ(arcoll_history_hold_missing(&H.h, present.data(), &s), 1);
    ASSERT_EQ(s.n, 1);
    EXPECT_EQ(s.late[0].rank, 4);
    EXPECT_NEAR(s.late[0].lateness, 1e-3, 1e-9);
    EXPECT_EQ(H.fold(s), 0) << "exchange " << x;
  }
  present[4] = 1;  // its records are in, and show no lateness
  int dropped_after = -1;
  for (int x = 0; x < 10 && dropped_after < 0; ++x) {
    arcoll_late_group_t s = empty_group(9, 0, 1e-4);
    EXPECT_EQ(arcoll_history_hold_missing(&H.h, present.data(), &s), 0);
    if (H.fold(s)) dropped_after = x + 1;
  }
  EXPECT_EQ(dropped_after, 5);  // 1 ms halved 5 times: below half the 0.1 ms threshold
  EXPECT_EQ(arcoll_history_order(&H.h, 2, 0), nullptr);
}

TEST(HoldMissing, OnlyKnownLateRanksOfTheSameSiteAndRootAreHeld) {
  Hist H(16, 0.5);
  arcoll_late_group_t g = empty_group(9, 0, 1e-4);
  put(g, 4, 1e-3);
  H.fold(g);
  std::vector<unsigned char> present(16, 0);  // nobody's records arrived
  arcoll_late_group_t same = empty_group(9, 0, 1e-4);
  EXPECT_EQ(arcoll_history_hold_missing(&H.h, present.data(), &same), 1);
  EXPECT_EQ(ranks_of(same), (std::vector<int>{4}));  // not the 14 on-time ranks, not the root
  arcoll_late_group_t other_root = empty_group(9, 2, 1e-4);
  EXPECT_EQ(arcoll_history_hold_missing(&H.h, present.data(), &other_root), 0);
  arcoll_late_group_t other_site = empty_group(8, 0, 1e-4);
  EXPECT_EQ(arcoll_history_hold_missing(&H.h, present.data(), &other_site), 0);
  // a larger measured value already listed is kept
  arcoll_late_group_t measured = empty_group(9, 0, 1e-4);
  put(measured, 4, 3e-3);
  EXPECT_EQ(arcoll_history_hold_missing(&H.h, present.data(), &measured), 0);
  EXPECT_FLOAT_EQ(measured.late[0].lateness, 3e-3f);
}

}  // namespace
